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
 * its opcode picks the extension headers (froce_opcode_info). payload_len is
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

// Parameter check that stops elaboration in Verilator, Icarus and Yosys
// alike: an unsupported width instantiates a module that does not exist.
generate
    if (W < 8 || W > 64 || (1 << KW) != W) begin : g_bad_width
        froce_tx_builder_DATA_WIDTH_must_be_64_128_256_or_512 u_bad_width ();
    end
endgenerate

/* ------------------------------------------------------------------------
 * Stage A: the header bytes and lengths of the next frame
 * ------------------------------------------------------------------------ */

wire [2:0] kind = s_hdr[`FROCE_RHDR_KIND_LSB +: `FROCE_RHDR_KIND_W];
wire vlan_en = s_hdr[`FROCE_RHDR_VLAN_EN_LSB];
wire [7:0] opcode = s_hdr[`FROCE_RHDR_OPCODE_LSB +: `FROCE_RHDR_OPCODE_W];
wire [15:0] pay_len = s_hdr[`FROCE_RHDR_PAYLOAD_LEN_LSB +: `FROCE_RHDR_PAYLOAD_LEN_W];
wire [127:0] sgid = s_hdr[`FROCE_RHDR_SGID_LSB +: `FROCE_RHDR_SGID_W];
wire [127:0] dgid = s_hdr[`FROCE_RHDR_DGID_LSB +: `FROCE_RHDR_DGID_W];
wire [7:0] tclass = s_hdr[`FROCE_RHDR_TCLASS_LSB +: `FROCE_RHDR_TCLASS_W];
wire [19:0] flow_label = s_hdr[`FROCE_RHDR_FLOW_LABEL_LSB +: `FROCE_RHDR_FLOW_LABEL_W];
wire [7:0] hop_limit = s_hdr[`FROCE_RHDR_HOP_LIMIT_LSB +: `FROCE_RHDR_HOP_LIMIT_W];

wire is_ip4 = kind == `FROCE_KIND_ROCE_V2_IPV4;
wire is_v1 = kind == `FROCE_KIND_ROCE_V1;

wire op_valid, has_reth, has_aeth, has_deth, has_immdt, has_ieth;
wire has_atomiceth, has_atomicacketh, has_payload;
wire unused_pos_first, unused_pos_last;
wire [5:0] ext_len;
froce_opcode_info u_opcode_info (
    .opcode(opcode),
    .valid(op_valid),
    .has_reth(has_reth),
    .has_aeth(has_aeth),
    .has_deth(has_deth),
    .has_immdt(has_immdt),
    .has_ieth(has_ieth),
    .has_atomiceth(has_atomiceth),
    .has_atomicacketh(has_atomicacketh),
    .has_payload(has_payload),
    .pos_first(unused_pos_first),
    .pos_last(unused_pos_last),
    .ext_len(ext_len)
);
// the builder trusts the opcode, and PadCnt is its own to compute
wire unused_op = op_valid ^ has_payload;
wire [1:0] unused_padcnt = s_hdr[`FROCE_RHDR_PADCNT_LSB +: `FROCE_RHDR_PADCNT_W];

wire [1:0] pad = 2'd0 - pay_len[1:0];
// bytes from the BTH through the ICRC
wire [15:0] ib_len = `FROCE_BTH_LEN + {10'd0, ext_len} + pay_len + {14'd0, pad} + 16'd4;
wire [15:0] udp_len = ib_len + `FROCE_UDP_LEN;
wire [15:0] ip4_total_len = udp_len + `FROCE_IPV4_LEN;
wire [7:0] l3_off = vlan_en ? `FROCE_ETH_LEN + `FROCE_VLAN_LEN : `FROCE_ETH_LEN;
wire [7:0] bth_off = l3_off + (is_v1 ? `FROCE_GRH_LEN :
                     is_ip4 ? `FROCE_IPV4_LEN + `FROCE_UDP_LEN : `FROCE_IPV6_LEN + `FROCE_UDP_LEN);
wire [7:0] hdr_len = bth_off + `FROCE_BTH_LEN + {2'b00, ext_len};
wire [PW-1:0] icrc_pos = {{(PW-8){1'b0}}, hdr_len} + {{(PW-16){1'b0}}, pay_len} + {{(PW-2){1'b0}}, pad};

// Each header as a big-endian vector with its first byte at the top
reg [HB-1:0] eth_be, l2_be, l3_nocsum_be, udp_be, bth_be, ext_be;
reg [159:0] ip4_le;
wire [15:0] ip4_sum;
wire unused_ip4_sum_ok;
froce_ipv4_csum u_ip4_csum (
    .header(ip4_le),
    .sum(ip4_sum),
    .valid(unused_ip4_sum_ok)
);

integer b;
always @* begin
    eth_be = {HB{1'b0}};
    eth_be[TOP-`FROCE_ETH_DST_OFF -: `FROCE_ETH_DST_W] = s_hdr[`FROCE_RHDR_ETH_DST_LSB +: `FROCE_RHDR_ETH_DST_W];
    eth_be[TOP-`FROCE_ETH_SRC_OFF -: `FROCE_ETH_SRC_W] = s_hdr[`FROCE_RHDR_ETH_SRC_LSB +: `FROCE_RHDR_ETH_SRC_W];
    l2_be = {HB{1'b0}};
    l2_be[TOP-`FROCE_VLAN_PCP_OFF -: `FROCE_VLAN_PCP_W] = s_hdr[`FROCE_RHDR_VLAN_PCP_LSB +: `FROCE_RHDR_VLAN_PCP_W];
    l2_be[TOP-`FROCE_VLAN_DEI_OFF] = s_hdr[`FROCE_RHDR_VLAN_DEI_LSB];
    l2_be[TOP-`FROCE_VLAN_VID_OFF -: `FROCE_VLAN_VID_W] = s_hdr[`FROCE_RHDR_VLAN_VID_LSB +: `FROCE_RHDR_VLAN_VID_W];
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
        l3_nocsum_be[TOP-`FROCE_IPV4_ID_OFF -: `FROCE_IPV4_ID_W] = s_hdr[`FROCE_RHDR_IP_ID_LSB +: `FROCE_RHDR_IP_ID_W];
        l3_nocsum_be[TOP-`FROCE_IPV4_FLAGS_OFF -: `FROCE_IPV4_FLAGS_W] = {1'b0, s_hdr[`FROCE_RHDR_IP_DF_LSB], 1'b0};
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
    for (b = 0; b < `FROCE_IPV4_LEN; b = b + 1)
        ip4_le[8*b +: 8] = l3_nocsum_be[TOP-8*b -: 8];

    udp_be = {HB{1'b0}};
    udp_be[TOP-`FROCE_UDP_SPORT_OFF -: `FROCE_UDP_SPORT_W] = s_hdr[`FROCE_RHDR_UDP_SPORT_LSB +: `FROCE_RHDR_UDP_SPORT_W];
    udp_be[TOP-`FROCE_UDP_DPORT_OFF -: `FROCE_UDP_DPORT_W] = `FROCE_UDP_PORT_ROCE;
    udp_be[TOP-`FROCE_UDP_LEN_OFF -: `FROCE_UDP_LEN_W] = udp_len;

    bth_be = {HB{1'b0}};
    bth_be[TOP-`FROCE_BTH_OPCODE_OFF -: `FROCE_BTH_OPCODE_W] = opcode;
    bth_be[TOP-`FROCE_BTH_SE_OFF] = s_hdr[`FROCE_RHDR_SE_LSB];
    bth_be[TOP-`FROCE_BTH_M_OFF] = s_hdr[`FROCE_RHDR_MIGREQ_LSB];
    bth_be[TOP-`FROCE_BTH_PADCNT_OFF -: `FROCE_BTH_PADCNT_W] = pad;
    bth_be[TOP-`FROCE_BTH_TVER_OFF -: `FROCE_BTH_TVER_W] = s_hdr[`FROCE_RHDR_TVER_LSB +: `FROCE_RHDR_TVER_W];
    bth_be[TOP-`FROCE_BTH_PKEY_OFF -: `FROCE_BTH_PKEY_W] = s_hdr[`FROCE_RHDR_PKEY_LSB +: `FROCE_RHDR_PKEY_W];
    bth_be[TOP-`FROCE_BTH_FECN_OFF] = s_hdr[`FROCE_RHDR_FECN_LSB];
    bth_be[TOP-`FROCE_BTH_BECN_OFF] = s_hdr[`FROCE_RHDR_BECN_LSB];
    bth_be[TOP-`FROCE_BTH_DQPN_OFF -: `FROCE_BTH_DQPN_W] = s_hdr[`FROCE_RHDR_DQPN_LSB +: `FROCE_RHDR_DQPN_W];
    bth_be[TOP-`FROCE_BTH_ACKREQ_OFF] = s_hdr[`FROCE_RHDR_ACKREQ_LSB];
    bth_be[TOP-`FROCE_BTH_PSN_OFF -: `FROCE_BTH_PSN_W] = s_hdr[`FROCE_RHDR_PSN_LSB +: `FROCE_RHDR_PSN_W];

    // extension headers in IBA order; all start right after the BTH except
    // AtomicAckETH (after AETH) and ImmDt (after DETH or RETH)
    ext_be = {HB{1'b0}};
    if (has_reth) begin
        ext_be[TOP-`FROCE_RETH_VA_OFF -: `FROCE_RETH_VA_W] = s_hdr[`FROCE_RHDR_RETH_VA_LSB +: `FROCE_RHDR_RETH_VA_W];
        ext_be[TOP-`FROCE_RETH_RKEY_OFF -: `FROCE_RETH_RKEY_W] = s_hdr[`FROCE_RHDR_RETH_RKEY_LSB +: `FROCE_RHDR_RETH_RKEY_W];
        ext_be[TOP-`FROCE_RETH_DMALEN_OFF -: `FROCE_RETH_DMALEN_W] = s_hdr[`FROCE_RHDR_RETH_DMALEN_LSB +: `FROCE_RHDR_RETH_DMALEN_W];
    end
    if (has_deth) begin
        ext_be[TOP-`FROCE_DETH_QKEY_OFF -: `FROCE_DETH_QKEY_W] = s_hdr[`FROCE_RHDR_DETH_QKEY_LSB +: `FROCE_RHDR_DETH_QKEY_W];
        ext_be[TOP-`FROCE_DETH_SQPN_OFF -: `FROCE_DETH_SQPN_W] = s_hdr[`FROCE_RHDR_DETH_SQPN_LSB +: `FROCE_RHDR_DETH_SQPN_W];
    end
    if (has_atomiceth) begin
        ext_be[TOP-`FROCE_ATOMICETH_VA_OFF -: `FROCE_ATOMICETH_VA_W] = s_hdr[`FROCE_RHDR_ATOMIC_VA_LSB +: `FROCE_RHDR_ATOMIC_VA_W];
        ext_be[TOP-`FROCE_ATOMICETH_RKEY_OFF -: `FROCE_ATOMICETH_RKEY_W] = s_hdr[`FROCE_RHDR_ATOMIC_RKEY_LSB +: `FROCE_RHDR_ATOMIC_RKEY_W];
        ext_be[TOP-`FROCE_ATOMICETH_SWAP_OFF -: `FROCE_ATOMICETH_SWAP_W] = s_hdr[`FROCE_RHDR_ATOMIC_SWAP_LSB +: `FROCE_RHDR_ATOMIC_SWAP_W];
        ext_be[TOP-`FROCE_ATOMICETH_CMP_OFF -: `FROCE_ATOMICETH_CMP_W] = s_hdr[`FROCE_RHDR_ATOMIC_CMP_LSB +: `FROCE_RHDR_ATOMIC_CMP_W];
    end
    if (has_aeth) begin
        ext_be[TOP-`FROCE_AETH_SYNDROME_OFF -: `FROCE_AETH_SYNDROME_W] = s_hdr[`FROCE_RHDR_AETH_SYNDROME_LSB +: `FROCE_RHDR_AETH_SYNDROME_W];
        ext_be[TOP-`FROCE_AETH_MSN_OFF -: `FROCE_AETH_MSN_W] = s_hdr[`FROCE_RHDR_AETH_MSN_LSB +: `FROCE_RHDR_AETH_MSN_W];
    end
    if (has_atomicacketh)
        ext_be[TOP-8*`FROCE_AETH_LEN-`FROCE_ATOMICACKETH_ORIG_OFF -: `FROCE_ATOMICACKETH_ORIG_W] =
            s_hdr[`FROCE_RHDR_ATOMICACK_ORIG_LSB +: `FROCE_RHDR_ATOMICACK_ORIG_W];
    if (has_ieth)
        ext_be[TOP-`FROCE_IETH_RKEY_OFF -: `FROCE_IETH_RKEY_W] = s_hdr[`FROCE_RHDR_IETH_RKEY_LSB +: `FROCE_RHDR_IETH_RKEY_W];
    if (has_immdt) begin
        if (has_deth)
            ext_be[TOP-8*`FROCE_DETH_LEN-`FROCE_IMMDT_IMM_OFF -: `FROCE_IMMDT_IMM_W] = s_hdr[`FROCE_RHDR_IMM_LSB +: `FROCE_RHDR_IMM_W];
        else if (has_reth)
            ext_be[TOP-8*`FROCE_RETH_LEN-`FROCE_IMMDT_IMM_OFF -: `FROCE_IMMDT_IMM_W] = s_hdr[`FROCE_RHDR_IMM_LSB +: `FROCE_RHDR_IMM_W];
        else
            ext_be[TOP-`FROCE_IMMDT_IMM_OFF -: `FROCE_IMMDT_IMM_W] = s_hdr[`FROCE_RHDR_IMM_LSB +: `FROCE_RHDR_IMM_W];
    end
end

// The IPv4 header checksum goes into the header it was computed over
reg [HB-1:0] l3_be;
always @* begin
    l3_be = l3_nocsum_be;
    if (is_ip4)
        l3_be[TOP-`FROCE_IPV4_CHECKSUM_OFF -: `FROCE_IPV4_CHECKSUM_W] = ~ip4_sum;
end

// Stack the headers and turn the result into byte-lane order
wire [HB-1:0] frame_be = eth_be |
                         (vlan_en ? l2_be >> (8 * `FROCE_ETH_LEN) : {HB{1'b0}}) |
                         (l3_be >> (8 * l3_off)) |
                         (is_v1 ? {HB{1'b0}} : udp_be >> (8 * (l3_off + (is_ip4 ? `FROCE_IPV4_LEN : `FROCE_IPV6_LEN)))) |
                         (bth_be >> (8 * bth_off)) |
                         (ext_be >> (8 * (bth_off + `FROCE_BTH_LEN)));
reg [HB-1:0] hdr_bytes;
always @* begin
    for (b = 0; b < HDR_BYTES; b = b + 1)
        hdr_bytes[8*b +: 8] = frame_be[TOP-8*b -: 8];
end

// Frame context, one frame ahead of the emitter
localparam CW = HB + 8 + 16 + PW + 3 + 1;
wire [CW-1:0] ctx_wr = {kind, vlan_en, icrc_pos, pay_len, hdr_len, hdr_bytes};
wire [CW-1:0] ctx_rd;
wire [1:0] unused_ctx_count;
wire ctx_empty, ctx_full;
wire ctx_pop;

assign s_hdr_ready = !ctx_full;

froce_fifo #(
    .WIDTH(CW),
    .DEPTH(2)
) u_ctx_fifo (
    .clk(clk),
    .rst(rst),
    .wr_data(ctx_wr),
    .wr_en(s_hdr_valid && s_hdr_ready),
    .rd_data(ctx_rd),
    .rd_en(ctx_pop),
    .count(unused_ctx_count),
    .empty(ctx_empty),
    .full(ctx_full)
);

/* ------------------------------------------------------------------------
 * Stage B: emit the frame beat by beat, with the ICRC
 * ------------------------------------------------------------------------ */

wire [HB-1:0] f_hdr_bytes = ctx_rd[HB-1:0];
wire [7:0] f_hdr_len = ctx_rd[HB +: 8];
wire [15:0] f_pay_len = ctx_rd[HB+8 +: 16];
wire [PW-1:0] f_icrc_pos = ctx_rd[HB+24 +: PW];
wire f_vlan = ctx_rd[HB+24+PW];
wire [2:0] f_kind = ctx_rd[HB+25+PW +: 3];
wire [PW-1:0] f_frame_len = f_icrc_pos + P_ICRC;

reg [BW-1:0] beat_reg = 0;
reg [31:0] crc_reg = 0;
reg [DATA_WIDTH-1:0] prev_reg = 0;      // the payload beat taken last
reg pay_ended_reg = 1'b0;               // the payload's tlast has been taken
reg err_reg = 1'b0;
reg drain_reg = 1'b0;                   // dropping surplus payload beats

reg out_valid_reg = 1'b0;
reg [DATA_WIDTH-1:0] out_data_reg = 0;
reg [W-1:0] out_keep_reg = 0;
reg out_last_reg = 1'b0;
reg out_user_reg = 1'b0;
reg stat_len_err_reg = 1'b0;

wire first_beat = beat_reg == 0;
wire [PW-1:0] beat_pos = {beat_reg, {KW{1'b0}}};

// payload beat m = beat - first_pay_beat is taken in the beat where its first
// byte lands; payload_len = 0 still has one (empty) payload beat
wire [KW-1:0] shift = f_hdr_len[KW-1:0];
wire [BW-1:0] first_pay_beat = {{(BW-8){1'b0}}, f_hdr_len} >> KW;
wire [BW-1:0] pay_beat = beat_reg - first_pay_beat;
wire [PW-1:0] pay_round = {{(PW-16){1'b0}}, f_pay_len} + P_W - 1'b1;
wire [BW-1:0] pay_beats_w = pay_round[PW-1:KW];
wire [KW-1:0] unused_pay_round = pay_round[KW-1:0];
wire [BW-1:0] pay_beats = pay_beats_w == {BW{1'b0}} ? {{(BW-1){1'b0}}, 1'b1} : pay_beats_w;
wire want_pay = !drain_reg && !ctx_empty && beat_reg >= first_pay_beat && pay_beat < pay_beats;
wire take_pay = want_pay && !pay_ended_reg;
wire last_pay = pay_beat == pay_beats - 1'b1;

wire frame_final = f_frame_len <= beat_pos + P_W;
wire out_free = !out_valid_reg || m_axis_tready;
wire emit = !drain_reg && !ctx_empty && out_free && (!take_pay || s_axis_tvalid);
wire drain_take = drain_reg && s_axis_tvalid;

assign s_axis_tready = (emit && take_pay) || drain_reg;
assign ctx_pop = emit && frame_final;

wire [DATA_WIDTH-1:0] cur_pay = take_pay ? s_axis_tdata : {DATA_WIDTH{1'b0}};
wire [2*DATA_WIDTH-1:0] pair = {cur_pay, prev_reg};
wire [KW:0] pair_sel = W[KW:0] - {1'b0, shift};         // 1..W
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
wire [KW:0] last_bytes = f_pay_len == 16'd0 ? {(KW+1){1'b0}} :
                         f_pay_len[KW-1:0] == {KW{1'b0}} ? P_W[KW:0] : {1'b0, f_pay_len[KW-1:0]};
wire len_err_now = take_pay && (s_axis_tlast != last_pay ||
                                (!s_axis_tlast && !(&s_axis_tkeep)) ||
                                (s_axis_tlast && keep_count != last_bytes));

wire [31:0] crc_next;
wire [31:0] icrc = ~crc_next;
wire [DATA_WIDTH-1:0] beat_data;    // headers, payload and pad
wire [DATA_WIDTH-1:0] out_data;     // the same with the ICRC in place
wire [W-1:0] beat_keep;
wire [PW-1:0] f_hdr_len_p = {{(PW-8){1'b0}}, f_hdr_len};
wire [PW-1:0] f_pay_end = f_hdr_len_p + {{(PW-16){1'b0}}, f_pay_len};
wire hdr_beat = beat_reg < B_HDR_BEATS;
genvar g;
generate
    for (g = 0; g < W; g = g + 1) begin : g_lane
        localparam [PW-1:0] LANE = g;
        wire [PW-1:0] pos = beat_pos + LANE;
        wire [1:0] icrc_at = pos[1:0] - f_icrc_pos[1:0];   // ICRC byte index, mod 4
        assign beat_data[8*g +: 8] = pos < f_hdr_len_p && hdr_beat ? f_hdr_bytes[8*pos +: 8] :
                                     pos < f_pay_end ? pay_window[8*g +: 8] : 8'h00;
        // ICRC bytes go in after all the bytes they cover (same beat or earlier)
        assign out_data[8*g +: 8] = pos >= f_icrc_pos && pos < f_frame_len ?
                                    icrc[8*icrc_at +: 8] : beat_data[8*g +: 8];
        assign beat_keep[g] = pos < f_frame_len;
    end
endgenerate

wire [DATA_WIDTH-1:0] and_mask, or_mask;
froce_icrc_mask #(
    .DATA_WIDTH(DATA_WIDTH),
    .BEAT_IDX_WIDTH(BW)
) u_icrc_mask (
    .kind(f_kind),
    .vlan_en(f_vlan),
    .beat_idx(beat_reg),
    .and_mask(and_mask),
    .or_mask(or_mask)
);

wire [PW-1:0] crc_left = f_icrc_pos > beat_pos ? f_icrc_pos - beat_pos : {PW{1'b0}};
wire [KW:0] crc_len = crc_left >= P_W ? P_W[KW:0] : crc_left[KW:0];
froce_crc32_step #(
    .DATA_WIDTH(DATA_WIDTH)
) u_crc (
    .crc_in(first_beat ? 32'd0 : crc_reg),
    .data((beat_data & and_mask) | or_mask),
    .len(crc_len),
    .crc_out(crc_next)
);
always @(posedge clk) begin
    stat_len_err_reg <= 1'b0;
    if (m_axis_tready)
        out_valid_reg <= 1'b0;

    if (emit) begin
        out_valid_reg <= 1'b1;
        out_data_reg <= out_data;
        out_keep_reg <= beat_keep;
        out_last_reg <= frame_final;
        out_user_reg <= frame_final && (err_reg || len_err_now);
        crc_reg <= crc_next;
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

    if (drain_take && s_axis_tlast)
        drain_reg <= 1'b0;

    if (rst) begin
        beat_reg <= 0;
        pay_ended_reg <= 1'b0;
        err_reg <= 1'b0;
        drain_reg <= 1'b0;
        out_valid_reg <= 1'b0;
        stat_len_err_reg <= 1'b0;
    end
end

assign m_axis_tdata = out_data_reg;
assign m_axis_tkeep = out_keep_reg;
assign m_axis_tvalid = out_valid_reg;
assign m_axis_tlast = out_last_reg;
assign m_axis_tuser = out_user_reg;
assign stat_len_err = stat_len_err_reg;

endmodule

`resetall
