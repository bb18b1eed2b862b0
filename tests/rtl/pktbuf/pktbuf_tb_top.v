// SPDX-License-Identifier: MIT
// Test top: the RX parser feeding the store-and-forward packet buffer.
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "froce_hw.vh"

module pktbuf_tb_top #(
    parameter DATA_WIDTH = 64,              // stream width in bits
    parameter DEPTH = 512                   // ring beats: 4 KiB at 64 bits, to reach overflow
) (
    input  wire                      clk,
    input  wire                      rst,
    input  wire [DATA_WIDTH-1:0]     s_tdata,
    input  wire [DATA_WIDTH/8-1:0]   s_tkeep,
    input  wire                      s_tvalid,
    output wire                      s_tready,
    input  wire                      s_tlast,
    input  wire [47:0]               port_mac,
    input  wire [15:0]               port_mtu,
    input  wire                      port_promisc,
    input  wire                      port_allmulti,
    output wire [`FROCE_RHDR_W-1:0]  roce_hdr,
    output wire                      roce_hdr_valid,
    input  wire                      roce_hdr_ready,
    output wire [DATA_WIDTH-1:0]     roce_tdata,
    output wire [DATA_WIDTH/8-1:0]   roce_tkeep,
    output wire                      roce_tvalid,
    input  wire                      roce_tready,
    output wire                      roce_tlast,
    output wire [DATA_WIDTH-1:0]     net_tdata,
    output wire [DATA_WIDTH/8-1:0]   net_tkeep,
    output wire                      net_tvalid,
    input  wire                      net_tready,
    output wire                      net_tlast,
    output wire                      stat_valid,
    output wire                      stat_roce,
    output wire                      stat_net,
    output wire                      stat_dropped,
    output wire                      stat_filtered,
    output wire                      stat_overflow
);

wire [`FROCE_RHDR_W-1:0] p_hdr;
wire p_hdr_valid, p_hdr_ready;
wire [DATA_WIDTH-1:0] p_tdata;
wire [DATA_WIDTH/8-1:0] p_tkeep;
wire p_tvalid, p_tready, p_tlast;
wire [3:0] p_tuser;
wire unused_pstat_valid;
wire [3:0] unused_pstat_verdict;

froce_rx_parser #(
    .DATA_WIDTH(DATA_WIDTH)
) u_parser (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(s_tdata),
    .s_axis_tkeep(s_tkeep),
    .s_axis_tvalid(s_tvalid),
    .s_axis_tready(s_tready),
    .s_axis_tlast(s_tlast),
    .m_hdr(p_hdr),
    .m_hdr_valid(p_hdr_valid),
    .m_hdr_ready(p_hdr_ready),
    .m_axis_tdata(p_tdata),
    .m_axis_tkeep(p_tkeep),
    .m_axis_tvalid(p_tvalid),
    .m_axis_tready(p_tready),
    .m_axis_tlast(p_tlast),
    .m_axis_tuser(p_tuser),
    .stat_valid(unused_pstat_valid),
    .stat_verdict(unused_pstat_verdict)
);

froce_rx_pkt_buffer #(
    .DATA_WIDTH(DATA_WIDTH),
    .DEPTH(DEPTH)
) u_buffer (
    .clk(clk),
    .rst(rst),
    .s_hdr(p_hdr),
    .s_hdr_valid(p_hdr_valid),
    .s_hdr_ready(p_hdr_ready),
    .s_axis_tdata(p_tdata),
    .s_axis_tkeep(p_tkeep),
    .s_axis_tvalid(p_tvalid),
    .s_axis_tready(p_tready),
    .s_axis_tlast(p_tlast),
    .s_axis_tuser(p_tuser),
    .port_mac(port_mac),
    .port_mtu(port_mtu),
    .port_promisc(port_promisc),
    .port_allmulti(port_allmulti),
    .m_roce_hdr(roce_hdr),
    .m_roce_hdr_valid(roce_hdr_valid),
    .m_roce_hdr_ready(roce_hdr_ready),
    .m_roce_tdata(roce_tdata),
    .m_roce_tkeep(roce_tkeep),
    .m_roce_tvalid(roce_tvalid),
    .m_roce_tready(roce_tready),
    .m_roce_tlast(roce_tlast),
    .m_net_tdata(net_tdata),
    .m_net_tkeep(net_tkeep),
    .m_net_tvalid(net_tvalid),
    .m_net_tready(net_tready),
    .m_net_tlast(net_tlast),
    .stat_valid(stat_valid),
    .stat_roce(stat_roce),
    .stat_net(stat_net),
    .stat_dropped(stat_dropped),
    .stat_filtered(stat_filtered),
    .stat_overflow(stat_overflow)
);

endmodule

`resetall
