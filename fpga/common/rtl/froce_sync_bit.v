// SPDX-License-Identifier: MIT
// Bit synchroniser: a chain of STAGES flip-flops per bit into clk (no reset).
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Each bit of d (from any clock domain, or asynchronous) is sampled by a
 * chain of STAGES flip-flops on clk; q is the last stage. The bits are
 * synchronised independently: a multi-bit d is only safe when at most one
 * bit changes between two samples (a Gray-coded counter) or when d is held
 * stable while a separately synchronised flag says it is valid.
 *
 * Constraints on a real board: the first stage samples an asynchronous
 * signal, so its input path carries no meaningful setup check. For single
 * levels (flags) cut it:
 *   set_false_path -to [get_cells {u_x_sync/sync_reg_reg[0]}]      (WIDTH = 1)
 * For a Gray-coded bus bound the skew between its bits to the smaller of
 * the two clock periods (Tmin) instead:
 *   set_max_delay -datapath_only -from <source regs> -to [get_cells {u_x_sync/sync_reg_reg[*]}] Tmin
 *   set_bus_skew -from <source regs> -to [get_cells {u_x_sync/sync_reg_reg[*]}] Tmin
 * ASYNC_REG = "TRUE" keeps the chain out of shift-register LUTs and places
 * its flip-flops together (Vivado); Yosys, Icarus and Verilator accept it.
 */
module froce_sync_bit #(
    parameter WIDTH = 1,        // bits, each synchronised on its own
    parameter STAGES = 2,       // flip-flops per bit, >= 2
    parameter INIT = 0          // power-up value of every stage (0 or 1 per bit)
) (
    input  wire                 clk,
    input  wire [WIDTH-1:0]     d,
    output wire [WIDTH-1:0]     q
);

initial begin
    if (STAGES < 2 || WIDTH < 1) begin
        $display("froce_sync_bit: STAGES must be >= 2, WIDTH >= 1");
        $finish;
    end
end

generate
    if (STAGES < 2 || WIDTH < 1) begin : g_bad_parameter
        froce_sync_bit_bad_STAGES u_bad_parameter ();
    end
endgenerate

localparam [WIDTH-1:0] INIT_BITS = INIT;

// stage k is sync_reg[k*WIDTH +: WIDTH]; stage 0 samples d
(* ASYNC_REG = "TRUE" *) reg [STAGES*WIDTH-1:0] sync_reg = {STAGES{INIT_BITS}};

always @(posedge clk)
    sync_reg <= {sync_reg[(STAGES-1)*WIDTH-1:0], d};

assign q = sync_reg[(STAGES-1)*WIDTH +: WIDTH];

endmodule

`resetall
