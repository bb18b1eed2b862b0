/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * froce: netdev ring descriptors (NTX_DESC, NRX_DESC) and ring index
 * arithmetic. Pure inline functions on memory, no device access: included by
 * froce_netdev.c and by the host unit test test/ndring_test.c.
 *
 * Indexes are free-running u32 counters of descriptors posted (head) and
 * completed (tail). The hardware's PI and CI are 16 bits; a ring has at most
 * 2^15 entries and 2^32 is a multiple of 2^16, so the low 16 bits of head are
 * the PI to write, and slot = index & (size - 1) matches the descriptor the
 * hardware uses (ADDR + 16 * (PI mod 2^LOG_SIZE), rtl/core/froce_netdev.v).
 */

#ifndef FROCE_NDRING_H
#define FROCE_NDRING_H

#include <linux/types.h>

#include "froce_hw.h"
#include "froce_mbox.h"

/* descriptors in use (posted, not yet completed) */
static inline u32 froce_ring_used(u32 head, u32 tail)
{
	return head - tail;
}

/* descriptors the driver may still post into a ring of @size */
static inline u32 froce_ring_free(u32 head, u32 tail, u32 size)
{
	return size - froce_ring_used(head, tail);
}

static inline u32 froce_ring_slot(u32 idx, u32 size)
{
	return idx & (size - 1);
}

/* the value for NTX_PI / NRX_PI */
static inline u32 froce_ring_pi(u32 head)
{
	return head & FIELD_MAX(FROCE_REG_NTX_PI_PI_MASK);
}

/*
 * TX descriptor: one buffer of @len bytes at @addr, @eop on the last buffer
 * of a frame; dw3 (DONE, ERR) is cleared for the hardware to set.
 */
static inline void froce_ntx_desc_fill(void *desc, u64 addr, u16 len,
				       bool eop)
{
	__le32 *d = desc;

	((__le64 *)desc)[FROCE_NTX_DESC_ADDR_QW] = cpu_to_le64(addr);
	d[FROCE_NTX_DESC_LEN_DW] =
		cpu_to_le32(FIELD_PREP(FROCE_NTX_DESC_LEN_MASK, len) |
			    FIELD_PREP(FROCE_NTX_DESC_EOP_MASK, eop));
	d[FROCE_NTX_DESC_DONE_DW] = 0;
}

/*
 * dw3 of a TX descriptor as the hardware last wrote it; DONE means the
 * buffer may be reused, ERR that the frame was dropped.
 */
static inline u32 froce_ntx_desc_status(const void *desc)
{
	const __le32 *d = desc;

	return le32_to_cpu(READ_ONCE(d[FROCE_NTX_DESC_DONE_DW]));
}

static inline bool froce_ntx_done(u32 status)
{
	return FIELD_GET(FROCE_NTX_DESC_DONE_MASK, status);
}

static inline bool froce_ntx_err(u32 status)
{
	return FIELD_GET(FROCE_NTX_DESC_ERR_MASK, status);
}

/* RX descriptor: an empty buffer of @buf_len bytes at @addr, dw3 cleared. */
static inline void froce_nrx_desc_fill(void *desc, u64 addr, u16 buf_len)
{
	__le32 *d = desc;

	((__le64 *)desc)[FROCE_NRX_DESC_ADDR_QW] = cpu_to_le64(addr);
	d[FROCE_NRX_DESC_BUF_LEN_DW] =
		cpu_to_le32(FIELD_PREP(FROCE_NRX_DESC_BUF_LEN_MASK, buf_len));
	d[FROCE_NRX_DESC_DONE_DW] = 0;
}

/* dw3 of an RX descriptor: {PKT_LEN, VERDICT, ERR, DONE}, one dword write */
static inline u32 froce_nrx_desc_status(const void *desc)
{
	const __le32 *d = desc;

	return le32_to_cpu(READ_ONCE(d[FROCE_NRX_DESC_DONE_DW]));
}

static inline bool froce_nrx_done(u32 status)
{
	return FIELD_GET(FROCE_NRX_DESC_DONE_MASK, status);
}

static inline bool froce_nrx_err(u32 status)
{
	return FIELD_GET(FROCE_NRX_DESC_ERR_MASK, status);
}

static inline u32 froce_nrx_pkt_len(u32 status)
{
	return FIELD_GET(FROCE_NRX_DESC_PKT_LEN_MASK, status);
}

static inline u32 froce_nrx_verdict(u32 status)
{
	return FIELD_GET(FROCE_NRX_DESC_VERDICT_MASK, status);
}

#endif /* FROCE_NDRING_H */
