// SPDX-License-Identifier: MIT
// Generic (behavioural) DDR input register: one rising- and one falling-edge sample per clock.

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * For simulation and for targets without a DDR input primitive. Board builds
 * replace this file by a shim of the same name and ports around the vendor
 * primitive (fpga/common/rtl/ecp5/froce_iddr.v: IDDRX1F).
 *
 *   q1: d sampled on the rising edge N
 *   q2: d sampled on the following falling edge N + 1/2
 *
 * Both are presented together from rising edge N + 1 (the falling sample is
 * re-registered on the rising edge), so q1/q2 are an ordinary rising-edge
 * register pair for the logic behind it.
 */
module froce_iddr #(
    parameter WIDTH = 1                 // number of DDR input bits
) (
    input  wire             clk,
    input  wire [WIDTH-1:0] d,          // from the pad
    output wire [WIDTH-1:0] q1,         // rising-edge sample (first in time)
    output wire [WIDTH-1:0] q2          // falling-edge sample (second in time)
);

reg [WIDTH-1:0] d_rise_reg = {WIDTH{1'b0}};
reg [WIDTH-1:0] d_fall_reg = {WIDTH{1'b0}};
reg [WIDTH-1:0] q1_reg = {WIDTH{1'b0}};
reg [WIDTH-1:0] q2_reg = {WIDTH{1'b0}};

always @(posedge clk) begin
    d_rise_reg <= d;
end

always @(negedge clk) begin
    d_fall_reg <= d;
end

// pair the rising sample of edge N with the falling sample that followed it
always @(posedge clk) begin
    q1_reg <= d_rise_reg;
    q2_reg <= d_fall_reg;
end

assign q1 = q1_reg;
assign q2 = q2_reg;

endmodule

`resetall
