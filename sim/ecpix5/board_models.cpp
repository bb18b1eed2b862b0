// SPDX-License-Identifier: MIT
// See board_models.h.
#include "board_models.h"

namespace froce_ecpix5 {

uint32_t fcs32(const uint8_t *data, size_t len) {
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < len; i++) {
        crc ^= data[i];
        for (int b = 0; b < 8; b++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

// ---------------------------------------------------------------------------
// UART
// ---------------------------------------------------------------------------

bool UartLine::rxd_at(uint64_t t_ns) {
    if (!tx_active_) {
        if (tx_q_.empty()) return true;
        tx_frame_ = uint16_t(0x200u | (unsigned(tx_q_.front()) << 1));   // stop=1, data, start=0
        tx_q_.pop_front();
        tx_active_ = true;
        tx_start_ns_ = t_ns;
    }
    unsigned bit = unsigned(double(t_ns - tx_start_ns_) / bit_ns_);
    if (bit >= 10) {
        // the next byte starts right after the stop bit
        tx_active_ = false;
        return rxd_at(t_ns);
    }
    return (tx_frame_ >> bit) & 1u;
}

void UartLine::sample_txd(uint64_t t_ns, bool txd) {
    if (!rx_active_) {
        if (rx_last_ && !txd) {   // falling edge: a start bit
            rx_active_ = true;
            rx_start_ns_ = t_ns;
            rx_bit_ = 0;
            rx_byte_ = 0;
        }
        rx_last_ = txd;
        return;
    }
    rx_last_ = txd;
    // sample in the middle of each bit
    if (double(t_ns - rx_start_ns_) < (double(rx_bit_) + 0.5) * bit_ns_) return;
    if (rx_bit_ == 0) {
        if (txd) rx_active_ = false;    // a glitch, not a start bit
    } else if (rx_bit_ <= 8) {
        rx_byte_ = uint8_t(rx_byte_ | (unsigned(txd) << (rx_bit_ - 1)));
    } else {
        if (txd) rx_q_.push_back(rx_byte_);
        else framing_errors_++;
        rx_active_ = false;
    }
    rx_bit_++;
}

// ---------------------------------------------------------------------------
// RGMII PHY
// ---------------------------------------------------------------------------

RgmiiPins RgmiiPhy::rx_pins(bool rising) {
    if (rising) {
        // a new byte for this clock cycle
        if (rx_line_.empty() && !rx_frames_.empty() && rx_gap_ >= 12) {
            std::vector<uint8_t> f = std::move(rx_frames_.front());
            rx_frames_.pop_front();
            if (f.size() < 60) f.resize(60, 0);
            uint32_t crc = fcs32(f.data(), f.size());
            rx_line_.assign(7, 0x55);
            rx_line_.push_back(0xD5);
            rx_line_.insert(rx_line_.end(), f.begin(), f.end());
            for (int i = 0; i < 4; i++) rx_line_.push_back(uint8_t(crc >> (8 * i)));
            rx_pos_ = 0;
            stats_.rx_frames++;
        }
        if (!rx_line_.empty()) {
            rx_byte_ = rx_line_[rx_pos_++];
            rx_dv_ = true;
            if (rx_pos_ == rx_line_.size()) {
                rx_line_.clear();
                rx_gap_ = 0;
            }
        } else {
            rx_byte_ = 0;
            rx_dv_ = false;
            if (rx_gap_ < 12) rx_gap_++;
        }
        return {uint8_t(rx_byte_ & 0xF), rx_dv_};
    }
    // falling edge: high nibble, RX_CTL = RX_DV xor RX_ER (no errors here)
    return {uint8_t(rx_byte_ >> 4), rx_dv_};
}

void RgmiiPhy::tx_sample(bool rising, RgmiiPins pins) {
    if (rising) {
        tx_low_ = pins.d & 0xF;
        tx_en_ = pins.ctl;
        return;
    }
    bool er = pins.ctl != tx_en_;
    if (tx_en_) {
        tx_in_frame_ = true;
        tx_err_ |= er;
        tx_line_.push_back(uint8_t(tx_low_ | ((pins.d & 0xF) << 4)));
    } else if (tx_in_frame_) {
        tx_end();
    }
}

void RgmiiPhy::tx_end() {
    tx_in_frame_ = false;
    std::vector<uint8_t> line;
    line.swap(tx_line_);
    if (tx_err_) {
        tx_err_ = false;
        stats_.tx_errors++;
        return;
    }
    size_t sfd = 0;
    while (sfd < line.size() && line[sfd] == 0x55) sfd++;
    if (sfd != 7 || sfd >= line.size() || line[sfd] != 0xD5) {
        stats_.tx_bad_preamble++;
        return;
    }
    std::vector<uint8_t> f(line.begin() + long(sfd) + 1, line.end());
    if (f.size() < 64) {
        stats_.tx_runts++;
        return;
    }
    uint32_t crc = fcs32(f.data(), f.size() - 4);
    uint32_t got = uint32_t(f[f.size() - 4]) | uint32_t(f[f.size() - 3]) << 8 | uint32_t(f[f.size() - 2]) << 16 |
                   uint32_t(f[f.size() - 1]) << 24;
    if (crc != got) {
        stats_.tx_bad_fcs++;
        return;
    }
    f.resize(f.size() - 4);
    stats_.tx_frames++;
    tx_frames_.push_back(std::move(f));
}

// ---------------------------------------------------------------------------
// MDIO
// ---------------------------------------------------------------------------

uint16_t MdioPhy::reg(unsigned r) const {
    switch (r) {
    case 0: return 0x1140;                                   // AN enable, full duplex, 1000 Mb/s
    case 1: return link_ ? 0x796D : 0x7949;                  // link and AN complete when up
    case 2: return 0x001C;                                   // an OUI, as a PHY of the RTL8211 family
    case 3: return 0xC916;
    default: return 0;
    }
}

int MdioPhy::step(bool mdc, bool mdio_o, bool mdio_t) {
    bool rise = mdc && !mdc_last_;
    mdc_last_ = mdc;
    if (!rise) return drive_;
    bool line = mdio_t ? (drive_ >= 0 ? bool(drive_) : true) : mdio_o;
    switch (st_) {
    case St::PREAMBLE:
        if (line) {
            ones_++;
        } else if (ones_ >= 32) {
            // the 0 of ST = 01: the header follows (ST's 1, OP, PHYAD, REGAD)
            st_ = St::HEADER;
            header_ = 0;
            count_ = 0;
            ones_ = 0;
        } else {
            ones_ = 0;
        }
        break;
    case St::HEADER:
        header_ = uint16_t((header_ << 1) | unsigned(line));
        if (++count_ == 13) {
            // ST1 OP(2) PHYAD(5) REGAD(5)
            unsigned st1 = (header_ >> 12) & 1, op = (header_ >> 10) & 3, pa = (header_ >> 5) & 31, ra = header_ & 31;
            for_us_ = st1 == 1 && op == 2 && pa == addr_;
            data_ = reg(ra);
            st_ = St::TA;
            count_ = 0;
        }
        break;
    case St::TA:
        // first turnaround bit sampled now; the PHY drives the second (0)
        if (for_us_) drive_ = 0;
        st_ = St::DATA;
        count_ = 0;
        break;
    case St::DATA:
        if (count_ < 16) {
            if (for_us_) drive_ = (data_ >> (15 - count_)) & 1;
            count_++;
        } else {
            if (for_us_) reads_++;
            drive_ = -1;
            st_ = St::PREAMBLE;
            ones_ = line ? 1 : 0;
        }
        break;
    }
    return drive_;
}

}  // namespace froce_ecpix5
