// SPDX-License-Identifier: MIT
// The Alveo U200 board core as a NicModel; see alveo_nic.h.
#include "alveo_nic.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "Vfpga_core.h"
#include "Vfpga_core___024root.h"
#include "froce_hw.h"
#include "verilated.h"

namespace froce_sim {

struct AlveoNic::Impl {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vfpga_core> top;
};

namespace {

constexpr uint32_t kTableEnd = FROCE_BAR0_MSIX_TABLE_BASE + FROCE_MSIX_MAX_VECTORS * 16;

unsigned start_pos(const AlveoConfig &b, uint64_t seed) {
    if (b.lane_start_pos >= 0) return unsigned(std::min(b.lane_start_pos, 66));
    return unsigned((seed * 0x9E3779B97F4A7C15ull >> 32) % 67);
}

}  // namespace

AlveoNic::AlveoNic(const NicConfig &cfg, const AlveoConfig &board)
    : NicModel(cfg, kBusBytes), impl_(new Impl), bcfg_(board), msix_enable_(board.msix_enable),
      msix_mask_(board.msix_function_mask), gearbox_(start_pos(board, cfg.seed), board.slip_latency, kPcsBitReverse) {
    bcfg_.rx_phase_ps %= kRxPs;
    impl_->ctx = std::make_unique<VerilatedContext>();
    impl_->ctx->randReset(cfg_.x_init);
    impl_->ctx->randSeed(int(cfg_.seed % 1000003) + 1);
    impl_->ctx->commandArgs(0, (const char **)nullptr);
    impl_->top = std::make_unique<Vfpga_core>(impl_->ctx.get(), cfg_.name.c_str());
    reset();
}

AlveoNic::~AlveoNic() {
    if (impl_ && impl_->top) impl_->top->final();
    // as Nic: Verilator 5.006 deadlocks destroying a model with scopes; the
    // model and its context are left to the process exit
    if (impl_) {
        (void)impl_->top.release();
        (void)impl_->ctx.release();
    }
}

void AlveoNic::reset() {
    Vfpga_core *m = impl_->top.get();
    m->pcie_clk = m->core_clk = m->rx_clk = 0;
    m->pcie_rst = m->core_rst = m->rx_rst = 1;
    m->s_axi_bar_awvalid = m->s_axi_bar_wvalid = m->s_axi_bar_bready = 0;
    m->s_axi_bar_arvalid = m->s_axi_bar_rready = 0;
    m->m_axi_dma_awready = m->m_axi_dma_wready = m->m_axi_dma_bvalid = 0;
    m->m_axi_dma_arready = m->m_axi_dma_rvalid = 0;
    m->qsfp_modprsl = 0;   // a module is plugged in
    m->qsfp_intl = 1;
    m->serdes_rx_data = 0;
    m->serdes_rx_hdr = 0;
    m->eval();
    t_pcie_ = t_core_ = 0;
    t_rx_ = bcfg_.rx_phase_ps;
    pcie_rst_left_ = core_rst_left_ = rx_rst_left_ = std::max(cfg_.reset_cycles, 2u);
    while (pcie_rst_left_ || core_rst_left_ || rx_rst_left_) core_edge();
    console_line_.clear();
    pins_ = AxiMemPins();
    w_route_.clear();
    msi_aw_.clear();
    msi_b_.clear();
    b_owner_ = BOwner::None;
    aw_is_msi_ = aw_pending_ = false;
    for (auto &e : msix_table_) e = {0, 0, 0, 1};
    decoder_.restart();
}

bool AlveoNic::core_edge() {
    Vfpga_core *m = impl_->top.get();
    const uint64_t t = std::min(t_pcie_, std::min(t_core_, t_rx_));
    const bool pe = t_pcie_ == t, ce = t_core_ == t, re = t_rx_ == t;
    // all clocks are low here: this edge's inputs, then its handshakes
    if (pe) drive_pcie();
    if (ce) drive_core();
    if (re) drive_rx();
    m->eval();
    if (pe) sample_pcie();
    if (ce) sample_core();
    if (re) sample_rx();
    m->pcie_clk = pe;
    m->core_clk = ce;
    m->rx_clk = re;
    m->eval();
    // lowered without an evaluation: the next one sees the falling edge
    m->pcie_clk = m->core_clk = m->rx_clk = 0;
    if (pe) t_pcie_ += kPciePs;
    if (ce) t_core_ += kCorePs;
    if (re) t_rx_ += kRxPs;
    return ce;
}

void AlveoNic::tick() {
    while (!core_edge()) {
    }
    stats_.cycles++;
}

// ---- pcie_clk: the XDMA's BAR master, host memory, the interrupt decode ----------------

void AlveoNic::drive_pcie() {
    Vfpga_core *m = impl_->top.get();
    m->pcie_rst = pcie_rst_left_ > 0;
    m->msix_enable = msix_enable_;
    m->msix_func_mask = msix_mask_;
    if (pcie_rst_left_) {
        // in reset the board's outputs may hold random start values: the
        // host side takes nothing and shows nothing
        m->s_axi_bar_awvalid = m->s_axi_bar_wvalid = m->s_axi_bar_arvalid = 0;
        m->s_axi_bar_bready = m->s_axi_bar_rready = 0;
        m->m_axi_dma_awready = m->m_axi_dma_wready = m->m_axi_dma_arready = 0;
        m->m_axi_dma_rvalid = m->m_axi_dma_bvalid = 0;
        return;
    }

    const BarOp *op = bar_q_.empty() ? nullptr : &bar_q_.front();
    const bool wr = op && op->kind != BarOp::Bar0Read, rd = op && op->kind == BarOp::Bar0Read;
    m->s_axi_bar_awvalid = wr && !op->aw_done;
    m->s_axi_bar_wvalid = wr && !op->w_done;
    m->s_axi_bar_bready = wr && op->aw_done && op->w_done;
    m->s_axi_bar_arvalid = rd && !op->ar_done;
    m->s_axi_bar_rready = rd && op->ar_done;
    if (op) {
        const unsigned lane = unsigned(op->addr & (kBusBytes - 1));
        // a dword is one access of its size; longer requests use the bus width
        const uint8_t axsize = op->size == 4 ? 2 : 5;
        m->s_axi_bar_awid = m->s_axi_bar_arid = op->id;
        m->s_axi_bar_awaddr = m->s_axi_bar_araddr = op->addr;
        m->s_axi_bar_awlen = m->s_axi_bar_arlen = 0;
        m->s_axi_bar_awsize = m->s_axi_bar_arsize = axsize;
        m->s_axi_bar_awburst = m->s_axi_bar_arburst = 1;   // INCR
        m->s_axi_bar_awlock = m->s_axi_bar_arlock = 0;
        m->s_axi_bar_awcache = m->s_axi_bar_arcache = 0;
        m->s_axi_bar_awprot = m->s_axi_bar_arprot = 0;
        if (wr) {
            for (unsigned w = 0; w < kBusBytes / 4; w++) m->s_axi_bar_wdata[w] = 0;
            for (unsigned i = 0; i < op->size; i++) {
                const unsigned b = lane + i;
                m->s_axi_bar_wdata[b / 4] |= uint32_t(uint8_t(op->wdata >> (8 * i))) << (8 * (b % 4));
            }
            m->s_axi_bar_wstrb = uint32_t(((uint64_t(1) << op->size) - 1) << lane);
            m->s_axi_bar_wlast = 1;
        }
    }

    mem_.drive(pins_);
    // the root complex decodes an AW once; an AW waiting for READY keeps its decode
    if (!aw_pending_) aw_is_msi_ = m->m_axi_dma_awvalid && is_msi_addr(m->m_axi_dma_awaddr);
    m->m_axi_dma_awready = aw_is_msi_ ? 1 : pins_.awready;
    m->m_axi_dma_arready = pins_.arready;
    m->m_axi_dma_rvalid = pins_.rvalid;
    if (pins_.rvalid) {
        for (unsigned w = 0; w < kBusBytes / 4; w++) {
            const uint8_t *b = pins_.rdata.data() + 4 * w;
            m->m_axi_dma_rdata[w] = uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
        }
        m->m_axi_dma_rresp = pins_.rresp;
        m->m_axi_dma_rlast = pins_.rlast;
        m->m_axi_dma_rid = pins_.rid & 0xf;
    }
    // W beats follow their AWs in order: to the interrupt decode or to memory;
    // none is taken before its AW (a slave may wait for AW)
    m->m_axi_dma_wready = w_route_.empty() ? 0 : w_route_.front() ? 1 : pins_.wready;
    // B: memory's and the interrupts' responses share the channel; a shown
    // response stays until taken
    if (b_owner_ == BOwner::None) {
        if (pins_.bvalid) b_owner_ = BOwner::Mem;
        else if (!msi_b_.empty()) b_owner_ = BOwner::Msi;
    }
    m->m_axi_dma_bvalid = b_owner_ != BOwner::None;
    if (b_owner_ == BOwner::Mem) {
        m->m_axi_dma_bid = pins_.bid & 0xf;
        m->m_axi_dma_bresp = pins_.bresp;
    } else if (b_owner_ == BOwner::Msi) {
        m->m_axi_dma_bid = msi_b_.front() & 0xf;
        m->m_axi_dma_bresp = 0;
    }
}

void AlveoNic::sample_pcie() {
    Vfpga_core *m = impl_->top.get();
    bst_.pcie_cycles++;
    if (pcie_rst_left_) {
        pcie_rst_left_--;
        return;
    }

    // ---- BAR master ----
    if (!bar_q_.empty()) {
        BarOp &op = bar_q_.front();
        bool done = false;
        unsigned resp = 0;
        uint32_t rdata = 0;
        if (op.kind != BarOp::Bar0Read) {
            const bool was_taken = op.aw_done && op.w_done;
            if (m->s_axi_bar_awvalid && m->s_axi_bar_awready) op.aw_done = true;
            if (m->s_axi_bar_wvalid && m->s_axi_bar_wready) op.w_done = true;
            if (!was_taken && op.aw_done && op.w_done && op.kind == BarOp::Doorbell)
                stats_.last_doorbell_cycle = stats_.cycles;
            if (m->s_axi_bar_bready && m->s_axi_bar_bvalid) {
                if (m->s_axi_bar_bid != op.id) bst_.bar_protocol_errors++;
                resp = m->s_axi_bar_bresp;
                done = true;
                bst_.bar_writes++;
            }
        } else {
            if (m->s_axi_bar_rready && m->s_axi_bar_rvalid) {
                if (m->s_axi_bar_rid != op.id || !m->s_axi_bar_rlast) bst_.bar_protocol_errors++;
                const unsigned lane = unsigned(op.addr & (kBusBytes - 1));
                rdata = m->s_axi_bar_rdata[lane / 4];   // dword-aligned: one word of the bus
                resp = m->s_axi_bar_rresp;
                done = true;
                bst_.bar_reads++;
            }
            if (m->s_axi_bar_arvalid && m->s_axi_bar_arready) op.ar_done = true;
        }
        if (done) {
            if (op.kind == BarOp::Doorbell) {
                stats_.doorbells++;
                doorbells_queued_--;
                if (resp != 0) {
                    stats_.doorbell_bresp_err++;
                    char buf[160];
                    std::snprintf(buf, sizeof buf, "doorbell at BAR2 + %#" PRIx64 " value %#" PRIx64 ": BRESP %u",
                                  op.addr - kBar2Base, op.wdata, resp);
                    db_error_ = buf;
                }
            } else {
                bar0_done_seq_ = op.seq;
                bar0_done_resp_ = resp;
                bar0_done_rdata_ = rdata;
            }
            bar_q_.pop_front();
        }
    }

    // ---- host memory, with the interrupt decode in front ----
    const bool awvalid = m->m_axi_dma_awvalid, wvalid = m->m_axi_dma_wvalid;
    const bool w_to_msi = !w_route_.empty() && w_route_.front();
    const bool w_to_mem = !w_route_.empty() && !w_route_.front();
    pins_.arvalid = m->m_axi_dma_arvalid;
    pins_.araddr = m->m_axi_dma_araddr;
    pins_.arlen = m->m_axi_dma_arlen;
    pins_.arsize = m->m_axi_dma_arsize;
    pins_.arburst = m->m_axi_dma_arburst;
    pins_.arid = m->m_axi_dma_arid;
    pins_.rready = m->m_axi_dma_rready;
    pins_.awvalid = awvalid && !aw_is_msi_;
    pins_.awaddr = m->m_axi_dma_awaddr;
    pins_.awlen = m->m_axi_dma_awlen;
    pins_.awsize = m->m_axi_dma_awsize;
    pins_.awburst = m->m_axi_dma_awburst;
    pins_.awid = m->m_axi_dma_awid;
    pins_.wvalid = wvalid && w_to_mem;
    if (wvalid) {
        for (unsigned w = 0; w < kBusBytes / 4; w++) {
            const uint32_t d = m->m_axi_dma_wdata[w];
            for (unsigned i = 0; i < 4; i++) pins_.wdata[4 * w + i] = uint8_t(d >> (8 * i));
        }
        pins_.wstrb = m->m_axi_dma_wstrb;
        pins_.wlast = m->m_axi_dma_wlast;
    }
    pins_.bready = b_owner_ == BOwner::Mem && m->m_axi_dma_bready;
    const bool mem_aw = pins_.awvalid && pins_.awready;
    const bool mem_w = pins_.wvalid && pins_.wready;
    const bool mem_b = pins_.bready && pins_.bvalid;
    mem_.clock(pins_);

    if (wvalid && w_to_msi) {
        MsiWrite &w = msi_aw_.front();
        if (w.beats == 0) {
            const unsigned lane = unsigned(w.addr & (kBusBytes - 1)) & ~3u;
            w.data = 0;
            for (unsigned i = 0; i < 4; i++) w.data |= uint32_t(pins_.wdata[lane + i]) << (8 * i);
            if ((w.addr & 3) || pins_.wstrb != (uint64_t(0xF) << lane)) w.ok = false;
        }
        w.beats++;
        if (m->m_axi_dma_wlast) {
            if (w.beats != w.len + 1) w.ok = false;
            msi_b_.push_back(w.id);
            const MsiWrite done = w;
            msi_aw_.pop_front();
            w_route_.pop_front();
            msi_complete(done);
        }
    } else if (mem_w && pins_.wlast) {
        w_route_.pop_front();
    }
    if (awvalid && aw_is_msi_) {
        MsiWrite w;
        w.addr = m->m_axi_dma_awaddr;
        w.id = m->m_axi_dma_awid;
        w.len = m->m_axi_dma_awlen;
        msi_aw_.push_back(w);
        w_route_.push_back(true);
        aw_pending_ = false;
    } else if (mem_aw) {
        w_route_.push_back(false);
        aw_pending_ = false;
        if (m->m_axi_dma_awid == kEmitterAwid) {
            bst_.stray_emitter_writes++;
            std::fprintf(stderr, "AlveoNic %s: the MSI-X emitter wrote to %#" PRIx64 ", no MSI-X table address\n",
                         cfg_.name.c_str(), uint64_t(m->m_axi_dma_awaddr));
        }
    } else {
        aw_pending_ = awvalid;
    }
    if (b_owner_ == BOwner::Msi && m->m_axi_dma_bready) {
        msi_b_.pop_front();
        b_owner_ = BOwner::None;
    } else if (b_owner_ == BOwner::Mem && mem_b) {
        b_owner_ = BOwner::None;
    }
}

bool AlveoNic::is_msi_addr(uint64_t a) const {
    for (const auto &e : msix_table_) {
        const uint64_t ea = uint64_t(e[1]) << 32 | e[0];
        if (ea != 0 && ea == a) return true;
    }
    return false;
}

void AlveoNic::msi_complete(const MsiWrite &w) {
    bst_.msi_writes++;
    if (!w.ok || w.id != kEmitterAwid) {
        bst_.msi_errors++;
        std::fprintf(stderr,
                     "AlveoNic %s: write to the MSI-X address %#" PRIx64 " with AWID %u, %u beat(s)%s: "
                     "not the emitter's 4-byte message\n",
                     cfg_.name.c_str(), w.addr, w.id, w.beats, w.ok ? "" : ", wrong strobes");
    }
    MsixMessage msg;
    msg.addr = w.addr;
    msg.data = w.data;
    for (unsigned v = 0; v < msix_table_.size(); v++) {
        const auto &e = msix_table_[v];
        if ((uint64_t(e[1]) << 32 | e[0]) == w.addr && e[2] == w.data) {
            msg.vector = v;
            break;
        }
    }
    msix_delivered(msg);
}

// ---- core_clk: the console, MSI-X counters, the transmit lane ------------------------------

void AlveoNic::drive_core() { impl_->top->core_rst = core_rst_left_ > 0; }

void AlveoNic::sample_core() {
    Vfpga_core *m = impl_->top.get();
    const Vfpga_core___024root *r = m->rootp;
    if (core_rst_left_) {   // in reset: registers may still hold their random start values
        core_rst_left_--;
        return;
    }
    if (r->fpga_core__DOT__fw_console_valid) console_byte(char(r->fpga_core__DOT__fw_console_data));
    if (r->fpga_core__DOT__msix_valid && r->fpga_core__DOT__msix_ready) bst_.core_msix_requests++;
    if (r->fpga_core__DOT__mx_sent_valid) bst_.emitter_sent++;
    if (!bst_.link_up_cycle && m->led_link) bst_.link_up_cycle = stats_.cycles;
    // the GT's transmit gearbox is aligned: one block per cycle
    const bool was_in = decoder_.in_frame();
    decoder_.push(baser::from_bus(m->serdes_tx_data, m->serdes_tx_hdr, kPcsBitReverse));
    if (!was_in && decoder_.in_frame()) stats_.last_tx_first_beat_cycle = stats_.cycles;
    std::vector<uint8_t> f;
    while (decoder_.pop(&f)) {
        stats_.tx_frames++;
        stats_.tx_bytes += f.size();
        tx_done_.push_back(std::move(f));
    }
}

// ---- rx_clk: the receive lane ------------------------------------------------------------

void AlveoNic::drive_rx() {
    Vfpga_core *m = impl_->top.get();
    m->rx_rst = rx_rst_left_ > 0;
    m->serdes_rx_data = gearbox_.data();
    m->serdes_rx_hdr = gearbox_.hdr();
}

void AlveoNic::sample_rx() {
    const uint64_t bytes0 = encoder_.stats().bytes;
    gearbox_.clock(encoder_.next(), impl_->top->serdes_rx_bitslip);
    if (const unsigned n = encoder_.frames_done_last()) {
        stats_.rx_frames += n;
        stats_.rx_bytes += encoder_.stats().bytes - bytes0;
        stats_.last_rx_last_beat_cycle = stats_.cycles;
    }
    bst_.rx_cycles++;
    if (rx_rst_left_) rx_rst_left_--;
}

// ---- BAR accesses ---------------------------------------------------------------------------

uint64_t AlveoNic::queue_bar(BarOp::Kind kind, uint64_t addr, unsigned size, uint64_t wdata) {
    BarOp op;
    op.kind = kind;
    op.seq = ++bar_seq_;
    op.addr = addr;
    op.size = size;
    op.wdata = wdata;
    op.id = next_id_;
    next_id_ = (next_id_ + 1) & 0xf;   // the XDMA's tags vary: IDs are checked on the way back
    bar_q_.push_back(op);
    return op.seq;
}

Status AlveoNic::bar0_access(bool write, uint32_t off, uint32_t wdata, uint32_t *rdata) {
    if (off & 3) return errorf("NIC %s: BAR0 offset %#x is not dword aligned", cfg_.name.c_str(), off);
    if (off >= FROCE_BAR0_SIZE) return errorf("NIC %s: BAR0 offset %#x beyond BAR0", cfg_.name.c_str(), off);
    if (write && off >= FROCE_BAR0_MSIX_TABLE_BASE && off < kTableEnd) {
        const uint32_t e = (off - FROCE_BAR0_MSIX_TABLE_BASE) / 16;
        msix_table_[e][(off / 4) & 3] = wdata;
    }
    const uint64_t seq = queue_bar(write ? BarOp::Bar0Write : BarOp::Bar0Read, kBar0Base + off, 4, wdata);
    const uint64_t start = cycle();
    // completions come in order: this one is done once the last done is at least it
    while (bar0_done_seq_ < seq) {
        if (cycle() - start >= cfg_.ctl_timeout)
            return errorf("NIC %s: BAR0 %s at %#x not answered within %" PRIu64 " cycles (cycle %" PRIu64 "; %s)",
                          cfg_.name.c_str(), write ? "write" : "read", off, cfg_.ctl_timeout, cycle(),
                          port_state().c_str());
        advance();
    }
    if (bar0_done_seq_ != seq)
        return errorf("NIC %s: BAR0 %s at %#x: completions out of order", cfg_.name.c_str(), write ? "write" : "read",
                      off);
    if (write) stats_.bar0_writes++;
    else stats_.bar0_reads++;
    if (rdata) *rdata = bar0_done_rdata_;
    if (bar0_done_resp_ != 0)
        return errorf("NIC %s: BAR0 %s at %#x: response %u", cfg_.name.c_str(), write ? "write" : "read", off,
                      bar0_done_resp_);
    return Status();
}

Status AlveoNic::bar0_write32(uint32_t off, uint32_t v) { return bar0_access(true, off, v, nullptr); }

Status AlveoNic::bar0_read32(uint32_t off, uint32_t *v) {
    if (!v) return errorf("NIC %s: bar0_read32: null output", cfg_.name.c_str());
    return bar0_access(false, off, 0, v);
}

Status AlveoNic::doorbell(uint32_t uar_page, uint32_t slot, uint64_t value) {
    if (uar_page >= kNumUars)
        return errorf("NIC %s: doorbell: UAR page %u beyond the %u pages", cfg_.name.c_str(), uar_page, kNumUars);
    if (slot >= FROCE_UAR_DB_SLOTS)
        return errorf("NIC %s: doorbell: slot %u beyond the %u slots of a UAR page", cfg_.name.c_str(), slot,
                      unsigned(FROCE_UAR_DB_SLOTS));
    queue_bar(BarOp::Doorbell, kBar2Base + (uint64_t(uar_page) << FROCE_UAR_PAGE_SHIFT) + uint64_t(slot) * 8, 8,
              value);
    doorbells_queued_++;
    return Status();
}

Status AlveoNic::wait_doorbells(uint64_t max_cycles) {
    uint64_t n = 0;
    while (doorbells_queued_) {
        if (n++ >= max_cycles)
            return errorf("NIC %s: %zu doorbell(s) not accepted within %" PRIu64 " cycles (%s)", cfg_.name.c_str(),
                          doorbells_queued_, max_cycles, port_state().c_str());
        advance();
    }
    if (!db_error_.empty()) {
        Status s = errorf("NIC %s: %s", cfg_.name.c_str(), db_error_.c_str());
        db_error_.clear();
        return s;
    }
    return Status();
}

// ---- introspection ------------------------------------------------------------------------------

uint64_t AlveoNic::fw_instret() const {
    return impl_->top->rootp->fpga_core__DOT__u_core__DOT__fw__DOT__u_cpu__DOT__minstret_reg;
}

bool AlveoNic::link_up() const { return impl_->top->led_link; }

std::string AlveoNic::mac_counters() const {
    const Vfpga_core___024root *r = impl_->top->rootp;
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "mac tx %u (underrun %u), rx ok %u, bad fcs %u, runt %u, bad preamble %u; pcs block errors %u, "
                  "lock losses %u; rx fifo dropped %u full, %u bad",
                  unsigned(r->fpga_core__DOT__tx_frames), unsigned(r->fpga_core__DOT__tx_underrun),
                  unsigned(r->fpga_core__DOT__rx_frames_ok), unsigned(r->fpga_core__DOT__rx_bad_fcs),
                  unsigned(r->fpga_core__DOT__rx_runt), unsigned(r->fpga_core__DOT__rx_bad_preamble),
                  unsigned(r->fpga_core__DOT__pcs_block_errors), unsigned(r->fpga_core__DOT__pcs_lock_losses),
                  unsigned(r->fpga_core__DOT__rx_fifo_full_dropped), unsigned(r->fpga_core__DOT__rx_fifo_bad_dropped));
    return buf;
}

std::string AlveoNic::port_state() const {
    char buf[768];
    std::snprintf(buf, sizeof buf,
                  "NIC %s (alveo) cycle %" PRIu64 ": link %s (block lock %d, gearbox at bit %u after %" PRIu64
                  " slips); BAR transactions queued %zu (doorbells %zu); rx frames queued %zu; tx frames %" PRIu64
                  "; rx frames %" PRIu64 "; dma ar %" PRIu64 " aw %" PRIu64 " bursts; msix requests %" PRIu64
                  ", sent by the emitter %" PRIu64 ", delivered %" PRIu64,
                  cfg_.name.c_str(), stats_.cycles, link_up() ? "up" : "down",
                  int(impl_->top->rootp->fpga_core__DOT__pcs_block_lock), gearbox_.pos(), gearbox_.slips(),
                  bar_q_.size(), doorbells_queued_, encoder_.frames_pending(), stats_.tx_frames, stats_.rx_frames,
                  mem_.stats().ar_bursts, mem_.stats().aw_bursts, bst_.core_msix_requests, bst_.emitter_sent,
                  stats_.msix);
    return buf;
}

std::string AlveoNic::extra_stats() const {
    const baser::DecoderStats &d = decoder_.stats();
    char buf[768];
    std::snprintf(buf, sizeof buf,
                  "board alveo: link up at cycle %" PRIu64 " (%" PRIu64 " slips), BAR transactions %" PRIu64
                  " writes %" PRIu64 " reads (protocol errors %" PRIu64 "), MSI-X requests %" PRIu64
                  " emitted %" PRIu64 " taken as interrupts %" PRIu64 " (errors %" PRIu64 ", stray emitter writes %" PRIu64
                  "), lane out: frames %" PRIu64 ", bad sync %" PRIu64 " bad blocks %" PRIu64 " sequence %" PRIu64
                  " bad fcs %" PRIu64 ", %s",
                  bst_.link_up_cycle, gearbox_.slips(), bst_.bar_writes, bst_.bar_reads, bst_.bar_protocol_errors,
                  bst_.core_msix_requests, bst_.emitter_sent, bst_.msi_writes, bst_.msi_errors,
                  bst_.stray_emitter_writes, d.frames, d.bad_sync, d.bad_block, d.sequence, d.bad_fcs,
                  mac_counters().c_str());
    return buf;
}

}  // namespace froce_sim
