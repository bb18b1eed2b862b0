// SPDX-License-Identifier: MIT
// 10 Gb/s Ethernet MAC transmitter: AXI-Stream frames to 64-bit XGMII (preamble, padding, FCS, DIC).
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Input: one Ethernet frame per AXI-Stream packet, destination MAC first,
 * without preamble and FCS; byte 0 in tdata[7:0]. Every beat but the tlast
 * one is taken as 8 bytes (tkeep is looked at only on tlast, where the bytes
 * are those under its run of ones from bit 0; 0 bytes is allowed).
 *
 * Output (IEEE 802.3 Clause 46 XGMII, 64-bit SDR: lane i = txd[8i+7:8i],
 * txc[i]; lane 0 first on the wire):
 *
 *   /S/ 55 55 55 55 55 55 D5 | frame | zeros up to 60 bytes | FCS (4) | /T/ | /I/...
 *
 * /S/ goes into lane 0 or lane 4. The gap from /T/ (counted) to the next
 * /S/ follows the deficit idle count of 802.3 46.3.1.4: each gap is the
 * shortest one that reaches lane 0 or 4 and is >= 9 + DIC, and DIC (0..3)
 * becomes DIC + 12 - gap, so no gap is below 9 and back-to-back gaps
 * average exactly 12. ENABLE_DIC = 0: every gap >= 12 (rounded up).
 *
 * A frame ends with /E/ instead of its FCS (the four FCS lanes carry /E/,
 * then /T/), so every receiver drops it, when:
 *   - ABORT: a beat has tuser = 1 (that beat and the rest of the input
 *     frame are not sent);
 *   - OVERSIZE: it is longer than MAX_FRAME bytes; it is cut after
 *     MAX_FRAME bytes and the rest of the input frame is discarded;
 *   - UNDERRUN: the wire cannot wait, so once a frame has started its beats
 *     must come back to back; a cycle without s_axis_tvalid ends it there
 *     and the rest of the input frame is discarded when it arrives. Put a
 *     store-and-forward FIFO in front when the source can pause
 *     (froce_eth_mac_10g does, TX_FIFO_BYTES).
 *
 * Counters (reset by rst only, wrap around): each frame counts in exactly
 * one of tx_frames (sent with a good FCS), tx_aborted, tx_oversize,
 * tx_underrun; tx_bytes adds the bytes of each good frame from the
 * destination MAC through the FCS, padding included (64..MAX_FRAME + 4).
 *
 * Pipeline: P1 (input beat, padding, truncation) -> P2 + CRC register (the
 * CRC step of a beat sits between P1 and P2, so when the last beat is in P2
 * the CRC register holds the final value) -> lane composer and the
 * lane-4 shifter -> xgmii_txd/txc registers. Latency from a frame's first
 * accepted beat to /S/ on the wire: 2 cycles when the gap allows.
 */
module froce_eth_mac_10g_tx #(
    parameter MAX_FRAME = 9600,         // longest frame in bytes, without FCS (64..16000); longer ones are cut, end in /E/
    parameter ENABLE_DIC = 1            // 1: deficit idle count (average gap 12, minimum 9); 0: every gap >= 12
) (
    input  wire         clk,
    input  wire         rst,

    /* AXI-Stream frames in (no preamble, no FCS) */
    input  wire [63:0]  s_axis_tdata,
    input  wire [7:0]   s_axis_tkeep,       // looked at on the tlast beat only
    input  wire         s_axis_tvalid,
    output wire         s_axis_tready,
    input  wire         s_axis_tlast,
    input  wire         s_axis_tuser,       // 1: abort this frame (ends in /E/ on the wire)

    /* XGMII transmit, 64-bit SDR at 156.25 MHz */
    output wire [63:0]  xgmii_txd,
    output wire [7:0]   xgmii_txc,

    /* Counters */
    output wire [31:0]  tx_frames,
    output wire [63:0]  tx_bytes,
    output wire [31:0]  tx_aborted,
    output wire [31:0]  tx_oversize,
    output wire [31:0]  tx_underrun
);

// byte counter width: up to MAX_FRAME + 8
localparam CW = 14;
// XGMII control characters
localparam [7:0] XG_IDLE = 8'h07, XG_START = 8'hFB, XG_TERM = 8'hFD, XG_ERROR = 8'hFE;
// error kinds carried with the last beat
localparam [1:0] ERR_NONE = 2'd0, ERR_ABORT = 2'd1, ERR_OVERSIZE = 2'd2, ERR_UNDERRUN = 2'd3;
// engine states
localparam [1:0] ST_IDLE = 2'd0,        // between frames: idles, count the gap, start when allowed
                 ST_DATA = 2'd1,        // a beat of the frame from P2 every cycle
                 ST_TAIL = 2'd2;        // the FCS bytes and /T/ that did not fit into the last beat
localparam [31:0] MAX_FRAME_32 = MAX_FRAME;
localparam [CW-1:0] MAX_BYTES = MAX_FRAME_32[CW-1:0];
localparam [CW-1:0] MIN_BYTES = 14'd60;
// gap counter: (bytes from /T/ to lane 0 of this beat) + 3, kept once >= GAP_SAT
localparam [4:0] GAP_SAT = 5'd24;

initial begin
    if (MAX_FRAME < 64 || MAX_FRAME > 16000) begin
        $display("froce_eth_mac_10g_tx: MAX_FRAME must be 64..16000");
        $finish;
    end
end

generate
    if (MAX_FRAME < 64 || MAX_FRAME > 16000) begin : g_bad_parameter
        froce_eth_mac_10g_tx_bad_MAX_FRAME u_bad_parameter ();
    end
endgenerate

/* ------------------------------------------------------------------------
 * P1: input beat register; padding and truncation decided here
 * ------------------------------------------------------------------------ */

reg in_frame_reg = 1'b0, in_frame_next;     // a frame's beats are arriving (first taken, end not yet)
reg pad_reg = 1'b0, pad_next;               // the input frame ended short: P1 makes zero beats up to 60 bytes
reg drain_reg = 1'b0, drain_next;           // discard the rest of an ended input frame, up to its tlast
reg [CW-1:0] cnt_reg = {CW{1'b0}}, cnt_next; // bytes of the frame taken into P1 so far (a multiple of 8 before its end)

reg p1_valid_reg = 1'b0, p1_valid_next;
reg [63:0] p1_data_reg = 64'd0, p1_data_next;
reg [3:0] p1_len_reg = 4'd0, p1_len_next;   // bytes of the frame in this beat, 0..8
reg p1_last_reg = 1'b0, p1_last_next;
reg [1:0] p1_err_reg = ERR_NONE, p1_err_next;

wire p1_adv;                                // the engine takes P1 this cycle
wire p1_free = !p1_valid_reg || p1_adv;

// bytes of the input beat: 8, or on tlast the run of ones of tkeep from bit 0
reg [3:0] keep_len;
always @* begin
    casez (s_axis_tkeep)
        8'b???????0: keep_len = 4'd0;
        8'b??????01: keep_len = 4'd1;
        8'b?????011: keep_len = 4'd2;
        8'b????0111: keep_len = 4'd3;
        8'b???01111: keep_len = 4'd4;
        8'b??011111: keep_len = 4'd5;
        8'b?0111111: keep_len = 4'd6;
        8'b01111111: keep_len = 4'd7;
        default:     keep_len = 4'd8;
    endcase
end
wire [3:0] beat_len = s_axis_tlast ? keep_len : 4'd8;
wire [CW-1:0] beat_sum = cnt_reg + {{(CW-4){1'b0}}, beat_len};
wire beat_over = beat_sum > MAX_BYTES;
wire [CW-1:0] cut_len = MAX_BYTES - cnt_reg;    // 0..7 when beat_over
wire unused_cut_len = ^cut_len[CW-1:3];

// data bytes at and above beat_len are zero (they become padding)
reg [63:0] beat_data;
integer bi;
always @* begin
    for (bi = 0; bi < 8; bi = bi + 1)
        beat_data[8*bi +: 8] = (bi < beat_len) ? s_axis_tdata[8*bi +: 8] : 8'd0;
end

// taking a beat from the input: while draining always; otherwise into a free P1
assign s_axis_tready = drain_reg || (!pad_reg && p1_free);
wire in_fire = s_axis_tvalid && s_axis_tready;

always @* begin
    in_frame_next = in_frame_reg;
    pad_next = pad_reg;
    drain_next = drain_reg;
    cnt_next = cnt_reg;
    p1_valid_next = p1_valid_reg && !p1_adv;
    p1_data_next = p1_data_reg;
    p1_len_next = p1_len_reg;
    p1_last_next = p1_last_reg;
    p1_err_next = p1_err_reg;

    if (drain_reg) begin
        if (in_fire && s_axis_tlast)
            drain_next = 1'b0;
    end else if (p1_free) begin
        if (pad_reg) begin
            // a zero beat; the 60-byte minimum ends 4 bytes into the beat after 56
            p1_valid_next = 1'b1;
            p1_data_next = 64'd0;
            p1_len_next = (cnt_reg == 14'd56) ? 4'd4 : 4'd8;
            p1_last_next = cnt_reg == 14'd56;
            p1_err_next = ERR_NONE;
            cnt_next = cnt_reg + 14'd8;
            pad_next = cnt_reg != 14'd56;
        end else if (s_axis_tvalid) begin
            p1_valid_next = 1'b1;
            p1_data_next = beat_data;
            p1_err_next = ERR_NONE;
            in_frame_next = !s_axis_tlast;
            if (s_axis_tuser) begin
                // this beat is not sent: /E/ goes where it would have been
                p1_len_next = 4'd0;
                p1_last_next = 1'b1;
                p1_err_next = ERR_ABORT;
                drain_next = !s_axis_tlast;
                in_frame_next = 1'b0;
            end else if (beat_over) begin
                p1_len_next = cut_len[3:0];
                p1_last_next = 1'b1;
                p1_err_next = ERR_OVERSIZE;
                drain_next = !s_axis_tlast;
                in_frame_next = 1'b0;
            end else if (s_axis_tlast && beat_sum < MIN_BYTES) begin
                // short frame: this beat is filled with zeros (cnt_reg is a multiple of 8)
                p1_len_next = (cnt_reg == 14'd56) ? 4'd4 : 4'd8;
                p1_last_next = cnt_reg == 14'd56;
                pad_next = cnt_reg != 14'd56;
                cnt_next = cnt_reg + 14'd8;
            end else begin
                p1_len_next = beat_len;
                p1_last_next = s_axis_tlast;
                cnt_next = beat_sum;
            end
        end else if (in_frame_reg) begin
            // the engine took the previous beat and the next is not there: underrun
            p1_valid_next = 1'b1;
            p1_len_next = 4'd0;
            p1_last_next = 1'b1;
            p1_err_next = ERR_UNDERRUN;
            drain_next = 1'b1;
            in_frame_next = 1'b0;
        end
    end

    // a new frame counts from 0 once the previous one's last beat is in P1
    if (p1_free && p1_valid_next && p1_last_next)
        cnt_next = {CW{1'b0}};
end

always @(posedge clk) begin
    in_frame_reg <= in_frame_next;
    pad_reg <= pad_next;
    drain_reg <= drain_next;
    cnt_reg <= cnt_next;
    p1_valid_reg <= p1_valid_next;
    p1_data_reg <= p1_data_next;
    p1_len_reg <= p1_len_next;
    p1_last_reg <= p1_last_next;
    p1_err_reg <= p1_err_next;

    if (rst) begin
        in_frame_reg <= 1'b0;
        pad_reg <= 1'b0;
        drain_reg <= 1'b0;
        cnt_reg <= {CW{1'b0}};
        p1_valid_reg <= 1'b0;
    end
end

/* ------------------------------------------------------------------------
 * P2 and the CRC register
 * ------------------------------------------------------------------------ */

reg [63:0] p2_data_reg = 64'd0;
reg [3:0] p2_len_reg = 4'd0;
reg p2_last_reg = 1'b0;
reg [1:0] p2_err_reg = ERR_NONE;
reg [31:0] crc_reg = 32'hFFFFFFFF;
reg crc_init;                               // the frame's FCS has been used: start over

wire [31:0] crc_step_out;

froce_crc32_step #(
    .DATA_WIDTH(64)
) u_crc (
    .crc_in(crc_reg),
    .data(p1_data_reg),
    .len(p1_len_reg),
    .crc_out(crc_step_out)
);

always @(posedge clk) begin
    if (p1_adv) begin
        p2_data_reg <= p1_data_reg;
        p2_len_reg <= p1_len_reg;
        p2_last_reg <= p1_last_reg;
        p2_err_reg <= p1_err_reg;
        crc_reg <= crc_step_out;
    end
    if (crc_init)
        crc_reg <= 32'hFFFFFFFF;
    if (rst)
        crc_reg <= 32'hFFFFFFFF;
end

/* ------------------------------------------------------------------------
 * Engine: lane composer (aligned to the frame: /S/ in lane 0)
 * ------------------------------------------------------------------------ */

reg [1:0] state_reg = ST_IDLE, state_next;
reg [4:0] gap_reg = GAP_SAT, gap_next;      // see GAP_SAT
reg [1:0] dic_reg = 2'd0, dic_next;
reg [CW-1:0] ocnt_reg = {CW{1'b0}}, ocnt_next; // bytes of the frame composed so far
reg offset_reg = 1'b0;                      // this frame went out from lane 4

reg [63:0] f_d;                             // composed beat, /S/ in lane 0
reg [7:0] f_c;
reg start;                                  // a frame starts in this cycle
reg start_lane4;
reg end_frame;                              // /T/ is in f this cycle
reg [3:0] t_lane;                           // its lane in f
reg adv;

reg stat_valid_next;
reg [1:0] stat_err_next;
reg [CW-1:0] stat_len_next;

wire [31:0] fcs = ~crc_reg;
wire ok_lane0 = gap_reg >= 5'd12 + {3'd0, dic_reg};
wire ok_lane4 = gap_reg >= 5'd8 + {3'd0, dic_reg};
// DIC after a start: dic + 12 - gap, with gap = gap_reg - 3 (+4 from lane 4); <= 3 by the start rule
wire [6:0] dic_left = {5'd0, dic_reg} + 7'd15 - {2'd0, gap_reg} - (ok_lane0 ? 7'd0 : 7'd4);
wire unused_dic_left = ^dic_left[5:2];
// P2's byte count as a 32-bit number for the lane loops below
wire [31:0] p2_n = {28'd0, p2_len_reg};

assign p1_adv = adv;

integer li;
always @* begin
    li = 0;                 // (a loop variable assigned on every path: no latch)
    state_next = state_reg;
    gap_next = gap_reg;
    dic_next = dic_reg;
    ocnt_next = ocnt_reg;
    f_d = {8{XG_IDLE}};
    f_c = 8'hFF;
    start = 1'b0;
    start_lane4 = 1'b0;
    end_frame = 1'b0;
    t_lane = 4'd0;
    adv = 1'b0;
    crc_init = 1'b0;
    stat_valid_next = 1'b0;
    stat_err_next = p2_err_reg;
    stat_len_next = ocnt_reg + {{(CW-4){1'b0}}, p2_len_reg} + 14'd4;

    case (state_reg)
        ST_IDLE: begin
            if (gap_reg < GAP_SAT)
                gap_next = gap_reg + 5'd8;
            if (p1_valid_reg && ok_lane4) begin
                start = 1'b1;
                start_lane4 = !ok_lane0;
                f_d = {8'hD5, {6{8'h55}}, XG_START};
                f_c = 8'h01;
                adv = 1'b1;
                ocnt_next = {CW{1'b0}};
                if (ENABLE_DIC != 0)
                    dic_next = dic_left[6] ? 2'd0 : dic_left[1:0];
                else
                    dic_next = 2'd3;
                state_next = ST_DATA;
            end
        end
        ST_DATA: begin
            ocnt_next = ocnt_reg + {{(CW-4){1'b0}}, p2_len_reg};
            if (!p2_last_reg) begin
                f_d = p2_data_reg;
                f_c = 8'h00;
                adv = 1'b1;
            end else begin
                // data lanes, then 4 FCS (or /E/) lanes, then /T/, then idles
                for (li = 0; li < 8; li = li + 1) begin
                    if (li < p2_n) begin
                        f_d[8*li +: 8] = p2_data_reg[8*li +: 8];
                        f_c[li] = 1'b0;
                    end else if (li < p2_n + 4) begin
                        f_d[8*li +: 8] = (p2_err_reg != ERR_NONE) ? XG_ERROR : fcs[8*(li - p2_n) +: 8];
                        f_c[li] = p2_err_reg != ERR_NONE;
                    end else if (li == p2_n + 4) begin
                        f_d[8*li +: 8] = XG_TERM;
                        f_c[li] = 1'b1;
                    end
                end
                if (p2_len_reg <= 4'd3) begin
                    end_frame = 1'b1;
                    t_lane = p2_len_reg + 4'd4;
                end else begin
                    state_next = ST_TAIL;
                end
            end
        end
        default: begin  // ST_TAIL: FCS bytes p2_len - 4 .. 3 of the last beat's overflow
            for (li = 0; li < 8; li = li + 1) begin
                if (li + 4 < p2_n) begin
                    f_d[8*li +: 8] = (p2_err_reg != ERR_NONE) ? XG_ERROR : fcs[8*(li + 8 - p2_n) +: 8];
                    f_c[li] = p2_err_reg != ERR_NONE;
                end else if (li + 4 == p2_n) begin
                    f_d[8*li +: 8] = XG_TERM;
                    f_c[li] = 1'b1;
                end
            end
            end_frame = 1'b1;
            t_lane = p2_len_reg - 4'd4;
            ocnt_next = ocnt_reg;
            stat_len_next = ocnt_reg + 14'd4;
        end
    endcase

    if (end_frame) begin
        // gap counter for the next cycle: 8 - (position of /T/ from lane 0 on the wire) + 3
        gap_next = 5'd11 - {1'b0, t_lane} - (offset_reg ? 5'd4 : 5'd0);
        crc_init = 1'b1;
        stat_valid_next = 1'b1;
        state_next = ST_IDLE;
    end
end

/* ------------------------------------------------------------------------
 * Lane-4 shifter and output registers
 * ------------------------------------------------------------------------ */

reg [31:0] hold_d_reg = {4{XG_IDLE}};       // upper half of the last composed beat
reg [3:0] hold_c_reg = 4'hF;
reg [63:0] txd_reg = {8{XG_IDLE}};
reg [7:0] txc_reg = 8'hFF;

// a frame from lane 4 shifts everything by 4 lanes; the upper half of the
// previous composed beat goes out first (idles when the shift only starts now)
wire shift = start ? start_lane4 : offset_reg;
wire [31:0] low_d = offset_reg ? hold_d_reg : {4{XG_IDLE}};
wire [3:0] low_c = offset_reg ? hold_c_reg : 4'hF;

always @(posedge clk) begin
    state_reg <= state_next;
    gap_reg <= gap_next;
    dic_reg <= dic_next;
    ocnt_reg <= ocnt_next;
    offset_reg <= shift;
    hold_d_reg <= f_d[63:32];
    hold_c_reg <= f_c[7:4];
    if (shift) begin
        txd_reg <= {f_d[31:0], low_d};
        txc_reg <= {f_c[3:0], low_c};
    end else begin
        txd_reg <= f_d;
        txc_reg <= f_c;
    end

    if (rst) begin
        state_reg <= ST_IDLE;
        gap_reg <= GAP_SAT;
        dic_reg <= (ENABLE_DIC != 0) ? 2'd0 : 2'd3;
        offset_reg <= 1'b0;
        hold_d_reg <= {4{XG_IDLE}};
        hold_c_reg <= 4'hF;
        txd_reg <= {8{XG_IDLE}};
        txc_reg <= 8'hFF;
    end
end

assign xgmii_txd = txd_reg;
assign xgmii_txc = txc_reg;

/* ------------------------------------------------------------------------
 * Counters (one cycle after the frame's end)
 * ------------------------------------------------------------------------ */

reg stat_valid_reg = 1'b0;
reg [1:0] stat_err_reg = ERR_NONE;
reg [CW-1:0] stat_len_reg = {CW{1'b0}};
reg [31:0] frames_reg = 32'd0, aborted_reg = 32'd0, oversize_reg = 32'd0, underrun_reg = 32'd0;
reg [63:0] bytes_reg = 64'd0;

always @(posedge clk) begin
    stat_valid_reg <= stat_valid_next;
    stat_err_reg <= stat_err_next;
    stat_len_reg <= stat_len_next;
    if (stat_valid_reg) begin
        case (stat_err_reg)
            ERR_NONE: begin
                frames_reg <= frames_reg + 32'd1;
                bytes_reg <= bytes_reg + {{(64-CW){1'b0}}, stat_len_reg};
            end
            ERR_ABORT:    aborted_reg <= aborted_reg + 32'd1;
            ERR_OVERSIZE: oversize_reg <= oversize_reg + 32'd1;
            default:      underrun_reg <= underrun_reg + 32'd1;
        endcase
    end

    if (rst) begin
        stat_valid_reg <= 1'b0;
        frames_reg <= 32'd0;
        aborted_reg <= 32'd0;
        oversize_reg <= 32'd0;
        underrun_reg <= 32'd0;
        bytes_reg <= 64'd0;
    end
end

assign tx_frames = frames_reg;
assign tx_bytes = bytes_reg;
assign tx_aborted = aborted_reg;
assign tx_oversize = oversize_reg;
assign tx_underrun = underrun_reg;

endmodule

`resetall
