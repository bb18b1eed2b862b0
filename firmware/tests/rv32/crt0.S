/* SPDX-License-Identifier: MIT */
/* Reset entry of the firmware unit tests on the soft core: stack, trap
 * vector, .bss cleared, picolibc's TLS block (tp), main(), then _exit with
 * its return value (tests/rv32/sys.c turns it into a tohost write). A trap
 * goes to t_trap with mcause/mepc/mtval on a fresh stack. */
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
2:	la	a0, __tls_base
	call	_init_tls
	la	a0, __tls_base
	call	_set_tls
	call	main
	call	_exit
3:	j	3b

	.balign	4
trap_entry:
	csrr	a0, mcause
	csrr	a1, mepc
	csrr	a2, mtval
	la	sp, _stack_top		/* the old stack may be what went wrong */
	call	t_trap
4:	j	4b
