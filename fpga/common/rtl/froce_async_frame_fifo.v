// SPDX-License-Identifier: MIT
// Dual-clock store-and-forward frame FIFO: only whole good frames come out, in the other clock domain.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * The dual-clock sibling of froce_eth_rx_fifo (same stream and counter
 * ports, clk/rst split into s_clk/s_rst and m_clk/m_rst): MAC RX clock in,
 * core clock out; or, with DROP_FULL = 0, the TX FIFO from the core clock
 * into a MAC clock.
 *
 * Input (s_clk): AXI-Stream frames, every beat full except the last, tkeep
 * from bit 0. A frame is written into a ring of DEPTH_BYTES / 8 beats as it
 * arrives and becomes readable only after its last beat (store and
 * forward). It is rolled back, and counted, when
 *   - s_axis_tuser = 1 on any of its beats (rx_fifo_bad_dropped; a MAC
 *     marks a bad frame on its last beat, a TX source aborts on any beat), or
 *   - it does not fit (rx_fifo_full_dropped): DROP_FULL = 1 (default) never
 *     waits (s_axis_tready = 1; the MAC RX has no tready) and drops a frame
 *     one of whose beats meets a full ring, or that ends while the frame
 *     list is full (FRAMES + 1 complete frames waiting besides the one
 *     leaving); DROP_FULL = 0 waits while the ring
 *     (or, on a last beat, the frame list) is full of earlier frames and
 *     drops only a frame larger than the whole ring. The rest of a dropped
 *     frame is taken and discarded;
 *   - it has no byte at all (counted as full, as in froce_eth_rx_fifo).
 * Complete frames are never dropped. tuser on a beat that is discarded
 * anyway still makes the frame count as bad, not full.
 *
 * Output (m_clk): the good frames, whole and in order, with backpressure.
 * Once a frame's first beat is valid, the rest follow one per m_clk cycle
 * while m_axis_tready = 1 (the whole frame is already in the ring), so a
 * MAC reading it never underruns. The output is registered.
 *
 * Crossing: the ring has one write port (s_clk) and one synchronous read
 * port (m_clk) into the output register, 72 bits wide (tdata, tkeep; tlast
 * is not stored), so it maps onto simple dual-port block RAM (DEPTH_BYTES =
 * 16384: 2048 x 72). When a frame is complete, the ring position just past
 * its last beat goes through a froce_async_fifo of FRAMES entries (the
 * frame list) to the read side, which reads up to the head entry and sets
 * tlast on the beat before it. A frame end jumps by many beats, so it
 * cannot cross as a Gray pointer; through the FIFO it crosses as data,
 * stable before its pointer does. The read pointer steps by one beat and
 * crosses back as a Gray pointer (SYNC_STAGES flip-flops per bit) for the
 * fullness of the ring, which is therefore pessimistic by a few s_clk cycles.
 *
 * Counters: 32 bits, s_clk domain, cleared by reset, wrapping; each counts
 * on the edge that takes the frame's last beat.
 *
 * Reset: s_rst (synchronous to s_clk) or m_rst (synchronous to m_clk)
 * empties the whole FIFO and clears the counters (as in froce_async_fifo,
 * whose reset scheme this copies). The input tracks frame boundaries even
 * in reset: a frame it is in the middle of when a reset from the read side
 * ends is discarded to its last beat (not counted), never delivered as a
 * fragment; s_rst itself assumes the source restarts at a frame boundary.
 * Beats arriving in the few cycles a reset takes to clear are ignored
 * (DROP_FULL = 1) or refused (DROP_FULL = 0). A frame that is leaving when a
 * reset comes is cut off (tvalid falls before tlast): reset the consumer
 * with it.
 *
 * Constraints on a real board: those of froce_async_fifo for this module
 * (Gray pointer rd_gray_reg_reg[*] into u_rd_gray_sync: set_max_delay
 * -datapath_only and set_bus_skew of the smaller clock period; reset
 * requests into u_*_arst_sync PRE pins and the first stage of
 * u_*_srst_sync: set_false_path; the ring read into out_data_reg if the
 * ring is not block RAM: set_max_delay -datapath_only of the m_clk period),
 * and the same inside u_ends (a froce_async_fifo).
 */
module froce_async_frame_fifo #(
    parameter DEPTH_BYTES = 16384,                                  // ring size in bytes: a power of two >= 128
    parameter FRAMES = DEPTH_BYTES >= 256 ? DEPTH_BYTES / 64 : 4,   // frame-list entries, a power of two >= 4 (see above)
    parameter DROP_FULL = 1,                                        // 1: never wait, drop what does not fit; 0: wait
    parameter SYNC_STAGES = 2                                       // synchroniser flip-flops per crossing bit, >= 2
) (
    /* Frames in (s_clk) */
    input  wire         s_clk,
    input  wire         s_rst,              // synchronous to s_clk; empties the FIFO
    input  wire [63:0]  s_axis_tdata,
    input  wire [7:0]   s_axis_tkeep,
    input  wire         s_axis_tvalid,
    output wire         s_axis_tready,      // 1 when DROP_FULL = 1
    input  wire         s_axis_tlast,
    input  wire         s_axis_tuser,       // on any beat: bad frame, dropped

    /* Good frames out (m_clk) */
    input  wire         m_clk,
    input  wire         m_rst,              // synchronous to m_clk; empties the FIFO
    output wire [63:0]  m_axis_tdata,
    output wire [7:0]   m_axis_tkeep,
    output wire         m_axis_tvalid,
    input  wire         m_axis_tready,
    output wire         m_axis_tlast,

    /* Counters (s_clk) */
    output wire [31:0]  rx_fifo_bad_dropped,
    output wire [31:0]  rx_fifo_full_dropped
);

localparam DEPTH = DEPTH_BYTES / 8;         // ring size in beats
localparam AW = $clog2(DEPTH);
localparam BAD_PARAM = DEPTH_BYTES < 128 || (1 << $clog2(DEPTH_BYTES)) != DEPTH_BYTES ||
                       FRAMES < 4 || (1 << $clog2(FRAMES)) != FRAMES || SYNC_STAGES < 2;

initial begin
    if (BAD_PARAM) begin
        $display("froce_async_frame_fifo: DEPTH_BYTES must be a power of two >= 128, FRAMES a power of two >= 4");
        $finish;
    end
end

generate
    if (BAD_PARAM) begin : g_bad_parameter
        froce_async_frame_fifo_bad_DEPTH_BYTES u_bad_parameter ();
    end
endgenerate

/* Resets: as in froce_async_fifo (arst clears the pointers at once, srst
 * is synchronous and stops both ports) */
wire rst_req = s_rst | m_rst;
// *_arst is used as an asynchronous clear and, on purpose, sampled by a
// synchroniser (u_*_srst_sync) and gating the output register's load
/* verilator lint_off SYNCASYNCNET */
wire s_arst, m_arst;
/* verilator lint_on SYNCASYNCNET */
wire s_arst_seen, m_arst_seen;

froce_sync_reset #(.STAGES(SYNC_STAGES + 1)) u_s_arst_sync (
    .clk(s_clk), .rst_in(rst_req), .rst_out(s_arst)
);
froce_sync_reset #(.STAGES(SYNC_STAGES + 1)) u_m_arst_sync (
    .clk(m_clk), .rst_in(rst_req), .rst_out(m_arst)
);
froce_sync_bit #(.WIDTH(1), .STAGES(SYNC_STAGES), .INIT(1)) u_s_srst_sync (
    .clk(s_clk), .d(s_arst), .q(s_arst_seen)
);
froce_sync_bit #(.WIDTH(1), .STAGES(SYNC_STAGES), .INIT(1)) u_m_srst_sync (
    .clk(m_clk), .d(m_arst), .q(m_arst_seen)
);
wire s_srst = s_rst | s_arst_seen;
wire m_srst = m_rst | m_arst_seen;

reg [71:0] ring [0:DEPTH-1];
reg [AW:0] rd_ptr_reg = {(AW + 1){1'b0}};       // read side: next beat into the output register
reg [AW:0] rd_gray_reg = {(AW + 1){1'b0}};      // its Gray copy, crosses to s_clk

/* Frame list: the ring position after each complete frame */
wire [AW:0] end_in;
wire end_write;
wire end_full;
wire [AW:0] head_end;
wire end_pop;
wire end_empty;

froce_async_fifo #(
    .WIDTH(AW + 1),
    .DEPTH(FRAMES),
    .SYNC_STAGES(SYNC_STAGES)
) u_ends (
    .wr_clk(s_clk),
    .wr_rst(s_rst),
    .wr_data(end_in),
    .wr_en(end_write),
    .full(end_full),
    .rd_clk(m_clk),
    .rd_rst(m_rst),
    .rd_data(head_end),
    .rd_en(end_pop),
    .empty(end_empty)
);

/*
 * Write side
 */
reg [AW:0] wr_ptr_reg = {(AW + 1){1'b0}};       // next beat to write (uncommitted)
reg [AW:0] commit_ptr_reg = {(AW + 1){1'b0}};   // after the last complete frame
reg [AW:0] rd_ptr_s_reg = {(AW + 1){1'b0}};     // read pointer as seen here (late)
reg overflow_reg = 1'b0;                        // this frame did not fit
reg bad_reg = 1'b0;                             // this frame had tuser
reg bytes_reg = 1'b0;                           // this frame has a byte
reg skip_reg = 1'b0;                            // this frame was cut by a reset: discard its rest
reg in_frame_reg = 1'b0;                        // the input is inside a frame
reg [31:0] bad_count_reg = 32'd0;
reg [31:0] full_count_reg = 32'd0;
wire [AW:0] rd_gray_sync;

froce_sync_bit #(.WIDTH(AW + 1), .STAGES(SYNC_STAGES)) u_rd_gray_sync (
    .clk(s_clk), .d(rd_gray_reg), .q(rd_gray_sync)
);

// Gray to binary: bit i is the xor of Gray bits AW..i, each bit its own
// XOR tree (written as a ripple through bit i+1, it maps to AW LUT levels)
function [AW:0] gray2bin(input [AW:0] g);
    integer i;
    begin
        for (i = 0; i <= AW; i = i + 1)
            gray2bin[i] = ^(g >> i);
    end
endfunction

wire [AW:0] rd_bin_sync = gray2bin(rd_gray_sync);

wire [AW:0] used = wr_ptr_reg - rd_ptr_s_reg;
wire ring_full = used[AW];                      // used never exceeds DEPTH
wire [AW:0] frame_beats = wr_ptr_reg - commit_ptr_reg;
wire frame_huge = frame_beats[AW];              // this frame alone fills the ring
wire discard = overflow_reg || skip_reg;

// DROP_FULL = 0: wait while earlier frames fill the ring (or, on a last
// beat, the frame list); take and discard the rest of a dropped frame
assign s_axis_tready = DROP_FULL != 0 ? 1'b1 :
                       !s_srst && (discard || frame_huge || (!ring_full && (!s_axis_tlast || !end_full)));

wire s_fire = s_axis_tvalid && s_axis_tready;
wire active = s_fire && !s_srst;
wire store = active && !discard && !ring_full;
wire ovf_now = active && !discard && (ring_full || (s_axis_tlast && end_full));
wire frame_end = active && s_axis_tlast;
wire frame_bad = bad_reg || s_axis_tuser;
wire frame_bytes = bytes_reg || s_axis_tkeep != 8'd0;
wire keep_frame = frame_end && !discard && !ovf_now && !frame_bad && frame_bytes;

assign end_in = wr_ptr_reg + 1'b1;
assign end_write = keep_frame;

always @(posedge s_clk)
    if (store)
        ring[wr_ptr_reg[AW-1:0]] <= {s_axis_tkeep, s_axis_tdata};

always @(posedge s_clk or posedge s_arst) begin
    if (s_arst) begin
        wr_ptr_reg <= {(AW + 1){1'b0}};
        commit_ptr_reg <= {(AW + 1){1'b0}};
    end else begin
        if (store)
            wr_ptr_reg <= wr_ptr_reg + 1'b1;
        if (frame_end) begin
            if (keep_frame)
                commit_ptr_reg <= wr_ptr_reg + 1'b1;
            else
                wr_ptr_reg <= commit_ptr_reg;
        end
    end
end

always @(posedge s_clk) begin
    rd_ptr_s_reg <= rd_bin_sync;
    if (active) begin
        bad_reg <= frame_bad;
        bytes_reg <= frame_bytes;
    end
    if (ovf_now)
        overflow_reg <= 1'b1;
    if (frame_end) begin
        overflow_reg <= 1'b0;
        bad_reg <= 1'b0;
        bytes_reg <= 1'b0;
        skip_reg <= 1'b0;
        if (!skip_reg && !keep_frame) begin
            if (frame_bad)
                bad_count_reg <= bad_count_reg + 32'd1;
            else
                full_count_reg <= full_count_reg + 32'd1;
        end
    end
    if (s_srst) begin
        overflow_reg <= 1'b0;
        bad_reg <= 1'b0;
        bytes_reg <= 1'b0;
        // a frame the input is inside of when the reset ends is a fragment
        skip_reg <= s_fire ? !s_axis_tlast : in_frame_reg;
        bad_count_reg <= 32'd0;
        full_count_reg <= 32'd0;
    end
    if (s_rst)
        skip_reg <= 1'b0;                       // the source is reset too
end

always @(posedge s_clk) begin
    if (s_fire)
        in_frame_reg <= !s_axis_tlast;
    if (s_rst)
        in_frame_reg <= 1'b0;
end

assign rx_fifo_bad_dropped = bad_count_reg;
assign rx_fifo_full_dropped = full_count_reg;

/*
 * Read side
 */
reg out_valid_reg = 1'b0;
reg out_last_reg = 1'b0;
reg [71:0] out_data_reg = 72'd0;

wire load = !end_empty && (!out_valid_reg || m_axis_tready) && !m_srst && !m_arst;
wire [AW:0] rd_ptr_next = rd_ptr_reg + {{AW{1'b0}}, load};
wire [AW:0] rd_ptr_inc = rd_ptr_reg + 1'b1;
assign end_pop = load && rd_ptr_inc == head_end;    // the beat loaded is the frame's last

always @(posedge m_clk or posedge m_arst) begin
    if (m_arst) begin
        rd_ptr_reg <= {(AW + 1){1'b0}};
        rd_gray_reg <= {(AW + 1){1'b0}};
    end else begin
        rd_ptr_reg <= rd_ptr_next;
        rd_gray_reg <= rd_ptr_next ^ (rd_ptr_next >> 1);
    end
end

always @(posedge m_clk)
    if (load)
        out_data_reg <= ring[rd_ptr_reg[AW-1:0]];

always @(posedge m_clk) begin
    if (m_axis_tready)
        out_valid_reg <= 1'b0;
    if (load) begin
        out_valid_reg <= 1'b1;
        out_last_reg <= end_pop;
    end
    if (m_srst)
        out_valid_reg <= 1'b0;
end

assign m_axis_tdata = out_data_reg[63:0];
assign m_axis_tkeep = out_data_reg[71:64];
assign m_axis_tvalid = out_valid_reg;
assign m_axis_tlast = out_last_reg;

endmodule

`resetall
