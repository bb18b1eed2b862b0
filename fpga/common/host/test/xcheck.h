/* SPDX-License-Identifier: MIT */
/*
 * Reference images for the board library's unit test: the kernel driver's
 * command encoders (driver/froce_mbox.c, built for the host with
 * driver/test/shim) and, with libibverbs' headers, the provider's WQE,
 * doorbell and CQE code (provider/froce_ring.c). Each lives in its own
 * file because the two define different structs of the same name.
 */
#ifndef XCHECK_H
#define XCHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "../froce_board.h"

/* a CONTIG BUF: pages of 2^shift bytes from addr */
struct xbuf {
	uint64_t addr;
	uint32_t pages;
	uint8_t shift;
};

struct xqp {
	uint32_t pdn, send_cqn, recv_cqn;
	uint8_t log_sq, sq_shift, log_rq, rq_shift;
	struct xbuf sq, rq;
};

/* driver/froce_mbox.c; in: the command's input size, zeroed here */
int xdrv_mbox_prepare(void *blk, uint16_t opcode, uint16_t token, const void *in, uint32_t in_len,
		      uint32_t out_len);
void xdrv_set_port(void *in, const uint8_t mac[6], uint16_t mtu);
int xdrv_create_cq(void *in, const struct xbuf *ring, uint32_t log_size);
int xdrv_create_qp(void *in, const struct xqp *p);
int xdrv_reg_mr(void *in, uint32_t pdn, uint8_t access, uint64_t iova, uint64_t len, const struct xbuf *pbl);
int xdrv_modify_qp(void *in, uint32_t qpn, const struct froce_board_qp_attr *a);

/* provider/froce_ring.c (only with libibverbs' headers: XCHECK_PROVIDER) */
int xprov_send_wqe(void *slot, unsigned int wqe_shift, uint16_t wqe_index, bool signaled,
		   const struct froce_board_sge *sg, unsigned int num_sge);
int xprov_recv_wqe(void *slot, unsigned int wqe_shift, uint16_t wqe_index, const struct froce_board_sge *sg,
		   unsigned int num_sge);
uint64_t xprov_db_qp(uint32_t qpn, unsigned int type, uint32_t pi);
int xprov_cqe_owned(const void *cqe, uint32_t ci, unsigned int log_size);
void xprov_cqe_decode(const void *cqe, struct froce_board_cqe *c);

#endif
