// SPDX-License-Identifier: MIT
// cocotb top for froce_eth_mac_1g_rgmii: the DUT with its ports brought out, plus a fault injector on RGMII TXD.

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * The clocks are generated here, not in Python (a cocotb Clock costs two
 * Python wake-ups per period): gtx_clk 125 MHz, gtx_clk90 the same 2 ns
 * (90 degrees) later, rgmii_rx_clk (the PHY's) 125 MHz at an unrelated phase.
 *
 * The models attach to these ports: cocotbext-axi AxiStreamSource on
 * s_axis_*, cocotbext-eth RgmiiSink on sink_txd / rgmii_tx_ctl /
 * rgmii_tx_clk, RgmiiSource on rgmii_rxd / rgmii_rx_ctl / rgmii_rx_clk.
 * sink_txd is rgmii_txd XOR tb_txd_fault: the negative control flips wire
 * bits there to show the transmit checks catch a corrupted frame.
 */
module tb_froce_eth_mac_1g_rgmii #(
    parameter DATA_WIDTH = 64,          // frame port width in bits
    parameter MAX_FRAME = 9600      // longest received frame, bytes without FCS
) (
    input  wire                     gtx_rst,
    output wire                     rx_clk,
    output wire                     rx_rst,

    input  wire [DATA_WIDTH-1:0]    s_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0]  s_axis_tkeep,
    input  wire                     s_axis_tvalid,
    output wire                     s_axis_tready,
    input  wire                     s_axis_tlast,
    input  wire                     s_axis_tuser,

    output wire [DATA_WIDTH-1:0]    m_axis_tdata,
    output wire [DATA_WIDTH/8-1:0]  m_axis_tkeep,
    output wire                     m_axis_tvalid,
    output wire                     m_axis_tlast,
    output wire                     m_axis_tuser,

    input  wire [3:0]               rgmii_rxd,
    input  wire                     rgmii_rx_ctl,
    output wire                     rgmii_tx_clk,
    output wire [3:0]               rgmii_txd,
    output wire                     rgmii_tx_ctl,

    input  wire [3:0]               tb_txd_fault,
    output wire [3:0]               sink_txd,

    output wire [31:0]              tx_frames,
    output wire [31:0]              tx_aborted,
    output wire [31:0]              tx_underrun,
    output wire [31:0]              rx_frames_ok,
    output wire [31:0]              rx_bad_fcs,
    output wire [31:0]              rx_err,
    output wire [31:0]              rx_runt,
    output wire [31:0]              rx_oversize
);

reg gtx_clk = 1'b0;
reg gtx_clk90 = 1'b0;
reg rgmii_rx_clk = 1'b0;

initial begin
    #8;
    forever #4 gtx_clk = ~gtx_clk;
end

initial begin
    #10;
    forever #4 gtx_clk90 = ~gtx_clk90;
end

initial begin
    #11.337;
    forever #4 rgmii_rx_clk = ~rgmii_rx_clk;
end

assign sink_txd = rgmii_txd ^ tb_txd_fault;

froce_eth_mac_1g_rgmii #(
    .DATA_WIDTH(DATA_WIDTH),
    .USE_CLK90(1),
    .IFG(12),
    .MAX_FRAME(MAX_FRAME),
    .COUNTER_WIDTH(32)
) dut (
    .gtx_clk(gtx_clk),
    .gtx_clk90(gtx_clk90),
    .gtx_rst(gtx_rst),
    .rx_clk(rx_clk),
    .rx_rst(rx_rst),
    .s_axis_tdata(s_axis_tdata),
    .s_axis_tkeep(s_axis_tkeep),
    .s_axis_tvalid(s_axis_tvalid),
    .s_axis_tready(s_axis_tready),
    .s_axis_tlast(s_axis_tlast),
    .s_axis_tuser(s_axis_tuser),
    .m_axis_tdata(m_axis_tdata),
    .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tlast(m_axis_tlast),
    .m_axis_tuser(m_axis_tuser),
    .rgmii_rx_clk(rgmii_rx_clk),
    .rgmii_rxd(rgmii_rxd),
    .rgmii_rx_ctl(rgmii_rx_ctl),
    .rgmii_tx_clk(rgmii_tx_clk),
    .rgmii_txd(rgmii_txd),
    .rgmii_tx_ctl(rgmii_tx_ctl),
    .tx_frames(tx_frames),
    .tx_aborted(tx_aborted),
    .tx_underrun(tx_underrun),
    .rx_frames_ok(rx_frames_ok),
    .rx_bad_fcs(rx_bad_fcs),
    .rx_err(rx_err),
    .rx_runt(rx_runt),
    .rx_oversize(rx_oversize)
);

endmodule

`resetall
