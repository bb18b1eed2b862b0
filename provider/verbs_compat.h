/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The private provider ABI of Debian 12's libibverbs (rdma-core v44,
 * version node IBVERBS_PRIVATE_34), which Debian does not install as headers
 * (driver.h, kern-abi.h). Written from the documented layout
 * (docs of the project: rdma-core-44 provider notes), every size and every op
 * slot we set checked below. This is the only file that knows these layouts:
 * a port to another rdma-core version touches only this file.
 */
#ifndef FROCE_VERBS_COMPAT_H
#define FROCE_VERBS_COMPAT_H

#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#if !defined(__x86_64__)
#error "verbs_compat.h: layouts checked for x86_64 only"
#endif

/* ---- device matching ---- */
enum {
	VERBS_MATCH_SENTINEL = 0,
	VERBS_MATCH_PCI = 1,
	VERBS_MATCH_MODALIAS = 2,
	VERBS_MATCH_DRIVER_ID = 3,
};

struct verbs_match_ent {
	void *driver_data;
	union {
		const char *modalias;
		uint64_t driver_id;
	} u;
	uint16_t vendor;
	uint16_t device;
	uint8_t kind;
};

struct compat_list_node {
	struct compat_list_node *next, *prev;
};

/* filled by libibverbs; read only */
struct verbs_sysfs_dev {
	struct compat_list_node entry;
	void *provider_data;
	const struct verbs_match_ent *match;
	unsigned int flags;
	char sysfs_name[IBV_SYSFS_NAME_MAX];
	dev_t sysfs_cdev;
	char ibdev_name[IBV_SYSFS_NAME_MAX];
	char ibdev_path[IBV_SYSFS_PATH_MAX];
	char modalias[512];
	uint64_t node_guid;
	uint32_t driver_id;
	enum ibv_node_type node_type;
	int ibdev_idx;
	uint32_t num_ports;
	uint32_t abi_ver;
	struct timespec time_created;
};

struct verbs_device;

struct verbs_device_ops {
	const char *name;
	uint32_t match_min_abi_version;
	uint32_t match_max_abi_version;
	const struct verbs_match_ent *match_table;
	const struct verbs_device_ops **static_providers;
	bool (*match_device)(struct verbs_sysfs_dev *sysfs_dev);
	struct verbs_context *(*alloc_context)(struct ibv_device *device,
					       int cmd_fd, void *private_data);
	struct verbs_context *(*import_context)(struct ibv_device *device,
						int cmd_fd);
	struct verbs_device *(*alloc_device)(struct verbs_sysfs_dev *sysfs_dev);
	void (*uninit_device)(struct verbs_device *device);
};

struct verbs_device {
	struct ibv_device device;
	const struct verbs_device_ops *ops;
	atomic_int refcount;
	struct compat_list_node entry;
	struct verbs_sysfs_dev *sysfs;
	uint64_t core_support;
};

/* ---- objects the ibv_cmd_* helpers fill ---- */
enum ibv_mr_type {
	IBV_MR_TYPE_MR,
	IBV_MR_TYPE_NULL_MR,
	IBV_MR_TYPE_IMPORTED_MR,
	IBV_MR_TYPE_DMABUF_MR,
};

struct verbs_mr {
	struct ibv_mr ibv_mr;
	enum ibv_mr_type mr_type;
	int access;
};

struct verbs_cq {
	union {
		struct ibv_cq cq;
		struct ibv_cq_ex cq_ex;
	};
};

struct verbs_xrcd;
struct verbs_qp {
	union {
		struct ibv_qp qp;
		struct ibv_qp_ex qp_ex;
	};
	uint32_t comp_mask;
	struct verbs_xrcd *xrcd;
};

/*
 * 76 function pointers; the order is the ABI. Slots we do not set are
 * plain pointers (void *) so that their types need no declarations.
 */
struct verbs_context_ops {
	void *advise_mr, *alloc_dm, *alloc_mw, *alloc_null_mr;		/* 0 */
	void *alloc_parent_domain;					/* 4 */
	struct ibv_pd *(*alloc_pd)(struct ibv_context *);		/* 5 */
	void *alloc_td, *async_event, *attach_counters_point_flow;	/* 6 */
	void *attach_mcast, *bind_mw, *close_xrcd, *cq_event;		/* 9 */
	struct ibv_ah *(*create_ah)(struct ibv_pd *, struct ibv_ah_attr *); /* 13 */
	void *create_counters;						/* 14 */
	struct ibv_cq *(*create_cq)(struct ibv_context *, int,
				    struct ibv_comp_channel *, int);	/* 15 */
	void *create_cq_ex, *create_flow, *create_flow_action_esp;	/* 16 */
	struct ibv_qp *(*create_qp)(struct ibv_pd *,
				    struct ibv_qp_init_attr *);		/* 19 */
	void *create_qp_ex, *create_rwq_ind_table, *create_srq;		/* 20 */
	void *create_srq_ex, *create_wq, *dealloc_mw;			/* 23 */
	int (*dealloc_pd)(struct ibv_pd *);				/* 26 */
	void *dealloc_td;						/* 27 */
	int (*dereg_mr)(struct verbs_mr *);				/* 28 */
	int (*destroy_ah)(struct ibv_ah *);				/* 29 */
	void *destroy_counters;						/* 30 */
	int (*destroy_cq)(struct ibv_cq *);				/* 31 */
	void *destroy_flow, *destroy_flow_action;			/* 32 */
	int (*destroy_qp)(struct ibv_qp *);				/* 34 */
	void *destroy_rwq_ind_table, *destroy_srq, *destroy_wq;		/* 35 */
	void *detach_mcast;						/* 38 */
	void (*free_context)(struct ibv_context *);			/* 39 */
	void *free_dm, *get_srq_num, *import_dm, *import_mr;		/* 40 */
	void *import_pd, *modify_cq, *modify_flow_action_esp;		/* 44 */
	int (*modify_qp)(struct ibv_qp *, struct ibv_qp_attr *, int);	/* 47 */
	void *modify_qp_rate_limit, *modify_srq, *modify_wq;		/* 48 */
	void *open_qp, *open_xrcd;					/* 51 */
	int (*poll_cq)(struct ibv_cq *, int, struct ibv_wc *);		/* 53 */
	int (*post_recv)(struct ibv_qp *, struct ibv_recv_wr *,
			 struct ibv_recv_wr **);			/* 54 */
	int (*post_send)(struct ibv_qp *, struct ibv_send_wr *,
			 struct ibv_send_wr **);			/* 55 */
	void *post_srq_ops, *post_srq_recv;				/* 56 */
	int (*query_device_ex)(struct ibv_context *,
			       const struct ibv_query_device_ex_input *,
			       struct ibv_device_attr_ex *, size_t);	/* 58 */
	void *query_ece;						/* 59 */
	int (*query_port)(struct ibv_context *, uint8_t,
			  struct ibv_port_attr *);			/* 60 */
	int (*query_qp)(struct ibv_qp *, struct ibv_qp_attr *, int,
			struct ibv_qp_init_attr *);			/* 61 */
	void *query_qp_data_in_order, *query_rt_values, *query_srq;	/* 62 */
	void *read_counters, *reg_dm_mr, *reg_dmabuf_mr;		/* 65 */
	struct ibv_mr *(*reg_mr)(struct ibv_pd *, void *, size_t, uint64_t,
				 int);					/* 68 */
	int (*req_notify_cq)(struct ibv_cq *, int);			/* 69 */
	void *rereg_mr, *resize_cq, *set_ece, *unimport_dm;		/* 70 */
	void *unimport_mr, *unimport_pd;				/* 74 */
};

#define COMPAT_SLOT(f, n) \
	_Static_assert(offsetof(struct verbs_context_ops, f) == (n) * sizeof(void *), #f)
COMPAT_SLOT(alloc_pd, 5);
COMPAT_SLOT(create_ah, 13);
COMPAT_SLOT(create_cq, 15);
COMPAT_SLOT(create_qp, 19);
COMPAT_SLOT(dealloc_pd, 26);
COMPAT_SLOT(dereg_mr, 28);
COMPAT_SLOT(destroy_ah, 29);
COMPAT_SLOT(destroy_cq, 31);
COMPAT_SLOT(destroy_qp, 34);
COMPAT_SLOT(free_context, 39);
COMPAT_SLOT(modify_qp, 47);
COMPAT_SLOT(poll_cq, 53);
COMPAT_SLOT(post_recv, 54);
COMPAT_SLOT(post_send, 55);
COMPAT_SLOT(query_device_ex, 58);
COMPAT_SLOT(query_port, 60);
COMPAT_SLOT(query_qp, 61);
COMPAT_SLOT(reg_mr, 68);
COMPAT_SLOT(req_notify_cq, 69);
COMPAT_SLOT(unimport_pd, 75);
_Static_assert(sizeof(struct verbs_context_ops) == 76 * sizeof(void *), "ops");
_Static_assert(sizeof(struct verbs_match_ent) == 24, "verbs_match_ent");
_Static_assert(offsetof(struct verbs_match_ent, kind) == 20, "match kind");
_Static_assert(sizeof(struct verbs_device_ops) == 72, "verbs_device_ops");
_Static_assert(offsetof(struct verbs_device_ops, alloc_device) == 56, "alloc_device");
_Static_assert(sizeof(struct ibv_device) == 664, "ibv_device");
_Static_assert(sizeof(struct verbs_device) == 712, "verbs_device");
_Static_assert(offsetof(struct verbs_device, sysfs) == 696, "verbs_device.sysfs");
_Static_assert(sizeof(struct verbs_sysfs_dev) == 992, "verbs_sysfs_dev");
_Static_assert(offsetof(struct verbs_sysfs_dev, modalias) == 432, "modalias");
_Static_assert(offsetof(struct verbs_sysfs_dev, driver_id) == 952, "driver_id");
_Static_assert(offsetof(struct verbs_sysfs_dev, abi_ver) == 968, "abi_ver");
_Static_assert(offsetof(struct verbs_context, context) == 320, "verbs_context");
_Static_assert(sizeof(struct verbs_mr) == 56, "verbs_mr");
_Static_assert(sizeof(struct verbs_cq) == 288, "verbs_cq");
_Static_assert(sizeof(struct verbs_qp) == 368, "verbs_qp");

/* ---- write() commands: uverbs header + kernel core struct, driver data after ---- */
#define COMPAT_CMD(name, core)                     \
	struct name {                              \
		struct ib_uverbs_cmd_hdr hdr;      \
		struct core core_payload;          \
	}
COMPAT_CMD(ibv_get_context, ib_uverbs_get_context);
COMPAT_CMD(ibv_query_port, ib_uverbs_query_port);
COMPAT_CMD(ibv_alloc_pd, ib_uverbs_alloc_pd);
COMPAT_CMD(ibv_reg_mr, ib_uverbs_reg_mr);
COMPAT_CMD(ibv_create_cq, ib_uverbs_create_cq);
COMPAT_CMD(ibv_create_qp, ib_uverbs_create_qp);
COMPAT_CMD(ibv_modify_qp, ib_uverbs_modify_qp);
COMPAT_CMD(ibv_query_qp, ib_uverbs_query_qp);
_Static_assert(sizeof(struct ibv_get_context) == 16, "get_context");
_Static_assert(sizeof(struct ibv_alloc_pd) == 16, "alloc_pd");
_Static_assert(sizeof(struct ibv_reg_mr) == 48, "reg_mr");
_Static_assert(sizeof(struct ibv_create_cq) == 40, "create_cq");
_Static_assert(sizeof(struct ibv_create_qp) == 64, "create_qp");
_Static_assert(sizeof(struct ibv_modify_qp) == 120, "modify_qp");
_Static_assert(sizeof(struct ibv_query_qp) == 24, "query_qp");
_Static_assert(sizeof(struct ibv_query_port) == 24, "query_port");
_Static_assert(sizeof(struct ib_uverbs_get_context_resp) == 8, "get_context resp");
_Static_assert(sizeof(struct ib_uverbs_alloc_pd_resp) == 4, "alloc_pd resp");
_Static_assert(sizeof(struct ib_uverbs_reg_mr_resp) == 12, "reg_mr resp");
_Static_assert(sizeof(struct ib_uverbs_create_cq_resp) == 8, "create_cq resp");
_Static_assert(sizeof(struct ib_uverbs_create_qp_resp) == 32, "create_qp resp");
_Static_assert(sizeof(struct ib_uverbs_create_ah_resp) == 4, "create_ah resp");

/* exported as IBVERBS_1.1 but declared only in the private driver.h */
int ibv_dontfork_range(void *base, size_t size);
int ibv_dofork_range(void *base, size_t size);

/* ---- IBVERBS_PRIVATE_34 functions ---- */
void verbs_register_driver_34(const struct verbs_device_ops *ops);
void *_verbs_init_and_alloc_context(struct ibv_device *device, int cmd_fd,
				    size_t alloc_size,
				    struct verbs_context *context_offset,
				    uint32_t driver_id);
void verbs_uninit_context(struct verbs_context *context);
void verbs_set_ops(struct verbs_context *vctx,
		   const struct verbs_context_ops *ops);

int ibv_cmd_get_context(struct verbs_context *context,
			struct ibv_get_context *cmd, size_t cmd_size,
			struct ib_uverbs_get_context_resp *resp,
			size_t resp_size);
int ibv_cmd_query_device_any(struct ibv_context *context,
			     const struct ibv_query_device_ex_input *input,
			     struct ibv_device_attr_ex *attr, size_t attr_size,
			     struct ib_uverbs_ex_query_device_resp *resp,
			     size_t *resp_size);
int ibv_cmd_query_port(struct ibv_context *context, uint8_t port_num,
		       struct ibv_port_attr *port_attr,
		       struct ibv_query_port *cmd, size_t cmd_size);
int ibv_cmd_alloc_pd(struct ibv_context *context, struct ibv_pd *pd,
		     struct ibv_alloc_pd *cmd, size_t cmd_size,
		     struct ib_uverbs_alloc_pd_resp *resp, size_t resp_size);
int ibv_cmd_dealloc_pd(struct ibv_pd *pd);
int ibv_cmd_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
		   uint64_t hca_va, int access, struct verbs_mr *vmr,
		   struct ibv_reg_mr *cmd, size_t cmd_size,
		   struct ib_uverbs_reg_mr_resp *resp, size_t resp_size);
int ibv_cmd_dereg_mr(struct verbs_mr *vmr);
int ibv_cmd_create_cq(struct ibv_context *context, int cqe,
		      struct ibv_comp_channel *channel, int comp_vector,
		      struct ibv_cq *cq, struct ibv_create_cq *cmd,
		      size_t cmd_size, struct ib_uverbs_create_cq_resp *resp,
		      size_t resp_size);
int ibv_cmd_destroy_cq(struct ibv_cq *cq);
int ibv_cmd_create_qp(struct ibv_pd *pd, struct ibv_qp *qp,
		      struct ibv_qp_init_attr *attr, struct ibv_create_qp *cmd,
		      size_t cmd_size, struct ib_uverbs_create_qp_resp *resp,
		      size_t resp_size);
int ibv_cmd_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr,
		      int attr_mask, struct ibv_modify_qp *cmd,
		      size_t cmd_size);
int ibv_cmd_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *qp_attr,
		     int attr_mask, struct ibv_qp_init_attr *qp_init_attr,
		     struct ibv_query_qp *cmd, size_t cmd_size);
int ibv_cmd_destroy_qp(struct ibv_qp *qp);
int ibv_cmd_create_ah(struct ibv_pd *pd, struct ibv_ah *ah,
		      struct ibv_ah_attr *attr,
		      struct ib_uverbs_create_ah_resp *resp, size_t resp_size);
int ibv_cmd_destroy_ah(struct ibv_ah *ah);

#endif /* FROCE_VERBS_COMPAT_H */
