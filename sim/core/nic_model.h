// SPDX-License-Identifier: MIT
// A simulated froce NIC as a platform sees it: BAR0 registers, BAR2
// doorbells, DMA into host memory (an AxiMem), Ethernet frames and MSI-X
// interrupts. Two implementations:
//
//   Nic       (nic.h)        the Verilated bare froce_core, its ports driven
//                            directly (64-bit AXI, AXI-Lite, AXI-Stream,
//                            the m_msix_* request port)
//   AlveoNic  (alveo_nic.h)  the Verilated Alveo U200 board core around it
//                            (fpga/alveo_u200/rtl/fpga_core.v): BAR accesses
//                            as the XDMA bridge makes them, 256-bit DMA,
//                            MSI-X messages written by the board's emitter,
//                            Ethernet through the MAC, the PCS and a
//                            10GBASE-R lane model
//
// cycle() counts cycles of the core clock (156.25 MHz) in both.
#pragma once

#include <cstdint>
#include <cstdio>
#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "axi_mem.h"
#include "status.h"

namespace froce_sim {

struct NicConfig {
    std::string name = "A";          // in messages
    uint64_t seed = 1;               // X-initialisation, back-pressure
    AxiMemConfig mem;                // host memory (data_bytes is forced to the model's DMA bus width)
    unsigned tx_ready_pct = 100;     // bare core: % of cycles m_eth_tx_tready is high (outside the gap)
    unsigned tx_gap = 3;             // bare core: cycles tready stays low after a frame's last beat
                                     // (preamble + FCS + IFG = 24 bytes = 3 beats at 10G)
    unsigned rx_gap = 0;             // bare core: idle cycles between frames into s_eth_rx
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
    uint64_t msix = 0;                   // MSI-X interrupts delivered to the platform
    std::vector<uint64_t> msix_per_vector = std::vector<uint64_t>(32, 0);
    // the message of the last MSI-X per vector
    std::vector<uint64_t> msix_last_addr = std::vector<uint64_t>(32, 0);
    std::vector<uint32_t> msix_last_data = std::vector<uint32_t>(32, 0);
    uint64_t tx_keep_errors = 0;     // bare core: TX beats with a tkeep that is not 1..1 from bit 0
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

// One MSI-X interrupt as it reaches the platform.
struct MsixMessage {
    static constexpr unsigned kNoVector = ~0u;
    unsigned vector = kNoVector;     // the table entry it came from (kNoVector: none matches)
    uint64_t addr = 0;               // the message (for the bare core: the core's m_msix_addr/data)
    uint32_t data = 0;
};

class NicModel {
public:
    virtual ~NicModel() = default;
    NicModel(const NicModel &) = delete;
    NicModel &operator=(const NicModel &) = delete;

    const NicConfig &config() const { return cfg_; }
    const std::string &name() const { return cfg_.name; }
    // "core" or "alveo"
    virtual const char *board() const = 0;

    // Resets every clock domain of the model (inputs idle); host memory untouched.
    virtual void reset() = 0;
    // One core-clock cycle of this NIC only.
    virtual void tick() = 0;
    uint64_t cycle() const { return stats_.cycles; }

    // What the blocking calls below (bar0_*, wait_doorbells) use to let time
    // pass. Default: tick() this NIC. A simulation of several NICs installs
    // its lockstep step so that the others and the wires advance too.
    void set_stepper(std::function<void()> f) { stepper_ = std::move(f); }
    void advance() {
        if (stepper_) stepper_();
        else tick();
    }

    // ---- BAR0 registers (32-bit; blocking; byte offsets in the BAR0 map,
    // FROCE_REG_* / FROCE_BAR0_*; waits at most ctl_timeout cycles). A
    // non-OKAY response is an error. ----
    virtual Status bar0_write32(uint32_t off, uint32_t v) = 0;
    virtual Status bar0_read32(uint32_t off, uint32_t *v) = 0;

    // ---- BAR2 doorbells (queued, written in order) ----
    virtual Status doorbell(uint32_t uar_page, uint32_t slot, uint64_t value) = 0;
    virtual size_t doorbells_pending() const = 0;
    // Waits (advance()) until every queued doorbell got its response.
    virtual Status wait_doorbells(uint64_t max_cycles) = 0;

    // ---- Ethernet: frames without preamble and FCS ----
    virtual void rx_push(std::vector<uint8_t> frame) = 0;
    virtual size_t rx_pending() const = 0;               // frames not fully taken yet
    bool tx_pop(std::vector<uint8_t> *frame) {           // next complete frame sent
        if (tx_done_.empty()) return false;
        *frame = std::move(tx_done_.front());
        tx_done_.pop_front();
        return true;
    }
    virtual bool tx_busy() const = 0;                    // a frame is half-way out

    // ---- MSI-X ----
    // Called from tick() for every interrupt, where a platform delivers it:
    // with its vector, or with the whole message.
    void set_msix_hook(std::function<void(unsigned vector)> f) { msix_hook_ = std::move(f); }
    void set_msix_message_hook(std::function<void(const MsixMessage &)> f) { msix_msg_hook_ = std::move(f); }
    // true: the device writes the message itself and applies MSI-X Enable,
    // the Function Mask and the vector masks (the board's emitter); the
    // platform delivers what arrives. false: the hook gets the core's
    // requests (vector masks applied); composing the message, Enable and
    // the Function Mask are the platform's.
    virtual bool sends_msix_messages() const { return false; }
    // The MSI-X capability's Enable and Function Mask as the host set them
    // (a model with an input for them; the bare core has none).
    virtual void set_msix_state(bool enable, bool function_mask) {
        (void)enable;
        (void)function_mask;
    }

    // ---- host memory ----
    AxiMem &mem() { return mem_; }
    const AxiMem &mem() const { return mem_; }

    const NicStats &stats() const { return stats_; }
    // Instructions the soft core retired (its minstret; a simulation-only read).
    virtual uint64_t fw_instret() const = 0;
    // The firmware's last console lines (at most 64), oldest first: for error messages.
    const std::deque<std::string> &console_log() const { return console_log_; }
    // One line on the state of the ports, for timeout messages.
    virtual std::string port_state() const = 0;
    // The model's own statistics for a summary line ("" if none).
    virtual std::string extra_stats() const { return std::string(); }

protected:
    NicModel(const NicConfig &cfg, unsigned dma_data_bytes)
        : cfg_(cfg), mem_([&] {
              AxiMemConfig m = cfg.mem;
              m.data_bytes = dma_data_bytes;
              return m;
          }()) {}

    // A byte of the firmware's console.
    void console_byte(char c) {
        stats_.console_bytes++;
        if (c == '\r') return;
        if (c != '\n' && console_line_.size() < 400) {
            console_line_ += c;
            return;
        }
        console_log_.push_back(console_line_);
        if (console_log_.size() > 64) console_log_.pop_front();
        if (cfg_.fw_console) std::fprintf(stderr, "fw %s: %s\n", cfg_.name.c_str(), console_line_.c_str());
        console_line_.clear();
    }
    // An interrupt reached the platform: statistics and the hooks.
    void msix_delivered(const MsixMessage &m) {
        stats_.msix++;
        if (m.vector < stats_.msix_per_vector.size()) {
            stats_.msix_per_vector[m.vector]++;
            stats_.msix_last_addr[m.vector] = m.addr;
            stats_.msix_last_data[m.vector] = m.data;
        }
        if (msix_msg_hook_) msix_msg_hook_(m);
        if (msix_hook_ && m.vector != MsixMessage::kNoVector) msix_hook_(m.vector);
    }

    NicConfig cfg_;
    AxiMem mem_;
    NicStats stats_;
    std::function<void()> stepper_;
    std::string console_line_;                   // the line being received
    std::deque<std::string> console_log_;        // the last lines received
    std::deque<std::vector<uint8_t>> tx_done_;   // frames sent, not yet popped

private:
    std::function<void(unsigned)> msix_hook_;
    std::function<void(const MsixMessage &)> msix_msg_hook_;
};

}  // namespace froce_sim
