// SPDX-License-Identifier: MIT
// Simulation top for froce-pcap: the RX parser and the TX builder side by side.
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "froce_hw.vh"

/*
 * The two blocks are independent here; the C++ harness chains them when it
 * needs to (rebuild, round trips). probe_* evaluates the generated opcode
 * table so the harness learns it from the RTL instead of keeping a copy.
 */
module froce_pcap_top #(
    parameter DATA_WIDTH = 64               // stream width in bits
) (
    input  wire                      clk,
    input  wire                      rst,

    /* RX parser */
    input  wire [DATA_WIDTH-1:0]     rx_s_tdata,
    input  wire [DATA_WIDTH/8-1:0]   rx_s_tkeep,
    input  wire                      rx_s_tvalid,
    output wire                      rx_s_tready,
    input  wire                      rx_s_tlast,
    output wire [`FROCE_RHDR_W-1:0]  rx_m_hdr,
    output wire                      rx_m_hdr_valid,
    input  wire                      rx_m_hdr_ready,
    output wire [DATA_WIDTH-1:0]     rx_m_tdata,
    output wire [DATA_WIDTH/8-1:0]   rx_m_tkeep,
    output wire                      rx_m_tvalid,
    input  wire                      rx_m_tready,
    output wire                      rx_m_tlast,
    output wire [3:0]                rx_m_tuser,
    output wire                      rx_stat_valid,
    output wire [3:0]                rx_stat_verdict,

    /* TX builder */
    input  wire [`FROCE_RHDR_W-1:0]  tx_s_hdr,
    input  wire                      tx_s_hdr_valid,
    output wire                      tx_s_hdr_ready,
    input  wire [DATA_WIDTH-1:0]     tx_s_tdata,
    input  wire [DATA_WIDTH/8-1:0]   tx_s_tkeep,
    input  wire                      tx_s_tvalid,
    output wire                      tx_s_tready,
    input  wire                      tx_s_tlast,
    output wire [DATA_WIDTH-1:0]     tx_m_tdata,
    output wire [DATA_WIDTH/8-1:0]   tx_m_tkeep,
    output wire                      tx_m_tvalid,
    input  wire                      tx_m_tready,
    output wire                      tx_m_tlast,
    output wire                      tx_m_tuser,
    output wire                      tx_stat_len_err,

    /* Opcode table probe */
    input  wire [7:0]                probe_opcode,
    output wire [15:0]               probe_info      // see froce_pcap.cpp
);


froce_rx_parser #(
    .DATA_WIDTH(DATA_WIDTH)
) u_parser (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(rx_s_tdata),
    .s_axis_tkeep(rx_s_tkeep),
    .s_axis_tvalid(rx_s_tvalid),
    .s_axis_tready(rx_s_tready),
    .s_axis_tlast(rx_s_tlast),
    .m_hdr(rx_m_hdr),
    .m_hdr_valid(rx_m_hdr_valid),
    .m_hdr_ready(rx_m_hdr_ready),
    .m_axis_tdata(rx_m_tdata),
    .m_axis_tkeep(rx_m_tkeep),
    .m_axis_tvalid(rx_m_tvalid),
    .m_axis_tready(rx_m_tready),
    .m_axis_tlast(rx_m_tlast),
    .m_axis_tuser(rx_m_tuser),
    .stat_valid(rx_stat_valid),
    .stat_verdict(rx_stat_verdict)
);

froce_tx_builder #(
    .DATA_WIDTH(DATA_WIDTH)
) u_builder (
    .clk(clk),
    .rst(rst),
    .s_hdr(tx_s_hdr),
    .s_hdr_valid(tx_s_hdr_valid),
    .s_hdr_ready(tx_s_hdr_ready),
    .s_axis_tdata(tx_s_tdata),
    .s_axis_tkeep(tx_s_tkeep),
    .s_axis_tvalid(tx_s_tvalid),
    .s_axis_tready(tx_s_tready),
    .s_axis_tlast(tx_s_tlast),
    .m_axis_tdata(tx_m_tdata),
    .m_axis_tkeep(tx_m_tkeep),
    .m_axis_tvalid(tx_m_tvalid),
    .m_axis_tready(tx_m_tready),
    .m_axis_tlast(tx_m_tlast),
    .m_axis_tuser(tx_m_tuser),
    .stat_len_err(tx_stat_len_err)
);

wire [5:0] probe_ext_len;
froce_opcode_info u_probe (
    .opcode(probe_opcode),
    .valid(probe_info[0]),
    .has_reth(probe_info[1]),
    .has_aeth(probe_info[2]),
    .has_deth(probe_info[3]),
    .has_immdt(probe_info[4]),
    .has_ieth(probe_info[5]),
    .has_atomiceth(probe_info[6]),
    .has_atomicacketh(probe_info[7]),
    .has_payload(probe_info[8]),
    .pos_first(probe_info[9]),
    .pos_last(probe_info[10]),
    .ext_len(probe_ext_len)
);
assign probe_info[15:11] = probe_ext_len[5:1];
wire unused_probe = probe_ext_len[0];

endmodule

`resetall
