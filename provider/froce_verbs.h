/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* froce provider: the verbs (verbs.c) */
#ifndef FROCE_VERBS_H
#define FROCE_VERBS_H

#include "verbs_compat.h"

void froce_free_context(struct ibv_context *ibctx);
int froce_query_device_ex(struct ibv_context *ibctx,
			  const struct ibv_query_device_ex_input *input,
			  struct ibv_device_attr_ex *attr, size_t attr_size);
int froce_query_port(struct ibv_context *ibctx, uint8_t port,
		     struct ibv_port_attr *attr);
struct ibv_pd *froce_alloc_pd(struct ibv_context *ibctx);
int froce_dealloc_pd(struct ibv_pd *pd);
struct ibv_mr *froce_reg_mr(struct ibv_pd *pd, void *addr, size_t len,
			    uint64_t hca_va, int access);
int froce_dereg_mr(struct verbs_mr *vmr);
struct ibv_cq *froce_create_cq(struct ibv_context *ibctx, int cqe,
			       struct ibv_comp_channel *channel, int vector);
int froce_destroy_cq(struct ibv_cq *cq);
int froce_poll_cq(struct ibv_cq *cq, int ne, struct ibv_wc *wc);
int froce_req_notify_cq(struct ibv_cq *cq, int solicited_only);
struct ibv_qp *froce_create_qp(struct ibv_pd *pd,
			       struct ibv_qp_init_attr *attr);
int froce_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr,
		    int attr_mask);
int froce_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask,
		   struct ibv_qp_init_attr *init_attr);
int froce_destroy_qp(struct ibv_qp *qp);
int froce_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
		    struct ibv_send_wr **bad_wr);
int froce_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
		    struct ibv_recv_wr **bad_wr);
struct ibv_ah *froce_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr);
int froce_destroy_ah(struct ibv_ah *ah);

#endif /* FROCE_VERBS_H */
