// SPDX-License-Identifier: MIT
// One simulated froce NIC: the Verilated froce_core (DATA_WIDTH 64), its host
// memory (froce_sim::AxiMem) and the drivers for every other port of the core:
// the internal control bus, the BAR2 doorbell window (AXI4-Lite writes), the
// Ethernet ports and the MSI-X request port.
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
#include "status.h"

namespace froce_sim {

struct NicConfig {
    std::string name = "A";          // in messages
    uint64_t seed = 1;               // X-initialisation, back-pressure
    AxiMemConfig mem;                // host memory (data_bytes is forced to 8)
    unsigned tx_ready_pct = 100;     // % of cycles m_eth_tx_tready is high (outside the gap)
    unsigned tx_gap = 3;             // cycles tready stays low after a frame's last beat
                                     // (preamble + FCS + IFG = 24 bytes = 3 beats at 10G)
    unsigned rx_gap = 0;             // idle cycles between frames into s_eth_rx
    uint64_t ctl_timeout = 200000;   // cycles a BAR0 access may wait for its response
    bool fw_console = true;          // print the firmware's console lines on stderr ("fw NAME: ...")
    int x_init = 2;                  // Verilator randReset: 0 zeros, 1 ones, 2 random (seeded)
    unsigned reset_cycles = 16;
};

struct NicStats {
    uint64_t cycles = 0;
    uint64_t tx_frames = 0, tx_bytes = 0, rx_frames = 0, rx_bytes = 0;
    uint64_t console_bytes = 0;      // bytes the firmware wrote to its console
    uint64_t doorbells = 0, doorbell_bresp_err = 0;
    uint64_t bar0_writes = 0, bar0_reads = 0;
    uint64_t msix = 0;                   // MSI-X requests taken (valid && ready)
    std::vector<uint64_t> msix_per_vector = std::vector<uint64_t>(32, 0);
    // the message of the last MSI-X per vector: the core's m_msix_addr/data
    std::vector<uint64_t> msix_last_addr = std::vector<uint64_t>(32, 0);
    std::vector<uint32_t> msix_last_data = std::vector<uint32_t>(32, 0);
    uint64_t tx_keep_errors = 0;     // TX beats with a tkeep that is not 1..1 from bit 0
    // cycles of the latest events, for latency breakdowns
    uint64_t last_doorbell_cycle = 0;       // a doorbell write accepted (AW and W taken)
    uint64_t last_tx_first_beat_cycle = 0;  // first beat of a frame taken on Ethernet TX
    uint64_t last_rx_last_beat_cycle = 0;   // last beat of a frame taken on Ethernet RX
};

struct Doorbell {
    uint32_t page = 0;   // UAR page
    uint32_t slot = 0;   // 8-byte slot in the page
    uint64_t value = 0;
};

class Nic {
public:
    // Geometry of the build (froce_core defaults).
    static constexpr unsigned kNumUars = 256;
    static constexpr unsigned kDataBytes = 8;

    explicit Nic(const NicConfig &cfg);
    ~Nic();
    Nic(const Nic &) = delete;
    Nic &operator=(const Nic &) = delete;

    const NicConfig &config() const { return cfg_; }
    const std::string &name() const { return cfg_.name; }

    // rst high for cfg.reset_cycles cycles, every input idle; host memory untouched.
    void reset();
    // One clock cycle of this NIC only.
    void tick();
    uint64_t cycle() const { return stats_.cycles; }

    // What the blocking calls below (bar0_*, wait_doorbells) use to let time
    // pass. Default: tick() this NIC. froce-sim installs its lockstep step so
    // that the other NIC and the wires advance too.
    void set_stepper(std::function<void()> f) { stepper_ = std::move(f); }
    void advance() {
        if (stepper_) stepper_();
        else tick();
    }

    // ---- BAR0 registers (AXI4-Lite, 32-bit; blocking; byte offsets in the
    // BAR0 map, FROCE_REG_* / FROCE_BAR0_*; waits at most ctl_timeout cycles).
    // A non-OKAY response is an error. ----
    Status bar0_write32(uint32_t off, uint32_t v);
    Status bar0_read32(uint32_t off, uint32_t *v);

    // ---- BAR2 doorbells (queued, written in order by the AXI4-Lite master) ----
    Status doorbell(uint32_t uar_page, uint32_t slot, uint64_t value);
    size_t doorbells_pending() const { return db_q_.size(); }
    // Waits (advance()) until every queued doorbell got its B response.
    Status wait_doorbells(uint64_t max_cycles);

    // ---- Ethernet ----
    void rx_push(std::vector<uint8_t> frame) { rx_q_.push_back(std::move(frame)); }
    size_t rx_pending() const { return rx_q_.size(); }   // frames not fully taken yet
    bool tx_pop(std::vector<uint8_t> *frame);            // next complete frame sent
    bool tx_busy() const { return !tx_cur_.empty(); }    // a frame is half-way out

    // ---- MSI-X ----
    // Called from tick() for every request the core hands over (valid &&
    // ready), with its vector: where a platform delivers the interrupt.
    void set_msix_hook(std::function<void(unsigned vector)> f) { msix_hook_ = std::move(f); }

    // ---- host memory ----
    AxiMem &mem() { return mem_; }
    const AxiMem &mem() const { return mem_; }

    const NicStats &stats() const { return stats_; }
    // Instructions the soft core retired (its minstret; a simulation-only
    // read, sim/core/froce_core.vlt): CPI of firmware work over cycle().
    uint64_t fw_instret() const;
    // The firmware's last console lines (at most 64), oldest first: for error messages.
    const std::deque<std::string> &console_log() const { return console_log_; }
    // One line on the state of the ports, for timeout messages.
    std::string port_state() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    NicConfig cfg_;
    AxiMem mem_;
    AxiMemPins pins_;
    std::function<void()> stepper_;
    std::function<void(unsigned)> msix_hook_;
    NicStats stats_;
    std::mt19937_64 rng_;

    // firmware console: the line being received, the last lines received
    std::string console_line_;
    std::deque<std::string> console_log_;
    void console_byte(char c);

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
    std::deque<std::vector<uint8_t>> tx_done_;
    unsigned tx_gap_left_ = 0;
};

}  // namespace froce_sim
