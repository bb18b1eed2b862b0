# SPDX-License-Identifier: MIT
# Bad input: code at 0x80000000 and a data section linked 64 KiB higher
# (run.sh links .far at 0x80010000), outside the simulator's 64 KiB RAM:
# froce-cpu-sim must refuse it, exit 2.
        .section .text.init
        .globl _start
_start:
        j _start
        .section .far, "aw"
        .globl tohost
tohost: .word 0
