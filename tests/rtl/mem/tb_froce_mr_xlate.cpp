// SPDX-License-Identifier: MIT
// Verilator bench for froce_mr_xlate: random MRs and page lists through the
// control port, random translation requests (good and each kind of violation)
// against a C++ reference model, random back-pressure on the segments.
//
// Usage: tb_froce_mr_xlate [--seed N] [--rounds N] [--reqs N] [--inject-error]
// Prints events only; exits 0 with one "PASS:" line, 1 on the first mismatch.

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vfroce_mr_xlate.h"
#include "froce_hw.h"
#include "verilated.h"

#ifndef NUM_MRS
#define NUM_MRS 1024
#endif
#ifndef NUM_MTT
#define NUM_MTT 65536
#endif

namespace {

typedef unsigned __int128 u128;

struct Mr {
	bool valid = false;       // as the hardware holds it (VALID and PAGE_SHIFT in range)
	uint8_t tag = 0;
	uint32_t pd = 0;
	uint8_t access = 0;
	unsigned shift = 0;       // PAGE_SHIFT as written (the hardware keeps 5 bits)
	uint64_t iova = 0;
	uint64_t length = 0;
	uint32_t base = 0;
};

struct Req {
	uint32_t key = 0;
	uint32_t pd = 0;
	uint64_t va = 0;
	uint32_t len = 0;
	uint8_t access = 0;
	uint8_t tag = 0;
	const char *kind = nullptr; // what the generator aimed at, for messages
};

struct Seg {
	uint64_t addr;
	uint32_t len;
	bool first, last;
	unsigned status;
	uint8_t tag;
	Req req;                  // the request it belongs to (expected segments only)
};

// ---------------------------------------------------------------- reference model
struct Model {
	std::vector<Mr> mr = std::vector<Mr>(NUM_MRS);
	std::vector<uint64_t> mtt = std::vector<uint64_t>(NUM_MTT);

	unsigned check(const Req &r) const
	{
		uint32_t idx = r.key >> FROCE_KEY_TAG_W;
		if (idx >= NUM_MRS || !mr[idx].valid)
			return FROCE_XLATE_KEY_INVALID;
		const Mr &m = mr[idx];
		if ((r.key & 0xff) != m.tag)
			return FROCE_XLATE_KEY_TAG;
		if (r.pd != m.pd)
			return FROCE_XLATE_PD_MISMATCH;
		if (r.access & ~m.access & 0xf)
			return FROCE_XLATE_ACCESS;
		u128 end = (u128)r.va + r.len;
		u128 mr_end = (u128)m.iova + m.length;
		if (end > ((u128)1 << 64) || r.va < m.iova || end > mr_end)
			return FROCE_XLATE_BOUNDS;
		return FROCE_XLATE_OK;
	}

	void expect(const Req &r, std::deque<Seg> &out) const
	{
		if (r.len == 0) {
			out.push_back({0, 0, true, true, FROCE_XLATE_OK, r.tag, r});
			return;
		}
		unsigned st = check(r);
		if (st != FROCE_XLATE_OK) {
			out.push_back({0, 0, true, true, st, r.tag, r});
			return;
		}
		const Mr &m = mr[r.key >> FROCE_KEY_TAG_W];
		uint64_t mask = (1ULL << m.shift) - 1;
		uint64_t pbase = m.iova & ~mask;
		uint64_t va = r.va;
		uint64_t rem = r.len;
		bool first = true;
		while (rem) {
			uint64_t pidx = (va - pbase) >> m.shift;
			uint64_t off = va & mask;
			uint64_t seg = std::min<uint64_t>(rem, (mask + 1) - off);
			uint64_t addr = mtt[(m.base + pidx) % NUM_MTT] + off;
			rem -= seg;
			out.push_back({addr, (uint32_t)seg, first, rem == 0, FROCE_XLATE_OK, r.tag, r});
			first = false;
			va += seg;
		}
	}
};

// ---------------------------------------------------------------- bench
struct CtlOp {
	bool write;
	uint32_t addr;            // word address
	uint32_t data;            // write data, or expected read data
};

class Bench {
public:
	Bench(int argc, char **argv)
	{
		for (int i = 1; i < argc; i++) {
			if (!strcmp(argv[i], "--seed") && i + 1 < argc)
				seed = strtoull(argv[++i], nullptr, 0);
			else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
				rounds = atoi(argv[++i]);
			else if (!strcmp(argv[i], "--reqs") && i + 1 < argc)
				reqs_per_round = atoi(argv[++i]);
			else if (!strcmp(argv[i], "--inject-error"))
				inject = true;
		}
		rng.seed(seed);
		ctx = std::make_unique<VerilatedContext>();
		ctx->commandArgs(argc, argv);
		ctx->randReset(2);
		ctx->randSeed((int)(seed & 0x7fffffff));
		top = std::make_unique<Vfroce_mr_xlate>(ctx.get());
	}

	int run();

private:
	uint64_t seed = 1;
	int rounds = 12;
	int reqs_per_round = 1500;
	bool inject = false;
	std::mt19937_64 rng;
	std::unique_ptr<VerilatedContext> ctx;
	std::unique_ptr<Vfroce_mr_xlate> top;
	Model model;

	uint64_t cycle = 0;
	std::deque<CtlOp> ctl_q;          // control ops to issue
	std::deque<CtlOp> ctl_reads;      // reads issued, waiting for rvalid
	std::deque<Req> req_q;            // requests to issue
	std::deque<Seg> exp_q;            // expected segments, in order
	double ready_p = 1.0;
	double req_p = 1.0;
	bool failed = false;

	// statistics
	uint64_t n_req = 0, n_seg = 0, n_ctl_reads = 0;
	uint64_t n_status[8] = {};
	std::vector<uint32_t> live_keys;  // current keys of valid MRs
	std::vector<uint32_t> stale_keys; // keys of earlier registrations
	std::vector<uint32_t> dead_idx;   // invalidated or never-valid indexes

	uint64_t rnd(uint64_t n) { return n ? rng() % n : 0; }
	bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }

	void fail(const char *what, const Seg &got, const Seg &exp)
	{
		printf("FAIL: cycle %" PRIu64 " %s: got addr=%016" PRIx64 " len=%u first=%d last=%d status=%u tag=%u;"
		       " expected addr=%016" PRIx64 " len=%u first=%d last=%d status=%u tag=%u\n",
		       cycle, what, got.addr, got.len, got.first, got.last, got.status, got.tag,
		       exp.addr, exp.len, exp.first, exp.last, exp.status, exp.tag);
		const Req &r = exp.req;
		printf("      request (%s): key=%08x pd=%06x va=%016" PRIx64 " len=%u access=%x\n",
		       r.kind ? r.kind : "-", r.key, r.pd, r.va, r.len, r.access);
		failed = true;
	}

	void step();
	bool drain(uint64_t limit);
	void reset();
	void ctl_write_mr(uint32_t idx, const Mr &m, bool valid_bit, unsigned raw_shift);
	void ctl_write_mtt(uint32_t j, uint64_t v);
	void ctl_read(uint32_t addr, uint32_t expect) { ctl_q.push_back({false, addr, expect}); }
	void register_round(int round);
	Req gen_req();
	Req gen_good(uint32_t key);
	bool measure();
};

void Bench::step()
{
	Vfroce_mr_xlate &t = *top;

	// drive inputs for this cycle
	t.ctl_valid = !ctl_q.empty();
	if (!ctl_q.empty()) {
		t.ctl_write = ctl_q.front().write;
		t.ctl_addr = ctl_q.front().addr;
		t.ctl_wdata = ctl_q.front().write ? ctl_q.front().data : (uint32_t)rng();
	}
	bool offer = !req_q.empty() && chance(req_p);
	t.s_req_valid = offer;
	if (offer) {
		const Req &r = req_q.front();
		t.s_req_key = r.key;
		t.s_req_pd = r.pd;
		t.s_req_va = r.va;
		t.s_req_len = r.len;
		t.s_req_access = r.access;
		t.s_req_tag = r.tag;
	} else {
		// garbage on the bus while not valid
		t.s_req_key = (uint32_t)rng();
		t.s_req_va = rng();
		t.s_req_len = (uint32_t)rng();
	}
	t.m_seg_ready = chance(ready_p);

	t.clk = 0;
	t.eval();

	// sample handshakes before the edge
	if (t.ctl_rvalid) {
		if (ctl_reads.empty()) {
			printf("FAIL: cycle %" PRIu64 " ctl_rvalid with no read outstanding\n", cycle);
			failed = true;
		} else {
			CtlOp op = ctl_reads.front();
			ctl_reads.pop_front();
			n_ctl_reads++;
			if (t.ctl_rdata != op.data) {
				printf("FAIL: cycle %" PRIu64 " ctl read word 0x%06x: got 0x%08x expected 0x%08x\n",
				       cycle, op.addr, t.ctl_rdata, op.data);
				failed = true;
			}
		}
	}
	if (t.ctl_valid && t.ctl_ready) {
		if (!ctl_q.front().write)
			ctl_reads.push_back(ctl_q.front());
		ctl_q.pop_front();
	}
	if (offer && t.s_req_ready) {
		model.expect(req_q.front(), exp_q);
		req_q.pop_front();
		n_req++;
	}
	if (t.m_seg_valid && t.m_seg_ready) {
		Seg got = {t.m_seg_addr, t.m_seg_len, (bool)t.m_seg_first, (bool)t.m_seg_last,
			   (unsigned)t.m_seg_status, (uint8_t)t.m_seg_tag, Req()};
		if (exp_q.empty()) {
			fail("segment with none expected", got, got);
		} else {
			Seg exp = exp_q.front();
			exp_q.pop_front();
			if (inject && n_seg == 1000)
				exp.addr ^= 1;
			if (got.addr != exp.addr || got.len != exp.len || got.first != exp.first ||
			    got.last != exp.last || got.status != exp.status || got.tag != exp.tag)
				fail("segment mismatch", got, exp);
			if (exp.first)
				n_status[exp.status & 7]++;
		}
		n_seg++;
	}

	t.clk = 1;
	t.eval();
	cycle++;
}

// run until every queue is empty and the block is idle
bool Bench::drain(uint64_t limit)
{
	uint64_t end = cycle + limit;
	while (!failed && cycle < end) {
		step();
		if (ctl_q.empty() && ctl_reads.empty() && req_q.empty() && exp_q.empty() && !top->busy)
			return true;
	}
	if (!failed)
		printf("FAIL: timeout: %zu ctl, %zu reads, %zu requests, %zu segments outstanding\n",
		       ctl_q.size(), ctl_reads.size(), req_q.size(), exp_q.size());
	failed = true;
	return false;
}

void Bench::reset()
{
	top->rst = 1;
	top->ctl_valid = 0;
	top->s_req_valid = 0;
	top->m_seg_ready = 0;
	for (int i = 0; i < 4; i++) {
		top->clk = 0;
		top->eval();
		top->clk = 1;
		top->eval();
	}
	top->rst = 0;
	for (auto &m : model.mr)
		m = Mr();
	// the MR table clears itself after reset: MRT_REGS.INIT reads 1 and
	// other control accesses wait meanwhile
	const uint32_t regs = FROCE_MRT_CTL_REGS_OFF / 4;
	ctl_read(regs + FROCE_MRT_REGS_INIT_DW, FROCE_MRT_REGS_INIT_MASK);
	ctl_read((FROCE_MRT_CTL_MR_OFF + 3 * FROCE_MR_CTX_SIZE) / 4 + FROCE_MR_CTX_VALID_DW, 0);
	uint64_t t0 = cycle;
	while (!failed && (!ctl_q.empty() || !ctl_reads.empty()) && cycle - t0 < 4 * NUM_MRS + 16)
		step();
	if (!failed && cycle - t0 < NUM_MRS) {
		printf("FAIL: MR read accepted %" PRIu64 " cycles after reset, before the table was cleared\n",
		       cycle - t0);
		failed = true;
	}
	ctl_read(regs + FROCE_MRT_REGS_BUSY_DW, 0);
	ctl_read(regs + FROCE_MRT_REGS_NUM_MRS_DW, NUM_MRS);
	ctl_read(regs + FROCE_MRT_REGS_NUM_MTT_DW, NUM_MTT);
	ctl_read(regs + 3, 0);
	drain(100);
}

void Bench::ctl_write_mr(uint32_t idx, const Mr &m, bool valid_bit, unsigned raw_shift)
{
	uint32_t w[8] = {};
	w[FROCE_MR_CTX_PDN_DW] |= (m.pd << FROCE_MR_CTX_PDN_SHIFT) & FROCE_MR_CTX_PDN_MASK;
	w[FROCE_MR_CTX_TAG_DW] |= ((uint32_t)m.tag << FROCE_MR_CTX_TAG_SHIFT) & FROCE_MR_CTX_TAG_MASK;
	// bits 7:4 of ACCESS set at random: the hardware ignores them
	w[FROCE_MR_CTX_ACCESS_DW] |= ((uint32_t)(m.access | (rnd(16) << 4)) << FROCE_MR_CTX_ACCESS_SHIFT) &
				     FROCE_MR_CTX_ACCESS_MASK;
	w[FROCE_MR_CTX_PAGE_SHIFT_DW] |= (raw_shift << FROCE_MR_CTX_PAGE_SHIFT_SHIFT) & FROCE_MR_CTX_PAGE_SHIFT_MASK;
	w[2 * FROCE_MR_CTX_IOVA_QW] = (uint32_t)m.iova;
	w[2 * FROCE_MR_CTX_IOVA_QW + 1] = (uint32_t)(m.iova >> 32);
	w[2 * FROCE_MR_CTX_LENGTH_QW] = (uint32_t)m.length;
	w[2 * FROCE_MR_CTX_LENGTH_QW + 1] = (uint32_t)(m.length >> 32);
	w[FROCE_MR_CTX_MTT_BASE_DW] |= m.base;
	w[FROCE_MR_CTX_VALID_DW] |= valid_bit ? FROCE_MR_CTX_VALID_MASK : 0;
	uint32_t wbase = (FROCE_MRT_CTL_MR_OFF + idx * FROCE_MR_CTX_SIZE) / 4;
	for (int i = 0; i < 8; i++)
		ctl_q.push_back({true, wbase + i, w[i]});
	Mr h = m;
	h.valid = valid_bit && raw_shift >= FROCE_MR_PAGE_SHIFT_MIN && raw_shift <= FROCE_MR_PAGE_SHIFT_MAX;
	h.shift = raw_shift;
	h.base = m.base % NUM_MTT;
	model.mr[idx] = h;
}

void Bench::ctl_write_mtt(uint32_t j, uint64_t v)
{
	uint32_t wbase = (FROCE_MRT_CTL_MTT_OFF + j * FROCE_MTT_ENTRY_SIZE) / 4;
	ctl_q.push_back({true, wbase, (uint32_t)v});
	ctl_q.push_back({true, wbase + 1, (uint32_t)(v >> 32)});
	model.mtt[j] = v;
}

// Re-register a random part of the MR table with new tags and new page lists.
void Bench::register_round(int round)
{
	uint32_t mtt_next = 0;
	int nmr = round == 0 ? 160 : 60 + (int)rnd(60);
	for (int n = 0; n < nmr; n++) {
		uint32_t idx = (uint32_t)rnd(NUM_MRS);
		Mr old = model.mr[idx];
		Mr m;
		m.tag = (uint8_t)(old.tag + 1 + rnd(255));     // always a new tag
		m.pd = (uint32_t)rnd(4) == 0 ? (uint32_t)rnd(1u << 24) : (uint32_t)rnd(8);
		m.access = (uint8_t)rnd(16);
		unsigned shift = FROCE_MR_PAGE_SHIFT_MIN + (unsigned)rnd(FROCE_MR_PAGE_SHIFT_MAX - FROCE_MR_PAGE_SHIFT_MIN + 1);
		m.shift = shift;
		uint64_t psize = 1ULL << shift;
		uint32_t maxpages = 1 + (uint32_t)rnd(rnd(4) == 0 ? 64 : 8);
		// offset of IOVA in its first page, length up to maxpages pages
		uint64_t off = rnd(3) == 0 ? 0 : rnd(psize);
		uint64_t length = 1 + rnd(maxpages * psize - off);
		switch (rnd(8)) {
		case 0:       // ends exactly at 2^64
			m.iova = (uint64_t)0 - length;
			break;
		case 1:       // low addresses
			m.iova = rnd(1ULL << 32);
			break;
		default:
			m.iova = (rng() & ~(psize - 1)) | off;
			if ((u128)m.iova + length > ((u128)1 << 64))
				m.iova = (uint64_t)0 - length;
			break;
		}
		m.length = length;
		uint64_t npages = ((m.iova + length - 1) >> shift) - (m.iova >> shift) + 1;
		if (mtt_next + npages > NUM_MTT)
			mtt_next = 0;       // earlier MRs of this round may now share pages: the model follows
		m.base = mtt_next;
		for (uint64_t p = 0; p < npages; p++) {
			uint64_t page = (rng() & ~(psize - 1)) & 0x000fffffffffffffULL;
			if (rnd(16) == 0)
				page |= 0xfff0000000000000ULL & ~(psize - 1);
			ctl_write_mtt(mtt_next + (uint32_t)p, page);
		}
		mtt_next += (uint32_t)npages;
		bool valid_bit = rnd(12) != 0;
		unsigned raw_shift = shift;
		if (rnd(40) == 0)
			raw_shift = rnd(2) ? FROCE_MR_PAGE_SHIFT_MIN - 1 : FROCE_MR_PAGE_SHIFT_MAX + 1 + (unsigned)rnd(10);
		if (old.valid || rnd(2))
			stale_keys.push_back(idx << 8 | old.tag);
		ctl_write_mr(idx, m, valid_bit, raw_shift);
		// with a random MTT_BASE high part above the table, the hardware wraps
		if (rnd(20) == 0 && NUM_MTT < (1u << 31)) {
			ctl_q.pop_back();
			ctl_q.pop_back();
			ctl_q.push_back({true, (uint32_t)(FROCE_MRT_CTL_MR_OFF + idx * FROCE_MR_CTX_SIZE) / 4 + FROCE_MR_CTX_MTT_BASE_DW,
					 m.base + NUM_MTT * (uint32_t)(1 + rnd(4))});
			ctl_q.push_back({true, (uint32_t)(FROCE_MRT_CTL_MR_OFF + idx * FROCE_MR_CTX_SIZE) / 4 + FROCE_MR_CTX_VALID_DW,
					 valid_bit ? FROCE_MR_CTX_VALID_MASK : 0u});
		}
	}
	if (stale_keys.size() > 4096)
		stale_keys.erase(stale_keys.begin(), stale_keys.begin() + 2048);

	live_keys.clear();
	dead_idx.clear();
	for (uint32_t i = 0; i < NUM_MRS; i++) {
		if (model.mr[i].valid)
			live_keys.push_back(i << 8 | model.mr[i].tag);
		else
			dead_idx.push_back(i);
	}

	// read back some entries: MR dwords as MR_CTX, MTT dwords
	for (int n = 0; n < 40; n++) {
		uint32_t idx = (uint32_t)rnd(NUM_MRS);
		const Mr &m = model.mr[idx];
		uint32_t w[8] = {};
		w[0] = m.pd | (uint32_t)m.tag << 24;
		w[1] = m.access | (m.shift & 0x1f) << 8;
		w[2] = (uint32_t)m.iova;
		w[3] = (uint32_t)(m.iova >> 32);
		w[4] = (uint32_t)m.length;
		w[5] = (uint32_t)(m.length >> 32);
		w[6] = m.base;
		w[7] = m.valid;
		int i = (int)rnd(8);
		ctl_read((FROCE_MRT_CTL_MR_OFF + idx * FROCE_MR_CTX_SIZE) / 4 + i, w[i]);
	}
	for (int n = 0; n < 20 && mtt_next; n++) {
		uint32_t j = (uint32_t)rnd(mtt_next);
		int hi = (int)rnd(2);
		ctl_read((FROCE_MRT_CTL_MTT_OFF + j * FROCE_MTT_ENTRY_SIZE) / 4 + hi,
			 (uint32_t)(model.mtt[j] >> (32 * hi)));
	}
	// unmapped words (MR index or MTT index beyond the tables) read 0
	if (NUM_MRS < (1u << 17))
		ctl_read((FROCE_MRT_CTL_MR_OFF + NUM_MRS * FROCE_MR_CTX_SIZE) / 4 + (uint32_t)rnd(8), 0);
	if (NUM_MTT < (1u << 20))
		ctl_read((FROCE_MRT_CTL_MTT_OFF + NUM_MTT * FROCE_MTT_ENTRY_SIZE) / 4, 0);
}

// a request inside the MR of key
Req Bench::gen_good(uint32_t key)
{
	const Mr &m = model.mr[key >> 8];
	Req r;
	r.key = key;
	r.pd = m.pd;
	r.access = (uint8_t)(m.access & rnd(16));
	uint64_t maxlen = std::min<uint64_t>(m.length, rnd(4) == 0 ? (1u << 20) : (1u << 16));
	uint64_t len = rnd(maxlen + 1);
	if (rnd(20) == 0)
		len = std::min<uint64_t>(m.length, 0xffffffffULL);  // as much as possible
	uint64_t start = rnd(m.length - len + 1);
	if (rnd(8) == 0)
		start = m.length - len;                             // up to the end
	r.va = m.iova + start;
	r.len = (uint32_t)len;
	if (r.len == 0 && rnd(2))
		r.len = 1;
	if ((u128)(r.va - m.iova) + r.len > m.length)
		r.len = 0;
	r.kind = "good";
	return r;
}

Req Bench::gen_req()
{
	Req r;
	if (live_keys.empty()) {
		r = {(uint32_t)rng(), (uint32_t)rnd(1u << 24), rng(), (uint32_t)rnd(9000), (uint8_t)rnd(16), 0, "random"};
		return r;
	}
	r = gen_good(live_keys[rnd(live_keys.size())]);
	const Mr &m = model.mr[r.key >> 8];
	switch (rnd(16)) {
	case 0:       // index beyond the table
		r.key = (uint32_t)(NUM_MRS + rnd((1u << 24) - NUM_MRS)) << 8 | (r.key & 0xff);
		r.kind = "index out of range";
		break;
	case 1:       // entry not valid
		if (!dead_idx.empty()) {
			uint32_t i = dead_idx[rnd(dead_idx.size())];
			r.key = i << 8 | model.mr[i].tag;
		}
		r.kind = "invalid entry";
		break;
	case 2:       // stale key
		if (!stale_keys.empty())
			r.key = stale_keys[rnd(stale_keys.size())];
		r.kind = "stale key";
		break;
	case 3:
		r.key ^= 1 + (uint32_t)rnd(255);
		r.kind = "tag";
		break;
	case 4:
		r.pd ^= 1u << rnd(24);
		r.kind = "pd";
		break;
	case 5:
		if ((m.access & 0xf) != 0xf) {
			uint8_t missing = (uint8_t)(~m.access & 0xf);
			uint8_t bit;
			do
				bit = (uint8_t)(1u << rnd(4));
			while (!(missing & bit));
			r.access |= bit;
		}
		r.kind = "access";
		break;
	case 6:       // starts before the MR
		if (r.len == 0)
			r.len = 1;
		r.va = m.iova - 1 - rnd(std::min<uint64_t>(m.iova, 1u << 14) + 1);
		r.kind = "below";
		break;
	case 7:       // straddles the MR end
		r.len = 1 + (uint32_t)rnd(1u << 14);
		r.va = m.iova + m.length - rnd(std::min<uint64_t>(r.len, m.length));
		r.kind = "straddle end";
		break;
	case 8:       // va + len wraps past 2^64
		r.len = 2 + (uint32_t)rnd(0xfffffffeULL);
		r.va = (uint64_t)0 - r.len + 1 + rnd(r.len - 1);
		r.kind = "wrap";
		break;
	case 9:       // zero length with a bad key: not checked
		r.len = 0;
		r.key = (uint32_t)rng();
		r.kind = "zero length";
		break;
	default:
		break;
	}
	return r;
}

// Latency of one single-segment request, and throughput of back-to-back ones.
bool Bench::measure()
{
	if (live_keys.empty())
		return true;
	ready_p = 1.0;
	req_p = 1.0;
	// latency: one request, count cycles from accept to the segment
	Req r = gen_good(live_keys[0]);
	const Mr &m = model.mr[r.key >> 8];
	r.va = m.iova;
	r.len = 1;
	r.access = 0;
	r.tag = 0x5a;
	req_q.push_back(r);
	uint64_t t_acc = 0, t_seg = 0;
	uint64_t n0 = n_req, s0 = n_seg;
	while (!failed && (n_seg == s0) && cycle < 1000000) {
		step();
		if (n_req != n0 && !t_acc)
			t_acc = cycle;
		if (n_seg != s0)
			t_seg = cycle;
	}
	unsigned latency = (unsigned)(t_seg - t_acc);
	if (!drain(1000))
		return false;
	// throughput: 2000 one-segment requests with the segments always taken
	const int N = 2000;
	for (int i = 0; i < N; i++) {
		Req q = r;
		q.tag = (uint8_t)i;
		req_q.push_back(q);
	}
	uint64_t c0 = cycle;
	if (!drain(100000))
		return false;
	double per = (double)N / (double)(cycle - c0 - latency);
	printf("measure: latency %u cycles (request accepted -> segment valid), throughput %.3f segments/cycle\n",
	       latency, per);
	if (per < 0.99) {
		printf("FAIL: throughput below one segment per cycle\n");
		failed = true;
	}
	// multi-page: the MR with the most 4 KiB pages, one request over all of it
	uint32_t best = 0;
	uint64_t best_pages = 0;
	for (uint32_t k : live_keys) {
		const Mr &x = model.mr[k >> 8];
		uint64_t pages = x.length >> x.shift;
		if (x.shift == 12 && pages > best_pages && x.length < (1ULL << 32)) {
			best = k;
			best_pages = pages;
		}
	}
	if (best_pages >= 8) {
		const Mr &x = model.mr[best >> 8];
		Req q;
		q.key = best;
		q.pd = x.pd;
		q.va = x.iova;
		q.len = (uint32_t)x.length;
		uint64_t s1 = n_seg;
		req_q.push_back(q);
		uint64_t c1 = cycle;
		if (!drain(100000))
			return false;
		uint64_t segs = n_seg - s1;
		double mp = (double)segs / (double)(cycle - c1 - latency);
		printf("measure: one %u-byte request over 4 KiB pages: %" PRIu64 " segments, %.3f segments/cycle\n",
		       q.len, segs, mp);
		if (mp < 0.9) {
			printf("FAIL: multi-page throughput below one segment per cycle\n");
			failed = true;
		}
	}
	return !failed;
}

int Bench::run()
{
	printf("tb_froce_mr_xlate: NUM_MRS=%d NUM_MTT=%d seed=%" PRIu64 " rounds=%d reqs/round=%d\n",
	       NUM_MRS, NUM_MTT, seed, rounds, reqs_per_round);
	reset();
	for (int round = 0; round < rounds && !failed; round++) {
		// registration happens with no request in flight (the firmware's rule)
		register_round(round);
		ready_p = 1.0;
		if (!drain(200000))
			break;
		if (round == 1 && !measure())
			break;
		const double ready_ps[] = {1.0, 0.7, 0.3, 0.05};
		const double req_ps[] = {1.0, 0.9, 0.5, 1.0};
		ready_p = ready_ps[round % 4];
		req_p = req_ps[(round / 4) % 4];
		uint8_t tag = 0;
		for (int i = 0; i < reqs_per_round; i++) {
			Req r = gen_req();
			r.tag = tag++;
			req_q.push_back(r);
		}
		// a few control reads while translations run (they share the read ports)
		for (int i = 0; i < 8; i++) {
			uint32_t idx = (uint32_t)rnd(NUM_MRS);
			if (model.mr[idx].valid)
				ctl_read((FROCE_MRT_CTL_MR_OFF + idx * FROCE_MR_CTX_SIZE) / 4 + FROCE_MR_CTX_IOVA_QW * 2,
					 (uint32_t)model.mr[idx].iova);
		}
		if (!drain(50000000))
			break;
		ctl_read(FROCE_MRT_CTL_REGS_OFF / 4 + FROCE_MRT_REGS_BUSY_DW, 0);
		if (!drain(100))
			break;
		printf("round %d: ready %.2f offer %.2f, %" PRIu64 " requests, %" PRIu64 " segments, cycle %" PRIu64 "\n",
		       round, ready_p, req_p, n_req, n_seg, cycle);
	}
	if (failed)
		return 1;
	static const char *names[] = {"OK", "KEY_INVALID", "KEY_TAG", "PD_MISMATCH", "ACCESS", "BOUNDS"};
	for (int s = 0; s < 6; s++) {
		printf("status %-12s %" PRIu64 " requests\n", names[s], n_status[s]);
		if (n_status[s] < 20) {
			printf("FAIL: too few %s requests to mean anything\n", names[s]);
			return 1;
		}
	}
	printf("PASS: %" PRIu64 " requests, %" PRIu64 " segments, %" PRIu64 " control reads, %" PRIu64 " cycles\n",
	       n_req, n_seg, n_ctl_reads, cycle);
	return 0;
}

} // namespace

int main(int argc, char **argv)
{
	Bench b(argc, argv);
	int rc = b.run();
	return rc;
}
