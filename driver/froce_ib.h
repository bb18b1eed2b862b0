/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * froce: the ib_device and its verb objects.
 */

#ifndef FROCE_IB_H
#define FROCE_IB_H

#include <linux/idr.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>

#include "froce.h"
#include "froce_mbox.h"

/* ring BUFs (CQ, SQ, RQ, EQ) are lists of 4 KiB pages */
#define FROCE_RING_PAGE_SHIFT	12
#define FROCE_RING_PAGE_SIZE	BIT(FROCE_RING_PAGE_SHIFT)
/* completion EQs: 2^8 EQEs of 16 bytes, one page */
#define FROCE_CEQ_LOG_SIZE	8

struct froce_ceq {
	struct froce_ibdev *ibdev;
	struct froce_eq eq;
	u32 eqn;
	u32 vector;
	bool created;		/* CREATE_EQ succeeded */
	char name[32];
};

struct froce_ibdev {
	struct ib_device ibdev;
	struct froce_dev *fdev;

	struct ida uar_ida;	/* user UAR pages 1..num_uar-1 */
	u32 num_uar;
	struct xarray cqs;	/* CQN -> froce_cq, for EQE dispatch */
	struct xarray qps;	/* QPN -> froce_qp, for QP events */

	struct froce_ceq *ceqs;
	u32 num_ceqs;

	u8 mac[ETH_ALEN];
};

struct froce_ucontext {
	struct ib_ucontext ibucontext;
	u32 uar;		/* UAR page index */
	struct ida slot_ida;	/* doorbell slots in the page */
	struct rdma_user_mmap_entry *uar_entry;
	struct page *shadow;	/* CAPS.UAR_SHADOW: the page standing in */
	dma_addr_t shadow_dma;
};

enum froce_mmap_type {
	FROCE_MMAP_IO,		/* a BAR2 UAR page */
	FROCE_MMAP_PAGE,	/* a kernel page (shadow UAR) */
};

struct froce_user_mmap_entry {
	struct rdma_user_mmap_entry rdma_entry;
	enum froce_mmap_type type;
	u64 pfn;		/* IO */
	struct page *page;	/* PAGE; freed in mmap_free */
};

struct froce_pd {
	struct ib_pd ibpd;
	u32 pdn;
	u32 uar;
};

struct froce_cq {
	struct ib_cq ibcq;
	struct froce_ucontext *uctx;	/* owner of the doorbell slot */
	u32 cqn;
	u32 db_slot;
	u32 eqn;
	struct froce_ceq *ceq;
	struct ib_umem *umem;
};

struct froce_qp {
	struct ib_qp ibqp;
	struct froce_ucontext *uctx;	/* owner of the doorbell slots */
	u32 qpn;
	u8 type;		/* FROCE_QP_TYPE_* */
	u32 sq_db_slot;
	u32 rq_db_slot;
	struct ib_umem *umem;
	struct ib_qp_cap cap;
	bool sig_all;
};

struct froce_mr {
	struct ib_mr ibmr;
	struct ib_umem *umem;
};

struct froce_ah {
	struct ib_ah ibah;
	struct froce_av av;
};

static inline struct froce_ibdev *to_fibdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct froce_ibdev, ibdev);
}

static inline struct froce_ucontext *to_fuctx(struct ib_ucontext *uctx)
{
	return container_of(uctx, struct froce_ucontext, ibucontext);
}

static inline struct froce_pd *to_fpd(struct ib_pd *pd)
{
	return container_of(pd, struct froce_pd, ibpd);
}

static inline struct froce_cq *to_fcq(struct ib_cq *cq)
{
	return container_of(cq, struct froce_cq, ibcq);
}

static inline struct froce_qp *to_fqp(struct ib_qp *qp)
{
	return container_of(qp, struct froce_qp, ibqp);
}

static inline struct froce_mr *to_fmr(struct ib_mr *mr)
{
	return container_of(mr, struct froce_mr, ibmr);
}

static inline struct froce_ah *to_fah(struct ib_ah *ah)
{
	return container_of(ah, struct froce_ah, ibah);
}

static inline struct device *froce_ibdev_dev(struct froce_ibdev *fib)
{
	return froce_dev_dev(fib->fdev);
}

/* froce_verbs.c */
int froce_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata);
int froce_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata);
int froce_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		    struct ib_udata *udata);
int froce_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int froce_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *attr,
		    struct ib_udata *udata);
int froce_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		    int attr_mask, struct ib_udata *udata);
int froce_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		   int attr_mask, struct ib_qp_init_attr *init_attr);
int froce_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);
struct ib_mr *froce_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
				u64 virt_addr, int access,
				struct ib_udata *udata);
int froce_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);
int froce_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init_attr,
		    struct ib_udata *udata);
int froce_destroy_ah(struct ib_ah *ibah, u32 flags);

/* froce_ib.c: doorbell slots of a user context */
int froce_uctx_alloc_slot(struct froce_ucontext *uctx, u32 *slot);
void froce_uctx_free_slot(struct froce_ibdev *fib, struct froce_ucontext *uctx,
			  u32 slot);
u8 froce_gid_attr_net_type(const struct ib_gid_attr *attr);

#endif /* FROCE_IB_H */
