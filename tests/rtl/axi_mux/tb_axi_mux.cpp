// SPDX-License-Identifier: MIT
// Verilator bench for froce_axi_mux: three froce_dma_rd and three froce_dma_wr engines behind the mux, against AxiMem.
//
// The slave: one AxiMem per master index k (sim/models/axi_mem.h). An AR/AW
// whose ID index bits are k goes to memory k; W beats go to the memory of the
// AW they belong to (in AW order; a beat is offered to a memory once the
// AW it belongs to is on the bus). Each cycle the R and B channels show a
// response from a randomly chosen memory that has one, so responses to
// different IDs come back out of order and R beats of different IDs
// interleave (legal AXI4; each memory answers its own ID in order). Every
// memory has random back-pressure and latency and runs its protocol checks.
// Read engine k reads, and write engine k writes, its own region of memory k.
//
// Checked:
//   * scoreboard on every mux transfer: each AR/AW on the bus is the oldest
//     not yet forwarded of the master its ID index names, with that master's
//     ID in the low bits and zero above the index; each W beat on the bus is
//     the next beat of the master whose AW it follows; each R beat and B
//     response reaches exactly the master its ID names, unchanged (data,
//     resp, last, ID), in bus order, and no master gets one it was not sent;
//   * the mux's bus outputs are registered (they do not move when its inputs
//     change within a cycle) and AR/AW/W hold until their handshake; R/B to a
//     master hold until their handshake;
//   * end to end: every byte each read engine delivers against its memory,
//     every beat's tkeep/tlast/tid, every status (order, tag, bus error from
//     error ranges); each write region byte for byte against a shadow copy,
//     and no page written outside the write regions;
//   * no hang, every memory idle at the end, no protocol violation.
// Then throughput without back-pressure (bus latency 20): one master alone,
// then all three, reads and writes, beats per cycle on the bus.
//
// Usage: tb_axi_mux [--seed N] [--reqs N]   (N requests per engine, default 300)
// Exactly one PASS line, or FAIL lines and exit 1.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "Vtb_axi_mux_top.h"
#include "verilated.h"

#include "axi_mem.h"

#ifndef DATA_WIDTH
#error "build with -DDATA_WIDTH=<bits>"
#endif

using froce_sim::AxiMem;
using froce_sim::AxiMemConfig;
using froce_sim::AxiMemPins;

namespace {

constexpr unsigned W = DATA_WIDTH / 8;
constexpr unsigned N = 3;                   // engines of each kind = tb top parameter N
constexpr unsigned SID = 4;                 // S_ID_WIDTH
constexpr unsigned IDX_BITS = 2;            // clog2(3)
constexpr unsigned MAX_BURST = 16;          // tb top MAX_BURST_BEATS
constexpr uint64_t RD_BASE = 0x00007f0000000000ull;
constexpr uint64_t WR_BASE = 0x0000000100000000ull;
constexpr uint64_t REGION_STRIDE = 0x100000000ull;  // engine k's regions are k strides up
constexpr uint64_t REGION_SIZE = 1u << 18;         // start addresses fall here
constexpr uint32_t MAX_LEN = 20000;
constexpr uint64_t SHADOW_SIZE = REGION_SIZE + MAX_LEN + 64;
constexpr uint64_t HANG_CYCLES = 100000;

enum : uint8_t { DMA_OK = 0, DMA_SLVERR = 1, DMA_DECERR = 2, DMA_BAD_LEN = 3 };

uint64_t rd_base(unsigned k) { return RD_BASE + k * REGION_STRIDE; }
uint64_t wr_base(unsigned k) { return WR_BASE + k * REGION_STRIDE; }

// ---- bit fields of Verilator signals (integral or VlWide) -------------------

template <typename T>
std::enable_if_t<std::is_integral_v<T>, uint32_t> wget(const T &s, unsigned w) {
    return w < (sizeof(T) + 3) / 4 ? uint32_t(uint64_t(s) >> (32 * w)) : 0;
}
template <std::size_t K>
uint32_t wget(const VlWide<K> &s, unsigned w) {
    return w < K ? s[w] : 0;
}
template <typename T>
std::enable_if_t<std::is_integral_v<T>> wset(T &s, unsigned w, uint32_t v) {
    uint64_t x = uint64_t(s);
    x &= ~(uint64_t(0xffffffffu) << (32 * w));
    x |= uint64_t(v) << (32 * w);
    s = T(x);
}
template <std::size_t K>
void wset(VlWide<K> &s, unsigned w, uint32_t v) {
    if (w < K) s[w] = v;
}

template <typename T>
uint64_t get_bits(const T &s, unsigned lsb, unsigned n) {
    uint64_t r = 0;
    for (unsigned i = 0; i < n;) {
        unsigned b = lsb + i, o = b % 32, take = std::min(32 - o, n - i);
        uint64_t m = take == 32 ? 0xffffffffull : ((1ull << take) - 1);
        r |= ((uint64_t(wget(s, b / 32)) >> o) & m) << i;
        i += take;
    }
    return r;
}
template <typename T>
void set_bits(T &s, unsigned lsb, unsigned n, uint64_t v) {
    for (unsigned i = 0; i < n;) {
        unsigned b = lsb + i, o = b % 32, take = std::min(32 - o, n - i);
        uint32_t m = take == 32 ? 0xffffffffu : ((1u << take) - 1);
        uint32_t x = wget(s, b / 32);
        x = (x & ~(m << o)) | ((uint32_t(v >> i) & m) << o);
        wset(s, b / 32, x);
        i += take;
    }
}
template <typename T>
bool bit(const T &s, unsigned b) { return get_bits(s, b, 1) != 0; }
template <typename T>
void get_bytes(const T &s, unsigned byte_lsb, unsigned n, uint8_t *out) {
    for (unsigned i = 0; i < n; i++) out[i] = uint8_t(get_bits(s, 8 * (byte_lsb + i), 8));
}
template <typename T>
void set_bytes(T &s, unsigned byte_lsb, unsigned n, const uint8_t *in) {
    for (unsigned i = 0; i < n; i++) set_bits(s, 8 * (byte_lsb + i), 8, in[i]);
}

uint64_t keep_mask(unsigned n) { return n >= 64 ? ~0ull : ((1ull << n) - 1); }

// ---- transactions ----------------------------------------------------------

struct Req {
    uint64_t addr = 0;
    uint32_t len = 0;
    uint8_t tag = 0;
    uint8_t exp_err = DMA_OK;
    uint32_t done = 0;
    std::vector<uint8_t> data;
};

struct Ax {                 // an AR or AW as a master sent it
    uint64_t addr;
    unsigned len, id;
};
struct Beat {               // an R or W beat
    std::array<uint8_t, 64> data{};
    uint64_t strb = 0;
    unsigned resp = 0, id = 0;
    bool last = false;
};
struct BResp {
    unsigned resp, id;
};
struct WRoute {             // an AW on the bus and the W beats it still needs
    unsigned k, left;
};

// The mux's bus-side outputs, as the bench reads them.
struct MOut {
    bool arvalid, awvalid, wvalid, wlast, rready, bready;
    uint64_t araddr, awaddr, wstrb;
    unsigned arid, arlen, arsize, arburst, awid, awlen, awsize, awburst;
    std::array<uint8_t, 64> wdata{};
    bool operator==(const MOut &o) const {
        return arvalid == o.arvalid && awvalid == o.awvalid && wvalid == o.wvalid && wlast == o.wlast &&
               rready == o.rready && bready == o.bready && araddr == o.araddr && awaddr == o.awaddr &&
               wstrb == o.wstrb && arid == o.arid && arlen == o.arlen && arsize == o.arsize &&
               arburst == o.arburst && awid == o.awid && awlen == o.awlen && awsize == o.awsize &&
               awburst == o.awburst && wdata == o.wdata;
    }
};

struct RdEng {
    std::deque<Req> todo, data, stat;
    bool desc_shown = false;
    unsigned tag = 0;
};
struct WrEng {
    std::deque<Req> todo, stream, stat;
    bool desc_shown = false, wdata_shown = false;
    unsigned tag = 0;
    std::vector<uint8_t> shadow;
};

class Bench {
public:
    explicit Bench(uint64_t seed) : rng_(seed) {
        ctx_ = std::make_unique<VerilatedContext>();
        top_ = std::make_unique<Vtb_axi_mux_top>(ctx_.get(), "top");
        for (unsigned k = 0; k < N; k++) {
            AxiMemConfig c;
            c.data_bytes = W;
            c.sparse = true;
            c.seed = seed * 131 + k * 7 + 1;
            mem_.push_back(std::make_unique<AxiMem>(c));
            wr_[k].shadow.resize(SHADOW_SIZE);
            for (uint64_t i = 0; i < SHADOW_SIZE; i++) wr_[k].shadow[i] = AxiMem::pattern(wr_base(k) + i);
        }
        // bus errors: a SLVERR range read by engine 1, a DECERR range written by engine 2
        mem_[1]->add_error_range(rd_base(1) + 0x20000, rd_base(1) + 0x20800, froce_sim::AXI_SLVERR);
        mem_[2]->add_error_range(wr_base(2) + 0x30010, wr_base(2) + 0x30020, froce_sim::AXI_DECERR);
    }

    void set_random_flow(bool on) {
        for (auto &m : mem_) {
            AxiMemConfig &c = m->config();
            if (on) {
                c.ar_ready_pct = 60; c.aw_ready_pct = 60; c.w_ready_pct = 75;
                c.r_valid_pct = 75; c.b_valid_pct = 70;
                c.r_lat_min = 1; c.r_lat_max = 60; c.b_lat_min = 1; c.b_lat_max = 60;
            } else {
                c.ar_ready_pct = c.aw_ready_pct = c.w_ready_pct = c.r_valid_pct = c.b_valid_pct = 100;
                c.r_lat_min = c.r_lat_max = 20; c.b_lat_min = c.b_lat_max = 20;
            }
        }
        if (on) { rd_ready_pct_ = 75; st_ready_pct_ = 60; desc_pct_ = 50; wdata_pct_ = 80; }
        else rd_ready_pct_ = st_ready_pct_ = desc_pct_ = wdata_pct_ = 100;
    }

    void reset() {
        top_->clk = 0;
        top_->rst = 1;
        for (int i = 0; i < 8; i++) {
            top_->eval();
            top_->clk = 1;
            top_->eval();
            top_->clk = 0;
        }
        top_->rst = 0;
        top_->eval();
    }

    // ---- stimulus ----

    uint32_t rand_len() {
        unsigned p = pick(100);
        if (p < 1) return 0;
        if (p < 20) return 1 + pick(64);
        if (p < 85) return 1 + pick(4096);
        return 4096 + pick(MAX_LEN - 4096 + 1);
    }

    uint8_t expected_err(const AxiMem &m, uint64_t addr, uint32_t len) const {
        if (len == 0) return DMA_BAD_LEN;
        uint8_t worst = froce_sim::AXI_OKAY;
        for (uint64_t a = addr & ~uint64_t(W - 1); a < addr + len; a += W)
            worst = froce_sim::axi_resp_worst(worst, m.resp_for(a, W));
        return worst == froce_sim::AXI_DECERR ? DMA_DECERR : worst == froce_sim::AXI_SLVERR ? DMA_SLVERR : DMA_OK;
    }

    void add_read(unsigned k, uint64_t addr, uint32_t len) {
        Req r;
        r.addr = addr;
        r.len = len;
        r.tag = uint8_t(rd_[k].tag++);
        r.exp_err = expected_err(*mem_[k], addr, len);
        if (r.exp_err == DMA_SLVERR || r.exp_err == DMA_DECERR) err_reqs_++;
        rd_[k].todo.push_back(r);
        reqs_++;
        bytes_ += len;
    }

    void add_write(unsigned k, uint64_t addr, uint32_t len) {
        Req r;
        r.addr = addr;
        r.len = len;
        r.tag = uint8_t(wr_[k].tag++);
        r.exp_err = expected_err(*mem_[k], addr, len);
        if (r.exp_err == DMA_SLVERR || r.exp_err == DMA_DECERR) err_reqs_++;
        r.data.resize(len);
        for (auto &b : r.data) b = uint8_t(rng_());
        for (uint32_t i = 0; i < len; i++)
            if (mem_[k]->beat_resp(addr + i) == froce_sim::AXI_OKAY) wr_[k].shadow[addr + i - wr_base(k)] = r.data[i];
        if (len) wr_[k].stream.push_back(r);
        wr_[k].todo.push_back(std::move(r));
        reqs_++;
        bytes_ += len;
    }

    bool busy() const {
        for (unsigned k = 0; k < N; k++) {
            const RdEng &r = rd_[k];
            const WrEng &w = wr_[k];
            if (!r.todo.empty() || !r.data.empty() || !r.stat.empty() || !w.todo.empty() || !w.stream.empty() ||
                !w.stat.empty())
                return true;
        }
        return false;
    }

    bool run() {
        uint64_t idle = 0;
        while (busy() && failures_ < 20) {
            if (cycle()) idle = 0;
            else if (++idle > HANG_CYCLES) {
                fail("hang: no handshake for %llu cycles", (unsigned long long)HANG_CYCLES);
                return false;
            }
        }
        for (int i = 0; i < 300 && !all_idle(); i++) cycle();
        if (!all_idle()) fail("bus not idle after the last status (stray bursts, beats or responses)");
        return failures_ == 0;
    }

    bool all_idle() const {
        for (unsigned k = 0; k < N; k++)
            if (!mem_[k]->idle() || !ar_exp_[k].empty() || !aw_exp_[k].empty() || !w_exp_[k].empty() ||
                !r_exp_[k].empty() || !b_exp_[k].empty())
                return false;
        return w_route_.empty();
    }

    MOut read_mout() const {
        MOut m;
        m.arvalid = top_->m_axi_arvalid;
        m.araddr = top_->m_axi_araddr;
        m.arid = top_->m_axi_arid;
        m.arlen = top_->m_axi_arlen;
        m.arsize = top_->m_axi_arsize;
        m.arburst = top_->m_axi_arburst;
        m.awvalid = top_->m_axi_awvalid;
        m.awaddr = top_->m_axi_awaddr;
        m.awid = top_->m_axi_awid;
        m.awlen = top_->m_axi_awlen;
        m.awsize = top_->m_axi_awsize;
        m.awburst = top_->m_axi_awburst;
        m.wvalid = top_->m_axi_wvalid;
        get_bytes(top_->m_axi_wdata, 0, W, m.wdata.data());
        m.wstrb = get_bits(top_->m_axi_wstrb, 0, W);
        m.wlast = top_->m_axi_wlast;
        m.rready = top_->m_axi_rready;
        m.bready = top_->m_axi_bready;
        return m;
    }

    // Which memory an ID names; -1 (and a failure) if none.
    int route(unsigned id, const char *ch) {
        unsigned k = (id >> SID) & ((1u << IDX_BITS) - 1);
        if ((id >> (SID + IDX_BITS)) != 0 || k >= N) {
            fail("%s ID %#x names no master", ch, id);
            return -1;
        }
        return int(k);
    }

    // One clock cycle; true if any handshake happened.
    bool cycle() {
        bool any = false;
        const MOut m = read_mout();        // registered: valid before this cycle's eval

        // -- the slave: memories, routed by ID --
        for (unsigned k = 0; k < N; k++) mem_[k]->drive(pins_[k]);
        int ark = m.arvalid ? route(m.arid, "AR") : -1;
        int awk = m.awvalid ? route(m.awid, "AW") : -1;
        if (m.awvalid && awk >= 0 && !aw_routed_) {
            w_route_.push_back({unsigned(awk), m.awlen + 1});
            aw_routed_ = true;
        }
        int wk = w_route_.empty() ? -1 : int(w_route_.front().k);
        if (r_sel_ < 0) r_sel_ = pick_shown(true);
        if (b_sel_ < 0) b_sel_ = pick_shown(false);
        for (unsigned k = 0; k < N; k++) {
            AxiMemPins &p = pins_[k];
            p.arvalid = int(k) == ark;
            p.araddr = m.araddr; p.arlen = uint8_t(m.arlen); p.arsize = uint8_t(m.arsize);
            p.arburst = uint8_t(m.arburst); p.arid = m.arid;
            p.awvalid = int(k) == awk;
            p.awaddr = m.awaddr; p.awlen = uint8_t(m.awlen); p.awsize = uint8_t(m.awsize);
            p.awburst = uint8_t(m.awburst); p.awid = m.awid;
            p.wvalid = m.wvalid && int(k) == wk;
            p.wdata = m.wdata; p.wstrb = m.wstrb; p.wlast = m.wlast;
            p.rready = m.rready && int(k) == r_sel_;
            p.bready = m.bready && int(k) == b_sel_;
        }
        top_->m_axi_arready = ark >= 0 && pins_[ark].arready;
        top_->m_axi_awready = awk >= 0 && pins_[awk].awready;
        top_->m_axi_wready = wk >= 0 && pins_[wk].wready;
        top_->m_axi_rvalid = r_sel_ >= 0;
        if (r_sel_ >= 0) {
            const AxiMemPins &p = pins_[r_sel_];
            set_bytes(top_->m_axi_rdata, 0, W, p.rdata.data());
            top_->m_axi_rresp = p.rresp;
            top_->m_axi_rlast = p.rlast;
            top_->m_axi_rid = uint8_t(p.rid);
        } else {
            // junk while RVALID is low
            uint8_t junk[64];
            for (unsigned i = 0; i < W; i++) junk[i] = uint8_t(rng_());
            set_bytes(top_->m_axi_rdata, 0, W, junk);
            top_->m_axi_rid = uint8_t(rng_());
        }
        top_->m_axi_bvalid = b_sel_ >= 0;
        if (b_sel_ >= 0) {
            top_->m_axi_bresp = pins_[b_sel_].bresp;
            top_->m_axi_bid = uint8_t(pins_[b_sel_].bid);
        } else {
            top_->m_axi_bid = uint8_t(rng_());
        }

        // -- the engines' user side --
        drive_engines();
        top_->eval();

        if (!(read_mout() == m)) fail("a bus-side output of the mux changed with its inputs (not registered)");
        check_stable(m);

        // -- master side of the mux: requests and W beats in --
        for (unsigned i = 0; i < N; i++) {
            if (bit(top_->mon_arvalid, i) && bit(top_->mon_arready, i)) {
                ar_exp_[i].push_back({get_bits(top_->mon_araddr, 64 * i, 64), unsigned(get_bits(top_->mon_arlen, 8 * i, 8)),
                                      unsigned(get_bits(top_->mon_arid, SID * i, SID))});
                any = true;
            }
            if (bit(top_->mon_awvalid, i) && bit(top_->mon_awready, i)) {
                aw_exp_[i].push_back({get_bits(top_->mon_awaddr, 64 * i, 64), unsigned(get_bits(top_->mon_awlen, 8 * i, 8)),
                                      unsigned(get_bits(top_->mon_awid, SID * i, SID))});
                any = true;
            }
            if (bit(top_->mon_wvalid, i) && bit(top_->mon_wready, i)) {
                Beat b;
                get_bytes(top_->mon_wdata, W * i, W, b.data.data());
                b.strb = get_bits(top_->mon_wstrb, W * i, W);
                b.last = bit(top_->mon_wlast, i);
                w_exp_[i].push_back(b);
                any = true;
            }
        }

        // -- bus side --
        if (m.arvalid && top_->m_axi_arready) {
            any = true;
            ar_grants_[ark]++;
            check_ax("AR", ar_exp_[ark], ark, m.arid, m.araddr, m.arlen);
        }
        if (m.awvalid && top_->m_axi_awready) {
            any = true;
            aw_routed_ = false;
            check_ax("AW", aw_exp_[awk], awk, m.awid, m.awaddr, m.awlen);
        }
        if (m.wvalid && top_->m_axi_wready) {
            any = true;
            bus_w_beats_++;
            last_w_cycle_ = cyc_;
            if (first_w_cycle_ == 0) first_w_cycle_ = cyc_;
            WRoute &wr = w_route_.front();
            std::deque<Beat> &q = w_exp_[wr.k];
            if (q.empty()) fail("W beat on the bus for master %u, which sent none", wr.k);
            else {
                const Beat &e = q.front();
                if (e.data != m.wdata || e.strb != m.wstrb || e.last != m.wlast)
                    fail("W beat on the bus differs from master %u's next beat", wr.k);
                if (m.wlast != (wr.left == 1)) fail("W beat of master %u: WLAST %d with %u beats left", wr.k, int(m.wlast), wr.left);
                q.pop_front();
            }
            if (--wr.left == 0) w_route_.pop_front();
        }
        if (r_sel_ >= 0 && m.rready) {
            any = true;
            bus_r_beats_++;
            last_r_cycle_ = cyc_;
            if (first_r_cycle_ == 0) first_r_cycle_ = cyc_;
            const AxiMemPins &p = pins_[r_sel_];
            int k = route(p.rid, "R");
            if (k >= 0) {
                Beat b;
                std::copy(p.rdata.begin(), p.rdata.begin() + W, b.data.begin());
                b.resp = p.rresp;
                b.last = p.rlast;
                b.id = p.rid & ((1u << SID) - 1);
                r_exp_[k].push_back(b);
            }
            if (prev_r_sel_ >= 0 && prev_r_sel_ != r_sel_) r_switches_++;
            prev_r_sel_ = r_sel_;
            r_sel_ = -1;
        }
        if (b_sel_ >= 0 && m.bready) {
            any = true;
            const AxiMemPins &p = pins_[b_sel_];
            int k = route(p.bid, "B");
            if (k >= 0) b_exp_[k].push_back({p.bresp, p.bid & ((1u << SID) - 1)});
            b_sel_ = -1;
        }

        // -- master side: responses out --
        for (unsigned i = 0; i < N; i++) {
            bool rv = bit(top_->mon_rvalid, i), bv = bit(top_->mon_bvalid, i);
            if (prev_rvalid_[i] && !rv) fail("RVALID to master %u dropped before RREADY", i);
            if (prev_bvalid_[i] && !bv) fail("BVALID to master %u dropped before BREADY", i);
            if (rv && r_exp_[i].empty()) fail("R beat shown to master %u, which is owed none", i);
            if (bv && b_exp_[i].empty()) fail("B response shown to master %u, which is owed none", i);
            bool rh = rv && bit(top_->mon_rready, i), bh = bv && bit(top_->mon_bready, i);
            if (rh && !r_exp_[i].empty()) {
                const Beat &e = r_exp_[i].front();
                Beat g;
                get_bytes(top_->mon_rdata, W * i, W, g.data.data());
                unsigned resp = unsigned(get_bits(top_->mon_rresp, 2 * i, 2));
                unsigned id = unsigned(get_bits(top_->mon_rid, SID * i, SID));
                bool last = bit(top_->mon_rlast, i);
                if (g.data != e.data || resp != e.resp || id != e.id || last != e.last)
                    fail("R beat to master %u differs from the one the bus sent it (id %u/%u resp %u/%u last %d/%d)",
                         i, id, e.id, resp, e.resp, int(last), int(e.last));
                r_exp_[i].pop_front();
                any = true;
            }
            if (bh && !b_exp_[i].empty()) {
                const BResp &e = b_exp_[i].front();
                unsigned resp = unsigned(get_bits(top_->mon_bresp, 2 * i, 2));
                unsigned id = unsigned(get_bits(top_->mon_bid, SID * i, SID));
                if (resp != e.resp || id != e.id)
                    fail("B to master %u differs from the one the bus sent it (id %u/%u resp %u/%u)", i, id, e.id,
                         resp, e.resp);
                b_exp_[i].pop_front();
                any = true;
            }
            prev_rvalid_[i] = rv && !rh;
            prev_bvalid_[i] = bv && !bh;
        }

        any = sample_engines() || any;

        for (unsigned k = 0; k < N; k++) mem_[k]->clock(pins_[k]);
        prev_ = m;
        prev_arready_ = top_->m_axi_arready;
        prev_awready_ = top_->m_axi_awready;
        prev_wready_ = top_->m_axi_wready;

        top_->clk = 1;
        top_->eval();
        top_->clk = 0;
        cyc_++;
        return any;
    }

    // A memory showing a response on R (or B), chosen at random; -1 if none.
    int pick_shown(bool r) {
        int cand[N], n = 0;
        for (unsigned k = 0; k < N; k++)
            if (r ? pins_[k].rvalid : pins_[k].bvalid) cand[n++] = int(k);
        return n ? cand[pick(n)] : -1;
    }

    void check_ax(const char *ch, std::deque<Ax> &q, int k, unsigned id, uint64_t addr, unsigned len) {
        if (k < 0) return;
        if (q.empty()) {
            fail("%s on the bus for master %d, which sent none (addr %#llx)", ch, k, (unsigned long long)addr);
            return;
        }
        const Ax &e = q.front();
        if (e.addr != addr || e.len != len || e.id != (id & ((1u << SID) - 1)))
            fail("%s on the bus (addr %#llx len %u id %#x) is not master %d's next (addr %#llx len %u id %#x)", ch,
                 (unsigned long long)addr, len, id, k, (unsigned long long)e.addr, e.len, e.id);
        if (len + 1 > MAX_BURST) fail("%s burst of %u beats", ch, len + 1);
        q.pop_front();
    }

    void check_stable(const MOut &m) {
        if (prev_.arvalid && !prev_arready_ &&
            (!m.arvalid || m.araddr != prev_.araddr || m.arlen != prev_.arlen || m.arid != prev_.arid))
            fail("AR changed before its handshake");
        if (prev_.awvalid && !prev_awready_ &&
            (!m.awvalid || m.awaddr != prev_.awaddr || m.awlen != prev_.awlen || m.awid != prev_.awid))
            fail("AW changed before its handshake");
        if (prev_.wvalid && !prev_wready_ &&
            (!m.wvalid || m.wdata != prev_.wdata || m.wstrb != prev_.wstrb || m.wlast != prev_.wlast))
            fail("W changed before its handshake");
    }

    // ---- engines' descriptor, stream and status ports ----

    void drive_engines() {
        for (unsigned k = 0; k < N; k++) {
            RdEng &r = rd_[k];
            if (!r.desc_shown && !r.todo.empty() && chance(desc_pct_)) r.desc_shown = true;
            set_bits(top_->rd_desc_valid, k, 1, r.desc_shown);
            if (r.desc_shown) {
                set_bits(top_->rd_desc_addr, 64 * k, 64, r.todo.front().addr);
                set_bits(top_->rd_desc_len, 16 * k, 16, r.todo.front().len);
                set_bits(top_->rd_desc_tag, 8 * k, 8, r.todo.front().tag);
            }
            set_bits(top_->rd_axis_tready, k, 1, chance(rd_ready_pct_));
            set_bits(top_->rd_status_ready, k, 1, chance(st_ready_pct_));

            WrEng &w = wr_[k];
            if (!w.desc_shown && !w.todo.empty() && chance(desc_pct_)) w.desc_shown = true;
            set_bits(top_->wr_desc_valid, k, 1, w.desc_shown);
            if (w.desc_shown) {
                set_bits(top_->wr_desc_addr, 64 * k, 64, w.todo.front().addr);
                set_bits(top_->wr_desc_len, 16 * k, 16, w.todo.front().len);
                set_bits(top_->wr_desc_tag, 8 * k, 8, w.todo.front().tag);
            }
            if (!w.wdata_shown && !w.stream.empty() && chance(wdata_pct_)) w.wdata_shown = true;
            set_bits(top_->wr_axis_tvalid, k, 1, w.wdata_shown);
            if (w.wdata_shown) {
                const Req &q = w.stream.front();
                uint8_t beat[64];
                unsigned n = std::min<uint32_t>(W, q.len - q.done);
                for (unsigned i = 0; i < W; i++) beat[i] = i < n ? q.data[q.done + i] : uint8_t(0xA5 ^ i);
                set_bytes(top_->wr_axis_tdata, W * k, W, beat);
            }
            set_bits(top_->wr_status_ready, k, 1, chance(st_ready_pct_));
        }
    }

    bool sample_engines() {
        bool any = false;
        for (unsigned k = 0; k < N; k++) {
            RdEng &r = rd_[k];
            WrEng &w = wr_[k];
            if (bit(top_->rd_desc_valid, k) && bit(top_->rd_desc_ready, k)) {
                Req q = r.todo.front();
                r.todo.pop_front();
                r.desc_shown = false;
                if (q.len) r.data.push_back(q);
                r.stat.push_back(q);
                any = true;
            }
            if (bit(top_->rd_axis_tvalid, k) && bit(top_->rd_axis_tready, k)) {
                rd_beat(k);
                any = true;
            }
            if (bit(top_->rd_status_valid, k) && bit(top_->rd_status_ready, k)) {
                check_status("read", k, r.stat, unsigned(get_bits(top_->rd_status_tag, 8 * k, 8)),
                             unsigned(get_bits(top_->rd_status_error, 4 * k, 4)));
                any = true;
            }
            if (bit(top_->wr_desc_valid, k) && bit(top_->wr_desc_ready, k)) {
                Req q = w.todo.front();
                w.todo.pop_front();
                w.desc_shown = false;
                q.data.clear();
                w.stat.push_back(q);
                any = true;
            }
            if (bit(top_->wr_axis_tvalid, k) && bit(top_->wr_axis_tready, k)) {
                Req &q = w.stream.front();
                q.done += std::min<uint32_t>(W, q.len - q.done);
                w.wdata_shown = false;
                if (q.done == q.len) w.stream.pop_front();
                any = true;
            }
            if (bit(top_->wr_status_valid, k) && bit(top_->wr_status_ready, k)) {
                check_status("write", k, w.stat, unsigned(get_bits(top_->wr_status_tag, 8 * k, 8)),
                             unsigned(get_bits(top_->wr_status_error, 4 * k, 4)));
                any = true;
            }
        }
        return any;
    }

    void rd_beat(unsigned k) {
        RdEng &e = rd_[k];
        if (e.data.empty()) {
            fail("read engine %u: data beat with no read outstanding", k);
            return;
        }
        Req &r = e.data.front();
        uint8_t beat[64];
        get_bytes(top_->rd_axis_tdata, W * k, W, beat);
        unsigned n = std::min<uint32_t>(W, r.len - r.done);
        bool last = r.done + n == r.len;
        uint64_t keep = get_bits(top_->rd_axis_tkeep, W * k, W);
        if (get_bits(top_->rd_axis_tid, 8 * k, 8) != r.tag) fail("read engine %u tag %u: wrong tid", k, r.tag);
        if (keep != keep_mask(n)) fail("read engine %u tag %u: tkeep %#llx", k, r.tag, (unsigned long long)keep);
        if (bit(top_->rd_axis_tlast, k) != last) fail("read engine %u tag %u: tlast wrong", k, r.tag);
        if (r.exp_err == DMA_OK) {
            for (unsigned i = 0; i < n; i++) {
                uint8_t exp = mem_[k]->peek(r.addr + r.done + i);
                if (beat[i] != exp) {
                    fail("read engine %u tag %u addr %#llx len %u: byte %u is %#04x, memory holds %#04x", k, r.tag,
                         (unsigned long long)r.addr, r.len, r.done + i, beat[i], exp);
                    break;
                }
            }
            checked_bytes_ += n;
        }
        r.done += n;
        if (last) e.data.pop_front();
    }

    void check_status(const char *what, unsigned k, std::deque<Req> &q, unsigned tag, unsigned err) {
        if (q.empty()) {
            fail("%s engine %u: status with nothing outstanding", what, k);
            return;
        }
        Req r = q.front();
        q.pop_front();
        if (tag != r.tag || err != r.exp_err)
            fail("%s engine %u status: tag %u error %u, expected tag %u error %u", what, k, tag, err, r.tag,
                 r.exp_err);
        if (err == DMA_SLVERR || err == DMA_DECERR) bus_err_status_++;
        statuses_++;
    }

    bool compare_write_regions() {
        uint64_t bad = 0;
        for (unsigned k = 0; k < N; k++) {
            for (uint64_t i = 0; i < SHADOW_SIZE; i++) {
                uint8_t got = mem_[k]->peek(wr_base(k) + i);
                if (got != wr_[k].shadow[i]) {
                    if (bad < 5)
                        fail("memory %u byte %#llx is %#04x, expected %#04x", k,
                             (unsigned long long)(wr_base(k) + i), got, wr_[k].shadow[i]);
                    bad++;
                }
            }
            for (uint64_t pn : mem_[k]->written_pages())
                if (pn < (wr_base(k) >> 12) || pn > ((wr_base(k) + SHADOW_SIZE - 1) >> 12)) {
                    fail("memory %u: page %#llx outside the write region was written", k,
                         (unsigned long long)(pn << 12));
                    bad++;
                }
        }
        if (bad) fail("%llu bytes/pages differ", (unsigned long long)bad);
        return bad == 0;
    }

    bool check_models() {
        bool ok = true;
        for (unsigned k = 0; k < N; k++)
            for (const auto &v : mem_[k]->violations()) {
                fail("AXI protocol (memory %u): %s", k, v.c_str());
                ok = false;
            }
        return ok;
    }

    template <typename... A>
    void fail(const char *fmt, A... a) {
        failures_++;
        if (failures_ <= 20) {
            std::printf("FAIL: cycle %llu: ", (unsigned long long)cyc_);
            std::printf(fmt, a...);
            std::printf("\n");
        }
    }

    unsigned pick(uint64_t n) { return unsigned(std::uniform_int_distribution<uint64_t>(0, n - 1)(rng_)); }
    bool chance(unsigned pct) { return pct >= 100 || pick(100) < pct; }

    std::mt19937_64 rng_;
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vtb_axi_mux_top> top_;
    std::vector<std::unique_ptr<AxiMem>> mem_;
    AxiMemPins pins_[N];
    RdEng rd_[N];
    WrEng wr_[N];
    std::deque<Ax> ar_exp_[N], aw_exp_[N];
    std::deque<Beat> w_exp_[N], r_exp_[N];
    std::deque<BResp> b_exp_[N];
    std::deque<WRoute> w_route_;
    bool aw_routed_ = false;
    int r_sel_ = -1, b_sel_ = -1, prev_r_sel_ = -1;
    bool prev_rvalid_[N] = {}, prev_bvalid_[N] = {};
    MOut prev_{};
    bool prev_arready_ = false, prev_awready_ = false, prev_wready_ = false;
    unsigned rd_ready_pct_ = 100, st_ready_pct_ = 100, desc_pct_ = 100, wdata_pct_ = 100;
    uint64_t cyc_ = 0, failures_ = 0, reqs_ = 0, bytes_ = 0, err_reqs_ = 0, checked_bytes_ = 0;
    uint64_t statuses_ = 0, bus_err_status_ = 0, r_switches_ = 0, ar_grants_[N] = {};
    uint64_t bus_r_beats_ = 0, bus_w_beats_ = 0;
    uint64_t first_r_cycle_ = 0, last_r_cycle_ = 0, first_w_cycle_ = 0, last_w_cycle_ = 0;
};

}  // namespace

int main(int argc, char **argv) {
    uint64_t seed = 1;
    unsigned reqs = 300;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--seed" && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 0);
        else if (a == "--reqs" && i + 1 < argc) reqs = unsigned(std::strtoul(argv[++i], nullptr, 0));
        else {
            std::fprintf(stderr, "usage: %s [--seed N] [--reqs N]\n", argv[0]);
            return 2;
        }
    }

    Bench b(seed);
    b.reset();

    // Phase 1: all six engines at once, random traffic and back-pressure
    b.set_random_flow(true);
    for (unsigned i = 0; i < reqs; i++)
        for (unsigned k = 0; k < N; k++) {
            b.add_read(k, rd_base(k) + b.pick(REGION_SIZE), b.rand_len());
            b.add_write(k, wr_base(k) + b.pick(REGION_SIZE), b.rand_len());
        }
    bool ok = b.run();
    uint64_t bursts = 0;
    for (unsigned k = 0; k < N; k++) bursts += b.mem_[k]->stats().ar_bursts + b.mem_[k]->stats().aw_bursts;
    std::printf("random: %llu requests (%llu bytes, %llu with a bus error), %llu AXI bursts, %llu read bytes "
                "checked, %llu statuses (%llu bus errors), AR grants %llu/%llu/%llu, %llu R-beat switches between "
                "IDs, %llu cycles\n",
                (unsigned long long)b.reqs_, (unsigned long long)b.bytes_, (unsigned long long)b.err_reqs_,
                (unsigned long long)bursts, (unsigned long long)b.checked_bytes_, (unsigned long long)b.statuses_,
                (unsigned long long)b.bus_err_status_, (unsigned long long)b.ar_grants_[0],
                (unsigned long long)b.ar_grants_[1], (unsigned long long)b.ar_grants_[2],
                (unsigned long long)b.r_switches_, (unsigned long long)b.cyc_);

    // Phase 2: throughput, no back-pressure, bus latency 20
    b.set_random_flow(false);
    for (unsigned masters : {1u, 3u}) {
        for (int dir = 0; dir < 2 && ok; dir++) {
            const unsigned n = 32;
            uint64_t beats0 = dir ? b.bus_w_beats_ : b.bus_r_beats_;
            b.first_r_cycle_ = b.first_w_cycle_ = 0;
            for (unsigned i = 0; i < n; i++)
                for (unsigned k = 0; k < masters; k++) {
                    if (dir) b.add_write(k, wr_base(k) + 0x10000 + i * 4096, 4096);
                    else b.add_read(k, rd_base(k) + 0x10000 + i * 4096, 4096);
                }
            ok = b.run() && ok;
            uint64_t beats = (dir ? b.bus_w_beats_ : b.bus_r_beats_) - beats0;
            uint64_t span = dir ? b.last_w_cycle_ - b.first_w_cycle_ + 1 : b.last_r_cycle_ - b.first_r_cycle_ + 1;
            std::printf("throughput %-5s %u master%s: %llu %s beats on the bus in %llu cycles = %.3f beats/cycle "
                        "(first to last beat, %u x 4096 B each, %u-beat bursts)\n",
                        dir ? "write" : "read", masters, masters > 1 ? "s" : " ", (unsigned long long)beats,
                        dir ? "W" : "R", (unsigned long long)span, double(beats) / double(span), n, MAX_BURST);
        }
    }
    ok = b.compare_write_regions() && ok;
    ok = b.check_models() && ok;

    if (b.failures_ || !ok) {
        std::printf("FAIL: DATA_WIDTH=%d seed=%llu: %llu failure(s)\n", DATA_WIDTH, (unsigned long long)seed,
                    (unsigned long long)b.failures_);
        return 1;
    }
    std::printf("PASS: DATA_WIDTH=%d seed=%llu: %llu requests, %llu bursts through the mux, every transfer, byte "
                "and status checked, %llu cycles\n",
                DATA_WIDTH, (unsigned long long)seed, (unsigned long long)b.reqs_, (unsigned long long)bursts,
                (unsigned long long)b.cyc_);
    return 0;
}
