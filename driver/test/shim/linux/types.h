/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Host shim of <linux/types.h> for the froce_mbox.c unit test. */
#ifndef FROCE_SHIM_TYPES_H
#define FROCE_SHIM_TYPES_H

#include <endian.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef uint32_t __le32;
typedef uint64_t __le64;

#define le32_to_cpu(x)	le32toh(x)
#define cpu_to_le32(x)	htole32(x)
#define le64_to_cpu(x)	le64toh(x)
#define cpu_to_le64(x)	htole64(x)

#endif
