/* SPDX-License-Identifier: MIT */
/* Internal helpers of the firmware: field access on little-endian images,
 * the command context, refusal helpers, resource helpers. */
#ifndef FW_INT_H
#define FW_INT_H

#include <stddef.h>

#include "fw_string.h"
#include <stdint.h>

#include "fw.h"

/* Every image the firmware reads or writes field by field (command input
 * and output, contexts, local copies) is 4-byte aligned, so the RV32 image
 * uses one lw/sw per dword; native builds check that promise on every access
 * (FW_CHECK_ALIGN) and use byte access. */
#if defined(__riscv) && !defined(FW_CHECK_ALIGN)
static inline uint32_t ld32(const uint8_t *p)
{
	uint32_t v;

	__builtin_memcpy(&v, __builtin_assume_aligned(p, 4), 4);
	return v;
}

static inline void st32(uint8_t *p, uint32_t v)
{
	__builtin_memcpy(__builtin_assume_aligned(p, 4), &v, 4);
}
#else
#ifdef FW_CHECK_ALIGN
void fw_misaligned(const void *p);	/* aborts the test */
#define FW_ALIGNED(p) ((((uintptr_t)(p)) & 3) ? fw_misaligned(p) : (void)0)
#else
#define FW_ALIGNED(p) ((void)0)
#endif
static inline uint32_t ld32(const uint8_t *p)
{
	FW_ALIGNED(p);
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void st32(uint8_t *p, uint32_t v)
{
	FW_ALIGNED(p);
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}
#endif

static inline uint64_t ld64(const uint8_t *p)
{
	return (uint64_t)ld32(p) | (uint64_t)ld32(p + 4) << 32;
}

static inline void st64(uint8_t *p, uint64_t v)
{
	st32(p, (uint32_t)v);
	st32(p + 4, (uint32_t)(v >> 32));
}

/* Field F of an image (F_DW or F_QW, F_SHIFT, F_MASK from froce_hw.h). The
 * outer macros expand F first, so F may itself be a macro like IN(QPN). */
#define GET_DW(img, F) GET_DW_(img, F)
#define GET_QW(img, F) GET_QW_(img, F)
#define SET_DW(img, F, v) SET_DW_(img, F, v)
#define SET_QW(img, F, v) SET_QW_(img, F, v)
#define GET_DW_(img, F) FROCE_FIELD_GET(F, ld32((img) + 4 * F##_DW))
#define GET_QW_(img, F) FROCE_FIELD_GET(F, ld64((img) + 8 * F##_QW))
#define SET_DW_(img, F, v) \
	st32((img) + 4 * F##_DW, (ld32((img) + 4 * F##_DW) & ~F##_MASK) | FROCE_FIELD_PREP(F, (uint32_t)(v)))
#define SET_QW_(img, F, v) \
	st64((img) + 8 * F##_QW, (ld64((img) + 8 * F##_QW) & ~F##_MASK) | FROCE_FIELD_PREP(F, (uint64_t)(v)))
/* Byte offset of field F in its layout (the SYNDROME of a BAD_PARAM). */
#define OFF_DW(F) OFF_DW_(F)
#define OFF_QW(F) OFF_QW_(F)
#define OFF_DW_(F) (4u * F##_DW + F##_SHIFT / 8u)
#define OFF_QW_(F) (8u * F##_QW + F##_SHIFT / 8u)

/* The command being run: input (in_size bytes of the command), output
 * (out_size bytes, zeroed) and the syndrome of a refusal. */
struct fw_cmd {
	const uint8_t *in;
	uint8_t *out;
	uint32_t syndrome;
};

static inline uint8_t refuse(struct fw_cmd *c, uint8_t status, uint32_t off)
{
	c->syndrome = off;
	return status;
}

/* Reserved-bit rule: for each input dword the bits that belong to a field. */
struct fw_rsv {
	uint8_t dw;
	uint32_t mask;
};
#define RSV(F) RSV_(F)
#define RSV_QW(F) RSV_QW_(F)
#define RSV_BYTES16(F) RSV_BYTES16_(F)
#define RSV_(F) { F##_DW, F##_MASK }
#define RSV_QW_(F) { 2 * F##_QW, (uint32_t)F##_MASK }, { 2 * F##_QW + 1, (uint32_t)(F##_MASK >> 32) }
#define RSV_BYTES16_(F) \
	{ F##_BYTE / 4, ~0u }, { F##_BYTE / 4 + 1, ~0u }, { F##_BYTE / 4 + 2, ~0u }, { F##_BYTE / 4 + 3, ~0u }
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
/* OK, or BAD_PARAM with the byte offset of the first dword holding a set
 * reserved bit. Dwords [first_dw, first_dw + ndw) of the input are checked. */
uint8_t fw_check_reserved(struct fw_cmd *c, const struct fw_rsv *r, unsigned n, unsigned first_dw, unsigned ndw);

/* A BUF descriptor (layout BUF) taken from the input. */
struct fw_buf {
	uint64_t addr;
	uint32_t num_pages;
	uint32_t page_shift;
	uint32_t level;
	uint32_t off;		/* byte offset of the BUF in the input (syndromes) */
};
void fw_buf_parse(struct fw_cmd *c, uint32_t off, struct fw_buf *b);
/* Header checks: reserved bits, page shift in [shift_min, shift_max], level,
 * NUM_PAGES == want_pages, list bounds and address alignment. */
uint8_t fw_buf_check(struct fw_cmd *c, const struct fw_buf *b, uint32_t want_pages,
		     uint32_t shift_min, uint32_t shift_max);
/* Pass 1: fetch every page address and check its alignment (nothing written). */
uint8_t fw_buf_scan(struct fw_cmd *c, const struct fw_buf *b);
/* Pass 2: fetch again and write MTT[mtt_base ...]; a page that fails now
 * (the host changed the list) stops it with the pass-1 status. */
uint8_t fw_buf_write_mtt(struct fw_cmd *c, const struct fw_buf *b, uint32_t mtt_base);

/* Control-bus helpers */
void fw_ctx_write(uint32_t base, const uint8_t *img, uint32_t bytes); /* dw 1..n-1, then dw 0 */
void fw_ctx_clear(uint32_t base, uint32_t bytes);
uint32_t fw_mrt_reg(unsigned dw);

/* Resources */
int fw_mtt_alloc(uint32_t n, uint32_t *base);	/* first fit; 0 or -1 */
void fw_mtt_mark(uint32_t base, uint32_t n, bool used);
int fw_mr_alloc_index(uint32_t *index);		/* lowest free index >= 1 */
/* Writes MR_CTX `index` (VALID last) with the next tag; fills fw.mr[index]. */
void fw_mr_commit(uint32_t index, uint32_t pdn, uint8_t access, uint32_t page_shift, uint64_t iova,
		  uint64_t length, uint32_t mtt_base, uint32_t npages, uint8_t flags);
/* Invalidates MR_CTX `index` and waits until no translation uses it;
 * 0, or -1 when MRT_REGS.BUSY did not clear (the entry is invalid, the
 * bookkeeping untouched). */
int fw_mr_invalidate(uint32_t index);
void fw_mr_release(uint32_t index);		/* frees MTT range and index */
static inline uint32_t fw_mr_key(uint32_t index)
{
	return index << FROCE_KEY_TAG_W | fw.mr[index].tag;
}
bool fw_pages_fit(uint64_t bytes, uint32_t *pages);	/* 4 KiB pages of a ring */

/* Handle lookups: OK, or BAD_RESOURCE with the field's offset. */
uint8_t fw_pd_get(struct fw_cmd *c, uint32_t pdn, uint32_t off);
uint8_t fw_cq_get(struct fw_cmd *c, uint32_t cqn, uint32_t off);
/* A ring MR (CQ or QP rings) over the pages of nbufs checked BUFs, in order.
 * prepare: reserve nothing, only find an MR index and an MTT range and scan
 * the pages (EXCEED_LIM, BAD_PARAM, INTERNAL_ERR); commit: write the MTT
 * and the MR_CTX (IOVA 0, LOCAL_WRITE). */
uint8_t fw_ring_prepare(struct fw_cmd *c, const struct fw_buf *bufs, unsigned nbufs, uint32_t *mr_index,
			uint32_t *mtt_base);
uint8_t fw_ring_commit(struct fw_cmd *c, const struct fw_buf *bufs, unsigned nbufs, uint32_t mr_index,
		       uint32_t mtt_base, uint32_t pdn, uint64_t length);

/* ib_mtu enum (FROCE_MTU_*) for an Ethernet MTU, at least FROCE_MTU_256 */
uint32_t fw_ib_mtu_of(uint32_t eth_mtu);

/* Handlers (one per command) */
#define FW_DECLARE_HANDLER(name, op, in, out) uint8_t fw_cmd_##name(struct fw_cmd *c);
FROCE_CMD_LIST(FW_DECLARE_HANDLER)
#undef FW_DECLARE_HANDLER

void fw_post_eqe(uint32_t eqn, uint32_t type, uint32_t subtype, uint32_t id, uint32_t token, uint32_t status);

#endif /* FW_INT_H */
