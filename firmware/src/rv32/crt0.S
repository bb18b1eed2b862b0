/* SPDX-License-Identifier: MIT */
/* Reset entry of the froce firmware: stack, trap vector, .bss cleared, then
 * fw_entry(). A trap prints mcause/mepc/mtval (fw_trap) and halts. */
	.section .text.start, "ax"
	.globl _start
_start:
	la	sp, _stack_top
	la	t0, trap_entry
	csrw	mtvec, t0
	la	t0, _bss_start
	la	t1, _bss_end
1:	bgeu	t0, t1, 2f
	sw	zero, 0(t0)
	addi	t0, t0, 4
	j	1b
2:	call	fw_entry
	j	halt

	.balign	4
trap_entry:
	csrr	a0, mcause
	csrr	a1, mepc
	csrr	a2, mtval
	la	sp, _stack_top		/* the old stack may be what went wrong */
	call	fw_trap
halt:
	j	halt
