// SPDX-License-Identifier: MIT
/* The kernel driver's command encoders behind plain C types (xcheck.h). */
#include <string.h>

#include "froce_mbox.h"
#include "xcheck.h"

int xdrv_mbox_prepare(void *blk, uint16_t opcode, uint16_t token, const void *in, uint32_t in_len,
		      uint32_t out_len)
{
	return froce_mbox_prepare(blk, opcode, token, in, in_len, out_len);
}

void xdrv_set_port(void *in, const uint8_t mac[6], uint16_t mtu)
{
	u64 m = 0;

	for (int i = 0; i < 6; i++)
		m = m << 8 | mac[i];
	froce_set_port_encode(in, 1, m, mtu, false, false);
}

static struct froce_buf_desc desc(const struct xbuf *b)
{
	return (struct froce_buf_desc){
		.addr = b->addr, .num_pages = b->pages, .page_shift = b->shift, .level = FROCE_BUF_LEVEL_CONTIG,
	};
}

int xdrv_create_cq(void *in, const struct xbuf *ring, uint32_t log_size)
{
	const struct froce_buf_desc d = desc(ring);

	memset(in, 0, FROCE_CMD_CREATE_CQ_IN_SIZE);
	return froce_enc_create_cq(in, &d, log_size, 0, 0);
}

int xdrv_create_qp(void *in, const struct xqp *p)
{
	const struct froce_create_qp_params q = {
		.type = FROCE_QP_TYPE_RC,
		.pdn = p->pdn,
		.send_cqn = p->send_cqn,
		.recv_cqn = p->recv_cqn,
		.log_sq_size = p->log_sq,
		.sq_wqe_shift = p->sq_shift,
		.log_rq_size = p->log_rq,
		.rq_wqe_shift = p->rq_shift,
		.sq = desc(&p->sq),
		.rq = desc(&p->rq),
	};

	memset(in, 0, FROCE_CMD_CREATE_QP_IN_SIZE);
	return froce_enc_create_qp(in, &q);
}

int xdrv_reg_mr(void *in, uint32_t pdn, uint8_t access, uint64_t iova, uint64_t len, const struct xbuf *pbl)
{
	const struct froce_reg_mr_params p = {
		.pdn = pdn, .access = access, .iova = iova, .length = len, .pbl = desc(pbl),
	};

	memset(in, 0, FROCE_CMD_REG_MR_IN_SIZE);
	return froce_enc_reg_mr(in, &p);
}

int xdrv_modify_qp(void *in, uint32_t qpn, const struct froce_board_qp_attr *a)
{
	struct froce_qp_attr d = {
		.mask = a->mask,
		.state = a->state,
		.path_mtu = a->path_mtu,
		.access = a->access,
		.port = a->port,
		.qkey = a->qkey,
		.rq_psn = a->rq_psn,
		.sq_psn = a->sq_psn,
		.dest_qpn = a->dest_qpn,
		.timeout = a->timeout,
		.retry_cnt = a->retry_cnt,
		.rnr_retry = a->rnr_retry,
		.min_rnr_timer = a->min_rnr_timer,
		.max_rd_atomic = a->max_rd_atomic,
		.max_dest_rd_atomic = a->max_dest_rd_atomic,
		.pkey_index = a->pkey_index,
		.av = {
			.sgid_index = a->av.sgid_index,
			.hop_limit = a->av.hop_limit,
			.tclass = a->av.tclass,
			.net_type = a->av.net_type,
			.flow_label = a->av.flow_label,
			.udp_sport = a->av.udp_sport,
		},
	};
	u32 bad_off;

	memcpy(d.av.dmac, a->av.dmac, 6);
	memcpy(d.av.dgid, a->av.dgid, 16);
	memset(in, 0, FROCE_CMD_MODIFY_QP_IN_SIZE);
	return froce_enc_modify_qp(in, qpn, &d, &bad_off);
}
