/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The host unit tests' assertion and little-endian byte helpers.
 * Each test defines `static int failures;` before including this.
 */
#ifndef FROCE_TEST_CHECK_H
#define FROCE_TEST_CHECK_H

#include <stdio.h>

#include <linux/kernel.h>

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: CHECK(%s) failed\n",		\
			__FILE__, __LINE__, #cond);			\
		failures++;						\
	}								\
} while (0)

static inline u32 rd32(const u8 *b, unsigned int off)
{
	return b[off] | b[off + 1] << 8 | b[off + 2] << 16 |
	       (u32)b[off + 3] << 24;
}

static inline void wr32(u8 *b, unsigned int off, u32 v)
{
	b[off] = v;
	b[off + 1] = v >> 8;
	b[off + 2] = v >> 16;
	b[off + 3] = v >> 24;
}

#endif
