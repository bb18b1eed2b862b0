// SPDX-License-Identifier: MIT
// Statistics counters: 64-bit totals in one RAM, small accumulators per counter.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * N counters of 64 bits. Each cycle every counter's source presents an
 * increment (inc, IW bits per counter, 0 most cycles); it goes into that
 * counter's accumulator of IW + log2(N) bits. A pointer walks the counters,
 * one per cycle, and adds the accumulator it points at into the counter's
 * 64-bit total in a distributed RAM (and restarts the accumulator with that
 * cycle's increment), so an accumulator holds at most N increments and never
 * overflows. One 64-bit adder instead of one per counter, and the totals
 * in LUT RAM instead of flip-flops, as Corundum's statistics collector does.
 *
 * The two read ports are exact: they return the total plus the counter's
 * accumulator, i.e. every increment presented before this cycle, the same
 * value a plain 64-bit counter register would hold.
 *
 * Reset zeroes the accumulators at once and the totals in N cycles (the
 * pointer's first pass); a counter not yet cleared reads as its accumulator.
 * A counter whose increment is tied to 0 costs no accumulator (synthesis
 * removes it) and reads 0.
 */
module froce_counters #(
    parameter N = 48,                   // counters, >= 2
    parameter IW = 4                    // bits of one cycle's increment
) (
    input  wire                     clk,
    input  wire                     rst,

    input  wire [N*IW-1:0]          inc,        // counter i: inc[i*IW +: IW]

    input  wire [$clog2(N)-1:0]     a_index,
    output wire [63:0]              a_value,
    input  wire [$clog2(N)-1:0]     b_index,
    output wire [63:0]              b_value
);

localparam PW = $clog2(N);
localparam AW = IW + PW;    // N increments of at most 2**IW - 1 fit

initial begin
    if (N < 2) begin
        $display("froce_counters: N must be >= 2");
        $finish;
    end
end

localparam [PW:0] NUM = N[PW:0];

reg [63:0] total [0:N-1];
wire [N*AW-1:0] acc;            // counter i: acc[i*AW +: AW]
reg [PW-1:0] ptr = 0;
reg clearing = 1'b1;            // first pass after reset: totals not yet zeroed

wire ptr_last = {1'b0, ptr} == NUM - 1'b1;

genvar gi;
generate
for (gi = 0; gi < N; gi = gi + 1) begin : g_acc
    localparam [PW-1:0] IDX = gi;
    reg [AW-1:0] a = 0;
    always @(posedge clk) begin
        a <= (ptr == IDX ? {AW{1'b0}} : a) + {{PW{1'b0}}, inc[gi*IW +: IW]};
        if (rst)
            a <= {AW{1'b0}};
    end
    assign acc[gi*AW +: AW] = a;
end
endgenerate

always @(posedge clk) begin
    total[ptr] <= (clearing ? 64'd0 : total[ptr]) + {{(64 - AW){1'b0}}, acc[ptr*AW +: AW]};
    ptr <= ptr_last ? {PW{1'b0}} : ptr + 1'b1;
    if (ptr_last)
        clearing <= 1'b0;
    if (rst) begin
        ptr <= {PW{1'b0}};
        clearing <= 1'b1;
    end
end

// a counter the first pass has not reached yet reads as its accumulator
wire a_ok = {1'b0, a_index} < NUM;
wire b_ok = {1'b0, b_index} < NUM;
wire a_cleared = !clearing || a_index < ptr;
wire b_cleared = !clearing || b_index < ptr;
assign a_value = !a_ok ? 64'd0 :
                 (a_cleared ? total[a_index] : 64'd0) + {{(64 - AW){1'b0}}, acc[a_index*AW +: AW]};
assign b_value = !b_ok ? 64'd0 :
                 (b_cleared ? total[b_index] : 64'd0) + {{(64 - AW){1'b0}}, acc[b_index*AW +: AW]};

endmodule

`resetall
