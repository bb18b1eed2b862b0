/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* froce provider: objects */
#ifndef FROCE_PROVIDER_H
#define FROCE_PROVIDER_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "verbs_compat.h"
#include "froce_ring.h"

#define froce_container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

/* queue depth limit: WQE_INDEX is 16 bits, keep its comparisons unambiguous */
#define FROCE_MAX_LOG_WQ	15
/* QPNs are below 2^16 (FROCE_QPN_W on the wire, 16 bits handed out) */
#define FROCE_QP_TABLE_L1	256
#define FROCE_QP_TABLE_L2	256

struct froce_device {
	struct verbs_device vdev;
	uint32_t driver_id;	/* the kernel's, for every command header */
};

struct froce_qp;

struct froce_context {
	struct verbs_context vctx;
	void *uar;		/* the context's doorbell page */
	uint32_t caps;		/* FROCE_UCTX_CAP_* */
	uint32_t db_slots;
	uint32_t max_sq_wr, max_cqe, max_send_sge, max_recv_sge, max_inline;
	pthread_mutex_t qp_lock;
	struct froce_qp **qp_table[FROCE_QP_TABLE_L1];
};

struct froce_pd {
	struct ibv_pd ibv_pd;
	uint32_t pdn;
};

struct froce_cq {
	struct verbs_cq vcq;
	pthread_spinlock_t lock;
	uint8_t *buf;
	size_t buf_len;
	unsigned int log_size;
	uint32_t cqn;
	uint32_t ci;		/* CQEs consumed, free-running */
	uint32_t db_slot;
	unsigned int arm_sn;
};

struct froce_wq {
	uint8_t *buf;
	unsigned int log_size;
	unsigned int wqe_shift;
	uint32_t pi;		/* WQEs posted, free-running */
	uint32_t ci;		/* WQEs completed, free-running */
	uint32_t max_sge;
	uint32_t db_slot;
	uint64_t *wrid;		/* wr_id by slot */
	pthread_spinlock_t lock;
};

struct froce_qp {
	struct verbs_qp vqp;
	uint8_t *buf;
	size_t buf_len;
	uint8_t type;		/* FROCE_QP_TYPE_* */
	uint8_t sig_all;
	uint32_t max_inline;
	struct froce_wq sq, rq;
};

struct froce_ah {
	struct ibv_ah ibv_ah;
	struct froce_av av;
};

static inline struct froce_context *to_fctx(struct ibv_context *c)
{
	return froce_container_of(c, struct froce_context, vctx.context);
}

static inline struct froce_cq *to_fcq(struct ibv_cq *c)
{
	return froce_container_of(c, struct froce_cq, vcq.cq);
}

static inline struct froce_qp *to_fqp(struct ibv_qp *q)
{
	return froce_container_of(q, struct froce_qp, vqp.qp);
}

static inline struct froce_ah *to_fah(struct ibv_ah *a)
{
	return froce_container_of(a, struct froce_ah, ibv_ah);
}

#endif /* FROCE_PROVIDER_H */
