// SPDX-License-Identifier: MIT
// Helpers shared by the froce_axis_pack / froce_axis_split Verilator benches.
#pragma once

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "verilated.h"

#ifndef DATA_WIDTH
#error "build with -DDATA_WIDTH=<bits>"
#endif

namespace tb_axis {

constexpr unsigned W = DATA_WIDTH / 8;      // bytes per beat

// ---- Verilator signal <-> bytes --------------------------------------------

template <typename T>
std::enable_if_t<std::is_integral_v<T>> set_bytes(T &sig, const uint8_t *b) {
    uint64_t v = 0;
    for (unsigned i = 0; i < sizeof(T); i++) v |= uint64_t(b[i]) << (8 * i);
    sig = T(v);
}
template <std::size_t N>
void set_bytes(VlWide<N> &sig, const uint8_t *b) {
    for (std::size_t w = 0; w < N; w++)
        sig[w] = uint32_t(b[4 * w]) | uint32_t(b[4 * w + 1]) << 8 | uint32_t(b[4 * w + 2]) << 16 |
                 uint32_t(b[4 * w + 3]) << 24;
}
template <typename T>
std::enable_if_t<std::is_integral_v<T>> get_bytes(const T &sig, uint8_t *b) {
    for (unsigned i = 0; i < sizeof(T); i++) b[i] = uint8_t(uint64_t(sig) >> (8 * i));
}
template <std::size_t N>
void get_bytes(const VlWide<N> &sig, uint8_t *b) {
    for (std::size_t w = 0; w < N; w++)
        for (unsigned j = 0; j < 4; j++) b[4 * w + j] = uint8_t(sig[w] >> (8 * j));
}

inline uint64_t keep_mask(unsigned n) { return n >= 64 ? ~0ull : ((1ull << n) - 1); }
inline uint64_t all_keep() { return keep_mask(W); }

// bytes below the lowest zero bit of keep
inline unsigned low_ones(uint64_t keep) {
    unsigned n = 0;
    while (n < W && (keep >> n & 1)) n++;
    return n;
}

// One beat on a stream.
struct Beat {
    uint8_t data[64];
    uint64_t keep = 0;
    bool last = false;
    bool user = false;
};

// Expected output beats for a byte string cut into beats of W bytes: every
// beat full except the last; an empty string is one beat with keep 0.
template <typename C>
void beats_of(const std::vector<uint8_t> &bytes, C &out) {
    size_t n = bytes.size(), pos = 0;
    do {
        Beat b;
        memset(b.data, 0, sizeof b.data);
        unsigned k = unsigned(std::min<size_t>(W, n - pos));
        memcpy(b.data, bytes.data() + pos, k);
        b.keep = keep_mask(k);
        pos += k;
        b.last = pos == n;
        out.push_back(b);
    } while (pos < n);
}

class Rng {
public:
    explicit Rng(uint64_t seed) : g_(seed) {}
    uint32_t pick(uint32_t n) { return n ? uint32_t(g_() % n) : 0; }
    bool chance(unsigned pct) { return pct >= 100 || pick(100) < pct; }
    uint8_t byte() { return uint8_t(g_()); }
    uint64_t u64() { return g_(); }
    // piece sizes: 0, 1, W-1, W, W+1, 2W +- 1, small, up to a few KiB
    uint32_t piece_len(bool allow_zero = true) {
        unsigned k = pick(100);
        if (k < 8) return allow_zero ? 0 : 1;
        if (k < 14) return 1;
        if (k < 20) return W - 1;
        if (k < 26) return W;
        if (k < 32) return W + 1;
        if (k < 36) return 2 * W - 1;
        if (k < 40) return 2 * W + 1;
        if (k < 70) return 1 + pick(3 * W);
        if (k < 92) return 1 + pick(1024);
        return 1 + pick(4096);
    }

private:
    std::mt19937_64 g_;
};

inline std::string hex_beat(const uint8_t *b, uint64_t keep) {
    std::string s;
    char t[4];
    for (unsigned i = 0; i < W; i++) {
        if (keep >> i & 1) snprintf(t, sizeof t, "%02x", b[i]);
        else snprintf(t, sizeof t, "..");
        s += t;
    }
    return s;
}

}  // namespace tb_axis
