// SPDX-License-Identifier: MIT
// 10 Gb/s Ethernet MAC receiver: 64-bit XGMII to AXI-Stream frames (preamble and FCS stripped, FCS checked).
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Input (IEEE 802.3 Clause 46 XGMII, 64-bit SDR: lane i = rxd[8i+7:8i],
 * rxc[i]; lane 0 first on the wire): a frame is
 *
 *   /S/ 55 55 55 55 55 55 D5 | frame (destination MAC .. FCS) | /T/
 *
 * with /S/ in lane 0 or lane 4. Lanes 1..6 of the preamble must be data and
 * lane 7 the SFD (0xD5), else the frame is ignored (rx_bad_preamble). The
 * frame ends at its first control character: /T/ ends it normally, any other
 * (/E/, /I/, /S/, ...) ends it with an error and the rest of it, up to the
 * next /S/, is ignored.
 *
 * Output: the frame without preamble and FCS, one AXI-Stream packet per
 * frame, every beat full except the last (tkeep from bit 0), no tready (the
 * wire cannot wait). tuser = 1 on the last beat marks a bad frame; it is
 * 0 on every other beat. Each frame counts in exactly one counter, checked
 * in this order:
 *   rx_err_char    ended by a control character other than /T/
 *   rx_oversize    longer than MAX_FRAME + 4 bytes with FCS: cut where that
 *                  was seen, at most MAX_FRAME bytes are delivered
 *   rx_runt        shorter than 64 bytes with FCS (a frame of no payload
 *                  byte at all is one beat with tkeep = 0)
 *   rx_bad_fcs     the CRC over frame + FCS is not the residue 0xDEBB20E3
 *   rx_frames_ok   none of these: tuser = 0; rx_bytes_ok adds its length
 *                  with FCS
 * Error frames carry at most their received bytes less the last four; their
 * content is not otherwise defined. Counters reset with rst and wrap.
 *
 * Gaps: the next /S/ must come at least 5 bytes after /T/ (802.3 lets the
 * gap shrink to 5 on the way; transmitters send >= 9).
 *
 * Pipeline:
 *   R0  input registers; the "shifted" beat {rxd lanes 0-3, previous beat's
 *       lanes 4-7} is what a frame from lane 4 looks like aligned to lane 0;
 *   A   the beat of the lane the current frame started in, with its first
 *       control lane decoded;
 *   B   A one cycle later; the CRC register (stepped over A's bytes) then
 *       holds the CRC up to and including B's beat, so when B holds the
 *       frame's end the FCS verdict is ready;
 *   H   the beat before B, held back: the last 4 bytes are FCS only once
 *       the end is seen, possibly in the next beat; out = H or H's tail.
 */
module froce_eth_mac_10g_rx #(
    parameter MAX_FRAME = 9600          // longest frame in bytes, without FCS (64..16000); longer ones are cut, tuser = 1
) (
    input  wire         clk,
    input  wire         rst,

    /* XGMII receive, 64-bit SDR at 156.25 MHz */
    input  wire [63:0]  xgmii_rxd,
    input  wire [7:0]   xgmii_rxc,

    /* AXI-Stream frames out (no preamble, no FCS; no backpressure) */
    output wire [63:0]  m_axis_tdata,
    output wire [7:0]   m_axis_tkeep,
    output wire         m_axis_tvalid,
    output wire         m_axis_tlast,
    output wire         m_axis_tuser,       // on the tlast beat: bad frame, drop it

    /* Counters */
    output wire [31:0]  rx_frames_ok,
    output wire [63:0]  rx_bytes_ok,
    output wire [31:0]  rx_bad_fcs,
    output wire [31:0]  rx_err_char,
    output wire [31:0]  rx_runt,
    output wire [31:0]  rx_oversize,
    output wire [31:0]  rx_bad_preamble
);

// byte counter width: up to MAX_FRAME + 4 + 8
localparam CW = 14;
localparam [7:0] XG_START = 8'hFB, XG_TERM = 8'hFD, ETH_SFD = 8'hD5;
// CRC register after a frame and its own FCS (reflected, no final xor)
localparam [31:0] CRC_RESIDUE = 32'hDEBB20E3;
localparam [31:0] MAX_BYTES_32 = MAX_FRAME + 4;
localparam [CW-1:0] MAX_BYTES = MAX_BYTES_32[CW-1:0];
localparam [CW-1:0] MIN_BYTES = 14'd64;
// how a frame ended
localparam [1:0] END_TERM = 2'd0,       // by /T/
                 END_CHAR = 2'd1,       // by another control character
                 END_OVERSIZE = 2'd2;   // cut: too long

initial begin
    if (MAX_FRAME < 64 || MAX_FRAME > 16000) begin
        $display("froce_eth_mac_10g_rx: MAX_FRAME must be 64..16000");
        $finish;
    end
end

generate
    if (MAX_FRAME < 64 || MAX_FRAME > 16000) begin : g_bad_parameter
        froce_eth_mac_10g_rx_bad_MAX_FRAME u_bad_parameter ();
    end
endgenerate

/* ------------------------------------------------------------------------
 * R0: input registers, lane-4 view
 * ------------------------------------------------------------------------ */

reg [63:0] rxd_reg = 64'd0;
reg [7:0] rxc_reg = 8'd0;
reg [31:0] prev_d_reg = 32'd0;          // lanes 4-7 of the beat before rxd_reg
reg [3:0] prev_c_reg = 4'd0;

always @(posedge clk) begin
    rxd_reg <= xgmii_rxd;
    rxc_reg <= xgmii_rxc;
    prev_d_reg <= rxd_reg[63:32];
    prev_c_reg <= rxc_reg[7:4];
end

wire [63:0] sh_d = {rxd_reg[31:0], prev_d_reg};
wire [7:0] sh_c = {rxc_reg[3:0], prev_c_reg};

// a /S/ in lane 0 of either view starts a frame in that view (and ends any
// frame in progress: /S/ is a control character to it)
wire start_direct = rxc_reg[0] && rxd_reg[7:0] == XG_START;
wire start_shifted = sh_c[0] && sh_d[7:0] == XG_START;

reg lane4_reg = 1'b0;                   // the current frame started in lane 4
wire lane4 = start_direct ? 1'b0 : (start_shifted ? 1'b1 : lane4_reg);
wire [63:0] sel_d = lane4 ? sh_d : rxd_reg;
wire [7:0] sel_c = lane4 ? sh_c : rxc_reg;

// first control lane (8: none) and whether it holds /T/
wire [7:0] first_c = sel_c & (~sel_c + 8'd1);
reg [3:0] sel_t;
reg [7:0] sel_is_term;
integer li;
always @* begin
    sel_t = 4'd8;
    for (li = 7; li >= 0; li = li - 1)
        if (sel_c[li])
            sel_t = li[3:0];
    for (li = 0; li < 8; li = li + 1)
        sel_is_term[li] = sel_d[8*li +: 8] == XG_TERM;
end

/* ------------------------------------------------------------------------
 * A: aligned beat
 * ------------------------------------------------------------------------ */

reg [63:0] a_d_reg = 64'd0;
reg [3:0] a_t_reg = 4'd8;               // first control lane, 8: none
reg a_term_reg = 1'b0;                  // that lane holds /T/
reg a_start_reg = 1'b0;                 // /S/ in lane 0
reg a_pre_ok_reg = 1'b0;                // lanes 1-6 data, lane 7 the SFD

always @(posedge clk) begin
    lane4_reg <= lane4;
    a_d_reg <= sel_d;
    a_t_reg <= sel_t;
    a_term_reg <= |(first_c & sel_is_term);
    a_start_reg <= sel_c[0] && sel_d[7:0] == XG_START;
    a_pre_ok_reg <= sel_c[7:1] == 7'd0 && sel_d[63:56] == ETH_SFD;
    if (rst) begin
        lane4_reg <= 1'b0;
        a_t_reg <= 4'd8;
        a_start_reg <= 1'b0;
    end
end

reg in_frame_reg = 1'b0, in_frame_next;
reg [CW-1:0] cnt_reg = {CW{1'b0}}, cnt_next;    // bytes of the frame before A's beat
reg [31:0] crc_reg = 32'hFFFFFFFF, crc_next;

wire [31:0] crc_step_out;

froce_crc32_step #(
    .DATA_WIDTH(64)
) u_crc (
    .crc_in(crc_reg),
    .data(a_d_reg),
    .len(a_t_reg),
    .crc_out(crc_step_out)
);

wire a_any_c = a_t_reg != 4'd8;
wire [CW-1:0] a_sum = cnt_reg + {{(CW-4){1'b0}}, a_t_reg};
wire a_over = a_sum > MAX_BYTES;

// to B: a data beat, or the end of a frame with the bytes of B's beat in it
reg b_valid_next, b_end_next;
reg [2:0] b_t_next;                     // end: bytes of the frame in B's beat, 0..7
reg [1:0] b_how_next;
reg b_runt_next;
reg bad_pre_next;

always @* begin
    in_frame_next = in_frame_reg;
    cnt_next = cnt_reg;
    crc_next = crc_reg;
    b_valid_next = 1'b0;
    b_end_next = 1'b0;
    b_t_next = 3'd0;
    b_how_next = END_TERM;
    b_runt_next = a_sum < MIN_BYTES;
    bad_pre_next = 1'b0;

    if (a_start_reg) begin
        if (in_frame_reg) begin
            b_valid_next = 1'b1;
            b_end_next = 1'b1;
            b_how_next = END_CHAR;
        end
        in_frame_next = a_pre_ok_reg;
        bad_pre_next = !a_pre_ok_reg;
        cnt_next = {CW{1'b0}};
        crc_next = 32'hFFFFFFFF;
    end else if (in_frame_reg) begin
        crc_next = crc_step_out;
        cnt_next = a_sum;
        if (a_over) begin
            b_valid_next = 1'b1;
            b_end_next = 1'b1;
            b_how_next = END_OVERSIZE;
            in_frame_next = 1'b0;
        end else if (a_any_c) begin
            b_valid_next = 1'b1;
            b_end_next = 1'b1;
            b_t_next = a_t_reg[2:0];
            b_how_next = a_term_reg ? END_TERM : END_CHAR;
            in_frame_next = 1'b0;
        end else begin
            b_valid_next = 1'b1;
        end
    end
end

/* ------------------------------------------------------------------------
 * B, H and the output
 * ------------------------------------------------------------------------ */

reg b_valid_reg = 1'b0, b_end_reg = 1'b0, b_runt_reg = 1'b0;
reg [2:0] b_t_reg = 3'd0;
reg [1:0] b_how_reg = END_TERM;
reg [63:0] b_d_reg = 64'd0;
reg [CW-1:0] b_len_reg = {CW{1'b0}};   // end: frame bytes with FCS

always @(posedge clk) begin
    in_frame_reg <= in_frame_next;
    cnt_reg <= cnt_next;
    crc_reg <= crc_next;
    b_valid_reg <= b_valid_next;
    b_end_reg <= b_end_next;
    b_t_reg <= b_t_next;
    b_how_reg <= b_how_next;
    b_runt_reg <= b_runt_next;
    b_d_reg <= a_d_reg;
    b_len_reg <= a_sum;
    if (rst) begin
        in_frame_reg <= 1'b0;
        cnt_reg <= {CW{1'b0}};
        crc_reg <= 32'hFFFFFFFF;
        b_valid_reg <= 1'b0;
    end
end

wire fcs_bad = crc_reg != CRC_RESIDUE;
wire b_bad = b_how_reg != END_TERM || b_runt_reg || fcs_bad;
// counter to bump, in the documented order
localparam [2:0] K_OK = 3'd0, K_FCS = 3'd1, K_CHAR = 3'd2, K_RUNT = 3'd3, K_OVER = 3'd4;
wire [2:0] b_kind = b_how_reg == END_CHAR ? K_CHAR :
                    b_how_reg == END_OVERSIZE ? K_OVER :
                    b_runt_reg ? K_RUNT :
                    fcs_bad ? K_FCS : K_OK;

reg h_valid_reg = 1'b0;
reg [63:0] h_d_reg = 64'd0;
reg r_valid_reg = 1'b0;                 // the last 1..3 bytes of a frame, out next
reg [63:0] r_d_reg = 64'd0;
reg [2:0] r_len_reg = 3'd0;
reg r_bad_reg = 1'b0;

reg out_valid_reg = 1'b0;
reg [63:0] out_d_reg = 64'd0;
reg [7:0] out_keep_reg = 8'd0;
reg out_last_reg = 1'b0;
reg out_user_reg = 1'b0;

reg stat_valid_reg = 1'b0;
reg [2:0] stat_kind_reg = K_OK;
reg [CW-1:0] stat_len_reg = {CW{1'b0}};
reg stat_bad_pre_reg = 1'b0;

// H with its last (4 + t) bytes, t = 0..4 (8 bytes when t = 4)
wire [3:0] h_tail_len = {1'b0, b_t_reg} + 4'd4;
wire [7:0] h_tail_keep = h_valid_reg ? ~(8'hFF << h_tail_len) : 8'h00;
// B's first t - 4 bytes, t = 5..7
wire [2:0] r_len = b_t_reg - 3'd4;

always @(posedge clk) begin
    out_valid_reg <= 1'b0;
    stat_valid_reg <= 1'b0;

    if (r_valid_reg) begin
        out_valid_reg <= 1'b1;
        out_d_reg <= r_d_reg;
        out_keep_reg <= ~(8'hFF << r_len_reg);
        out_last_reg <= 1'b1;
        out_user_reg <= r_bad_reg;
        r_valid_reg <= 1'b0;
    end

    if (b_valid_reg) begin
        if (!b_end_reg || b_t_reg >= 3'd5) begin
            // H is all frame bytes: out in full
            if (h_valid_reg) begin
                out_valid_reg <= 1'b1;
                out_d_reg <= h_d_reg;
                out_keep_reg <= 8'hFF;
                out_last_reg <= 1'b0;
                out_user_reg <= 1'b0;
            end
        end else begin
            // the FCS ends in B's first t bytes: H is the last beat
            out_valid_reg <= 1'b1;
            out_d_reg <= h_d_reg;
            out_keep_reg <= h_tail_keep;
            out_last_reg <= 1'b1;
            out_user_reg <= b_bad;
        end
        h_valid_reg <= !b_end_reg;
        h_d_reg <= b_d_reg;
        if (b_end_reg && b_t_reg >= 3'd5) begin
            r_valid_reg <= 1'b1;
            r_d_reg <= b_d_reg;
            r_len_reg <= r_len;
            r_bad_reg <= b_bad;
        end
        if (b_end_reg)
            stat_valid_reg <= 1'b1;
    end
    stat_kind_reg <= b_kind;
    stat_len_reg <= b_len_reg;
    stat_bad_pre_reg <= bad_pre_next;

    if (rst) begin
        out_valid_reg <= 1'b0;
        h_valid_reg <= 1'b0;
        r_valid_reg <= 1'b0;
        stat_valid_reg <= 1'b0;
        stat_bad_pre_reg <= 1'b0;
    end
end

assign m_axis_tdata = out_d_reg;
assign m_axis_tkeep = out_keep_reg;
assign m_axis_tvalid = out_valid_reg;
assign m_axis_tlast = out_last_reg;
assign m_axis_tuser = out_user_reg;

/* ------------------------------------------------------------------------
 * Counters
 * ------------------------------------------------------------------------ */

reg [31:0] ok_reg = 32'd0, fcs_reg = 32'd0, char_reg = 32'd0, runt_reg = 32'd0, over_reg = 32'd0,
           pre_reg = 32'd0;
reg [63:0] bytes_reg = 64'd0;

always @(posedge clk) begin
    if (stat_valid_reg) begin
        case (stat_kind_reg)
            K_OK: begin
                ok_reg <= ok_reg + 32'd1;
                bytes_reg <= bytes_reg + {{(64-CW){1'b0}}, stat_len_reg};
            end
            K_FCS:  fcs_reg <= fcs_reg + 32'd1;
            K_CHAR: char_reg <= char_reg + 32'd1;
            K_RUNT: runt_reg <= runt_reg + 32'd1;
            default: over_reg <= over_reg + 32'd1;
        endcase
    end
    if (stat_bad_pre_reg)
        pre_reg <= pre_reg + 32'd1;

    if (rst) begin
        ok_reg <= 32'd0;
        fcs_reg <= 32'd0;
        char_reg <= 32'd0;
        runt_reg <= 32'd0;
        over_reg <= 32'd0;
        pre_reg <= 32'd0;
        bytes_reg <= 64'd0;
    end
end

assign rx_frames_ok = ok_reg;
assign rx_bytes_ok = bytes_reg;
assign rx_bad_fcs = fcs_reg;
assign rx_err_char = char_reg;
assign rx_runt = runt_reg;
assign rx_oversize = over_reg;
assign rx_bad_preamble = pre_reg;

endmodule

`resetall
