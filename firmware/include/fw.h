/* SPDX-License-Identifier: MIT */
/*
 * fw.h - the froce firmware's state and entry points (shared by the RV32
 * image, the native unit tests and the fuzz target).
 *
 * All bookkeeping lives in `fw` and in the arena it points into, so a test can
 * snapshot the firmware's whole state as two byte ranges.
 */
#ifndef FW_H
#define FW_H

#include <stdbool.h>
#include <stdint.h>

#include "froce_hw.h"
#include "fw_hal.h"

#define FW_VERSION_MAJOR 0
#define FW_VERSION_MINOR 1
#define FW_VERSION_PATCH 0
#ifndef FW_BUILD_ID
#define FW_BUILD_ID 0
#endif

/* Limits the firmware chooses (reported by QUERY_CAPS). */
#define FW_CQ_LOG_MAX 16	/* 65536 CQEs */
#define FW_QP_LOG_MAX 15	/* 32768 WQEs, MAX_QP_WR is 16 bits */
#define FW_EQ_LOG_MIN 6
#define FW_EQ_LOG_MAX 12
#define FW_RING_PAGE_SHIFT 12	/* rings (CQ, QP, EQ) come in 4 KiB pages */
#define FW_ETH_MTU_MIN 68
#define FW_ETH_MTU_MAX 9000
#define FW_ETH_MTU_DEFAULT 1500
#define FW_PORT 1		/* the one port */
#define FW_PDN_RINGS 0		/* PD of the CQ ring MRs; never handed out */
#define FW_MR_RESERVED 0	/* MR index 0 (key 0) is never handed out */
#define FW_MRT_WAIT_POLLS 100000 /* MRT_REGS.BUSY/INIT polls before giving up */

/* SYNDROME of a refusal caused by the command header rather than the input:
 * FW_SYND_HDR | byte offset of the field in MBOX_HDR. */
#define FW_SYND_HDR 0x80000000u
#define FW_SYND_BLOCK_ADDR (FW_SYND_HDR | 0xFFFu) /* CMD_ADDR not 4 KiB aligned */

/* per-object flags */
#define FW_F_USED 0x01
#define FW_F_PRIV 0x02		/* QP: created with PRIV */
#define FW_F_SQD_NOTIFY 0x04	/* QP: EN_SQD_ASYNC_NOTIFY */
#define FW_F_RING 0x08		/* MR: a CQ/QP ring, not the driver's */

struct fw_cq {
	uint32_t ring_mr;	/* MR index of the CQE ring */
	uint16_t uar;
	uint16_t refs;		/* QPs naming it (send and receive count apart) */
	uint8_t eqn;
	uint8_t log_size;
	uint8_t flags;
	uint8_t pad;
};

struct fw_eq {
	uint16_t refs;		/* CQs reporting to it */
	uint8_t log_size;
	uint8_t vector;
	uint8_t flags;
	uint8_t pad[3];
};

struct fw_pd {
	uint16_t uar;		/* owning user context */
	uint16_t refs;		/* MRs and QPs in it */
	uint8_t flags;
	uint8_t pad;
};

struct fw_mr {
	uint32_t mtt_base;
	uint32_t npages;	/* MTT entries owned */
	uint16_t pd;		/* PDN (FW_PDN_RINGS for CQ rings) */
	uint8_t tag;		/* tag of the current (or last) registration */
	uint8_t flags;
};

struct fw_state {
	/* table sizes in use (hardware sizes, clipped to what fits the arena) */
	uint32_t num_qps, num_cqs, num_eqs, num_gids, num_uars, num_pds;
	uint32_t num_mrs, num_mtt, num_vectors, rd_atomic_max;
	/* tables, carved from the platform arena by fw_init */
	uint8_t (*qpc)[FROCE_QPC_SIZE];	/* QPC images as last written, LOAD_* 0 */
	uint8_t *qp_flags;
	struct fw_cq *cq;
	struct fw_eq *eq;
	struct fw_pd *pd;
	struct fw_mr *mr;
	uint32_t *mtt_used;		/* bitmap, num_mtt bits */
	uint8_t (*gid)[FROCE_GID_CTX_SIZE];	/* GID_CTX images */
	uint8_t *arena;
	uint32_t arena_used;
	/* port */
	uint64_t mac;
	uint32_t mtu;
	uint8_t promisc, allmulti, link_up, pad;
	/* QUERY_COUNTERS reports counts since the last CLEAR */
	uint64_t cnt_base[FROCE_CNT_NUM];
	uint32_t heartbeat;
	uint32_t async_dropped;	/* engine events naming no live queue */
	uint32_t eq_dropped;	/* EQEs the event engine refused */
	uint32_t ready;
};

extern struct fw_state fw;

/* Sets up the tables from hal_platform() and MRT_REGS; 0 or -1 (no RAM). */
int fw_init(void);
/* Runs the command whose CMD_DOORBELL value and block address are given:
 * fetch, validate, execute, write output and header, CMD_STATUS, CMD_DONE. */
void fw_mbox_service(uint32_t doorbell, uint64_t block);
/* Engine events and link changes -> EQEs on EQ 0. */
void fw_poll_events(void);
/* One pass of the main loop: a command if one is waiting, events, heartbeat. */
void fw_run_once(void);
/* fw_init, DEV_STATUS.READY, then fw_run_once forever. */
void fw_main(void);

/* The IB modify-QP rule (exposed for the tests): may a QP of type `type`
 * (FROCE_QP_TYPE_*) go from cur to next with attribute mask `mask`? */
bool fw_qp_modify_ok(unsigned cur, unsigned next, unsigned type, uint32_t mask);

/* console */
void fw_puts(const char *s);
void fw_puthex(uint32_t v);

#endif /* FW_H */
