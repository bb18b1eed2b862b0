// SPDX-License-Identifier: MIT
// Models of what sits around the ECPIX-5's FPGA, at the pins of
// fpga/ecpix5/rtl/fpga_core.v: the FT2232H UART (the host's side of the
// serial line), the RGMII PHY (frames to and from a peer, with preamble and
// FCS), and the PHY's MDIO management registers. Pure C++, no Verilator:
// the simulator (froce_ecpix5_sim.cpp) calls them at the clock edges, and
// tests/sim/ecpix5 checks them on their own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

namespace froce_ecpix5 {

// CRC-32 of IEEE 802.3 (the FCS): reflected, init and final XOR all ones.
uint32_t fcs32(const uint8_t *data, size_t len);

// The host's end of an 8N1 serial line, timed in nanoseconds.
class UartLine {
public:
    explicit UartLine(double bit_ns) : bit_ns_(bit_ns) {}

    // Bytes for the FPGA: sent in order, back to back.
    void send(const uint8_t *data, size_t len) { tx_q_.insert(tx_q_.end(), data, data + len); }
    size_t tx_pending() const { return tx_q_.size() + (tx_active_ ? 1 : 0); }
    // The level of the FPGA's rxd pin at time t (t never decreases).
    bool rxd_at(uint64_t t_ns);

    // The FPGA's txd pin sampled at time t (called at every core clock edge).
    void sample_txd(uint64_t t_ns, bool txd);
    // Bytes received from the FPGA, oldest first; the caller takes them.
    std::deque<uint8_t> &received() { return rx_q_; }
    uint64_t framing_errors() const { return framing_errors_; }
    bool busy() const { return tx_active_ || rx_active_ || !tx_q_.empty(); }

private:
    double bit_ns_;
    std::deque<uint8_t> tx_q_;
    bool tx_active_ = false;
    uint64_t tx_start_ns_ = 0;
    uint16_t tx_frame_ = 0;     // start bit, 8 data bits LSB first, stop bit
    bool rx_active_ = false;
    bool rx_last_ = true;
    uint64_t rx_start_ns_ = 0;
    unsigned rx_bit_ = 0;       // next bit to sample: 0 start .. 9 stop
    uint8_t rx_byte_ = 0;
    std::deque<uint8_t> rx_q_;
    uint64_t framing_errors_ = 0;
};

// The RGMII side of a 1000BASE-T PHY, one call per edge of the 125 MHz
// clock (the PHY's receive clock is the FPGA's transmit clock here: both
// 125 MHz, the model needs no second oscillator).
struct RgmiiPins {
    uint8_t d = 0;      // 4 bits
    bool ctl = false;
};

struct RgmiiStats {
    uint64_t tx_frames = 0, tx_bad_fcs = 0, tx_bad_preamble = 0, tx_errors = 0, tx_runts = 0;
    uint64_t rx_frames = 0;
};

class RgmiiPhy {
public:
    // Frames for the FPGA: destination MAC .. payload (no FCS); padded to
    // 60 bytes and given preamble, SFD and FCS on the line, 12 idle bytes
    // (at least) between frames.
    void send(std::vector<uint8_t> frame) { rx_frames_.push_back(std::move(frame)); }
    size_t rx_pending() const { return rx_frames_.size() + (rx_line_.empty() ? 0 : 1); }
    // What the PHY drives on RXD/RX_CTL for the edge about to happen.
    RgmiiPins rx_pins(bool rising);

    // TXD/TX_CTL as the FPGA drives them after an edge.
    void tx_sample(bool rising, RgmiiPins pins);
    // Frames the FPGA sent with a good FCS, FCS stripped.
    std::deque<std::vector<uint8_t>> &transmitted() { return tx_frames_; }
    const RgmiiStats &stats() const { return stats_; }
    bool busy() const { return !rx_line_.empty() || !rx_frames_.empty() || tx_in_frame_; }

private:
    void tx_end();

    std::deque<std::vector<uint8_t>> rx_frames_;
    std::vector<uint8_t> rx_line_;    // the frame on the line: preamble .. FCS
    size_t rx_pos_ = 0;
    unsigned rx_gap_ = 12;          // idle bytes sent since the last frame
    uint8_t rx_byte_ = 0;
    bool rx_dv_ = false;

    uint8_t tx_low_ = 0;
    bool tx_en_ = false, tx_in_frame_ = false, tx_err_ = false;
    std::vector<uint8_t> tx_line_;
    std::deque<std::vector<uint8_t>> tx_frames_;
    RgmiiStats stats_;
};

// A clause-22 MDIO slave with the registers froce_mdio_link reads: BMCR (0),
// BMSR (1) with the link bit, PHY ID (2, 3); the others read 0. Called at
// every core clock edge with the master's pins; returns what the PHY
// drives (-1: released).
class MdioPhy {
public:
    explicit MdioPhy(unsigned addr) : addr_(addr) {}
    void set_link(bool up) { link_ = up; }
    bool link() const { return link_; }
    // mdc and the line as the master drives it (mdio_t = 1: released)
    int step(bool mdc, bool mdio_o, bool mdio_t);
    uint64_t reads() const { return reads_; }
    uint16_t reg(unsigned r) const;

private:
    enum class St { PREAMBLE, HEADER, TA, DATA };
    unsigned addr_;
    bool link_ = false;
    bool mdc_last_ = false;
    St st_ = St::PREAMBLE;
    unsigned ones_ = 0, count_ = 0;
    uint16_t header_ = 0, data_ = 0;
    bool for_us_ = false;
    int drive_ = -1;
    uint64_t reads_ = 0;
};

}  // namespace froce_ecpix5
