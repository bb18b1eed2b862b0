/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * froce user/kernel verbs ABI: the driver data the provider (libfroce) puts
 * after the core uverbs command and the kernel driver (froce.ko) puts after
 * the core response. Shape of include/uapi/rdma/efa-abi.h: 8-byte aligned
 * structs, comp_mask first, explicit reserved fields (must be 0), capability
 * bits instead of silent changes.
 *
 * The provider allocates every ring (CQ, SQ + RQ) in its own page-aligned,
 * zeroed memory and passes its VA and length; the kernel pins it (ib_umem)
 * and hands the page list to the firmware. Doorbells go to the context's UAR
 * page, which the provider maps with mmap(cmd_fd, uar_mmap_key); each CQ and
 * each SQ/RQ gets one 8-byte slot in it (FROCE_UAR_DB_SLOTS per page).
 * Ring sizes and WQE sizes follow include/froce_hw.h.
 */
#ifndef FROCE_ABI_USER_H
#define FROCE_ABI_USER_H

#include <linux/types.h>

/* ib_device_ops.uverbs_abi_ver; the provider accepts exactly this */
#define FROCE_ABI_VERSION 1

/* froce_ib_alloc_ucontext_resp.caps */
enum {
	/*
	 * The UAR page is an ordinary host page that the platform polls
	 * (UML co-simulation), not a BAR2 page. Doorbells are written the
	 * same way; informational for the provider.
	 */
	FROCE_UCTX_CAP_SHADOW_UAR = 1 << 0,
};

struct froce_ib_alloc_ucontext_req {
	__u32 comp_mask;
	__u32 reserved;
};

struct froce_ib_alloc_ucontext_resp {
	__u32 comp_mask;
	__u32 caps;		/* FROCE_UCTX_CAP_* */
	__aligned_u64 uar_mmap_key; /* mmap offset of the UAR page (4 KiB) */
	__u32 uar_index;	/* the context's UAR page in BAR2 (diagnostics) */
	__u32 db_slots;		/* 8-byte doorbell slots in the page */
	__u32 max_sq_wr;	/* WQEs per SQ/RQ, a power of two */
	__u32 max_cqe;		/* CQEs per CQ, a power of two */
	__u32 max_send_sge;
	__u32 max_recv_sge;
	__u32 max_inline;	/* inline bytes per SQ WQE */
	__u32 reserved;
};

/* follows a 4-byte core response: 4-byte alignment only, no __u64 */
struct froce_ib_alloc_pd_resp {
	__u32 pdn;
	__u32 reserved;
};

struct froce_ib_create_cq {
	__u32 comp_mask;
	__u32 log_size;		/* 1 << log_size CQEs of FROCE_CQE_SIZE */
	__aligned_u64 buf_va;	/* page aligned, zeroed */
	__aligned_u64 buf_len;	/* whole pages */
};

struct froce_ib_create_cq_resp {
	__u32 comp_mask;
	__u32 cqn;
	__u32 db_slot;		/* arm doorbell slot in the UAR page */
	__u32 reserved;
};

struct froce_ib_create_qp {
	__u32 comp_mask;
	__u32 reserved;
	__aligned_u64 buf_va;	/* SQ ring at offset 0, page aligned, zeroed */
	__aligned_u64 buf_len;	/* whole pages, SQ pages + RQ pages */
	__u32 rq_offset;	/* bytes from buf_va to the RQ, whole pages */
	__u32 sq_log_size;	/* 1 << n SQ WQEs ... */
	__u32 sq_wqe_shift;	/* ... of 1 << shift bytes (FROCE_WQE_SHIFT_*) */
	__u32 rq_log_size;
	__u32 rq_wqe_shift;
	__u32 reserved2;
};

struct froce_ib_create_qp_resp {
	__u32 comp_mask;
	__u32 qpn;
	__u32 sq_db_slot;	/* SQ doorbell slot in the UAR page */
	__u32 rq_db_slot;	/* RQ doorbell slot in the UAR page */
};

/*
 * follows a 4-byte core response: 4-byte alignment only. What the kernel
 * resolved for a UD address vector (next-hop MAC, VLAN, network type); the
 * provider takes the rest of FROCE_WQE_UD's AV from ibv_ah_attr.
 */
struct froce_ib_create_ah_resp {
	__u32 comp_mask;
	__u8 dmac[6];		/* wire order */
	__u16 vlan_id;
	__u8 net_type;		/* FROCE_KIND_ROCE_* */
	__u8 vlan_en;
	__u16 udp_sport;	/* 0: hardware picks */
};

#endif /* FROCE_ABI_USER_H */
