# SPDX-License-Identifier: MIT
# Exceptions: mcause, mepc and mtval for ECALL, EBREAK, illegal instructions
# (many encodings), misaligned jump/branch targets, misaligned loads and
# stores, load/store/fetch access faults; the trapping instruction has no
# effect (rd, memory); mstatus MIE/MPIE on trap entry and MRET; MRET to mepc.
#include "test_macros.h"

#define ABS(reg, sym) lui reg, %hi(sym); addi reg, reg, %lo(sym)

RVTEST_CODE_BEGIN

        /* ---- ECALL and EBREAK */
        TEST_TRAP(1, CAUSE_ECALL_M, ecall)
        CHECK_TVAL(0)
        TEST_TRAP(2, CAUSE_BREAKPOINT, ebreak)
        CHECK_TVAL_LABEL(trap_insn_2)

        /* ---- illegal instructions: mtval = the instruction */
#define TEST_ILLEGAL(n, bits)                                   \
        li x5, 0x77;                                            \
        TEST_TRAP(n, CAUSE_ILLEGAL_INSN, .word bits)            \
        CHECK_TVAL(bits)                                        \
        li x7, 0x77; bne x5, x7, fail;
        TEST_ILLEGAL(3, 0x00000000)     /* all zeros */
        TEST_ILLEGAL(4, 0xffffffff)     /* all ones */
        TEST_ILLEGAL(5, 0x00000001)     /* compressed (no C extension) */
        TEST_ILLEGAL(6, 0x0000028b)     /* custom-0 opcode, rd = x5 */
        TEST_ILLEGAL(7, 0x020002b3)     /* mul x5, x0, x0 (no M extension) */
        TEST_ILLEGAL(8, 0x400012b3)     /* sll with funct7 0100000 */
        TEST_ILLEGAL(9, 0x40001293)     /* slli with funct7 0100000 */
        TEST_ILLEGAL(10, 0x02009293)    /* slli x5, x1, 32 (shamt[5] set) */
        TEST_ILLEGAL(11, 0x6000d293)    /* srai with funct7 0110000 */
        TEST_ILLEGAL(12, 0x4000e2b3)    /* or with funct7 0100000 */
        TEST_ILLEGAL(13, 0x0000a063)    /* branch funct3 010 */
        TEST_ILLEGAL(14, 0x0000b063)    /* branch funct3 011 */
        TEST_ILLEGAL(15, 0x000012e7)    /* jalr funct3 001 */
        TEST_ILLEGAL(16, 0x0000b283)    /* ld (funct3 011) */
        TEST_ILLEGAL(17, 0x0000e283)    /* lwu (funct3 110) */
        TEST_ILLEGAL(18, 0x0000f283)    /* load funct3 111 */
        TEST_ILLEGAL(19, 0x0000b023)    /* sd (funct3 011) */
        TEST_ILLEGAL(20, 0x0000c023)    /* store funct3 100 */
        TEST_ILLEGAL(21, 0x10200073)    /* sret (no S-mode) */
        TEST_ILLEGAL(22, 0x00200073)    /* uret */
        TEST_ILLEGAL(23, 0x000002f3)    /* ecall with rd = x5 */
        TEST_ILLEGAL(24, 0x00008073)    /* ecall with rs1 = x1 */
        TEST_ILLEGAL(25, 0x00004073)    /* SYSTEM funct3 100 */
        TEST_ILLEGAL(26, 0x0000200f)    /* MISC-MEM funct3 010 */
        TEST_ILLEGAL(27, 0x7b200073)    /* dret (no debug mode) */
        TEST_ILLEGAL(28, 0x12000073)    /* sfence.vma */
        TEST_ILLEGAL(29, 0x0000002f)    /* AMO opcode (no A extension) */
        TEST_ILLEGAL(30, 0x00000007)    /* LOAD-FP (no F extension) */

        /* ---- misaligned jump and branch targets: cause 0, mepc = the jump,
           mtval = the target, no link written */
        ABS(x1, jtarget + 2)
        li x5, 0x99
        TEST_TRAP(31, CAUSE_MISALIGNED_FETCH, jalr x5, 0(x1))
        CHECK_TVAL_LABEL(jtarget + 2)
        li x7, 0x99; bne x5, x7, fail
        ABS(x1, jtarget)
        TEST_TRAP(32, CAUSE_MISALIGNED_FETCH, jalr x5, 6(x1))
        CHECK_TVAL_LABEL(jtarget + 6)
        li x7, 0x99; bne x5, x7, fail
        /* jal x5, .+6 */
        TEST_TRAP(33, CAUSE_MISALIGNED_FETCH, .word 0x006002ef)
        CHECK_TVAL_LABEL(trap_insn_33 + 6)
        li x7, 0x99; bne x5, x7, fail
        /* beq x0, x0, .+6 (taken) */
        TEST_TRAP(34, CAUSE_MISALIGNED_FETCH, .word 0x00000363)
        CHECK_TVAL_LABEL(trap_insn_34 + 6)
        /* bne x0, x0, .+6: not taken, so no trap */
test_35: li TESTNUM, 35
        .word 0x00001363
        j 1f
        j fail
1:

        /* ---- misaligned loads and stores: cause 4/6, mtval = the address,
           rd and memory unchanged */
#define TEST_MISALIGNED_LOAD(n, inst, off)                      \
        ABS(x1, tdat);                                          \
        li x5, 0x44;                                            \
        TEST_TRAP(n, CAUSE_MISALIGNED_LOAD, inst x5, off(x1))   \
        CHECK_TVAL_LABEL(tdat + off)                            \
        li x7, 0x44; bne x5, x7, fail;
        TEST_MISALIGNED_LOAD(40, lw, 1)
        TEST_MISALIGNED_LOAD(41, lw, 2)
        TEST_MISALIGNED_LOAD(42, lw, 3)
        TEST_MISALIGNED_LOAD(43, lh, 1)
        TEST_MISALIGNED_LOAD(44, lh, 3)
        TEST_MISALIGNED_LOAD(45, lhu, 1)
        TEST_MISALIGNED_LOAD(46, lhu, 3)
        /* aligned halfword at offset 2 and bytes anywhere do not trap */
        TEST_CASE(47, x14, 0x00001122, ABS(x1, tdat); lhu x14, 2(x1))
        TEST_CASE(48, x14, 0x00000033, ABS(x1, tdat); lbu x14, 1(x1))

#define TEST_MISALIGNED_STORE(n, inst, off)                     \
        ABS(x1, tdat);                                          \
        li x5, -1;                                              \
        TEST_TRAP(n, CAUSE_MISALIGNED_STORE, inst x5, off(x1))  \
        CHECK_TVAL_LABEL(tdat + off)                            \
        lw x6, 0(x1); li x7, 0x11223344; bne x6, x7, fail;      \
        lw x6, 4(x1); li x7, 0x55667788; bne x6, x7, fail;
        TEST_MISALIGNED_STORE(50, sw, 1)
        TEST_MISALIGNED_STORE(51, sw, 2)
        TEST_MISALIGNED_STORE(52, sw, 3)
        TEST_MISALIGNED_STORE(53, sh, 1)
        TEST_MISALIGNED_STORE(54, sh, 3)
        TEST_MISALIGNED_STORE(55, sw, 5)

        /* ---- access faults: unmapped addresses, and MMIO offsets no device has */
        li x1, UNMAPPED_ADDR
        li x5, 0x33
        TEST_TRAP(60, CAUSE_LOAD_ACCESS, lw x5, 8(x1))
        CHECK_TVAL(UNMAPPED_ADDR + 8)
        li x7, 0x33; bne x5, x7, fail
        TEST_TRAP(61, CAUSE_LOAD_ACCESS, lb x5, 3(x1))
        CHECK_TVAL(UNMAPPED_ADDR + 3)
        TEST_TRAP(62, CAUSE_STORE_ACCESS, sw x5, 12(x1))
        CHECK_TVAL(UNMAPPED_ADDR + 12)
        TEST_TRAP(63, CAUSE_STORE_ACCESS, sh x5, 2(x1))
        CHECK_TVAL(UNMAPPED_ADDR + 2)
        li x1, SIM_MMIO_BASE + 0x100
        TEST_TRAP(64, CAUSE_LOAD_ACCESS, lw x5, 0(x1))
        CHECK_TVAL(SIM_MMIO_BASE + 0x100)
        li x7, 0x33; bne x5, x7, fail
        TEST_TRAP(65, CAUSE_STORE_ACCESS, sb x5, 1(x1))
        CHECK_TVAL(SIM_MMIO_BASE + 0x101)
        /* instruction access fault: jump to an unmapped address and to the
           MMIO window (data only); mepc = mtval = the target; the handler
           resumes at s7 (s11 = 2) */
test_66: li TESTNUM, 66
        EXPECT_TRAP
        li s11, 2
        la s7, 1f
        li x1, UNMAPPED_ADDR
        jalr x0, 0(x1)
        j fail
1:      bnez s11, fail
        li x7, CAUSE_FETCH_ACCESS; bne s8, x7, fail
        li x7, UNMAPPED_ADDR; bne s9, x7, fail
        bne s10, x7, fail
test_67: li TESTNUM, 67
        EXPECT_TRAP
        li s11, 2
        la s7, 1f
        li x1, SIM_CONSOLE
        jalr x0, 0(x1)
        j fail
1:      bnez s11, fail
        li x7, CAUSE_FETCH_ACCESS; bne s8, x7, fail
        li x7, SIM_CONSOLE; bne s9, x7, fail
        bne s10, x7, fail

        /* ---- mstatus on trap entry (s6 = mstatus in the handler) and after MRET */
        csrwi mie, 0                    /* no interrupt can be taken below */
        csrsi mstatus, MSTATUS_MIE
        TEST_TRAP(70, CAUSE_ECALL_M, ecall)
        li x7, MSTATUS_MPIE | MSTATUS_MPP
        bne s6, x7, fail                /* in the handler: MPIE = old MIE = 1, MIE = 0 */
        TEST_CASE(71, x14, MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPP, csrr x14, mstatus)
        csrci mstatus, MSTATUS_MIE
        TEST_TRAP(72, CAUSE_ECALL_M, ecall)
        li x7, MSTATUS_MPP
        bne s6, x7, fail                /* in the handler: MPIE = old MIE = 0, MIE = 0 */
        TEST_CASE(75, x14, MSTATUS_MPIE | MSTATUS_MPP, csrr x14, mstatus)   /* after mret: MIE = 0, MPIE = 1 */

        /* ---- MRET by hand: pc = mepc, MIE = MPIE, MPIE = 1 */
test_73: li TESTNUM, 73
        li x1, MSTATUS_MPIE
        csrw mstatus, x1                /* MIE 0, MPIE 1 */
        la x1, 1f
        csrw mepc, x1
        mret
        j fail
1:      csrr x2, mstatus
        li x7, MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPP
        bne x2, x7, fail
test_74: li TESTNUM, 74
        li x1, MSTATUS_MIE
        csrw mstatus, x1                /* MIE 1, MPIE 0 */
        la x1, 1f
        csrw mepc, x1
        mret
        j fail
1:      csrr x2, mstatus
        li x7, MSTATUS_MPIE | MSTATUS_MPP
        bne x2, x7, fail
        csrw mstatus, x0

        j tests_done
        .align 3
jtarget:
        j fail
        j fail
        j fail
tests_done:

RVTEST_CODE_END

RVTEST_DATA_BEGIN
tdat:   .word 0x11223344
        .word 0x55667788
RVTEST_DATA_END
