# SPDX-License-Identifier: MIT
# FENCE, FENCE.TSO, FENCE.I and WFI execute as no-ops (registers and memory
# unchanged, execution continues), including FENCE with non-zero rd/rs1
# fields, which the spec says to ignore; NOP.
#include "test_macros.h"

RVTEST_CODE_BEGIN

        TEST_CASE(1, x14, 7, li x14, 7; fence)
        TEST_CASE(2, x14, 8, li x14, 8; fence rw, rw)
        TEST_CASE(3, x14, 9, li x14, 9; fence i, o)
        TEST_CASE(4, x14, 10, li x14, 10; fence.tso)
        TEST_CASE(5, x14, 11, li x14, 11; .word 0x0000100f)     /* fence.i (Zifencei, not in -march) */
        /* FENCE with rd = x14 and rs1 = x14 (reserved fields, ignored) */
        TEST_CASE(6, x14, 12, li x14, 12; .word 0x0ff7070f)
        /* WFI with no interrupt enabled or pending: continues */
        TEST_CASE(7, x14, 13, li x14, 13; wfi)
        TEST_CASE(8, x14, 14, li x14, 14; nop)

        /* a store then FENCE.I then executing the stored instruction */
test_9: li TESTNUM, 9
        la x1, patch
        li x2, 0x02a00713               /* addi x14, x0, 42 */
        sw x2, 0(x1)
        .word 0x0000100f                /* fence.i */
        li x14, 0
patch:  nop
        li x7, 42
        bne x14, x7, fail

RVTEST_CODE_END

RVTEST_DATA_BEGIN
RVTEST_DATA_END
