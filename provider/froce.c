// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * froce provider: device matching, registration and the user context
 * (UAR page mapping, limits from the kernel).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "froce.h"
#include "froce_verbs.h"
#include "uapi/froce-abi.h"

static const struct verbs_match_ent froce_match_table[] = {
	{ .kind = VERBS_MATCH_PCI, .vendor = FROCE_PCI_VENDOR_ID,
	  .device = FROCE_PCI_DEVICE_ID },
	{ .kind = VERBS_MATCH_MODALIAS, .u.modalias = "rdma_device:Nfroce*" },
	{ .kind = VERBS_MATCH_SENTINEL },
};

static const struct verbs_context_ops froce_ctx_ops = {
	.alloc_pd = froce_alloc_pd,
	.create_ah = froce_create_ah,
	.create_cq = froce_create_cq,
	.create_qp = froce_create_qp,
	.dealloc_pd = froce_dealloc_pd,
	.dereg_mr = froce_dereg_mr,
	.destroy_ah = froce_destroy_ah,
	.destroy_cq = froce_destroy_cq,
	.destroy_qp = froce_destroy_qp,
	.free_context = froce_free_context,
	.modify_qp = froce_modify_qp,
	.poll_cq = froce_poll_cq,
	.post_recv = froce_post_recv,
	.post_send = froce_post_send,
	.query_device_ex = froce_query_device_ex,
	.query_port = froce_query_port,
	.query_qp = froce_query_qp,
	.reg_mr = froce_reg_mr,
	.req_notify_cq = froce_req_notify_cq,
};

struct froce_get_context_cmd {
	struct ibv_get_context ibv_cmd;
	struct froce_ib_alloc_ucontext_req drv;
};

struct froce_get_context_resp {
	struct ib_uverbs_get_context_resp ibv_resp;
	struct froce_ib_alloc_ucontext_resp drv;
};

_Static_assert(offsetof(struct froce_get_context_cmd, drv) == 16, "udata");
_Static_assert(offsetof(struct froce_get_context_resp, drv) == 8, "udata");

static struct verbs_context *froce_alloc_context(struct ibv_device *ibdev,
						 int cmd_fd,
						 void *private_data)
{
	struct froce_device *dev =
		froce_container_of(ibdev, struct froce_device, vdev.device);
	struct froce_get_context_cmd cmd;
	struct froce_get_context_resp resp;
	struct froce_context *ctx;

	(void)private_data;
	ctx = _verbs_init_and_alloc_context(
		ibdev, cmd_fd, sizeof(*ctx),
		(struct verbs_context *)offsetof(struct froce_context, vctx),
		dev->driver_id);
	if (!ctx)
		return NULL;
	memset(&cmd, 0, sizeof(cmd));
	memset(&resp, 0, sizeof(resp));
	if (ibv_cmd_get_context(&ctx->vctx, &cmd.ibv_cmd, sizeof(cmd),
				&resp.ibv_resp, sizeof(resp)))
		goto err_uninit;
	if (!resp.drv.db_slots || resp.drv.db_slots > FROCE_UAR_DB_SLOTS) {
		errno = EINVAL;
		goto err_uninit;
	}
	ctx->caps = resp.drv.caps;
	ctx->db_slots = resp.drv.db_slots;
	ctx->max_sq_wr = resp.drv.max_sq_wr;
	ctx->max_cqe = resp.drv.max_cqe;
	ctx->max_send_sge = resp.drv.max_send_sge;
	ctx->max_recv_sge = resp.drv.max_recv_sge;
	ctx->max_inline = resp.drv.max_inline;
	ctx->uar = mmap(NULL, (size_t)1 << FROCE_UAR_PAGE_SHIFT, PROT_WRITE,
			MAP_SHARED, cmd_fd, (off_t)resp.drv.uar_mmap_key);
	if (ctx->uar == MAP_FAILED)
		goto err_uninit;
	pthread_mutex_init(&ctx->qp_lock, NULL);
	verbs_set_ops(&ctx->vctx, &froce_ctx_ops);
	return &ctx->vctx;

err_uninit:
	verbs_uninit_context(&ctx->vctx);
	free(ctx);
	return NULL;
}

void froce_free_context(struct ibv_context *ibctx)
{
	struct froce_context *ctx = to_fctx(ibctx);
	unsigned int i;

	munmap(ctx->uar, (size_t)1 << FROCE_UAR_PAGE_SHIFT);
	for (i = 0; i < FROCE_QP_TABLE_L1; i++)
		free(ctx->qp_table[i]);
	pthread_mutex_destroy(&ctx->qp_lock);
	verbs_uninit_context(&ctx->vctx);
	free(ctx);
}

static struct verbs_device *froce_alloc_device(struct verbs_sysfs_dev *sysfs)
{
	struct froce_device *dev = calloc(1, sizeof(*dev));

	if (!dev)
		return NULL;
	dev->driver_id = sysfs->driver_id;
	return &dev->vdev;
}

static void froce_uninit_device(struct verbs_device *vdev)
{
	free(froce_container_of(vdev, struct froce_device, vdev));
}

static const struct verbs_device_ops froce_dev_ops = {
	.name = "froce",
	.match_min_abi_version = FROCE_ABI_VERSION,
	.match_max_abi_version = FROCE_ABI_VERSION,
	.match_table = froce_match_table,
	.alloc_device = froce_alloc_device,
	.uninit_device = froce_uninit_device,
	.alloc_context = froce_alloc_context,
};

static void __attribute__((constructor)) froce_register_driver(void)
{
	verbs_register_driver_34(&froce_dev_ops);
}
