// SPDX-License-Identifier: MIT
// RoCE transmit builder: a complete frame from a header bundle and a payload.
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "froce_hw.vh"

/*
 * Input: one header bundle (RHDR layout in froce_hw.vh) and one payload frame
 * per packet, in order. The bundle's kind picks the encapsulation (RoCE v2
 * over IPv4 or IPv6, or RoCE v1 with a GRH), vlan_en adds an 802.1Q tag, and
 * its opcode says how many of the extension-header bytes (ext) go on the wire
 * (froce_opcode_info's ext_len). payload_len is
 * the number of payload bytes; the payload frame carries exactly that many
 * (an empty payload is one beat with tkeep = 0); every beat but the last is
 * full.
 *
 * The builder fills in what the bundle does not carry: IPv4 version, IHL,
 * total length, protocol and header checksum (DF from ip_df); IPv6 payload
 * length and next header; the GRH payload length (BTH through ICRC) and next
 * header 0x1B; UDP destination port 4791, length, checksum 0; BTH PadCnt and
 * the pad bytes; the ICRC, least significant byte first. The frame is not
 * padded to the Ethernet minimum: the MAC does that.
 *
 * A payload frame shorter or longer than payload_len is a caller error: the
 * frame is still emitted with payload_len bytes (zeros for missing bytes,
 * extra bytes dropped), flagged with tuser = 1 on its tlast beat so the MAC
 * can abort it, and counted on stat_len_err.
 *
 * Output: one beat per cycle while the payload keeps up, no gap between
 * frames; header beats go out while the payload waits.
 */
module froce_tx_builder #(
    parameter DATA_WIDTH = 64               // stream width in bits, 64..512
) (
    input  wire                      clk,
    input  wire                      rst,

    /* Header bundle in */
    input  wire [`FROCE_RHDR_W-1:0]  s_hdr,
    input  wire                      s_hdr_valid,
    output wire                      s_hdr_ready,

    /* Payload in */
    input  wire [DATA_WIDTH-1:0]     s_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0]   s_axis_tkeep,
    input  wire                      s_axis_tvalid,
    output wire                      s_axis_tready,
    input  wire                      s_axis_tlast,

    /* Ethernet frame out (no preamble, no FCS) */
    output wire [DATA_WIDTH-1:0]     m_axis_tdata,
    output wire [DATA_WIDTH/8-1:0]   m_axis_tkeep,
    output wire                      m_axis_tvalid,
    input  wire                      m_axis_tready,
    output wire                      m_axis_tlast,
    output wire                      m_axis_tuser,  // payload length error, on tlast

    /* Status */
    output wire                      stat_len_err
);


localparam W = DATA_WIDTH / 8;
localparam KW = $clog2(W);
localparam MAX_HDR_BYTES = `FROCE_ETH_LEN + `FROCE_VLAN_LEN + `FROCE_IPV6_LEN +
                           `FROCE_UDP_LEN + `FROCE_BTH_LEN + `FROCE_ATOMICETH_LEN;
localparam HDR_BEATS = (MAX_HDR_BYTES + W - 1) / W;
localparam HDR_BYTES = HDR_BEATS * W;
localparam HB = HDR_BYTES * 8;
localparam TOP = HB - 1;
localparam BW = 16;                             // beat counter width
localparam PW = BW + KW;                        // byte position width
localparam [PW-1:0] P_W = W[PW-1:0];
localparam [PW-1:0] P_ICRC = 4;
localparam [BW-1:0] B_HDR_BEATS = HDR_BEATS[BW-1:0];
localparam HBW = $clog2(HDR_BEATS);               // header beat index
localparam RW = `FROCE_RHDR_W;

// Parameter check that stops elaboration in Verilator, Icarus and Yosys
// alike: an unsupported width instantiates a module that does not exist.
generate
    if (W < 8 || W > 64 || (1 << KW) != W) begin : g_bad_width
        froce_tx_builder_DATA_WIDTH_must_be_64_128_256_or_512 u_bad_width ();
    end
endgenerate

/* ------------------------------------------------------------------------
 * Stage A: the header bytes and lengths of the next frame, in three steps:
 *   H1  the bundle registered with its lengths
 *   H2  the header stack without the IPv4 checksum, the checksum's two
 *       half sums, and the per-frame constants stage B works from
 *   the checksum folded and inserted as the entry goes into the context FIFO
 * ------------------------------------------------------------------------ */

wire op_valid, has_payload;
wire [6:0] unused_has_ext;   // RHDR carries the extension headers as bytes
wire unused_pos_first, unused_pos_last;
wire [5:0] ext_len_c;
froce_opcode_info u_opcode_info (
    .opcode(s_hdr[`FROCE_RHDR_OPCODE_LSB +: `FROCE_RHDR_OPCODE_W]),
    .valid(op_valid),
    .has_reth(unused_has_ext[0]),
    .has_aeth(unused_has_ext[1]),
    .has_deth(unused_has_ext[2]),
    .has_immdt(unused_has_ext[3]),
    .has_ieth(unused_has_ext[4]),
    .has_atomiceth(unused_has_ext[5]),
    .has_atomicacketh(unused_has_ext[6]),
    .has_payload(has_payload),
    .pos_first(unused_pos_first),
    .pos_last(unused_pos_last),
    .ext_len(ext_len_c)
);
// the builder trusts the opcode, and PadCnt is its own to compute
wire unused_op = op_valid ^ has_payload;
wire [1:0] unused_padcnt = s_hdr[`FROCE_RHDR_PADCNT_LSB +: `FROCE_RHDR_PADCNT_W];

wire [2:0] s_kind = s_hdr[`FROCE_RHDR_KIND_LSB +: `FROCE_RHDR_KIND_W];
wire s_vlan = s_hdr[`FROCE_RHDR_VLAN_EN_LSB];
wire [15:0] s_pay_len = s_hdr[`FROCE_RHDR_PAYLOAD_LEN_LSB +: `FROCE_RHDR_PAYLOAD_LEN_W];
wire s_ip4 = s_kind == `FROCE_KIND_ROCE_V2_IPV4;
wire s_v1 = s_kind == `FROCE_KIND_ROCE_V1;
wire [1:0] s_pad = 2'd0 - s_pay_len[1:0];
// payload, extension headers and pad; every length below is this plus a constant
wire [15:0] s_var_len = s_pay_len + {10'd0, ext_len_c} + {14'd0, s_pad};
wire [7:0] s_l3_off = s_vlan ? `FROCE_ETH_LEN + `FROCE_VLAN_LEN : `FROCE_ETH_LEN;
wire [7:0] s_bth_off = s_l3_off + (s_v1 ? `FROCE_GRH_LEN : s_ip4 ? `FROCE_IPV4_LEN + `FROCE_UDP_LEN :
                       `FROCE_IPV6_LEN + `FROCE_UDP_LEN);
wire [7:0] s_hdr_len = s_bth_off + `FROCE_BTH_LEN + {2'b00, ext_len_c};

// H1
reg h1_valid_reg = 1'b0;
reg [RW-1:0] h_reg = 0;
reg [1:0] pad = 2'd0;
reg [15:0] var_len = 16'd0;
reg [7:0] hdr_len = 8'd0;
reg [PW-1:0] icrc_pos = {PW{1'b0}};

wire s_hdr_fire = s_hdr_valid && s_hdr_ready;
always @(posedge clk) begin
    h1_valid_reg <= s_hdr_fire;
    if (s_hdr_fire) begin
        h_reg <= s_hdr;
        pad <= s_pad;
        var_len <= s_var_len;
        hdr_len <= s_hdr_len;
        icrc_pos <= {{(PW-8){1'b0}}, s_hdr_len} + {{(PW-16){1'b0}}, s_pay_len} + {{(PW-2){1'b0}}, s_pad};
    end
    if (rst)
        h1_valid_reg <= 1'b0;
end

wire [2:0] kind = h_reg[`FROCE_RHDR_KIND_LSB +: `FROCE_RHDR_KIND_W];
wire vlan_en = h_reg[`FROCE_RHDR_VLAN_EN_LSB];
wire [7:0] opcode = h_reg[`FROCE_RHDR_OPCODE_LSB +: `FROCE_RHDR_OPCODE_W];
wire [15:0] pay_len = h_reg[`FROCE_RHDR_PAYLOAD_LEN_LSB +: `FROCE_RHDR_PAYLOAD_LEN_W];
wire [127:0] sgid = h_reg[`FROCE_RHDR_SGID_LSB +: `FROCE_RHDR_SGID_W];
wire [127:0] dgid = h_reg[`FROCE_RHDR_DGID_LSB +: `FROCE_RHDR_DGID_W];
wire [7:0] tclass = h_reg[`FROCE_RHDR_TCLASS_LSB +: `FROCE_RHDR_TCLASS_W];
wire [19:0] flow_label = h_reg[`FROCE_RHDR_FLOW_LABEL_LSB +: `FROCE_RHDR_FLOW_LABEL_W];
wire [7:0] hop_limit = h_reg[`FROCE_RHDR_HOP_LIMIT_LSB +: `FROCE_RHDR_HOP_LIMIT_W];
wire is_ip4 = kind == `FROCE_KIND_ROCE_V2_IPV4;
wire is_v1 = kind == `FROCE_KIND_ROCE_V1;
wire [1:0] unused_h_padcnt = h_reg[`FROCE_RHDR_PADCNT_LSB +: `FROCE_RHDR_PADCNT_W];

// bytes from the BTH through the ICRC, and the lengths the headers carry
wire [15:0] ib_len = var_len + `FROCE_BTH_LEN + 4;
wire [15:0] udp_len = var_len + `FROCE_BTH_LEN + 4 + `FROCE_UDP_LEN;
wire [15:0] ip4_total_len = var_len + `FROCE_BTH_LEN + 4 + `FROCE_UDP_LEN + `FROCE_IPV4_LEN;

// Each header as a big-endian vector with its first byte at the top
reg [HB-1:0] eth_be, l2_be, l3_nocsum_be, udp_be, bth_be, ext_be;
always @* begin
    eth_be = {HB{1'b0}};
    eth_be[TOP-`FROCE_ETH_DST_OFF -: `FROCE_ETH_DST_W] = h_reg[`FROCE_RHDR_ETH_DST_LSB +: `FROCE_RHDR_ETH_DST_W];
    eth_be[TOP-`FROCE_ETH_SRC_OFF -: `FROCE_ETH_SRC_W] = h_reg[`FROCE_RHDR_ETH_SRC_LSB +: `FROCE_RHDR_ETH_SRC_W];
    l2_be = {HB{1'b0}};
    l2_be[TOP-`FROCE_VLAN_PCP_OFF -: `FROCE_VLAN_PCP_W] = h_reg[`FROCE_RHDR_VLAN_PCP_LSB +: `FROCE_RHDR_VLAN_PCP_W];
    l2_be[TOP-`FROCE_VLAN_DEI_OFF] = h_reg[`FROCE_RHDR_VLAN_DEI_LSB];
    l2_be[TOP-`FROCE_VLAN_VID_OFF -: `FROCE_VLAN_VID_W] = h_reg[`FROCE_RHDR_VLAN_VID_LSB +: `FROCE_RHDR_VLAN_VID_W];
    l2_be[TOP-`FROCE_VLAN_TYPE_OFF -: `FROCE_VLAN_TYPE_W] = is_v1 ? `FROCE_ETHERTYPE_ROCE :
                                                           is_ip4 ? `FROCE_ETHERTYPE_IPV4 : `FROCE_ETHERTYPE_IPV6;
    if (vlan_en)
        eth_be[TOP-`FROCE_ETH_TYPE_OFF -: `FROCE_ETH_TYPE_W] = `FROCE_ETHERTYPE_VLAN;
    else
        eth_be[TOP-`FROCE_ETH_TYPE_OFF -: `FROCE_ETH_TYPE_W] = l2_be[TOP-`FROCE_VLAN_TYPE_OFF -: `FROCE_VLAN_TYPE_W];

    l3_nocsum_be = {HB{1'b0}};
    if (is_ip4) begin
        l3_nocsum_be[TOP-`FROCE_IPV4_VERSION_OFF -: `FROCE_IPV4_VERSION_W] = 4'd4;
        l3_nocsum_be[TOP-`FROCE_IPV4_IHL_OFF -: `FROCE_IPV4_IHL_W] = 4'd5;
        l3_nocsum_be[TOP-`FROCE_IPV4_TOS_OFF -: `FROCE_IPV4_TOS_W] = tclass;
        l3_nocsum_be[TOP-`FROCE_IPV4_TOTAL_LEN_OFF -: `FROCE_IPV4_TOTAL_LEN_W] = ip4_total_len;
        l3_nocsum_be[TOP-`FROCE_IPV4_ID_OFF -: `FROCE_IPV4_ID_W] = h_reg[`FROCE_RHDR_IP_ID_LSB +: `FROCE_RHDR_IP_ID_W];
        l3_nocsum_be[TOP-`FROCE_IPV4_FLAGS_OFF -: `FROCE_IPV4_FLAGS_W] = {1'b0, h_reg[`FROCE_RHDR_IP_DF_LSB], 1'b0};
        l3_nocsum_be[TOP-`FROCE_IPV4_TTL_OFF -: `FROCE_IPV4_TTL_W] = hop_limit;
        l3_nocsum_be[TOP-`FROCE_IPV4_PROTOCOL_OFF -: `FROCE_IPV4_PROTOCOL_W] = `FROCE_IPPROTO_UDP;
        l3_nocsum_be[TOP-`FROCE_IPV4_SRC_OFF -: `FROCE_IPV4_SRC_W] = sgid[31:0];
        l3_nocsum_be[TOP-`FROCE_IPV4_DST_OFF -: `FROCE_IPV4_DST_W] = dgid[31:0];
    end else begin
        // IPv6 header or GRH: the same layout
        l3_nocsum_be[TOP-`FROCE_IPV6_VERSION_OFF -: `FROCE_IPV6_VERSION_W] = 4'd6;
        l3_nocsum_be[TOP-`FROCE_IPV6_TCLASS_OFF -: `FROCE_IPV6_TCLASS_W] = tclass;
        l3_nocsum_be[TOP-`FROCE_IPV6_FLOW_LABEL_OFF -: `FROCE_IPV6_FLOW_LABEL_W] = flow_label;
        l3_nocsum_be[TOP-`FROCE_IPV6_PAYLOAD_LEN_OFF -: `FROCE_IPV6_PAYLOAD_LEN_W] = is_v1 ? ib_len : udp_len;
        l3_nocsum_be[TOP-`FROCE_IPV6_NEXT_HDR_OFF -: `FROCE_IPV6_NEXT_HDR_W] = is_v1 ? `FROCE_GRH_NXTHDR_BTH : `FROCE_IPPROTO_UDP;
        l3_nocsum_be[TOP-`FROCE_IPV6_HOP_LIMIT_OFF -: `FROCE_IPV6_HOP_LIMIT_W] = hop_limit;
        l3_nocsum_be[TOP-`FROCE_IPV6_SRC_OFF -: `FROCE_IPV6_SRC_W] = sgid;
        l3_nocsum_be[TOP-`FROCE_IPV6_DST_OFF -: `FROCE_IPV6_DST_W] = dgid;
    end

    udp_be = {HB{1'b0}};
    udp_be[TOP-`FROCE_UDP_SPORT_OFF -: `FROCE_UDP_SPORT_W] = h_reg[`FROCE_RHDR_UDP_SPORT_LSB +: `FROCE_RHDR_UDP_SPORT_W];
    udp_be[TOP-`FROCE_UDP_DPORT_OFF -: `FROCE_UDP_DPORT_W] = `FROCE_UDP_PORT_ROCE;
    udp_be[TOP-`FROCE_UDP_LEN_OFF -: `FROCE_UDP_LEN_W] = udp_len;

    bth_be = {HB{1'b0}};
    bth_be[TOP-`FROCE_BTH_OPCODE_OFF -: `FROCE_BTH_OPCODE_W] = opcode;
    bth_be[TOP-`FROCE_BTH_SE_OFF] = h_reg[`FROCE_RHDR_SE_LSB];
    bth_be[TOP-`FROCE_BTH_M_OFF] = h_reg[`FROCE_RHDR_MIGREQ_LSB];
    bth_be[TOP-`FROCE_BTH_PADCNT_OFF -: `FROCE_BTH_PADCNT_W] = pad;
    bth_be[TOP-`FROCE_BTH_TVER_OFF -: `FROCE_BTH_TVER_W] = h_reg[`FROCE_RHDR_TVER_LSB +: `FROCE_RHDR_TVER_W];
    bth_be[TOP-`FROCE_BTH_PKEY_OFF -: `FROCE_BTH_PKEY_W] = h_reg[`FROCE_RHDR_PKEY_LSB +: `FROCE_RHDR_PKEY_W];
    bth_be[TOP-`FROCE_BTH_FECN_OFF] = h_reg[`FROCE_RHDR_FECN_LSB];
    bth_be[TOP-`FROCE_BTH_BECN_OFF] = h_reg[`FROCE_RHDR_BECN_LSB];
    bth_be[TOP-`FROCE_BTH_DQPN_OFF -: `FROCE_BTH_DQPN_W] = h_reg[`FROCE_RHDR_DQPN_LSB +: `FROCE_RHDR_DQPN_W];
    bth_be[TOP-`FROCE_BTH_ACKREQ_OFF] = h_reg[`FROCE_RHDR_ACKREQ_LSB];
    bth_be[TOP-`FROCE_BTH_PSN_OFF -: `FROCE_BTH_PSN_W] = h_reg[`FROCE_RHDR_PSN_LSB +: `FROCE_RHDR_PSN_W];

    // the extension headers as RHDR carries them (their wire bytes); bytes
    // past the opcode's headers are covered by the payload (hdr_len)
    ext_be = {HB{1'b0}};
    ext_be[TOP -: `FROCE_RHDR_EXT_W] = h_reg[`FROCE_RHDR_EXT_LSB +: `FROCE_RHDR_EXT_W];
end

// H2: stack the headers (IPv4 checksum still zero) in byte-lane order, sum
// each half of the IPv4 header's words, and derive the frame constants
// (six encapsulations, each with its headers at constant offsets: a
// multiplexer of six layouts rather than shifters by a variable offset)
localparam L3_OFF = `FROCE_ETH_LEN, L3_OFF_VLAN = `FROCE_ETH_LEN + `FROCE_VLAN_LEN;
function [HB-1:0] stack;
    input [7:0] l3o;        // where the L3 header starts
    input [7:0] bth_o;      // where the BTH starts
    input with_udp;
    input [7:0] udp_o;
    begin
        stack = (l3_nocsum_be >> (8 * l3o)) | (bth_be >> (8 * bth_o)) |
                (ext_be >> (8 * (bth_o + `FROCE_BTH_LEN))) |
                (with_udp ? udp_be >> (8 * udp_o) : {HB{1'b0}});
    end
endfunction
reg [HB-1:0] frame_be;
always @* begin
    if (vlan_en) begin
        if (is_v1)
            frame_be = stack(L3_OFF_VLAN, L3_OFF_VLAN + `FROCE_GRH_LEN, 1'b0, 8'd0);
        else if (is_ip4)
            frame_be = stack(L3_OFF_VLAN, L3_OFF_VLAN + `FROCE_IPV4_LEN + `FROCE_UDP_LEN, 1'b1,
                             L3_OFF_VLAN + `FROCE_IPV4_LEN);
        else
            frame_be = stack(L3_OFF_VLAN, L3_OFF_VLAN + `FROCE_IPV6_LEN + `FROCE_UDP_LEN, 1'b1,
                             L3_OFF_VLAN + `FROCE_IPV6_LEN);
        frame_be = frame_be | eth_be | (l2_be >> (8 * `FROCE_ETH_LEN));
    end else begin
        if (is_v1)
            frame_be = stack(L3_OFF, L3_OFF + `FROCE_GRH_LEN, 1'b0, 8'd0);
        else if (is_ip4)
            frame_be = stack(L3_OFF, L3_OFF + `FROCE_IPV4_LEN + `FROCE_UDP_LEN, 1'b1, L3_OFF + `FROCE_IPV4_LEN);
        else
            frame_be = stack(L3_OFF, L3_OFF + `FROCE_IPV6_LEN + `FROCE_UDP_LEN, 1'b1, L3_OFF + `FROCE_IPV6_LEN);
        frame_be = frame_be | eth_be;
    end
end
wire [HB-1:0] hdr_bytes;
genvar g;
generate
    for (g = 0; g < HDR_BYTES; g = g + 1) begin : g_bytes
        assign hdr_bytes[8*g +: 8] = frame_be[TOP-8*g -: 8];
    end
endgenerate
wire [18:0] ip4_half_a = {3'd0, l3_nocsum_be[TOP -: 16]} + {3'd0, l3_nocsum_be[TOP-16 -: 16]} +
                         {3'd0, l3_nocsum_be[TOP-32 -: 16]} + {3'd0, l3_nocsum_be[TOP-48 -: 16]} +
                         {3'd0, l3_nocsum_be[TOP-64 -: 16]};
wire [18:0] ip4_half_b = {3'd0, l3_nocsum_be[TOP-80 -: 16]} + {3'd0, l3_nocsum_be[TOP-96 -: 16]} +
                         {3'd0, l3_nocsum_be[TOP-112 -: 16]} + {3'd0, l3_nocsum_be[TOP-128 -: 16]} +
                         {3'd0, l3_nocsum_be[TOP-144 -: 16]};

// constants stage B works from (beat numbers and lanes)
wire [PW-1:0] hdr_len_p = {{(PW-8){1'b0}}, hdr_len};
wire [PW-1:0] pay_end = hdr_len_p + {{(PW-16){1'b0}}, pay_len};
wire [PW-1:0] frame_len = icrc_pos + P_ICRC;
wire [PW-1:0] frame_last = frame_len - 1'b1;
wire [PW-1:0] crc_last = icrc_pos - 1'b1;
wire [15:0] pay_len_m1 = pay_len - 1'b1;
wire [BW-1:0] first_pay_beat = {{(BW-8+KW){1'b0}}, hdr_len[7:KW]};
wire [BW-1:0] pay_beats_m1 = pay_len == 16'd0 ? {BW{1'b0}} : {{(BW-16+KW){1'b0}}, pay_len_m1[15:KW]};
wire [KW:0] last_bytes = pay_len == 16'd0 ? {(KW+1){1'b0}} : {1'b0, pay_len_m1[KW-1:0]} + 1'b1;
// CW: header bytes, then (LSB first) kind, vlan, hdr_len, pay_end, icrc_pos,
// frame_len, pay beats, last beat, keep of the last beat, CRC last beat, CRC
// delay p, payload_len's last-beat bytes
localparam CW = HB + 3 + 1 + 8 + 3 * PW + 4 * BW + W + KW + (KW + 1);
reg h2_valid_reg = 1'b0;
reg [CW-1:0] h2_reg = 0;
reg [18:0] h2_half_a_reg = 0, h2_half_b_reg = 0;
reg h2_ip4_reg = 1'b0;
reg h2_vlan_reg = 1'b0;
wire [W-1:0] last_keep;
generate
    for (g = 1; g < W; g = g + 1) begin : g_last_keep
        localparam [KW-1:0] LANE = g;
        assign last_keep[g] = LANE <= frame_last[KW-1:0];
    end
endgenerate
assign last_keep[0] = 1'b1;

always @(posedge clk) begin
    h2_valid_reg <= h1_valid_reg;
    if (h1_valid_reg) begin
        // p = (-icrc_pos) mod W = ~((icrc_pos - 1) mod W)
        h2_reg <= {last_bytes, ~crc_last[KW-1:0], crc_last[KW+BW-1:KW],
                   last_keep, frame_last[KW+BW-1:KW], first_pay_beat + pay_beats_m1,
                   first_pay_beat, frame_len, icrc_pos, pay_end, hdr_len, vlan_en, kind,
                   hdr_bytes};
        h2_half_a_reg <= ip4_half_a;
        h2_half_b_reg <= ip4_half_b;
        h2_ip4_reg <= is_ip4;
        h2_vlan_reg <= vlan_en;
    end
    if (rst)
        h2_valid_reg <= 1'b0;
end

// the IPv4 checksum, folded into 16 bits, goes in as the entry is written
wire [19:0] ip4_sum20 = {1'b0, h2_half_a_reg} + {1'b0, h2_half_b_reg};
wire [16:0] ip4_fold1 = {1'b0, ip4_sum20[15:0]} + {13'd0, ip4_sum20[19:16]};
wire [15:0] ip4_csum = ~(ip4_fold1[15:0] + {15'd0, ip4_fold1[16]});
localparam CSUM_AT = `FROCE_IPV4_CHECKSUM_OFF / 8;
reg [CW-1:0] ctx_wr;
always @* begin
    ctx_wr = h2_reg;
    // (the L3 header follows the Ethernet header, with or without a tag)
    if (h2_ip4_reg && h2_vlan_reg) begin
        ctx_wr[8*(L3_OFF_VLAN + CSUM_AT) +: 8] = ip4_csum[15:8];
        ctx_wr[8*(L3_OFF_VLAN + CSUM_AT + 1) +: 8] = ip4_csum[7:0];
    end else if (h2_ip4_reg) begin
        ctx_wr[8*(L3_OFF + CSUM_AT) +: 8] = ip4_csum[15:8];
        ctx_wr[8*(L3_OFF + CSUM_AT + 1) +: 8] = ip4_csum[7:0];
    end
end

// Frame context FIFO, ahead of the emitter; credits cover H1 and H2
localparam CTX_DEPTH = 8;
wire [CW-1:0] ctx_rd;
wire [3:0] ctx_count;
wire ctx_empty, unused_ctx_full;
wire ctx_pop;
reg ctx_ready_reg = 1'b0;
assign s_hdr_ready = ctx_ready_reg;
always @(posedge clk) begin
    ctx_ready_reg <= {1'b0, ctx_count} + {4'd0, s_hdr_fire} + {4'd0, h1_valid_reg} +
                     {4'd0, h2_valid_reg} < 5'd8;
    if (rst)
        ctx_ready_reg <= 1'b0;
end

froce_fifo #(
    .WIDTH(CW),
    .DEPTH(CTX_DEPTH),
    .REG_OUT(1)
) u_ctx_fifo (
    .clk(clk),
    .rst(rst),
    .wr_data(ctx_wr),
    .wr_en(h2_valid_reg),
    .rd_data(ctx_rd),
    .rd_en(ctx_pop),
    .count(ctx_count),
    .empty(ctx_empty),
    .full(unused_ctx_full)
);

/* ------------------------------------------------------------------------
 * Stage B, four register stages that advance together:
 *   B1  the beat: header bytes, payload (shifted up by the header length),
 *       pad; payload taken from the input here
 *   B2  ICRC masks, and the CRC input delayed by p = (-icrc_pos) mod W bytes
 *       so that the covered bytes end on a beat boundary (p leading zero
 *       bytes cost nothing while the CRC register is 0): no partial beat,
 *       no un-shift
 *   B3  the CRC
 *   B4  the ICRC inserted after the bytes it covers; the output register
 * ------------------------------------------------------------------------ */

localparam CO = HB;
wire [HB-1:0] f_hdr_bytes = ctx_rd[HB-1:0];
wire [2:0] f_kind = ctx_rd[CO +: 3];
wire f_vlan = ctx_rd[CO+3];
wire [7:0] f_hdr_len = ctx_rd[CO+4 +: 8];
wire [PW-1:0] f_pay_end = ctx_rd[CO+12 +: PW];
wire [PW-1:0] f_icrc_pos = ctx_rd[CO+12+PW +: PW];
wire [PW-1:0] f_frame_len = ctx_rd[CO+12+2*PW +: PW];
wire [BW-1:0] f_first_pay = ctx_rd[CO+12+3*PW +: BW];
wire [BW-1:0] f_last_pay = ctx_rd[CO+12+3*PW+BW +: BW];
wire [BW-1:0] f_last_beat = ctx_rd[CO+12+3*PW+2*BW +: BW];
wire [W-1:0] f_last_keep = ctx_rd[CO+12+3*PW+3*BW +: W];
wire [BW-1:0] f_crc_last = ctx_rd[CO+12+3*PW+3*BW+W +: BW];
wire [KW-1:0] f_p = ctx_rd[CO+12+3*PW+4*BW+W +: KW];
wire [KW:0] f_last_bytes = ctx_rd[CO+12+3*PW+4*BW+W+KW +: KW+1];

reg [BW-1:0] beat_reg = 0;
reg [DATA_WIDTH-1:0] prev_reg = 0;      // the payload beat taken last
reg pay_ended_reg = 1'b0;               // the payload's tlast has been taken
reg err_reg = 1'b0;
reg drain_reg = 1'b0;                   // dropping surplus payload beats

reg b1_valid_reg = 1'b0, b2_valid_reg = 1'b0, b3_valid_reg = 1'b0;
reg [DATA_WIDTH-1:0] b1_data_reg = 0, b2_data_reg = 0, b3_data_reg = 0;
reg [W-1:0] b1_keep_reg = 0, b2_keep_reg = 0, b3_keep_reg = 0;
reg b1_last_reg = 1'b0, b2_last_reg = 1'b0, b3_last_reg = 1'b0;
reg b1_err_reg = 1'b0, b2_err_reg = 1'b0, b3_err_reg = 1'b0;
reg b1_first_reg = 1'b0, b2_first_reg = 1'b0;
reg b1_crc_en_reg = 1'b0, b2_crc_en_reg = 1'b0;
reg [BW-1:0] b1_beat_reg = 0, b2_beat_reg = 0, b3_beat_reg = 0;
reg [2:0] b1_kind_reg = 0;
reg b1_vlan_reg = 1'b0;
reg [KW-1:0] b1_p_reg = 0;
reg [PW-1:0] b1_icrc_pos_reg = 0, b2_icrc_pos_reg = 0, b3_icrc_pos_reg = 0;
reg [PW-1:0] b1_frame_len_reg = 0, b2_frame_len_reg = 0, b3_frame_len_reg = 0;
reg [DATA_WIDTH-1:0] masked_prev_reg = 0;
reg [DATA_WIDTH-1:0] b2_crc_data_reg = 0;
reg [31:0] crc_reg = 0;

reg out_valid_reg = 1'b0;
reg [DATA_WIDTH-1:0] out_data_reg = 0;
reg [W-1:0] out_keep_reg = 0;
reg out_last_reg = 1'b0;
reg out_user_reg = 1'b0;
reg stat_len_err_reg = 1'b0;

wire adv = !out_valid_reg || m_axis_tready;
wire first_beat = beat_reg == {BW{1'b0}};
wire [PW-1:0] beat_pos = {beat_reg, {KW{1'b0}}};

// B1: payload beat m = beat - first_pay_beat is taken in the beat where its
// first byte lands; payload_len = 0 still has one (empty) payload beat
wire [KW-1:0] shift = f_hdr_len[KW-1:0];
wire want_pay = !drain_reg && !ctx_empty && beat_reg >= f_first_pay && beat_reg <= f_last_pay;
wire take_pay = want_pay && !pay_ended_reg;
wire last_pay = beat_reg == f_last_pay;
wire frame_final = beat_reg == f_last_beat;
wire b1_take = adv && !drain_reg && !ctx_empty && (!take_pay || s_axis_tvalid);
wire drain_take = drain_reg && s_axis_tvalid;

assign s_axis_tready = (b1_take && take_pay) || drain_reg;
assign ctx_pop = b1_take && frame_final;

wire [DATA_WIDTH-1:0] cur_pay = take_pay ? s_axis_tdata : {DATA_WIDTH{1'b0}};
wire [2*DATA_WIDTH-1:0] pair = {cur_pay, prev_reg};
wire [KW:0] pair_sel = P_W[KW:0] - {1'b0, shift};         // 1..W
wire [DATA_WIDTH-1:0] pay_window = pair[8*pair_sel +: DATA_WIDTH];

// A payload length error is known when the last expected beat is taken, or
// earlier if the payload ends early: tlast on the wrong beat, a beat other
// than the last not full, or the last beat not holding what payload_len says
reg [KW:0] keep_count;
integer k;
always @* begin
    keep_count = {(KW+1){1'b0}};
    for (k = 0; k < W; k = k + 1)
        keep_count = keep_count + {{KW{1'b0}}, s_axis_tkeep[k]};
end
wire len_err_now = take_pay && (s_axis_tlast != last_pay ||
                                (!s_axis_tlast && !(&s_axis_tkeep)) ||
                                (s_axis_tlast && keep_count != f_last_bytes));

wire [DATA_WIDTH-1:0] beat_data;
wire hdr_beat = beat_reg < B_HDR_BEATS;
wire [PW-1:0] f_hdr_len_p = {{(PW-8){1'b0}}, f_hdr_len};
// the header bytes of this beat: a beat multiplexer, then a byte per lane
wire [DATA_WIDTH-1:0] hdr_word = f_hdr_bytes[DATA_WIDTH*beat_reg[HBW-1:0] +: DATA_WIDTH];
generate
    for (g = 0; g < W; g = g + 1) begin : g_lane
        localparam [PW-1:0] LANE = g;
        wire [PW-1:0] pos = beat_pos + LANE;
        assign beat_data[8*g +: 8] = pos < f_hdr_len_p && hdr_beat ? hdr_word[8*g +: 8] :
                                     pos < f_pay_end ? pay_window[8*g +: 8] : 8'h00;
    end
endgenerate

always @(posedge clk) begin
    stat_len_err_reg <= 1'b0;
    if (adv) begin
        b1_valid_reg <= b1_take;
        if (b1_take) begin
            b1_data_reg <= beat_data;
            b1_keep_reg <= frame_final ? f_last_keep : {W{1'b1}};
            b1_last_reg <= frame_final;
            b1_err_reg <= frame_final && (err_reg || len_err_now);
            b1_first_reg <= first_beat;
            b1_crc_en_reg <= beat_reg <= f_crc_last;
            b1_beat_reg <= beat_reg;
            b1_kind_reg <= f_kind;
            b1_vlan_reg <= f_vlan;
            b1_p_reg <= f_p;
            b1_icrc_pos_reg <= f_icrc_pos;
            b1_frame_len_reg <= f_frame_len;
            beat_reg <= frame_final ? {BW{1'b0}} : beat_reg + 1'b1;
            if (take_pay) begin
                prev_reg <= s_axis_tdata;
                if (s_axis_tlast)
                    pay_ended_reg <= 1'b1;
            end
            if (len_err_now)
                err_reg <= 1'b1;
            if (frame_final) begin
                stat_len_err_reg <= err_reg || len_err_now;
                err_reg <= 1'b0;
                pay_ended_reg <= 1'b0;
                // surplus payload beats still to drop
                drain_reg <= !(pay_ended_reg || (take_pay && s_axis_tlast));
            end
        end
    end
    if (drain_take && s_axis_tlast)
        drain_reg <= 1'b0;
    if (rst) begin
        b1_valid_reg <= 1'b0;
        beat_reg <= {BW{1'b0}};
        pay_ended_reg <= 1'b0;
        err_reg <= 1'b0;
        drain_reg <= 1'b0;
        stat_len_err_reg <= 1'b0;
    end
end

// B2: masks, then the CRC input delayed by p bytes
wire [DATA_WIDTH-1:0] and_mask, or_mask;
froce_icrc_mask #(
    .DATA_WIDTH(DATA_WIDTH),
    .BEAT_IDX_WIDTH(BW)
) u_icrc_mask (
    .kind(b1_kind_reg),
    .vlan_en(b1_vlan_reg),
    .beat_idx(b1_beat_reg),
    .and_mask(and_mask),
    .or_mask(or_mask)
);
wire [DATA_WIDTH-1:0] masked = (b1_data_reg & and_mask) | or_mask;
wire [DATA_WIDTH-1:0] masked_prev = b1_first_reg ? {DATA_WIDTH{1'b0}} : masked_prev_reg;
wire [2*DATA_WIDTH-1:0] crc_pair = {masked, masked_prev};
wire [KW:0] crc_sel = P_W[KW:0] - {1'b0, b1_p_reg};        // 1..W
wire [DATA_WIDTH-1:0] crc_in = crc_pair[8*crc_sel +: DATA_WIDTH];

always @(posedge clk) begin
    if (adv) begin
        b2_valid_reg <= b1_valid_reg;
        if (b1_valid_reg) begin
            masked_prev_reg <= masked;
            b2_crc_data_reg <= crc_in;
            b2_crc_en_reg <= b1_crc_en_reg;
            b2_first_reg <= b1_first_reg;
            b2_data_reg <= b1_data_reg;
            b2_keep_reg <= b1_keep_reg;
            b2_last_reg <= b1_last_reg;
            b2_err_reg <= b1_err_reg;
            b2_beat_reg <= b1_beat_reg;
            b2_icrc_pos_reg <= b1_icrc_pos_reg;
            b2_frame_len_reg <= b1_frame_len_reg;
        end
    end
    if (rst)
        b2_valid_reg <= 1'b0;
end

// B3: the CRC, full beats only
wire [31:0] crc_next;
froce_crc32_step #(
    .DATA_WIDTH(DATA_WIDTH)
) u_crc (
    .crc_in(b2_first_reg ? 32'd0 : crc_reg),
    .data(b2_crc_data_reg),
    .len(P_W[KW:0]),
    .crc_out(crc_next)
);

always @(posedge clk) begin
    if (adv) begin
        b3_valid_reg <= b2_valid_reg;
        if (b2_valid_reg) begin
            if (b2_crc_en_reg)
                crc_reg <= crc_next;
            b3_data_reg <= b2_data_reg;
            b3_keep_reg <= b2_keep_reg;
            b3_last_reg <= b2_last_reg;
            b3_err_reg <= b2_err_reg;
            b3_beat_reg <= b2_beat_reg;
            b3_icrc_pos_reg <= b2_icrc_pos_reg;
            b3_frame_len_reg <= b2_frame_len_reg;
        end
    end
    if (rst)
        b3_valid_reg <= 1'b0;
end

// B4: the ICRC (least significant byte first) into its lanes; the CRC has
// covered everything before it by the time its beat gets here
wire [31:0] icrc = ~crc_reg;
wire [DATA_WIDTH-1:0] out_data;
wire [PW-1:0] b3_pos = {b3_beat_reg, {KW{1'b0}}};
generate
    for (g = 0; g < W; g = g + 1) begin : g_icrc_lane
        localparam [PW-1:0] LANE = g;
        wire [PW-1:0] pos = b3_pos + LANE;
        wire [1:0] icrc_at = pos[1:0] - b3_icrc_pos_reg[1:0];   // ICRC byte index, mod 4
        assign out_data[8*g +: 8] = pos >= b3_icrc_pos_reg && pos < b3_frame_len_reg ?
                                    icrc[8*icrc_at +: 8] : b3_data_reg[8*g +: 8];
    end
endgenerate

always @(posedge clk) begin
    if (m_axis_tready)
        out_valid_reg <= 1'b0;
    if (adv && b3_valid_reg) begin
        out_valid_reg <= 1'b1;
        out_data_reg <= out_data;
        out_keep_reg <= b3_keep_reg;
        out_last_reg <= b3_last_reg;
        out_user_reg <= b3_err_reg;
    end
    if (rst)
        out_valid_reg <= 1'b0;
end

assign m_axis_tdata = out_data_reg;
assign m_axis_tkeep = out_keep_reg;
assign m_axis_tvalid = out_valid_reg;
assign m_axis_tlast = out_last_reg;
assign m_axis_tuser = out_user_reg;
assign stat_len_err = stat_len_err_reg;

endmodule

`resetall
