// SPDX-License-Identifier: MIT
// One simulated froce NIC (a NicModel, nic_model.h): the Verilated bare
// froce_core (DATA_WIDTH 64), its host memory (froce_sim::AxiMem) and the
// drivers for every other port of the core: the internal control bus, the
// BAR2 doorbell window (AXI4-Lite writes), the Ethernet ports and the MSI-X
// request port.
//
// Clocking (the protocol of tests/rtl/dma/tb_dma.cpp): tick() sets every input
// of the core for this cycle with the clock low (memory slave outputs from
// AxiMem::drive, control bus, doorbell write, Ethernet RX beat, ready signals),
// evaluates, samples the outputs and the handshakes of the cycle, lets the
// memory model sample its handshakes (AxiMem::clock), then raises and lowers
// the clock.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "axi_mem.h"
#include "nic_model.h"
#include "status.h"

namespace froce_sim {

class Nic final : public NicModel {
public:
    // Geometry of the build (froce_core defaults).
    static constexpr unsigned kNumUars = 256;
    static constexpr unsigned kDataBytes = 8;

    explicit Nic(const NicConfig &cfg);
    ~Nic() override;

    const char *board() const override { return "core"; }

    // rst high for cfg.reset_cycles cycles, every input idle; host memory untouched.
    void reset() override;
    // One clock cycle of this NIC only.
    void tick() override;

    // ---- BAR0 registers (AXI4-Lite, 32-bit; blocking; see NicModel) ----
    Status bar0_write32(uint32_t off, uint32_t v) override;
    Status bar0_read32(uint32_t off, uint32_t *v) override;

    // ---- BAR2 doorbells (queued, written in order by the AXI4-Lite master) ----
    Status doorbell(uint32_t uar_page, uint32_t slot, uint64_t value) override;
    size_t doorbells_pending() const override { return db_q_.size(); }
    // Waits (advance()) until every queued doorbell got its B response.
    Status wait_doorbells(uint64_t max_cycles) override;

    // ---- Ethernet ----
    void rx_push(std::vector<uint8_t> frame) override { rx_q_.push_back(std::move(frame)); }
    size_t rx_pending() const override { return rx_q_.size(); }   // frames not fully taken yet
    bool tx_busy() const override { return !tx_cur_.empty(); }    // a frame is half-way out

    // ---- MSI-X: every request the core hands over (valid && ready) goes to
    // the hooks, with the core's m_msix_addr/data (NicModel) ----

    // Instructions the soft core retired (its minstret; a simulation-only
    // read, sim/core/froce_core.vlt): CPI of firmware work over cycle().
    uint64_t fw_instret() const override;
    // One line on the state of the ports, for timeout messages.
    std::string port_state() const override;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    AxiMemPins pins_;
    std::mt19937_64 rng_;

    // BAR0 master: one access at a time
    struct Bar0Access {
        bool active = false, is_write = false, aw_done = false, w_done = false, ar_done = false, done = false;
        uint32_t addr = 0, wdata = 0, rdata = 0;
        unsigned resp = 0;
    } bar0_;
    Status bar0_access(bool write, uint32_t off, uint32_t wdata, uint32_t *rdata);

    // doorbell master
    std::deque<Doorbell> db_q_;
    bool db_aw_done_ = false, db_w_done_ = false;
    std::string db_error_;

    // Ethernet
    std::deque<std::vector<uint8_t>> rx_q_;
    size_t rx_off_ = 0;
    unsigned rx_gap_left_ = 0;
    std::vector<uint8_t> tx_cur_;
    unsigned tx_gap_left_ = 0;
};

}  // namespace froce_sim
