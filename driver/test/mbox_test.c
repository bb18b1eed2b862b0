// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Host unit test of froce_mbox.c: command block encoding, status decoding
 * and EQE ownership, built with the shims in test/shim under ASan/UBSan
 * ('make -C driver test').
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>

#include "froce_mbox.h"

static int failures;

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: CHECK(%s) failed\n",		\
			__FILE__, __LINE__, #cond);			\
		failures++;						\
	}								\
} while (0)

static u32 rd32(const u8 *b, unsigned int off)
{
	return b[off] | b[off + 1] << 8 | b[off + 2] << 16 |
	       (u32)b[off + 3] << 24;
}

static void check_cmd(const char *name, u16 op, u16 in_len, u16 out_len)
{
	const struct froce_cmd_info *info = froce_cmd_info(op);

	CHECK(info && !strcmp(info->name, name));
	CHECK(info && info->in_len == in_len && info->out_len == out_len);
}

static void test_cmd_table(void)
{
#define CHECK_CMD(nm, op, in, out) check_cmd(#nm, op, in, out);
	FROCE_CMD_LIST(CHECK_CMD)
#undef CHECK_CMD

	CHECK(!froce_cmd_info(0xbeef));
	CHECK(!strcmp(froce_cmd_name(FROCE_CMD_ALLOC_PD), "ALLOC_PD"));
	CHECK(!strcmp(froce_cmd_name(0xbeef), "UNKNOWN"));
}

static void test_status(void)
{
	CHECK(froce_cmd_status_errno(FROCE_CMD_STATUS_OK) == 0);
	CHECK(froce_cmd_status_errno(FROCE_CMD_STATUS_BAD_PARAM) == -EINVAL);
	CHECK(froce_cmd_status_errno(FROCE_CMD_STATUS_BAD_OPCODE) ==
	      -EOPNOTSUPP);
	CHECK(froce_cmd_status_errno(FROCE_CMD_STATUS_RESOURCE_BUSY) ==
	      -EBUSY);
	CHECK(froce_cmd_status_errno(FROCE_CMD_STATUS_EXCEED_LIM) == -ENOMEM);
	CHECK(froce_cmd_status_errno(FROCE_CMD_STATUS_INTERNAL_ERR) == -EIO);
	CHECK(froce_cmd_status_errno(0x77) == -EIO);
	CHECK(!strcmp(froce_cmd_status_name(FROCE_CMD_STATUS_BAD_SIZE),
		      "BAD_SIZE"));
	CHECK(!strcmp(froce_cmd_status_name(0x77), "UNKNOWN"));
}

static void test_prepare(void)
{
	static u8 blk[FROCE_MBOX_SIZE] __aligned(4096);
	const u8 in[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	unsigned int i;

	memset(blk, 0xaa, sizeof(blk));
	CHECK(froce_mbox_prepare(blk, FROCE_CMD_QUERY_PORT, 0x1234, in,
				 sizeof(in), 16) == 0);
	/* MBOX_HDR: dw0 OPCODE | TOKEN << 16, dw1 IN_LEN | OUT_LEN << 16 */
	CHECK(rd32(blk, 0) == (FROCE_CMD_QUERY_PORT | 0x1234u << 16));
	CHECK(rd32(blk, 4) == (8u | 16u << 16));
	/* SYNDROME, STATUS/DONE and the rest of the header are zero */
	for (i = 8; i < FROCE_MBOX_IN_OFF; i++)
		CHECK(blk[i] == 0);
	CHECK(!froce_mbox_done(blk));
	CHECK(!memcmp(blk + FROCE_MBOX_IN_OFF, in, sizeof(in)));
	/* nothing past the input is touched, the output area included */
	for (i = FROCE_MBOX_IN_OFF + sizeof(in); i < sizeof(blk); i++)
		CHECK(blk[i] == 0xaa);
	CHECK(froce_mbox_out(blk) == blk + FROCE_MBOX_OUT_OFF);

	/* no input */
	CHECK(froce_mbox_prepare(blk, FROCE_CMD_QUERY_FW, 0xffff, NULL, 0,
				 16) == 0);
	CHECK(rd32(blk, 0) == (FROCE_CMD_QUERY_FW | 0xffffu << 16));
	CHECK(rd32(blk, 4) == 16u << 16);

	/* refused sizes leave the block alone */
	memset(blk, 0x55, sizeof(blk));
	CHECK(froce_mbox_prepare(blk, 0, 0, in, FROCE_MBOX_IN_MAX + 1, 0) ==
	      -EINVAL);
	CHECK(froce_mbox_prepare(blk, 0, 0, in, 0, FROCE_MBOX_OUT_MAX + 1) ==
	      -EINVAL);
	CHECK(froce_mbox_prepare(blk, 0, 0, NULL, 8, 0) == -EINVAL);
	for (i = 0; i < sizeof(blk); i++)
		CHECK(blk[i] == 0x55);
	/* the largest input fits in front of the output area */
	CHECK(FROCE_MBOX_IN_OFF + FROCE_MBOX_IN_MAX <= FROCE_MBOX_OUT_OFF);
	CHECK(FROCE_MBOX_OUT_OFF + FROCE_MBOX_OUT_MAX <= FROCE_MBOX_SIZE);
}

static void test_result(void)
{
	__le32 hdr[FROCE_MBOX_HDR_SIZE / 4] = { 0 };
	u32 syndrome;
	u8 status;

	CHECK(!froce_mbox_done(hdr));
	hdr[2] = cpu_to_le32(0x80000004);
	hdr[3] = cpu_to_le32(0x80000000 | FROCE_CMD_STATUS_BAD_SIZE);
	CHECK(froce_mbox_done(hdr));
	froce_mbox_result(hdr, &status, &syndrome);
	CHECK(status == FROCE_CMD_STATUS_BAD_SIZE);
	CHECK(syndrome == 0x80000004);
}

static void test_fields(void)
{
	__le64 buf[4] = { 0 };

	buf[0] = cpu_to_le64(~0ULL);
	FROCE_SET_DW(buf, FROCE_CMD_ADD_GID_IN_VLAN_ID, 0x123);
	CHECK(FROCE_GET_DW(buf, FROCE_CMD_ADD_GID_IN_VLAN_ID) == 0x123);
	CHECK(FROCE_GET_DW(buf, FROCE_CMD_ADD_GID_IN_INDEX) == 0xff);
	CHECK(le32_to_cpu(((__le32 *)buf)[1]) == 0xffffffff);

	FROCE_SET_QW(buf, FROCE_CMD_ADD_GID_IN_SMAC, 0x020000000001ULL);
	CHECK(FROCE_GET_QW(buf, FROCE_CMD_ADD_GID_IN_SMAC) ==
	      0x020000000001ULL);
	/* first wire octet in bits 47:40: byte 13 of the input */
	CHECK(((u8 *)buf)[8] == 0x01 && ((u8 *)buf)[13] == 0x02);
	CHECK(((u8 *)buf)[14] == 0 && ((u8 *)buf)[15] == 0);
}

static void test_set_port(void)
{
	u8 in[FROCE_CMD_SET_PORT_IN_SIZE];
	const struct froce_cmd_info *info = froce_cmd_info(FROCE_CMD_SET_PORT);

	CHECK(info && info->in_len == sizeof(in) && info->out_len == 0);

	memset(in, 0xaa, sizeof(in));
	/* 02:11:22:33:44:55, MTU 9000, all-multicast */
	froce_set_port_encode(in, 1, 0x021122334455ULL, 9000, false, true);
	/* dw0: PORT 7:0, PROMISC 8, ALLMULTI 9; dw1: MTU 15:0 */
	CHECK(rd32(in, 0) == (1u | 1u << 9));
	CHECK(rd32(in, 4) == 9000);
	/* qw1: MAC 47:0, first octet in bits 47:40 (byte 13); 63:48 zero */
	CHECK(in[8] == 0x55 && in[9] == 0x44 && in[10] == 0x33 &&
	      in[11] == 0x22 && in[12] == 0x11 && in[13] == 0x02);
	CHECK(in[14] == 0 && in[15] == 0);

	froce_set_port_encode(in, 1, 0xffffffffffffULL, 68, true, false);
	CHECK(rd32(in, 0) == (1u | 1u << 8));
	CHECK(rd32(in, 4) == 68);
	CHECK(rd32(in, 8) == 0xffffffff && rd32(in, 12) == 0xffff);
}

static void test_eqe_owner(void)
{
	__le32 ring[4][FROCE_EQE_SIZE / 4] = { { 0 } };
	const u32 log_size = 2;
	u32 ci;

	/* zeroed ring: nothing valid on the first pass */
	for (ci = 0; ci < 4; ci++)
		CHECK(!froce_eqe_valid(ring[ci], ci, log_size));
	/* first pass: OWNER 1 */
	for (ci = 0; ci < 4; ci++) {
		ring[ci][FROCE_EQE_OWNER_DW] = cpu_to_le32(FROCE_EQE_OWNER_MASK);
		CHECK(froce_eqe_valid(ring[ci], ci, log_size));
	}
	/* second pass: the stale OWNER 1 entries are not valid, OWNER 0 is */
	for (ci = 4; ci < 8; ci++) {
		CHECK(!froce_eqe_valid(ring[ci & 3], ci, log_size));
		ring[ci & 3][FROCE_EQE_OWNER_DW] = 0;
		CHECK(froce_eqe_valid(ring[ci & 3], ci, log_size));
	}
	/*
	 * the free-running index wraps at 2^32, a multiple of the ring size:
	 * the last pass before the wrap is odd (OWNER 0), the next even
	 */
	CHECK(froce_eqe_valid(ring[0], 0xfffffffcu, log_size));
	CHECK(!froce_eqe_valid(ring[0], 0, log_size));
}

int main(void)
{
	test_cmd_table();
	test_status();
	test_prepare();
	test_result();
	test_fields();
	test_set_port();
	test_eqe_owner();
	if (failures) {
		fprintf(stderr, "mbox_test: %d failures\n", failures);
		return 1;
	}
	printf("mbox_test: ok\n");
	return 0;
}
