/* SPDX-License-Identifier: MIT */
/* CREATE_QP, the QPC against the simulation host library's, attribute
 * values, QUERY_QP, DESTROY_QP. */
#include "tutil.h"

#define CIN(F) FROCE_CMD_CREATE_QP_IN_##F
#define MIN_(F) FROCE_CMD_MODIFY_QP_IN_##F
#define A(x) FROCE_QP_ATTR_##x

static uint32_t pd1, pd2, cq1a, cq1b, cq2;

static void setup(void)
{
	t_boot(&t_cfg);
	t_add_gid(0, t_gid_v4, FROCE_GID_TYPE_ROCE_V2, 0x02AABBCCDDEEull);
	t_add_gid(1, t_gid_v6, FROCE_GID_TYPE_ROCE_V2, 0x02AABBCCDDEEull);
	t_add_gid(2, t_gid_v6, FROCE_GID_TYPE_ROCE_V1, 0x02AABBCCDDEEull);
	pd1 = t_alloc_pd(1);
	pd2 = t_alloc_pd(2);
	cq1a = t_create_cq(6, 0, 1);
	cq1b = t_create_cq(6, 0, 1);
	cq2 = t_create_cq(6, 0, 2);
}

/* Every QPC field, model against expected, by name. */
#define QPC_DW_FIELDS(X) \
	X(STATE) X(TYPE) X(PATH_MTU) X(SIG_ALL) X(LOAD_RESET) X(LOAD_RQ_PSN) X(LOAD_SQ_PSN) X(PDN) X(SCQN) X(RCQN) \
	X(DEST_QPN) X(ACCESS) X(QKEY) X(SQ_LOG_SIZE) X(SQ_WQE_SHIFT) X(RQ_LOG_SIZE) X(RQ_WQE_SHIFT) X(UAR)     \
	X(RING_KEY) X(SQ_PSN) X(RETRY_CNT) X(RNR_RETRY) X(RQ_PSN) X(TIMEOUT) X(MIN_RNR_TIMER) X(MAX_RD_ATOMIC) \
	X(MAX_DEST_RD_ATOMIC) X(CC) X(AV_SGID_INDEX) X(AV_HOP_LIMIT) X(AV_TCLASS) X(AV_NET_TYPE) X(AV_VLAN_EN) \
	X(AV_FLOW_LABEL) X(AV_UDP_SPORT) X(AV_VLAN_ID)
#define QPC_QW_FIELDS(X) X(SQ_VA) X(RQ_VA) X(AV_DMAC)

static void compare_qpc(uint32_t qpn, const uint8_t *want, uint32_t want_loads, const char *step)
{
	const uint8_t *got = M.qpc + (size_t)qpn * FROCE_QPC_SIZE;

#define CMPF(f) \
	CHECK(TGET(got, FROCE_QPC_##f) == TGET(want, FROCE_QPC_##f), "%s: QPC." #f " = %#x, host.cpp writes %#x", step, \
	      TGET(got, FROCE_QPC_##f), TGET(want, FROCE_QPC_##f));
#define CMPQ(f) \
	CHECK(TGETQ(got, FROCE_QPC_##f) == TGETQ(want, FROCE_QPC_##f), "%s: QPC." #f " = %#llx, host.cpp writes %#llx", \
	      step, (ull)TGETQ(got, FROCE_QPC_##f), (ull)TGETQ(want, FROCE_QPC_##f));
	QPC_DW_FIELDS(CMPF)
	QPC_QW_FIELDS(CMPQ)
#undef CMPF
#undef CMPQ
	CHECK(!memcmp(got + FROCE_QPC_AV_DGID_BYTE, want + FROCE_QPC_AV_DGID_BYTE, 16), "%s: QPC.AV_DGID", step);
	CHECK(!memcmp(got, want, FROCE_QPC_SIZE), "%s: QPC image differs outside the named fields", step);
	CHECK(M.qpc_load[qpn] == want_loads, "%s: LOAD_* bits %#x, host.cpp writes %#x", step, M.qpc_load[qpn],
	      want_loads);
}

/* RESET -> INIT -> RTR -> RTS of an RC QP against the contexts that
 * sim/core/host.cpp (create_qp, modify_qp_init/rtr/rts) writes for the same
 * attributes. The expected image is built the way host.cpp builds it, field
 * by field; ring key and ring addresses are the firmware's (one ring MR at
 * IOVA 0), checked against the MR table separately. */
static void test_reference_rc(void)
{
	uint8_t in[FROCE_CMD_CREATE_QP_IN_SIZE];
	uint64_t sq[64], rq[64];

	setup();
	struct t_qp_args a = { FROCE_QP_TYPE_RC, 0, 1, pd1, cq1a, cq1b, 1, 6, 7, 5, 6, FROCE_BUF_LEVEL_LIST };

	t_qp_in(in, &a, sq, rq);
	struct res r = RUN_OK(CREATE_QP, in);
	const uint32_t qpn = TGET(r.out, FROCE_CMD_CREATE_QP_OUT_QPN);
	const uint8_t *got = M.qpc + (size_t)qpn * FROCE_QPC_SIZE;
	const uint32_t key = TGET(got, FROCE_QPC_RING_KEY);
	const uint64_t sq_len = 1ull << (6 + 7), rq_len = 1ull << (5 + 6);

	CHECK(qpn >= 2 && qpn < t_cfg.num_qps, "QPN %u", qpn);
	/* host.cpp create_qp */
	uint8_t c[FROCE_QPC_SIZE] = { 0 };

	TSET(c, FROCE_QPC_STATE, FROCE_QP_STATE_RESET);
	TSET(c, FROCE_QPC_TYPE, FROCE_QP_TYPE_RC);
	TSET(c, FROCE_QPC_SIG_ALL, 1);
	TSET(c, FROCE_QPC_PDN, pd1);
	TSET(c, FROCE_QPC_SCQN, cq1a);
	TSET(c, FROCE_QPC_RCQN, cq1b);
	TSET(c, FROCE_QPC_QKEY, 0);	/* caps.qkey */
	TSET(c, FROCE_QPC_SQ_LOG_SIZE, 6);
	TSET(c, FROCE_QPC_SQ_WQE_SHIFT, 7);
	TSET(c, FROCE_QPC_RQ_LOG_SIZE, 5);
	TSET(c, FROCE_QPC_RQ_WQE_SHIFT, 6);
	TSET(c, FROCE_QPC_UAR, 1);
	TSET(c, FROCE_QPC_RING_KEY, key);
	TSETQ(c, FROCE_QPC_SQ_VA, 0);
	TSETQ(c, FROCE_QPC_RQ_VA, sq_len);	/* SQ pages first, RQ on the next page */
	compare_qpc(qpn, c, FROCE_QPC_LOAD_RESET_MASK, "create");
	/* the ring MR: in the QP's PD, LOCAL_WRITE, SQ pages then RQ pages */
	const uint8_t *mr = M.mr + (size_t)(key >> FROCE_KEY_TAG_W) * FROCE_MR_CTX_SIZE;
	const uint32_t base = TGET(mr, FROCE_MR_CTX_MTT_BASE);

	CHECK_EQ(TGET(mr, FROCE_MR_CTX_VALID), 1);
	CHECK_EQ(TGET(mr, FROCE_MR_CTX_TAG), key & 0xFF);
	CHECK_EQ(TGET(mr, FROCE_MR_CTX_PDN), pd1);
	CHECK_EQ(TGET(mr, FROCE_MR_CTX_ACCESS), FROCE_ACCESS_LOCAL_WRITE);
	CHECK_EQ(TGET(mr, FROCE_MR_CTX_PAGE_SHIFT), 12);
	CHECK_EQ(TGETQ(mr, FROCE_MR_CTX_IOVA), 0);
	CHECK_EQ(TGETQ(mr, FROCE_MR_CTX_LENGTH), sq_len + rq_len);
	for (unsigned i = 0; i < 2; i++)
		CHECK(t_ld64(M.mtt + 8 * (size_t)(base + i)) == sq[i], "SQ page %u in the MTT", i);
	CHECK(t_ld64(M.mtt + 8 * (size_t)(base + 2)) == rq[0], "RQ page in the MTT");

	/* host.cpp modify_qp_init(qp, access) */
	const uint32_t access = FROCE_ACCESS_LOCAL_WRITE | FROCE_ACCESS_REMOTE_WRITE | FROCE_ACCESS_REMOTE_READ;
	uint8_t m[FROCE_CMD_MODIFY_QP_IN_SIZE];

	t_attrs(m, qpn, A(STATE) | A(ACCESS_FLAGS) | A(PKEY_INDEX) | A(PORT), FROCE_QP_STATE_INIT);
	TSET(m, MIN_(ACCESS_FLAGS), access);
	RUN_OK(MODIFY_QP, m);
	TSET(c, FROCE_QPC_STATE, FROCE_QP_STATE_INIT);
	TSET(c, FROCE_QPC_ACCESS, access);
	compare_qpc(qpn, c, 0, "INIT");

	/* host.cpp modify_qp_rtr(qp, path, dest_qpn, rq_psn, mtu, min_rnr, max_dest_rd) */
	static const uint8_t dgid[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 10, 0, 0, 2 };
	const uint32_t dest_qpn = 0x1234, rq_psn = 0xABCDE, mtu = FROCE_MTU_4096, min_rnr = 1, max_dest = 8;
	const uint64_t dmac = 0x02BBCCDDEEFFull;

	t_attrs(m, qpn, A(STATE) | A(AV) | A(PATH_MTU) | A(DEST_QPN) | A(RQ_PSN) | A(MAX_DEST_RD_ATOMIC) | A(MIN_RNR_TIMER),
		FROCE_QP_STATE_RTR);
	TSET(m, MIN_(PATH_MTU), mtu);
	TSET(m, MIN_(DEST_QPN), dest_qpn);
	TSET(m, MIN_(RQ_PSN), rq_psn);
	TSET(m, MIN_(MIN_RNR_TIMER), min_rnr);
	TSET(m, MIN_(MAX_DEST_RD_ATOMIC), max_dest);
	TSET(m, MIN_(AV_SGID_INDEX), 0);
	TSET(m, MIN_(AV_HOP_LIMIT), 64);
	TSET(m, MIN_(AV_TCLASS), 0x28);
	TSET(m, MIN_(AV_NET_TYPE), FROCE_KIND_ROCE_V2_IPV4);
	TSET(m, MIN_(AV_VLAN_EN), 1);
	TSET(m, MIN_(AV_FLOW_LABEL), 0xABCDE);
	TSET(m, MIN_(AV_UDP_SPORT), 0xC001);
	TSET(m, MIN_(AV_VLAN_ID), 7);
	TSETQ(m, MIN_(AV_DMAC), dmac);
	memcpy(m + MIN_(AV_DGID_BYTE), dgid, 16);
	RUN_OK(MODIFY_QP, m);
	TSET(c, FROCE_QPC_STATE, FROCE_QP_STATE_RTR);
	TSET(c, FROCE_QPC_PATH_MTU, mtu);
	TSET(c, FROCE_QPC_DEST_QPN, dest_qpn);
	TSET(c, FROCE_QPC_RQ_PSN, rq_psn);
	TSET(c, FROCE_QPC_MIN_RNR_TIMER, min_rnr);
	TSET(c, FROCE_QPC_MAX_DEST_RD_ATOMIC, max_dest);
	TSET(c, FROCE_QPC_AV_SGID_INDEX, 0);
	TSET(c, FROCE_QPC_AV_HOP_LIMIT, 64);
	TSET(c, FROCE_QPC_AV_TCLASS, 0x28);
	TSET(c, FROCE_QPC_AV_NET_TYPE, FROCE_KIND_ROCE_V2_IPV4);
	TSET(c, FROCE_QPC_AV_VLAN_EN, 1);
	TSET(c, FROCE_QPC_AV_FLOW_LABEL, 0xABCDE);
	TSET(c, FROCE_QPC_AV_UDP_SPORT, 0xC001);
	TSET(c, FROCE_QPC_AV_VLAN_ID, 7);
	TSETQ(c, FROCE_QPC_AV_DMAC, dmac);
	memcpy(c + FROCE_QPC_AV_DGID_BYTE, dgid, 16);
	compare_qpc(qpn, c, FROCE_QPC_LOAD_RQ_PSN_MASK, "RTR");

	/* host.cpp modify_qp_rts(qp, sq_psn, timeout, retry, rnr_retry, max_rd) */
	t_attrs(m, qpn, A(STATE) | A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) | A(SQ_PSN) | A(MAX_QP_RD_ATOMIC),
		FROCE_QP_STATE_RTS);
	TSET(m, MIN_(SQ_PSN), 0x777);
	TSET(m, MIN_(TIMEOUT), 14);
	TSET(m, MIN_(RETRY_CNT), 7);
	TSET(m, MIN_(RNR_RETRY), 7);
	TSET(m, MIN_(MAX_RD_ATOMIC), 8);
	RUN_OK(MODIFY_QP, m);
	TSET(c, FROCE_QPC_STATE, FROCE_QP_STATE_RTS);
	TSET(c, FROCE_QPC_SQ_PSN, 0x777);
	TSET(c, FROCE_QPC_TIMEOUT, 14);
	TSET(c, FROCE_QPC_RETRY_CNT, 7);
	TSET(c, FROCE_QPC_RNR_RETRY, 7);
	TSET(c, FROCE_QPC_MAX_RD_ATOMIC, 8);
	compare_qpc(qpn, c, FROCE_QPC_LOAD_SQ_PSN_MASK, "RTS");

	/* QUERY_QP reports the attributes */
	uint8_t q[8] = { (uint8_t)qpn };

	r = RUN_OK(QUERY_QP, q);
#define QO(F) TGET(r.out, FROCE_CMD_QUERY_QP_OUT_##F)
	CHECK_EQ(QO(STATE), FROCE_QP_STATE_RTS);
	CHECK_EQ(QO(CUR_STATE), FROCE_QP_STATE_RTS);
	CHECK_EQ(QO(PATH_MTU), mtu);
	CHECK_EQ(QO(ACCESS_FLAGS), access);
	CHECK_EQ(QO(PORT), 1);
	CHECK_EQ(QO(RQ_PSN), rq_psn);
	CHECK_EQ(QO(SQ_PSN), 0x777);
	CHECK_EQ(QO(TIMEOUT), 14);
	CHECK_EQ(QO(RETRY_CNT), 7);
	CHECK_EQ(QO(RNR_RETRY), 7);
	CHECK_EQ(QO(DEST_QPN), dest_qpn);
	CHECK_EQ(QO(MIN_RNR_TIMER), min_rnr);
	CHECK_EQ(QO(MAX_RD_ATOMIC), 8);
	CHECK_EQ(QO(MAX_DEST_RD_ATOMIC), max_dest);
	CHECK_EQ(QO(PKEY_INDEX), 0);
	CHECK_EQ(QO(AV_TCLASS), 0x28);
	CHECK_EQ(QO(AV_FLOW_LABEL), 0xABCDE);
	CHECK_EQ(QO(AV_VLAN_ID), 7);
	CHECK_EQ(QO(AV_UDP_SPORT), 0xC001);
	CHECK_EQ(TGETQ(r.out, FROCE_CMD_QUERY_QP_OUT_AV_DMAC), dmac);
	CHECK(!memcmp(r.out + FROCE_CMD_QUERY_QP_OUT_AV_DGID_BYTE, dgid, 16), "QUERY_QP DGID");
	/* RTS -> SQD with the notification; QUERY_QP shows it */
	CHECK_EQ(t_modify(qpn, A(STATE) | A(EN_SQD_ASYNC_NOTIFY), FROCE_QP_STATE_SQD), OK);
	CHECK_EQ(fw.qp_flags[qpn] & FW_F_SQD_NOTIFY, 0);	/* t_attrs leaves EN_SQD 0 */
	t_attrs(m, qpn, A(STATE) | A(EN_SQD_ASYNC_NOTIFY), FROCE_QP_STATE_RTS);
	CHECK_EQ(t_run(FROCE_CMD_MODIFY_QP, m).status, ST(BAD_QP_STATE));	/* SQD -> RTS: not allowed */
	t_attrs(m, qpn, A(STATE), FROCE_QP_STATE_RTS);
	RUN_OK(MODIFY_QP, m);
	t_attrs(m, qpn, A(STATE) | A(EN_SQD_ASYNC_NOTIFY), FROCE_QP_STATE_SQD);
	TSET(m, MIN_(EN_SQD_ASYNC_NOTIFY), 1);
	RUN_OK(MODIFY_QP, m);
	r = RUN_OK(QUERY_QP, q);
	CHECK_EQ(QO(EN_SQD_ASYNC_NOTIFY), 1);
	CHECK_EQ(QO(STATE), FROCE_QP_STATE_SQD);
#undef QO
	/* back to RESET: the runtime state is reloaded */
	CHECK_EQ(t_modify(qpn, A(STATE), FROCE_QP_STATE_RESET), OK);
	CHECK_EQ(M.qpc_load[qpn], FROCE_QPC_LOAD_RESET_MASK);
	CHECK_EQ(TGET(got, FROCE_QPC_STATE), FROCE_QP_STATE_RESET);
}

/* A UD QP through host.cpp's modify_qp_ud_rts: RTR takes the port's MTU
 * (Linux gives UD no PATH_MTU attribute), RTS loads the SQ PSN. */
static void test_reference_ud(void)
{
	uint8_t m[FROCE_CMD_MODIFY_QP_IN_SIZE];

	setup();
	struct t_qp_args a = { FROCE_QP_TYPE_UD, 0, 0, pd1, cq1a, cq1a, 1, 4, 7, 4, 6, FROCE_BUF_LEVEL_LIST };

	const uint32_t qpn = t_create_qp(&a);
	uint8_t c[FROCE_QPC_SIZE];

	memcpy(c, M.qpc + (size_t)qpn * FROCE_QPC_SIZE, sizeof c);
	CHECK_EQ(TGET(c, FROCE_QPC_TYPE), FROCE_QP_TYPE_UD);
	t_attrs(m, qpn, A(STATE) | A(PKEY_INDEX) | A(PORT) | A(QKEY), FROCE_QP_STATE_INIT);
	TSET(m, MIN_(QKEY), 0x1EE7);
	RUN_OK(MODIFY_QP, m);
	TSET(c, FROCE_QPC_STATE, FROCE_QP_STATE_INIT);
	TSET(c, FROCE_QPC_QKEY, 0x1EE7);
	compare_qpc(qpn, c, 0, "UD INIT");
	CHECK_EQ(t_modify(qpn, A(STATE), FROCE_QP_STATE_RTR), OK);
	TSET(c, FROCE_QPC_PATH_MTU, FROCE_MTU_1024);	/* Ethernet MTU 1500 */
	TSET(c, FROCE_QPC_STATE, FROCE_QP_STATE_RTR);
	compare_qpc(qpn, c, 0, "UD RTR");
	t_attrs(m, qpn, A(STATE) | A(SQ_PSN), FROCE_QP_STATE_RTS);
	TSET(m, MIN_(SQ_PSN), 0x42);
	RUN_OK(MODIFY_QP, m);
	TSET(c, FROCE_QPC_STATE, FROCE_QP_STATE_RTS);
	TSET(c, FROCE_QPC_SQ_PSN, 0x42);
	compare_qpc(qpn, c, FROCE_QPC_LOAD_SQ_PSN_MASK, "UD RTS");
}

static void test_create(void)
{
	uint8_t in[FROCE_CMD_CREATE_QP_IN_SIZE], good[FROCE_CMD_CREATE_QP_IN_SIZE];
	uint64_t sq[64], rq[64];
	struct t_qp_args a = { FROCE_QP_TYPE_RC, 0, 0, 0, 0, 0, 1, 3, 6, 3, 6, FROCE_BUF_LEVEL_LIST };

	setup();
	a.pdn = pd1;
	a.scqn = cq1a;
	a.rcqn = cq1b;
	t_qp_in(good, &a, sq, rq);
#define BADQP(mod, status, syn) \
	do { \
		memcpy(in, good, sizeof in); \
		mod; \
		REFUSE(CREATE_QP, in, status, syn); \
	} while (0)
	BADQP(TSET(in, CIN(TYPE), FROCE_QP_TYPE_UC), BAD_PARAM, 0);
	BADQP(TSET(in, CIN(TYPE), 9), BAD_PARAM, 0);
	BADQP(TSET(in, CIN(PRIV), 1), BAD_PARAM, 1);	/* PRIV from a user context */
	BADQP(TSET(in, CIN(TYPE), FROCE_QP_TYPE_GSI), BAD_PARAM, TOFF(CIN(UAR)));
	BADQP(TSET(in, CIN(UAR), 4), BAD_INDEX, TOFF(CIN(UAR)));
	BADQP(TSET(in, CIN(PDN), 0), BAD_RESOURCE, TOFF(CIN(PDN)));
	BADQP(TSET(in, CIN(PDN), 6), BAD_RESOURCE, TOFF(CIN(PDN)));
	BADQP(TSET(in, CIN(PDN), pd2), BAD_RESOURCE, TOFF(CIN(PDN)));	/* another context's PD */
	BADQP(TSET(in, CIN(SEND_CQN), cq2), BAD_RESOURCE, TOFF(CIN(SEND_CQN)));	/* another context's CQ */
	BADQP(TSET(in, CIN(RECV_CQN), cq2), BAD_RESOURCE, TOFF(CIN(RECV_CQN)));
	BADQP(TSET(in, CIN(SEND_CQN), 7), BAD_RESOURCE, TOFF(CIN(SEND_CQN)));
	BADQP(TSET(in, CIN(RECV_CQN), 0xFFFFFF), BAD_RESOURCE, TOFF(CIN(RECV_CQN)));
	BADQP(TSET(in, CIN(LOG_SQ_SIZE), 16), BAD_PARAM, TOFF(CIN(LOG_SQ_SIZE)));
	BADQP(TSET(in, CIN(LOG_RQ_SIZE), 16), BAD_PARAM, TOFF(CIN(LOG_RQ_SIZE)));
	BADQP(TSET(in, CIN(SQ_WQE_SHIFT), 5), BAD_PARAM, TOFF(CIN(SQ_WQE_SHIFT)));
	BADQP(TSET(in, CIN(SQ_WQE_SHIFT), 10), BAD_PARAM, TOFF(CIN(SQ_WQE_SHIFT)));
	BADQP(TSET(in, CIN(RQ_WQE_SHIFT), 10), BAD_PARAM, TOFF(CIN(RQ_WQE_SHIFT)));
	BADQP(TSET(in, CIN(LOG_SQ_SIZE), 7), BAD_PARAM, TOFF(CIN(SQ_BUF_NUM_PAGES)));	/* 8 KiB, 1 page given */
	BADQP(TSET(in, CIN(RQ_BUF_NUM_PAGES), 2), BAD_PARAM, TOFF(CIN(RQ_BUF_NUM_PAGES)));
	BADQP(TSET(in, CIN(SQ_BUF_PAGE_SHIFT), 21), BAD_PARAM, TOFF(CIN(SQ_BUF_PAGE_SHIFT)));
	BADQP(TSETQ(in, CIN(RQ_BUF_ADDR), 0x1001), BAD_PARAM, TOFFQ(CIN(RQ_BUF_ADDR)));
	BADQP(in[2] = 1, BAD_PARAM, 0);
	/* rings: an SQ ring over a LIST with a page not 4 KiB aligned; one the
	 * MTT cannot hold (16 MiB, 4096 pages; the list is never read) */
	struct t_qp_args big = a;

	big.sq_log = 7;
	t_qp_in(good, &big, sq, rq);
	BADQP(model_write64(TGETQ(in, CIN(SQ_BUF_ADDR)) + 8, sq[1] + 0x800), BAD_PARAM, TOFFQ(CIN(SQ_BUF_ADDR)));
	BADQP((TSET(in, CIN(LOG_SQ_SIZE), 15), TSET(in, CIN(SQ_WQE_SHIFT), 9), TSET(in, CIN(SQ_BUF_NUM_PAGES), 4096),
	       TSET(in, CIN(SQ_BUF_LEVEL), FROCE_BUF_LEVEL_LIST2)),
	      EXCEED_LIM, 0);
	t_qp_in(good, &a, sq, rq);
	BADQP(in[7] = 1, BAD_PARAM, 4);
	BADQP(in[24] = 1, BAD_PARAM, 24);	/* dword 6 */
	BADQP(in[31] = 0x80, BAD_PARAM, 28);	/* dword 7 */
	BADQP(in[23] = 0x10, BAD_PARAM, 20);	/* bit 28 of dword 5 */
	BADQP(in[47] = 0x80, BAD_PARAM, 44);	/* SQ BUF dword 3 */
#undef BADQP

	/* GSI: kernel only, QPN 1, once */
	const uint32_t kpd = t_alloc_pd(0), kcq = t_create_cq(6, 0, 0);
	struct t_qp_args g = { FROCE_QP_TYPE_GSI, 1, 0, kpd, kcq, kcq, 0, 4, 7, 4, 6, FROCE_BUF_LEVEL_LIST };

	CHECK_EQ(t_create_qp(&g), FROCE_QPN_GSI);
	CHECK_EQ(TGET(M.qpc + FROCE_QPN_GSI * FROCE_QPC_SIZE, FROCE_QPC_TYPE), FROCE_QP_TYPE_GSI);
	CHECK(fw.qp_flags[FROCE_QPN_GSI] & FW_F_PRIV, "GSI QP not privileged");
	t_qp_in(in, &g, sq, rq);
	REFUSE(CREATE_QP, in, EXCEED_LIM, 0);
	CHECK_EQ(fw.cq[kcq].refs, 2);	/* send and receive */
	/* a privileged QP may use a controlled Q_Key, a user QP may not */
	CHECK_EQ(t_modify(FROCE_QPN_GSI, A(STATE) | A(PKEY_INDEX) | A(QKEY), FROCE_QP_STATE_INIT), OK);
	uint8_t m[FROCE_CMD_MODIFY_QP_IN_SIZE];

	t_attrs(m, FROCE_QPN_GSI, A(QKEY), 0);
	TSET(m, MIN_(QKEY), 0x80010000u);
	RUN_OK(MODIFY_QP, m);
	CHECK_EQ(TGET(M.qpc + FROCE_QPN_GSI * FROCE_QPC_SIZE, FROCE_QPC_QKEY), 0x80010000u);
	/* QPNs run out */
	unsigned made = 0;

	for (;;) {
		struct t_qp_args s = { FROCE_QP_TYPE_UD, 0, 0, pd1, cq1a, cq1a, 1, 0, 6, 0, 6, FROCE_BUF_LEVEL_CONTIG };

		t_qp_in(in, &s, sq, rq);
		struct res r = t_run(FROCE_CMD_CREATE_QP, in);

		if (r.status != OK) {
			CHECK_EQ(r.status, ST(EXCEED_LIM));
			break;
		}
		made++;
	}
	CHECK_EQ(made, t_cfg.num_qps - 2);	/* QPN 0 never, QPN 1 the GSI QP */
	t_consistent(__LINE__);
	CHECK_EQ(fw.cq[cq1a].refs, 2 * made);
	/* destroy everything, in any state */
	CHECK_EQ(t_modify(2, A(STATE) | A(PKEY_INDEX) | A(PORT) | A(QKEY), FROCE_QP_STATE_INIT), OK);
	CHECK_EQ(t_modify(3, A(STATE), FROCE_QP_STATE_ERR), ST(BAD_QP_STATE));	/* RESET -> ERR is not a transition */
	for (uint32_t q = 1; q < t_cfg.num_qps; q++) {
		uint8_t d[8] = { (uint8_t)q };

		RUN_OK(DESTROY_QP, d);
		CHECK(!memcmp(M.qpc + (size_t)q * FROCE_QPC_SIZE, (uint8_t[FROCE_QPC_SIZE]){ 0 }, FROCE_QPC_SIZE),
		      "DESTROY_QP %u: QPC not cleared", q);
		CHECK_EQ(M.qpc_load[q], FROCE_QPC_LOAD_RESET_MASK);
	}
	REFUSE(DESTROY_QP, (IN8(2)), BAD_RESOURCE, 0);
	REFUSE(DESTROY_QP, (IN8(0)), BAD_RESOURCE, 0);
	REFUSE(DESTROY_QP, (IN8(16)), BAD_RESOURCE, 0);
	REFUSE(DESTROY_QP, (IN8(2, 0, 0, 1)), BAD_PARAM, 0);
	REFUSE(QUERY_QP, (IN8(2)), BAD_RESOURCE, 0);
	REFUSE(QUERY_QP, (IN8(2, 0, 0, 0, 1)), BAD_PARAM, 4);
	CHECK_EQ(fw.cq[cq1a].refs, 0);
	CHECK_EQ(fw.pd[pd1].refs, 0);
}

/* Attribute values at legal transitions: each refused with its offset. */
static void test_values(void)
{
	struct t_qp_args a = { FROCE_QP_TYPE_RC, 0, 0, 0, 0, 0, 1, 3, 6, 3, 6, FROCE_BUF_LEVEL_CONTIG };
	uint8_t m[FROCE_CMD_MODIFY_QP_IN_SIZE];

	setup();
	a.pdn = pd1;
	a.scqn = a.rcqn = cq1a;
	const uint32_t qpn = t_create_qp(&a);
	const uint32_t to_init = A(STATE) | A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS);
	const uint32_t to_rtr = A(STATE) | A(AV) | A(PATH_MTU) | A(DEST_QPN) | A(RQ_PSN) | A(MAX_DEST_RD_ATOMIC) |
				A(MIN_RNR_TIMER);
	const uint32_t to_rts = A(STATE) | A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) | A(SQ_PSN) | A(MAX_QP_RD_ATOMIC);
#define BADM(mask, state, mod, status, syn) \
	do { \
		t_attrs(m, qpn, mask, state); \
		mod; \
		REFUSE(MODIFY_QP, m, status, syn); \
	} while (0)
	BADM(to_init, 1, TSET(m, MIN_(PORT), 2), BAD_PARAM, TOFF(MIN_(PORT)));
	BADM(to_init, 1, TSET(m, MIN_(PORT), 0), BAD_PARAM, TOFF(MIN_(PORT)));
	BADM(to_init, 1, TSET(m, MIN_(PKEY_INDEX), 1), BAD_PARAM, TOFF(MIN_(PKEY_INDEX)));
	BADM(to_init, 1, TSET(m, MIN_(ACCESS_FLAGS), 0x10), BAD_PARAM, TOFF(MIN_(ACCESS_FLAGS)));
	BADM(to_init, 7, (void)0, BAD_PARAM, TOFF(MIN_(STATE)));
	BADM(to_init, 15, (void)0, BAD_PARAM, TOFF(MIN_(STATE)));
	BADM(to_init | 0x4000, 1, (void)0, BAD_PARAM, TOFF(MIN_(ATTR_MASK)));	/* IB_QP_ALT_PATH */
	BADM(to_init | 0x80000000u, 1, (void)0, BAD_PARAM, TOFF(MIN_(ATTR_MASK)));
	BADM(to_init, 1, TSET(m, MIN_(QPN), 9), BAD_RESOURCE, 0);
	BADM(to_init, 1, TSET(m, MIN_(QPN), 0x10000), BAD_RESOURCE, 0);
	BADM(to_init, 1, m[3] = 1, BAD_PARAM, 0);
	BADM(to_init, 1, m[8] = 1, BAD_PARAM, 8);	/* dword 2 */
	BADM(to_init, 1, m[15] = 0x80, BAD_PARAM, 12);	/* dword 3 */
	BADM(to_init, 1, TSET(m, MIN_(SQ_DRAINING), 1), BAD_PARAM, TOFF(MIN_(SQ_DRAINING)));
	BADM(to_init, 1, m[17] |= 0x08, BAD_PARAM, 16);	/* bit 11 of QPATTR dword 0 */
	BADM(to_init, 1, m[43] = 0x40, BAD_PARAM, 40);	/* bit 30 of AV dword 0 */
	BADM(to_init, 1, m[62] = 1, BAD_PARAM, 60);	/* above the 48-bit DMAC */
	/* a user QP may not set a controlled Q_Key (bit 31) */
	CHECK_EQ(t_modify(qpn, to_init, FROCE_QP_STATE_INIT), OK);
	t_attrs(m, qpn, to_rtr, FROCE_QP_STATE_RTR);
	BADM(to_rtr, 2, TSET(m, MIN_(PATH_MTU), 0), BAD_PARAM, TOFF(MIN_(PATH_MTU)));
	BADM(to_rtr, 2, TSET(m, MIN_(PATH_MTU), 6), BAD_PARAM, TOFF(MIN_(PATH_MTU)));
	BADM(to_rtr, 2, TSET(m, MIN_(MAX_DEST_RD_ATOMIC), 9), BAD_PARAM, TOFF(MIN_(MAX_DEST_RD_ATOMIC)));
	BADM(to_rtr, 2, TSET(m, MIN_(AV_SGID_INDEX), 8), BAD_PARAM, TOFF(MIN_(AV_SGID_INDEX)));
	BADM(to_rtr, 2, TSET(m, MIN_(AV_SGID_INDEX), 5), BAD_PARAM, TOFF(MIN_(AV_SGID_INDEX)));	/* not valid */
	BADM(to_rtr, 2, TSET(m, MIN_(AV_NET_TYPE), 0), BAD_PARAM, TOFF(MIN_(AV_NET_TYPE)));
	BADM(to_rtr, 2, TSET(m, MIN_(AV_NET_TYPE), FROCE_KIND_ROCE_V2_IPV6), BAD_PARAM, TOFF(MIN_(AV_NET_TYPE)));
	BADM(to_rtr, 2, TSET(m, MIN_(AV_NET_TYPE), 7), BAD_PARAM, TOFF(MIN_(AV_NET_TYPE)));
	BADM(to_rtr, 2, (TSET(m, MIN_(AV_SGID_INDEX), 1), TSET(m, MIN_(AV_NET_TYPE), FROCE_KIND_ROCE_V2_IPV4)),
	     BAD_PARAM, TOFF(MIN_(AV_NET_TYPE)));	/* IPv6 GID, IPv4 packets */
	BADM(to_rtr, 2, (TSET(m, MIN_(AV_SGID_INDEX), 2), TSET(m, MIN_(AV_NET_TYPE), FROCE_KIND_ROCE_V2_IPV6)),
	     BAD_PARAM, TOFF(MIN_(AV_NET_TYPE)));	/* RoCE v1 GID */
	BADM(to_rtr, 2, m[MIN_(AV_DGID_BYTE) + 10] = 0, BAD_PARAM, MIN_(AV_DGID_BYTE));	/* not ::ffff:a.b.c.d */
	BADM(to_rtr, 2, TSET(m, MIN_(AV_VLAN_ID), 5), BAD_PARAM, TOFF(MIN_(AV_VLAN_ID)));	/* without VLAN_EN */
	BADM(to_rtr | A(CUR_STATE), 2, (void)0, BAD_QP_STATE, TOFF(MIN_(ATTR_MASK)));	/* not from INIT */
	/* unmasked attributes are not looked at */
	t_attrs(m, qpn, to_rtr, FROCE_QP_STATE_RTR);
	TSET(m, MIN_(PORT), 9);
	TSET(m, MIN_(PKEY_INDEX), 77);
	TSET(m, MIN_(MAX_RD_ATOMIC), 200);
	TSET(m, MIN_(QKEY), 0x80000000u);
	RUN_OK(MODIFY_QP, m);
	/* the other GID kinds are accepted with their own network type */
	CHECK_EQ(t_modify(qpn, A(STATE), FROCE_QP_STATE_RESET), OK);
	CHECK_EQ(t_modify(qpn, to_init, FROCE_QP_STATE_INIT), OK);
	t_attrs(m, qpn, to_rtr, FROCE_QP_STATE_RTR);
	TSET(m, MIN_(AV_SGID_INDEX), 2);
	TSET(m, MIN_(AV_NET_TYPE), FROCE_KIND_ROCE_V1);
	TSET(m, MIN_(AV_VLAN_EN), 1);
	TSET(m, MIN_(AV_VLAN_ID), 5);
	RUN_OK(MODIFY_QP, m);
	CHECK_EQ(TGET(M.qpc + (size_t)qpn * FROCE_QPC_SIZE, FROCE_QPC_AV_NET_TYPE), FROCE_KIND_ROCE_V1);
	BADM(to_rts, 3, TSET(m, MIN_(MAX_RD_ATOMIC), 9), BAD_PARAM, TOFF(MIN_(MAX_RD_ATOMIC)));
	BADM(to_rts | A(CUR_STATE), 3, TSET(m, MIN_(CUR_STATE), 9), BAD_PARAM, TOFF(MIN_(CUR_STATE)));
	BADM(to_rts | A(CUR_STATE), 3, TSET(m, MIN_(CUR_STATE), FROCE_QP_STATE_RTS), BAD_QP_STATE,
	     TOFF(MIN_(CUR_STATE)));
	CHECK_EQ(t_modify(qpn, to_rts | A(CUR_STATE), FROCE_QP_STATE_RTS), OK);
	BADM(A(QKEY), 0, (void)0, BAD_QP_STATE, TOFF(MIN_(ATTR_MASK)));	/* RC has no Q_Key */
	t_attrs(m, qpn, A(ACCESS_FLAGS) | A(MIN_RNR_TIMER), 0);	/* RTS -> RTS */
	TSET(m, MIN_(ACCESS_FLAGS), FROCE_ACCESS_REMOTE_ATOMIC);
	TSET(m, MIN_(MIN_RNR_TIMER), 31);
	RUN_OK(MODIFY_QP, m);
	CHECK_EQ(TGET(M.qpc + (size_t)qpn * FROCE_QPC_SIZE, FROCE_QPC_ACCESS), FROCE_ACCESS_REMOTE_ATOMIC);
	CHECK_EQ(TGET(M.qpc + (size_t)qpn * FROCE_QPC_SIZE, FROCE_QPC_MIN_RNR_TIMER), 31);
	CHECK_EQ(TGET(M.qpc + (size_t)qpn * FROCE_QPC_SIZE, FROCE_QPC_STATE), FROCE_QP_STATE_RTS);

	/* user UD QP: controlled Q_Key refused */
	struct t_qp_args u = { FROCE_QP_TYPE_UD, 0, 0, pd1, cq1a, cq1a, 1, 3, 6, 3, 6, FROCE_BUF_LEVEL_CONTIG };
	const uint32_t ud = t_create_qp(&u);

	t_attrs(m, ud, A(STATE) | A(PKEY_INDEX) | A(PORT) | A(QKEY), FROCE_QP_STATE_INIT);
	TSET(m, MIN_(QKEY), 0x80000001u);
	REFUSE(MODIFY_QP, m, BAD_PARAM, TOFF(MIN_(QKEY)));
#undef BADM
}

void test_qp(void)
{
	test_reference_rc();
	test_reference_ud();
	test_create();
	test_values();
}
