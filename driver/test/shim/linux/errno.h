/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Host shim of <linux/errno.h>: the uapi values, as the system header has. */
#include <asm/errno.h>
