// SPDX-License-Identifier: MIT
// cocotb top for the 10GBASE-R PCS: froce_eth_pcs_10g, a lane model with bit slip and error injection, output checkers.

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * One clock for TX and RX (the lane model runs at the block rate).
 *
 *   xgmii_tx* -> PCS TX -> serdes_tx_* ----------+ lane_sel = 0
 *   src_* (driven by a BaseRSerdesSource) -------+ lane_sel = 1
 *                                                 -> tb_pcs10g_lane -> serdes_rx_* -> PCS RX -> xgmii_rx*
 *
 * Checkers (counters the Python test reads; they and the lane's slip
 * counter restart at rst):
 *   chk_leaks     cycles whose RX XGMII word is neither LBLOCK_R nor all
 *                 idle although rx_link_up is low (or chk_force_down is
 *                 set: the checker's own negative control)
 *   chk_lf_words  RX words that are LBLOCK_R (local fault in lanes 0 and 4)
 *   chk_e_words   RX words that are EBLOCK_R (/E/ in all lanes)
 *   chk_tx_bad    tx_bad_block pulses
 *   chk_hiber_rises, chk_lock_rises  rising edges of rx_hi_ber, rx_block_lock
 */
module tb_froce_eth_pcs_10g #(
    parameter BIT_REVERSE = 0,
    parameter SLIP_WAIT = 16,
    parameter BER_TIMER_CYCLES = 1000,
    parameter LANE_SLIP_LATENCY = 4
) (
    input  wire        clk,
    input  wire        rst,

    input  wire [63:0] xgmii_txd,
    input  wire [7:0]  xgmii_txc,
    output wire [63:0] serdes_tx_data,
    output wire [1:0]  serdes_tx_hdr,
    output wire        tx_bad_block,

    input  wire [63:0] src_data,
    input  wire [1:0]  src_hdr,

    input  wire        lane_sel,
    input  wire        lane_load,
    input  wire [6:0]  lane_load_pos,
    input  wire [63:0] lane_err_data,
    input  wire [1:0]  lane_err_hdr,
    output wire [31:0] lane_slips,
    output wire [6:0]  lane_pos,

    output wire [63:0] serdes_rx_data,
    output wire [1:0]  serdes_rx_hdr,
    output wire        serdes_rx_bitslip,
    output wire [63:0] xgmii_rxd,
    output wire [7:0]  xgmii_rxc,
    output wire        rx_block_lock,
    output wire        rx_hi_ber,
    output wire        rx_link_up,
    output wire [31:0] rx_sync_errors,
    output wire [31:0] rx_block_errors,
    output wire [31:0] rx_lock_losses,

    input  wire        chk_force_down,
    output reg  [31:0] chk_leaks = 0,
    output reg  [31:0] chk_lf_words = 0,
    output reg  [31:0] chk_e_words = 0,
    output reg  [31:0] chk_tx_bad = 0,
    output reg  [31:0] chk_hiber_rises = 0,
    output reg  [31:0] chk_lock_rises = 0
);

froce_eth_pcs_10g #(
    .BIT_REVERSE      (BIT_REVERSE),
    .SLIP_WAIT        (SLIP_WAIT),
    .BER_TIMER_CYCLES (BER_TIMER_CYCLES),
    .COUNT_WIDTH      (32)
) u_dut (
    .tx_clk            (clk),
    .tx_rst            (rst),
    .xgmii_txd         (xgmii_txd),
    .xgmii_txc         (xgmii_txc),
    .serdes_tx_data    (serdes_tx_data),
    .serdes_tx_hdr     (serdes_tx_hdr),
    .tx_bad_block      (tx_bad_block),
    .rx_clk            (clk),
    .rx_rst            (rst),
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

tb_pcs10g_lane #(
    .BIT_REVERSE  (BIT_REVERSE),
    .SLIP_LATENCY (LANE_SLIP_LATENCY)
) u_lane (
    .clk      (clk),
    .rst      (rst),
    .in_data  (lane_sel ? src_data : serdes_tx_data),
    .in_hdr   (lane_sel ? src_hdr : serdes_tx_hdr),
    .load     (lane_load),
    .load_pos (lane_load_pos),
    .slip     (serdes_rx_bitslip),
    .err_data (lane_err_data),
    .err_hdr  (lane_err_hdr),
    .out_data (serdes_rx_data),
    .out_hdr  (serdes_rx_hdr),
    .slips    (lane_slips),
    .pos      (lane_pos)
);

localparam [63:0] LF_RXD = 64'h0100_009c_0100_009c;
localparam [63:0] IDLE_RXD = {8{8'h07}};
localparam [63:0] E_RXD = {8{8'hfe}};

reg hiber_prev = 1'b0;
reg lock_prev = 1'b0;

wire is_lf = xgmii_rxd == LF_RXD && xgmii_rxc == 8'h11;
wire is_idle = xgmii_rxd == IDLE_RXD && xgmii_rxc == 8'hff;
wire is_e = xgmii_rxd == E_RXD && xgmii_rxc == 8'hff;

always @(posedge clk) begin
    hiber_prev <= rx_hi_ber;
    lock_prev <= rx_block_lock;
    if ((chk_force_down || !rx_link_up) && !is_lf && !is_idle)
        chk_leaks <= chk_leaks + 1;
    if (is_lf)
        chk_lf_words <= chk_lf_words + 1;
    if (is_e)
        chk_e_words <= chk_e_words + 1;
    if (tx_bad_block)
        chk_tx_bad <= chk_tx_bad + 1;
    if (rx_hi_ber && !hiber_prev)
        chk_hiber_rises <= chk_hiber_rises + 1;
    if (rx_block_lock && !lock_prev)
        chk_lock_rises <= chk_lock_rises + 1;

    if (rst) begin
        chk_leaks <= 0;
        chk_lf_words <= 0;
        chk_e_words <= 0;
        chk_tx_bad <= 0;
        chk_hiber_rises <= 0;
        chk_lock_rises <= 0;
    end
end

endmodule

`resetall
