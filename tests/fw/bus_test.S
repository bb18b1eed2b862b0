/* SPDX-License-Identifier: MIT */
/*
 * Bus-level test of froce_fw, run on its own soft core by froce-fw-test
 * --bus-test (sim/fw). Exercises what the real firmware never does: access
 * faults (sizes, offsets beyond the control-bus span, unmapped addresses,
 * fetches outside the RAM), unused peripheral offsets, read side effects,
 * the EQ/async/DMA/port registers directly, and both interrupt lines.
 *
 * The harness checks the other side (control-bus accesses, EQE posts, host
 * memory, port outputs, console text) and prints/checks the values this
 * program prints. Output: lines on the console, ending with "BUS PASS" or
 * "BUS FAIL <test number>".
 *
 * Registers: s0 trap count, s1 last mcause, s2 last mtval, s3 handler
 * scratch, s4 CMD_DB as read by the external-interrupt handler, s5 IO base,
 * s6 control-bus window base, gp test number. Everything else is free.
 */
#define IO 0x20000000
#define CTL 0x10000000
#define IO_CONSOLE 0x00
#define IO_CMD_PENDING 0x10
#define IO_CMD_DB 0x14
#define IO_CMD_ADDR_LO 0x18
#define IO_CMD_ADDR_HI 0x1C
#define IO_CMD_STATUS 0x20
#define IO_FW_VERSION 0x30
#define IO_DEV_READY 0x34
#define IO_HEARTBEAT 0x38
#define IO_MS_TICK 0x3C
#define IO_LINK_STATUS 0x40
#define IO_PORT_MAC_LO 0x44
#define IO_PORT_MAC_HI 0x48
#define IO_PORT_MTU 0x4C
#define IO_PORT_FLAGS 0x50
#define IO_EQ_DW0 0x90
#define IO_EQ_DW1 0x94
#define IO_EQ_DW2 0x98
#define IO_EQ_POST 0x9C
#define IO_EQ_STATUS 0xA0
#define IO_ASYNC_PENDING 0xB0
#define IO_ASYNC_EV 0xB4
#define IO_ASYNC_ID 0xB8
#define IO_DMA_HOST_LO 0xC0
#define IO_DMA_HOST_HI 0xC4
#define IO_DMA_LOCAL 0xC8
#define IO_DMA_LEN 0xCC
#define IO_DMA_CTRL 0xD0
#define IO_DMA_STATUS 0xD4

/* expect one trap with mcause `cause` from the instructions */
.macro FAULT n, cause, insn:vararg
	li	gp, \n
	li	s0, 0
	\insn
	li	t6, 1
	bne	s0, t6, fail
	li	t6, \cause
	bne	s1, t6, fail
.endm

/* expect no trap */
.macro NOFAULT n, insn:vararg
	li	gp, \n
	li	s0, 0
	\insn
	bnez	s0, fail
.endm

/* branch to fail unless register == value */
.macro EXPECT n, reg, val
	li	gp, \n
	li	t6, \val
	bne	\reg, t6, fail
.endm

/* print a string literal */
.macro PUTS str
	la	a0, 9f
	jal	ra, puts
	.section .rodata
9:	.asciz	"\str"
	.previous
.endm

	.section .text.start, "ax"
	.globl _start
_start:
	la	sp, _stack_top
	la	t0, trap
	csrw	mtvec, t0
	li	s5, IO
	li	s6, CTL
	li	s0, 0
	PUTS	"bus test\n"

	/* ---- 1-2: unused peripheral offsets read 0, ignore writes ---- */
	li	t1, 0x55
	NOFAULT	1, lw t1, 0xF0(s5)
	EXPECT	1, t1, 0
	li	t1, 0x55
	NOFAULT	2, sw t1, 0xF0(s5)
	NOFAULT	2, lw t1, 0xF0(s5)
	EXPECT	2, t1, 0
	/* write-only registers read 0 */
	li	t1, 0x77
	sw	t1, IO_CMD_STATUS(s5)
	lw	t1, IO_CMD_STATUS(s5)
	EXPECT	2, t1, 0

	/* ---- 3-6: sub-word peripheral accesses and offsets past the page fault ---- */
	FAULT	3, 5, lb t1, IO_LINK_STATUS(s5)
	li	t6, IO + IO_LINK_STATUS
	bne	s2, t6, fail
	li	t1, 'X'
	FAULT	4, 7, sb t1, IO_CONSOLE(s5)
	FAULT	5, 5, lh t1, IO_LINK_STATUS(s5)
	FAULT	5, 7, sh t1, IO_CONSOLE(s5)
	li	t2, IO + 0x1000
	FAULT	6, 5, lw t1, 0(t2)
	FAULT	6, 7, sw t1, 0(t2)

	/* ---- 7: unmapped addresses, past the RAM ---- */
	li	t2, 0x30000000
	FAULT	7, 5, lw t1, 0(t2)
	FAULT	7, 7, sw t1, 0(t2)
	li	t2, 0x00010000
	FAULT	7, 5, lw t1, 0(t2)
	li	t2, 0xFFFFFFFC
	FAULT	7, 7, sw t1, 0(t2)

	/* ---- 8-9: control-bus window (the harness answers 0xC0DE0000 ^ word address) ---- */
	NOFAULT	8, lw t1, 0(s6)
	EXPECT	8, t1, 0xC0DE0000
	li	t2, CTL + 0x1FFFFFC
	NOFAULT	8, lw t1, 0(t2)
	EXPECT	8, t1, 0xC0DE0000 ^ 0x7FFFFF
	li	t1, 0x12345678
	NOFAULT	9, sw t1, 0(t2)
	li	t1, 0x9ABCDEF0
	NOFAULT	9, sw t1, 0x400(s6)

	/* ---- 10-11: beyond CTL_SPAN, sub-word: faults, no bus access ---- */
	li	t2, CTL + 0x2000000
	FAULT	10, 5, lw t1, 0(t2)
	FAULT	10, 7, sw t1, 0(t2)
	li	t2, CTL + 0xFFFFFFC
	FAULT	10, 5, lw t1, 0(t2)
	FAULT	11, 5, lb t1, 0(s6)
	FAULT	11, 5, lhu t1, 2(s6)
	FAULT	11, 7, sb t1, 1(s6)
	FAULT	11, 7, sh t1, 0(s6)

	/* ---- 12: fetches outside the RAM fault (the handler returns to ra) ---- */
	li	t2, IO
	FAULT	12, 1, jalr ra, 0(t2)
	li	t2, 0x00010000
	FAULT	12, 1, jalr ra, 0(t2)
	li	t2, CTL
	FAULT	12, 1, jalr ra, 0(t2)

	/* ---- 13: RAM takes every size ---- */
	la	t2, scratch
	li	t1, 0x11223344
	sw	t1, 0(t2)
	li	t1, 0xAA
	NOFAULT	13, sb t1, 1(t2)
	li	t1, 0xBBCC
	NOFAULT	13, sh t1, 2(t2)
	lw	t1, 0(t2)
	EXPECT	13, t1, 0xBBCCAA44
	lbu	t1, 3(t2)
	EXPECT	13, t1, 0xBB

	/* ---- 14: platform registers, printed for the harness ---- */
	PUTS	"platform"
	li	s7, 0x60
1:	PUTS	" "
	add	t0, s5, s7
	lw	a0, 0(t0)
	jal	ra, puthex
	addi	s7, s7, 4
	li	t0, 0x84
	bne	s7, t0, 1b
	PUTS	"\n"

	/* ---- 15: MS_TICK is read-to-clear ---- */
	li	gp, 15
	li	t2, 100000
1:	lw	t1, IO_MS_TICK(s5)
	bnez	t1, 2f
	addi	t2, t2, -1
	bnez	t2, 1b
	j	fail
2:	lw	t1, IO_MS_TICK(s5)
	beqz	t1, 3f
	lw	t1, IO_MS_TICK(s5)	/* a new tick came between the two reads */
	EXPECT	15, t1, 0
3:

	/* ---- 16: EQE posts; the harness drops EQ 3 ---- */
	li	t1, 0x11111111
	sw	t1, IO_EQ_DW0(s5)
	li	t1, 0x22222222
	sw	t1, IO_EQ_DW1(s5)
	li	t1, 0x33333333
	sw	t1, IO_EQ_DW2(s5)
	li	t1, 0x43		/* bits above 5:0 ignored: EQ 3 */
	sw	t1, IO_EQ_POST(s5)
	li	t1, 0xDEADBEEF		/* busy: ignored */
	sw	t1, IO_EQ_DW0(s5)
	li	t1, 5
	sw	t1, IO_EQ_POST(s5)	/* busy: ignored */
	lw	t1, IO_EQ_STATUS(s5)
	EXPECT	16, t1, 1
	jal	ra, eq_wait
	EXPECT	16, t1, 2		/* dropped */
	li	t1, 1
	sw	t1, IO_EQ_POST(s5)
	jal	ra, eq_wait
	EXPECT	16, t1, 0

	/* ---- 17: async event FIFO (the harness queued three events) ---- */
	li	gp, 17
	li	t2, 1000
1:	lw	t1, IO_ASYNC_PENDING(s5)
	bnez	t1, 2f
	addi	t2, t2, -1
	bnez	t2, 1b
	j	fail
2:	lw	t1, IO_ASYNC_EV(s5)
	EXPECT	17, t1, 0x0502
	lw	t1, IO_ASYNC_EV(s5)	/* EV does not pop */
	EXPECT	17, t1, 0x0502
	lw	t1, IO_ASYNC_ID(s5)
	EXPECT	17, t1, 0x123456
	lw	t1, IO_ASYNC_PENDING(s5)
	EXPECT	17, t1, 1
	lw	t1, IO_ASYNC_EV(s5)
	EXPECT	17, t1, 0x0103
	lw	t1, IO_ASYNC_ID(s5)
	EXPECT	17, t1, 7
	lw	t1, IO_ASYNC_EV(s5)
	EXPECT	17, t1, 0x0102
	lw	t1, IO_ASYNC_ID(s5)
	EXPECT	17, t1, 0xABCDEF
	lw	t1, IO_ASYNC_PENDING(s5)
	EXPECT	17, t1, 0
	lw	t1, IO_ASYNC_ID(s5)	/* empty: 0, nothing popped */
	EXPECT	17, t1, 0
	lw	t1, IO_ASYNC_EV(s5)
	EXPECT	17, t1, 0

	/* ---- 18: DMA (host words 0xA5000000 + i at 0x1_0000_0804) ---- */
	/* 4092 bytes host -> RAM, host address 4 mod 8 crossing a 4 KiB page, RAM 0x8004 */
	li	a0, 0x00000804
	li	a1, 1
	li	a2, 0x8004
	li	a3, 4092
	li	a4, 1			/* start, host -> RAM */
	csrr	s8, mcycle
	jal	ra, dma
	csrr	s9, mcycle
	EXPECT	18, t1, 0
	li	gp, 18
	li	t2, 0x8004
	li	t3, 0xA5000000
	li	t4, 1023
1:	lw	t1, 0(t2)
	bne	t1, t3, fail
	addi	t2, t2, 4
	addi	t3, t3, 1
	addi	t4, t4, -1
	bnez	t4, 1b
	lw	t1, 0(t2)		/* the word after is untouched */
	EXPECT	18, t1, 0
	li	t2, 0x8000
	lw	t1, 0(t2)		/* so is the word before */
	EXPECT	18, t1, 0
	PUTS	"dma read 4092 cycles "
	sub	a0, s9, s8
	jal	ra, puthex
	PUTS	"\n"
	/* RAM -> host: 4092 bytes from RAM 0x8004 to host 0x1_0000_2FFC
	   (crosses into the next 4 KiB page after one word) */
	li	a0, 0x00002FFC
	li	a1, 1
	li	a2, 0x8004
	li	a3, 4092
	li	a4, 3			/* start, RAM -> host */
	csrr	s8, mcycle
	jal	ra, dma
	csrr	s9, mcycle
	EXPECT	18, t1, 0
	PUTS	"dma write 4092 cycles "
	sub	a0, s9, s8
	jal	ra, puthex
	PUTS	"\n"
	/* 8 bytes from RAM 0x8000 (RAM 8-aligned, host 4 mod 8) */
	li	a0, 0x00004004
	li	a1, 1
	li	a2, 0x8000
	li	a3, 8
	li	a4, 3
	jal	ra, dma
	EXPECT	18, t1, 0
	/* refused operands: error at once, busy never set, no bus traffic */
	PUTS	"dma refusals\n"
	li	s10, 0
1:	la	t0, bad_ops
	slli	t1, s10, 4
	add	t0, t0, t1
	lw	a0, 0(t0)
	li	a1, 1
	lw	a2, 4(t0)
	lw	a3, 8(t0)
	lw	a4, 12(t0)
	sw	a0, IO_DMA_HOST_LO(s5)
	sw	a1, IO_DMA_HOST_HI(s5)
	sw	a2, IO_DMA_LOCAL(s5)
	sw	a3, IO_DMA_LEN(s5)
	sw	a4, IO_DMA_CTRL(s5)
	lw	t1, IO_DMA_STATUS(s5)
	addi	gp, s10, 100
	li	t6, 2
	bne	t1, t6, fail
	addi	s10, s10, 1
	li	t0, 7
	bne	s10, t0, 1b
	/* a read in the harness's SLVERR range: error after the transfer */
	li	a0, 0x00005000
	li	a1, 1
	li	a2, 0x8000
	li	a3, 64
	li	a4, 1
	jal	ra, dma
	EXPECT	19, t1, 2
	/* RAM loads and stores wait while a transfer owns the RAM port (the
	   store below is issued while the transfer runs) */
	li	a0, 0x00000804
	li	a1, 1
	sw	a0, IO_DMA_HOST_LO(s5)
	sw	a1, IO_DMA_HOST_HI(s5)
	li	t1, 0x9000
	sw	t1, IO_DMA_LOCAL(s5)
	li	t1, 1024
	sw	t1, IO_DMA_LEN(s5)
	li	t1, 1
	sw	t1, IO_DMA_CTRL(s5)
	la	t2, scratch
	li	t1, 0x5EED1234
	sw	t1, 0(t2)		/* while the transfer writes the RAM */
	lw	t3, 0(t2)
	lw	t4, IO_DMA_STATUS(s5)
	EXPECT	25, t4, 0		/* the store waited for the whole transfer */
	EXPECT	25, t3, 0x5EED1234
	lw	t3, bus_const
	EXPECT	25, t3, 0x600DC0DE
1:	lw	t1, IO_DMA_STATUS(s5)
	bnez	t1, 1b
	li	t2, 0x9000 + 1020	/* the transfer's last word arrived */
	lw	t1, 0(t2)
	EXPECT	25, t1, 0xA5000000 + 255
	la	t2, scratch
	lw	t1, 0(t2)
	EXPECT	25, t1, 0x5EED1234
	/* a good one clears the error */
	li	a0, 0x00000804
	li	a3, 4
	jal	ra, dma
	EXPECT	19, t1, 0
	/* CTRL without the start bit does nothing */
	li	t1, 2
	sw	t1, IO_DMA_CTRL(s5)
	lw	t1, IO_DMA_STATUS(s5)
	EXPECT	19, t1, 0

	/* ---- 20: port registers (the harness checks the outputs) ---- */
	li	t1, 0xCCDDEEFF
	sw	t1, IO_PORT_MAC_LO(s5)
	li	t1, 0xFFFF0A0B		/* bits 31:16 ignored */
	sw	t1, IO_PORT_MAC_HI(s5)
	li	t1, 9000
	sw	t1, IO_PORT_MTU(s5)
	li	t1, 2
	sw	t1, IO_PORT_FLAGS(s5)
	li	t1, 0x11111111		/* staged only, not committed */
	sw	t1, IO_PORT_MAC_LO(s5)

	/* ---- 21: BAR0-visible words ---- */
	li	t1, 0xC0FFEE01
	sw	t1, IO_CMD_STATUS(s5)
	li	t1, 0x01020304
	sw	t1, IO_FW_VERSION(s5)
	li	t1, 0xBEEF
	sw	t1, IO_HEARTBEAT(s5)
	li	t1, 3			/* bit 0 only */
	sw	t1, IO_DEV_READY(s5)

	/* ---- 22: external interrupt from a doorbell ---- */
	li	s4, 0
	li	t1, 0x800
	csrs	mie, t1
	csrsi	mstatus, 8
	li	s0, 0
	PUTS	"DOORBELL\n"		/* the harness rings it when it sees this line */
	li	gp, 22
	li	t2, 100000
1:	bnez	s0, 2f
	addi	t2, t2, -1
	bnez	t2, 1b
	j	fail
2:	EXPECT	22, s1, 0x8000000B
	EXPECT	22, s4, 0x80001234
	lw	t1, IO_CMD_PENDING(s5)
	EXPECT	22, t1, 0
	lw	t1, IO_CMD_ADDR_LO(s5)
	EXPECT	22, t1, 0x00001000
	lw	t1, IO_CMD_ADDR_HI(s5)
	EXPECT	22, t1, 0xABCD0000
	li	t1, 0x800
	csrc	mie, t1

	/* ---- 23: timer interrupt from the millisecond tick ---- */
	li	s0, 0
	li	t1, 0x80
	csrs	mie, t1
	li	gp, 23
	li	t2, 100000
1:	bnez	s0, 2f
	addi	t2, t2, -1
	bnez	t2, 1b
	j	fail
2:	EXPECT	23, s1, 0x80000007
	csrci	mstatus, 8

	/* ---- 24: every peripheral offset answers, none faults ---- */
	li	s0, 0
	li	t2, IO
	li	t3, IO + 0x1000
1:	lw	t1, 0(t2)
	addi	t2, t2, 4
	bne	t2, t3, 1b
	li	gp, 24
	bnez	s0, fail

	PUTS	"BUS PASS\n"
	j	halt

fail:
	PUTS	"BUS FAIL "
	mv	a0, gp
	jal	ra, puthex
	PUTS	"\n"
halt:
	j	halt

/* ---- helpers ---- */

/* a0 host lo, a1 host hi, a2 local, a3 len, a4 ctrl; returns t1 = final DMA_STATUS */
dma:
	sw	a0, IO_DMA_HOST_LO(s5)
	sw	a1, IO_DMA_HOST_HI(s5)
	sw	a2, IO_DMA_LOCAL(s5)
	sw	a3, IO_DMA_LEN(s5)
	sw	a4, IO_DMA_CTRL(s5)
1:	lw	t1, IO_DMA_STATUS(s5)
	andi	t0, t1, 1
	bnez	t0, 1b
	ret

/* wait for EQ_STATUS.BUSY to clear; t1 = EQ_STATUS */
eq_wait:
1:	lw	t1, IO_EQ_STATUS(s5)
	andi	t0, t1, 1
	bnez	t0, 1b
	ret

/* a0 = string */
puts:
	lbu	t0, 0(a0)
	beqz	t0, 1f
	sw	t0, IO_CONSOLE(s5)
	addi	a0, a0, 1
	j	puts
1:	ret

/* a0 = value, 8 hex digits */
puthex:
	li	t1, 28
1:	srl	t0, a0, t1
	andi	t0, t0, 15
	li	t2, 10
	blt	t0, t2, 2f
	addi	t0, t0, 'a' - 10 - '0'
2:	addi	t0, t0, '0'
	sw	t0, IO_CONSOLE(s5)
	addi	t1, t1, -4
	bgez	t1, 1b
	ret

	.balign	4
trap:
	csrr	s1, mcause
	csrr	s2, mtval
	addi	s0, s0, 1
	bltz	s1, 3f
	li	s3, 1
	beq	s1, s3, 2f
	csrr	s3, mepc		/* load/store fault: skip the instruction */
	addi	s3, s3, 4
	csrw	mepc, s3
	mret
2:	csrw	mepc, ra		/* fetch fault: back to the caller */
	mret
3:	slli	s3, s1, 1
	srli	s3, s3, 1
	addi	s3, s3, -11
	bnez	s3, 4f
	lw	s4, IO_CMD_DB(s5)	/* external: reading CMD_DB clears PENDING */
	mret
4:	lw	s3, IO_MS_TICK(s5)	/* timer: reading MS_TICK clears it */
	li	s3, 0x80
	csrc	mie, s3			/* once is enough */
	mret

	.section .rodata
	.balign	4
bus_const:
	.word	0x600DC0DE
/* host lo, local, len, ctrl: each refused (host hi = 1) */
bad_ops:
	.word	0x0000, 0x8000, 0, 1		/* len 0 */
	.word	0x0000, 0x8000, 4100, 1		/* len > 4096 */
	.word	0x0000, 0x8000, 6, 3		/* len not a multiple of 4 */
	.word	0x0002, 0x8000, 8, 1		/* host address not 4-aligned */
	.word	0x0000, 0x8002, 8, 3		/* RAM address not 4-aligned */
	.word	0x0000, 0xFFFC, 8, 1		/* past the end of the RAM */
	.word	0x0000, 0x10000000, 8, 3	/* not a RAM address */

	.section .bss
	.balign	4
scratch:
	.space	4
