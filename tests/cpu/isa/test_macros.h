/* SPDX-License-Identifier: MIT */
/*
 * froce_cpu ISA test environment, in the style of riscv-tests: every test
 * case sets TESTNUM (gp), runs code and compares a register with the value
 * the specification gives, jumping to `fail` on a mismatch. `pass` writes 1
 * to tohost; `fail` writes (TESTNUM << 1) | 1, which froce-cpu-sim reports
 * as "test N failed" (docs/cpu.md).
 *
 * Registers the environment owns: gp (x3, TESTNUM), t2 (x7, expected values),
 * t6 (trap handler scratch), s6-s11 (trap records, below). Tests use others.
 *
 * Traps: the default handler fails the current test unless s11 != 0 (a trap
 * was expected). Then it records mcause in s8, mepc in s9, mtval in s10 and
 * mstatus (as the handler sees it) in s6, clears s11 and returns with mret:
 * with s11 = 1 to mepc + 4 for an exception (skipping the trapping
 * instruction) or to mepc for an interrupt; with s11 = 2 to the address in
 * s7 (for faults whose mepc + 4 would fault again, such as fetch faults).
 * An exception through this handler retires 12 instructions (beqz .. mret).
 */
#ifndef FROCE_CPU_TEST_MACROS_H
#define FROCE_CPU_TEST_MACROS_H

#include "sim_mmio.h"

#define TESTNUM gp

/* mcause values */
#define CAUSE_MISALIGNED_FETCH  0
#define CAUSE_FETCH_ACCESS      1
#define CAUSE_ILLEGAL_INSN      2
#define CAUSE_BREAKPOINT        3
#define CAUSE_MISALIGNED_LOAD   4
#define CAUSE_LOAD_ACCESS       5
#define CAUSE_MISALIGNED_STORE  6
#define CAUSE_STORE_ACCESS      7
#define CAUSE_ECALL_M           11
#define CAUSE_IRQ_M_TIMER       0x80000007
#define CAUSE_IRQ_M_EXTERNAL    0x8000000b

/* mstatus / mie / mip bits */
#define MSTATUS_MIE   0x00000008
#define MSTATUS_MPIE  0x00000080
#define MSTATUS_MPP   0x00001800
#define MIE_MTIE      0x00000080
#define MIE_MEIE      0x00000800

/* An address no device answers (froce_cpu_top: outside RAM and MMIO) */
#define UNMAPPED_ADDR 0x40000000

/* ------------------------------------------------------------ program frame */

#define RVTEST_CODE_BEGIN                                       \
        .section .text.init;                                    \
        .align 6;                                               \
        .globl _start;                                          \
_start:                                                         \
        la t0, trap_vector;                                     \
        csrw mtvec, t0;                                         \
        li s11, 0;                                              \
        li TESTNUM, 0;                                          \
        j tests_begin;                                          \
        .align 2;                                               \
trap_vector:                                                    \
        beqz s11, fail;                                         \
        csrr s8, mcause;                                        \
        csrr s9, mepc;                                          \
        csrr s10, mtval;                                        \
        csrr s6, mstatus;                                       \
        li t6, 2;                                               \
        beq s11, t6, 2f;                                        \
        li s11, 0;                                              \
        bltz s8, 1f;                                            \
        addi t6, s9, 4;                                         \
        csrw mepc, t6;                                          \
1:      mret;                                                   \
2:      li s11, 0;                                              \
        csrw mepc, s7;                                          \
        mret;                                                   \
tests_begin:

#define RVTEST_CODE_END                                         \
        j pass;                                                 \
pass:                                                           \
        fence;                                                  \
        li t0, 1;                                               \
        la t1, tohost;                                          \
        sw t0, 0(t1);                                           \
1:      j 1b;                                                   \
fail:                                                           \
        fence;                                                  \
        slli TESTNUM, TESTNUM, 1;                               \
        ori TESTNUM, TESTNUM, 1;                                \
        la t1, tohost;                                          \
        sw TESTNUM, 0(t1);                                      \
1:      j 1b;

#define RVTEST_DATA_BEGIN                                       \
        .pushsection .tohost, "aw", @progbits;                  \
        .align 6; .globl tohost; tohost: .word 0; .word 0;      \
        .align 6; .globl fromhost; fromhost: .word 0; .word 0;  \
        .popsection;                                            \
        .data;                                                  \
        .align 4;

#define RVTEST_DATA_END

/* ------------------------------------------------------------ test cases */

#define TEST_CASE(n, testreg, correctval, code...)              \
test_ ## n:                                                     \
        li TESTNUM, n;                                          \
        code;                                                   \
        li x7, correctval;                                      \
        bne testreg, x7, fail;

/* register-immediate: rd = inst(val1, imm); also rd == rs1 */
#define TEST_IMM_OP(n, inst, result, val1, imm)                 \
        TEST_CASE(n, x14, result, li x1, val1; inst x14, x1, imm)
#define TEST_IMM_SRC1_EQ_DEST(n, inst, result, val1, imm)       \
        TEST_CASE(n, x1, result, li x1, val1; inst x1, x1, imm)
/* writes to x0 are dropped */
#define TEST_IMM_ZERODEST(n, inst, val1, imm)                   \
        TEST_CASE(n, x0, 0, li x1, val1; inst x0, x1, imm)
/* x0 as a source reads zero */
#define TEST_IMM_ZEROSRC1(n, inst, result, imm)                 \
        TEST_CASE(n, x1, result, li x1, 0x5a5a5a5a; inst x1, x0, imm)

/* register-register */
#define TEST_RR_OP(n, inst, result, val1, val2)                 \
        TEST_CASE(n, x14, result, li x1, val1; li x2, val2; inst x14, x1, x2)
#define TEST_RR_SRC1_EQ_DEST(n, inst, result, val1, val2)       \
        TEST_CASE(n, x1, result, li x1, val1; li x2, val2; inst x1, x1, x2)
#define TEST_RR_SRC2_EQ_DEST(n, inst, result, val1, val2)       \
        TEST_CASE(n, x2, result, li x1, val1; li x2, val2; inst x2, x1, x2)
#define TEST_RR_SRC12_EQ_DEST(n, inst, result, val1)            \
        TEST_CASE(n, x1, result, li x1, val1; inst x1, x1, x1)
#define TEST_RR_ZEROSRC1(n, inst, result, val)                  \
        TEST_CASE(n, x2, result, li x1, val; inst x2, x0, x1)
#define TEST_RR_ZEROSRC2(n, inst, result, val)                  \
        TEST_CASE(n, x2, result, li x1, val; inst x2, x1, x0)
#define TEST_RR_ZERODEST(n, inst, val1, val2)                   \
        TEST_CASE(n, x0, 0, li x1, val1; li x2, val2; inst x0, x1, x2)

/* loads: result = inst at base + offset (base a label) */
#define TEST_LD_OP(n, inst, result, offset, base)               \
        TEST_CASE(n, x14, result, la x1, base; inst x14, offset(x1))

/* stores: write val at base + offset, read the whole word back */
#define TEST_ST_WORD(n, st_inst, val, offset, base, before, after) \
        TEST_CASE(n, x14, after,                                \
            la x1, base; li x2, before; sw x2, 0(x1);           \
            li x13, val; st_inst x13, offset(x1); lw x14, 0(x1))

/* branches: the taken case must not fall through, the not-taken case must */
#define TEST_BR2_TAKEN(n, inst, val1, val2)                     \
test_ ## n:                                                     \
        li TESTNUM, n;                                          \
        li x1, val1;                                            \
        li x2, val2;                                            \
        inst x1, x2, 2f;                                        \
        j fail;                                                 \
1:      j 3f;                                                   \
2:      inst x1, x2, 1b;  /* backward, taken again */           \
        j fail;                                                 \
3:

#define TEST_BR2_NOTTAKEN(n, inst, val1, val2)                  \
test_ ## n:                                                     \
        li TESTNUM, n;                                          \
        li x1, val1;                                            \
        li x2, val2;                                            \
        inst x1, x2, 1f;                                        \
        j 2f;                                                   \
1:      j fail;                                                 \
2:      inst x1, x2, 1b;                                        \
3:

/* ------------------------------------------------------------ traps */

/* the next trap is expected; s8 = -1 so a missing trap cannot match */
#define EXPECT_TRAP                                             \
        li s8, -1; li s9, -1; li s10, -1; li s11, 1;

/* a trap happened, with this cause, at this label */
#define CHECK_TRAP(cause, epc_label)                            \
        bnez s11, fail;                                         \
        li x7, cause; bne s8, x7, fail;                         \
        la x7, epc_label; bne s9, x7, fail;

#define CHECK_TVAL(value)                                       \
        li x7, value; bne s10, x7, fail;
#define CHECK_TVAL_LABEL(label)                                 \
        la x7, label; bne s10, x7, fail;
/* mtval = the instruction word at label (illegal instructions) */
#define CHECK_TVAL_INSN(label)                                  \
        la x7, label; lw x7, 0(x7); bne s10, x7, fail;

/* insn must trap with cause, mepc = its address (label trap_insn_<n>);
   operands are set up before the macro */
#define TEST_TRAP(n, cause, insn...)                            \
test_ ## n:                                                     \
        li TESTNUM, n;                                          \
        EXPECT_TRAP                                             \
trap_insn_ ## n:                                                \
        insn;                                                   \
        CHECK_TRAP(cause, trap_insn_ ## n)

#endif
