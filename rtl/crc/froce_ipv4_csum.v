// SPDX-License-Identifier: MIT
// Combinational IPv4 header checksum: ones-complement sum of a 20-byte header (no options).

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * header carries the 20 header bytes in wire order, byte 0 (version/IHL) in
 * header[7:0] and byte 19 in header[159:152]. Word n (n = 0..9) is the
 * big-endian 16-bit value {byte 2n, byte 2n+1}.
 *
 * sum   = ones-complement sum of the ten words (end-around carry folded).
 * valid = (sum == 16'hFFFF): a received header with its checksum field is
 *         correct. (A header whose sum is the other zero, 16'h0000, would need
 *         all ten words to be zero, which is not a valid IPv4 header.)
 *
 * Building a header: present it with bytes 10/11 (the checksum field) zero
 * and insert ~sum there, most significant byte in byte 10.
 *
 * Adder tree (plain binary sums, carries kept, folded once at the end):
 *
 *   level 1: five 17-bit sums of word pairs       (<= 2 * 0xFFFF)
 *   level 2: two 18-bit sums, words 0-3 and 4-7   (<= 4 * 0xFFFF)
 *   level 3: one 19-bit sum of words 0-7          (<= 8 * 0xFFFF)
 *   level 4: plus words 8-9, 20 bits              (<= 10 * 0xFFFF = 0x9FFF6)
 *   fold 1:  low 16 + high 4 bits, 17 bits        (<= 0xFFFF + 9)
 *   fold 2:  low 16 + bit 16; if bit 16 was set the low part is <= 8, so
 *            this cannot carry again.
 */
module froce_ipv4_csum (
    input  wire [159:0] header,   // the 20-byte header, byte 0 (version/IHL) in [7:0], byte 19 in [159:152]
    output wire [15:0]  sum,      // ones-complement sum of the ten 16-bit big-endian words, end-around carry folded
    output wire         valid     // sum == 16'hFFFF (a received header with its checksum is correct)
);

// ten big-endian words, zero-extended by one bit for the first adder level
wire [16:0] word [0:9];

genvar n;
generate
    for (n = 0; n < 10; n = n + 1) begin : g_word
        assign word[n] = {1'b0, header[16*n +: 8], header[16*n+8 +: 8]};
    end
endgenerate

// level 1: pairs
wire [16:0] sum_l1_0 = word[0] + word[1];
wire [16:0] sum_l1_1 = word[2] + word[3];
wire [16:0] sum_l1_2 = word[4] + word[5];
wire [16:0] sum_l1_3 = word[6] + word[7];
wire [16:0] sum_l1_4 = word[8] + word[9];

// level 2: quads
wire [17:0] sum_l2_0 = {1'b0, sum_l1_0} + {1'b0, sum_l1_1};
wire [17:0] sum_l2_1 = {1'b0, sum_l1_2} + {1'b0, sum_l1_3};

// level 3: words 0..7
wire [18:0] sum_l3 = {1'b0, sum_l2_0} + {1'b0, sum_l2_1};

// level 4: all ten words
wire [19:0] sum_l4 = {1'b0, sum_l3} + {3'b000, sum_l1_4};

// end-around carry, twice (see header comment for the bound)
wire [16:0] sum_fold1 = {1'b0, sum_l4[15:0]} + {13'd0, sum_l4[19:16]};
wire [16:0] sum_fold2 = {1'b0, sum_fold1[15:0]} + {16'd0, sum_fold1[16]};

// sum_fold2[16] is always zero (bound above)
wire unused_sum_fold2 = sum_fold2[16];

assign sum   = sum_fold2[15:0];
assign valid = (sum_fold2[15:0] == 16'hFFFF);

endmodule

`resetall
