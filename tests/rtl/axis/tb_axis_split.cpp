// SPDX-License-Identifier: MIT
// Verilator bench for froce_axis_split against a C++ reference model.
//
// Phases:
//   1. random: --packets packets cut by 1..40 commands whose lengths include
//      0, 1, W-1, W, W+1, 2W+-1 and up to 4 KiB; about 10% of the packets
//      are longer than their commands (extra 1, W-1, W, W+1, up to 3000
//      bytes: discarded) and 10% shorter (down to 0 bytes: zero-filled), some
//      packets are empty (one beat, tkeep 0), some have junk tkeep on non-last
//      beats and junk tkeep bits above the tlast beat's first zero bit (both
//      ignored by contract). Random input and command gaps, random
//      output back-pressure. Every output beat's bytes, tkeep (exact), tlast
//      and the zero bytes outside tkeep are checked, so a packet after a
//      mismatch must come out intact; output stability under back-pressure is
//      checked. err_mismatch must pulse exactly once per mismatched packet,
//      in the cycle after that packet's handling ends (checked as: when the
//      pulse is seen, exactly p+1 input packets have been taken).
//   2. throughput, no gaps and no back-pressure, matching packets: output
//      beats per cycle for large pieces, mixed pieces, 1-byte pieces (must be
//      1.000), and mixed pieces with zero-length commands (reported).
// Any mismatch or hang prints FAIL and exits 1; success prints one PASS line.
//
// Usage: tb_axis_split [--seed N] [--packets N] [--break-lane]
//   --break-lane  negative control: the bench top corrupts one byte lane of the
//                 output, so the bench must FAIL

#include <algorithm>
#include <cinttypes>
#include <deque>
#include <memory>

#include "Vtb_axis_split_top.h"
#include "tb_axis_util.h"

using namespace tb_axis;

namespace {

constexpr uint64_t HANG_CYCLES = 20000;

struct Cmd {
    uint32_t len;
    bool last;
};

class Bench {
public:
    Bench(uint64_t seed, bool brk) : rng_(seed) {
        ctx_ = std::make_unique<VerilatedContext>();
        top_ = std::make_unique<Vtb_axis_split_top>(ctx_.get(), "top");
        top_->break_lane = brk;
    }

    void reset() {
        top_->clk = 0;
        top_->rst = 1;
        top_->s_axis_tvalid = 0;
        top_->s_cmd_valid = 0;
        top_->m_axis_tready = 0;
        for (int i = 0; i < 4; i++) {
            top_->eval();
            top_->clk = 1;
            top_->eval();
            top_->clk = 0;
        }
        top_->rst = 0;
        top_->eval();
    }

    // ---- stimulus and reference ----

    // One packet of B bytes cut by commands of the given lengths.
    void add_packet(const std::vector<uint32_t> &lens, uint64_t B, bool junk_keep) {
        std::vector<uint8_t> bytes(B);
        for (auto &x : bytes) x = rng_.byte();
        uint64_t pos = 0;
        do {
            Beat b;
            unsigned k = unsigned(std::min<uint64_t>(W, B - pos));
            for (unsigned i = 0; i < W; i++) b.data[i] = i < k ? bytes[pos + i] : rng_.byte();  // junk past k
            pos += k;
            b.last = pos == B;
            b.keep = b.last ? keep_mask(k) : junk_keep ? rng_.u64() & all_keep() : all_keep();
            // junk tkeep bits above the first zero of the tlast beat: ignored by contract
            if (b.last && junk_keep) b.keep |= rng_.u64() & all_keep() & ~keep_mask(k + 1);
            in_.push_back(b);
            in_beats_total_++;
        } while (pos < B);

        uint64_t sum = 0;
        for (size_t i = 0; i < lens.size(); i++) {
            cmds_.push_back(Cmd{lens[i], i + 1 == lens.size()});
            if (lens[i] == 0) continue;
            std::vector<uint8_t> piece(lens[i]);
            for (uint32_t j = 0; j < lens[i]; j++) piece[j] = sum + j < B ? bytes[sum + j] : 0;
            beats_of(piece, exp_);
            sum += lens[i];
        }
        if (sum != B) {
            mism_.push_back(pkt_index_);
            if (sum > B) n_short_++;
            else n_long_++;
        }
        if (B == 0) n_empty_++;
        pkt_index_++;
        packets_++;
        bytes_ += sum;
    }

    std::vector<uint32_t> random_lens(bool allow_zero) {
        unsigned k = rng_.pick(100), n;
        if (k < 30) n = 1;
        else if (k < 70) n = 2 + rng_.pick(3);
        else if (k < 95) n = 5 + rng_.pick(12);
        else n = 17 + rng_.pick(24);
        std::vector<uint32_t> lens(n);
        for (auto &s : lens) s = rng_.piece_len(allow_zero);
        return lens;
    }

    void add_random_packet() {
        std::vector<uint32_t> lens = random_lens(true);
        if (rng_.chance(3))
            for (auto &s : lens) s = 0;
        uint64_t S = 0;
        for (auto s : lens) S += s;
        uint64_t B = S;
        unsigned m = rng_.pick(100);
        if (m < 10 || (m < 20 && S == 0)) {
            static const unsigned fixed[] = {1, W - 1, W, W + 1};
            unsigned e = rng_.pick(6);
            B = S + (e < 4 ? fixed[e] : e == 4 ? 1 + rng_.pick(3 * W) : 1 + rng_.pick(3000));
        } else if (m < 20) {
            unsigned e = rng_.pick(4);
            uint64_t d = e == 0 ? S : e == 1 ? 1 : 1 + rng_.pick(uint32_t(S));
            B = S - d;
        }
        add_packet(lens, B, rng_.chance(5));
    }

    void set_flow(unsigned in_pct, unsigned cmd_pct, unsigned out_pct) {
        in_pct_ = in_pct;
        cmd_pct_ = cmd_pct;
        out_pct_ = out_pct;
    }

    // ---- the cycle loop ----

    bool run() {
        uint64_t idle = 0;
        while (!in_.empty() || !cmds_.empty() || !exp_.empty() || !mism_.empty()) {
            if (cycle()) idle = 0;
            else if (++idle > HANG_CYCLES) {
                fail("hang: no handshake for %" PRIu64 " cycles (%zu input beats, %zu commands, %zu output beats, "
                     "%zu mismatch pulses pending)",
                     HANG_CYCLES, in_.size(), cmds_.size(), exp_.size(), mism_.size());
                return false;
            }
            if (failed_) return false;
        }
        for (int i = 0; i < 50; i++) {
            cycle();
            if (failed_) return false;
        }
        return true;
    }

    bool cycle() {
        bool any = false;
        if (!shown_ && !in_.empty() && rng_.chance(in_pct_)) shown_ = true;
        top_->s_axis_tvalid = shown_;
        if (shown_) {
            const Beat &b = in_.front();
            set_bytes(top_->s_axis_tdata, b.data);
            top_->s_axis_tkeep = std::remove_reference_t<decltype(top_->s_axis_tkeep)>(b.keep);
            top_->s_axis_tlast = b.last;
        }
        if (!cmd_shown_ && !cmds_.empty() && rng_.chance(cmd_pct_)) cmd_shown_ = true;
        top_->s_cmd_valid = cmd_shown_;
        if (cmd_shown_) {
            top_->s_cmd_len = cmds_.front().len;
            top_->s_cmd_last = cmds_.front().last;
        }
        top_->m_axis_tready = rng_.chance(out_pct_);
        top_->eval();

        uint8_t ob[64];
        get_bytes(top_->m_axis_tdata, ob);
        uint64_t okeep = uint64_t(top_->m_axis_tkeep);
        if (prev_stalled_) {
            if (!top_->m_axis_tvalid) fail("cycle %" PRIu64 ": tvalid dropped while stalled", cyc_);
            else if (memcmp(ob, prev_data_, W) || okeep != prev_keep_ || bool(top_->m_axis_tlast) != prev_last_)
                fail("cycle %" PRIu64 ": output changed while stalled", cyc_);
        }
        prev_stalled_ = top_->m_axis_tvalid && !top_->m_axis_tready;
        memcpy(prev_data_, ob, W);
        prev_keep_ = okeep;
        prev_last_ = top_->m_axis_tlast;

        if (top_->err_mismatch) {
            any = true;
            pulses_++;
            if (mism_.empty()) fail("cycle %" PRIu64 ": err_mismatch with no mismatched packet pending", cyc_);
            else {
                uint64_t p = mism_.front();
                mism_.pop_front();
                if (in_pkts_ != p + 1)
                    fail("cycle %" PRIu64 ": err_mismatch for packet %" PRIu64 " seen when %" PRIu64
                         " input packets were taken (expected %" PRIu64 ")",
                         cyc_, p, in_pkts_, p + 1);
            }
        }
        if (top_->s_axis_tvalid && top_->s_axis_tready) {
            any = true;
            if (in_.front().last) in_pkts_++;
            in_.pop_front();
            shown_ = false;
            in_beats_++;
        }
        if (top_->s_cmd_valid && top_->s_cmd_ready) {
            any = true;
            cmds_.pop_front();
            cmd_shown_ = false;
        }
        if (top_->m_axis_tvalid && top_->m_axis_tready) {
            any = true;
            out_beat(ob, okeep);
            if (first_out_ == 0) first_out_ = cyc_ + 1;
            last_out_ = cyc_ + 1;
        }
        top_->clk = 1;
        top_->eval();
        top_->clk = 0;
        cyc_++;
        return any;
    }

    void out_beat(const uint8_t *ob, uint64_t keep) {
        out_beats_++;
        if (exp_.empty()) {
            fail("output beat %" PRIu64 " with nothing expected (keep %#" PRIx64 ")", out_beats_, keep);
            return;
        }
        const Beat &e = exp_.front();
        if (keep != e.keep) fail("output beat %" PRIu64 ": tkeep %#" PRIx64 ", expected %#" PRIx64, out_beats_, keep, e.keep);
        else if (bool(top_->m_axis_tlast) != e.last)
            fail("output beat %" PRIu64 ": tlast %d, expected %d", out_beats_, int(top_->m_axis_tlast), int(e.last));
        else {
            for (unsigned i = 0; i < W; i++) {
                uint8_t want = (e.keep >> i & 1) ? e.data[i] : 0;
                if (ob[i] != want) {
                    fail("output beat %" PRIu64 " byte %u: %#04x, expected %#04x%s\n  got  %s\n  want %s", out_beats_,
                         i, ob[i], want, (e.keep >> i & 1) ? "" : " (outside tkeep)", hex_beat(ob, all_keep()).c_str(),
                         hex_beat(e.data, e.keep).c_str());
                    break;
                }
            }
        }
        checked_bytes_ += low_ones(keep);
        exp_.pop_front();
    }

    void fail(const char *fmt, ...) __attribute__((format(printf, 2, 3))) {
        if (failed_) return;
        failed_ = true;
        va_list ap;
        va_start(ap, fmt);
        printf("FAIL: ");
        vprintf(fmt, ap);
        printf("\n");
        va_end(ap);
    }

    void clear_stats() {
        in_beats_ = out_beats_ = first_out_ = last_out_ = 0;
        packets_ = bytes_ = in_beats_total_ = 0;
    }

    bool failed_ = false;
    Rng rng_;
    uint64_t cyc_ = 0;
    uint64_t in_beats_ = 0, out_beats_ = 0, first_out_ = 0, last_out_ = 0;
    uint64_t packets_ = 0, bytes_ = 0, in_beats_total_ = 0, checked_bytes_ = 0;
    uint64_t n_short_ = 0, n_long_ = 0, n_empty_ = 0, pulses_ = 0;

private:
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vtb_axis_split_top> top_;
    std::deque<Beat> in_;
    std::deque<Cmd> cmds_;
    std::deque<Beat> exp_;
    std::deque<uint64_t> mism_;     // indices of mismatched packets, in order
    uint64_t pkt_index_ = 0;        // packets generated
    uint64_t in_pkts_ = 0;          // input packets whose tlast beat was taken
    bool shown_ = false, cmd_shown_ = false;
    unsigned in_pct_ = 100, cmd_pct_ = 100, out_pct_ = 100;
    bool prev_stalled_ = false;
    uint8_t prev_data_[64] = {0};
    uint64_t prev_keep_ = 0;
    bool prev_last_ = false;
};

}  // namespace

int main(int argc, char **argv) {
    uint64_t seed = 1;
    unsigned packets = 3000;
    bool brk = false;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--seed" && i + 1 < argc) seed = strtoull(argv[++i], nullptr, 0);
        else if (a == "--packets" && i + 1 < argc) packets = unsigned(strtoul(argv[++i], nullptr, 0));
        else if (a == "--break-lane") brk = true;
        else {
            fprintf(stderr, "usage: %s [--seed N] [--packets N] [--break-lane]\n", argv[0]);
            return 2;
        }
    }
    Verilated::commandArgs(argc, argv);
    printf("froce_axis_split bench: DATA_WIDTH=%d seed=%" PRIu64 "\n", DATA_WIDTH, seed);

    Bench b(seed, brk);
    b.reset();

    // 1. random traffic; the flow (input, command, output %) changes every 250 packets
    static const unsigned flows[][3] = {{100, 100, 100}, {70, 40, 60}, {30, 90, 90}, {95, 95, 25}, {50, 10, 50}};
    unsigned done = 0;
    uint64_t total_packets = 0, total_bytes = 0, total_in = 0;
    for (unsigned f = 0; done < packets; f++) {
        unsigned n = std::min(packets - done, 250u);
        b.set_flow(flows[f % 5][0], flows[f % 5][1], flows[f % 5][2]);
        b.clear_stats();
        for (unsigned i = 0; i < n; i++) b.add_random_packet();
        total_packets += b.packets_;
        total_bytes += b.bytes_;
        total_in += b.in_beats_total_;
        if (!b.run()) return 1;
        done += n;
    }
    printf("random: %" PRIu64 " packets (%" PRIu64 " longer than their commands, %" PRIu64 " shorter, %" PRIu64
           " empty), %" PRIu64 " piece bytes, %" PRIu64 " input beats; %" PRIu64 " err_mismatch pulses, all as expected\n",
           total_packets, b.n_long_, b.n_short_, b.n_empty_, total_bytes, total_in, b.pulses_);
    if (b.n_long_ < packets / 20 || b.n_short_ < packets / 20 || b.n_empty_ == 0) {
        printf("FAIL: too few mismatch cases generated\n");
        return 1;
    }

    // 2. throughput
    b.set_flow(100, 100, 100);
    struct Case {
        const char *name;
        int kind;
        bool gate;
    } cases[] = {{"large pieces (1-4 KiB, 1-4 per packet)", 0, true},
                 {"mixed pieces (random sizes >= 1, 1-40 per packet)", 1, true},
                 {"1-byte pieces (8 per packet)", 2, true},
                 {"mixed pieces with 8% zero-length commands", 3, false}};
    for (const Case &c : cases) {
        b.clear_stats();
        for (unsigned i = 0; i < 300; i++) {
            std::vector<uint32_t> lens;
            if (c.kind == 0) {
                lens.resize(1 + b.rng_.pick(4));
                for (auto &s : lens) s = 1024 + b.rng_.pick(3073);
            } else if (c.kind == 2) {
                lens.assign(8, 1);
            } else {
                lens = b.random_lens(c.kind == 3);
            }
            uint64_t S = 0;
            for (auto s : lens) S += s;
            if (S == 0) lens.back() = 1, S = 1;     // no empty packets here
            b.add_packet(lens, S, false);
        }
        if (!b.run()) return 1;
        double cyc = double(b.last_out_ - b.first_out_ + 1);
        double rate = double(b.out_beats_) / cyc;
        printf("throughput, %s: %" PRIu64 " output beats in %.0f cycles = %.3f output beats/cycle, %.3f input "
               "beats/cycle, %.2f bytes/cycle\n",
               c.name, b.out_beats_, cyc, rate, double(b.in_beats_) / cyc, double(b.bytes_) / cyc);
        if (c.gate && rate < 0.999) b.fail("throughput %s: %.3f output beats/cycle, expected 1.000", c.name, rate);
    }
    if (b.failed_) return 1;
    printf("PASS: froce_axis_split DATA_WIDTH=%d, %" PRIu64 " bytes checked, %" PRIu64 " cycles\n", DATA_WIDTH,
           b.checked_bytes_, b.cyc_);
    return 0;
}
