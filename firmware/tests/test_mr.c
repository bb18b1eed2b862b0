/* SPDX-License-Identifier: MIT */
/* REG_MR / DEREG_MR: page lists, MTT, keys and tags, refusals. */
#include "tutil.h"

#define IN(F) FROCE_CMD_REG_MR_IN_##F

static uint64_t pages[2100];

static void mr_in(uint8_t *in, uint32_t pdn, uint32_t access, uint64_t iova, uint64_t len, unsigned shift,
		  unsigned level)
{
	const uint64_t mask = ((uint64_t)1 << shift) - 1;
	const uint32_t n = (uint32_t)(((iova + len - 1) >> shift) - (iova >> shift) + 1);

	memset(in, 0, FROCE_CMD_REG_MR_IN_SIZE);
	TSET(in, IN(PDN), pdn);
	TSET(in, IN(ACCESS), access);
	TSETQ(in, IN(IOVA), iova);
	TSETQ(in, IN(LENGTH), len);
	for (uint32_t i = 0; i < n && i < 2100; i++)
		pages[i] = level == FROCE_BUF_LEVEL_CONTIG ? (0x5000000000ull & ~mask) + ((uint64_t)i << shift)
							  : t_page_addr(i, shift);
	t_buf(in, TOFFQ(IN(PBL_ADDR)), pages, n, shift, level);
}

static uint32_t reg(uint8_t *in, const char *what)
{
	struct res r = t_run(FROCE_CMD_REG_MR, in);

	CHECK(r.status == OK, "REG_MR %s: status %#x syndrome %#x", what, r.status, r.syndrome);
	t_consistent(__LINE__);
	CHECK_EQ(TGET(r.out, FROCE_CMD_REG_MR_OUT_LKEY), TGET(r.out, FROCE_CMD_REG_MR_OUT_RKEY));
	return TGET(r.out, FROCE_CMD_REG_MR_OUT_LKEY);
}

/* MR_CTX and MTT of the MR behind key, as REG_MR was asked */
static void check_mr(uint32_t key, const uint8_t *in)
{
	const uint32_t index = key >> FROCE_KEY_TAG_W;
	const uint8_t *e = M.mr + (size_t)index * FROCE_MR_CTX_SIZE;
	const uint8_t *pbl = in + TOFFQ(IN(PBL_ADDR));
	const uint32_t n = TGET(pbl, FROCE_BUF_NUM_PAGES);

	CHECK(index >= 1 && index < t_cfg.num_mrs, "key %#x", key);
	CHECK_EQ(TGET(e, FROCE_MR_CTX_PDN), TGET(in, IN(PDN)));
	CHECK_EQ(TGET(e, FROCE_MR_CTX_TAG), key & 0xFF);
	CHECK_EQ(TGET(e, FROCE_MR_CTX_ACCESS), TGET(in, IN(ACCESS)));
	CHECK_EQ(TGET(e, FROCE_MR_CTX_PAGE_SHIFT), TGET(pbl, FROCE_BUF_PAGE_SHIFT));
	CHECK_EQ(TGETQ(e, FROCE_MR_CTX_IOVA), TGETQ(in, IN(IOVA)));
	CHECK_EQ(TGETQ(e, FROCE_MR_CTX_LENGTH), TGETQ(in, IN(LENGTH)));
	CHECK_EQ(TGET(e, FROCE_MR_CTX_VALID), 1);
	const uint32_t base = TGET(e, FROCE_MR_CTX_MTT_BASE);

	for (uint32_t i = 0; i < n; i++)
		if (t_ld64(M.mtt + 8 * (size_t)(base + i)) != pages[i]) {
			CHECK(0, "key %#x: MTT entry %u is %#llx, page %#llx", key, i, (ull)t_ld64(M.mtt + 8 * (size_t)(base + i)),
			      (ull)pages[i]);
			break;
		}
}

static uint64_t toctou_list;
static unsigned toctou_reads;

/* the second read of the list (the MTT pass) finds entry 3 misaligned */
static void change_list_on_second_read(uint64_t addr, uint32_t len)
{
	(void)len;
	if (addr == toctou_list && ++toctou_reads == 2)
		model_write64(toctou_list + 8 * 3, 0x1234);
}

void test_mr(void)
{
	uint8_t in[FROCE_CMD_REG_MR_IN_SIZE], good[FROCE_CMD_REG_MR_IN_SIZE];
	const uint32_t lw = FROCE_ACCESS_LOCAL_WRITE;
	struct model_cfg c = t_cfg;

	c.num_mtt = 2048;
	t_boot(&c);
	const uint32_t pdn = t_alloc_pd(1);

	/* 4 KiB pages through one list, unaligned IOVA */
	mr_in(in, pdn, lw | FROCE_ACCESS_REMOTE_WRITE | FROCE_ACCESS_REMOTE_READ, 0x7F0000001234ull, 100000, 12,
	      FROCE_BUF_LEVEL_LIST);
	uint32_t k1 = reg(in, "list");

	check_mr(k1, in);
	CHECK_EQ(fw.pd[pdn].refs, 1);
	/* 2 MiB pages, contiguous */
	mr_in(in, pdn, FROCE_ACCESS_REMOTE_READ, 0x40000000ull, 3u << 21, 21, FROCE_BUF_LEVEL_CONTIG);
	const uint32_t k2 = reg(in, "contig");

	check_mr(k2, in);
	/* 1100 pages: two list pages behind a pointer page; ends exactly at 2^64 */
	mr_in(in, pdn, lw | FROCE_ACCESS_REMOTE_ATOMIC, 0 - (1100ull << 12), 1100ull << 12, 12, FROCE_BUF_LEVEL_LIST2);
	const uint32_t k3 = reg(in, "list2");

	check_mr(k3, in);
	RUN_OK(DEREG_MR, (IN8((uint8_t)k3, (uint8_t)(k3 >> 8), (uint8_t)(k3 >> 16), (uint8_t)(k3 >> 24))));

	/* re-registration of an index gives a new tag: the old key is stale */
	uint8_t dk[8] = { 0 };

	t_st32(dk, k1);
	RUN_OK(DEREG_MR, dk);
	CHECK(!memcmp(M.mr + (size_t)(k1 >> 8) * FROCE_MR_CTX_SIZE, (uint8_t[32]){ 0 }, 32), "DEREG_MR: entry not cleared");
	REFUSE(DEREG_MR, dk, BAD_RESOURCE, 0);
	mr_in(in, pdn, lw, 0x1000, 4096, 12, FROCE_BUF_LEVEL_CONTIG);
	uint32_t k4 = reg(in, "again");

	CHECK(k4 >> 8 == k1 >> 8 && (k4 & 0xFF) != (k1 & 0xFF), "re-registration: key %#x after %#x", k4, k1);
	REFUSE(DEREG_MR, dk, BAD_RESOURCE, 0);	/* the stale key names nothing */
	CHECK_EQ(TGET(M.mr + (size_t)(k4 >> 8) * FROCE_MR_CTX_SIZE, FROCE_MR_CTX_VALID), 1);

	/* refusals */
	mr_in(good, pdn, lw | FROCE_ACCESS_REMOTE_WRITE, 0x10000, 65536, 12, FROCE_BUF_LEVEL_LIST);
	const uint32_t pbl = TOFFQ(IN(PBL_ADDR)), npg = pbl + 8, len = TOFFQ(IN(LENGTH)), acc = TOFF(IN(ACCESS));
#define BADMR(mod, status, syn) \
	do { \
		memcpy(in, good, sizeof in); \
		mod; \
		REFUSE(REG_MR, in, status, syn); \
	} while (0)
	BADMR(TSET(in, IN(PDN), 0), BAD_RESOURCE, 0);
	BADMR(TSET(in, IN(PDN), 7), BAD_RESOURCE, 0);
	BADMR(TSET(in, IN(PDN), 0xFFFFFF), BAD_RESOURCE, 0);
	BADMR(in[3] = 1, BAD_PARAM, 0);
	BADMR(TSET(in, IN(ACCESS), 0x10), BAD_PARAM, acc);
	BADMR(TSET(in, IN(ACCESS), FROCE_ACCESS_REMOTE_WRITE), BAD_PARAM, acc);
	BADMR(TSET(in, IN(ACCESS), FROCE_ACCESS_REMOTE_ATOMIC | FROCE_ACCESS_REMOTE_READ), BAD_PARAM, acc);
	BADMR(in[5] = 1, BAD_PARAM, 4);
	BADMR(TSETQ(in, IN(LENGTH), 0), BAD_PARAM, len);
	BADMR(TSETQ(in, IN(LENGTH), (2048ull << 21) + 1), BAD_PARAM, len);
	BADMR(TSETQ(in, IN(IOVA), 0xFFFFFFFFFFFF0001ull), BAD_PARAM, len);	/* wraps past 2^64 */
	BADMR(TSET(in + pbl, FROCE_BUF_NUM_PAGES, 17), BAD_PARAM, npg);
	BADMR(TSET(in + pbl, FROCE_BUF_PAGE_SHIFT, 11), BAD_PARAM, pbl + 12);
	BADMR(TSET(in + pbl, FROCE_BUF_PAGE_SHIFT, 22), BAD_PARAM, pbl + 12);
	BADMR(TSET(in + pbl, FROCE_BUF_LEVEL, 3), BAD_PARAM, pbl + 13);
	BADMR(in[pbl + 14] = 1, BAD_PARAM, pbl + 12);
	BADMR(model_write64(TGETQ(in + pbl, FROCE_BUF_ADDR) + 8 * 15, pages[15] | 0x10), BAD_PARAM, pbl);
	BADMR(model_unmap(TGETQ(in + pbl, FROCE_BUF_ADDR)), INTERNAL_ERR, pbl);
	/* CONTIG base not aligned to the 2 MiB pages */
	mr_in(good, pdn, lw, 0x200000, 1u << 21, 21, FROCE_BUF_LEVEL_CONTIG);
	BADMR(TSETQ(in + pbl, FROCE_BUF_ADDR, 0x5000001000ull), BAD_PARAM, pbl);
	/* LIST holds at most 512 entries */
	mr_in(good, pdn, lw, 0, 513ull << 12, 12, FROCE_BUF_LEVEL_LIST2);
	BADMR(TSET(in + pbl, FROCE_BUF_LEVEL, FROCE_BUF_LEVEL_LIST), BAD_PARAM, npg);
	/* exhaustion: MTT, then MR indexes */
	mr_in(good, pdn, lw, 0, 2045ull << 12, 12, FROCE_BUF_LEVEL_LIST2);	/* 2044 entries free */
	BADMR((void)0, EXCEED_LIM, 0);
	/* a matching page count beyond the MTT, and a count of 0 */
	TSETQ(good, IN(IOVA), 0);
	TSETQ(good, IN(LENGTH), 4097ull << 12);
	TSET(good + pbl, FROCE_BUF_NUM_PAGES, 4097);
	BADMR((void)0, EXCEED_LIM, 0);
	BADMR(TSET(in + pbl, FROCE_BUF_NUM_PAGES, 0), BAD_PARAM, npg);
	unsigned regs = 0;

	for (;;) {
		mr_in(in, pdn, lw, 0x1000, 4096, 12, FROCE_BUF_LEVEL_CONTIG);
		struct res r = t_run(FROCE_CMD_REG_MR, in);

		if (r.status != OK) {
			CHECK(r.status == ST(EXCEED_LIM), "registering until full: %#x", r.status);
			break;
		}
		regs++;
	}
	CHECK_EQ(regs, t_cfg.num_mrs - 1 - 2);	/* index 0 reserved, k2 and k4 live */
	t_consistent(__LINE__);
	mr_in(in, pdn, lw, 0x1000, 4096, 12, FROCE_BUF_LEVEL_CONTIG);
	REFUSE(REG_MR, in, EXCEED_LIM, 0);
	REFUSE(DEALLOC_PD, (IN8((uint8_t)pdn)), RESOURCE_BUSY, 0);

	/* DEREG_MR of key 0, a key beyond the table */
	REFUSE(DEREG_MR, (IN8(0)), BAD_RESOURCE, 0);
	REFUSE(DEREG_MR, (IN8(1, 0, 0, 1)), BAD_RESOURCE, 0);
	REFUSE(DEREG_MR, (IN8(1, 0, 0, 0, 1)), BAD_PARAM, 4);

	/* a ring MR cannot be deregistered by key */
	t_st32(dk, k2);
	RUN_OK(DEREG_MR, dk);
	struct res r;
	uint8_t cin[FROCE_CMD_CREATE_CQ_IN_SIZE] = { 0 };
	uint64_t ring = t_host_alloc(4096, 4096);

	t_buf(cin, 0, &ring, 1, 12, FROCE_BUF_LEVEL_CONTIG);
	TSET(cin, FROCE_CMD_CREATE_CQ_IN_UAR, 1);
	r = RUN_OK(CREATE_CQ, cin);
	const uint32_t ring_key = TGET(M.cqc + (size_t)TGET(r.out, FROCE_CMD_CREATE_CQ_OUT_CQN) * FROCE_CQC_SIZE,
				       FROCE_CQC_RING_KEY);

	t_st32(dk, ring_key);
	REFUSE(DEREG_MR, dk, BAD_RESOURCE, 0);

	/* the host changes a page list between the checking pass and the MTT
	 * pass: refused, no MR, no bookkeeping change; MTT entries outside any
	 * MR may have been written (README "Limits") */
	t_st32(dk, k4);
	RUN_OK(DEREG_MR, dk);
	mr_in(in, pdn, lw, 0, 8 * 4096, 12, FROCE_BUF_LEVEL_LIST);
	toctou_list = TGETQ(in + pbl, FROCE_BUF_ADDR);
	toctou_reads = 0;
	M.dma_read_hook = change_list_on_second_read;
	{
		struct snapshot *s = snapshot_take();
		const uint64_t writes = M.ctl_writes;
		struct res rr = t_run(FROCE_CMD_REG_MR, in);

		CHECK(rr.status == ST(BAD_PARAM) && rr.syndrome == pbl, "list changed under REG_MR: %#x %#x", rr.status,
		      rr.syndrome);
		CHECK_EQ(toctou_reads, 2);
		CHECK(M.ctl_writes - writes <= 2 * 8, "more than the MTT entries written");
		M.ctl_writes = writes;	/* compare the rest */
		const char *d = snapshot_diff(s);

		CHECK(!d || !strcmp(d, "model table mtt changed"), "list changed under REG_MR: %s", d ? d : "");
		snapshot_free(s);
	}
	M.dma_read_hook = NULL;
	t_consistent(__LINE__);
	mr_in(in, pdn, lw, 0x1000, 4096, 12, FROCE_BUF_LEVEL_CONTIG);
	k4 = reg(in, "after the changed list");

	/* MRT_REGS.BUSY: waited for; stuck: INTERNAL_ERR, the entry invalid,
	 * the bookkeeping kept so that DEREG_MR can be retried */
	t_st32(dk, k4);
	M.busy_reads = 5;
	RUN_OK(DEREG_MR, dk);
	CHECK_EQ(M.busy_reads, 0);
	mr_in(in, pdn, lw, 0x1000, 4096, 12, FROCE_BUF_LEVEL_CONTIG);
	const uint32_t k5 = reg(in, "before busy");

	t_st32(dk, k5);
	M.busy_stuck = true;
	r = t_run(FROCE_CMD_DEREG_MR, dk);
	CHECK_EQ(r.status, ST(INTERNAL_ERR));
	CHECK_EQ(TGET(M.mr + (size_t)(k5 >> 8) * FROCE_MR_CTX_SIZE, FROCE_MR_CTX_VALID), 0);
	CHECK(fw.mr[k5 >> 8].flags & FW_F_USED, "stuck BUSY: MR freed although its pages may still be read");
	M.busy_stuck = false;
	RUN_OK(DEREG_MR, dk);
	CHECK(!(fw.mr[k5 >> 8].flags & FW_F_USED), "retried DEREG_MR did not free the MR");
}
