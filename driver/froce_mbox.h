/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * froce: encoding and decoding of the 4 KiB firmware command block and of
 * EQEs. Pure functions on memory, no device access: the same source is built
 * into froce.ko and into a host unit test (test/mbox_test.c).
 */

#ifndef FROCE_MBOX_H
#define FROCE_MBOX_H

#include <linux/bitfield.h>
#include <linux/types.h>

#include "froce_hw.h"

/* Field F of a little-endian dword / qword array (F_DW or F_QW, F_MASK). */
#define FROCE_GET_DW(buf, F) \
	FIELD_GET(F##_MASK, le32_to_cpu(((const __le32 *)(buf))[F##_DW]))
#define FROCE_GET_QW(buf, F) \
	FIELD_GET(F##_MASK, le64_to_cpu(((const __le64 *)(buf))[F##_QW]))
#define FROCE_SET_DW(buf, F, val) \
	froce_dw_update((__le32 *)(buf) + F##_DW, F##_MASK, \
			FIELD_PREP(F##_MASK, val))
#define FROCE_SET_QW(buf, F, val) \
	froce_qw_update((__le64 *)(buf) + F##_QW, F##_MASK, \
			FIELD_PREP(F##_MASK, val))

static inline void froce_dw_update(__le32 *p, u32 mask, u32 bits)
{
	*p = cpu_to_le32((le32_to_cpu(*p) & ~mask) | bits);
}

static inline void froce_qw_update(__le64 *p, u64 mask, u64 bits)
{
	*p = cpu_to_le64((le64_to_cpu(*p) & ~mask) | bits);
}

/* Name, input and output sizes of a command; NULL name if unknown. */
struct froce_cmd_info {
	const char *name;
	u16 opcode;
	u16 in_len;
	u16 out_len;
};

const struct froce_cmd_info *froce_cmd_info(u16 opcode);
const char *froce_cmd_name(u16 opcode);
const char *froce_cmd_status_name(u8 status);
int froce_cmd_status_errno(u8 status);

/*
 * Prepare the block for a command: header (DONE clear) and input. The output
 * area is left alone; the firmware writes it only on success.
 */
int froce_mbox_prepare(void *blk, u16 opcode, u16 token, const void *in,
		       u32 in_len, u32 out_len);
/* DONE as seen in the block (the caller orders the rest after it). */
bool froce_mbox_done(const void *blk);
/* STATUS and SYNDROME of a completed block. */
void froce_mbox_result(const void *blk, u8 *status, u32 *syndrome);
/* Output area of the block. */
const void *froce_mbox_out(const void *blk);

/*
 * SET_PORT input (FROCE_CMD_SET_PORT_IN_SIZE bytes, zeroed here): @mac as a
 * 48-bit number with the first octet in bits 47:40 (ether_addr_to_u64()).
 */
void froce_set_port_encode(void *in, u8 port, u64 mac, u16 mtu, bool promisc,
			   bool allmulti);

/* Entry @ci of an EQ of 2^@log_size entries belongs to the host. */
bool froce_eqe_valid(const __le32 *eqe, u32 ci, u32 log_size);

/* ---- command images for the verbs (pure; tested in test/mbox_test.c) ---- */

/* A BUF descriptor (FROCE_BUF_*): where a ring or MR finds its pages. */
struct froce_buf_desc {
	u64 addr;		/* CONTIG: first page; LIST/LIST2: list page */
	u32 num_pages;
	u8 page_shift;
	u8 level;		/* FROCE_BUF_LEVEL_* */
};

/*
 * Level for @n pages of which @contig says whether they are one contiguous
 * run, and how many 4 KiB list pages it needs (0 for CONTIG, 1 for LIST,
 * 1 + ceil(n / FROCE_BUF_LIST_ENTRIES) for LIST2). -E2BIG beyond a LIST2,
 * -EINVAL for no pages.
 */
int froce_buf_plan(u32 n, bool contig, u8 *level, u32 *list_pages);
/*
 * Fill the list pages of a LIST or LIST2 BUF for @n page addresses: @lists
 * are the 4 KiB pages from froce_buf_plan() (CPU addresses), @list_dma
 * their DMA addresses. LIST: lists[0] holds the pages. LIST2: lists[0]
 * holds the DMA addresses of lists[1..], each holding up to
 * FROCE_BUF_LIST_ENTRIES pages in order.
 */
void froce_buf_fill(u8 level, const u64 *pages, u32 n, __le64 *const *lists,
		    const u64 *list_dma);
/* The BUF layout at byte offset @off of a command input. */
void froce_enc_buf(void *in, u32 off, const struct froce_buf_desc *b);

int froce_enc_create_eq(void *in, const struct froce_buf_desc *ring,
			u32 log_size, u32 vector);
int froce_enc_create_cq(void *in, const struct froce_buf_desc *ring,
			u32 log_size, u32 eqn, u32 uar);

struct froce_create_qp_params {
	u8 type;		/* FROCE_QP_TYPE_* */
	bool priv;
	bool sig_all;
	u32 pdn;
	u32 send_cqn;
	u32 recv_cqn;
	u32 uar;
	u8 log_sq_size;
	u8 sq_wqe_shift;
	u8 log_rq_size;
	u8 rq_wqe_shift;
	struct froce_buf_desc sq;
	struct froce_buf_desc rq;
};

int froce_enc_create_qp(void *in, const struct froce_create_qp_params *p);

/* Address vector (FROCE_AV_*) */
struct froce_av {
	u8 sgid_index;
	u8 hop_limit;
	u8 tclass;
	u8 net_type;		/* FROCE_KIND_ROCE_* */
	bool vlan_en;
	u16 vlan_id;
	u32 flow_label;
	u16 udp_sport;
	u8 dmac[6];		/* wire order */
	u8 dgid[16];		/* wire order */
};

/*
 * QP attributes in QPATTR terms. The mask bits and the state, MTU and access
 * values are those of enum ib_qp_attr_mask, ib_qp_state, ib_mtu and
 * ib_access_flags (froce_verbs.c checks that at build time).
 */
struct froce_qp_attr {
	u32 mask;		/* FROCE_QP_ATTR_* */
	u8 state;
	u8 cur_state;
	u8 path_mtu;
	bool en_sqd_async_notify;
	bool sq_draining;	/* QUERY_QP only */
	u8 access;
	u8 port;
	u32 qkey;
	u32 rq_psn;
	u32 sq_psn;
	u32 dest_qpn;
	u8 timeout;
	u8 retry_cnt;
	u8 rnr_retry;
	u8 min_rnr_timer;
	u8 max_rd_atomic;
	u8 max_dest_rd_atomic;
	u16 pkey_index;
	struct froce_av av;
};

/* every FROCE_QP_ATTR_* bit */
#define FROCE_QP_ATTR_ALL \
	(FROCE_QP_ATTR_STATE | FROCE_QP_ATTR_CUR_STATE | \
	 FROCE_QP_ATTR_EN_SQD_ASYNC_NOTIFY | FROCE_QP_ATTR_ACCESS_FLAGS | \
	 FROCE_QP_ATTR_PKEY_INDEX | FROCE_QP_ATTR_PORT | FROCE_QP_ATTR_QKEY | \
	 FROCE_QP_ATTR_AV | FROCE_QP_ATTR_PATH_MTU | FROCE_QP_ATTR_TIMEOUT | \
	 FROCE_QP_ATTR_RETRY_CNT | FROCE_QP_ATTR_RNR_RETRY | \
	 FROCE_QP_ATTR_RQ_PSN | FROCE_QP_ATTR_MAX_QP_RD_ATOMIC | \
	 FROCE_QP_ATTR_MIN_RNR_TIMER | FROCE_QP_ATTR_SQ_PSN | \
	 FROCE_QP_ATTR_MAX_DEST_RD_ATOMIC | FROCE_QP_ATTR_DEST_QPN)

/*
 * MODIFY_QP input for @qpn. Only the fields @a->mask selects are written,
 * the rest stay 0. -EOPNOTSUPP for a mask bit the firmware does not know,
 * -EINVAL for a selected value that does not fit its field (the byte
 * offset of the field in *@bad_off, for the log).
 */
int froce_enc_modify_qp(void *in, u32 qpn, const struct froce_qp_attr *a,
			u32 *bad_off);
/* QUERY_QP output into @a (mask 0). */
void froce_dec_query_qp(const void *out, struct froce_qp_attr *a);

struct froce_reg_mr_params {
	u32 pdn;
	u8 access;		/* FROCE_ACCESS_* */
	u64 iova;
	u64 length;
	struct froce_buf_desc pbl;
};

int froce_enc_reg_mr(void *in, const struct froce_reg_mr_params *p);

#endif /* FROCE_MBOX_H */
