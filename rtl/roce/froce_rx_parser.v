// SPDX-License-Identifier: MIT
// RoCE receive parser: classifies Ethernet frames, decodes RoCE headers, strips
// them from the payload and checks the ICRC.
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "froce_hw.vh"
`include "froce_crc32_matrices.vh"

/*
 * Frames accepted (offsets in bytes; VLAN tag optional, adds 4 to what follows):
 *
 *   RoCE v2 / IPv4           RoCE v2 / IPv6           RoCE v1
 *   Ethernet        14       Ethernet        14       Ethernet (0x8915) 14
 *   [802.1Q tag      4]      [802.1Q tag      4]      [802.1Q tag      4]
 *   IPv4 (IHL 5)    20       IPv6 (next=UDP) 40       GRH (next=0x1B)  40
 *   UDP (dport 4791) 8       UDP (dport 4791) 8
 *   BTH             12       BTH             12       BTH              12
 *   extension headers as the opcode implies (RETH 16, DETH 8, AtomicETH 28,
 *   AETH 4, AtomicAckETH 8, ImmDt 4, IETH 4; at most 40 in all)
 *   payload, pad (BTH PadCnt), ICRC 4, [Ethernet padding]
 *
 * The IP (or GRH) length fields, not the frame end, bound the packet: short
 * frames arrive padded to 60 bytes by the MAC.
 *
 * Outputs, exactly one of each per input frame, in order:
 *   m_hdr_*      the decoded header bundle (RHDR layout in froce_hw.vh), as
 *                soon as the headers are in;
 *   m_axis_*     for RoCE frames the payload only; for frames that are not
 *                RoCE the whole frame (the netdev path); an empty payload is
 *                one beat with tkeep = 0. tuser on the tlast beat carries the
 *                verdict (FROCE_VERDICT_*): OK, ICRC_BAD, NOT_ROCE, or why the
 *                frame is malformed. A consumer keeps a RoCE payload only when
 *                the verdict is OK.
 *   stat_*       one pulse per frame with its verdict, for the counters.
 *
 * Structure: stage 1 captures the first HDR_BEATS beats of each frame and
 * decodes them while the beats wait in a FIFO, each stored together with the
 * beat that follows it (a one-beat look-ahead, so every payload output beat is
 * formed from one FIFO entry and no flush cycle is needed at frame end); the
 * decode takes two register stages. Stage 2 (three register stages) realigns
 * the payload, runs the CRC over the raw beats masked by froce_icrc_mask and
 * through the ICRC itself, and checks the register against the CRC residue
 * shifted by the last beat's zero padding. The input accepts one beat per
 * cycle with no gap between frames unless the outputs push back.
 * docs/roce-header-engine.md has the details.
 */
module froce_rx_parser #(
    parameter DATA_WIDTH = 64,              // stream width in bits, 64..512
    parameter MAX_FRAME_BYTES = 9216,       // longer frames are dropped (OVERSIZE)
    parameter MAX_PAYLOAD_BYTES = 4096      // largest RoCE payload (IB MTU 4096)
) (
    input  wire                      clk,
    input  wire                      rst,

    /* Ethernet frames in (no preamble, no FCS) */
    input  wire [DATA_WIDTH-1:0]     s_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0]   s_axis_tkeep,
    input  wire                      s_axis_tvalid,
    output wire                      s_axis_tready,
    input  wire                      s_axis_tlast,

    /* Decoded headers out */
    output wire [`FROCE_RHDR_W-1:0]  m_hdr,
    output wire                      m_hdr_valid,
    input  wire                      m_hdr_ready,

    /* Payload (RoCE) or whole frame (not RoCE) out */
    output wire [DATA_WIDTH-1:0]     m_axis_tdata,
    output wire [DATA_WIDTH/8-1:0]   m_axis_tkeep,
    output wire                      m_axis_tvalid,
    input  wire                      m_axis_tready,
    output wire                      m_axis_tlast,
    output wire [3:0]                m_axis_tuser,  // verdict, on the tlast beat

    /* Per-frame status */
    output wire                      stat_valid,
    output wire [3:0]                stat_verdict
);


localparam W = DATA_WIDTH / 8;                  // bytes per beat
localparam KW = $clog2(W);
localparam MAX_HDR_BYTES = `FROCE_ETH_LEN + `FROCE_VLAN_LEN + `FROCE_IPV6_LEN +
                           `FROCE_UDP_LEN + `FROCE_BTH_LEN + `FROCE_ATOMICETH_LEN;
localparam HDR_BEATS = (MAX_HDR_BYTES + W - 1) / W;
localparam HDR_BYTES = HDR_BEATS * W;
localparam HB = HDR_BYTES * 8;                  // header window bits
localparam HBW = $clog2(HDR_BEATS + 1);          // header beat counter width
localparam DFIFO_DEPTH = 1 << $clog2(2 * (HDR_BEATS + 4));
localparam HFIFO_DEPTH = W >= 32 ? 8 : 4;
localparam BW = 16;                             // beat counter width
localparam PW = BW + KW;                        // byte position width
localparam RW = `FROCE_RHDR_W;

// Sized constants, so that arithmetic stays in PW bits
localparam [PW-1:0] P_ETH = `FROCE_ETH_LEN;
localparam [PW-1:0] P_ETH_VLAN = `FROCE_ETH_LEN + `FROCE_VLAN_LEN;
localparam [PW-1:0] P_IPV4 = `FROCE_IPV4_LEN;
localparam [PW-1:0] P_IPV6 = `FROCE_IPV6_LEN;
localparam [PW-1:0] P_UDP = `FROCE_UDP_LEN;
localparam [PW-1:0] P_GRH = `FROCE_GRH_LEN;
localparam [PW-1:0] P_BTH = `FROCE_BTH_LEN;
localparam [PW-1:0] P_W = W[PW-1:0];
localparam [PW-1:0] P_MAX_FRAME = MAX_FRAME_BYTES[PW-1:0];
localparam [PW-1:0] P_MAX_PAYLOAD = MAX_PAYLOAD_BYTES[PW-1:0];
localparam [HBW-1:0] CAP_BEATS = HDR_BEATS[HBW-1:0];
localparam [HBW-1:0] CAP_LAST = CAP_BEATS - 1'b1;
localparam [31:0] DFIFO_LIMIT_32 = DFIFO_DEPTH - 3;
localparam [$clog2(DFIFO_DEPTH):0] DFIFO_LIMIT = DFIFO_LIMIT_32[$clog2(DFIFO_DEPTH):0];
localparam HCW = $clog2(HFIFO_DEPTH) + 1;        // header credit arithmetic is HCW+1 bits
localparam [HCW:0] HFIFO_LIMIT = HFIFO_DEPTH[HCW:0];

// Parameter check that stops elaboration in Verilator, Icarus and Yosys
// alike: an unsupported width instantiates a module that does not exist.
generate
    if (W < 8 || W > 64 || (1 << KW) != W) begin : g_bad_width
        froce_rx_parser_DATA_WIDTH_must_be_64_128_256_or_512 u_bad_width ();
    end
endgenerate

function [KW:0] keep_count;
    input [W-1:0] keep;
    integer k;
    begin
        keep_count = 0;
        for (k = 0; k < W; k = k + 1)
            keep_count = keep_count + {{KW{1'b0}}, keep[k]};
    end
endfunction

function [DATA_WIDTH-1:0] keep_to_mask;
    input [W-1:0] keep;
    integer k;
    begin
        for (k = 0; k < W; k = k + 1)
            keep_to_mask[8*k +: 8] = {8{keep[k]}};
    end
endfunction

/* ------------------------------------------------------------------------
 * Stage 1: header capture, look-ahead pairing, data FIFO
 * ------------------------------------------------------------------------ */

// last, keep's byte count, keep, next data, data. The count is worked out as
// the beat goes in: the frame-length checks start at the block RAM's output,
// which leaves late, so they do not also wait for a count of the keep bits
// (at 64 bits the 4 count bits fit the 4 block RAMs' spare width)
localparam DFW = 1 + (KW + 1) + W + 2 * DATA_WIDTH;

wire [$clog2(DFIFO_DEPTH):0] dfifo_count;
wire [$clog2(HFIFO_DEPTH):0] hfifo_count;
wire dfifo_empty, hfifo_empty;
wire unused_dfifo_full, unused_hfifo_full;   // flow control uses the counts
wire a_take;                       // stage 2 takes the beat at the FIFO head
wire [DFW-1:0] dfifo_rd;
wire [DATA_WIDTH-1:0] cur_data = dfifo_rd[DATA_WIDTH-1:0];
wire [DATA_WIDTH-1:0] nxt_data = dfifo_rd[2*DATA_WIDTH-1:DATA_WIDTH];
wire [W-1:0] cur_keep = dfifo_rd[2*DATA_WIDTH +: W];
wire [KW:0] cur_count = dfifo_rd[2*DATA_WIDTH + W +: KW + 1];    // keep_count(cur_keep)
wire cur_last = dfifo_rd[DFW-1];

// Room for the beat being held and one more push in flight
reg s_ready_reg = 1'b0;
assign s_axis_tready = s_ready_reg;
wire s_fire = s_axis_tvalid && s_axis_tready;
wire [DATA_WIDTH-1:0] s_data = s_axis_tdata & keep_to_mask(s_axis_tkeep);

reg [HBW-1:0] cap_beat_reg = 0;   // beat index within the frame, saturating
reg [HB-1:0] cap_buf_reg = 0;

reg hold_valid_reg = 1'b0;
reg [DATA_WIDTH-1:0] hold_data_reg = 0;
reg [W-1:0] hold_keep_reg = 0;
reg hold_last_reg = 1'b0;

reg snap_valid_reg = 1'b0;
reg d0_valid_reg = 1'b0;           // decode stage 0 holds a header
reg d1_valid_reg = 1'b0;           // decode register stage holds a header
reg [HB-1:0] snap_buf_reg = 0;
reg [PW-1:0] snap_len_reg = 0;

// The header window as it would be with this beat written; later beats zero
wire [HB-1:0] window;
genvar g;
generate
    for (g = 0; g < HDR_BEATS; g = g + 1) begin : g_window
        localparam [HBW-1:0] BEAT = g;
        assign window[g*DATA_WIDTH +: DATA_WIDTH] =
            BEAT < cap_beat_reg ? cap_buf_reg[g*DATA_WIDTH +: DATA_WIDTH] :
            BEAT == cap_beat_reg ? s_data : {DATA_WIDTH{1'b0}};
    end
endgenerate

wire cap_active = cap_beat_reg < CAP_BEATS;
wire snap_now = s_fire && cap_active && (s_axis_tlast || cap_beat_reg == CAP_LAST);

// A held beat goes to the FIFO with the beat after it, or alone when last
wire dfifo_push = hold_valid_reg && (hold_last_reg || s_fire);
wire [DATA_WIDTH-1:0] push_next = hold_last_reg ? {DATA_WIDTH{1'b0}} : s_data;
wire [DFW-1:0] dfifo_wr = {hold_last_reg, keep_count(hold_keep_reg), hold_keep_reg, push_next, hold_data_reg};

always @(posedge clk) begin
    // header FIFO credits: entries stored, pushes already in the decode
    // pipeline (snapshot now, snapshot register, decode registers), and one
    // more for the beat this ready would admit
    s_ready_reg <= dfifo_count < DFIFO_LIMIT &&
                   {1'b0, hfifo_count} + {{HCW{1'b0}}, snap_now} + {{HCW{1'b0}}, snap_valid_reg} +
                   {{HCW{1'b0}}, d0_valid_reg} + {{HCW{1'b0}}, d1_valid_reg} < HFIFO_LIMIT;

    if (s_fire) begin
        if (cap_active)
            cap_buf_reg[cap_beat_reg*DATA_WIDTH +: DATA_WIDTH] <= s_data;
        if (s_axis_tlast)
            cap_beat_reg <= 0;
        else if (cap_active)
            cap_beat_reg <= cap_beat_reg + 1'b1;
    end

    if (dfifo_push)
        hold_valid_reg <= 1'b0;
    if (s_fire) begin
        hold_valid_reg <= 1'b1;
        hold_data_reg <= s_data;
        hold_keep_reg <= s_axis_tkeep;
        hold_last_reg <= s_axis_tlast;
    end

    snap_valid_reg <= snap_now;
    if (snap_now) begin
        snap_buf_reg <= window;
        snap_len_reg <= ({{(PW-HBW){1'b0}}, cap_beat_reg} << KW) + {{(PW-KW-1){1'b0}}, keep_count(s_axis_tkeep)};
    end

    if (rst) begin
        s_ready_reg <= 1'b0;
        cap_beat_reg <= 0;
        hold_valid_reg <= 1'b0;
        snap_valid_reg <= 1'b0;
    end
end

froce_fifo #(
    .WIDTH(DFW),
    .DEPTH(DFIFO_DEPTH),
    .REG_OUT(1)
) u_dfifo (
    .clk(clk),
    .rst(rst),
    .wr_data(dfifo_wr),
    .wr_en(dfifo_push),
    .rd_data(dfifo_rd),
    .rd_en(a_take),
    .count(dfifo_count),
    .empty(dfifo_empty),
    .full(unused_dfifo_full)
);

/* ------------------------------------------------------------------------
 * Header decode (from the snapshot, one frame per cycle)
 * ------------------------------------------------------------------------ */

// Big-endian view: byte 0 of the frame in the most significant byte, so a
// header field at bit offset OFF (from the header's first bit on the wire) of
// a view starting at that header is view[HB-1-OFF -: WIDTH].
reg [HB-1:0] be;
integer b;
always @* begin
    for (b = 0; b < HDR_BYTES; b = b + 1)
        be[HB-1-8*b -: 8] = snap_buf_reg[8*b +: 8];
end

localparam TOP = HB - 1;

wire [47:0] eth_dst = be[TOP-`FROCE_ETH_DST_OFF -: `FROCE_ETH_DST_W];
wire [47:0] eth_src = be[TOP-`FROCE_ETH_SRC_OFF -: `FROCE_ETH_SRC_W];
wire [15:0] eth_type = be[TOP-`FROCE_ETH_TYPE_OFF -: `FROCE_ETH_TYPE_W];
wire vlan_en = eth_type == `FROCE_ETHERTYPE_VLAN;
wire [HB-1:0] vlanv = be << (8 * `FROCE_ETH_LEN);
wire [2:0] vlan_pcp = vlanv[TOP-`FROCE_VLAN_PCP_OFF -: `FROCE_VLAN_PCP_W];
wire vlan_dei = vlanv[TOP-`FROCE_VLAN_DEI_OFF];
wire [11:0] vlan_vid = vlanv[TOP-`FROCE_VLAN_VID_OFF -: `FROCE_VLAN_VID_W];
wire [15:0] l3_type = vlan_en ? vlanv[TOP-`FROCE_VLAN_TYPE_OFF -: `FROCE_VLAN_TYPE_W] : eth_type;

wire s_ip4 = l3_type == `FROCE_ETHERTYPE_IPV4;
wire s_ip6 = l3_type == `FROCE_ETHERTYPE_IPV6;
wire s_v1 = l3_type == `FROCE_ETHERTYPE_ROCE;

// Decode stage 0 registers the headers where they sit: L3 (with UDP), and the
// BTH with the extension headers, wherever VLAN and L3 type put them
localparam L3B = 8 * (`FROCE_IPV6_LEN + `FROCE_UDP_LEN);
localparam IBB = 8 * (`FROCE_BTH_LEN + `FROCE_ATOMICETH_LEN);
localparam T3 = L3B - 1;
localparam TI = IBB - 1;
localparam E = `FROCE_ETH_LEN;
localparam EV = `FROCE_ETH_LEN + `FROCE_VLAN_LEN;
localparam I4 = `FROCE_IPV4_LEN + `FROCE_UDP_LEN;
localparam I6 = `FROCE_IPV6_LEN + `FROCE_UDP_LEN;
localparam G = `FROCE_GRH_LEN;
wire [L3B-1:0] s_l3 = vlan_en ? be[TOP-8*EV -: L3B] : be[TOP-8*E -: L3B];
wire [IBB-1:0] s_ib = s_v1 ? (vlan_en ? be[TOP-8*(EV+G) -: IBB] : be[TOP-8*(E+G) -: IBB]) :
                      s_ip4 ? (vlan_en ? be[TOP-8*(EV+I4) -: IBB] : be[TOP-8*(E+I4) -: IBB]) :
                      (vlan_en ? be[TOP-8*(EV+I6) -: IBB] : be[TOP-8*(E+I6) -: IBB]);

reg [PW-1:0] d0_len_reg = 0;
reg [95:0] d0_eth_reg = 0;
reg [15:0] d0_vlan_reg = 0;
reg d0_vlan_en_reg = 1'b0, is_ip4 = 1'b0, is_ip6 = 1'b0, is_v1 = 1'b0;
reg [L3B-1:0] l3v = 0;
reg [IBB-1:0] bthv = 0;
always @(posedge clk) begin
    d0_valid_reg <= snap_valid_reg;
    if (snap_valid_reg) begin
        d0_len_reg <= snap_len_reg;
        d0_eth_reg <= {eth_dst, eth_src};
        d0_vlan_reg <= {vlan_pcp, vlan_dei, vlan_vid};
        d0_vlan_en_reg <= vlan_en;
        is_ip4 <= s_ip4;
        is_ip6 <= s_ip6;
        is_v1 <= s_v1;
        l3v <= s_l3;
        bthv <= s_ib;
    end
    if (rst)
        d0_valid_reg <= 1'b0;
end
wire [PW-1:0] l3_off = d0_vlan_en_reg ? P_ETH_VLAN : P_ETH;

// IPv4
wire [3:0] ip4_version = l3v[T3-`FROCE_IPV4_VERSION_OFF -: `FROCE_IPV4_VERSION_W];
wire [3:0] ip4_ihl = l3v[T3-`FROCE_IPV4_IHL_OFF -: `FROCE_IPV4_IHL_W];
wire [7:0] ip4_tos = l3v[T3-`FROCE_IPV4_TOS_OFF -: `FROCE_IPV4_TOS_W];
wire [15:0] ip4_total_len = l3v[T3-`FROCE_IPV4_TOTAL_LEN_OFF -: `FROCE_IPV4_TOTAL_LEN_W];
wire [15:0] ip4_id = l3v[T3-`FROCE_IPV4_ID_OFF -: `FROCE_IPV4_ID_W];
wire [2:0] ip4_flags = l3v[T3-`FROCE_IPV4_FLAGS_OFF -: `FROCE_IPV4_FLAGS_W];
wire [12:0] ip4_frag_off = l3v[T3-`FROCE_IPV4_FRAG_OFF_OFF -: `FROCE_IPV4_FRAG_OFF_W];
wire [7:0] ip4_ttl = l3v[T3-`FROCE_IPV4_TTL_OFF -: `FROCE_IPV4_TTL_W];
wire [7:0] ip4_protocol = l3v[T3-`FROCE_IPV4_PROTOCOL_OFF -: `FROCE_IPV4_PROTOCOL_W];
wire [31:0] ip4_src = l3v[T3-`FROCE_IPV4_SRC_OFF -: `FROCE_IPV4_SRC_W];
wire [31:0] ip4_dst = l3v[T3-`FROCE_IPV4_DST_OFF -: `FROCE_IPV4_DST_W];

// IPv6 and the RoCE v1 GRH share one layout
wire [3:0] ip6_version = l3v[T3-`FROCE_IPV6_VERSION_OFF -: `FROCE_IPV6_VERSION_W];
wire [7:0] ip6_tclass = l3v[T3-`FROCE_IPV6_TCLASS_OFF -: `FROCE_IPV6_TCLASS_W];
wire [19:0] ip6_flow = l3v[T3-`FROCE_IPV6_FLOW_LABEL_OFF -: `FROCE_IPV6_FLOW_LABEL_W];
wire [15:0] ip6_payload_len = l3v[T3-`FROCE_IPV6_PAYLOAD_LEN_OFF -: `FROCE_IPV6_PAYLOAD_LEN_W];
wire [7:0] ip6_next = l3v[T3-`FROCE_IPV6_NEXT_HDR_OFF -: `FROCE_IPV6_NEXT_HDR_W];
wire [7:0] ip6_hop = l3v[T3-`FROCE_IPV6_HOP_LIMIT_OFF -: `FROCE_IPV6_HOP_LIMIT_W];
wire [127:0] ip6_src = l3v[T3-`FROCE_IPV6_SRC_OFF -: `FROCE_IPV6_SRC_W];
wire [127:0] ip6_dst = l3v[T3-`FROCE_IPV6_DST_OFF -: `FROCE_IPV6_DST_W];


wire unused_ip4_bits = ip4_flags[2];

// IPv4 header checksum check, split over the two decode stages: stage 0 adds
// each half of the ten 16-bit words, stage 1 adds the halves. The header is
// right when the ones-complement sum is 0xFFFF, i.e. when the plain sum is a
// non-zero multiple of 0xFFFF (at most ten of them for ten words).
wire [18:0] s_ip4_half_a = {3'd0, s_l3[T3 -: 16]} + {3'd0, s_l3[T3-16 -: 16]} +
                           {3'd0, s_l3[T3-32 -: 16]} + {3'd0, s_l3[T3-48 -: 16]} +
                           {3'd0, s_l3[T3-64 -: 16]};
wire [18:0] s_ip4_half_b = {3'd0, s_l3[T3-80 -: 16]} + {3'd0, s_l3[T3-96 -: 16]} +
                           {3'd0, s_l3[T3-112 -: 16]} + {3'd0, s_l3[T3-128 -: 16]} +
                           {3'd0, s_l3[T3-144 -: 16]};
reg [18:0] ip4_half_a_reg = 0, ip4_half_b_reg = 0;
always @(posedge clk) begin
    if (snap_valid_reg) begin
        ip4_half_a_reg <= s_ip4_half_a;
        ip4_half_b_reg <= s_ip4_half_b;
    end
end
wire [19:0] ip4_word_sum = {1'b0, ip4_half_a_reg} + {1'b0, ip4_half_b_reg};
wire [10:1] ip4_sum_is;
generate
    for (g = 1; g <= 10; g = g + 1) begin : g_ip4_sum
        localparam [19:0] MULTIPLE = g * 20'hFFFF;
        assign ip4_sum_is[g] = ip4_word_sum == MULTIPLE;
    end
endgenerate
wire ip4_csum_ok = |ip4_sum_is;

// UDP (v2)
localparam UB = 8 * `FROCE_UDP_LEN;
localparam TU = UB - 1;
wire [UB-1:0] udpv = is_ip4 ? l3v[T3-8*`FROCE_IPV4_LEN -: UB] : l3v[T3-8*`FROCE_IPV6_LEN -: UB];
wire [15:0] udp_sport = udpv[TU-`FROCE_UDP_SPORT_OFF -: `FROCE_UDP_SPORT_W];
wire [15:0] udp_dport = udpv[TU-`FROCE_UDP_DPORT_OFF -: `FROCE_UDP_DPORT_W];
wire [15:0] udp_len = udpv[TU-`FROCE_UDP_LEN_OFF -: `FROCE_UDP_LEN_W];
// rxe sends UDP checksum 0 and RoCE v2 allows it; the ICRC covers the packet
wire [15:0] unused_udp_csum = udpv[TU-`FROCE_UDP_CHECKSUM_OFF -: `FROCE_UDP_CHECKSUM_W];

// BTH
wire [7:0] bth_opcode = bthv[TI-`FROCE_BTH_OPCODE_OFF -: `FROCE_BTH_OPCODE_W];
wire bth_se = bthv[TI-`FROCE_BTH_SE_OFF];
wire bth_m = bthv[TI-`FROCE_BTH_M_OFF];
wire [1:0] bth_padcnt = bthv[TI-`FROCE_BTH_PADCNT_OFF -: `FROCE_BTH_PADCNT_W];
wire [3:0] bth_tver = bthv[TI-`FROCE_BTH_TVER_OFF -: `FROCE_BTH_TVER_W];
wire [15:0] bth_pkey = bthv[TI-`FROCE_BTH_PKEY_OFF -: `FROCE_BTH_PKEY_W];
wire bth_fecn = bthv[TI-`FROCE_BTH_FECN_OFF];
wire bth_becn = bthv[TI-`FROCE_BTH_BECN_OFF];
wire [23:0] bth_dqpn = bthv[TI-`FROCE_BTH_DQPN_OFF -: `FROCE_BTH_DQPN_W];
wire bth_ackreq = bthv[TI-`FROCE_BTH_ACKREQ_OFF];
wire [23:0] bth_psn = bthv[TI-`FROCE_BTH_PSN_OFF -: `FROCE_BTH_PSN_W];

wire op_valid, has_payload;
wire [6:0] unused_has_ext;   // RHDR carries the extension headers as bytes
wire unused_pos_first, unused_pos_last;
wire [5:0] ext_len;
froce_opcode_info u_opcode_info (
    .opcode(bth_opcode),
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
    .ext_len(ext_len)
);

// The extension headers: the bytes after the BTH, as many as the longest run
// (AtomicETH; spec/protocol.toml checks that RHDR's ext is that long)
localparam EXT_BITS = `FROCE_RHDR_EXT_W;
localparam ET = EXT_BITS - 1;
wire [EXT_BITS-1:0] extv = bthv[TI-8*`FROCE_BTH_LEN -: EXT_BITS];

// RHDR carries the extension headers as their wire bytes; the 4-byte groups
// past the opcode's headers (payload, ICRC or bytes past the frame) are zeroed
// so that a header has one RHDR
reg [EXT_BITS-1:0] ext_bytes;
integer eg;
always @* begin
    for (eg = 0; eg < EXT_BITS / 32; eg = eg + 1)
        ext_bytes[ET-32*eg -: 32] = {2'b00, ext_len} > 8'd4 * eg[7:0] ? extv[ET-32*eg -: 32] : 32'd0;
end

// Lengths, in bytes from the start of the frame
wire [PW-1:0] udp_off = l3_off + (is_ip4 ? P_IPV4 : P_IPV6);
wire [PW-1:0] bth_off = is_v1 ? l3_off + P_GRH : udp_off + P_UDP;
wire [PW-1:0] pay_off = bth_off + P_BTH + {{(PW-6){1'b0}}, ext_len};
// end of the ICRC according to the L3 length field
wire [PW-1:0] l3_len = is_ip4 ? {{(PW-16){1'b0}}, ip4_total_len} :
                       {{(PW-16){1'b0}}, ip6_payload_len} + P_IPV6;
wire [PW-1:0] icrc_end = l3_off + l3_len;
// payload = what the L3 length leaves after L3/UDP, BTH, extension headers,
// pad and ICRC; the opcode-independent part first, so the opcode table is
// not in series with two adders
localparam [PW-1:0] P_V4_FIXED = `FROCE_IPV4_LEN + `FROCE_UDP_LEN + `FROCE_BTH_LEN + 4;
localparam [PW-1:0] P_V6_FIXED = `FROCE_IPV6_LEN + `FROCE_UDP_LEN + `FROCE_BTH_LEN + 4;
localparam [PW-1:0] P_V1_FIXED = `FROCE_GRH_LEN + `FROCE_BTH_LEN + 4;
wire [PW-1:0] fixed_len = is_ip4 ? P_V4_FIXED : is_v1 ? P_V1_FIXED : P_V6_FIXED;
wire [PW:0] rest = {1'b0, l3_len} - {1'b0, fixed_len};
wire [PW:0] var_len = {{(PW-5){1'b0}}, ext_len} + {{(PW-1){1'b0}}, bth_padcnt};
wire [PW:0] pay_diff = rest - var_len;
wire length_short = pay_diff[PW];
wire [PW-1:0] pay_len_full = pay_diff[PW-1:0];
wire [15:0] pay_len = pay_len_full[15:0];
wire [15:0] ip4_udp_len = ip4_total_len - P_IPV4[15:0];
wire udp_len_ok = is_ip4 ? udp_len == ip4_udp_len : udp_len == ip6_payload_len;

// The checks, each on its own; the decode register stage below ranks them
wire ip4_udp = ip4_version == 4'd4 && ip4_ihl == 4'd5 && !ip4_flags[0] &&
               ip4_frag_off == 13'd0 && ip4_protocol == `FROCE_IPPROTO_UDP;
wire ip6_udp = ip6_version == 4'd6 && ip6_next == `FROCE_IPPROTO_UDP;
wire roce_port = udp_dport == `FROCE_UDP_PORT_ROCE;
wire c_short_l2 = d0_len_reg < l3_off;
wire c_short_ip4 = is_ip4 && d0_len_reg < l3_off + P_IPV4;
wire c_short_udp = ((is_ip4 && ip4_udp) || (is_ip6 && ip6_udp)) && d0_len_reg < udp_off + P_UDP;
wire c_short_ip6 = (is_ip6 || is_v1) && d0_len_reg < l3_off + P_IPV6;
wire c_v2_ip4 = is_ip4 && ip4_udp && roce_port;
wire c_v2_ip6 = is_ip6 && ip6_udp && roce_port;
wire c_v1_bad = is_v1 && (ip6_version != 4'd6 || ip6_next != `FROCE_GRH_NXTHDR_BTH);
wire c_ip4_csum = is_ip4 && !ip4_csum_ok;
wire c_udp_len = !is_v1 && !udp_len_ok;
wire c_short_bth = d0_len_reg < bth_off + P_BTH;
wire c_tver = bth_tver != `FROCE_BTH_TVER;
wire c_opcode = !op_valid;
wire c_short_ext = d0_len_reg < pay_off;
wire c_length = length_short || (!has_payload && (pay_len != 16'd0 || bth_padcnt != 2'd0));
wire c_big = pay_len_full > P_MAX_PAYLOAD;

wire [47:0] r_eth_dst = d0_eth_reg[95:48];
wire [47:0] r_eth_src = d0_eth_reg[47:0];
wire [2:0] r_vlan_pcp = d0_vlan_reg[15:13];
wire r_vlan_dei = d0_vlan_reg[12];
wire [11:0] r_vlan_vid = d0_vlan_reg[11:0];
wire [2:0] kind = c_v2_ip4 ? `FROCE_KIND_ROCE_V2_IPV4 :
                  c_v2_ip6 ? `FROCE_KIND_ROCE_V2_IPV6 :
                  is_v1 ? `FROCE_KIND_ROCE_V1 : `FROCE_KIND_NOT_ROCE;
wire d_roce = kind != `FROCE_KIND_NOT_ROCE;
wire [127:0] sgid = is_ip4 ? {80'h0, 16'hffff, ip4_src} : ip6_src;
wire [127:0] dgid = is_ip4 ? {80'h0, 16'hffff, ip4_dst} : ip6_dst;

reg [RW-1:0] d_rhdr;
always @* begin
    d_rhdr = {RW{1'b0}};
    d_rhdr[`FROCE_RHDR_KIND_LSB +: `FROCE_RHDR_KIND_W] = kind;
    d_rhdr[`FROCE_RHDR_VLAN_EN_LSB] = d0_vlan_en_reg;
    d_rhdr[`FROCE_RHDR_VLAN_PCP_LSB +: `FROCE_RHDR_VLAN_PCP_W] = d0_vlan_en_reg ? r_vlan_pcp : 3'd0;
    d_rhdr[`FROCE_RHDR_VLAN_DEI_LSB] = d0_vlan_en_reg && r_vlan_dei;
    d_rhdr[`FROCE_RHDR_VLAN_VID_LSB +: `FROCE_RHDR_VLAN_VID_W] = d0_vlan_en_reg ? r_vlan_vid : 12'd0;
    d_rhdr[`FROCE_RHDR_ETH_DST_LSB +: `FROCE_RHDR_ETH_DST_W] = r_eth_dst;
    d_rhdr[`FROCE_RHDR_ETH_SRC_LSB +: `FROCE_RHDR_ETH_SRC_W] = r_eth_src;
    if (d_roce) begin
        d_rhdr[`FROCE_RHDR_SGID_LSB +: `FROCE_RHDR_SGID_W] = sgid;
        d_rhdr[`FROCE_RHDR_DGID_LSB +: `FROCE_RHDR_DGID_W] = dgid;
        d_rhdr[`FROCE_RHDR_TCLASS_LSB +: `FROCE_RHDR_TCLASS_W] = is_ip4 ? ip4_tos : ip6_tclass;
        d_rhdr[`FROCE_RHDR_FLOW_LABEL_LSB +: `FROCE_RHDR_FLOW_LABEL_W] = is_ip4 ? 20'd0 : ip6_flow;
        d_rhdr[`FROCE_RHDR_HOP_LIMIT_LSB +: `FROCE_RHDR_HOP_LIMIT_W] = is_ip4 ? ip4_ttl : ip6_hop;
        d_rhdr[`FROCE_RHDR_IP_ID_LSB +: `FROCE_RHDR_IP_ID_W] = is_ip4 ? ip4_id : 16'd0;
        d_rhdr[`FROCE_RHDR_IP_DF_LSB] = is_ip4 && ip4_flags[1];
        d_rhdr[`FROCE_RHDR_UDP_SPORT_LSB +: `FROCE_RHDR_UDP_SPORT_W] = is_v1 ? 16'd0 : udp_sport;
        d_rhdr[`FROCE_RHDR_OPCODE_LSB +: `FROCE_RHDR_OPCODE_W] = bth_opcode;
        d_rhdr[`FROCE_RHDR_SE_LSB] = bth_se;
        d_rhdr[`FROCE_RHDR_MIGREQ_LSB] = bth_m;
        d_rhdr[`FROCE_RHDR_PADCNT_LSB +: `FROCE_RHDR_PADCNT_W] = bth_padcnt;
        d_rhdr[`FROCE_RHDR_TVER_LSB +: `FROCE_RHDR_TVER_W] = bth_tver;
        d_rhdr[`FROCE_RHDR_PKEY_LSB +: `FROCE_RHDR_PKEY_W] = bth_pkey;
        d_rhdr[`FROCE_RHDR_FECN_LSB] = bth_fecn;
        d_rhdr[`FROCE_RHDR_BECN_LSB] = bth_becn;
        d_rhdr[`FROCE_RHDR_DQPN_LSB +: `FROCE_RHDR_DQPN_W] = bth_dqpn;
        d_rhdr[`FROCE_RHDR_ACKREQ_LSB] = bth_ackreq;
        d_rhdr[`FROCE_RHDR_PSN_LSB +: `FROCE_RHDR_PSN_W] = bth_psn;
        d_rhdr[`FROCE_RHDR_EXT_LSB +: `FROCE_RHDR_EXT_W] = ext_bytes;
        d_rhdr[`FROCE_RHDR_PAYLOAD_LEN_LSB +: `FROCE_RHDR_PAYLOAD_LEN_W] = pay_len;
    end
end

// Decode register stage: the checks and constants, then ranked into a verdict
// as the entry goes into the header FIFO (first failing check wins)
localparam NCHK = 15;
reg [RW-1:0] d1_rhdr_reg = 0;
reg [NCHK-1:0] d1_chk_reg = 0;
reg [7:0] d1_pay_off_reg = 0;        // never above 106
reg [15:0] d1_pay_len_reg = 0;
reg [PW-1:0] d1_icrc_end_reg = 0;
wire [PW-9:0] unused_pay_off = pay_off[PW-1:8];

always @(posedge clk) begin
    d1_valid_reg <= d0_valid_reg;
    if (d0_valid_reg) begin
        d1_rhdr_reg <= d_rhdr;
        d1_chk_reg <= {c_short_l2, c_short_ip4, c_short_udp, c_short_ip6, !d_roce, c_v1_bad,
                       c_ip4_csum, c_udp_len, c_short_bth, c_tver, c_opcode, c_short_ext,
                       c_length, c_big, 1'b0};
        d1_pay_off_reg <= pay_off[7:0];
        d1_pay_len_reg <= pay_len;
        d1_icrc_end_reg <= icrc_end;
    end
    if (rst)
        d1_valid_reg <= 1'b0;
end

reg [3:0] d1_verdict;
always @* begin
    casez (d1_chk_reg)
        15'b1??????????????: d1_verdict = `FROCE_VERDICT_TRUNCATED;
        15'b01?????????????: d1_verdict = `FROCE_VERDICT_TRUNCATED;
        15'b001????????????: d1_verdict = `FROCE_VERDICT_TRUNCATED;
        15'b0001???????????: d1_verdict = `FROCE_VERDICT_TRUNCATED;
        15'b00001??????????: d1_verdict = `FROCE_VERDICT_NOT_ROCE;
        15'b000001?????????: d1_verdict = `FROCE_VERDICT_BAD_VERSION;
        15'b0000001????????: d1_verdict = `FROCE_VERDICT_IP_CSUM;
        15'b00000001???????: d1_verdict = `FROCE_VERDICT_BAD_LENGTH;
        15'b000000001??????: d1_verdict = `FROCE_VERDICT_TRUNCATED;
        15'b0000000001?????: d1_verdict = `FROCE_VERDICT_BAD_VERSION;
        15'b00000000001????: d1_verdict = `FROCE_VERDICT_BAD_OPCODE;
        15'b000000000001???: d1_verdict = `FROCE_VERDICT_TRUNCATED;
        15'b0000000000001??: d1_verdict = `FROCE_VERDICT_BAD_LENGTH;
        15'b00000000000001?: d1_verdict = `FROCE_VERDICT_OVERSIZE;
        default: d1_verdict = `FROCE_VERDICT_OK;
    endcase
end

// payload_len is only meaningful for a packet that passed the header checks
reg [RW-1:0] d1_rhdr;
always @* begin
    d1_rhdr = d1_rhdr_reg;
    if (d1_verdict != `FROCE_VERDICT_OK)
        d1_rhdr[`FROCE_RHDR_PAYLOAD_LEN_LSB +: `FROCE_RHDR_PAYLOAD_LEN_W] = 16'd0;
end

// Per-frame constants that let stage 2 work from its beat counter alone:
// payload window beats, the keep of the last window, and the beat where the
// ICRC ends (the CRC runs over the ICRC too and checks the residue)
wire [PW-1:0] icrc_end_m1 = d1_icrc_end_reg - 1'b1;
wire [BW-1:0] k_pay_first = {{(BW-8+KW){1'b0}}, d1_pay_off_reg[7:KW]};
// window j starts in beat k_pay_first + j; the last window is j = (len-1)/W
wire [15:0] pay_len_m1 = d1_pay_len_reg - 1'b1;
wire [BW-1:0] k_pay_last = k_pay_first + {{(BW-16+KW){1'b0}}, pay_len_m1[15:KW]};
wire [W-1:0] k_final_keep;
generate
    for (g = 1; g < W; g = g + 1) begin : g_final_keep
        localparam [KW-1:0] LANE = g;
        assign k_final_keep[g] = LANE <= pay_len_m1[KW-1:0];
    end
endgenerate
assign k_final_keep[0] = 1'b1;
wire [BW-1:0] k_end_beat = icrc_end_m1[PW-1:KW];
wire [KW:0] k_end_len = {1'b0, icrc_end_m1[KW-1:0]} + 1'b1;   // bytes of the end beat, 1..W
wire [KW-1:0] k_pad = ~icrc_end_m1[KW-1:0];                   // zero bytes after them, W - len

// Header FIFO entry: the bundle and what stage 2 needs besides it, in two
// FIFOs that move together: the bundle in block RAM (its output goes only
// to hdr_reg), the frame constants stage A decides on (with the bundle's
// kind and VLAN flag) in a small registered one
localparam MW = 4 + KW + 3 * BW + 1 + W + (KW + 1) + KW;
localparam KFW = MW + 4;
wire [KFW-1:0] kfifo_wr = {d1_rhdr[`FROCE_RHDR_VLAN_EN_LSB], d1_rhdr[`FROCE_RHDR_KIND_LSB +: `FROCE_RHDR_KIND_W],
                           d1_verdict, d1_pay_off_reg[KW-1:0], k_pay_first, k_pay_last,
                           d1_pay_len_reg != 16'd0, k_final_keep, k_end_beat, k_end_len, k_pad};
wire [KFW-1:0] kfifo_rd;
wire [RW-1:0] f_rhdr;
wire hfifo_pop = a_take && cur_last;
wire [$clog2(HFIFO_DEPTH):0] unused_rfifo_count;
wire unused_rfifo_empty, unused_rfifo_full;

froce_fifo #(
    .WIDTH(KFW),
    .DEPTH(HFIFO_DEPTH),
    .REG_OUT(1)
) u_hfifo (
    .clk(clk),
    .rst(rst),
    .wr_data(kfifo_wr),
    .wr_en(d1_valid_reg),
    .rd_data(kfifo_rd),
    .rd_en(hfifo_pop),
    .count(hfifo_count),
    .empty(hfifo_empty),
    .full(unused_hfifo_full)
);

froce_fifo #(
    .WIDTH(RW),
    .DEPTH(HFIFO_DEPTH),
    .REG_OUT(1),
    .RAM_STYLE("block")
) u_rhdr_fifo (
    .clk(clk),
    .rst(rst),
    .wr_data(d1_rhdr),
    .wr_en(d1_valid_reg),
    .rd_data(f_rhdr),
    .rd_en(hfifo_pop),
    .count(unused_rfifo_count),
    .empty(unused_rfifo_empty),
    .full(unused_rfifo_full)
);

/* ------------------------------------------------------------------------
 * Stage 2, three register stages that advance together:
 *   A  per-beat controls from the beat counter and the frame constants; the
 *      ICRC masks; the realigned payload window
 *   B  the CRC, over everything up to and including the ICRC
 *   C  the verdict (CRC residue check), the output register
 * ------------------------------------------------------------------------ */

wire [KW-1:0] f_pad = kfifo_rd[0 +: KW];
wire [KW:0] f_end_len = kfifo_rd[KW +: KW+1];
wire [BW-1:0] f_end_beat = kfifo_rd[2*KW+1 +: BW];
wire [W-1:0] f_final_keep = kfifo_rd[2*KW+1+BW +: W];
wire f_pay_any = kfifo_rd[2*KW+1+BW+W];
wire [BW-1:0] f_pay_last = kfifo_rd[2*KW+2+BW+W +: BW];
wire [BW-1:0] f_pay_first = kfifo_rd[2*KW+2+2*BW+W +: BW];
wire [KW-1:0] f_shift = kfifo_rd[2*KW+2+3*BW+W +: KW];
wire [3:0] f_verdict = kfifo_rd[3*KW+2+3*BW+W +: 4];
wire [2:0] f_kind = kfifo_rd[MW +: 3];
wire f_vlan = kfifo_rd[MW+3];
wire f_pass = f_verdict == `FROCE_VERDICT_NOT_ROCE;
wire f_ok = f_verdict == `FROCE_VERDICT_OK;

reg [BW-1:0] beat_reg = 0;          // beat index within the frame, saturating
reg big_reg = 1'b0;                 // frame already longer than MAX_FRAME_BYTES

// stage A registers
reg a_valid_reg = 1'b0;
reg a_first_reg = 1'b0, a_last_reg = 1'b0, a_crc_en_reg = 1'b0;
reg [DATA_WIDTH-1:0] a_crc_data_reg = 0;
reg [KW-1:0] a_pad_reg = 0;
reg [1:0] a_out_reg = 0;            // OUT_*: what stage C does with the beat
reg [DATA_WIDTH-1:0] a_data_reg = 0;
reg [W-1:0] a_keep_reg = 0;
reg [3:0] a_verdict_reg = 0;        // header verdict, NOT_ROCE, or OVERSIZE/TRUNCATED
reg a_check_reg = 1'b0;             // the verdict still depends on the ICRC
// stage B registers
reg b_valid_reg = 1'b0;
reg b_last_reg = 1'b0;
reg [31:0] crc_reg = 0;
reg [KW-1:0] b_pad_reg = 0;
reg [1:0] b_out_reg = 0;
reg [DATA_WIDTH-1:0] b_data_reg = 0;
reg [W-1:0] b_keep_reg = 0;
reg [3:0] b_verdict_reg = 0;
reg b_check_reg = 1'b0;
// stage C: held last payload beat, outputs
reg held_valid_reg = 1'b0;
reg [DATA_WIDTH-1:0] held_data_reg = 0;
reg [W-1:0] held_keep_reg = 0;
reg hdr_valid_reg = 1'b0;
reg [RW-1:0] hdr_reg = 0;
reg out_valid_reg = 1'b0;
reg [DATA_WIDTH-1:0] out_data_reg = 0;
reg [W-1:0] out_keep_reg = 0;
reg out_last_reg = 1'b0;
reg [3:0] out_user_reg = 0;
reg stat_valid_reg = 1'b0;
reg [3:0] stat_verdict_reg = 0;

localparam [1:0] OUT_NONE = 2'd0;   // header or trailer beat: nothing
localparam [1:0] OUT_BEAT = 2'd1;   // a beat of output
localparam [1:0] OUT_HOLD = 2'd2;   // the last payload beat, before the frame's end

// everything moves when the output register can take a beat
wire adv = !out_valid_reg || m_axis_tready;
wire first_beat = beat_reg == {BW{1'b0}};
assign a_take = adv && !dfifo_empty && !hfifo_empty &&
                (!first_beat || !hdr_valid_reg || m_hdr_ready);

// ICRC masks for this beat; bytes past the end of the ICRC are zeroed
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
wire at_end_beat = beat_reg == f_end_beat;
wire crc_en = beat_reg <= f_end_beat;
wire [W-1:0] crc_lanes;
generate
    for (g = 0; g < W; g = g + 1) begin : g_crc_lanes
        localparam [KW:0] LANE = g;
        assign crc_lanes[g] = !at_end_beat || LANE < f_end_len;
    end
endgenerate
wire [DATA_WIDTH-1:0] crc_data = ((cur_data & and_mask) | or_mask) & keep_to_mask(crc_lanes);

// payload window: the beat holding its first byte and the one after it
wire [2*DATA_WIDTH-1:0] pair = {nxt_data, cur_data};
wire [DATA_WIDTH-1:0] window_data = pair[8*f_shift +: DATA_WIDTH];
wire in_payload = f_ok && f_pay_any && beat_reg >= f_pay_first && beat_reg <= f_pay_last;
wire window_final = beat_reg == f_pay_last;

// frame length checks at the last beat
wire short = beat_reg < f_end_beat || (at_end_beat && cur_count < f_end_len);
// frame length > MAX_FRAME_BYTES: this beat's count against the bytes left
// under the limit where the beat starts (from beat_reg alone, alongside the
// data's arrival, rather than an adder behind the count)
wire [PW:0] big_room = {1'b0, P_MAX_FRAME} - {1'b0, beat_reg, {KW{1'b0}}};
wire big = big_reg || big_room[PW] || {{(PW-KW-1){1'b0}}, cur_count} > big_room[PW-1:0] || &beat_reg;

always @(posedge clk) begin
    if (adv) begin
        a_valid_reg <= a_take;
        if (a_take) begin
            a_first_reg <= first_beat;
            a_last_reg <= cur_last;
            a_crc_en_reg <= crc_en && !f_pass;
            a_crc_data_reg <= crc_data;
            a_pad_reg <= f_pad;
            a_check_reg <= f_ok && !big && !short;
            if (f_pass) begin
                a_out_reg <= OUT_BEAT;
                a_data_reg <= cur_data;
                a_keep_reg <= cur_keep;
            end else if (in_payload) begin
                a_out_reg <= window_final && !cur_last ? OUT_HOLD : OUT_BEAT;
                a_data_reg <= window_data;
                a_keep_reg <= window_final ? f_final_keep : {W{1'b1}};
            end else begin
                a_out_reg <= cur_last ? OUT_BEAT : OUT_NONE;
                a_data_reg <= {DATA_WIDTH{1'b0}};
                a_keep_reg <= {W{1'b0}};
            end
            // what the verdict is unless the ICRC decides it
            if (f_verdict == `FROCE_VERDICT_OVERSIZE && short)
                a_verdict_reg <= `FROCE_VERDICT_TRUNCATED;
            else if (!f_ok && !f_pass)
                a_verdict_reg <= f_verdict;
            else if (big)
                a_verdict_reg <= `FROCE_VERDICT_OVERSIZE;
            else if (f_pass)
                a_verdict_reg <= `FROCE_VERDICT_NOT_ROCE;
            else if (short)
                a_verdict_reg <= `FROCE_VERDICT_TRUNCATED;
            else
                a_verdict_reg <= `FROCE_VERDICT_OK;

            big_reg <= cur_last ? 1'b0 : big;
            if (cur_last)
                beat_reg <= {BW{1'b0}};
            else if (!(&beat_reg))
                beat_reg <= beat_reg + 1'b1;
        end
    end
    if (rst) begin
        a_valid_reg <= 1'b0;
        beat_reg <= {BW{1'b0}};
        big_reg <= 1'b0;
    end
end

// Stage B: the CRC over everything up to and including the ICRC, the last
// beat zero-padded; a good packet leaves the register at the residue shifted
// by the padding bytes
wire [31:0] crc_next;
froce_crc32_step #(
    .DATA_WIDTH(DATA_WIDTH)
) u_crc (
    .crc_in(a_first_reg ? 32'd0 : crc_reg),
    .data(a_crc_data_reg),
    .len(P_W[KW:0]),
    .crc_out(crc_next)
);

always @(posedge clk) begin
    if (adv) begin
        b_valid_reg <= a_valid_reg;
        if (a_valid_reg) begin
            if (a_crc_en_reg)
                crc_reg <= crc_next;
            b_last_reg <= a_last_reg;
            b_pad_reg <= a_pad_reg;
            b_out_reg <= a_out_reg;
            b_data_reg <= a_data_reg;
            b_keep_reg <= a_keep_reg;
            b_verdict_reg <= a_verdict_reg;
            b_check_reg <= a_check_reg;
        end
    end
    if (rst)
        b_valid_reg <= 1'b0;
end

// Stage C: verdict and outputs
wire [32*W-1:0] residues;
generate
    if (DATA_WIDTH == 64) begin : g_res64
        assign residues = `FROCE_CRC32_RESIDUE_64;
    end else if (DATA_WIDTH == 128) begin : g_res128
        assign residues = `FROCE_CRC32_RESIDUE_128;
    end else if (DATA_WIDTH == 256) begin : g_res256
        assign residues = `FROCE_CRC32_RESIDUE_256;
    end else begin : g_res512
        assign residues = `FROCE_CRC32_RESIDUE_512;
    end
endgenerate
wire [31:0] residue = residues[32*b_pad_reg +: 32];
wire [3:0] verdict = b_check_reg && crc_reg != residue ? `FROCE_VERDICT_ICRC_BAD : b_verdict_reg;

always @(posedge clk) begin
    stat_valid_reg <= 1'b0;
    if (m_hdr_ready)
        hdr_valid_reg <= 1'b0;
    if (a_take && first_beat) begin
        hdr_valid_reg <= 1'b1;
        hdr_reg <= f_rhdr;
    end
    if (m_axis_tready)
        out_valid_reg <= 1'b0;

    if (adv && b_valid_reg) begin
        if (b_out_reg == OUT_HOLD) begin
            held_valid_reg <= 1'b1;
            held_data_reg <= b_data_reg;
            held_keep_reg <= b_keep_reg;
        end else if (b_out_reg == OUT_BEAT) begin
            // at the frame's end a held payload beat goes out in place of
            // the empty one
            out_valid_reg <= 1'b1;
            out_data_reg <= b_last_reg && held_valid_reg ? held_data_reg : b_data_reg;
            out_keep_reg <= b_last_reg && held_valid_reg ? held_keep_reg : b_keep_reg;
            out_last_reg <= b_last_reg;
            out_user_reg <= b_last_reg ? verdict : 4'd0;
        end
        if (b_last_reg) begin
            held_valid_reg <= 1'b0;
            stat_valid_reg <= 1'b1;
            stat_verdict_reg <= verdict;
        end
    end

    if (rst) begin
        held_valid_reg <= 1'b0;
        hdr_valid_reg <= 1'b0;
        out_valid_reg <= 1'b0;
        stat_valid_reg <= 1'b0;
    end
end

assign m_hdr = hdr_reg;
assign m_hdr_valid = hdr_valid_reg;
assign m_axis_tdata = out_data_reg;
assign m_axis_tkeep = out_keep_reg;
assign m_axis_tvalid = out_valid_reg;
assign m_axis_tlast = out_last_reg;
assign m_axis_tuser = out_user_reg;
assign stat_valid = stat_valid_reg;
assign stat_verdict = stat_verdict_reg;

endmodule

`resetall
