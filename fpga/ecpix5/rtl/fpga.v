// SPDX-License-Identifier: MIT
// LambdaConcept ECPIX-5 85F top (LFE5UM5G-85F): PLL, resets, RGMII input delays, the MDIO buffer and LED polarity around fpga_core.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * ECP5 primitives only; all logic is in fpga_core.v. fpga/common/stubs/
 * ecp5_prims.v has black boxes of the primitives used here, for lint.
 *
 * Clocks: one EHXPLLL from the 100 MHz oscillator (clk100), VCO 500 MHz
 * (CLKI_DIV 4, feedback from CLKOP with CLKFB_DIV 5: 25 MHz at the phase
 * detector, 125 MHz x 4 = 500 MHz VCO, inside the 400..800 MHz range):
 *
 *   CLKOP   gtx_clk     125 MHz   (CLKOP_DIV 4; also the feedback)
 *   CLKOS   gtx_clk90   125 MHz, +90 degrees (CLKOS_DIV 4, one VCO cycle later)
 *   CLKOS2  core_clk    500 MHz / CORE_PLL_DIV (5: 100 MHz, 8: 62.5, 10: 50)
 *
 * The dividers and phases follow Project Trellis' ecppll: CPHASE counts VCO
 * cycles on top of the primary output's offset (CLKOP_DIV / 2); 90 degrees
 * of 125 MHz at 500 MHz is one VCO cycle, so CLKOS_CPHASE = 2 + 1.
 *
 * Resets (froce_sync_reset: asserted at once, released on the clock): the
 * board's reset input rst_n (pin N5, active low; registered on clk100
 * first, so bounces are clean pulses) or the PLL not locked -> core_rst
 * and gtx_rst. The PLL itself is never reset: it locks from configuration.
 *
 * RGMII timing on this board (what LiteX's ECPIX-5 target does, and it has
 * run on the board: LiteEthPHYRGMII(rx_delay = 0, tx_delay = 2 ns)): the
 * PHY delays RXC itself, so RXD/RX_CTL are sampled directly; the FPGA must
 * delay TXC by 2 ns against TXD/TX_CTL. Here TXC is forwarded from
 * gtx_clk90 (RGMII_USE_CLK90 = 1, exact on the PLL) instead of LiteX's
 * 80-tap DELAYG on the TXC pad; RGMII_TXC_DELAY_TAPS gives that variant
 * (with RGMII_USE_CLK90 = 0), RGMII_RX_DELAY_TAPS a DELAYG on the receive
 * inputs for a PHY that does not delay RXC (about 25 ps a tap: 80 = 2 ns).
 *
 * froce_core's table sizes are fpga_core's defaults, so the bitstream is the
 * board that sim/ecpix5 simulates (the build can override them: TABLES).
 *
 * LEDs: four RGB LEDs (numbered as in LiteX's ECPIX-5 platform), active low
 * (LED_ACTIVE_LOW = 1: LiteX drives 1 to turn its unused colours off,
 * Amaranth's board file marks them inverted):
 *   led0  green: the PHY reports a link; red: no link
 *   led1  blue: a frame sent or received recently
 *   led2  blue: UART traffic recently
 *   led3  green: heartbeat (core_clk runs, out of reset)
 */
module fpga #(
    parameter CORE_PLL_DIV = 5,         // core_clk = 500 MHz / CORE_PLL_DIV, 4..128 (5: 100 MHz)
    parameter BAUD = 3000000,           // UART bit rate; core_clk >= 4 * BAUD
    parameter [31:0] BUILD_ID = 32'd0,  // BAR0 BUILD_ID, the UART link's USER_ID
    parameter FW_INIT_FILE = "",        // firmware image ($readmemh)
    parameter RGMII_USE_CLK90 = 1,      // 1: TXC from gtx_clk90 (the FPGA makes the TX delay)
    parameter RGMII_TXC_DELAY_TAPS = 0, // DELAYG taps on TXC (LiteX: 80 with RGMII_USE_CLK90 = 0)
    parameter RGMII_RX_DELAY_TAPS = 0,  // DELAYG taps on RXD/RX_CTL, 0 = none (the PHY delays RXC)
    parameter [4:0] PHY_ADDR = 5'd0,    // the PHY's MDIO address
    parameter LED_ACTIVE_LOW = 1        // the board's LEDs light when driven low
) (
    input  wire       clk100,           // 100 MHz oscillator
    input  wire       rst_n,            // board reset, active low

    /* FT2232H channel B, the USB UART; uart_rx is the FPGA's input */
    input  wire       uart_rx,
    output wire       uart_tx,

    /* RGMII PHY */
    input  wire       eth_rx_clk,
    input  wire [3:0] eth_rx_data,
    input  wire       eth_rx_ctl,
    output wire       eth_tx_clk,
    output wire [3:0] eth_tx_data,
    output wire       eth_tx_ctl,
    output wire       eth_rst_n,
    output wire       eth_mdc,
    inout  wire       eth_mdio,

    /* RGB LEDs */
    output wire       led0_r,
    output wire       led0_g,
    output wire       led0_b,
    output wire       led1_r,
    output wire       led1_g,
    output wire       led1_b,
    output wire       led2_r,
    output wire       led2_g,
    output wire       led2_b,
    output wire       led3_r,
    output wire       led3_g,
    output wire       led3_b
);

localparam CORE_CLK_HZ = 500000000 / CORE_PLL_DIV;

generate
    if (CORE_PLL_DIV < 4 || CORE_PLL_DIV > 128 || RGMII_RX_DELAY_TAPS > 127 || RGMII_TXC_DELAY_TAPS > 127 ||
            CORE_CLK_HZ < 4 * BAUD) begin : g_bad_parameter
        fpga_bad_parameter u_bad_parameter ();
    end
endgenerate

/* ------------------------------------------------------------------------
 * Clocks and resets
 * ------------------------------------------------------------------------ */

wire gtx_clk, gtx_clk90, core_clk, pll_locked;
wire unused_clkos3, unused_intlock, unused_refclk, unused_clkintfb;

(* ICP_CURRENT = "12", LPF_RESISTOR = "8", MFG_ENABLE_FILTEROPAMP = "1", MFG_GMCREF_SEL = "2" *)
EHXPLLL #(
    .PLLRST_ENA("DISABLED"),
    .INTFB_WAKE("DISABLED"),
    .STDBY_ENABLE("DISABLED"),
    .DPHASE_SOURCE("DISABLED"),
    .OUTDIVIDER_MUXA("DIVA"),
    .OUTDIVIDER_MUXB("DIVB"),
    .OUTDIVIDER_MUXC("DIVC"),
    .OUTDIVIDER_MUXD("DIVD"),
    .CLKI_DIV(4),
    .CLKFB_DIV(5),
    .FEEDBK_PATH("CLKOP"),
    .CLKOP_ENABLE("ENABLED"),
    .CLKOP_DIV(4),
    .CLKOP_CPHASE(2),
    .CLKOP_FPHASE(0),
    .CLKOS_ENABLE("ENABLED"),
    .CLKOS_DIV(4),
    .CLKOS_CPHASE(3),
    .CLKOS_FPHASE(0),
    .CLKOS2_ENABLE("ENABLED"),
    .CLKOS2_DIV(CORE_PLL_DIV),
    .CLKOS2_CPHASE(2),
    .CLKOS2_FPHASE(0)
) u_pll (
    .CLKI(clk100),
    .CLKFB(gtx_clk),
    .PHASESEL1(1'b0),
    .PHASESEL0(1'b0),
    .PHASEDIR(1'b1),
    .PHASESTEP(1'b1),
    .PHASELOADREG(1'b1),
    .STDBY(1'b0),
    .PLLWAKESYNC(1'b0),
    .RST(1'b0),
    .ENCLKOP(1'b0),
    .ENCLKOS(1'b0),
    .ENCLKOS2(1'b0),
    .ENCLKOS3(1'b0),
    .CLKOP(gtx_clk),
    .CLKOS(gtx_clk90),
    .CLKOS2(core_clk),
    .CLKOS3(unused_clkos3),
    .LOCK(pll_locked),
    .INTLOCK(unused_intlock),
    .REFCLK(unused_refclk),
    .CLKINTFB(unused_clkintfb)
);

// the button through two flip-flops on the oscillator: a glitch-free request
reg [1:0] rst_n_sync_reg = 2'b00;
reg reset_req_reg = 1'b1;

always @(posedge clk100) begin
    rst_n_sync_reg <= {rst_n_sync_reg[0], rst_n};
    reset_req_reg <= !rst_n_sync_reg[1];
end

wire reset_req = reset_req_reg || !pll_locked;
wire core_rst, gtx_rst;

froce_sync_reset u_core_rst (
    .clk(core_clk),
    .rst_in(reset_req),
    .rst_out(core_rst)
);

froce_sync_reset u_gtx_rst (
    .clk(gtx_clk),
    .rst_in(reset_req),
    .rst_out(gtx_rst)
);

/* ------------------------------------------------------------------------
 * RGMII pads: optional input and TXC delays
 * ------------------------------------------------------------------------ */

// {ctl, data}: the five receive inputs, at the pads and after the delay
wire [4:0] rx_pad = {eth_rx_ctl, eth_rx_data};
wire [4:0] rx_dly;
wire tx_clk_ddr;

genvar i;
generate
    if (RGMII_RX_DELAY_TAPS > 0) begin : g_rx_delay
        for (i = 0; i < 5; i = i + 1) begin : g_bit
            DELAYG #(
                .DEL_MODE("USER_DEFINED"),
                .DEL_VALUE(RGMII_RX_DELAY_TAPS)
            ) u_delay (
                .A(rx_pad[i]),
                .Z(rx_dly[i])
            );
        end
    end else begin : g_rx_direct
        assign rx_dly = rx_pad;
    end

    if (RGMII_TXC_DELAY_TAPS > 0) begin : g_txc_delay
        DELAYG #(
            .DEL_MODE("USER_DEFINED"),
            .DEL_VALUE(RGMII_TXC_DELAY_TAPS)
        ) u_delay (
            .A(tx_clk_ddr),
            .Z(eth_tx_clk)
        );
    end else begin : g_txc_direct
        assign eth_tx_clk = tx_clk_ddr;
    end
endgenerate

/* ------------------------------------------------------------------------
 * MDIO: bidirectional buffer (fpga_core drives low or releases)
 * ------------------------------------------------------------------------ */

wire mdio_i, mdio_o, mdio_t;

BB u_mdio_buf (
    .I(mdio_o),
    .T(mdio_t),
    .O(mdio_i),
    .B(eth_mdio)
);

/* ------------------------------------------------------------------------
 * fpga_core
 * ------------------------------------------------------------------------ */

wire led_link, led_act, led_host, led_alive;

fpga_core #(
    .BUILD_ID(BUILD_ID),
    .FW_INIT_FILE(FW_INIT_FILE),
    .CORE_CLK_HZ(CORE_CLK_HZ),
    .BAUD(BAUD),
    .RGMII_USE_CLK90(RGMII_USE_CLK90),
    .PHY_ADDR(PHY_ADDR)
) u_core (
    .core_clk(core_clk),
    .core_rst(core_rst),
    .gtx_clk(gtx_clk),
    .gtx_clk90(gtx_clk90),
    .gtx_rst(gtx_rst),
    .uart_rxd(uart_rx),
    .uart_txd(uart_tx),
    .rgmii_rx_clk(eth_rx_clk),
    .rgmii_rxd(rx_dly[3:0]),
    .rgmii_rx_ctl(rx_dly[4]),
    .rgmii_tx_clk(tx_clk_ddr),
    .rgmii_txd(eth_tx_data),
    .rgmii_tx_ctl(eth_tx_ctl),
    .phy_rst_n(eth_rst_n),
    .phy_mdc(eth_mdc),
    .phy_mdio_i(mdio_i),
    .phy_mdio_o(mdio_o),
    .phy_mdio_t(mdio_t),
    .led_link(led_link),
    .led_act(led_act),
    .led_host(led_host),
    .led_alive(led_alive)
);

/* ------------------------------------------------------------------------
 * LEDs: {r, g, b} per LED, active high here, then the board's polarity
 * ------------------------------------------------------------------------ */

wire [11:0] led_on = {
    !led_link, led_link, 1'b0,          // led0
    1'b0, 1'b0, led_act,                // led1
    1'b0, 1'b0, led_host,               // led2
    1'b0, led_alive, 1'b0               // led3
};
wire [11:0] led_pad = LED_ACTIVE_LOW ? ~led_on : led_on;

assign {led0_r, led0_g, led0_b, led1_r, led1_g, led1_b,
        led2_r, led2_g, led2_b, led3_r, led3_g, led3_b} = led_pad;

// PLL outputs not used
wire unused = ^{unused_clkos3, unused_intlock, unused_refclk, unused_clkintfb};

endmodule

`resetall
