// SPDX-License-Identifier: MIT
// Store-and-forward frame FIFO: whole frames in, whole frames out, with the
// frame length known before its first beat leaves; frames can be dropped.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Input: AXI-Stream frames (tkeep contiguous from bit 0, every beat full
 * except the last). A frame becomes visible at the output only when its last
 * beat has been written; until then it can be rolled back:
 *   - s_axis_tdrop on the tlast beat drops the frame (the beat is taken);
 *   - a frame of zero bytes is dropped;
 *   - a frame that does not fit is dropped (OVERFLOW): with DROP_FULL = 1
 *     the input never waits (s_axis_tready = 1) and a beat arriving while the
 *     ring is full marks the frame; with DROP_FULL = 0 the input waits while
 *     the ring is full of earlier frames and only a frame larger than the
 *     whole ring (DEPTH beats) is dropped. The rest of a marked frame is
 *     taken and discarded.
 * stat_commit / stat_drop pulse once per input frame (after its tlast beat).
 *
 * Output: the committed frames in order; m_len (bytes) and m_len_valid
 * describe the frame at the head before and while its beats leave. The ring
 * is read synchronously into an output register (block RAM).
 */
module froce_frame_fifo #(
    parameter DATA_WIDTH = 64,      // stream width in bits
    parameter DEPTH = 1024,         // ring size in beats, a power of two >= 4
    parameter FRAMES = 32,          // committed frames held at most, a power of two >= 2
    parameter DROP_FULL = 0         // 1: never wait, drop a frame that meets a full ring
) (
    input  wire                      clk,
    input  wire                      rst,

    input  wire [DATA_WIDTH-1:0]     s_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0]   s_axis_tkeep,
    input  wire                      s_axis_tvalid,
    output wire                      s_axis_tready,
    input  wire                      s_axis_tlast,
    input  wire                      s_axis_tdrop,  // on the tlast beat: drop this frame

    output wire [DATA_WIDTH-1:0]     m_axis_tdata,
    output wire [DATA_WIDTH/8-1:0]   m_axis_tkeep,
    output wire                      m_axis_tvalid,
    input  wire                      m_axis_tready,
    output wire                      m_axis_tlast,
    output wire [15:0]               m_len,         // bytes of the frame at the head
    output wire                      m_len_valid,   // a committed frame is at the head

    output reg                       stat_commit,
    output reg                       stat_drop
);

localparam W = DATA_WIDTH / 8;
localparam AW = $clog2(DEPTH);
localparam FW = $clog2(FRAMES);
localparam EW = DATA_WIDTH + W + 1;             // data, keep, last
localparam KC = $clog2(W) + 1;                  // bytes in a beat: 0..W

initial begin
    if ((1 << AW) != DEPTH || DEPTH < 4 || (1 << FW) != FRAMES || FRAMES < 2 || DEPTH * W > 65535) begin
        $display("froce_frame_fifo: DEPTH, FRAMES must be powers of two; DEPTH * W < 64 KiB");
        $finish;
    end
end

reg [EW-1:0] ring [0:DEPTH-1];
reg [AW:0] wr_ptr;                  // next beat to write (uncommitted)
reg [AW:0] commit_ptr;              // end of the last committed frame
reg [AW:0] rd_ptr;                  // next beat to read into the output register
reg overflow;                       // the frame being written did not fit
reg [15:0] in_len;                  // bytes of the frame being written

wire [AW:0] used = wr_ptr - rd_ptr;
wire ring_full = used[AW];
wire [AW:0] frame_beats = wr_ptr - commit_ptr;
wire frame_huge = frame_beats[AW];  // this frame alone fills the ring

wire [FW:0] len_count;
wire len_full, len_empty;

// DROP_FULL = 0: wait while earlier frames fill the ring (or, on a last
// beat, while no length slot is free); a frame that fills the ring alone
// overflows. DROP_FULL = 1: never wait.
assign s_axis_tready = DROP_FULL != 0 ? 1'b1 :
                       (overflow || frame_huge || (!ring_full && (!s_axis_tlast || !len_full)));
wire s_fire = s_axis_tvalid && s_axis_tready;
wire store = s_fire && !overflow && !ring_full;
wire ovf_now = s_fire && !overflow && (ring_full || (s_axis_tlast && len_full));

reg [KC-1:0] beat_bytes;
integer bi;
always @* begin
    beat_bytes = {KC{1'b0}};
    for (bi = 0; bi < W; bi = bi + 1)
        beat_bytes = beat_bytes + {{(KC - 1){1'b0}}, s_axis_tkeep[bi]};
end
wire [15:0] len_now = in_len + {{(16 - KC){1'b0}}, beat_bytes};
wire frame_end = s_fire && s_axis_tlast;
wire keep_frame = frame_end && !overflow && !ovf_now && !s_axis_tdrop && len_now != 16'd0;

always @(posedge clk)
    if (store)
        ring[wr_ptr[AW-1:0]] <= {s_axis_tlast, s_axis_tkeep, s_axis_tdata};

always @(posedge clk) begin
    stat_commit <= 1'b0;
    stat_drop <= 1'b0;
    if (store)
        wr_ptr <= wr_ptr + 1'b1;
    if (ovf_now)
        overflow <= 1'b1;
    if (s_fire)
        in_len <= len_now;
    if (frame_end) begin
        in_len <= 16'd0;
        overflow <= 1'b0;
        if (keep_frame) begin
            commit_ptr <= wr_ptr + 1'b1;
            stat_commit <= 1'b1;
        end else begin
            wr_ptr <= commit_ptr;
            stat_drop <= 1'b1;
        end
    end
    if (rst) begin
        wr_ptr <= {(AW + 1){1'b0}};
        commit_ptr <= {(AW + 1){1'b0}};
        overflow <= 1'b0;
        in_len <= 16'd0;
        stat_commit <= 1'b0;
        stat_drop <= 1'b0;
    end
end

// committed frame lengths
wire out_fire;
wire out_last;
froce_fifo #(.WIDTH(16), .DEPTH(FRAMES)) len_fifo (
    .clk(clk), .rst(rst),
    .wr_data(len_now), .wr_en(keep_frame),
    .rd_data(m_len), .rd_en(out_fire && out_last),
    .count(len_count), .empty(len_empty), .full(len_full)
);
assign m_len_valid = !len_empty;

// output register
reg [EW-1:0] out_reg;
reg out_valid;
wire load = rd_ptr != commit_ptr && (!out_valid || m_axis_tready);
always @(posedge clk) begin
    if (out_valid && m_axis_tready)
        out_valid <= 1'b0;
    if (load) begin
        out_reg <= ring[rd_ptr[AW-1:0]];
        out_valid <= 1'b1;
        rd_ptr <= rd_ptr + 1'b1;
    end
    if (rst) begin
        out_valid <= 1'b0;
        rd_ptr <= {(AW + 1){1'b0}};
    end
end

assign m_axis_tdata = out_reg[DATA_WIDTH-1:0];
assign m_axis_tkeep = out_reg[DATA_WIDTH +: W];
assign out_last = out_reg[EW-1];
assign m_axis_tlast = out_last;
assign m_axis_tvalid = out_valid;
assign out_fire = out_valid && m_axis_tready;

wire unused_ff = ^len_count;

endmodule

`resetall
