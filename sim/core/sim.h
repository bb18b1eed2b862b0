// SPDX-License-Identifier: MIT
// froce-sim: two NICs, A and B, joined by two froce::Wire instances (A->B and
// B->A), each with its own FaultConfig, and an optional shared pcap tap (both
// directions in one file, timestamps at the modelled 156.25 MHz clock).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "nic.h"
#include "status.h"
#include "wire.h"

namespace froce_sim {

constexpr double kClockMHz = 156.25;
constexpr double kNsPerCycle = 1000.0 / kClockMHz;   // 6.4 ns

struct SimConfig {
    NicConfig a, b;                    // names default to "A" and "B"
    froce::FaultConfig a_to_b, b_to_a;
    std::string pcap;                  // "" = no capture
    SimConfig() {
        a.name = "A";
        b.name = "B";
        b.seed = 2;
        b_to_a.seed = 2;
    }
};

struct SimStats {
    uint64_t cycles = 0;
    froce::WireStats a_to_b, b_to_a;
    uint64_t cut_a_to_b = 0, cut_b_to_a = 0;   // frames lost to set_cut
};

// Sees every frame a NIC sends (dir 0: A->B, 1: B->A), before the cut and the wire.
using FrameHook = std::function<void(int dir, const std::vector<uint8_t> &frame, uint64_t cycle)>;
// Decides, for every frame a NIC sends, whether it is lost (true) before it
// reaches the wire: a chosen packet or NAK, not a random one.
using DropFilter = std::function<bool(int dir, const std::vector<uint8_t> &frame)>;

class Sim {
public:
    explicit Sim(const SimConfig &cfg);
    Sim(const Sim &) = delete;
    Sim &operator=(const Sim &) = delete;

    // Checks the fault configurations and the pcap file; call once after construction.
    Status init_status() const { return init_; }

    Nic &a() { return *a_; }
    Nic &b() { return *b_; }
    Nic &nic(int i) { return i == 0 ? *a_ : *b_; }

    // Advances both NICs and both wires by n cycles in lockstep. Blocking
    // calls on either NIC (ctl_*, wait_doorbells) step the whole simulation.
    void step(uint64_t n = 1);
    uint64_t cycle() const { return cycle_; }

    // Releases frames held back for reordering on both wires.
    void flush_wires();
    // Frames on the wires or queued into / half-way out of a NIC.
    bool link_idle() const;

    SimStats stats() const;
    std::string stats_line() const;

    // A cut direction loses every frame its NIC sends from now on (a peer
    // that stops answering); frames already on the wire still arrive. Off by
    // default; the wires' fault injectors are not involved.
    void set_cut(bool a_to_b, bool b_to_a) {
        cut_ab_ = a_to_b;
        cut_ba_ = b_to_a;
    }
    void set_frame_hook(FrameHook f) { hook_ = std::move(f); }
    // Frames the filter picks are lost (counted with the cut ones).
    void set_drop_filter(DropFilter f) { drop_ = std::move(f); }

private:
    SimConfig cfg_;
    Status init_;
    std::unique_ptr<froce::PcapTap> tap_;
    std::unique_ptr<froce::Wire> ab_, ba_;
    std::unique_ptr<Nic> a_, b_;
    uint64_t cycle_ = 0;
    bool cut_ab_ = false, cut_ba_ = false;
    uint64_t cut_ab_n_ = 0, cut_ba_n_ = 0;
    FrameHook hook_;
    DropFilter drop_;
};

}  // namespace froce_sim
