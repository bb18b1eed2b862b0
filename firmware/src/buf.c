/* SPDX-License-Identifier: MIT */
/* BUF descriptors: checks, and the walk over their page lists (CONTIG,
 * LIST, LIST2) that validates the pages and writes them into the MTT. */
#include "fw_int.h"

#define LIST_ENTRIES FROCE_BUF_LIST_ENTRIES	/* 512 per 4 KiB list page */
#define LIST_SHIFT 9				/* log2 LIST_ENTRIES */
#define CHUNK 32				/* entries fetched per DMA read */
_Static_assert(LIST_ENTRIES % CHUNK == 0, "a chunk never crosses a list page");

void fw_buf_parse(struct fw_cmd *c, uint32_t off, struct fw_buf *b)
{
	const uint8_t *p = c->in + off;

	b->addr = GET_QW(p, FROCE_BUF_ADDR);
	b->num_pages = GET_DW(p, FROCE_BUF_NUM_PAGES);
	b->page_shift = GET_DW(p, FROCE_BUF_PAGE_SHIFT);
	b->level = GET_DW(p, FROCE_BUF_LEVEL);
	b->off = off;
}

uint8_t fw_buf_check(struct fw_cmd *c, const struct fw_buf *b, uint32_t want_pages,
		     uint32_t shift_min, uint32_t shift_max)
{
	const uint32_t dw3 = ld32(c->in + b->off + 4 * FROCE_BUF_LEVEL_DW);
	const uint32_t bad = FROCE_CMD_STATUS_BAD_PARAM;

	if (dw3 & ~(FROCE_BUF_LEVEL_MASK | FROCE_BUF_PAGE_SHIFT_MASK))
		return refuse(c, bad, b->off + 4 * FROCE_BUF_LEVEL_DW);
	if (b->page_shift < shift_min || b->page_shift > shift_max)
		return refuse(c, bad, b->off + OFF_DW(FROCE_BUF_PAGE_SHIFT));
	if (b->level > FROCE_BUF_LEVEL_LIST2)
		return refuse(c, bad, b->off + OFF_DW(FROCE_BUF_LEVEL));
	if (b->num_pages != want_pages)
		return refuse(c, bad, b->off + OFF_DW(FROCE_BUF_NUM_PAGES));
	if ((b->level == FROCE_BUF_LEVEL_LIST && b->num_pages > LIST_ENTRIES) ||
	    (b->level == FROCE_BUF_LEVEL_LIST2 && b->num_pages > LIST_ENTRIES * LIST_ENTRIES))
		return refuse(c, bad, b->off + OFF_DW(FROCE_BUF_NUM_PAGES));
	if (b->level == FROCE_BUF_LEVEL_CONTIG) {
		const uint64_t page_mask = ((uint64_t)1 << b->page_shift) - 1;
		const uint64_t bytes = (uint64_t)b->num_pages << b->page_shift;

		/* aligned pages, and the buffer must not wrap past 2^64 */
		if ((b->addr & page_mask) || b->addr + bytes < b->addr)
			return refuse(c, bad, b->off + OFF_QW(FROCE_BUF_ADDR));
	} else if (b->addr & 0xFFFu) {
		return refuse(c, bad, b->off + OFF_QW(FROCE_BUF_ADDR));	/* a list is one page */
	}
	return FROCE_CMD_STATUS_OK;
}

/* Walks the pages of a checked BUF in order, CHUNK list entries per DMA. */
struct page_walk {
	const struct fw_buf *b;
	uint32_t next;		/* index of the next page */
	uint32_t cache_first;	/* page index of raw[0] */
	uint32_t cache_n;
	uint32_t l1_index;	/* LIST2: which pointer l1_ptr holds */
	uint64_t l1_ptr;
	_Alignas(8) uint8_t raw[8 * CHUNK];
};

enum { WALK_OK, WALK_DMA, WALK_BAD };

static int walk_next(struct page_walk *w, uint64_t *pa)
{
	const struct fw_buf *b = w->b;
	const uint32_t i = w->next++;
	uint64_t list;
	uint32_t within;

	if (b->level == FROCE_BUF_LEVEL_CONTIG) {
		*pa = b->addr + ((uint64_t)i << b->page_shift);
		return WALK_OK;
	}
	if (i - w->cache_first < w->cache_n) {
		*pa = ld64(w->raw + 8 * (i - w->cache_first));
		return WALK_OK;
	}
	if (b->level == FROCE_BUF_LEVEL_LIST) {
		list = b->addr;
		within = i;
	} else {
		const uint32_t l1 = i >> LIST_SHIFT;

		within = i & (LIST_ENTRIES - 1);
		if (l1 != w->l1_index) {
			_Alignas(8) uint8_t p[8];

			if (hal_dma_read(b->addr + 8 * (uint64_t)l1, p, sizeof p))
				return WALK_DMA;
			w->l1_ptr = ld64(p);
			w->l1_index = l1;
		}
		if (w->l1_ptr & 0xFFFu)
			return WALK_BAD;	/* a list page pointer must name a page */
		list = w->l1_ptr;
	}
	uint32_t n = CHUNK;	/* within is a multiple of CHUNK: stays in its list page */

	if (n > b->num_pages - i)
		n = b->num_pages - i;
	if (hal_dma_read(list + 8 * (uint64_t)within, w->raw, 8 * n))
		return WALK_DMA;
	w->cache_first = i;
	w->cache_n = n;
	*pa = ld64(w->raw);
	return WALK_OK;
}

/* Visits every page; with mtt_base != NULL also writes it to the MTT. */
static uint8_t walk(struct fw_cmd *c, const struct fw_buf *b, const uint32_t *mtt_base)
{
	struct page_walk w;
	const uint64_t page_mask = ((uint64_t)1 << b->page_shift) - 1;

	w.b = b;
	w.next = 0;
	w.cache_first = 0;
	w.cache_n = 0;
	w.l1_index = 0xFFFFFFFFu;
	w.l1_ptr = 0;
	for (uint32_t i = 0; i < b->num_pages; i++) {
		uint64_t pa = 0;
		const int rc = walk_next(&w, &pa);

		if (rc == WALK_DMA)
			return refuse(c, FROCE_CMD_STATUS_INTERNAL_ERR, b->off + OFF_QW(FROCE_BUF_ADDR));
		if (rc == WALK_BAD || (pa & page_mask))
			return refuse(c, FROCE_CMD_STATUS_BAD_PARAM, b->off + OFF_QW(FROCE_BUF_ADDR));
		if (mtt_base) {
			const uint32_t off = FROCE_CTL_MRT_BASE + FROCE_MRT_CTL_MTT_OFF +
					     (*mtt_base + i) * (uint32_t)FROCE_MTT_ENTRY_SIZE;

			/* the low dword is staged, the high dword commits the entry */
			hal_ctl_write32(off, (uint32_t)pa);
			hal_ctl_write32(off + 4, (uint32_t)(pa >> 32));
		}
	}
	return FROCE_CMD_STATUS_OK;
}

uint8_t fw_buf_scan(struct fw_cmd *c, const struct fw_buf *b)
{
	return walk(c, b, NULL);
}

uint8_t fw_buf_write_mtt(struct fw_cmd *c, const struct fw_buf *b, uint32_t mtt_base)
{
	return walk(c, b, &mtt_base);
}
