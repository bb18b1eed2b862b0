# SPDX-License-Identifier: MIT
# Interrupts: the external (mip.MEIP, cause 0x8000000b) and timer (mip.MTIP,
# cause 0x80000007) lines from froce-cpu-sim's MMIO devices. mip follows the
# lines; nothing is taken unless mstatus.MIE and the mie bit are both set; a
# pending interrupt is taken as soon as it is enabled; mepc is the first
# instruction not executed, which runs once after MRET; mstatus MIE/MPIE;
# external before timer; an interrupt in the middle of a loop of loads from a
# slow device leaves the loop's results intact.
#
# The handler (irq_handler) logs mcause at s5 (s5 += 4), keeps mepc in s9 and
# mstatus in s6, clears the line it took and returns. It uses t5 and t6.
#include "test_macros.h"

#define LOG_COUNT(reg) la reg, irq_log; sub reg, s5, reg; srli reg, reg, 2

RVTEST_CODE_BEGIN

        la s5, irq_log
        la x1, irq_handler
        csrw mtvec, x1
        li s0, SIM_IRQ_EXT
        li s1, SIM_IRQ_TIMER
        li s2, 1

        /* ---- mip follows the lines whatever the enables */
        TEST_CASE(1, x14, 0x800, sw s2, 0(s0); csrr x14, mip)
        TEST_CASE(2, x14, 0x880, sw s2, 0(s1); csrr x14, mip)
        TEST_CASE(3, x14, 0x080, sw x0, 0(s0); csrr x14, mip)
        TEST_CASE(4, x14, 0x000, sw x0, 0(s1); csrr x14, mip)

        /* ---- masked: mstatus.MIE = 1 but mie = 0 */
        TEST_CASE(5, x14, 0, csrsi mstatus, MSTATUS_MIE; sw s2, 0(s0); sw s2, 0(s1); nop; nop; LOG_COUNT(x14))
        TEST_CASE(6, x14, 0, sw x0, 0(s0); sw x0, 0(s1); csrci mstatus, MSTATUS_MIE; LOG_COUNT(x14))
        /* ---- masked: mie.MEIE = 1 but mstatus.MIE = 0 */
        li x1, MIE_MEIE
        csrw mie, x1
        TEST_CASE(7, x14, 0, sw s2, 0(s0); nop; nop; nop; LOG_COUNT(x14))

        /* ---- the pending interrupt is taken right after MIE is set */
test_8: li TESTNUM, 8
        csrsi mstatus, MSTATUS_MIE
l8:     li x15, 8                       /* interrupted: mepc = l8, then runs once */
        LOG_COUNT(x14)
        li x7, 1; bne x14, x7, fail
        lw x2, irq_log
        li x7, CAUSE_IRQ_M_EXTERNAL; bne x2, x7, fail
        la x7, l8; bne s9, x7, fail
        li x7, MSTATUS_MPIE | MSTATUS_MPP; bne s6, x7, fail /* in the handler: MIE 0, MPIE 1 */
        li x7, 8; bne x15, x7, fail
        TEST_CASE(9, x14, MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPP, csrr x14, mstatus)
        TEST_CASE(10, x14, 0, csrr x14, mip)                /* the handler cleared the line */

        /* ---- enabled: raised by a store, taken before the next instruction */
test_11: li TESTNUM, 11
        li x15, 0
        sw s2, 0(s0)
l11:    li x15, 11
        LOG_COUNT(x14)
        li x7, 2; bne x14, x7, fail
        la x7, l11; bne s9, x7, fail
        li x7, 11; bne x15, x7, fail

        /* ---- timer interrupt */
test_12: li TESTNUM, 12
        li x1, MIE_MTIE
        csrw mie, x1
        sw s2, 0(s1)
l12:    nop
        LOG_COUNT(x14)
        li x7, 3; bne x14, x7, fail
        lw x2, irq_log + 8
        li x7, CAUSE_IRQ_M_TIMER; bne x2, x7, fail
        la x7, l12; bne s9, x7, fail

        /* ---- both pending: external first, then timer */
test_13: li TESTNUM, 13
        csrci mstatus, MSTATUS_MIE
        li x1, MIE_MEIE | MIE_MTIE
        csrw mie, x1
        sw s2, 0(s1)
        sw s2, 0(s0)
        nop
        csrsi mstatus, MSTATUS_MIE
        nop
        nop
        LOG_COUNT(x14)
        li x7, 5; bne x14, x7, fail
        lw x2, irq_log + 12
        li x7, CAUSE_IRQ_M_EXTERNAL; bne x2, x7, fail
        lw x2, irq_log + 16
        li x7, CAUSE_IRQ_M_TIMER; bne x2, x7, fail

        /* ---- WFI with an interrupt pending but MIE = 0: a no-op */
test_14: li TESTNUM, 14
        csrci mstatus, MSTATUS_MIE
        sw s2, 0(s0)
        wfi
        csrr x14, mip
        li x7, 0x800; bne x14, x7, fail
        sw x0, 0(s0)
        LOG_COUNT(x14)
        li x7, 5; bne x14, x7, fail

        /* ---- an interrupt arriving during a loop of MMIO loads and ALU work */
test_15: li TESTNUM, 15
        li x1, SIM_SCRATCH
        li x2, 3
        sw x2, 0(x1)
        li x1, MIE_MEIE
        csrw mie, x1
        csrsi mstatus, MSTATUS_MIE
        li x2, SIM_IRQ_EXT_AFTER
        li x1, 150
        sw x1, 0(x2)                    /* the line rises 150 cycles from now */
        li a0, 0                        /* iterations */
        li a2, 0                        /* sum of loaded values */
        li a3, 50
        li x1, SIM_SCRATCH
l15_loop:
        lw a1, 0(x1)
        add a2, a2, a1
        addi a0, a0, 1
        bne a0, a3, l15_loop
l15_end:
        LOG_COUNT(x14)
        li x7, 6; bne x14, x7, fail
        lw x2, irq_log + 20
        li x7, CAUSE_IRQ_M_EXTERNAL; bne x2, x7, fail
        la x7, l15_loop; bltu s9, x7, fail  /* taken inside the loop */
        la x7, l15_end; bgeu s9, x7, fail
        li x7, 50; bne a0, x7, fail
        li x7, 150; bne a2, x7, fail
        csrw mie, x0
        csrci mstatus, MSTATUS_MIE

        j tests_done

        .align 2
irq_handler:
        csrr t6, mcause
        bgez t6, fail                   /* no exception expected in this file */
        sw t6, 0(s5)
        addi s5, s5, 4
        csrr s9, mepc
        csrr s6, mstatus
        li t5, CAUSE_IRQ_M_EXTERNAL
        bne t6, t5, 1f
        sw x0, 0(s0)                    /* clear the external line */
        mret
1:      li t5, CAUSE_IRQ_M_TIMER
        bne t6, t5, fail
        sw x0, 0(s1)                    /* clear the timer line */
        mret
tests_done:

RVTEST_CODE_END

RVTEST_DATA_BEGIN
irq_log: .space 64
RVTEST_DATA_END
