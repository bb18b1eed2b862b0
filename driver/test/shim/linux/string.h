/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Host shim of <linux/string.h>. */
#include <string.h>
