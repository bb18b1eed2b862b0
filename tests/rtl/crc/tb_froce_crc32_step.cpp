// SPDX-License-Identifier: MIT
// Verilator testbench for froce_crc32_step: random beats vs. a software CRC, and ICRC of real rxe frames.
//
// Build (one model per width; run.sh does this):
//   verilator -Wall --cc --exe --build -Irtl/crc -GDATA_WIDTH=64
//     -CFLAGS -DDATA_WIDTH=64 --Mdir build/tests/crc/vl_w64
//     rtl/crc/froce_crc32_step.v $PWD/tests/rtl/crc/tb_froce_crc32_step.cpp
//
// Usage: Vfroce_crc32_step <icrc_vectors.csv> [--iters N] [--seed S] [--inject-error]
//   --inject-error corrupts one expected value on purpose; the run must then
//   fail (negative control for the checker itself).
//
// Checks:
//   1. random crc_in and data, every len 0..W, bytes >= len filled with
//      random junk: crc_out == software byte-wise CRC over the first len bytes;
//   2. ICRC of every frame of the CSV, computed with the RTL step from
//      register 0 over the frame with the Ethernet header bytes before
//      ip_start-4 zeroed, the 4 bytes before ip_start set to 0xFF, and the
//      IP/UDP/BTH invariant-field masks applied, final xor 0xFFFFFFFF, equals
//      icrc_crc32_value (and the trailer bytes); beats full-width with one
//      partial last beat, and again with random beat sizes 0..W;
//   3. the same frame with one bit flipped gives a different ICRC.

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "Vfroce_crc32_step.h"
#include "verilated.h"

#ifndef DATA_WIDTH
#error "compile with -DDATA_WIDTH=<width matching the Verilog parameter>"
#endif

static const unsigned kBytes = DATA_WIDTH / 8;

// ---------------------------------------------------------------- reference

static uint32_t crc_table[256];

static void crc_init_table() {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ ((c & 1) ? 0xEDB88320u : 0u);
        crc_table[i] = c;
    }
}

// Software step: same register convention as the RTL (no init, no final xor).
static uint32_t sw_step(uint32_t r, const uint8_t* p, size_t n) {
    for (size_t i = 0; i < n; i++) r = (r >> 8) ^ crc_table[(r ^ p[i]) & 0xFF];
    return r;
}

// ---------------------------------------------------------------- DUT access

static inline void put_data(CData& d, const uint8_t* b) { d = b[0]; }

static inline void put_data(IData& d, const uint8_t* b) {
    d = 0;
    for (unsigned i = 0; i < 4; i++) d |= static_cast<IData>(b[i]) << (8 * i);
}

static inline void put_data(QData& d, const uint8_t* b) {
    d = 0;
    for (unsigned i = 0; i < 8; i++) d |= static_cast<QData>(b[i]) << (8 * i);
}

template <std::size_t N>
static inline void put_data(VlWide<N>& d, const uint8_t* b) {
    for (std::size_t w = 0; w < N; w++) {
        EData v = 0;
        for (unsigned i = 0; i < 4; i++) v |= static_cast<EData>(b[4 * w + i]) << (8 * i);
        d[w] = v;
    }
}

struct Harness {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vfroce_crc32_step> dut;
    std::mt19937_64 rng;
    uint64_t evals = 0;

    explicit Harness(uint64_t seed) : ctx(new VerilatedContext), rng(seed) {
        dut.reset(new Vfroce_crc32_step(ctx.get(), "dut"));
    }

    // One beat: bytes p[0..len-1]; bytes len..W-1 are random junk (must be ignored).
    uint32_t step(uint32_t r, const uint8_t* p, unsigned len) {
        uint8_t beat[kBytes];
        for (unsigned i = 0; i < kBytes; i++) beat[i] = (i < len) ? p[i] : static_cast<uint8_t>(rng());
        dut->crc_in = r;
        put_data(dut->data, beat);
        dut->len = len;
        dut->eval();
        evals++;
        return dut->crc_out;
    }

    // Whole stream, full beats then one partial beat.
    uint32_t stream(uint32_t r, const std::vector<uint8_t>& s) {
        for (size_t off = 0; off < s.size(); off += kBytes) {
            size_t n = s.size() - off;
            r = step(r, &s[off], static_cast<unsigned>(n < kBytes ? n : kBytes));
        }
        return r;
    }

    // Whole stream, random beat sizes 0..W (zero-length beats included).
    uint32_t stream_random(uint32_t r, const std::vector<uint8_t>& s) {
        size_t off = 0;
        while (off < s.size()) {
            size_t n = rng() % (kBytes + 1);
            if (n > s.size() - off) n = s.size() - off;
            r = step(r, &s[off], static_cast<unsigned>(n));
            off += n;
        }
        return r;
    }
};

static unsigned long failures = 0;

static void expect_eq(const char* what, uint32_t got, uint32_t exp, const std::string& ctx) {
    if (got != exp) {
        if (failures < 20)
            std::printf("FAIL: %s: got 0x%08" PRIx32 " expected 0x%08" PRIx32 " (%s)\n", what, got, exp,
                        ctx.c_str());
        failures++;
    }
}

// ---------------------------------------------------------------- test 1

static unsigned long test_random(Harness& h, unsigned iters) {
    unsigned long checks = 0;
    std::vector<uint8_t> data(kBytes);
    for (unsigned it = 0; it < iters; it++) {
        uint32_t r = static_cast<uint32_t>(h.rng());
        for (unsigned i = 0; i < kBytes; i++) data[i] = static_cast<uint8_t>(h.rng());
        // a few fixed corner patterns first
        if (it == 0) { r = 0; std::fill(data.begin(), data.end(), 0x00); }
        if (it == 1) { r = 0xFFFFFFFFu; std::fill(data.begin(), data.end(), 0xFF); }
        if (it == 2) { r = 0; std::fill(data.begin(), data.end(), 0xFF); }
        if (it == 3) { r = 0xFFFFFFFFu; std::fill(data.begin(), data.end(), 0x00); }
        for (unsigned len = 0; len <= kBytes; len++) {
            uint32_t got = h.step(r, data.data(), len);
            uint32_t exp = sw_step(r, data.data(), len);
            char buf[64];
            std::snprintf(buf, sizeof buf, "iter %u len %u crc_in 0x%08" PRIx32, it, len, r);
            expect_eq("random beat", got, exp, buf);
            checks++;
        }
    }
    return checks;
}

// ---------------------------------------------------------------- test 2/3

struct Row {
    std::string file, frame, hex, icrc_value, icrc_wire;
};

static std::vector<std::string> split_csv(const std::string& line) {
    // The vector file has no quoted fields; reject any so a format change is noticed.
    std::vector<std::string> out;
    std::stringstream ss(line);
    std::string f;
    while (std::getline(ss, f, ',')) {
        if (!f.empty() && f.back() == '\r') f.pop_back();
        out.push_back(f);
    }
    return out;
}

static bool read_csv(const char* path, std::vector<Row>& rows) {
    std::ifstream in(path);
    if (!in) {
        std::printf("FAIL: cannot open %s\n", path);
        return false;
    }
    std::string line;
    if (!std::getline(in, line)) return false;
    std::vector<std::string> hdr = split_csv(line);
    int c_file = -1, c_frame = -1, c_hex = -1, c_val = -1, c_wire = -1;
    for (size_t i = 0; i < hdr.size(); i++) {
        if (hdr[i] == "file") c_file = static_cast<int>(i);
        if (hdr[i] == "frame") c_frame = static_cast<int>(i);
        if (hdr[i] == "frame_hex") c_hex = static_cast<int>(i);
        if (hdr[i] == "icrc_crc32_value") c_val = static_cast<int>(i);
        if (hdr[i] == "icrc_wire_bytes") c_wire = static_cast<int>(i);
    }
    if (c_file < 0 || c_frame < 0 || c_hex < 0 || c_val < 0 || c_wire < 0) {
        std::printf("FAIL: %s lacks a required column\n", path);
        return false;
    }
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        if (line.find('"') != std::string::npos) {
            std::printf("FAIL: quoted CSV field not supported: %s\n", line.substr(0, 60).c_str());
            return false;
        }
        std::vector<std::string> f = split_csv(line);
        if (f.size() != hdr.size()) {
            std::printf("FAIL: CSV row with %zu fields, header has %zu\n", f.size(), hdr.size());
            return false;
        }
        rows.push_back(Row{f[c_file], f[c_frame], f[c_hex], f[c_val], f[c_wire]});
    }
    return true;
}

static std::vector<uint8_t> from_hex(const std::string& s) {
    std::vector<uint8_t> out;
    for (size_t i = 0; i + 1 < s.size(); i += 2) out.push_back(static_cast<uint8_t>(std::stoul(s.substr(i, 2), nullptr, 16)));
    return out;
}

enum { KIND_IPV4 = 0, KIND_IPV6 = 1, KIND_VLAN = 2 };

// Builds the stream the RTL runs from register 0: frame without its ICRC,
// bytes [0, ip_start-4) = 0x00, [ip_start-4, ip_start) = 0xFF, invariant
// fields masked. Returns false (and says why) if the frame is not RoCE v2.
static bool icrc_stream(const std::vector<uint8_t>& f, std::vector<uint8_t>& s, int& kind, std::string& why) {
    if (f.size() < 14 + 4) { why = "short frame"; return false; }
    size_t ip = 14;
    unsigned et = (f[12] << 8) | f[13];
    bool vlan = false;
    if (et == 0x8100) {
        vlan = true;
        ip = 18;
        et = (f[16] << 8) | f[17];
    }
    s.assign(f.begin(), f.end() - 4);
    size_t udp;
    if (et == 0x0800) {
        if (s.size() < ip + 20) { why = "short IPv4"; return false; }
        unsigned ihl = s[ip] & 0x0F;
        if ((s[ip] >> 4) != 4 || ihl < 5) { why = "bad IPv4 version/IHL"; return false; }
        if (s[ip + 9] != 17) { why = "not UDP"; return false; }
        s[ip + 1] = 0xFF;   // TOS
        s[ip + 8] = 0xFF;   // TTL
        s[ip + 10] = 0xFF;  // header checksum
        s[ip + 11] = 0xFF;
        udp = ip + 4 * ihl;
        kind = vlan ? KIND_VLAN : KIND_IPV4;
    } else if (et == 0x86DD) {
        if (s.size() < ip + 40) { why = "short IPv6"; return false; }
        if ((s[ip] >> 4) != 6 || s[ip + 6] != 17) { why = "not IPv6/UDP"; return false; }
        s[ip + 0] |= 0x0F;  // traffic class low nibble
        s[ip + 1] = 0xFF;   // traffic class / flow label
        s[ip + 2] = 0xFF;
        s[ip + 3] = 0xFF;
        s[ip + 7] = 0xFF;   // hop limit
        udp = ip + 40;
        kind = vlan ? KIND_VLAN : KIND_IPV6;
    } else {
        why = "unknown ethertype";
        return false;
    }
    if (s.size() < udp + 8 + 12) { why = "short UDP/BTH"; return false; }
    if (((s[udp + 2] << 8) | s[udp + 3]) != 4791) { why = "UDP destination port is not 4791"; return false; }
    s[udp + 6] = 0xFF;  // UDP checksum
    s[udp + 7] = 0xFF;
    s[udp + 8 + 4] = 0xFF;  // BTH byte 4: FECN/BECN/resv6a
    for (size_t i = 0; i < ip - 4; i++) s[i] = 0x00;
    for (size_t i = ip - 4; i < ip; i++) s[i] = 0xFF;
    return true;
}

static bool test_frames(Harness& h, const char* csv, bool inject_error, unsigned long& checks) {
    std::vector<Row> rows;
    if (!read_csv(csv, rows)) return false;
    unsigned long kinds[3] = {0, 0, 0};
    for (size_t n = 0; n < rows.size(); n++) {
        const Row& row = rows[n];
        std::string ctx = row.file + " frame " + row.frame;
        std::vector<uint8_t> f = from_hex(row.hex);
        std::vector<uint8_t> s;
        int kind = 0;
        std::string why;
        if (!icrc_stream(f, s, kind, why)) {
            std::printf("FAIL: %s: %s\n", ctx.c_str(), why.c_str());
            failures++;
            continue;
        }
        kinds[kind]++;
        uint32_t exp = static_cast<uint32_t>(std::stoul(row.icrc_value, nullptr, 16));
        if (inject_error && n == rows.size() / 2) exp ^= 0x00010000u;
        // the CSV value is the trailer read little-endian
        uint32_t trailer = f[f.size() - 4] | (f[f.size() - 3] << 8) | (f[f.size() - 2] << 16) |
                           (static_cast<uint32_t>(f[f.size() - 1]) << 24);
        expect_eq("CSV icrc_crc32_value vs frame trailer", trailer,
                  static_cast<uint32_t>(std::stoul(row.icrc_value, nullptr, 16)), ctx);
        expect_eq("software reference ICRC", sw_step(0, s.data(), s.size()) ^ 0xFFFFFFFFu, exp, ctx);
        expect_eq("RTL ICRC, full beats", h.stream(0, s) ^ 0xFFFFFFFFu, exp, ctx);
        expect_eq("RTL ICRC, random beat sizes", h.stream_random(0, s) ^ 0xFFFFFFFFu, exp, ctx);
        // one flipped bit past the zeroed Ethernet bytes must change the ICRC
        std::vector<uint8_t> bad = s;
        size_t pos = 14 + h.rng() % (bad.size() - 14);
        bad[pos] ^= static_cast<uint8_t>(1u << (h.rng() % 8));
        uint32_t got_bad = h.stream(0, bad) ^ 0xFFFFFFFFu;
        if (got_bad == exp) {
            std::printf("FAIL: %s: corrupted frame (byte %zu) still matches the ICRC\n", ctx.c_str(), pos);
            failures++;
        }
        checks += 5;
    }
    std::printf("  frames: %zu rows (IPv4 %lu, IPv6 %lu, VLAN %lu)\n", rows.size(), kinds[KIND_IPV4],
                kinds[KIND_IPV6], kinds[KIND_VLAN]);
    if (rows.empty() || kinds[KIND_IPV4] == 0 || kinds[KIND_IPV6] == 0 || kinds[KIND_VLAN] == 0) {
        std::printf("FAIL: the CSV must contain IPv4, IPv6 and VLAN rows\n");
        failures++;
    }
    return true;
}

// ---------------------------------------------------------------- main

int main(int argc, char** argv) {
    const char* csv = nullptr;
    unsigned iters = 2000;
    uint64_t seed = 0x6672636520637263ull;
    bool inject_error = false;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--iters") && i + 1 < argc) {
            iters = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 0));
        } else if (!std::strcmp(argv[i], "--seed") && i + 1 < argc) {
            seed = std::strtoull(argv[++i], nullptr, 0);
        } else if (!std::strcmp(argv[i], "--inject-error")) {
            inject_error = true;
        } else if (argv[i][0] == '+') {
            // Verilator plusargs
        } else if (!csv) {
            csv = argv[i];
        } else {
            std::fprintf(stderr, "usage: %s <icrc_vectors.csv> [--iters N] [--seed S] [--inject-error]\n", argv[0]);
            return 2;
        }
    }
    if (!csv) {
        std::fprintf(stderr, "usage: %s <icrc_vectors.csv> [--iters N] [--seed S] [--inject-error]\n", argv[0]);
        return 2;
    }

    crc_init_table();
    if ((sw_step(0xFFFFFFFFu, reinterpret_cast<const uint8_t*>("123456789"), 9) ^ 0xFFFFFFFFu) != 0xCBF43926u) {
        std::printf("FAIL: software reference CRC-32(\"123456789\") != 0xCBF43926\n");
        return 1;
    }

    Harness h(seed);
    std::printf("froce_crc32_step DATA_WIDTH=%d (W=%u bytes), seed 0x%016" PRIx64 "%s\n", DATA_WIDTH, kBytes, seed,
                inject_error ? ", INJECTED ERROR" : "");

    unsigned long checks = test_random(h, iters);
    std::printf("  random: %u beats x len 0..%u = %lu checks vs software CRC\n", iters, kBytes, checks);

    unsigned long frame_checks = 0;
    if (!test_frames(h, csv, inject_error, frame_checks)) failures++;
    std::printf("  frames: %lu checks (CSV icrc_crc32_value, software reference, RTL full/random beats, "
                "bit flip)\n",
                frame_checks);

    h.dut->final();
    if (failures) {
        std::printf("FAIL: froce_crc32_step DATA_WIDTH=%d: %lu mismatches (%" PRIu64 " evals)\n", DATA_WIDTH,
                    failures, h.evals);
        return 1;
    }
    std::printf("PASS: froce_crc32_step DATA_WIDTH=%d: %lu checks, %" PRIu64 " evals\n", DATA_WIDTH,
                checks + frame_checks, h.evals);
    return 0;
}
