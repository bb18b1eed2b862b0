// SPDX-License-Identifier: MIT
// froce-sim: two NICs and two wires in lockstep; see sim.h.
#include "sim.h"

#include <cinttypes>
#include <cstdio>

namespace froce_sim {

Sim::Sim(const SimConfig &cfg) : cfg_(cfg) {
    std::string e = cfg_.a_to_b.check();
    if (!e.empty()) init_ = errorf("wire A->B: %s", e.c_str());
    e = cfg_.b_to_a.check();
    if (!e.empty() && init_.ok()) init_ = errorf("wire B->A: %s", e.c_str());
    if (!cfg_.pcap.empty()) {
        tap_ = std::make_unique<froce::PcapTap>(cfg_.pcap, kNsPerCycle);
        if (!tap_->ok() && init_.ok()) init_ = errorf("pcap %s: cannot write", cfg_.pcap.c_str());
    }
    ab_ = std::make_unique<froce::Wire>(cfg_.a_to_b, tap_.get());
    ba_ = std::make_unique<froce::Wire>(cfg_.b_to_a, tap_.get());
    a_ = std::make_unique<Nic>(cfg_.a);
    b_ = std::make_unique<Nic>(cfg_.b);
    a_->set_stepper([this] { step(1); });
    b_->set_stepper([this] { step(1); });
}

void Sim::step(uint64_t n) {
    for (uint64_t i = 0; i < n; i++) {
        a_->tick();
        b_->tick();
        std::vector<uint8_t> f;
        while (a_->tx_pop(&f)) {
            if (hook_) hook_(0, f, cycle_);
            if (cut_ab_ || (drop_ && drop_(0, f))) cut_ab_n_++;
            else ab_->send(std::move(f), cycle_);
        }
        while (b_->tx_pop(&f)) {
            if (hook_) hook_(1, f, cycle_);
            if (cut_ba_ || (drop_ && drop_(1, f))) cut_ba_n_++;
            else ba_->send(std::move(f), cycle_);
        }
        while (ab_->receive(&f, cycle_)) b_->rx_push(std::move(f));
        while (ba_->receive(&f, cycle_)) a_->rx_push(std::move(f));
        cycle_++;
    }
}

void Sim::flush_wires() {
    ab_->flush(cycle_);
    ba_->flush(cycle_);
}

bool Sim::link_idle() const {
    return ab_->in_flight() == 0 && ba_->in_flight() == 0 && a_->rx_pending() == 0 && b_->rx_pending() == 0 &&
           !a_->tx_busy() && !b_->tx_busy();
}

SimStats Sim::stats() const {
    SimStats s;
    s.cycles = cycle_;
    s.a_to_b = ab_->stats();
    s.b_to_a = ba_->stats();
    s.cut_a_to_b = cut_ab_n_;
    s.cut_b_to_a = cut_ba_n_;
    return s;
}

std::string Sim::stats_line() const {
    auto w = [](const char *n, const froce::WireStats &s) {
        char buf[256];
        std::snprintf(buf, sizeof buf,
                      "%s sent %" PRIu64 " delivered %" PRIu64 " dropped %" PRIu64 " dup %" PRIu64
                      " reordered %" PRIu64 " corrupted %" PRIu64,
                      n, s.sent, s.delivered, s.dropped, s.duplicated, s.reordered, s.corrupted);
        return std::string(buf);
    };
    char c[64];
    std::snprintf(c, sizeof c, "cycles %" PRIu64 "; ", cycle_);
    std::string s = std::string(c) + w("A->B", ab_->stats()) + "; " + w("B->A", ba_->stats());
    if (cut_ab_n_ || cut_ba_n_) {
        std::snprintf(c, sizeof c, "; cut A->B %" PRIu64 " B->A %" PRIu64, cut_ab_n_, cut_ba_n_);
        s += c;
    }
    return s;
}

}  // namespace froce_sim
