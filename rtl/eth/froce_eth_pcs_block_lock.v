// SPDX-License-Identifier: MIT
// 10GBASE-R block lock (IEEE 802.3 49.2.13.2.2, Figure 49-12): finds the 66-bit block boundary by slipping the GT gearbox.

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * One sync header per cycle; sh_valid = header is 01 or 10.
 *
 * The standard's state machine, one header per cycle (sh_cnt counts the
 * headers of the current 64-header window, sh_invld_cnt the invalid ones):
 *
 *   not locked: an invalid header -> SLIP at once; 64 valid in a row -> lock
 *   locked:     a window of 64 headers with 16 invalid -> SLIP (lock lost,
 *               at the 16th); a window that ends with 1..15 invalid -> new
 *               window, lock kept; with none -> lock (re)confirmed
 *
 * Windows are consecutive, not sliding (as in the standard): 16 invalid
 * headers split across two windows do not lose lock.
 *
 * block_lock_next is block_lock including this cycle's header. The BER
 * monitor runs on it, so the header that loses lock (the 16th invalid one
 * of a window) resets the monitor instead of also counting as its 16th
 * error, which would pulse hi_ber for a cycle.
 *
 * SLIP: slip is a one-cycle pulse to the GT (RXGEARBOXSLIP), which moves the
 * 66-bit boundary by one bit some cycles later. The standard waits for
 * slip_done; here that is SLIP_WAIT cycles during which headers are ignored
 * and not counted. If slip is high in cycle t and the GT delivers its first
 * word at the new boundary in cycle t + L, SLIP_WAIT must be at least L + 1
 * (the serdes input register of froce_eth_pcs_10g_rx is the + 1), and at
 * least the GT's minimum spacing of slip requests. Shorter, a header from the
 * old boundary is judged as if from the new one: a slip too many, which can
 * step over the right boundary (another 66 slips). The bench's lane model
 * has L = 6 and fails to lock reliably with SLIP_WAIT below 7. The default,
 * 16, is a guess with margin (verilog-ethernet spaces slips 8 cycles apart
 * on UltraScale GTs); L should be measured on the GT.
 */
module froce_eth_pcs_block_lock #(
    parameter SLIP_WAIT = 16           // cycles after a slip before headers count again: GT slip latency + 1 (>= 1)
) (
    input  wire clk,
    input  wire rst,

    input  wire sh_valid,              // this cycle's sync header is 01 or 10
    output wire block_lock,            // rx_block_lock of the standard
    output wire block_lock_next,       // block_lock after this cycle's header (for the BER monitor)
    output wire slip,                  // one-cycle request: slip the block boundary by one bit
    output wire lock_lost              // one-cycle pulse: block_lock fell
);

localparam WW = $clog2(SLIP_WAIT + 2);              // holds 0..SLIP_WAIT (>= 1 bit even if SLIP_WAIT is bad)

initial begin
    if (SLIP_WAIT < 1) begin
        $display("froce_eth_pcs_block_lock: SLIP_WAIT must be >= 1");
        $finish;
    end
end

// fatal at elaboration in every tool (Yosys ignores initial blocks)
generate
    if (SLIP_WAIT < 1) begin : g_bad_parameter
        froce_eth_pcs_block_lock_bad_parameter u_bad_parameter ();
    end
endgenerate

localparam [WW-1:0] SLIP_WAIT_W = SLIP_WAIT[WW-1:0];

reg [5:0] sh_cnt_reg = 6'd0, sh_cnt_next;              // headers tested in this window, 0..63
reg [3:0] sh_invld_cnt_reg = 4'd0, sh_invld_cnt_next;  // invalid ones among them, 0..15
reg [WW-1:0] wait_reg = {WW{1'b0}}, wait_next;         // cycles left after a slip
reg lock_reg = 1'b0, lock_next;
reg slip_reg = 1'b0, slip_next;
reg lost_reg = 1'b0, lost_next;

// the counts including this cycle's header
wire [6:0] sh_cnt_inc = {1'b0, sh_cnt_reg} + 7'd1;
wire [4:0] sh_invld_inc = {1'b0, sh_invld_cnt_reg} + {4'd0, !sh_valid};

assign block_lock = lock_reg;
assign block_lock_next = lock_next;
assign slip = slip_reg;
assign lock_lost = lost_reg;

always @* begin
    sh_cnt_next = sh_cnt_reg;
    sh_invld_cnt_next = sh_invld_cnt_reg;
    wait_next = wait_reg;
    lock_next = lock_reg;
    slip_next = 1'b0;
    lost_next = 1'b0;

    if (wait_reg != {WW{1'b0}}) begin
        // SLIP state: waiting for the slip to reach us
        wait_next = wait_reg - 1'b1;
    end else if (!sh_valid && (!lock_reg || sh_invld_inc == 5'd16)) begin
        // INVALID_SH -> SLIP
        lock_next = 1'b0;
        lost_next = lock_reg;
        slip_next = 1'b1;
        wait_next = SLIP_WAIT_W;
        sh_cnt_next = 6'd0;
        sh_invld_cnt_next = 4'd0;
    end else if (sh_cnt_inc == 7'd64) begin
        // end of a window: 64_GOOD or RESET_CNT
        if (sh_invld_inc == 5'd0)
            lock_next = 1'b1;
        sh_cnt_next = 6'd0;
        sh_invld_cnt_next = 4'd0;
    end else begin
        sh_cnt_next = sh_cnt_inc[5:0];
        sh_invld_cnt_next = sh_invld_inc[3:0];
    end
end

always @(posedge clk) begin
    sh_cnt_reg <= sh_cnt_next;
    sh_invld_cnt_reg <= sh_invld_cnt_next;
    wait_reg <= wait_next;
    lock_reg <= lock_next;
    slip_reg <= slip_next;
    lost_reg <= lost_next;

    if (rst) begin
        sh_cnt_reg <= 6'd0;
        sh_invld_cnt_reg <= 4'd0;
        wait_reg <= {WW{1'b0}};
        lock_reg <= 1'b0;
        slip_reg <= 1'b0;
        lost_reg <= 1'b0;
    end
end

endmodule

`resetall
