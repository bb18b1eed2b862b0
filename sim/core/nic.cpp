// SPDX-License-Identifier: MIT
// One simulated froce NIC; see nic.h.
#include "nic.h"

#include <cinttypes>
#include <cstdio>

#include "Vfroce_core.h"
#include "Vfroce_core___024root.h"
#include "froce_hw.h"
#include "verilated.h"

namespace froce_sim {

struct Nic::Impl {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vfroce_core> top;
};

namespace {

uint64_t bytes_to_u64(const uint8_t *b, unsigned n) {
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) v |= uint64_t(b[i]) << (8 * i);
    return v;
}

}  // namespace

Nic::Nic(const NicConfig &cfg)
    : NicModel(cfg, kDataBytes), impl_(new Impl), rng_(cfg.seed * 0x9E3779B97F4A7C15ull + 17) {
    impl_->ctx = std::make_unique<VerilatedContext>();
    impl_->ctx->randReset(cfg_.x_init);
    impl_->ctx->randSeed(int(cfg_.seed % 1000003) + 1);
    impl_->ctx->commandArgs(0, (const char **)nullptr);
    impl_->top = std::make_unique<Vfroce_core>(impl_->ctx.get(), cfg_.name.c_str());
    reset();
}

Nic::~Nic() {
    if (impl_ && impl_->top) impl_->top->final();
    // Verilator 5.006 deadlocks in ~Vfroce_core (VerilatedContextImp::scopeErase)
    // once the model has scopes ($display): the model and its context are
    // deliberately not destroyed. A few MB per Nic, released at process exit.
    if (impl_) {
        (void)impl_->top.release();
        (void)impl_->ctx.release();
    }
}

void Nic::reset() {
    Vfroce_core *m = impl_->top.get();
    m->rst = 1;
    m->clk = 0;
    m->link_up = 1;
    m->s_axil_db_awvalid = 0;
    m->s_axil_db_wvalid = 0;
    m->s_axil_db_bready = 0;
    m->s_axil_awvalid = 0;
    m->s_axil_wvalid = 0;
    m->s_axil_bready = 0;
    m->s_axil_arvalid = 0;
    m->s_axil_rready = 0;
    m->m_axi_arready = 0;
    m->m_axi_awready = 0;
    m->m_axi_wready = 0;
    m->m_axi_rvalid = 0;
    m->m_axi_bvalid = 0;
    m->s_eth_rx_tvalid = 0;
    m->m_eth_tx_tready = 0;
    m->m_msix_ready = 0;
    m->msix_tbl_vector = 0;  // no emitter here: the simulator takes m_msix_vector
    m->msix_pba_ext = 0;
    for (unsigned i = 0; i < cfg_.reset_cycles; i++) {
        m->eval();
        m->clk = 1;
        m->eval();
        m->clk = 0;
    }
    m->rst = 0;
    m->eval();
    console_line_.clear();
    bar0_ = Bar0Access();
    db_aw_done_ = db_w_done_ = false;
    rx_off_ = 0;
    tx_cur_.clear();
}

void Nic::tick() {
    Vfroce_core *m = impl_->top.get();

    // ---- 1. inputs for this cycle ----
    mem_.drive(pins_);
    m->m_axi_arready = pins_.arready;
    m->m_axi_rvalid = pins_.rvalid;
    m->m_axi_rdata = bytes_to_u64(pins_.rdata.data(), kDataBytes);
    m->m_axi_rresp = pins_.rresp;
    m->m_axi_rlast = pins_.rlast;
    m->m_axi_rid = pins_.rid & 0xf;
    m->m_axi_awready = pins_.awready;
    m->m_axi_wready = pins_.wready;
    m->m_axi_bvalid = pins_.bvalid;
    m->m_axi_bresp = pins_.bresp;
    m->m_axi_bid = pins_.bid & 0xf;

    const bool db_active = !db_q_.empty();
    if (db_active) {
        const Doorbell &d = db_q_.front();
        m->s_axil_db_awaddr = (uint64_t(d.page) << FROCE_UAR_PAGE_SHIFT) + uint64_t(d.slot) * 8;
        m->s_axil_db_wdata = d.value;
    }
    m->s_axil_db_awvalid = db_active && !db_aw_done_;
    m->s_axil_db_wvalid = db_active && !db_w_done_;
    m->s_axil_db_wstrb = 0xFF;
    m->s_axil_db_bready = db_active && db_aw_done_ && db_w_done_;

    // BAR0: AW and W together, then B; or AR, then R
    const bool b0w = bar0_.active && bar0_.is_write && !bar0_.done;
    const bool b0r = bar0_.active && !bar0_.is_write && !bar0_.done;
    m->s_axil_awaddr = bar0_.addr;
    m->s_axil_araddr = bar0_.addr;
    m->s_axil_wdata = bar0_.wdata;
    m->s_axil_wstrb = 0xF;
    m->s_axil_awvalid = b0w && !bar0_.aw_done;
    m->s_axil_wvalid = b0w && !bar0_.w_done;
    m->s_axil_bready = b0w && bar0_.aw_done && bar0_.w_done;
    m->s_axil_arvalid = b0r && !bar0_.ar_done;
    m->s_axil_rready = b0r && bar0_.ar_done;

    bool rx_valid = false, rx_last = false;
    unsigned rx_n = 0;
    if (rx_gap_left_ == 0 && !rx_q_.empty()) {
        const std::vector<uint8_t> &f = rx_q_.front();
        rx_n = unsigned(std::min<size_t>(kDataBytes, f.size() - rx_off_));
        rx_valid = true;
        rx_last = rx_off_ + rx_n >= f.size();
        m->s_eth_rx_tdata = bytes_to_u64(f.data() + rx_off_, rx_n);
        m->s_eth_rx_tkeep = uint8_t((1u << rx_n) - 1);
    }
    m->s_eth_rx_tvalid = rx_valid;
    m->s_eth_rx_tlast = rx_last;

    bool tx_ready = tx_gap_left_ == 0 &&
                    (cfg_.tx_ready_pct >= 100 || std::uniform_int_distribution<unsigned>(0, 99)(rng_) < cfg_.tx_ready_pct);
    m->m_eth_tx_tready = tx_ready;
    m->m_msix_ready = 1;
    m->rst = 0;

    m->eval();

    // ---- 2. outputs and handshakes of this cycle ----
    if (m->fw_console_valid) console_byte(char(m->fw_console_data));

    if (b0w) {
        if (m->s_axil_awvalid && m->s_axil_awready) bar0_.aw_done = true;
        if (m->s_axil_wvalid && m->s_axil_wready) bar0_.w_done = true;
        if (m->s_axil_bready && m->s_axil_bvalid) {
            bar0_.resp = m->s_axil_bresp;
            bar0_.done = true;
        }
    } else if (b0r) {
        if (m->s_axil_rready && m->s_axil_rvalid) {
            bar0_.resp = m->s_axil_rresp;
            bar0_.rdata = m->s_axil_rdata;
            bar0_.done = true;
        }
        if (m->s_axil_arvalid && m->s_axil_arready) bar0_.ar_done = true;
    }

    if (db_active) {
        const bool was_accepted = db_aw_done_ && db_w_done_;
        if (m->s_axil_db_awvalid && m->s_axil_db_awready) db_aw_done_ = true;
        if (m->s_axil_db_wvalid && m->s_axil_db_wready) db_w_done_ = true;
        if (!was_accepted && db_aw_done_ && db_w_done_) stats_.last_doorbell_cycle = stats_.cycles;
        if (m->s_axil_db_bready && m->s_axil_db_bvalid) {
            if (m->s_axil_db_bresp != 0) {
                stats_.doorbell_bresp_err++;
                char buf[160];
                std::snprintf(buf, sizeof buf, "doorbell page %u slot %u value %#" PRIx64 ": BRESP %u",
                              db_q_.front().page, db_q_.front().slot, db_q_.front().value,
                              unsigned(m->s_axil_db_bresp));
                db_error_ = buf;
            }
            stats_.doorbells++;
            db_q_.pop_front();
            db_aw_done_ = db_w_done_ = false;
        }
    }

    if (rx_valid && m->s_eth_rx_tready) {
        rx_off_ += rx_n;
        if (rx_last) {
            stats_.last_rx_last_beat_cycle = stats_.cycles;
            stats_.rx_frames++;
            stats_.rx_bytes += rx_q_.front().size();
            rx_q_.pop_front();
            rx_off_ = 0;
            rx_gap_left_ = cfg_.rx_gap;
        }
    } else if (rx_gap_left_ > 0 && !rx_valid) {
        rx_gap_left_--;
    }

    if (tx_gap_left_ > 0) tx_gap_left_--;
    if (m->m_eth_tx_tvalid && tx_ready) {
        unsigned keep = m->m_eth_tx_tkeep;
        unsigned n = 0;
        while (n < kDataBytes && ((keep >> n) & 1)) n++;
        if (keep != ((1u << n) - 1) || (n < kDataBytes && !m->m_eth_tx_tlast)) stats_.tx_keep_errors++;
        uint64_t d = m->m_eth_tx_tdata;
        if (tx_cur_.empty()) stats_.last_tx_first_beat_cycle = stats_.cycles;
        for (unsigned i = 0; i < kDataBytes; i++)
            if ((keep >> i) & 1) tx_cur_.push_back(uint8_t(d >> (8 * i)));
        if (m->m_eth_tx_tlast) {
            stats_.tx_frames++;
            stats_.tx_bytes += tx_cur_.size();
            tx_done_.push_back(std::move(tx_cur_));
            tx_cur_.clear();
            tx_gap_left_ = cfg_.tx_gap;
        }
    }

    if (m->m_msix_valid && m->m_msix_ready) {
        MsixMessage msg;
        msg.vector = m->m_msix_vector & 31;
        msg.addr = m->m_msix_addr;
        msg.data = m->m_msix_data;
        msix_delivered(msg);
    }

    pins_.arvalid = m->m_axi_arvalid;
    pins_.araddr = m->m_axi_araddr;
    pins_.arlen = m->m_axi_arlen;
    pins_.arsize = m->m_axi_arsize;
    pins_.arburst = m->m_axi_arburst;
    pins_.arid = m->m_axi_arid;
    pins_.rready = m->m_axi_rready;
    pins_.awvalid = m->m_axi_awvalid;
    pins_.awaddr = m->m_axi_awaddr;
    pins_.awlen = m->m_axi_awlen;
    pins_.awsize = m->m_axi_awsize;
    pins_.awburst = m->m_axi_awburst;
    pins_.awid = m->m_axi_awid;
    pins_.wvalid = m->m_axi_wvalid;
    uint64_t wd = m->m_axi_wdata;
    for (unsigned i = 0; i < kDataBytes; i++) pins_.wdata[i] = uint8_t(wd >> (8 * i));
    pins_.wstrb = m->m_axi_wstrb;
    pins_.wlast = m->m_axi_wlast;
    pins_.bready = m->m_axi_bready;
    mem_.clock(pins_);

    // ---- 3. clock edge ----
    m->clk = 1;
    m->eval();
    m->clk = 0;
    stats_.cycles++;
}

uint64_t Nic::fw_instret() const {
    return impl_->top->rootp->froce_core__DOT__fw__DOT__u_cpu__DOT__minstret_reg;
}

Status Nic::bar0_access(bool write, uint32_t off, uint32_t wdata, uint32_t *rdata) {
    if (off & 3) return errorf("NIC %s: BAR0 offset %#x is not dword aligned", cfg_.name.c_str(), off);
    if (off >= FROCE_BAR0_SIZE) return errorf("NIC %s: BAR0 offset %#x beyond BAR0", cfg_.name.c_str(), off);
    if (bar0_.active) return errorf("NIC %s: BAR0 access while another is in flight", cfg_.name.c_str());
    bar0_ = Bar0Access();
    bar0_.active = true;
    bar0_.is_write = write;
    bar0_.addr = off;
    bar0_.wdata = wdata;
    const uint64_t start = cycle();
    while (!bar0_.done) {
        if (cycle() - start >= cfg_.ctl_timeout) {
            bar0_ = Bar0Access();
            return errorf("NIC %s: BAR0 %s at %#x not answered within %" PRIu64 " cycles (cycle %" PRIu64 ")",
                          cfg_.name.c_str(), write ? "write" : "read", off, cfg_.ctl_timeout, cycle());
        }
        advance();
    }
    const unsigned resp = bar0_.resp;
    if (rdata) *rdata = bar0_.rdata;
    bar0_ = Bar0Access();
    if (write) stats_.bar0_writes++;
    else stats_.bar0_reads++;
    if (resp != 0)
        return errorf("NIC %s: BAR0 %s at %#x: response %u", cfg_.name.c_str(), write ? "write" : "read", off, resp);
    return Status();
}

Status Nic::bar0_write32(uint32_t off, uint32_t v) { return bar0_access(true, off, v, nullptr); }

Status Nic::bar0_read32(uint32_t off, uint32_t *v) {
    if (!v) return errorf("NIC %s: bar0_read32: null output", cfg_.name.c_str());
    return bar0_access(false, off, 0, v);
}

Status Nic::doorbell(uint32_t uar_page, uint32_t slot, uint64_t value) {
    if (uar_page >= kNumUars)
        return errorf("NIC %s: doorbell: UAR page %u beyond the %u pages", cfg_.name.c_str(), uar_page, kNumUars);
    if (slot >= FROCE_UAR_DB_SLOTS)
        return errorf("NIC %s: doorbell: slot %u beyond the %u slots of a UAR page", cfg_.name.c_str(), slot,
                      unsigned(FROCE_UAR_DB_SLOTS));
    db_q_.push_back({uar_page, slot, value});
    return Status();
}

Status Nic::wait_doorbells(uint64_t max_cycles) {
    uint64_t n = 0;
    while (!db_q_.empty()) {
        if (n++ >= max_cycles)
            return errorf("NIC %s: %zu doorbell(s) not accepted within %" PRIu64 " cycles (%s)", cfg_.name.c_str(),
                          db_q_.size(), max_cycles, port_state().c_str());
        advance();
    }
    if (!db_error_.empty()) {
        Status s = errorf("NIC %s: %s", cfg_.name.c_str(), db_error_.c_str());
        db_error_.clear();
        return s;
    }
    return Status();
}

std::string Nic::port_state() const {
    const Vfroce_core *m = impl_->top.get();
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "NIC %s cycle %" PRIu64 ": doorbells queued %zu (aw %s, w %s); rx frames queued %zu "
                  "(tready %d); tx frames %" PRIu64 "; rx frames %" PRIu64 "; axi ar %" PRIu64 " aw %" PRIu64
                  " bursts; msix %" PRIu64,
                  cfg_.name.c_str(), stats_.cycles,
                  db_q_.size(),
                  db_q_.empty() ? "-" : db_aw_done_ ? "done" : "pending", db_q_.empty() ? "-" : db_w_done_ ? "done" : "pending", rx_q_.size(),
                  int(m->s_eth_rx_tready), stats_.tx_frames, stats_.rx_frames, mem_.stats().ar_bursts,
                  mem_.stats().aw_bursts, stats_.msix);
    return buf;
}

}  // namespace froce_sim
