// SPDX-License-Identifier: MIT
/*
 * froce_board: user-space driver of a froce board on the UART host link
 * (froce_board.h). The probe and reset follow driver/froce_main.c, the
 * mailbox driver/froce_cmdq.c and froce_mbox.c, the objects
 * driver/froce_verbs.c, the WQEs, CQEs and doorbells provider/froce_ring.c
 * and provider/verbs.c. Every format comes from include/froce_hw.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "froce_board.h"
#include "froce_hw.h"
#include "froce_uart_proto.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- little-endian fields of froce_hw.h layouts ---- */

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le64(const uint8_t *p)
{
	return (uint64_t)get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}

static void put_le64(uint8_t *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
}

static void dw_set(void *buf, unsigned int dw, uint32_t mask, unsigned int shift, uint64_t val)
{
	uint8_t *p = (uint8_t *)buf + 4 * dw;

	put_le32(p, (get_le32(p) & ~mask) | ((uint32_t)(val << shift) & mask));
}

static void qw_set(void *buf, unsigned int qw, uint64_t mask, unsigned int shift, uint64_t val)
{
	uint8_t *p = (uint8_t *)buf + 8 * qw;

	put_le64(p, (get_le64(p) & ~mask) | ((val << shift) & mask));
}

/* Sets the field if val fits it, else keeps the byte offset + 1 of the first
 * field that did not fit in *bad (as driver/froce_mbox.c does). */
static void dw_put(void *buf, unsigned int dw, uint32_t mask, unsigned int shift, uint64_t val, uint32_t *bad)
{
	if (val > (mask >> shift)) {
		if (!*bad)
			*bad = 4 * dw + 1;
		return;
	}
	dw_set(buf, dw, mask, shift, val);
}

/* field F of froce_hw.h (F_DW or F_QW, F_MASK, F_SHIFT); the second level
 * lets F itself be a macro such as IN(PDN) */
#define SET_DW(p, F, v) SET_DW_(p, F, v)
#define SET_DW_(p, F, v) dw_set((p), F##_DW, F##_MASK, F##_SHIFT, (v))
#define SET_QW(p, F, v) SET_QW_(p, F, v)
#define SET_QW_(p, F, v) qw_set((p), F##_QW, F##_MASK, F##_SHIFT, (v))
#define PUT_DW(p, F, v, bad) PUT_DW_(p, F, v, bad)
#define PUT_DW_(p, F, v, bad) dw_put((p), F##_DW, F##_MASK, F##_SHIFT, (v), &(bad))
#define GET_DW(p, F) GET_DW_(p, F)
#define GET_DW_(p, F) ((get_le32((const uint8_t *)(p) + 4 * F##_DW) & F##_MASK) >> F##_SHIFT)
#define GET_QW(p, F) GET_QW_(p, F)
#define GET_QW_(p, F) ((get_le64((const uint8_t *)(p) + 8 * F##_QW) & F##_MASK) >> F##_SHIFT)

/* rings come in 4 KiB pages (the BUF layout's "ring BUFs use 12"), the MTT's
 * smallest page; data MRs here use the same pages */
#define RING_PAGE_SHIFT FROCE_MR_PAGE_SHIFT_MIN
#define RING_PAGE ((uint64_t)1 << RING_PAGE_SHIFT)

/* the most CQEs one MEM_RD carries */
#define CQ_READ_MAX (FROCE_UART_MAX_DATA / FROCE_CQE_SIZE)

/* CQE_OP: bit 7 set = receive side */
#define CQE_OP_RECV_SIDE FROCE_CQE_OP_RECV

static uint64_t page_round(uint64_t n)
{
	return (n + RING_PAGE - 1) & ~(RING_PAGE - 1);
}

static unsigned int log2_ceil(uint64_t v)
{
	unsigned int l = 0;

	while (l < 63 && ((uint64_t)1 << l) < v)
		l++;
	return l;
}

/* ---- names ---- */

struct name_entry {
	unsigned int value;
	const char *name;
	int err;
};

#define CMD_ENTRY(name, op, in, out) { op, #name, 0 },
static const struct name_entry cmd_names[] = { FROCE_CMD_LIST(CMD_ENTRY) };
#undef CMD_ENTRY

#define STATUS_ENTRY(name, val, errno_val) { val, #name, errno_val },
static const struct name_entry cmd_statuses[] = { FROCE_CMD_STATUS_LIST(STATUS_ENTRY) };
#undef STATUS_ENTRY

#define WC(n) [FROCE_WC_##n] = #n
static const char *const wc_names[] = {
	WC(SUCCESS), WC(LOC_LEN_ERR), WC(LOC_QP_OP_ERR), WC(LOC_EEC_OP_ERR), WC(LOC_PROT_ERR),
	WC(WR_FLUSH_ERR), WC(MW_BIND_ERR), WC(BAD_RESP_ERR), WC(LOC_ACCESS_ERR), WC(REM_INV_REQ_ERR),
	WC(REM_ACCESS_ERR), WC(REM_OP_ERR), WC(RETRY_EXC_ERR), WC(RNR_RETRY_EXC_ERR), WC(LOC_RDD_VIOL_ERR),
	WC(REM_INV_RD_REQ_ERR), WC(REM_ABORT_ERR), WC(INV_EECN_ERR), WC(INV_EEC_STATE_ERR), WC(FATAL_ERR),
	WC(RESP_TIMEOUT_ERR), WC(GENERAL_ERR),
};
#undef WC

#define VE(n) [FROCE_VENDOR_ERR_##n] = #n
static const char *const vendor_err_names[] = {
	VE(NONE), VE(WQE_FORMAT), VE(WQE_STALE), VE(LKEY_INVALID), VE(LKEY_PD), VE(LKEY_ACCESS),
	VE(LKEY_BOUNDS), VE(RECV_TOO_SMALL), VE(DMA), VE(NAK_INVALID_REQUEST), VE(NAK_REMOTE_ACCESS),
	VE(NAK_REMOTE_OP), VE(RETRY_EXCEEDED), VE(RNR_RETRY_EXCEEDED), VE(FLUSHED), VE(INLINE_TOO_LONG),
};
#undef VE

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const struct name_entry *find_entry(const struct name_entry *t, size_t n, unsigned int value)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].value == value)
			return &t[i];
	return NULL;
}

const char *froce_board_cmd_name(uint16_t opcode)
{
	const struct name_entry *e = find_entry(cmd_names, NELEM(cmd_names), opcode);

	return e ? e->name : "unknown";
}

const char *froce_board_cmd_status_name(uint8_t status)
{
	const struct name_entry *e = find_entry(cmd_statuses, NELEM(cmd_statuses), status);

	return e ? e->name : "unknown";
}

int froce_board_cmd_status_errno(uint8_t status)
{
	const struct name_entry *e = find_entry(cmd_statuses, NELEM(cmd_statuses), status);

	return e ? -e->err : -EIO;
}

const char *froce_board_wc_status_name(uint8_t status)
{
	return status < NELEM(wc_names) && wc_names[status] ? wc_names[status] : "unknown";
}

const char *froce_board_vendor_err_name(uint8_t vendor_err)
{
	return vendor_err < NELEM(vendor_err_names) && vendor_err_names[vendor_err] ? vendor_err_names[vendor_err]
										     : "unknown";
}

/* ---- the window allocator ---- */

void froce_win_init(struct froce_win *w, uint64_t base, uint64_t size)
{
	memset(w, 0, sizeof(*w));
	w->base = base;
	/* a window ending at 2^64 loses its last byte rather than wrap */
	w->size = size > UINT64_MAX - base ? UINT64_MAX - base : size;
}

/* the free gap before block i (i == n: the one after the last block) */
static void win_gap(const struct froce_win *w, unsigned int i, uint64_t *start, uint64_t *end)
{
	*start = i ? w->blk[i - 1].addr + w->blk[i - 1].len : w->base;
	*end = i < w->n ? w->blk[i].addr : w->base + w->size;
}

/* the first multiple of align at or above a, false if there is none */
static bool align_up(uint64_t a, uint64_t align, uint64_t *r)
{
	if (a > UINT64_MAX - (align - 1))
		return false;
	*r = (a + align - 1) & ~(align - 1);
	return true;
}

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

int froce_win_alloc(struct froce_win *w, uint64_t len, uint64_t align, uint64_t *addr)
{
	if (!len || !is_pow2(align))
		return -EINVAL;
	if (w->n == FROCE_WIN_MAX_BLOCKS)
		return -ENOMEM;
	for (unsigned int i = 0; i <= w->n; i++) {
		uint64_t start, end, a;

		win_gap(w, i, &start, &end);
		if (!align_up(start, align, &a) || a > end || end - a < len)
			continue;
		memmove(&w->blk[i + 1], &w->blk[i], (w->n - i) * sizeof(w->blk[0]));
		w->blk[i].addr = a;
		w->blk[i].len = len;
		w->n++;
		*addr = a;
		return 0;
	}
	return -ENOMEM;
}

int froce_win_free(struct froce_win *w, uint64_t addr)
{
	for (unsigned int i = 0; i < w->n; i++) {
		if (w->blk[i].addr != addr)
			continue;
		w->n--;
		memmove(&w->blk[i], &w->blk[i + 1], (w->n - i) * sizeof(w->blk[0]));
		return 0;
	}
	return -ENOENT;
}

uint64_t froce_win_used(const struct froce_win *w)
{
	uint64_t used = 0;

	for (unsigned int i = 0; i < w->n; i++)
		used += w->blk[i].len;
	return used;
}

uint64_t froce_win_largest(const struct froce_win *w, uint64_t align)
{
	uint64_t best = 0;

	if (w->n == FROCE_WIN_MAX_BLOCKS || !is_pow2(align))
		return 0;
	for (unsigned int i = 0; i <= w->n; i++) {
		uint64_t start, end, a;

		win_gap(w, i, &start, &end);
		if (align_up(start, align, &a) && a <= end && end - a > best)
			best = end - a;
	}
	return best;
}

/* ---- formats ---- */

uint64_t froce_board_mac_u64(const uint8_t mac[6])
{
	uint64_t v = 0;

	for (int i = 0; i < 6; i++)
		v = v << 8 | mac[i];
	return v;
}

static void mac_from_u64(uint64_t v, uint8_t mac[6])
{
	for (int i = 5; i >= 0; i--) {
		mac[i] = (uint8_t)v;
		v >>= 8;
	}
}

void froce_board_gid_ipv4(uint8_t gid[16], const uint8_t ip[4])
{
	memset(gid, 0, 10);
	gid[10] = 0xff;
	gid[11] = 0xff;
	memcpy(gid + 12, ip, 4);
}

bool froce_board_gid_is_ipv4(const uint8_t gid[16])
{
	for (int i = 0; i < 10; i++)
		if (gid[i])
			return false;
	return gid[10] == 0xff && gid[11] == 0xff;
}

static uint8_t *put_sge(uint8_t *seg, const struct froce_board_sge *s)
{
	SET_QW(seg, FROCE_WQE_DATA_ADDR, s->addr);
	SET_DW(seg, FROCE_WQE_DATA_LEN, s->len);
	SET_DW(seg, FROCE_WQE_DATA_LKEY, s->lkey);
	return seg + FROCE_WQE_DATA_SIZE;
}

int froce_board_build_send_wqe(void *slot, unsigned int wqe_shift, uint16_t wqe_index, bool signaled,
			       const struct froce_board_sge *sg, unsigned int num_sge)
{
	const uint64_t bytes = FROCE_WQE_CTRL_SIZE + (uint64_t)num_sge * FROCE_WQE_DATA_SIZE;
	uint8_t *p = slot, *seg;

	if (wqe_shift < FROCE_WQE_SHIFT_MIN || wqe_shift > FROCE_WQE_SHIFT_MAX || bytes > (1u << wqe_shift))
		return -EINVAL;
	memset(p, 0, (size_t)1 << wqe_shift);
	SET_DW(p, FROCE_WQE_CTRL_OPCODE, FROCE_WQE_OP_SEND);
	SET_DW(p, FROCE_WQE_CTRL_SIGNALED, signaled);
	SET_DW(p, FROCE_WQE_CTRL_DS, bytes / FROCE_WQE_SEG);
	SET_DW(p, FROCE_WQE_CTRL_WQE_INDEX, wqe_index);
	seg = p + FROCE_WQE_CTRL_SIZE;
	for (unsigned int i = 0; i < num_sge; i++)
		seg = put_sge(seg, &sg[i]);
	return 0;
}

int froce_board_build_recv_wqe(void *slot, unsigned int wqe_shift, uint16_t wqe_index,
			       const struct froce_board_sge *sg, unsigned int num_sge)
{
	const uint64_t bytes = FROCE_RQ_WQE_HDR_SIZE + (uint64_t)num_sge * FROCE_WQE_DATA_SIZE;
	uint8_t *p = slot, *seg;

	if (wqe_shift < FROCE_WQE_SHIFT_MIN || wqe_shift > FROCE_WQE_SHIFT_MAX || bytes > (1u << wqe_shift) ||
	    num_sge > FROCE_RQ_WQE_HDR_NUM_SGE_MASK >> FROCE_RQ_WQE_HDR_NUM_SGE_SHIFT)
		return -EINVAL;
	memset(p, 0, (size_t)1 << wqe_shift);
	SET_DW(p, FROCE_RQ_WQE_HDR_WQE_INDEX, wqe_index);
	SET_DW(p, FROCE_RQ_WQE_HDR_NUM_SGE, num_sge);
	seg = p + FROCE_RQ_WQE_HDR_SIZE;
	for (unsigned int i = 0; i < num_sge; i++)
		seg = put_sge(seg, &sg[i]);
	return 0;
}

uint64_t froce_board_db_qp(uint32_t qpn, unsigned int type, uint32_t pi)
{
	uint8_t db[FROCE_DB_QP_SIZE] = { 0 };

	SET_DW(db, FROCE_DB_QP_QPN, qpn);
	SET_DW(db, FROCE_DB_QP_TYPE, type);
	SET_DW(db, FROCE_DB_QP_PI, pi);		/* the low 16 bits: PI is free-running */
	return get_le64(db);
}

bool froce_board_cqe_owned(const void *cqe, uint32_t ci, unsigned int log_size)
{
	return GET_DW(cqe, FROCE_CQE_OWNER) == !((ci >> log_size) & 1);
}

void froce_board_cqe_decode(const void *cqe, struct froce_board_cqe *c)
{
	c->qpn = GET_DW(cqe, FROCE_CQE_QPN);
	c->opcode = (uint8_t)GET_DW(cqe, FROCE_CQE_OPCODE);
	c->wqe_index = (uint16_t)GET_DW(cqe, FROCE_CQE_WQE_INDEX);
	c->status = (uint8_t)GET_DW(cqe, FROCE_CQE_STATUS);
	c->vendor_err = (uint8_t)GET_DW(cqe, FROCE_CQE_VENDOR_ERR);
	c->byte_cnt = GET_DW(cqe, FROCE_CQE_BYTE_CNT);
}

/* the attribute bits froce_board_enc_modify_qp() encodes */
#define QP_ATTR_ENCODED                                                                                  \
	(FROCE_QP_ATTR_STATE | FROCE_QP_ATTR_ACCESS_FLAGS | FROCE_QP_ATTR_PKEY_INDEX | FROCE_QP_ATTR_PORT |  \
	 FROCE_QP_ATTR_QKEY | FROCE_QP_ATTR_AV | FROCE_QP_ATTR_PATH_MTU | FROCE_QP_ATTR_TIMEOUT |           \
	 FROCE_QP_ATTR_RETRY_CNT | FROCE_QP_ATTR_RNR_RETRY | FROCE_QP_ATTR_RQ_PSN |                          \
	 FROCE_QP_ATTR_MAX_QP_RD_ATOMIC | FROCE_QP_ATTR_MIN_RNR_TIMER | FROCE_QP_ATTR_SQ_PSN |               \
	 FROCE_QP_ATTR_MAX_DEST_RD_ATOMIC | FROCE_QP_ATTR_DEST_QPN)

int froce_board_enc_modify_qp(void *in, uint32_t qpn, const struct froce_board_qp_attr *a, uint32_t *bad_off)
{
	const uint32_t m = a->mask;
	uint32_t bad = 0;

	*bad_off = 0;
	memset(in, 0, FROCE_CMD_MODIFY_QP_IN_SIZE);
	if (m & ~(uint32_t)QP_ATTR_ENCODED)
		return -EOPNOTSUPP;
#define PUT(F, v) PUT_DW(in, FROCE_CMD_MODIFY_QP_IN_##F, v, bad)
	PUT(QPN, qpn);
	PUT(ATTR_MASK, m);
	if (m & FROCE_QP_ATTR_STATE)
		PUT(STATE, a->state);
	if (m & FROCE_QP_ATTR_ACCESS_FLAGS)
		PUT(ACCESS_FLAGS, a->access);
	if (m & FROCE_QP_ATTR_PKEY_INDEX)
		PUT(PKEY_INDEX, a->pkey_index);
	if (m & FROCE_QP_ATTR_PORT)
		PUT(PORT, a->port);
	if (m & FROCE_QP_ATTR_QKEY)
		PUT(QKEY, a->qkey);
	if (m & FROCE_QP_ATTR_PATH_MTU)
		PUT(PATH_MTU, a->path_mtu);
	if (m & FROCE_QP_ATTR_TIMEOUT)
		PUT(TIMEOUT, a->timeout);
	if (m & FROCE_QP_ATTR_RETRY_CNT)
		PUT(RETRY_CNT, a->retry_cnt);
	if (m & FROCE_QP_ATTR_RNR_RETRY)
		PUT(RNR_RETRY, a->rnr_retry);
	if (m & FROCE_QP_ATTR_RQ_PSN)
		PUT(RQ_PSN, a->rq_psn);
	if (m & FROCE_QP_ATTR_MAX_QP_RD_ATOMIC)
		PUT(MAX_RD_ATOMIC, a->max_rd_atomic);
	if (m & FROCE_QP_ATTR_MIN_RNR_TIMER)
		PUT(MIN_RNR_TIMER, a->min_rnr_timer);
	if (m & FROCE_QP_ATTR_SQ_PSN)
		PUT(SQ_PSN, a->sq_psn);
	if (m & FROCE_QP_ATTR_MAX_DEST_RD_ATOMIC)
		PUT(MAX_DEST_RD_ATOMIC, a->max_dest_rd_atomic);
	if (m & FROCE_QP_ATTR_DEST_QPN)
		PUT(DEST_QPN, a->dest_qpn);
	if (m & FROCE_QP_ATTR_AV) {
		PUT(AV_SGID_INDEX, a->av.sgid_index);
		PUT(AV_HOP_LIMIT, a->av.hop_limit);
		PUT(AV_TCLASS, a->av.tclass);
		PUT(AV_NET_TYPE, a->av.net_type);
		PUT(AV_FLOW_LABEL, a->av.flow_label);
		PUT(AV_UDP_SPORT, a->av.udp_sport);
		SET_QW(in, FROCE_CMD_MODIFY_QP_IN_AV_DMAC, froce_board_mac_u64(a->av.dmac));
		memcpy((uint8_t *)in + FROCE_CMD_MODIFY_QP_IN_AV_DGID_BYTE, a->av.dgid,
		       FROCE_CMD_MODIFY_QP_IN_AV_DGID_BYTES);
	}
#undef PUT
	if (bad) {
		*bad_off = bad - 1;
		return -EINVAL;
	}
	return 0;
}

/* ---- the board ---- */

struct froce_board {
	struct froce_link *link;
	struct froce_board_opts opts;
	struct froce_win win;
	uint64_t mbox;			/* the command block's window address */
	uint16_t token;			/* of the next command */
	bool dead;			/* a command timed out */
	uint64_t db_used[FROCE_UAR_DB_SLOTS / 64];	/* slots of UAR page 0 */
	struct froce_board_qp *qps;
	struct froce_board_fw fw;
	struct froce_board_caps caps;
	char err[512];
};

void froce_board_opts_init(struct froce_board_opts *opts)
{
	opts->ready_timeout_ms = 10000;
	opts->cmd_timeout_ms = 5000;
}

__attribute__((format(printf, 3, 4))) static int set_err(struct froce_board *b, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b->err, sizeof(b->err), fmt, ap);
	va_end(ap);
	return rc;
}

/* an error of the link, with what was being done */
static int link_err(struct froce_board *b, int rc, const char *what)
{
	return set_err(b, rc, "%s: %s", what, froce_link_errmsg(b->link));
}

const char *froce_board_errmsg(const struct froce_board *b)
{
	return b->err;
}

const struct froce_board_fw *froce_board_fw(const struct froce_board *b)
{
	return &b->fw;
}

const struct froce_board_caps *froce_board_caps(const struct froce_board *b)
{
	return &b->caps;
}

const struct froce_win *froce_board_win(const struct froce_board *b)
{
	return &b->win;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static int rd32(struct froce_board *b, uint32_t off, const char *name, uint32_t *v)
{
	int rc = froce_link_bar0_read32(b->link, off, v);

	return rc ? set_err(b, rc, "BAR0 %s read: %s", name, froce_link_errmsg(b->link)) : 0;
}

static int wr32(struct froce_board *b, uint32_t off, const char *name, uint32_t v)
{
	int rc = froce_link_bar0_write32(b->link, off, v);

	return rc ? set_err(b, rc, "BAR0 %s write: %s", name, froce_link_errmsg(b->link)) : 0;
}

#define RD32(b, REG, v) rd32((b), FROCE_REG_##REG, #REG, (v))
#define WR32(b, REG, v) wr32((b), FROCE_REG_##REG, #REG, (v))

int froce_board_mem_write(struct froce_board *b, uint64_t addr, const void *buf, size_t len)
{
	int rc = froce_link_mem_write(b->link, addr, buf, len);

	return rc ? set_err(b, rc, "MEM_WR of %zu bytes at %#llx: %s", len, (unsigned long long)addr,
			    froce_link_errmsg(b->link))
		  : 0;
}

int froce_board_mem_read(struct froce_board *b, uint64_t addr, void *buf, size_t len)
{
	int rc = froce_link_mem_read(b->link, addr, buf, len);

	return rc ? set_err(b, rc, "MEM_RD of %zu bytes at %#llx: %s", len, (unsigned long long)addr,
			    froce_link_errmsg(b->link))
		  : 0;
}

int froce_board_mem_alloc(struct froce_board *b, uint64_t len, uint64_t align, const char *what, uint64_t *addr)
{
	int rc = froce_win_alloc(&b->win, len, align, addr);

	if (rc == -EINVAL)
		return set_err(b, rc, "%s: %llu bytes at a multiple of %llu: bad size or alignment", what,
			       (unsigned long long)len, (unsigned long long)align);
	if (rc)
		return set_err(b, rc,
			       "%s: %llu bytes do not fit the host-memory window (%llu bytes at %#llx: %llu in use in %u block%s, largest free block %llu bytes)",
			       what, (unsigned long long)len, (unsigned long long)b->win.size,
			       (unsigned long long)b->win.base, (unsigned long long)froce_win_used(&b->win), b->win.n,
			       b->win.n == 1 ? "" : "s", (unsigned long long)froce_win_largest(&b->win, align));
	return 0;
}

int froce_board_mem_free(struct froce_board *b, uint64_t addr)
{
	int rc = froce_win_free(&b->win, addr);

	return rc ? set_err(b, rc, "no window block starts at %#llx", (unsigned long long)addr) : 0;
}

/* window memory that a queue owns, zeroed */
static int mem_alloc_zeroed(struct froce_board *b, uint64_t len, const char *what, uint64_t *addr)
{
	void *zero;
	int rc;

	rc = froce_board_mem_alloc(b, len, RING_PAGE, what, addr);
	if (rc)
		return rc;
	zero = calloc(1, len);
	if (!zero) {
		froce_win_free(&b->win, *addr);
		return set_err(b, -ENOMEM, "%s: no host memory for %llu zero bytes", what, (unsigned long long)len);
	}
	rc = froce_board_mem_write(b, *addr, zero, len);
	free(zero);
	if (rc)
		froce_win_free(&b->win, *addr);
	return rc;
}

/* ---- probe ---- */

static int wait_ready(struct froce_board *b)
{
	const long long deadline = now_ms() + b->opts.ready_timeout_ms;
	uint32_t st, fw_ver = 0, beat = 0;
	int rc;

	for (;;) {
		/* sample the clock first so that a late READY is not a timeout */
		const bool expired = now_ms() > deadline;

		rc = RD32(b, DEV_STATUS, &st);
		if (rc)
			return rc;
		if (st & FROCE_REG_DEV_STATUS_FATAL_MASK) {
			uint32_t syn = 0;

			rc = RD32(b, FATAL_SYNDROME, &syn);
			if (rc)
				return rc;
			return set_err(b, -EIO, "device fatal: code %u info %#x (DEV_STATUS %#x)",
				       FROCE_FIELD_GET(FROCE_REG_FATAL_SYNDROME_CODE, syn),
				       FROCE_FIELD_GET(FROCE_REG_FATAL_SYNDROME_INFO, syn), st);
		}
		if (st & FROCE_REG_DEV_STATUS_READY_MASK)
			return 0;
		if (expired)
			break;
		sleep_ms(1);
	}
	rc = RD32(b, FW_VERSION, &fw_ver);
	if (!rc)
		rc = RD32(b, HEARTBEAT, &beat);
	if (rc)
		return rc;
	return set_err(b, -ETIMEDOUT,
		       "DEV_STATUS.READY not set after %u ms (DEV_STATUS %#x, FW_VERSION %#x, HEARTBEAT %#x); a simulated board needs a longer timeout",
		       b->opts.ready_timeout_ms, st, fw_ver, beat);
}

static int check_id(struct froce_board *b)
{
	const struct froce_link_info *li = froce_link_cached_info(b->link);
	uint32_t id, ver, hash, scratch, uar;
	int rc;

	if (((uint64_t)1 << li->bar0_addr_width) < FROCE_BAR0_SIZE)
		return set_err(b, -ENODEV, "the link's BAR0 is %llu bytes, froce_core's %u",
			       (unsigned long long)1 << li->bar0_addr_width, FROCE_BAR0_SIZE);
	if (li->bar2_addr_width < FROCE_UAR_PAGE_SHIFT)
		return set_err(b, -ENODEV, "the link's BAR2 is %llu bytes: no UAR page",
			       (unsigned long long)1 << li->bar2_addr_width);
	rc = RD32(b, ID, &id);
	if (!rc)
		rc = RD32(b, HW_VERSION, &ver);
	if (!rc)
		rc = RD32(b, SPEC_HASH, &hash);
	if (rc)
		return rc;
	if (FROCE_FIELD_GET(FROCE_REG_ID_VENDOR, id) != FROCE_PCI_VENDOR_ID ||
	    FROCE_FIELD_GET(FROCE_REG_ID_DEVICE, id) != FROCE_PCI_DEVICE_ID)
		return set_err(b, -ENODEV, "BAR0 ID %#x is not a froce device", id);
	if (FROCE_FIELD_GET(FROCE_REG_HW_VERSION_MAJOR, ver) != FROCE_HW_VERSION_MAJOR)
		return set_err(b, -ENODEV, "hardware interface %#x, this program supports %#x", ver,
			       FROCE_HW_VERSION);
	if (hash != FROCE_HW_SPEC_HASH)
		return set_err(b, -ENODEV, "spec hash %#x, this program is built for %#x", hash, FROCE_HW_SPEC_HASH);

	/* BAR access check: SCRATCH reads back what was written */
	rc = WR32(b, SCRATCH, 0x5a5aa5a5);
	if (!rc)
		rc = RD32(b, SCRATCH, &scratch);
	if (!rc)
		rc = WR32(b, SCRATCH, 0);
	if (rc)
		return rc;
	if (scratch != 0x5a5aa5a5)
		return set_err(b, -EIO, "SCRATCH reads %#x after writing 0x5a5aa5a5", scratch);

	rc = RD32(b, UAR_INFO, &uar);
	if (rc)
		return rc;
	if (FROCE_FIELD_GET(FROCE_REG_UAR_INFO_PAGE_SHIFT, uar) != FROCE_UAR_PAGE_SHIFT ||
	    !FROCE_FIELD_GET(FROCE_REG_UAR_INFO_NUM_PAGES, uar))
		return set_err(b, -ENODEV, "UAR_INFO %#x: no UAR page of 2^%u bytes", uar, FROCE_UAR_PAGE_SHIFT);
	return 0;
}

/* DEV_CTRL.RESET: every context goes, the firmware restarts (READY reads 0
 * from the first read after the write). */
static int reset_device(struct froce_board *b)
{
	int rc = WR32(b, DEV_CTRL, FROCE_REG_DEV_CTRL_RESET_MASK);

	return rc ? rc : wait_ready(b);
}

static int query_fw(struct froce_board *b)
{
	uint8_t out[FROCE_CMD_QUERY_FW_OUT_SIZE];
	int rc = froce_board_cmd(b, FROCE_CMD_QUERY_FW, NULL, 0, out, sizeof(out));

	if (rc)
		return rc;
	b->fw.major = (uint8_t)GET_DW(out, FROCE_CMD_QUERY_FW_OUT_VER_MAJOR);
	b->fw.minor = (uint8_t)GET_DW(out, FROCE_CMD_QUERY_FW_OUT_VER_MINOR);
	b->fw.patch = (uint16_t)GET_DW(out, FROCE_CMD_QUERY_FW_OUT_VER_PATCH);
	b->fw.spec_hash = GET_DW(out, FROCE_CMD_QUERY_FW_OUT_SPEC_HASH);
	b->fw.build_id = GET_DW(out, FROCE_CMD_QUERY_FW_OUT_BUILD_ID);
	if (b->fw.spec_hash != FROCE_HW_SPEC_HASH)
		return set_err(b, -ENODEV, "firmware spec hash %#x, this program is built for %#x", b->fw.spec_hash,
			       FROCE_HW_SPEC_HASH);
	return 0;
}

static int query_caps(struct froce_board *b)
{
	uint8_t out[FROCE_CMD_QUERY_CAPS_OUT_SIZE];
	struct froce_board_caps *c = &b->caps;
	int rc = froce_board_cmd(b, FROCE_CMD_QUERY_CAPS, NULL, 0, out, sizeof(out));

	if (rc)
		return rc;
#define CAP(F) GET_DW(out, FROCE_CMD_QUERY_CAPS_OUT_##F)
	c->max_qp = CAP(MAX_QP);
	c->max_cq = CAP(MAX_CQ);
	c->max_pd = CAP(MAX_PD);
	c->max_mr = CAP(MAX_MR);
	c->max_cqe = CAP(MAX_CQE);
	c->max_qp_wr = CAP(MAX_QP_WR);
	c->max_send_sge = CAP(MAX_SEND_SGE);
	c->max_recv_sge = CAP(MAX_RECV_SGE);
	c->num_gid = CAP(NUM_GID);
	c->max_qp_rd_atom = CAP(MAX_QP_RD_ATOM);
	c->max_mtu = (uint8_t)CAP(MAX_MTU);
	c->max_msg_sz = CAP(MAX_MSG_SZ);
#undef CAP
	c->max_mr_size = GET_QW(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_MR_SIZE);
	return 0;
}

static int probe(struct froce_board *b)
{
	int rc;

	rc = check_id(b);
	if (!rc)
		rc = wait_ready(b);	/* a reset still under way from an earlier program */
	if (!rc)
		rc = reset_device(b);
	if (rc)
		return rc;
	rc = froce_board_mem_alloc(b, FROCE_MBOX_SIZE, FROCE_MBOX_SIZE, "command block", &b->mbox);
	if (!rc)
		rc = WR32(b, CMD_ADDR_LO, (uint32_t)b->mbox);
	if (!rc)
		rc = WR32(b, CMD_ADDR_HI, (uint32_t)(b->mbox >> 32));
	if (!rc)
		rc = query_fw(b);
	if (!rc)
		rc = query_caps(b);
	return rc;
}

int froce_board_open(struct froce_board **board, struct froce_link *link, const struct froce_board_opts *opts,
		     char *err, size_t errlen)
{
	const struct froce_link_info *li = froce_link_cached_info(link);
	struct froce_board *b;
	int rc;

	*board = NULL;
	b = calloc(1, sizeof(*b));
	if (!b) {
		if (err && errlen)
			snprintf(err, errlen, "froce_board_open: out of memory");
		return -ENOMEM;
	}
	b->link = link;
	if (opts)
		b->opts = *opts;
	else
		froce_board_opts_init(&b->opts);
	b->token = 1;
	froce_win_init(&b->win, li->mem_base, li->mem_size);
	rc = probe(b);
	if (rc) {
		if (err && errlen)
			snprintf(err, errlen, "%s", b->err);
		free(b);
		return rc;
	}
	*board = b;
	return 0;
}

void froce_board_close(struct froce_board *b)
{
	free(b);
}

/* ---- the mailbox ---- */

/* DONE is written last, SYNDROME before it: both in one 64-bit word, which
 * the link reads whole, so a read that sees DONE sees the final SYNDROME */
_Static_assert(FROCE_MBOX_HDR_SYNDROME_DW / 2 == FROCE_MBOX_HDR_DONE_DW / 2 &&
		       FROCE_MBOX_HDR_STATUS_DW == FROCE_MBOX_HDR_DONE_DW,
	       "SYNDROME, STATUS and DONE share a 64-bit word");

static int cmd_timed_out(struct froce_board *b, const char *name, uint16_t token)
{
	uint32_t cs = 0, st = 0;

	b->dead = true;
	if (!RD32(b, CMD_STATUS, &cs))
		RD32(b, DEV_STATUS, &st);
	return set_err(b, -ETIMEDOUT,
		       "%s (token %#x) timed out after %u ms; CMD_STATUS %#x (busy %u token %#x status %s), DEV_STATUS %#x: mailbox disabled",
		       name, token, b->opts.cmd_timeout_ms, cs, FROCE_FIELD_GET(FROCE_REG_CMD_STATUS_BUSY, cs),
		       FROCE_FIELD_GET(FROCE_REG_CMD_STATUS_TOKEN, cs),
		       froce_board_cmd_status_name((uint8_t)FROCE_FIELD_GET(FROCE_REG_CMD_STATUS_STATUS, cs)), st);
}

int froce_board_cmd(struct froce_board *b, uint16_t opcode, const void *in, uint32_t in_len, void *out,
		    uint32_t out_len)
{
	const char *name = froce_board_cmd_name(opcode);
	const unsigned int first = 4 * FROCE_MBOX_HDR_SYNDROME_DW, end = 4 * (FROCE_MBOX_HDR_DONE_DW + 1);
	uint8_t blk[FROCE_MBOX_IN_OFF + FROCE_MBOX_IN_MAX];
	long long deadline;
	uint32_t syndrome;
	uint16_t token;
	uint8_t status;
	int rc;

	if (b->dead)
		return set_err(b, -EIO, "%s: the mailbox is disabled since a command timed out", name);
	if (in_len > FROCE_MBOX_IN_MAX || out_len > FROCE_MBOX_OUT_MAX || (in_len && !in) || (out_len && !out))
		return set_err(b, -EINVAL, "%s: bad sizes: input %u, output %u bytes", name, in_len, out_len);

	/* header with DONE clear and the input, in one MEM_WR */
	token = b->token++;
	memset(blk, 0, FROCE_MBOX_IN_OFF);
	if (in_len)
		memcpy(blk + FROCE_MBOX_IN_OFF, in, in_len);
	SET_DW(blk, FROCE_MBOX_HDR_OPCODE, opcode);
	SET_DW(blk, FROCE_MBOX_HDR_TOKEN, token);
	SET_DW(blk, FROCE_MBOX_HDR_IN_LEN, in_len);
	SET_DW(blk, FROCE_MBOX_HDR_OUT_LEN, out_len);
	rc = froce_link_mem_write(b->link, b->mbox, blk, FROCE_MBOX_IN_OFF + in_len);
	if (rc)
		return link_err(b, rc, name);
	/* the MEM_WR was answered, so it is in the RAM before the doorbell.
	 * From the doorbell on, a link failure leaves the firmware perhaps
	 * running the command: the block is not ours to reuse (dead) */
	rc = WR32(b, CMD_DOORBELL, FROCE_FIELD_PREP(FROCE_REG_CMD_DOORBELL_TOKEN, token));
	if (rc) {
		b->dead = true;
		return rc;
	}

	deadline = now_ms() + b->opts.cmd_timeout_ms;
	for (;;) {
		const bool expired = now_ms() > deadline;

		rc = froce_link_mem_read(b->link, b->mbox + first, blk + first, end - first);
		if (rc) {
			b->dead = true;
			return link_err(b, rc, name);
		}
		if (GET_DW(blk, FROCE_MBOX_HDR_DONE))
			break;
		if (expired)
			return cmd_timed_out(b, name, token);
	}

	status = (uint8_t)GET_DW(blk, FROCE_MBOX_HDR_STATUS);
	syndrome = GET_DW(blk, FROCE_MBOX_HDR_SYNDROME);
	rc = froce_board_cmd_status_errno(status);
	if (rc) {
		char where[40] = "";

		if (status == FROCE_CMD_STATUS_BAD_PARAM)
			snprintf(where, sizeof(where), " (input byte %u)", syndrome);
		return set_err(b, rc, "%s (token %#x) failed: status %s (%#x), syndrome %#x%s", name, token,
			       froce_board_cmd_status_name(status), status, syndrome, where);
	}
	/* the output is written before DONE: this read, issued after DONE was
	 * seen, gets all of it */
	if (out_len) {
		rc = froce_link_mem_read(b->link, b->mbox + FROCE_MBOX_OUT_OFF, out, out_len);
		if (rc)
			return link_err(b, rc, name);
	}
	return 0;
}

/* A command image the encoder refused: name the field, not a BAD_PARAM. */
static int enc_failed(struct froce_board *b, uint16_t opcode, uint32_t bad)
{
	return set_err(b, -EINVAL, "%s: a value does not fit its field at input byte %u",
		       froce_board_cmd_name(opcode), bad - 1);
}

/* ---- port, GIDs, PDs ---- */

int froce_board_query_port(struct froce_board *b, struct froce_board_port *port)
{
	uint8_t in[FROCE_CMD_QUERY_PORT_IN_SIZE] = { 0 };
	uint8_t out[FROCE_CMD_QUERY_PORT_OUT_SIZE];
	int rc;

	SET_DW(in, FROCE_CMD_QUERY_PORT_IN_PORT, 1);
	rc = froce_board_cmd(b, FROCE_CMD_QUERY_PORT, in, sizeof(in), out, sizeof(out));
	if (rc)
		return rc;
	port->state = (uint8_t)GET_DW(out, FROCE_CMD_QUERY_PORT_OUT_STATE);
	port->active_mtu = (uint8_t)GET_DW(out, FROCE_CMD_QUERY_PORT_OUT_ACTIVE_MTU);
	port->speed_gbps = (uint8_t)GET_DW(out, FROCE_CMD_QUERY_PORT_OUT_SPEED_GBPS);
	port->mtu = (uint16_t)GET_DW(out, FROCE_CMD_QUERY_PORT_OUT_MTU);
	mac_from_u64(GET_QW(out, FROCE_CMD_QUERY_PORT_OUT_MAC), port->mac);
	return 0;
}

int froce_board_set_port(struct froce_board *b, const uint8_t mac[6], uint16_t eth_mtu)
{
	uint8_t in[FROCE_CMD_SET_PORT_IN_SIZE] = { 0 };

	SET_DW(in, FROCE_CMD_SET_PORT_IN_PORT, 1);
	SET_DW(in, FROCE_CMD_SET_PORT_IN_MTU, eth_mtu);
	SET_QW(in, FROCE_CMD_SET_PORT_IN_MAC, froce_board_mac_u64(mac));
	return froce_board_cmd(b, FROCE_CMD_SET_PORT, in, sizeof(in), NULL, 0);
}

int froce_board_add_gid(struct froce_board *b, uint8_t index, uint8_t type, const uint8_t gid[16],
			const uint8_t smac[6])
{
	uint8_t in[FROCE_CMD_ADD_GID_IN_SIZE] = { 0 };
	uint32_t bad = 0;

	PUT_DW(in, FROCE_CMD_ADD_GID_IN_INDEX, index, bad);
	PUT_DW(in, FROCE_CMD_ADD_GID_IN_TYPE, type, bad);
	if (bad)
		return enc_failed(b, FROCE_CMD_ADD_GID, bad);
	/* VALID is QUERY_GID output only: the firmware refuses it set */
	SET_QW(in, FROCE_CMD_ADD_GID_IN_SMAC, froce_board_mac_u64(smac));
	memcpy(in + FROCE_CMD_ADD_GID_IN_GID_BYTE, gid, FROCE_CMD_ADD_GID_IN_GID_BYTES);
	return froce_board_cmd(b, FROCE_CMD_ADD_GID, in, sizeof(in), NULL, 0);
}

int froce_board_alloc_pd(struct froce_board *b, uint32_t *pdn)
{
	uint8_t in[FROCE_CMD_ALLOC_PD_IN_SIZE] = { 0 };	/* UAR 0: the only user of the board */
	uint8_t out[FROCE_CMD_ALLOC_PD_OUT_SIZE];
	int rc = froce_board_cmd(b, FROCE_CMD_ALLOC_PD, in, sizeof(in), out, sizeof(out));

	if (!rc)
		*pdn = GET_DW(out, FROCE_CMD_ALLOC_PD_OUT_PDN);
	return rc;
}

int froce_board_dealloc_pd(struct froce_board *b, uint32_t pdn)
{
	uint8_t in[FROCE_CMD_DEALLOC_PD_IN_SIZE] = { 0 };
	uint32_t bad = 0;

	PUT_DW(in, FROCE_CMD_DEALLOC_PD_IN_PDN, pdn, bad);
	if (bad)
		return enc_failed(b, FROCE_CMD_DEALLOC_PD, bad);
	return froce_board_cmd(b, FROCE_CMD_DEALLOC_PD, in, sizeof(in), NULL, 0);
}

/* ---- MRs ---- */

/* a CONTIG BUF of pages 2^shift bytes from addr (aligned) at byte off */
static void enc_buf(uint8_t *in, unsigned int off, uint64_t addr, uint32_t pages, unsigned int shift)
{
	uint8_t *p = in + off;

	SET_QW(p, FROCE_BUF_ADDR, addr);
	SET_DW(p, FROCE_BUF_NUM_PAGES, pages);
	SET_DW(p, FROCE_BUF_PAGE_SHIFT, shift);
	SET_DW(p, FROCE_BUF_LEVEL, FROCE_BUF_LEVEL_CONTIG);
}

static bool in_window(const struct froce_board *b, uint64_t addr, uint64_t len)
{
	return addr >= b->win.base && len <= b->win.size && addr - b->win.base <= b->win.size - len;
}

int froce_board_reg_mr(struct froce_board *b, uint32_t pdn, uint64_t addr, uint64_t len, uint8_t access,
		       struct froce_board_mr *mr)
{
	uint8_t in[FROCE_CMD_REG_MR_IN_SIZE] = { 0 };
	uint8_t out[FROCE_CMD_REG_MR_OUT_SIZE];
	uint64_t pages;
	uint32_t bad = 0;
	int rc;

	if (!len || !in_window(b, addr, len))
		return set_err(b, -ERANGE, "REG_MR: [%#llx, +%llu) is not inside the host-memory window",
			       (unsigned long long)addr, (unsigned long long)len);
	/* the window is physically contiguous: one CONTIG page run */
	pages = ((addr + len - 1) >> RING_PAGE_SHIFT) - (addr >> RING_PAGE_SHIFT) + 1;
	PUT_DW(in, FROCE_CMD_REG_MR_IN_PDN, pdn, bad);
	PUT_DW(in, FROCE_CMD_REG_MR_IN_ACCESS, access, bad);
	if (bad)
		return enc_failed(b, FROCE_CMD_REG_MR, bad);
	SET_QW(in, FROCE_CMD_REG_MR_IN_IOVA, addr);
	SET_QW(in, FROCE_CMD_REG_MR_IN_LENGTH, len);
	enc_buf(in, 8 * FROCE_CMD_REG_MR_IN_PBL_ADDR_QW, addr & ~(RING_PAGE - 1), (uint32_t)pages, RING_PAGE_SHIFT);
	rc = froce_board_cmd(b, FROCE_CMD_REG_MR, in, sizeof(in), out, sizeof(out));
	if (rc)
		return rc;
	mr->addr = addr;
	mr->len = len;
	mr->lkey = GET_DW(out, FROCE_CMD_REG_MR_OUT_LKEY);
	mr->rkey = GET_DW(out, FROCE_CMD_REG_MR_OUT_RKEY);
	return 0;
}

int froce_board_dereg_mr(struct froce_board *b, const struct froce_board_mr *mr)
{
	uint8_t in[FROCE_CMD_DEREG_MR_IN_SIZE] = { 0 };

	SET_DW(in, FROCE_CMD_DEREG_MR_IN_LKEY, mr->lkey);
	return froce_board_cmd(b, FROCE_CMD_DEREG_MR, in, sizeof(in), NULL, 0);
}

/* ---- CQs ---- */

int froce_board_create_cq(struct froce_board *b, uint32_t entries, struct froce_board_cq **cqp)
{
	uint8_t in[FROCE_CMD_CREATE_CQ_IN_SIZE] = { 0 };
	uint8_t out[FROCE_CMD_CREATE_CQ_OUT_SIZE];
	struct froce_board_cq *cq;
	unsigned int log_size = log2_ceil(entries);
	uint64_t bytes;
	uint32_t bad = 0;
	int rc;

	*cqp = NULL;
	/* at least 2 CQEs, as the provider and the kernel driver ask */
	if (log_size < 1)
		log_size = 1;
	if (!entries || ((uint64_t)1 << log_size) > b->caps.max_cqe)
		return set_err(b, -EINVAL, "CQ of %u entries: the firmware allows 1 to %u", entries, b->caps.max_cqe);
	cq = calloc(1, sizeof(*cq));
	if (!cq)
		return set_err(b, -ENOMEM, "CQ: out of memory");
	cq->log_size = log_size;
	bytes = page_round((uint64_t)FROCE_CQE_SIZE << log_size);
	/* OWNER must read 0 in every slot on the first pass */
	rc = mem_alloc_zeroed(b, bytes, "CQ ring", &cq->ring);
	if (rc) {
		free(cq);
		return rc;
	}
	enc_buf(in, 8 * FROCE_CMD_CREATE_CQ_IN_BUF_ADDR_QW, cq->ring, (uint32_t)(bytes >> RING_PAGE_SHIFT),
		RING_PAGE_SHIFT);
	PUT_DW(in, FROCE_CMD_CREATE_CQ_IN_LOG_SIZE, log_size, bad);
	/* EQN 0 and UAR 0 stay zero: the CQ is never armed, so it never posts
	 * an EQE, and its QPs ring UAR page 0 */
	rc = bad ? enc_failed(b, FROCE_CMD_CREATE_CQ, bad)
		 : froce_board_cmd(b, FROCE_CMD_CREATE_CQ, in, sizeof(in), out, sizeof(out));
	if (rc) {
		/* after a timeout the firmware may still own the ring */
		if (!b->dead)
			froce_win_free(&b->win, cq->ring);
		free(cq);
		return rc;
	}
	cq->cqn = GET_DW(out, FROCE_CMD_CREATE_CQ_OUT_CQN);
	*cqp = cq;
	return 0;
}

int froce_board_destroy_cq(struct froce_board *b, struct froce_board_cq *cq)
{
	uint8_t in[FROCE_CMD_DESTROY_CQ_IN_SIZE] = { 0 };
	int rc;

	for (const struct froce_board_qp *qp = b->qps; qp; qp = qp->next)
		if (qp->send_cq == cq || qp->recv_cq == cq)
			return set_err(b, -EBUSY, "CQ %#x: QP %#x still uses it", cq->cqn, qp->qpn);
	SET_DW(in, FROCE_CMD_DESTROY_CQ_IN_CQN, cq->cqn);
	rc = froce_board_cmd(b, FROCE_CMD_DESTROY_CQ, in, sizeof(in), NULL, 0);
	if (rc)
		return rc;
	froce_win_free(&b->win, cq->ring);
	free(cq);
	return 0;
}

/* ---- QPs ---- */

static int alloc_db_slot(struct froce_board *b, unsigned int *slot)
{
	for (unsigned int s = 0; s < FROCE_UAR_DB_SLOTS; s++) {
		if (b->db_used[s / 64] & (uint64_t)1 << (s % 64))
			continue;
		b->db_used[s / 64] |= (uint64_t)1 << (s % 64);
		*slot = s;
		return 0;
	}
	return set_err(b, -ENOMEM, "all %u doorbell slots of UAR page 0 are in use", FROCE_UAR_DB_SLOTS);
}

static void free_db_slot(struct froce_board *b, unsigned int slot)
{
	b->db_used[slot / 64] &= ~((uint64_t)1 << (slot % 64));
}

/* sizes, wr_id array, ring and doorbell slot of a work queue for wr WQEs of
 * wqe_bytes each; on failure nothing stays allocated */
static int wq_init(struct froce_board *b, struct froce_board_wq *wq, const char *what, uint32_t wr, uint32_t sge,
		   uint64_t wqe_bytes)
{
	int rc;

	wq->log_size = log2_ceil(wr);
	wq->wqe_shift = log2_ceil(wqe_bytes);
	if (wq->wqe_shift < FROCE_WQE_SHIFT_MIN)
		wq->wqe_shift = FROCE_WQE_SHIFT_MIN;
	wq->max_sge = sge;
	if (wq->wqe_shift > FROCE_WQE_SHIFT_MAX)
		return set_err(b, -EINVAL, "%s: %u SGEs do not fit the largest WQE (%u bytes)", what, sge,
			       1u << FROCE_WQE_SHIFT_MAX);
	wq->wrid = calloc((size_t)1 << wq->log_size, sizeof(*wq->wrid));
	if (!wq->wrid)
		return set_err(b, -ENOMEM, "%s: out of memory", what);
	/* no need to zero the ring: the NIC reads only WQEs below the
	 * doorbell's producer index, all written by then */
	rc = froce_board_mem_alloc(b, page_round((uint64_t)1 << (wq->log_size + wq->wqe_shift)), RING_PAGE, what,
				   &wq->ring);
	if (!rc) {
		rc = alloc_db_slot(b, &wq->db_slot);
		if (rc)
			froce_win_free(&b->win, wq->ring);
	}
	if (rc) {
		free(wq->wrid);
		wq->wrid = NULL;
	}
	return rc;
}

/* undoes wq_init(); keep_ring: the firmware may still use the ring (a
 * command timed out), leave it allocated */
static void wq_release(struct froce_board *b, struct froce_board_wq *wq, bool keep_ring)
{
	free_db_slot(b, wq->db_slot);
	if (!keep_ring)
		froce_win_free(&b->win, wq->ring);
	free(wq->wrid);
	wq->wrid = NULL;
}

static uint32_t wq_pages(const struct froce_board_wq *wq)
{
	return (uint32_t)(page_round((uint64_t)1 << (wq->log_size + wq->wqe_shift)) >> RING_PAGE_SHIFT);
}

int froce_board_create_qp(struct froce_board *b, const struct froce_board_qp_init *init,
			  struct froce_board_qp **qpp)
{
	const struct froce_board_caps *c = &b->caps;
	uint8_t in[FROCE_CMD_CREATE_QP_IN_SIZE] = { 0 };
	uint8_t out[FROCE_CMD_CREATE_QP_OUT_SIZE];
	struct froce_board_qp *qp;
	uint32_t bad = 0;
	int rc;

	*qpp = NULL;
	if (!init->send_cq || !init->recv_cq)
		return set_err(b, -EINVAL, "QP: a send and a receive CQ are needed");
	if (!init->max_send_wr || !init->max_recv_wr || init->max_send_wr > c->max_qp_wr ||
	    init->max_recv_wr > c->max_qp_wr)
		return set_err(b, -EINVAL, "QP: %u send and %u receive WRs: the firmware allows 1 to %u each",
			       init->max_send_wr, init->max_recv_wr, c->max_qp_wr);
	if (init->max_send_sge > c->max_send_sge || init->max_recv_sge > c->max_recv_sge)
		return set_err(b, -EINVAL, "QP: %u send and %u receive SGEs: the firmware allows %u and %u",
			       init->max_send_sge, init->max_recv_sge, c->max_send_sge, c->max_recv_sge);
	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return set_err(b, -ENOMEM, "QP: out of memory");
	qp->send_cq = init->send_cq;
	qp->recv_cq = init->recv_cq;
	rc = wq_init(b, &qp->sq, "SQ ring", init->max_send_wr, init->max_send_sge,
		     FROCE_WQE_CTRL_SIZE + (uint64_t)init->max_send_sge * FROCE_WQE_DATA_SIZE);
	if (rc)
		goto err_free;
	rc = wq_init(b, &qp->rq, "RQ ring", init->max_recv_wr, init->max_recv_sge,
		     FROCE_RQ_WQE_HDR_SIZE + (uint64_t)init->max_recv_sge * FROCE_WQE_DATA_SIZE);
	if (rc)
		goto err_sq;

#define IN(F) FROCE_CMD_CREATE_QP_IN_##F
	PUT_DW(in, IN(TYPE), FROCE_QP_TYPE_RC, bad);
	PUT_DW(in, IN(PDN), init->pdn, bad);
	PUT_DW(in, IN(SEND_CQN), init->send_cq->cqn, bad);
	PUT_DW(in, IN(RECV_CQN), init->recv_cq->cqn, bad);
	PUT_DW(in, IN(LOG_SQ_SIZE), qp->sq.log_size, bad);
	PUT_DW(in, IN(SQ_WQE_SHIFT), qp->sq.wqe_shift, bad);
	PUT_DW(in, IN(LOG_RQ_SIZE), qp->rq.log_size, bad);
	PUT_DW(in, IN(RQ_WQE_SHIFT), qp->rq.wqe_shift, bad);
	/* PRIV, SIG_ALL and UAR stay 0: signalled per WQE, doorbells on UAR page 0 */
	enc_buf(in, 8 * IN(SQ_BUF_ADDR_QW), qp->sq.ring, wq_pages(&qp->sq), RING_PAGE_SHIFT);
	enc_buf(in, 8 * IN(RQ_BUF_ADDR_QW), qp->rq.ring, wq_pages(&qp->rq), RING_PAGE_SHIFT);
#undef IN
	rc = bad ? enc_failed(b, FROCE_CMD_CREATE_QP, bad)
		 : froce_board_cmd(b, FROCE_CMD_CREATE_QP, in, sizeof(in), out, sizeof(out));
	if (rc)
		goto err_rq;
	qp->qpn = GET_DW(out, FROCE_CMD_CREATE_QP_OUT_QPN);
	qp->next = b->qps;
	b->qps = qp;
	*qpp = qp;
	return 0;

err_rq:
	wq_release(b, &qp->rq, b->dead);
err_sq:
	wq_release(b, &qp->sq, b->dead);
err_free:
	free(qp);
	return rc;
}

int froce_board_modify_qp(struct froce_board *b, struct froce_board_qp *qp, const struct froce_board_qp_attr *a)
{
	uint8_t in[FROCE_CMD_MODIFY_QP_IN_SIZE];
	uint32_t bad_off;
	int rc = froce_board_enc_modify_qp(in, qp->qpn, a, &bad_off);

	if (rc == -EOPNOTSUPP)
		return set_err(b, rc, "MODIFY_QP %#x: attribute mask %#x has bits this library does not encode",
			       qp->qpn, a->mask);
	if (rc)
		return set_err(b, rc, "MODIFY_QP %#x: a value does not fit its field at input byte %u", qp->qpn,
			       bad_off);
	return froce_board_cmd(b, FROCE_CMD_MODIFY_QP, in, sizeof(in), NULL, 0);
}

int froce_board_destroy_qp(struct froce_board *b, struct froce_board_qp *qp)
{
	uint8_t in[FROCE_CMD_DESTROY_QP_IN_SIZE] = { 0 };
	struct froce_board_qp **pp;
	int rc;

	SET_DW(in, FROCE_CMD_DESTROY_QP_IN_QPN, qp->qpn);
	rc = froce_board_cmd(b, FROCE_CMD_DESTROY_QP, in, sizeof(in), NULL, 0);
	if (rc)
		return rc;
	for (pp = &b->qps; *pp; pp = &(*pp)->next) {
		if (*pp == qp) {
			*pp = qp->next;
			break;
		}
	}
	wq_release(b, &qp->sq, false);
	wq_release(b, &qp->rq, false);
	free(qp);
	return 0;
}

/* ---- posting ---- */

/* n WQE images (n << wqe_shift bytes) into the ring from producer index pi:
 * one run up to the ring's end, then one from its start */
static int write_wqes(struct froce_board *b, const struct froce_board_wq *wq, const uint8_t *img, unsigned int n)
{
	const uint32_t size = 1u << wq->log_size, slot = wq->pi & (size - 1);
	const unsigned int first = n < size - slot ? n : size - slot;
	int rc;

	rc = froce_board_mem_write(b, wq->ring + ((uint64_t)slot << wq->wqe_shift), img,
				   (size_t)first << wq->wqe_shift);
	if (!rc && n > first)
		rc = froce_board_mem_write(b, wq->ring, img + ((size_t)first << wq->wqe_shift),
					   (size_t)(n - first) << wq->wqe_shift);
	return rc;
}

/* the WQEs are in the RAM (their MEM_WRs were answered): ring the doorbell
 * with the new producer index */
static int ring_db(struct froce_board *b, const struct froce_board_qp *qp, const struct froce_board_wq *wq,
		   unsigned int type, uint32_t pi)
{
	/* UAR page 0 starts at BAR2 offset 0 */
	int rc = froce_link_db_write64(b->link, wq->db_slot * FROCE_DB_QP_SIZE, froce_board_db_qp(qp->qpn, type, pi));

	return rc ? set_err(b, rc, "doorbell of QP %#x: %s", qp->qpn, froce_link_errmsg(b->link)) : 0;
}

static int wq_room(struct froce_board *b, const struct froce_board_qp *qp, const struct froce_board_wq *wq,
		   const char *what, unsigned int n)
{
	const uint32_t used = wq->pi - wq->ci, size = 1u << wq->log_size;

	if (n > size - used)
		return set_err(b, -ENOMEM, "%s of QP %#x: %u of %u WQEs outstanding, no room for %u more", what,
			       qp->qpn, used, size, n);
	return 0;
}

int froce_board_post_send(struct froce_board *b, struct froce_board_qp *qp, const struct froce_board_send_wr *wr,
			  unsigned int n)
{
	struct froce_board_wq *sq = &qp->sq;
	const uint32_t mask = (1u << sq->log_size) - 1;
	uint8_t *img;
	int rc;

	if (!n)
		return 0;
	rc = wq_room(b, qp, sq, "SQ", n);
	if (rc)
		return rc;
	img = malloc((size_t)n << sq->wqe_shift);
	if (!img)
		return set_err(b, -ENOMEM, "post_send: out of memory");
	for (unsigned int i = 0; i < n; i++) {
		if (wr[i].num_sge > sq->max_sge ||
		    froce_board_build_send_wqe(img + ((size_t)i << sq->wqe_shift), sq->wqe_shift,
					       (uint16_t)(sq->pi + i), wr[i].signaled, wr[i].sg_list,
					       wr[i].num_sge)) {
			free(img);
			return set_err(b, -EINVAL, "post_send on QP %#x: %u SGEs, the SQ takes %u", qp->qpn,
				       wr[i].num_sge, sq->max_sge);
		}
	}
	rc = write_wqes(b, sq, img, n);
	free(img);
	if (!rc)
		rc = ring_db(b, qp, sq, FROCE_DB_TYPE_SQ, sq->pi + n);
	if (rc)
		return rc;
	for (unsigned int i = 0; i < n; i++)
		sq->wrid[(sq->pi + i) & mask] = wr[i].wr_id;
	sq->pi += n;
	return 0;
}

int froce_board_post_recv(struct froce_board *b, struct froce_board_qp *qp, const struct froce_board_recv_wr *wr,
			  unsigned int n)
{
	struct froce_board_wq *rq = &qp->rq;
	const uint32_t mask = (1u << rq->log_size) - 1;
	uint8_t *img;
	int rc;

	if (!n)
		return 0;
	rc = wq_room(b, qp, rq, "RQ", n);
	if (rc)
		return rc;
	img = malloc((size_t)n << rq->wqe_shift);
	if (!img)
		return set_err(b, -ENOMEM, "post_recv: out of memory");
	for (unsigned int i = 0; i < n; i++) {
		if (wr[i].num_sge > rq->max_sge ||
		    froce_board_build_recv_wqe(img + ((size_t)i << rq->wqe_shift), rq->wqe_shift,
					       (uint16_t)(rq->pi + i), wr[i].sg_list, wr[i].num_sge)) {
			free(img);
			return set_err(b, -EINVAL, "post_recv on QP %#x: %u SGEs, the RQ takes %u", qp->qpn,
				       wr[i].num_sge, rq->max_sge);
		}
	}
	rc = write_wqes(b, rq, img, n);
	free(img);
	if (!rc)
		rc = ring_db(b, qp, rq, FROCE_DB_TYPE_RQ, rq->pi + n);
	if (rc)
		return rc;
	for (unsigned int i = 0; i < n; i++)
		rq->wrid[(rq->pi + i) & mask] = wr[i].wr_id;
	rq->pi += n;
	return 0;
}

/* ---- completions ---- */

static struct froce_board_qp *find_qp(const struct froce_board *b, uint32_t qpn)
{
	for (struct froce_board_qp *qp = b->qps; qp; qp = qp->next)
		if (qp->qpn == qpn)
			return qp;
	return NULL;
}

/*
 * A CQE into wc: 1, or 0 if it completes nothing (its QP is gone, or an SQ
 * index that is not outstanding: the provider drops those too), or -EPROTO
 * for a receive completion with no receive posted.
 */
static int cqe_to_wc(struct froce_board *b, const struct froce_board_cqe *c, struct froce_board_wc *wc)
{
	struct froce_board_qp *qp = find_qp(b, c->qpn);
	struct froce_board_wq *wq;

	if (!qp)
		return 0;
	wc->qpn = c->qpn;
	wc->opcode = c->opcode;
	wc->status = c->status;
	wc->vendor_err = c->vendor_err;
	wc->byte_len = c->byte_cnt;
	if (c->opcode & CQE_OP_RECV_SIDE) {
		/* receives complete in order */
		wq = &qp->rq;
		if (wq->ci == wq->pi)
			return set_err(b, -EPROTO, "QP %#x: a receive completion (WQE %u) with no receive posted",
				       qp->qpn, c->wqe_index);
		wc->wr_id = wq->wrid[wq->ci & ((1u << wq->log_size) - 1)];
		wq->ci++;
	} else {
		/* a send CQE completes its WQE and the unsignalled ones before it */
		const uint32_t delta = (uint16_t)(c->wqe_index - (uint16_t)qp->sq.ci);

		wq = &qp->sq;
		if (delta >= wq->pi - wq->ci)
			return 0;
		wc->wr_id = wq->wrid[c->wqe_index & ((1u << wq->log_size) - 1)];
		wq->ci += delta + 1;
	}
	return 1;
}

int froce_board_poll_cq(struct froce_board *b, struct froce_board_cq *cq, struct froce_board_wc *wc,
			unsigned int max)
{
	uint8_t buf[CQ_READ_MAX * FROCE_CQE_SIZE];
	const uint32_t size = 1u << cq->log_size;
	unsigned int done = 0;

	while (done < max) {
		const uint32_t slot = cq->ci & (size - 1), room = size - slot;
		unsigned int take = cq->seen, look;
		int rc;

		if (take > max - done)
			take = max - done;
		if (take > room)
			take = room;
		if (take > CQ_READ_MAX)
			take = CQ_READ_MAX;
		/* one slot more to learn its OWNER, unless it is known already
		 * or not in this run of the ring */
		look = cq->seen == take && take < room && take < CQ_READ_MAX;
		rc = froce_board_mem_read(b, cq->ring + (uint64_t)slot * FROCE_CQE_SIZE, buf,
					  (size_t)(take + look) * FROCE_CQE_SIZE);
		if (rc)
			return rc;
		for (unsigned int i = 0; i < take; i++) {
			struct froce_board_cqe c;

			froce_board_cqe_decode(buf + (size_t)i * FROCE_CQE_SIZE, &c);
			cq->ci++;
			cq->seen--;
			rc = cqe_to_wc(b, &c, &wc[done]);
			if (rc < 0)
				return rc;
			done += (unsigned int)rc;
		}
		if (look && froce_board_cqe_owned(buf + (size_t)take * FROCE_CQE_SIZE, cq->ci, cq->log_size))
			cq->seen = 1;
		/* taken some, or learned nothing new: the caller polls again */
		if (take || !cq->seen)
			break;
	}
	return (int)done;
}
