// SPDX-License-Identifier: MIT
// UART receiver, 8N1: 2-FF synchronizer, mid-bit sampling by a fractional divider, framing errors detected and counted by the user.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * rxd is asynchronous: two flip-flops (froce_sync_bit, idle high) bring it
 * into clk. In idle a low level starts a byte; a phase accumulator (as in
 * froce_uart_tx: counts down by BAUD, adds CLK_HZ when it would go below
 * zero, so the average bit time is exactly CLK_HZ / BAUD cycles) is
 * preloaded so that its first tick falls in the middle of the start bit
 * (half a bit, less a cycle for the detection register). Each later tick is
 * one bit later:
 *
 *   tick 0      start bit: still low, else a glitch -> back to idle, no byte
 *   tick 1..8   data bits, LSB first
 *   tick 9      stop bit: high -> m_valid pulses with m_data; low ->
 *               framing_error pulses, the byte is dropped, and the receiver
 *               waits for the line to go high again (a break, or a
 *               mis-synchronised stream, yields one error, not a flood)
 *
 * After the stop-bit sample the receiver is idle at once, half a bit before
 * the earliest next start edge. With mid-bit sampling the two ends' bit
 * rates may differ by about 4 % (half a bit over 9.5 bits, less the
 * sampling granularity of one clock).
 */
module froce_uart_rx #(
    parameter CLK_HZ = 100000000,       // clk frequency in Hz
    parameter BAUD = 3000000            // bit rate; CLK_HZ >= 4 * BAUD
) (
    input  wire                 clk,
    input  wire                 rst,

    /* Serial input (asynchronous) */
    input  wire                 rxd,

    /* Received bytes: m_valid is a one-cycle pulse (no back-pressure) */
    output wire [7:0]           m_data,
    output wire                 m_valid,

    /* One-cycle pulse per byte dropped for a low stop bit */
    output wire                 framing_error
);

localparam AW = $clog2(CLK_HZ) + 1;
localparam [31:0] INC_C = BAUD;
localparam [31:0] WRAP_C = CLK_HZ - BAUD;
localparam [31:0] HALF_C = CLK_HZ / 2 - BAUD;   // first tick: middle of the start bit
localparam [AW-1:0] INC = INC_C[AW-1:0];
localparam [AW-1:0] WRAP = WRAP_C[AW-1:0];
localparam [AW-1:0] HALF = HALF_C[AW-1:0];

localparam [1:0]
    R_IDLE  = 2'd0,     // line high, waiting for a start bit
    R_BITS  = 2'd1,     // sampling start, data and stop bits
    R_BREAK = 2'd2;     // after a framing error: waiting for the line to go high

initial begin
    if (BAUD < 1 || CLK_HZ < 4 * BAUD) begin
        $display("froce_uart_rx: need CLK_HZ >= 4 * BAUD");
        $finish;
    end
end

generate
    if (BAUD < 1 || CLK_HZ < 4 * BAUD) begin : g_bad_parameter
        froce_uart_rx_bad_CLK_HZ_BAUD u_bad_parameter ();
    end
endgenerate

wire rxd_sync;

froce_sync_bit #(
    .WIDTH(1),
    .STAGES(2),
    .INIT(1)
) u_rxd_sync (
    .clk(clk),
    .d(rxd),
    .q(rxd_sync)
);

reg [1:0]       state_reg = R_IDLE, state_next;
reg [AW-1:0]    acc_reg = {AW{1'b0}}, acc_next;
reg [3:0]       bit_reg = 4'd0, bit_next;           // tick number in the byte
reg [7:0]       shift_reg = 8'd0, shift_next;
reg             valid_reg = 1'b0, valid_next;
reg             ferr_reg = 1'b0, ferr_next;

wire tick = acc_reg < INC;

assign m_data = shift_reg;
assign m_valid = valid_reg;
assign framing_error = ferr_reg;

always @* begin
    state_next = state_reg;
    acc_next = tick ? acc_reg + WRAP : acc_reg - INC;
    bit_next = bit_reg;
    shift_next = shift_reg;
    valid_next = 1'b0;
    ferr_next = 1'b0;

    case (state_reg)
        R_IDLE: begin
            acc_next = HALF;
            bit_next = 4'd0;
            if (!rxd_sync)
                state_next = R_BITS;
        end
        R_BITS: begin
            if (tick) begin
                bit_next = bit_reg + 1'b1;
                if (bit_reg == 4'd0) begin
                    if (rxd_sync)
                        state_next = R_IDLE;        // glitch, not a start bit
                end else if (bit_reg == 4'd9) begin
                    if (rxd_sync) begin
                        valid_next = 1'b1;
                        state_next = R_IDLE;
                    end else begin
                        ferr_next = 1'b1;
                        state_next = R_BREAK;
                    end
                end else begin
                    shift_next = {rxd_sync, shift_reg[7:1]};
                end
            end
        end
        R_BREAK: begin
            if (rxd_sync)
                state_next = R_IDLE;
        end
        default: state_next = R_IDLE;
    endcase
end

always @(posedge clk) begin
    state_reg <= state_next;
    acc_reg <= acc_next;
    bit_reg <= bit_next;
    shift_reg <= shift_next;
    valid_reg <= valid_next;
    ferr_reg <= ferr_next;

    if (rst) begin
        state_reg <= R_IDLE;
        valid_reg <= 1'b0;
        ferr_reg <= 1'b0;
    end
end

endmodule

`resetall
