/* SPDX-License-Identifier: MIT */
/*
 * The fuzz target's input: a sequence of records, each starting with a kind
 * byte (taken modulo REC_KINDS):
 *
 *   REC_CMD    op flags len data[len]   one command; op picks from
 *                                       FROCE_CMD_LIST (mod its length), data
 *                                       is the input (zero-filled, at most
 *                                       FUZZ_IN_MAX bytes used)
 *   REC_MEM    page slot_lo slot_hi v[8] 8 bytes at FUZZ_PAGE(page % FUZZ_PAGES)
 *                                       + 8 * (slot % 512): page lists
 *   REC_EVENT  type subtype id          an engine event, then fw_poll_events
 *   REC_LINK                            the link flips, then fw_poll_events
 *   REC_BUSY   n                        MRT_REGS.BUSY reads 1 for n % 8 reads
 *
 * Host memory: FUZZ_PAGES pages at FUZZ_PAGE(i) (small addresses, easy to
 * name in a BUF), the command block at FUZZ_BLOCK; everything else unmapped.
 */
#ifndef FUZZ_FORMAT_H
#define FUZZ_FORMAT_H

enum { REC_CMD, REC_MEM, REC_EVENT, REC_LINK, REC_BUSY, REC_KINDS };

#define FUZZ_PAGES 16
#define FUZZ_PAGE(i) (0x1000ull * ((i) + 1))
#define FUZZ_BLOCK 0x100000ull
#define FUZZ_IN_MAX 80
#define FUZZ_MAX_RECORDS 64

/* REC_CMD flags */
#define FZ_EVENT 0x01		/* CMD_DOORBELL.EVENT */
#define FZ_BAD_TOKEN 0x02	/* header token differs from the doorbell's */
#define FZ_SHORT_IN 0x04	/* IN_LEN one short */
#define FZ_SHORT_OUT 0x08	/* OUT_LEN one short */
#define FZ_UNKNOWN_OP 0x10	/* opcode 0x7700 | op */
#define FZ_LONG_IN 0x20		/* IN_LEN 64 bytes longer than the command's */

#endif /* FUZZ_FORMAT_H */
