// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * froce: the verb objects. PDs, user CQs and QPs (rings in the provider's
 * memory, pinned with ib_umem and handed to the firmware as BUF page lists),
 * MRs and AHs. Kernel CQs and QPs are not supported yet (-EOPNOTSUPP).
 *
 * Destroy paths never fail: if the firmware refuses or the device is dead,
 * they log the command and status and free the host side anyway.
 */

#include <linux/dma-mapping.h>
#include <linux/if_vlan.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <rdma/ib_cache.h>
#include <rdma/iter.h>
#include <rdma/uverbs_ioctl.h>

#include "froce_ib.h"
#include "uapi/froce-abi.h"

/* The firmware takes ib core's numbers as they are; check that they are. */
static void __maybe_unused froce_check_ib_values(void)
{
	BUILD_BUG_ON(FROCE_QP_ATTR_STATE != IB_QP_STATE);
	BUILD_BUG_ON(FROCE_QP_ATTR_CUR_STATE != IB_QP_CUR_STATE);
	BUILD_BUG_ON(FROCE_QP_ATTR_EN_SQD_ASYNC_NOTIFY !=
		     IB_QP_EN_SQD_ASYNC_NOTIFY);
	BUILD_BUG_ON(FROCE_QP_ATTR_ACCESS_FLAGS != IB_QP_ACCESS_FLAGS);
	BUILD_BUG_ON(FROCE_QP_ATTR_PKEY_INDEX != IB_QP_PKEY_INDEX);
	BUILD_BUG_ON(FROCE_QP_ATTR_PORT != IB_QP_PORT);
	BUILD_BUG_ON(FROCE_QP_ATTR_QKEY != IB_QP_QKEY);
	BUILD_BUG_ON(FROCE_QP_ATTR_AV != IB_QP_AV);
	BUILD_BUG_ON(FROCE_QP_ATTR_PATH_MTU != IB_QP_PATH_MTU);
	BUILD_BUG_ON(FROCE_QP_ATTR_TIMEOUT != IB_QP_TIMEOUT);
	BUILD_BUG_ON(FROCE_QP_ATTR_RETRY_CNT != IB_QP_RETRY_CNT);
	BUILD_BUG_ON(FROCE_QP_ATTR_RNR_RETRY != IB_QP_RNR_RETRY);
	BUILD_BUG_ON(FROCE_QP_ATTR_RQ_PSN != IB_QP_RQ_PSN);
	BUILD_BUG_ON(FROCE_QP_ATTR_MAX_QP_RD_ATOMIC != IB_QP_MAX_QP_RD_ATOMIC);
	BUILD_BUG_ON(FROCE_QP_ATTR_MIN_RNR_TIMER != IB_QP_MIN_RNR_TIMER);
	BUILD_BUG_ON(FROCE_QP_ATTR_SQ_PSN != IB_QP_SQ_PSN);
	BUILD_BUG_ON(FROCE_QP_ATTR_MAX_DEST_RD_ATOMIC !=
		     IB_QP_MAX_DEST_RD_ATOMIC);
	BUILD_BUG_ON(FROCE_QP_ATTR_DEST_QPN != IB_QP_DEST_QPN);
	BUILD_BUG_ON(FROCE_QP_STATE_RESET != IB_QPS_RESET);
	BUILD_BUG_ON(FROCE_QP_STATE_INIT != IB_QPS_INIT);
	BUILD_BUG_ON(FROCE_QP_STATE_RTR != IB_QPS_RTR);
	BUILD_BUG_ON(FROCE_QP_STATE_RTS != IB_QPS_RTS);
	BUILD_BUG_ON(FROCE_QP_STATE_SQD != IB_QPS_SQD);
	BUILD_BUG_ON(FROCE_QP_STATE_SQE != IB_QPS_SQE);
	BUILD_BUG_ON(FROCE_QP_STATE_ERR != IB_QPS_ERR);
	BUILD_BUG_ON(FROCE_MTU_256 != IB_MTU_256);
	BUILD_BUG_ON(FROCE_MTU_4096 != IB_MTU_4096);
	BUILD_BUG_ON(FROCE_ACCESS_LOCAL_WRITE != IB_ACCESS_LOCAL_WRITE);
	BUILD_BUG_ON(FROCE_ACCESS_REMOTE_WRITE != IB_ACCESS_REMOTE_WRITE);
	BUILD_BUG_ON(FROCE_ACCESS_REMOTE_READ != IB_ACCESS_REMOTE_READ);
	BUILD_BUG_ON(FROCE_ACCESS_REMOTE_ATOMIC != IB_ACCESS_REMOTE_ATOMIC);
	BUILD_BUG_ON(FROCE_PORT_STATE_DOWN != IB_PORT_DOWN);
	BUILD_BUG_ON(FROCE_PORT_STATE_ACTIVE != IB_PORT_ACTIVE);
	BUILD_BUG_ON(FROCE_GID_TYPE_ROCE_V1 != IB_GID_TYPE_ROCE);
	BUILD_BUG_ON(FROCE_GID_TYPE_ROCE_V2 != IB_GID_TYPE_ROCE_UDP_ENCAP);
	BUILD_BUG_ON(FROCE_BUF_LIST_ENTRIES * 8 != FROCE_RING_PAGE_SIZE);
}

#define FROCE_ACCESS_ALL \
	(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | \
	 IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC)

/* ---- BUF page lists ---- */

/* A BUF descriptor and the 4 KiB list pages behind it (LIST, LIST2). */
struct froce_pbl {
	struct froce_buf_desc desc;
	u32 nlist;
	__le64 **va;
	u64 *dma;	/* dma_addr_t of va[i], as froce_buf_fill() takes it */
};

static void froce_pbl_free(struct froce_dev *fdev, struct froce_pbl *pbl)
{
	u32 i;

	if (!pbl->nlist)
		return;
	/* after a timeout the firmware may still read the lists */
	if (READ_ONCE(fdev->cmdq.dead)) {
		dev_warn(froce_dev_dev(fdev),
			 "mailbox dead: leaking %u page list pages\n",
			 pbl->nlist);
	} else {
		for (i = 0; i < pbl->nlist; i++)
			if (pbl->va[i])
				dma_free_coherent(froce_dev_dev(fdev),
						  FROCE_RING_PAGE_SIZE,
						  pbl->va[i], pbl->dma[i]);
	}
	kfree(pbl->va);
	kfree(pbl->dma);
	pbl->va = NULL;
	pbl->dma = NULL;
	pbl->nlist = 0;
}

/*
 * The BUF for @n pages of 2^@page_shift bytes at the DMA addresses @pages:
 * CONTIG if they are one run, else a LIST page or a LIST2 tree. The lists
 * are needed only until the command that takes the BUF is done.
 */
static int froce_pbl_build(struct froce_dev *fdev, const u64 *pages, u32 n,
			   u8 page_shift, struct froce_pbl *pbl)
{
	struct device *dev = froce_dev_dev(fdev);
	bool contig = true;
	dma_addr_t dma;
	u32 i, nlist;
	u8 level;
	int err;

	memset(pbl, 0, sizeof(*pbl));
	for (i = 1; i < n && contig; i++)
		contig = pages[i] == pages[0] + ((u64)i << page_shift);
	err = froce_buf_plan(n, contig, &level, &nlist);
	if (err) {
		dev_err(dev, "%u pages of 2^%u bytes do not fit a BUF: %d\n",
			n, page_shift, err);
		return err;
	}
	pbl->desc.num_pages = n;
	pbl->desc.page_shift = page_shift;
	pbl->desc.level = level;
	if (level == FROCE_BUF_LEVEL_CONTIG) {
		pbl->desc.addr = pages[0];
		return 0;
	}

	pbl->va = kcalloc(nlist, sizeof(*pbl->va), GFP_KERNEL);
	pbl->dma = kcalloc(nlist, sizeof(*pbl->dma), GFP_KERNEL);
	if (!pbl->va || !pbl->dma) {
		kfree(pbl->va);
		kfree(pbl->dma);
		pbl->va = NULL;
		pbl->dma = NULL;
		return -ENOMEM;
	}
	pbl->nlist = nlist;
	for (i = 0; i < nlist; i++) {
		pbl->va[i] = dma_alloc_coherent(dev, FROCE_RING_PAGE_SIZE,
						&dma, GFP_KERNEL);
		if (!pbl->va[i]) {
			froce_pbl_free(fdev, pbl);
			return -ENOMEM;
		}
		pbl->dma[i] = dma;
	}
	pbl->desc.addr = pbl->dma[0];
	froce_buf_fill(level, pages, n, pbl->va, pbl->dma);
	return 0;
}

/* DMA addresses of the umem's blocks of @pgsz bytes (kvfree them). */
static u64 *froce_umem_pages(struct ib_umem *umem, unsigned long pgsz, u32 *n)
{
	struct ib_block_iter biter;
	size_t cnt = ib_umem_num_dma_blocks(umem, pgsz);
	u64 *pages;
	size_t i = 0;

	if (!cnt || cnt > (size_t)FROCE_BUF_LIST_ENTRIES *
			  FROCE_BUF_LIST_ENTRIES)
		return ERR_PTR(-EINVAL);
	pages = kvcalloc(cnt, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return ERR_PTR(-ENOMEM);
	rdma_umem_for_each_dma_block(umem, &biter, pgsz) {
		if (i >= cnt)
			break;
		pages[i++] = rdma_block_iter_dma_address(&biter);
	}
	*n = i;
	return pages;
}

/* ---- PD ---- */

int froce_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct froce_ibdev *fib = to_fibdev(ibpd->device);
	struct froce_ucontext *uctx =
		rdma_udata_to_drv_context(udata, struct froce_ucontext,
					  ibucontext);
	struct froce_pd *pd = to_fpd(ibpd);
	struct froce_ib_alloc_pd_resp resp = {};
	int err;

	/* kernel PDs use UAR page 0 */
	pd->uar = uctx ? uctx->uar : 0;
	err = froce_cmd_alloc_pd(fib->fdev, pd->uar, &pd->pdn);
	if (err) {
		dev_err_ratelimited(froce_ibdev_dev(fib),
				    "ALLOC_PD (UAR %u) failed: %d\n", pd->uar,
				    err);
		return err;
	}
	if (udata) {
		resp.pdn = pd->pdn;
		err = ib_copy_to_udata(udata, &resp,
				       min(sizeof(resp), udata->outlen));
		if (err) {
			froce_cmd_dealloc_pd(fib->fdev, pd->pdn);
			return err;
		}
	}
	return 0;
}

int froce_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct froce_ibdev *fib = to_fibdev(ibpd->device);
	struct froce_pd *pd = to_fpd(ibpd);
	int err;

	err = froce_cmd_dealloc_pd(fib->fdev, pd->pdn);
	if (err)
		dev_err(froce_ibdev_dev(fib), "DEALLOC_PD %#x failed: %d\n",
			pd->pdn, err);
	return 0;
}

/* ---- CQ ---- */

/* a user ring: page aligned, whole pages, at least @need bytes */
static int froce_check_ring(struct froce_ibdev *fib, const char *what,
			    u64 va, u64 len, u64 need)
{
	if ((va | len) & (FROCE_RING_PAGE_SIZE - 1) || len < need) {
		dev_dbg(froce_ibdev_dev(fib),
			"%s ring at %#llx, %#llx bytes: need page aligned, %#llx bytes\n",
			what, va, len, need);
		return -EINVAL;
	}
	return 0;
}

int froce_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		    struct ib_udata *udata)
{
	struct froce_ibdev *fib = to_fibdev(ibcq->device);
	struct froce_dev *fdev = fib->fdev;
	struct device *dev = froce_dev_dev(fdev);
	struct froce_ucontext *uctx =
		rdma_udata_to_drv_context(udata, struct froce_ucontext,
					  ibucontext);
	struct froce_cq *cq = to_fcq(ibcq);
	struct froce_ib_create_cq_resp resp = {};
	struct froce_ib_create_cq ucmd = {};
	struct froce_pbl pbl;
	u64 ring_bytes, *pages;
	u32 npages;
	int err;

	if (!udata)
		return -EOPNOTSUPP;	/* kernel CQs: not yet */
	if (attr->flags)
		return -EOPNOTSUPP;
	if (udata->inlen < sizeof(ucmd))
		return -EINVAL;
	err = ib_copy_from_udata(&ucmd, udata, sizeof(ucmd));
	if (err)
		return err;
	if (ucmd.comp_mask)
		return -EOPNOTSUPP;
	if (ucmd.log_size < 1 || ucmd.log_size > 24 ||
	    (1U << ucmd.log_size) < attr->cqe ||
	    (1U << ucmd.log_size) > fdev->caps.max_cqe) {
		dev_dbg(dev, "CQ: log size %u for %u CQEs, MAX_CQE %u\n",
			ucmd.log_size, attr->cqe, fdev->caps.max_cqe);
		return -EINVAL;
	}
	ring_bytes = round_up((u64)FROCE_CQE_SIZE << ucmd.log_size,
			      FROCE_RING_PAGE_SIZE);
	err = froce_check_ring(fib, "CQ", ucmd.buf_va, ucmd.buf_len,
			       ring_bytes);
	if (err)
		return err;

	cq->umem = ib_umem_get(ibcq->device, ucmd.buf_va, ring_bytes,
			       IB_ACCESS_LOCAL_WRITE);
	if (IS_ERR(cq->umem)) {
		err = PTR_ERR(cq->umem);
		dev_dbg(dev, "CQ ring: ib_umem_get: %d\n", err);
		return err;
	}
	pages = froce_umem_pages(cq->umem, FROCE_RING_PAGE_SIZE, &npages);
	if (IS_ERR(pages)) {
		err = PTR_ERR(pages);
		goto err_umem;
	}
	err = froce_pbl_build(fdev, pages, npages, FROCE_RING_PAGE_SHIFT,
			      &pbl);
	kvfree(pages);
	if (err)
		goto err_umem;

	err = froce_uctx_alloc_slot(uctx, &cq->db_slot);
	if (err) {
		dev_err_ratelimited(dev, "CQ: no doorbell slot left in UAR page %u\n",
				    uctx->uar);
		goto err_pbl;
	}
	cq->ceq = &fib->ceqs[attr->comp_vector % fib->num_ceqs];
	cq->eqn = cq->ceq->eqn;
	err = froce_cmd_create_cq(fdev, &pbl.desc, ucmd.log_size, cq->eqn,
				  uctx->uar, &cq->cqn);
	if (err) {
		dev_err_ratelimited(dev, "CREATE_CQ (2^%u CQEs, EQ %u, UAR %u) failed: %d\n",
				    ucmd.log_size, cq->eqn, uctx->uar, err);
		goto err_slot;
	}
	froce_pbl_free(fdev, &pbl);

	err = xa_insert(&fib->cqs, cq->cqn, cq, GFP_KERNEL);
	if (err) {
		dev_err(dev, "CQ %#x: already in the table: %d\n", cq->cqn,
			err);
		goto err_destroy;
	}
	ibcq->cqe = 1U << ucmd.log_size;
	cq->uctx = uctx;

	resp.cqn = cq->cqn;
	resp.db_slot = cq->db_slot;
	err = ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
	if (err)
		goto err_erase;
	return 0;

err_erase:
	xa_erase(&fib->cqs, cq->cqn);
err_destroy:
	if (froce_cmd_destroy_cq(fdev, cq->cqn))
		dev_err(dev, "DESTROY_CQ %#x failed while undoing create\n",
			cq->cqn);
	synchronize_irq(cq->ceq->eq.irq);
	froce_uctx_free_slot(fib, uctx, cq->db_slot);
	ib_umem_release(cq->umem);
	return err;
err_slot:
	froce_uctx_free_slot(fib, uctx, cq->db_slot);
err_pbl:
	froce_pbl_free(fdev, &pbl);
err_umem:
	ib_umem_release(cq->umem);
	return err;
}

int froce_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct froce_ibdev *fib = to_fibdev(ibcq->device);
	struct froce_dev *fdev = fib->fdev;
	struct froce_cq *cq = to_fcq(ibcq);
	int err;

	err = froce_cmd_destroy_cq(fdev, cq->cqn);
	if (err)
		dev_err(froce_dev_dev(fdev), "DESTROY_CQ %#x failed: %d\n",
			cq->cqn, err);
	xa_erase(&fib->cqs, cq->cqn);
	/* no completion or CQ error handler still holds the CQ */
	synchronize_irq(cq->ceq->eq.irq);
	synchronize_irq(fdev->eq0.irq);
	froce_uctx_free_slot(fib, cq->uctx, cq->db_slot);
	ib_umem_release(cq->umem);
	return 0;
}

/* ---- QP ---- */

static int froce_qp_type(struct froce_dev *fdev, enum ib_qp_type t, u8 *type)
{
	switch (t) {
	case IB_QPT_RC:
		*type = FROCE_QP_TYPE_RC;
		return 0;
	case IB_QPT_UD:
		if (!(fdev->hw_caps & FROCE_REG_CAPS_UD_MASK))
			return -EOPNOTSUPP;
		*type = FROCE_QP_TYPE_UD;
		return 0;
	case IB_QPT_UC:
		if (!(fdev->hw_caps & FROCE_REG_CAPS_UC_MASK))
			return -EOPNOTSUPP;
		*type = FROCE_QP_TYPE_UC;
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

static int froce_check_wq(struct froce_ibdev *fib, const char *what,
			  u32 log_size, u32 shift, u32 want)
{
	u32 max = fib->fdev->caps.max_qp_wr;

	if (shift < FROCE_WQE_SHIFT_MIN || shift > FROCE_WQE_SHIFT_MAX ||
	    log_size > 16 || (1U << log_size) < want ||
	    (1U << log_size) > max) {
		dev_dbg(froce_ibdev_dev(fib),
			"%s: 2^%u WQEs of 2^%u bytes for %u WRs, MAX_QP_WR %u\n",
			what, log_size, shift, want, max);
		return -EINVAL;
	}
	return 0;
}

int froce_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *attr,
		    struct ib_udata *udata)
{
	struct froce_ibdev *fib = to_fibdev(ibqp->device);
	struct froce_dev *fdev = fib->fdev;
	struct device *dev = froce_dev_dev(fdev);
	struct froce_ucontext *uctx =
		rdma_udata_to_drv_context(udata, struct froce_ucontext,
					  ibucontext);
	struct froce_qp *qp = to_fqp(ibqp);
	struct froce_pd *pd = to_fpd(ibqp->pd);
	struct froce_create_qp_params p = {};
	struct froce_ib_create_qp_resp resp = {};
	struct froce_ib_create_qp ucmd = {};
	struct froce_pbl sq_pbl, rq_pbl;
	u64 sq_bytes, rq_bytes, *pages;
	u32 npages, sq_pages, rq_first, rq_pages;
	int err;

	if (!udata)
		return -EOPNOTSUPP;	/* kernel QPs (GSI): not yet */
	err = froce_qp_type(fdev, attr->qp_type, &p.type);
	if (err) {
		dev_dbg(dev, "QP type %d not supported\n", attr->qp_type);
		return err;
	}
	if (attr->srq || attr->create_flags || attr->rwq_ind_tbl ||
	    !attr->send_cq || !attr->recv_cq)
		return -EOPNOTSUPP;
	if (attr->cap.max_send_sge > fdev->caps.max_send_sge ||
	    attr->cap.max_recv_sge > fdev->caps.max_recv_sge ||
	    attr->cap.max_inline_data > fdev->caps.max_inline)
		return -EINVAL;
	if (udata->inlen < sizeof(ucmd))
		return -EINVAL;
	err = ib_copy_from_udata(&ucmd, udata, sizeof(ucmd));
	if (err)
		return err;
	if (ucmd.comp_mask || ucmd.reserved || ucmd.reserved2)
		return -EOPNOTSUPP;
	if (pd->uar != uctx->uar) {
		dev_dbg(dev, "QP: PD %#x is not of this context\n", pd->pdn);
		return -EINVAL;
	}
	err = froce_check_wq(fib, "SQ", ucmd.sq_log_size, ucmd.sq_wqe_shift,
			     attr->cap.max_send_wr);
	if (!err)
		err = froce_check_wq(fib, "RQ", ucmd.rq_log_size,
				     ucmd.rq_wqe_shift, attr->cap.max_recv_wr);
	if (err)
		return err;
	sq_bytes = round_up(1ULL << (ucmd.sq_log_size + ucmd.sq_wqe_shift),
			    FROCE_RING_PAGE_SIZE);
	rq_bytes = round_up(1ULL << (ucmd.rq_log_size + ucmd.rq_wqe_shift),
			    FROCE_RING_PAGE_SIZE);
	if (ucmd.rq_offset < sq_bytes ||
	    ucmd.rq_offset & (FROCE_RING_PAGE_SIZE - 1)) {
		dev_dbg(dev, "QP: RQ at offset %#x, the SQ needs %#llx bytes\n",
			ucmd.rq_offset, sq_bytes);
		return -EINVAL;
	}
	err = froce_check_ring(fib, "QP", ucmd.buf_va, ucmd.buf_len,
			       ucmd.rq_offset + rq_bytes);
	if (err)
		return err;

	qp->umem = ib_umem_get(ibqp->device, ucmd.buf_va,
			       ucmd.rq_offset + rq_bytes, IB_ACCESS_LOCAL_WRITE);
	if (IS_ERR(qp->umem)) {
		err = PTR_ERR(qp->umem);
		dev_dbg(dev, "QP rings: ib_umem_get: %d\n", err);
		return err;
	}
	pages = froce_umem_pages(qp->umem, FROCE_RING_PAGE_SIZE, &npages);
	if (IS_ERR(pages)) {
		err = PTR_ERR(pages);
		goto err_umem;
	}
	sq_pages = sq_bytes >> FROCE_RING_PAGE_SHIFT;
	rq_first = ucmd.rq_offset >> FROCE_RING_PAGE_SHIFT;
	rq_pages = rq_bytes >> FROCE_RING_PAGE_SHIFT;
	if (npages < rq_first + rq_pages) {
		kvfree(pages);
		err = -EINVAL;
		goto err_umem;
	}
	err = froce_pbl_build(fdev, pages, sq_pages, FROCE_RING_PAGE_SHIFT,
			      &sq_pbl);
	if (!err) {
		err = froce_pbl_build(fdev, pages + rq_first, rq_pages,
				      FROCE_RING_PAGE_SHIFT, &rq_pbl);
		if (err)
			froce_pbl_free(fdev, &sq_pbl);
	}
	kvfree(pages);
	if (err)
		goto err_umem;

	err = froce_uctx_alloc_slot(uctx, &qp->sq_db_slot);
	if (err)
		goto err_pbl;
	err = froce_uctx_alloc_slot(uctx, &qp->rq_db_slot);
	if (err)
		goto err_sq_slot;

	p.sig_all = attr->sq_sig_type == IB_SIGNAL_ALL_WR;
	p.pdn = pd->pdn;
	p.send_cqn = to_fcq(attr->send_cq)->cqn;
	p.recv_cqn = to_fcq(attr->recv_cq)->cqn;
	p.uar = uctx->uar;
	p.log_sq_size = ucmd.sq_log_size;
	p.sq_wqe_shift = ucmd.sq_wqe_shift;
	p.log_rq_size = ucmd.rq_log_size;
	p.rq_wqe_shift = ucmd.rq_wqe_shift;
	p.sq = sq_pbl.desc;
	p.rq = rq_pbl.desc;
	err = froce_cmd_create_qp(fdev, &p, &qp->qpn);
	if (err) {
		dev_err_ratelimited(dev, "CREATE_QP (type %u, PD %#x, CQs %#x/%#x, UAR %u, SQ 2^%u x 2^%u, RQ 2^%u x 2^%u) failed: %d\n",
				    p.type, p.pdn, p.send_cqn, p.recv_cqn,
				    p.uar, p.log_sq_size, p.sq_wqe_shift,
				    p.log_rq_size, p.rq_wqe_shift, err);
		goto err_rq_slot;
	}
	froce_pbl_free(fdev, &rq_pbl);
	froce_pbl_free(fdev, &sq_pbl);

	err = xa_insert(&fib->qps, qp->qpn, qp, GFP_KERNEL);
	if (err) {
		dev_err(dev, "QP %#x: already in the table: %d\n", qp->qpn,
			err);
		goto err_destroy;
	}
	qp->uctx = uctx;
	qp->type = p.type;
	qp->sig_all = p.sig_all;
	ibqp->qp_num = qp->qpn;
	attr->cap.max_send_wr = 1U << ucmd.sq_log_size;
	attr->cap.max_recv_wr = 1U << ucmd.rq_log_size;
	qp->cap = attr->cap;

	resp.qpn = qp->qpn;
	resp.sq_db_slot = qp->sq_db_slot;
	resp.rq_db_slot = qp->rq_db_slot;
	err = ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
	if (err)
		goto err_erase;
	return 0;

err_erase:
	xa_erase(&fib->qps, qp->qpn);
err_destroy:
	if (froce_cmd_destroy_qp(fdev, qp->qpn))
		dev_err(dev, "DESTROY_QP %#x failed while undoing create\n",
			qp->qpn);
	synchronize_irq(fdev->eq0.irq);
	froce_uctx_free_slot(fib, uctx, qp->rq_db_slot);
	froce_uctx_free_slot(fib, uctx, qp->sq_db_slot);
	ib_umem_release(qp->umem);
	return err;
err_rq_slot:
	froce_uctx_free_slot(fib, uctx, qp->rq_db_slot);
err_sq_slot:
	froce_uctx_free_slot(fib, uctx, qp->sq_db_slot);
err_pbl:
	froce_pbl_free(fdev, &rq_pbl);
	froce_pbl_free(fdev, &sq_pbl);
err_umem:
	ib_umem_release(qp->umem);
	return err;
}

/* The address vector of a RoCE rdma_ah_attr (ib core resolved the DMAC). */
static int froce_av_from_ah(struct froce_ibdev *fib,
			    const struct rdma_ah_attr *ah,
			    struct froce_av *av)
{
	const struct ib_global_route *grh;
	const struct ib_gid_attr *sgid_attr;
	u16 vlan_id = 0xffff;
	int err;

	if (ah->type != RDMA_AH_ATTR_TYPE_ROCE ||
	    !(rdma_ah_get_ah_flags(ah) & IB_AH_GRH))
		return -EINVAL;
	grh = rdma_ah_read_grh(ah);
	sgid_attr = grh->sgid_attr;
	if (!sgid_attr)
		return -EINVAL;
	err = rdma_read_gid_l2_fields(sgid_attr, &vlan_id, NULL);
	if (err)
		return err;

	memset(av, 0, sizeof(*av));
	av->sgid_index = grh->sgid_index;
	av->hop_limit = grh->hop_limit;
	av->tclass = grh->traffic_class;
	av->flow_label = grh->flow_label;
	av->net_type = froce_gid_attr_net_type(sgid_attr);
	av->vlan_en = vlan_id < VLAN_N_VID;
	av->vlan_id = av->vlan_en ? vlan_id : 0;
	av->udp_sport = 0;	/* hardware picks */
	memcpy(av->dmac, ah->roce.dmac, ETH_ALEN);
	memcpy(av->dgid, grh->dgid.raw, sizeof(av->dgid));
	return 0;
}

int froce_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		    int attr_mask, struct ib_udata *udata)
{
	struct froce_ibdev *fib = to_fibdev(ibqp->device);
	struct froce_qp *qp = to_fqp(ibqp);
	struct froce_qp_attr a = {};
	int err;

	if (attr_mask & ~FROCE_QP_ATTR_ALL) {
		dev_dbg(froce_ibdev_dev(fib),
			"MODIFY_QP %#x: unsupported mask bits %#x\n", qp->qpn,
			attr_mask & ~FROCE_QP_ATTR_ALL);
		return -EOPNOTSUPP;
	}
	if ((attr_mask & IB_QP_ACCESS_FLAGS) &&
	    (attr->qp_access_flags & ~FROCE_ACCESS_ALL))
		return -EOPNOTSUPP;

	a.mask = attr_mask;
	a.state = attr->qp_state;
	a.cur_state = attr->cur_qp_state;
	a.path_mtu = attr->path_mtu;
	a.en_sqd_async_notify = attr->en_sqd_async_notify;
	a.access = attr->qp_access_flags & FROCE_ACCESS_ALL;
	a.port = attr->port_num;
	a.qkey = attr->qkey;
	a.rq_psn = attr->rq_psn;
	a.sq_psn = attr->sq_psn;
	a.dest_qpn = attr->dest_qp_num;
	a.timeout = attr->timeout;
	a.retry_cnt = attr->retry_cnt;
	a.rnr_retry = attr->rnr_retry;
	a.min_rnr_timer = attr->min_rnr_timer;
	a.max_rd_atomic = attr->max_rd_atomic;
	a.max_dest_rd_atomic = attr->max_dest_rd_atomic;
	a.pkey_index = attr->pkey_index;
	if (attr_mask & IB_QP_AV) {
		err = froce_av_from_ah(fib, &attr->ah_attr, &a.av);
		if (err) {
			dev_dbg(froce_ibdev_dev(fib),
				"MODIFY_QP %#x: address vector: %d\n", qp->qpn,
				err);
			return err;
		}
	}
	return froce_cmd_modify_qp(fib->fdev, qp->qpn, &a);
}

int froce_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		   int attr_mask, struct ib_qp_init_attr *init_attr)
{
	struct froce_ibdev *fib = to_fibdev(ibqp->device);
	struct froce_qp *qp = to_fqp(ibqp);
	struct froce_qp_attr a;
	union ib_gid dgid;
	int err;

	err = froce_cmd_query_qp(fib->fdev, qp->qpn, &a);
	if (err)
		return err;

	memset(attr, 0, sizeof(*attr));
	attr->qp_state = a.state;
	attr->cur_qp_state = a.state;
	attr->path_mtu = a.path_mtu;
	attr->path_mig_state = IB_MIG_MIGRATED;
	attr->qkey = a.qkey;
	attr->rq_psn = a.rq_psn;
	attr->sq_psn = a.sq_psn;
	attr->dest_qp_num = a.dest_qpn;
	attr->qp_access_flags = a.access;
	attr->pkey_index = a.pkey_index;
	attr->port_num = a.port ? a.port : 1;
	attr->en_sqd_async_notify = a.en_sqd_async_notify;
	attr->sq_draining = a.sq_draining;
	attr->max_rd_atomic = a.max_rd_atomic;
	attr->max_dest_rd_atomic = a.max_dest_rd_atomic;
	attr->min_rnr_timer = a.min_rnr_timer;
	attr->timeout = a.timeout;
	attr->retry_cnt = a.retry_cnt;
	attr->rnr_retry = a.rnr_retry;
	attr->cap = qp->cap;
	if (qp->type != FROCE_QP_TYPE_UD) {
		attr->ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
		memcpy(dgid.raw, a.av.dgid, sizeof(dgid.raw));
		rdma_ah_set_grh(&attr->ah_attr, &dgid, a.av.flow_label,
				a.av.sgid_index, a.av.hop_limit, a.av.tclass);
		rdma_ah_set_port_num(&attr->ah_attr, 1);
		memcpy(attr->ah_attr.roce.dmac, a.av.dmac, ETH_ALEN);
	}

	memset(init_attr, 0, sizeof(*init_attr));
	init_attr->qp_type = ibqp->qp_type;
	init_attr->send_cq = ibqp->send_cq;
	init_attr->recv_cq = ibqp->recv_cq;
	init_attr->cap = qp->cap;
	init_attr->sq_sig_type = qp->sig_all ? IB_SIGNAL_ALL_WR :
					       IB_SIGNAL_REQ_WR;
	return 0;
}

int froce_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct froce_ibdev *fib = to_fibdev(ibqp->device);
	struct froce_dev *fdev = fib->fdev;
	struct froce_qp *qp = to_fqp(ibqp);
	int err;

	err = froce_cmd_destroy_qp(fdev, qp->qpn);
	if (err)
		dev_err(froce_dev_dev(fdev), "DESTROY_QP %#x failed: %d\n",
			qp->qpn, err);
	xa_erase(&fib->qps, qp->qpn);
	/* no QP event handler still holds the QP */
	synchronize_irq(fdev->eq0.irq);
	froce_uctx_free_slot(fib, qp->uctx, qp->rq_db_slot);
	froce_uctx_free_slot(fib, qp->uctx, qp->sq_db_slot);
	ib_umem_release(qp->umem);
	return 0;
}

/* ---- MR ---- */

struct ib_mr *froce_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
				u64 virt_addr, int access,
				struct ib_udata *udata)
{
	struct froce_ibdev *fib = to_fibdev(ibpd->device);
	struct froce_dev *fdev = fib->fdev;
	struct device *dev = froce_dev_dev(fdev);
	struct froce_reg_mr_params p = {};
	unsigned long pgsz_bitmap, pgsz;
	struct froce_pbl pbl;
	struct froce_mr *mr;
	u32 npages, lkey, rkey;
	u64 *pages;
	int err;

	if (access & ~(FROCE_ACCESS_ALL | IB_ACCESS_OPTIONAL)) {
		dev_dbg(dev, "REG_MR: access %#x not supported\n", access);
		return ERR_PTR(-EOPNOTSUPP);
	}
	if (!length || (fdev->caps.max_mr_size &&
			length > fdev->caps.max_mr_size))
		return ERR_PTR(-EINVAL);

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->umem = ib_umem_get(ibpd->device, start, length, access);
	if (IS_ERR(mr->umem)) {
		err = PTR_ERR(mr->umem);
		dev_dbg(dev, "REG_MR: ib_umem_get: %d\n", err);
		goto err_free;
	}
	pgsz_bitmap = GENMASK(FROCE_MR_PAGE_SHIFT_MAX, FROCE_MR_PAGE_SHIFT_MIN);
	if (fdev->caps.page_size_cap)
		pgsz_bitmap &= fdev->caps.page_size_cap;
	pgsz = ib_umem_find_best_pgsz(mr->umem, pgsz_bitmap, virt_addr);
	if (!pgsz) {
		dev_err_ratelimited(dev, "REG_MR: no page size in %#lx fits IOVA %#llx\n",
				    pgsz_bitmap, virt_addr);
		err = -EINVAL;
		goto err_umem;
	}
	pages = froce_umem_pages(mr->umem, pgsz, &npages);
	if (IS_ERR(pages)) {
		err = PTR_ERR(pages);
		dev_err_ratelimited(dev, "REG_MR: %zu pages of %lu bytes: %d\n",
				    ib_umem_num_dma_blocks(mr->umem, pgsz),
				    pgsz, err);
		goto err_umem;
	}
	err = froce_pbl_build(fdev, pages, npages, order_base_2(pgsz), &pbl);
	kvfree(pages);
	if (err)
		goto err_umem;

	p.pdn = to_fpd(ibpd)->pdn;
	p.access = access & FROCE_ACCESS_ALL;
	p.iova = virt_addr;
	p.length = length;
	p.pbl = pbl.desc;
	err = froce_cmd_reg_mr(fdev, &p, &lkey, &rkey);
	froce_pbl_free(fdev, &pbl);
	if (err) {
		dev_err_ratelimited(dev, "REG_MR (PD %#x, IOVA %#llx, %#llx bytes, %u pages of 2^%u) failed: %d\n",
				    p.pdn, p.iova, p.length, npages,
				    order_base_2(pgsz), err);
		goto err_umem;
	}
	mr->ibmr.lkey = lkey;
	mr->ibmr.rkey = rkey;
	return &mr->ibmr;

err_umem:
	ib_umem_release(mr->umem);
err_free:
	kfree(mr);
	return ERR_PTR(err);
}

int froce_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct froce_ibdev *fib = to_fibdev(ibmr->device);
	struct froce_mr *mr = to_fmr(ibmr);
	int err;

	err = froce_cmd_dereg_mr(fib->fdev, ibmr->lkey);
	if (err)
		dev_err(froce_ibdev_dev(fib), "DEREG_MR %#x failed: %d\n",
			ibmr->lkey, err);
	ib_umem_release(mr->umem);
	kfree(mr);
	return 0;
}

/* ---- AH (UD): no firmware object, the provider builds the WQE's AV ---- */

int froce_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init_attr,
		    struct ib_udata *udata)
{
	struct froce_ibdev *fib = to_fibdev(ibah->device);
	struct froce_ah *ah = to_fah(ibah);
	struct froce_ib_create_ah_resp resp = {};
	int err;

	err = froce_av_from_ah(fib, init_attr->ah_attr, &ah->av);
	if (err)
		return err;
	if (udata) {
		memcpy(resp.dmac, ah->av.dmac, ETH_ALEN);
		resp.vlan_id = ah->av.vlan_id;
		resp.vlan_en = ah->av.vlan_en;
		resp.net_type = ah->av.net_type;
		resp.udp_sport = ah->av.udp_sport;
		err = ib_copy_to_udata(udata, &resp,
				       min(sizeof(resp), udata->outlen));
		if (err)
			return err;
	}
	return 0;
}

int froce_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	return 0;
}
