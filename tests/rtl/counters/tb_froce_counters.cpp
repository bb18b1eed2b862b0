// SPDX-License-Identifier: MIT
// Verilator bench for froce_counters against a model of plain 64-bit counters.
//
// Each cycle the bench presents a random increment for every counter (phases
// of silence, sparse random increments, and every counter at the largest
// increment every cycle, which is what bounds the accumulators), reads a
// random counter on each port (indexes beyond N included) and checks both
// against the model: the sum, modulo 2**64, of every increment presented
// since the last reset, and 0 for indexes >= N. One counter in seven gets
// no increments in a run (it must stay 0).
// Resets come at random times (1..3 cycles), also during the clearing pass,
// and the RAM starts with random contents (--x-initial unique), so a total
// the clearing pass has not reached must not show through. Now and then,
// after a clearing pass, the bench rewrites a total in the RAM directly with
// a value just below 2**32 or 2**64 (and moves the model by the same amount)
// so that the carries of the 64-bit adders, into the high word and around
// 2**64, are exercised within a short run.
//
// Usage: tb_froce_counters [--seed N] [--cycles N]
// Prints "N=.. IW=..: <cycles> cycles, <reads> reads checked, ...: ok" or
// FAIL lines; exit status 0 only for ok.

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "Vfroce_counters.h"
#include "Vfroce_counters___024root.h"
#include "verilated.h"

#ifndef N
#error "build with -DN=<counters> -DIW=<increment bits>"
#endif

static const int kPw = [] { int p = 0; while ((1 << p) < N) p++; return p; }();
static int failures;

static void fail(uint64_t cycle, const char *what, int idx, uint64_t got, uint64_t want)
{
	if (failures++ < 10)
		printf("FAIL: cycle %" PRIu64 ": %s counter %d = %" PRIu64 " (0x%016" PRIx64 "), expected %" PRIu64
		       " (0x%016" PRIx64 ")\n",
		       cycle, what, idx, got, got, want, want);
}

int main(int argc, char **argv)
{
	uint64_t seed = 1, cycles = 200000;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], nullptr, 0);
		else if (!strcmp(argv[i], "--cycles") && i + 1 < argc)
			cycles = strtoull(argv[++i], nullptr, 0);
		else {
			fprintf(stderr, "usage: %s [--seed N] [--cycles N]\n", argv[0]);
			return 2;
		}
	}
	auto ctx = std::make_unique<VerilatedContext>();
	const char *vargs[] = {"tb", "+verilator+seed+1", "+verilator+rand+reset+2"};
	char seedarg[64];
	snprintf(seedarg, sizeof seedarg, "+verilator+seed+%" PRIu64, seed % 0x7fffffff + 1);
	vargs[1] = seedarg;
	ctx->commandArgs(3, vargs);
	auto top = std::make_unique<Vfroce_counters>(ctx.get());
	std::mt19937_64 rng(seed);
	auto rnd = [&](uint64_t n) { return n ? rng() % n : 0; };

	const uint32_t inc_max = (1u << IW) - 1;
	std::vector<uint64_t> model(N, 0);
	std::vector<uint32_t> inc(N, 0);
	uint64_t reads = 0, preloads = 0, resets = 0, max_phases = 0;
	uint64_t since_reset = 0;   // cycles since rst fell
	int rst_left = 2;           // start in reset
	int phase = 0, phase_left = 0;

	auto set_inc = [&]() {
		// the inc bus: N * IW bits, counter i at bit i * IW (VlWide or scalar)
		std::vector<uint32_t> words((N * IW + 31) / 32, 0);
		for (int i = 0; i < N; i++)
			for (int b = 0; b < IW; b++)
				if (inc[i] >> b & 1)
					words[(i * IW + b) / 32] |= 1u << ((i * IW + b) % 32);
#if N * IW > 64
		for (size_t w = 0; w < words.size(); w++)
			top->inc[w] = words[w];
#elif N * IW > 32
		top->inc = (uint64_t)words[0] | (uint64_t)(words.size() > 1 ? words[1] : 0) << 32;
#else
		top->inc = words[0];
#endif
	};

	top->clk = 0;
	for (uint64_t cyc = 0; cyc < cycles; cyc++) {
		if (rst_left == 0 && rnd(20000) == 0)
			rst_left = 1 + (int)rnd(3);
		// within the clearing pass too, now and then
		if (rst_left == 0 && since_reset < (uint64_t)N && rnd(300) == 0)
			rst_left = 1;
		bool rst = rst_left > 0;
		top->rst = rst;

		if (phase_left-- <= 0) {
			phase = (int)rnd(4);
			phase_left = 50 + (int)rnd(3000);
			if (phase == 3)
				max_phases++;
		}
		for (int i = 0; i < N; i++) {
			if (i % 7 == 6) {   // silent counters
				inc[i] = 0;
				continue;
			}
			switch (phase) {
			case 0: inc[i] = 0; break;                                  // silence
			case 1: inc[i] = rnd(16) ? 0 : (uint32_t)rnd(inc_max + 1); break;
			case 2: inc[i] = (uint32_t)rnd(inc_max + 1); break;
			default: inc[i] = inc_max; break;                           // every counter at full rate
			}
		}
		set_inc();
		int ai = (int)rnd(1u << kPw), bi = (int)rnd(1u << kPw);
		if (rnd(4) == 0)
			bi = ai;
		top->a_index = ai;
		top->b_index = bi;
		top->eval();
		if (!rst) {
			uint64_t wa = ai < N ? model[ai] : 0, wb = bi < N ? model[bi] : 0;
			if (top->a_value != wa)
				fail(cyc, "port a", ai, top->a_value, wa);
			if (top->b_value != wb)
				fail(cyc, "port b", bi, top->b_value, wb);
			reads += 2;
		}

		// the clock edge: the increments presented this cycle count from now on
		top->clk = 1;
		top->eval();
		top->clk = 0;
		top->eval();
		if (rst) {
			std::fill(model.begin(), model.end(), 0);
			since_reset = 0;
			rst_left--;
			if (!rst_left)
				resets++;
		} else {
			for (int i = 0; i < N; i++)
				model[i] += inc[i];
			since_reset++;
		}

		// rewrite a total in the RAM (after the clearing pass, before an edge
		// that could write it: the pointer writes one total per edge, the
		// one rewritten may be it, which the model follows exactly)
		if (!rst && since_reset > (uint64_t)N + 2 && rnd(2000) == 0) {
			int i = (int)rnd(N);
			uint64_t old = top->rootp->froce_counters__DOT__total[i];
			uint64_t now = (rnd(2) ? 0xffffffffffffffffull : 0xffffffffull) - rnd(5000);
			top->rootp->froce_counters__DOT__total[i] = now;
			model[i] += now - old;
			preloads++;
		}
	}
	top->final();
	printf("N=%d IW=%d: %" PRIu64 " cycles, %" PRIu64 " reads checked, %" PRIu64
	       " resets, %" PRIu64 " totals rewritten near 2^32/2^64, %" PRIu64 " full-rate phases: %s\n",
	       N, IW, cycles, reads, resets, preloads, max_phases, failures ? "FAIL" : "ok");
	return failures ? 1 : 0;
}
