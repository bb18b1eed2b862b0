// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * froce provider: the verbs. Control verbs go through ibv_cmd_*; post_send,
 * post_recv and poll_cq work on rings in user memory and ring doorbells in
 * the context's UAR page (one 64-bit store per posted list).
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "froce.h"
#include "froce_verbs.h"
#include "uapi/froce-abi.h"

#define FROCE_PAGE ((size_t)1 << 12)

/*
 * Barriers (rdma-core util/udma_barrier.h semantics): stores to host memory
 * visible to the device before the doorbell; the CQE owner read before the
 * rest of the CQE.
 */
#if defined(__x86_64__)
#define udma_to_device_barrier() asm volatile("" ::: "memory")
#define udma_from_device_barrier() asm volatile("lfence" ::: "memory")
#else
#define udma_to_device_barrier() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define udma_from_device_barrier() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif

static void ring_db(struct froce_context *ctx, uint32_t slot, uint64_t val)
{
	volatile uint64_t *db = (volatile uint64_t *)((uint8_t *)ctx->uar +
						      (size_t)slot * 8);

	udma_to_device_barrier();
	*db = htole64(val);
}

static size_t page_round(size_t n)
{
	return (n + FROCE_PAGE - 1) & ~(FROCE_PAGE - 1);
}

static void *ring_alloc(size_t len)
{
	void *p;

	if (posix_memalign(&p, FROCE_PAGE, len))
		return NULL;
	memset(p, 0, len);
	if (ibv_dontfork_range(p, len)) {
		free(p);
		return NULL;
	}
	return p;
}

static void ring_free(void *p, size_t len)
{
	if (!p)
		return;
	ibv_dofork_range(p, len);
	free(p);
}

/* ---- device, port ---- */

int froce_query_device_ex(struct ibv_context *ibctx,
			  const struct ibv_query_device_ex_input *input,
			  struct ibv_device_attr_ex *attr, size_t attr_size)
{
	struct ib_uverbs_ex_query_device_resp resp;
	size_t resp_size = sizeof(resp);
	uint64_t fw;
	int ret;

	ret = ibv_cmd_query_device_any(ibctx, input, attr, attr_size, &resp,
				       &resp_size);
	if (ret)
		return ret;
	fw = resp.base.fw_ver;
	snprintf(attr->orig_attr.fw_ver, sizeof(attr->orig_attr.fw_ver),
		 "%u.%u.%u", (unsigned int)(fw >> 32) & 0xFFFF,
		 (unsigned int)(fw >> 16) & 0xFFFF, (unsigned int)fw & 0xFFFF);
	return 0;
}

int froce_query_port(struct ibv_context *ibctx, uint8_t port,
		     struct ibv_port_attr *attr)
{
	struct ibv_query_port cmd;

	memset(&cmd, 0, sizeof(cmd));
	return ibv_cmd_query_port(ibctx, port, attr, &cmd, sizeof(cmd));
}

/* ---- PD, MR ---- */

struct froce_alloc_pd_resp {
	struct ib_uverbs_alloc_pd_resp ibv_resp;
	struct froce_ib_alloc_pd_resp drv;
};
_Static_assert(offsetof(struct froce_alloc_pd_resp, drv) == 4, "udata");

struct ibv_pd *froce_alloc_pd(struct ibv_context *ibctx)
{
	struct froce_alloc_pd_resp resp;
	struct ibv_alloc_pd cmd;
	struct froce_pd *pd;
	int ret;

	pd = calloc(1, sizeof(*pd));
	if (!pd)
		return NULL;
	memset(&cmd, 0, sizeof(cmd));
	memset(&resp, 0, sizeof(resp));
	ret = ibv_cmd_alloc_pd(ibctx, &pd->ibv_pd, &cmd, sizeof(cmd),
			       &resp.ibv_resp, sizeof(resp));
	if (ret) {
		free(pd);
		errno = ret;
		return NULL;
	}
	pd->pdn = resp.drv.pdn;
	return &pd->ibv_pd;
}

int froce_dealloc_pd(struct ibv_pd *ibpd)
{
	int ret = ibv_cmd_dealloc_pd(ibpd);

	if (ret)
		return ret;
	free(froce_container_of(ibpd, struct froce_pd, ibv_pd));
	return 0;
}

struct ibv_mr *froce_reg_mr(struct ibv_pd *pd, void *addr, size_t len,
			    uint64_t hca_va, int access)
{
	struct ib_uverbs_reg_mr_resp resp;
	struct ibv_reg_mr cmd;
	struct verbs_mr *vmr;
	int ret;

	vmr = calloc(1, sizeof(*vmr));
	if (!vmr)
		return NULL;
	memset(&cmd, 0, sizeof(cmd));
	ret = ibv_cmd_reg_mr(pd, addr, len, hca_va, access, vmr, &cmd,
			     sizeof(cmd), &resp, sizeof(resp));
	if (ret) {
		free(vmr);
		errno = ret;
		return NULL;
	}
	return &vmr->ibv_mr;
}

int froce_dereg_mr(struct verbs_mr *vmr)
{
	int ret = ibv_cmd_dereg_mr(vmr);

	if (ret)
		return ret;
	free(vmr);
	return 0;
}

/* ---- CQ ---- */

struct froce_create_cq_cmd {
	struct ibv_create_cq ibv_cmd;
	struct froce_ib_create_cq drv;
};
struct froce_create_cq_resp {
	struct ib_uverbs_create_cq_resp ibv_resp;
	struct froce_ib_create_cq_resp drv;
};
_Static_assert(offsetof(struct froce_create_cq_cmd, drv) == 40, "udata");
_Static_assert(offsetof(struct froce_create_cq_resp, drv) == 8, "udata");

struct ibv_cq *froce_create_cq(struct ibv_context *ibctx, int cqe,
			       struct ibv_comp_channel *channel, int vector)
{
	struct froce_context *ctx = to_fctx(ibctx);
	struct froce_create_cq_resp resp;
	struct froce_create_cq_cmd cmd;
	struct froce_cq *cq;
	int ret;

	if (cqe < 1 || (ctx->max_cqe && (uint32_t)cqe > ctx->max_cqe)) {
		errno = EINVAL;
		return NULL;
	}
	cq = calloc(1, sizeof(*cq));
	if (!cq)
		return NULL;
	/* at least 2 CQEs: the kernel refuses a log size of 0 */
	cq->log_size = froce_log2_ceil((uint64_t)cqe);
	if (cq->log_size < 1)
		cq->log_size = 1;
	cq->buf_len = page_round((size_t)FROCE_CQE_SIZE << cq->log_size);
	cq->buf = ring_alloc(cq->buf_len);
	if (!cq->buf) {
		errno = ENOMEM;
		goto err_free;
	}
	pthread_spin_init(&cq->lock, PTHREAD_PROCESS_PRIVATE);
	memset(&cmd, 0, sizeof(cmd));
	memset(&resp, 0, sizeof(resp));
	cmd.drv.log_size = cq->log_size;
	cmd.drv.buf_va = (uintptr_t)cq->buf;
	cmd.drv.buf_len = cq->buf_len;
	ret = ibv_cmd_create_cq(ibctx, 1 << cq->log_size, channel, vector,
				&cq->vcq.cq, &cmd.ibv_cmd, sizeof(cmd),
				&resp.ibv_resp, sizeof(resp));
	if (ret) {
		errno = ret;
		goto err_ring;
	}
	if (resp.drv.db_slot >= ctx->db_slots) {
		ibv_cmd_destroy_cq(&cq->vcq.cq);
		errno = EINVAL;
		goto err_ring;
	}
	cq->cqn = resp.drv.cqn;
	cq->db_slot = resp.drv.db_slot;
	return &cq->vcq.cq;

err_ring:
	pthread_spin_destroy(&cq->lock);
	ring_free(cq->buf, cq->buf_len);
err_free:
	free(cq);
	return NULL;
}

int froce_destroy_cq(struct ibv_cq *ibcq)
{
	struct froce_cq *cq = to_fcq(ibcq);
	int ret = ibv_cmd_destroy_cq(ibcq);

	if (ret)
		return ret;
	pthread_spin_destroy(&cq->lock);
	ring_free(cq->buf, cq->buf_len);
	free(cq);
	return 0;
}

static struct froce_qp *qp_lookup(struct froce_context *ctx, uint32_t qpn)
{
	struct froce_qp **l2;

	if (qpn >= FROCE_QP_TABLE_L1 * FROCE_QP_TABLE_L2)
		return NULL;
	l2 = __atomic_load_n(&ctx->qp_table[qpn / FROCE_QP_TABLE_L2],
			     __ATOMIC_ACQUIRE);
	return l2 ? __atomic_load_n(&l2[qpn % FROCE_QP_TABLE_L2],
				    __ATOMIC_ACQUIRE) : NULL;
}

/* one CQE into wc; 0 if the CQE was consumed without a completion */
static int poll_one(struct froce_context *ctx, const struct froce_cqe *c,
		    struct ibv_wc *wc)
{
	struct froce_qp *qp = qp_lookup(ctx, c->qpn);
	struct froce_wq *wq;

	if (!qp)
		return 0;	/* QP destroyed: drop its CQE */
	if (froce_cqe_to_wc(c, wc)) {
		wc->opcode = (c->opcode & 0x80) ? IBV_WC_RECV : IBV_WC_SEND;
		if (wc->status == IBV_WC_SUCCESS)
			wc->status = IBV_WC_GENERAL_ERR;
	}
	if (c->opcode & 0x80) {
		wq = &qp->rq;
		/* receives complete in order */
		wc->wr_id = wq->wrid[wq->ci & ((1u << wq->log_size) - 1)];
		__atomic_store_n(&wq->ci, wq->ci + 1, __ATOMIC_RELEASE);
	} else {
		int64_t ci;

		wq = &qp->sq;
		ci = froce_sq_complete(
			__atomic_load_n(&wq->pi, __ATOMIC_ACQUIRE), wq->ci,
			c->wqe_index);
		if (ci < 0)
			return 0;	/* not outstanding: ignore */
		wc->wr_id = wq->wrid[c->wqe_index & ((1u << wq->log_size) - 1)];
		__atomic_store_n(&wq->ci, (uint32_t)ci, __ATOMIC_RELEASE);
	}
	return 1;
}

int froce_poll_cq(struct ibv_cq *ibcq, int ne, struct ibv_wc *wc)
{
	struct froce_context *ctx = to_fctx(ibcq->context);
	struct froce_cq *cq = to_fcq(ibcq);
	struct froce_cqe c;
	int n = 0;

	pthread_spin_lock(&cq->lock);
	while (n < ne) {
		const uint8_t *cqe = cq->buf + (size_t)FROCE_CQE_SIZE *
				     (cq->ci & ((1u << cq->log_size) - 1));

		if (!froce_cqe_owned(cqe, cq->ci, cq->log_size))
			break;
		udma_from_device_barrier();
		froce_cqe_decode(cqe, &c);
		cq->ci++;
		n += poll_one(ctx, &c, &wc[n]);
	}
	pthread_spin_unlock(&cq->lock);
	return n;
}

int froce_req_notify_cq(struct ibv_cq *ibcq, int solicited_only)
{
	struct froce_context *ctx = to_fctx(ibcq->context);
	struct froce_cq *cq = to_fcq(ibcq);
	uint64_t db;

	pthread_spin_lock(&cq->lock);
	cq->arm_sn = (cq->arm_sn + 1) & 0xF;
	db = froce_db_cq_arm(cq->cqn, cq->ci, solicited_only, cq->arm_sn);
	ring_db(ctx, cq->db_slot, db);
	pthread_spin_unlock(&cq->lock);
	return 0;
}

/* ---- QP ---- */

struct froce_create_qp_cmd {
	struct ibv_create_qp ibv_cmd;
	struct froce_ib_create_qp drv;
};
struct froce_create_qp_resp {
	struct ib_uverbs_create_qp_resp ibv_resp;
	struct froce_ib_create_qp_resp drv;
};
_Static_assert(offsetof(struct froce_create_qp_cmd, drv) == 64, "udata");
_Static_assert(offsetof(struct froce_create_qp_resp, drv) == 32, "udata");

static int qp_table_insert(struct froce_context *ctx, struct froce_qp *qp,
			   uint32_t qpn)
{
	struct froce_qp **l2;
	int ret = 0;

	if (qpn >= FROCE_QP_TABLE_L1 * FROCE_QP_TABLE_L2)
		return EINVAL;
	pthread_mutex_lock(&ctx->qp_lock);
	l2 = ctx->qp_table[qpn / FROCE_QP_TABLE_L2];
	if (!l2) {
		l2 = calloc(FROCE_QP_TABLE_L2, sizeof(*l2));
		if (!l2) {
			ret = ENOMEM;
			goto out;
		}
		__atomic_store_n(&ctx->qp_table[qpn / FROCE_QP_TABLE_L2], l2,
				 __ATOMIC_RELEASE);
	}
	__atomic_store_n(&l2[qpn % FROCE_QP_TABLE_L2], qp, __ATOMIC_RELEASE);
out:
	pthread_mutex_unlock(&ctx->qp_lock);
	return ret;
}

static void qp_table_remove(struct froce_context *ctx, uint32_t qpn)
{
	struct froce_qp **l2;

	pthread_mutex_lock(&ctx->qp_lock);
	l2 = ctx->qp_table[qpn / FROCE_QP_TABLE_L2];
	if (l2)
		__atomic_store_n(&l2[qpn % FROCE_QP_TABLE_L2], NULL,
				 __ATOMIC_RELEASE);
	pthread_mutex_unlock(&ctx->qp_lock);
}

static void qp_free(struct froce_qp *qp)
{
	pthread_spin_destroy(&qp->sq.lock);
	pthread_spin_destroy(&qp->rq.lock);
	ring_free(qp->buf, qp->buf_len);
	free(qp->sq.wrid);
	free(qp->rq.wrid);
	free(qp);
}

struct ibv_qp *froce_create_qp(struct ibv_pd *pd,
			       struct ibv_qp_init_attr *attr)
{
	struct froce_context *ctx = to_fctx(pd->context);
	struct ibv_qp_cap *cap = &attr->cap;
	struct froce_create_qp_resp resp;
	struct froce_create_qp_cmd cmd;
	unsigned int sq_shift, rq_shift;
	size_t sq_len, rq_len;
	struct froce_qp *qp;
	uint8_t type;
	int ret;

	switch (attr->qp_type) {
	case IBV_QPT_RC:
		type = FROCE_QP_TYPE_RC;
		break;
	case IBV_QPT_UC:
		type = FROCE_QP_TYPE_UC;
		break;
	case IBV_QPT_UD:
		type = FROCE_QP_TYPE_UD;
		break;
	default:
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (attr->srq || cap->max_send_wr < 1 || cap->max_recv_wr < 1 ||
	    (ctx->max_sq_wr && (cap->max_send_wr > ctx->max_sq_wr ||
				cap->max_recv_wr > ctx->max_sq_wr)) ||
	    cap->max_send_wr > (1u << FROCE_MAX_LOG_WQ) ||
	    cap->max_recv_wr > (1u << FROCE_MAX_LOG_WQ) ||
	    cap->max_send_sge > ctx->max_send_sge ||
	    cap->max_recv_sge > ctx->max_recv_sge ||
	    cap->max_inline_data > ctx->max_inline ||
	    froce_qp_shifts(type, cap->max_send_sge, cap->max_inline_data,
			    cap->max_recv_sge, &sq_shift, &rq_shift)) {
		errno = EINVAL;
		return NULL;
	}
	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return NULL;
	pthread_spin_init(&qp->sq.lock, PTHREAD_PROCESS_PRIVATE);
	pthread_spin_init(&qp->rq.lock, PTHREAD_PROCESS_PRIVATE);
	qp->type = type;
	qp->sig_all = !!attr->sq_sig_all;
	qp->max_inline = cap->max_inline_data;
	qp->sq.log_size = froce_log2_ceil(cap->max_send_wr);
	qp->rq.log_size = froce_log2_ceil(cap->max_recv_wr);
	qp->sq.wqe_shift = sq_shift;
	qp->rq.wqe_shift = rq_shift;
	qp->sq.max_sge = cap->max_send_sge;
	qp->rq.max_sge = cap->max_recv_sge;
	/* SQ pages, then the RQ from the next page on */
	sq_len = page_round((size_t)1 << (qp->sq.log_size + sq_shift));
	rq_len = page_round((size_t)1 << (qp->rq.log_size + rq_shift));
	qp->buf_len = sq_len + rq_len;
	qp->buf = ring_alloc(qp->buf_len);
	qp->sq.wrid = calloc((size_t)1 << qp->sq.log_size, sizeof(uint64_t));
	qp->rq.wrid = calloc((size_t)1 << qp->rq.log_size, sizeof(uint64_t));
	if (!qp->buf || !qp->sq.wrid || !qp->rq.wrid) {
		errno = ENOMEM;
		goto err_free;
	}
	qp->sq.buf = qp->buf;
	qp->rq.buf = qp->buf + sq_len;

	memset(&cmd, 0, sizeof(cmd));
	memset(&resp, 0, sizeof(resp));
	cmd.drv.buf_va = (uintptr_t)qp->buf;
	cmd.drv.buf_len = qp->buf_len;
	cmd.drv.rq_offset = (uint32_t)sq_len;
	cmd.drv.sq_log_size = qp->sq.log_size;
	cmd.drv.sq_wqe_shift = sq_shift;
	cmd.drv.rq_log_size = qp->rq.log_size;
	cmd.drv.rq_wqe_shift = rq_shift;
	ret = ibv_cmd_create_qp(pd, &qp->vqp.qp, attr, &cmd.ibv_cmd,
				sizeof(cmd), &resp.ibv_resp, sizeof(resp));
	if (ret) {
		errno = ret;
		goto err_free;
	}
	if (resp.drv.sq_db_slot >= ctx->db_slots ||
	    resp.drv.rq_db_slot >= ctx->db_slots) {
		errno = EINVAL;
		goto err_destroy;
	}
	qp->sq.db_slot = resp.drv.sq_db_slot;
	qp->rq.db_slot = resp.drv.rq_db_slot;
	ret = qp_table_insert(ctx, qp, qp->vqp.qp.qp_num);
	if (ret) {
		errno = ret;
		goto err_destroy;
	}
	cap->max_send_wr = 1u << qp->sq.log_size;
	cap->max_recv_wr = 1u << qp->rq.log_size;
	return &qp->vqp.qp;

err_destroy:
	ibv_cmd_destroy_qp(&qp->vqp.qp);
err_free:
	qp_free(qp);
	return NULL;
}

int froce_modify_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr,
		    int attr_mask)
{
	struct froce_qp *qp = to_fqp(ibqp);
	struct ibv_modify_qp cmd;
	int ret;

	memset(&cmd, 0, sizeof(cmd));
	ret = ibv_cmd_modify_qp(ibqp, attr, attr_mask, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	if ((attr_mask & IBV_QP_STATE) && attr->qp_state == IBV_QPS_RESET) {
		/* the hardware restarts both rings at index 0 */
		pthread_spin_lock(&qp->sq.lock);
		pthread_spin_lock(&qp->rq.lock);
		qp->sq.pi = qp->sq.ci = 0;
		qp->rq.pi = qp->rq.ci = 0;
		memset(qp->buf, 0, qp->buf_len);
		pthread_spin_unlock(&qp->rq.lock);
		pthread_spin_unlock(&qp->sq.lock);
	}
	return 0;
}

int froce_query_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr, int attr_mask,
		   struct ibv_qp_init_attr *init_attr)
{
	struct froce_qp *qp = to_fqp(ibqp);
	struct ibv_query_qp cmd;
	int ret;

	memset(&cmd, 0, sizeof(cmd));
	ret = ibv_cmd_query_qp(ibqp, attr, attr_mask, init_attr, &cmd,
			       sizeof(cmd));
	if (ret)
		return ret;
	init_attr->cap.max_send_wr = 1u << qp->sq.log_size;
	init_attr->cap.max_recv_wr = 1u << qp->rq.log_size;
	init_attr->cap.max_send_sge = qp->sq.max_sge;
	init_attr->cap.max_recv_sge = qp->rq.max_sge;
	init_attr->cap.max_inline_data = qp->max_inline;
	attr->cap = init_attr->cap;
	return 0;
}

int froce_destroy_qp(struct ibv_qp *ibqp)
{
	struct froce_context *ctx = to_fctx(ibqp->context);
	struct froce_qp *qp = to_fqp(ibqp);
	int ret;

	ret = ibv_cmd_destroy_qp(ibqp);
	if (ret)
		return ret;
	qp_table_remove(ctx, ibqp->qp_num);
	qp_free(qp);
	return 0;
}

int froce_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr,
		    struct ibv_send_wr **bad_wr)
{
	struct froce_context *ctx = to_fctx(ibqp->context);
	struct froce_qp *qp = to_fqp(ibqp);
	struct froce_wq *sq = &qp->sq;
	const struct froce_sq_info info = {
		.qp_type = qp->type,
		.wqe_shift = (uint8_t)sq->wqe_shift,
		.sig_all = qp->sig_all,
		.max_sge = sq->max_sge,
		.max_inline = qp->max_inline,
	};
	const uint32_t mask = (1u << sq->log_size) - 1;
	uint32_t start;
	int ret = 0;

	pthread_spin_lock(&sq->lock);
	start = sq->pi;
	for (; wr; wr = wr->next) {
		const struct froce_av *av = NULL;
		uint32_t dqpn = 0, qkey = 0;

		if (froce_wq_full(sq->pi, __atomic_load_n(&sq->ci,
							  __ATOMIC_ACQUIRE),
				  sq->log_size)) {
			ret = ENOMEM;
			break;
		}
		if (qp->type == FROCE_QP_TYPE_UD) {
			if (!wr->wr.ud.ah) {
				ret = EINVAL;
				break;
			}
			av = &to_fah(wr->wr.ud.ah)->av;
			dqpn = wr->wr.ud.remote_qpn;
			qkey = wr->wr.ud.remote_qkey;
		}
		ret = -froce_build_sq_wqe(&info, wr, dqpn, qkey, av,
					  (uint16_t)sq->pi,
					  sq->buf + ((size_t)(sq->pi & mask)
						     << sq->wqe_shift));
		if (ret)
			break;
		sq->wrid[sq->pi & mask] = wr->wr_id;
		__atomic_store_n(&sq->pi, sq->pi + 1, __ATOMIC_RELEASE);
	}
	if (sq->pi != start)
		ring_db(ctx, sq->db_slot,
			froce_db_qp(ibqp->qp_num, FROCE_DB_TYPE_SQ, sq->pi));
	pthread_spin_unlock(&sq->lock);
	if (ret)
		*bad_wr = wr;
	return ret;
}

int froce_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr,
		    struct ibv_recv_wr **bad_wr)
{
	struct froce_context *ctx = to_fctx(ibqp->context);
	struct froce_qp *qp = to_fqp(ibqp);
	struct froce_wq *rq = &qp->rq;
	const uint32_t mask = (1u << rq->log_size) - 1;
	uint32_t start;
	int ret = 0;

	pthread_spin_lock(&rq->lock);
	start = rq->pi;
	for (; wr; wr = wr->next) {
		if (froce_wq_full(rq->pi, __atomic_load_n(&rq->ci,
							  __ATOMIC_ACQUIRE),
				  rq->log_size)) {
			ret = ENOMEM;
			break;
		}
		ret = -froce_build_rq_wqe(rq->wqe_shift, rq->max_sge, wr,
					  (uint16_t)rq->pi,
					  rq->buf + ((size_t)(rq->pi & mask)
						     << rq->wqe_shift));
		if (ret)
			break;
		rq->wrid[rq->pi & mask] = wr->wr_id;
		__atomic_store_n(&rq->pi, rq->pi + 1, __ATOMIC_RELEASE);
	}
	if (rq->pi != start)
		ring_db(ctx, rq->db_slot,
			froce_db_qp(ibqp->qp_num, FROCE_DB_TYPE_RQ, rq->pi));
	pthread_spin_unlock(&rq->lock);
	if (ret)
		*bad_wr = wr;
	return ret;
}

/* ---- AH ---- */

struct froce_create_ah_resp {
	struct ib_uverbs_create_ah_resp ibv_resp;
	struct froce_ib_create_ah_resp drv;
};
_Static_assert(offsetof(struct froce_create_ah_resp, drv) == 4, "udata");

struct ibv_ah *froce_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct froce_create_ah_resp resp;
	struct froce_ah *ah;
	unsigned int i;
	int ret;

	if (!attr->is_global) {
		errno = EINVAL;	/* RoCE: every AV has a GRH */
		return NULL;
	}
	ah = calloc(1, sizeof(*ah));
	if (!ah)
		return NULL;
	memset(&resp, 0, sizeof(resp));
	ret = ibv_cmd_create_ah(pd, &ah->ibv_ah, attr, &resp.ibv_resp,
				sizeof(resp));
	if (ret) {
		free(ah);
		errno = ret;
		return NULL;
	}
	ah->av.sgid_index = attr->grh.sgid_index;
	ah->av.hop_limit = attr->grh.hop_limit;
	ah->av.tclass = attr->grh.traffic_class;
	ah->av.flow_label = attr->grh.flow_label;
	memcpy(ah->av.dgid, attr->grh.dgid.raw, sizeof(ah->av.dgid));
	ah->av.net_type = resp.drv.net_type;
	ah->av.vlan_en = resp.drv.vlan_en;
	ah->av.vlan_id = resp.drv.vlan_id;
	ah->av.udp_sport = resp.drv.udp_sport;
	for (i = 0; i < 6; i++)
		ah->av.dmac = ah->av.dmac << 8 | resp.drv.dmac[i];
	return &ah->ibv_ah;
}

int froce_destroy_ah(struct ibv_ah *ibah)
{
	int ret = ibv_cmd_destroy_ah(ibah);

	if (ret)
		return ret;
	free(to_fah(ibah));
	return 0;
}
