// SPDX-License-Identifier: MIT
// Unit tests of the simulated wire and its fault injector (sim/wire).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "pcap_file.h"
#include "wire.h"

using froce::FaultConfig;
using froce::Wire;

namespace {

int failures = 0;

#define CHECK(cond, ...)                                                   \
	do {                                                               \
		if (!(cond)) {                                             \
			failures++;                                        \
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                      \
			fprintf(stderr, "\n");                             \
		}                                                          \
	} while (0)

// frame i: 64 bytes, its index in bytes 14..17 so it can be recognised, the
// rest a hash of the index, so a frame with a damaged index matches no other
std::vector<uint8_t> frame(uint32_t i)
{
	std::vector<uint8_t> f(64, 0);
	for (int b = 0; b < 4; b++)
		f[14 + b] = static_cast<uint8_t>(i >> (8 * b));
	for (size_t b = 18; b < f.size(); b++)
		f[b] = static_cast<uint8_t>((i * 0x9E3779B1u + b * 0x85EBCA6Bu) >> 24);
	return f;
}

uint32_t index_of(const std::vector<uint8_t> &f)
{
	return f[14] | f[15] << 8 | f[16] << 16 | static_cast<uint32_t>(f[17]) << 24;
}

// Sends n frames one per cycle and drains the wire; returns what arrived.
std::vector<std::vector<uint8_t>> run(Wire &w, uint32_t n)
{
	std::vector<std::vector<uint8_t>> out;
	std::vector<uint8_t> f;
	uint64_t now = 0;
	for (uint32_t i = 0; i < n; i++, now++) {
		w.send(frame(i), now);
		while (w.receive(&f, now))
			out.push_back(f);
	}
	for (; w.in_flight() && now < n + 100000; now++)
		while (w.receive(&f, now))
			out.push_back(f);
	return out;
}

void test_clean()
{
	FaultConfig c;
	c.latency = 5;
	Wire w(c);
	auto out = run(w, 1000);
	CHECK(out.size() == 1000, "%zu frames arrived", out.size());
	for (uint32_t i = 0; i < out.size(); i++)
		CHECK(out[i] == frame(i), "frame %u changed or out of order", i);
	// latency: nothing arrives before it is due
	Wire w2(c);
	std::vector<uint8_t> f;
	w2.send(frame(0), 100);
	CHECK(!w2.receive(&f, 104), "frame arrived before its latency");
	CHECK(w2.receive(&f, 105), "frame did not arrive when due");
}

void test_rates()
{
	const uint32_t n = 40000;
	const double p = 0.05;
	struct {
		const char *name;
		double FaultConfig::*field;
	} kinds[] = {{"drop", &FaultConfig::drop},
		     {"dup", &FaultConfig::dup},
		     {"reorder", &FaultConfig::reorder},
		     {"corrupt", &FaultConfig::corrupt}};
	for (const auto &k : kinds) {
		FaultConfig c;
		c.*(k.field) = p;
		c.seed = 7;
		Wire w(c);
		auto out = run(w, n);
		const froce::WireStats &s = w.stats();
		uint64_t count = k.field == &FaultConfig::drop ? s.dropped
			       : k.field == &FaultConfig::dup ? s.duplicated
			       : k.field == &FaultConfig::reorder ? s.reordered
								  : s.corrupted;
		// 5% of 40000 = 2000, sigma ~ 44: allow 5 sigma
		CHECK(std::fabs(double(count) - p * n) < 220, "%s: %llu events for p=%.2f", k.name,
		      static_cast<unsigned long long>(count), p);
		CHECK(s.sent == n, "%s: sent %llu", k.name, static_cast<unsigned long long>(s.sent));
		CHECK(out.size() == n - s.dropped + s.duplicated, "%s: %zu delivered", k.name, out.size());

		std::map<uint32_t, int> seen;
		size_t changed = 0, out_of_order = 0;
		uint32_t last = 0;
		for (size_t i = 0; i < out.size(); i++) {
			uint32_t id = index_of(out[i]);
			if (id < n && out[i] == frame(id)) {
				seen[id]++;
				if (i && id < last)
					out_of_order++;
				last = id;
			} else {
				changed++;
			}
		}
		if (k.field == &FaultConfig::corrupt) {
			CHECK(changed == s.corrupted, "corrupt: %zu frames changed, %llu corrupted",
			      changed, static_cast<unsigned long long>(s.corrupted));
		} else {
			CHECK(changed == 0, "%s: %zu frames changed", k.name, changed);
		}
		if (k.field == &FaultConfig::drop)
			CHECK(seen.size() == n - s.dropped, "drop: %zu distinct frames", seen.size());
		if (k.field == &FaultConfig::dup) {
			size_t twice = std::count_if(seen.begin(), seen.end(),
						     [](const std::pair<const uint32_t, int> &e) { return e.second == 2; });
			CHECK(seen.size() == n && twice == s.duplicated, "dup: %zu distinct, %zu twice",
			      seen.size(), twice);
		}
		if (k.field == &FaultConfig::reorder) {
			CHECK(seen.size() == n, "reorder lost frames: %zu distinct", seen.size());
			CHECK(out_of_order == s.reordered, "reorder: %zu inversions, %llu reordered",
			      out_of_order, static_cast<unsigned long long>(s.reordered));
		}
	}
}

void test_corrupt_bits()
{
	FaultConfig c;
	c.corrupt = 1.0;
	c.seed = 3;
	Wire w(c);
	auto out = run(w, 2000);
	size_t bad = 0;
	for (uint32_t i = 0; i < out.size(); i++) {
		std::vector<uint8_t> want = frame(i);
		int bits = 0;
		for (size_t b = 0; b < 14; b++)
			bits += 100 * (out[i][b] != want[b]);
		for (size_t b = 14; b < want.size(); b++)
			bits += __builtin_popcount(out[i][b] ^ want[b]);
		bad += bits != 1;
	}
	CHECK(out.size() == 2000 && bad == 0, "%zu of %zu frames not exactly one flipped bit past the header",
	      bad, out.size());
}

void test_seeded()
{
	FaultConfig c;
	c.drop = c.dup = c.reorder = c.corrupt = 0.1;
	c.seed = 99;
	Wire a(c), b(c);
	CHECK(run(a, 5000) == run(b, 5000), "same seed, different outcome");
	c.seed = 100;
	Wire d(c);
	Wire e(FaultConfig{0.1, 0.1, 0.1, 0.1, 99, 0, 1000});
	CHECK(run(d, 5000) != run(e, 5000), "different seeds, same outcome");
}

void test_reorder_tail()
{
	// a frame held back with nothing after it still arrives
	FaultConfig c;
	c.reorder = 1.0;
	c.reorder_hold = 50;
	Wire w(c);
	std::vector<uint8_t> f;
	w.send(frame(1), 0);
	CHECK(!w.receive(&f, 10), "held frame released early");
	CHECK(w.receive(&f, 50) && f == frame(1), "held frame not released after reorder_hold");
}

void test_config_check()
{
	FaultConfig c;
	CHECK(c.check().empty(), "default config rejected");
	c.drop = 1.5;
	CHECK(!c.check().empty(), "drop 1.5 accepted");
	c.drop = -0.1;
	CHECK(!c.check().empty(), "drop -0.1 accepted");
	c.drop = 0;
	c.corrupt = std::nan("");
	CHECK(!c.check().empty(), "NaN accepted");
}

void test_tap(const char *dir)
{
	std::string path = std::string(dir) + "/wire_test.pcap";
	{
		froce::PcapTap tap(path, 6.4);
		CHECK(tap.ok(), "cannot create %s", path.c_str());
		FaultConfig c;
		c.drop = 0.5;
		Wire w(c, &tap);
		run(w, 100);
		CHECK(w.stats().dropped > 0, "nothing dropped at p=0.5");
	}
	PcapFile pf;
	std::string err;
	CHECK(pcap_read(path, &pf, &err), "tap unreadable: %s", err.c_str());
	// the tap sees what went on the wire: the frames that were not dropped
	size_t n = pf.frames.size();
	CHECK(n > 20 && n < 80, "%zu frames in the tap", n);
	for (const PcapFrame &f : pf.frames)
		CHECK(f.data == frame(index_of(f.data)), "tap frame differs");
	CHECK(pf.nanosecond, "tap timestamps not in nanoseconds");
}

} // namespace

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";
	test_clean();
	test_rates();
	test_corrupt_bits();
	test_seeded();
	test_reorder_tail();
	test_config_check();
	test_tap(dir);
	printf("wire_test: %s\n", failures ? "FAIL" : "ok");
	return failures ? 1 : 0;
}
