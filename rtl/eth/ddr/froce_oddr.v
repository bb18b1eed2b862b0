// SPDX-License-Identifier: MIT
// Generic (behavioural) DDR output register: d1 in the high phase of the clock, d2 in the low phase.

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * For simulation and for targets without a DDR output primitive. Board
 * builds replace this file by a shim of the same name and ports around the
 * vendor primitive (fpga/common/rtl/ecp5/froce_oddr.v: ODDRX1F).
 *
 * d1 and d2 are sampled together on rising edge N; q is d1 from rising edge
 * N to the falling edge N + 1/2, then d2 until rising edge N + 1.
 *
 * Built from two flip-flops of opposite edges whose XOR is the output
 * (q = pos ^ neg): the rising-edge flop stores d1 ^ neg, so q becomes d1;
 * the falling-edge flop stores d2 ^ pos, so q becomes d2. No multiply-driven
 * register and no clock used as data, so it lints and synthesizes anywhere.
 */
module froce_oddr #(
    parameter WIDTH = 1                 // number of DDR output bits
) (
    input  wire             clk,
    input  wire [WIDTH-1:0] d1,         // driven first: high phase (after the rising edge)
    input  wire [WIDTH-1:0] d2,         // driven second: low phase (after the falling edge)
    output wire [WIDTH-1:0] q           // to the pad
);

reg [WIDTH-1:0] d2_reg = {WIDTH{1'b0}};
reg [WIDTH-1:0] pos_reg = {WIDTH{1'b0}};
reg [WIDTH-1:0] neg_reg = {WIDTH{1'b0}};

always @(posedge clk) begin
    pos_reg <= d1 ^ neg_reg;
    d2_reg <= d2;
end

always @(negedge clk) begin
    neg_reg <= d2_reg ^ pos_reg;
end

assign q = pos_reg ^ neg_reg;

endmodule

`resetall
