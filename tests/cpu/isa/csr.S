# SPDX-License-Identifier: MIT
# Zicsr: CSRRW/CSRRS/CSRRC and the immediate forms (old value to rd, new
# value written, no write when rs1 = x0 / uimm = 0 for S and C), rd = x0;
# every machine CSR's read-back and WARL rules; read-only CSRs trap on a
# write but not on a read; unknown CSRs trap with mtval = the instruction
# and leave rd unchanged.
#include "test_macros.h"

RVTEST_CODE_BEGIN

        /* ---- instruction semantics on mscratch (a plain 32-bit register) */
        TEST_CASE(1, x14, 0x12345678, li x1, 0x12345678; csrw mscratch, x1; csrr x14, mscratch)
        TEST_CASE(2, x14, 0x12345678, li x1, 0xcafe0000; csrrw x14, mscratch, x1)      /* old value */
        TEST_CASE(3, x14, 0xcafe0000, csrr x14, mscratch)                              /* new value */
        TEST_CASE(4, x14, 0xcafe0000, li x1, 0x0000f00f; csrrs x14, mscratch, x1)      /* old value */
        TEST_CASE(5, x14, 0xcafef00f, csrr x14, mscratch)                              /* bits set */
        TEST_CASE(6, x14, 0xcafef00f, li x1, 0xca0000f0; csrrc x14, mscratch, x1)
        TEST_CASE(7, x14, 0x00fef00f, csrr x14, mscratch)                              /* bits cleared */
        TEST_CASE(8, x14, 0x00fef00f, csrrwi x14, mscratch, 0x15)
        TEST_CASE(9, x14, 0x00000015, csrr x14, mscratch)                              /* uimm zero-extended */
        TEST_CASE(10, x14, 0x00000015, csrrsi x14, mscratch, 0x1a)
        TEST_CASE(11, x14, 0x0000001f, csrr x14, mscratch)
        TEST_CASE(12, x14, 0x0000001f, csrrci x14, mscratch, 0x13)
        TEST_CASE(13, x14, 0x0000000c, csrr x14, mscratch)
        /* rs1 = x0 / uimm = 0: read only */
        TEST_CASE(14, x14, 0x0000000c, csrrs x14, mscratch, x0; csrr x14, mscratch)
        TEST_CASE(15, x14, 0x0000000c, csrrc x14, mscratch, x0; csrr x14, mscratch)
        TEST_CASE(16, x14, 0x0000000c, csrrsi x14, mscratch, 0; csrrci x14, mscratch, 0; csrr x14, mscratch)
        /* rd = x0 still writes; CSRRW with rs1 = x0 writes zero */
        TEST_CASE(17, x14, 0x00000abc, li x1, 0xabc; csrrw x0, mscratch, x1; csrr x14, mscratch)
        TEST_CASE(18, x14, 0x00000000, csrrw x0, mscratch, x0; csrr x14, mscratch)
        TEST_CASE(19, x14, 0x00000000, csrrwi x0, mscratch, 0; csrr x14, mscratch)
        /* rd == rs1: old value to rd, the write uses the old rs1 */
        TEST_CASE(20, x14, 0x00000077, li x1, 0x77; csrw mscratch, x1; li x1, 0x88; csrrw x1, mscratch, x1; mv x14, x1)
        TEST_CASE(21, x14, 0x00000088, csrr x14, mscratch)

        /* ---- each machine CSR */
        /* misa: RV32 (MXL = 1) with I; writes are ignored */
        TEST_CASE(22, x14, 0x40000100, csrr x14, misa)
        TEST_CASE(23, x14, 0x40000100, csrw misa, x0; csrr x14, misa)
        /* mvendorid marchid mimpid mhartid mconfigptr mstatush: zero */
        TEST_CASE(24, x14, 0, li x14, -1; csrr x14, mvendorid)
        TEST_CASE(25, x14, 0, li x14, -1; csrr x14, marchid)
        TEST_CASE(26, x14, 0, li x14, -1; csrr x14, mimpid)
        TEST_CASE(27, x14, 0, li x14, -1; csrr x14, mhartid)
        TEST_CASE(28, x14, 0, li x14, -1; csrr x14, 0xf15)                             /* mconfigptr */
        TEST_CASE(29, x14, 0, li x14, -1; li x1, -1; csrw 0x310, x1; csrr x14, 0x310) /* mstatush */
        /* mstatus: MIE and MPIE writable, MPP reads 11, the rest 0 (mie = 0: no interrupt) */
        TEST_CASE(30, x14, 0x00001888, li x1, -1; csrw mstatus, x1; csrr x14, mstatus)
        TEST_CASE(31, x14, 0x00001800, csrw mstatus, x0; csrr x14, mstatus)
        TEST_CASE(32, x14, 0x00001808, csrsi mstatus, MSTATUS_MIE; csrr x14, mstatus)
        TEST_CASE(33, x14, 0x00001800, csrci mstatus, MSTATUS_MIE; csrr x14, mstatus)
        /* mie: MEIE and MTIE writable (mstatus.MIE = 0: no interrupt) */
        TEST_CASE(34, x14, 0x00000880, li x1, -1; csrw mie, x1; csrr x14, mie)
        TEST_CASE(35, x14, 0x00000000, csrw mie, x0; csrr x14, mie)
        /* mip: nothing pending; writes ignored */
        TEST_CASE(36, x14, 0x00000000, li x1, -1; csrw mip, x1; csrr x14, mip)
        /* mtvec: direct mode, bits 1:0 read 0 (restored after) */
        TEST_CASE(37, x14, 0x80000100, csrr x5, mtvec; li x1, 0x80000103; csrw mtvec, x1; csrr x14, mtvec; csrw mtvec, x5)
        TEST_CASE(38, x14, 0x00000000, la x7, trap_vector; csrr x14, mtvec; sub x14, x14, x7)
        /* mepc: bits 1:0 read 0 (IALIGN = 32) */
        TEST_CASE(39, x14, 0x80000004, li x1, 0x80000007; csrw mepc, x1; csrr x14, mepc)
        TEST_CASE(40, x14, 0xfffffffc, li x1, -1; csrw mepc, x1; csrr x14, mepc)
        /* mcause: legal values read back */
        TEST_CASE(41, x14, 0x8000000b, li x1, 0x8000000b; csrw mcause, x1; csrr x14, mcause)
        TEST_CASE(42, x14, 0x00000002, li x1, 2; csrw mcause, x1; csrr x14, mcause)
        /* mtval: all 32 bits */
        TEST_CASE(43, x14, 0xa5a5c3c3, li x1, 0xa5a5c3c3; csrw mtval, x1; csrr x14, mtval)

        /* ---- read-only CSRs: reading is fine, writing traps */
        TEST_CASE(44, x14, 0, li x14, -1; csrrs x14, mhartid, x0)
        TEST_CASE(45, x14, 0, li x14, -1; csrrci x14, mvendorid, 0)
        li x1, 1
        TEST_TRAP(46, CAUSE_ILLEGAL_INSN, csrw mhartid, x1)
        CHECK_TVAL_INSN(trap_insn_46)
        TEST_TRAP(47, CAUSE_ILLEGAL_INSN, csrrs x5, mvendorid, x1)
        CHECK_TVAL_INSN(trap_insn_47)
        TEST_TRAP(48, CAUSE_ILLEGAL_INSN, csrrw x0, marchid, x0)    /* CSRRW always writes */
        TEST_TRAP(49, CAUSE_ILLEGAL_INSN, csrrwi x0, mimpid, 0)
        TEST_TRAP(50, CAUSE_ILLEGAL_INSN, csrrci x5, cycle, 1)
        TEST_TRAP(51, CAUSE_ILLEGAL_INSN, csrrsi x5, instret, 4)
        TEST_TRAP(52, CAUSE_ILLEGAL_INSN, csrw time, x1)
        TEST_TRAP(53, CAUSE_ILLEGAL_INSN, csrw cycleh, x1)
        TEST_TRAP(54, CAUSE_ILLEGAL_INSN, csrw 0xf15, x1)           /* mconfigptr */
        /* the destination of a trapping CSR instruction is not written */
        li x5, 0x55
        TEST_TRAP(55, CAUSE_ILLEGAL_INSN, csrrw x5, mhartid, x1)
        li x7, 0x55
        bne x5, x7, fail

        /* ---- CSRs this core does not have: illegal, mtval = the instruction, rd kept */
        li x5, 0x66
        TEST_TRAP(56, CAUSE_ILLEGAL_INSN, csrr x5, 0x7c0)           /* custom */
        CHECK_TVAL_INSN(trap_insn_56)
        li x7, 0x66
        bne x5, x7, fail
        TEST_TRAP(57, CAUSE_ILLEGAL_INSN, csrr x5, 0x306)           /* mcounteren (no U-mode) */
        CHECK_TVAL_INSN(trap_insn_57)
        TEST_TRAP(58, CAUSE_ILLEGAL_INSN, csrr x5, 0x320)           /* mcountinhibit */
        TEST_TRAP(59, CAUSE_ILLEGAL_INSN, csrr x5, 0xb03)           /* mhpmcounter3 */
        TEST_TRAP(60, CAUSE_ILLEGAL_INSN, csrr x5, 0x180)           /* satp (no S-mode) */
        TEST_TRAP(61, CAUSE_ILLEGAL_INSN, csrr x5, 0x100)           /* sstatus */
        TEST_TRAP(62, CAUSE_ILLEGAL_INSN, csrr x5, 0x000)           /* ustatus */
        TEST_TRAP(63, CAUSE_ILLEGAL_INSN, csrr x5, 0xfff)
        TEST_TRAP(64, CAUSE_ILLEGAL_INSN, csrr x5, 0x302)           /* medeleg (no S-mode) */
        TEST_TRAP(65, CAUSE_ILLEGAL_INSN, csrw 0x7b0, x1)           /* dcsr (no debug mode) */
        TEST_TRAP(66, CAUSE_ILLEGAL_INSN, csrrsi x5, 0x345, 0)      /* unknown, even without a write */
        CHECK_TVAL_INSN(trap_insn_66)

RVTEST_CODE_END

RVTEST_DATA_BEGIN
RVTEST_DATA_END
