// SPDX-License-Identifier: MIT
// froce-pcap: runs captured or generated RoCE frames through the Verilator
// models of the RX parser and TX builder.
#include <arpa/inet.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "Vfroce_pcap_top512.h"
#include "Vfroce_pcap_top64.h"
#include "engine.h"
#include "pcap_file.h"

using namespace froce;

namespace {

// Bits of probe_info (see froce_pcap_top.v)
enum {
	OPI_VALID = 1 << 0,
	OPI_RETH = 1 << 1,
	OPI_AETH = 1 << 2,
	OPI_DETH = 1 << 3,
	OPI_IMMDT = 1 << 4,
	OPI_IETH = 1 << 5,
	OPI_ATOMICETH = 1 << 6,
	OPI_ATOMICACKETH = 1 << 7,
	OPI_PAYLOAD = 1 << 8,
};

const char *const kVerdictNames[] = {"ok",          "icrc-bad",  "not-roce",
				     "truncated",   "bad-length", "bad-version",
				     "bad-opcode",  "ip-csum",    "oversize"};

const char *verdict_name(int v)
{
	if (v >= 0 && v < int(sizeof(kVerdictNames) / sizeof(kVerdictNames[0])))
		return kVerdictNames[v];
	return "unknown";
}

const char *kind_name(int k)
{
	switch (k) {
	case FROCE_KIND_ROCE_V2_IPV4: return "v2-ipv4";
	case FROCE_KIND_ROCE_V2_IPV6: return "v2-ipv6";
	case FROCE_KIND_ROCE_V1: return "v1";
	default: return "not-roce";
	}
}

struct Options {
	int width = 64;
	uint64_t seed = 1;
	double stall = 0.0;
	int count = 1000;
	std::string pcap_out;
	bool verbose = false;
};

[[noreturn]] void usage(int code)
{
	fprintf(code ? stderr : stdout,
		"usage: froce-pcap check FILE.pcap [options]\n"
		"       froce-pcap rebuild IN.pcap OUT.pcap [options]\n"
		"       froce-pcap roundtrip [--count N] [--pcap-out FILE] [options]\n"
		"       froce-pcap lenerr [options]\n"
		"       froce-pcap bench [options]\n"
		"\n"
		"check      run every frame through the RX parser model; one line per frame\n"
		"rebuild    re-emit every RoCE frame through the TX builder from its parsed\n"
		"           fields (other frames copied); OUT should equal IN\n"
		"roundtrip  random headers and payloads, builder -> parser, compare\n"
		"lenerr     payload frames of the wrong length into the builder: flagged,\n"
		"           frames still well-formed, neighbours untouched\n"
		"bench      bytes per cycle of the parser and builder, no back-pressure\n"
		"\n"
		"options:\n"
		"  --width 64|512   stream width of the model (default 64)\n"
		"  --seed N         seed for back-pressure and generated frames (default 1)\n"
		"  --stall P        probability of an idle/back-pressure cycle per port (0..0.95)\n");
	exit(code);
}

std::string hex(uint64_t v, int digits)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "0x%0*" PRIx64, digits, v);
	return buf;
}

std::string mac(uint64_t v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%02x:%02x:%02x:%02x:%02x:%02x", unsigned(v >> 40 & 0xff),
		 unsigned(v >> 32 & 0xff), unsigned(v >> 24 & 0xff), unsigned(v >> 16 & 0xff),
		 unsigned(v >> 8 & 0xff), unsigned(v & 0xff));
	return buf;
}

std::string gid_text(const Rhdr &h, int lsb, bool ipv4)
{
	uint8_t b[16];
	h.get_bytes128(lsb, b);
	char buf[INET6_ADDRSTRLEN];
	if (ipv4)
		inet_ntop(AF_INET, b + 12, buf, sizeof(buf));
	else
		inet_ntop(AF_INET6, b, buf, sizeof(buf));
	return buf;
}

template <class E> std::string describe(E &eng, size_t index, size_t len, const RxResult &r)
{
	const Rhdr &h = r.hdr;
	int kind = static_cast<int>(RHDR_GET(h, KIND));
	std::string s = "frame=" + std::to_string(index) + " len=" + std::to_string(len);
	bool roce = r.verdict != FROCE_VERDICT_NOT_ROCE && kind != FROCE_KIND_NOT_ROCE;
	s += std::string(" kind=") + (roce ? kind_name(kind) : "not-roce");
	s += std::string(" verdict=") + verdict_name(r.verdict);
	const char *icrc = "-";
	if (r.verdict == FROCE_VERDICT_OK)
		icrc = "ok";
	else if (r.verdict == FROCE_VERDICT_ICRC_BAD)
		icrc = "bad";
	s += std::string(" icrc=") + icrc;
	if (!roce)
		return s;

	uint8_t op = static_cast<uint8_t>(RHDR_GET(h, OPCODE));
	uint16_t info = eng.opcode_info(op);
	bool ip4 = kind == FROCE_KIND_ROCE_V2_IPV4;
	s += " opcode=" + hex(op, 2);
	s += " dqpn=" + hex(RHDR_GET(h, DQPN), 6);
	s += " psn=" + std::to_string(RHDR_GET(h, PSN));
	s += " se=" + std::to_string(RHDR_GET(h, SE));
	s += " m=" + std::to_string(RHDR_GET(h, MIGREQ));
	s += " pad=" + std::to_string(RHDR_GET(h, PADCNT));
	s += " tver=" + std::to_string(RHDR_GET(h, TVER));
	s += " pkey=" + hex(RHDR_GET(h, PKEY), 4);
	s += " fecn=" + std::to_string(RHDR_GET(h, FECN));
	s += " becn=" + std::to_string(RHDR_GET(h, BECN));
	s += " ackreq=" + std::to_string(RHDR_GET(h, ACKREQ));
	s += " dmac=" + mac(RHDR_GET(h, ETH_DST));
	s += " smac=" + mac(RHDR_GET(h, ETH_SRC));
	if (RHDR_GET(h, VLAN_EN))
		s += " vlan=" + std::to_string(RHDR_GET(h, VLAN_VID)) + "/" +
		     std::to_string(RHDR_GET(h, VLAN_PCP));
	else
		s += " vlan=-";
	s += " sip=" + gid_text(h, FROCE_RHDR_SGID_LSB, ip4);
	s += " dip=" + gid_text(h, FROCE_RHDR_DGID_LSB, ip4);
	s += " tclass=" + hex(RHDR_GET(h, TCLASS), 2);
	if (!ip4)
		s += " flow=" + hex(RHDR_GET(h, FLOW_LABEL), 5);
	s += " ttl=" + std::to_string(RHDR_GET(h, HOP_LIMIT));
	if (kind != FROCE_KIND_ROCE_V1)
		s += " sport=" + std::to_string(RHDR_GET(h, UDP_SPORT));
	s += " paylen=" + std::to_string(RHDR_GET(h, PAYLOAD_LEN));
	if (!(info & OPI_VALID))
		return s;
	// ImmDt follows DETH or RETH when the opcode has one, AtomicAckETH AETH
	int imm_pre = (info & OPI_DETH) ? FROCE_DETH_LEN : (info & OPI_RETH) ? FROCE_RETH_LEN : 0;
	if (info & OPI_RETH) {
		s += " va=" + hex(RHDR_EXT_GET(h, 0, RETH, VA), 16);
		s += " rkey=" + hex(RHDR_EXT_GET(h, 0, RETH, RKEY), 8);
		s += " dmalen=" + std::to_string(RHDR_EXT_GET(h, 0, RETH, DMALEN));
	}
	if (info & OPI_AETH) {
		s += " syndrome=" + hex(RHDR_EXT_GET(h, 0, AETH, SYNDROME), 2);
		s += " msn=" + std::to_string(RHDR_EXT_GET(h, 0, AETH, MSN));
	}
	if (info & OPI_DETH) {
		s += " qkey=" + hex(RHDR_EXT_GET(h, 0, DETH, QKEY), 8);
		s += " sqpn=" + hex(RHDR_EXT_GET(h, 0, DETH, SQPN), 6);
	}
	if (info & OPI_IMMDT)
		s += " imm=" + hex(RHDR_EXT_GET(h, imm_pre, IMMDT, IMM), 8);
	if (info & OPI_IETH)
		s += " ieth_rkey=" + hex(RHDR_EXT_GET(h, 0, IETH, RKEY), 8);
	if (info & OPI_ATOMICETH) {
		s += " va=" + hex(RHDR_EXT_GET(h, 0, ATOMICETH, VA), 16);
		s += " rkey=" + hex(RHDR_EXT_GET(h, 0, ATOMICETH, RKEY), 8);
		s += " swap=" + hex(RHDR_EXT_GET(h, 0, ATOMICETH, SWAP), 16);
		s += " cmp=" + hex(RHDR_EXT_GET(h, 0, ATOMICETH, CMP), 16);
	}
	if (info & OPI_ATOMICACKETH)
		s += " orig=" + hex(RHDR_EXT_GET(h, FROCE_AETH_LEN, ATOMICACKETH, ORIG), 16);
	return s;
}

// Reads a capture and runs every frame through the parser; false (with a
// message printed) when the file cannot be read.
template <class E> bool parse_pcap(E &eng, const std::string &path, PcapFile *in)
{
	std::string err;
	if (!pcap_read(path, in, &err)) {
		fprintf(stderr, "froce-pcap: %s\n", err.c_str());
		return false;
	}
	for (const PcapFrame &f : in->frames)
		eng.rx_push(f.data);
	eng.run();
	return true;
}

template <class M, int DW> int cmd_check(const std::string &path, const Options &o)
{
	PcapFile in;
	Engine<M, DW> eng(o.seed, o.stall);
	if (!parse_pcap(eng, path, &in))
		return 2;
	std::map<std::string, unsigned> n;
	for (size_t i = 0; i < eng.rx_out.size(); i++) {
		const RxResult &r = eng.rx_out[i];
		printf("%s\n", describe(eng, i + 1, in.frames[i].data.size(), r).c_str());
		if (r.verdict == FROCE_VERDICT_OK)
			n["ok"]++;
		else if (r.verdict == FROCE_VERDICT_ICRC_BAD)
			n["icrc_bad"]++;
		else if (r.verdict == FROCE_VERDICT_NOT_ROCE)
			n["not_roce"]++;
		else
			n["malformed"]++;
	}
	printf("summary: frames=%zu ok=%u icrc_bad=%u not_roce=%u malformed=%u\n",
	       eng.rx_out.size(), n["ok"], n["icrc_bad"], n["not_roce"], n["malformed"]);
	return 0;
}

template <class M, int DW> int cmd_rebuild(const std::string &in_path, const std::string &out_path,
					   const Options &o)
{
	PcapFile in;
	Engine<M, DW> eng(o.seed, o.stall);
	if (!parse_pcap(eng, in_path, &in))
		return 2;
	std::vector<size_t> rebuilt;
	for (size_t i = 0; i < eng.rx_out.size(); i++) {
		const RxResult &r = eng.rx_out[i];
		if (r.verdict != FROCE_VERDICT_OK)
			continue;
		TxJob job;
		job.hdr = r.hdr;
		job.payload = r.data;
		eng.tx_push(job);
		rebuilt.push_back(i);
	}
	eng.run();
	PcapFile out = in;
	std::string err;
	for (size_t k = 0; k < rebuilt.size(); k++) {
		const TxResult &t = eng.tx_out[k];
		if (t.error) {
			fprintf(stderr, "froce-pcap: frame %zu: builder flagged a length error\n",
				rebuilt[k] + 1);
			return 1;
		}
		std::vector<uint8_t> frame = t.frame;
		// the MAC pads short frames to 60 bytes, as the original sender's did
		size_t orig = in.frames[rebuilt[k]].data.size();
		if (frame.size() < 60 && orig >= 60)
			frame.resize(60, 0);
		out.frames[rebuilt[k]].data = frame;
	}
	if (!pcap_write(out_path, out, &err)) {
		fprintf(stderr, "froce-pcap: %s\n", err.c_str());
		return 2;
	}
	size_t same = 0;
	for (size_t k = 0; k < rebuilt.size(); k++)
		same += out.frames[rebuilt[k]].data == in.frames[rebuilt[k]].data;
	printf("summary: frames=%zu rebuilt=%zu copied=%zu identical=%zu\n", in.frames.size(),
	       rebuilt.size(), in.frames.size() - rebuilt.size(), same);
	return 0;
}

struct Generator {
	std::mt19937_64 rng;
	std::vector<uint8_t> opcodes;
	std::map<uint8_t, uint16_t> info;

	explicit Generator(uint64_t seed) : rng(seed) {}

	uint64_t bits(int n) { return n >= 64 ? rng() : rng() & ((1ull << n) - 1); }

	int payload_len(int w)
	{
		switch (rng() % 6) {
		case 0: return static_cast<int>(rng() % 16);
		case 1: return static_cast<int>(rng() % 256);
		case 2: return static_cast<int>((rng() % 65) * w + (rng() % 3) - 1 + w) % 4097;
		case 3: return 4096 - static_cast<int>(rng() % 8);
		default: return static_cast<int>(rng() % 4097);
		}
	}

	TxJob make(int w)
	{
		TxJob j;
		Rhdr &h = j.hdr;
		static const int kinds[] = {FROCE_KIND_ROCE_V2_IPV4, FROCE_KIND_ROCE_V2_IPV6,
					    FROCE_KIND_ROCE_V1};
		int kind = kinds[rng() % 3];
		RHDR_SET(h, KIND, kind);
		bool vlan = rng() & 1;
		RHDR_SET(h, VLAN_EN, vlan);
		if (vlan) {
			RHDR_SET(h, VLAN_PCP, bits(3));
			RHDR_SET(h, VLAN_DEI, bits(1));
			RHDR_SET(h, VLAN_VID, bits(12));
		}
		RHDR_SET(h, ETH_DST, bits(48));
		RHDR_SET(h, ETH_SRC, bits(48));
		uint8_t g[16];
		for (int which = 0; which < 2; which++) {
			for (auto &b : g)
				b = static_cast<uint8_t>(rng());
			if (kind == FROCE_KIND_ROCE_V2_IPV4) {
				memset(g, 0, 10);
				g[10] = g[11] = 0xff;
			}
			h.set_bytes128(which ? FROCE_RHDR_DGID_LSB : FROCE_RHDR_SGID_LSB, g);
		}
		RHDR_SET(h, TCLASS, bits(8));
		RHDR_SET(h, HOP_LIMIT, bits(8));
		if (kind == FROCE_KIND_ROCE_V2_IPV4) {
			RHDR_SET(h, IP_ID, bits(16));
			RHDR_SET(h, IP_DF, bits(1));
		} else {
			RHDR_SET(h, FLOW_LABEL, bits(20));
		}
		if (kind != FROCE_KIND_ROCE_V1)
			RHDR_SET(h, UDP_SPORT, bits(16));
		uint8_t op = opcodes[rng() % opcodes.size()];
		uint16_t oi = info[op];
		RHDR_SET(h, OPCODE, op);
		RHDR_SET(h, SE, bits(1));
		RHDR_SET(h, MIGREQ, bits(1));
		RHDR_SET(h, PKEY, bits(16));
		RHDR_SET(h, FECN, bits(1));
		RHDR_SET(h, BECN, bits(1));
		RHDR_SET(h, DQPN, bits(24));
		RHDR_SET(h, ACKREQ, bits(1));
		// PSNs near the 24-bit wrap now and then
		RHDR_SET(h, PSN, rng() % 4 ? bits(24) : 0xffffff - bits(3));
		// the extension headers' fields (reserved bits zero, as a sender
		// sets them), the bytes past them zero as the parser reports them
		int imm_pre = (oi & OPI_DETH) ? FROCE_DETH_LEN : (oi & OPI_RETH) ? FROCE_RETH_LEN : 0;
		if (oi & OPI_RETH) {
			RHDR_EXT_SET(h, 0, RETH, VA, bits(64));
			RHDR_EXT_SET(h, 0, RETH, RKEY, bits(32));
			RHDR_EXT_SET(h, 0, RETH, DMALEN, bits(32));
		}
		if (oi & OPI_AETH) {
			RHDR_EXT_SET(h, 0, AETH, SYNDROME, bits(8));
			RHDR_EXT_SET(h, 0, AETH, MSN, bits(24));
		}
		if (oi & OPI_DETH) {
			RHDR_EXT_SET(h, 0, DETH, QKEY, bits(32));
			RHDR_EXT_SET(h, 0, DETH, SQPN, bits(24));
		}
		if (oi & OPI_IMMDT)
			RHDR_EXT_SET(h, imm_pre, IMMDT, IMM, bits(32));
		if (oi & OPI_IETH)
			RHDR_EXT_SET(h, 0, IETH, RKEY, bits(32));
		if (oi & OPI_ATOMICETH) {
			RHDR_EXT_SET(h, 0, ATOMICETH, VA, bits(64));
			RHDR_EXT_SET(h, 0, ATOMICETH, RKEY, bits(32));
			RHDR_EXT_SET(h, 0, ATOMICETH, SWAP, bits(64));
			RHDR_EXT_SET(h, 0, ATOMICETH, CMP, bits(64));
		}
		if (oi & OPI_ATOMICACKETH)
			RHDR_EXT_SET(h, FROCE_AETH_LEN, ATOMICACKETH, ORIG, bits(64));
		int len = (oi & OPI_PAYLOAD) ? payload_len(w) : 0;
		RHDR_SET(h, PAYLOAD_LEN, len);
		RHDR_SET(h, PADCNT, (4 - len % 4) % 4);  // what the parser will report
		j.payload.resize(len);
		for (auto &b : j.payload)
			b = static_cast<uint8_t>(rng());
		return j;
	}
};

template <class E> Generator make_generator(E &eng, uint64_t seed)
{
	Generator g(seed);
	for (int op = 0; op < 256; op++) {
		uint16_t i = eng.opcode_info(static_cast<uint8_t>(op));
		if (i & OPI_VALID) {
			g.opcodes.push_back(static_cast<uint8_t>(op));
			g.info[static_cast<uint8_t>(op)] = i;
		}
	}
	return g;
}

template <class M, int DW> int cmd_roundtrip(const Options &o)
{
	Engine<M, DW> eng(o.seed, o.stall);
	Generator gen = make_generator(eng, o.seed * 7919 + 1);
	std::vector<TxJob> jobs;
	std::map<std::string, unsigned> mix;
	for (int i = 0; i < o.count; i++) {
		jobs.push_back(gen.make(DW / 8));
		eng.tx_push(jobs.back());
	}
	eng.set_chain(true);
	eng.run();
	unsigned failures = 0;
	for (size_t i = 0; i < jobs.size(); i++) {
		const RxResult &r = eng.rx_out[i];
		const TxJob &j = jobs[i];
		std::string why;
		bool header_differs = false;
		if (eng.tx_out[i].error)
			why = "builder flagged a length error";
		else if (r.verdict != FROCE_VERDICT_OK)
			why = std::string("verdict ") + verdict_name(r.verdict);
		else if ((header_differs = !(r.hdr == j.hdr)))
			why = "parsed header differs from the one built";
		else if (r.data != j.payload)
			why = "payload differs";
		if (!why.empty()) {
			if (failures++ < 10)
				fprintf(stderr, "roundtrip: frame %zu (opcode 0x%02x, kind %s, %zu bytes): %s\n",
					i + 1, unsigned(RHDR_GET(j.hdr, OPCODE)),
					kind_name(int(RHDR_GET(j.hdr, KIND))), j.payload.size(), why.c_str());
			for (int f = 0; header_differs && failures <= 3 && f < Rhdr::kWords; f++)
				if (r.hdr.w[f] != j.hdr.w[f])
					fprintf(stderr, "  word %d: parsed %08x built %08x\n", f, r.hdr.w[f], j.hdr.w[f]);
		}
		mix[kind_name(int(RHDR_GET(j.hdr, KIND)))]++;
	}
	if (!o.pcap_out.empty()) {
		PcapFile out;
		for (const TxResult &t : eng.tx_out) {
			PcapFrame f;
			f.data = t.frame;
			out.frames.push_back(f);
		}
		std::string err;
		if (!pcap_write(o.pcap_out, out, &err)) {
			fprintf(stderr, "froce-pcap: %s\n", err.c_str());
			return 2;
		}
	}
	printf("roundtrip: width=%d frames=%zu v2-ipv4=%u v2-ipv6=%u v1=%u stall=%.2f cycles=%" PRIu64
	       " failures=%u\n",
	       DW, jobs.size(), mix["v2-ipv4"], mix["v2-ipv6"], mix["v1"], o.stall,
	       eng.stats.cycles, failures);
	return failures ? 1 : 0;
}

// Payload frames shorter or longer than payload_len, between good ones: the
// bad ones must come out flagged and still payload_len long, the good ones
// untouched, and nothing may hang.
template <class M, int DW> int cmd_lenerr(const Options &o)
{
	Engine<M, DW> eng(o.seed, o.stall);
	Generator gen = make_generator(eng, o.seed * 31 + 5);
	const int w = DW / 8;
	std::vector<TxJob> jobs;
	std::vector<int> skews;
	for (int i = 0; i < 400; i++) {
		TxJob j = gen.make(w);
		if (i % 3 == 1 && !j.payload.empty()) {
			static const int kSkews[] = {-1, 1, -7, 9, -64, 64, 200};
			j.length_skew = kSkews[(i / 3) % 7];
			if (-j.length_skew > int(j.payload.size()))
				j.length_skew = -int(j.payload.size());
		}
		if (i % 3 == 1 && j.payload.empty())
			j.length_skew = 3 * w;  // bytes where none belong
		skews.push_back(j.length_skew);
		jobs.push_back(j);
		eng.tx_push(j);
	}
	eng.set_chain(true);
	eng.run();
	unsigned bad = 0, flagged = 0;
	for (size_t i = 0; i < jobs.size(); i++) {
		const TxResult &t = eng.tx_out[i];
		const RxResult &r = eng.rx_out[i];
		bool skewed = skews[i] != 0;
		flagged += t.error;
		std::string why;
		if (t.error != skewed)
			why = skewed ? "length error not flagged" : "good frame flagged";
		else if (r.verdict != FROCE_VERDICT_OK)
			why = std::string("frame does not parse: ") + verdict_name(r.verdict);
		else if (RHDR_GET(r.hdr, PAYLOAD_LEN) != jobs[i].payload.size())
			why = "frame length does not follow payload_len";
		else if (!skewed && (!(r.hdr == jobs[i].hdr) || r.data != jobs[i].payload))
			why = "good frame changed";
		if (!why.empty() && bad++ < 10)
			fprintf(stderr, "lenerr: frame %zu (skew %d): %s\n", i + 1, skews[i], why.c_str());
	}
	size_t expected = std::count_if(skews.begin(), skews.end(), [](int k) { return k != 0; });
	if (eng.stats.tx_len_err != expected) {
		fprintf(stderr, "lenerr: stat_len_err pulsed %" PRIu64 " times, expected %zu\n",
			eng.stats.tx_len_err, expected);
		bad++;
	}
	printf("lenerr: width=%d frames=%zu skewed=%zu flagged=%u stat_len_err=%" PRIu64 " failures=%u\n",
	       DW, jobs.size(), expected, flagged, eng.stats.tx_len_err, bad);
	return bad ? 1 : 0;
}

template <class M, int DW> int run(const std::string &cmd, const std::vector<std::string> &args,
				   const Options &o)
{
	if (cmd == "check" && args.size() == 1)
		return cmd_check<M, DW>(args[0], o);
	if (cmd == "rebuild" && args.size() == 2)
		return cmd_rebuild<M, DW>(args[0], args[1], o);
	if (cmd == "roundtrip" && args.empty())
		return cmd_roundtrip<M, DW>(o);
	if (cmd == "lenerr" && args.empty())
		return cmd_lenerr<M, DW>(o);
	usage(2);
}

// Throughput with no back-pressure: the parser fed back to back with frames
// the builder made, then the builder alone.
template <class M, int DW> void bench_one(int payload, int frames, double mhz)
{
	Engine<M, DW> gen_eng(1, 0.0);
	Generator gen = make_generator(gen_eng, 42);
	std::vector<TxJob> jobs;
	for (int i = 0; i < frames; i++) {
		TxJob j = gen.make(DW / 8);
		// RC RDMA WRITE ONLY over IPv4, fixed payload
		RHDR_SET(j.hdr, KIND, FROCE_KIND_ROCE_V2_IPV4);
		RHDR_SET(j.hdr, VLAN_EN, 0);
		RHDR_SET(j.hdr, OPCODE, FROCE_OP_RC_RDMA_WRITE_ONLY);
		RHDR_SET(j.hdr, PAYLOAD_LEN, payload);
		RHDR_SET(j.hdr, PADCNT, (4 - payload % 4) % 4);
		j.payload.assign(payload, 0x5a);
		jobs.push_back(j);
	}
	Engine<M, DW> tx(1, 0.0);
	for (const TxJob &j : jobs)
		tx.tx_push(j);
	tx.run();
	uint64_t frame_bytes = 0;
	Engine<M, DW> rx(1, 0.0);
	for (const TxResult &t : tx.tx_out) {
		frame_bytes += t.frame.size();
		rx.rx_push(t.frame);
	}
	rx.run();
	for (const RxResult &r : rx.rx_out)
		if (r.verdict != FROCE_VERDICT_OK)
			throw EngineError("bench: parser rejected a frame the builder made");
	const int w = DW / 8;
	auto report = [&](const char *block, uint64_t beats, uint64_t first, uint64_t last) {
		double cycles = double(last - first + 1);  // first to last beat, inclusive
		double bpc = double(frame_bytes) / cycles;
		printf("%-8s width=%-3d payload=%-5d frames=%-5d beats/cycle=%.3f bytes/cycle=%.2f "
		       "of %d (%.1f%%)  %.2f Gb/s at %.2f MHz\n",
		       block, DW, payload, frames, double(beats) / cycles, bpc, w, 100.0 * bpc / w,
		       bpc * 8 * mhz / 1000.0, mhz);
	};
	report("parser", rx.stats.rx_in_beats, rx.stats.rx_in_first, rx.stats.rx_in_last);
	report("builder", tx.stats.tx_out_beats, tx.stats.tx_out_first, tx.stats.tx_out_last);
}

} // namespace

int bench_main()
{
	for (int payload : {64, 4096}) {
		bench_one<Vfroce_pcap_top64, 64>(payload, payload > 1000 ? 100 : 1000, 156.25);
		bench_one<Vfroce_pcap_top512, 512>(payload, payload > 1000 ? 100 : 1000, 322.265625);
	}
	return 0;
}

int main(int argc, char **argv)
{
	Verilated::commandArgs(1, argv);
	if (argc < 2)
		usage(2);
	std::string cmd = argv[1];
	if (cmd == "-h" || cmd == "--help" || cmd == "help")
		usage(0);
	Options o;
	std::vector<std::string> args;
	for (int i = 2; i < argc; i++) {
		std::string a = argv[i];
		auto value = [&]() -> std::string {
			if (i + 1 >= argc) {
				fprintf(stderr, "froce-pcap: %s needs a value\n", a.c_str());
				exit(2);
			}
			return argv[++i];
		};
		if (a == "--width")
			o.width = atoi(value().c_str());
		else if (a == "--seed")
			o.seed = strtoull(value().c_str(), nullptr, 0);
		else if (a == "--stall")
			o.stall = atof(value().c_str());
		else if (a == "--count")
			o.count = atoi(value().c_str());
		else if (a == "--pcap-out")
			o.pcap_out = value();
		else if (a.size() > 1 && a[0] == '-') {
			fprintf(stderr, "froce-pcap: unknown option %s\n", a.c_str());
			usage(2);
		} else
			args.push_back(a);
	}
	if (o.width != 64 && o.width != 512) {
		fprintf(stderr, "froce-pcap: --width must be 64 or 512\n");
		return 2;
	}
	if (o.stall < 0 || o.stall > 0.95) {
		fprintf(stderr, "froce-pcap: --stall must be between 0 and 0.95\n");
		return 2;
	}
	if (o.count < 1) {
		fprintf(stderr, "froce-pcap: --count must be at least 1\n");
		return 2;
	}
	try {
		if (cmd == "bench")
			return bench_main();
		if (o.width == 64)
			return run<Vfroce_pcap_top64, 64>(cmd, args, o);
		return run<Vfroce_pcap_top512, 512>(cmd, args, o);
	} catch (const EngineError &e) {
		fprintf(stderr, "froce-pcap: %s\n", e.what());
		return 1;
	}
}
