# SPDX-License-Identifier: MIT
# Stores SB SH SW: every byte offset for bytes, both halfword offsets, only
# the addressed bytes change (the word is read back whole and its
# neighbours are checked), only the low bits of rs2 are stored, negative
# offsets, an odd base with an odd offset, x0 as the data register,
# read-after-write with other sizes.
#include "test_macros.h"

RVTEST_CODE_BEGIN

        /* the word at tdat starts as aabbccdd each time */
        TEST_ST_WORD(1, sb, 0xffffff12, 0, tdat, 0xaabbccdd, 0xaabbcc12)
        TEST_ST_WORD(2, sb, 0xffffff12, 1, tdat, 0xaabbccdd, 0xaabb12dd)
        TEST_ST_WORD(3, sb, 0xffffff12, 2, tdat, 0xaabbccdd, 0xaa12ccdd)
        TEST_ST_WORD(4, sb, 0xffffff12, 3, tdat, 0xaabbccdd, 0x12bbccdd)
        TEST_ST_WORD(5, sh, 0xffff1234, 0, tdat, 0xaabbccdd, 0xaabb1234)
        TEST_ST_WORD(6, sh, 0xffff1234, 2, tdat, 0xaabbccdd, 0x1234ccdd)
        TEST_ST_WORD(7, sw, 0x12345678, 0, tdat, 0xaabbccdd, 0x12345678)
        TEST_ST_WORD(8, sb, 0x00000080, 1, tdat, 0x00000000, 0x00008000)
        TEST_ST_WORD(9, sh, 0x00008001, 2, tdat, 0xffffffff, 0x8001ffff)

        /* neighbours untouched by all of the above */
        TEST_CASE(10, x14, 0x5a5a5a5a, la x1, tdat; lw x14, -4(x1))
        TEST_CASE(11, x14, 0xa5a5a5a5, la x1, tdat; lw x14, 4(x1))

        /* negative offsets */
        TEST_CASE(12, x14, 0x0000beef, la x1, tdat + 8; li x2, 0xbeef; sh x2, -8(x1); lhu x14, -8(x1))
        TEST_CASE(13, x14, 0xffffffef, la x1, tdat + 2047; li x2, 0xef; sb x2, -2047(x1); lb x14, -2047(x1))

        /* x0 as data */
        TEST_CASE(14, x14, 0x00000000, la x1, tdat; li x2, -1; sw x2, 0(x1); sw x0, 0(x1); lw x14, 0(x1))
        TEST_CASE(15, x14, 0xffff00ff, la x1, tdat; li x2, -1; sw x2, 0(x1); sb x0, 1(x1); lw x14, 0(x1))

        /* read back with other sizes: bytes in little-endian order */
        TEST_CASE(16, x14, 0x00000004, la x1, tdat; li x2, 0x01020304; sw x2, 0(x1); lbu x14, 0(x1))
        TEST_CASE(17, x14, 0x00000001, la x1, tdat; li x2, 0x01020304; sw x2, 0(x1); lbu x14, 3(x1))
        TEST_CASE(18, x14, 0x00000102, la x1, tdat; li x2, 0x01020304; sw x2, 0(x1); lhu x14, 2(x1))

        /* an odd base and an odd offset: the address's low bits carry */
        TEST_CASE(20, x14, 0xaa12ccdd, la x1, tdat + 1; li x2, 0xaabbccdd; sw x2, -1(x1); li x2, 0x12; sb x2, 1(x1); lw x14, -1(x1))
        TEST_CASE(21, x14, 0x1234ccdd, la x1, tdat + 1; li x2, 0xaabbccdd; sw x2, -1(x1); li x2, 0x1234; sh x2, 1(x1); lw x14, -1(x1))
        TEST_CASE(22, x14, 0x000000bb, la x1, tdat + 1; li x2, 0xaabbccdd; sw x2, -1(x1); lbu x14, 1(x1))
        TEST_CASE(23, x14, 0xffffaabb, la x1, tdat + 1; li x2, 0xaabbccdd; sw x2, -1(x1); lh x14, 1(x1))

        /* stores in a loop, then a checksum of what landed */
test_19: li TESTNUM, 19
        la x1, tbuf
        li x2, 0
        li x13, 16
1:      add x4, x1, x2
        sb x2, 0(x4)
        addi x2, x2, 1
        bne x2, x13, 1b
        lw x5, 0(x1)
        li x7, 0x03020100
        bne x5, x7, fail
        lw x5, 12(x1)
        li x7, 0x0f0e0d0c
        bne x5, x7, fail

RVTEST_CODE_END

RVTEST_DATA_BEGIN
        .word 0x5a5a5a5a
tdat:   .word 0
        .word 0xa5a5a5a5
        .space 2048
tbuf:   .space 16
RVTEST_DATA_END
