// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The data path of verbs.c against a fake kernel: the ibv_cmd_* helpers are
 * stubbed here (they record the driver data and answer with fixed numbers),
 * the UAR page is ordinary memory (as with the shadow UAR) and the test plays
 * the hardware by writing CQEs into the CQ ring.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "froce.h"
#include "froce_verbs.h"
#include "uapi/froce-abi.h"

static int failures, checks;

#define CHECK(cond)                                                         \
	do {                                                                \
		checks++;                                                   \
		if (!(cond)) {                                              \
			failures++;                                         \
			fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__,      \
				__LINE__, #cond);                           \
		}                                                           \
	} while (0)

/* ---- fake kernel ---- */
static struct froce_ib_create_cq last_cq;
static struct froce_ib_create_qp last_qp;

int ibv_dontfork_range(void *base, size_t size)
{
	(void)base;
	(void)size;
	return 0;
}

int ibv_dofork_range(void *base, size_t size)
{
	(void)base;
	(void)size;
	return 0;
}

int ibv_cmd_create_cq(struct ibv_context *context, int cqe,
		      struct ibv_comp_channel *channel, int comp_vector,
		      struct ibv_cq *cq, struct ibv_create_cq *cmd,
		      size_t cmd_size, struct ib_uverbs_create_cq_resp *resp,
		      size_t resp_size)
{
	struct froce_ib_create_cq_resp *drv = (void *)(resp + 1);

	(void)channel;
	(void)comp_vector;
	if (cmd_size != sizeof(*cmd) + sizeof(last_cq) ||
	    resp_size != sizeof(*resp) + sizeof(*drv))
		return EINVAL;
	memcpy(&last_cq, cmd + 1, sizeof(last_cq));
	cq->context = context;
	cq->cqe = cqe;
	drv->cqn = 5;
	drv->db_slot = 3;
	return 0;
}

int ibv_cmd_destroy_cq(struct ibv_cq *cq)
{
	(void)cq;
	return 0;
}

int ibv_cmd_create_qp(struct ibv_pd *pd, struct ibv_qp *qp,
		      struct ibv_qp_init_attr *attr, struct ibv_create_qp *cmd,
		      size_t cmd_size, struct ib_uverbs_create_qp_resp *resp,
		      size_t resp_size)
{
	struct froce_ib_create_qp_resp *drv = (void *)(resp + 1);

	if (cmd_size != sizeof(*cmd) + sizeof(last_qp) ||
	    resp_size != sizeof(*resp) + sizeof(*drv))
		return EINVAL;
	memcpy(&last_qp, cmd + 1, sizeof(last_qp));
	qp->context = pd->context;
	qp->qp_num = 0x1234;
	qp->qp_type = attr->qp_type;
	drv->qpn = 0x1234;
	drv->sq_db_slot = 7;
	drv->rq_db_slot = 8;
	return 0;
}

int ibv_cmd_destroy_qp(struct ibv_qp *qp)
{
	(void)qp;
	return 0;
}

/* not exercised here */
int ibv_cmd_query_device_any(struct ibv_context *c,
			     const struct ibv_query_device_ex_input *i,
			     struct ibv_device_attr_ex *a, size_t as,
			     struct ib_uverbs_ex_query_device_resp *r, size_t *rs)
{
	(void)c; (void)i; (void)a; (void)as; (void)r; (void)rs;
	return EOPNOTSUPP;
}

int ibv_cmd_query_port(struct ibv_context *c, uint8_t p,
		       struct ibv_port_attr *a, struct ibv_query_port *cmd,
		       size_t cs)
{
	(void)c; (void)p; (void)a; (void)cmd; (void)cs;
	return EOPNOTSUPP;
}

int ibv_cmd_alloc_pd(struct ibv_context *c, struct ibv_pd *pd,
		     struct ibv_alloc_pd *cmd, size_t cs,
		     struct ib_uverbs_alloc_pd_resp *r, size_t rs)
{
	(void)c; (void)pd; (void)cmd; (void)cs; (void)r; (void)rs;
	return EOPNOTSUPP;
}

int ibv_cmd_dealloc_pd(struct ibv_pd *pd)
{
	(void)pd;
	return EOPNOTSUPP;
}

int ibv_cmd_reg_mr(struct ibv_pd *pd, void *addr, size_t len, uint64_t va,
		   int access, struct verbs_mr *vmr, struct ibv_reg_mr *cmd,
		   size_t cs, struct ib_uverbs_reg_mr_resp *r, size_t rs)
{
	(void)pd; (void)addr; (void)len; (void)va; (void)access; (void)vmr;
	(void)cmd; (void)cs; (void)r; (void)rs;
	return EOPNOTSUPP;
}

int ibv_cmd_dereg_mr(struct verbs_mr *vmr)
{
	(void)vmr;
	return EOPNOTSUPP;
}

int ibv_cmd_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *a, int m,
		     struct ibv_qp_init_attr *ia, struct ibv_query_qp *cmd,
		     size_t cs)
{
	(void)qp; (void)a; (void)m; (void)ia; (void)cmd; (void)cs;
	return EOPNOTSUPP;
}

int ibv_cmd_create_ah(struct ibv_pd *pd, struct ibv_ah *ah,
		      struct ibv_ah_attr *a, struct ib_uverbs_create_ah_resp *r,
		      size_t rs)
{
	(void)pd; (void)ah; (void)a; (void)r; (void)rs;
	return EOPNOTSUPP;
}

int ibv_cmd_destroy_ah(struct ibv_ah *ah)
{
	(void)ah;
	return EOPNOTSUPP;
}

int ibv_cmd_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *a, int m,
		      struct ibv_modify_qp *cmd, size_t cs)
{
	(void)qp; (void)a; (void)m; (void)cmd;
	return cs == sizeof(*cmd) ? 0 : EINVAL;
}

/* ---- helpers ---- */
static uint64_t uar_slot(struct froce_context *ctx, unsigned int slot)
{
	uint64_t v;

	memcpy(&v, (uint8_t *)ctx->uar + 8 * slot, 8);
	return le64toh(v);
}

static void hw_cqe(struct froce_cq *cq, uint32_t at, uint8_t op,
		   uint16_t wqe_index, uint8_t status)
{
	uint8_t *p = cq->buf + FROCE_CQE_SIZE * (at & ((1u << cq->log_size) - 1));
	uint32_t dw[8] = { 0 };
	unsigned int i;

	dw[FROCE_CQE_QPN_DW] |= FROCE_FIELD_PREP(FROCE_CQE_QPN, 0x1234u);
	dw[FROCE_CQE_OPCODE_DW] |= FROCE_FIELD_PREP(FROCE_CQE_OPCODE, (uint32_t)op);
	dw[FROCE_CQE_WQE_INDEX_DW] |= FROCE_FIELD_PREP(FROCE_CQE_WQE_INDEX, (uint32_t)wqe_index);
	dw[FROCE_CQE_STATUS_DW] |= FROCE_FIELD_PREP(FROCE_CQE_STATUS, (uint32_t)status);
	dw[FROCE_CQE_BYTE_CNT_DW] |= FROCE_FIELD_PREP(FROCE_CQE_BYTE_CNT, 77u);
	dw[FROCE_CQE_OWNER_DW] |= FROCE_FIELD_PREP(FROCE_CQE_OWNER,
		(uint32_t)!((at >> cq->log_size) & 1));
	for (i = 0; i < 8; i++)
		dw[i] = htole32(dw[i]);
	memcpy(p, dw, sizeof(dw));
}

int main(void)
{
	struct froce_context *ctx = calloc(1, sizeof(*ctx));
	struct ibv_pd pd = { 0 };
	struct ibv_qp_init_attr qa = { 0 };
	struct ibv_sge sge = { .addr = 0x1000, .length = 64, .lkey = 0x101 };
	struct ibv_send_wr swr[6], *bad;
	struct ibv_recv_wr rwr[2], *rbad;
	struct ibv_wc wc[8];
	struct ibv_cq *ibcq;
	struct ibv_qp *ibqp;
	struct froce_cq *cq;
	struct froce_qp *qp;
	int i;

	ctx->uar = aligned_alloc(4096, 4096);
	memset(ctx->uar, 0, 4096);
	ctx->db_slots = FROCE_UAR_DB_SLOTS;
	ctx->max_sq_wr = 1024;
	ctx->max_cqe = 4096;
	ctx->max_send_sge = 4;
	ctx->max_recv_sge = 4;
	ctx->max_inline = 64;
	pthread_mutex_init(&ctx->qp_lock, NULL);
	pd.context = &ctx->vctx.context;

	/* CQ: 5 entries round up to 8; ring of one zeroed page */
	ibcq = froce_create_cq(&ctx->vctx.context, 5, NULL, 0);
	CHECK(ibcq != NULL);
	cq = to_fcq(ibcq);
	CHECK(last_cq.log_size == 3 && last_cq.buf_len == 4096);
	CHECK(last_cq.buf_va == (uintptr_t)cq->buf && !(last_cq.buf_va & 4095));
	CHECK(froce_create_cq(&ctx->vctx.context, 0, NULL, 0) == NULL &&
	      errno == EINVAL);
	/* one CQE (ib_write_lat) still gets a ring of 2: the kernel wants log >= 1 */
	{
		struct ibv_cq *one = froce_create_cq(&ctx->vctx.context, 1, NULL, 0);

		CHECK(one != NULL && last_cq.log_size == 1);
		if (one)
			froce_destroy_cq(one);
	}

	/* RC QP: 3 WRs round up to 4; SQ page, then the RQ page */
	qa.send_cq = qa.recv_cq = ibcq;
	qa.qp_type = IBV_QPT_RC;
	qa.cap.max_send_wr = 3;
	qa.cap.max_recv_wr = 2;
	qa.cap.max_send_sge = 2;
	qa.cap.max_recv_sge = 1;
	qa.cap.max_inline_data = 32;
	ibqp = froce_create_qp(&pd, &qa);
	CHECK(ibqp != NULL);
	qp = to_fqp(ibqp);
	CHECK(qa.cap.max_send_wr == 4 && qa.cap.max_recv_wr == 2);
	CHECK(last_qp.sq_log_size == 2 && last_qp.rq_log_size == 1);
	CHECK(last_qp.sq_wqe_shift == 6 && last_qp.rq_wqe_shift == 6);
	CHECK(last_qp.rq_offset == 4096 && last_qp.buf_len == 8192);
	qa.cap.max_send_sge = 5;	/* beyond the context's limit */
	CHECK(froce_create_qp(&pd, &qa) == NULL && errno == EINVAL);
	qa.cap.max_send_sge = 2;
	qa.qp_type = IBV_QPT_XRC_SEND;
	CHECK(froce_create_qp(&pd, &qa) == NULL && errno == EOPNOTSUPP);

	/* a list of 5 on a 4-deep SQ: 4 posted, one doorbell with PI 4 */
	memset(swr, 0, sizeof(swr));
	for (i = 0; i < 5; i++) {
		swr[i].wr_id = 100 + i;
		swr[i].sg_list = &sge;
		swr[i].num_sge = 1;
		swr[i].opcode = IBV_WR_SEND;
		swr[i].send_flags = i == 2 ? IBV_SEND_SIGNALED : 0;
		swr[i].next = i < 4 ? &swr[i + 1] : NULL;
	}
	bad = NULL;
	CHECK(froce_post_send(ibqp, swr, &bad) == ENOMEM && bad == &swr[4]);
	CHECK(uar_slot(ctx, 7) == froce_db_qp(0x1234, FROCE_DB_TYPE_SQ, 4));
	{
		uint8_t want[64];
		const struct froce_sq_info info = {
			.qp_type = FROCE_QP_TYPE_RC, .wqe_shift = 6,
			.max_sge = 2, .max_inline = 32 };

		CHECK(!froce_build_sq_wqe(&info, &swr[3], 0, 0, NULL, 3, want));
		CHECK(!memcmp(qp->sq.buf + 3 * 64, want, 64));
	}

	/* the signaled WQE 2 completes 0..2 */
	CHECK(froce_poll_cq(ibcq, 8, wc) == 0);
	hw_cqe(cq, 0, FROCE_CQE_OP_SEND, 2, FROCE_WC_SUCCESS);
	CHECK(froce_poll_cq(ibcq, 8, wc) == 1);
	CHECK(wc[0].wr_id == 102 && wc[0].opcode == IBV_WC_SEND &&
	      wc[0].status == IBV_WC_SUCCESS && wc[0].qp_num == 0x1234);
	CHECK(qp->sq.ci == 3);

	/* bad WR first: nothing posted, no doorbell */
	memset(ctx->uar, 0, 4096);
	swr[0].num_sge = 3;
	swr[0].next = NULL;
	CHECK(froce_post_send(ibqp, swr, &bad) == EINVAL && bad == &swr[0]);
	CHECK(uar_slot(ctx, 7) == 0 && qp->sq.pi == 4);
	swr[0].num_sge = 1;
	CHECK(froce_post_send(ibqp, swr, &bad) == 0);
	CHECK(uar_slot(ctx, 7) == froce_db_qp(0x1234, FROCE_DB_TYPE_SQ, 5));

	/* receives: in order, RQ doorbell with PI */
	memset(rwr, 0, sizeof(rwr));
	rwr[0].wr_id = 7;
	rwr[0].sg_list = &sge;
	rwr[0].num_sge = 1;
	rwr[0].next = &rwr[1];
	rwr[1] = rwr[0];
	rwr[1].wr_id = 8;
	rwr[1].next = NULL;
	CHECK(froce_post_recv(ibqp, rwr, &rbad) == 0);
	CHECK(uar_slot(ctx, 8) == froce_db_qp(0x1234, FROCE_DB_TYPE_RQ, 2));
	CHECK(froce_post_recv(ibqp, rwr, &rbad) == ENOMEM && rbad == &rwr[0]);
	rwr[0].num_sge = 2;
	hw_cqe(cq, 1, FROCE_CQE_OP_RECV, 0, FROCE_WC_SUCCESS);
	hw_cqe(cq, 2, FROCE_CQE_OP_RECV, 1, FROCE_WC_LOC_LEN_ERR);
	CHECK(froce_poll_cq(ibcq, 1, wc) == 1 && wc[0].wr_id == 7 &&
	      wc[0].opcode == IBV_WC_RECV && wc[0].byte_len == 77);
	CHECK(froce_poll_cq(ibcq, 8, wc) == 1 && wc[0].wr_id == 8 &&
	      wc[0].status == IBV_WC_LOC_LEN_ERR);

	/* arm: CQN, CI 3, SN 1; then solicited, SN 2 */
	CHECK(froce_req_notify_cq(ibcq, 0) == 0);
	CHECK(uar_slot(ctx, 3) == froce_db_cq_arm(5, 3, 0, 1));
	CHECK(froce_req_notify_cq(ibcq, 1) == 0);
	CHECK(uar_slot(ctx, 3) == froce_db_cq_arm(5, 3, 1, 2));

	/* owner wrap: run the 8-entry CQ round twice with send completions */
	for (i = 0; i < 14; i++) {
		uint32_t pi = qp->sq.pi;

		swr[0].send_flags = IBV_SEND_SIGNALED;
		swr[0].wr_id = 1000 + i;
		if (qp->sq.pi - qp->sq.ci == 4) {
			hw_cqe(cq, cq->ci, FROCE_CQE_OP_SEND,
			       (uint16_t)(qp->sq.pi - 1), FROCE_WC_SUCCESS);
			CHECK(froce_poll_cq(ibcq, 8, wc) == 1);
			CHECK(qp->sq.ci == qp->sq.pi);
		}
		CHECK(froce_post_send(ibqp, swr, &bad) == 0 && qp->sq.pi == pi + 1);
		hw_cqe(cq, cq->ci, FROCE_CQE_OP_SEND, (uint16_t)pi,
		       FROCE_WC_SUCCESS);
		CHECK(froce_poll_cq(ibcq, 8, wc) == 1 && wc[0].wr_id == 1000u + i);
	}
	CHECK(cq->ci > 16 && froce_poll_cq(ibcq, 8, wc) == 0);

	/* a CQE of an unknown QP is consumed without a completion */
	hw_cqe(cq, cq->ci, FROCE_CQE_OP_SEND, 0, FROCE_WC_SUCCESS);
	{
		uint8_t *p = cq->buf + FROCE_CQE_SIZE * (cq->ci & 7);

		p[0] = 0x99;	/* QPN 0x1299 */
	}
	i = (int)cq->ci;
	CHECK(froce_poll_cq(ibcq, 8, wc) == 0 && cq->ci == (uint32_t)i + 1);

	/* to RESET: both rings restart at index 0, zeroed */
	{
		struct ibv_qp_attr at = { .qp_state = IBV_QPS_RESET };

		CHECK(froce_modify_qp(ibqp, &at, IBV_QP_STATE) == 0);
		CHECK(qp->sq.pi == 0 && qp->sq.ci == 0 && qp->rq.pi == 0);
		CHECK(qp->sq.buf[0] == 0 && qp->sq.buf[64] == 0);
	}

	CHECK(froce_destroy_qp(ibqp) == 0);
	CHECK(froce_destroy_cq(ibcq) == 0);
	for (i = 0; i < FROCE_QP_TABLE_L1; i++)
		free(ctx->qp_table[i]);
	free(ctx->uar);
	free(ctx);
	printf("provider verbs tests: %d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
