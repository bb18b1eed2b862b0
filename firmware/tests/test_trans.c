/* SPDX-License-Identifier: MIT */
/* The IB QP state machine, driven systematically: every (type, state, next
 * state) and, per pair, the required mask, each optional bit added, each
 * required bit missing, each foreign bit added, CUR_STATE added. The
 * expectation comes from this file's own transcription of the IB rules
 * (Linux's qp_state_table), not from the firmware's table. */
#include <stdlib.h>

#include "tutil.h"

/* random masks tried per (type, state, next): 2000 natively; the run on the
 * soft core (make unit-rv32) sets fewer for time (firmware/README.md) */
#ifndef T_RANDOM_MASKS
#define T_RANDOM_MASKS 2000
#endif

#define A(x) FROCE_QP_ATTR_##x
enum { RESET, INIT, RTR, RTS, SQD, SQE, ERR, NSTATES };
static const char *const names[] = { "RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR" };

/* Required and optional attributes of cur -> next for QP type t; false if
 * the transition does not exist. */
static bool ib_rule(unsigned t, unsigned cur, unsigned next, uint32_t *req, uint32_t *opt)
{
	const bool rc = t == FROCE_QP_TYPE_RC, gsi = t == FROCE_QP_TYPE_GSI;

	*req = *opt = 0;
	if (next == RESET || (next == ERR && cur != RESET))
		return true;	/* any state -> RESET; any but RESET -> ERR */
	switch (cur * 8 + next) {
	case RESET * 8 + INIT:
		*req = A(PKEY_INDEX) | (rc ? A(PORT) | A(ACCESS_FLAGS) : gsi ? A(QKEY) : A(PORT) | A(QKEY));
		return true;
	case INIT * 8 + INIT:
		*opt = A(PKEY_INDEX) | (rc ? A(PORT) | A(ACCESS_FLAGS) : gsi ? A(QKEY) : A(PORT) | A(QKEY));
		return true;
	case INIT * 8 + RTR:
		if (rc) {
			*req = A(AV) | A(PATH_MTU) | A(DEST_QPN) | A(RQ_PSN) | A(MAX_DEST_RD_ATOMIC) | A(MIN_RNR_TIMER);
			*opt = A(ACCESS_FLAGS) | A(PKEY_INDEX);
		} else {
			*opt = A(PKEY_INDEX) | A(QKEY);
		}
		return true;
	case RTR * 8 + RTS:
		*req = rc ? A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) | A(SQ_PSN) | A(MAX_QP_RD_ATOMIC) : A(SQ_PSN);
		*opt = A(CUR_STATE) | (rc ? A(ACCESS_FLAGS) | A(MIN_RNR_TIMER) : A(QKEY));
		return true;
	case RTS * 8 + RTS:
	case SQD * 8 + RTS:
		*opt = A(CUR_STATE) | (rc ? A(ACCESS_FLAGS) | A(MIN_RNR_TIMER) : A(QKEY));
		return true;
	case SQE * 8 + RTS:
		*opt = rc ? 0 : A(CUR_STATE) | A(QKEY);
		return true;
	case RTS * 8 + SQD:
		*opt = A(EN_SQD_ASYNC_NOTIFY);
		return true;
	case SQD * 8 + SQD:
		*opt = rc ? A(PORT) | A(AV) | A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) | A(MAX_QP_RD_ATOMIC) |
				    A(MAX_DEST_RD_ATOMIC) | A(ACCESS_FLAGS) | A(PKEY_INDEX) | A(MIN_RNR_TIMER)
			  : A(PKEY_INDEX) | A(QKEY);
		return true;
	case RESET * 8 + RESET:
		return true;
	default:
		return false;
	}
}

static bool expect_ok(unsigned t, unsigned cur, unsigned next, uint32_t mask)
{
	uint32_t req, opt;

	if ((mask & A(CUR_STATE)) && cur != RTR && cur != RTS && cur != SQD && cur != SQE)
		return false;
	if (!ib_rule(t, cur, next, &req, &opt))
		return false;
	return (mask & req) == req && !(mask & ~(req | opt | A(STATE)));
}

static const uint32_t known[] = {
	A(STATE), A(CUR_STATE), A(EN_SQD_ASYNC_NOTIFY), A(ACCESS_FLAGS), A(PKEY_INDEX), A(PORT), A(QKEY), A(AV),
	A(PATH_MTU), A(TIMEOUT), A(RETRY_CNT), A(RNR_RETRY), A(RQ_PSN), A(MAX_QP_RD_ATOMIC), A(MIN_RNR_TIMER),
	A(SQ_PSN), A(MAX_DEST_RD_ATOMIC), A(DEST_QPN),
};
#define NKNOWN (sizeof known / sizeof known[0])

/* the masks tried for one (type, cur, next) */
static unsigned candidate_masks(unsigned t, unsigned cur, unsigned next, uint32_t *out)
{
	uint32_t req, opt;
	unsigned n = 0;

	if (!ib_rule(t, cur, next, &req, &opt))
		ib_rule(t, RTS, ERR, &req, &opt);	/* illegal pair: try plain masks */
	const uint32_t base = req | (next == cur ? 0 : A(STATE));

	out[n++] = base;
	out[n++] = base | opt;
	out[n++] = base | A(CUR_STATE);
	for (unsigned i = 0; i < NKNOWN; i++) {
		if (known[i] == A(STATE))
			continue;
		if (req & known[i])
			out[n++] = base & ~known[i];	/* a required bit missing */
		else
			out[n++] = base | known[i];	/* an optional or a foreign bit */
	}
	return n;
}

/* A fresh QP of type t moved to state s along legal transitions:
 * RESET -> INIT -> RTR -> RTS -> SQD, or RESET -> INIT -> ERR. */
static uint32_t qp_in_state(unsigned t, unsigned s, uint32_t pdn, uint32_t cqn)
{
	struct t_qp_args a = { t, t == FROCE_QP_TYPE_GSI, 0, pdn, cqn, cqn, 0, 2, 6, 2, 6, FROCE_BUF_LEVEL_CONTIG };
	const uint32_t qpn = t_create_qp(&a);
	static const unsigned path[] = { INIT, RTR, RTS, SQD };
	unsigned cur = RESET;

	for (unsigned i = 0; cur != s && i < 4; i++) {
		const unsigned next = s == ERR && cur == INIT ? ERR : path[i];
		uint32_t req, opt;

		ib_rule(t, cur, next, &req, &opt);
		CHECK(t_modify(qpn, req | A(STATE), next) == OK, "type %u: %s -> %s refused on the way to %s", t,
		      names[cur], names[next], names[s]);
		cur = next;
	}
	CHECK_EQ(TGET(M.qpc + (size_t)qpn * FROCE_QPC_SIZE, FROCE_QPC_STATE), s);
	return qpn;
}

void test_transitions(void)
{
	static const unsigned types[] = { FROCE_QP_TYPE_RC, FROCE_QP_TYPE_UD, FROCE_QP_TYPE_GSI };
	static const unsigned reachable[] = { RESET, INIT, RTR, RTS, SQD, ERR };	/* SQE only by the engine */
	uint32_t masks[64];
	unsigned cases = 0, legal = 0;

	/* the firmware's rule, as a function, over every pair including SQE */
	for (unsigned ti = 0; ti < 3 && t_mine(T_UNIT_TRANS_RULE); ti++)
		for (unsigned cur = 0; cur < NSTATES; cur++)
			for (unsigned next = 0; next < NSTATES; next++) {
				const unsigned n = candidate_masks(types[ti], cur, next, masks);

				for (unsigned i = 0; i < n; i++)
					CHECK(fw_qp_modify_ok(cur, next, types[ti], masks[i]) ==
						      expect_ok(types[ti], cur, next, masks[i]),
					      "rule: type %u %s -> %s mask %#x", types[ti], names[cur], names[next], masks[i]);
				srand(cur * 64 + next * 8 + ti);
				for (unsigned i = 0; i < T_RANDOM_MASKS; i++) {
					uint32_t mk = 0;

					for (unsigned b = 0; b < NKNOWN; b++)
						if (rand() % 4 == 0)
							mk |= known[b];
					CHECK(fw_qp_modify_ok(cur, next, types[ti], mk) == expect_ok(types[ti], cur, next, mk),
					      "rule: type %u %s -> %s random mask %#x", types[ti], names[cur], names[next], mk);
				}
			}
	if (t_mine(T_UNIT_TRANS_RULE))
		CHECK(!fw_qp_modify_ok(RESET, INIT, FROCE_QP_TYPE_UC,
					A(STATE) | A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS)),
		      "UC accepted");

	/* the same through MODIFY_QP on QPs really in each state */
	unsigned types_run = 0;

	for (unsigned ti = 0; ti < 3; ti++) {
		const unsigned t = types[ti];

		if (!t_mine(T_UNIT_TRANS_RC + ti))
			continue;
		types_run++;
		t_boot(&t_cfg);
		t_add_gid(0, t_gid_v4, FROCE_GID_TYPE_ROCE_V2, 0x02AABBCCDDEEull);
		const uint32_t pdn = t_alloc_pd(0), cqn = t_create_cq(4, 0, 0);

		for (unsigned si = 0; si < 6; si++) {
			const unsigned cur = reachable[si];

			for (unsigned next = 0; next < NSTATES; next++) {
				const unsigned n = candidate_masks(t, cur, next, masks);

				for (unsigned i = 0; i < n; i++) {
					const uint32_t qpn = qp_in_state(t, cur, pdn, cqn);
					const bool want = expect_ok(t, cur, next, masks[i]);
					const unsigned after = masks[i] & A(STATE) ? next : cur;
					uint8_t m[FROCE_CMD_MODIFY_QP_IN_SIZE];

					t_attrs(m, qpn, masks[i], next);
					if (t == FROCE_QP_TYPE_GSI)	/* privileged: any Q_Key */
						TSET(m, FROCE_CMD_MODIFY_QP_IN_QKEY, 0x80000001u);
					if (want) {
						const struct res r = t_run(FROCE_CMD_MODIFY_QP, m);

						CHECK(r.status == OK, "type %u %s -> %s mask %#x: refused %#x syndrome %#x", t,
						      names[cur], names[next], masks[i], r.status, r.syndrome);
						CHECK(TGET(M.qpc + (size_t)qpn * FROCE_QPC_SIZE, FROCE_QPC_STATE) == after,
						      "type %u %s -> %s mask %#x: QPC state %u", t, names[cur], names[next],
						      masks[i], TGET(M.qpc + (size_t)qpn * FROCE_QPC_SIZE, FROCE_QPC_STATE));
						t_consistent(__LINE__);
						legal++;
					} else {
						t_refused(FROCE_CMD_MODIFY_QP, m, ST(BAD_QP_STATE),
							  TOFF(FROCE_CMD_MODIFY_QP_IN_ATTR_MASK), __LINE__);
					}
					RUN_OK(DESTROY_QP, (IN8((uint8_t)qpn)));
					cases++;
				}
			}
		}
	}
	/* counted once over the parts of a split run (tests/run_rv32.sh adds their cases up) */
	if (t_mine(T_UNIT_TRANS_RULE))
		CHECK(types_run < 3 || (cases > 2000 && legal > 150), "only %u transition cases (%u legal)", cases,
		      legal);
	if (t_mine(T_UNIT_TRANS_RULE))
		printf("transitions: the rule over every (type, state, next), %u random masks each\n", T_RANDOM_MASKS);
	printf("transitions: %u MODIFY_QP cases through the mailbox, %u legal\n", cases, legal);
}
