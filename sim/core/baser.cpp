// SPDX-License-Identifier: MIT
// The 10GBASE-R line side; see baser.h.
#include "baser.h"

#include <algorithm>
#include <array>

namespace froce_sim {
namespace baser {

namespace {

constexpr uint8_t kXgIdle = 0x07, kXgStart = 0xFB, kXgTerm = 0xFD;
constexpr uint64_t kMask39 = (uint64_t(1) << 39) - 1;
constexpr uint64_t kMask25 = (uint64_t(1) << 25) - 1;
// block types with /T/ in lane 0..7 (Table 49-7)
constexpr uint8_t kTermTypes[8] = {0x87, 0x99, 0xAA, 0xB4, 0xCC, 0xD2, 0xE1, 0xFF};
// EBLOCK_T: 0x1E with the error code 0x1E in all eight lanes
constexpr uint64_t eblock() {
    uint64_t p = 0x1E;
    for (unsigned i = 0; i < 8; i++) p |= uint64_t(0x1E) << (8 + 7 * i);
    return p;
}

std::array<uint32_t, 256> make_crc_table() {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int b = 0; b < 8; b++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
        t[i] = c;
    }
    return t;
}

// the 7-bit control codes of Table 49-1
bool valid_code(unsigned c) {
    switch (c) {
    case 0x00: case 0x06: case 0x1E: case 0x2D: case 0x33: case 0x4B: case 0x55: case 0x66: case 0x78:
        return true;
    default:
        return false;
    }
}

bool valid_o(unsigned o) { return o == 0x0 || o == 0xF; }

unsigned code_at(uint64_t p, unsigned lane) { return unsigned(p >> (8 + 7 * lane)) & 0x7F; }

bool codes_valid(uint64_t p, unsigned from, unsigned to) {
    for (unsigned i = from; i < to; i++)
        if (!valid_code(code_at(p, i))) return false;
    return true;
}

}  // namespace

uint32_t fcs32(const uint8_t *data, size_t n) {
    static const std::array<uint32_t, 256> table = make_crc_table();
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) crc = (crc >> 8) ^ table[(crc ^ data[i]) & 0xFF];
    return ~crc;
}

void to_bus(const Block &b, bool reverse, uint64_t *data, uint8_t *hdr) {
    if (!reverse) {
        *data = b.payload;
        *hdr = b.hdr & 3;
        return;
    }
    uint64_t r = 0;
    for (unsigned i = 0; i < 64; i++) r |= ((b.payload >> i) & 1) << (63 - i);
    *data = r;
    *hdr = uint8_t(((b.hdr & 1) << 1) | ((b.hdr >> 1) & 1));
}

Block from_bus(uint64_t data, uint8_t hdr, bool reverse) {
    Block b;
    b.payload = data;
    b.hdr = hdr & 3;
    uint64_t d;
    uint8_t h;
    to_bus(b, reverse, &d, &h);
    return Block{h, d};
}

// ---- scrambler ---------------------------------------------------------------

uint64_t Scrambler::operator()(uint64_t x) {
    const uint64_t s = state_;
    // y[n] = x[n] ^ y[n-39] ^ y[n-58]; state bit k holds y[k-58]
    const uint64_t lo = (x ^ (s >> 19) ^ s) & kMask39;                          // y[0..38]
    const uint64_t hi = ((x >> 39) ^ lo ^ ((s >> 39) | (lo << 19))) & kMask25;   // y[39..63]
    const uint64_t y = lo | (hi << 39);
    state_ = y >> 6;
    return y;
}

uint64_t Descrambler::operator()(uint64_t y) {
    const uint64_t s = state_;
    const uint64_t x = y ^ ((s >> 19) | (y << 39)) ^ (s | (y << 58));
    state_ = y >> 6;
    return x;
}

// ---- encoder -------------------------------------------------------------------

BlockEncoder::BlockEncoder(const EncoderConfig &cfg) : cfg_(cfg), scr_(cfg.scrambler_state) {
    if (cfg_.ifg < 4) cfg_.ifg = 4;   // the gap arithmetic needs ifg - 3 >= 1
}

void BlockEncoder::push(const std::vector<uint8_t> &frame) {
    std::vector<uint8_t> line(7, 0x55);
    line.push_back(0xD5);
    line.insert(line.end(), frame.begin(), frame.end());
    if (frame.size() < kMinFrame) {
        line.resize(8 + kMinFrame, 0);
        st_.padded++;
    }
    const uint32_t fcs = fcs32(line.data() + 8, line.size() - 8);
    for (unsigned i = 0; i < 4; i++) line.push_back(uint8_t(fcs >> (8 * i)));
    queued_.push_back(std::move(line));
}

void BlockEncoder::schedule(const std::vector<uint8_t> &line) {
    auto allowed = [&](uint64_t lane) { return lane % 8 == 0 || (cfg_.start_lane4 && lane % 8 == 4); };
    uint64_t s = pos_ + lanes_.size();
    if (have_term_) s = std::max(s, last_term_ + (cfg_.dic ? cfg_.ifg - 3 + dic_ : cfg_.ifg));
    while (!allowed(s)) s++;
    if (have_term_ && cfg_.dic) {
        const long d = long(dic_) + long(cfg_.ifg) - long(s - last_term_);
        dic_ = unsigned(std::min(std::max(d, 0L), 3L));
    }
    while (pos_ + lanes_.size() < s) lanes_.push_back({kXgIdle, true});
    lanes_.push_back({kXgStart, true});   // /S/ takes the first preamble byte's place
    for (size_t i = 1; i < line.size(); i++) lanes_.push_back({line[i], false});
    last_term_ = s + line.size();
    have_term_ = true;
    lanes_.push_back({kXgTerm, true});
    started_.push_back({last_term_, line.size() - 12});
}

Block BlockEncoder::encode(const Lane *w) {
    unsigned ctrl = 0;
    for (unsigned i = 0; i < 8; i++) ctrl |= unsigned(w[i].ctrl) << i;
    auto is = [&](unsigned i, uint8_t c) { return w[i].ctrl && w[i].byte == c; };
    auto data_from = [&](unsigned from, unsigned to, unsigned bit) {
        uint64_t p = 0;
        for (unsigned i = from; i < to; i++, bit += 8) p |= uint64_t(w[i].byte) << bit;
        return p;
    };
    auto idle = [&](unsigned from, unsigned to) {
        for (unsigned i = from; i < to; i++)
            if (!is(i, kXgIdle)) return false;
        return true;
    };
    if (ctrl == 0) return Block{kSyncData, data_from(0, 8, 0)};
    if (ctrl == 0xFF && idle(0, 8)) return Block{kSyncCtrl, 0x1E};   // idle code 0 in every lane
    if (ctrl == 0x01 && is(0, kXgStart)) return Block{kSyncCtrl, 0x78 | data_from(1, 8, 8)};
    if (ctrl == 0x1F && idle(0, 4) && is(4, kXgStart)) return Block{kSyncCtrl, 0x33 | data_from(5, 8, 40)};
    for (unsigned k = 0; k < 8; k++) {
        // /T/ in lane k: data before it, idles after it (their code is 0)
        if (ctrl == (0xFFu << k & 0xFF) && is(k, kXgTerm) && idle(k + 1, 8))
            return Block{kSyncCtrl, kTermTypes[k] | data_from(0, k, 8)};
    }
    st_.eblocks++;
    return Block{kSyncCtrl, eblock()};
}

Block BlockEncoder::next() {
    while (lanes_.size() < 8 && !queued_.empty()) {
        schedule(queued_.front());
        queued_.pop_front();
    }
    while (lanes_.size() < 8) lanes_.push_back({kXgIdle, true});
    Lane w[8];
    for (unsigned i = 0; i < 8; i++) {
        w[i] = lanes_.front();
        lanes_.pop_front();
    }
    pos_ += 8;
    done_last_ = 0;
    while (!started_.empty() && started_.front().term < pos_) {
        st_.frames++;
        st_.bytes += started_.front().bytes;
        started_.pop_front();
        done_last_++;
    }
    Block b = encode(w);
    if (cfg_.scramble) b.payload = scr_(b.payload);
    st_.blocks++;
    return b;
}

// ---- decoder -------------------------------------------------------------------

void BlockDecoder::restart() {
    synced_ = false;
    desc_ = Descrambler();
    state_ = State::Idle;
    cur_.clear();
    pending_ = false;
}

void BlockDecoder::drop(uint64_t *counter) {
    if (counter) (*counter)++;
    st_.frames_dropped++;
    cur_.clear();
    pending_ = false;
}

void BlockDecoder::finish() {
    pending_ = false;
    std::vector<uint8_t> f;
    f.swap(cur_);
    // after /S/: six more preamble bytes and the SFD, then the frame and its FCS
    if (f.size() < 7 + kMinFrame + 4) return drop(&st_.runts);
    for (unsigned i = 0; i < 6; i++)
        if (f[i] != 0x55) return drop(&st_.bad_preamble);
    if (f[6] != 0xD5) return drop(&st_.bad_preamble);
    const size_t n = f.size() - 7 - 4;
    const uint8_t *frame = f.data() + 7;
    uint32_t got = 0;
    for (unsigned i = 0; i < 4; i++) got |= uint32_t(frame[n + i]) << (8 * i);
    if (fcs32(frame, n) != got) return drop(&st_.bad_fcs);
    st_.frames++;
    st_.bytes += n;
    out_.emplace_back(frame, frame + n);
}

void BlockDecoder::push(const Block &in) {
    st_.blocks++;
    uint64_t p = in.payload;
    if (scramble_) {
        p = desc_(in.payload);
        if (!synced_) {   // 58 bits of history from this block on
            synced_ = true;
            return;
        }
    }
    // R_TYPE, and the bytes a block adds to a frame
    enum class Kind { C, S, T, D, E } kind = Kind::E;
    uint8_t bytes[8];
    unsigned nbytes = 0;
    auto take = [&](unsigned from_bit, unsigned n) {
        for (unsigned i = 0; i < n; i++) bytes[nbytes++] = uint8_t(p >> (from_bit + 8 * i));
    };
    if (in.hdr == kSyncData) {
        kind = Kind::D;
        take(0, 8);
    } else if (in.hdr != kSyncCtrl) {
        st_.bad_sync++;
    } else {
        const uint8_t type = uint8_t(p);
        switch (type) {
        case 0x1E: {
            bool ok = codes_valid(p, 0, 8), err = false;
            for (unsigned i = 0; i < 8; i++) err |= code_at(p, i) == 0x1E;
            kind = ok && !err ? Kind::C : Kind::E;
            break;
        }
        case 0x2D: kind = codes_valid(p, 0, 4) && valid_o(unsigned(p >> 36) & 0xF) ? Kind::C : Kind::E; break;
        case 0x4B: kind = codes_valid(p, 4, 8) && valid_o(unsigned(p >> 32) & 0xF) ? Kind::C : Kind::E; break;
        case 0x55:
            kind = valid_o(unsigned(p >> 32) & 0xF) && valid_o(unsigned(p >> 36) & 0xF) ? Kind::C : Kind::E;
            break;
        case 0x33:
            kind = codes_valid(p, 0, 4) ? Kind::S : Kind::E;
            take(40, 3);
            break;
        case 0x66:
            kind = valid_o(unsigned(p >> 32) & 0xF) ? Kind::S : Kind::E;
            take(40, 3);
            break;
        case 0x78:
            kind = Kind::S;
            take(8, 7);
            break;
        default:
            for (unsigned k = 0; k < 8; k++)
                if (type == kTermTypes[k]) {
                    kind = codes_valid(p, k + 1, 8) ? Kind::T : Kind::E;
                    take(8, k);
                }
            break;
        }
        if (kind == Kind::E) st_.bad_block++;
    }
    if (kind == Kind::E) nbytes = 0;

    // a frame ended with /T/: complete if a control or start block follows
    if (pending_) {
        if (kind == Kind::C || kind == Kind::S) {
            finish();
        } else {
            drop(kind == Kind::E ? nullptr : &st_.sequence);
            state_ = State::Error;
        }
    }
    switch (state_) {
    case State::Idle:
        if (kind == Kind::S) {
            cur_.assign(bytes, bytes + nbytes);
            state_ = State::Data;
        } else if (kind != Kind::C) {
            if (kind != Kind::E) st_.sequence++;
            state_ = State::Error;
        }
        break;
    case State::Data:
        if (kind == Kind::D || kind == Kind::T) {
            cur_.insert(cur_.end(), bytes, bytes + nbytes);
            if (cur_.size() > 16384) {   // no /T/ for longer than any frame
                drop(&st_.sequence);
                state_ = State::Error;
            } else if (kind == Kind::T) {
                pending_ = true;
                state_ = State::Idle;
            }
        } else {
            drop(kind == Kind::E ? nullptr : &st_.sequence);
            state_ = kind == Kind::C ? State::Idle : State::Error;
        }
        break;
    case State::Error:
        if (kind == Kind::C) state_ = State::Idle;
        break;
    }
}

bool BlockDecoder::pop(std::vector<uint8_t> *frame) {
    if (out_.empty()) return false;
    *frame = std::move(out_.front());
    out_.pop_front();
    return true;
}

// ---- receive gearbox ----------------------------------------------------------------

RxGearbox::RxGearbox(unsigned start_pos, unsigned slip_latency, bool reverse)
    : pos_(std::min(start_pos, 66u)), latency_(std::min(std::max(slip_latency, 1u), 63u)), reverse_(reverse) {}

void RxGearbox::clock(const Block &in, bool slip) {
    const unsigned __int128 mask66 = (static_cast<unsigned __int128>(1) << 66) - 1;
    const unsigned __int128 cur = static_cast<unsigned __int128>(in.hdr & 3) |
                                  (static_cast<unsigned __int128>(in.payload) << 2);
    // the window hist[pos +: 66] of hist = {cur, prev}
    unsigned __int128 win;
    if (pos_ == 0) win = prev_;
    else if (pos_ == 66) win = cur;
    else win = ((prev_ >> pos_) | (cur << (66 - pos_))) & mask66;
    Block line{uint8_t(win & 3), uint64_t(win >> 2)};
    to_bus(line, reverse_, &out_data_, &out_hdr_);
    prev_ = cur;
    const bool fire = (slip_pipe_ >> (latency_ - 1)) & 1;
    slip_pipe_ = ((slip_pipe_ << 1) | uint64_t(slip)) & ((uint64_t(1) << latency_) - 1);
    if (slip) slips_++;
    if (fire) pos_ = pos_ == 66 ? 1 : pos_ + 1;
}

}  // namespace baser
}  // namespace froce_sim
