# SPDX-License-Identifier: MIT
# The MMIO port of froce_cpu_top through froce-cpu-sim's devices, with wait
# states (run.sh runs this file at several --mmio-accept/--mmio-latency
# settings): word, halfword and byte stores to the scratch register change
# only their lanes; loads of every size and offset, sign and zero extended;
# the console prints a line that run.sh compares.
#include "test_macros.h"

RVTEST_CODE_BEGIN

        li s0, SIM_SCRATCH
        TEST_CASE(1, x14, 0x12345678, li x1, 0x12345678; sw x1, 0(s0); lw x14, 0(s0))
        TEST_CASE(2, x14, 0x123456ab, li x1, 0xab; sb x1, 0(s0); lw x14, 0(s0))
        TEST_CASE(3, x14, 0x1234cdab, li x1, 0xcd; sb x1, 1(s0); lw x14, 0(s0))
        TEST_CASE(4, x14, 0x12efcdab, li x1, 0xef; sb x1, 2(s0); lw x14, 0(s0))
        TEST_CASE(5, x14, 0x81efcdab, li x1, 0x81; sb x1, 3(s0); lw x14, 0(s0))
        TEST_CASE(6, x14, 0x81ef7f00, li x1, 0x7f00; sh x1, 0(s0); lw x14, 0(s0))
        TEST_CASE(7, x14, 0x80017f00, li x1, 0x8001; sh x1, 2(s0); lw x14, 0(s0))
        /* loads of each size from 80 01 7f 00 (bytes 3..0) */
        TEST_CASE(8,  x14, 0x00000000, lb x14, 0(s0))
        TEST_CASE(9,  x14, 0x0000007f, lb x14, 1(s0))
        TEST_CASE(10, x14, 0x00000001, lb x14, 2(s0))
        TEST_CASE(11, x14, 0xffffff80, lb x14, 3(s0))
        TEST_CASE(12, x14, 0x00000080, lbu x14, 3(s0))
        TEST_CASE(13, x14, 0x00007f00, lh x14, 0(s0))
        TEST_CASE(14, x14, 0xffff8001, lh x14, 2(s0))
        TEST_CASE(15, x14, 0x00008001, lhu x14, 2(s0))
        /* back-to-back MMIO accesses and a RAM access in between */
        TEST_CASE(16, x14, 0x00000006, li x1, 2; sw x1, 0(s0); la x2, tdat; lw x3, 0(x2); lw x4, 0(s0); add x14, x3, x4)
        /* the interrupt control registers read back */
        TEST_CASE(17, x14, 0, li x1, SIM_IRQ_EXT; lw x14, 0(x1))
        TEST_CASE(18, x14, 0, li x1, SIM_IRQ_TIMER; lw x14, 0(x1))

        /* console */
test_19: li TESTNUM, 19
        la x1, message
        li x2, SIM_CONSOLE
1:      lbu x4, 0(x1)
        beqz x4, 2f
        sb x4, 0(x2)
        addi x1, x1, 1
        j 1b
2:

RVTEST_CODE_END

RVTEST_DATA_BEGIN
tdat:   .word 4
message: .string "froce-cpu console: hello from mmio.S\n"
RVTEST_DATA_END
