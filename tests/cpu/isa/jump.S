# SPDX-License-Identifier: MIT
# JAL and JALR: targets forward and backward, the link value (pc + 4,
# compared with an absolute address), rd = x0, rd == rs1, JALR offsets and
# the cleared bit 0. Misaligned targets are in trap.S.
#include "test_macros.h"

#define ABS(reg, sym) lui reg, %hi(sym); addi reg, reg, %lo(sym)

RVTEST_CODE_BEGIN

test_1: li TESTNUM, 1                   /* JAL forward, link = pc + 4 */
        li x1, 0
l1:     jal x1, 1f
l1_ret: j fail
1:      ABS(x2, l1_ret)
        bne x1, x2, fail

test_2: li TESTNUM, 2                   /* JAL backward */
        j 2f
1:      j 3f
2:      jal x4, 1b
        j fail
3:      ABS(x2, 2b + 4)
        bne x4, x2, fail

test_3: li TESTNUM, 3                   /* JAL x0: no link */
        jal x0, 1f
        j fail
1:      bnez x0, fail

test_4: li TESTNUM, 4                   /* JALR, link = pc + 4 */
        ABS(x2, 1f)
l4:     jalr x1, 0(x2)
        j fail
1:      ABS(x13, l4 + 4)
        bne x1, x13, fail

test_5: li TESTNUM, 5                   /* JALR with a negative offset */
        ABS(x2, 1f + 8)
        jalr x1, -8(x2)
        j fail
1:

test_6: li TESTNUM, 6                   /* JALR with a positive offset */
        ABS(x2, 1f - 12)
        jalr x1, 12(x2)
        j fail
1:

test_7: li TESTNUM, 7                   /* bit 0 of rs1 + imm is cleared: no trap */
        ABS(x2, 1f)
        addi x2, x2, 1
        jalr x1, 0(x2)
        j fail
1:

test_8: li TESTNUM, 8                   /* odd offset, bit 0 cleared */
        ABS(x2, 1f)
        jalr x1, 1(x2)
        j fail
1:

test_9: li TESTNUM, 9                   /* rd == rs1: target from the old value */
        ABS(x2, 1f)
l9:     jalr x2, 0(x2)
        j fail
1:      ABS(x13, l9 + 4)
        bne x2, x13, fail

test_10: li TESTNUM, 10                 /* JALR x0 (a plain return) */
        ABS(x2, 1f)
        jalr x0, 0(x2)
        j fail
1:      bnez x0, fail

test_11: li TESTNUM, 11                 /* call and return */
        li a0, 5
        jal ra, double_it
        li x7, 10
        bne a0, x7, fail
        jal ra, double_it
        li x7, 20
        bne a0, x7, fail

        j tests_done
double_it:
        add a0, a0, a0
        ret
tests_done:

RVTEST_CODE_END

RVTEST_DATA_BEGIN
RVTEST_DATA_END
