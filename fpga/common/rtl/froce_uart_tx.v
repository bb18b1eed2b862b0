// SPDX-License-Identifier: MIT
// UART transmitter, 8N1, bit rate BAUD from a CLK_HZ clock by a fractional (phase accumulator) divider.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * One byte per s_valid && s_ready: a start bit (0), the eight data bits LSB
 * first, one stop bit (1); txd idles high. s_ready is high only while idle,
 * so a byte is taken one cycle after the previous stop bit ends and bytes
 * follow back to back (10 bit times and one clock per byte).
 *
 * Bit timing: a phase accumulator counts down by BAUD each cycle and, when
 * it would go below zero, adds CLK_HZ and ends the bit. A bit therefore
 * lasts floor or ceil of CLK_HZ / BAUD cycles and the average rate is
 * exactly BAUD (100 MHz / 3 Mbaud: bits of 33 and 34 cycles, no drift), so
 * CLK_HZ need not be a multiple of BAUD. The accumulator restarts with
 * each byte.
 */
module froce_uart_tx #(
    parameter CLK_HZ = 100000000,       // clk frequency in Hz
    parameter BAUD = 3000000            // bit rate; CLK_HZ >= 4 * BAUD
) (
    input  wire                 clk,
    input  wire                 rst,

    /* Bytes to send */
    input  wire [7:0]           s_data,
    input  wire                 s_valid,
    output wire                 s_ready,

    /* Serial output */
    output wire                 txd
);

localparam AW = $clog2(CLK_HZ) + 1;     // accumulator bits: holds 0 .. CLK_HZ - 1
localparam [31:0] INC_C = BAUD;
localparam [31:0] WRAP_C = CLK_HZ - BAUD;
localparam [AW-1:0] INC = INC_C[AW-1:0];
localparam [AW-1:0] WRAP = WRAP_C[AW-1:0];

initial begin
    if (BAUD < 1 || CLK_HZ < 4 * BAUD) begin
        $display("froce_uart_tx: need CLK_HZ >= 4 * BAUD");
        $finish;
    end
end

generate
    if (BAUD < 1 || CLK_HZ < 4 * BAUD) begin : g_bad_parameter
        froce_uart_tx_bad_CLK_HZ_BAUD u_bad_parameter ();
    end
endgenerate

reg             busy_reg = 1'b0, busy_next;
reg [AW-1:0]    acc_reg = {AW{1'b0}}, acc_next;
reg [8:0]       shift_reg = 9'h1FF, shift_next;     // bits still to send after the current one
reg [3:0]       left_reg = 4'd0, left_next;         // bits still to send
reg             txd_reg = 1'b1, txd_next;

wire tick = acc_reg < INC;                          // the current bit ends this cycle

assign s_ready = !busy_reg;
assign txd = txd_reg;

always @* begin
    busy_next = busy_reg;
    acc_next = tick ? acc_reg + WRAP : acc_reg - INC;
    shift_next = shift_reg;
    left_next = left_reg;
    txd_next = txd_reg;

    if (!busy_reg) begin
        acc_next = WRAP;
        if (s_valid) begin
            busy_next = 1'b1;
            txd_next = 1'b0;                        // start bit
            shift_next = {1'b1, s_data};            // then data LSB first, then stop
            left_next = 4'd9;
        end
    end else if (tick) begin
        if (left_reg == 4'd0) begin
            busy_next = 1'b0;                       // stop bit done
        end else begin
            txd_next = shift_reg[0];
            shift_next = {1'b1, shift_reg[8:1]};
            left_next = left_reg - 1'b1;
        end
    end
end

always @(posedge clk) begin
    busy_reg <= busy_next;
    acc_reg <= acc_next;
    shift_reg <= shift_next;
    left_reg <= left_next;
    txd_reg <= txd_next;

    if (rst) begin
        busy_reg <= 1'b0;
        txd_reg <= 1'b1;
        left_reg <= 4'd0;
    end
end

endmodule

`resetall
