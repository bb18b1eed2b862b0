// SPDX-License-Identifier: MIT
// cocotb top for the 10G MAC benches: froce_eth_mac_10g with froce_eth_rx_fifo behind its receiver.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * One clock and reset for both directions. The MAC's RX output is brought
 * out (m_axis_*, monitored) and also feeds froce_eth_rx_fifo, whose output is
 * f_axis_* (with tready, for an AxiStreamSink).
 */
module tb_mac10g #(
    parameter MAX_FRAME = 9600,         // froce_eth_mac_10g MAX_FRAME
    parameter ENABLE_DIC = 1,           // froce_eth_mac_10g ENABLE_DIC
    parameter TX_FIFO_BYTES = 0,        // froce_eth_mac_10g TX_FIFO_BYTES
    parameter RX_FIFO_BYTES = 16384     // froce_eth_rx_fifo DEPTH_BYTES
) (
    input  wire         clk,
    input  wire         rst,

    input  wire [63:0]  s_axis_tdata,
    input  wire [7:0]   s_axis_tkeep,
    input  wire         s_axis_tvalid,
    output wire         s_axis_tready,
    input  wire         s_axis_tlast,
    input  wire         s_axis_tuser,

    output wire [63:0]  xgmii_txd,
    output wire [7:0]   xgmii_txc,
    input  wire [63:0]  xgmii_rxd,
    input  wire [7:0]   xgmii_rxc,

    output wire [63:0]  m_axis_tdata,
    output wire [7:0]   m_axis_tkeep,
    output wire         m_axis_tvalid,
    output wire         m_axis_tlast,
    output wire         m_axis_tuser,

    output wire [63:0]  f_axis_tdata,
    output wire [7:0]   f_axis_tkeep,
    output wire         f_axis_tvalid,
    input  wire         f_axis_tready,
    output wire         f_axis_tlast,

    output wire [31:0]  tx_frames,
    output wire [63:0]  tx_bytes,
    output wire [31:0]  tx_aborted,
    output wire [31:0]  tx_oversize,
    output wire [31:0]  tx_underrun,
    output wire [31:0]  tx_fifo_dropped,
    output wire [31:0]  rx_frames_ok,
    output wire [63:0]  rx_bytes_ok,
    output wire [31:0]  rx_bad_fcs,
    output wire [31:0]  rx_err_char,
    output wire [31:0]  rx_runt,
    output wire [31:0]  rx_oversize,
    output wire [31:0]  rx_bad_preamble,
    output wire [31:0]  rx_fifo_bad_dropped,
    output wire [31:0]  rx_fifo_full_dropped
);

froce_eth_mac_10g #(
    .MAX_FRAME(MAX_FRAME),
    .ENABLE_DIC(ENABLE_DIC),
    .TX_FIFO_BYTES(TX_FIFO_BYTES)
) u_mac (
    .tx_clk(clk),
    .tx_rst(rst),
    .rx_clk(clk),
    .rx_rst(rst),
    .s_axis_tdata(s_axis_tdata),
    .s_axis_tkeep(s_axis_tkeep),
    .s_axis_tvalid(s_axis_tvalid),
    .s_axis_tready(s_axis_tready),
    .s_axis_tlast(s_axis_tlast),
    .s_axis_tuser(s_axis_tuser),
    .xgmii_txd(xgmii_txd),
    .xgmii_txc(xgmii_txc),
    .xgmii_rxd(xgmii_rxd),
    .xgmii_rxc(xgmii_rxc),
    .m_axis_tdata(m_axis_tdata),
    .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tlast(m_axis_tlast),
    .m_axis_tuser(m_axis_tuser),
    .tx_frames(tx_frames),
    .tx_bytes(tx_bytes),
    .tx_aborted(tx_aborted),
    .tx_oversize(tx_oversize),
    .tx_underrun(tx_underrun),
    .tx_fifo_dropped(tx_fifo_dropped),
    .rx_frames_ok(rx_frames_ok),
    .rx_bytes_ok(rx_bytes_ok),
    .rx_bad_fcs(rx_bad_fcs),
    .rx_err_char(rx_err_char),
    .rx_runt(rx_runt),
    .rx_oversize(rx_oversize),
    .rx_bad_preamble(rx_bad_preamble)
);

froce_eth_rx_fifo #(
    .DEPTH_BYTES(RX_FIFO_BYTES)
) u_rx_fifo (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(m_axis_tdata),
    .s_axis_tkeep(m_axis_tkeep),
    .s_axis_tvalid(m_axis_tvalid),
    .s_axis_tlast(m_axis_tlast),
    .s_axis_tuser(m_axis_tuser),
    .m_axis_tdata(f_axis_tdata),
    .m_axis_tkeep(f_axis_tkeep),
    .m_axis_tvalid(f_axis_tvalid),
    .m_axis_tready(f_axis_tready),
    .m_axis_tlast(f_axis_tlast),
    .rx_fifo_bad_dropped(rx_fifo_bad_dropped),
    .rx_fifo_full_dropped(rx_fifo_full_dropped)
);

endmodule

`resetall
