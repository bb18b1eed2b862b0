# SPDX-License-Identifier: MIT
# This core's timing, through mcycle, with froce_cpu_top's 1-cycle RAM: 2
# cycles for a sequential (ALU, LUI, AUIPC, CSR) instruction, 3 for a jump,
# a branch or a shift by 0, 4 for a load or store, 3 + n/4 + n%4 for a shift
# by n > 0 (docs/cpu.md). Microarchitectural, not
# architectural: run only where memory answers in one cycle (not on the
# random wait-state bench), and updated when the core's timing changes.
#include "test_macros.h"

RVTEST_CODE_BEGIN

        TEST_CASE(10, x14, 2, csrr x1, mcycle; csrr x2, mcycle; sub x14, x2, x1)
        TEST_CASE(11, x14, 10, csrr x1, mcycle; nop; nop; nop; nop; csrr x2, mcycle; sub x14, x2, x1)
        /* a load and a store take 4 cycles each */
        TEST_CASE(12, x14, 10, la x13, tdat; csrr x1, mcycle; lw x4, 0(x13); sw x4, 4(x13); csrr x2, mcycle; sub x14, x2, x1)
        /* mcycle written: one cycle later the next instruction reads it */
        TEST_CASE(13, x14, 0x101, li x1, 0x100; csrw mcycle, x1; csrr x14, mcycle)
        /* carry into mcycleh */
test_14: li TESTNUM, 14
        li x1, -16
        li x2, 7
        csrw mcycle, x1
        csrw mcycleh, x2
        .rept 10
        nop
        .endr
        csrr x13, mcycleh
        csrr x4, mcycle
        li x7, 8
        bne x13, x7, fail
        li x7, 9                        /* -16, +1 (as in test 13), +2 for each of the 12 instructions since */
        bne x4, x7, fail
        /* mcycleh written alone */
        TEST_CASE(15, x14, 0x1234, li x1, 0x1234; csrw mcycleh, x1; csrr x14, mcycleh)
        /* shifts: 3 cycles by 0, else 3 + n/4 + n%4 (plus 2 for the csrr) */
        TEST_CASE(20, x14, 2, csrr x1, mcycle; csrr x2, mcycle; sub x14, x2, x1)
        TEST_CASE(21, x14, 5, li x5, 1; csrr x1, mcycle; slli x5, x5, 0; csrr x2, mcycle; sub x14, x2, x1)
        TEST_CASE(22, x14, 6, li x5, 1; csrr x1, mcycle; slli x5, x5, 1; csrr x2, mcycle; sub x14, x2, x1)
        TEST_CASE(23, x14, 6, li x5, 1; csrr x1, mcycle; slli x5, x5, 4; csrr x2, mcycle; sub x14, x2, x1)
        TEST_CASE(24, x14, 15, li x5, 1; csrr x1, mcycle; srai x5, x5, 31; csrr x2, mcycle; sub x14, x2, x1)
        TEST_CASE(25, x14, 8, li x5, 9; li x6, 1; csrr x1, mcycle; sra x6, x6, x5; csrr x2, mcycle; sub x14, x2, x1)
        /* a jump and a taken branch: 3 cycles each; a branch not taken too */
        TEST_CASE(26, x14, 8, csrr x1, mcycle; j 1f; 1: beqz x0, 2f; 2: csrr x2, mcycle; sub x14, x2, x1)
        TEST_CASE(27, x14, 5, csrr x1, mcycle; bnez x0, 1f; 1: csrr x2, mcycle; sub x14, x2, x1)
        /* a load's fetch follows its response at once: lw, then addi reading it */
        TEST_CASE(28, x14, 8, la x13, tdat; csrr x1, mcycle; lw x4, 0(x13); addi x4, x4, 1; csrr x2, mcycle; sub x14, x2, x1)

RVTEST_CODE_END

RVTEST_DATA_BEGIN
tdat:   .word 1, 2
RVTEST_DATA_END
