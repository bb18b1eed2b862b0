/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Host shim of <linux/kernel.h>. */
#ifndef FROCE_SHIM_KERNEL_H
#define FROCE_SHIM_KERNEL_H

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define __aligned(x)	__attribute__((aligned(x)))
#define READ_ONCE(x)	(*(const volatile typeof(x) *)&(x))

#endif
