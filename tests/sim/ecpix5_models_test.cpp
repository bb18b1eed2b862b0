// SPDX-License-Identifier: MIT
// Unit tests of the ECPIX-5 board models (sim/ecpix5/board_models.h) against
// independent expectations: the FCS check value, a UART and an RGMII line
// looped onto themselves, and a bit-banged clause-22 MDIO master written
// here from IEEE 802.3 22.2.4.5 (not from froce_mdio_link.v).
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "board_models.h"

using namespace froce_ecpix5;

static int failures = 0;
#define CHECK(c)                                                                   \
    do {                                                                           \
        if (!(c)) {                                                                \
            std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c); \
            failures++;                                                            \
        }                                                                          \
    } while (0)

static void test_fcs() {
    const char *s = "123456789";
    CHECK(fcs32(reinterpret_cast<const uint8_t *>(s), 9) == 0xCBF43926u);   // the CRC-32 check value
    CHECK(fcs32(nullptr, 0) == 0);
}

// a UART line whose rxd is fed back into its own receiver: every byte sent
// comes back, at several bit times, sampled at a clock that is not a
// multiple of the bit time
static void test_uart_loop() {
    std::mt19937 rng(7);
    for (double bit_ns : {80.0, 333.33, 1000.0}) {
        UartLine u(bit_ns);
        std::vector<uint8_t> sent(300);
        for (auto &b : sent) b = uint8_t(rng());
        u.send(sent.data(), sent.size());
        for (uint64_t t = 0; t < uint64_t(bit_ns * 10 * 310); t += 7) u.sample_txd(t, u.rxd_at(t));
        std::vector<uint8_t> got(u.received().begin(), u.received().end());
        CHECK(got == sent);
        CHECK(u.framing_errors() == 0);
        CHECK(!u.busy());
    }
    // a stop bit that is 0: a framing error, the byte is not delivered
    UartLine u(100.0);
    for (uint64_t t = 0; t < 2000; t += 10) {
        bool level = t < 100 ? true : t < 1200 ? false : true;   // start, 8 zero bits, a 0 stop bit, idle
        u.sample_txd(t, level);
    }
    CHECK(u.received().empty());
    CHECK(u.framing_errors() == 1);
}

// RGMII: what the PHY drives towards the FPGA, fed into its own transmit
// decoder, gives the frames back (padded to 60 bytes), FCS checked
static void test_rgmii_loop() {
    std::mt19937 rng(9);
    RgmiiPhy phy;
    std::vector<std::vector<uint8_t>> sent;
    for (size_t len : {14, 59, 60, 61, 1514, 333}) {
        std::vector<uint8_t> f(len);
        for (auto &b : f) b = uint8_t(rng());
        phy.send(f);
        if (f.size() < 60) f.resize(60, 0);
        sent.push_back(f);
    }
    for (int i = 0; i < 2 * 4000; i++) {
        bool rising = (i & 1) == 0;
        phy.tx_sample(rising, phy.rx_pins(rising));
    }
    std::vector<std::vector<uint8_t>> got(phy.transmitted().begin(), phy.transmitted().end());
    CHECK(got == sent);
    CHECK(phy.stats().tx_frames == sent.size());
    CHECK(phy.stats().tx_bad_fcs == 0 && phy.stats().tx_bad_preamble == 0);

    // one flipped data nibble: the decoder's FCS check drops the frame
    RgmiiPhy p2;
    p2.send(std::vector<uint8_t>(100, 0xA5));
    for (int i = 0; i < 2 * 200; i++) {
        bool rising = (i & 1) == 0;
        RgmiiPins pins = p2.rx_pins(rising);
        if (i == 2 * 50) pins.d ^= 1;
        p2.tx_sample(rising, pins);
    }
    CHECK(p2.transmitted().empty());
    CHECK(p2.stats().tx_bad_fcs == 1);

    // TX_ER inside a frame (RX_CTL differs from TX_EN on the falling edge)
    RgmiiPhy p3;
    p3.send(std::vector<uint8_t>(100, 0x11));
    for (int i = 0; i < 2 * 200; i++) {
        bool rising = (i & 1) == 0;
        RgmiiPins pins = p3.rx_pins(rising);
        if (i == 2 * 60 + 1) pins.ctl = !pins.ctl;
        p3.tx_sample(rising, pins);
    }
    CHECK(p3.transmitted().empty());
    CHECK(p3.stats().tx_errors == 1);
}

// a clause-22 read by a bit-banged master: the master changes MDIO while
// MDC is low, the PHY's bits are sampled while MDC is high
static int mdio_read(MdioPhy &phy, unsigned phy_addr, unsigned reg, int preamble = 32) {
    std::vector<int> bits;
    for (int i = 0; i < preamble; i++) bits.push_back(1);
    unsigned hdr = (1u << 12) | (2u << 10) | (phy_addr << 5) | reg;   // ST 01 (0 then this 1), OP 10
    bits.push_back(0);
    for (int i = 12; i >= 0; i--) bits.push_back((hdr >> i) & 1);
    int value = 0;
    int drive = -1;
    // the master's bits, then 2 turnaround and 16 data periods released
    for (size_t k = 0; k < bits.size() + 18; k++) {
        bool released = k >= bits.size();
        bool o = released ? true : bits[k];
        drive = phy.step(false, o, released);
        // rising edge: the PHY samples; the master samples the line before the PHY changes it
        bool line = released ? (drive >= 0 ? bool(drive) : true) : o;
        if (k >= bits.size() + 2) value = (value << 1) | int(line);
        drive = phy.step(true, o, released);
    }
    phy.step(false, true, true);
    return value;
}

static void test_mdio() {
    MdioPhy phy(0);
    CHECK(mdio_read(phy, 0, 1) == 0x7949);     // no link
    phy.set_link(true);
    CHECK(mdio_read(phy, 0, 1) == 0x796D);     // link, autonegotiation complete
    CHECK((mdio_read(phy, 0, 1) & 4) != 0);
    CHECK(mdio_read(phy, 0, 2) == 0x001C);
    CHECK(mdio_read(phy, 0, 3) == 0xC916);
    CHECK(mdio_read(phy, 0, 17) == 0);
    CHECK(mdio_read(phy, 5, 1) == 0xFFFF);     // another address: nobody drives, the pull-up
    CHECK(mdio_read(phy, 0, 1, 12) == 0xFFFF); // a preamble too short: ignored
    CHECK(phy.reads() == 6);
}

int main() {
    test_fcs();
    test_uart_loop();
    test_rgmii_loop();
    test_mdio();
    if (failures) {
        std::fprintf(stderr, "ecpix5_models_test: %d check(s) failed\n", failures);
        return 1;
    }
    std::printf("ecpix5_models_test: ok\n");
    return 0;
}
