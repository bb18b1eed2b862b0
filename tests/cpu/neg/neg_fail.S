# SPDX-License-Identifier: MIT
# Negative control: tests 1-6 pass, test 7 deliberately fails (1 + 1 is not
# 3). froce-cpu-sim must exit 1 and report test 7 (tests/cpu/run.sh).
#include "test_macros.h"

RVTEST_CODE_BEGIN
        TEST_RR_OP(1, add, 2, 1, 1)
        TEST_RR_OP(2, sub, 0, 1, 1)
        TEST_IMM_OP(3, addi, 5, 2, 3)
        TEST_IMM_OP(4, xori, 0, 7, 7)
        TEST_RR_OP(5, and, 1, 3, 5)
        TEST_RR_OP(6, or, 7, 3, 5)
        TEST_RR_OP(7, add, 3, 1, 1)
        TEST_RR_OP(8, add, 4, 2, 2)
RVTEST_CODE_END

RVTEST_DATA_BEGIN
RVTEST_DATA_END
