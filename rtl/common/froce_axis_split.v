// SPDX-License-Identifier: MIT
// AXI-Stream scatter splitter: cuts one packed packet into pieces of commanded lengths, each starting at byte 0.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Operation (see docs/axis-pack-split.md):
 *
 *   s_axis: packets, every beat full except the last (tlast).
 *   s_cmd:  one command per piece (len bytes, last = the packet's last piece),
 *           queued in a CMD_DEPTH-entry FIFO so commands may run ahead.
 *   m_axis: for each command with len != 0 a piece of exactly len bytes,
 *           starting at byte 0, every beat full except its last, tlast on its
 *           last beat; tdata bytes outside tkeep are zero. A command with
 *           len = 0 produces no beat but is consumed. The pieces of a
 *           packet's commands take the packet's bytes in order.
 *
 *   Datapath: the input beat being drained is held with a read offset; an
 *   output beat is bytes [off, off + W) of {next input beat, held beat}
 *   (W = DATA_WIDTH / 8), masked to the piece's bytes. The next input beat is
 *   taken only when the held bytes do not cover the output beat, so one
 *   output beat leaves per cycle and a piece may start anywhere in a beat.
 *
 * Mismatches (the module never hangs and the next packet is unaffected):
 *   - packet longer than its commands (up to the one with last): when the
 *     last command is done, the rest of the packet is read and discarded.
 *   - packet shorter: once its tlast beat is used, the remaining bytes of the
 *     current piece and of the packet's later pieces are zeros (every piece
 *     still has exactly len bytes).
 *   Either way err_mismatch is high for one cycle, once per such packet: in
 *   the cycle after the last discarded beat (the tlast beat) is taken, or,
 *   when no beat had to be discarded, after the packet's last command is
 *   finished (its last beat entered the output register or, for len = 0, it
 *   was consumed). A packet counts as mismatched when its byte count
 *   differs from the sum of its command lengths. The next command then
 *   starts at byte 0 of the next packet.
 *
 * Only the tlast beat's tkeep is looked at (bytes below its lowest zero bit);
 * other beats are taken as full whatever their tkeep (caller error).
 *
 * Throughput: one output beat per cycle whenever a command and input data
 * are there and the output is not stalled; piece boundaries anywhere in a
 * beat cost nothing. A len = 0 command costs one cycle. A packet whose tlast
 * beat carries no byte (an empty packet) costs one cycle to drop that beat
 * after its last command; discarded beats of a longer packet take one cycle
 * each. s_axis_tready depends combinationally on m_axis_tready; s_cmd_ready
 * is !full of the command FIFO (CMD_DEPTH entries and its output register).
 */
module froce_axis_split #(
    parameter DATA_WIDTH = 64,                  // stream width in bits: 64, 128, 256 or 512
    parameter CMD_DEPTH = 4                     // command FIFO entries: power of two >= 2
) (
    input  wire                         clk,
    input  wire                         rst,

    /* Packed packet in */
    input  wire [DATA_WIDTH-1:0]        s_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0]      s_axis_tkeep,
    input  wire                         s_axis_tvalid,
    output wire                         s_axis_tready,
    input  wire                         s_axis_tlast,

    /* Piece commands in */
    input  wire [31:0]                  s_cmd_len,          // bytes; 0: no output beat
    input  wire                         s_cmd_last,         // last piece of the packet
    input  wire                         s_cmd_valid,
    output wire                         s_cmd_ready,

    /* Pieces out */
    output wire [DATA_WIDTH-1:0]        m_axis_tdata,
    output wire [DATA_WIDTH/8-1:0]      m_axis_tkeep,
    output wire                         m_axis_tvalid,
    input  wire                         m_axis_tready,
    output wire                         m_axis_tlast,       // last beat of a piece

    /* One-cycle pulse per packet whose length differs from its commands' */
    output wire                         err_mismatch
);

localparam W = DATA_WIDTH / 8;                      // bytes per beat
localparam KW = $clog2(W);
localparam CW = KW + 1;                             // byte counts 0..W
localparam TW = KW + 2;                             // byte counts 0..2W

localparam [CW-1:0] W_C = W[CW-1:0];
localparam [31:0] W_32 = W;

initial begin
    if (W < 8 || W > 64 || (1 << KW) != W) begin
        $display("froce_axis_split: DATA_WIDTH must be 64, 128, 256 or 512");
        $finish;
    end
end

// fatal at elaboration in every tool (Yosys ignores initial blocks)
generate
    if (W < 8 || W > 64 || (1 << KW) != W) begin : g_bad_parameter
        froce_axis_split_bad_parameter u_bad_parameter ();
    end
endgenerate

/* ------------------------------------------------------------------------
 * Command FIFO
 * ------------------------------------------------------------------------ */

// each entry carries its length's two compares (zero, fits one beat), and
// the head sits in a register: the realigner's decisions start at flip-flops
wire [34:0] cmd_head;
wire cmd_empty, cmd_full;
reg cmd_pop_c;
wire [$clog2(CMD_DEPTH):0] unused_cmd_count;

froce_fifo #(
    .WIDTH(35),
    .DEPTH(CMD_DEPTH),
    .REG_OUT(1)
) cmd_fifo_inst (
    .clk(clk),
    .rst(rst),
    .wr_data({s_cmd_last, s_cmd_len <= W_32, s_cmd_len == 32'd0, s_cmd_len}),
    .wr_en(s_cmd_valid),
    .rd_data(cmd_head),
    .rd_en(cmd_pop_c),
    .count(unused_cmd_count),
    .empty(cmd_empty),
    .full(cmd_full)
);

assign s_cmd_ready = !cmd_full;

wire [31:0] cmd_len = cmd_head[31:0];
wire cmd_zero = cmd_head[32];
wire cmd_fits = cmd_head[33];
wire cmd_last = cmd_head[34];

/* ------------------------------------------------------------------------
 * Input beat: the tlast beat holds the bytes below its tkeep's lowest zero
 * ------------------------------------------------------------------------ */

reg [W-1:0] in_keep;                                // prefix AND of tkeep
reg [CW-1:0] in_n;                                  // its number of ones
reg [DATA_WIDTH-1:0] in_data;                       // tdata, bytes past the end zeroed
wire [W:0] in_keep_x = {1'b0, in_keep};
integer i;

always @* begin
    in_keep[0] = s_axis_tkeep[0];
    for (i = 1; i < W; i = i + 1)
        in_keep[i] = in_keep[i-1] & s_axis_tkeep[i];
    in_n = {CW{1'b0}};
    for (i = 0; i < W; i = i + 1)
        if (in_keep_x[i] && !in_keep_x[i+1])
            in_n = in_n | (i[CW-1:0] + 1'b1);
    for (i = 0; i < W; i = i + 1)
        in_data[8*i +: 8] = (in_keep[i] || !s_axis_tlast) ? s_axis_tdata[8*i +: 8] : 8'd0;
end

wire [CW-1:0] in_bytes = s_axis_tlast ? in_n : W_C;

/* ------------------------------------------------------------------------
 * Realigner state
 * ------------------------------------------------------------------------ */

reg [DATA_WIDTH-1:0] held_reg = {DATA_WIDTH{1'b0}}, held_next;
reg [CW-1:0] hlen_reg = W_C, hlen_next;             // bytes in held_reg (W unless it was a tlast beat)
reg [CW-1:0] off_reg = W_C, off_next;               // bytes of held_reg already used; W, W: nothing held
reg done_reg = 1'b0, done_next;                     // the packet's tlast beat has been taken
reg short_reg = 1'b0, short_next;                   // zeros were sent for this packet
reg drop_reg = 1'b0, drop_next;                     // discarding the rest of a longer packet
reg extra_reg = 1'b0, extra_next;                   // bytes were discarded
reg started_reg = 1'b0, started_next;               // the head command has sent a beat
reg [31:0] rem_reg = 32'd0, rem_next;               // its bytes still to send, when started
reg rem_fits_reg = 1'b0, rem_fits_next;             // rem_reg <= W
reg err_reg = 1'b0, err_next;

reg ot_valid_reg = 1'b0, ot_valid_next;
reg [DATA_WIDTH-1:0] ot_data_reg = {DATA_WIDTH{1'b0}};
reg [W-1:0] ot_keep_reg = {W{1'b0}};
reg ot_last_reg = 1'b0;

reg emit_c, pkt_end_c;
reg [CW-1:0] hlen_p, off_p;
reg done_p, short_p;
reg [CW-1:0] left_p;

wire ot_free = !ot_valid_reg || m_axis_tready;

wire [31:0] rem = started_reg ? rem_reg : cmd_len;
// a started piece has bytes left (it would have finished otherwise)
wire rem_zero = !started_reg && cmd_zero;
wire fin_cmd = started_reg ? rem_fits_reg : cmd_fits;   // this beat ends the piece
wire [CW-1:0] k = fin_cmd ? rem[CW-1:0] : W_C;      // bytes in this output beat
wire [CW-1:0] avail_h = hlen_reg - off_reg;
wire take = avail_h < k && !done_reg;               // this beat needs the next input beat
wire active = !cmd_empty && !drop_reg && !rem_zero;
wire emit_ok = active && ot_free && (!take || s_axis_tvalid);

wire [DATA_WIDTH-1:0] win_in = take ? in_data : {DATA_WIDTH{1'b0}};
wire [2*DATA_WIDTH-1:0] win = {win_in, held_reg} >> {off_reg, 3'b000};
wire [TW-1:0] avail = {1'b0, avail_h} + (take ? {1'b0, in_bytes} : {TW{1'b0}});
wire short_now = avail < {1'b0, k};                 // the packet ran out: zeros follow
wire [W-1:0] k_keep = ~({W{1'b1}} << k);
wire [DATA_WIDTH-1:0] unused_win = win[2*DATA_WIDTH-1:DATA_WIDTH];

reg [DATA_WIDTH-1:0] out_data;
always @* begin
    for (i = 0; i < W; i = i + 1)
        out_data[8*i +: 8] = k_keep[i] ? win[8*i +: 8] : 8'd0;
end

assign s_axis_tready = drop_reg || (active && ot_free && take);

always @* begin
    held_next = held_reg;
    hlen_next = hlen_reg;
    off_next = off_reg;
    done_next = done_reg;
    short_next = short_reg;
    drop_next = drop_reg;
    extra_next = extra_reg;
    started_next = started_reg;
    rem_next = rem_reg;
    rem_fits_next = rem_fits_reg;
    err_next = 1'b0;
    ot_valid_next = ot_valid_reg && !m_axis_tready;
    emit_c = 1'b0;
    cmd_pop_c = 1'b0;
    pkt_end_c = 1'b0;
    hlen_p = hlen_reg;
    off_p = off_reg;
    done_p = done_reg;
    short_p = short_reg;
    left_p = {CW{1'b0}};

    if (drop_reg) begin
        if (s_axis_tvalid) begin
            extra_next = extra_reg || in_bytes != {CW{1'b0}};
            if (s_axis_tlast) begin
                drop_next = 1'b0;
                extra_next = 1'b0;
                err_next = extra_reg || in_bytes != {CW{1'b0}};
            end
        end
    end else if (!cmd_empty) begin
        if (rem_zero) begin
            cmd_pop_c = 1'b1;
            pkt_end_c = cmd_last;
        end else if (emit_ok) begin
            emit_c = 1'b1;
            ot_valid_next = 1'b1;
            if (take) begin
                held_next = in_data;
                hlen_p = in_bytes;
                done_p = s_axis_tlast;
                off_p = short_now ? in_bytes : k - avail_h;
            end else begin
                off_p = short_now ? hlen_reg : off_reg + k;
            end
            short_p = short_reg || short_now;
            if (fin_cmd) begin
                cmd_pop_c = 1'b1;
                started_next = 1'b0;
                pkt_end_c = cmd_last;
            end else begin
                started_next = 1'b1;
                rem_next = rem - W_32;
                rem_fits_next = rem <= 2 * W_32;
            end
        end
        hlen_next = hlen_p;
        off_next = off_p;
        done_next = done_p;
        short_next = short_p;
        if (pkt_end_c) begin
            left_p = hlen_p - off_p;
            if (!done_p) begin
                // the packet goes on: discard up to and including its tlast beat
                drop_next = 1'b1;
                extra_next = left_p != {CW{1'b0}};
            end else begin
                err_next = short_p || left_p != {CW{1'b0}};
            end
            hlen_next = W_C;
            off_next = W_C;
            done_next = 1'b0;
            short_next = 1'b0;
        end
    end
end

always @(posedge clk) begin
    held_reg <= held_next;
    hlen_reg <= hlen_next;
    off_reg <= off_next;
    done_reg <= done_next;
    short_reg <= short_next;
    drop_reg <= drop_next;
    extra_reg <= extra_next;
    started_reg <= started_next;
    rem_reg <= rem_next;
    rem_fits_reg <= rem_fits_next;
    err_reg <= err_next;
    ot_valid_reg <= ot_valid_next;

    if (emit_c) begin
        ot_data_reg <= out_data;
        ot_keep_reg <= k_keep;
        ot_last_reg <= fin_cmd;
    end

    if (rst) begin
        hlen_reg <= W_C;
        off_reg <= W_C;
        done_reg <= 1'b0;
        short_reg <= 1'b0;
        drop_reg <= 1'b0;
        extra_reg <= 1'b0;
        started_reg <= 1'b0;
        err_reg <= 1'b0;
        ot_valid_reg <= 1'b0;
    end
end

assign m_axis_tdata = ot_data_reg;
assign m_axis_tkeep = ot_keep_reg;
assign m_axis_tvalid = ot_valid_reg;
assign m_axis_tlast = ot_last_reg;
assign err_mismatch = err_reg;

endmodule

`resetall
