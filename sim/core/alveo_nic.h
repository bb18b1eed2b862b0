// SPDX-License-Identifier: MIT
// AlveoNic: the Alveo U200 board core (fpga/alveo_u200/rtl/fpga_core.v,
// Verilated with its own parameters: froce_core's default table sizes) as a
// NicModel, with models of what fpga.v puts around it:
//
//   XDMA, AXI Bridge mode   BAR0/BAR2 accesses as 256-bit single-beat AXI4
//                           transactions on s_axi_bar_* (BAR0 at kBar0Base,
//                           BAR2 at kBar2Base, 4-byte accesses with AxSIZE 2,
//                           8-byte doorbells whole with AxSIZE 5 and 8
//                           strobes), one at a time and in order (PCIe
//                           ordering: a read waits for the writes before it);
//                           m_axi_dma_* served by host memory at 256 bits
//                           (AxiMem); MSI-X Enable and Function Mask inputs
//   the root complex        a write on m_axi_dma_* to an address of the MSI-X
//                           table (snooped from this model's own BAR0 writes)
//                           is an interrupt: it is taken here, never written
//                           to memory, and delivered through the MSI-X hooks
//                           with its address and data
//   the GTY lane            a 10GBASE-R line (baser.h): frames to the RTL are
//                           encoded into scrambled 64B/66B blocks and reach
//                           serdes_rx_* through a gearbox window that honours
//                           serdes_rx_bitslip (the PCS finds block lock
//                           itself, from a seeded bit offset); serdes_tx_* is
//                           decoded back into frames (FCS checked, stripped)
//
// Clocks, stepped by simulated time in picoseconds, each rising edge
// evaluated when it happens: pcie_clk 250 MHz, core_clk 156.25 MHz, rx_clk
// 156.25 MHz (the lane's recovered clock) with a phase offset to core_clk.
// Each reset is synchronous to its clock. tick() runs until the next
// core_clk edge: cycle() counts core cycles, as Nic's does.
//
// At every edge time: with all clocks low, the inputs of the domains whose
// clock rises are set, the model is evaluated, the outputs of those domains
// sampled (handshakes), then those clocks rise and the model is evaluated.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "baser.h"
#include "nic_model.h"

namespace froce_sim {

struct AlveoConfig {
    uint64_t rx_phase_ps = 2700;     // rx_clk's edges this long after core_clk's (0..6399)
    int lane_start_pos = -1;         // receive gearbox's initial bit offset 0..66; -1: seeded random
    unsigned slip_latency = 4;       // cycles from serdes_rx_bitslip to the moved window
    // MSI-X capability state until set_msix_state() (standalone use: enabled)
    bool msix_enable = true, msix_function_mask = false;
};

struct AlveoStats {
    uint64_t pcie_cycles = 0, rx_cycles = 0;
    uint64_t bar_writes = 0, bar_reads = 0;        // AXI transactions on s_axi_bar_*
    uint64_t bar_protocol_errors = 0;              // BID/RID not the request's, RLAST missing
    uint64_t core_msix_requests = 0;               // froce_core's m_msix valid && ready
    uint64_t emitter_sent = 0;                     // the emitter's sent_valid pulses
    uint64_t msi_writes = 0;                       // writes taken as interrupts
    uint64_t msi_errors = 0;                       // such writes not from the emitter, not 4 bytes in one beat
    uint64_t stray_emitter_writes = 0;             // emitter writes (AWID 8) to a non-MSI address (went to memory)
    uint64_t link_up_cycle = 0;                    // first core cycle with led_link (0: never)
};

class AlveoNic final : public NicModel {
public:
    // The build's geometry (fpga_core's parameter defaults, sim/core/Makefile).
    static constexpr unsigned kNumUars = 256;
    static constexpr unsigned kBusBytes = 32;          // XDMA AXI data width
    static constexpr uint64_t kBar0Base = 0x0;         // fpga_core BAR0_BASE
    static constexpr uint64_t kBar2Base = 0x100000;    // fpga_core BAR2_BASE
    static constexpr uint32_t kEmitterAwid = 0x8;      // fpga_core MSIX_AXI_ID
    static constexpr bool kPcsBitReverse = true;       // fpga_core PCS_BIT_REVERSE
    static constexpr uint64_t kPciePs = 4000, kCorePs = 6400, kRxPs = 6400;

    explicit AlveoNic(const NicConfig &cfg, const AlveoConfig &board = AlveoConfig());
    ~AlveoNic() override;

    const char *board() const override { return "alveo"; }
    void reset() override;
    void tick() override;

    Status bar0_write32(uint32_t off, uint32_t v) override;
    Status bar0_read32(uint32_t off, uint32_t *v) override;
    Status doorbell(uint32_t uar_page, uint32_t slot, uint64_t value) override;
    size_t doorbells_pending() const override { return doorbells_queued_; }
    Status wait_doorbells(uint64_t max_cycles) override;

    void rx_push(std::vector<uint8_t> frame) override { encoder_.push(frame); }
    size_t rx_pending() const override { return encoder_.frames_pending(); }
    bool tx_busy() const override { return decoder_.in_frame(); }

    bool sends_msix_messages() const override { return true; }
    void set_msix_state(bool enable, bool function_mask) override {
        msix_enable_ = enable;
        msix_mask_ = function_mask;
    }

    uint64_t fw_instret() const override;
    std::string port_state() const override;
    std::string extra_stats() const override;

    const AlveoStats &board_stats() const { return bst_; }
    const baser::EncoderStats &lane_rx_stats() const { return encoder_.stats(); }
    const baser::DecoderStats &lane_tx_stats() const { return decoder_.stats(); }
    uint64_t lane_slips() const { return gearbox_.slips(); }
    bool link_up() const;
    // The MAC's and RX FIFO's counters (fpga_core; read through Verilator).
    std::string mac_counters() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    AlveoConfig bcfg_;
    AlveoStats bst_;

    // clocks: the next rising edge of each, in ps
    uint64_t t_pcie_ = 0, t_core_ = 0, t_rx_ = 0;
    unsigned pcie_rst_left_ = 0, core_rst_left_ = 0, rx_rst_left_ = 0;
    bool core_edge();   // one edge time; true if core_clk rose

    void drive_pcie();
    void sample_pcie();
    void drive_core();
    void sample_core();
    void drive_rx();
    void sample_rx();

    // ---- the XDMA's BAR master: one transaction at a time, in order ----
    struct BarOp {
        enum Kind { Bar0Read, Bar0Write, Doorbell } kind = Bar0Read;
        uint64_t seq = 0;
        uint64_t addr = 0;       // AXI address
        unsigned size = 4;       // bytes
        uint64_t wdata = 0;
        uint8_t id = 0;
        bool aw_done = false, w_done = false, ar_done = false;
    };
    std::deque<BarOp> bar_q_;
    uint64_t bar_seq_ = 0;
    uint8_t next_id_ = 0;
    size_t doorbells_queued_ = 0;
    // the last completed BAR0 access
    uint64_t bar0_done_seq_ = 0;
    unsigned bar0_done_resp_ = 0;
    uint32_t bar0_done_rdata_ = 0;
    std::string db_error_;
    uint64_t queue_bar(BarOp::Kind kind, uint64_t addr, unsigned size, uint64_t wdata);
    Status bar0_access(bool write, uint32_t off, uint32_t wdata, uint32_t *rdata);

    // ---- host memory and the interrupt decode on m_axi_dma_* ----
    AxiMemPins pins_;
    struct MsiWrite {
        uint64_t addr = 0;
        uint32_t id = 0;
        unsigned len = 0, beats = 0;
        uint32_t data = 0;
        bool ok = true;
    };
    std::deque<bool> w_route_;            // accepted AWs whose W beats are still due: true = interrupt
    std::deque<MsiWrite> msi_aw_;         // interrupt writes waiting for their W beats
    std::deque<uint32_t> msi_b_;          // their B responses (IDs) still to give
    enum class BOwner { None, Mem, Msi } b_owner_ = BOwner::None;
    bool aw_is_msi_ = false;              // this cycle's AW goes to the interrupt decode
    bool aw_pending_ = false;             // an AW shown and not taken: its decode is kept
    bool is_msi_addr(uint64_t a) const;
    void msi_complete(const MsiWrite &w);

    // MSI-X table shadow: address low, address high, data, control per vector
    std::array<std::array<uint32_t, 4>, 32> msix_table_{};
    bool msix_enable_, msix_mask_;

    // ---- the lane ----
    baser::BlockEncoder encoder_;    // frames to the board (serdes_rx_*)
    baser::RxGearbox gearbox_;
    baser::BlockDecoder decoder_;    // serdes_tx_* to frames
    bool decoder_started_ = false;
};

}  // namespace froce_sim
