// SPDX-License-Identifier: MIT
// Reset synchroniser: asserts at once (asynchronously), releases synchronously to clk.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * rst_out rises as soon as rst_in rises, whatever clk does (the chain is
 * set asynchronously), and falls on the STAGES-th rising clk edge after
 * rst_in has fallen, so its release meets the recovery/removal time of
 * flip-flops on clk. rst_in may come from any clock domain but must be
 * glitch-free (a flip-flop output or an OR of flip-flop outputs): a pulse
 * of any width resets.
 *
 * Constraints on a real board: the path into the asynchronous set pins is
 * asynchronous by design, so cut it; the chain must not be packed into a
 * shift-register LUT (ASYNC_REG does that in Vivado):
 *   set_false_path -to [get_pins -of_objects [get_cells -hier -filter \
 *       {REF_NAME =~ FD* && NAME =~ *_arst_sync/sync_reg_reg[*]}] -filter {REF_PIN_NAME == PRE}]
 *   (in an XDC scoped to this module: set_false_path -to [get_pins sync_reg_reg[*]/PRE])
 */
module froce_sync_reset #(
    parameter STAGES = 3        // flip-flops in the chain, >= 2
) (
    input  wire     clk,
    input  wire     rst_in,     // asynchronous reset request, active high
    output wire     rst_out     // active high; released synchronously to clk
);

initial begin
    if (STAGES < 2) begin
        $display("froce_sync_reset: STAGES must be >= 2");
        $finish;
    end
end

generate
    if (STAGES < 2) begin : g_bad_parameter
        froce_sync_reset_bad_STAGES u_bad_parameter ();
    end
endgenerate

(* ASYNC_REG = "TRUE" *) reg [STAGES-1:0] sync_reg = {STAGES{1'b1}};

always @(posedge clk or posedge rst_in) begin
    if (rst_in)
        sync_reg <= {STAGES{1'b1}};
    else
        sync_reg <= {sync_reg[STAGES-2:0], 1'b0};
end

assign rst_out = sync_reg[STAGES-1];

endmodule

`resetall
