# SPDX-License-Identifier: MIT
# Conditional branches BEQ BNE BLT BGE BLTU BGEU, taken and not taken, to
# forward and backward targets (TEST_BR2_* in test_macros.h), with operands
# that separate signed from unsigned order; x0 as an operand.
#include "test_macros.h"

RVTEST_CODE_BEGIN

        /* BEQ */
        TEST_BR2_TAKEN(1, beq, 0x00000000, 0x00000000)
        TEST_BR2_TAKEN(2, beq, 0x00000001, 0x00000001)
        TEST_BR2_TAKEN(3, beq, 0xffffffff, 0xffffffff)
        TEST_BR2_TAKEN(4, beq, 0x80000000, 0x80000000)
        TEST_BR2_NOTTAKEN(5, beq, 0x00000000, 0x00000001)
        TEST_BR2_NOTTAKEN(6, beq, 0x00000001, 0x00000000)
        TEST_BR2_NOTTAKEN(7, beq, 0xffffffff, 0x00000001)
        TEST_BR2_NOTTAKEN(8, beq, 0x00000001, 0xffffffff)
        TEST_BR2_NOTTAKEN(9, beq, 0x80000000, 0x00000000)

        /* BNE */
        TEST_BR2_TAKEN(10, bne, 0x00000000, 0x00000001)
        TEST_BR2_TAKEN(11, bne, 0x00000001, 0x00000000)
        TEST_BR2_TAKEN(12, bne, 0xffffffff, 0x00000001)
        TEST_BR2_TAKEN(13, bne, 0x00000001, 0xffffffff)
        TEST_BR2_TAKEN(14, bne, 0x80000000, 0x00000000)
        TEST_BR2_NOTTAKEN(15, bne, 0x00000000, 0x00000000)
        TEST_BR2_NOTTAKEN(16, bne, 0x00000001, 0x00000001)
        TEST_BR2_NOTTAKEN(17, bne, 0xffffffff, 0xffffffff)
        TEST_BR2_NOTTAKEN(18, bne, 0x80000000, 0x80000000)

        /* BLT */
        TEST_BR2_TAKEN(19, blt, 0x00000000, 0x00000001)
        TEST_BR2_TAKEN(20, blt, 0xffffffff, 0x00000001)
        TEST_BR2_TAKEN(21, blt, 0xfffffffe, 0xffffffff)
        TEST_BR2_TAKEN(22, blt, 0x80000000, 0x7fffffff)
        TEST_BR2_TAKEN(23, blt, 0x80000000, 0x00000000)
        TEST_BR2_NOTTAKEN(24, blt, 0x00000001, 0x00000000)
        TEST_BR2_NOTTAKEN(25, blt, 0x00000001, 0xffffffff)
        TEST_BR2_NOTTAKEN(26, blt, 0xffffffff, 0xfffffffe)
        TEST_BR2_NOTTAKEN(27, blt, 0x7fffffff, 0x80000000)
        TEST_BR2_NOTTAKEN(28, blt, 0x00000005, 0x00000005)
        TEST_BR2_NOTTAKEN(29, blt, 0x00000000, 0x80000000)

        /* BGE */
        TEST_BR2_TAKEN(30, bge, 0x00000000, 0x00000000)
        TEST_BR2_TAKEN(31, bge, 0x00000001, 0x00000001)
        TEST_BR2_TAKEN(32, bge, 0xffffffff, 0xffffffff)
        TEST_BR2_TAKEN(33, bge, 0x00000001, 0x00000000)
        TEST_BR2_TAKEN(34, bge, 0x00000001, 0xffffffff)
        TEST_BR2_TAKEN(35, bge, 0xffffffff, 0xfffffffe)
        TEST_BR2_TAKEN(36, bge, 0x7fffffff, 0x80000000)
        TEST_BR2_TAKEN(37, bge, 0x00000000, 0x80000000)
        TEST_BR2_NOTTAKEN(38, bge, 0x00000000, 0x00000001)
        TEST_BR2_NOTTAKEN(39, bge, 0xffffffff, 0x00000001)
        TEST_BR2_NOTTAKEN(40, bge, 0xfffffffe, 0xffffffff)
        TEST_BR2_NOTTAKEN(41, bge, 0x80000000, 0x7fffffff)

        /* BLTU */
        TEST_BR2_TAKEN(42, bltu, 0x00000000, 0x00000001)
        TEST_BR2_TAKEN(43, bltu, 0xfffffffe, 0xffffffff)
        TEST_BR2_TAKEN(44, bltu, 0x00000000, 0xffffffff)
        TEST_BR2_TAKEN(45, bltu, 0x7fffffff, 0x80000000)
        TEST_BR2_NOTTAKEN(46, bltu, 0x00000001, 0x00000000)
        TEST_BR2_NOTTAKEN(47, bltu, 0xffffffff, 0xfffffffe)
        TEST_BR2_NOTTAKEN(48, bltu, 0xffffffff, 0x00000000)
        TEST_BR2_NOTTAKEN(49, bltu, 0x80000000, 0x7fffffff)
        TEST_BR2_NOTTAKEN(50, bltu, 0x00000005, 0x00000005)

        /* BGEU */
        TEST_BR2_TAKEN(51, bgeu, 0x00000000, 0x00000000)
        TEST_BR2_TAKEN(52, bgeu, 0x00000001, 0x00000001)
        TEST_BR2_TAKEN(53, bgeu, 0xffffffff, 0xffffffff)
        TEST_BR2_TAKEN(54, bgeu, 0x00000001, 0x00000000)
        TEST_BR2_TAKEN(55, bgeu, 0xffffffff, 0x00000000)
        TEST_BR2_TAKEN(56, bgeu, 0x80000000, 0x7fffffff)
        TEST_BR2_NOTTAKEN(57, bgeu, 0x00000000, 0x00000001)
        TEST_BR2_NOTTAKEN(58, bgeu, 0x00000000, 0xffffffff)
        TEST_BR2_NOTTAKEN(59, bgeu, 0x7fffffff, 0x80000000)
        TEST_BR2_NOTTAKEN(60, bgeu, 0xfffffffe, 0xffffffff)

test_61: li TESTNUM, 61                 /* x0 operands */
        li x1, 1
        beq x0, x0, 1f
        j fail
1:      bne x0, x0, fail
        blt x0, x1, 2f
        j fail
2:      blt x1, x0, fail
        bltu x0, x0, fail
        bgeu x0, x0, 3f
        j fail
3:
test_62: li TESTNUM, 62           /* a counted loop: the backward branch is taken 9 times */
        li x1, 0
        li x2, 10
4:      addi x1, x1, 1
        bne x1, x2, 4b
        li x7, 10
        bne x1, x7, fail

RVTEST_CODE_END

RVTEST_DATA_BEGIN
RVTEST_DATA_END
