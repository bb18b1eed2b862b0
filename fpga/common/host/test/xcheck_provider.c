// SPDX-License-Identifier: MIT
/* The provider's WQE, doorbell and CQE code behind plain C types (xcheck.h). */
#include <stdlib.h>

#include "froce_ring.h"
#include "xcheck.h"

static struct ibv_sge *sges(const struct froce_board_sge *sg, unsigned int n)
{
	struct ibv_sge *s = calloc(n ? n : 1, sizeof(*s));

	for (unsigned int i = 0; s && i < n; i++)
		s[i] = (struct ibv_sge){ .addr = sg[i].addr, .length = sg[i].len, .lkey = sg[i].lkey };
	return s;
}

int xprov_send_wqe(void *slot, unsigned int wqe_shift, uint16_t wqe_index, bool signaled,
		   const struct froce_board_sge *sg, unsigned int num_sge)
{
	const struct froce_sq_info sq = {
		.qp_type = FROCE_QP_TYPE_RC, .wqe_shift = (uint8_t)wqe_shift, .max_sge = num_sge,
	};
	struct ibv_sge *s = sges(sg, num_sge);
	struct ibv_send_wr wr = {
		.sg_list = s, .num_sge = (int)num_sge, .opcode = IBV_WR_SEND,
		.send_flags = signaled ? IBV_SEND_SIGNALED : 0,
	};
	int rc = s ? froce_build_sq_wqe(&sq, &wr, 0, 0, NULL, wqe_index, slot) : -1;

	free(s);
	return rc;
}

int xprov_recv_wqe(void *slot, unsigned int wqe_shift, uint16_t wqe_index, const struct froce_board_sge *sg,
		   unsigned int num_sge)
{
	struct ibv_sge *s = sges(sg, num_sge);
	struct ibv_recv_wr wr = { .sg_list = s, .num_sge = (int)num_sge };
	int rc = s ? froce_build_rq_wqe(wqe_shift, num_sge, &wr, wqe_index, slot) : -1;

	free(s);
	return rc;
}

uint64_t xprov_db_qp(uint32_t qpn, unsigned int type, uint32_t pi)
{
	return froce_db_qp(qpn, type, pi);
}

int xprov_cqe_owned(const void *cqe, uint32_t ci, unsigned int log_size)
{
	return froce_cqe_owned(cqe, ci, log_size);
}

void xprov_cqe_decode(const void *cqe, struct froce_board_cqe *c)
{
	struct froce_cqe p;

	froce_cqe_decode(cqe, &p);
	*c = (struct froce_board_cqe){
		.qpn = p.qpn, .opcode = p.opcode, .wqe_index = p.wqe_index, .status = p.status,
		.vendor_err = p.vendor_err, .byte_cnt = p.byte_cnt,
	};
}
