/* SPDX-License-Identifier: MIT */
/* The few run-time routines GCC may call on rv32i without a C library:
 * memcpy/memset/memcmp and 64-bit shifts by a variable count (rv32i has no
 * 64-bit shifter; multiplication and division are not used anywhere, and
 * the link fails if one creeps in). Built with
 * -fno-tree-loop-distribute-patterns so the loops do not become calls to
 * themselves. */
#include <stddef.h>
#include <stdint.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
uint64_t __ashldi3(uint64_t v, int s);
uint64_t __lshrdi3(uint64_t v, int s);

/* word loops when the pointers allow (the command buffers, context images
 * and tables are word aligned): a byte loop costs ~4x the cycles, and the
 * boot clears the whole table arena */
void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	if ((((uintptr_t)d | (uintptr_t)s) & 3u) == 0) {
		for (; n >= 4; n -= 4, d += 4, s += 4)
			*(uint32_t *)(void *)d = *(const uint32_t *)(const void *)s;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	uint8_t *d = dst;

	if (((uintptr_t)d & 3u) == 0) {
		const uint32_t b = (uint8_t)c, w = b | b << 8 | b << 16 | b << 24;

		for (; n >= 4; n -= 4, d += 4)
			*(uint32_t *)(void *)d = w;
	}
	while (n--)
		*d++ = (uint8_t)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const uint8_t *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

uint64_t __ashldi3(uint64_t v, int s)
{
	const uint32_t lo = (uint32_t)v, hi = (uint32_t)(v >> 32);

	if (s == 0)
		return v;
	if (s >= 32)
		return (uint64_t)(lo << (s - 32)) << 32;
	return (uint64_t)(hi << s | lo >> (32 - s)) << 32 | (uint32_t)(lo << s);
}

uint64_t __lshrdi3(uint64_t v, int s)
{
	const uint32_t lo = (uint32_t)v, hi = (uint32_t)(v >> 32);

	if (s == 0)
		return v;
	if (s >= 32)
		return hi >> (s - 32);
	return (uint64_t)(hi >> s) << 32 | (lo >> s | hi << (32 - s));
}
