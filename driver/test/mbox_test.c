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

#include "check.h"

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

static u64 rd64(const u8 *b, unsigned int off)
{
	return rd32(b, off) | (u64)rd32(b, off + 4) << 32;
}

/* field F of a command image, read with the generated _DW/_SHIFT/_MASK */
#define IMG_DW(img, F) ((rd32(img, 4 * F##_DW) & F##_MASK) >> F##_SHIFT)

static void test_buf_plan(void)
{
	u32 lists;
	u8 level;

	CHECK(froce_buf_plan(0, true, &level, &lists) == -EINVAL);
	CHECK(froce_buf_plan(7, true, &level, &lists) == 0);
	CHECK(level == FROCE_BUF_LEVEL_CONTIG && lists == 0);
	CHECK(froce_buf_plan(1, false, &level, &lists) == 0);
	CHECK(level == FROCE_BUF_LEVEL_LIST && lists == 1);
	CHECK(froce_buf_plan(FROCE_BUF_LIST_ENTRIES, false, &level,
			     &lists) == 0);
	CHECK(level == FROCE_BUF_LEVEL_LIST && lists == 1);
	CHECK(froce_buf_plan(FROCE_BUF_LIST_ENTRIES + 1, false, &level,
			     &lists) == 0);
	CHECK(level == FROCE_BUF_LEVEL_LIST2 && lists == 3);
	CHECK(froce_buf_plan(FROCE_BUF_LIST_ENTRIES * FROCE_BUF_LIST_ENTRIES,
			     false, &level, &lists) == 0);
	CHECK(level == FROCE_BUF_LEVEL_LIST2 &&
	      lists == 1 + FROCE_BUF_LIST_ENTRIES);
	CHECK(froce_buf_plan(FROCE_BUF_LIST_ENTRIES * FROCE_BUF_LIST_ENTRIES +
			     1, false, &level, &lists) == -E2BIG);
}

static void test_buf_fill(void)
{
	const u32 per = FROCE_BUF_LIST_ENTRIES;
	const u32 n = 2 * per + 3;	/* LIST2: top + 3 lists */
	u64 *pages = calloc(n, sizeof(*pages));
	u64 dma[4] = { 0x1000, 0x2000, 0x3000, 0x4000 };
	__le64 *lists[4];
	u32 i, nlist;
	u8 level;

	CHECK(pages != NULL);
	if (!pages)
		return;
	for (i = 0; i < 4; i++) {
		lists[i] = calloc(per, sizeof(__le64));
		CHECK(lists[i] != NULL);
		if (!lists[i])
			return;
	}
	for (i = 0; i < n; i++)
		pages[i] = 0x100000000ULL + ((u64)i << 21);

	CHECK(froce_buf_plan(n, false, &level, &nlist) == 0);
	CHECK(level == FROCE_BUF_LEVEL_LIST2 && nlist == 4);
	froce_buf_fill(level, pages, n, lists, dma);
	/* top page: the DMA addresses of the three list pages, then 0 */
	CHECK(le64_to_cpu(lists[0][0]) == 0x2000);
	CHECK(le64_to_cpu(lists[0][1]) == 0x3000);
	CHECK(le64_to_cpu(lists[0][2]) == 0x4000);
	CHECK(lists[0][3] == 0);
	for (i = 0; i < n; i++)
		CHECK(le64_to_cpu(lists[1 + i / per][i % per]) == pages[i]);
	CHECK(lists[3][3] == 0);

	/* LIST: the pages in list 0 */
	memset(lists[0], 0, per * sizeof(__le64));
	CHECK(froce_buf_plan(5, false, &level, &nlist) == 0);
	froce_buf_fill(level, pages, 5, lists, dma);
	for (i = 0; i < 5; i++)
		CHECK(le64_to_cpu(lists[0][i]) == pages[i]);
	CHECK(lists[0][5] == 0);

	for (i = 0; i < 4; i++)
		free(lists[i]);
	free(pages);
}

static void check_buf(const u8 *img, unsigned int off,
		      const struct froce_buf_desc *b)
{
	CHECK(rd64(img, off + 8 * FROCE_BUF_ADDR_QW) == b->addr);
	CHECK(((rd32(img, off + 4 * FROCE_BUF_NUM_PAGES_DW) &
		FROCE_BUF_NUM_PAGES_MASK) >> FROCE_BUF_NUM_PAGES_SHIFT) ==
	      b->num_pages);
	CHECK(((rd32(img, off + 4 * FROCE_BUF_PAGE_SHIFT_DW) &
		FROCE_BUF_PAGE_SHIFT_MASK) >> FROCE_BUF_PAGE_SHIFT_SHIFT) ==
	      b->page_shift);
	CHECK(((rd32(img, off + 4 * FROCE_BUF_LEVEL_DW) &
		FROCE_BUF_LEVEL_MASK) >> FROCE_BUF_LEVEL_SHIFT) == b->level);
}

static void test_create_cq_eq(void)
{
	const struct froce_buf_desc ring = {
		.addr = 0x123456789000ULL, .num_pages = 3, .page_shift = 12,
		.level = FROCE_BUF_LEVEL_LIST,
	};
	const struct froce_buf_desc eqr = {
		.addr = 0xabc000, .num_pages = 1, .page_shift = 12,
		.level = FROCE_BUF_LEVEL_CONTIG,
	};
	u8 img[FROCE_CMD_CREATE_CQ_IN_SIZE] = { 0 };
	u8 eimg[FROCE_CMD_CREATE_EQ_IN_SIZE] = { 0 };

	CHECK(froce_enc_create_cq(img, &ring, 10, 5, 77) == 0);
	check_buf(img, 8 * FROCE_CMD_CREATE_CQ_IN_BUF_ADDR_QW, &ring);
	CHECK(IMG_DW(img, FROCE_CMD_CREATE_CQ_IN_LOG_SIZE) == 10);
	CHECK(IMG_DW(img, FROCE_CMD_CREATE_CQ_IN_EQN) == 5);
	CHECK(IMG_DW(img, FROCE_CMD_CREATE_CQ_IN_UAR) == 77);
	/* spec: BUF at dw 0..3, LOG_SIZE dw4[4:0], EQN dw4[13:8], UAR dw5 */
	CHECK(rd32(img, 16) == (10u | 5u << 8));
	CHECK(rd32(img, 20) == 77);
	CHECK(rd32(img, 12) == (12u | FROCE_BUF_LEVEL_LIST << 8));
	/* EQN beyond its 6 bits */
	CHECK(froce_enc_create_cq(img, &ring, 10, 64, 77) == -EINVAL);

	CHECK(froce_enc_create_eq(eimg, &eqr, 8, 3) == 0);
	check_buf(eimg, 0, &eqr);
	CHECK(IMG_DW(eimg, FROCE_CMD_CREATE_EQ_IN_LOG_SIZE) == 8);
	CHECK(IMG_DW(eimg, FROCE_CMD_CREATE_EQ_IN_VECTOR) == 3);
	/* an EQ ring must be CONTIG */
	CHECK(froce_enc_create_eq(eimg, &ring, 8, 3) == -EINVAL);
}

static void test_create_qp(void)
{
	struct froce_create_qp_params p = {
		.type = FROCE_QP_TYPE_UD, .sig_all = true, .pdn = 0x12345,
		.send_cqn = 7, .recv_cqn = 8, .uar = 3, .log_sq_size = 6,
		.sq_wqe_shift = 7, .log_rq_size = 5, .rq_wqe_shift = 6,
		.sq = { .addr = 0x1000, .num_pages = 2, .page_shift = 12,
			.level = FROCE_BUF_LEVEL_CONTIG },
		.rq = { .addr = 0x9000, .num_pages = 1, .page_shift = 12,
			.level = FROCE_BUF_LEVEL_LIST },
	};
	u8 img[FROCE_CMD_CREATE_QP_IN_SIZE] = { 0 };

	CHECK(froce_enc_create_qp(img, &p) == 0);
	CHECK(IMG_DW(img, FROCE_CMD_CREATE_QP_IN_TYPE) == FROCE_QP_TYPE_UD);
	CHECK(IMG_DW(img, FROCE_CMD_CREATE_QP_IN_PRIV) == 0);
	CHECK(IMG_DW(img, FROCE_CMD_CREATE_QP_IN_SIG_ALL) == 1);
	CHECK(IMG_DW(img, FROCE_CMD_CREATE_QP_IN_PDN) == 0x12345);
	CHECK(IMG_DW(img, FROCE_CMD_CREATE_QP_IN_SEND_CQN) == 7);
	CHECK(IMG_DW(img, FROCE_CMD_CREATE_QP_IN_RECV_CQN) == 8);
	CHECK(IMG_DW(img, FROCE_CMD_CREATE_QP_IN_UAR) == 3);
	CHECK(IMG_DW(img, FROCE_CMD_CREATE_QP_IN_LOG_SQ_SIZE) == 6);
	CHECK(IMG_DW(img, FROCE_CMD_CREATE_QP_IN_SQ_WQE_SHIFT) == 7);
	CHECK(IMG_DW(img, FROCE_CMD_CREATE_QP_IN_LOG_RQ_SIZE) == 5);
	CHECK(IMG_DW(img, FROCE_CMD_CREATE_QP_IN_RQ_WQE_SHIFT) == 6);
	/* spec: dw0 TYPE | SIG_ALL << 9, dw5 sizes, SQ_BUF dw8, RQ_BUF dw12 */
	CHECK(rd32(img, 0) == (FROCE_QP_TYPE_UD | 1u << 9));
	CHECK(rd32(img, 20) == (6u | 7u << 8 | 5u << 16 | 6u << 24));
	check_buf(img, 32, &p.sq);
	check_buf(img, 48, &p.rq);
	p.log_sq_size = 32;
	CHECK(froce_enc_create_qp(img, &p) == -EINVAL);
}

static void test_modify_qp(void)
{
	struct froce_qp_attr a = { 0 }, q;
	u8 img[FROCE_CMD_MODIFY_QP_IN_SIZE];
	static const u8 dgid[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff,
				     10, 0, 0, 2 };
	static const u8 dmac[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
	u32 bad;

	/* INIT: IB_QP_STATE | PKEY_INDEX | PORT | ACCESS_FLAGS */
	memset(img, 0, sizeof(img));
	a.mask = FROCE_QP_ATTR_STATE | FROCE_QP_ATTR_PKEY_INDEX |
		 FROCE_QP_ATTR_PORT | FROCE_QP_ATTR_ACCESS_FLAGS;
	a.state = FROCE_QP_STATE_INIT;
	a.port = 1;
	a.access = FROCE_ACCESS_REMOTE_WRITE | FROCE_ACCESS_REMOTE_READ;
	a.qkey = 0x11111111;	/* not in the mask: not written */
	CHECK(froce_enc_modify_qp(img, 0x42, &a, &bad) == 0);
	CHECK(IMG_DW(img, FROCE_CMD_MODIFY_QP_IN_QPN) == 0x42);
	CHECK(IMG_DW(img, FROCE_CMD_MODIFY_QP_IN_ATTR_MASK) == 0x39);
	CHECK(IMG_DW(img, FROCE_CMD_MODIFY_QP_IN_STATE) == 1);
	CHECK(IMG_DW(img, FROCE_CMD_MODIFY_QP_IN_PORT) == 1);
	CHECK(IMG_DW(img, FROCE_CMD_MODIFY_QP_IN_ACCESS_FLAGS) == 6);
	CHECK(IMG_DW(img, FROCE_CMD_MODIFY_QP_IN_QKEY) == 0);
	/* QPATTR at dw 4: STATE [3:0], ACCESS [23:16], PORT [31:24] */
	CHECK(rd32(img, 16) == (1u | 6u << 16 | 1u << 24));

	/* RTR of an RC QP over RoCE v2 / IPv4 with every path field */
	memset(img, 0, sizeof(img));
	memset(&a, 0, sizeof(a));
	a.mask = FROCE_QP_ATTR_STATE | FROCE_QP_ATTR_AV |
		 FROCE_QP_ATTR_PATH_MTU | FROCE_QP_ATTR_DEST_QPN |
		 FROCE_QP_ATTR_RQ_PSN | FROCE_QP_ATTR_MAX_DEST_RD_ATOMIC |
		 FROCE_QP_ATTR_MIN_RNR_TIMER;
	a.state = FROCE_QP_STATE_RTR;
	a.path_mtu = FROCE_MTU_1024;
	a.dest_qpn = 0xabcdef;
	a.rq_psn = 0x123456;
	a.max_dest_rd_atomic = 4;
	a.min_rnr_timer = 12;
	a.av.sgid_index = 3;
	a.av.hop_limit = 64;
	a.av.tclass = 0x68;
	a.av.net_type = FROCE_KIND_ROCE_V2_IPV4;
	a.av.vlan_en = true;
	a.av.vlan_id = 100;
	a.av.flow_label = 0xfffff;
	memcpy(a.av.dmac, dmac, 6);
	memcpy(a.av.dgid, dgid, 16);
	CHECK(froce_enc_modify_qp(img, 7, &a, &bad) == 0);
	CHECK(IMG_DW(img, FROCE_CMD_MODIFY_QP_IN_PATH_MTU) == FROCE_MTU_1024);
	CHECK(IMG_DW(img, FROCE_CMD_MODIFY_QP_IN_DEST_QPN) == 0xabcdef);
	CHECK(IMG_DW(img, FROCE_CMD_MODIFY_QP_IN_RQ_PSN) == 0x123456);
	CHECK(IMG_DW(img, FROCE_CMD_MODIFY_QP_IN_MAX_DEST_RD_ATOMIC) == 4);
	CHECK(IMG_DW(img, FROCE_CMD_MODIFY_QP_IN_MIN_RNR_TIMER) == 12);
	CHECK(IMG_DW(img, FROCE_CMD_MODIFY_QP_IN_AV_SGID_INDEX) == 3);
	CHECK(IMG_DW(img, FROCE_CMD_MODIFY_QP_IN_AV_HOP_LIMIT) == 64);
	CHECK(IMG_DW(img, FROCE_CMD_MODIFY_QP_IN_AV_TCLASS) == 0x68);
	CHECK(IMG_DW(img, FROCE_CMD_MODIFY_QP_IN_AV_NET_TYPE) ==
	      FROCE_KIND_ROCE_V2_IPV4);
	CHECK(IMG_DW(img, FROCE_CMD_MODIFY_QP_IN_AV_VLAN_EN) == 1);
	CHECK(IMG_DW(img, FROCE_CMD_MODIFY_QP_IN_AV_VLAN_ID) == 100);
	CHECK(IMG_DW(img, FROCE_CMD_MODIFY_QP_IN_AV_FLOW_LABEL) == 0xfffff);
	CHECK(IMG_DW(img, FROCE_CMD_MODIFY_QP_IN_AV_UDP_SPORT) == 0);
	/* DMAC: first wire octet in bits 47:40 of its qword */
	CHECK(rd64(img, 8 * FROCE_CMD_MODIFY_QP_IN_AV_DMAC_QW) ==
	      0x021122334455ULL);
	CHECK(!memcmp(img + FROCE_CMD_MODIFY_QP_IN_AV_DGID_BYTE, dgid, 16));
	/* SQ fields not in the mask stay 0 */
	CHECK(IMG_DW(img, FROCE_CMD_MODIFY_QP_IN_SQ_PSN) == 0);
	CHECK(IMG_DW(img, FROCE_CMD_MODIFY_QP_IN_TIMEOUT) == 0);

	/* QUERY_QP output has QPATTR at dw 0: decode what was encoded */
	froce_dec_query_qp(img + 16, &q);
	CHECK(q.state == FROCE_QP_STATE_RTR && q.path_mtu == FROCE_MTU_1024);
	CHECK(q.dest_qpn == 0xabcdef && q.rq_psn == 0x123456);
	CHECK(q.max_dest_rd_atomic == 4 && q.min_rnr_timer == 12);
	CHECK(q.av.sgid_index == 3 && q.av.hop_limit == 64 &&
	      q.av.tclass == 0x68 && q.av.vlan_en && q.av.vlan_id == 100 &&
	      q.av.flow_label == 0xfffff &&
	      q.av.net_type == FROCE_KIND_ROCE_V2_IPV4);
	CHECK(!memcmp(q.av.dmac, dmac, 6) && !memcmp(q.av.dgid, dgid, 16));

	/* RTS: SQ side */
	memset(img, 0, sizeof(img));
	memset(&a, 0, sizeof(a));
	a.mask = FROCE_QP_ATTR_STATE | FROCE_QP_ATTR_SQ_PSN |
		 FROCE_QP_ATTR_TIMEOUT | FROCE_QP_ATTR_RETRY_CNT |
		 FROCE_QP_ATTR_RNR_RETRY | FROCE_QP_ATTR_MAX_QP_RD_ATOMIC;
	a.state = FROCE_QP_STATE_RTS;
	a.sq_psn = 0xffffff;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 8;
	CHECK(froce_enc_modify_qp(img, 7, &a, &bad) == 0);
	CHECK(rd32(img, 4 * FROCE_CMD_MODIFY_QP_IN_SQ_PSN_DW) ==
	      (0xffffffu | 7u << 24 | 7u << 28));
	CHECK(IMG_DW(img, FROCE_CMD_MODIFY_QP_IN_TIMEOUT) == 14);
	CHECK(IMG_DW(img, FROCE_CMD_MODIFY_QP_IN_MAX_RD_ATOMIC) == 8);

	/* a value beyond its field: -EINVAL and the field's byte offset */
	a.sq_psn = 0x1000000;
	CHECK(froce_enc_modify_qp(img, 7, &a, &bad) == -EINVAL);
	CHECK(bad == 4 * FROCE_CMD_MODIFY_QP_IN_SQ_PSN_DW);
	a.sq_psn = 0;
	a.retry_cnt = 8;
	CHECK(froce_enc_modify_qp(img, 7, &a, &bad) == -EINVAL);
	/* a mask bit the firmware does not know (IB_QP_ALT_PATH) */
	a.retry_cnt = 0;
	a.mask |= 0x4000;
	CHECK(froce_enc_modify_qp(img, 7, &a, &bad) == -EOPNOTSUPP);
}

static void test_reg_mr(void)
{
	const struct froce_reg_mr_params p = {
		.pdn = 9, .access = FROCE_ACCESS_LOCAL_WRITE |
				    FROCE_ACCESS_REMOTE_ATOMIC,
		.iova = 0x7f0000001234ULL, .length = 0x300000,
		.pbl = { .addr = 0x55000, .num_pages = 600, .page_shift = 21,
			 .level = FROCE_BUF_LEVEL_LIST2 },
	};
	u8 img[FROCE_CMD_REG_MR_IN_SIZE] = { 0 };

	CHECK(froce_enc_reg_mr(img, &p) == 0);
	CHECK(IMG_DW(img, FROCE_CMD_REG_MR_IN_PDN) == 9);
	CHECK(IMG_DW(img, FROCE_CMD_REG_MR_IN_ACCESS) == 0x09);
	CHECK(rd64(img, 8 * FROCE_CMD_REG_MR_IN_IOVA_QW) == p.iova);
	CHECK(rd64(img, 8 * FROCE_CMD_REG_MR_IN_LENGTH_QW) == p.length);
	/* spec: IOVA qw1, LENGTH qw2, PBL at dw6 */
	CHECK(rd64(img, 8) == p.iova && rd64(img, 16) == p.length);
	check_buf(img, 24, &p.pbl);
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
	test_buf_plan();
	test_buf_fill();
	test_create_cq_eq();
	test_create_qp();
	test_modify_qp();
	test_reg_mr();
	if (failures) {
		fprintf(stderr, "mbox_test: %d failures\n", failures);
		return 1;
	}
	printf("mbox_test: ok\n");
	return 0;
}
