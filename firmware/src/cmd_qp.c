/* SPDX-License-Identifier: MIT */
/* QPs: CREATE/MODIFY/QUERY/DESTROY_QP and the IB QP state machine with the
 * required and optional attribute masks of every transition. */
#include "fw_string.h"

#include "fw_int.h"

#define OK FROCE_CMD_STATUS_OK
#define BAD_PARAM FROCE_CMD_STATUS_BAD_PARAM
#define BAD_RESOURCE FROCE_CMD_STATUS_BAD_RESOURCE
#define BAD_QP_STATE FROCE_CMD_STATUS_BAD_QP_STATE

#define A(x) FROCE_QP_ATTR_##x
#define S(x) FROCE_QP_STATE_##x

/* Attribute rules of the IB specification (o10-2.x, the table Linux keeps as
 * qp_state_table in drivers/infiniband/core/verbs.c), for the QP types and
 * attribute bits this device has: RC, UD and GSI; no alternate path, path
 * migration or rate limit. A transition not listed is illegal. STATE may
 * always be in the mask; without it the QP stays where it is. */
enum { COL_RC, COL_UD, COL_GSI, NCOLS };

struct transition {
	uint8_t cur, next;
	uint32_t req[NCOLS];
	uint32_t opt[NCOLS];
};

#define RC_TO_RTS_OPT (A(CUR_STATE) | A(ACCESS_FLAGS) | A(MIN_RNR_TIMER))
#define UD_TO_RTS_OPT (A(CUR_STATE) | A(QKEY))

static const struct transition transitions[] = {
	{ S(RESET), S(RESET), { 0, 0, 0 }, { 0, 0, 0 } },
	{ S(RESET), S(INIT),
	  { A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS), A(PKEY_INDEX) | A(PORT) | A(QKEY), A(PKEY_INDEX) | A(QKEY) },
	  { 0, 0, 0 } },
	{ S(INIT), S(RESET), { 0, 0, 0 }, { 0, 0, 0 } },
	{ S(INIT), S(ERR), { 0, 0, 0 }, { 0, 0, 0 } },
	{ S(INIT), S(INIT), { 0, 0, 0 },
	  { A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS), A(PKEY_INDEX) | A(PORT) | A(QKEY), A(PKEY_INDEX) | A(QKEY) } },
	{ S(INIT), S(RTR),
	  { A(AV) | A(PATH_MTU) | A(DEST_QPN) | A(RQ_PSN) | A(MAX_DEST_RD_ATOMIC) | A(MIN_RNR_TIMER), 0, 0 },
	  { A(ACCESS_FLAGS) | A(PKEY_INDEX), A(PKEY_INDEX) | A(QKEY), A(PKEY_INDEX) | A(QKEY) } },
	{ S(RTR), S(RESET), { 0, 0, 0 }, { 0, 0, 0 } },
	{ S(RTR), S(ERR), { 0, 0, 0 }, { 0, 0, 0 } },
	{ S(RTR), S(RTS),
	  { A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) | A(SQ_PSN) | A(MAX_QP_RD_ATOMIC), A(SQ_PSN), A(SQ_PSN) },
	  { RC_TO_RTS_OPT, UD_TO_RTS_OPT, UD_TO_RTS_OPT } },
	{ S(RTS), S(RESET), { 0, 0, 0 }, { 0, 0, 0 } },
	{ S(RTS), S(ERR), { 0, 0, 0 }, { 0, 0, 0 } },
	{ S(RTS), S(RTS), { 0, 0, 0 }, { RC_TO_RTS_OPT, UD_TO_RTS_OPT, UD_TO_RTS_OPT } },
	{ S(RTS), S(SQD), { 0, 0, 0 }, { A(EN_SQD_ASYNC_NOTIFY), A(EN_SQD_ASYNC_NOTIFY), A(EN_SQD_ASYNC_NOTIFY) } },
	{ S(SQD), S(RESET), { 0, 0, 0 }, { 0, 0, 0 } },
	{ S(SQD), S(ERR), { 0, 0, 0 }, { 0, 0, 0 } },
	{ S(SQD), S(RTS), { 0, 0, 0 }, { RC_TO_RTS_OPT, UD_TO_RTS_OPT, UD_TO_RTS_OPT } },
	{ S(SQD), S(SQD), { 0, 0, 0 },
	  { A(PORT) | A(AV) | A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) | A(MAX_QP_RD_ATOMIC) |
		    A(MAX_DEST_RD_ATOMIC) | A(ACCESS_FLAGS) | A(PKEY_INDEX) | A(MIN_RNR_TIMER),
	    A(PKEY_INDEX) | A(QKEY), A(PKEY_INDEX) | A(QKEY) } },
	{ S(SQE), S(RESET), { 0, 0, 0 }, { 0, 0, 0 } },
	{ S(SQE), S(ERR), { 0, 0, 0 }, { 0, 0, 0 } },
	{ S(SQE), S(RTS), { 0, 0, 0 }, { 0, UD_TO_RTS_OPT, UD_TO_RTS_OPT } },
	{ S(ERR), S(RESET), { 0, 0, 0 }, { 0, 0, 0 } },
	{ S(ERR), S(ERR), { 0, 0, 0 }, { 0, 0, 0 } },
};

/* every QP_ATTR bit of the spec; anything else is refused as BAD_PARAM */
#define ATTR_KNOWN (A(STATE) | A(CUR_STATE) | A(EN_SQD_ASYNC_NOTIFY) | A(ACCESS_FLAGS) | A(PKEY_INDEX) | A(PORT) | \
		    A(QKEY) | A(AV) | A(PATH_MTU) | A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) | A(RQ_PSN) |       \
		    A(MAX_QP_RD_ATOMIC) | A(MIN_RNR_TIMER) | A(SQ_PSN) | A(MAX_DEST_RD_ATOMIC) | A(DEST_QPN))

bool fw_qp_modify_ok(unsigned cur, unsigned next, unsigned type, uint32_t mask)
{
	unsigned col;

	if (type == FROCE_QP_TYPE_RC)
		col = COL_RC;
	else if (type == FROCE_QP_TYPE_UD)
		col = COL_UD;
	else if (type == FROCE_QP_TYPE_GSI)
		col = COL_GSI;
	else
		return false;
	/* CUR_STATE only makes sense where the QP may have moved by itself */
	if ((mask & A(CUR_STATE)) && cur != S(RTR) && cur != S(RTS) && cur != S(SQD) && cur != S(SQE))
		return false;
	for (unsigned i = 0; i < NELEM(transitions); i++) {
		const struct transition *t = &transitions[i];

		if (t->cur != cur || t->next != next)
			continue;
		if ((mask & t->req[col]) != t->req[col])
			return false;
		return (mask & ~(t->req[col] | t->opt[col] | A(STATE))) == 0;
	}
	return false;
}

/* ---- CREATE_QP ---- */

#define IN(F) FROCE_CMD_CREATE_QP_IN_##F

static uint8_t check_wq(struct fw_cmd *c, uint32_t log_size, uint32_t log_off, uint32_t shift, uint32_t shift_off)
{
	if (log_size > FW_QP_LOG_MAX)
		return refuse(c, BAD_PARAM, log_off);
	if (shift < FROCE_WQE_SHIFT_MIN || shift > FROCE_WQE_SHIFT_MAX)
		return refuse(c, BAD_PARAM, shift_off);
	return OK;
}

uint8_t fw_cmd_CREATE_QP(struct fw_cmd *c)
{
	static const struct fw_rsv rsv[] = {
		RSV(IN(TYPE)), RSV(IN(PRIV)), RSV(IN(SIG_ALL)), RSV(IN(PDN)), RSV(IN(SEND_CQN)), RSV(IN(RECV_CQN)),
		RSV(IN(UAR)), RSV(IN(LOG_SQ_SIZE)), RSV(IN(SQ_WQE_SHIFT)), RSV(IN(LOG_RQ_SIZE)), RSV(IN(RQ_WQE_SHIFT)),
	};
	const uint8_t *in = c->in;
	const uint32_t type = GET_DW(in, IN(TYPE));
	const uint32_t priv = GET_DW(in, IN(PRIV));
	const uint32_t pdn = GET_DW(in, IN(PDN));
	const uint32_t scqn = GET_DW(in, IN(SEND_CQN));
	const uint32_t rcqn = GET_DW(in, IN(RECV_CQN));
	const uint32_t uar = GET_DW(in, IN(UAR));
	const uint32_t sq_log = GET_DW(in, IN(LOG_SQ_SIZE)), sq_shift = GET_DW(in, IN(SQ_WQE_SHIFT));
	const uint32_t rq_log = GET_DW(in, IN(LOG_RQ_SIZE)), rq_shift = GET_DW(in, IN(RQ_WQE_SHIFT));
	struct fw_buf bufs[2];
	uint32_t sq_pages = 0, rq_pages = 0, qpn, mr_index, mtt_base;
	uint8_t st = fw_check_reserved(c, rsv, NELEM(rsv), 0, IN(SQ_BUF_ADDR_QW) * 2);

	if (st)
		return st;
	/* UC: the engine drops UC packets (not built) */
	if (type != FROCE_QP_TYPE_RC && type != FROCE_QP_TYPE_UD && type != FROCE_QP_TYPE_GSI)
		return refuse(c, BAD_PARAM, OFF_DW(IN(TYPE)));
	if (uar >= fw.num_uars)
		return refuse(c, FROCE_CMD_STATUS_BAD_INDEX, OFF_DW(IN(UAR)));
	/* privileged QPs and QP1 belong to the kernel (UAR page 0) */
	if (priv && uar != 0)
		return refuse(c, BAD_PARAM, OFF_DW(IN(PRIV)));
	if (type == FROCE_QP_TYPE_GSI && uar != 0)
		return refuse(c, BAD_PARAM, OFF_DW(IN(UAR)));
	st = fw_pd_get(c, pdn, OFF_DW(IN(PDN)));
	if (st)
		return st;
	/* the PD and both CQs must belong to the QP's user context */
	if (fw.pd[pdn].uar != uar)
		return refuse(c, BAD_RESOURCE, OFF_DW(IN(PDN)));
	st = fw_cq_get(c, scqn, OFF_DW(IN(SEND_CQN)));
	if (st)
		return st;
	if (fw.cq[scqn].uar != uar)
		return refuse(c, BAD_RESOURCE, OFF_DW(IN(SEND_CQN)));
	st = fw_cq_get(c, rcqn, OFF_DW(IN(RECV_CQN)));
	if (st)
		return st;
	if (fw.cq[rcqn].uar != uar)
		return refuse(c, BAD_RESOURCE, OFF_DW(IN(RECV_CQN)));
	st = check_wq(c, sq_log, OFF_DW(IN(LOG_SQ_SIZE)), sq_shift, OFF_DW(IN(SQ_WQE_SHIFT)));
	if (st)
		return st;
	st = check_wq(c, rq_log, OFF_DW(IN(LOG_RQ_SIZE)), rq_shift, OFF_DW(IN(RQ_WQE_SHIFT)));
	if (st)
		return st;
	const uint64_t sq_bytes = (uint64_t)1 << (sq_log + sq_shift);
	const uint64_t rq_bytes = (uint64_t)1 << (rq_log + rq_shift);

	(void)fw_pages_fit(sq_bytes, &sq_pages);
	(void)fw_pages_fit(rq_bytes, &rq_pages);
	fw_buf_parse(c, OFF_QW(IN(SQ_BUF_ADDR)), &bufs[0]);
	fw_buf_parse(c, OFF_QW(IN(RQ_BUF_ADDR)), &bufs[1]);
	st = fw_buf_check(c, &bufs[0], sq_pages, FW_RING_PAGE_SHIFT, FW_RING_PAGE_SHIFT);
	if (st)
		return st;
	st = fw_buf_check(c, &bufs[1], rq_pages, FW_RING_PAGE_SHIFT, FW_RING_PAGE_SHIFT);
	if (st)
		return st;
	if (type == FROCE_QP_TYPE_GSI) {
		qpn = FROCE_QPN_GSI;
		if (qpn >= fw.num_qps || (fw.qp_flags[qpn] & FW_F_USED))
			return refuse(c, FROCE_CMD_STATUS_EXCEED_LIM, 0);
	} else {
		for (qpn = FROCE_QPN_GSI + 1; qpn < fw.num_qps; qpn++)
			if (!(fw.qp_flags[qpn] & FW_F_USED))
				break;
		if (qpn >= fw.num_qps)
			return refuse(c, FROCE_CMD_STATUS_EXCEED_LIM, 0);
	}
	st = fw_ring_prepare(c, bufs, 2, &mr_index, &mtt_base);
	if (st)
		return st;
	/* one ring MR in the QP's PD: the SQ at IOVA 0, the RQ on the page after */
	const uint64_t rq_va = (uint64_t)sq_pages << FW_RING_PAGE_SHIFT;

	st = fw_ring_commit(c, bufs, 2, mr_index, mtt_base, pdn, rq_va + rq_bytes);
	if (st)
		return st;
	fw.pd[pdn].refs++;
	fw.cq[scqn].refs++;
	fw.cq[rcqn].refs++;
	fw.qp_flags[qpn] = (uint8_t)(FW_F_USED | (priv ? FW_F_PRIV : 0));

	uint8_t *img = fw.qpc[qpn];

	memset(img, 0, FROCE_QPC_SIZE);
	SET_DW(img, FROCE_QPC_STATE, FROCE_QP_STATE_RESET);
	SET_DW(img, FROCE_QPC_TYPE, type);
	SET_DW(img, FROCE_QPC_SIG_ALL, GET_DW(in, IN(SIG_ALL)));
	SET_DW(img, FROCE_QPC_PDN, pdn);
	SET_DW(img, FROCE_QPC_SCQN, scqn);
	SET_DW(img, FROCE_QPC_RCQN, rcqn);
	SET_DW(img, FROCE_QPC_SQ_LOG_SIZE, sq_log);
	SET_DW(img, FROCE_QPC_SQ_WQE_SHIFT, sq_shift);
	SET_DW(img, FROCE_QPC_RQ_LOG_SIZE, rq_log);
	SET_DW(img, FROCE_QPC_RQ_WQE_SHIFT, rq_shift);
	SET_DW(img, FROCE_QPC_UAR, uar);
	SET_DW(img, FROCE_QPC_RING_KEY, fw_mr_key(mr_index));
	SET_QW(img, FROCE_QPC_SQ_VA, 0);
	SET_QW(img, FROCE_QPC_RQ_VA, rq_va);
	SET_DW(img, FROCE_QPC_LOAD_RESET, 1);
	fw_ctx_write(FROCE_CTL_QPC_BASE + qpn * (uint32_t)FROCE_QPC_SIZE, img, FROCE_QPC_SIZE);
	SET_DW(img, FROCE_QPC_LOAD_RESET, 0);	/* an action, not state */
	SET_DW(c->out, FROCE_CMD_CREATE_QP_OUT_QPN, qpn);
	return OK;
}
#undef IN

/* ---- MODIFY_QP ---- */

#define IN(F) FROCE_CMD_MODIFY_QP_IN_##F

static uint8_t qp_get(struct fw_cmd *c, uint32_t qpn, uint32_t off)
{
	if (qpn >= fw.num_qps || !(fw.qp_flags[qpn] & FW_F_USED))
		return refuse(c, BAD_RESOURCE, off);
	return OK;
}

static bool ipv4_mapped(const uint8_t *gid)
{
	for (unsigned i = 0; i < 10; i++)
		if (gid[i])
			return false;
	return gid[10] == 0xFF && gid[11] == 0xFF;
}

/* The address vector must leave from a valid GID of the matching RoCE kind. */
static uint8_t check_av(struct fw_cmd *c)
{
	const uint8_t *in = c->in;
	const uint32_t sgid = GET_DW(in, IN(AV_SGID_INDEX));
	const uint32_t net = GET_DW(in, IN(AV_NET_TYPE));

	if (sgid >= fw.num_gids || !GET_DW(fw.gid[sgid], FROCE_GID_CTX_VALID))
		return refuse(c, BAD_PARAM, OFF_DW(IN(AV_SGID_INDEX)));
	const uint8_t *gid = fw.gid[sgid];
	const bool v1 = GET_DW(gid, FROCE_GID_CTX_TYPE) == FROCE_GID_TYPE_ROCE_V1;
	uint32_t want;

	if (v1)
		want = FROCE_KIND_ROCE_V1;
	else if (ipv4_mapped(gid + FROCE_GID_CTX_GID_BYTE))
		want = FROCE_KIND_ROCE_V2_IPV4;
	else
		want = FROCE_KIND_ROCE_V2_IPV6;
	if (net != want)
		return refuse(c, BAD_PARAM, OFF_DW(IN(AV_NET_TYPE)));
	if (net == FROCE_KIND_ROCE_V2_IPV4 && !ipv4_mapped(in + IN(AV_DGID_BYTE)))
		return refuse(c, BAD_PARAM, IN(AV_DGID_BYTE));
	if (!GET_DW(in, IN(AV_VLAN_EN)) && GET_DW(in, IN(AV_VLAN_ID)))
		return refuse(c, BAD_PARAM, OFF_DW(IN(AV_VLAN_ID)));
	return OK;
}

/* Values of the attributes in the mask. */
static uint8_t check_attrs(struct fw_cmd *c, uint32_t mask, uint32_t qpn)
{
	const uint8_t *in = c->in;

	if ((mask & A(ACCESS_FLAGS)) && (GET_DW(in, IN(ACCESS_FLAGS)) & ~(uint32_t)(FROCE_ACCESS_LOCAL_WRITE |
			FROCE_ACCESS_REMOTE_WRITE | FROCE_ACCESS_REMOTE_READ | FROCE_ACCESS_REMOTE_ATOMIC)))
		return refuse(c, BAD_PARAM, OFF_DW(IN(ACCESS_FLAGS)));
	if ((mask & A(PKEY_INDEX)) && GET_DW(in, IN(PKEY_INDEX)) != 0)	/* RoCE: one P_Key */
		return refuse(c, BAD_PARAM, OFF_DW(IN(PKEY_INDEX)));
	if ((mask & A(PORT)) && GET_DW(in, IN(PORT)) != FW_PORT)
		return refuse(c, BAD_PARAM, OFF_DW(IN(PORT)));
	/* controlled Q_Keys (bit 31) are for privileged QPs; the engine also
	 * reads bit 31 of a WQE's Q_Key as "use the QP's" */
	if ((mask & A(QKEY)) && (GET_DW(in, IN(QKEY)) & 0x80000000u) && !(fw.qp_flags[qpn] & FW_F_PRIV))
		return refuse(c, BAD_PARAM, OFF_DW(IN(QKEY)));
	if (mask & A(PATH_MTU)) {
		const uint32_t mtu = GET_DW(in, IN(PATH_MTU));

		if (mtu < FROCE_MTU_256 || mtu > FROCE_MTU_4096)
			return refuse(c, BAD_PARAM, OFF_DW(IN(PATH_MTU)));
	}
	if ((mask & A(MAX_QP_RD_ATOMIC)) && GET_DW(in, IN(MAX_RD_ATOMIC)) > fw.rd_atomic_max)
		return refuse(c, BAD_PARAM, OFF_DW(IN(MAX_RD_ATOMIC)));
	if ((mask & A(MAX_DEST_RD_ATOMIC)) && GET_DW(in, IN(MAX_DEST_RD_ATOMIC)) > fw.rd_atomic_max)
		return refuse(c, BAD_PARAM, OFF_DW(IN(MAX_DEST_RD_ATOMIC)));
	if (mask & A(AV))
		return check_av(c);
	return OK;
}

#define AV_DWORD_FIELDS(X) X(SGID_INDEX) X(HOP_LIMIT) X(TCLASS) X(NET_TYPE) X(VLAN_EN) X(FLOW_LABEL) \
	X(UDP_SPORT) X(VLAN_ID)

static void apply_attrs(uint8_t *img, const uint8_t *in, uint32_t mask)
{
	if (mask & A(ACCESS_FLAGS))
		SET_DW(img, FROCE_QPC_ACCESS, GET_DW(in, IN(ACCESS_FLAGS)));
	if (mask & A(QKEY))
		SET_DW(img, FROCE_QPC_QKEY, GET_DW(in, IN(QKEY)));
	if (mask & A(PATH_MTU))
		SET_DW(img, FROCE_QPC_PATH_MTU, GET_DW(in, IN(PATH_MTU)));
	if (mask & A(TIMEOUT))
		SET_DW(img, FROCE_QPC_TIMEOUT, GET_DW(in, IN(TIMEOUT)));
	if (mask & A(RETRY_CNT))
		SET_DW(img, FROCE_QPC_RETRY_CNT, GET_DW(in, IN(RETRY_CNT)));
	if (mask & A(RNR_RETRY))
		SET_DW(img, FROCE_QPC_RNR_RETRY, GET_DW(in, IN(RNR_RETRY)));
	if (mask & A(RQ_PSN)) {
		SET_DW(img, FROCE_QPC_RQ_PSN, GET_DW(in, IN(RQ_PSN)));
		SET_DW(img, FROCE_QPC_LOAD_RQ_PSN, 1);
	}
	if (mask & A(SQ_PSN)) {
		SET_DW(img, FROCE_QPC_SQ_PSN, GET_DW(in, IN(SQ_PSN)));
		SET_DW(img, FROCE_QPC_LOAD_SQ_PSN, 1);
	}
	if (mask & A(MAX_QP_RD_ATOMIC))
		SET_DW(img, FROCE_QPC_MAX_RD_ATOMIC, GET_DW(in, IN(MAX_RD_ATOMIC)));
	if (mask & A(MAX_DEST_RD_ATOMIC))
		SET_DW(img, FROCE_QPC_MAX_DEST_RD_ATOMIC, GET_DW(in, IN(MAX_DEST_RD_ATOMIC)));
	if (mask & A(MIN_RNR_TIMER))
		SET_DW(img, FROCE_QPC_MIN_RNR_TIMER, GET_DW(in, IN(MIN_RNR_TIMER)));
	if (mask & A(DEST_QPN))
		SET_DW(img, FROCE_QPC_DEST_QPN, GET_DW(in, IN(DEST_QPN)));
	if (mask & A(AV)) {
#define COPY_AV(f) SET_DW(img, FROCE_QPC_AV_##f, GET_DW(in, IN(AV_##f)));
		AV_DWORD_FIELDS(COPY_AV)
#undef COPY_AV
		SET_QW(img, FROCE_QPC_AV_DMAC, GET_QW(in, IN(AV_DMAC)));
		memcpy(img + FROCE_QPC_AV_DGID_BYTE, in + IN(AV_DGID_BYTE), FROCE_QPC_AV_DGID_BYTES);
	}
}

uint8_t fw_cmd_MODIFY_QP(struct fw_cmd *c)
{
	static const struct fw_rsv rsv[] = {
		RSV(IN(QPN)), RSV(IN(ATTR_MASK)), RSV(IN(STATE)), RSV(IN(CUR_STATE)), RSV(IN(PATH_MTU)),
		RSV(IN(EN_SQD_ASYNC_NOTIFY)), RSV(IN(ACCESS_FLAGS)), RSV(IN(PORT)), RSV(IN(QKEY)), RSV(IN(RQ_PSN)),
		RSV(IN(TIMEOUT)), RSV(IN(SQ_PSN)), RSV(IN(RETRY_CNT)), RSV(IN(RNR_RETRY)), RSV(IN(DEST_QPN)),
		RSV(IN(MIN_RNR_TIMER)), RSV(IN(MAX_RD_ATOMIC)), RSV(IN(MAX_DEST_RD_ATOMIC)), RSV(IN(PKEY_INDEX)),
		RSV(IN(AV_SGID_INDEX)), RSV(IN(AV_HOP_LIMIT)), RSV(IN(AV_TCLASS)), RSV(IN(AV_NET_TYPE)),
		RSV(IN(AV_VLAN_EN)), RSV(IN(AV_FLOW_LABEL)), RSV(IN(AV_UDP_SPORT)), RSV(IN(AV_VLAN_ID)),
		RSV_QW(IN(AV_DMAC)), RSV_BYTES16(IN(AV_DGID)),
	};
	const uint8_t *in = c->in;
	const uint32_t qpn = GET_DW(in, IN(QPN));
	const uint32_t mask = GET_DW(in, IN(ATTR_MASK));
	uint8_t st;

	if (GET_DW(in, IN(SQ_DRAINING)))	/* QUERY_QP output only */
		return refuse(c, BAD_PARAM, OFF_DW(IN(SQ_DRAINING)));
	st = fw_check_reserved(c, rsv, NELEM(rsv), 0, FROCE_CMD_MODIFY_QP_IN_SIZE / 4);
	if (st)
		return st;
	st = qp_get(c, qpn, OFF_DW(IN(QPN)));
	if (st)
		return st;
	if (mask & ~ATTR_KNOWN)
		return refuse(c, BAD_PARAM, OFF_DW(IN(ATTR_MASK)));
	uint8_t *qpc = fw.qpc[qpn];
	const uint32_t type = GET_DW(qpc, FROCE_QPC_TYPE);
	const uint32_t cur = GET_DW(qpc, FROCE_QPC_STATE);
	uint32_t next = cur;

	if (mask & A(STATE)) {
		next = GET_DW(in, IN(STATE));
		if (next > FROCE_QP_STATE_ERR)
			return refuse(c, BAD_PARAM, OFF_DW(IN(STATE)));
	}
	if (mask & A(CUR_STATE)) {
		const uint32_t claimed = GET_DW(in, IN(CUR_STATE));

		if (claimed > FROCE_QP_STATE_ERR)
			return refuse(c, BAD_PARAM, OFF_DW(IN(CUR_STATE)));
		/* the firmware knows the state; the caller's belief must match */
		if (claimed != cur)
			return refuse(c, BAD_QP_STATE, OFF_DW(IN(CUR_STATE)));
	}
	if (!fw_qp_modify_ok(cur, next, type, mask))
		return refuse(c, BAD_QP_STATE, OFF_DW(IN(ATTR_MASK)));
	st = check_attrs(c, mask, qpn);
	if (st)
		return st;

	_Alignas(4) uint8_t img[FROCE_QPC_SIZE];

	memcpy(img, qpc, sizeof img);
	SET_DW(img, FROCE_QPC_STATE, next);
	apply_attrs(img, in, mask);
	/* a UD QP has no path: its datagrams are bounded by the port's MTU */
	if (type != FROCE_QP_TYPE_RC && cur == S(INIT) && next == S(RTR))
		SET_DW(img, FROCE_QPC_PATH_MTU, fw_ib_mtu_of(fw.mtu));
	if (next == S(RESET))
		SET_DW(img, FROCE_QPC_LOAD_RESET, 1);	/* rings, MSN, PSN window from scratch */
	fw_ctx_write(FROCE_CTL_QPC_BASE + qpn * (uint32_t)FROCE_QPC_SIZE, img, FROCE_QPC_SIZE);
	SET_DW(img, FROCE_QPC_LOAD_RESET, 0);
	SET_DW(img, FROCE_QPC_LOAD_RQ_PSN, 0);
	SET_DW(img, FROCE_QPC_LOAD_SQ_PSN, 0);
	memcpy(qpc, img, sizeof img);
	if (mask & A(EN_SQD_ASYNC_NOTIFY)) {
		if (GET_DW(in, IN(EN_SQD_ASYNC_NOTIFY)))
			fw.qp_flags[qpn] |= FW_F_SQD_NOTIFY;
		else
			fw.qp_flags[qpn] &= (uint8_t)~FW_F_SQD_NOTIFY;
	}
	return OK;
}
#undef IN

/* ---- QUERY_QP, DESTROY_QP ---- */

uint8_t fw_cmd_QUERY_QP(struct fw_cmd *c)
{
	static const struct fw_rsv rsv[] = { RSV(FROCE_CMD_QUERY_QP_IN_QPN) };
	const uint32_t qpn = GET_DW(c->in, FROCE_CMD_QUERY_QP_IN_QPN);
	uint8_t st = fw_check_reserved(c, rsv, NELEM(rsv), 0, FROCE_CMD_QUERY_QP_IN_SIZE / 4);

	if (st)
		return st;
	st = qp_get(c, qpn, OFF_DW(FROCE_CMD_QUERY_QP_IN_QPN));
	if (st)
		return st;
	const uint8_t *q = fw.qpc[qpn];
	uint8_t *o = c->out;

#define OUT(F) FROCE_CMD_QUERY_QP_OUT_##F
	SET_DW(o, OUT(STATE), GET_DW(q, FROCE_QPC_STATE));
	SET_DW(o, OUT(CUR_STATE), GET_DW(q, FROCE_QPC_STATE));
	SET_DW(o, OUT(PATH_MTU), GET_DW(q, FROCE_QPC_PATH_MTU));
	SET_DW(o, OUT(EN_SQD_ASYNC_NOTIFY), (fw.qp_flags[qpn] & FW_F_SQD_NOTIFY) ? 1 : 0);
	SET_DW(o, OUT(SQ_DRAINING), 0);	/* the engine does not report draining */
	SET_DW(o, OUT(ACCESS_FLAGS), GET_DW(q, FROCE_QPC_ACCESS));
	SET_DW(o, OUT(PORT), FW_PORT);
	SET_DW(o, OUT(QKEY), GET_DW(q, FROCE_QPC_QKEY));
	SET_DW(o, OUT(RQ_PSN), GET_DW(q, FROCE_QPC_RQ_PSN));
	SET_DW(o, OUT(TIMEOUT), GET_DW(q, FROCE_QPC_TIMEOUT));
	SET_DW(o, OUT(SQ_PSN), GET_DW(q, FROCE_QPC_SQ_PSN));
	SET_DW(o, OUT(RETRY_CNT), GET_DW(q, FROCE_QPC_RETRY_CNT));
	SET_DW(o, OUT(RNR_RETRY), GET_DW(q, FROCE_QPC_RNR_RETRY));
	SET_DW(o, OUT(DEST_QPN), GET_DW(q, FROCE_QPC_DEST_QPN));
	SET_DW(o, OUT(MIN_RNR_TIMER), GET_DW(q, FROCE_QPC_MIN_RNR_TIMER));
	SET_DW(o, OUT(MAX_RD_ATOMIC), GET_DW(q, FROCE_QPC_MAX_RD_ATOMIC));
	SET_DW(o, OUT(MAX_DEST_RD_ATOMIC), GET_DW(q, FROCE_QPC_MAX_DEST_RD_ATOMIC));
	SET_DW(o, OUT(PKEY_INDEX), 0);
#define COPY_AV(f) SET_DW(o, OUT(AV_##f), GET_DW(q, FROCE_QPC_AV_##f));
	AV_DWORD_FIELDS(COPY_AV)
#undef COPY_AV
	SET_QW(o, OUT(AV_DMAC), GET_QW(q, FROCE_QPC_AV_DMAC));
	memcpy(o + OUT(AV_DGID_BYTE), q + FROCE_QPC_AV_DGID_BYTE, FROCE_QPC_AV_DGID_BYTES);
#undef OUT
	return OK;
}

uint8_t fw_cmd_DESTROY_QP(struct fw_cmd *c)
{
	static const struct fw_rsv rsv[] = { RSV(FROCE_CMD_DESTROY_QP_IN_QPN) };
	const uint32_t qpn = GET_DW(c->in, FROCE_CMD_DESTROY_QP_IN_QPN);
	uint8_t st = fw_check_reserved(c, rsv, NELEM(rsv), 0, FROCE_CMD_DESTROY_QP_IN_SIZE / 4);

	if (st)
		return st;
	st = qp_get(c, qpn, OFF_DW(FROCE_CMD_DESTROY_QP_IN_QPN));
	if (st)
		return st;
	uint8_t *q = fw.qpc[qpn];
	const uint32_t ring_mr = GET_DW(q, FROCE_QPC_RING_KEY) >> FROCE_KEY_TAG_W;
	_Alignas(4) uint8_t img[FROCE_QPC_SIZE];

	/* any state may be destroyed; the engine forgets the QP first (RESET
	 * with its runtime state cleared), then its rings' translation goes */
	memset(img, 0, sizeof img);
	SET_DW(img, FROCE_QPC_LOAD_RESET, 1);
	fw_ctx_write(FROCE_CTL_QPC_BASE + qpn * (uint32_t)FROCE_QPC_SIZE, img, FROCE_QPC_SIZE);
	if (fw_mr_invalidate(ring_mr))
		return refuse(c, FROCE_CMD_STATUS_INTERNAL_ERR, 0);	/* retry: the rest stays */
	fw_mr_release(ring_mr);
	fw.pd[GET_DW(q, FROCE_QPC_PDN)].refs--;
	fw.cq[GET_DW(q, FROCE_QPC_SCQN)].refs--;
	fw.cq[GET_DW(q, FROCE_QPC_RCQN)].refs--;
	memset(q, 0, FROCE_QPC_SIZE);
	fw.qp_flags[qpn] = 0;
	return OK;
}
