/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The provider's view of the hardware formats: SQ/RQ WQE images, CQE decode,
 * doorbell values and queue sizing. Pure functions over memory (no
 * libibverbs calls), unit-tested on the host; the images match
 * sim/core/host.cpp build_sq_wqe/build_rq_wqe byte for byte.
 */
#ifndef FROCE_RING_H
#define FROCE_RING_H

#include <infiniband/verbs.h>
#include <stdint.h>

#include "froce_hw.h"

#ifdef __cplusplus
extern "C" {
#endif

/* a UD destination: WQE_UD's AV fields (see include/froce_hw.h) */
struct froce_av {
	uint8_t sgid_index;
	uint8_t hop_limit;
	uint8_t tclass;
	uint8_t net_type;	/* FROCE_KIND_ROCE_* */
	uint8_t vlan_en;
	uint16_t vlan_id;
	uint16_t udp_sport;
	uint32_t flow_label;
	uint64_t dmac;		/* first wire byte most significant */
	uint8_t dgid[16];	/* wire order */
};

/* what post_send needs to know of a QP */
struct froce_sq_info {
	uint8_t qp_type;	/* FROCE_QP_TYPE_* */
	uint8_t wqe_shift;
	uint8_t sig_all;	/* every WQE signaled (sq_sig_all) */
	uint32_t max_sge;
	uint32_t max_inline;
};

/* decoded CQE */
struct froce_cqe {
	uint32_t qpn;
	uint8_t opcode;
	uint16_t wqe_index;
	uint8_t status;
	uint8_t vendor_err;
	uint32_t byte_cnt;
	uint32_t imm_inv;
	uint32_t src_qpn;
	uint8_t grh, with_imm, with_inv, vlan, solicited, net_type;
	uint64_t smac;
	uint16_t vlan_id;
};

/* the SQ opcode for a verbs opcode; -EINVAL if unsupported */
int froce_wqe_opcode(enum ibv_wr_opcode op);

/* bytes a WQE uses (before rounding to its slot) */
uint32_t froce_sq_wqe_bytes(uint8_t qp_type, uint8_t opcode,
			    uint32_t num_sge, uint32_t inline_len, int inl);

/*
 * Write the SQ WQE for wr into slot (1 << sq->wqe_shift bytes, overwritten
 * completely). av is the destination for UD QPs (NULL otherwise). Inline data
 * is gathered from the SGE addresses. Returns 0 or a negative errno:
 * -EINVAL (opcode, SGE count, atomic shape, inline on READ/atomic, UD opcode,
 * inline length > max_inline, WQE larger than its slot).
 */
int froce_build_sq_wqe(const struct froce_sq_info *sq,
		       const struct ibv_send_wr *wr, uint32_t remote_qpn,
		       uint32_t remote_qkey, const struct froce_av *av,
		       uint16_t wqe_index, void *slot);

/* RQ WQE; -EINVAL if wr has more than max_sge SGEs or does not fit */
int froce_build_rq_wqe(unsigned int wqe_shift, uint32_t max_sge,
		       const struct ibv_recv_wr *wr, uint16_t wqe_index,
		       void *slot);

/* doorbell values: the 64-bit word stored into the queue's UAR slot */
uint64_t froce_db_qp(uint32_t qpn, unsigned int type, uint32_t pi);
uint64_t froce_db_cq_arm(uint32_t cqn, uint32_t ci, int solicited,
			 unsigned int sn);

/* owner rule: is the CQE at consumer index ci of a 1 << log_size ring valid */
int froce_cqe_owned(const void *cqe, uint32_t ci, unsigned int log_size);
void froce_cqe_decode(const void *cqe, struct froce_cqe *out);

/* CQE -> work completion fields (not wr_id); -EINVAL on an unknown opcode */
int froce_cqe_to_wc(const struct froce_cqe *c, struct ibv_wc *wc);

/*
 * Queue sizing as the hardware wants it (sim/core/host.cpp create_qp):
 * the SQ WQE holds the largest of RDMA WRITE with max_sge SGEs, an atomic and
 * max_inline inline bytes; the RQ WQE a header and max_recv_sge SGEs.
 * Returns -EINVAL if a WQE would exceed 1 << FROCE_WQE_SHIFT_MAX.
 */
int froce_qp_shifts(uint8_t qp_type, uint32_t max_send_sge,
		    uint32_t max_inline, uint32_t max_recv_sge,
		    unsigned int *sq_shift, unsigned int *rq_shift);

/* the largest inline / SGE count a WQE of 1 << shift bytes holds */
uint32_t froce_sq_max_inline(uint8_t qp_type, unsigned int shift);
uint32_t froce_sq_max_sge(uint8_t qp_type, unsigned int shift);

unsigned int froce_log2_ceil(uint64_t v);

/*
 * A send CQE for SQ WQE wqe_index completes it and every earlier unsignaled
 * WQE: the new consumer index, or -EINVAL if the index is not outstanding
 * (pi, ci free-running; WQE_INDEX is their low 16 bits).
 */
int64_t froce_sq_complete(uint32_t pi, uint32_t ci, uint16_t wqe_index);

/* ring fullness with free-running 32-bit counters */
static inline int froce_wq_full(uint32_t pi, uint32_t ci, unsigned int log_size)
{
	return pi - ci >= (1u << log_size);
}

#ifdef __cplusplus
}
#endif

#endif /* FROCE_RING_H */
