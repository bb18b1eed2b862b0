// SPDX-License-Identifier: MIT
// Verilator bench for froce_doorbell: random binds (including rebinds to
// another page, unbinds, out-of-range indexes, binds during init_busy) and
// random doorbells (owner page, other pages, the page a rebound queue left,
// out-of-range and aliasing QPN/CQN, unbound queues, TYPE 0, bad types,
// partial-strobe and misaligned writes) against a C++ reference model. AW and
// W are driven independently with random delays, BREADY and the three output
// streams get random back-pressure. Every emitted doorbell is checked in
// order per stream, the counters at every drain point, and the AXI and
// stream handshake rules on every cycle. Doorbells are built with the C
// header (include/froce_hw.h), the RTL decodes them with froce_hw.vh.
//
// Usage: tb_froce_doorbell [--seed N] [--rounds N] [--dbs N]
// Prints a summary; exits 0 with one "PASS:" line, 1 on the first failure.
//
// Timing contract used by the model: a doorbell is classified when the bench
// creates it, and no bind touches a table entry that an outstanding doorbell
// (created, B response not yet received) depends on. The RTL checks a
// doorbell between its AW/W handshakes and its B response, so the model's
// answer is exact whatever the pipeline timing.

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vfroce_doorbell.h"
#include "froce_hw.h"
#include "verilated.h"

#ifndef NUM_QPS
#define NUM_QPS 256
#endif
#ifndef NUM_CQS
#define NUM_CQS 256
#endif
#ifndef NUM_UARS
#define NUM_UARS 256
#endif
#ifndef FIFO_DEPTH
#define FIFO_DEPTH 4
#endif

namespace {

enum Outcome { O_SQ, O_RQ, O_CQ, O_REJECT, O_MALFORMED, O_EMPTY };

struct QpItem {
	uint32_t qpn;
	uint32_t pi;
	bool operator==(const QpItem &o) const { return qpn == o.qpn && pi == o.pi; }
};

struct CqItem {
	uint32_t cqn, ci, sol, sn;
	bool operator==(const CqItem &o) const
	{
		return cqn == o.cqn && ci == o.ci && sol == o.sol && sn == o.sn;
	}
};

struct Db {
	uint32_t addr;
	uint64_t data;
	uint8_t strb;
	Outcome out;
	int dep_table;  // 0 none, 1 QP, 2 CQ: the outcome depended on this entry
	uint32_t dep_idx;
	std::string what;  // what the generator aimed at
	bool aw_done = false, w_done = false;
};

struct Stats {
	std::map<std::string, uint64_t> kind;  // doorbells by generator aim
	uint64_t binds = 0, rebinds = 0, unbinds = 0, bind_oob = 0, bind_init = 0, bind_blocked = 0;
	uint64_t w_before_aw = 0, aw_before_w = 0, same_cycle = 0;
	uint64_t emitted_sq = 0, emitted_rq = 0, emitted_cq = 0;
	uint64_t stall_cycles_full = 0;
	uint64_t axi_wait = 0;  // cycles with AWVALID or WVALID waiting for READY
	uint64_t resets = 0;
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
			else if (!strcmp(argv[i], "--dbs") && i + 1 < argc)
				dbs_per_round = atoi(argv[++i]);
		}
		rng.seed(seed);
		ctx = std::make_unique<VerilatedContext>();
		ctx->commandArgs(argc, argv);
		ctx->randReset(2);  // RAMs start random: the sweep after rst must clear them
		ctx->randSeed((int)(seed & 0x7fffffff));
		top = std::make_unique<Vfroce_doorbell>(ctx.get());
		qp_page.assign(NUM_QPS, -1);
		cq_page.assign(NUM_CQS, -1);
		qp_prev.assign(NUM_QPS, -1);
		cq_prev.assign(NUM_CQS, -1);
		qp_dep.assign(NUM_QPS, 0);
		cq_dep.assign(NUM_CQS, 0);
		// the indexes and pages most traffic uses (all of them when the tables are small)
		for (uint32_t i = 0; i < 12; i++)
			act_qp.push_back(i < 2 ? (i ? NUM_QPS - 1 : 0) : urand(NUM_QPS));
		for (uint32_t i = 0; i < 12; i++)
			act_cq.push_back(i < 2 ? (i ? NUM_CQS - 1 : 0) : urand(NUM_CQS));
		for (uint32_t i = 0; i < 6; i++)
			act_page.push_back(i < 2 ? (i ? NUM_UARS - 1 : 0) : urand(NUM_UARS));
	}

	int run();

private:
	uint64_t seed = 1;
	int rounds = 10;
	int dbs_per_round = 3000;
	std::mt19937_64 rng;
	std::unique_ptr<VerilatedContext> ctx;
	std::unique_ptr<Vfroce_doorbell> top;
	uint64_t cycle = 0;

	// model
	std::vector<int> qp_page, cq_page;  // -1: unbound
	std::vector<int> qp_prev, cq_prev;  // page before the last rebind, -1 none
	std::vector<int> qp_dep, cq_dep;    // outstanding doorbells depending on the entry
	uint64_t m_acc = 0, m_rej = 0, m_mal = 0;
	// the RTL's counter pulses (inc_*) added up, as froce_counters does
	uint64_t c_acc = 0, c_rej = 0, c_mal = 0;
	std::deque<QpItem> exp_sq, exp_rq;
	std::deque<CqItem> exp_cq;

	// traffic
	std::deque<Db> dbs;      // created, B not received; front is the oldest
	size_t aw_next = 0;      // index in dbs of the next doorbell for AW
	size_t w_next = 0;
	std::vector<uint32_t> act_qp, act_cq, act_page;

	// knobs of the current round
	double p_out_ready = 1, p_bready = 1, p_aw_idle = 0, p_w_idle = 0, p_bind = 0;
	size_t max_outstanding = 4;
	bool hold_sq = false;  // m_sq_db_ready forced low
	double p_flip = 0;     // bursty back-pressure: chance per cycle that a stream stops or restarts
	bool stopped[3] = {false, false, false};

	// previous cycle, for the stability rules
	bool prev_bvalid_stalled = false;
	bool prev_sq_stalled = false, prev_rq_stalled = false, prev_cq_stalled = false;
	QpItem prev_sq{}, prev_rq{};
	CqItem prev_cq{};

	Stats st;

	uint32_t urand(uint32_t n) { return (uint32_t)(rng() % n); }
	bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }

	[[noreturn]] void fail(const std::string &msg)
	{
		printf("FAIL: cycle %" PRIu64 ": %s (seed %" PRIu64 ")\n", cycle, msg.c_str(), seed);
		fflush(stdout);
		exit(1);
	}

	static std::string fmt_qp(const QpItem &q)
	{
		char b[64];
		snprintf(b, sizeof b, "{qpn=0x%06x pi=0x%04x}", q.qpn, q.pi);
		return b;
	}
	static std::string fmt_cq(const CqItem &c)
	{
		char b[96];
		snprintf(b, sizeof b, "{cqn=0x%06x ci=0x%06x sol=%u sn=%u}", c.cqn, c.ci, c.sol, c.sn);
		return b;
	}

	uint32_t rand_page_other(int not_this)
	{
		for (;;) {
			uint32_t p = chance(0.7) ? act_page[urand(act_page.size())] : urand(NUM_UARS);
			if ((int)p != not_this)
				return p;
		}
	}

	void make_db();
	void make_bind();
	void tick(bool in_rst);
	void drain(const char *where);
	void do_reset();
	void round(int r);
	void throughput();
	void stall_test();
	void check_counters(const char *where);
};

// One doorbell: choose the aim, build the write with the C header, classify it.
void Bench::make_db()
{
	Db d{};
	uint32_t slot = urand(FROCE_UAR_DB_SLOTS) * 8;
	uint32_t page = act_page[urand(act_page.size())];
	uint64_t rnd = rng();
	uint32_t dw0 = 0, dw1 = 0;
	d.strb = 0xFF;
	d.out = O_EMPTY;
	d.dep_table = 0;
	d.dep_idx = 0;

	int aim = urand(100);
	// queue kind: 0 SQ, 1 RQ, 2 CQ
	int qk = urand(3);
	bool cq = qk == 2;
	const std::vector<uint32_t> &act = cq ? act_cq : act_qp;
	const uint32_t num = cq ? NUM_CQS : NUM_QPS;
	std::vector<int> &pages = cq ? cq_page : qp_page;
	std::vector<int> &prev = cq ? cq_prev : qp_prev;
	uint32_t idx = chance(0.9) ? act[urand(act.size())] : urand(num);
	uint32_t num_field = idx;  // the 24-bit QPN/CQN written

	if (aim < 45) {
		// a queue from its owner page (accepted if bound)
		if (pages[idx] >= 0)
			page = pages[idx];
		d.what = pages[idx] >= 0 ? "owner page" : "unbound queue";
	} else if (aim < 57) {
		d.what = "other page";
		page = rand_page_other(pages[idx]);
	} else if (aim < 62) {
		// the page the queue was bound to before its last rebind
		if (prev[idx] >= 0 && prev[idx] != pages[idx]) {
			page = prev[idx];
			d.what = "old page after rebind";
		} else {
			page = rand_page_other(pages[idx]);
			d.what = "other page";
		}
	} else if (aim < 70) {
		// out of range; often aliasing a bound entry, from that entry's owner page
		uint32_t hi = 1 + urand((1u << 24) / num - 1);
		num_field = (uint32_t)(chance(0.3) ? (chance(0.5) ? 0xFFFFFFu : num) : hi * num + idx) & 0xFFFFFFu;
		if (pages[num_field % num] >= 0)
			page = pages[num_field % num];
		d.what = "index out of range";
	} else if (aim < 76) {
		d.what = "type 0";
	} else if (aim < 82) {
		d.what = "bad type";
	} else if (aim < 90) {
		d.what = "partial strobes";
		do {
			d.strb = (uint8_t)urand(256);
		} while (d.strb == 0xFF || d.strb == 0);
		if (chance(0.5))
			d.strb = chance(0.5) ? 0x0F : 0xF0;  // a 32-bit write
		if (pages[idx] >= 0)
			page = pages[idx];
	} else if (aim < 96) {
		d.what = "misaligned";
		slot = (urand(FROCE_UAR_DB_SLOTS) * 8) | (1 + urand(7));
		if (pages[idx] >= 0)
			page = pages[idx];
	} else {
		d.what = "owner page, max fields";
		if (pages[idx] >= 0)
			page = pages[idx];
		rnd = ~0ull;
	}

	uint32_t type = cq ? FROCE_DB_TYPE_CQ_ARM : (qk ? FROCE_DB_TYPE_RQ : FROCE_DB_TYPE_SQ);
	if (d.what == "type 0")
		type = 0;
	else if (d.what == "bad type")
		type = 4 + urand(252);

	if (cq) {
		dw0 = ((num_field << FROCE_DB_CQ_CQN_SHIFT) & FROCE_DB_CQ_CQN_MASK) |
		      ((type << FROCE_DB_CQ_TYPE_SHIFT) & FROCE_DB_CQ_TYPE_MASK);
		dw1 = (uint32_t)(rnd >> 32);  // CI, SOLICITED, SN and reserved bits 27:25 random
	} else {
		dw0 = ((num_field << FROCE_DB_QP_QPN_SHIFT) & FROCE_DB_QP_QPN_MASK) |
		      ((type << FROCE_DB_QP_TYPE_SHIFT) & FROCE_DB_QP_TYPE_MASK);
		dw1 = (uint32_t)(rnd >> 32);  // PI and reserved bits 31:16 random
	}
	d.data = (uint64_t)dw1 << 32 | dw0;
	d.addr = (page << FROCE_UAR_PAGE_SHIFT) | slot;

	// reference model
	bool shape_ok = d.strb == 0xFF && (d.addr & 7) == 0;
	if (!shape_ok) {
		d.out = O_MALFORMED;
	} else if (type == 0) {
		d.out = O_EMPTY;
	} else if (type > 3) {
		d.out = O_MALFORMED;
	} else {
		bool in = num_field < num;
		bool ok = in && pages[num_field] >= 0 && (uint32_t)pages[num_field] == page;
		if (in) {
			d.dep_table = cq ? 2 : 1;
			d.dep_idx = num_field;
			(cq ? cq_dep : qp_dep)[num_field]++;
		}
		if (!ok) {
			d.out = O_REJECT;
		} else if (cq) {
			d.out = O_CQ;
			CqItem c;
			c.cqn = num_field;
			c.ci = (dw1 >> FROCE_DB_CQ_CI_SHIFT) & (FROCE_DB_CQ_CI_MASK >> FROCE_DB_CQ_CI_SHIFT);
			c.sol = (dw1 >> FROCE_DB_CQ_SOLICITED_SHIFT) & 1;
			c.sn = (dw1 >> FROCE_DB_CQ_SN_SHIFT) & 15;
			exp_cq.push_back(c);
		} else {
			d.out = qk ? O_RQ : O_SQ;
			QpItem q{num_field, (dw1 >> FROCE_DB_QP_PI_SHIFT) & 0xFFFF};
			(qk ? exp_rq : exp_sq).push_back(q);
		}
	}
	switch (d.out) {
	case O_SQ: case O_RQ: case O_CQ: m_acc++; break;
	case O_REJECT: m_rej++; break;
	case O_MALFORMED: m_mal++; break;
	case O_EMPTY: break;
	}
	static const char *const oname[] = {"accepted", "accepted", "accepted", "rejected", "malformed", "ignored"};
	st.kind[d.what + " -> " + oname[d.out]]++;
	dbs.push_back(d);
}

// Maybe drive a bind this cycle (inputs only; the model updates in tick()).
struct BindIn {
	bool qv = false, cv = false;
	uint32_t qpn = 0, qpuar = 0, cqn = 0, cquar = 0;
};
static BindIn bind_in;

void Bench::make_bind()
{
	bind_in = BindIn{};
	for (int t = 0; t < 2; t++) {
		if (!chance(p_bind))
			continue;
		bool cq = t == 1;
		const uint32_t num = cq ? NUM_CQS : NUM_QPS;
		const std::vector<uint32_t> &act = cq ? act_cq : act_qp;
		uint32_t idx = chance(0.85) ? act[urand(act.size())] : urand(num);
		if (chance(0.07))
			idx = (idx + num * (1 + urand((1u << 24) / num - 1))) & 0xFFFFFF;  // out of range
		uint32_t uar;
		if (chance(0.08))
			uar = chance(0.5) ? 0xFFFF : NUM_UARS + urand(0x10000 - NUM_UARS);  // unbind
		else
			uar = chance(0.8) ? act_page[urand(act_page.size())] : urand(NUM_UARS);
		if (idx < num && (cq ? cq_dep : qp_dep)[idx] > 0) {
			st.bind_blocked++;
			continue;
		}
		if (cq) {
			bind_in.cv = true;
			bind_in.cqn = idx;
			bind_in.cquar = uar;
		} else {
			bind_in.qv = true;
			bind_in.qpn = idx;
			bind_in.qpuar = uar;
		}
	}
}

void Bench::tick(bool in_rst)
{
	Vfroce_doorbell *t = top.get();

	// ---- inputs ----
	t->rst = in_rst;
	bool init_busy = t->init_busy;  // registered: the value for this cycle
	t->bind_qp_valid = bind_in.qv;
	t->bind_qp_qpn = bind_in.qpn;
	t->bind_qp_uar = bind_in.qpuar;
	t->bind_cq_valid = bind_in.cv;
	t->bind_cq_cqn = bind_in.cqn;
	t->bind_cq_uar = bind_in.cquar;

	// AW / W: keep valid and payload until the handshake
	if (!t->s_axil_awvalid && aw_next < dbs.size() && !in_rst && !chance(p_aw_idle)) {
		t->s_axil_awvalid = 1;
		t->s_axil_awaddr = dbs[aw_next].addr;
	}
	if (!t->s_axil_wvalid && w_next < dbs.size() && !in_rst && !chance(p_w_idle)) {
		t->s_axil_wvalid = 1;
		t->s_axil_wdata = dbs[w_next].data;
		t->s_axil_wstrb = dbs[w_next].strb;
	}
	t->s_axil_bready = chance(p_bready);
	for (int i = 0; i < 3; i++)
		if (chance(p_flip))
			stopped[i] = !stopped[i];
	t->m_sq_db_ready = !hold_sq && !stopped[0] && chance(p_out_ready);
	t->m_rq_db_ready = !stopped[1] && chance(p_out_ready);
	t->m_cq_arm_ready = !stopped[2] && chance(p_out_ready);
	if ((t->s_axil_awvalid && !t->s_axil_awready) || (t->s_axil_wvalid && !t->s_axil_wready))
		st.axi_wait++;

	t->clk = 0;
	t->eval();

	// ---- sample and check ----
	if (in_rst) {
		if (t->s_axil_awready || t->s_axil_wready)
			fail("awready/wready high during rst");
	}
	QpItem sq{(uint32_t)t->m_sq_db_qpn, (uint32_t)t->m_sq_db_pi};
	QpItem rq{(uint32_t)t->m_rq_db_qpn, (uint32_t)t->m_rq_db_pi};
	CqItem cqi{(uint32_t)t->m_cq_arm_cqn, (uint32_t)t->m_cq_arm_ci, (uint32_t)t->m_cq_arm_solicited,
		   (uint32_t)t->m_cq_arm_sn};
	if (!in_rst) {
		c_acc += t->inc_accepted;
		c_rej += t->inc_rejected;
		c_mal += t->inc_malformed;
		if (prev_bvalid_stalled && !t->s_axil_bvalid)
			fail("BVALID dropped without BREADY");
		if (prev_sq_stalled && (!t->m_sq_db_valid || !(sq == prev_sq)))
			fail("SQ stream changed while stalled");
		if (prev_rq_stalled && (!t->m_rq_db_valid || !(rq == prev_rq)))
			fail("RQ stream changed while stalled");
		if (prev_cq_stalled && (!t->m_cq_arm_valid || !(cqi == prev_cq)))
			fail("CQ arm stream changed while stalled");
	}
	if (t->s_axil_bvalid && t->s_axil_bresp != 0)
		fail("BRESP not OKAY");

	bool aw_hs = t->s_axil_awvalid && t->s_axil_awready;
	bool w_hs = t->s_axil_wvalid && t->s_axil_wready;
	bool b_hs = t->s_axil_bvalid && t->s_axil_bready;

	if (!in_rst) {
		if (t->m_sq_db_valid && t->m_sq_db_ready) {
			if (exp_sq.empty())
				fail("SQ doorbell with none expected: " + fmt_qp(sq));
			if (!(exp_sq.front() == sq))
				fail("SQ doorbell mismatch: got " + fmt_qp(sq) + " expected " + fmt_qp(exp_sq.front()));
			exp_sq.pop_front();
			st.emitted_sq++;
		}
		if (t->m_rq_db_valid && t->m_rq_db_ready) {
			if (exp_rq.empty())
				fail("RQ doorbell with none expected: " + fmt_qp(rq));
			if (!(exp_rq.front() == rq))
				fail("RQ doorbell mismatch: got " + fmt_qp(rq) + " expected " + fmt_qp(exp_rq.front()));
			exp_rq.pop_front();
			st.emitted_rq++;
		}
		if (t->m_cq_arm_valid && t->m_cq_arm_ready) {
			if (exp_cq.empty())
				fail("CQ arm with none expected: " + fmt_cq(cqi));
			if (!(exp_cq.front() == cqi))
				fail("CQ arm mismatch: got " + fmt_cq(cqi) + " expected " + fmt_cq(exp_cq.front()));
			exp_cq.pop_front();
			st.emitted_cq++;
		}
	}
	if (hold_sq && t->m_sq_db_valid)
		st.stall_cycles_full++;

	prev_bvalid_stalled = t->s_axil_bvalid && !t->s_axil_bready;
	prev_sq_stalled = t->m_sq_db_valid && !t->m_sq_db_ready;
	prev_rq_stalled = t->m_rq_db_valid && !t->m_rq_db_ready;
	prev_cq_stalled = t->m_cq_arm_valid && !t->m_cq_arm_ready;
	prev_sq = sq;
	prev_rq = rq;
	prev_cq = cqi;

	// ---- clock edge ----
	t->clk = 1;
	t->eval();
	cycle++;

	// ---- bench state ----
	if (aw_hs) {
		Db &d = dbs[aw_next];
		d.aw_done = true;
		if (d.w_done)
			st.w_before_aw++;
		else if (w_hs && w_next == aw_next)
			st.same_cycle++;
		else
			st.aw_before_w++;
		aw_next++;
		t->s_axil_awvalid = 0;
	}
	if (w_hs) {
		dbs[w_next].w_done = true;
		w_next++;
		t->s_axil_wvalid = 0;
	}
	if (b_hs) {
		if (dbs.empty() || !dbs.front().aw_done || !dbs.front().w_done)
			fail("B response before the write's AW and W handshakes");
		Db &d = dbs.front();
		if (d.dep_table == 1)
			qp_dep[d.dep_idx]--;
		else if (d.dep_table == 2)
			cq_dep[d.dep_idx]--;
		dbs.pop_front();
		aw_next--;
		w_next--;
	}
	// binds: ignored during rst and init_busy
	if (!in_rst && !init_busy) {
		if (bind_in.qv && bind_in.qpn < NUM_QPS) {
			int np = bind_in.qpuar < NUM_UARS ? (int)bind_in.qpuar : -1;
			int &cur = qp_page[bind_in.qpn];
			st.binds++;
			if (np < 0)
				st.unbinds++;
			else if (cur >= 0 && cur != np)
				st.rebinds++;
			if (cur >= 0 && cur != np)
				qp_prev[bind_in.qpn] = cur;
			cur = np;
		} else if (bind_in.qv) {
			st.bind_oob++;
		}
		if (bind_in.cv && bind_in.cqn < NUM_CQS) {
			int np = bind_in.cquar < NUM_UARS ? (int)bind_in.cquar : -1;
			int &cur = cq_page[bind_in.cqn];
			st.binds++;
			if (np < 0)
				st.unbinds++;
			else if (cur >= 0 && cur != np)
				st.rebinds++;
			if (cur >= 0 && cur != np)
				cq_prev[bind_in.cqn] = cur;
			cur = np;
		} else if (bind_in.cv) {
			st.bind_oob++;
		}
	} else if (init_busy && (bind_in.qv || bind_in.cv)) {
		st.bind_init++;
	}
	bind_in = BindIn{};
}

void Bench::check_counters(const char *where)
{
	if (c_acc != m_acc || c_rej != m_rej || c_mal != m_mal) {
		char b[256];
		snprintf(b, sizeof b,
			 "%s: counted accepted/rejected/malformed = %" PRIu64 "/%" PRIu64 "/%" PRIu64
			 ", expected %" PRIu64 "/%" PRIu64 "/%" PRIu64,
			 where, c_acc, c_rej, c_mal, m_acc, m_rej, m_mal);
		fail(b);
	}
}

// Stop creating, let everything out, then check that nothing is left or extra.
void Bench::drain(const char *where)
{
	uint64_t start = cycle;
	while (!dbs.empty() || !exp_sq.empty() || !exp_rq.empty() || !exp_cq.empty()) {
		if (cycle - start > 20000) {
			char b[256];
			snprintf(b, sizeof b,
				 "%s: drain timeout: %zu writes without B, %zu/%zu/%zu SQ/RQ/CQ doorbells never emitted",
				 where, dbs.size(), exp_sq.size(), exp_rq.size(), exp_cq.size());
			fail(b);
		}
		make_bind();
		tick(false);
	}
	double keep = p_out_ready;
	p_out_ready = 1;
	p_flip = 0;
	stopped[0] = stopped[1] = stopped[2] = false;
	for (int i = 0; i < 16; i++)
		tick(false);  // anything emitted now is unexpected
	p_out_ready = keep;
	check_counters(where);
}

void Bench::do_reset()
{
	int n = 1 + urand(3);
	for (int i = 0; i < n; i++) {
		make_bind();  // binds during rst must be lost
		tick(true);
	}
	std::fill(qp_page.begin(), qp_page.end(), -1);
	std::fill(cq_page.begin(), cq_page.end(), -1);
	std::fill(qp_prev.begin(), qp_prev.end(), -1);
	std::fill(cq_prev.begin(), cq_prev.end(), -1);
	m_acc = m_rej = m_mal = 0;
	c_acc = c_rej = c_mal = 0;
	st.resets++;
	prev_bvalid_stalled = prev_sq_stalled = prev_rq_stalled = prev_cq_stalled = false;
	if (!top->init_busy)
		fail("init_busy low right after rst");
	check_counters("after rst");
}

void Bench::round(int r)
{
	static const double readies[] = {1.0, 0.8, 0.5, 0.2, 0.05};
	static const double idles[] = {0.0, 0.0, 0.3, 0.7, 0.9};
	p_out_ready = readies[urand(5)];
	p_bready = readies[urand(5)];
	p_aw_idle = idles[urand(5)];
	p_w_idle = idles[urand(5)];
	p_bind = chance(0.5) ? 0.02 : 0.2;
	max_outstanding = 1 + urand(8);
	p_flip = chance(0.4) ? 0.02 : 0;  // streams stop and restart for ~50 cycles at a time
	// round 0 starts straight after rst, with no binds for a while: nothing may come out
	int created = 0;
	int no_bind_until = r == 0 ? dbs_per_round / 3 : 0;
	while (created < dbs_per_round) {
		if (dbs.size() < max_outstanding && chance(0.7)) {
			make_db();
			created++;
		}
		make_bind();
		if (created < no_bind_until && !top->init_busy)
			bind_in = BindIn{};  // no binds yet, except ones during init_busy (ignored)
		tick(false);
		if (r == 0 && created == no_bind_until && no_bind_until) {
			drain("before any bind");
			if (m_acc != 0 || st.emitted_sq + st.emitted_rq + st.emitted_cq != 0)
				fail("doorbells accepted before any bind");
			no_bind_until = 0;
		}
	}
	char b[64];
	snprintf(b, sizeof b, "round %d", r);
	bool keep_flip = p_flip > 0;
	drain(b);
	printf("round %d: ready %.2f%s bready %.2f aw-idle %.2f w-idle %.2f bind %.2f outstanding %zu: "
	       "accepted %" PRIu64 " rejected %" PRIu64 " malformed %" PRIu64 "\n",
	       r, p_out_ready, keep_flip ? " bursty" : "", p_bready, p_aw_idle, p_w_idle, p_bind, max_outstanding, m_acc, m_rej, m_mal);
}

// Back-to-back accepted doorbells with no back-pressure: about one per cycle.
void Bench::throughput()
{
	p_out_ready = 1;
	p_bready = 1;
	p_aw_idle = p_w_idle = 0;
	p_bind = 0;
	// bind three queues
	bind_in = BindIn{};
	bind_in.qv = true;
	bind_in.qpn = act_qp[0];
	bind_in.qpuar = act_page[1];
	bind_in.cv = true;
	bind_in.cqn = act_cq[0];
	bind_in.cquar = act_page[1];
	tick(false);
	const int n = 600;
	for (int i = 0; i < n; i++) {
		Db d{};
		uint32_t qk = urand(3);
		d.strb = 0xFF;
		d.addr = (act_page[1] << FROCE_UAR_PAGE_SHIFT) | (urand(FROCE_UAR_DB_SLOTS) * 8);
		uint32_t dw1 = (uint32_t)rng();
		if (qk == 2) {
			d.data = (uint64_t)dw1 << 32 | act_cq[0] | (uint32_t)FROCE_DB_TYPE_CQ_ARM << FROCE_DB_CQ_TYPE_SHIFT;
			d.out = O_CQ;
			d.dep_table = 2;
			d.dep_idx = act_cq[0];
			cq_dep[act_cq[0]]++;
			exp_cq.push_back(CqItem{act_cq[0], dw1 & 0xFFFFFF, (dw1 >> 24) & 1, dw1 >> 28});
		} else {
			uint32_t ty = qk ? FROCE_DB_TYPE_RQ : FROCE_DB_TYPE_SQ;
			d.data = (uint64_t)dw1 << 32 | act_qp[0] | ty << FROCE_DB_QP_TYPE_SHIFT;
			d.out = qk ? O_RQ : O_SQ;
			d.dep_table = 1;
			d.dep_idx = act_qp[0];
			qp_dep[act_qp[0]]++;
			(qk ? exp_rq : exp_sq).push_back(QpItem{act_qp[0], dw1 & 0xFFFF});
		}
		d.what = "throughput";
		m_acc++;
		dbs.push_back(d);
	}
	uint64_t start = cycle;
	drain("throughput");
	uint64_t took = cycle - start - 16;
	printf("throughput: %d doorbells in %" PRIu64 " cycles\n", n, took);
	if (took > (uint64_t)n + 10)
		fail("throughput below one doorbell per cycle");
}

// SQ consumer stopped: the AXI channel must stall, nothing may be lost.
void Bench::stall_test()
{
	p_out_ready = 1;
	p_bready = 1;
	p_aw_idle = p_w_idle = 0;
	p_bind = 0;
	bind_in = BindIn{};
	bind_in.qv = true;
	bind_in.qpn = act_qp[1];
	bind_in.qpuar = act_page[0];
	tick(false);
	const int n = 40;
	for (int i = 0; i < n; i++) {
		Db d{};
		uint32_t dw1 = (uint32_t)rng();
		d.strb = 0xFF;
		d.addr = act_page[0] << FROCE_UAR_PAGE_SHIFT;
		d.data = (uint64_t)dw1 << 32 | act_qp[1] | (uint32_t)FROCE_DB_TYPE_SQ << FROCE_DB_QP_TYPE_SHIFT;
		d.out = O_SQ;
		d.dep_table = 1;
		d.dep_idx = act_qp[1];
		qp_dep[act_qp[1]]++;
		exp_sq.push_back(QpItem{act_qp[1], dw1 & 0xFFFF});
		d.what = "stall";
		m_acc++;
		dbs.push_back(d);
	}
	hold_sq = true;
	size_t left = dbs.size();
	for (int i = 0; i < 200; i++)
		tick(false);
	size_t taken = left - dbs.size();  // B responses given while the SQ stream is stopped
	// FIFO_DEPTH in the FIFO, one in stage 1, one consumed from the holding
	// registers (its B) -> at most FIFO_DEPTH + 1 writes answered
	printf("stall: SQ ready low for 200 cycles: %zu of %d writes answered, AW %s, %" PRIu64
	       " stalled cycles with valid high\n",
	       taken, n, top->s_axil_awready ? "ready" : "stalled", st.stall_cycles_full);
	if (taken != (size_t)FIFO_DEPTH + 1)
		fail("unexpected number of writes answered while the SQ stream is stopped");
	if (top->s_axil_awready || top->s_axil_wready)
		fail("AXI channel not stalled while the SQ FIFO is full");
	hold_sq = false;
	drain("stall");
}

int Bench::run()
{
	Vfroce_doorbell *t = top.get();
	t->s_axil_awvalid = 0;
	t->s_axil_wvalid = 0;
	t->s_axil_awaddr = 0;
	t->s_axil_wdata = 0;
	t->s_axil_wstrb = 0;
	do_reset();
	for (int r = 0; r < rounds; r++) {
		round(r);
		if (r == rounds / 2) {
			throughput();
			stall_test();
		}
		if (r % 3 == 2) {
			// bindings made before must not survive a reset
			do_reset();
		}
	}
	drain("end");

	printf("doorbells by aim -> outcome:\n");
	for (auto &k : st.kind)
		printf("  %-40s %" PRIu64 "\n", k.first.c_str(), k.second);
	printf("binds %" PRIu64 " (rebinds %" PRIu64 ", unbinds %" PRIu64 "), out-of-range binds %" PRIu64
	       ", binds during init_busy %" PRIu64 ", binds held back by outstanding doorbells %" PRIu64 "\n",
	       st.binds, st.rebinds, st.unbinds, st.bind_oob, st.bind_init, st.bind_blocked);
	printf("AW before W %" PRIu64 ", W before AW %" PRIu64 ", same cycle %" PRIu64 "; cycles with AW/W held off %" PRIu64
	       "; resets %" PRIu64 "\n",
	       st.aw_before_w, st.w_before_aw, st.same_cycle, st.axi_wait, st.resets);
	printf("emitted SQ %" PRIu64 " RQ %" PRIu64 " CQ %" PRIu64 " in %" PRIu64 " cycles\n", st.emitted_sq,
	       st.emitted_rq, st.emitted_cq, cycle);

	// coverage: each of these must have happened
	const char *must[] = {
		"owner page -> accepted",     "other page -> rejected",  "old page after rebind -> rejected",
		"index out of range -> rejected", "unbound queue -> rejected", "type 0 -> ignored",
		"bad type -> malformed",      "partial strobes -> malformed", "misaligned -> malformed",
		"owner page, max fields -> accepted",
	};
	for (const char *m : must)
		if (!st.kind.count(m))
			fail(std::string("coverage: no \"") + m + "\"");
	if (!st.rebinds || !st.unbinds || !st.bind_oob || !st.bind_init || !st.w_before_aw || !st.aw_before_w)
		fail("coverage: rebind, unbind, out-of-range bind, bind during init, W-before-AW or AW-before-W missing");
	printf("PASS: %" PRIu64 " cycles, seed %" PRIu64 ", NUM_QPS %d NUM_CQS %d NUM_UARS %d FIFO_DEPTH %d\n", cycle,
	       seed, NUM_QPS, NUM_CQS, NUM_UARS, FIFO_DEPTH);
	return 0;
}

} // namespace

int main(int argc, char **argv)
{
	Bench b(argc, argv);
	int rc = b.run();
	return rc;
}
