// SPDX-License-Identifier: MIT
// Dual-clock first-word-fall-through FIFO: Gray-coded pointers, synchronised flags, registered outputs.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Write side (wr_clk): wr_data is stored on a rising edge with wr_en = 1 and
 * full = 0; with full = 1, wr_en is ignored. Read side (rd_clk): rd_data is
 * the oldest entry whenever empty = 0; rd_en = 1 on a rising edge pops it
 * (ignored while empty). full, empty and rd_data are flip-flop outputs.
 *
 * Storage: a DEPTH-entry memory with one write port (wr_clk) and one
 * synchronous read port (rd_clk) that loads the output register, so it
 * maps onto a simple dual-port block RAM; with the output register the FIFO
 * holds DEPTH + 1 entries.
 *
 * Crossing: each side keeps a binary pointer of log2(DEPTH) + 1 bits and a
 * Gray-coded copy in a register. Only the Gray copies cross, each through
 * SYNC_STAGES flip-flops per bit: a Gray pointer changes one bit per step,
 * so a sample taken while it changes is either the old or the new value,
 * never a mixture. The memory entry is written on the same edge as the
 * pointer step that publishes it, SYNC_STAGES + 1 read edges before the read
 * side can use it. Both flags are pessimistic: full sees the read pointer
 * late (it clears a few write clocks after a read), empty sees the write
 * pointer late; neither can let a write overwrite an unread entry or a read
 * return an entry twice.
 *   empty (memory): read Gray pointer == synchronised write Gray pointer
 *   full:           write Gray pointer == synchronised read Gray pointer with
 *                   its two top bits inverted (the pointers are DEPTH apart)
 * For full throughput both ways DEPTH must cover the round trip, about
 * 2 * (SYNC_STAGES + 2) cycles of the slower clock; 16 is plenty.
 *
 * Reset: wr_rst (synchronous to wr_clk) and rd_rst (synchronous to rd_clk)
 * each empty the whole FIFO; a one-cycle pulse is enough, and while either
 * is held the whole FIFO stays in reset. Either request is brought into
 * both domains by froce_sync_reset (asynchronous assertion, synchronous
 * release): the pointers and their Gray copies are cleared at once in both
 * domains, so whichever side leaves reset first never sees a stale pointer
 * of the other, even if the other clock is much slower or stopped. full = 1
 * and empty = 1 are forced synchronously (never by an asynchronous path):
 * on the next edge for the local reset, SYNC_STAGES edges later for the
 * other side's. In those edges after a reset from the other side, the word
 * in the output register can still be read, and a word written is lost.
 * wr_rst and rd_rst must be glitch-free (flip-flop outputs): they reach
 * the asynchronous set of the reset synchronisers.
 *
 * Constraints on a real board (Vivado syntax; every synchroniser flip-flop
 * carries ASYNC_REG = "TRUE", which keeps the chains out of shift-register
 * LUTs and places each chain's flip-flops together). For an instance u_fifo:
 *   - Gray pointers into the first synchroniser stage: bound the skew
 *     between their bits by the smaller of the two clock periods (Tmin):
 *       set_max_delay -datapath_only -from [get_cells u_fifo/wr_gray_reg_reg[*]] \
 *           -to [get_cells {u_fifo/u_wr_gray_sync/sync_reg_reg[*]}] Tmin
 *       set_bus_skew -from [get_cells u_fifo/wr_gray_reg_reg[*]] \
 *           -to [get_cells {u_fifo/u_wr_gray_sync/sync_reg_reg[*]}] Tmin
 *     and the same from rd_gray_reg_reg[*] to u_rd_gray_sync;
 *   - a memory in LUT RAM or flip-flops (small DEPTH): its read into
 *     out_data_reg crosses clocks: set_max_delay -datapath_only from the
 *     memory cells to u_fifo/out_data_reg_reg[*], the rd_clk period (a block
 *     RAM handles this inside);
 *   - reset requests into the asynchronous set (PRE) pins of the chains:
 *       set_false_path -to [get_pins {u_fifo/u_*_arst_sync/sync_reg_reg[*]/PRE}]
 *   - the level synchronisers of the reset state (first stage):
 *       set_false_path -to [get_cells {u_fifo/u_*_srst_sync/sync_reg_reg[0]}]
 * docs/fpga-cdc.md has a Tcl loop that applies these to every instance.
 */
module froce_async_fifo #(
    parameter WIDTH = 8,        // bits per entry
    parameter DEPTH = 16,       // entries of memory, a power of two >= 4
    parameter SYNC_STAGES = 2   // synchroniser flip-flops per crossing bit, >= 2
) (
    /* Write side (wr_clk) */
    input  wire                 wr_clk,
    input  wire                 wr_rst,     // synchronous to wr_clk; empties the FIFO
    input  wire [WIDTH-1:0]     wr_data,
    input  wire                 wr_en,      // ignored when full
    output wire                 full,

    /* Read side (rd_clk): rd_data is valid whenever !empty */
    input  wire                 rd_clk,
    input  wire                 rd_rst,     // synchronous to rd_clk; empties the FIFO
    output wire [WIDTH-1:0]     rd_data,
    input  wire                 rd_en,      // pops the head; ignored when empty
    output wire                 empty
);

localparam AW = $clog2(DEPTH);

initial begin
    if (DEPTH < 4 || (1 << AW) != DEPTH || SYNC_STAGES < 2 || WIDTH < 1) begin
        $display("froce_async_fifo: DEPTH must be a power of two >= 4, SYNC_STAGES >= 2");
        $finish;
    end
end

generate
    if (DEPTH < 4 || (1 << AW) != DEPTH || SYNC_STAGES < 2 || WIDTH < 1) begin : g_bad_parameter
        froce_async_fifo_bad_DEPTH u_bad_parameter ();
    end
endgenerate

/*
 * Resets. *_arst: asserted asynchronously by either request, released on
 * the local clock; clears the pointers. *_srst: synchronous (the local
 * request at once, the other side's SYNC_STAGES edges after *_arst); forces
 * the flags and stops both ports.
 */
wire rst_req = wr_rst | rd_rst;
// *_arst is used as an asynchronous clear and, on purpose, sampled by a
// synchroniser (u_*_srst_sync) and gating the output register's load
/* verilator lint_off SYNCASYNCNET */
wire wr_arst, rd_arst;
/* verilator lint_on SYNCASYNCNET */
wire wr_arst_seen, rd_arst_seen;

froce_sync_reset #(.STAGES(SYNC_STAGES + 1)) u_wr_arst_sync (
    .clk(wr_clk), .rst_in(rst_req), .rst_out(wr_arst)
);
froce_sync_reset #(.STAGES(SYNC_STAGES + 1)) u_rd_arst_sync (
    .clk(rd_clk), .rst_in(rst_req), .rst_out(rd_arst)
);
froce_sync_bit #(.WIDTH(1), .STAGES(SYNC_STAGES), .INIT(1)) u_wr_srst_sync (
    .clk(wr_clk), .d(wr_arst), .q(wr_arst_seen)
);
froce_sync_bit #(.WIDTH(1), .STAGES(SYNC_STAGES), .INIT(1)) u_rd_srst_sync (
    .clk(rd_clk), .d(rd_arst), .q(rd_arst_seen)
);
wire wr_srst = wr_rst | wr_arst_seen;
wire rd_srst = rd_rst | rd_arst_seen;

reg [WIDTH-1:0] mem [0:DEPTH-1];
reg [AW:0] wr_gray_reg = {(AW + 1){1'b0}};      // write pointer, Gray: crosses to rd_clk
reg [AW:0] rd_gray_reg = {(AW + 1){1'b0}};      // read pointer, Gray: crosses to wr_clk

/* Write side */
reg [AW:0] wr_bin_reg = {(AW + 1){1'b0}};
reg full_reg = 1'b1;
wire [AW:0] rd_gray_sync;

froce_sync_bit #(.WIDTH(AW + 1), .STAGES(SYNC_STAGES)) u_rd_gray_sync (
    .clk(wr_clk), .d(rd_gray_reg), .q(rd_gray_sync)
);

wire write = wr_en && !full_reg;
wire [AW:0] wr_bin_next = wr_bin_reg + {{AW{1'b0}}, write};
wire [AW:0] wr_gray_next = wr_bin_next ^ (wr_bin_next >> 1);

always @(posedge wr_clk or posedge wr_arst) begin
    if (wr_arst) begin
        wr_bin_reg <= {(AW + 1){1'b0}};
        wr_gray_reg <= {(AW + 1){1'b0}};
    end else begin
        wr_bin_reg <= wr_bin_next;
        wr_gray_reg <= wr_gray_next;
    end
end

always @(posedge wr_clk) begin
    full_reg <= wr_gray_next == {~rd_gray_sync[AW:AW-1], rd_gray_sync[AW-2:0]};
    if (wr_srst)
        full_reg <= 1'b1;
end

always @(posedge wr_clk)
    if (write)
        mem[wr_bin_reg[AW-1:0]] <= wr_data;

/* Read side */
reg [AW:0] rd_bin_reg = {(AW + 1){1'b0}};
reg out_valid_reg = 1'b0;
reg [WIDTH-1:0] out_data_reg = {WIDTH{1'b0}};
wire [AW:0] wr_gray_sync;

froce_sync_bit #(.WIDTH(AW + 1), .STAGES(SYNC_STAGES)) u_wr_gray_sync (
    .clk(rd_clk), .d(wr_gray_reg), .q(wr_gray_sync)
);

wire mem_empty = rd_gray_reg == wr_gray_sync;
wire load = !mem_empty && (!out_valid_reg || rd_en) && !rd_srst && !rd_arst;
wire [AW:0] rd_bin_next = rd_bin_reg + {{AW{1'b0}}, load};

always @(posedge rd_clk or posedge rd_arst) begin
    if (rd_arst) begin
        rd_bin_reg <= {(AW + 1){1'b0}};
        rd_gray_reg <= {(AW + 1){1'b0}};
    end else begin
        rd_bin_reg <= rd_bin_next;
        rd_gray_reg <= rd_bin_next ^ (rd_bin_next >> 1);
    end
end

always @(posedge rd_clk)
    if (load)
        out_data_reg <= mem[rd_bin_reg[AW-1:0]];

always @(posedge rd_clk) begin
    if (rd_en)
        out_valid_reg <= 1'b0;
    if (load)
        out_valid_reg <= 1'b1;
    if (rd_srst)
        out_valid_reg <= 1'b0;
end

assign full = full_reg;
assign rd_data = out_data_reg;
assign empty = !out_valid_reg;

endmodule

`resetall
