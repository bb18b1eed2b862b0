// SPDX-License-Identifier: MIT
// Synchronous first-word-fall-through FIFO with occupancy count.
`resetall
`timescale 1ns / 1ps
`default_nettype none

module froce_fifo #(
    parameter WIDTH = 8,        // bits per entry
    parameter DEPTH = 16        // entries, a power of two >= 2
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
    output wire [$clog2(DEPTH):0]   count,
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

reg [WIDTH-1:0] mem [0:DEPTH-1];
reg [AW:0] wr_ptr_reg = 0;
reg [AW:0] rd_ptr_reg = 0;

assign count = wr_ptr_reg - rd_ptr_reg;
assign empty = wr_ptr_reg == rd_ptr_reg;
assign full = count[AW];  // count never exceeds DEPTH
assign rd_data = mem[rd_ptr_reg[AW-1:0]];

always @(posedge clk) begin
    if (wr_en && !full) begin
        mem[wr_ptr_reg[AW-1:0]] <= wr_data;
        wr_ptr_reg <= wr_ptr_reg + 1'b1;
    end
    if (rd_en && !empty) begin
        rd_ptr_reg <= rd_ptr_reg + 1'b1;
    end
    if (rst) begin
        wr_ptr_reg <= 0;
        rd_ptr_reg <= 0;
    end
end

endmodule

`resetall
