// SPDX-License-Identifier: MIT
// 10GBASE-R self-synchronising scrambler, G(x) = 1 + x^39 + x^58 (IEEE 802.3 49.2.6), one 64-bit block per cycle.

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Bit order: in_data[i] is the i-th payload bit on the line (bit 0 first),
 * as everywhere in the PCS (docs/ethernet-pcs10g.md). The sync header is
 * not scrambled; it travels beside the payload so the two stay aligned.
 *
 *   S(n) = D(n) ^ S(n-39) ^ S(n-58)
 *
 * state_reg holds the last 58 scrambled bits in line order, state_reg[57]
 * the most recent. Concatenating {out, state} gives a vector e with
 * e[58+i] = S(i), so S(i-39) = e[19+i] and S(i-58) = e[i]. Bits 0..38 of a
 * block depend only on the state; bits 39..63 also on bits 0..24 of the same
 * block (two XOR levels, no longer chains).
 *
 * Latency: one cycle (out_* are registers). No reset: the descrambler
 * synchronises to any state after 58 bits, and running through the PCS's
 * reset keeps the line carrying valid scrambled blocks (LBLOCK_T) meanwhile.
 * The power-up value is all ones.
 */
module froce_eth_pcs_scrambler (
    input  wire        clk,

    /* Unscrambled block in */
    input  wire [63:0] in_data,        // payload, bit 0 first on the line
    input  wire [1:0]  in_hdr,         // sync header, passed through

    /* Scrambled block out, one cycle later */
    output wire [63:0] out_data,
    output wire [1:0]  out_hdr
);

function [63:0] scramble;
    input [63:0] d;
    input [57:0] s;
    reg [121:0] e;
    integer i;
    begin
        e = {64'd0, s};
        for (i = 0; i < 64; i = i + 1)
            e[58+i] = d[i] ^ e[19+i] ^ e[i];
        scramble = e[121:58];
    end
endfunction

reg [57:0] state_reg = {58{1'b1}};
reg [63:0] out_data_reg = 64'd0;
reg [1:0]  out_hdr_reg = 2'b00;

wire [63:0] scrambled = scramble(in_data, state_reg);

assign out_data = out_data_reg;
assign out_hdr  = out_hdr_reg;

always @(posedge clk) begin
    out_data_reg <= scrambled;
    out_hdr_reg <= in_hdr;
    state_reg <= scrambled[63:6];
end

endmodule

`resetall
