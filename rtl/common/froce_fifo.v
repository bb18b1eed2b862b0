// SPDX-License-Identifier: MIT
// Synchronous first-word-fall-through FIFO with occupancy count.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * REG_OUT = 0: rd_data comes straight from the storage (an asynchronous read,
 * distributed RAM or registers). REG_OUT = 1: the head entry sits in an
 * output register, so rd_data starts a timing path at a flip-flop and the
 * storage is read synchronously (block RAM); the output register counts as
 * one of the DEPTH + 1 entries the FIFO then holds.
 *
 * RAM_STYLE is the storage's ram_style for Yosys: "auto" lets it choose,
 * "block" asks for block RAM (with REG_OUT = 1: the output register is the
 * RAM's read register). An entry is never read while it is being written
 * (the head of a non-empty FIFO; a full FIFO takes no write), so the RAM
 * needs no read-during-write logic.
 */
module froce_fifo #(
    parameter WIDTH = 8,        // bits per entry
    parameter DEPTH = 16,       // entries of storage, a power of two >= 2
    parameter REG_OUT = 0,      // 1: registered head entry (see above)
    /* verilator lint_off UNUSEDPARAM */
    parameter RAM_STYLE = "auto"    // storage hint for synthesis (see above)
    /* verilator lint_on UNUSEDPARAM */
) (
    input  wire                     clk,
    input  wire                     rst,

    /* Write port */
    input  wire [WIDTH-1:0]         wr_data,
    input  wire                     wr_en,      // ignored when full

    /* Read port: rd_data is valid whenever !empty */
    output wire [WIDTH-1:0]         rd_data,
    input  wire                     rd_en,      // pops the head; ignored when empty

    /* Status */
    output wire [$clog2(DEPTH):0]   count,      // entries in the storage
    output wire                     empty,
    output wire                     full
);

localparam AW = $clog2(DEPTH);

initial begin
    if (DEPTH < 2 || (1 << AW) != DEPTH) begin
        $display("froce_fifo: DEPTH must be a power of two >= 2");
        $finish;
    end
end

(* ram_style = RAM_STYLE, no_rw_check *)
reg [WIDTH-1:0] mem [0:DEPTH-1];
reg [AW:0] wr_ptr_reg = 0;
reg [AW:0] rd_ptr_reg = 0;

wire mem_empty = wr_ptr_reg == rd_ptr_reg;
assign count = wr_ptr_reg - rd_ptr_reg;
assign full = count[AW];  // count never exceeds DEPTH

always @(posedge clk) begin
    if (wr_en && !full) begin
        mem[wr_ptr_reg[AW-1:0]] <= wr_data;
        wr_ptr_reg <= wr_ptr_reg + 1'b1;
    end
    if (rst)
        wr_ptr_reg <= 0;
end

generate
    if (REG_OUT) begin : g_reg_out
        reg out_valid_reg = 1'b0;
        reg [WIDTH-1:0] out_data_reg = {WIDTH{1'b0}};
        wire load = !mem_empty && (!out_valid_reg || rd_en);

        always @(posedge clk) begin
            if (rd_en)
                out_valid_reg <= 1'b0;
            if (load) begin
                out_valid_reg <= 1'b1;
                out_data_reg <= mem[rd_ptr_reg[AW-1:0]];
                rd_ptr_reg <= rd_ptr_reg + 1'b1;
            end
            if (rst) begin
                out_valid_reg <= 1'b0;
                rd_ptr_reg <= 0;
            end
        end

        assign rd_data = out_data_reg;
        assign empty = !out_valid_reg;
    end else begin : g_comb_out
        always @(posedge clk) begin
            if (rd_en && !mem_empty)
                rd_ptr_reg <= rd_ptr_reg + 1'b1;
            if (rst)
                rd_ptr_reg <= 0;
        end

        assign rd_data = mem[rd_ptr_reg[AW-1:0]];
        assign empty = mem_empty;
    end
endgenerate

endmodule

`resetall
