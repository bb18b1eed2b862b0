// SPDX-License-Identifier: MIT
// DDR output register on Lattice ECP5: froce_oddr mapped onto ODDRX1F, one per bit.

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Same module name and ports as the generic rtl/eth/ddr/froce_oddr.v; a board
 * build puts this file (not the generic one) on its source list.
 *
 * ODDRX1F samples D0 and D1 on the rising edge of SCLK and drives D0 in the
 * high phase, D1 in the low phase (LiteX's DDROutput(i1 = D0, i2 = D1)).
 * Q must go straight to an output pad (optionally through a DELAYG/DELAYF).
 */
module froce_oddr #(
    parameter WIDTH = 1                 // number of DDR output bits
) (
    input  wire             clk,
    input  wire [WIDTH-1:0] d1,         // driven first: high phase (after the rising edge)
    input  wire [WIDTH-1:0] d2,         // driven second: low phase (after the falling edge)
    output wire [WIDTH-1:0] q           // to the pad
);

genvar i;
generate
    for (i = 0; i < WIDTH; i = i + 1) begin : g_bit
        ODDRX1F u_oddr (
            .SCLK(clk),
            .RST(1'b0),
            .D0(d1[i]),
            .D1(d2[i]),
            .Q(q[i])
        );
    end
endgenerate

endmodule

`resetall
