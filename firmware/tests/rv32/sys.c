/* SPDX-License-Identifier: MIT */
/*
 * What picolibc leaves to the platform, for the firmware unit tests on the
 * soft core under froce-cpu-sim (sim/cpu/README.md):
 *   - stdin/stdout/stderr: froce-cpu-sim's console register (SIM_CONSOLE);
 *   - sbrk: the heap between .bss and the stack (link.ld); running out is a
 *     test failure, not a NULL from malloc (the tests do not expect one);
 *   - _exit(status): the riscv-tests tohost word, 1 for status 0, else
 *     (status << 1) | 1, so froce-cpu-sim reports "test <status> failed";
 *     main() returns the number of the first test group that failed;
 *   - abort() (the model's fail(), a failed assertion) and traps (t_trap,
 *     from crt0.S): a report on the console, then _exit(group running).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sim_mmio.h"
#include "tutil.h"

volatile uint32_t tohost __attribute__((aligned(8)));

static int console_put(char c, FILE *f)
{
	(void)f;
	*(volatile uint32_t *)SIM_CONSOLE = (uint8_t)c;
	return (uint8_t)c;
}

static FILE console = FDEV_SETUP_STREAM(console_put, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdin = &console;
FILE *const stdout = &console;
FILE *const stderr = &console;

extern char __heap_start[], __heap_end[];
static char *heap_brk = __heap_start;

static void console_str(const char *s)
{
	while (*s)
		console_put(*s++, NULL);
}

void t_rv32_heap(uint32_t *used, uint32_t *size)
{
	*used = (uint32_t)(heap_brk - __heap_start);
	*size = (uint32_t)(__heap_end - __heap_start);
}

void *sbrk(ptrdiff_t incr)
{
	char *old = heap_brk;

	if (incr > __heap_end - heap_brk || incr < __heap_start - heap_brk) {
		printf("unit-rv32: out of heap (%ld more bytes asked, %ld of %ld in use), test group %u\n", (long)incr,
		       (long)(heap_brk - __heap_start), (long)(__heap_end - __heap_start), t_group);
		_exit(t_group ? (int)t_group : 100);
	}
	heap_brk += incr;
	return old;
}

void _exit(int status)
{
	tohost = status == 0 ? 1u : (uint32_t)status << 1 | 1u;
	for (;;)
		;
}

void abort(void)
{
	printf("unit-rv32: abort() in test group %u\n", t_group);
	_exit(t_group ? (int)t_group : 100);
}

void t_trap(uint32_t mcause, uint32_t mepc, uint32_t mtval);

void t_trap(uint32_t mcause, uint32_t mepc, uint32_t mtval)
{
	static int nested;

	if (nested++) {	/* the report itself trapped */
		console_str("unit-rv32: trap in the trap handler\n");
		_exit(101);
	}
	printf("unit-rv32: trap mcause=%#lx mepc=%#lx mtval=%#lx in test group %u\n", (unsigned long)mcause,
	       (unsigned long)mepc, (unsigned long)mtval, t_group);
	_exit(t_group ? (int)t_group : 100);
}

void t_rv32_counters(uint64_t *cycles, uint64_t *instret)
{
	uint32_t hi, lo, hi2;

	do {
		__asm__ volatile("csrr %0, cycleh" : "=r"(hi));
		__asm__ volatile("csrr %0, cycle" : "=r"(lo));
		__asm__ volatile("csrr %0, cycleh" : "=r"(hi2));
	} while (hi != hi2);
	*cycles = (uint64_t)hi << 32 | lo;
	do {
		__asm__ volatile("csrr %0, instreth" : "=r"(hi));
		__asm__ volatile("csrr %0, instret" : "=r"(lo));
		__asm__ volatile("csrr %0, instreth" : "=r"(hi2));
	} while (hi != hi2);
	*instret = (uint64_t)hi << 32 | lo;
}
