# SPDX-License-Identifier: MIT
# Register-immediate ALU instructions: ADDI SLTI SLTIU XORI ORI ANDI SLLI
# SRLI SRAI. Immediates at both ends of the 12-bit range (sign extended, also
# for SLTIU), shifts by 0, 1, 31, rd == rs1, x0 as source and as rd.
# Expected values follow the unprivileged spec's definitions (computed with
# Python integer arithmetic when the file was written).
#include "test_macros.h"

RVTEST_CODE_BEGIN

        /* ADDI */
        TEST_IMM_OP(1, addi, 0x00000000, 0x00000000, 0)
        TEST_IMM_OP(2, addi, 0x00000002, 0x00000001, 1)
        TEST_IMM_OP(3, addi, 0x0000000a, 0x00000003, 7)
        TEST_IMM_OP(4, addi, 0xfffff800, 0x00000000, -2048)
        TEST_IMM_OP(5, addi, 0x80000000, 0x80000000, 0)
        TEST_IMM_OP(6, addi, 0x7ffff800, 0x80000000, -2048)
        TEST_IMM_OP(7, addi, 0x800007fe, 0x7fffffff, 2047)
        TEST_IMM_OP(8, addi, 0x80000000, 0x7fffffff, 1)
        TEST_IMM_OP(9, addi, 0x00000000, 0xffffffff, 1)
        TEST_IMM_OP(10, addi, 0x7fffffff, 0x80000000, -1)
        TEST_IMM_OP(11, addi, 0xffffffff, 0x00000000, -1)
        TEST_IMM_SRC1_EQ_DEST(12, addi, 0x0000000a, 0x00000003, 7)
        TEST_IMM_ZEROSRC1(13, addi, 0xfffff800, -2048)
        TEST_IMM_ZERODEST(14, addi, 0x00000003, 7)

        /* SLTI */
        TEST_IMM_OP(15, slti, 0x00000000, 0x00000000, 0)
        TEST_IMM_OP(16, slti, 0x00000000, 0x00000001, 1)
        TEST_IMM_OP(17, slti, 0x00000001, 0x00000003, 7)
        TEST_IMM_OP(18, slti, 0x00000000, 0x00000007, 3)
        TEST_IMM_OP(19, slti, 0x00000000, 0x00000000, -2048)
        TEST_IMM_OP(20, slti, 0x00000001, 0x80000000, 0)
        TEST_IMM_OP(21, slti, 0x00000001, 0x80000000, 2047)
        TEST_IMM_OP(22, slti, 0x00000000, 0x7fffffff, -2048)
        TEST_IMM_OP(23, slti, 0x00000001, 0xffffffff, 0)
        TEST_IMM_OP(24, slti, 0x00000000, 0xffffffff, -1)
        TEST_IMM_OP(25, slti, 0x00000001, 0xfffffffe, -1)
        TEST_IMM_OP(26, slti, 0x00000000, 0x7fffffff, 2047)
        TEST_IMM_SRC1_EQ_DEST(27, slti, 0x00000001, 0x00000003, 7)
        TEST_IMM_ZEROSRC1(28, slti, 0x00000001, 3)
        TEST_IMM_ZERODEST(29, slti, 0x00000003, 7)

        /* SLTIU */
        TEST_IMM_OP(30, sltiu, 0x00000000, 0x00000000, 0)
        TEST_IMM_OP(31, sltiu, 0x00000000, 0x00000001, 1)
        TEST_IMM_OP(32, sltiu, 0x00000001, 0x00000003, 7)
        TEST_IMM_OP(33, sltiu, 0x00000000, 0x00000007, 3)
        TEST_IMM_OP(34, sltiu, 0x00000001, 0x00000000, -2048)
        TEST_IMM_OP(35, sltiu, 0x00000000, 0x80000000, 0)
        TEST_IMM_OP(36, sltiu, 0x00000000, 0x80000000, 2047)
        TEST_IMM_OP(37, sltiu, 0x00000001, 0x7fffffff, -2048)
        TEST_IMM_OP(38, sltiu, 0x00000000, 0xffffffff, 0)
        TEST_IMM_OP(39, sltiu, 0x00000000, 0xffffffff, -1)
        TEST_IMM_OP(40, sltiu, 0x00000001, 0xfffffffe, -1)
        TEST_IMM_OP(41, sltiu, 0x00000001, 0x00000000, 1)
        TEST_IMM_SRC1_EQ_DEST(42, sltiu, 0x00000001, 0x00000003, 7)
        TEST_IMM_ZEROSRC1(43, sltiu, 0x00000001, 3)
        TEST_IMM_ZERODEST(44, sltiu, 0x00000003, 7)

        /* XORI */
        TEST_IMM_OP(45, xori, 0xff00f00f, 0x00ff0f00, -241)
        TEST_IMM_OP(46, xori, 0x0ff00f00, 0x0ff00ff0, 240)
        TEST_IMM_OP(47, xori, 0x00ff0ff0, 0x00ff08ff, 1807)
        TEST_IMM_OP(48, xori, 0xf00ff0ff, 0xf00ff00f, 240)
        TEST_IMM_OP(49, xori, 0xedcba987, 0x12345678, -1)
        TEST_IMM_SRC1_EQ_DEST(50, xori, 0x00ff0ff0, 0x00ff08ff, 1807)
        TEST_IMM_ZEROSRC1(51, xori, 0x000000f0, 240)
        TEST_IMM_ZERODEST(52, xori, 0x00ff08ff, 1807)

        /* ORI */
        TEST_IMM_OP(53, ori, 0xffffff0f, 0xff00ff00, -241)
        TEST_IMM_OP(54, ori, 0x0ff00ff0, 0x0ff00ff0, 240)
        TEST_IMM_OP(55, ori, 0x00ff07ff, 0x00ff00ff, 1807)
        TEST_IMM_OP(56, ori, 0xf00ff0ff, 0xf00ff00f, 240)
        TEST_IMM_OP(57, ori, 0xfffffe78, 0x12345678, -2048)
        TEST_IMM_SRC1_EQ_DEST(58, ori, 0x00ff07ff, 0x00ff00ff, 1807)
        TEST_IMM_ZEROSRC1(59, ori, 0x000000f0, 240)
        TEST_IMM_ZERODEST(60, ori, 0x00ff00ff, 1807)

        /* ANDI */
        TEST_IMM_OP(61, andi, 0xff00ff00, 0xff00ff00, -241)
        TEST_IMM_OP(62, andi, 0x000000f0, 0x0ff00ff0, 240)
        TEST_IMM_OP(63, andi, 0x0000000f, 0x00ff00ff, 1807)
        TEST_IMM_OP(64, andi, 0x00000000, 0xf00ff00f, 240)
        TEST_IMM_OP(65, andi, 0x12345000, 0x12345678, -2048)
        TEST_IMM_SRC1_EQ_DEST(66, andi, 0x0000000f, 0x00ff00ff, 1807)
        TEST_IMM_ZEROSRC1(67, andi, 0x00000000, 240)
        TEST_IMM_ZERODEST(68, andi, 0x00ff00ff, 1807)

        /* SLLI */
        TEST_IMM_OP(69, slli, 0x00000001, 0x00000001, 0)
        TEST_IMM_OP(70, slli, 0x00000002, 0x00000001, 1)
        TEST_IMM_OP(71, slli, 0x00000080, 0x00000001, 7)
        TEST_IMM_OP(72, slli, 0x00004000, 0x00000001, 14)
        TEST_IMM_OP(73, slli, 0x80000000, 0x00000001, 31)
        TEST_IMM_OP(74, slli, 0x80000000, 0xffffffff, 31)
        TEST_IMM_OP(75, slli, 0x48484000, 0x21212121, 14)
        TEST_IMM_OP(76, slli, 0x80000000, 0x21212121, 31)
        TEST_IMM_OP(77, slli, 0x09090908, 0x21212121, 3)
        TEST_IMM_OP(78, slli, 0x12121210, 0x21212121, 4)
        TEST_IMM_OP(79, slli, 0x21212100, 0x21212121, 8)
        TEST_IMM_OP(80, slli, 0x09080000, 0x21212121, 19)
        TEST_IMM_SRC1_EQ_DEST(81, slli, 0x00000080, 0x00000001, 7)
        TEST_IMM_ZEROSRC1(82, slli, 0x00000000, 14)
        TEST_IMM_ZERODEST(83, slli, 0x00000001, 7)

        /* SRLI */
        TEST_IMM_OP(84, srli, 0x80000000, 0x80000000, 0)
        TEST_IMM_OP(85, srli, 0x40000000, 0x80000000, 1)
        TEST_IMM_OP(86, srli, 0x01000000, 0x80000000, 7)
        TEST_IMM_OP(87, srli, 0x00000001, 0x80000000, 31)
        TEST_IMM_OP(88, srli, 0x00000001, 0xffffffff, 31)
        TEST_IMM_OP(89, srli, 0x00008484, 0x21212121, 14)
        TEST_IMM_OP(90, srli, 0x00000001, 0x81818181, 31)
        TEST_IMM_OP(91, srli, 0x08181818, 0x81818181, 4)
        TEST_IMM_OP(92, srli, 0x040c0c0c, 0x81818181, 5)
        TEST_IMM_OP(93, srli, 0x00008181, 0x81818181, 16)
        TEST_IMM_OP(94, srli, 0x00000010, 0x81818181, 27)
        TEST_IMM_SRC1_EQ_DEST(95, srli, 0x01000000, 0x80000000, 7)
        TEST_IMM_ZEROSRC1(96, srli, 0x00000000, 31)
        TEST_IMM_ZERODEST(97, srli, 0x80000000, 7)

        /* SRAI */
        TEST_IMM_OP(98, srai, 0x80000000, 0x80000000, 0)
        TEST_IMM_OP(99, srai, 0xc0000000, 0x80000000, 1)
        TEST_IMM_OP(100, srai, 0xff000000, 0x80000000, 7)
        TEST_IMM_OP(101, srai, 0xffffffff, 0x80000000, 31)
        TEST_IMM_OP(102, srai, 0x00000000, 0x7fffffff, 31)
        TEST_IMM_OP(103, srai, 0x3fffffff, 0x7fffffff, 1)
        TEST_IMM_OP(104, srai, 0xffffffff, 0x81818181, 31)
        TEST_IMM_OP(105, srai, 0xf8181818, 0x81818181, 4)
        TEST_IMM_OP(106, srai, 0xfe060606, 0x81818181, 6)
        TEST_IMM_OP(107, srai, 0xfffff818, 0x81818181, 20)
        TEST_IMM_OP(108, srai, 0xfffffff8, 0x81818181, 28)
        TEST_IMM_SRC1_EQ_DEST(109, srai, 0xff000000, 0x80000000, 7)
        TEST_IMM_ZEROSRC1(110, srai, 0x00000000, 31)
        TEST_IMM_ZERODEST(111, srai, 0x80000000, 7)

RVTEST_CODE_END

RVTEST_DATA_BEGIN
RVTEST_DATA_END
