// SPDX-License-Identifier: MIT
// cocotb top for the 10G round trip: MAC TX -> PCS -> 66-bit lane with bit slip -> PCS -> MAC RX -> RX FIFO.

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * One clock and one reset for everything (the lane runs at the block rate).
 *
 *   s_axis_* -> froce_eth_mac_10g TX -> xgmii_tx* -> u_pcs_a TX -> a_tx_data/hdr
 *            -> tb_pcs10g_lane (bit offset, slips, error injection) -> b_rx_data/hdr
 *            -> u_pcs_b RX -> xgmii_rx* -> froce_eth_mac_10g RX -> froce_eth_rx_fifo -> f_axis_*
 *
 * Both PCS are whole link partners: the other direction (u_pcs_b TX, idle
 * XGMII, straight into u_pcs_a RX, aligned) carries idles, so u_pcs_a's
 * receiver locks too (a_rx_link_up).
 *
 * Checker (a counter the Python test reads; restarts at rst):
 *   chk_mac_out_down  cycles in which the MAC's RX output (m_axis_tvalid)
 *                     is active although u_pcs_b's link has been down for
 *                     the last 8 cycles (the MAC needs at most 5 to end a
 *                     frame cut by the link loss; after that nothing may
 *                     come out while the link is down); chk_force_down
 *                     counts as down: the checker's own negative control
 */
module tb_mac_pcs_loop #(
    parameter BIT_REVERSE = 0,
    parameter SLIP_WAIT = 8,
    parameter BER_TIMER_CYCLES = 400,
    parameter LANE_SLIP_LATENCY = 4,
    parameter MAX_FRAME = 9600,
    parameter RX_FIFO_BYTES = 16384
) (
    input  wire         clk,
    input  wire         rst,

    // frames in (MAC TX)
    input  wire [63:0]  s_axis_tdata,
    input  wire [7:0]   s_axis_tkeep,
    input  wire         s_axis_tvalid,
    output wire         s_axis_tready,
    input  wire         s_axis_tlast,
    input  wire         s_axis_tuser,

    // frames out (RX FIFO)
    output wire [63:0]  f_axis_tdata,
    output wire [7:0]   f_axis_tkeep,
    output wire         f_axis_tvalid,
    input  wire         f_axis_tready,
    output wire         f_axis_tlast,

    // the line, for the monitors: PCS A's TX output and the lane's output (GT bus order)
    output wire [63:0]  a_tx_data,
    output wire [1:0]   a_tx_hdr,
    output wire [63:0]  b_rx_data,
    output wire [1:0]   b_rx_hdr,

    // lane control
    input  wire         lane_load,
    input  wire [6:0]   lane_load_pos,
    input  wire [63:0]  lane_err_data,
    input  wire [1:0]   lane_err_hdr,
    output wire [31:0]  lane_slips,
    output wire [6:0]   lane_pos,

    // status and counters
    output wire         b_rx_block_lock,
    output wire         b_rx_hi_ber,
    output wire         b_rx_link_up,
    output wire [31:0]  b_rx_sync_errors,
    output wire [31:0]  b_rx_block_errors,
    output wire [31:0]  b_rx_lock_losses,
    output wire         a_rx_link_up,
    output wire         a_tx_bad_block,

    output wire [31:0]  tx_frames,
    output wire [63:0]  tx_bytes,
    output wire [31:0]  tx_aborted,
    output wire [31:0]  tx_oversize,
    output wire [31:0]  tx_underrun,
    output wire [31:0]  rx_frames_ok,
    output wire [63:0]  rx_bytes_ok,
    output wire [31:0]  rx_bad_fcs,
    output wire [31:0]  rx_err_char,
    output wire [31:0]  rx_runt,
    output wire [31:0]  rx_oversize,
    output wire [31:0]  rx_bad_preamble,
    output wire [31:0]  rx_fifo_bad_dropped,
    output wire [31:0]  rx_fifo_full_dropped,

    input  wire         chk_force_down,
    output reg  [31:0]  chk_mac_out_down = 32'd0
);

wire [63:0] xgmii_txd, xgmii_rxd;
wire [7:0]  xgmii_txc, xgmii_rxc;
wire [63:0] m_axis_tdata;
wire [7:0]  m_axis_tkeep;
wire        m_axis_tvalid, m_axis_tlast, m_axis_tuser;
wire [31:0] tx_fifo_dropped;

froce_eth_mac_10g #(
    .MAX_FRAME     (MAX_FRAME),
    .ENABLE_DIC    (1),
    .TX_FIFO_BYTES (0)
) u_mac (
    .tx_clk          (clk),
    .tx_rst          (rst),
    .rx_clk          (clk),
    .rx_rst          (rst),
    .s_axis_tdata    (s_axis_tdata),
    .s_axis_tkeep    (s_axis_tkeep),
    .s_axis_tvalid   (s_axis_tvalid),
    .s_axis_tready   (s_axis_tready),
    .s_axis_tlast    (s_axis_tlast),
    .s_axis_tuser    (s_axis_tuser),
    .xgmii_txd       (xgmii_txd),
    .xgmii_txc       (xgmii_txc),
    .xgmii_rxd       (xgmii_rxd),
    .xgmii_rxc       (xgmii_rxc),
    .m_axis_tdata    (m_axis_tdata),
    .m_axis_tkeep    (m_axis_tkeep),
    .m_axis_tvalid   (m_axis_tvalid),
    .m_axis_tlast    (m_axis_tlast),
    .m_axis_tuser    (m_axis_tuser),
    .tx_frames       (tx_frames),
    .tx_bytes        (tx_bytes),
    .tx_aborted      (tx_aborted),
    .tx_oversize     (tx_oversize),
    .tx_underrun     (tx_underrun),
    .tx_fifo_dropped (tx_fifo_dropped),
    .rx_frames_ok    (rx_frames_ok),
    .rx_bytes_ok     (rx_bytes_ok),
    .rx_bad_fcs      (rx_bad_fcs),
    .rx_err_char     (rx_err_char),
    .rx_runt         (rx_runt),
    .rx_oversize     (rx_oversize),
    .rx_bad_preamble (rx_bad_preamble)
);

froce_eth_rx_fifo #(
    .DEPTH_BYTES (RX_FIFO_BYTES)
) u_rx_fifo (
    .clk                  (clk),
    .rst                  (rst),
    .s_axis_tdata         (m_axis_tdata),
    .s_axis_tkeep         (m_axis_tkeep),
    .s_axis_tvalid        (m_axis_tvalid),
    .s_axis_tlast         (m_axis_tlast),
    .s_axis_tuser         (m_axis_tuser),
    .m_axis_tdata         (f_axis_tdata),
    .m_axis_tkeep         (f_axis_tkeep),
    .m_axis_tvalid        (f_axis_tvalid),
    .m_axis_tready        (f_axis_tready),
    .m_axis_tlast         (f_axis_tlast),
    .rx_fifo_bad_dropped  (rx_fifo_bad_dropped),
    .rx_fifo_full_dropped (rx_fifo_full_dropped)
);

// the other direction: idles from u_pcs_b to u_pcs_a
wire [63:0] b_tx_data;
wire [1:0]  b_tx_hdr;
wire        a_rx_bitslip, b_tx_bad_block;
wire        a_rx_block_lock, a_rx_hi_ber;
wire [31:0] a_rx_sync_errors, a_rx_block_errors, a_rx_lock_losses;
wire [63:0] a_xgmii_rxd;
wire [7:0]  a_xgmii_rxc;

froce_eth_pcs_10g #(
    .BIT_REVERSE      (BIT_REVERSE),
    .SLIP_WAIT        (SLIP_WAIT),
    .BER_TIMER_CYCLES (BER_TIMER_CYCLES),
    .COUNT_WIDTH      (32)
) u_pcs_a (
    .tx_clk            (clk),
    .tx_rst            (rst),
    .xgmii_txd         (xgmii_txd),
    .xgmii_txc         (xgmii_txc),
    .serdes_tx_data    (a_tx_data),
    .serdes_tx_hdr     (a_tx_hdr),
    .tx_bad_block      (a_tx_bad_block),
    .rx_clk            (clk),
    .rx_rst            (rst),
    .serdes_rx_data    (b_tx_data),
    .serdes_rx_hdr     (b_tx_hdr),
    .serdes_rx_bitslip (a_rx_bitslip),
    .xgmii_rxd         (a_xgmii_rxd),
    .xgmii_rxc         (a_xgmii_rxc),
    .rx_block_lock     (a_rx_block_lock),
    .rx_hi_ber         (a_rx_hi_ber),
    .rx_link_up        (a_rx_link_up),
    .rx_sync_errors    (a_rx_sync_errors),
    .rx_block_errors   (a_rx_block_errors),
    .rx_lock_losses    (a_rx_lock_losses)
);

wire b_rx_bitslip;

tb_pcs10g_lane #(
    .BIT_REVERSE  (BIT_REVERSE),
    .SLIP_LATENCY (LANE_SLIP_LATENCY)
) u_lane (
    .clk      (clk),
    .rst      (rst),
    .in_data  (a_tx_data),
    .in_hdr   (a_tx_hdr),
    .load     (lane_load),
    .load_pos (lane_load_pos),
    .slip     (b_rx_bitslip),
    .err_data (lane_err_data),
    .err_hdr  (lane_err_hdr),
    .out_data (b_rx_data),
    .out_hdr  (b_rx_hdr),
    .slips    (lane_slips),
    .pos      (lane_pos)
);

froce_eth_pcs_10g #(
    .BIT_REVERSE      (BIT_REVERSE),
    .SLIP_WAIT        (SLIP_WAIT),
    .BER_TIMER_CYCLES (BER_TIMER_CYCLES),
    .COUNT_WIDTH      (32)
) u_pcs_b (
    .tx_clk            (clk),
    .tx_rst            (rst),
    .xgmii_txd         ({8{8'h07}}),
    .xgmii_txc         (8'hff),
    .serdes_tx_data    (b_tx_data),
    .serdes_tx_hdr     (b_tx_hdr),
    .tx_bad_block      (b_tx_bad_block),
    .rx_clk            (clk),
    .rx_rst            (rst),
    .serdes_rx_data    (b_rx_data),
    .serdes_rx_hdr     (b_rx_hdr),
    .serdes_rx_bitslip (b_rx_bitslip),
    .xgmii_rxd         (xgmii_rxd),
    .xgmii_rxc         (xgmii_rxc),
    .rx_block_lock     (b_rx_block_lock),
    .rx_hi_ber         (b_rx_hi_ber),
    .rx_link_up        (b_rx_link_up),
    .rx_sync_errors    (b_rx_sync_errors),
    .rx_block_errors   (b_rx_block_errors),
    .rx_lock_losses    (b_rx_lock_losses)
);

reg [7:0] down_hist = 8'd0;

always @(posedge clk) begin
    down_hist <= {down_hist[6:0], !b_rx_link_up || chk_force_down};
    if (&down_hist && m_axis_tvalid)
        chk_mac_out_down <= chk_mac_out_down + 32'd1;
    if (rst) begin
        down_hist <= 8'd0;
        chk_mac_out_down <= 32'd0;
    end
end

endmodule

`resetall
