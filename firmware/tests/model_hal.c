/* SPDX-License-Identifier: MIT */
/* Software model of the firmware's hardware (see model_hal.h). */
#include "model_hal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct model M;

static void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "model_hal: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	abort();
}

/* ---- host memory: open-addressed table of 4 KiB pages ----
 * A mapped page reads as zeros until something writes it; its 4 KiB are
 * allocated then (most pages are rings nobody writes: this keeps the model
 * small enough for the RAM of the soft-core run, make unit-rv32). */

#define PAGE_SLOTS 16384
struct mpage {
	uint64_t pfn;
	uint8_t *data;	/* the page's bytes, once written */
	bool mapped;
	bool used;	/* slot ever used (probe chains) */
};
static struct mpage pages[PAGE_SLOTS];
static uint64_t pages_mapped;
static unsigned slots_used;

static struct mpage *page_slot(uint64_t pfn, bool create)
{
	/* xor-fold, no multiply: rv32i has none, the soft-core run calls this a lot */
	uint32_t h = (uint32_t)pfn ^ (uint32_t)(pfn >> 32);

	h = (h ^ h >> 14) & (PAGE_SLOTS - 1);

	for (unsigned n = 0; n < PAGE_SLOTS; n++, h = (h + 1) & (PAGE_SLOTS - 1)) {
		struct mpage *p = &pages[h];

		if (p->used && p->pfn == pfn)
			return p;
		if (!p->used) {
			if (!create)
				return NULL;
			p->used = true;
			p->pfn = pfn;
			slots_used++;
			return p;
		}
	}
	if (create)
		fail("host memory model full");
	return NULL;
}

static struct mpage *page_mapped(uint64_t addr)
{
	struct mpage *p = page_slot(addr >> 12, false);

	return p && p->mapped ? p : NULL;
}

void model_map(uint64_t addr, uint64_t len)
{
	for (uint64_t pfn = addr >> 12; pfn <= (addr + (len ? len - 1 : 0)) >> 12; pfn++) {
		struct mpage *p = page_slot(pfn, true);

		if (!p->mapped) {
			p->mapped = true;
			pages_mapped++;
		}
	}
}

void model_unmap(uint64_t addr)
{
	struct mpage *p = page_slot(addr >> 12, false);

	if (p && p->mapped) {
		free(p->data);
		p->data = NULL;
		p->mapped = false;
		pages_mapped--;
	}
}

uint64_t model_pages_mapped(void)
{
	return pages_mapped;
}

static int host_copy(uint64_t addr, void *buf, uint64_t len, bool write)
{
	uint8_t *b = buf;

	while (len) {
		struct mpage *p = page_mapped(addr);
		uint64_t n = 4096 - (addr & 4095);

		if (n > len)
			n = len;
		if (!p)
			return -1;
		if (write && !p->data) {
			p->data = calloc(1, 4096);
			if (!p->data)
				fail("out of memory for host pages");
		}
		if (write)
			memcpy(p->data + (addr & 4095), b, n);
		else if (p->data)
			memcpy(b, p->data + (addr & 4095), n);
		else
			memset(b, 0, n);
		addr += n;
		b += n;
		len -= n;
	}
	return 0;
}

void model_write(uint64_t addr, const void *src, uint64_t len)
{
	if (host_copy(addr, (void *)src, len, true))
		fail("model_write: %#llx+%llu not mapped", (unsigned long long)addr, (unsigned long long)len);
}

void model_read(uint64_t addr, void *dst, uint64_t len)
{
	if (host_copy(addr, dst, len, false))
		fail("model_read: %#llx+%llu not mapped", (unsigned long long)addr, (unsigned long long)len);
}

void model_write64(uint64_t addr, uint64_t v)
{
	uint8_t b[8];

	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	model_write(addr, b, 8);
}

/* ---- set-up ---- */

void model_free(void)
{
	free(M.qpc);
	free(M.cqc);
	free(M.eqc);
	free(M.gid);
	free(M.mr);
	free(M.mtt);
	free(M.qpc_load);
	free(M.qpc_commits);
	free(M.arena);
	for (unsigned i = 0; slots_used && i < PAGE_SLOTS; i++) {
		if (pages[i].used)
			slots_used--;
		free(pages[i].data);
		pages[i] = (struct mpage){ 0 };
	}
	pages_mapped = 0;
	memset(&M, 0, sizeof M);
}

static void *xcalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p)
		fail("out of memory");
	return p;
}

void model_init(const struct model_cfg *cfg)
{
	model_free();
	M.cfg = *cfg;
	/* a fresh FPGA's RAMs hold junk: the firmware must clear the contexts */
	M.qpc = xcalloc((size_t)cfg->num_qps * FROCE_QPC_SIZE);
	M.cqc = xcalloc((size_t)cfg->num_cqs * FROCE_CQC_SIZE);
	M.eqc = xcalloc((size_t)cfg->num_eqs * FROCE_EQC_SIZE);
	M.gid = xcalloc((size_t)cfg->num_gids * FROCE_GID_CTX_SIZE);
	memset(M.qpc, 0xA5, (size_t)cfg->num_qps * FROCE_QPC_SIZE);
	memset(M.cqc, 0xA5, (size_t)cfg->num_cqs * FROCE_CQC_SIZE);
	memset(M.eqc + FROCE_EQC_SIZE, 0xA5, (size_t)(cfg->num_eqs - 1) * FROCE_EQC_SIZE);
	memset(M.gid, 0xA5, (size_t)cfg->num_gids * FROCE_GID_CTX_SIZE);
	/* the MR table clears itself after reset (MRT_REGS.INIT), the MTT does not */
	M.mr = xcalloc((size_t)cfg->num_mrs * FROCE_MR_CTX_SIZE);
	M.mtt = xcalloc((size_t)cfg->num_mtt * FROCE_MTT_ENTRY_SIZE);
	memset(M.mtt, 0x5A, (size_t)cfg->num_mtt * FROCE_MTT_ENTRY_SIZE);
	M.qpc_load = xcalloc((size_t)cfg->num_qps * 4);
	M.qpc_commits = xcalloc((size_t)cfg->num_qps * 4);
	M.arena = xcalloc(cfg->arena_bytes);
	M.carry_counter = -1;
	M.mtt_lo_index = -1;
	M.stage_base = 0xFFFFFFFFu;
	M.link_status = cfg->link_status;
	M.init_reads = cfg->init_busy_reads;
}

void fw_misaligned(const void *p)
{
	fail("the firmware accessed an image field at %p, not 4-byte aligned", p);
}

void model_async_push(uint8_t type, uint8_t subtype, uint32_t id)
{
	if (M.async_n == MODEL_MAX_ASYNC)
		fail("async queue full");
	M.async_q[(M.async_head + M.async_n++) % MODEL_MAX_ASYNC] = (struct fw_async_event){ type, subtype, id };
}

/* ---- control bus ---- */

static void wr32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* QPC, CQC, GID and EQC share the engine's staging register */
static void ctx_write(const char *what, uint8_t *table, uint32_t index, uint32_t ctx_size, uint32_t base,
		      uint32_t dw, uint32_t val)
{
	const uint32_t all = ctx_size / 4 >= 32 ? 0xFFFFFFFEu : ((1u << (ctx_size / 4)) - 1) & ~1u;

	if (M.stage_written && M.stage_base != base)
		fail("%s %u dw%u written while %#x has staged dwords %#x (contexts interleaved)", what, index, dw,
		     M.stage_base, M.stage_written);
	if (dw) {
		M.stage[dw] = val;
		M.stage_written |= 1u << dw;
		M.stage_base = base;
		return;
	}
	if (M.stage_written != all)
		fail("%s %u committed with staged dwords %#x, not %#x: the rest would come from another context",
		     what, index, M.stage_written, all);
	uint8_t *e = table + (size_t)index * ctx_size;

	wr32(e, val);
	for (uint32_t i = 1; i < ctx_size / 4; i++)
		wr32(e + 4 * i, M.stage[i]);
	for (uint32_t i = 0; i < FROCE_QPC_SIZE / 4; i++)
		M.stage[i] = 0xDEADBEEFu;
	M.stage_written = 0;
	M.stage_base = 0xFFFFFFFFu;
}

static void mrt_write(uint32_t off, uint32_t val)
{
	if (off >= FROCE_MRT_CTL_MTT_OFF) {
		const uint64_t j = (off - FROCE_MRT_CTL_MTT_OFF) / FROCE_MTT_ENTRY_SIZE;
		const unsigned w = (off >> 2) & 1;

		if (j >= M.cfg.num_mtt)
			fail("MTT write beyond the table: entry %llu of %u", (unsigned long long)j, M.cfg.num_mtt);
		if (w == 0) {
			M.mtt_lo = val;
			M.mtt_lo_index = (int64_t)j;
			return;
		}
		if (M.mtt_lo_index != (int64_t)j)
			fail("MTT %llu high dword without its low dword", (unsigned long long)j);
		wr32(M.mtt + j * 8, M.mtt_lo);
		wr32(M.mtt + j * 8 + 4, val);
		M.mtt_lo_index = -1;
		return;
	}
	if (off >= FROCE_MRT_CTL_REGS_OFF)
		fail("write to MRT_REGS or beyond the MR table (%#x)", off);
	const uint32_t i = off / FROCE_MR_CTX_SIZE, dw = (off / 4) & 7;

	if (i >= M.cfg.num_mrs)
		fail("MR_CTX write beyond the table: MR %u of %u", i, M.cfg.num_mrs);
	if (M.mr_written && M.mr_index != i)
		fail("MR %u dw%u written while MR %u has staged dwords %#x", i, dw, M.mr_index, M.mr_written);
	if (dw < 7) {
		M.mr_stage[dw] = val;
		M.mr_written |= 1u << dw;
		M.mr_index = i;
		return;
	}
	if (M.mr_written != 0x7F)
		fail("MR %u committed with staged dwords %#x, not 0x7f", i, M.mr_written);
	uint8_t *e = M.mr + (size_t)i * FROCE_MR_CTX_SIZE;

	for (int k = 0; k < 7; k++)
		wr32(e + 4 * k, M.mr_stage[k]);
	/* the RTL stores an entry with an out-of-range page shift as invalid */
	const uint32_t shift = (M.mr_stage[FROCE_MR_CTX_PAGE_SHIFT_DW] & FROCE_MR_CTX_PAGE_SHIFT_MASK) >>
			       FROCE_MR_CTX_PAGE_SHIFT_SHIFT;
	if (shift < FROCE_MR_PAGE_SHIFT_MIN || shift > FROCE_MR_PAGE_SHIFT_MAX)
		val &= ~FROCE_MR_CTX_VALID_MASK;
	wr32(e + 28, val & FROCE_MR_CTX_VALID_MASK);
	M.mr_written = 0;
}

void hal_ctl_write32(uint32_t off, uint32_t val)
{
	if (off & 3)
		fail("unaligned control write at %#x", off);
	M.ctl_writes++;
	if (off < FROCE_CTL_MRT_BASE + FROCE_MRT_CTL_SPAN) {
		mrt_write(off - FROCE_CTL_MRT_BASE, val);
	} else if (off >= FROCE_CTL_QPC_BASE && off < FROCE_CTL_CQC_BASE) {
		const uint32_t q = (off - FROCE_CTL_QPC_BASE) / FROCE_QPC_SIZE, dw = (off / 4) & 31;

		if (q >= M.cfg.num_qps)
			fail("QPC write beyond the table: QP %u of %u", q, M.cfg.num_qps);
		const uint32_t loads = FROCE_QPC_LOAD_RESET_MASK | FROCE_QPC_LOAD_RQ_PSN_MASK | FROCE_QPC_LOAD_SQ_PSN_MASK;

		if (dw == 0) {
			M.qpc_load[q] = val & loads;
			M.qpc_commits[q]++;
			val &= ~loads;	/* actions, they read 0 */
		}
		ctx_write("QPC", M.qpc, q, FROCE_QPC_SIZE, off & ~(uint32_t)(FROCE_QPC_SIZE - 1), dw, val);
	} else if (off >= FROCE_CTL_CQC_BASE && off < FROCE_CTL_GID_BASE) {
		const uint32_t n = (off - FROCE_CTL_CQC_BASE) / FROCE_CQC_SIZE;

		if (n >= M.cfg.num_cqs)
			fail("CQC write beyond the table: CQ %u of %u", n, M.cfg.num_cqs);
		ctx_write("CQC", M.cqc, n, FROCE_CQC_SIZE, off & ~31u, (off / 4) & 7, val);
	} else if (off >= FROCE_CTL_GID_BASE && off < FROCE_CTL_CORE_BASE) {
		const uint32_t n = (off - FROCE_CTL_GID_BASE) / FROCE_GID_CTX_SIZE;

		if (n >= M.cfg.num_gids)
			fail("GID write beyond the table: entry %u of %u", n, M.cfg.num_gids);
		ctx_write("GID", M.gid, n, FROCE_GID_CTX_SIZE, off & ~31u, (off / 4) & 7, val);
	} else if (off >= FROCE_CTL_EQC_BASE && off < FROCE_CTL_SPAN) {
		const uint32_t n = (off - FROCE_CTL_EQC_BASE) / FROCE_EQC_SIZE;

		if (n == 0 || n >= M.cfg.num_eqs)
			fail("EQC write to EQ %u (1..%u exist on the control bus)", n, M.cfg.num_eqs - 1);
		ctx_write("EQC", M.eqc, n, FROCE_EQC_SIZE, off & ~31u, (off / 4) & 7, val);
	} else {
		fail("control write to %#x: no writable word there", off);
	}
}

uint32_t hal_ctl_read32(uint32_t off)
{
	if (off & 3)
		fail("unaligned control read at %#x", off);
	M.ctl_reads++;
	const uint32_t regs = FROCE_CTL_MRT_BASE + FROCE_MRT_CTL_REGS_OFF;

	if (off >= regs && off < regs + FROCE_MRT_REGS_SIZE) {
		switch ((off - regs) / 4) {
		case FROCE_MRT_REGS_BUSY_DW: {
			uint32_t v = 0;

			if (M.init_reads) {
				M.init_reads--;
				v |= FROCE_MRT_REGS_INIT_MASK;
			}
			if (M.busy_stuck || M.busy_reads) {
				if (M.busy_reads)
					M.busy_reads--;
				v |= FROCE_MRT_REGS_BUSY_MASK;
			}
			return v;
		}
		case FROCE_MRT_REGS_NUM_MRS_DW:
			return M.cfg.num_mrs;
		case FROCE_MRT_REGS_NUM_MTT_DW:
			return M.cfg.num_mtt;
		default:
			return 0;
		}
	}
	if (off >= FROCE_CTL_CORE_BASE && off < FROCE_CTL_CORE_BASE + 8 * FROCE_CNT_NUM) {
		const uint32_t i = (off - FROCE_CTL_CORE_BASE) / 8;

		if (off & 4) {
			const uint32_t hi = (uint32_t)(M.counters[i] >> 32);

			if ((int)i == M.carry_counter) {
				M.counters[i]++;	/* a carry right after the high half was read */
				M.carry_counter = -1;
			}
			return hi;
		}
		return (uint32_t)M.counters[i];
	}
	if (off >= FROCE_CTL_ICNT_BASE && off < FROCE_CTL_ICNT_BASE + 8 * FROCE_ICNT_NUM)
		return 0;
	fail("control read of %#x: contexts are write-only, nothing readable there", off);
	return 0;
}

/* ---- the rest of the HAL ---- */

int hal_dma_read(uint64_t addr, void *dst, uint32_t len)
{
	if (len == 0 || len > 4096 || ((addr | len) & 3) || ((uintptr_t)dst & 3))
		fail("hal_dma_read(%#llx, %u bytes): not 4..4096 word-aligned bytes to/from an aligned buffer",
		     (unsigned long long)addr, len);
	M.dma_reads++;
	if (M.dma_read_hook)
		M.dma_read_hook(addr, len);
	if ((M.dma_fail_addr && M.dma_fail_addr - addr < len) || host_copy(addr, dst, len, false)) {
		M.dma_errors++;
		memset(dst, 0xEE, len);	/* nothing is known about the bytes */
		return -1;
	}
	return 0;
}

int hal_dma_write(uint64_t addr, const void *src, uint32_t len)
{
	if (len == 0 || len > 4096 || ((addr | len) & 3) || ((uintptr_t)src & 3))
		fail("hal_dma_write(%#llx, %u bytes): not 4..4096 word-aligned bytes to/from an aligned buffer",
		     (unsigned long long)addr, len);
	M.dma_writes++;
	if ((M.dma_fail_addr && M.dma_fail_addr - addr < len) || host_copy(addr, (void *)src, len, true)) {
		M.dma_errors++;
		return -1;
	}
	return 0;
}

int hal_eq_post(uint32_t eqn, const uint32_t eqe_dw[3])
{
	if (eqn >= M.cfg.num_eqs)
		fail("EQE for EQ %u of %u", eqn, M.cfg.num_eqs);
	if (M.eq_refuse)
		return -1;
	if (M.n_eqes == MODEL_MAX_EQES)
		fail("EQE recorder full");
	M.eqes[M.n_eqes].eqn = eqn;
	memcpy(M.eqes[M.n_eqes].dw, eqe_dw, 12);
	M.n_eqes++;
	return 0;
}

bool hal_mbox_poll(uint32_t *doorbell, uint64_t *block)
{
	if (!M.db_pending)
		return false;
	M.db_pending = false;
	*doorbell = M.db_value;
	*block = M.db_block;
	return true;
}

void hal_mbox_status(uint32_t cmd_status)
{
	M.cmd_status = cmd_status;
	M.cmd_status_writes++;
}

void hal_dev_ready(uint32_t fw_version)
{
	M.fw_version = fw_version;
	M.ready = true;
}

void hal_heartbeat(uint32_t count)
{
	M.heartbeat = count;
}

bool hal_ms_tick(void)
{
	if (!M.ms_ticks)
		return false;
	M.ms_ticks--;
	return true;
}

uint32_t hal_link_status(void)
{
	return M.link_status;
}

void hal_port_set(uint64_t mac, uint32_t mtu, bool promisc, bool allmulti)
{
	M.port_mac = mac;
	M.port_mtu = mtu;
	M.port_promisc = promisc;
	M.port_allmulti = allmulti;
	M.port_sets++;
}

bool hal_async_poll(struct fw_async_event *ev)
{
	if (!M.async_n)
		return false;
	*ev = M.async_q[M.async_head];
	M.async_head = (M.async_head + 1) % MODEL_MAX_ASYNC;
	M.async_n--;
	return true;
}

void hal_platform(struct fw_platform *p)
{
	p->num_qps = M.cfg.num_qps;
	p->num_cqs = M.cfg.num_cqs;
	p->num_eqs = M.cfg.num_eqs;
	p->num_gids = M.cfg.num_gids;
	p->num_uars = M.cfg.num_uars;
	p->num_vectors = M.cfg.num_vectors;
	p->num_pds = M.cfg.num_pds;
	p->rd_atomic_max = M.cfg.rd_atomic_max;
	p->perm_mac = M.cfg.perm_mac;
	p->arena = M.arena;
	p->arena_bytes = M.cfg.arena_bytes;
}

void hal_console_putc(char c)
{
	if (M.console_n + 1 < sizeof M.console)
		M.console[M.console_n++] = c;
}
