# SPDX-License-Identifier: MIT
# Loads LB LH LW LBU LHU: every byte offset for bytes, both halfword offsets,
# sign and zero extension of values with the top bit set and clear, positive
# and negative offsets, rd == rs1, rd = x0.
#include "test_macros.h"

RVTEST_CODE_BEGIN

        /* LB at each offset of tdat (bytes 00 80 7f ff) and tdat+4 (01 fe 34 92) */
        TEST_LD_OP(1, lb, 0x00000000, 0, tdat)
        TEST_LD_OP(2, lb, 0xffffff80, 1, tdat)
        TEST_LD_OP(3, lb, 0x0000007f, 2, tdat)
        TEST_LD_OP(4, lb, 0xffffffff, 3, tdat)
        TEST_LD_OP(5, lb, 0x00000001, 4, tdat)
        TEST_LD_OP(6, lb, 0xfffffffe, 5, tdat)
        TEST_LD_OP(7, lb, 0x00000034, 6, tdat)
        TEST_LD_OP(8, lb, 0xffffff92, 7, tdat)
        /* LBU */
        TEST_LD_OP(9,  lbu, 0x00000000, 0, tdat)
        TEST_LD_OP(10, lbu, 0x00000080, 1, tdat)
        TEST_LD_OP(11, lbu, 0x0000007f, 2, tdat)
        TEST_LD_OP(12, lbu, 0x000000ff, 3, tdat)
        TEST_LD_OP(13, lbu, 0x00000001, 4, tdat)
        TEST_LD_OP(14, lbu, 0x000000fe, 5, tdat)
        TEST_LD_OP(15, lbu, 0x00000034, 6, tdat)
        TEST_LD_OP(16, lbu, 0x00000092, 7, tdat)
        /* LH at offsets 0 and 2 (halfwords 8000 ff7f fe01 9234 7ff0 0123) */
        TEST_LD_OP(17, lh, 0xffff8000, 0, tdat)
        TEST_LD_OP(18, lh, 0xffffff7f, 2, tdat)
        TEST_LD_OP(19, lh, 0xfffffe01, 4, tdat)
        TEST_LD_OP(20, lh, 0xffff9234, 6, tdat)
        TEST_LD_OP(21, lh, 0x00007ff0, 8, tdat)
        TEST_LD_OP(22, lh, 0x00000123, 10, tdat)
        /* LHU */
        TEST_LD_OP(23, lhu, 0x00008000, 0, tdat)
        TEST_LD_OP(24, lhu, 0x0000ff7f, 2, tdat)
        TEST_LD_OP(25, lhu, 0x0000fe01, 4, tdat)
        TEST_LD_OP(26, lhu, 0x00009234, 6, tdat)
        TEST_LD_OP(27, lhu, 0x00007ff0, 8, tdat)
        TEST_LD_OP(28, lhu, 0x00000123, 10, tdat)
        /* LW */
        TEST_LD_OP(29, lw, 0xff7f8000, 0, tdat)
        TEST_LD_OP(30, lw, 0x9234fe01, 4, tdat)
        TEST_LD_OP(31, lw, 0x01237ff0, 8, tdat)
        TEST_LD_OP(32, lw, 0x00000000, 12, tdat)
        /* negative offsets from a base past the data */
        TEST_LD_OP(33, lw, 0xff7f8000, -12, tdat + 12)
        TEST_LD_OP(34, lh, 0xffff9234, -6, tdat + 12)
        TEST_LD_OP(35, lbu, 0x000000ff, -9, tdat + 12)
        TEST_LD_OP(36, lb, 0xffffff80, -2047, tdat + 2048)
        /* rd == rs1 */
        TEST_CASE(37, x1, 0x9234fe01, la x1, tdat + 4; lw x1, 0(x1))
        /* rd = x0 */
        TEST_CASE(38, x0, 0, la x1, tdat; lw x0, 0(x1))
        /* a load result used at once by the next instruction */
        TEST_CASE(39, x13, 0xff7f8001, la x1, tdat; lw x2, 0(x1); addi x13, x2, 1)
        /* base x0 (address 0 + offset is unmapped, so use a loaded pointer instead) */
        TEST_CASE(40, x14, 0x01237ff0, la x1, tptr; lw x2, 0(x1); lw x14, 8(x2))

RVTEST_CODE_END

RVTEST_DATA_BEGIN
tdat:   .byte 0x00, 0x80, 0x7f, 0xff
        .byte 0x01, 0xfe, 0x34, 0x92
        .half 0x7ff0, 0x0123
        .word 0
        .space 2048
tptr:   .word tdat
RVTEST_DATA_END
