// SPDX-License-Identifier: MIT
// Soft-core memory: dual-port 32-bit RAM (fetch port + data port with byte enables), optionally preloaded with $readmemh.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Both ports are synchronous: an enabled access in cycle n returns its word
 * in cycle n+1 (a_rdata, b_rdata hold until the next enabled access). Port A
 * only reads; port B reads a word, or writes the bytes whose b_we bit is set
 * (b_rdata is then undefined). A read of a word in the cycle it is written
 * (by either port) returns an undefined value (see no_rw_check below).
 *
 * INIT_FILE is read with $readmemh at elaboration: one 32-bit word per line,
 * word 0 first (the word at the RAM's base address); scripts/elf2hex.py
 * makes it from an ELF. That is how a firmware image is baked into the
 * bitstream. Yosys maps the array to block RAM (ECP5: 64 KiB is 32 DP16KD).
 */
module froce_cpu_ram #(
    parameter ADDR_WIDTH = 14,          // word address bits: 2**ADDR_WIDTH words (14: 64 KiB)
    parameter INIT_FILE = ""            // $readmemh image, "" for none
) (
    input  wire                     clk,

    /* Port A: read only */
    input  wire                     a_en,
    input  wire [ADDR_WIDTH-1:0]    a_addr,     // word address
    output reg  [31:0]              a_rdata,

    /* Port B: read, or write with byte enables */
    input  wire                     b_en,
    input  wire [3:0]               b_we,       // per byte; 0 = read
    input  wire [ADDR_WIDTH-1:0]    b_addr,     // word address
    input  wire [31:0]              b_wdata,
    output reg  [31:0]              b_rdata
);

initial begin
    if (ADDR_WIDTH < 2 || ADDR_WIDTH > 20) begin
        $display("froce_cpu_ram: ADDR_WIDTH must be 2..20");
        $finish;
    end
end

/*
 * no_rw_check: Yosys may ignore what a read returns when the same word is
 * written in that cycle (by either port), so the array maps to true
 * dual-port block RAM instead of one copy per read port. Nothing relies on
 * it: froce_cpu has one access in flight at a time, so it never fetches a
 * word in the cycle it stores to it, and ignores the read data of a store.
 */
(* no_rw_check *)
reg [31:0] mem [0:(1 << ADDR_WIDTH) - 1];

initial begin
    a_rdata = 32'd0;
    b_rdata = 32'd0;
    if (INIT_FILE != "")
        $readmemh(INIT_FILE, mem);
end

always @(posedge clk) begin
    if (a_en)
        a_rdata <= mem[a_addr];
end

always @(posedge clk) begin
    if (b_en) begin
        b_rdata <= mem[b_addr];
        if (b_we[0]) mem[b_addr][7:0]   <= b_wdata[7:0];
        if (b_we[1]) mem[b_addr][15:8]  <= b_wdata[15:8];
        if (b_we[2]) mem[b_addr][23:16] <= b_wdata[23:16];
        if (b_we[3]) mem[b_addr][31:24] <= b_wdata[31:24];
    end
end

endmodule

`resetall
