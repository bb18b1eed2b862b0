// SPDX-License-Identifier: MIT
// 10GBASE-R BER monitor (IEEE 802.3 49.2.13.2.4, Figure 49-13): hi_ber after 16 invalid sync headers in one 125 us window.

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * One sync header per cycle. Runs only while block_lock is true; without
 * lock it is held in BER_MT_INIT (hi_ber false, count and timer cleared),
 * as the standard's "!rx_block_lock -> BER_MT_INIT" says.
 *
 * Windows of TIMER_CYCLES cycles follow each other from the cycle lock is
 * gained. In a window:
 *   - each invalid header counts; the 16th sets hi_ber (HI_BER), and the
 *     rest of that window is not counted;
 *   - at the end of a window, hi_ber clears if the window was not the one
 *     that set it and counted fewer than 16 (GOOD_BER).
 * So hi_ber lasts from the 16th error to the end of the first clean window
 * after it: one window plus the remainder of the one that set it, at most.
 *
 * TIMER_CYCLES: 125 us (+1 %/-0 %) at 156.25 MHz is 19531.25 cycles; the
 * default rounds up so the window is never shorter than 125 us. Benches use
 * short windows.
 */
module froce_eth_pcs_ber_monitor #(
    parameter TIMER_CYCLES = 19532     // window length in cycles (125 us at 156.25 MHz), >= 2
) (
    input  wire clk,
    input  wire rst,

    input  wire block_lock,            // from the block lock state machine
    input  wire sh_valid,              // this cycle's sync header is 01 or 10
    output wire hi_ber
);

localparam TW = $clog2(TIMER_CYCLES + 1);          // holds 0..TIMER_CYCLES-1 (>= 1 bit)

initial begin
    if (TIMER_CYCLES < 2) begin
        $display("froce_eth_pcs_ber_monitor: TIMER_CYCLES must be >= 2");
        $finish;
    end
end

// fatal at elaboration in every tool (Yosys ignores initial blocks)
generate
    if (TIMER_CYCLES < 2) begin : g_bad_parameter
        froce_eth_pcs_ber_monitor_bad_parameter u_bad_parameter ();
    end
endgenerate

localparam [TW-1:0] TIMER_LAST = TIMER_CYCLES[TW-1:0] - 1'b1;

reg [TW-1:0] timer_reg = {TW{1'b0}}, timer_next;
reg [3:0] ber_cnt_reg = 4'd0, ber_cnt_next;          // invalid headers in this window, 0..15
reg hold_reg = 1'b0, hold_next;                      // HI_BER: window set hi_ber, stop counting
reg hi_ber_reg = 1'b0, hi_ber_next;

wire timer_done = timer_reg == TIMER_LAST;

assign hi_ber = hi_ber_reg;

always @* begin
    timer_next = timer_done ? {TW{1'b0}} : timer_reg + 1'b1;
    ber_cnt_next = ber_cnt_reg;
    hold_next = hold_reg;
    hi_ber_next = hi_ber_reg;

    if (hold_reg) begin
        // HI_BER: wait for the window to end, then count again (hi_ber stays)
        if (timer_done) begin
            hold_next = 1'b0;
            ber_cnt_next = 4'd0;
        end
    end else if (!sh_valid && ber_cnt_reg == 4'd15) begin
        // BER_BAD_SH with ber_cnt = 16 -> HI_BER; if the window ends in
        // this same cycle, HI_BER leaves at once (START_TIMER)
        hi_ber_next = 1'b1;
        hold_next = !timer_done;
        if (timer_done)
            ber_cnt_next = 4'd0;
    end else if (timer_done) begin
        // GOOD_BER, then START_TIMER
        hi_ber_next = 1'b0;
        ber_cnt_next = 4'd0;
    end else if (!sh_valid) begin
        ber_cnt_next = ber_cnt_reg + 1'b1;
    end

    if (!block_lock) begin
        timer_next = {TW{1'b0}};
        ber_cnt_next = 4'd0;
        hold_next = 1'b0;
        hi_ber_next = 1'b0;
    end
end

always @(posedge clk) begin
    timer_reg <= timer_next;
    ber_cnt_reg <= ber_cnt_next;
    hold_reg <= hold_next;
    hi_ber_reg <= hi_ber_next;

    if (rst) begin
        timer_reg <= {TW{1'b0}};
        ber_cnt_reg <= 4'd0;
        hold_reg <= 1'b0;
        hi_ber_reg <= 1'b0;
    end
end

endmodule

`resetall
