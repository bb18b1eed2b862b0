// SPDX-License-Identifier: MIT
// Verilator bench for froce_dma_rd / froce_dma_wr against the AxiMem host-memory model.
//
// Phases (one model, both engines running at once):
//   1. random: --reads read and --writes write descriptors with random
//      unaligned addresses, lengths 0 (refused), 1..64, 1..9000 and
//      9000..65535, random back-pressure on every stream and channel, random
//      bus latency, SLVERR/DECERR ranges in both the read and the write region.
//      Every read byte is checked against the model, every beat's tkeep/tlast/
//      tid, every status (order, tag, code). Writes are mirrored into a shadow
//      of the write region, compared byte for byte at the end (so a byte
//      written outside a request, or a strobe too many, is caught).
//   2. throughput: no back-pressure, fixed bus latency; reads then writes of
//      4096-byte aligned and 1500-byte unaligned requests; beats per cycle.
// Any mismatch, protocol violation or hang prints FAIL and exits 1; success
// prints exactly one PASS line.
//
// Usage: tb_dma [--seed N] [--reads N] [--writes N] [--max-burst N] [--max-outstanding N] [--inject-error]
//   --max-burst, --max-outstanding  the DUT's MAX_BURST_BEATS and MAX_OUTSTANDING
//                   (defaults 256 and 8): every AR/AW and the bursts in flight
//                   per direction are checked against them
//   --inject-error  corrupts one byte of the model under a read (negative
//                   control: the bench must FAIL)

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

#include "Vtb_dma_top.h"
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
constexpr uint64_t REGION_A = 0x00007f0012340000ull;  // reads
constexpr uint64_t REGION_B = 0x0000000100000000ull;  // writes
constexpr uint64_t REGION_SIZE = 1u << 20;           // start addresses fall here; +64 KiB margin
constexpr uint64_t SHADOW_SIZE = REGION_SIZE + 65536 + 64;
constexpr uint64_t HANG_CYCLES = 200000;

// DMA status codes (rtl/dma/froce_dma_defs.vh)
enum : uint8_t { DMA_OK = 0, DMA_SLVERR = 1, DMA_DECERR = 2, DMA_BAD_LEN = 3 };

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

uint64_t keep_mask(unsigned n) { return n >= 64 ? ~0ull : ((1ull << n) - 1); }

// ---- requests --------------------------------------------------------------

struct Req {
    uint64_t addr = 0;
    uint32_t len = 0;
    uint8_t tag = 0;
    uint8_t exp_err = DMA_OK;
    uint32_t done = 0;              // bytes delivered / sent so far
    std::vector<uint8_t> data;      // writes: the bytes to write
};

class Bench {
public:
    Bench(uint64_t seed, bool inject)
        : rng_(seed), inject_(inject), mem_(mem_config(seed)), shadow_(SHADOW_SIZE) {
        ctx_ = std::make_unique<VerilatedContext>();
        top_ = std::make_unique<Vtb_dma_top>(ctx_.get(), "top");
        for (uint64_t i = 0; i < SHADOW_SIZE; i++) shadow_[i] = AxiMem::pattern(REGION_B + i);
        // error ranges: inside the read region and inside the write region
        mem_.add_error_range(REGION_A + 0x40000, REGION_A + 0x42000, froce_sim::AXI_SLVERR);
        mem_.add_error_range(REGION_A + 0x80100, REGION_A + 0x80900, froce_sim::AXI_DECERR);
        mem_.add_error_range(REGION_B + 0x60000, REGION_B + 0x61000, froce_sim::AXI_SLVERR);
        mem_.add_error_range(REGION_B + 0xA0010, REGION_B + 0xA0020, froce_sim::AXI_DECERR);
    }

    static AxiMemConfig mem_config(uint64_t seed) {
        AxiMemConfig c;
        c.data_bytes = W;
        c.sparse = true;
        c.seed = seed * 7 + 1;
        return c;
    }

    void set_random_flow(bool on) {
        AxiMemConfig &c = mem_.config();
        if (on) {
            c.ar_ready_pct = 60; c.aw_ready_pct = 60; c.w_ready_pct = 75;
            c.r_valid_pct = 75; c.b_valid_pct = 70;
            c.r_lat_min = 1; c.r_lat_max = 60; c.b_lat_min = 1; c.b_lat_max = 60;
            rd_ready_pct_ = 75; st_ready_pct_ = 60; desc_pct_ = 50; wdata_pct_ = 80;
        } else {
            c.ar_ready_pct = c.aw_ready_pct = c.w_ready_pct = c.r_valid_pct = c.b_valid_pct = 100;
            c.r_lat_min = c.r_lat_max = 20; c.b_lat_min = c.b_lat_max = 20;
            rd_ready_pct_ = st_ready_pct_ = desc_pct_ = wdata_pct_ = 100;
        }
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

    // ---- stimulus generation ----

    uint32_t rand_len() {
        unsigned k = pick(100);
        if (k < 2) return 0;
        if (k < 15) return 1 + pick(64);
        if (k < 90) return 1 + pick(9000);
        return 9000 + pick(65535 - 9000 + 1);
    }

    uint8_t expected_err(uint64_t addr, uint32_t len) const {
        if (len == 0) return DMA_BAD_LEN;
        uint8_t worst = froce_sim::AXI_OKAY;
        uint64_t a = addr & ~uint64_t(W - 1);
        for (; a < addr + len; a += W) worst = froce_sim::axi_resp_worst(worst, mem_.resp_for(a, W));
        return worst == froce_sim::AXI_DECERR ? DMA_DECERR : worst == froce_sim::AXI_SLVERR ? DMA_SLVERR : DMA_OK;
    }

    void add_read(uint64_t addr, uint32_t len) {
        Req r;
        r.addr = addr;
        r.len = len;
        r.tag = uint8_t(rd_tag_++);
        r.exp_err = expected_err(addr, len);
        rd_todo_.push_back(r);
        rd_total_++;
        rd_bytes_ += len;
        if (r.exp_err == DMA_SLVERR || r.exp_err == DMA_DECERR) rd_err_reqs_++;
    }

    void add_write(uint64_t addr, uint32_t len) {
        Req r;
        r.addr = addr;
        r.len = len;
        r.tag = uint8_t(wr_tag_++);
        r.exp_err = expected_err(addr, len);
        r.data.resize(len);
        for (auto &b : r.data) b = uint8_t(rng_());
        // the model applies writes in descriptor order; so does the shadow
        for (uint32_t i = 0; i < len; i++)
            if (mem_.beat_resp(addr + i) == froce_sim::AXI_OKAY) shadow_[addr + i - REGION_B] = r.data[i];
        if (len) wr_stream_.push_back(r);
        wr_todo_.push_back(std::move(r));
        wr_total_++;
        wr_bytes_ += len;
        if (wr_todo_.back().exp_err == DMA_SLVERR || wr_todo_.back().exp_err == DMA_DECERR) wr_err_reqs_++;
    }

    void add_random(unsigned reads, unsigned writes) {
        for (unsigned i = 0; i < reads; i++) add_read(REGION_A + pick(REGION_SIZE), rand_len());
        for (unsigned i = 0; i < writes; i++) add_write(REGION_B + pick(REGION_SIZE), rand_len());
    }

    // ---- the cycle loop ----

    // Runs until every queued request has its status; false on a hang.
    bool run() {
        uint64_t idle = 0;
        while (!rd_todo_.empty() || !rd_data_.empty() || !rd_stat_.empty() || !wr_todo_.empty() ||
               !wr_stream_.empty() || !wr_stat_.empty()) {
            if (cycle() ) idle = 0;
            else if (++idle > HANG_CYCLES) {
                fail("hang: no handshake for %llu cycles (rd todo %zu data %zu stat %zu; wr todo %zu "
                     "stream %zu stat %zu)",
                     (unsigned long long)HANG_CYCLES, rd_todo_.size(), rd_data_.size(), rd_stat_.size(),
                     wr_todo_.size(), wr_stream_.size(), wr_stat_.size());
                return false;
            }
        }
        for (int i = 0; i < 200 && !mem_.idle(); i++) cycle();
        if (!mem_.idle()) fail("memory model not idle after the last status (stray bursts or W beats)");
        return true;
    }

    // One clock cycle. Returns true if any handshake happened.
    bool cycle() {
        bool any = false;
        mem_.drive(pins_);

        // -- drive DUT inputs --
        top_->m_axi_arready = pins_.arready;
        top_->m_axi_rvalid = pins_.rvalid;
        set_bytes(top_->m_axi_rdata, pins_.rdata.data());
        top_->m_axi_rresp = pins_.rresp;
        top_->m_axi_rlast = pins_.rlast;
        top_->m_axi_rid = pins_.rid & 0xf;
        top_->m_axi_awready = pins_.awready;
        top_->m_axi_wready = pins_.wready;
        top_->m_axi_bvalid = pins_.bvalid;
        top_->m_axi_bresp = pins_.bresp;
        top_->m_axi_bid = pins_.bid & 0xf;

        if (!rd_desc_shown_ && !rd_todo_.empty() && chance(desc_pct_)) rd_desc_shown_ = true;
        top_->s_rd_desc_valid = rd_desc_shown_;
        if (rd_desc_shown_) {
            top_->s_rd_desc_addr = rd_todo_.front().addr;
            top_->s_rd_desc_len = uint16_t(rd_todo_.front().len);
            top_->s_rd_desc_tag = rd_todo_.front().tag;
        }
        if (!wr_desc_shown_ && !wr_todo_.empty() && chance(desc_pct_)) wr_desc_shown_ = true;
        top_->s_wr_desc_valid = wr_desc_shown_;
        if (wr_desc_shown_) {
            top_->s_wr_desc_addr = wr_todo_.front().addr;
            top_->s_wr_desc_len = uint16_t(wr_todo_.front().len);
            top_->s_wr_desc_tag = wr_todo_.front().tag;
        }
        // write data may run ahead of its descriptor
        if (!wdata_shown_ && !wr_stream_.empty() && chance(wdata_pct_)) wdata_shown_ = true;
        top_->s_wr_axis_tvalid = wdata_shown_;
        if (wdata_shown_) {
            const Req &r = wr_stream_.front();
            uint8_t beat[64] = {0};
            unsigned n = std::min<uint32_t>(W, r.len - r.done);
            for (unsigned i = 0; i < n; i++) beat[i] = r.data[r.done + i];
            for (unsigned i = n; i < W; i++) beat[i] = uint8_t(0xA5 ^ i);   // junk past the end
            set_bytes(top_->s_wr_axis_tdata, beat);
            top_->s_wr_axis_tkeep = std::remove_reference_t<decltype(top_->s_wr_axis_tkeep)>(keep_mask(n));
            top_->s_wr_axis_tlast = r.done + n == r.len;
        }
        top_->m_rd_axis_tready = chance(rd_ready_pct_);
        top_->m_rd_status_ready = chance(st_ready_pct_);
        top_->m_wr_status_ready = chance(st_ready_pct_);

        top_->eval();

        // -- sample DUT outputs --
        pins_.arvalid = top_->m_axi_arvalid;
        pins_.araddr = top_->m_axi_araddr;
        pins_.arlen = top_->m_axi_arlen;
        pins_.arsize = top_->m_axi_arsize;
        pins_.arburst = top_->m_axi_arburst;
        pins_.arid = top_->m_axi_arid;
        pins_.rready = top_->m_axi_rready;
        pins_.awvalid = top_->m_axi_awvalid;
        pins_.awaddr = top_->m_axi_awaddr;
        pins_.awlen = top_->m_axi_awlen;
        pins_.awsize = top_->m_axi_awsize;
        pins_.awburst = top_->m_axi_awburst;
        pins_.awid = top_->m_axi_awid;
        pins_.wvalid = top_->m_axi_wvalid;
        get_bytes(top_->m_axi_wdata, pins_.wdata.data());
        pins_.wstrb = uint64_t(top_->m_axi_wstrb);
        pins_.wlast = top_->m_axi_wlast;
        pins_.bready = top_->m_axi_bready;

        check_stable();

        // -- handshakes --
        if (top_->s_rd_desc_valid && top_->s_rd_desc_ready) {
            any = true;
            Req r = rd_todo_.front();
            rd_todo_.pop_front();
            rd_desc_shown_ = false;
            if (r.len) rd_data_.push_back(r);
            rd_stat_.push_back(r);
            if (rd_first_desc_ == 0) rd_first_desc_ = cyc_;
        }
        if (top_->m_rd_axis_tvalid && top_->m_rd_axis_tready) {
            any = true;
            rd_beat();
        }
        if (top_->m_rd_status_valid && top_->m_rd_status_ready) {
            any = true;
            check_status("read", rd_stat_, top_->m_rd_status_tag, top_->m_rd_status_error);
        }
        if (top_->s_wr_desc_valid && top_->s_wr_desc_ready) {
            any = true;
            Req r = wr_todo_.front();
            wr_todo_.pop_front();
            wr_desc_shown_ = false;
            r.data.clear();
            wr_stat_.push_back(r);
            if (wr_first_desc_ == 0) wr_first_desc_ = cyc_;
        }
        if (top_->s_wr_axis_tvalid && top_->s_wr_axis_tready) {
            any = true;
            Req &r = wr_stream_.front();
            r.done += std::min<uint32_t>(W, r.len - r.done);
            wdata_shown_ = false;
            if (r.done == r.len) wr_stream_.pop_front();
        }
        if (top_->m_wr_status_valid && top_->m_wr_status_ready) {
            any = true;
            check_status("write", wr_stat_, top_->m_wr_status_tag, top_->m_wr_status_error);
            wr_last_status_ = cyc_;
        }
        // burst length and bursts-in-flight limits of the configuration
        if (pins_.arvalid && pins_.arready) {
            if (unsigned(pins_.arlen) + 1 > max_burst_) fail("AR burst of %u beats", unsigned(pins_.arlen) + 1);
            if (++rd_inflight_ > max_outstanding_) fail("%u read bursts in flight", rd_inflight_);
        }
        if (pins_.rvalid && pins_.rready && pins_.rlast) rd_inflight_--;
        if (pins_.awvalid && pins_.awready) {
            if (unsigned(pins_.awlen) + 1 > max_burst_) fail("AW burst of %u beats", unsigned(pins_.awlen) + 1);
            if (++wr_inflight_ > max_outstanding_) fail("%u write bursts in flight", wr_inflight_);
        }
        if (pins_.bvalid && pins_.bready) wr_inflight_--;
        if (pins_.wvalid && pins_.wready) {
            w_beats_++;
            w_last_beat_ = cyc_;
        }
        any = any || (pins_.arvalid && pins_.arready) || (pins_.rvalid && pins_.rready) ||
              (pins_.awvalid && pins_.awready) || (pins_.wvalid && pins_.wready) || (pins_.bvalid && pins_.bready);

        mem_.clock(pins_);
        prev_ = pins_;
        prev_rd_valid_ = top_->m_rd_axis_tvalid && !top_->m_rd_axis_tready;

        top_->clk = 1;
        top_->eval();
        top_->clk = 0;
        cyc_++;
        return any;
    }

    void rd_beat() {
        if (rd_data_.empty()) {
            fail("read data beat with no read outstanding");
            return;
        }
        Req &r = rd_data_.front();
        rd_beats_++;
        rd_last_beat_ = cyc_;
        uint8_t beat[64];
        get_bytes(top_->m_rd_axis_tdata, beat);
        unsigned n = std::min<uint32_t>(W, r.len - r.done);
        bool last = r.done + n == r.len;
        uint64_t keep = uint64_t(top_->m_rd_axis_tkeep);
        if (top_->m_rd_axis_tid != r.tag)
            fail("read tag %u: beat at byte %u has tid %u", r.tag, r.done, unsigned(top_->m_rd_axis_tid));
        if (keep != keep_mask(n))
            fail("read tag %u addr %#llx len %u: beat at byte %u has tkeep %#llx, expected %#llx", r.tag,
                 (unsigned long long)r.addr, r.len, r.done, (unsigned long long)keep,
                 (unsigned long long)keep_mask(n));
        if (bool(top_->m_rd_axis_tlast) != last)
            fail("read tag %u addr %#llx len %u: beat at byte %u has tlast %d", r.tag, (unsigned long long)r.addr,
                 r.len, r.done, int(top_->m_rd_axis_tlast));
        if (r.exp_err == DMA_OK) {
            if (inject_ && !injected_ && r.len > 100) {
                mem_.poke(r.addr + r.done, uint8_t(mem_.peek(r.addr + r.done) ^ 0x40));
                injected_ = true;
            }
            for (unsigned i = 0; i < n; i++) {
                uint8_t exp = mem_.peek(r.addr + r.done + i);
                if (beat[i] != exp) {
                    fail("read tag %u addr %#llx len %u: byte %u is %#04x, memory holds %#04x", r.tag,
                         (unsigned long long)r.addr, r.len, r.done + i, beat[i], exp);
                    break;
                }
            }
            rd_checked_bytes_ += n;
        }
        r.done += n;
        if (last) rd_data_.pop_front();
    }

    void check_status(const char *what, std::deque<Req> &q, unsigned tag, unsigned err) {
        if (q.empty()) {
            fail("%s status (tag %u) with no request outstanding", what, tag);
            return;
        }
        Req r = q.front();
        q.pop_front();
        if (tag != r.tag || err != r.exp_err)
            fail("%s status: tag %u error %u, expected tag %u error %u (addr %#llx len %u)", what, tag, err, r.tag,
                 r.exp_err, (unsigned long long)r.addr, r.len);
        if (err != DMA_OK) (err == DMA_BAD_LEN ? bad_len_seen_ : bus_err_seen_)++;
        statuses_++;
    }

    // A master's VALID, once high, stays high with stable payload until READY.
    void check_stable() {
        if (prev_.arvalid && !prev_.arready &&
            (!pins_.arvalid || pins_.araddr != prev_.araddr || pins_.arlen != prev_.arlen))
            fail("AR changed before its handshake");
        if (prev_.awvalid && !prev_.awready &&
            (!pins_.awvalid || pins_.awaddr != prev_.awaddr || pins_.awlen != prev_.awlen))
            fail("AW changed before its handshake");
        if (prev_.wvalid && !prev_.wready &&
            (!pins_.wvalid || pins_.wdata != prev_.wdata || pins_.wstrb != prev_.wstrb || pins_.wlast != prev_.wlast))
            fail("W changed before its handshake");
        if (prev_rd_valid_ && !top_->m_rd_axis_tvalid) fail("read stream tvalid dropped before tready");
    }

    bool compare_write_region() {
        uint64_t bad = 0;
        for (uint64_t i = 0; i < SHADOW_SIZE; i++) {
            uint8_t got = mem_.peek(REGION_B + i);
            if (got != shadow_[i]) {
                if (bad < 5)
                    fail("write region byte %#llx is %#04x, expected %#04x", (unsigned long long)(REGION_B + i), got,
                         shadow_[i]);
                bad++;
            }
        }
        if (bad) fail("%llu write-region bytes differ", (unsigned long long)bad);
        // and nothing was written anywhere else (pages outside the region)
        for (uint64_t pn : mem_.written_pages()) {
            if (pn < (REGION_B >> 12) || pn > ((REGION_B + SHADOW_SIZE - 1) >> 12)) {
                if (inject_) continue;   // the negative control pokes the read region
                fail("memory page %#llx outside the write region was written", (unsigned long long)(pn << 12));
                bad++;
            }
        }
        return bad == 0;
    }

    bool check_model() {
        for (const auto &v : mem_.violations()) fail("AXI protocol: %s", v.c_str());
        return mem_.violations().empty();
    }

    template <typename... A>
    void fail(const char *fmt, A... a) {
        failures_++;
        if (failures_ <= 20) {
            std::printf("FAIL: ");
            std::printf(fmt, a...);
            std::printf("\n");
        }
    }

    unsigned pick(uint64_t n) { return unsigned(std::uniform_int_distribution<uint64_t>(0, n - 1)(rng_)); }
    bool chance(unsigned pct) { return pct >= 100 || pick(100) < pct; }

    // state
    std::mt19937_64 rng_;
    bool inject_, injected_ = false;
    AxiMem mem_;
    std::vector<uint8_t> shadow_;
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vtb_dma_top> top_;
    AxiMemPins pins_, prev_;
    bool prev_rd_valid_ = false;
    unsigned rd_ready_pct_ = 100, st_ready_pct_ = 100, desc_pct_ = 100, wdata_pct_ = 100;
    unsigned max_burst_ = 256, max_outstanding_ = 8, rd_inflight_ = 0, wr_inflight_ = 0;
    bool rd_desc_shown_ = false, wr_desc_shown_ = false, wdata_shown_ = false;
    std::deque<Req> rd_todo_, rd_data_, rd_stat_, wr_todo_, wr_stream_, wr_stat_;
    unsigned rd_tag_ = 0, wr_tag_ = 0;
    uint64_t cyc_ = 0, failures_ = 0, statuses_ = 0, bad_len_seen_ = 0, bus_err_seen_ = 0;
    uint64_t rd_total_ = 0, wr_total_ = 0, rd_bytes_ = 0, wr_bytes_ = 0, rd_err_reqs_ = 0, wr_err_reqs_ = 0;
    uint64_t rd_checked_bytes_ = 0, rd_beats_ = 0, w_beats_ = 0;
    uint64_t rd_first_desc_ = 0, rd_last_beat_ = 0, wr_first_desc_ = 0, wr_last_status_ = 0, w_last_beat_ = 0;
};

}  // namespace

int main(int argc, char **argv) {
    uint64_t seed = 1;
    unsigned reads = 2000, writes = 2000;
    bool inject = false;
    unsigned max_burst = 256, max_outstanding = 8;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--seed" && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 0);
        else if (a == "--reads" && i + 1 < argc) reads = unsigned(std::strtoul(argv[++i], nullptr, 0));
        else if (a == "--writes" && i + 1 < argc) writes = unsigned(std::strtoul(argv[++i], nullptr, 0));
        else if (a == "--inject-error") inject = true;
        else if (a == "--max-burst" && i + 1 < argc) max_burst = unsigned(std::strtoul(argv[++i], nullptr, 0));
        else if (a == "--max-outstanding" && i + 1 < argc)
            max_outstanding = unsigned(std::strtoul(argv[++i], nullptr, 0));
        else {
            std::fprintf(stderr,
                         "usage: %s [--seed N] [--reads N] [--writes N] [--max-burst N] [--max-outstanding N] "
                         "[--inject-error]\n",
                         argv[0]);
            return 2;
        }
    }

    Bench b(seed, inject);
    b.max_burst_ = max_burst;
    b.max_outstanding_ = max_outstanding;
    b.reset();

    // Phase 1: random traffic
    b.set_random_flow(true);
    b.add_random(reads, writes);
    // directed corner cases: 4 KiB crossings by one byte, whole 64 KiB, len 0
    b.add_read(REGION_A + 0x1fff, 2);
    b.add_read(REGION_A + 0x3001, 65535);
    b.add_read(REGION_A + 0x5000, 0);
    b.add_write(REGION_B + 0x1fff, 2);
    b.add_write(REGION_B + 0x3001, 65535);
    b.add_write(REGION_B + 0x5000, 0);
    bool ok = b.run();
    uint64_t rand_cycles = b.cyc_;
    ok = b.compare_write_region() && ok;
    std::printf("random: %llu reads (%llu bytes, %llu checked, %llu with a bus error), %llu writes (%llu bytes, "
                "%llu with a bus error), %llu statuses (%llu BAD_LEN, %llu bus errors), %llu cycles\n",
                (unsigned long long)b.rd_total_, (unsigned long long)b.rd_bytes_,
                (unsigned long long)b.rd_checked_bytes_, (unsigned long long)b.rd_err_reqs_,
                (unsigned long long)b.wr_total_, (unsigned long long)b.wr_bytes_, (unsigned long long)b.wr_err_reqs_,
                (unsigned long long)b.statuses_, (unsigned long long)b.bad_len_seen_,
                (unsigned long long)b.bus_err_seen_, (unsigned long long)rand_cycles);

    // Phase 2: throughput, no back-pressure, bus latency 20 cycles
    b.set_random_flow(false);
    struct Perf {
        const char *name;
        uint32_t len;
        uint64_t first, stride;
    } perfs[] = {{"4096 B aligned", 4096, 0, 4096}, {"1500 B unaligned", 1500, 3, 1501}, {"64 B aligned", 64, 0, 64}};
    for (const Perf &p : perfs) {
        for (int dir = 0; dir < 2 && ok; dir++) {
            const unsigned n = 64;
            uint64_t beats0 = dir ? b.w_beats_ : b.rd_beats_;
            uint64_t bus0 = b.mem_.stats().r_beats;
            for (unsigned i = 0; i < n; i++) {
                if (dir) b.add_write(REGION_B + p.first + i * p.stride, p.len);
                else b.add_read(REGION_A + 0x100000 + p.first + i * p.stride, p.len);
            }
            b.rd_first_desc_ = b.wr_first_desc_ = 0;
            ok = b.run() && ok;
            uint64_t start = dir ? b.wr_first_desc_ : b.rd_first_desc_;
            uint64_t end = dir ? b.w_last_beat_ : b.rd_last_beat_;
            uint64_t beats = (dir ? b.w_beats_ : b.rd_beats_) - beats0;
            uint64_t bus = dir ? beats : b.mem_.stats().r_beats - bus0;
            std::printf("throughput %-5s %-17s: %llu %s beats in %llu cycles = %.3f beats/cycle, %llu bus beats "
                        "(%u x %u B, first descriptor to last beat, bus latency 20)\n",
                        dir ? "write" : "read", p.name, (unsigned long long)beats, dir ? "W" : "stream",
                        (unsigned long long)(end - start + 1), double(beats) / double(end - start + 1),
                        (unsigned long long)bus, n, p.len);
        }
    }
    ok = b.compare_write_region() && ok;
    ok = b.check_model() && ok;

    if (b.failures_ || !ok) {
        std::printf("FAIL: DATA_WIDTH=%d seed=%llu: %llu failure(s)\n", DATA_WIDTH, (unsigned long long)seed,
                    (unsigned long long)b.failures_);
        return 1;
    }
    std::printf("PASS: DATA_WIDTH=%d seed=%llu: %llu requests, every byte and status checked, %llu cycles\n",
                DATA_WIDTH, (unsigned long long)seed, (unsigned long long)(b.rd_total_ + b.wr_total_),
                (unsigned long long)b.cyc_);
    return 0;
}
