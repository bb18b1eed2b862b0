/* SPDX-License-Identifier: MIT */
/*
 * model_hal.h - a software model of the hardware behind fw_hal.h, for the
 * native unit tests and the fuzz target.
 *
 * The control bus is decoded into the context tables the RTL keeps (QPC, CQC,
 * EQC, GID, MR, MTT) with the RTL's write discipline: a context commits on
 * dword 0 (MR: dword 7, MTT: high dword) from dwords staged in one shared
 * register. The model insists that every dword of a context was written
 * since the last commit, to the same context, and aborts on any access
 * outside a table, any unaligned access, any read of a write-only context
 * and any write to a read-only word. Host memory is a sparse set of 4 KiB
 * pages; DMA to an unmapped page fails like a bus error.
 */
#ifndef MODEL_HAL_H
#define MODEL_HAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fw.h"

#define MODEL_MAX_EQES 4096
#define MODEL_MAX_ASYNC 64

struct model_cfg {
	uint32_t num_qps, num_cqs, num_eqs, num_gids, num_uars, num_vectors, num_pds, rd_atomic_max;
	uint32_t num_mrs, num_mtt;	/* what MRT_REGS reports (powers of two) */
	uint32_t arena_bytes;
	uint64_t perm_mac;
	uint32_t link_status;
	unsigned init_busy_reads;	/* MRT_REGS.INIT reads 1 this many times */
};

struct model_eqe {
	uint32_t eqn;
	uint32_t dw[3];
};

struct model {
	struct model_cfg cfg;
	/* tables as the RTL holds them */
	uint8_t *qpc, *cqc, *eqc, *gid, *mr, *mtt;
	uint32_t *qpc_load;	/* LOAD_* bits of each QP's last commit */
	uint32_t *qpc_commits;	/* commits per QP */
	uint64_t counters[FROCE_CNT_NUM];
	int carry_counter;	/* >= 0: this counter gains 1 when its high dword is read first */
	/* staging */
	uint32_t stage[FROCE_QPC_SIZE / 4];
	uint32_t stage_written;	/* bit per staged dword */
	uint32_t stage_base;	/* control offset of the context being staged */
	uint32_t mr_stage[FROCE_MR_CTX_SIZE / 4];
	uint32_t mr_written, mr_index;
	uint32_t mtt_lo;
	int64_t mtt_lo_index;	/* -1: no low dword staged */
	uint64_t ctl_writes, ctl_reads;
	/* MRT_REGS.BUSY: reads 1 for busy_reads more reads, or always if stuck */
	unsigned busy_reads, init_reads;
	bool busy_stuck;
	/* events */
	struct model_eqe eqes[MODEL_MAX_EQES];
	unsigned n_eqes;
	bool eq_refuse;		/* hal_eq_post fails (EQ full) */
	struct fw_async_event async_q[MODEL_MAX_ASYNC];
	unsigned async_head, async_n;
	/* mailbox */
	uint32_t cmd_status;
	unsigned cmd_status_writes;
	bool db_pending;
	uint32_t db_value;
	uint64_t db_block;
	uint32_t fw_version;
	bool ready;
	/* port */
	uint64_t port_mac;
	uint32_t port_mtu;
	bool port_promisc, port_allmulti;
	unsigned port_sets;
	uint32_t link_status;
	unsigned ms_ticks;	/* hal_ms_tick returns true this many times */
	uint32_t heartbeat;
	/* DMA */
	uint64_t dma_reads, dma_writes, dma_errors;
	uint64_t dma_fail_addr;		/* != 0: any transfer covering it fails */
	void (*dma_read_hook)(uint64_t addr, uint32_t len);	/* before each read */
	/* console */
	char console[8192];
	size_t console_n;
	uint8_t *arena;
};

extern struct model M;

void model_init(const struct model_cfg *cfg);
void model_free(void);
/* host memory */
void model_map(uint64_t addr, uint64_t len);	/* zeroed pages covering the range */
void model_unmap(uint64_t addr);		/* the page holding addr */
void model_write(uint64_t addr, const void *src, uint64_t len);	/* must be mapped */
void model_read(uint64_t addr, void *dst, uint64_t len);
void model_write64(uint64_t addr, uint64_t v);
uint64_t model_pages_mapped(void);
void model_async_push(uint8_t type, uint8_t subtype, uint32_t id);

#endif /* MODEL_HAL_H */
