// SPDX-License-Identifier: MIT
// Icarus testbench for froce_crc32_step: standard CRC-32 check values over several beat splits, and random beats vs. a bitwise model.

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Run (DATA_WIDTH 32..512):
 *   iverilog -g2005 -I rtl/crc -P froce_crc32_step_tb.DATA_WIDTH=64 -o tb.vvp \
 *       tests/rtl/crc/froce_crc32_step_tb.v rtl/crc/froce_crc32_step.v
 *   vvp -n tb.vvp [+inject_error]
 *
 * Prints one "PASS: ..." line, or "FAIL: ..." lines, then $finish.
 * +inject_error corrupts one expected value (negative control for the runner).
 */
module froce_crc32_step_tb #(
    parameter DATA_WIDTH = 64,          // DUT data width in bits
    parameter RANDOM_ITERS = 300        // random beats, each checked at every len 0..W
) ();

// bytes per beat
localparam BYTES = DATA_WIDTH / 8;
// width of the len port
localparam LEN_WIDTH = $clog2(BYTES + 1);

reg  [31:0]            crc_in;
reg  [DATA_WIDTH-1:0]  data;
reg  [LEN_WIDTH-1:0]   len;
wire [31:0]            crc_out;

froce_crc32_step #(
    .DATA_WIDTH(DATA_WIDTH)
) dut (
    .crc_in(crc_in),
    .data(data),
    .len(len),
    .crc_out(crc_out)
);

// message under test, byte i first on the wire
reg [7:0] msg [0:255];
integer   msg_len;

integer errors;
integer checks;
integer seed;
integer inject;

// Bitwise reference: reflected CRC-32 over the first n bytes of d, no init/final xor.
function [31:0] crc_model;
    input [31:0]           r;
    input [DATA_WIDTH-1:0] d;
    input integer          n;
    integer i, k;
    reg [31:0] c;
    begin
        c = r;
        for (i = 0; i < n; i = i + 1) begin
            c = c ^ {24'd0, d[8*i +: 8]};
            for (k = 0; k < 8; k = k + 1) begin
                c = c[0] ? ((c >> 1) ^ 32'hEDB88320) : (c >> 1);
            end
        end
        crc_model = c;
    end
endfunction

// msg <= the n characters of s (Verilog strings keep the first character in the MSBs)
task load_string;
    input [8*64-1:0] s;
    input integer    n;
    integer i;
    begin
        for (i = 0; i < n; i = i + 1) begin
            msg[i] = s[8*(n-1-i) +: 8];
        end
        msg_len = n;
    end
endtask

task load_fill;
    input [7:0]   v;
    input integer n;
    integer i;
    begin
        for (i = 0; i < n; i = i + 1) begin
            msg[i] = v;
        end
        msg_len = n;
    end
endtask

// One beat through the DUT; bytes >= n are random junk that must be ignored.
task beat;
    input  [31:0]  r;
    input  integer pos;
    input  integer n;
    output [31:0]  r_out;
    integer i;
    begin
        for (i = 0; i < BYTES; i = i + 1) begin
            data[8*i +: 8] = (i < n) ? msg[pos + i] : $random(seed);
        end
        crc_in = r;
        len = n[LEN_WIDTH-1:0];
        #1;
        r_out = crc_out;
    end
endtask

// CRC-32 (init 0xFFFFFFFF, final xor) of msg, fed in beats.
//   mode 0: full beats, partial last beat
//   mode 1: one byte per beat
//   mode 2: W-1 bytes per beat
//   mode 3: random sizes 0..W (zero-length beats included)
//   mode 4: a zero-length beat before and after every full beat
task check_msg;
    input [31:0]    expected;
    input [8*16-1:0] name;
    input integer   mode;
    integer pos, n, zero;
    reg [31:0] r;
    reg [31:0] exp;
    begin
        r = 32'hFFFFFFFF;
        pos = 0;
        while (pos < msg_len) begin
            case (mode)
                1: n = 1;
                2: n = (BYTES > 1) ? BYTES - 1 : 1;
                3: n = {$random(seed)} % (BYTES + 1);
                default: n = BYTES;
            endcase
            if (n > msg_len - pos) begin
                n = msg_len - pos;
            end
            if (mode == 4) begin
                beat(r, pos, 0, r);
            end
            beat(r, pos, n, r);
            if (mode == 4) begin
                beat(r, pos + n, 0, r);
            end
            pos = pos + n;
        end
        if (msg_len == 0) begin
            zero = 0;
            beat(r, 0, zero, r);
        end
        r = r ^ 32'hFFFFFFFF;
        exp = expected;
        if (inject != 0 && mode == 2 && expected == 32'hCBF43926) begin
            exp = exp ^ 32'h00000100;
        end
        checks = checks + 1;
        if (r !== exp) begin
            errors = errors + 1;
            $display("FAIL: CRC-32(%0s) mode %0d: got %08x expected %08x", name, mode, r, exp);
        end
    end
endtask

task check_all_modes;
    input [31:0]     expected;
    input [8*16-1:0] name;
    integer mode, rep;
    begin
        for (mode = 0; mode < 5; mode = mode + 1) begin
            for (rep = 0; rep < ((mode == 3) ? 8 : 1); rep = rep + 1) begin
                check_msg(expected, name, mode);
            end
        end
    end
endtask

integer it, n, i;
reg [31:0] r0, got, exp;

initial begin
    errors = 0;
    checks = 0;
    seed = 32'h0C0FFEE0;
    inject = $test$plusargs("inject_error");

    // standard CRC-32 check values (zlib.crc32)
    load_string("123456789", 9);
    check_all_modes(32'hCBF43926, "123456789");
    load_string("a", 1);
    check_all_modes(32'hE8B7BE43, "a");
    load_string("abc", 3);
    check_all_modes(32'h352441C2, "abc");
    load_string("The quick brown fox jumps over the lazy dog", 43);
    check_all_modes(32'h414FA339, "quick brown fox");
    load_fill(8'h00, 32);
    check_all_modes(32'h190A55AD, "32 x 00");
    load_fill(8'hFF, 32);
    check_all_modes(32'hFF6CAB0B, "32 x FF");
    load_fill(8'h00, 0);
    check_all_modes(32'h00000000, "empty");

    // random crc_in / data, every len, against the bitwise model
    for (it = 0; it < RANDOM_ITERS; it = it + 1) begin
        r0 = $random(seed);
        for (i = 0; i < BYTES; i = i + 1) begin
            msg[i] = $random(seed);
        end
        for (n = 0; n <= BYTES; n = n + 1) begin
            beat(r0, 0, n, got);
            // beat() filled data[] with msg bytes below n and junk above;
            // the model only looks at the first n bytes
            exp = crc_model(r0, data, n);
            checks = checks + 1;
            if (got !== exp) begin
                errors = errors + 1;
                if (errors < 20) begin
                    $display("FAIL: random beat %0d len %0d crc_in %08x: got %08x expected %08x",
                             it, n, r0, got, exp);
                end
            end
        end
    end

    if (errors == 0 && checks > 0) begin
        $display("PASS: froce_crc32_step_tb DATA_WIDTH=%0d: %0d checks (7 check values x 5 beat splits, %0d random beats x len 0..%0d)",
                 DATA_WIDTH, checks, RANDOM_ITERS, BYTES);
    end else begin
        $display("FAIL: froce_crc32_step_tb DATA_WIDTH=%0d: %0d of %0d checks failed", DATA_WIDTH, errors, checks);
    end
    $finish;
end

endmodule

`resetall
