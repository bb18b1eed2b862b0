// SPDX-License-Identifier: MIT
// AXI4 slave host-memory model for Verilator benches (header-only, C++17).
//
// The model knows nothing about Verilator: the bench copies the master's
// signals into an AxiMemPins, and the slave's signals out of it, once per
// clock cycle:
//
//     mem.drive(pins);        // 1. slave outputs for this cycle (READY/VALID/data)
//     ...copy pins -> DUT inputs, dut->eval(), copy DUT outputs -> pins...
//     mem.clock(pins);        // 2. sample the handshakes of this cycle, advance
//     ...raise and lower the DUT clock...
//
// Features:
//   * memory: sparse (4 KiB pages made on first touch) or flat (one vector),
//     optionally bounded to [base, base + size); bytes never written read as
//     pattern(addr), a fixed hash of the address, so reads of untouched memory
//     have known contents;
//   * random back-pressure: each cycle ARREADY/AWREADY/WREADY are high with a
//     configurable probability, and a pending R beat or B response is shown
//     with a configurable probability (VALID, once shown, stays up until the
//     handshake, as AXI requires);
//   * latency: uniform random cycles between AR and the first R beat, and
//     between the last W beat and B;
//   * error injection: address ranges that answer SLVERR or DECERR; accesses
//     outside the bounds answer DECERR. A beat's response is the worst over
//     every range its bus-width-aligned bytes touch. Beats that fail are not
//     written; failing read beats return zero data;
//   * byte-strobe writes; W beats may arrive before their AW;
//   * protocol checks (recorded in violations(), never fatal): INCR only,
//     AxSIZE equal to the bus width, no 4 KiB crossing, WLAST/RLAST on the
//     burst's last beat only, no W beat without a burst to put it in at the
//     end of the run (see idle()), and the master's side of every handshake:
//     an AR, AW or W shown and not taken is shown again, unchanged, in the
//     next cycle (a device reset must not withdraw one, froce_axi_quiesce).
//   * one in-order queue per direction: responses come back in request
//     order whatever the IDs (legal AXI; IDs are echoed).
//   * optional external backing (set_backing): a translate callback gives the
//     host bytes of [addr, addr + n) or nullptr; then every access goes
//     there (base/size/sparse/pattern are not used) and an address the
//     callback refuses answers DECERR (counted in err_beats, the address of
//     the latest in last_err_addr). For memory owned by someone else (a
//     User-Mode Linux guest's RAM).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace froce_sim {

enum AxiResp : uint8_t { AXI_OKAY = 0, AXI_EXOKAY = 1, AXI_SLVERR = 2, AXI_DECERR = 3 };

// Worst of two responses: DECERR > SLVERR > OKAY/EXOKAY.
inline uint8_t axi_resp_worst(uint8_t a, uint8_t b) {
    auto rank = [](uint8_t r) { return r == AXI_DECERR ? 2 : r == AXI_SLVERR ? 1 : 0; };
    return rank(a) >= rank(b) ? a : b;
}

struct AxiMemConfig {
    unsigned data_bytes = 8;        // bus width in bytes: 1..64, a power of two
    uint64_t base = 0;              // lowest valid address
    uint64_t size = 0;              // bytes from base; 0 = up to 2^64 (sparse only)
    bool sparse = true;             // sparse pages, or one flat vector of size bytes
    uint64_t seed = 1;              // random back-pressure and latency
    unsigned ar_ready_pct = 100;    // % of cycles ARREADY is high (when there is room)
    unsigned aw_ready_pct = 100;    // % of cycles AWREADY is high (when there is room)
    unsigned w_ready_pct = 100;     // % of cycles WREADY is high
    unsigned r_valid_pct = 100;     // % of cycles a due R beat is shown
    unsigned b_valid_pct = 100;     // % of cycles a due B response is shown
    unsigned r_lat_min = 1;         // cycles from the AR handshake to the first R beat
    unsigned r_lat_max = 1;
    unsigned b_lat_min = 1;         // cycles from the last W beat to the B response
    unsigned b_lat_max = 1;
    unsigned max_rd_bursts = 32;    // ARs accepted and not fully answered, at most
    unsigned max_wr_bursts = 32;    // AWs accepted and not answered by B, at most
};

// One clock cycle's view of the AXI4 signals. Data is little-endian bytes:
// byte i of the bus is rdata[i] / wdata[i]; bit i of wstrb is byte i.
struct AxiMemPins {
    // master -> slave
    bool arvalid = false;
    uint64_t araddr = 0;
    uint8_t arlen = 0, arsize = 0, arburst = 1;
    uint32_t arid = 0;
    bool rready = false;
    bool awvalid = false;
    uint64_t awaddr = 0;
    uint8_t awlen = 0, awsize = 0, awburst = 1;
    uint32_t awid = 0;
    bool wvalid = false;
    std::array<uint8_t, 64> wdata{};
    uint64_t wstrb = 0;
    bool wlast = false;
    bool bready = false;
    // slave -> master
    bool arready = false;
    bool rvalid = false;
    std::array<uint8_t, 64> rdata{};
    uint8_t rresp = 0;
    bool rlast = false;
    uint32_t rid = 0;
    bool awready = false;
    bool wready = false;
    bool bvalid = false;
    uint8_t bresp = 0;
    uint32_t bid = 0;
};

struct AxiMemStats {
    uint64_t cycles = 0;
    uint64_t ar_bursts = 0, aw_bursts = 0;
    uint64_t r_beats = 0, w_beats = 0, b_resps = 0;
    uint64_t err_beats = 0;          // beats answered SLVERR or DECERR
    uint64_t last_err_addr = 0;      // bus-aligned address of the latest such beat
};

// External backing: host bytes of [addr, addr + n), or nullptr (DECERR).
using AxiMemTranslate = std::function<uint8_t *(uint64_t addr, uint64_t n)>;

class AxiMem {
public:
    explicit AxiMem(const AxiMemConfig &cfg) : cfg_(cfg), rng_(cfg.seed) {
        if (cfg_.data_bytes == 0 || cfg_.data_bytes > 64 || (cfg_.data_bytes & (cfg_.data_bytes - 1)))
            fail_config("data_bytes must be a power of two, 1..64");
        if (!cfg_.sparse) {
            if (cfg_.size == 0 || cfg_.size > (uint64_t(1) << 32))
                fail_config("a flat memory needs 0 < size <= 4 GiB");
            flat_.resize(cfg_.size);
            for (uint64_t i = 0; i < cfg_.size; i++) flat_[i] = pattern(cfg_.base + i);
        }
        size_log2_ = 0;
        while ((1u << size_log2_) < cfg_.data_bytes) size_log2_++;
    }

    const AxiMemConfig &config() const { return cfg_; }
    AxiMemConfig &config() { return cfg_; }   // back-pressure/latency may change between cycles

    // ---- contents (backdoor, no bus traffic) --------------------------------

    // What a never-written byte holds.
    static uint8_t pattern(uint64_t a) {
        uint64_t x = a * 0x9E3779B97F4A7C15ull;
        x ^= x >> 29;
        x *= 0xBF58476D1CE4E5B9ull;
        return uint8_t(x >> 56);
    }

    // Every access goes through t from now on (an empty t: back to the
    // model's own memory).
    void set_backing(AxiMemTranslate t) { backing_ = std::move(t); }
    bool has_backing() const { return bool(backing_); }

    bool in_bounds(uint64_t a) const {
        if (backing_) return backing_(a, 1) != nullptr;
        return cfg_.size == 0 ? a >= cfg_.base : (a >= cfg_.base && a - cfg_.base < cfg_.size);
    }

    uint8_t peek(uint64_t a) const {
        if (backing_) {
            const uint8_t *p = backing_(a, 1);
            return p ? *p : 0;
        }
        if (!in_bounds(a)) return 0;
        if (!cfg_.sparse) return flat_[a - cfg_.base];
        auto it = pages_.find(a >> 12);
        return it == pages_.end() ? pattern(a) : (*it->second)[a & 0xfff];
    }

    void poke(uint64_t a, uint8_t v) {
        if (backing_) {
            if (uint8_t *p = backing_(a, 1)) *p = v;
            return;
        }
        if (!in_bounds(a)) return;
        if (!cfg_.sparse) {
            flat_[a - cfg_.base] = v;
            return;
        }
        (*page(a >> 12))[a & 0xfff] = v;
    }

    // Sparse memory: the 4 KiB page numbers (address >> 12) ever written, sorted.
    // Reads never create pages, so this is where writes landed.
    std::vector<uint64_t> written_pages() const {
        std::vector<uint64_t> v;
        for (const auto &kv : pages_) v.push_back(kv.first);
        std::sort(v.begin(), v.end());
        return v;
    }

    void read(uint64_t a, uint8_t *buf, size_t n) const {
        for (size_t i = 0; i < n; i++) buf[i] = peek(a + i);
    }
    void write(uint64_t a, const uint8_t *buf, size_t n) {
        for (size_t i = 0; i < n; i++) poke(a + i, buf[i]);
    }

    // ---- error injection ---------------------------------------------------

    // Beats touching [lo, hi) answer resp (AXI_SLVERR or AXI_DECERR).
    void add_error_range(uint64_t lo, uint64_t hi, uint8_t resp) { errors_.push_back({lo, hi, resp}); }
    void clear_error_ranges() { errors_.clear(); }

    // Response for a bus beat covering [a, a + n): worst of the error ranges
    // it touches; DECERR if any byte is out of bounds.
    uint8_t resp_for(uint64_t a, uint64_t n) const {
        uint8_t r = AXI_OKAY;
        if (backing_) {
            if (!backing_(a, n)) r = AXI_DECERR;
        } else if (!in_bounds(a) || !in_bounds(a + n - 1)) {
            r = AXI_DECERR;
        }
        for (const auto &e : errors_)
            if (a < e.hi && e.lo < a + n) r = axi_resp_worst(r, e.resp);
        return r;
    }

    // Response a bus beat containing address a gets (the beat is aligned to the bus width).
    uint8_t beat_resp(uint64_t a) const {
        uint64_t al = a & ~uint64_t(cfg_.data_bytes - 1);
        return resp_for(al, cfg_.data_bytes);
    }

    // ---- cycle interface ---------------------------------------------------

    // Sets the slave outputs in p for this cycle. Call once per cycle, before clock().
    void drive(AxiMemPins &p) {
        p.arready = rd_.size() < cfg_.max_rd_bursts && chance(cfg_.ar_ready_pct);
        p.awready = aw_count_ < cfg_.max_wr_bursts && chance(cfg_.aw_ready_pct);
        p.wready = chance(cfg_.w_ready_pct);

        if (!r_shown_ && !rd_.empty() && rd_.front().due <= now_ && chance(cfg_.r_valid_pct)) r_shown_ = true;
        p.rvalid = r_shown_;
        if (r_shown_) {
            const Burst &b = rd_.front();
            uint64_t a = beat_addr(b);
            uint8_t resp = resp_for(a, cfg_.data_bytes);
            if (backing_ && resp == AXI_OKAY) {
                std::memcpy(p.rdata.data(), backing_(a, cfg_.data_bytes), cfg_.data_bytes);
            } else {
                for (unsigned i = 0; i < cfg_.data_bytes; i++) p.rdata[i] = resp == AXI_OKAY ? peek(a + i) : 0;
            }
            p.rresp = resp;
            p.rlast = b.beat == b.len;
            p.rid = b.id;
        }

        if (!b_shown_ && !bq_.empty() && bq_.front().due <= now_ && chance(cfg_.b_valid_pct)) b_shown_ = true;
        p.bvalid = b_shown_;
        if (b_shown_) {
            p.bresp = bq_.front().resp;
            p.bid = bq_.front().id;
        }
    }

    // Samples this cycle's handshakes (master signals as the DUT drives them
    // after its eval, slave signals as drive() set them) and advances a cycle.
    void clock(const AxiMemPins &p) {
        check_stable(p);
        if (p.arvalid && p.arready) {
            Burst b = accept(p.araddr, p.arlen, p.arsize, p.arburst, p.arid, "AR");
            b.due = now_ + latency(cfg_.r_lat_min, cfg_.r_lat_max);
            // responses stay in order: never due before the burst ahead
            if (!rd_.empty()) b.due = std::max(b.due, rd_.back().due);
            rd_.push_back(b);
            stats_.ar_bursts++;
        }
        if (p.rvalid && p.rready) {
            Burst &b = rd_.front();
            stats_.r_beats++;
            if (p.rresp != AXI_OKAY) {
                stats_.err_beats++;
                stats_.last_err_addr = beat_addr(b);
            }
            r_shown_ = false;
            if (b.beat == b.len) rd_.pop_front();
            else b.beat++;
        }
        if (p.awvalid && p.awready) {
            aw_.push_back(accept(p.awaddr, p.awlen, p.awsize, p.awburst, p.awid, "AW"));
            aw_count_++;
            stats_.aw_bursts++;
        }
        if (p.wvalid && p.wready) {
            WBeat w;
            std::copy(p.wdata.begin(), p.wdata.begin() + cfg_.data_bytes, w.data.begin());
            w.strb = p.wstrb;
            w.last = p.wlast;
            wq_.push_back(w);
            stats_.w_beats++;
        }
        apply_writes();
        if (p.bvalid && p.bready) {
            bq_.pop_front();
            b_shown_ = false;
            aw_count_--;
            stats_.b_resps++;
        }
        now_++;
        stats_.cycles++;
    }

    // No burst in flight and no stray W beat.
    bool idle() const { return rd_.empty() && aw_.empty() && wq_.empty() && bq_.empty(); }

    const std::vector<std::string> &violations() const { return violations_; }
    const AxiMemStats &stats() const { return stats_; }
    uint64_t cycle() const { return now_; }

private:
    struct Burst {
        uint64_t addr = 0;          // as given on AxADDR
        unsigned len = 0;           // AxLEN (beats - 1)
        unsigned beat = 0;          // next beat
        uint32_t id = 0;
        uint64_t due = 0;           // first cycle a response may be shown
        uint8_t resp = AXI_OKAY;    // writes: worst response so far
    };
    struct WBeat {
        std::array<uint8_t, 64> data{};
        uint64_t strb = 0;
        bool last = false;
    };
    struct ErrRange {
        uint64_t lo, hi;
        uint8_t resp;
    };
    struct BResp {
        uint32_t id;
        uint8_t resp;
        uint64_t due;
    };

    [[noreturn]] static void fail_config(const char *msg) {
        std::fprintf(stderr, "AxiMem: bad configuration: %s\n", msg);
        std::abort();
    }

    bool chance(unsigned pct) { return pct >= 100 || std::uniform_int_distribution<unsigned>(0, 99)(rng_) < pct; }
    unsigned latency(unsigned lo, unsigned hi) {
        return hi <= lo ? lo : std::uniform_int_distribution<unsigned>(lo, hi)(rng_);
    }

    // AXI: once VALID is up, it and the payload stay until the handshake
    void check_stable(const AxiMemPins &p) {
        char buf[200];
        if (prev_.arvalid && !prev_.arready &&
            (!p.arvalid || p.araddr != prev_.araddr || p.arlen != prev_.arlen || p.arid != prev_.arid ||
             p.arsize != prev_.arsize || p.arburst != prev_.arburst)) {
            std::snprintf(buf, sizeof buf, "cycle %llu: AR addr=%#llx len=%u withdrawn or changed before ARREADY",
                          (unsigned long long)now_, (unsigned long long)prev_.araddr, unsigned(prev_.arlen));
            violation(buf);
        }
        if (prev_.awvalid && !prev_.awready &&
            (!p.awvalid || p.awaddr != prev_.awaddr || p.awlen != prev_.awlen || p.awid != prev_.awid ||
             p.awsize != prev_.awsize || p.awburst != prev_.awburst)) {
            std::snprintf(buf, sizeof buf, "cycle %llu: AW addr=%#llx len=%u withdrawn or changed before AWREADY",
                          (unsigned long long)now_, (unsigned long long)prev_.awaddr, unsigned(prev_.awlen));
            violation(buf);
        }
        if (prev_.wvalid && !prev_.wready &&
            (!p.wvalid || p.wstrb != prev_.wstrb || p.wlast != prev_.wlast ||
             !std::equal(p.wdata.begin(), p.wdata.begin() + cfg_.data_bytes, prev_.wdata.begin()))) {
            std::snprintf(buf, sizeof buf, "cycle %llu: W beat withdrawn or changed before WREADY",
                          (unsigned long long)now_);
            violation(buf);
        }
        prev_ = p;
    }

    void violation(const std::string &s) {
        if (violations_.size() < 100) violations_.push_back(s);
        else if (violations_.size() == 100) violations_.push_back("... more violations not recorded");
    }

    Burst accept(uint64_t addr, unsigned len, unsigned size, unsigned burst, uint32_t id, const char *ch) {
        char buf[160];
        if (burst != 1) {
            std::snprintf(buf, sizeof buf, "%s addr=%#llx: burst type %u, only INCR is modelled", ch,
                          (unsigned long long)addr, burst);
            violation(buf);
        }
        if (size != size_log2_) {
            std::snprintf(buf, sizeof buf, "%s addr=%#llx: AxSIZE %u, bus is %u", ch, (unsigned long long)addr,
                          size, size_log2_);
            violation(buf);
        }
        uint64_t start = addr & ~uint64_t(cfg_.data_bytes - 1);
        uint64_t last = start + uint64_t(len + 1) * cfg_.data_bytes - 1;
        if ((addr >> 12) != (last >> 12)) {
            std::snprintf(buf, sizeof buf, "%s addr=%#llx len=%u crosses a 4 KiB boundary", ch,
                          (unsigned long long)addr, len);
            violation(buf);
        }
        Burst b;
        b.addr = addr;
        b.len = len;
        b.id = id;
        return b;
    }

    uint64_t beat_addr(const Burst &b) const {
        return (b.addr & ~uint64_t(cfg_.data_bytes - 1)) + uint64_t(b.beat) * cfg_.data_bytes;
    }

    // Match buffered W beats to accepted AWs, in order.
    void apply_writes() {
        while (!aw_.empty() && !wq_.empty()) {
            Burst &b = aw_.front();
            WBeat &w = wq_.front();
            uint64_t a = beat_addr(b);
            uint8_t resp = resp_for(a, cfg_.data_bytes);
            if (resp == AXI_OKAY && backing_) {
                uint8_t *dst = backing_(a, cfg_.data_bytes);
                for (unsigned i = 0; i < cfg_.data_bytes; i++)
                    if ((w.strb >> i) & 1) dst[i] = w.data[i];
            } else if (resp == AXI_OKAY) {
                for (unsigned i = 0; i < cfg_.data_bytes; i++)
                    if ((w.strb >> i) & 1) poke(a + i, w.data[i]);
            } else {
                stats_.err_beats++;
                stats_.last_err_addr = a;
            }
            b.resp = axi_resp_worst(b.resp, resp);
            bool last = b.beat == b.len;
            if (w.last != last) {
                char buf[160];
                std::snprintf(buf, sizeof buf, "W beat %u of burst addr=%#llx len=%u: WLAST=%d", b.beat,
                              (unsigned long long)b.addr, b.len, int(w.last));
                violation(buf);
            }
            wq_.pop_front();
            if (last) {
                uint64_t due = now_ + latency(cfg_.b_lat_min, cfg_.b_lat_max);
                if (!bq_.empty()) due = std::max(due, bq_.back().due);
                bq_.push_back({b.id, b.resp, due});
                aw_.pop_front();
            } else {
                b.beat++;
            }
        }
    }

    using Page = std::array<uint8_t, 4096>;
    Page *page(uint64_t pn) {
        auto &slot = pages_[pn];
        if (!slot) {
            slot = std::make_unique<Page>();
            for (unsigned i = 0; i < 4096; i++) (*slot)[i] = pattern((pn << 12) + i);
        }
        return slot.get();
    }

    AxiMemConfig cfg_;
    std::mt19937_64 rng_;
    unsigned size_log2_ = 0;
    std::vector<uint8_t> flat_;
    std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_;
    std::vector<ErrRange> errors_;
    AxiMemTranslate backing_;
    std::deque<Burst> rd_;          // accepted ARs, front one being answered
    std::deque<Burst> aw_;          // accepted AWs waiting for W beats
    std::deque<WBeat> wq_;          // W beats not yet matched to an AW
    std::deque<BResp> bq_;          // B responses to send
    unsigned aw_count_ = 0;         // AWs accepted and not answered by B
    bool r_shown_ = false, b_shown_ = false;
    AxiMemPins prev_;               // last cycle's pins (VALID stability)
    uint64_t now_ = 0;
    AxiMemStats stats_;
    std::vector<std::string> violations_;
};

}  // namespace froce_sim
