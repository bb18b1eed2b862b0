// SPDX-License-Identifier: MIT
// DDR input register on Lattice ECP5: froce_iddr mapped onto IDDRX1F, one per bit.

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Same module name and ports as the generic rtl/eth/ddr/froce_iddr.v; a board
 * build puts this file (not the generic one) on its source list.
 *
 * IDDRX1F samples D on both edges of SCLK and presents both samples on SCLK's
 * rising edge: Q0 is the rising-edge sample, Q1 the falling-edge sample
 * (the convention of Lattice's ECP5 I/O tech note and of LiteX's
 * DDRInput(o1 = Q0, o2 = Q1)). D must come straight from an input pad
 * (optionally through a DELAYG/DELAYF).
 */
module froce_iddr #(
    parameter WIDTH = 1                 // number of DDR input bits
) (
    input  wire             clk,
    input  wire [WIDTH-1:0] d,          // from the pad
    output wire [WIDTH-1:0] q1,         // rising-edge sample (first in time)
    output wire [WIDTH-1:0] q2          // falling-edge sample (second in time)
);

genvar i;
generate
    for (i = 0; i < WIDTH; i = i + 1) begin : g_bit
        IDDRX1F u_iddr (
            .D(d[i]),
            .SCLK(clk),
            .RST(1'b0),
            .Q0(q1[i]),
            .Q1(q2[i])
        );
    end
endgenerate

endmodule

`resetall
