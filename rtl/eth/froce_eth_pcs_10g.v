// SPDX-License-Identifier: MIT
// 10GBASE-R PCS (IEEE 802.3 Clause 49) between a 64-bit XGMII and one GT lane with a 64B/66B gearbox.

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Transmit and receive are independent (froce_eth_pcs_10g_tx,
 * froce_eth_pcs_10g_rx; see docs/ethernet-pcs10g.md): each runs on its GT
 * user clock (TXUSRCLK2 / RXUSRCLK2, line rate / 66 = 156.25 MHz for 10GBASE-R)
 * with its own synchronous reset. The receive XGMII is in the recovered
 * clock's domain; moving it to the MAC's clock is outside this module.
 *
 * Bit order on the GT side: serdes_*_data[i] is the i-th payload bit on the
 * line and serdes_*_hdr[0] the first header bit (2'b10 = data "01",
 * 2'b01 = control "10"); BIT_REVERSE = 1 mirrors both (bit 63 / hdr[1] first).
 * The scrambler covers the 64 payload bits, not the header.
 */
module froce_eth_pcs_10g #(
    parameter BIT_REVERSE = 0,             // 1: GT sends/receives serdes_*_data[63] first on the line
    parameter SLIP_WAIT = 16,              // cycles headers are ignored after a slip: GT slip latency + 1
    parameter BER_TIMER_CYCLES = 19532,    // BER window: 125 us at 156.25 MHz, rounded up
    parameter COUNT_WIDTH = 32             // width of the receive error counters
) (
    /* Transmit: TXUSRCLK2 domain */
    input  wire                   tx_clk,
    input  wire                   tx_rst,
    input  wire [63:0]            xgmii_txd,
    input  wire [7:0]             xgmii_txc,
    output wire [63:0]            serdes_tx_data,
    output wire [1:0]             serdes_tx_hdr,
    output wire                   tx_bad_block,        // pulse: an XGMII word was sent as an /E/ block

    /* Receive: RXUSRCLK2 domain */
    input  wire                   rx_clk,
    input  wire                   rx_rst,
    input  wire [63:0]            serdes_rx_data,
    input  wire [1:0]             serdes_rx_hdr,
    output wire                   serdes_rx_bitslip,   // pulse: slip the block boundary by one bit
    output wire [63:0]            xgmii_rxd,
    output wire [7:0]             xgmii_rxc,
    output wire                   rx_block_lock,
    output wire                   rx_hi_ber,
    output wire                   rx_link_up,          // block_lock && !hi_ber
    output wire [COUNT_WIDTH-1:0] rx_sync_errors,
    output wire [COUNT_WIDTH-1:0] rx_block_errors,
    output wire [COUNT_WIDTH-1:0] rx_lock_losses
);

froce_eth_pcs_10g_tx #(
    .BIT_REVERSE (BIT_REVERSE)
) u_tx (
    .clk            (tx_clk),
    .rst            (tx_rst),
    .xgmii_txd      (xgmii_txd),
    .xgmii_txc      (xgmii_txc),
    .serdes_tx_data (serdes_tx_data),
    .serdes_tx_hdr  (serdes_tx_hdr),
    .tx_bad_block   (tx_bad_block)
);

froce_eth_pcs_10g_rx #(
    .BIT_REVERSE      (BIT_REVERSE),
    .SLIP_WAIT        (SLIP_WAIT),
    .BER_TIMER_CYCLES (BER_TIMER_CYCLES),
    .COUNT_WIDTH      (COUNT_WIDTH)
) u_rx (
    .clk               (rx_clk),
    .rst               (rx_rst),
    .serdes_rx_data    (serdes_rx_data),
    .serdes_rx_hdr     (serdes_rx_hdr),
    .serdes_rx_bitslip (serdes_rx_bitslip),
    .xgmii_rxd         (xgmii_rxd),
    .xgmii_rxc         (xgmii_rxc),
    .rx_block_lock     (rx_block_lock),
    .rx_hi_ber         (rx_hi_ber),
    .rx_link_up        (rx_link_up),
    .rx_sync_errors    (rx_sync_errors),
    .rx_block_errors   (rx_block_errors),
    .rx_lock_losses    (rx_lock_losses)
);

endmodule

`resetall
