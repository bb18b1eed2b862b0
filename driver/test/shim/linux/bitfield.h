/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Host shim of <linux/bitfield.h> (no compile-time checks). */
#ifndef FROCE_SHIM_BITFIELD_H
#define FROCE_SHIM_BITFIELD_H

#define __bf_shf(x)		__builtin_ctzll(x)
#define FIELD_MAX(mask)		((typeof(mask))((mask) >> __bf_shf(mask)))
#define FIELD_GET(mask, reg) \
	((typeof(mask))(((reg) & (mask)) >> __bf_shf(mask)))
#define FIELD_PREP(mask, val) \
	(((typeof(mask))(val) << __bf_shf(mask)) & (mask))

#endif
