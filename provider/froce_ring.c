// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* froce provider: WQE/CQE/doorbell formats (see froce_ring.h) */
#include "froce_ring.h"

#include <endian.h>
#include <errno.h>
#include <string.h>

static uint32_t ld32(const uint8_t *p, unsigned int dw)
{
	uint32_t v;

	memcpy(&v, p + 4 * dw, 4);
	return le32toh(v);
}

static void set32(uint8_t *p, unsigned int dw, uint32_t mask,
		  unsigned int shift, uint32_t val)
{
	uint32_t v = ld32(p, dw);

	v = (v & ~mask) | ((val << shift) & mask);
	v = htole32(v);
	memcpy(p + 4 * dw, &v, 4);
}

static uint64_t ld64(const uint8_t *p, unsigned int qw)
{
	uint64_t v;

	memcpy(&v, p + 8 * qw, 8);
	return le64toh(v);
}

static void set64(uint8_t *p, unsigned int qw, uint64_t mask,
		  unsigned int shift, uint64_t val)
{
	uint64_t v = ld64(p, qw);

	v = (v & ~mask) | ((val << shift) & mask);
	v = htole64(v);
	memcpy(p + 8 * qw, &v, 8);
}

#define SET_DW(p, F, v) set32((p), F##_DW, F##_MASK, F##_SHIFT, (uint32_t)(v))
#define SET_QW(p, F, v) set64((p), F##_QW, F##_MASK, F##_SHIFT, (uint64_t)(v))
#define GET_DW(p, F) ((ld32((p), F##_DW) & F##_MASK) >> F##_SHIFT)
#define GET_QW(p, F) ((ld64((p), F##_QW) & F##_MASK) >> F##_SHIFT)

unsigned int froce_log2_ceil(uint64_t v)
{
	unsigned int l = 0;

	while (l < 63 && ((uint64_t)1 << l) < v)
		l++;
	return l;
}

int froce_wqe_opcode(enum ibv_wr_opcode op)
{
	switch (op) {
	case IBV_WR_SEND:
		return FROCE_WQE_OP_SEND;
	case IBV_WR_SEND_WITH_IMM:
		return FROCE_WQE_OP_SEND_WITH_IMM;
	case IBV_WR_SEND_WITH_INV:
		return FROCE_WQE_OP_SEND_WITH_INV;
	case IBV_WR_RDMA_WRITE:
		return FROCE_WQE_OP_RDMA_WRITE;
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		return FROCE_WQE_OP_RDMA_WRITE_WITH_IMM;
	case IBV_WR_RDMA_READ:
		return FROCE_WQE_OP_RDMA_READ;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
		return FROCE_WQE_OP_ATOMIC_CMP_SWP;
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		return FROCE_WQE_OP_ATOMIC_FETCH_ADD;
	default:
		return -EINVAL;
	}
}

static int is_ud(uint8_t qp_type)
{
	return qp_type == FROCE_QP_TYPE_UD || qp_type == FROCE_QP_TYPE_GSI;
}

static int is_rdma(uint8_t op)
{
	return op == FROCE_WQE_OP_RDMA_WRITE ||
	       op == FROCE_WQE_OP_RDMA_WRITE_WITH_IMM ||
	       op == FROCE_WQE_OP_RDMA_READ;
}

static int is_atomic(uint8_t op)
{
	return op == FROCE_WQE_OP_ATOMIC_CMP_SWP ||
	       op == FROCE_WQE_OP_ATOMIC_FETCH_ADD;
}

uint32_t froce_sq_wqe_bytes(uint8_t qp_type, uint8_t opcode,
			    uint32_t num_sge, uint32_t inline_len, int inl)
{
	uint32_t n = FROCE_WQE_CTRL_SIZE;

	if (is_ud(qp_type))
		n += FROCE_WQE_UD_SIZE;
	else if (is_atomic(opcode))
		n += FROCE_WQE_ATOMIC_SIZE;
	else if (is_rdma(opcode))
		n += FROCE_WQE_RADDR_SIZE;
	if (inl)
		n += (inline_len + FROCE_WQE_SEG - 1) / FROCE_WQE_SEG *
		     FROCE_WQE_SEG;
	else
		n += num_sge * FROCE_WQE_DATA_SIZE;
	return n;
}

static uint8_t *put_sge(uint8_t *seg, const struct ibv_sge *s)
{
	SET_QW(seg, FROCE_WQE_DATA_ADDR, s->addr);
	SET_DW(seg, FROCE_WQE_DATA_LEN, s->length);
	SET_DW(seg, FROCE_WQE_DATA_LKEY, s->lkey);
	return seg + FROCE_WQE_DATA_SIZE;
}

int froce_build_sq_wqe(const struct froce_sq_info *sq,
		       const struct ibv_send_wr *wr, uint32_t remote_qpn,
		       uint32_t remote_qkey, const struct froce_av *av,
		       uint16_t wqe_index, void *slot)
{
	const int inl = !!(wr->send_flags & IBV_SEND_INLINE);
	const int ud = is_ud(sq->qp_type);
	uint64_t total = 0;
	uint32_t bytes, imm = 0;
	uint8_t *p = slot, *seg;
	int op, i;

	if (sq->wqe_shift < FROCE_WQE_SHIFT_MIN ||
	    sq->wqe_shift > FROCE_WQE_SHIFT_MAX || wr->num_sge < 0)
		return -EINVAL;
	op = froce_wqe_opcode(wr->opcode);
	if (op < 0)
		return op;
	if (ud && op != FROCE_WQE_OP_SEND && op != FROCE_WQE_OP_SEND_WITH_IMM)
		return -EINVAL;
	if (ud && (!av || remote_qpn >> FROCE_WQE_UD_DQPN_W))
		return -EINVAL;
	if (!inl && (uint32_t)wr->num_sge > sq->max_sge)
		return -EINVAL;
	for (i = 0; i < wr->num_sge; i++)
		total += wr->sg_list[i].length;
	if (total > 0x80000000ull)
		return -EINVAL;
	if (is_atomic(op) &&
	    (inl || wr->num_sge != 1 || wr->sg_list[0].length != 8 ||
	     (wr->wr.atomic.remote_addr & 7)))
		return -EINVAL;
	if (inl) {
		if (op == FROCE_WQE_OP_RDMA_READ || is_atomic(op))
			return -EINVAL;
		if (total > sq->max_inline)
			return -EINVAL;
	}
	bytes = froce_sq_wqe_bytes(sq->qp_type, op, wr->num_sge,
				   (uint32_t)total, inl);
	if (bytes > (1u << sq->wqe_shift) ||
	    bytes / FROCE_WQE_SEG >
		    (FROCE_WQE_CTRL_DS_MASK >> FROCE_WQE_CTRL_DS_SHIFT))
		return -EINVAL;

	if (op == FROCE_WQE_OP_SEND_WITH_IMM ||
	    op == FROCE_WQE_OP_RDMA_WRITE_WITH_IMM)
		imm = be32toh(wr->imm_data);
	else if (op == FROCE_WQE_OP_SEND_WITH_INV)
		imm = wr->invalidate_rkey;

	memset(p, 0, (size_t)1 << sq->wqe_shift);
	SET_DW(p, FROCE_WQE_CTRL_OPCODE, op);
	SET_DW(p, FROCE_WQE_CTRL_SIGNALED,
	       sq->sig_all || (wr->send_flags & IBV_SEND_SIGNALED));
	SET_DW(p, FROCE_WQE_CTRL_SOLICITED,
	       !!(wr->send_flags & IBV_SEND_SOLICITED));
	SET_DW(p, FROCE_WQE_CTRL_FENCE, !!(wr->send_flags & IBV_SEND_FENCE));
	SET_DW(p, FROCE_WQE_CTRL_INLINE, inl);
	SET_DW(p, FROCE_WQE_CTRL_DS, bytes / FROCE_WQE_SEG);
	SET_DW(p, FROCE_WQE_CTRL_WQE_INDEX, wqe_index);
	SET_DW(p, FROCE_WQE_CTRL_IMM_INV, imm);
	if (inl)
		SET_DW(p, FROCE_WQE_CTRL_INLINE_LEN, total);
	seg = p + FROCE_WQE_CTRL_SIZE;
	if (ud) {
		SET_DW(seg, FROCE_WQE_UD_DQPN, remote_qpn);
		SET_DW(seg, FROCE_WQE_UD_QKEY, remote_qkey);
		SET_DW(seg, FROCE_WQE_UD_AV_SGID_INDEX, av->sgid_index);
		SET_DW(seg, FROCE_WQE_UD_AV_HOP_LIMIT, av->hop_limit);
		SET_DW(seg, FROCE_WQE_UD_AV_TCLASS, av->tclass);
		SET_DW(seg, FROCE_WQE_UD_AV_NET_TYPE, av->net_type);
		SET_DW(seg, FROCE_WQE_UD_AV_VLAN_EN, av->vlan_en);
		SET_DW(seg, FROCE_WQE_UD_AV_FLOW_LABEL, av->flow_label);
		SET_DW(seg, FROCE_WQE_UD_AV_UDP_SPORT, av->udp_sport);
		SET_DW(seg, FROCE_WQE_UD_AV_VLAN_ID, av->vlan_id);
		SET_QW(seg, FROCE_WQE_UD_AV_DMAC, av->dmac);
		memcpy(seg + FROCE_WQE_UD_AV_DGID_BYTE, av->dgid,
		       FROCE_WQE_UD_AV_DGID_BYTES);
		seg += FROCE_WQE_UD_SIZE;
	} else if (is_rdma(op)) {
		SET_QW(seg, FROCE_WQE_RADDR_VA, wr->wr.rdma.remote_addr);
		SET_DW(seg, FROCE_WQE_RADDR_RKEY, wr->wr.rdma.rkey);
		seg += FROCE_WQE_RADDR_SIZE;
	} else if (is_atomic(op)) {
		const int cas = op == FROCE_WQE_OP_ATOMIC_CMP_SWP;

		SET_QW(seg, FROCE_WQE_ATOMIC_VA, wr->wr.atomic.remote_addr);
		SET_DW(seg, FROCE_WQE_ATOMIC_RKEY, wr->wr.atomic.rkey);
		SET_QW(seg, FROCE_WQE_ATOMIC_SWAP_ADD,
		       cas ? wr->wr.atomic.swap : wr->wr.atomic.compare_add);
		SET_QW(seg, FROCE_WQE_ATOMIC_COMPARE,
		       cas ? wr->wr.atomic.compare_add : 0);
		seg += FROCE_WQE_ATOMIC_SIZE;
	}
	for (i = 0; i < wr->num_sge; i++) {
		const struct ibv_sge *s = &wr->sg_list[i];

		if (inl) {
			if (s->length)
				memcpy(seg, (const void *)(uintptr_t)s->addr,
				       s->length);
			seg += s->length;
		} else {
			seg = put_sge(seg, s);
		}
	}
	return 0;
}

int froce_build_rq_wqe(unsigned int wqe_shift, uint32_t max_sge,
		       const struct ibv_recv_wr *wr, uint16_t wqe_index,
		       void *slot)
{
	uint8_t *p = slot, *seg;
	size_t bytes;
	int i;

	if (wqe_shift < FROCE_WQE_SHIFT_MIN || wqe_shift > FROCE_WQE_SHIFT_MAX ||
	    wr->num_sge < 0 || (uint32_t)wr->num_sge > max_sge)
		return -EINVAL;
	bytes = FROCE_RQ_WQE_HDR_SIZE + (size_t)wr->num_sge * FROCE_WQE_DATA_SIZE;
	if (bytes > ((size_t)1 << wqe_shift) || wr->num_sge > 255)
		return -EINVAL;
	memset(p, 0, (size_t)1 << wqe_shift);
	SET_DW(p, FROCE_RQ_WQE_HDR_WQE_INDEX, wqe_index);
	SET_DW(p, FROCE_RQ_WQE_HDR_NUM_SGE, wr->num_sge);
	seg = p + FROCE_RQ_WQE_HDR_SIZE;
	for (i = 0; i < wr->num_sge; i++)
		seg = put_sge(seg, &wr->sg_list[i]);
	return 0;
}

uint64_t froce_db_qp(uint32_t qpn, unsigned int type, uint32_t pi)
{
	uint8_t db[FROCE_DB_QP_SIZE] = { 0 };

	SET_DW(db, FROCE_DB_QP_QPN, qpn);
	SET_DW(db, FROCE_DB_QP_TYPE, type);
	SET_DW(db, FROCE_DB_QP_PI, pi & 0xFFFF);
	return ld64(db, 0);
}

uint64_t froce_db_cq_arm(uint32_t cqn, uint32_t ci, int solicited,
			 unsigned int sn)
{
	uint8_t db[FROCE_DB_CQ_SIZE] = { 0 };

	SET_DW(db, FROCE_DB_CQ_CQN, cqn);
	SET_DW(db, FROCE_DB_CQ_TYPE, FROCE_DB_TYPE_CQ_ARM);
	SET_DW(db, FROCE_DB_CQ_CI, ci & 0xFFFFFF);
	SET_DW(db, FROCE_DB_CQ_SOLICITED, !!solicited);
	SET_DW(db, FROCE_DB_CQ_SN, sn & 0xF);
	return ld64(db, 0);
}

int froce_cqe_owned(const void *cqe, uint32_t ci, unsigned int log_size)
{
	const uint32_t want = !((ci >> log_size) & 1);

	return GET_DW((const uint8_t *)cqe, FROCE_CQE_OWNER) == want;
}

void froce_cqe_decode(const void *cqe, struct froce_cqe *c)
{
	const uint8_t *p = cqe;

	c->qpn = GET_DW(p, FROCE_CQE_QPN);
	c->opcode = GET_DW(p, FROCE_CQE_OPCODE);
	c->wqe_index = GET_DW(p, FROCE_CQE_WQE_INDEX);
	c->status = GET_DW(p, FROCE_CQE_STATUS);
	c->vendor_err = GET_DW(p, FROCE_CQE_VENDOR_ERR);
	c->byte_cnt = GET_DW(p, FROCE_CQE_BYTE_CNT);
	c->imm_inv = GET_DW(p, FROCE_CQE_IMM_INV);
	c->src_qpn = GET_DW(p, FROCE_CQE_SRC_QPN);
	c->grh = GET_DW(p, FROCE_CQE_GRH);
	c->with_imm = GET_DW(p, FROCE_CQE_WITH_IMM);
	c->with_inv = GET_DW(p, FROCE_CQE_WITH_INV);
	c->vlan = GET_DW(p, FROCE_CQE_VLAN);
	c->solicited = GET_DW(p, FROCE_CQE_SOLICITED);
	c->net_type = GET_DW(p, FROCE_CQE_NET_TYPE);
	c->smac = GET_QW(p, FROCE_CQE_SMAC);
	c->vlan_id = GET_QW(p, FROCE_CQE_VLAN_ID);
}

int froce_cqe_to_wc(const struct froce_cqe *c, struct ibv_wc *wc)
{
	switch (c->opcode) {
	case FROCE_CQE_OP_SEND:
	case FROCE_CQE_OP_NOP:
		wc->opcode = IBV_WC_SEND;
		break;
	case FROCE_CQE_OP_RDMA_WRITE:
		wc->opcode = IBV_WC_RDMA_WRITE;
		break;
	case FROCE_CQE_OP_RDMA_READ:
		wc->opcode = IBV_WC_RDMA_READ;
		break;
	case FROCE_CQE_OP_COMP_SWAP:
		wc->opcode = IBV_WC_COMP_SWAP;
		break;
	case FROCE_CQE_OP_FETCH_ADD:
		wc->opcode = IBV_WC_FETCH_ADD;
		break;
	case FROCE_CQE_OP_RECV:
		wc->opcode = IBV_WC_RECV;
		break;
	case FROCE_CQE_OP_RECV_RDMA_WITH_IMM:
		wc->opcode = IBV_WC_RECV_RDMA_WITH_IMM;
		break;
	default:
		return -EINVAL;
	}
	wc->status = (enum ibv_wc_status)c->status;
	wc->vendor_err = c->vendor_err;
	wc->byte_len = c->byte_cnt;
	wc->qp_num = c->qpn;
	wc->src_qp = c->src_qpn;
	wc->wc_flags = 0;
	wc->imm_data = 0;
	if (c->with_imm) {
		wc->wc_flags |= IBV_WC_WITH_IMM;
		wc->imm_data = htobe32(c->imm_inv);
	} else if (c->with_inv) {
		wc->wc_flags |= IBV_WC_WITH_INV;
		wc->invalidated_rkey = c->imm_inv;
	}
	if (c->grh)
		wc->wc_flags |= IBV_WC_GRH;
	wc->pkey_index = 0;
	wc->slid = 0;
	wc->sl = 0;
	wc->dlid_path_bits = 0;
	return 0;
}

int64_t froce_sq_complete(uint32_t pi, uint32_t ci, uint16_t wqe_index)
{
	const uint32_t delta = (uint32_t)(wqe_index - ci) & 0xFFFF;

	if (delta >= pi - ci)
		return -EINVAL;
	return (int64_t)(uint32_t)(ci + delta + 1);
}

int froce_qp_shifts(uint8_t qp_type, uint32_t max_send_sge,
		    uint32_t max_inline, uint32_t max_recv_sge,
		    unsigned int *sq_shift, unsigned int *rq_shift)
{
	uint64_t sq, rq, b;

	if (max_send_sge > 1024 || max_recv_sge > 255 || max_inline > 0xFFFF)
		return -EINVAL;
	sq = froce_sq_wqe_bytes(qp_type, FROCE_WQE_OP_RDMA_WRITE, max_send_sge,
				0, 0);
	b = froce_sq_wqe_bytes(qp_type, FROCE_WQE_OP_ATOMIC_FETCH_ADD, 1, 0, 0);
	sq = b > sq ? b : sq;
	b = froce_sq_wqe_bytes(qp_type, FROCE_WQE_OP_RDMA_WRITE, 0, max_inline,
			       1);
	sq = b > sq ? b : sq;
	rq = FROCE_RQ_WQE_HDR_SIZE + (uint64_t)max_recv_sge * FROCE_WQE_DATA_SIZE;
	*sq_shift = froce_log2_ceil(sq);
	*rq_shift = froce_log2_ceil(rq);
	if (*sq_shift < FROCE_WQE_SHIFT_MIN)
		*sq_shift = FROCE_WQE_SHIFT_MIN;
	if (*rq_shift < FROCE_WQE_SHIFT_MIN)
		*rq_shift = FROCE_WQE_SHIFT_MIN;
	if (*sq_shift > FROCE_WQE_SHIFT_MAX || *rq_shift > FROCE_WQE_SHIFT_MAX)
		return -EINVAL;
	return 0;
}

static uint32_t sq_fixed(uint8_t qp_type)
{
	/* the largest fixed segment an SQ WQE of this QP type carries */
	return FROCE_WQE_CTRL_SIZE +
	       (is_ud(qp_type) ? FROCE_WQE_UD_SIZE : FROCE_WQE_RADDR_SIZE);
}

uint32_t froce_sq_max_inline(uint8_t qp_type, unsigned int shift)
{
	return (1u << shift) - sq_fixed(qp_type);
}

uint32_t froce_sq_max_sge(uint8_t qp_type, unsigned int shift)
{
	return ((1u << shift) - sq_fixed(qp_type)) / FROCE_WQE_DATA_SIZE;
}
