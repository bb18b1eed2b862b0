/* SPDX-License-Identifier: MIT */
/* memcpy/memset/memcmp: the C library's on the build host, src/rv32/rt.c's
 * in the freestanding RV32 image (the cross compiler ships no libc). */
#ifndef FW_STRING_H
#define FW_STRING_H

#include <stddef.h>

#if __STDC_HOSTED__
#include <string.h>
#else
void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
#endif

#endif /* FW_STRING_H */
