// SPDX-License-Identifier: MIT
// RGMII (v2.0, 1000 Mb/s) to GMII: DDR input and output registers through the froce_iddr/froce_oddr shims.

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * RGMII carries a GMII byte in one 125 MHz clock, a nibble per edge:
 *
 *   Signal   Rising edge        Falling edge
 *   TXD/RXD  bits 3:0           bits 7:4
 *   TX_CTL   tx_en              tx_en XOR tx_er
 *   RX_CTL   rx_dv              rx_dv XOR rx_er
 *
 * Transmit: data and TX_CTL leave DDR output registers on gtx_clk, so they
 * change at its edges. The receiver needs the clock it gets to be delayed by
 * about 2 ns (90 degrees) against them. USE_CLK90 = 1: we forward TXC from
 * gtx_clk90 (the same 125 MHz shifted by +90 degrees, a second PLL output),
 * so the PHY must NOT add its own TX delay. USE_CLK90 = 0: TXC is forwarded
 * from gtx_clk, edge aligned with the data, for a PHY that adds the TX delay
 * itself (RGMII-ID / TXDLY on) or a board top that adds an output delay.
 *
 * Receive: the PHY is assumed to delay RXC itself (RGMII-ID / RXDLY on), so
 * the data is stable around both edges of rgmii_rx_clk and is sampled with
 * it directly; a board top that must add the delay does it in front of this
 * module (e.g. an ECP5 DELAYG on the pad). The GMII receive side runs on
 * rgmii_rx_clk (mac_gmii_rx_clk is that clock).
 *
 * Both directions have one extra register stage on the GMII side, so the
 * XORs of the CTL encoding sit between flip-flops.
 *
 * Resets: gtx_rst is synchronous to gtx_clk. mac_gmii_rx_rst is gtx_rst
 * brought into the receive clock domain: asserted asynchronously (the PHY
 * clock may be stopped) one gtx_clk after gtx_rst, released on the fourth
 * rising edge of rx_clk after that.
 */
module froce_eth_rgmii_phy_if #(
    parameter USE_CLK90 = 1             // 1: forward TXC from gtx_clk90; 0: from gtx_clk (PHY adds the TX delay)
) (
    /* Clocks and reset (ours) */
    input  wire       gtx_clk,          // 125 MHz transmit clock
    input  wire       gtx_clk90,        // gtx_clk shifted by +90 degrees (unused if USE_CLK90 = 0)
    input  wire       gtx_rst,          // synchronous to gtx_clk

    /* GMII side, transmit (gtx_clk) */
    input  wire [7:0] mac_gmii_txd,
    input  wire       mac_gmii_tx_en,
    input  wire       mac_gmii_tx_er,

    /* GMII side, receive (mac_gmii_rx_clk) */
    output wire       mac_gmii_rx_clk,
    output wire       mac_gmii_rx_rst,
    output wire [7:0] mac_gmii_rxd,
    output wire       mac_gmii_rx_dv,
    output wire       mac_gmii_rx_er,

    /* RGMII (to the pads) */
    input  wire       rgmii_rx_clk,
    input  wire [3:0] rgmii_rxd,
    input  wire       rgmii_rx_ctl,
    output wire       rgmii_tx_clk,
    output wire [3:0] rgmii_txd,
    output wire       rgmii_tx_ctl
);

/* Receive */

assign mac_gmii_rx_clk = rgmii_rx_clk;

// gtx_rst into the receive domain: asynchronous assert, synchronous release.
// The asynchronous reset comes from a flip-flop (glitch free), which also
// keeps gtx_rst itself a purely synchronous reset.
reg       rx_rst_src_reg = 1'b1;
reg [3:0] rx_rst_sync_reg = 4'hF;

always @(posedge gtx_clk) begin
    rx_rst_src_reg <= gtx_rst;
end

always @(posedge rgmii_rx_clk or posedge rx_rst_src_reg) begin
    if (rx_rst_src_reg) begin
        rx_rst_sync_reg <= 4'hF;
    end else begin
        rx_rst_sync_reg <= {rx_rst_sync_reg[2:0], 1'b0};
    end
end

assign mac_gmii_rx_rst = rx_rst_sync_reg[3];

// {ctl, data} sampled on the rising (q1) and falling (q2) edges of RXC
wire [4:0] rx_rise;
wire [4:0] rx_fall;

froce_iddr #(
    .WIDTH(5)
) u_rx_iddr (
    .clk(rgmii_rx_clk),
    .d({rgmii_rx_ctl, rgmii_rxd}),
    .q1(rx_rise),
    .q2(rx_fall)
);

reg [7:0] rx_rxd_reg = 8'd0;
reg       rx_dv_reg = 1'b0;
reg       rx_er_reg = 1'b0;

always @(posedge rgmii_rx_clk) begin
    rx_rxd_reg <= {rx_fall[3:0], rx_rise[3:0]};
    rx_dv_reg <= rx_rise[4];
    rx_er_reg <= rx_rise[4] ^ rx_fall[4];
end

assign mac_gmii_rxd = rx_rxd_reg;
assign mac_gmii_rx_dv = rx_dv_reg;
assign mac_gmii_rx_er = rx_er_reg;

/* Transmit */

reg [3:0] tx_rise_d_reg = 4'd0;     // TXD in the high phase: bits 3:0
reg [3:0] tx_fall_d_reg = 4'd0;     // TXD in the low phase: bits 7:4
reg       tx_rise_ctl_reg = 1'b0;   // tx_en
reg       tx_fall_ctl_reg = 1'b0;   // tx_en ^ tx_er

always @(posedge gtx_clk) begin
    tx_rise_d_reg <= mac_gmii_txd[3:0];
    tx_fall_d_reg <= mac_gmii_txd[7:4];
    tx_rise_ctl_reg <= mac_gmii_tx_en;
    tx_fall_ctl_reg <= mac_gmii_tx_en ^ mac_gmii_tx_er;
    if (gtx_rst) begin
        tx_rise_ctl_reg <= 1'b0;
        tx_fall_ctl_reg <= 1'b0;
    end
end

froce_oddr #(
    .WIDTH(5)
) u_tx_oddr (
    .clk(gtx_clk),
    .d1({tx_rise_ctl_reg, tx_rise_d_reg}),
    .d2({tx_fall_ctl_reg, tx_fall_d_reg}),
    .q({rgmii_tx_ctl, rgmii_txd})
);

// forwarded clock: high in the first half of the cycle of its source clock
generate
    if (USE_CLK90) begin : g_txc_clk90
        froce_oddr #(
            .WIDTH(1)
        ) u_txc_oddr (
            .clk(gtx_clk90),
            .d1(1'b1),
            .d2(1'b0),
            .q(rgmii_tx_clk)
        );
    end else begin : g_txc_clk
        froce_oddr #(
            .WIDTH(1)
        ) u_txc_oddr (
            .clk(gtx_clk),
            .d1(1'b1),
            .d2(1'b0),
            .q(rgmii_tx_clk)
        );

        wire unused_gtx_clk90 = gtx_clk90;
    end
endgenerate

endmodule

`resetall
