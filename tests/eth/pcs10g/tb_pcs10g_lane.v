// SPDX-License-Identifier: MIT
// Bench-only lane model: a 66-bit window over the serial 64B/66B stream that a GT gearbox slip moves by one bit.

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * The stream is the concatenation of the blocks in line order: per block
 * the two header bits (hdr[0] first), then payload bits 0..63. in_* and
 * out_* are in the GT's bus order (mirrored when BIT_REVERSE = 1), so the
 * model is the same physical lane for both conventions.
 *
 * hist = {this cycle's block, last cycle's block}; the output block is
 * hist[pos +: 66], registered. pos = 0 and pos = 66 are both aligned (the
 * previous or the current block). A slip request takes effect SLIP_LATENCY
 * cycles later and moves the window one bit later in the stream: pos + 1;
 * from 66 it wraps to 1, which repeats 65 bits once (the gearbox's pause
 * when its boundary crosses a word), then continues one bit later. load
 * sets pos (the initial bit offset). err_* are XORed into the output
 * block, in line order (err_hdr[0] = first header bit, err_data[i] =
 * payload bit i), for injected line errors.
 */
module tb_pcs10g_lane #(
    parameter BIT_REVERSE = 0,         // bus order of in_*/out_*, as the PCS's parameter
    parameter SLIP_LATENCY = 4         // cycles from a slip request to the moved window (>= 1)
) (
    input  wire        clk,
    input  wire        rst,            // clears the slip counter only

    input  wire [63:0] in_data,
    input  wire [1:0]  in_hdr,

    input  wire        load,           // set the window start to load_pos
    input  wire [6:0]  load_pos,       // 0..66
    input  wire        slip,           // the PCS's serdes_rx_bitslip

    input  wire [63:0] err_data,       // XORed into the output payload (line order)
    input  wire [1:0]  err_hdr,        // XORed into the output header (line order)

    output wire [63:0] out_data,
    output wire [1:0]  out_hdr,
    output wire [31:0] slips,          // slip requests seen since rst
    output wire [6:0]  pos             // window start in bits, 0..66
);

function [65:0] bus_to_line;   // {data, hdr} in line order
    input [63:0] bd;
    input [1:0]  bh;
    integer b;
    begin
        for (b = 0; b < 64; b = b + 1)
            bus_to_line[2+b] = BIT_REVERSE ? bd[63-b] : bd[b];
        bus_to_line[0] = BIT_REVERSE ? bh[1] : bh[0];
        bus_to_line[1] = BIT_REVERSE ? bh[0] : bh[1];
    end
endfunction

function [65:0] line_to_bus;   // {data, hdr} in bus order
    input [65:0] l;
    integer b;
    begin
        for (b = 0; b < 64; b = b + 1)
            line_to_bus[2+b] = BIT_REVERSE ? l[2+63-b] : l[2+b];
        line_to_bus[0] = BIT_REVERSE ? l[1] : l[0];
        line_to_bus[1] = BIT_REVERSE ? l[0] : l[1];
    end
endfunction

wire [65:0] cur = bus_to_line(in_data, in_hdr);
reg  [65:0] prev_reg = 66'd0;
wire [131:0] hist = {cur, prev_reg};

reg [6:0] pos_reg = 7'd0;
reg [SLIP_LATENCY-1:0] slip_pipe = {SLIP_LATENCY{1'b0}};
reg [31:0] slips_reg = 32'd0;
reg [65:0] out_reg = 66'd0;

wire [65:0] win = hist[pos_reg +: 66];

always @(posedge clk) begin
    prev_reg <= cur;
    slip_pipe <= {slip_pipe, slip};   // truncated: shift in at bit 0
    if (slip)
        slips_reg <= slips_reg + 1;
    if (rst)
        slips_reg <= 32'd0;
    if (load)
        pos_reg <= load_pos;
    else if (slip_pipe[SLIP_LATENCY-1])
        pos_reg <= (pos_reg == 7'd66) ? 7'd1 : pos_reg + 7'd1;
    out_reg <= line_to_bus(win ^ {err_data, err_hdr});
end

assign out_data = out_reg[65:2];
assign out_hdr = out_reg[1:0];
assign slips = slips_reg;
assign pos = pos_reg;

endmodule

`resetall
