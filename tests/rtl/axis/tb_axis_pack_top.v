// SPDX-License-Identifier: MIT
// Bench top for the froce_axis_pack Verilator bench: the DUT, plus a negative-control input that corrupts one byte lane.
`resetall
`timescale 1ns / 1ps
`default_nettype none

module tb_axis_pack_top #(
    parameter DATA_WIDTH = 64,          // stream width in bits
    parameter REG_IN = 0                // the packer's input register slice
) (
    input  wire                         clk,
    input  wire                         rst,
    input  wire                         break_lane,     // 1: flip the top bit of the top byte lane of full output beats

    input  wire [DATA_WIDTH-1:0]        s_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0]      s_axis_tkeep,
    input  wire                         s_axis_tvalid,
    output wire                         s_axis_tready,
    input  wire                         s_axis_tlast,
    input  wire                         s_axis_tuser,

    output wire [DATA_WIDTH-1:0]        m_axis_tdata,
    output wire [DATA_WIDTH/8-1:0]      m_axis_tkeep,
    output wire                         m_axis_tvalid,
    input  wire                         m_axis_tready,
    output wire                         m_axis_tlast
);

wire [DATA_WIDTH-1:0] dut_tdata;

froce_axis_pack #(
    .DATA_WIDTH(DATA_WIDTH),
    .REG_IN(REG_IN)
) dut (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(s_axis_tdata),
    .s_axis_tkeep(s_axis_tkeep),
    .s_axis_tvalid(s_axis_tvalid),
    .s_axis_tready(s_axis_tready),
    .s_axis_tlast(s_axis_tlast),
    .s_axis_tuser(s_axis_tuser),
    .m_axis_tdata(dut_tdata),
    .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tready(m_axis_tready),
    .m_axis_tlast(m_axis_tlast)
);

assign m_axis_tdata = dut_tdata ^
    {(break_lane && m_axis_tkeep[DATA_WIDTH/8-1]), {(DATA_WIDTH-1){1'b0}}};

endmodule

`resetall
