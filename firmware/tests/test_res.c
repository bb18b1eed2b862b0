/* SPDX-License-Identifier: MIT */
/* PDs, EQs and CQs. */
#include "tutil.h"

static void test_pd(void)
{
	uint32_t seen = 0;

	t_boot(&t_cfg);
	for (unsigned i = 0; i < t_cfg.num_pds - 1; i++) {
		const uint32_t pdn = t_alloc_pd(i & 3);

		CHECK(pdn >= 1 && pdn < t_cfg.num_pds && !(seen & (1u << pdn)), "PDN %u handed out twice or out of range",
		      pdn);
		seen |= 1u << pdn;
		CHECK_EQ(fw.pd[pdn].uar, i & 3);
	}
	REFUSE(ALLOC_PD, IN8(0), EXCEED_LIM, 0);
	RUN_OK(DEALLOC_PD, IN8(5));
	REFUSE(DEALLOC_PD, IN8(5), BAD_RESOURCE, 0);
	REFUSE(ALLOC_PD, IN8(4), BAD_INDEX, 0);	/* UAR 4 of 4 */
	REFUSE(ALLOC_PD, IN8(1, 0, 1), BAD_PARAM, 0);
	REFUSE(ALLOC_PD, IN8(1, 0, 0, 0, 1), BAD_PARAM, 4);
	CHECK_EQ(t_alloc_pd(2), 5);
	REFUSE(DEALLOC_PD, IN8(0), BAD_RESOURCE, 0);	/* the rings' PD */
	REFUSE(DEALLOC_PD, IN8(8), BAD_RESOURCE, 0);
	REFUSE(DEALLOC_PD, IN8(0xFF, 0xFF, 0xFF), BAD_RESOURCE, 0);
	REFUSE(DEALLOC_PD, IN8(1, 0, 0, 1), BAD_PARAM, 0);
	REFUSE(DEALLOC_PD, IN8(1, 0, 0, 0, 0, 1), BAD_PARAM, 4);
}

static void eq_in(uint8_t *in, uint64_t addr, uint32_t pages, unsigned log_size, unsigned vector)
{
	memset(in, 0, FROCE_CMD_CREATE_EQ_IN_SIZE);
	t_buf(in, 0, &addr, pages, 12, FROCE_BUF_LEVEL_CONTIG);
	TSET(in, FROCE_CMD_CREATE_EQ_IN_LOG_SIZE, log_size);
	TSET(in, FROCE_CMD_CREATE_EQ_IN_VECTOR, vector);
}

static void test_eq(void)
{
	uint8_t in[FROCE_CMD_CREATE_EQ_IN_SIZE];
	const uint64_t ring = t_host_alloc(16 * 4096, 4096);

	t_boot(&t_cfg);
	eq_in(in, ring, 4, 10, 3);	/* 1024 EQEs = 16 KiB */
	struct res r = RUN_OK(CREATE_EQ, in);
	const uint32_t eqn = TGET(r.out, FROCE_CMD_CREATE_EQ_OUT_EQN);
	const uint8_t *e = M.eqc + (size_t)eqn * FROCE_EQC_SIZE;

	CHECK_EQ(eqn, 1);
	CHECK_EQ(TGET(e, FROCE_EQC_LOG_SIZE), 10);
	CHECK_EQ(TGET(e, FROCE_EQC_VECTOR), 3);
	CHECK_EQ(TGET(e, FROCE_EQC_VALID), 1);
	CHECK_EQ(TGETQ(e, FROCE_EQC_ADDR), ring);

	const uint32_t ls = TOFF(FROCE_CMD_CREATE_EQ_IN_LOG_SIZE), vec = TOFF(FROCE_CMD_CREATE_EQ_IN_VECTOR);
#define BADEQ(mod, status, syn) \
	do { \
		eq_in(in, ring, 4, 10, 3); \
		mod; \
		REFUSE(CREATE_EQ, in, status, syn); \
	} while (0)
	BADEQ(TSET(in, FROCE_CMD_CREATE_EQ_IN_LOG_SIZE, 5), BAD_PARAM, ls);
	BADEQ(TSET(in, FROCE_CMD_CREATE_EQ_IN_LOG_SIZE, 13), BAD_PARAM, ls);
	BADEQ(TSET(in, FROCE_CMD_CREATE_EQ_IN_VECTOR, 8), BAD_PARAM, vec);
	BADEQ(TSET(in, FROCE_CMD_CREATE_EQ_IN_BUF_LEVEL, FROCE_BUF_LEVEL_LIST), BAD_PARAM,
	      TOFF(FROCE_CMD_CREATE_EQ_IN_BUF_LEVEL));
	BADEQ(TSET(in, FROCE_CMD_CREATE_EQ_IN_BUF_PAGE_SHIFT, 13), BAD_PARAM,
	      TOFF(FROCE_CMD_CREATE_EQ_IN_BUF_PAGE_SHIFT));
	BADEQ(TSET(in, FROCE_CMD_CREATE_EQ_IN_BUF_NUM_PAGES, 3), BAD_PARAM, TOFF(FROCE_CMD_CREATE_EQ_IN_BUF_NUM_PAGES));
	BADEQ(TSETQ(in, FROCE_CMD_CREATE_EQ_IN_BUF_ADDR, ring + 0x800), BAD_PARAM, 0);
	BADEQ(TSETQ(in, FROCE_CMD_CREATE_EQ_IN_BUF_ADDR, 0xFFFFFFFFFFFFF000ull), BAD_PARAM, 0);	/* wraps */
	BADEQ(in[12] |= 0x40, BAD_PARAM, 12);	/* BUF dword 3 bit 6 */
	BADEQ(in[17] |= 0x20, BAD_PARAM, 16);	/* bit 13 of dword 4 */
	BADEQ(in[20] = 1, BAD_PARAM, 20);	/* dword 5 */
#undef BADEQ
	CHECK_EQ(t_create_eq(6, 0), 2);
	CHECK_EQ(t_create_eq(12, 7), 3);
	eq_in(in, ring, 4, 10, 3);
	REFUSE(CREATE_EQ, in, EXCEED_LIM, 0);

	const uint32_t cqn = t_create_cq(6, 2, 1);

	REFUSE(DESTROY_EQ, IN8(2), RESOURCE_BUSY, 0);
	REFUSE(DESTROY_EQ, IN8(0), BAD_RESOURCE, 0);	/* EQ 0 is BAR0's */
	REFUSE(DESTROY_EQ, IN8(4), BAD_RESOURCE, 0);
	REFUSE(DESTROY_EQ, IN8(0x41), BAD_PARAM, 0);	/* bit 6 above the 6-bit EQN */
	RUN_OK(DESTROY_EQ, IN8(1));
	CHECK(!memcmp(M.eqc + FROCE_EQC_SIZE, (uint8_t[32]){ 0 }, 32), "DESTROY_EQ: EQC not cleared");
	REFUSE(DESTROY_EQ, IN8(1), BAD_RESOURCE, 0);
	RUN_OK(DESTROY_CQ, IN8((uint8_t)cqn));
	RUN_OK(DESTROY_EQ, IN8(2));
}

static void cq_in(uint8_t *in, const uint64_t *pages, uint32_t n, unsigned level, unsigned log_size, uint32_t eqn,
		  uint32_t uar)
{
	memset(in, 0, FROCE_CMD_CREATE_CQ_IN_SIZE);
	t_buf(in, 0, pages, n, 12, level);
	TSET(in, FROCE_CMD_CREATE_CQ_IN_LOG_SIZE, log_size);
	TSET(in, FROCE_CMD_CREATE_CQ_IN_EQN, eqn);
	TSET(in, FROCE_CMD_CREATE_CQ_IN_UAR, uar);
}

/* The CQC, its ring MR and its MTT entries after CREATE_CQ. */
static void check_cq(uint32_t cqn, unsigned log_size, uint32_t eqn, uint32_t uar, const uint64_t *pages, uint32_t n)
{
	const uint8_t *e = M.cqc + (size_t)cqn * FROCE_CQC_SIZE;
	const uint32_t key = TGET(e, FROCE_CQC_RING_KEY), index = key >> FROCE_KEY_TAG_W;

	CHECK_EQ(TGET(e, FROCE_CQC_LOG_SIZE), log_size);
	CHECK_EQ(TGET(e, FROCE_CQC_VALID), 1);
	CHECK_EQ(TGET(e, FROCE_CQC_PDN), FW_PDN_RINGS);
	CHECK_EQ(TGET(e, FROCE_CQC_UAR), uar);
	CHECK_EQ(TGET(e, FROCE_CQC_EQN), eqn);
	CHECK_EQ(TGETQ(e, FROCE_CQC_VA), 0);
	CHECK(index >= 1 && index < t_cfg.num_mrs, "ring key %#x", key);
	if (index < 1 || index >= t_cfg.num_mrs)
		return;
	const uint8_t *mr = M.mr + (size_t)index * FROCE_MR_CTX_SIZE;

	CHECK_EQ(TGET(mr, FROCE_MR_CTX_PDN), FW_PDN_RINGS);
	CHECK_EQ(TGET(mr, FROCE_MR_CTX_TAG), key & 0xFF);
	CHECK_EQ(TGET(mr, FROCE_MR_CTX_ACCESS), FROCE_ACCESS_LOCAL_WRITE);
	CHECK_EQ(TGET(mr, FROCE_MR_CTX_PAGE_SHIFT), 12);
	CHECK_EQ(TGETQ(mr, FROCE_MR_CTX_IOVA), 0);
	CHECK_EQ(TGETQ(mr, FROCE_MR_CTX_LENGTH), (uint64_t)FROCE_CQE_SIZE << log_size);
	CHECK_EQ(TGET(mr, FROCE_MR_CTX_VALID), 1);
	const uint32_t base = TGET(mr, FROCE_MR_CTX_MTT_BASE);

	for (uint32_t i = 0; i < n; i++)
		CHECK(t_ld64(M.mtt + 8 * (size_t)(base + i)) == pages[i], "CQ %u MTT entry %u", cqn, i);
}

static void test_cq(void)
{
	uint8_t in[FROCE_CMD_CREATE_CQ_IN_SIZE];
	uint64_t pages[600];

	t_boot(&t_cfg);
	const uint32_t eq2 = t_create_eq(6, 1);

	/* CONTIG, LIST and LIST2 rings */
	uint64_t contig = t_host_alloc(4096, 4096);

	cq_in(in, &contig, 1, FROCE_BUF_LEVEL_CONTIG, 7, 0, 1);
	struct res r = RUN_OK(CREATE_CQ, in);
	const uint32_t cq_a = TGET(r.out, FROCE_CMD_CREATE_CQ_OUT_CQN);

	check_cq(cq_a, 7, 0, 1, &contig, 1);
	t_ring_pages(pages, 4);
	cq_in(in, pages, 4, FROCE_BUF_LEVEL_LIST, 9, eq2, 2);
	r = RUN_OK(CREATE_CQ, in);
	const uint32_t cq_b = TGET(r.out, FROCE_CMD_CREATE_CQ_OUT_CQN);

	check_cq(cq_b, 9, eq2, 2, pages, 4);
	CHECK_EQ(fw.eq[eq2].refs, 1);
	/* 600 pages: two list pages behind the pointer page */
	struct model_cfg big = t_cfg;

	big.num_mtt = 1024;
	t_boot(&big);
	for (unsigned i = 0; i < 600; i++)
		pages[i] = t_page_addr(i, 12);
	cq_in(in, pages, 600, FROCE_BUF_LEVEL_LIST2, 16, 0, 0);
	TSET(in, FROCE_CMD_CREATE_CQ_IN_BUF_NUM_PAGES, 512);	/* 2 MiB ring */
	r = RUN_OK(CREATE_CQ, in);
	check_cq(TGET(r.out, FROCE_CMD_CREATE_CQ_OUT_CQN), 16, 0, 0, pages, 512);

	t_boot(&t_cfg);
	t_ring_pages(pages, 4);
	const uint32_t num = TOFF(FROCE_CMD_CREATE_CQ_IN_BUF_NUM_PAGES);
#define BADCQ(mod, status, syn) \
	do { \
		cq_in(in, pages, 4, FROCE_BUF_LEVEL_LIST, 9, 0, 1); \
		mod; \
		REFUSE(CREATE_CQ, in, status, syn); \
	} while (0)
	BADCQ(TSET(in, FROCE_CMD_CREATE_CQ_IN_LOG_SIZE, FW_CQ_LOG_MAX + 1), BAD_PARAM,
	      TOFF(FROCE_CMD_CREATE_CQ_IN_LOG_SIZE));
	BADCQ(TSET(in, FROCE_CMD_CREATE_CQ_IN_EQN, 3), BAD_RESOURCE, TOFF(FROCE_CMD_CREATE_CQ_IN_EQN));
	BADCQ(TSET(in, FROCE_CMD_CREATE_CQ_IN_EQN, 63), BAD_RESOURCE, TOFF(FROCE_CMD_CREATE_CQ_IN_EQN));
	BADCQ(TSET(in, FROCE_CMD_CREATE_CQ_IN_UAR, 4), BAD_INDEX, TOFF(FROCE_CMD_CREATE_CQ_IN_UAR));
	BADCQ(TSET(in, FROCE_CMD_CREATE_CQ_IN_BUF_NUM_PAGES, 5), BAD_PARAM, num);
	BADCQ(TSET(in, FROCE_CMD_CREATE_CQ_IN_LOG_SIZE, 10), BAD_PARAM, num);
	BADCQ(TSET(in, FROCE_CMD_CREATE_CQ_IN_BUF_PAGE_SHIFT, 13), BAD_PARAM, 12);
	BADCQ(TSET(in, FROCE_CMD_CREATE_CQ_IN_BUF_LEVEL, 3), BAD_PARAM, 13);
	BADCQ(in[12] |= 0x80, BAD_PARAM, 12);
	BADCQ(in[18] = 1, BAD_PARAM, 16);
	BADCQ(in[22] = 1, BAD_PARAM, 20);
	/* a list page not 4 KiB aligned, a page entry not page aligned, a list
	 * the DMA cannot read */
	BADCQ(TSETQ(in, FROCE_CMD_CREATE_CQ_IN_BUF_ADDR, TGETQ(in, FROCE_CMD_CREATE_CQ_IN_BUF_ADDR) + 8), BAD_PARAM, 0);
	BADCQ(model_write64(TGETQ(in, FROCE_CMD_CREATE_CQ_IN_BUF_ADDR) + 16, pages[2] + 0x100), BAD_PARAM, 0);
	BADCQ(model_unmap(TGETQ(in, FROCE_CMD_CREATE_CQ_IN_BUF_ADDR)), INTERNAL_ERR, 0);
#undef BADCQ
	/* LIST2 whose pointer is not a page */
	uint64_t two[2] = { t_page_addr(0, 12), t_page_addr(1, 12) };

	cq_in(in, two, 2, FROCE_BUF_LEVEL_LIST2, 8, 0, 1);
	model_write64(TGETQ(in, FROCE_CMD_CREATE_CQ_IN_BUF_ADDR), 0x12345008ull);
	REFUSE(CREATE_CQ, in, BAD_PARAM, 0);
	/* LIST2 whose pointer page cannot be read */
	cq_in(in, two, 2, FROCE_BUF_LEVEL_LIST2, 8, 0, 1);
	model_unmap(TGETQ(in, FROCE_CMD_CREATE_CQ_IN_BUF_ADDR));
	REFUSE(CREATE_CQ, in, INTERNAL_ERR, 0);
	/* exhaustion: the MTT (256 entries) cannot hold a 512-page ring */
	for (unsigned i = 0; i < 512; i++)
		pages[i] = t_page_addr(i, 12);
	cq_in(in, pages, 512, FROCE_BUF_LEVEL_LIST2, 16, 0, 1);
	REFUSE(CREATE_CQ, in, EXCEED_LIM, 0);
	uint32_t cqs[8];

	for (unsigned i = 0; i < t_cfg.num_cqs; i++)
		cqs[i] = t_create_cq(1, 0, 1);
	t_ring_pages(pages, 1);
	cq_in(in, pages, 1, FROCE_BUF_LEVEL_CONTIG, 1, 0, 1);
	REFUSE(CREATE_CQ, in, EXCEED_LIM, 0);

	/* destroy: busy while a QP uses it; afterwards everything is returned */
	const uint32_t pdn = t_alloc_pd(1);
	struct t_qp_args qa = { FROCE_QP_TYPE_RC, 0, 0, pdn, cqs[0], cqs[1], 1, 4, 6, 4, 6, FROCE_BUF_LEVEL_LIST };
	const uint32_t qpn = t_create_qp(&qa);

	REFUSE(DESTROY_CQ, IN8((uint8_t)cqs[0]), RESOURCE_BUSY, 0);
	REFUSE(DESTROY_CQ, IN8((uint8_t)cqs[1]), RESOURCE_BUSY, 0);
	REFUSE(DEALLOC_PD, IN8((uint8_t)pdn), RESOURCE_BUSY, 0);
	REFUSE(DESTROY_CQ, IN8(8), BAD_RESOURCE, 0);
	REFUSE(DESTROY_CQ, IN8(1, 0, 0, 1), BAD_PARAM, 0);
	/* a stuck MRT_REGS.BUSY: the QP's context is gone, its ring MR invalid,
	 * the bookkeeping kept; the command can be repeated */
	M.busy_stuck = true;
	CHECK_EQ(t_run(FROCE_CMD_DESTROY_QP, IN8((uint8_t)qpn)).status, ST(INTERNAL_ERR));
	CHECK(fw.qp_flags[qpn] & FW_F_USED, "QP freed although its ring may still be read");
	M.busy_stuck = false;
	RUN_OK(DESTROY_QP, IN8((uint8_t)qpn));
	M.busy_stuck = true;
	CHECK_EQ(t_run(FROCE_CMD_DESTROY_CQ, IN8((uint8_t)cqs[0])).status, ST(INTERNAL_ERR));
	CHECK(fw.cq[cqs[0]].flags & FW_F_USED, "CQ freed although its ring may still be written");
	M.busy_stuck = false;
	for (unsigned i = 0; i < t_cfg.num_cqs; i++)
		RUN_OK(DESTROY_CQ, IN8((uint8_t)cqs[i]));
	REFUSE(DESTROY_CQ, IN8((uint8_t)cqs[0]), BAD_RESOURCE, 0);
	RUN_OK(DEALLOC_PD, IN8((uint8_t)pdn));
	for (unsigned i = 0; i < fw.num_mrs; i++)
		CHECK(i == 0 || !(fw.mr[i].flags & FW_F_USED), "MR %u still used after everything was destroyed", i);
	for (unsigned j = 0; j < (fw.num_mtt + 31) / 32; j++)
		CHECK(fw.mtt_used[j] == 0, "MTT word %u still used", j);
}

void test_resources(void)
{
	test_pd();
	test_eq();
	test_cq();
}
