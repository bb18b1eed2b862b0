# SPDX-License-Identifier: MIT
# LUI and AUIPC. AUIPC results are compared with absolute addresses built by
# LUI + ADDI (%hi/%lo), not with `la`, which itself expands to AUIPC.
#include "test_macros.h"

#define ABS(reg, sym) lui reg, %hi(sym); addi reg, reg, %lo(sym)

RVTEST_CODE_BEGIN

        TEST_CASE(1, x1, 0x00000000, lui x1, 0x00000)
        TEST_CASE(2, x1, 0xfffff000, lui x1, 0xfffff)
        TEST_CASE(3, x1, 0x7ffff000, lui x1, 0x7ffff)
        TEST_CASE(4, x1, 0x80000000, lui x1, 0x80000)
        TEST_CASE(5, x1, 0x12345000, li x1, -1; lui x1, 0x12345)   /* low 12 bits cleared */
        TEST_CASE(6, x0, 0, lui x0, 0x12345)                       /* x0 stays 0 */
        /* LUI + ADDI with a negative low part: the usual li expansion */
        TEST_CASE(7, x1, 0x12345678, lui x1, 0x12345; addi x1, x1, 0x678)
        TEST_CASE(8, x1, 0xdeadbeef, lui x1, 0xdeadc; addi x1, x1, -0x111)

test_9: li TESTNUM, 9
1:      auipc x1, 0
        ABS(x2, 1b)
        bne x1, x2, fail

test_10: li TESTNUM, 10
1:      auipc x1, 1                     /* pc + 0x1000 */
        ABS(x2, 1b)
        li x13, 0x1000
        add x2, x2, x13
        bne x1, x2, fail

test_11: li TESTNUM, 11
1:      auipc x1, 0xfffff               /* pc - 0x1000 */
        ABS(x2, 1b)
        li x13, 0x1000
        sub x2, x2, x13
        bne x1, x2, fail

test_12: li TESTNUM, 12
1:      auipc x1, 0x80000               /* pc + 0x80000000 (wraps) */
        ABS(x2, 1b)
        li x13, 0x80000000
        add x2, x2, x13
        bne x1, x2, fail

test_13: li TESTNUM, 13
        auipc x0, 0x12345               /* x0 stays 0 */
        bnez x0, fail

        /* auipc + jalr: the pc-relative call sequence */
test_14: li TESTNUM, 14
1:      auipc x5, %pcrel_hi(2f)
        jalr x0, %pcrel_lo(1b)(x5)
        j fail
2:

RVTEST_CODE_END

RVTEST_DATA_BEGIN
RVTEST_DATA_END
