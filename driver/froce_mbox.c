// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * froce: command block and EQE encoding, shared with the host unit test.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "froce_mbox.h"

#define FROCE_CMD_INFO(name, op, in, out) \
	{ #name, op, in, out },
static const struct froce_cmd_info froce_cmds[] = {
	FROCE_CMD_LIST(FROCE_CMD_INFO)
};

#undef FROCE_CMD_INFO

struct froce_status_info {
	const char *name;
	u8 status;
	int err;
};

#define FROCE_STATUS_INFO(name, val, err) \
	{ #name, val, err },
static const struct froce_status_info froce_statuses[] = {
	FROCE_CMD_STATUS_LIST(FROCE_STATUS_INFO)
};

#undef FROCE_STATUS_INFO

const struct froce_cmd_info *froce_cmd_info(u16 opcode)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(froce_cmds); i++)
		if (froce_cmds[i].opcode == opcode)
			return &froce_cmds[i];
	return NULL;
}

const char *froce_cmd_name(u16 opcode)
{
	const struct froce_cmd_info *info = froce_cmd_info(opcode);

	return info ? info->name : "UNKNOWN";
}

static const struct froce_status_info *froce_status_info(u8 status)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(froce_statuses); i++)
		if (froce_statuses[i].status == status)
			return &froce_statuses[i];
	return NULL;
}

const char *froce_cmd_status_name(u8 status)
{
	const struct froce_status_info *info = froce_status_info(status);

	return info ? info->name : "UNKNOWN";
}

/* 0 for OK, the spec's errno negated otherwise, -EIO for unknown values. */
int froce_cmd_status_errno(u8 status)
{
	const struct froce_status_info *info = froce_status_info(status);

	return info ? -info->err : -EIO;
}

int froce_mbox_prepare(void *blk, u16 opcode, u16 token, const void *in,
		       u32 in_len, u32 out_len)
{
	u8 *b = blk;

	if (in_len > FROCE_MBOX_IN_MAX || out_len > FROCE_MBOX_OUT_MAX ||
	    (in_len && !in))
		return -EINVAL;

	memset(b, 0, FROCE_MBOX_IN_OFF + in_len);
	if (in_len)
		memcpy(b + FROCE_MBOX_IN_OFF, in, in_len);
	FROCE_SET_DW(b, FROCE_MBOX_HDR_OPCODE, opcode);
	FROCE_SET_DW(b, FROCE_MBOX_HDR_TOKEN, token);
	FROCE_SET_DW(b, FROCE_MBOX_HDR_IN_LEN, in_len);
	FROCE_SET_DW(b, FROCE_MBOX_HDR_OUT_LEN, out_len);
	return 0;
}

bool froce_mbox_done(const void *blk)
{
	const __le32 *w = blk;
	u32 dw = le32_to_cpu(READ_ONCE(w[FROCE_MBOX_HDR_DONE_DW]));

	return FIELD_GET(FROCE_MBOX_HDR_DONE_MASK, dw);
}

void froce_mbox_result(const void *blk, u8 *status, u32 *syndrome)
{
	*status = FROCE_GET_DW(blk, FROCE_MBOX_HDR_STATUS);
	*syndrome = FROCE_GET_DW(blk, FROCE_MBOX_HDR_SYNDROME);
}

const void *froce_mbox_out(const void *blk)
{
	return (const u8 *)blk + FROCE_MBOX_OUT_OFF;
}

void froce_set_port_encode(void *in, u8 port, u64 mac, u16 mtu, bool promisc,
			   bool allmulti)
{
	memset(in, 0, FROCE_CMD_SET_PORT_IN_SIZE);
	FROCE_SET_DW(in, FROCE_CMD_SET_PORT_IN_PORT, port);
	FROCE_SET_DW(in, FROCE_CMD_SET_PORT_IN_PROMISC, promisc);
	FROCE_SET_DW(in, FROCE_CMD_SET_PORT_IN_ALLMULTI, allmulti);
	FROCE_SET_DW(in, FROCE_CMD_SET_PORT_IN_MTU, mtu);
	FROCE_SET_QW(in, FROCE_CMD_SET_PORT_IN_MAC, mac);
}

bool froce_eqe_valid(const __le32 *eqe, u32 ci, u32 log_size)
{
	u32 dw = le32_to_cpu(READ_ONCE(eqe[FROCE_EQE_OWNER_DW]));

	return FIELD_GET(FROCE_EQE_OWNER_MASK, dw) == !((ci >> log_size) & 1);
}
