/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * froce: encoding and decoding of the 4 KiB firmware command block and of
 * EQEs. Pure functions on memory, no device access: the same source is built
 * into froce.ko and into a host unit test (test/mbox_test.c).
 */

#ifndef FROCE_MBOX_H
#define FROCE_MBOX_H

#include <linux/bitfield.h>
#include <linux/types.h>

#include "froce_hw.h"

/* Field F of a little-endian dword / qword array (F_DW or F_QW, F_MASK). */
#define FROCE_GET_DW(buf, F) \
	FIELD_GET(F##_MASK, le32_to_cpu(((const __le32 *)(buf))[F##_DW]))
#define FROCE_GET_QW(buf, F) \
	FIELD_GET(F##_MASK, le64_to_cpu(((const __le64 *)(buf))[F##_QW]))
#define FROCE_SET_DW(buf, F, val) \
	froce_dw_update((__le32 *)(buf) + F##_DW, F##_MASK, \
			FIELD_PREP(F##_MASK, val))
#define FROCE_SET_QW(buf, F, val) \
	froce_qw_update((__le64 *)(buf) + F##_QW, F##_MASK, \
			FIELD_PREP(F##_MASK, val))

static inline void froce_dw_update(__le32 *p, u32 mask, u32 bits)
{
	*p = cpu_to_le32((le32_to_cpu(*p) & ~mask) | bits);
}

static inline void froce_qw_update(__le64 *p, u64 mask, u64 bits)
{
	*p = cpu_to_le64((le64_to_cpu(*p) & ~mask) | bits);
}

/* Name, input and output sizes of a command; NULL name if unknown. */
struct froce_cmd_info {
	const char *name;
	u16 opcode;
	u16 in_len;
	u16 out_len;
};

const struct froce_cmd_info *froce_cmd_info(u16 opcode);
const char *froce_cmd_name(u16 opcode);
const char *froce_cmd_status_name(u8 status);
int froce_cmd_status_errno(u8 status);

/*
 * Prepare the block for a command: header (DONE clear) and input. The output
 * area is left alone; the firmware writes it only on success.
 */
int froce_mbox_prepare(void *blk, u16 opcode, u16 token, const void *in,
		       u32 in_len, u32 out_len);
/* DONE as seen in the block (the caller orders the rest after it). */
bool froce_mbox_done(const void *blk);
/* STATUS and SYNDROME of a completed block. */
void froce_mbox_result(const void *blk, u8 *status, u32 *syndrome);
/* Output area of the block. */
const void *froce_mbox_out(const void *blk);

/*
 * SET_PORT input (FROCE_CMD_SET_PORT_IN_SIZE bytes, zeroed here): @mac as a
 * 48-bit number with the first octet in bits 47:40 (ether_addr_to_u64()).
 */
void froce_set_port_encode(void *in, u8 port, u64 mac, u16 mtu, bool promisc,
			   bool allmulti);

/* Entry @ci of an EQ of 2^@log_size entries belongs to the host. */
bool froce_eqe_valid(const __le32 *eqe, u32 ci, u32 log_size);

#endif /* FROCE_MBOX_H */
