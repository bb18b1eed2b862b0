# SPDX-License-Identifier: MIT
# Bad input: a valid RV32 program without a tohost symbol (froce-cpu-sim
# must refuse it, exit 2).
        .section .text.init
        .globl _start
_start:
        j _start
