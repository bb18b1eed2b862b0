/* SPDX-License-Identifier: MIT */
/* Firmware state: table set-up from the platform, control-bus context
 * writes, MTT and MR bookkeeping, the console. */
#include "fw_string.h"

#include "fw_int.h"

struct fw_state fw;

void fw_puts(const char *s)
{
	while (*s)
		hal_console_putc(*s++);
}

void fw_puthex(uint32_t v)
{
	static const char digits[] = "0123456789abcdef";

	fw_puts("0x");
	for (int shift = 28; shift >= 0; shift -= 4)
		hal_console_putc(digits[(v >> shift) & 15]);
}

uint32_t fw_mrt_reg(unsigned dw)
{
	return hal_ctl_read32(FROCE_CTL_MRT_BASE + FROCE_MRT_CTL_REGS_OFF + 4 * dw);
}

void fw_ctx_write(uint32_t base, const uint8_t *img, uint32_t bytes)
{
	/* the engine stages dwords 1..n-1 (one staging register for all
	 * tables) and commits the context with dword 0 */
	for (uint32_t off = 4; off < bytes; off += 4)
		hal_ctl_write32(base + off, ld32(img + off));
	hal_ctl_write32(base, ld32(img));
}

void fw_ctx_clear(uint32_t base, uint32_t bytes)
{
	for (uint32_t off = 4; off < bytes; off += 4)
		hal_ctl_write32(base + off, 0);
	hal_ctl_write32(base, 0);
}

/* ---- table set-up ---- */

static uint32_t align4(uint32_t n)
{
	return (n + 3u) & ~3u;
}

static uint32_t tables_bytes(void)
{
	return fw.num_qps * (uint32_t)FROCE_QPC_SIZE + align4(fw.num_qps) +
	       fw.num_cqs * (uint32_t)sizeof(struct fw_cq) + fw.num_eqs * (uint32_t)sizeof(struct fw_eq) +
	       align4(fw.num_pds * (uint32_t)sizeof(struct fw_pd)) + fw.num_mrs * (uint32_t)sizeof(struct fw_mr) +
	       ((fw.num_mtt + 31) >> 5) * 4 + fw.num_gids * (uint32_t)FROCE_GID_CTX_SIZE;
}

static void *carve(uint32_t bytes)
{
	void *p = fw.arena + fw.arena_used;

	fw.arena_used += align4(bytes);
	return p;
}

static uint32_t clip(uint32_t v, uint32_t max)
{
	return v < max ? v : max;
}

int fw_init(void)
{
	struct fw_platform p;
	uint32_t polls = 0;

	memset(&fw, 0, sizeof fw);
	hal_platform(&p);
	/* the MR table clears itself after reset; control writes wait for it */
	while (fw_mrt_reg(FROCE_MRT_REGS_INIT_DW) & FROCE_MRT_REGS_INIT_MASK) {
		if (++polls > FW_MRT_WAIT_POLLS) {
			fw_puts("fw: MRT_REGS.INIT stuck\n");
			return -1;
		}
	}
	/* sizes the handle fields and the firmware's own fields can carry */
	fw.num_qps = clip(p.num_qps, 1u << 16);	/* QPNs below 2^16 */
	fw.num_cqs = clip(p.num_cqs, 1u << 16);
	fw.num_eqs = clip(p.num_eqs, 1u << FROCE_CMD_CREATE_EQ_OUT_EQN_W);
	fw.num_gids = clip(p.num_gids, (1u << FROCE_CMD_QUERY_CAPS_OUT_NUM_GID_W) - 1);
	fw.num_uars = clip(p.num_uars, (1u << FROCE_CMD_QUERY_CAPS_OUT_MAX_UAR_W) - 1);
	fw.num_pds = clip(p.num_pds, 1u << 16);
	fw.num_vectors = clip(p.num_vectors, FROCE_MSIX_MAX_VECTORS);
	fw.rd_atomic_max = clip(p.rd_atomic_max, 255);
	fw.num_mrs = clip(fw_mrt_reg(FROCE_MRT_REGS_NUM_MRS_DW), 1u << 17);
	fw.num_mtt = clip(fw_mrt_reg(FROCE_MRT_REGS_NUM_MTT_DW), 1u << 20);
	fw.arena = p.arena;
	/* every context the hardware has is cleared below, also those the
	 * firmware will not hand out: a doorbell or packet naming one must
	 * find an invalid context, not what the FPGA started with */
	const uint32_t hw_qps = fw.num_qps, hw_cqs = fw.num_cqs;
	/* fewer QPs, MRs, MTT entries and CQs than the hardware has when the
	 * RAM is short; QUERY_CAPS reports what is usable */
	while (tables_bytes() > p.arena_bytes) {
		if (fw.num_qps <= 4 && fw.num_mrs <= 4 && fw.num_mtt <= 64 && fw.num_cqs <= 4) {
			fw_puts("fw: no RAM for the tables\n");
			return -1;
		}
		if (fw.num_qps > 4)
			fw.num_qps >>= 1;
		if (fw.num_mrs > 4)
			fw.num_mrs >>= 1;
		if (fw.num_mtt > 64)
			fw.num_mtt >>= 1;
		if (fw.num_cqs > 4)
			fw.num_cqs >>= 1;
	}
	fw.qpc = carve(fw.num_qps * (uint32_t)FROCE_QPC_SIZE);
	fw.qp_flags = carve(fw.num_qps);
	fw.cq = carve(fw.num_cqs * (uint32_t)sizeof(struct fw_cq));
	fw.eq = carve(fw.num_eqs * (uint32_t)sizeof(struct fw_eq));
	fw.pd = carve(fw.num_pds * (uint32_t)sizeof(struct fw_pd));
	fw.mr = carve(fw.num_mrs * (uint32_t)sizeof(struct fw_mr));
	fw.mtt_used = carve(((fw.num_mtt + 31) >> 5) * 4);
	fw.gid = carve(fw.num_gids * (uint32_t)FROCE_GID_CTX_SIZE);
	memset(fw.arena, 0, fw.arena_used);

	/* The context RAMs hold whatever the FPGA started with: make them
	 * equal to the (zeroed) copies, all hw_qps/hw_cqs of them. QPCs also
	 * get their runtime state cleared. The MR table cleared itself
	 * (MRT_REGS.INIT). */
	_Alignas(4) uint8_t qpc[FROCE_QPC_SIZE];

	memset(qpc, 0, sizeof qpc);
	SET_DW(qpc, FROCE_QPC_LOAD_RESET, 1);
	for (uint32_t q = 0; q < hw_qps; q++)
		fw_ctx_write(FROCE_CTL_QPC_BASE + q * (uint32_t)FROCE_QPC_SIZE, qpc, FROCE_QPC_SIZE);
	for (uint32_t n = 0; n < hw_cqs; n++)
		fw_ctx_clear(FROCE_CTL_CQC_BASE + n * (uint32_t)FROCE_CQC_SIZE, FROCE_CQC_SIZE);
	for (uint32_t n = 1; n < fw.num_eqs; n++)
		fw_ctx_clear(FROCE_CTL_EQC_BASE + n * (uint32_t)FROCE_EQC_SIZE, FROCE_EQC_SIZE);
	for (uint32_t n = 0; n < fw.num_gids; n++)
		fw_ctx_clear(FROCE_CTL_GID_BASE + n * (uint32_t)FROCE_GID_CTX_SIZE, FROCE_GID_CTX_SIZE);

	if (fw.num_mrs > FW_MR_RESERVED)
		fw.mr[FW_MR_RESERVED].flags = FW_F_USED;	/* key 0 stays invalid */
	if (fw.num_pds > FW_PDN_RINGS)
		fw.pd[FW_PDN_RINGS].flags = FW_F_USED;		/* the rings' PD */
	fw.eq[0].flags = FW_F_USED;	/* EQ 0 lives in BAR0, always there */
	fw.mac = p.perm_mac;
	fw.mtu = FW_ETH_MTU_DEFAULT;
	hal_port_set(fw.mac, fw.mtu, false, false);
	fw.link_up = (hal_link_status() & FROCE_REG_LINK_STATUS_UP_MASK) != 0;
	fw.ready = 1;
	return 0;
}

/* ---- MTT bitmap ---- */

static bool mtt_bit(uint32_t j)
{
	return (fw.mtt_used[j >> 5] >> (j & 31)) & 1;
}

void fw_mtt_mark(uint32_t base, uint32_t n, bool used)
{
	for (uint32_t j = base; j < base + n; j++) {
		if (used)
			fw.mtt_used[j >> 5] |= 1u << (j & 31);
		else
			fw.mtt_used[j >> 5] &= ~(1u << (j & 31));
	}
}

int fw_mtt_alloc(uint32_t n, uint32_t *base)
{
	uint32_t run = 0;

	if (n == 0 || n > fw.num_mtt)
		return -1;
	for (uint32_t j = 0; j < fw.num_mtt;) {
		/* whole used words are skipped at once */
		if ((j & 31) == 0 && fw.mtt_used[j >> 5] == 0xFFFFFFFFu) {
			run = 0;
			j += 32;
			continue;
		}
		if (mtt_bit(j)) {
			run = 0;
		} else if (++run == n) {
			*base = j + 1 - n;
			return 0;
		}
		j++;
	}
	return -1;
}

/* ---- MR entries ---- */

int fw_mr_alloc_index(uint32_t *index)
{
	for (uint32_t i = FW_MR_RESERVED + 1; i < fw.num_mrs; i++) {
		if (!(fw.mr[i].flags & FW_F_USED)) {
			*index = i;
			return 0;
		}
	}
	return -1;
}

void fw_mr_commit(uint32_t index, uint32_t pdn, uint8_t access, uint32_t page_shift, uint64_t iova,
		  uint64_t length, uint32_t mtt_base, uint32_t npages, uint8_t flags)
{
	struct fw_mr *mr = &fw.mr[index];
	_Alignas(4) uint8_t img[FROCE_MR_CTX_SIZE];
	const uint32_t base = FROCE_CTL_MRT_BASE + FROCE_MRT_CTL_MR_OFF + index * (uint32_t)FROCE_MR_CTX_SIZE;

	/* a new tag per registration: keys of earlier ones fail with KEY_TAG */
	mr->tag = (uint8_t)(mr->tag + 1);
	mr->mtt_base = mtt_base;
	mr->npages = npages;
	mr->pd = (uint16_t)pdn;
	mr->flags = (uint8_t)(FW_F_USED | flags);
	fw_mtt_mark(mtt_base, npages, true);
	memset(img, 0, sizeof img);
	SET_DW(img, FROCE_MR_CTX_PDN, pdn);
	SET_DW(img, FROCE_MR_CTX_TAG, mr->tag);
	SET_DW(img, FROCE_MR_CTX_ACCESS, access);
	SET_DW(img, FROCE_MR_CTX_PAGE_SHIFT, page_shift);
	SET_QW(img, FROCE_MR_CTX_IOVA, iova);
	SET_QW(img, FROCE_MR_CTX_LENGTH, length);
	SET_DW(img, FROCE_MR_CTX_MTT_BASE, mtt_base);
	SET_DW(img, FROCE_MR_CTX_VALID, 1);
	/* the MR unit stages dwords 0..6 and commits with dword 7 (VALID) */
	for (uint32_t dw = 0; dw < FROCE_MR_CTX_SIZE / 4; dw++)
		hal_ctl_write32(base + 4 * dw, ld32(img + 4 * dw));
}

int fw_mr_invalidate(uint32_t index)
{
	const uint32_t base = FROCE_CTL_MRT_BASE + FROCE_MRT_CTL_MR_OFF + index * (uint32_t)FROCE_MR_CTX_SIZE;

	/* a whole zero entry, so no staged dword of another MR is stored with it */
	for (uint32_t dw = 0; dw < FROCE_MR_CTX_SIZE / 4; dw++)
		hal_ctl_write32(base + 4 * dw, 0);
	/* requests already past the MR lookup may still read its MTT range */
	for (uint32_t polls = 0; fw_mrt_reg(FROCE_MRT_REGS_BUSY_DW) & FROCE_MRT_REGS_BUSY_MASK; polls++)
		if (polls >= FW_MRT_WAIT_POLLS)
			return -1;
	return 0;
}

void fw_mr_release(uint32_t index)
{
	struct fw_mr *mr = &fw.mr[index];

	fw_mtt_mark(mr->mtt_base, mr->npages, false);
	mr->flags = 0;
	mr->mtt_base = 0;
	mr->npages = 0;
	mr->pd = 0;	/* the tag stays: the next registration moves on from it */
}

bool fw_pages_fit(uint64_t bytes, uint32_t *pages)
{
	uint64_t n = (bytes + (1u << FW_RING_PAGE_SHIFT) - 1) >> FW_RING_PAGE_SHIFT;

	if (n == 0 || n > 0xFFFFFFFFu)
		return false;
	*pages = (uint32_t)n;
	return true;
}

/* ---- input checks ---- */

uint8_t fw_check_reserved(struct fw_cmd *c, const struct fw_rsv *r, unsigned n, unsigned first_dw, unsigned ndw)
{
	for (unsigned dw = first_dw; dw < first_dw + ndw; dw++) {
		uint32_t allowed = 0;

		for (unsigned i = 0; i < n; i++)
			if (r[i].dw == dw)
				allowed |= r[i].mask;
		if (ld32(c->in + 4 * dw) & ~allowed)
			return refuse(c, FROCE_CMD_STATUS_BAD_PARAM, 4 * dw);
	}
	return FROCE_CMD_STATUS_OK;
}
