# SPDX-License-Identifier: MIT
# Negative control: defines tohost but never writes it (an endless loop after
# some work). froce-cpu-sim must stop at --max-cycles and exit 3.
#include "test_macros.h"

RVTEST_CODE_BEGIN
        li x1, 0
1:      addi x1, x1, 1
        j 1b
RVTEST_CODE_END

RVTEST_DATA_BEGIN
RVTEST_DATA_END
