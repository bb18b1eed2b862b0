/* SPDX-License-Identifier: MIT */
/*
 * fw_hal.h on the soft core: memory-mapped registers of froce_fw
 * (rtl/fw/froce_fw.v, docs/fw-subsystem.md), which decodes exactly these
 * addresses: the control-bus window at FW_CTL_WINDOW (one m_ctl access per
 * word), the peripheral page at FW_IO_BASE. Registers are 32-bit and take
 * only aligned lw/sw: a byte or halfword access there is an access fault.
 * A write-only register reads 0.
 */
#include "fw.h"

/* the control bus of froce_core, byte offset + base */
#ifndef FW_CTL_WINDOW
#define FW_CTL_WINDOW 0x10000000u
#endif
/* the firmware's peripherals */
#ifndef FW_IO_BASE
#define FW_IO_BASE 0x20000000u
#endif
#ifndef FW_NUM_PDS
#define FW_NUM_PDS 256
#endif

#define IO_CONSOLE 0x00		/* w: one byte to the console */
#define IO_CMD_PENDING 0x10	/* r: bit 0 = CMD_DOORBELL written since CMD_DB was read */
#define IO_CMD_DB 0x14		/* r: the CMD_DOORBELL value; reading clears PENDING */
#define IO_CMD_ADDR_LO 0x18	/* r: CMD_ADDR_LO/HI latched with the doorbell */
#define IO_CMD_ADDR_HI 0x1C
#define IO_CMD_STATUS 0x20	/* w: what BAR0 CMD_STATUS reads */
#define IO_FW_VERSION 0x30	/* w: BAR0 FW_VERSION */
#define IO_DEV_READY 0x34	/* w: bit 0 -> BAR0 DEV_STATUS.READY */
#define IO_HEARTBEAT 0x38	/* w: BAR0 HEARTBEAT */
#define IO_MS_TICK 0x3C		/* r: bit 0 = a millisecond passed; reading clears it */
#define IO_LINK_STATUS 0x40	/* r: BAR0 LINK_STATUS */
#define IO_PORT_MAC_LO 0x44	/* w: station MAC, MTU, filters; PORT_FLAGS commits */
#define IO_PORT_MAC_HI 0x48
#define IO_PORT_MTU 0x4C
#define IO_PORT_FLAGS 0x50	/* bit 0 promiscuous, bit 1 all-multicast */
#define IO_NUM_QPS 0x60		/* r: table sizes (RTL parameters), BAR0 UAR_INFO, IRQ_INFO */
#define IO_NUM_CQS 0x64
#define IO_IRQ_INFO 0x68
#define IO_NUM_GIDS 0x6C
#define IO_UAR_INFO 0x70
#define IO_RD_ATOMIC_MAX 0x78
#define IO_PERM_MAC_LO 0x7C	/* r: BAR0 MAC_LO / MAC_HI */
#define IO_PERM_MAC_HI 0x80
#define IO_EQ_DW0 0x90		/* w: EQE dwords 0..2 */
#define IO_EQ_DW1 0x94
#define IO_EQ_DW2 0x98
#define IO_EQ_POST 0x9C		/* w: EQN; hands the EQE to the event engine */
#define IO_EQ_STATUS 0xA0	/* r: bit 0 busy, bit 1 the last EQE was dropped */
#define IO_ASYNC_PENDING 0xB0	/* r: bit 0 = an engine event is queued */
#define IO_ASYNC_EV 0xB4	/* r: type | subtype << 8 */
#define IO_ASYNC_ID 0xB8	/* r: QPN/CQN; reading pops the event */
#define IO_DMA_HOST_LO 0xC0	/* w: host address, RAM address, length, then CTRL */
#define IO_DMA_HOST_HI 0xC4
#define IO_DMA_LOCAL 0xC8
#define IO_DMA_LEN 0xCC
#define IO_DMA_CTRL 0xD0	/* w: bit 0 start, bit 1 RAM -> host */
#define IO_DMA_STATUS 0xD4	/* r: bit 0 busy, bit 1 error of the last transfer */
/* While a transfer runs the engine owns the RAM's data port: a RAM load or
 * store issued meanwhile waits for the end of the transfer (fetches and
 * peripheral accesses do not), so dma() polls only DMA_STATUS. */

static inline uint32_t io_rd(uint32_t off)
{
	return *(volatile uint32_t *)(uintptr_t)(FW_IO_BASE + off);
}

static inline void io_wr(uint32_t off, uint32_t v)
{
	*(volatile uint32_t *)(uintptr_t)(FW_IO_BASE + off) = v;
}

uint32_t hal_ctl_read32(uint32_t off)
{
	return *(volatile uint32_t *)(uintptr_t)(FW_CTL_WINDOW + off);
}

void hal_ctl_write32(uint32_t off, uint32_t val)
{
	*(volatile uint32_t *)(uintptr_t)(FW_CTL_WINDOW + off) = val;
}

static int dma(uint64_t addr, const void *local, uint32_t len, bool to_host)
{
	io_wr(IO_DMA_HOST_LO, (uint32_t)addr);
	io_wr(IO_DMA_HOST_HI, (uint32_t)(addr >> 32));
	io_wr(IO_DMA_LOCAL, (uint32_t)(uintptr_t)local);
	io_wr(IO_DMA_LEN, len);
	io_wr(IO_DMA_CTRL, 1u | (to_host ? 2u : 0u));
	while (io_rd(IO_DMA_STATUS) & 1u)
		;
	return (io_rd(IO_DMA_STATUS) & 2u) ? -1 : 0;
}

int hal_dma_read(uint64_t addr, void *dst, uint32_t len)
{
	return dma(addr, dst, len, false);
}

int hal_dma_write(uint64_t addr, const void *src, uint32_t len)
{
	return dma(addr, src, len, true);
}

int hal_eq_post(uint32_t eqn, const uint32_t eqe_dw[3])
{
	io_wr(IO_EQ_DW0, eqe_dw[0]);
	io_wr(IO_EQ_DW1, eqe_dw[1]);
	io_wr(IO_EQ_DW2, eqe_dw[2]);
	io_wr(IO_EQ_POST, eqn);
	while (io_rd(IO_EQ_STATUS) & 1u)
		;
	return (io_rd(IO_EQ_STATUS) & 2u) ? -1 : 0;
}

bool hal_mbox_poll(uint32_t *doorbell, uint64_t *block)
{
	if (!(io_rd(IO_CMD_PENDING) & 1u))
		return false;
	*block = (uint64_t)io_rd(IO_CMD_ADDR_HI) << 32 | io_rd(IO_CMD_ADDR_LO);
	*doorbell = io_rd(IO_CMD_DB);
	return true;
}

void hal_mbox_status(uint32_t cmd_status)
{
	io_wr(IO_CMD_STATUS, cmd_status);
}

void hal_dev_ready(uint32_t fw_version)
{
	io_wr(IO_FW_VERSION, fw_version);
	io_wr(IO_DEV_READY, 1);
}

void hal_heartbeat(uint32_t count)
{
	io_wr(IO_HEARTBEAT, count);
}

bool hal_ms_tick(void)
{
	return io_rd(IO_MS_TICK) & 1u;
}

uint32_t hal_link_status(void)
{
	return io_rd(IO_LINK_STATUS);
}

void hal_port_set(uint64_t mac, uint32_t mtu, bool promisc, bool allmulti)
{
	io_wr(IO_PORT_MAC_LO, (uint32_t)mac);
	io_wr(IO_PORT_MAC_HI, (uint32_t)(mac >> 32));
	io_wr(IO_PORT_MTU, mtu);
	io_wr(IO_PORT_FLAGS, (promisc ? 1u : 0u) | (allmulti ? 2u : 0u));
}

bool hal_async_poll(struct fw_async_event *ev)
{
	if (!(io_rd(IO_ASYNC_PENDING) & 1u))
		return false;
	const uint32_t w = io_rd(IO_ASYNC_EV);

	ev->type = (uint8_t)w;
	ev->subtype = (uint8_t)(w >> 8);
	ev->id = io_rd(IO_ASYNC_ID);
	return true;
}

extern uint8_t _arena_start[], _arena_end[];

void hal_platform(struct fw_platform *p)
{
	const uint32_t irq = io_rd(IO_IRQ_INFO);

	p->num_qps = io_rd(IO_NUM_QPS);
	p->num_cqs = io_rd(IO_NUM_CQS);
	p->num_eqs = FROCE_FIELD_GET(FROCE_REG_IRQ_INFO_NUM_EQ, irq);
	p->num_vectors = FROCE_FIELD_GET(FROCE_REG_IRQ_INFO_NUM_VECTORS, irq);
	p->num_gids = io_rd(IO_NUM_GIDS);
	p->num_uars = FROCE_FIELD_GET(FROCE_REG_UAR_INFO_NUM_PAGES, io_rd(IO_UAR_INFO));
	p->num_pds = FW_NUM_PDS;
	p->rd_atomic_max = io_rd(IO_RD_ATOMIC_MAX);
	p->perm_mac = (uint64_t)(io_rd(IO_PERM_MAC_HI) & 0xFFFFu) << 32 | io_rd(IO_PERM_MAC_LO);
	p->arena = _arena_start;
	p->arena_bytes = (uint32_t)(_arena_end - _arena_start);
}

void hal_console_putc(char c)
{
	io_wr(IO_CONSOLE, (uint8_t)c);
}
