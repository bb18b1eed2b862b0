// SPDX-License-Identifier: MIT
// Valid/ready register slice (skid buffer): cuts the data, valid and ready paths at full throughput.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Everything the consumer sees (m_data, m_valid) and everything the producer
 * sees (s_ready) comes from a flip-flop, so neither side's combinational
 * logic reaches into the other's: the slice ends the timing paths of a
 * handshake in both directions. Two entries: the output register and a skid
 * register that catches the beat the producer sends in the cycle the
 * consumer stalls (s_ready could not yet know). One beat per cycle while the
 * consumer takes them; one cycle of latency.
 */
module froce_reg_slice #(
    parameter WIDTH = 8                 // bits carried per beat
) (
    input  wire                 clk,
    input  wire                 rst,

    input  wire [WIDTH-1:0]     s_data,
    input  wire                 s_valid,
    output wire                 s_ready,

    output wire [WIDTH-1:0]     m_data,
    output wire                 m_valid,
    input  wire                 m_ready
);

reg [WIDTH-1:0] out_data_reg = {WIDTH{1'b0}};
reg [WIDTH-1:0] skid_data_reg = {WIDTH{1'b0}};
reg out_valid_reg = 1'b0;
reg skid_valid_reg = 1'b0;

// the producer may send whenever the skid register is free
assign s_ready = !skid_valid_reg;
assign m_data = out_data_reg;
assign m_valid = out_valid_reg;

wire out_free = !out_valid_reg || m_ready;

always @(posedge clk) begin
    if (out_free) begin
        // the skid's beat is older than any input (s_ready is low while it is held)
        out_valid_reg <= skid_valid_reg || s_valid;
        if (skid_valid_reg)
            out_data_reg <= skid_data_reg;
        else if (s_valid)
            out_data_reg <= s_data;
        skid_valid_reg <= 1'b0;
    end else if (s_valid && !skid_valid_reg) begin
        skid_data_reg <= s_data;
        skid_valid_reg <= 1'b1;
    end

    if (rst) begin
        out_valid_reg <= 1'b0;
        skid_valid_reg <= 1'b0;
    end
end

endmodule

`resetall
