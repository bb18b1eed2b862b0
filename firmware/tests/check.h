/* SPDX-License-Identifier: MIT */
/* Checks shared by the unit tests and the fuzz target: the firmware's
 * bookkeeping against the model's tables, and whole-state snapshots. */
#ifndef CHECK_H
#define CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Little-endian field access on byte images, with the generated macros
 * (the tests' own, so a slip in the firmware's helpers cannot hide). */
static inline uint32_t t_ld32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t t_ld64(const uint8_t *p)
{
	return (uint64_t)t_ld32(p) | (uint64_t)t_ld32(p + 4) << 32;
}
static inline void t_st32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}
static inline void t_st64(uint8_t *p, uint64_t v)
{
	t_st32(p, (uint32_t)v);
	t_st32(p + 4, (uint32_t)(v >> 32));
}
#define TGET(img, F) TGET_(img, F)
#define TGET_(img, F) ((t_ld32((img) + 4 * F##_DW) & F##_MASK) >> F##_SHIFT)
#define TGETQ(img, F) TGETQ_(img, F)
#define TGETQ_(img, F) ((t_ld64((img) + 8 * F##_QW) & F##_MASK) >> F##_SHIFT)
#define TSET(img, F, v) TSET_(img, F, v)
#define TSET_(img, F, v) \
	t_st32((img) + 4 * F##_DW, (t_ld32((img) + 4 * F##_DW) & ~F##_MASK) | (((uint32_t)(v) << F##_SHIFT) & F##_MASK))
#define TSETQ(img, F, v) TSETQ_(img, F, v)
#define TSETQ_(img, F, v) \
	t_st64((img) + 8 * F##_QW, (t_ld64((img) + 8 * F##_QW) & ~F##_MASK) | (((uint64_t)(v) << F##_SHIFT) & F##_MASK))
#define TOFF(F) TOFF_(F)
#define TOFF_(F) (4u * F##_DW + F##_SHIFT / 8u)
#define TOFFQ(F) TOFFQ_(F)
#define TOFFQ_(F) (8u * F##_QW + F##_SHIFT / 8u)

/* The firmware's bookkeeping agrees with the model's tables and with itself:
 * copies equal the hardware contexts, reference counts equal the references,
 * the MTT bitmap equals the union of the MRs' ranges, no two MRs overlap.
 * Returns NULL or a description of the first disagreement. */
const char *check_consistency(void);

struct snapshot;
struct snapshot *snapshot_take(void);
/* NULL if the firmware state and the model tables equal the snapshot's, else
 * what differs. No control-bus write may have happened either. */
const char *snapshot_diff(const struct snapshot *s);
void snapshot_free(struct snapshot *s);

#endif /* CHECK_H */
