// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Icarus testbench: prints froce_opcode_info's outputs for all 256 opcodes,
// one line each ("OP <hex> <valid> <7 header bits> <payload> <first> <last>
// <ext_len>"); tests/gen/test_gen.py compares them with the spec. Also checks
// a few rows against froce_hw.vh names directly.

`timescale 1ns / 1ps
`default_nettype none

`include "froce_hw.vh"

module tb_opcode_info;

    reg  [7:0] opcode;
    wire       valid, has_reth, has_aeth, has_deth, has_immdt, has_ieth;
    wire       has_atomiceth, has_atomicacketh, has_payload, pos_first, pos_last;
    wire [5:0] ext_len;
    integer    i;
    integer    errors;

    froce_opcode_info dut (
        .opcode           (opcode),
        .valid            (valid),
        .has_reth         (has_reth),
        .has_aeth         (has_aeth),
        .has_deth         (has_deth),
        .has_immdt        (has_immdt),
        .has_ieth         (has_ieth),
        .has_atomiceth    (has_atomiceth),
        .has_atomicacketh (has_atomicacketh),
        .has_payload      (has_payload),
        .pos_first        (pos_first),
        .pos_last         (pos_last),
        .ext_len          (ext_len)
    );

    initial begin
        errors = 0;
        for (i = 0; i < 256; i = i + 1) begin
            opcode = i[7:0];
            #1;
            $display("OP %02x %b %b%b%b%b%b%b%b %b %b %b %0d", opcode, valid, has_reth, has_aeth,
                     has_deth, has_immdt, has_ieth, has_atomiceth, has_atomicacketh, has_payload,
                     pos_first, pos_last, ext_len);
        end
        opcode = `FROCE_OP_RC_ATOMIC_ACKNOWLEDGE;
        #1;
        if (ext_len != `FROCE_AETH_LEN + `FROCE_ATOMICACKETH_LEN || !has_aeth || !has_atomicacketh)
            errors = errors + 1;
        opcode = `FROCE_OP_RC_COMPARE_SWAP;
        #1;
        if (ext_len != `FROCE_ATOMICETH_LEN || has_payload || !pos_first || !pos_last)
            errors = errors + 1;
        opcode = `FROCE_OP_CNP;
        #1;
        if (!valid || ext_len != 0 || !has_payload)
            errors = errors + 1;
        $display("DONE errors=%0d", errors);
        $finish;
    end

endmodule
