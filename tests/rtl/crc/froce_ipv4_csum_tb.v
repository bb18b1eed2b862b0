// SPDX-License-Identifier: MIT
// Icarus testbench for froce_ipv4_csum: real rxe IPv4 headers, checksum rebuild, corrupted headers, random sums.

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Run:
 *   python3 tests/rtl/crc/ipv4_headers_from_csv.py <icrc_vectors.csv> build/tests/crc/ipv4_headers.memh
 *   iverilog -g2005 -o tb.vvp tests/rtl/crc/froce_ipv4_csum_tb.v rtl/crc/froce_ipv4_csum.v
 *   vvp -n tb.vvp +headers=build/tests/crc/ipv4_headers.memh +count=<lines in the file> [+inject_error]
 *
 * For every header of the file:
 *   - valid == 1 and sum == 16'hFFFF;
 *   - with bytes 10/11 zeroed, ~sum equals the header's own checksum field;
 *   - each of the 160 single-bit corruptions gives valid == 0.
 * Plus corner-case, near-0000/FFFF and uniform random headers: sum and valid
 * equal a behavioural ones-complement model.
 * Prints one "PASS: ..." line, or "FAIL: ..." lines, then $finish.
 */
module froce_ipv4_csum_tb #(
    parameter MAX_HEADERS = 4096,       // capacity of the header table
    parameter RANDOM_ITERS = 2000       // random headers checked against the model
) ();

reg  [159:0] header;
wire [15:0]  sum;
wire         valid;

froce_ipv4_csum dut (
    .header(header),
    .sum(sum),
    .valid(valid)
);

reg [159:0] table_hdr [0:MAX_HEADERS-1];
reg [8*256-1:0] path;

integer errors;
integer checks;
integer count;
integer inject;
integer seed;
integer n, bit_i, w;
reg [159:0] h;
reg [15:0]  csum_field;
reg [31:0]  acc;
reg [15:0]  model;
reg [15:0]  word;
integer     fold_carries;

task fail;
    input [8*48-1:0] what;
    begin
        errors = errors + 1;
        if (errors < 20) begin
            $display("FAIL: %0s: header %0d %040x sum %04x valid %b", what, n, header, sum, valid);
        end
    end
endtask

initial begin
    errors = 0;
    checks = 0;
    fold_carries = 0;
    seed = 32'h1D0C5E11;
    inject = $test$plusargs("inject_error");

    if (!$value$plusargs("headers=%s", path) || !$value$plusargs("count=%d", count) ||
        count < 1 || count > MAX_HEADERS) begin
        $display("FAIL: froce_ipv4_csum_tb: need +headers=<memh file> +count=<1..%0d>", MAX_HEADERS);
        $finish;
    end
    for (n = 0; n < MAX_HEADERS; n = n + 1) begin
        table_hdr[n] = {160{1'bx}};
    end
    $readmemh(path, table_hdr, 0, count - 1);
    for (n = 0; n < count; n = n + 1) begin
        if (^table_hdr[n] === 1'bx) begin
            $display("FAIL: froce_ipv4_csum_tb: header %0d missing or unreadable in %0s", n, path);
            count = 0;
        end
    end

    for (n = 0; n < count; n = n + 1) begin
        h = table_hdr[n];
        if (inject != 0 && n == count / 2) begin
            h[16*5 +: 8] = h[16*5 +: 8] ^ 8'h01;  // corrupt the checksum field
        end

        // received header with its checksum: must verify
        header = h;
        #1;
        checks = checks + 1;
        if (valid !== 1'b1 || sum !== 16'hFFFF) begin
            fail("real header not valid");
        end

        // builder: checksum field zero, insert ~sum (byte 10 = MSB)
        csum_field = {h[16*5 +: 8], h[16*5+8 +: 8]};
        header = h;
        header[16*5 +: 16] = 16'h0000;
        #1;
        checks = checks + 1;
        if (~sum !== csum_field) begin
            fail("rebuilt checksum differs");
        end

        // every single-bit corruption must be rejected
        for (bit_i = 0; bit_i < 160; bit_i = bit_i + 1) begin
            header = h;
            header[bit_i] = ~header[bit_i];
            #1;
            checks = checks + 1;
            if (valid !== 1'b0) begin
                fail("corrupted header accepted");
            end
        end
    end

    // random headers against a behavioural ones-complement sum. Odd
    // iterations use words close to 0x0000 or 0xFFFF so that the first
    // end-around fold carries again (a uniformly random header almost never
    // does); the first iterations are fixed corner cases.
    for (n = 0; n < RANDOM_ITERS; n = n + 1) begin
        header = {$random(seed), $random(seed), $random(seed), $random(seed), $random(seed)};
        if (n % 2 == 1) begin
            for (w = 0; w < 10; w = w + 1) begin
                word = ($random(seed) & 1) ? (16'hFFFF - ({$random(seed)} % 16)) : ({$random(seed)} % 16);
                header[16*w +: 16] = {word[7:0], word[15:8]};  // big-endian word w
            end
        end
        case (n)
            0: header = {160{1'b0}};
            1: header = {160{1'b1}};
            // 3 x FFFF + 0002 = 0x2FFFF: fold 1 gives 0x10001, fold 2 gives 0x0002
            2: header = {96'd0, 16'h0200, 48'hFFFF_FFFF_FFFF};
            // 9 x FFFF + FFF7 = 0x9FFEE: 0xFFEE + 9 = 0xFFF7, no second carry
            3: header = {16'hF7FF, {9{16'hFFFF}}};
            // FFFF + 0001 = 0x10000: fold 1 gives 0x0001
            4: header = {128'd0, 16'h0100, 16'hFFFF};
            default: ;
        endcase
        acc = 0;
        for (w = 0; w < 10; w = w + 1) begin
            acc = acc + {header[16*w +: 8], header[16*w+8 +: 8]};
        end
        while (acc[31:16] != 16'd0) begin
            acc = acc[15:0] + acc[31:16];
        end
        model = acc[15:0];
        // count the cases where the first fold carries again
        acc = 0;
        for (w = 0; w < 10; w = w + 1) begin
            acc = acc + {header[16*w +: 8], header[16*w+8 +: 8]};
        end
        if (({16'd0, acc[15:0]} + {16'd0, acc[31:16]}) > 32'hFFFF) begin
            fold_carries = fold_carries + 1;
        end
        if (n == 2 && model !== 16'h0002) begin
            $display("FAIL: froce_ipv4_csum_tb: model self-check");
            errors = errors + 1;
        end
        #1;
        checks = checks + 1;
        if (sum !== model || valid !== (model == 16'hFFFF)) begin
            fail("random header vs model");
        end
    end

    if (fold_carries < 10) begin
        $display("FAIL: froce_ipv4_csum_tb: only %0d headers exercised the second end-around fold", fold_carries);
        errors = errors + 1;
    end
    if (count == 0) begin
        $display("FAIL: froce_ipv4_csum_tb: no headers read from %0s", path);
    end else if (errors == 0) begin
        $display("PASS: froce_ipv4_csum_tb: %0d real headers (valid, rebuilt checksum, 160 bit flips each), %0d random/corner vs model (%0d with a second fold carry), %0d checks",
                 count, RANDOM_ITERS, fold_carries, checks);
    end else begin
        $display("FAIL: froce_ipv4_csum_tb: %0d of %0d checks failed", errors, checks);
    end
    $finish;
end

endmodule

`resetall
