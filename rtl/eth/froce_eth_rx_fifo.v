// SPDX-License-Identifier: MIT
// Store-and-forward RX frame FIFO between a MAC (no backpressure) and the core: only whole good frames come out.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Input: the MAC's frames (AXI-Stream, no tready: the input never waits;
 * every beat full except the last, tkeep from bit 0; tuser = 1 on the last
 * beat marks a bad frame). Output: the good frames, whole and in order,
 * with backpressure (m_axis_tready).
 *
 * A frame is written into a ring of DEPTH_BYTES / 8 beats as it arrives and
 * becomes visible at the output only after its last beat (store and
 * forward). It is rolled back, and counted, when
 *   - its last beat has tuser = 1 (rx_fifo_bad_dropped), or
 *   - a beat of it meets a full ring, or no frame slot is free on its last
 *     beat (rx_fifo_full_dropped; the rest of it is taken and discarded).
 * Frames already committed are never dropped. A frame of zero bytes is
 * dropped too (a good one cannot come from froce_eth_mac_10g_rx; it would
 * count as full).
 *
 * The ring is froce_frame_fifo (DROP_FULL = 1): one write port, one
 * registered read port, so it maps onto block RAM (DEPTH_BYTES = 16384:
 * 2048 x 73 bits); the frame lengths sit in a FRAMES-entry FIFO beside it.
 * One clock for both sides; a dual-clock version (MAC clock in, core clock
 * out) is the next step.
 */
module froce_eth_rx_fifo #(
    parameter DEPTH_BYTES = 16384,          // ring size in bytes: a power of two, 128..32768
    parameter FRAMES = DEPTH_BYTES / 64     // committed frames held at most, a power of two >= 2
) (
    input  wire         clk,
    input  wire         rst,

    /* Frames from the MAC (no tready) */
    input  wire [63:0]  s_axis_tdata,
    input  wire [7:0]   s_axis_tkeep,
    input  wire         s_axis_tvalid,
    input  wire         s_axis_tlast,
    input  wire         s_axis_tuser,       // on the tlast beat: bad frame, dropped

    /* Good frames out */
    output wire [63:0]  m_axis_tdata,
    output wire [7:0]   m_axis_tkeep,
    output wire         m_axis_tvalid,
    input  wire         m_axis_tready,
    output wire         m_axis_tlast,

    /* Counters */
    output wire [31:0]  rx_fifo_bad_dropped,
    output wire [31:0]  rx_fifo_full_dropped
);

localparam DEPTH = DEPTH_BYTES / 8;         // ring size in beats

initial begin
    if (DEPTH_BYTES < 128 || DEPTH_BYTES > 32768 || (DEPTH_BYTES & (DEPTH_BYTES - 1)) != 0) begin
        $display("froce_eth_rx_fifo: DEPTH_BYTES must be a power of two, 128..32768");
        $finish;
    end
end

generate
    if (DEPTH_BYTES < 128 || DEPTH_BYTES > 32768 || (DEPTH_BYTES & (DEPTH_BYTES - 1)) != 0) begin : g_bad_parameter
        froce_eth_rx_fifo_bad_DEPTH_BYTES u_bad_parameter ();
    end
endgenerate

wire unused_tready;
wire [15:0] unused_len;
wire unused_len_valid;
wire stat_commit, stat_drop;

froce_frame_fifo #(
    .DATA_WIDTH(64),
    .DEPTH(DEPTH),
    .FRAMES(FRAMES),
    .DROP_FULL(1)
) u_fifo (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(s_axis_tdata),
    .s_axis_tkeep(s_axis_tkeep),
    .s_axis_tvalid(s_axis_tvalid),
    .s_axis_tready(unused_tready),
    .s_axis_tlast(s_axis_tlast),
    .s_axis_tdrop(s_axis_tuser),
    .m_axis_tdata(m_axis_tdata),
    .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tready(m_axis_tready),
    .m_axis_tlast(m_axis_tlast),
    .m_len(unused_len),
    .m_len_valid(unused_len_valid),
    .stat_commit(stat_commit),
    .stat_drop(stat_drop)
);

// stat_drop comes one cycle after the frame's last beat: remember why
reg last_bad_reg = 1'b0;
reg [31:0] bad_reg = 32'd0, full_reg = 32'd0;

always @(posedge clk) begin
    last_bad_reg <= s_axis_tvalid && s_axis_tlast && s_axis_tuser;
    if (stat_drop) begin
        if (last_bad_reg)
            bad_reg <= bad_reg + 32'd1;
        else
            full_reg <= full_reg + 32'd1;
    end
    if (rst) begin
        last_bad_reg <= 1'b0;
        bad_reg <= 32'd0;
        full_reg <= 32'd0;
    end
end

assign rx_fifo_bad_dropped = bad_reg;
assign rx_fifo_full_dropped = full_reg;

wire unused = ^{unused_tready, unused_len, unused_len_valid, stat_commit};

endmodule

`resetall
