// SPDX-License-Identifier: MIT
// AXI-Stream prepend: optionally puts a fixed-size block of bytes in front of a packet, kept packed.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * For each input packet, if `pre_en` is set when it starts, PRE_BYTES bytes of
 * `pre_data` (byte 0 in bits 7:0) go out first, then the packet's bytes; the
 * output is packed (every beat full except the last) either way. The rx
 * path uses it for the 40-byte GRH area in front of a UD datagram.
 *
 * `pre_en` and `pre_data` must hold from the first output beat of the
 * block until the input packet's last beat has been taken; `active` says a
 * packet is on its way (the block is sent only then, so an empty packet
 * with the block still gets it). Input packets are packed streams (full
 * beats except the last; an empty packet is one beat with tkeep = 0).
 *
 * The block and the packet are two pieces for froce_axis_pack: one cycle of
 * latency (two with REG_IN), one beat per cycle, and the block costs ceil(PRE_BYTES / W)
 * cycles per packet that has it.
 */
module froce_axis_prepend #(
    parameter DATA_WIDTH = 64,
    parameter PRE_BYTES = 40,
    parameter REG_IN = 0                // froce_axis_pack's input register slice
) (
    input  wire                         clk,
    input  wire                         rst,

    input  wire                         active,
    input  wire                         pre_en,
    input  wire [PRE_BYTES*8-1:0]       pre_data,

    input  wire [DATA_WIDTH-1:0]        s_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0]      s_axis_tkeep,
    input  wire                         s_axis_tvalid,
    output wire                         s_axis_tready,
    input  wire                         s_axis_tlast,

    output wire [DATA_WIDTH-1:0]        m_axis_tdata,
    output wire [DATA_WIDTH/8-1:0]      m_axis_tkeep,
    output wire                         m_axis_tvalid,
    input  wire                         m_axis_tready,
    output wire                         m_axis_tlast
);

localparam W = DATA_WIDTH / 8;
localparam PRE_BEATS = (PRE_BYTES + W - 1) / W;
localparam PB_W = $clog2(PRE_BEATS + 1);
localparam PAD_BITS = PRE_BEATS * DATA_WIDTH;

reg [PB_W-1:0] pre_cnt_reg;     // block beats sent for the current packet

wire pre_phase = active && pre_en && pre_cnt_reg != PRE_BEATS[PB_W-1:0];

// the block, padded to whole beats, and the current beat of it
reg [PAD_BITS-1:0] pre_padded;
always @* begin
    pre_padded = {PAD_BITS{1'b0}};
    pre_padded[PRE_BYTES*8-1:0] = pre_data;
end
wire [31:0] pre_sent = {{(32 - PB_W){1'b0}}, pre_cnt_reg} * W;
/* verilator lint_off UNUSEDSIGNAL */
wire [PAD_BITS-1:0] pre_shifted = pre_padded >> (pre_sent * 8);   // (only its low beat is used)
/* verilator lint_on UNUSEDSIGNAL */
wire [31:0] pre_left = PRE_BYTES - pre_sent;            // bytes of the block not yet sent
wire pre_last = pre_left <= W;
wire [W-1:0] pre_keep = pre_last ? ~({W{1'b1}} << pre_left[$clog2(W):0]) : {W{1'b1}};

wire pk_tready;
assign s_axis_tready = !pre_phase && pk_tready;

froce_axis_pack #(.DATA_WIDTH(DATA_WIDTH), .REG_IN(REG_IN)) packer (
    .clk(clk), .rst(rst),
    .s_axis_tdata(pre_phase ? pre_shifted[DATA_WIDTH-1:0] : s_axis_tdata),
    .s_axis_tkeep(pre_phase ? pre_keep : s_axis_tkeep),
    .s_axis_tvalid(pre_phase || s_axis_tvalid),
    .s_axis_tready(pk_tready),
    .s_axis_tlast(pre_phase ? pre_last : s_axis_tlast),
    .s_axis_tuser(!pre_phase && s_axis_tlast),
    .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep), .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tready(m_axis_tready), .m_axis_tlast(m_axis_tlast)
);

always @(posedge clk) begin
    if (pre_phase && pk_tready)
        pre_cnt_reg <= pre_cnt_reg + 1'b1;
    if (s_axis_tvalid && s_axis_tready && s_axis_tlast)
        pre_cnt_reg <= {PB_W{1'b0}};
    if (rst)
        pre_cnt_reg <= {PB_W{1'b0}};
end

wire unused_prepend = ^pre_left[31:$clog2(W) + 1];

endmodule

`resetall
