// SPDX-License-Identifier: MIT
// Verilator bench for froce_axis_pack against a C++ reference model.
//
// Phases:
//   1. random: --packets packets of 1..40 pieces whose sizes include 0, 1,
//      W-1, W, W+1, 2W+-1 and up to 4 KiB, random input gaps and output
//      back-pressure, junk in tdata bytes outside tkeep and in tuser of
//      non-tlast beats. Every output beat's bytes, tkeep (exact), tlast and
//      the zero bytes outside tkeep are checked; AXI-Stream stability of the
//      output under back-pressure is checked.
//   2. caller errors: --bad-packets packets made of beats with random tkeep
//      (holes, short non-last beats, tuser without tlast); the reference
//      packs the bytes below each beat's lowest zero tkeep bit. Must not hang.
//   3. throughput, no gaps and no back-pressure: input beats per cycle for
//      large pieces, for mixed small pieces and for one-piece packets;
//      must be 1.000 (the module claims no extra cycle anywhere).
// Any mismatch or hang prints FAIL and exits 1; success prints one PASS line.
//
// Usage: tb_axis_pack [--seed N] [--packets N] [--bad-packets N] [--break-lane]
//   --break-lane  negative control: the bench top corrupts one byte lane of the
//                 output, so the bench must FAIL

#include <algorithm>
#include <cinttypes>
#include <deque>
#include <memory>

#include "Vtb_axis_pack_top.h"
#include "tb_axis_util.h"

using namespace tb_axis;

namespace {

constexpr uint64_t HANG_CYCLES = 20000;

class Bench {
public:
    Bench(uint64_t seed, bool brk) : rng_(seed) {
        ctx_ = std::make_unique<VerilatedContext>();
        top_ = std::make_unique<Vtb_axis_pack_top>(ctx_.get(), "top");
        top_->break_lane = brk;
    }

    void reset() {
        top_->clk = 0;
        top_->rst = 1;
        top_->s_axis_tvalid = 0;
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

    // ---- stimulus ----

    // A well-formed packet: pieces with the given sizes.
    void add_packet(const std::vector<uint32_t> &sizes) {
        std::vector<uint8_t> bytes;
        for (size_t p = 0; p < sizes.size(); p++) {
            uint32_t len = sizes[p], pos = 0;
            do {
                Beat b;
                unsigned k = std::min<uint32_t>(W, len - pos);
                for (unsigned i = 0; i < W; i++) b.data[i] = rng_.byte();   // junk past k
                for (unsigned i = 0; i < k; i++) bytes.push_back(b.data[i]);
                b.keep = keep_mask(k);
                pos += k;
                b.last = pos == len;
                b.user = b.last ? p + 1 == sizes.size() : rng_.chance(50);  // junk unless tlast
                in_.push_back(b);
                in_beats_total_++;
            } while (pos < len);
        }
        beats_of(bytes, exp_);
        packets_++;
        bytes_ += bytes.size();
    }

    void add_random_packet() {
        unsigned k = rng_.pick(100), n;
        if (k < 30) n = 1;
        else if (k < 70) n = 2 + rng_.pick(3);
        else if (k < 95) n = 5 + rng_.pick(12);
        else n = 17 + rng_.pick(24);
        std::vector<uint32_t> sizes(n);
        for (auto &s : sizes) s = rng_.piece_len();
        // some packets entirely of empty pieces
        if (rng_.chance(3))
            for (auto &s : sizes) s = 0;
        add_packet(sizes);
    }

    // A packet of beats with arbitrary tkeep (caller errors); the reference
    // takes the bytes below each beat's lowest zero tkeep bit.
    void add_bad_packet() {
        unsigned n = 1 + rng_.pick(12);
        std::vector<uint8_t> bytes;
        for (unsigned j = 0; j < n; j++) {
            Beat b;
            for (unsigned i = 0; i < W; i++) b.data[i] = rng_.byte();
            unsigned t = rng_.pick(4);
            if (t == 0) b.keep = rng_.u64() & all_keep();                      // holes
            else if (t == 1) b.keep = keep_mask(rng_.pick(W + 1));              // short beat
            else if (t == 2) b.keep = keep_mask(rng_.pick(W + 1)) ^ (1ull << rng_.pick(W));
            else b.keep = all_keep();
            b.last = j + 1 == n ? true : rng_.chance(30);
            b.user = j + 1 == n ? true : rng_.chance(30) && !b.last;          // tuser without tlast
            unsigned m = low_ones(b.keep);
            for (unsigned i = 0; i < m; i++) bytes.push_back(b.data[i]);
            in_.push_back(b);
            in_beats_total_++;
        }
        beats_of(bytes, exp_);
        packets_++;
        bytes_ += bytes.size();
    }

    void set_flow(unsigned in_pct, unsigned out_pct) {
        in_pct_ = in_pct;
        out_pct_ = out_pct;
    }

    // ---- the cycle loop ----

    bool run() {
        uint64_t idle = 0;
        while (!in_.empty() || !exp_.empty()) {
            if (cycle()) idle = 0;
            else if (++idle > HANG_CYCLES) {
                fail("hang: no handshake for %" PRIu64 " cycles (%zu input beats, %zu output beats pending)",
                     HANG_CYCLES, in_.size(), exp_.size());
                return false;
            }
            if (failed_) return false;
        }
        // nothing more may come out
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
            top_->s_axis_tuser = b.user;
        }
        top_->m_axis_tready = rng_.chance(out_pct_);
        top_->eval();

        // output stable while stalled
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

        if (top_->s_axis_tvalid && top_->s_axis_tready) {
            any = true;
            in_.pop_front();
            shown_ = false;
            in_beats_++;
            if (first_in_ == 0) first_in_ = cyc_ + 1;
            last_in_ = cyc_ + 1;
        }
        if (top_->m_axis_tvalid && top_->m_axis_tready) {
            any = true;
            out_beat(ob, okeep);
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
        in_beats_ = out_beats_ = 0;
        first_in_ = last_in_ = last_out_ = 0;
        packets_ = bytes_ = 0;
        in_beats_total_ = 0;
    }

    bool failed_ = false;
    Rng rng_;
    uint64_t cyc_ = 0;
    uint64_t in_beats_ = 0, out_beats_ = 0, first_in_ = 0, last_in_ = 0, last_out_ = 0;
    uint64_t packets_ = 0, bytes_ = 0, in_beats_total_ = 0, checked_bytes_ = 0;

private:
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vtb_axis_pack_top> top_;
    std::deque<Beat> in_;
    std::deque<Beat> exp_;
    bool shown_ = false;
    unsigned in_pct_ = 100, out_pct_ = 100;
    bool prev_stalled_ = false;
    uint8_t prev_data_[64] = {0};
    uint64_t prev_keep_ = 0;
    bool prev_last_ = false;
};

}  // namespace

int main(int argc, char **argv) {
    uint64_t seed = 1;
    unsigned packets = 3000, bad_packets = 500;
    bool brk = false;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--seed" && i + 1 < argc) seed = strtoull(argv[++i], nullptr, 0);
        else if (a == "--packets" && i + 1 < argc) packets = unsigned(strtoul(argv[++i], nullptr, 0));
        else if (a == "--bad-packets" && i + 1 < argc) bad_packets = unsigned(strtoul(argv[++i], nullptr, 0));
        else if (a == "--break-lane") brk = true;
        else {
            fprintf(stderr, "usage: %s [--seed N] [--packets N] [--bad-packets N] [--break-lane]\n", argv[0]);
            return 2;
        }
    }
    Verilated::commandArgs(argc, argv);
    printf("froce_axis_pack bench: DATA_WIDTH=%d seed=%" PRIu64 "\n", DATA_WIDTH, seed);

    Bench b(seed, brk);
    b.reset();

    // 1. random traffic; the flow changes every few hundred packets
    static const unsigned flows[][2] = {{100, 100}, {70, 60}, {30, 90}, {95, 25}, {50, 50}};
    unsigned done = 0;
    uint64_t total_packets = 0, total_bytes = 0, total_in = 0;
    for (unsigned f = 0; done < packets; f++) {
        unsigned n = std::min(packets - done, 250u);
        b.set_flow(flows[f % 5][0], flows[f % 5][1]);
        b.clear_stats();
        for (unsigned i = 0; i < n; i++) b.add_random_packet();
        total_packets += b.packets_;
        total_bytes += b.bytes_;
        total_in += b.in_beats_total_;
        if (!b.run()) return 1;
        done += n;
    }
    printf("random: %" PRIu64 " packets, %" PRIu64 " bytes, %" PRIu64 " input beats, all output checked\n",
           total_packets, total_bytes, total_in);

    // 2. caller errors
    b.set_flow(70, 70);
    b.clear_stats();
    for (unsigned i = 0; i < bad_packets; i++) b.add_bad_packet();
    if (!b.run()) return 1;
    printf("caller errors: %" PRIu64 " packets of beats with holes / short beats / stray tuser, checked\n",
           b.packets_);

    // 3. throughput
    struct Case {
        const char *name;
        int kind;
    } cases[] = {{"large pieces (1-4 KiB, 1-4 per packet)", 0}, {"mixed pieces (random sizes incl. 0, 1-40 per packet)", 1},
                 {"one small piece per packet (1..2W bytes)", 2}};
    b.set_flow(100, 100);
    for (const Case &c : cases) {
        b.clear_stats();
        for (unsigned i = 0; i < 300; i++) {
            std::vector<uint32_t> sizes;
            if (c.kind == 0) {
                sizes.resize(1 + b.rng_.pick(4));
                for (auto &s : sizes) s = 1024 + b.rng_.pick(3073);
            } else if (c.kind == 1) {
                sizes.resize(1 + b.rng_.pick(40));
                for (auto &s : sizes) s = b.rng_.piece_len();
            } else {
                sizes.push_back(1 + b.rng_.pick(2 * W));
            }
            b.add_packet(sizes);
        }
        if (!b.run()) return 1;
        double cyc = double(b.last_in_ - b.first_in_ + 1);
        double rate = double(b.in_beats_) / cyc;
        printf("throughput, %s: %" PRIu64 " input beats in %.0f cycles = %.3f input beats/cycle, %.3f output "
               "beats/cycle, %.2f bytes/cycle\n",
               c.name, b.in_beats_, cyc, rate, double(b.out_beats_) / cyc, double(b.bytes_) / cyc);
        if (rate < 0.999) b.fail("throughput %s: %.3f input beats/cycle, expected 1.000", c.name, rate);
    }
    if (b.failed_) return 1;
    printf("PASS: froce_axis_pack DATA_WIDTH=%d, %" PRIu64 " bytes checked, %" PRIu64 " cycles\n", DATA_WIDTH,
           b.checked_bytes_, b.cyc_);
    return 0;
}
