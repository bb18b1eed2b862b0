/* SPDX-License-Identifier: MIT */
/*
 * fw_hal.h - everything the froce firmware needs from the hardware around the
 * soft core. The command handlers call nothing else, so the same source runs
 * on the RV32 core (src/rv32/hal_rv32.c) and natively against a software
 * model (tests/model_hal.c). firmware/README.md, "What the firmware expects
 * from the hardware", describes the peripheral behind each call.
 */
#ifndef FW_HAL_H
#define FW_HAL_H

#include <stdbool.h>
#include <stdint.h>

/* ---- internal control bus of froce_core (spec/device.toml CTL_* map) ----
 * off is a byte offset in the CTL_SPAN window, 4-byte aligned; one 32-bit
 * access, completed (write accepted / read data back) before the call returns
 * and in program order. Contexts are write-only: the firmware keeps its own
 * copies and reads only MRT_REGS and the counter words. */
uint32_t hal_ctl_read32(uint32_t off);
void hal_ctl_write32(uint32_t off, uint32_t val);

/* ---- DMA between host memory and firmware RAM ----
 * len bytes (4..4096, a multiple of 4, may cross host pages) at 64-bit DMA
 * address addr (4-byte aligned), to/from a 4-byte aligned RAM buffer.
 * Returns 0, or -1 when the bus reported an error (nothing is known about
 * which bytes moved). Writes are posted in order: a later write never
 * becomes visible to the host before an earlier one. */
int hal_dma_read(uint64_t addr, void *dst, uint32_t len);
int hal_dma_write(uint64_t addr, const void *src, uint32_t len);

/* ---- event queues ----
 * Hand dwords 0..2 of an EQE (layout EQE; OWNER is the hardware's) to the
 * event engine for EQ eqn: it writes the entry at the EQ's producer index
 * with the owner bit, moves PI and raises the EQ's MSI-X vector if armed.
 * Returns 0, or -1 when the EQ is not enabled or is full (the event is
 * dropped and counted in ICNT_EQ_DROPPED by the engine). */
int hal_eq_post(uint32_t eqn, const uint32_t eqe_dw[3]);

/* ---- firmware mailbox (BAR0 CMD block) ----
 * hal_mbox_poll: true once per CMD_DOORBELL write by the driver; *doorbell =
 * the written value (TOKEN, EVENT), *block = CMD_ADDR_HI:LO at that moment.
 * hal_mbox_status: the value BAR0 CMD_STATUS reads (TOKEN, STATUS, BUSY). */
bool hal_mbox_poll(uint32_t *doorbell, uint64_t *block);
void hal_mbox_status(uint32_t cmd_status);

/* ---- device status (BAR0 ID/CTRL words the firmware owns) ---- */
/* FW_VERSION and DEV_STATUS.READY (set once the firmware takes commands) */
void hal_dev_ready(uint32_t fw_version);
/* BAR0 HEARTBEAT */
void hal_heartbeat(uint32_t count);
/* true about once per millisecond (a free-running timer's tick, read-to-clear) */
bool hal_ms_tick(void);

/* ---- Ethernet port ---- */
/* LINK_STATUS word (UP, SPEED_GBPS), as BAR0 shows it */
uint32_t hal_link_status(void);
/* station MAC (RX filter and netdev source), Ethernet MTU, filter modes */
void hal_port_set(uint64_t mac, uint32_t mtu, bool promisc, bool allmulti);

/* ---- asynchronous events from the engine ----
 * A FIFO of events the transport engine raises about queues (QP moved to
 * error, CQ write failed). true and *ev filled while one is queued. */
struct fw_async_event {
	uint8_t type;		/* FROCE_EQE_TYPE_QP_EVENT or _CQ_ERROR */
	uint8_t subtype;	/* FROCE_QP_EV_* / FROCE_CQ_EV_* */
	uint32_t id;		/* QPN or CQN */
};
bool hal_async_poll(struct fw_async_event *ev);

/* ---- what the platform is made of ----
 * Sizes the firmware cannot read from the control bus (MRT_REGS gives only
 * NUM_MRS/NUM_MTT): RTL parameters, BAR0 UAR_INFO/IRQ_INFO, the permanent
 * MAC, and the RAM left for the firmware's tables. */
struct fw_platform {
	uint32_t num_qps;	/* QPC entries (froce_core NUM_QPS) */
	uint32_t num_cqs;	/* CQC entries */
	uint32_t num_eqs;	/* event queues, EQ 0 included (IRQ_INFO.NUM_EQ) */
	uint32_t num_gids;	/* GID table entries */
	uint32_t num_uars;	/* UAR pages (UAR_INFO.NUM_PAGES) */
	uint32_t num_vectors;	/* MSI-X vectors (IRQ_INFO.NUM_VECTORS) */
	uint32_t num_pds;	/* PDs the firmware hands out (no hardware table) */
	uint32_t rd_atomic_max;	/* READ/atomic WQEs in flight per QP (RD_ATOMIC_MAX) */
	uint64_t perm_mac;	/* BAR0 MAC_HI:MAC_LO */
	void *arena;		/* RAM for the firmware's tables, 4-byte aligned */
	uint32_t arena_bytes;
};
void hal_platform(struct fw_platform *p);

/* ---- console (debug text, no flow control) ---- */
void hal_console_putc(char c);

#endif /* FW_HAL_H */
