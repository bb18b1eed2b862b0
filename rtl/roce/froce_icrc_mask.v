// SPDX-License-Identifier: MIT
// Per-beat byte substitution that turns a RoCE frame into the ICRC input.
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "froce_hw.vh"

/*
 * The ICRC is CRC-32 (init 0xFFFFFFFF, final xor) over
 *   8 bytes 0xFF (stand-in for the IB LRH) | L3 header with variant fields
 *   set to ones | UDP header with checksum = 0xFFFF (v2) | BTH with byte 4
 *   (FECN, BECN, resv6a) = 0xFF | everything else up to the ICRC.
 *
 * Starting the CRC register at 0 instead of 0xFFFFFFFF is the same as
 * complementing the first four message bytes, and leading zero bytes leave a
 * zero register unchanged. So the engine runs its CRC from 0 over the frame
 * as it is on the wire, from byte 0, with
 *   bytes [0, l3-4)   forced to 0x00 (Ethernet header, VLAN tag: not covered)
 *   bytes [l3-4, l3)  forced to 0xFF (the 8 FF bytes, first four complemented)
 *   variant fields    forced to ones
 * and stops before the ICRC. This module gives, for one beat of a frame, the
 * AND mask (zeros where a byte is forced to 0x00) and the OR mask (ones where
 * a bit is forced to 1). Variant fields:
 *   IPv4: TOS, TTL, header checksum; IPv6 and GRH: traffic class, flow label,
 *   hop limit; UDP checksum; BTH byte 4.
 */
module froce_icrc_mask #(
    parameter DATA_WIDTH = 64,              // stream width in bits
    parameter BEAT_IDX_WIDTH = 16           // width of the beat index input
) (
    input  wire [2:0]                  kind,        // FROCE_KIND_*
    input  wire                        vlan_en,     // an 802.1Q tag precedes L3
    input  wire [BEAT_IDX_WIDTH-1:0]   beat_idx,    // beat number within the frame
    output wire [DATA_WIDTH-1:0]       and_mask,
    output wire [DATA_WIDTH-1:0]       or_mask
);


localparam KEEP_WIDTH = DATA_WIDTH / 8;
localparam POS_WIDTH = BEAT_IDX_WIDTH + $clog2(KEEP_WIDTH);

// Byte offsets of the variant fields, relative to the start of L3
localparam [POS_WIDTH-1:0] V4_TOS = `FROCE_IPV4_TOS_OFF / 8;
localparam [POS_WIDTH-1:0] V4_TTL = `FROCE_IPV4_TTL_OFF / 8;
localparam [POS_WIDTH-1:0] V4_CSUM = `FROCE_IPV4_CHECKSUM_OFF / 8;
localparam [POS_WIDTH-1:0] V4_UDP_CSUM = `FROCE_IPV4_LEN + `FROCE_UDP_CHECKSUM_OFF / 8;
localparam [POS_WIDTH-1:0] V4_BTH_RESV = `FROCE_IPV4_LEN + `FROCE_UDP_LEN + `FROCE_BTH_FECN_OFF / 8;
localparam [POS_WIDTH-1:0] V6_HOP = `FROCE_IPV6_HOP_LIMIT_OFF / 8;
localparam [POS_WIDTH-1:0] V6_UDP_CSUM = `FROCE_IPV6_LEN + `FROCE_UDP_CHECKSUM_OFF / 8;
localparam [POS_WIDTH-1:0] V6_BTH_RESV = `FROCE_IPV6_LEN + `FROCE_UDP_LEN + `FROCE_BTH_FECN_OFF / 8;
localparam [POS_WIDTH-1:0] V1_BTH_RESV = `FROCE_GRH_LEN + `FROCE_BTH_FECN_OFF / 8;
localparam [POS_WIDTH-1:0] ONE = 1;
localparam [POS_WIDTH-1:0] TWO = 2;
localparam [POS_WIDTH-1:0] THREE = 3;
localparam [POS_WIDTH-1:0] FOUR = 4;
localparam [POS_WIDTH-1:0] L3_PLAIN = `FROCE_ETH_LEN;
localparam [POS_WIDTH-1:0] L3_VLAN = `FROCE_ETH_LEN + `FROCE_VLAN_LEN;

wire is_v4 = kind == `FROCE_KIND_ROCE_V2_IPV4;
wire is_v6 = kind == `FROCE_KIND_ROCE_V2_IPV6;
wire is_v1 = kind == `FROCE_KIND_ROCE_V1;

wire [POS_WIDTH-1:0] l3 = vlan_en ? L3_VLAN : L3_PLAIN;
wire [POS_WIDTH-1:0] beat_pos = {beat_idx, {$clog2(KEEP_WIDTH){1'b0}}};

genvar i;
generate
    for (i = 0; i < KEEP_WIDTH; i = i + 1) begin : g_lane
        localparam [POS_WIDTH-1:0] LANE = i;
        wire [POS_WIDTH-1:0] pos = beat_pos + LANE;
        // offset from the start of L3; only meaningful when pos >= l3
        wire [POS_WIDTH-1:0] rel = pos - l3;
        wire in_l3 = pos >= l3;

        wire zero_byte = pos < l3 - FOUR;
        wire ff_prefix = !zero_byte && !in_l3;

        // GRH and IPv6 share the first eight bytes' layout
        wire grh_like = is_v6 || is_v1;
        wire ff_v4 = is_v4 && in_l3 && (rel == V4_TOS || rel == V4_TTL ||
                     rel == V4_CSUM || rel == V4_CSUM + ONE ||
                     rel == V4_UDP_CSUM || rel == V4_UDP_CSUM + ONE ||
                     rel == V4_BTH_RESV);
        wire ff_v6 = grh_like && in_l3 && (rel == ONE || rel == TWO || rel == THREE ||
                     rel == V6_HOP);
        wire ff_v6_l4 = is_v6 && in_l3 && (rel == V6_UDP_CSUM ||
                        rel == V6_UDP_CSUM + ONE || rel == V6_BTH_RESV);
        wire ff_v1_l4 = is_v1 && in_l3 && rel == V1_BTH_RESV;
        // byte 0 of IPv6/GRH: version nibble kept, traffic-class nibble set
        wire nibble = grh_like && in_l3 && rel == {POS_WIDTH{1'b0}};

        wire ff_byte = ff_prefix || ff_v4 || ff_v6 || ff_v6_l4 || ff_v1_l4;

        assign and_mask[8*i +: 8] = zero_byte ? 8'h00 : 8'hff;
        assign or_mask[8*i +: 8] = ff_byte ? 8'hff : (nibble ? 8'h0f : 8'h00);
    end
endgenerate

endmodule

`resetall
