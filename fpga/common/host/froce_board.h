/* SPDX-License-Identifier: MIT */
/*
 * froce_board: a user-space driver for a froce board without PCIe, on top of
 * the UART host link (froce_uart_link.h). It does what driver/ and provider/
 * do on a PCIe host, with the same formats (include/froce_hw.h) and the same
 * semantics, for programs that run RC QPs on the board from the PC:
 *
 *   - probe: identity checks, DEV_CTRL.RESET and DEV_STATUS.READY, the
 *     firmware mailbox (a 4 KiB command block in the host-memory window,
 *     CMD_ADDR, CMD_DOORBELL, DONE polled in the block), QUERY_FW and
 *     QUERY_CAPS;
 *   - port and GID table (SET_PORT, ADD_GID, QUERY_PORT), PDs, MRs, CQs and
 *     RC QPs with their rings in the window, MODIFY_QP;
 *   - post SEND and RECV WQEs (one MEM_WR per run of WQEs, one doorbell),
 *     poll CQEs with the owner-bit rule.
 *
 * The window is the board's "host memory": [mem_base, mem_base + mem_size)
 * of the link's INFO, 64 KiB on the ECPIX-5. Rings, the command block and
 * data buffers are carved out of it with a first-fit allocator; an
 * allocation that does not fit fails with a message saying how much is
 * left. Queues use UAR page 0 (the kernel's page on a PCIe host: this
 * program is the only driver of the board), CQs hang off EQ 0 and are never
 * armed: completions are polled, no interrupt is needed.
 *
 * Every function returns 0 (or a count) or a negative errno and leaves a
 * message for froce_board_errmsg(). Errors of the link are passed on with
 * the link's message (froce_uart_link.h lists them); the firmware's
 * command statuses become the errno of FROCE_CMD_STATUS_LIST. A command that
 * times out leaves the mailbox dead (the firmware may still own the block):
 * every later command fails at once with -EIO, as in the kernel driver; so
 * does a link failure after the doorbell (the command may be running).
 *
 * Cost on the link (each request is 50-100 us on a 3 Mbaud UART plus the
 * USB round trip): a command is one MEM_WR, one BAR0 write, one 8-byte
 * MEM_RD per look at DONE and one MEM_RD of its output; posting n WQEs is
 * one MEM_WR per 256 bytes of WQEs plus one doorbell; polling an empty CQ
 * is one 32-byte MEM_RD, a completion one or two more (see
 * froce_board_poll_cq()).
 *
 * Not thread-safe: one caller per board (and per link).
 */
#ifndef FROCE_BOARD_H
#define FROCE_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "froce_uart_link.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the host-memory window allocator (pure; unit-tested) ---- */

#define FROCE_WIN_MAX_BLOCKS 32

struct froce_win {
	uint64_t base;			/* DMA address of the window */
	uint64_t size;			/* bytes */
	unsigned int n;			/* blocks in use, sorted by address */
	struct {
		uint64_t addr;
		uint64_t len;
	} blk[FROCE_WIN_MAX_BLOCKS];
};

void froce_win_init(struct froce_win *w, uint64_t base, uint64_t size);
/*
 * The lowest free block of len bytes at a multiple of align (a power of two;
 * absolute addresses). -EINVAL for len 0 or a bad align, -ENOMEM when
 * nothing fits or all FROCE_WIN_MAX_BLOCKS blocks are in use.
 */
int froce_win_alloc(struct froce_win *w, uint64_t len, uint64_t align, uint64_t *addr);
/* Frees the block starting at addr; -ENOENT if no block starts there. */
int froce_win_free(struct froce_win *w, uint64_t addr);
/* Bytes in use. */
uint64_t froce_win_used(const struct froce_win *w);
/* The largest block at a multiple of align that would still fit. */
uint64_t froce_win_largest(const struct froce_win *w, uint64_t align);

/* ---- formats (pure; unit-tested against include/froce_hw.h) ---- */

/* MAC address (wire order) as the 48-bit number the hardware takes. */
uint64_t froce_board_mac_u64(const uint8_t mac[6]);
/* The RoCE v2 GID of an IPv4 address: ::ffff:a.b.c.d (wire order). */
void froce_board_gid_ipv4(uint8_t gid[16], const uint8_t ip[4]);
/* gid is ::ffff:a.b.c.d */
bool froce_board_gid_is_ipv4(const uint8_t gid[16]);

/* The names of a command, a command status, a CQE status (FROCE_WC_*) and
 * a vendor error (FROCE_VENDOR_ERR_*); "unknown" for values not in the
 * spec. */
const char *froce_board_cmd_name(uint16_t opcode);
const char *froce_board_cmd_status_name(uint8_t status);
const char *froce_board_wc_status_name(uint8_t status);
const char *froce_board_vendor_err_name(uint8_t vendor_err);
/* 0 for OK, the spec's errno negated otherwise, -EIO for unknown values. */
int froce_board_cmd_status_errno(uint8_t status);

/* A scatter/gather element: window address, length, lkey. */
struct froce_board_sge {
	uint64_t addr;
	uint32_t len;
	uint32_t lkey;
};

/*
 * The SQ WQE of a SEND into a slot of 2^wqe_shift bytes (written whole):
 * WQE_CTRL with DS, WQE_INDEX and SIGNALED, then one WQE_DATA per SGE.
 * -EINVAL if the WQE does not fit the slot.
 */
int froce_board_build_send_wqe(void *slot, unsigned int wqe_shift, uint16_t wqe_index, bool signaled,
			 const struct froce_board_sge *sg, unsigned int num_sge);
/* The RQ WQE: RQ_WQE_HDR, then one WQE_DATA per SGE. -EINVAL if too big. */
int froce_board_build_recv_wqe(void *slot, unsigned int wqe_shift, uint16_t wqe_index,
			 const struct froce_board_sge *sg, unsigned int num_sge);
/* DB_QP value of an SQ or RQ doorbell (type FROCE_DB_TYPE_SQ/RQ). */
uint64_t froce_board_db_qp(uint32_t qpn, unsigned int type, uint32_t pi);

/* The fields of a CQE the verbs need. */
struct froce_board_cqe {
	uint32_t qpn;
	uint8_t opcode;			/* FROCE_CQE_OP_*; bit 7: receive side */
	uint16_t wqe_index;
	uint8_t status;			/* FROCE_WC_* */
	uint8_t vendor_err;		/* FROCE_VENDOR_ERR_* */
	uint32_t byte_cnt;
};

/* CQE at consumer index ci of a ring of 2^log_size is valid (OWNER rule). */
bool froce_board_cqe_owned(const void *cqe, uint32_t ci, unsigned int log_size);
void froce_board_cqe_decode(const void *cqe, struct froce_board_cqe *c);

/* Address vector of a connected QP (QPATTR AV_*). */
struct froce_board_av {
	uint8_t sgid_index;
	uint8_t hop_limit;
	uint8_t tclass;
	uint8_t net_type;		/* FROCE_KIND_ROCE_* */
	uint32_t flow_label;
	uint16_t udp_sport;		/* 0: the hardware picks */
	uint8_t dmac[6];		/* next hop, wire order */
	uint8_t dgid[16];		/* wire order */
};

/* MODIFY_QP attributes: fields selected by mask (FROCE_QP_ATTR_*), values of
 * FROCE_QP_STATE_*, FROCE_MTU_*, FROCE_ACCESS_* (ib core's numbers). */
struct froce_board_qp_attr {
	uint32_t mask;
	uint8_t state;
	uint8_t path_mtu;
	uint8_t access;
	uint8_t port;
	uint16_t pkey_index;
	uint32_t qkey;
	uint32_t rq_psn;
	uint32_t sq_psn;
	uint32_t dest_qpn;
	uint8_t timeout;
	uint8_t retry_cnt;
	uint8_t rnr_retry;
	uint8_t min_rnr_timer;
	uint8_t max_rd_atomic;
	uint8_t max_dest_rd_atomic;
	struct froce_board_av av;
};

/*
 * MODIFY_QP input (FROCE_CMD_MODIFY_QP_IN_SIZE bytes, zeroed here): only the
 * fields the mask selects. -EOPNOTSUPP for a mask bit this library does not
 * encode (CUR_STATE, EN_SQD_ASYNC_NOTIFY), -EINVAL for a value that does not
 * fit its field (its byte offset in *bad_off).
 */
int froce_board_enc_modify_qp(void *in, uint32_t qpn, const struct froce_board_qp_attr *a, uint32_t *bad_off);

/* ---- the board ---- */

struct froce_board;

struct froce_board_opts {
	unsigned int ready_timeout_ms;	/* DEV_STATUS.READY after a reset */
	unsigned int cmd_timeout_ms;	/* DONE of a firmware command */
};

/* The kernel driver's defaults: 10000 ms for READY, 5000 ms per command.
 * A simulated board needs far more (its firmware boots in simulated time). */
void froce_board_opts_init(struct froce_board_opts *opts);

/* QUERY_FW */
struct froce_board_fw {
	uint8_t major;
	uint8_t minor;
	uint16_t patch;
	uint32_t spec_hash;
	uint32_t build_id;
};

/* QUERY_CAPS, the fields this library uses */
struct froce_board_caps {
	uint32_t max_qp;
	uint32_t max_cq;
	uint32_t max_pd;
	uint32_t max_mr;
	uint32_t max_cqe;
	uint32_t max_qp_wr;
	uint32_t max_send_sge;
	uint32_t max_recv_sge;
	uint32_t num_gid;
	uint32_t max_qp_rd_atom;
	uint8_t max_mtu;		/* FROCE_MTU_* */
	uint32_t max_msg_sz;
	uint64_t max_mr_size;
};

/* QUERY_PORT */
struct froce_board_port {
	uint8_t state;			/* FROCE_PORT_STATE_* */
	uint8_t active_mtu;		/* FROCE_MTU_* of the Ethernet MTU */
	uint8_t speed_gbps;
	uint16_t mtu;			/* Ethernet MTU (SET_PORT) */
	uint8_t mac[6];
};

/*
 * Probe the board behind an open link (which stays the caller's; close it
 * after froce_board_close()): check BAR0 ID, HW_VERSION and SPEC_HASH
 * against froce_hw.h and SCRATCH, wait for READY, reset the device
 * (DEV_CTRL.RESET: whatever an earlier program left goes) and wait for
 * READY again, put the command block in the window, read the firmware's
 * identity (its spec hash must be ours) and capabilities. opts may be NULL.
 * On failure *board is NULL and err (if not NULL) holds a message.
 */
int froce_board_open(struct froce_board **board, struct froce_link *link, const struct froce_board_opts *opts,
		     char *err, size_t errlen);
/* Frees the host side. The board keeps running; the next open resets it. */
void froce_board_close(struct froce_board *b);

/* The message of the last failed call. */
const char *froce_board_errmsg(const struct froce_board *b);
const struct froce_board_fw *froce_board_fw(const struct froce_board *b);
const struct froce_board_caps *froce_board_caps(const struct froce_board *b);
/* The window allocator (what is used and where). */
const struct froce_win *froce_board_win(const struct froce_board *b);

/*
 * One firmware command: in_len bytes of input (<= FROCE_MBOX_IN_MAX),
 * out_len bytes of output copied to out on success. The status's errno on a
 * refusal (the message names the command, the status and the syndrome),
 * -ETIMEDOUT when DONE does not come in cmd_timeout_ms (the mailbox is dead
 * from then on: -EIO).
 */
int froce_board_cmd(struct froce_board *b, uint16_t opcode, const void *in, uint32_t in_len, void *out,
		    uint32_t out_len);

int froce_board_query_port(struct froce_board *b, struct froce_board_port *port);
/* SET_PORT: station MAC (the receive filter: RoCE is taken only for it) and
 * Ethernet MTU of port 1; no promiscuous or all-multicast mode. */
int froce_board_set_port(struct froce_board *b, const uint8_t mac[6], uint16_t eth_mtu);
/* ADD_GID: entry index of type FROCE_GID_TYPE_*, sent from smac, no VLAN. */
int froce_board_add_gid(struct froce_board *b, uint8_t index, uint8_t type, const uint8_t gid[16],
			const uint8_t smac[6]);

int froce_board_alloc_pd(struct froce_board *b, uint32_t *pdn);
int froce_board_dealloc_pd(struct froce_board *b, uint32_t pdn);

/* Window memory for data buffers; what names it in error messages. */
int froce_board_mem_alloc(struct froce_board *b, uint64_t len, uint64_t align, const char *what, uint64_t *addr);
int froce_board_mem_free(struct froce_board *b, uint64_t addr);
int froce_board_mem_write(struct froce_board *b, uint64_t addr, const void *buf, size_t len);
int froce_board_mem_read(struct froce_board *b, uint64_t addr, void *buf, size_t len);

/* An MR over [addr, addr + len) of the window; IOVA = the window address. */
struct froce_board_mr {
	uint64_t addr;
	uint64_t len;
	uint32_t lkey;
	uint32_t rkey;
};

int froce_board_reg_mr(struct froce_board *b, uint32_t pdn, uint64_t addr, uint64_t len, uint8_t access,
		       struct froce_board_mr *mr);
int froce_board_dereg_mr(struct froce_board *b, const struct froce_board_mr *mr);

/* A CQ: its ring in the window; the caller reads cqn and log_size only. */
struct froce_board_cq {
	uint32_t cqn;
	unsigned int log_size;
	uint64_t ring;			/* window address, zeroed at creation */
	uint32_t ci;			/* CQEs consumed (free-running) */
	unsigned int seen;		/* slots from ci whose OWNER was seen valid */
};

/* A work queue of a QP. */
struct froce_board_wq {
	uint64_t ring;			/* window address */
	unsigned int log_size;
	unsigned int wqe_shift;
	uint32_t max_sge;
	uint32_t pi;			/* WQEs posted (free-running) */
	uint32_t ci;			/* WQEs completed (free-running) */
	unsigned int db_slot;		/* doorbell slot in UAR page 0 */
	uint64_t *wrid;			/* wr_id per slot */
};

/* An RC QP; the caller reads qpn only. */
struct froce_board_qp {
	uint32_t qpn;
	struct froce_board_wq sq;
	struct froce_board_wq rq;
	struct froce_board_cq *send_cq;
	struct froce_board_cq *recv_cq;
	struct froce_board_qp *next;	/* the board's list, for CQE -> QP */
};

struct froce_board_qp_init {
	uint32_t pdn;
	struct froce_board_cq *send_cq;
	struct froce_board_cq *recv_cq;
	uint32_t max_send_wr;		/* rounded up to a power of two */
	uint32_t max_recv_wr;
	uint32_t max_send_sge;
	uint32_t max_recv_sge;
};

/* A CQ of at least entries CQEs (a power of two, 2 or more). */
int froce_board_create_cq(struct froce_board *b, uint32_t entries, struct froce_board_cq **cq);
/* Fails (-EBUSY) while a QP uses it. The ring is freed only if the firmware
 * let the CQ go. */
int froce_board_destroy_cq(struct froce_board *b, struct froce_board_cq *cq);

/* An RC QP in RESET, signalled per WQE (not SIG_ALL). */
int froce_board_create_qp(struct froce_board *b, const struct froce_board_qp_init *init,
			  struct froce_board_qp **qp);
int froce_board_modify_qp(struct froce_board *b, struct froce_board_qp *qp, const struct froce_board_qp_attr *a);
int froce_board_destroy_qp(struct froce_board *b, struct froce_board_qp *qp);

struct froce_board_send_wr {
	uint64_t wr_id;
	const struct froce_board_sge *sg_list;
	unsigned int num_sge;
	bool signaled;
};

struct froce_board_recv_wr {
	uint64_t wr_id;
	const struct froce_board_sge *sg_list;
	unsigned int num_sge;
};

/* Post n SENDs / n RECVs: the WQEs in as few MEM_WRs as the ring allows,
 * then one doorbell. -ENOMEM if the queue has no room for all n (nothing is
 * posted), -EINVAL for a WQE that does not fit. */
int froce_board_post_send(struct froce_board *b, struct froce_board_qp *qp, const struct froce_board_send_wr *wr,
			  unsigned int n);
int froce_board_post_recv(struct froce_board *b, struct froce_board_qp *qp, const struct froce_board_recv_wr *wr,
			  unsigned int n);

/* A completion. */
struct froce_board_wc {
	uint64_t wr_id;
	uint32_t qpn;
	uint8_t opcode;			/* FROCE_CQE_OP_* */
	uint8_t status;			/* FROCE_WC_* */
	uint8_t vendor_err;		/* FROCE_VENDOR_ERR_* */
	uint32_t byte_len;
};

/*
 * Up to max completions into wc; returns how many (0: none yet) or a
 * negative errno. The link reads the window one 64-bit word at a time
 * while the NIC's DMA may be writing it, so a CQE read in the same MEM_RD
 * as its OWNER word can be torn: a CQE is taken only from a read issued
 * after its OWNER was seen valid. Each read fetches the slots already seen
 * plus one, whose OWNER it learns: an empty CQ costs one 32-byte MEM_RD, a
 * burst of k completions k + 1 reads.
 */
int froce_board_poll_cq(struct froce_board *b, struct froce_board_cq *cq, struct froce_board_wc *wc,
			unsigned int max);

#ifdef __cplusplus
}
#endif

#endif /* FROCE_BOARD_H */
