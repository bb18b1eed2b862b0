# SPDX-License-Identifier: MIT
# mcycle/minstret and their high halves, the cycle/time/instret shadows:
# counting, writes (the written value is what the next instruction reads),
# carries into the high half, traps not retiring.
#
# Only architectural results here (they hold with any memory timing);
# timing.S checks this core's exact cycle counts.
#include "test_macros.h"

RVTEST_CODE_BEGIN

        /* ---- minstret counts one per instruction */
        TEST_CASE(1, x14, 1, csrr x1, minstret; csrr x2, minstret; sub x14, x2, x1)
        TEST_CASE(2, x14, 6, csrr x1, minstret; nop; nop; addi x0, x0, 1; nop; nop; csrr x2, minstret; sub x14, x2, x1)
        /* a taken branch and a load retire once each */
        TEST_CASE(3, x14, 3, la x13, tdat; csrr x1, minstret; j 1f; 1: lw x4, 0(x13); csrr x2, minstret; sub x14, x2, x1)
        /* writes: the next instruction reads the written value */
        TEST_CASE(4, x14, 1000, li x1, 1000; csrw minstret, x1; csrr x14, minstret)
        TEST_CASE(5, x14, 2001, li x1, 2000; csrw minstret, x1; csrr x2, minstret; csrr x14, minstret)
        /* carry into minstreth; minstreth writable */
test_6: li TESTNUM, 6
        li x1, -3
        li x2, 9
        csrw minstret, x1               /* next reads ffff_fffd */
        csrw minstreth, x2              /* retires: low ffff_fffe, high 9 */
        nop                             /* ffff_ffff */
        nop                             /* 0000_0000, carry: high 10 */
        nop
        nop
        nop
        csrr x13, minstreth
        csrr x4, minstret
        li x7, 10
        bne x13, x7, fail
        li x7, 4
        bne x4, x7, fail
        /* instret/instreth are read-only shadows of minstret/minstreth */
        TEST_CASE(7, x14, 1, csrr x1, minstret; csrr x2, instret; sub x14, x2, x1)
        TEST_CASE(8, x14, 0, csrr x1, minstreth; csrr x2, instreth; sub x14, x2, x1)

        /* ---- traps do not retire: ECALL through the default handler (12 instructions) */
test_9: li TESTNUM, 9
        li s11, 1
        csrr x1, minstret
        ecall
        csrr x2, minstret
        sub x13, x2, x1
        li x7, 13                       /* csrr x1 + 12 handler instructions, not the ecall */
        bne x13, x7, fail
        li x7, CAUSE_ECALL_M
        bne s8, x7, fail

        /* ---- mcycle counts (exact figures for this core: timing.S) */
        TEST_CASE(10, x14, 1, csrr x1, mcycle; csrr x2, mcycle; sltu x14, x1, x2)
        /* at least one cycle per retired instruction */
test_11: li TESTNUM, 11
        csrr x1, mcycle
        csrr x4, minstret
        .rept 20
        nop
        .endr
        csrr x2, mcycle
        csrr x5, minstret
        sub x1, x2, x1
        sub x4, x5, x4
        bltu x1, x4, fail
        li x7, 22; bne x4, x7, fail     /* csrr x4, 20 nops, csrr x2 */
        /* written mcycle/mcycleh are read back, counting on from there */
test_12: li TESTNUM, 12
        li x1, 0x100
        csrw mcycle, x1
        csrr x2, mcycle
        bltu x2, x1, fail
        addi x1, x1, 64
        bgeu x2, x1, fail
        TEST_CASE(13, x14, 0x1234, li x1, 0x1234; csrw mcycleh, x1; csrr x14, mcycleh)
        /* carry into mcycleh */
test_14: li TESTNUM, 14
        li x1, -16
        li x2, 7
        csrw mcycle, x1
        csrw mcycleh, x2
        .rept 16
        nop
        .endr
        csrr x13, mcycleh
        li x7, 8
        bne x13, x7, fail
        /* cycle, time and their high halves shadow mcycle */
        TEST_CASE(16, x14, 1, csrr x1, mcycle; csrr x2, cycle; sltu x14, x1, x2)
        TEST_CASE(17, x14, 1, csrr x1, cycle; csrr x2, time; sltu x14, x1, x2)
        TEST_CASE(18, x14, 0, csrr x1, mcycleh; csrr x2, cycleh; sub x14, x2, x1)
        TEST_CASE(19, x14, 0, csrr x1, mcycleh; csrr x2, timeh; sub x14, x2, x1)

RVTEST_CODE_END

RVTEST_DATA_BEGIN
tdat:   .word 1, 2
RVTEST_DATA_END
