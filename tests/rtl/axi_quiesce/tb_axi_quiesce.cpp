// SPDX-License-Identifier: MIT
// Verilator bench for froce_axi_quiesce: a random AXI4 master that is reset at random times, the quiesce, AxiMem.
//
// The slave is the repository's AXI memory model (sim/models/axi_mem.h) on
// m_axi_*, with random back-pressure and latency (a new profile every
// episode). The master on s_axi_* is the bench's: INCR bursts of 1..32 beats
// (AxSIZE = bus width, never crossing 4 KiB), random IDs, random strobes,
// several reads and writes outstanding, W beats shown together with or after
// their AW (never before), random RREADY/BREADY; it obeys AXI itself (a VALID
// stays, unchanged, until its handshake).
//
// Episodes: traffic for a random time (or until a chosen condition holds:
// AW, AR or W shown and not taken, a W burst half sent, BURSTS bursts owed W
// beats so an AW is held back, nothing outstanding), then drain rises and in
// the same cycle the master is reset: it forgets everything and drives every
// s_axi VALID/READY low, or random garbage on every s_axi input. drain stays
// up until busy falls and a random number of cycles more; then it falls and
// fresh traffic starts (sometimes in another address region). busy must fall
// within a bound made of the work left when drain rose and the memory's
// speed: 500 + 2 x (R and B latency) + 3 x the cycles the memory needs, at
// its VALID/READY percentages, for the R beats, W beats, B responses and the
// AR/AW left (the largest share of that bound used is printed, and the
// longest drain with a memory without back-pressure).
//
// Checked, every cycle:
//   * drain = 0: the port passes through: AR/AW/W payloads unchanged, the
//     handshakes on both sides are the same handshakes, R/B unchanged;
//   * m_axi W beats only for bursts whose AW has been shown on m_axi, WLAST
//     on each burst's last beat, at most BURSTS bursts owed W beats;
//   * drain = 1: no s_axi READY and no s_axi RVALID/BVALID; the m_axi side
//     and busy do not depend on s_axi_* (each drain cycle is evaluated twice
//     with different garbage and must give the same outputs); after a beat
//     that was shown and not taken (re-shown unchanged), only WSTRB = 0
//     beats, exactly as many as the bursts owed;
//   * drain = 0: busy = 1 exactly while the master has something shown and
//     not taken, or taken and not answered;
//   * the master: every R beat and B response it gets answers one of its own
//     outstanding transactions (per ID, in order; RLAST on the last beat;
//     OKAY; no B before the burst's last W beat); every R byte equals the
//     shadow of host memory (reads never overlap writes in flight).
// At each busy fall in a drain: AxiMem idle, no burst owed W beats, memory
// equal to the shadow on every byte of every page written since the last
// check (the shadow is updated only by W beats the master handed over on
// s_axi, plus the beat the port had shown on m_axi when drain rose, which
// AXI makes it re-show; dummy beats write nothing), no page written outside
// the shadow's. At the end: the same over all pages, AxiMem's violations()
// empty, every kind of drain condition above covered, and throughput without
// back-pressure (a first phase with no drain) at least 0.85 W and R beats per
// cycle.
//
// Negative controls (build-time, -D): NEG_EARLY_RELEASE releases drain a few
// cycles after raising it, busy or not; NEG_WITHDRAW_AW makes the master
// withdraw an AW now and then before AWREADY (outside drain);
// NEG_RESET_NO_DRAIN resets the master without raising drain. Each must FAIL.
//
// Usage: tb_axi_quiesce [--seed N] [--episodes N]
// Prints one summary line ending in "ok", or FAIL lines and a summary line
// ending in "FAIL"; exit status 0 only for ok.

#include <algorithm>
#include <array>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "Vfroce_axi_quiesce.h"
#include "verilated.h"

#include "axi_mem.h"

#ifndef DATA_WIDTH
#error "build with -DDATA_WIDTH=<bits> (the same as -GDATA_WIDTH)"
#endif
#ifndef BURSTS
#define BURSTS 16   // the DUT's BURSTS parameter
#endif

using froce_sim::AxiMem;
using froce_sim::AxiMemConfig;
using froce_sim::AxiMemPins;

namespace {

constexpr unsigned W = DATA_WIDTH / 8;
constexpr unsigned SIZE_LOG2 = W == 1 ? 0 : W == 2 ? 1 : W == 4 ? 2 : W == 8 ? 3 : W == 16 ? 4 : W == 32 ? 5 : 6;
constexpr unsigned IDW = 4;
constexpr unsigned NID = 1u << IDW;
constexpr uint64_t STRB_ALL = W >= 64 ? ~0ull : ((1ull << W) - 1);
constexpr unsigned MAX_BEATS = 32;
constexpr unsigned BEATS_PER_PAGE = 4096 / W;
constexpr unsigned REGION_PAGES = 64;
constexpr unsigned N_REGIONS = 6;
constexpr uint64_t DRAIN_BOUND = 20000;    // cycles without drain for busy to fall (NEG_RESET_NO_DRAIN)
constexpr uint64_t HANG_CYCLES = 20000;    // no s_axi handshake with work pending
constexpr int MAX_FAILS = 20;

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
    if (w >= (sizeof(T) + 3) / 4) return;
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
void get_bytes(const T &s, uint8_t *out) {
    for (unsigned i = 0; i < W; i += 4) {
        uint32_t x = wget(s, i / 4);
        for (unsigned j = 0; j < 4 && i + j < W; j++) out[i + j] = uint8_t(x >> (8 * j));
    }
}
template <typename T>
void set_bytes(T &s, const uint8_t *in) {
    for (unsigned i = 0; i < W; i += 4) {
        uint32_t x = 0;
        for (unsigned j = 0; j < 4 && i + j < W; j++) x |= uint32_t(in[i + j]) << (8 * j);
        if (W >= 4) wset(s, i / 4, x);
        else set_bits(s, 0, 8 * W, x);
    }
}

using Data = std::array<uint8_t, 64>;

// ---- one cycle's signals -----------------------------------------------------

struct Ax {
    bool valid = false;
    uint64_t addr = 0;
    unsigned id = 0, len = 0, size = 0, burst = 0, lock = 0, cache = 0, prot = 0;
    bool same_payload(const Ax &o) const {
        return addr == o.addr && id == o.id && len == o.len && size == o.size && burst == o.burst &&
               lock == o.lock && cache == o.cache && prot == o.prot;
    }
    bool operator==(const Ax &o) const { return valid == o.valid && same_payload(o); }
};
struct WBeat {
    bool valid = false;
    Data data{};
    uint64_t strb = 0;
    bool last = false;
    bool same_payload(const WBeat &o) const {
        return strb == o.strb && last == o.last && std::equal(data.begin(), data.begin() + W, o.data.begin());
    }
    bool operator==(const WBeat &o) const { return valid == o.valid && same_payload(o); }
};
// the master's outputs (s_axi inputs of the DUT)
struct SIn {
    Ax ar, aw;
    WBeat w;
    bool rready = false, bready = false;
};
// the DUT's outputs
struct DOut {
    // to the masters
    bool s_arready, s_awready, s_wready, s_rvalid, s_rlast, s_bvalid;
    unsigned s_rid, s_rresp, s_bid, s_bresp;
    Data s_rdata{};
    // to memory
    Ax m_ar, m_aw;
    WBeat m_w;
    bool m_rready, m_bready;
    bool busy;
    bool operator==(const DOut &o) const {
        return s_arready == o.s_arready && s_awready == o.s_awready && s_wready == o.s_wready &&
               s_rvalid == o.s_rvalid && s_bvalid == o.s_bvalid && m_ar == o.m_ar && m_aw == o.m_aw &&
               m_w == o.m_w && m_rready == o.m_rready && m_bready == o.m_bready && busy == o.busy;
    }
};

// ---- the master's transactions --------------------------------------------------

struct WrBurst {
    uint64_t addr;
    unsigned len, id;               // AWLEN (beats - 1)
    std::vector<Data> data;
    std::vector<uint64_t> strb;
    bool aw_shown = false, aw_done = false;
    unsigned w_done = 0;            // beats handed over (s_axi handshake)
};
struct RdBurst {
    uint64_t addr;
    unsigned len, id;
    bool ar_done = false;
    unsigned r_done = 0;
};

// A traffic / back-pressure profile, new each episode.
struct Profile {
    unsigned ar_pct, aw_pct, w_pct, rready_pct, bready_pct;
    unsigned max_rd, max_wr, max_w_ahead;   // bursts
    unsigned mem_ar, mem_aw, mem_w, mem_r, mem_b, r_lat, b_lat;
    const char *name;
};

enum Trigger { T_TIME, T_AW_HELD, T_AR_HELD, T_W_HELD, T_MIDBURST, T_FULL, T_IDLE, T_N };
const char *const trig_name[T_N] = {"time", "aw_held", "ar_held", "w_held", "midburst", "full", "idle"};

class Bench {
public:
    explicit Bench(uint64_t seed) : seed_(seed), rng_(seed * 0x9E3779B97F4A7C15ull + 12345) {
        ctx_ = std::make_unique<VerilatedContext>();
        top_ = std::make_unique<Vfroce_axi_quiesce>(ctx_.get(), "top");
        AxiMemConfig c;
        c.data_bytes = W;
        c.sparse = true;
        c.seed = seed * 7919 + 17;
        mem_ = std::make_unique<AxiMem>(c);
        for (unsigned r = 0; r < N_REGIONS; r++)
            region_base_[r] = (uint64_t(r + 1) << 32) + (uint64_t(r) * 0x123) * 4096 + (r & 1 ? 0x7f00000000000ull : 0);
    }

    int run(unsigned episodes);

private:
    // ------------------------------------------------------------ helpers
    unsigned pick(unsigned n) { return std::uniform_int_distribution<unsigned>(0, n - 1)(rng_); }
    bool chance(unsigned pct) { return pct >= 100 || pick(100) < pct; }

    void fail(const char *fmt, ...) __attribute__((format(printf, 2, 3))) {
        failures_++;
        if (failures_ > MAX_FAILS) return;
        char buf[512];
        va_list ap;
        va_start(ap, fmt);
        std::vsnprintf(buf, sizeof buf, fmt, ap);
        va_end(ap);
        std::printf("FAIL: seed %llu width %u episode %u cycle %llu%s: %s\n", (unsigned long long)seed_,
                    DATA_WIDTH, episode_, (unsigned long long)cyc_, drain_ ? " (drain)" : "", buf);
    }

    // ------------------------------------------------------------ shadow of host memory
    using Page = std::array<uint8_t, 4096>;
    Page &spage(uint64_t pn) {
        auto &p = shadow_[pn];
        if (!p) {
            p = std::make_unique<Page>();
            for (unsigned i = 0; i < 4096; i++) (*p)[i] = AxiMem::pattern((pn << 12) + i);
        }
        return *p;
    }
    uint8_t sget(uint64_t a) {
        auto it = shadow_.find(a >> 12);
        return it == shadow_.end() ? AxiMem::pattern(a) : (*it->second)[a & 0xfff];
    }
    void shadow_write(uint64_t a, const Data &d, uint64_t strb) {
        Page &p = spage(a >> 12);
        for (unsigned i = 0; i < W; i++)
            if ((strb >> i) & 1) p[(a + i) & 0xfff] = d[i];
        if (strb & STRB_ALL) dirty_.insert(a >> 12);
    }
    // memory against the shadow: the pages written since the last check (or all)
    void compare_memory(bool all) {
        std::set<uint64_t> pages;
        if (all) {
            for (auto &kv : shadow_) pages.insert(kv.first);
            for (uint64_t pn : mem_->written_pages()) pages.insert(pn);
        } else {
            pages = dirty_;
            for (uint64_t pn : mem_->written_pages())
                if (!shadow_.count(pn)) pages.insert(pn);
        }
        for (uint64_t pn : pages) {
            if (!shadow_.count(pn)) {
                fail("memory page %#llx written, but the master wrote nothing there",
                     (unsigned long long)(pn << 12));
                continue;
            }
            const Page &p = *shadow_[pn];
            for (unsigned i = 0; i < 4096; i++) {
                uint8_t got = mem_->peek((pn << 12) + i);
                if (got != p[i]) {
                    fail("memory byte %#llx = %#04x, the master's writes make it %#04x",
                         (unsigned long long)((pn << 12) + i), got, p[i]);
                    break;
                }
            }
            pages_checked_++;
        }
        dirty_.clear();
    }

    // ------------------------------------------------------------ profiles
    void new_profile(Trigger t) {
        Profile p;
        static const unsigned fast[] = {100, 100, 100, 100, 100};
        unsigned kind = pick(5);
        const unsigned *mp = fast;
        unsigned slow[5], mid[5], rnd[5];
        for (unsigned i = 0; i < 5; i++) {
            slow[i] = 10 + pick(30);
            mid[i] = 50 + pick(40);
            rnd[i] = 5 + pick(96);
        }
        switch (kind) {
        case 0: mp = fast; p.name = "fast"; break;
        case 1: mp = slow; p.name = "slow"; break;
        case 2: mp = mid; p.name = "mid"; break;
        default: mp = rnd; p.name = "random"; break;
        }
        p.mem_ar = mp[0]; p.mem_aw = mp[1]; p.mem_w = mp[2]; p.mem_r = mp[3]; p.mem_b = mp[4];
        p.r_lat = 1 + pick(kind == 0 ? 10 : 60);
        p.b_lat = 1 + pick(kind == 0 ? 10 : 60);
        p.ar_pct = 5 + pick(96);
        p.aw_pct = 5 + pick(96);
        p.w_pct = chance(20) ? 3 + pick(15) : 40 + pick(61);
        p.rready_pct = chance(30) ? 100 : 10 + pick(91);
        p.bready_pct = chance(30) ? 100 : 10 + pick(91);
        p.max_rd = 1 + pick(40);
        p.max_wr = 1 + pick(40);
        p.max_w_ahead = 1 + pick(BURSTS + 8);
        if (t == T_FULL) {          // let the AWs run ahead of the W beats
            p.aw_pct = 100;
            p.w_pct = 2 + pick(8);
            p.max_wr = 40;
            p.max_w_ahead = BURSTS + 4 + pick(8);
            p.mem_aw = 100;
            p.mem_b = 50 + pick(51);
        }
        if (t == T_IDLE) {          // sparse traffic
            p.ar_pct = 1 + pick(5);
            p.aw_pct = 1 + pick(5);
        }
        prof_ = p;
        apply_mem_profile();
    }
    void apply_mem_profile() {
        AxiMemConfig &c = mem_->config();
        c.ar_ready_pct = prof_.mem_ar;
        c.aw_ready_pct = prof_.mem_aw;
        c.w_ready_pct = prof_.mem_w;
        c.r_valid_pct = prof_.mem_r;
        c.b_valid_pct = prof_.mem_b;
        c.r_lat_min = 1; c.r_lat_max = prof_.r_lat;
        c.b_lat_min = 1; c.b_lat_max = prof_.b_lat;
    }

    // ------------------------------------------------------------ the master
    // pages with reads / writes in flight: a read never overlaps a write in flight
    std::unordered_map<uint64_t, std::pair<unsigned, unsigned>> inflight_;

    bool pick_burst(bool write, uint64_t &addr, unsigned &len) {
        unsigned beats;
        unsigned r = pick(10);
        beats = long_bursts_ ? MAX_BEATS : r < 2 ? 1 : r < 4 ? MAX_BEATS : 1 + pick(MAX_BEATS);
        beats = std::min(beats, BEATS_PER_PAGE);
        for (int tries = 0; tries < 4; tries++) {
            uint64_t pn = (region_base_[region_] >> 12) + pick(REGION_PAGES);
            auto it = inflight_.find(pn);
            if (it != inflight_.end() && (write ? it->second.first : it->second.second)) continue;
            unsigned start = pick(BEATS_PER_PAGE - beats + 1);
            addr = (pn << 12) + uint64_t(start) * W;
            len = beats - 1;
            return true;
        }
        return false;
    }

    void master_reset() {
        ar_cur_.reset();
        aw_cur_.reset();
        w_q_.clear();
        for (auto &q : rd_wait_) q.clear();
        for (auto &q : b_wait_) q.clear();
        inflight_.clear();
        w_showing_ = false;
        n_rd_ = n_wr_ = n_w_ahead_ = 0;
#ifdef NEG_WITHDRAW_AW
        withdrawn_ = false;
#endif
    }

    // outstanding: shown and not taken, or taken and not answered
    bool master_pending() const {
        return ar_cur_ || aw_cur_ || n_rd_ > 0 || n_wr_ > 0 || !w_q_.empty();
    }

    // This cycle's master outputs; they do not depend on this cycle's READYs.
    SIn master_drive() {
        SIn s;
        // AR
        if (!ar_cur_ && generate_ && n_rd_ < prof_.max_rd && chance(prof_.ar_pct)) {
            uint64_t a;
            unsigned l;
            if (pick_burst(false, a, l)) {
                ar_cur_ = std::make_shared<RdBurst>();
                ar_cur_->addr = a;
                ar_cur_->len = l;
                ar_cur_->id = pick(NID);
                inflight_[a >> 12].first++;
                n_rd_++;
            }
        }
        if (ar_cur_) {
            s.ar.valid = true;
            s.ar.addr = ar_cur_->addr;
            s.ar.id = ar_cur_->id;
            s.ar.len = ar_cur_->len;
            s.ar.size = SIZE_LOG2;
            s.ar.burst = 1;
            s.ar.cache = 3;
            s.ar.prot = 2;
        }
        // AW
        if (!aw_cur_ && generate_ && n_wr_ < prof_.max_wr && n_w_ahead_ < prof_.max_w_ahead &&
            chance(prof_.aw_pct)) {
            uint64_t a;
            unsigned l;
            if (pick_burst(true, a, l)) {
                auto b = std::make_shared<WrBurst>();
                b->addr = a;
                b->len = l;
                b->id = pick(NID);
                b->data.resize(l + 1);
                b->strb.resize(l + 1);
                for (unsigned i = 0; i <= l; i++) {
                    for (unsigned j = 0; j < W; j++) b->data[i][j] = uint8_t(rng_());
                    unsigned k = pick(20);
                    b->strb[i] = k < 10 ? STRB_ALL : k == 10 ? 0 : (rng_() & STRB_ALL);
                }
                inflight_[a >> 12].second++;
                n_wr_++;
                n_w_ahead_++;
                aw_cur_ = b;
                w_q_.push_back(b);
            }
        }
        if (aw_cur_) {
            aw_cur_->aw_shown = true;
            s.aw.valid = true;
            s.aw.addr = aw_cur_->addr;
            s.aw.id = aw_cur_->id;
            s.aw.len = aw_cur_->len;
            s.aw.size = SIZE_LOG2;
            s.aw.burst = 1;
            s.aw.cache = 3;
            s.aw.prot = 2;
#ifdef NEG_WITHDRAW_AW
            // withdraw an AW that was shown and not taken, now and then
            if (aw_prev_shown_ && chance(3)) {
                s.aw.valid = false;
                withdrawn_ = true;
            }
#endif
        }
        // W: the oldest burst with beats left, once its AW has been shown
        if (!w_q_.empty() && w_q_.front()->aw_shown && (w_showing_ || chance(prof_.w_pct))) {
            const WrBurst &b = *w_q_.front();
            w_showing_ = true;
            s.w.valid = true;
            s.w.data = b.data[b.w_done];
            s.w.strb = b.strb[b.w_done];
            s.w.last = b.w_done == b.len;
        }
        s.rready = chance(prof_.rready_pct);
        s.bready = chance(prof_.bready_pct);
        return s;
    }

    // Garbage on every s_axi input (the masters in reset).
    SIn garbage() {
        SIn s;
        auto ax = [&](Ax &a) {
            a.valid = rng_() & 1;
            a.addr = rng_();
            a.id = pick(NID);
            a.len = pick(256);
            a.size = pick(8);
            a.burst = pick(4);
            a.lock = pick(2);
            a.cache = pick(16);
            a.prot = pick(8);
        };
        ax(s.ar);
        ax(s.aw);
        s.w.valid = rng_() & 1;
        for (unsigned j = 0; j < W; j++) s.w.data[j] = uint8_t(rng_());
        s.w.strb = rng_() & STRB_ALL;
        s.w.last = rng_() & 1;
        s.rready = rng_() & 1;
        s.bready = rng_() & 1;
        return s;
    }

    // The master sees this cycle's handshakes on s_axi.
    void master_observe(const SIn &s, const DOut &d) {
        if (s.ar.valid && d.s_arready) {
            ar_cur_->ar_done = true;
            rd_wait_[ar_cur_->id].push_back(ar_cur_);
            ar_cur_.reset();
            rd_bursts_++;
            s_hs_ = true;
        }
        if (s.aw.valid && d.s_awready) {
            aw_cur_->aw_done = true;
            b_wait_[aw_cur_->id].push_back(aw_cur_);
            aw_cur_.reset();
            wr_bursts_++;
            s_hs_ = true;
        }
        if (s.w.valid && d.s_wready) {
            WrBurst &b = *w_q_.front();
            shadow_write(b.addr + uint64_t(b.w_done) * W, b.data[b.w_done], b.strb[b.w_done]);
            b.w_done++;
            w_showing_ = false;
            if (b.w_done == b.len + 1) {
                w_q_.pop_front();
                n_w_ahead_--;
            }
            w_beats_++;
            s_hs_ = true;
        }
        if (d.s_rvalid) {
            auto &q = rd_wait_[d.s_rid];
            if (q.empty()) {
                fail("R beat with ID %u, the master has no read outstanding with that ID", d.s_rid);
            } else if (s.rready) {
                RdBurst &b = *q.front();
                uint64_t a = b.addr + uint64_t(b.r_done) * W;
                for (unsigned i = 0; i < W; i++) {
                    uint8_t e = sget(a + i);
                    if (d.s_rdata[i] != e) {
                        fail("R beat %u of read addr=%#llx len=%u id=%u: byte %#llx = %#04x, memory holds %#04x",
                             b.r_done, (unsigned long long)b.addr, b.len, b.id, (unsigned long long)(a + i),
                             d.s_rdata[i], e);
                        break;
                    }
                }
                if (d.s_rlast != (b.r_done == b.len))
                    fail("R beat %u of read addr=%#llx len=%u id=%u: RLAST=%d", b.r_done, (unsigned long long)b.addr,
                         b.len, b.id, int(d.s_rlast));
                if (d.s_rresp != 0) fail("R beat with RRESP %u", d.s_rresp);
                b.r_done++;
                r_beats_++;
                s_hs_ = true;
                if (d.s_rlast || b.r_done > b.len) {
                    auto it = inflight_.find(b.addr >> 12);
                    if (it != inflight_.end() && it->second.first) it->second.first--;
                    q.pop_front();
                    n_rd_--;
                }
            }
        }
        if (d.s_bvalid) {
            auto &q = b_wait_[d.s_bid];
            if (q.empty()) {
                fail("B with ID %u, the master has no write outstanding with that ID", d.s_bid);
            } else if (q.front()->w_done != q.front()->len + 1) {
                fail("B with ID %u for write addr=%#llx len=%u, of which only %u W beats were handed over", d.s_bid,
                     (unsigned long long)q.front()->addr, q.front()->len, q.front()->w_done);
                if (s.bready) q.pop_front(), n_wr_--;
            } else if (s.bready) {
                if (d.s_bresp != 0) fail("B with BRESP %u", d.s_bresp);
                auto it = inflight_.find(q.front()->addr >> 12);
                if (it != inflight_.end() && it->second.second) it->second.second--;
                q.pop_front();
                n_wr_--;
                s_hs_ = true;
            }
        }
    }

    // ------------------------------------------------------------ the DUT
    void apply(const SIn &s) {
        auto &t = *top_;
        t.s_axi_arvalid = s.ar.valid;
        t.s_axi_araddr = s.ar.addr;
        t.s_axi_arid = s.ar.id;
        t.s_axi_arlen = s.ar.len;
        t.s_axi_arsize = s.ar.size;
        t.s_axi_arburst = s.ar.burst;
        t.s_axi_arlock = s.ar.lock;
        t.s_axi_arcache = s.ar.cache;
        t.s_axi_arprot = s.ar.prot;
        t.s_axi_awvalid = s.aw.valid;
        t.s_axi_awaddr = s.aw.addr;
        t.s_axi_awid = s.aw.id;
        t.s_axi_awlen = s.aw.len;
        t.s_axi_awsize = s.aw.size;
        t.s_axi_awburst = s.aw.burst;
        t.s_axi_awlock = s.aw.lock;
        t.s_axi_awcache = s.aw.cache;
        t.s_axi_awprot = s.aw.prot;
        t.s_axi_wvalid = s.w.valid;
        set_bytes(t.s_axi_wdata, s.w.data.data());
        set_bits(t.s_axi_wstrb, 0, W, s.w.strb);
        t.s_axi_wlast = s.w.last;
        t.s_axi_rready = s.rready;
        t.s_axi_bready = s.bready;
    }

    DOut read_out() const {
        const auto &t = *top_;
        DOut d;
        d.s_arready = t.s_axi_arready;
        d.s_awready = t.s_axi_awready;
        d.s_wready = t.s_axi_wready;
        d.s_rvalid = t.s_axi_rvalid;
        d.s_rlast = t.s_axi_rlast;
        d.s_rid = t.s_axi_rid;
        d.s_rresp = t.s_axi_rresp;
        get_bytes(t.s_axi_rdata, d.s_rdata.data());
        d.s_bvalid = t.s_axi_bvalid;
        d.s_bid = t.s_axi_bid;
        d.s_bresp = t.s_axi_bresp;
        d.m_ar.valid = t.m_axi_arvalid;
        d.m_ar.addr = t.m_axi_araddr;
        d.m_ar.id = t.m_axi_arid;
        d.m_ar.len = t.m_axi_arlen;
        d.m_ar.size = t.m_axi_arsize;
        d.m_ar.burst = t.m_axi_arburst;
        d.m_ar.lock = t.m_axi_arlock;
        d.m_ar.cache = t.m_axi_arcache;
        d.m_ar.prot = t.m_axi_arprot;
        d.m_aw.valid = t.m_axi_awvalid;
        d.m_aw.addr = t.m_axi_awaddr;
        d.m_aw.id = t.m_axi_awid;
        d.m_aw.len = t.m_axi_awlen;
        d.m_aw.size = t.m_axi_awsize;
        d.m_aw.burst = t.m_axi_awburst;
        d.m_aw.lock = t.m_axi_awlock;
        d.m_aw.cache = t.m_axi_awcache;
        d.m_aw.prot = t.m_axi_awprot;
        d.m_w.valid = t.m_axi_wvalid;
        get_bytes(t.m_axi_wdata, d.m_w.data.data());
        d.m_w.strb = get_bits(t.m_axi_wstrb, 0, W);
        d.m_w.last = t.m_axi_wlast;
        d.m_rready = t.m_axi_rready;
        d.m_bready = t.m_axi_bready;
        d.busy = t.busy;
        return d;
    }

    void reset_dut() {
        top_->clk = 0;
        top_->rst = 1;
        top_->drain = 0;
        apply(SIn{});
        for (int i = 0; i < 4; i++) {
            top_->eval();
            top_->clk = 1;
            top_->eval();
            top_->clk = 0;
        }
        top_->rst = 0;
        top_->eval();
    }

    // ------------------------------------------------------------ one clock cycle
    void cycle();

    // m_axi side bookkeeping: bursts whose AW was shown on m_axi, W beats owed
    std::deque<unsigned> m_owed_;   // beats left, oldest burst first
    DOut prev_{};                   // last cycle's outputs
    AxiMemPins pins_;
    bool held_beat_pending_ = false;   // drain: the beat shown when it rose is still to go
    WBeat held_beat_;

    // ------------------------------------------------------------ state
    uint64_t seed_;
    std::mt19937_64 rng_;
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vfroce_axi_quiesce> top_;
    std::unique_ptr<AxiMem> mem_;
    std::unordered_map<uint64_t, std::unique_ptr<Page>> shadow_;
    std::set<uint64_t> dirty_;
    uint64_t region_base_[N_REGIONS];
    unsigned region_ = 0;
    Profile prof_{};
    bool generate_ = true;
    bool long_bursts_ = false;
    int dbg_aw_ = 0, dbg_ar_ = 0, dbg_w_ = 0;
    bool pins_prev_awready_ = false, pins_prev_arready_ = false, pins_prev_wready_ = false;
    bool drain_ = false;
    bool garbage_ = false;
    unsigned episode_ = 0;
    uint64_t cyc_ = 0;
    int failures_ = 0;
    bool s_hs_ = false;             // an s_axi handshake this cycle

    std::shared_ptr<RdBurst> ar_cur_;
    std::shared_ptr<WrBurst> aw_cur_;
    std::deque<std::shared_ptr<WrBurst>> w_q_;
    std::array<std::deque<std::shared_ptr<RdBurst>>, NID> rd_wait_;
    std::array<std::deque<std::shared_ptr<WrBurst>>, NID> b_wait_;
    bool w_showing_ = false;
    unsigned n_rd_ = 0, n_wr_ = 0, n_w_ahead_ = 0;
    SIn cur_in_{};
#ifdef NEG_WITHDRAW_AW
    bool withdrawn_ = false;
    bool aw_prev_shown_ = false;
#endif

    // statistics
    uint64_t rd_bursts_ = 0, wr_bursts_ = 0, w_beats_ = 0, r_beats_ = 0;
    uint64_t m_w_beats_ = 0, m_r_beats_ = 0, dummy_beats_ = 0, held_beats_ = 0, dropped_r_ = 0, dropped_b_ = 0;
    double drain_ratio_ = 0;
    uint64_t drain_max_fast_ = 0;
    uint64_t drain_max_ = 0, pages_checked_ = 0, expected_dummies_ = 0;
    unsigned cover_[T_N] = {};
    unsigned cover_rd_out_ = 0, cover_wr_out_ = 0, cover_aw_blocked_ = 0, garbage_eps_ = 0;
};

void Bench::cycle() {
    // master outputs first (they never depend on this cycle's READYs)
    SIn s = drain_ ? (garbage_ ? garbage() : SIn{}) : master_drive();
    apply(s);
    top_->drain = drain_;

    // slave outputs
    mem_->drive(pins_);
    auto &t = *top_;
    t.m_axi_arready = pins_.arready;
    t.m_axi_awready = pins_.awready;
    t.m_axi_wready = pins_.wready;
    t.m_axi_rvalid = pins_.rvalid;
    t.m_axi_bvalid = pins_.bvalid;
    if (pins_.rvalid) {
        set_bytes(t.m_axi_rdata, pins_.rdata.data());
        t.m_axi_rid = pins_.rid;
        t.m_axi_rresp = pins_.rresp;
        t.m_axi_rlast = pins_.rlast;
    } else {            // junk while RVALID is low
        Data j;
        for (unsigned i = 0; i < W; i++) j[i] = uint8_t(rng_());
        set_bytes(t.m_axi_rdata, j.data());
        t.m_axi_rid = pick(NID);
        t.m_axi_rresp = pick(4);
        t.m_axi_rlast = rng_() & 1;
    }
    if (pins_.bvalid) {
        t.m_axi_bid = pins_.bid;
        t.m_axi_bresp = pins_.bresp;
    } else {
        t.m_axi_bid = pick(NID);
        t.m_axi_bresp = pick(4);
    }
    t.eval();
    DOut d = read_out();

    if (drain_) {
        // the masters' side is ignored: other garbage, the same outputs
        SIn s2 = garbage();
        apply(s2);
        t.eval();
        DOut d2 = read_out();
        if (!(d2 == d)) fail("in the drain the outputs depend on s_axi_* inputs");
        if (d.s_arready || d.s_awready || d.s_wready) fail("an s_axi READY is high in the drain");
        if (d.s_rvalid || d.s_bvalid) fail("s_axi RVALID or BVALID is high in the drain");
        if (!d.m_rready || !d.m_bready) fail("RREADY/BREADY not high in the drain");
        s = s2;
    } else {
        // pass-through
        if (d.m_ar.valid != s.ar.valid || (s.ar.valid && !d.m_ar.same_payload(s.ar)))
            fail("AR not passed through");
        if (d.m_aw.valid && !(s.aw.valid && d.m_aw.same_payload(s.aw))) fail("AW on m_axi is not the master's");
        if (d.m_w.valid && !(s.w.valid && d.m_w.same_payload(s.w))) fail("W beat on m_axi is not the master's");
        if (s.ar.valid && d.s_arready != (d.m_ar.valid && pins_.arready)) fail("AR handshakes differ");
        if (s.aw.valid && d.s_awready != (d.m_aw.valid && pins_.awready)) fail("AW handshakes differ");
        if (s.w.valid && d.s_wready != (d.m_w.valid && pins_.wready)) fail("W handshakes differ");
        if (s.aw.valid && !d.m_aw.valid && m_owed_.size() < BURSTS) fail("AW held back with %zu bursts owed W beats",
                                                                        m_owed_.size());
        if (d.s_rvalid != pins_.rvalid || d.m_rready != s.rready || d.s_bvalid != pins_.bvalid ||
            d.m_bready != s.bready)
            fail("R/B handshake signals not passed through");
        if (pins_.rvalid && (d.s_rid != pins_.rid || d.s_rresp != pins_.rresp || d.s_rlast != pins_.rlast ||
                             !std::equal(pins_.rdata.begin(), pins_.rdata.begin() + W, d.s_rdata.begin())))
            fail("R beat not passed through");
        if (pins_.bvalid && (d.s_bid != pins_.bid || d.s_bresp != pins_.bresp)) fail("B not passed through");
    }

    // m_axi side: W beats belong to bursts whose AW has been shown
    bool aw_new = d.m_aw.valid && !(prev_.m_aw.valid && !pins_prev_awready_);
    if (aw_new) {
        m_owed_.push_back(d.m_aw.len + 1);
        if (m_owed_.size() > BURSTS) fail("%zu bursts owed W beats, BURSTS is %u", m_owed_.size(), BURSTS);
    }
    if (d.m_w.valid && m_owed_.empty()) fail("W beat shown on m_axi before the AW of its burst");
    if (drain_ && d.m_w.valid && !held_beat_pending_ && (d.m_w.strb != 0))
        fail("drain: a W beat with WSTRB %#llx (only WSTRB = 0 beats after the held one)",
             (unsigned long long)d.m_w.strb);
    if (drain_ && d.m_w.valid && held_beat_pending_ && !(d.m_w == held_beat_))
        fail("drain: the held W beat is not re-shown unchanged");
    if (d.m_w.valid && pins_.wready) {
        m_w_beats_++;
        if (!m_owed_.empty()) {
            if (d.m_w.last != (m_owed_.front() == 1))
                fail("m_axi W beat with WLAST=%d and %u beats left in its burst", int(d.m_w.last), m_owed_.front());
            if (--m_owed_.front() == 0) m_owed_.pop_front();
        }
        if (drain_) {
            if (held_beat_pending_) held_beat_pending_ = false, held_beats_++;
            else dummy_beats_++;
        }
    }
    if (d.m_ar.valid && pins_.arready) { /* counted by AxiMem */ }
    if (pins_.rvalid && d.m_rready) {
        m_r_beats_++;
        if (drain_) dropped_r_++;
    }
    if (pins_.bvalid && d.m_bready && drain_) dropped_b_++;

    // the memory sees the m_axi side
    pins_.arvalid = d.m_ar.valid;
    pins_.araddr = d.m_ar.addr;
    pins_.arlen = uint8_t(d.m_ar.len);
    pins_.arsize = uint8_t(d.m_ar.size);
    pins_.arburst = uint8_t(d.m_ar.burst);
    pins_.arid = d.m_ar.id;
    pins_.rready = d.m_rready;
    pins_.awvalid = d.m_aw.valid;
    pins_.awaddr = d.m_aw.addr;
    pins_.awlen = uint8_t(d.m_aw.len);
    pins_.awsize = uint8_t(d.m_aw.size);
    pins_.awburst = uint8_t(d.m_aw.burst);
    pins_.awid = d.m_aw.id;
    pins_.wvalid = d.m_w.valid;
    pins_.wdata = d.m_w.data;
    pins_.wstrb = d.m_w.strb;
    pins_.wlast = d.m_w.last;
    pins_.bready = d.m_bready;
    mem_->clock(pins_);
    pins_prev_awready_ = pins_.awready;
    pins_prev_arready_ = pins_.arready;
    pins_prev_wready_ = pins_.wready;

    s_hs_ = false;
    if (!drain_) master_observe(s, d);
#ifdef NEG_WITHDRAW_AW
    aw_prev_shown_ = s.aw.valid && !d.s_awready;
#endif
    cur_in_ = s;
    prev_ = d;

    t.clk = 1;
    t.eval();
    t.clk = 0;
    cyc_++;

    // busy, outside the drain: exactly while the master has something outstanding
    // (not in the negative controls that leave the port busy without a drain:
    // there the other checks must find the fault)
#if !defined(NEG_EARLY_RELEASE) && !defined(NEG_RESET_NO_DRAIN)
    if (!drain_) {
        bool exp = master_pending();
        if (bool(t.busy) != exp)
            fail("busy = %d, the master %s", int(t.busy), exp ? "has transactions outstanding" : "has nothing outstanding");
    }
#endif
}

int Bench::run(unsigned episodes) {
    reset_dut();
    if (top_->busy) fail("busy after reset");

    // ---- throughput: no back-pressure, no drain, long bursts ----
    new_profile(T_TIME);
    prof_ = Profile{100, 100, 100, 100, 100, 16, 24, BURSTS, 100, 100, 100, 100, 100, 8, 8, "throughput"};
    apply_mem_profile();
    long_bursts_ = true;
    uint64_t w0 = m_w_beats_, r0 = m_r_beats_, c0 = cyc_;
    for (int i = 0; i < 3000; i++) cycle();
    long_bursts_ = false;
    double thr_w = double(m_w_beats_ - w0) / double(cyc_ - c0);
    double thr_r = double(m_r_beats_ - r0) / double(cyc_ - c0);
    if (thr_w < 0.85) fail("W throughput %.3f beats/cycle without back-pressure", thr_w);
    if (thr_r < 0.85) fail("R throughput %.3f beats/cycle without back-pressure", thr_r);

    for (episode_ = 1; episode_ <= episodes && failures_ <= MAX_FAILS; episode_++) {
        Trigger trig = chance(40) ? T_TIME : Trigger(1 + pick(T_N - 1));
        new_profile(trig);
        if (chance(30)) region_ = pick(N_REGIONS);
        generate_ = true;

        // traffic, then the trigger condition (state of the last cycle before the drain)
        unsigned len = chance(20) ? pick(20) : chance(70) ? 20 + pick(600) : 600 + pick(3000);
        uint64_t last_hs = cyc_;
        for (unsigned i = 0; i < len; i++) {
            cycle();
            if (s_hs_ || !master_pending()) last_hs = cyc_;
            if (cyc_ - last_hs > HANG_CYCLES) {
                fail("hang: the master has work and no s_axi handshake for %llu cycles",
                     (unsigned long long)HANG_CYCLES);
                break;
            }
        }
        auto holds = [&](Trigger tg) {
            switch (tg) {
            case T_AW_HELD: return prev_.m_aw.valid && !pins_prev_awready_;
            case T_AR_HELD: return prev_.m_ar.valid && !pins_prev_arready_;
            case T_W_HELD: return prev_.m_w.valid && !pins_prev_wready_;
            case T_MIDBURST: return !w_q_.empty() && w_q_.front()->w_done > 0;
            case T_FULL: return m_owed_.size() == BURSTS;
            case T_IDLE: return !master_pending() && m_owed_.empty();
            default: return true;
            }
        };
        if (trig == T_IDLE) generate_ = chance(50);   // half the time: let it finish
        for (unsigned i = 0; i < 4000 && !holds(trig); i++) cycle();
        for (int k = 1; k < T_N; k++)
            if (holds(Trigger(k))) cover_[k]++;
        cover_[T_TIME]++;
        if (n_rd_ > (ar_cur_ ? 1u : 0u)) cover_rd_out_++;
        if (n_wr_ > (aw_cur_ ? 1u : 0u)) cover_wr_out_++;
        if (cur_in_.aw.valid && !prev_.m_aw.valid) cover_aw_blocked_++;

        // ---- the masters are reset: drain ----
        // the W beat shown on m_axi and not taken is shown again (AXI): it writes
        held_beat_pending_ = prev_.m_w.valid && !pins_prev_wready_;
        uint64_t owed = 0;
        for (unsigned b : m_owed_) owed += b;
        expected_dummies_ += owed - (held_beat_pending_ ? 1 : 0);
        if (held_beat_pending_ && !w_q_.empty()) {
            held_beat_ = prev_.m_w;
            const WrBurst &b = *w_q_.front();
            shadow_write(b.addr + uint64_t(b.w_done) * W, b.data[b.w_done], b.strb[b.w_done]);
        }
        // busy must fall within a bound made of the work left and the memory's speed
        uint64_t rd_left = 0, b_left = 0;
        for (auto &q : rd_wait_)
            for (auto &b : q) rd_left += b->len + 1 - b->r_done;
        if (ar_cur_ && prev_.m_ar.valid) rd_left += ar_cur_->len + 1;
        for (auto &q : b_wait_) b_left += q.size();
        if (aw_cur_ && prev_.m_aw.valid) b_left++;
        [[maybe_unused]] const uint64_t bound = 500 + 2 * (prof_.r_lat + prof_.b_lat) +
                               3 * (rd_left * 100 / prof_.mem_r + owed * 100 / prof_.mem_w +
                                    b_left * 100 / prof_.mem_b + 200 / prof_.mem_ar + 200 / prof_.mem_aw);
        master_reset();
        garbage_ = chance(50);
        if (garbage_) garbage_eps_++;
        [[maybe_unused]] uint64_t d0 = cyc_;
        dbg_aw_ = prev_.m_aw.valid && !pins_prev_awready_;
        dbg_ar_ = prev_.m_ar.valid && !pins_prev_arready_;
        dbg_w_ = prev_.m_w.valid && !pins_prev_wready_;
#ifdef NEG_RESET_NO_DRAIN
        // the masters are reset without the drain: they simply stop
        generate_ = false;
        for (uint64_t i = 0; i < DRAIN_BOUND && top_->busy; i++) cycle();
        if (top_->busy) fail("busy still high %llu cycles after the masters' reset (no drain)",
                             (unsigned long long)DRAIN_BOUND);
        generate_ = true;
#else
        drain_ = true;
#ifdef NEG_EARLY_RELEASE
        // release after a few cycles, busy or not
        unsigned early = 1 + pick(4);
        for (unsigned i = 0; i < early && top_->busy; i++) cycle();
#else
        while (top_->busy && cyc_ - d0 < bound) cycle();
        if (top_->busy) {
            fail("busy still high %llu cycles after drain rose (%llu R beats, %llu W beats, %llu B owed)",
                 (unsigned long long)bound, (unsigned long long)rd_left, (unsigned long long)owed,
                 (unsigned long long)b_left);
            std::printf("  profile %s mem ar %u aw %u w %u r %u b %u lat %u/%u; m_owed %zu bursts (front %u); mem idle %d; "
                        "m_ar v%d m_aw v%d m_w v%d strb %#llx last %d; aw/ar/w held at rise: %d %d %d\n",
                        prof_.name, prof_.mem_ar, prof_.mem_aw, prof_.mem_w, prof_.mem_r, prof_.mem_b, prof_.r_lat,
                        prof_.b_lat, m_owed_.size(), m_owed_.empty() ? 0 : m_owed_.front(), int(mem_->idle()),
                        int(prev_.m_ar.valid), int(prev_.m_aw.valid), int(prev_.m_w.valid),
                        (unsigned long long)prev_.m_w.strb, int(prev_.m_w.last), dbg_aw_, dbg_ar_, dbg_w_);
            for (int i = 0; i < 200000 && top_->busy; i++) cycle();
            std::printf("  busy %s after %llu more cycles\n", top_->busy ? "still high" : "fell",
                        (unsigned long long)(cyc_ - d0));
            break;
        }
        drain_max_ = std::max(drain_max_, cyc_ - d0);
        drain_ratio_ = std::max(drain_ratio_, double(cyc_ - d0) / double(bound));
        if (prof_.mem_ar == 100 && prof_.mem_aw == 100 && prof_.mem_w == 100 && prof_.mem_r == 100 &&
            prof_.mem_b == 100)
            drain_max_fast_ = std::max(drain_max_fast_, cyc_ - d0);
        if (!mem_->idle()) fail("busy fell with the memory not idle (bursts or responses outstanding)");
        if (!m_owed_.empty()) fail("busy fell with %zu bursts owed W beats on m_axi", m_owed_.size());
        if (held_beat_pending_) fail("busy fell before the held W beat was sent");
        compare_memory(false);
        // a while more in the drain: the port stays idle
        unsigned extra = chance(30) ? 0 : pick(40);
        for (unsigned i = 0; i < extra; i++) {
            cycle();
            if (prev_.m_ar.valid || prev_.m_aw.valid || prev_.m_w.valid || top_->busy)
                fail("the port is not idle in the drain after busy fell");
        }
#endif
        drain_ = false;
        held_beat_pending_ = false;
#endif
    }
    unsigned done_eps = episode_ - 1;

    // ---- the end: let the last traffic finish, no drain ----
    generate_ = false;
    for (uint64_t i = 0; i < 50000 && (master_pending() || top_->busy); i++) cycle();
    if (master_pending() || top_->busy) fail("traffic did not finish at the end");
    for (int i = 0; i < 10; i++) cycle();
    if (!mem_->idle()) fail("memory not idle at the end");
    compare_memory(true);
    // AxiMem's protocol violations: always shown (the first few), whatever failed before
    const auto &viol = mem_->violations();
    for (size_t i = 0; i < viol.size() && i < 3; i++)
        std::printf("FAIL: seed %llu width %u: AxiMem: %s\n", (unsigned long long)seed_, DATA_WIDTH, viol[i].c_str());
    failures_ += int(viol.size());
    if (dummy_beats_ != expected_dummies_)
        fail("%llu dummy beats sent, the bursts owed at the drains needed %llu", (unsigned long long)dummy_beats_,
             (unsigned long long)expected_dummies_);
#if !defined(NEG_EARLY_RELEASE) && !defined(NEG_RESET_NO_DRAIN)
    if (done_eps >= 50) {
        for (int k = 1; k < T_N; k++)
            if (cover_[k] == 0) fail("coverage: no drain began with '%s'", trig_name[k]);
        if (!cover_rd_out_ || !cover_wr_out_ || !cover_aw_blocked_ || !dummy_beats_ || !held_beats_ || !dropped_r_ ||
            !dropped_b_)
            fail("coverage: rd_out %u wr_out %u aw_blocked %u dummies %llu held %llu dropped R %llu B %llu",
                 cover_rd_out_, cover_wr_out_, cover_aw_blocked_, (unsigned long long)dummy_beats_,
                 (unsigned long long)held_beats_, (unsigned long long)dropped_r_, (unsigned long long)dropped_b_);
    }
#endif

    std::printf("seed %llu width %u bursts %u: %u episodes (%u garbage), %llu cycles, bursts w %llu r %llu, "
                "beats w %llu r %llu, dummy beats %llu, held %llu, dropped r %llu b %llu, drain max %llu cycles (%.0f%% of bound; %llu with a fast memory), "
                "at drain aw_held %u ar_held %u w_held %u midburst %u full %u idle %u, thr w %.2f r %.2f, %zu AxiMem violations, %d failures: %s\n",
                (unsigned long long)seed_, DATA_WIDTH, BURSTS, done_eps, garbage_eps_, (unsigned long long)cyc_,
                (unsigned long long)wr_bursts_, (unsigned long long)rd_bursts_, (unsigned long long)w_beats_,
                (unsigned long long)r_beats_, (unsigned long long)dummy_beats_, (unsigned long long)held_beats_,
                (unsigned long long)dropped_r_, (unsigned long long)dropped_b_, (unsigned long long)drain_max_, 100 * drain_ratio_, (unsigned long long)drain_max_fast_,
                cover_[T_AW_HELD], cover_[T_AR_HELD], cover_[T_W_HELD], cover_[T_MIDBURST], cover_[T_FULL],
                cover_[T_IDLE], thr_w, thr_r, viol.size(), failures_, failures_ ? "FAIL" : "ok");
    return failures_ ? 1 : 0;
}

}  // namespace

int main(int argc, char **argv) {
    uint64_t seed = 1;
    unsigned episodes = 60;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--seed" && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 0);
        else if (a == "--episodes" && i + 1 < argc) episodes = unsigned(std::strtoul(argv[++i], nullptr, 0));
        else {
            std::fprintf(stderr, "usage: %s [--seed N] [--episodes N]\n", argv[0]);
            return 2;
        }
    }
    Bench b(seed);
    return b.run(episodes);
}
