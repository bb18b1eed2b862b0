// SPDX-License-Identifier: MIT
// 10GBASE-R self-synchronising descrambler, G(x) = 1 + x^39 + x^58 (IEEE 802.3 49.2.10), one 64-bit block per cycle.

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Bit order: in_data[i] is the i-th payload bit on the line (bit 0 first).
 *
 *   D(n) = R(n) ^ R(n-39) ^ R(n-58)      (R = received, scrambled bits)
 *
 * state_reg holds the last 58 received bits in line order, state_reg[57] the
 * most recent, so e = {in, state} has e[58+i] = R(i), R(i-39) = e[19+i] and
 * R(i-58) = e[i]: one XOR level of three
 * inputs per bit, no feedback. The output is correct from the 59th received
 * bit on, whatever the initial state; a line bit error shows up three times
 * (at its position and 39 and 58 bits later), which is what the benches
 * check for.
 *
 * Latency: one cycle. The sync header passes beside the payload unchanged.
 * No reset: the state is just the last 58 line bits.
 */
module froce_eth_pcs_descrambler (
    input  wire        clk,

    /* Scrambled block in */
    input  wire [63:0] in_data,        // payload, bit 0 first on the line
    input  wire [1:0]  in_hdr,         // sync header, passed through

    /* Descrambled block out, one cycle later */
    output wire [63:0] out_data,
    output wire [1:0]  out_hdr
);

reg [57:0] state_reg = 58'd0;
reg [63:0] out_data_reg = 64'd0;
reg [1:0]  out_hdr_reg = 2'b00;

wire [82:0] ext = {in_data[24:0], state_reg};   // R(i-58) .. R(24)

assign out_data = out_data_reg;
assign out_hdr  = out_hdr_reg;

always @(posedge clk) begin
    out_data_reg <= in_data ^ ext[82:19] ^ ext[63:0];
    out_hdr_reg <= in_hdr;
    state_reg <= in_data[63:6];
end

endmodule

`resetall
