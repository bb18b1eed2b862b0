/* SPDX-License-Identifier: MIT */
/* PDs, EQs, CQs and MRs: allocation, reference counts, ring and page-list
 * MTT entries. */
#include "fw_string.h"

#include "fw_int.h"

#define OK FROCE_CMD_STATUS_OK
#define BAD_PARAM FROCE_CMD_STATUS_BAD_PARAM
#define BAD_RESOURCE FROCE_CMD_STATUS_BAD_RESOURCE
#define BUSY FROCE_CMD_STATUS_RESOURCE_BUSY
#define EXCEED FROCE_CMD_STATUS_EXCEED_LIM

uint8_t fw_pd_get(struct fw_cmd *c, uint32_t pdn, uint32_t off)
{
	if (pdn == FW_PDN_RINGS || pdn >= fw.num_pds || !(fw.pd[pdn].flags & FW_F_USED))
		return refuse(c, BAD_RESOURCE, off);
	return OK;
}

uint8_t fw_cq_get(struct fw_cmd *c, uint32_t cqn, uint32_t off)
{
	if (cqn >= fw.num_cqs || !(fw.cq[cqn].flags & FW_F_USED))
		return refuse(c, BAD_RESOURCE, off);
	return OK;
}

static uint8_t uar_index(struct fw_cmd *c, uint32_t uar, uint32_t off)
{
	return uar < fw.num_uars ? OK : refuse(c, FROCE_CMD_STATUS_BAD_INDEX, off);
}

/* ---- PDs ---- */

uint8_t fw_cmd_ALLOC_PD(struct fw_cmd *c)
{
	static const struct fw_rsv rsv[] = { RSV(FROCE_CMD_ALLOC_PD_IN_UAR) };
	const uint32_t uar = GET_DW(c->in, FROCE_CMD_ALLOC_PD_IN_UAR);
	uint8_t st = fw_check_reserved(c, rsv, NELEM(rsv), 0, FROCE_CMD_ALLOC_PD_IN_SIZE / 4);

	if (st)
		return st;
	st = uar_index(c, uar, OFF_DW(FROCE_CMD_ALLOC_PD_IN_UAR));
	if (st)
		return st;
	for (uint32_t pdn = FW_PDN_RINGS + 1; pdn < fw.num_pds; pdn++) {
		struct fw_pd *pd = &fw.pd[pdn];

		if (pd->flags & FW_F_USED)
			continue;
		pd->flags = FW_F_USED;
		pd->uar = (uint16_t)uar;
		pd->refs = 0;
		SET_DW(c->out, FROCE_CMD_ALLOC_PD_OUT_PDN, pdn);
		return OK;
	}
	return refuse(c, EXCEED, 0);
}

uint8_t fw_cmd_DEALLOC_PD(struct fw_cmd *c)
{
	static const struct fw_rsv rsv[] = { RSV(FROCE_CMD_DEALLOC_PD_IN_PDN) };
	const uint32_t pdn = GET_DW(c->in, FROCE_CMD_DEALLOC_PD_IN_PDN);
	uint8_t st = fw_check_reserved(c, rsv, NELEM(rsv), 0, FROCE_CMD_DEALLOC_PD_IN_SIZE / 4);

	if (st)
		return st;
	st = fw_pd_get(c, pdn, OFF_DW(FROCE_CMD_DEALLOC_PD_IN_PDN));
	if (st)
		return st;
	if (fw.pd[pdn].refs)
		return refuse(c, BUSY, OFF_DW(FROCE_CMD_DEALLOC_PD_IN_PDN));
	memset(&fw.pd[pdn], 0, sizeof fw.pd[pdn]);
	return OK;
}

/* ---- EQs ---- */

uint8_t fw_cmd_CREATE_EQ(struct fw_cmd *c)
{
	static const struct fw_rsv rsv[] = {
		RSV(FROCE_CMD_CREATE_EQ_IN_LOG_SIZE), RSV(FROCE_CMD_CREATE_EQ_IN_VECTOR),
	};
	const uint32_t log_size = GET_DW(c->in, FROCE_CMD_CREATE_EQ_IN_LOG_SIZE);
	const uint32_t vector = GET_DW(c->in, FROCE_CMD_CREATE_EQ_IN_VECTOR);
	struct fw_buf b;
	uint8_t st = fw_check_reserved(c, rsv, NELEM(rsv), FROCE_CMD_CREATE_EQ_IN_LOG_SIZE_DW,
				       FROCE_CMD_CREATE_EQ_IN_SIZE / 4 - FROCE_CMD_CREATE_EQ_IN_LOG_SIZE_DW);

	if (st)
		return st;
	if (log_size < FW_EQ_LOG_MIN || log_size > FW_EQ_LOG_MAX)
		return refuse(c, BAD_PARAM, OFF_DW(FROCE_CMD_CREATE_EQ_IN_LOG_SIZE));
	if (vector >= fw.num_vectors)
		return refuse(c, BAD_PARAM, OFF_DW(FROCE_CMD_CREATE_EQ_IN_VECTOR));
	fw_buf_parse(c, OFF_QW(FROCE_CMD_CREATE_EQ_IN_BUF_ADDR), &b);
	/* the event engine writes EQEs by physical address: one contiguous ring */
	if (b.level != FROCE_BUF_LEVEL_CONTIG)
		return refuse(c, BAD_PARAM, OFF_DW(FROCE_CMD_CREATE_EQ_IN_BUF_LEVEL));
	uint32_t pages;

	(void)fw_pages_fit((uint64_t)FROCE_EQE_SIZE << log_size, &pages);
	st = fw_buf_check(c, &b, pages, FW_RING_PAGE_SHIFT, FW_RING_PAGE_SHIFT);
	if (st)
		return st;
	for (uint32_t eqn = 1; eqn < fw.num_eqs; eqn++) {
		struct fw_eq *eq = &fw.eq[eqn];
		_Alignas(4) uint8_t img[FROCE_EQC_SIZE];

		if (eq->flags & FW_F_USED)
			continue;
		memset(img, 0, sizeof img);
		SET_DW(img, FROCE_EQC_LOG_SIZE, log_size);
		SET_DW(img, FROCE_EQC_VECTOR, vector);
		SET_DW(img, FROCE_EQC_VALID, 1);
		SET_QW(img, FROCE_EQC_ADDR, b.addr);
		fw_ctx_write(FROCE_CTL_EQC_BASE + eqn * (uint32_t)FROCE_EQC_SIZE, img, sizeof img);
		eq->flags = FW_F_USED;
		eq->log_size = (uint8_t)log_size;
		eq->vector = (uint8_t)vector;
		eq->refs = 0;
		SET_DW(c->out, FROCE_CMD_CREATE_EQ_OUT_EQN, eqn);
		return OK;
	}
	return refuse(c, EXCEED, 0);
}

uint8_t fw_cmd_DESTROY_EQ(struct fw_cmd *c)
{
	static const struct fw_rsv rsv[] = { RSV(FROCE_CMD_DESTROY_EQ_IN_EQN) };
	const uint32_t eqn = GET_DW(c->in, FROCE_CMD_DESTROY_EQ_IN_EQN);
	uint8_t st = fw_check_reserved(c, rsv, NELEM(rsv), 0, FROCE_CMD_DESTROY_EQ_IN_SIZE / 4);

	if (st)
		return st;
	/* EQ 0 belongs to the driver's BAR0 registers, not to CREATE_EQ */
	if (eqn == 0 || eqn >= fw.num_eqs || !(fw.eq[eqn].flags & FW_F_USED))
		return refuse(c, BAD_RESOURCE, OFF_DW(FROCE_CMD_DESTROY_EQ_IN_EQN));
	if (fw.eq[eqn].refs)
		return refuse(c, BUSY, OFF_DW(FROCE_CMD_DESTROY_EQ_IN_EQN));
	fw_ctx_clear(FROCE_CTL_EQC_BASE + eqn * (uint32_t)FROCE_EQC_SIZE, FROCE_EQC_SIZE);
	memset(&fw.eq[eqn], 0, sizeof fw.eq[eqn]);
	return OK;
}

/* ---- ring MRs ---- */

uint8_t fw_ring_prepare(struct fw_cmd *c, const struct fw_buf *bufs, unsigned nbufs, uint32_t *mr_index,
			uint32_t *mtt_base)
{
	uint32_t pages = 0;
	uint8_t st;

	for (unsigned i = 0; i < nbufs; i++)
		pages += bufs[i].num_pages;
	if (fw_mr_alloc_index(mr_index) || fw_mtt_alloc(pages, mtt_base))
		return refuse(c, EXCEED, 0);
	for (unsigned i = 0; i < nbufs; i++) {
		st = fw_buf_scan(c, &bufs[i]);
		if (st)
			return st;
	}
	return OK;
}

uint8_t fw_ring_commit(struct fw_cmd *c, const struct fw_buf *bufs, unsigned nbufs, uint32_t mr_index,
		       uint32_t mtt_base, uint32_t pdn, uint64_t length)
{
	uint32_t pages = 0;

	for (unsigned i = 0; i < nbufs; i++) {
		const uint8_t st = fw_buf_write_mtt(c, &bufs[i], mtt_base + pages);

		if (st)
			return st;
		pages += bufs[i].num_pages;
	}
	fw_mr_commit(mr_index, pdn, FROCE_ACCESS_LOCAL_WRITE, FW_RING_PAGE_SHIFT, 0, length, mtt_base, pages,
		     FW_F_RING);
	return OK;
}

/* ---- CQs ---- */

uint8_t fw_cmd_CREATE_CQ(struct fw_cmd *c)
{
	static const struct fw_rsv rsv[] = {
		RSV(FROCE_CMD_CREATE_CQ_IN_LOG_SIZE), RSV(FROCE_CMD_CREATE_CQ_IN_EQN), RSV(FROCE_CMD_CREATE_CQ_IN_UAR),
	};
	const uint8_t *in = c->in;
	const uint32_t log_size = GET_DW(in, FROCE_CMD_CREATE_CQ_IN_LOG_SIZE);
	const uint32_t eqn = GET_DW(in, FROCE_CMD_CREATE_CQ_IN_EQN);
	const uint32_t uar = GET_DW(in, FROCE_CMD_CREATE_CQ_IN_UAR);
	uint32_t pages = 0, cqn, mr_index, mtt_base;
	struct fw_buf b;
	uint8_t st = fw_check_reserved(c, rsv, NELEM(rsv), FROCE_CMD_CREATE_CQ_IN_LOG_SIZE_DW,
				       FROCE_CMD_CREATE_CQ_IN_SIZE / 4 - FROCE_CMD_CREATE_CQ_IN_LOG_SIZE_DW);

	if (st)
		return st;
	if (log_size > FW_CQ_LOG_MAX)
		return refuse(c, BAD_PARAM, OFF_DW(FROCE_CMD_CREATE_CQ_IN_LOG_SIZE));
	if (eqn >= fw.num_eqs || !(fw.eq[eqn].flags & FW_F_USED))
		return refuse(c, BAD_RESOURCE, OFF_DW(FROCE_CMD_CREATE_CQ_IN_EQN));
	st = uar_index(c, uar, OFF_DW(FROCE_CMD_CREATE_CQ_IN_UAR));
	if (st)
		return st;
	fw_buf_parse(c, OFF_QW(FROCE_CMD_CREATE_CQ_IN_BUF_ADDR), &b);
	(void)fw_pages_fit((uint64_t)FROCE_CQE_SIZE << log_size, &pages);
	st = fw_buf_check(c, &b, pages, FW_RING_PAGE_SHIFT, FW_RING_PAGE_SHIFT);
	if (st)
		return st;
	for (cqn = 0; cqn < fw.num_cqs; cqn++)
		if (!(fw.cq[cqn].flags & FW_F_USED))
			break;
	if (cqn == fw.num_cqs)
		return refuse(c, EXCEED, 0);
	st = fw_ring_prepare(c, &b, 1, &mr_index, &mtt_base);
	if (st)
		return st;
	/* committing: nothing below refuses (but a page list the host
	 * changed since the scan, see fw_buf_write_mtt) */
	const uint64_t bytes = (uint64_t)FROCE_CQE_SIZE << log_size;

	st = fw_ring_commit(c, &b, 1, mr_index, mtt_base, FW_PDN_RINGS, bytes);
	if (st)
		return st;

	struct fw_cq *cq = &fw.cq[cqn];
	_Alignas(4) uint8_t img[FROCE_CQC_SIZE];

	cq->flags = FW_F_USED;
	cq->ring_mr = mr_index;
	cq->uar = (uint16_t)uar;
	cq->eqn = (uint8_t)eqn;
	cq->log_size = (uint8_t)log_size;
	cq->refs = 0;
	fw.eq[eqn].refs++;
	memset(img, 0, sizeof img);
	SET_DW(img, FROCE_CQC_LOG_SIZE, log_size);
	SET_DW(img, FROCE_CQC_VALID, 1);
	SET_DW(img, FROCE_CQC_RING_KEY, fw_mr_key(mr_index));
	SET_DW(img, FROCE_CQC_PDN, FW_PDN_RINGS);
	SET_DW(img, FROCE_CQC_UAR, uar);
	SET_DW(img, FROCE_CQC_EQN, eqn);
	SET_QW(img, FROCE_CQC_VA, 0);
	fw_ctx_write(FROCE_CTL_CQC_BASE + cqn * (uint32_t)FROCE_CQC_SIZE, img, sizeof img);
	SET_DW(c->out, FROCE_CMD_CREATE_CQ_OUT_CQN, cqn);
	return OK;
}

uint8_t fw_cmd_DESTROY_CQ(struct fw_cmd *c)
{
	static const struct fw_rsv rsv[] = { RSV(FROCE_CMD_DESTROY_CQ_IN_CQN) };
	const uint32_t cqn = GET_DW(c->in, FROCE_CMD_DESTROY_CQ_IN_CQN);
	uint8_t st = fw_check_reserved(c, rsv, NELEM(rsv), 0, FROCE_CMD_DESTROY_CQ_IN_SIZE / 4);

	if (st)
		return st;
	st = fw_cq_get(c, cqn, OFF_DW(FROCE_CMD_DESTROY_CQ_IN_CQN));
	if (st)
		return st;
	struct fw_cq *cq = &fw.cq[cqn];

	if (cq->refs)
		return refuse(c, BUSY, OFF_DW(FROCE_CMD_DESTROY_CQ_IN_CQN));
	/* the CQ stops taking CQEs first, then its ring's translation goes */
	fw_ctx_clear(FROCE_CTL_CQC_BASE + cqn * (uint32_t)FROCE_CQC_SIZE, FROCE_CQC_SIZE);
	if (fw_mr_invalidate(cq->ring_mr))
		return refuse(c, FROCE_CMD_STATUS_INTERNAL_ERR, 0);	/* retry: the rest stays */
	fw_mr_release(cq->ring_mr);
	fw.eq[cq->eqn].refs--;
	memset(cq, 0, sizeof *cq);
	return OK;
}

/* ---- MRs ---- */

#define ACCESS_DEFINED (FROCE_ACCESS_LOCAL_WRITE | FROCE_ACCESS_REMOTE_WRITE | FROCE_ACCESS_REMOTE_READ | \
			FROCE_ACCESS_REMOTE_ATOMIC)

uint8_t fw_cmd_REG_MR(struct fw_cmd *c)
{
	static const struct fw_rsv rsv[] = {
		RSV(FROCE_CMD_REG_MR_IN_PDN), RSV(FROCE_CMD_REG_MR_IN_ACCESS), RSV_QW(FROCE_CMD_REG_MR_IN_IOVA),
		RSV_QW(FROCE_CMD_REG_MR_IN_LENGTH),
	};
	const uint8_t *in = c->in;
	const uint32_t pdn = GET_DW(in, FROCE_CMD_REG_MR_IN_PDN);
	const uint32_t access = GET_DW(in, FROCE_CMD_REG_MR_IN_ACCESS);
	const uint64_t iova = GET_QW(in, FROCE_CMD_REG_MR_IN_IOVA);
	const uint64_t length = GET_QW(in, FROCE_CMD_REG_MR_IN_LENGTH);
	const uint64_t max_len = (uint64_t)fw.num_mtt << FROCE_MR_PAGE_SHIFT_MAX;
	uint32_t want_pages = 0, mr_index, mtt_base;
	struct fw_buf b;
	uint8_t st = fw_check_reserved(c, rsv, NELEM(rsv), 0, FROCE_CMD_REG_MR_IN_PBL_ADDR_QW * 2);

	if (st)
		return st;
	st = fw_pd_get(c, pdn, OFF_DW(FROCE_CMD_REG_MR_IN_PDN));
	if (st)
		return st;
	if (access & ~ACCESS_DEFINED)
		return refuse(c, BAD_PARAM, OFF_DW(FROCE_CMD_REG_MR_IN_ACCESS));
	/* IB: remote write and atomic rights need local write */
	if ((access & (FROCE_ACCESS_REMOTE_WRITE | FROCE_ACCESS_REMOTE_ATOMIC)) &&
	    !(access & FROCE_ACCESS_LOCAL_WRITE))
		return refuse(c, BAD_PARAM, OFF_DW(FROCE_CMD_REG_MR_IN_ACCESS));
	/* not empty, not larger than the MTT can map, not wrapping past 2^64
	 * (ending exactly at 2^64 is fine) */
	if (length == 0 || length > max_len || iova + (length - 1) < iova)
		return refuse(c, BAD_PARAM, OFF_QW(FROCE_CMD_REG_MR_IN_LENGTH));
	fw_buf_parse(c, OFF_QW(FROCE_CMD_REG_MR_IN_PBL_ADDR), &b);
	if (b.page_shift >= FROCE_MR_PAGE_SHIFT_MIN && b.page_shift <= FROCE_MR_PAGE_SHIFT_MAX) {
		const uint64_t n = ((iova + (length - 1)) >> b.page_shift) - (iova >> b.page_shift) + 1;

		/* a count that does not match is refused by fw_buf_check; one
		 * that matches but exceeds the MTT by fw_mtt_alloc */
		want_pages = n == b.num_pages ? b.num_pages : b.num_pages + 1;
	}
	st = fw_buf_check(c, &b, want_pages, FROCE_MR_PAGE_SHIFT_MIN, FROCE_MR_PAGE_SHIFT_MAX);
	if (st)
		return st;
	if (fw_mr_alloc_index(&mr_index) || fw_mtt_alloc(want_pages, &mtt_base))
		return refuse(c, EXCEED, 0);
	st = fw_buf_scan(c, &b);
	if (st)
		return st;
	st = fw_buf_write_mtt(c, &b, mtt_base);
	if (st)
		return st;
	fw.pd[pdn].refs++;
	fw_mr_commit(mr_index, pdn, (uint8_t)access, b.page_shift, iova, length, mtt_base, want_pages, 0);
	SET_DW(c->out, FROCE_CMD_REG_MR_OUT_LKEY, fw_mr_key(mr_index));
	SET_DW(c->out, FROCE_CMD_REG_MR_OUT_RKEY, fw_mr_key(mr_index));
	return OK;
}

uint8_t fw_cmd_DEREG_MR(struct fw_cmd *c)
{
	const uint32_t key = GET_DW(c->in, FROCE_CMD_DEREG_MR_IN_LKEY);
	const uint32_t index = key >> FROCE_KEY_TAG_W;
	static const struct fw_rsv rsv[] = { RSV(FROCE_CMD_DEREG_MR_IN_LKEY) };
	uint8_t st = fw_check_reserved(c, rsv, NELEM(rsv), 0, FROCE_CMD_DEREG_MR_IN_SIZE / 4);

	if (st)
		return st;
	/* the key must name a live registration of the driver's (ring MRs go
	 * with their CQ or QP), with the current tag */
	if (index == FW_MR_RESERVED || index >= fw.num_mrs || !(fw.mr[index].flags & FW_F_USED) ||
	    (fw.mr[index].flags & FW_F_RING) || fw_mr_key(index) != key)
		return refuse(c, BAD_RESOURCE, OFF_DW(FROCE_CMD_DEREG_MR_IN_LKEY));
	if (fw_mr_invalidate(index))
		return refuse(c, FROCE_CMD_STATUS_INTERNAL_ERR, 0);	/* retry: the rest stays */
	fw.pd[fw.mr[index].pd].refs--;
	fw_mr_release(index);
	return OK;
}
