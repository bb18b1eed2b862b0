/* SPDX-License-Identifier: MIT */
#include "tutil.h"

#include <stdlib.h>

unsigned t_checks, t_failed;

const struct model_cfg t_cfg = {
	.num_qps = 16, .num_cqs = 8, .num_eqs = 4, .num_gids = 8, .num_uars = 4, .num_vectors = 8,
	.num_pds = 8, .rd_atomic_max = 8, .num_mrs = 32, .num_mtt = 256, .arena_bytes = 64 * 1024,
	.perm_mac = 0x02AABBCCDDEEull,
	.link_status = FROCE_REG_LINK_STATUS_UP_MASK | 10u << FROCE_REG_LINK_STATUS_SPEED_GBPS_SHIFT,
};

static uint64_t host_next;
static uint16_t token;

void t_consistent(int line)
{
	const char *e = check_consistency();

	t_checks++;
	if (e) {
		t_failed++;
		printf("FAIL line %d: inconsistent: %s\n", line, e);
	}
}

void t_boot(const struct model_cfg *cfg)
{
	model_init(cfg);
	model_map(BLOCK, FROCE_MBOX_SIZE);
	host_next = 0x200000000ull;
	token = 0x100;
	CHECK(fw_init() == 0, "fw_init failed");
	t_consistent(__LINE__);
}

void t_sizes(uint16_t op, uint32_t *in, uint32_t *out)
{
#define SZ(name, o, i, u) \
	if (op == o) { \
		*in = i; \
		*out = u; \
		return; \
	}
	FROCE_CMD_LIST(SZ)
#undef SZ
	*in = 0;
	*out = 0;
}

struct res t_run_full(uint16_t op, const uint8_t *in, uint32_t in_len, uint32_t out_len, bool event,
		      int hdr_token_delta)
{
	static uint8_t blk[FROCE_MBOX_SIZE];
	struct res r;
	uint32_t in_size, out_size;

	t_sizes(op, &in_size, &out_size);
	memset(blk, 0, sizeof blk);
	memset(blk + FROCE_MBOX_OUT_OFF, 0xCD, FROCE_MBOX_OUT_MAX);
	TSET(blk, FROCE_MBOX_HDR_OPCODE, op);
	TSET(blk, FROCE_MBOX_HDR_TOKEN, (uint16_t)(token + hdr_token_delta));
	TSET(blk, FROCE_MBOX_HDR_IN_LEN, in_len);
	TSET(blk, FROCE_MBOX_HDR_OUT_LEN, out_len);
	TSET(blk, FROCE_MBOX_HDR_SYNDROME, 0xFFFFFFFFu);
	TSET(blk, FROCE_MBOX_HDR_STATUS, 0xEE);
	if (in)
		memcpy(blk + FROCE_MBOX_IN_OFF, in, in_size);
	model_write(BLOCK, blk, sizeof blk);
	const unsigned eqes = M.n_eqes;

	fw_mbox_service(token | (event ? FROCE_REG_CMD_DOORBELL_EVENT_MASK : 0), BLOCK);
	model_read(BLOCK, blk, sizeof blk);
	r.status = (uint8_t)TGET(blk, FROCE_MBOX_HDR_STATUS);
	r.syndrome = TGET(blk, FROCE_MBOX_HDR_SYNDROME);
	r.done = TGET(blk, FROCE_MBOX_HDR_DONE);
	memcpy(r.out, blk + FROCE_MBOX_OUT_OFF, FROCE_MBOX_OUT_MAX);
	CHECK(r.done == 1, "opcode %#x: DONE not set", op);
	CHECK(TGET(blk, FROCE_MBOX_HDR_OPCODE) == op && TGET(blk, FROCE_MBOX_HDR_IN_LEN) == in_len,
	      "opcode %#x: the header's first dwords changed", op);
	/* exactly the command's output bytes are written, and only on success
	 * (memcmp first: the run on the soft core does this for every command) */
	static uint8_t untouched[FROCE_MBOX_OUT_MAX];
	const uint32_t from = r.status != OK ? 0 : out_size < FROCE_MBOX_OUT_MAX ? out_size : FROCE_MBOX_OUT_MAX;

	if (!untouched[0])
		memset(untouched, 0xCD, sizeof untouched);
	if (memcmp(r.out + from, untouched + from, FROCE_MBOX_OUT_MAX - from)) {
		for (uint32_t i = from; i < FROCE_MBOX_OUT_MAX; i++) {
			if (r.out[i] != 0xCD) {
				CHECK(0, "opcode %#x: output byte %u written (status %#x, %u output bytes)", op, i,
				      r.status, out_size);
				break;
			}
		}
	}
	CHECK_EQ(M.cmd_status, (uint32_t)token | (uint32_t)r.status << FROCE_REG_CMD_STATUS_STATUS_SHIFT);
	if (event) {
		CHECK(M.n_eqes == eqes + 1, "opcode %#x: %u EQEs for one command", op, M.n_eqes - eqes);
		if (M.n_eqes == eqes + 1) {
			const uint32_t *dw = M.eqes[eqes].dw;

			CHECK_EQ(M.eqes[eqes].eqn, 0);
			CHECK_EQ(dw[0], FROCE_EQE_TYPE_CMD_DONE);
			CHECK_EQ(dw[2], (uint32_t)token | (uint32_t)r.status << FROCE_EQE_STATUS_SHIFT);
		}
	} else {
		CHECK(M.n_eqes == eqes, "opcode %#x: EQE without EVENT", op);
	}
	token++;
	return r;
}

struct res t_run(uint16_t op, const uint8_t *in)
{
	uint32_t in_size, out_size;

	t_sizes(op, &in_size, &out_size);
	return t_run_full(op, in, in_size, out_size, false, 0);
}

struct res t_ok(uint16_t op, const uint8_t *in, int line)
{
	struct res r = t_run(op, in);

	CHECK(r.status == OK && r.syndrome == 0, "line %d: opcode %#x: status %#x syndrome %#x", line, op, r.status,
	      r.syndrome);
	t_consistent(line);
	return r;
}

void t_refused(uint16_t op, const uint8_t *in, uint8_t status, uint32_t syndrome, int line)
{
	struct snapshot *s = snapshot_take();
	struct res r = t_run(op, in);
	const char *d = snapshot_diff(s);

	CHECK(r.status == status && r.syndrome == syndrome,
	      "line %d: opcode %#x: status %#x syndrome %#x, expected %#x / %#x", line, op, r.status, r.syndrome, status,
	      syndrome);
	CHECK(!d, "line %d: opcode %#x refused, yet changed state: %s", line, op, d);
	snapshot_free(s);
	t_consistent(line);
}

uint64_t t_host_alloc(uint64_t bytes, uint64_t align)
{
	uint64_t a = (host_next + align - 1) & ~(align - 1);

	host_next = a + bytes + 4096;	/* an unmapped gap after every range */
	model_map(a, bytes);
	return a;
}

uint64_t t_page_addr(unsigned i, unsigned shift)
{
	/* descending, spread out, aligned: never contiguous */
	return 0x4000000000ull + ((uint64_t)(1000 - i) << (shift + 1));
}

void t_ring_pages(uint64_t *pages, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		pages[i] = t_host_alloc(4096, 4096);
}

void t_buf(uint8_t *in, uint32_t off, const uint64_t *pages, uint32_t n, unsigned shift, unsigned level)
{
	uint8_t *b = in + off;

	TSET(b, FROCE_BUF_NUM_PAGES, n);
	TSET(b, FROCE_BUF_PAGE_SHIFT, shift);
	TSET(b, FROCE_BUF_LEVEL, level);
	if (level == FROCE_BUF_LEVEL_CONTIG) {
		TSETQ(b, FROCE_BUF_ADDR, pages[0]);
		return;
	}
	if (level == FROCE_BUF_LEVEL_LIST) {
		const uint64_t list = t_host_alloc(4096, 4096);

		for (uint32_t i = 0; i < n; i++)
			model_write64(list + 8 * i, pages[i]);
		TSETQ(b, FROCE_BUF_ADDR, list);
		return;
	}
	const uint64_t top = t_host_alloc(4096, 4096);

	for (uint32_t l = 0; l * 512 < n; l++) {
		const uint64_t list = t_host_alloc(4096, 4096);

		model_write64(top + 8 * l, list);
		for (uint32_t i = l * 512; i < n && i < (l + 1) * 512; i++)
			model_write64(list + 8 * (i - l * 512), pages[i]);
	}
	TSETQ(b, FROCE_BUF_ADDR, top);
}

uint32_t t_alloc_pd(uint32_t uar)
{
	uint8_t in[8] = { 0 };

	TSET(in, FROCE_CMD_ALLOC_PD_IN_UAR, uar);
	struct res r = RUN_OK(ALLOC_PD, in);

	return TGET(r.out, FROCE_CMD_ALLOC_PD_OUT_PDN);
}

uint32_t t_create_eq(unsigned log_size, unsigned vector)
{
	uint8_t in[FROCE_CMD_CREATE_EQ_IN_SIZE] = { 0 };
	const uint32_t pages = (16u << log_size) > 4096 ? (16u << log_size) >> 12 : 1;
	const uint64_t ring = t_host_alloc((uint64_t)pages << 12, 4096);

	t_buf(in, 0, &ring, pages, 12, FROCE_BUF_LEVEL_CONTIG);
	TSET(in, FROCE_CMD_CREATE_EQ_IN_LOG_SIZE, log_size);
	TSET(in, FROCE_CMD_CREATE_EQ_IN_VECTOR, vector);
	struct res r = RUN_OK(CREATE_EQ, in);

	return TGET(r.out, FROCE_CMD_CREATE_EQ_OUT_EQN);
}

uint32_t t_create_cq(unsigned log_size, uint32_t eqn, uint32_t uar)
{
	uint8_t in[FROCE_CMD_CREATE_CQ_IN_SIZE] = { 0 };
	uint64_t pages[64];
	const uint32_t n = (32u << log_size) > 4096 ? (32u << log_size) >> 12 : 1;

	t_ring_pages(pages, n);
	t_buf(in, 0, pages, n, 12, n > 1 ? FROCE_BUF_LEVEL_LIST : FROCE_BUF_LEVEL_CONTIG);
	TSET(in, FROCE_CMD_CREATE_CQ_IN_LOG_SIZE, log_size);
	TSET(in, FROCE_CMD_CREATE_CQ_IN_EQN, eqn);
	TSET(in, FROCE_CMD_CREATE_CQ_IN_UAR, uar);
	struct res r = RUN_OK(CREATE_CQ, in);

	return TGET(r.out, FROCE_CMD_CREATE_CQ_OUT_CQN);
}

static uint32_t ring_pages(uint32_t log, uint32_t shift)
{
	const uint64_t bytes = (uint64_t)1 << (log + shift);

	return bytes > 4096 ? (uint32_t)(bytes >> 12) : 1;
}

void t_qp_in(uint8_t *in, const struct t_qp_args *a, uint64_t *sq_pages, uint64_t *rq_pages)
{
	const uint32_t nsq = ring_pages(a->sq_log, a->sq_shift), nrq = ring_pages(a->rq_log, a->rq_shift);

	memset(in, 0, FROCE_CMD_CREATE_QP_IN_SIZE);
	TSET(in, FROCE_CMD_CREATE_QP_IN_TYPE, a->type);
	TSET(in, FROCE_CMD_CREATE_QP_IN_PRIV, a->priv);
	TSET(in, FROCE_CMD_CREATE_QP_IN_SIG_ALL, a->sig_all);
	TSET(in, FROCE_CMD_CREATE_QP_IN_PDN, a->pdn);
	TSET(in, FROCE_CMD_CREATE_QP_IN_SEND_CQN, a->scqn);
	TSET(in, FROCE_CMD_CREATE_QP_IN_RECV_CQN, a->rcqn);
	TSET(in, FROCE_CMD_CREATE_QP_IN_UAR, a->uar);
	TSET(in, FROCE_CMD_CREATE_QP_IN_LOG_SQ_SIZE, a->sq_log);
	TSET(in, FROCE_CMD_CREATE_QP_IN_SQ_WQE_SHIFT, a->sq_shift);
	TSET(in, FROCE_CMD_CREATE_QP_IN_LOG_RQ_SIZE, a->rq_log);
	TSET(in, FROCE_CMD_CREATE_QP_IN_RQ_WQE_SHIFT, a->rq_shift);
	t_ring_pages(sq_pages, nsq);
	t_ring_pages(rq_pages, nrq);
	t_buf(in, TOFFQ(FROCE_CMD_CREATE_QP_IN_SQ_BUF_ADDR), sq_pages, nsq, 12,
	      nsq > 1 ? a->level : FROCE_BUF_LEVEL_CONTIG);
	t_buf(in, TOFFQ(FROCE_CMD_CREATE_QP_IN_RQ_BUF_ADDR), rq_pages, nrq, 12,
	      nrq > 1 ? a->level : FROCE_BUF_LEVEL_CONTIG);
}

uint32_t t_create_qp(const struct t_qp_args *a)
{
	uint8_t in[FROCE_CMD_CREATE_QP_IN_SIZE];
	uint64_t sq[64], rq[64];

	t_qp_in(in, a, sq, rq);
	struct res r = RUN_OK(CREATE_QP, in);

	return TGET(r.out, FROCE_CMD_CREATE_QP_OUT_QPN);
}

const uint8_t t_gid_v4[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 192, 168, 7, 1 };
const uint8_t t_gid_v6[16] = { 0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0xAA, 0xBB, 0xFF, 0xFE, 0xCC, 0xDD, 0xEE };

void t_add_gid(uint32_t index, const uint8_t gid[16], uint32_t type, uint64_t smac)
{
	uint8_t in[FROCE_CMD_ADD_GID_IN_SIZE] = { 0 };

	TSET(in, FROCE_CMD_ADD_GID_IN_INDEX, index);
	TSET(in, FROCE_CMD_ADD_GID_IN_TYPE, type);
	TSETQ(in, FROCE_CMD_ADD_GID_IN_SMAC, smac);
	memcpy(in + FROCE_CMD_ADD_GID_IN_GID_BYTE, gid, 16);
	RUN_OK(ADD_GID, in);
}

void t_attrs(uint8_t *in, uint32_t qpn, uint32_t mask, uint32_t state)
{
#define IN(F) FROCE_CMD_MODIFY_QP_IN_##F
	static const uint8_t dgid[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 192, 168, 7, 2 };

	memset(in, 0, FROCE_CMD_MODIFY_QP_IN_SIZE);
	TSET(in, IN(QPN), qpn);
	TSET(in, IN(ATTR_MASK), mask);
	TSET(in, IN(STATE), state);
	TSET(in, IN(PATH_MTU), FROCE_MTU_1024);
	TSET(in, IN(ACCESS_FLAGS), FROCE_ACCESS_LOCAL_WRITE | FROCE_ACCESS_REMOTE_WRITE | FROCE_ACCESS_REMOTE_READ);
	TSET(in, IN(PORT), 1);
	TSET(in, IN(QKEY), 0x11111111u);
	TSET(in, IN(RQ_PSN), 0x123456);
	TSET(in, IN(TIMEOUT), 14);
	TSET(in, IN(SQ_PSN), 0xABCDEF);
	TSET(in, IN(RETRY_CNT), 7);
	TSET(in, IN(RNR_RETRY), 6);
	TSET(in, IN(DEST_QPN), 0x4242);
	TSET(in, IN(MIN_RNR_TIMER), 12);
	TSET(in, IN(MAX_RD_ATOMIC), 4);
	TSET(in, IN(MAX_DEST_RD_ATOMIC), 8);
	TSET(in, IN(AV_SGID_INDEX), 0);
	TSET(in, IN(AV_HOP_LIMIT), 64);
	TSET(in, IN(AV_NET_TYPE), FROCE_KIND_ROCE_V2_IPV4);
	TSETQ(in, IN(AV_DMAC), 0x02AABBCCDD01ull);
	memcpy(in + IN(AV_DGID_BYTE), dgid, 16);
	/* the state the caller believes in, where CUR_STATE is used */
	if (qpn < M.cfg.num_qps)
		TSET(in, IN(CUR_STATE), TGET(M.qpc + (size_t)qpn * FROCE_QPC_SIZE, FROCE_QPC_STATE));
#undef IN
}

uint8_t t_modify(uint32_t qpn, uint32_t mask, uint32_t state)
{
	uint8_t in[FROCE_CMD_MODIFY_QP_IN_SIZE];

	t_attrs(in, qpn, mask, state);
	struct res r = t_run(FROCE_CMD_MODIFY_QP, in);

	t_consistent(__LINE__);
	return r.status;
}

static const struct {
	const char *name;
	void (*run)(void);
	enum t_unit unit;
} groups[] = {
	{ "mailbox", test_mailbox, T_UNIT_MAILBOX },
	{ "device", test_device, T_UNIT_DEVICE },
	{ "resources", test_resources, T_UNIT_RESOURCES },
	{ "mr", test_mr, T_UNIT_MR },
	{ "qp", test_qp, T_UNIT_QP },
	{ "transitions", test_transitions, T_UNIT_ALL },
	{ "events", test_events, T_UNIT_EVENTS },
};

unsigned t_group;

#ifndef T_PARTS
#define T_PARTS 1
#define T_PART 0
#endif

bool t_mine(enum t_unit u)
{
#if defined(T_ONLY)	/* one unit: the negative controls of tests/run_rv32.sh */
	return u == T_UNIT_ALL || u == T_ONLY;
#elif T_PARTS == 1
	(void)u;
	return true;
#elif T_PARTS == 2
	/* about half the soft-core run's cycles each (firmware/README.md) */
	static const unsigned char part[T_UNIT_ALL] = { [T_UNIT_TRANS_UD] = 1, [T_UNIT_TRANS_GSI] = 1 };

	return u == T_UNIT_ALL || part[u] == T_PART;
#else
#error "T_PARTS: 1 or 2"
#endif
}

/* Exit status: 0, or the number of the first group with a failed check. */
int main(void)
{
	unsigned first_failed = 0;

	setvbuf(stdout, NULL, _IONBF, 0);	/* FAIL lines survive an abort */
	for (unsigned i = 0; i < sizeof groups / sizeof groups[0]; i++) {
		const unsigned checks = t_checks, failed = t_failed;
#ifdef __riscv
		uint64_t c0, i0, c1, i1;

		t_rv32_counters(&c0, &i0);
#endif
		t_group = i + 1;
		if (!t_mine(groups[i].unit))
			continue;
		groups[i].run();
		if (t_failed != failed && !first_failed)
			first_failed = t_group;
		printf("group %u %s: %u checks, %u failed", t_group, groups[i].name, t_checks - checks,
		       t_failed - failed);
#ifdef __riscv
		t_rv32_counters(&c1, &i1);
		printf(" (cycles %llu instret %llu)", (ull)(c1 - c0), (ull)(i1 - i0));
#endif
		printf("\n");
	}
	model_free();
#ifdef __riscv
	uint32_t used, size;

	t_rv32_heap(&used, &size);
	printf("heap high-water mark: %lu of %lu bytes\n", (unsigned long)used, (unsigned long)size);
#endif
	printf("firmware unit tests: %u checks, %u failed\n", t_checks, t_failed);
	return (int)first_failed;
}
