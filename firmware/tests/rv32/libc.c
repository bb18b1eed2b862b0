/* SPDX-License-Identifier: MIT */
/*
 * The parts of the C library the unit tests on the soft core take from here
 * rather than from picolibc, for run time and for the same random masks as
 * the native run. Everything else (printf, snprintf, memcpy, memset, ...) is
 * picolibc's. Built with -fno-tree-loop-distribute-patterns, so no loop here
 * becomes a call to memset/memcpy, and with -fno-builtin (calloc would call
 * itself: GCC makes malloc + memset a calloc).
 *
 *   memcmp   four words per loop where both sides are word aligned
 *            (picolibc's compares one): the snapshot checks compare the
 *            64 KiB table arena after every refused command.
 *   malloc   exact-size free lists over sbrk (tests/rv32/sys.c): O(1), no
 *            clearing. picolibc 1.8's malloc clears every block it hands out
 *            and walks one first-fit list; the tests allocate the same few
 *            sizes over and over (snapshots, the model's tables).
 *   rand     glibc's random() (TYPE_3 additive feedback, srandom's seeding),
 *            so test_trans.c's random masks are the ones the native build
 *            draws; picolibc's rand is a 64-bit LCG (a software multiply on
 *            rv32i for every call).
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void *sbrk(ptrdiff_t incr);	/* tests/rv32/sys.c (unistd.h hides it under -std=c11) */

typedef uint32_t __attribute__((may_alias)) word;

int memcmp(const void *a, const void *b, size_t n)
{
	const uint8_t *x = a, *y = b;

	if (!(((uintptr_t)x | (uintptr_t)y) & 3)) {
		for (; n >= 16; x += 16, y += 16, n -= 16) {
			const word *p = (const word *)x, *q = (const word *)y;

			if (p[0] != q[0] || p[1] != q[1] || p[2] != q[2] || p[3] != q[3])
				break;
		}
		for (; n >= 4 && *(const word *)x == *(const word *)y; x += 4, y += 4, n -= 4)
			;
	}
	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

/* ---- malloc: a block is an 8-byte header (its size) and the payload ---- */

struct block {
	size_t size;		/* payload bytes, a multiple of 8 */
	size_t pad;
	struct block *next;	/* on a free list: the next free block of this size (in the payload) */
};
#define HDR 8u
#define SMALL_MAX 4096u		/* one list per size up to here */
#define LARGE_LISTS 64		/* sizes above: a few lists, each of one size */

static struct block *small_free[SMALL_MAX / 8 + 1];
static struct {
	size_t size;
	struct block *head;
} large_free[LARGE_LISTS];

static struct block **free_list(size_t size, int create)
{
	if (size <= SMALL_MAX)
		return &small_free[size / 8];
	for (unsigned i = 0; i < LARGE_LISTS; i++) {
		if (large_free[i].size == size)
			return &large_free[i].head;
		if (!large_free[i].size) {
			if (!create)
				return NULL;
			large_free[i].size = size;
			return &large_free[i].head;
		}
	}
	return NULL;	/* more large sizes than lists: such blocks are not reused */
}

void *malloc(size_t n)
{
	if (n > 0x7FFFFFF0u) {
		errno = ENOMEM;
		return NULL;
	}
	const size_t size = n ? (n + 7) & ~(size_t)7 : 8;
	struct block **list = free_list(size, 0), *b;

	if (list && *list) {
		b = *list;
		*list = b->next;
	} else {
		b = sbrk((ptrdiff_t)(size + HDR));	/* fails the test run when the heap is full */
		b->size = size;
	}
	return (uint8_t *)b + HDR;
}

void free(void *p)
{
	if (!p)
		return;
	struct block *b = (struct block *)((uint8_t *)p - HDR), **list = free_list(b->size, 1);

	if (list) {
		b->next = *list;
		*list = b;
	}
}

void *calloc(size_t n, size_t size)
{
	/* overflow check, dividing (a libgcc loop on rv32i) only when it may overflow */
	if ((n | size) >= 0x10000u && size && n > 0x7FFFFFF0u / size) {
		errno = ENOMEM;
		return NULL;
	}
	void *p = malloc(n * size);

	if (p)
		memset(p, 0, n * size);
	return p;
}

void *realloc(void *p, size_t n)
{
	if (!p)
		return malloc(n);
	const size_t old = ((struct block *)((uint8_t *)p - HDR))->size;

	if (n <= old)
		return p;
	void *q = malloc(n);

	if (q) {
		memcpy(q, p, old);
		free(p);
	}
	return q;
}

/* ---- rand: glibc's random_r with its default 128-byte state (TYPE_3) ---- */

#define DEG 31
#define SEP 3
static int32_t state[DEG];
static int32_t *fptr, *rptr;

void srand(unsigned seed)
{
	int32_t w = seed ? (int32_t)seed : 1;

	state[0] = w;
	for (int i = 1; i < DEG; i++) {
		/* 16807 * w % (2^31 - 1), without overflow (Schrage) */
		const int32_t hi = w / 127773, lo = w % 127773;

		w = 16807 * lo - 2836 * hi;
		if (w < 0)
			w += 2147483647;
		state[i] = w;
	}
	fptr = &state[SEP];
	rptr = &state[0];
	for (int i = 0; i < 10 * DEG; i++)
		(void)rand();
}

int rand(void)
{
	if (!fptr)
		srand(1);
	const uint32_t v = (uint32_t)*fptr + (uint32_t)*rptr;

	*fptr = (int32_t)v;
	if (++fptr >= &state[DEG]) {
		fptr = state;
		++rptr;
	} else if (++rptr >= &state[DEG]) {
		rptr = state;
	}
	return (int)(v >> 1);
}
