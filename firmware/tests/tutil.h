/* SPDX-License-Identifier: MIT */
/* Test helpers: checks, the mailbox from the driver's side, object set-up. */
#ifndef TUTIL_H
#define TUTIL_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "fw.h"
#include "model_hal.h"

extern unsigned t_checks, t_failed;
typedef unsigned long long ull;

#define CHECK(cond, ...) \
	do { \
		t_checks++; \
		if (!(cond)) { \
			t_failed++; \
			printf("FAIL %s:%d: ", __FILE__, __LINE__); \
			printf(__VA_ARGS__); \
			printf("\n"); \
		} \
	} while (0)
#define CHECK_EQ(a, b) \
	CHECK((ull)(a) == (ull)(b), "%s = %#llx, expected %s = %#llx", #a, (ull)(a), #b, (ull)(b))

#define BLOCK 0x100000000ull	/* the command block */
#define OK FROCE_CMD_STATUS_OK
#define ST(x) FROCE_CMD_STATUS_##x

extern const struct model_cfg t_cfg;	/* the default platform */
void t_boot(const struct model_cfg *cfg);
void t_consistent(int line);

struct res {
	uint8_t status;
	uint32_t syndrome;
	uint32_t done;
	uint8_t out[FROCE_MBOX_OUT_MAX];
};
void t_sizes(uint16_t op, uint32_t *in, uint32_t *out);
/* One command through the block: header and input written, CMD_DOORBELL
 * (with EVENT when asked, hdr_token_delta != 0 makes the header's token
 * differ), then the header and output read back. */
struct res t_run_full(uint16_t op, const uint8_t *in, uint32_t in_len, uint32_t out_len, bool event,
		      int hdr_token_delta);
struct res t_run(uint16_t op, const uint8_t *in);
struct res t_ok(uint16_t op, const uint8_t *in, int line);
void t_refused(uint16_t op, const uint8_t *in, uint8_t status, uint32_t syndrome, int line);
#define RUN_OK(op, in) t_ok(FROCE_CMD_##op, in, __LINE__)
/* an 8-byte input from its bytes, usable as a macro argument */
#define IN8(...) ((uint8_t[8]){ __VA_ARGS__ })
#define REFUSE(op, in, st, syn) t_refused(FROCE_CMD_##op, in, ST(st), syn, __LINE__)

/* host memory: a fresh, mapped, aligned range */
uint64_t t_host_alloc(uint64_t bytes, uint64_t align);
/* page addresses nobody maps (MR pages are never read by the firmware) */
uint64_t t_page_addr(unsigned i, unsigned shift);
/* A BUF (layout BUF) at in + off describing pages[0..n) with `level`;
 * builds the lists in host memory. */
void t_buf(uint8_t *in, uint32_t off, const uint64_t *pages, uint32_t n, unsigned shift, unsigned level);
/* n fresh 4 KiB ring pages (not contiguous) */
void t_ring_pages(uint64_t *pages, uint32_t n);

/* objects with good parameters */
uint32_t t_alloc_pd(uint32_t uar);
uint32_t t_create_eq(unsigned log_size, unsigned vector);
uint32_t t_create_cq(unsigned log_size, uint32_t eqn, uint32_t uar);
struct t_qp_args {
	uint32_t type, priv, sig_all, pdn, scqn, rcqn, uar;
	uint32_t sq_log, sq_shift, rq_log, rq_shift;
	unsigned level;
};
void t_qp_in(uint8_t *in, const struct t_qp_args *a, uint64_t *sq_pages, uint64_t *rq_pages);
uint32_t t_create_qp(const struct t_qp_args *a);
void t_add_gid(uint32_t index, const uint8_t gid[16], uint32_t type, uint64_t smac);
extern const uint8_t t_gid_v4[16], t_gid_v6[16];
/* MODIFY_QP input with every attribute at a good value */
void t_attrs(uint8_t *in, uint32_t qpn, uint32_t mask, uint32_t state);
uint8_t t_modify(uint32_t qpn, uint32_t mask, uint32_t state);

/* the test group running: 1..7 in main's order, 0 before the first. A run
 * on the soft core reports it as the failed "test" (tests/rv32/sys.c). */
extern unsigned t_group;
/* Units of work. The run on the soft core splits them between two images
 * that run side by side (-DT_PARTS=2 -DT_PART=0 or 1, tests/run_rv32.sh);
 * -DT_ONLY=<unit> runs one; otherwise (the native builds) every unit runs. */
enum t_unit {
	T_UNIT_MAILBOX, T_UNIT_DEVICE, T_UNIT_RESOURCES, T_UNIT_MR, T_UNIT_QP, T_UNIT_EVENTS,
	T_UNIT_TRANS_RULE,	/* test_trans.c: the rule as a function */
	T_UNIT_TRANS_RC,	/* test_trans.c: MODIFY_QP on RC QPs, */
	T_UNIT_TRANS_UD,	/* UD, */
	T_UNIT_TRANS_GSI,	/* GSI (in this order) */
	T_UNIT_ALL		/* a group made of units: runs in every part */
};
bool t_mine(enum t_unit u);

#ifdef __riscv
/* tests/rv32/sys.c: the cycle and instret CSRs, heap in use and its size */
void t_rv32_counters(uint64_t *cycles, uint64_t *instret);
void t_rv32_heap(uint32_t *used, uint32_t *size);
#endif

void test_mailbox(void);
void test_device(void);
void test_resources(void);
void test_mr(void);
void test_qp(void);
void test_transitions(void);
void test_events(void);

#endif /* TUTIL_H */
