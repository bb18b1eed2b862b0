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

/* ---- command images for the verbs ---- */

/* Keep the byte offset (+ 1) of the first field that did not fit. */
static void froce_note_bad(u32 *bad, u32 off)
{
	if (!*bad)
		*bad = off + 1;
}

/* Set field F of a dword array to @val if it fits, else note it in @bad. */
#define FROCE_PUT_DW(buf, F, val, bad) do {				\
	u64 __v = (val);						\
									\
	if (__v > FIELD_MAX(F##_MASK))					\
		froce_note_bad(&(bad), (F##_DW) * 4);			\
	else								\
		FROCE_SET_DW(buf, F, __v);				\
} while (0)

int froce_buf_plan(u32 n, bool contig, u8 *level, u32 *list_pages)
{
	if (!n)
		return -EINVAL;
	if (contig) {
		*level = FROCE_BUF_LEVEL_CONTIG;
		*list_pages = 0;
	} else if (n <= FROCE_BUF_LIST_ENTRIES) {
		*level = FROCE_BUF_LEVEL_LIST;
		*list_pages = 1;
	} else if (n <= FROCE_BUF_LIST_ENTRIES * FROCE_BUF_LIST_ENTRIES) {
		*level = FROCE_BUF_LEVEL_LIST2;
		*list_pages = 1 + (n + FROCE_BUF_LIST_ENTRIES - 1) /
				  FROCE_BUF_LIST_ENTRIES;
	} else {
		return -E2BIG;
	}
	return 0;
}

void froce_buf_fill(u8 level, const u64 *pages, u32 n, __le64 *const *lists,
		    const u64 *list_dma)
{
	const u32 per = FROCE_BUF_LIST_ENTRIES;
	u32 i, j;

	if (level == FROCE_BUF_LEVEL_LIST) {
		for (i = 0; i < n; i++)
			lists[0][i] = cpu_to_le64(pages[i]);
		return;
	}
	if (level != FROCE_BUF_LEVEL_LIST2)
		return;
	for (j = 0; j * per < n; j++) {
		lists[0][j] = cpu_to_le64(list_dma[j + 1]);
		for (i = 0; i < per && j * per + i < n; i++)
			lists[j + 1][i] = cpu_to_le64(pages[j * per + i]);
	}
}

void froce_enc_buf(void *in, u32 off, const struct froce_buf_desc *b)
{
	u8 *base = (u8 *)in + off;

	FROCE_SET_QW(base, FROCE_BUF_ADDR, b->addr);
	FROCE_SET_DW(base, FROCE_BUF_NUM_PAGES, b->num_pages);
	FROCE_SET_DW(base, FROCE_BUF_PAGE_SHIFT, b->page_shift);
	FROCE_SET_DW(base, FROCE_BUF_LEVEL, b->level);
}

static int froce_buf_check(const struct froce_buf_desc *b)
{
	if (b->page_shift > FIELD_MAX(FROCE_BUF_PAGE_SHIFT_MASK) ||
	    b->level > FROCE_BUF_LEVEL_LIST2 || !b->num_pages)
		return -EINVAL;
	return 0;
}

int froce_enc_create_eq(void *in, const struct froce_buf_desc *ring,
			u32 log_size, u32 vector)
{
	u32 bad = 0;

	if (froce_buf_check(ring) || ring->level != FROCE_BUF_LEVEL_CONTIG)
		return -EINVAL;
	froce_enc_buf(in, 8 * FROCE_CMD_CREATE_EQ_IN_BUF_ADDR_QW, ring);
	FROCE_PUT_DW(in, FROCE_CMD_CREATE_EQ_IN_LOG_SIZE, log_size, bad);
	FROCE_PUT_DW(in, FROCE_CMD_CREATE_EQ_IN_VECTOR, vector, bad);
	return bad ? -EINVAL : 0;
}

int froce_enc_create_cq(void *in, const struct froce_buf_desc *ring,
			u32 log_size, u32 eqn, u32 uar)
{
	u32 bad = 0;

	if (froce_buf_check(ring))
		return -EINVAL;
	froce_enc_buf(in, 8 * FROCE_CMD_CREATE_CQ_IN_BUF_ADDR_QW, ring);
	FROCE_PUT_DW(in, FROCE_CMD_CREATE_CQ_IN_LOG_SIZE, log_size, bad);
	FROCE_PUT_DW(in, FROCE_CMD_CREATE_CQ_IN_EQN, eqn, bad);
	FROCE_PUT_DW(in, FROCE_CMD_CREATE_CQ_IN_UAR, uar, bad);
	return bad ? -EINVAL : 0;
}

int froce_enc_create_qp(void *in, const struct froce_create_qp_params *p)
{
	u32 bad = 0;

	if (froce_buf_check(&p->sq) || froce_buf_check(&p->rq))
		return -EINVAL;
	FROCE_PUT_DW(in, FROCE_CMD_CREATE_QP_IN_TYPE, p->type, bad);
	FROCE_PUT_DW(in, FROCE_CMD_CREATE_QP_IN_PRIV, p->priv, bad);
	FROCE_PUT_DW(in, FROCE_CMD_CREATE_QP_IN_SIG_ALL, p->sig_all, bad);
	FROCE_PUT_DW(in, FROCE_CMD_CREATE_QP_IN_PDN, p->pdn, bad);
	FROCE_PUT_DW(in, FROCE_CMD_CREATE_QP_IN_SEND_CQN, p->send_cqn, bad);
	FROCE_PUT_DW(in, FROCE_CMD_CREATE_QP_IN_RECV_CQN, p->recv_cqn, bad);
	FROCE_PUT_DW(in, FROCE_CMD_CREATE_QP_IN_UAR, p->uar, bad);
	FROCE_PUT_DW(in, FROCE_CMD_CREATE_QP_IN_LOG_SQ_SIZE, p->log_sq_size,
		     bad);
	FROCE_PUT_DW(in, FROCE_CMD_CREATE_QP_IN_SQ_WQE_SHIFT, p->sq_wqe_shift,
		     bad);
	FROCE_PUT_DW(in, FROCE_CMD_CREATE_QP_IN_LOG_RQ_SIZE, p->log_rq_size,
		     bad);
	FROCE_PUT_DW(in, FROCE_CMD_CREATE_QP_IN_RQ_WQE_SHIFT, p->rq_wqe_shift,
		     bad);
	froce_enc_buf(in, 8 * FROCE_CMD_CREATE_QP_IN_SQ_BUF_ADDR_QW, &p->sq);
	froce_enc_buf(in, 8 * FROCE_CMD_CREATE_QP_IN_RQ_BUF_ADDR_QW, &p->rq);
	return bad ? -EINVAL : 0;
}

static u64 froce_mac_to_u64(const u8 *mac)
{
	u64 v = 0;
	unsigned int i;

	for (i = 0; i < 6; i++)
		v = v << 8 | mac[i];
	return v;
}

static void froce_u64_to_mac(u64 v, u8 *mac)
{
	int i;

	for (i = 5; i >= 0; i--) {
		mac[i] = v & 0xff;
		v >>= 8;
	}
}

int froce_enc_modify_qp(void *in, u32 qpn, const struct froce_qp_attr *a,
			u32 *bad_off)
{
	u32 m = a->mask;
	u32 bad = 0;

	*bad_off = 0;
	if (m & ~(u32)FROCE_QP_ATTR_ALL)
		return -EOPNOTSUPP;

#define PUT(F, v) FROCE_PUT_DW(in, FROCE_CMD_MODIFY_QP_IN_##F, v, bad)
	PUT(QPN, qpn);
	PUT(ATTR_MASK, m);
	if (m & FROCE_QP_ATTR_STATE)
		PUT(STATE, a->state);
	if (m & FROCE_QP_ATTR_CUR_STATE)
		PUT(CUR_STATE, a->cur_state);
	if (m & FROCE_QP_ATTR_EN_SQD_ASYNC_NOTIFY)
		PUT(EN_SQD_ASYNC_NOTIFY, a->en_sqd_async_notify);
	if (m & FROCE_QP_ATTR_ACCESS_FLAGS)
		PUT(ACCESS_FLAGS, a->access);
	if (m & FROCE_QP_ATTR_PKEY_INDEX)
		PUT(PKEY_INDEX, a->pkey_index);
	if (m & FROCE_QP_ATTR_PORT)
		PUT(PORT, a->port);
	if (m & FROCE_QP_ATTR_QKEY)
		PUT(QKEY, a->qkey);
	if (m & FROCE_QP_ATTR_PATH_MTU)
		PUT(PATH_MTU, a->path_mtu);
	if (m & FROCE_QP_ATTR_TIMEOUT)
		PUT(TIMEOUT, a->timeout);
	if (m & FROCE_QP_ATTR_RETRY_CNT)
		PUT(RETRY_CNT, a->retry_cnt);
	if (m & FROCE_QP_ATTR_RNR_RETRY)
		PUT(RNR_RETRY, a->rnr_retry);
	if (m & FROCE_QP_ATTR_RQ_PSN)
		PUT(RQ_PSN, a->rq_psn);
	if (m & FROCE_QP_ATTR_MAX_QP_RD_ATOMIC)
		PUT(MAX_RD_ATOMIC, a->max_rd_atomic);
	if (m & FROCE_QP_ATTR_MIN_RNR_TIMER)
		PUT(MIN_RNR_TIMER, a->min_rnr_timer);
	if (m & FROCE_QP_ATTR_SQ_PSN)
		PUT(SQ_PSN, a->sq_psn);
	if (m & FROCE_QP_ATTR_MAX_DEST_RD_ATOMIC)
		PUT(MAX_DEST_RD_ATOMIC, a->max_dest_rd_atomic);
	if (m & FROCE_QP_ATTR_DEST_QPN)
		PUT(DEST_QPN, a->dest_qpn);
	if (m & FROCE_QP_ATTR_AV) {
		PUT(AV_SGID_INDEX, a->av.sgid_index);
		PUT(AV_HOP_LIMIT, a->av.hop_limit);
		PUT(AV_TCLASS, a->av.tclass);
		PUT(AV_NET_TYPE, a->av.net_type);
		PUT(AV_VLAN_EN, a->av.vlan_en);
		if (a->av.vlan_en)
			PUT(AV_VLAN_ID, a->av.vlan_id);
		PUT(AV_FLOW_LABEL, a->av.flow_label);
		PUT(AV_UDP_SPORT, a->av.udp_sport);
		FROCE_SET_QW(in, FROCE_CMD_MODIFY_QP_IN_AV_DMAC,
			     froce_mac_to_u64(a->av.dmac));
		memcpy((u8 *)in + FROCE_CMD_MODIFY_QP_IN_AV_DGID_BYTE,
		       a->av.dgid, FROCE_CMD_MODIFY_QP_IN_AV_DGID_BYTES);
	}
#undef PUT
	if (bad) {
		*bad_off = bad - 1;
		return -EINVAL;
	}
	return 0;
}

void froce_dec_query_qp(const void *out, struct froce_qp_attr *a)
{
#define GET(F) FROCE_GET_DW(out, FROCE_CMD_QUERY_QP_OUT_##F)
	memset(a, 0, sizeof(*a));
	a->state = GET(STATE);
	a->cur_state = GET(CUR_STATE);
	a->path_mtu = GET(PATH_MTU);
	a->en_sqd_async_notify = GET(EN_SQD_ASYNC_NOTIFY);
	a->sq_draining = GET(SQ_DRAINING);
	a->access = GET(ACCESS_FLAGS);
	a->port = GET(PORT);
	a->qkey = GET(QKEY);
	a->rq_psn = GET(RQ_PSN);
	a->timeout = GET(TIMEOUT);
	a->sq_psn = GET(SQ_PSN);
	a->retry_cnt = GET(RETRY_CNT);
	a->rnr_retry = GET(RNR_RETRY);
	a->dest_qpn = GET(DEST_QPN);
	a->min_rnr_timer = GET(MIN_RNR_TIMER);
	a->max_rd_atomic = GET(MAX_RD_ATOMIC);
	a->max_dest_rd_atomic = GET(MAX_DEST_RD_ATOMIC);
	a->pkey_index = GET(PKEY_INDEX);
	a->av.sgid_index = GET(AV_SGID_INDEX);
	a->av.hop_limit = GET(AV_HOP_LIMIT);
	a->av.tclass = GET(AV_TCLASS);
	a->av.net_type = GET(AV_NET_TYPE);
	a->av.vlan_en = GET(AV_VLAN_EN);
	a->av.vlan_id = GET(AV_VLAN_ID);
	a->av.flow_label = GET(AV_FLOW_LABEL);
	a->av.udp_sport = GET(AV_UDP_SPORT);
#undef GET
	froce_u64_to_mac(FROCE_GET_QW(out, FROCE_CMD_QUERY_QP_OUT_AV_DMAC),
			 a->av.dmac);
	memcpy(a->av.dgid, (const u8 *)out + FROCE_CMD_QUERY_QP_OUT_AV_DGID_BYTE,
	       FROCE_CMD_QUERY_QP_OUT_AV_DGID_BYTES);
}

int froce_enc_reg_mr(void *in, const struct froce_reg_mr_params *p)
{
	u32 bad = 0;

	if (froce_buf_check(&p->pbl))
		return -EINVAL;
	FROCE_PUT_DW(in, FROCE_CMD_REG_MR_IN_PDN, p->pdn, bad);
	FROCE_PUT_DW(in, FROCE_CMD_REG_MR_IN_ACCESS, p->access, bad);
	FROCE_SET_QW(in, FROCE_CMD_REG_MR_IN_IOVA, p->iova);
	FROCE_SET_QW(in, FROCE_CMD_REG_MR_IN_LENGTH, p->length);
	froce_enc_buf(in, 8 * FROCE_CMD_REG_MR_IN_PBL_ADDR_QW, &p->pbl);
	return bad ? -EINVAL : 0;
}
