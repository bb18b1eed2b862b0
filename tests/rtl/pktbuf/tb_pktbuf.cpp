// SPDX-License-Identifier: MIT
// Bench for froce_rx_pkt_buffer behind the RX parser: good rxe frames, the
// same frames with a corrupted ICRC, frames that are not RoCE, and frames too
// large for the ring, interleaved, with random idle and back-pressure, through
// the port's receive filter (station MAC; promiscuous, all-multicast and the
// MTU chosen by the seed). Only the good RoCE packets for the station MAC may
// come out of the RoCE port, with the right header and payload; the non-RoCE
// frames the filter passes whole out of the netdev port; nothing else, and
// every filtered frame counted as such.
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include <verilated.h>

#include "Vpktbuf_tb_top.h"
#include "engine.h"  // port accessors and the RHDR view
#include "pcap_file.h"

using froce::Rhdr;

namespace {

enum Kind { GOOD, CORRUPT, NET, HUGE, FILTERED };

struct Frame {
	std::vector<uint8_t> data;
	Kind kind;
	std::vector<uint8_t> payload;  // GOOD: expected payload
	uint32_t psn = 0;
};

// Payload of a good RoCE v2 frame, from its IP length and BTH pad count
// (independent of the parser and of the opcode table)
std::vector<uint8_t> payload_of(const std::vector<uint8_t> &f, size_t hdr_end)
{
	size_t l3 = (f[12] == 0x81 && f[13] == 0x00) ? 18 : 14;
	bool v4 = f[l3 - 2] == 0x08 && f[l3 - 1] == 0x00;
	size_t ip_len = v4 ? (f[l3 + 2] << 8 | f[l3 + 3]) : 40 + (f[l3 + 4] << 8 | f[l3 + 5]);
	size_t bth = l3 + (v4 ? 28 : 48);
	size_t pad = (f[bth + 1] >> 4) & 3;
	size_t end = l3 + ip_len - 4 - pad;
	return std::vector<uint8_t>(f.begin() + hdr_end, f.begin() + end);
}

size_t bth_of(const std::vector<uint8_t> &f)
{
	size_t l3 = (f[12] == 0x81 && f[13] == 0x00) ? 18 : 14;
	bool v4 = f[l3 - 2] == 0x08 && f[l3 - 1] == 0x00;
	return l3 + (v4 ? 28 : 48);
}

} // namespace

int main(int argc, char **argv)
{
	Verilated::commandArgs(argc, argv);
	if (argc < 3) {
		fprintf(stderr, "usage: %s SEED PCAP...\n", argv[0]);
		return 2;
	}
	unsigned seed = static_cast<unsigned>(atoi(argv[1]));
	std::mt19937 rng(seed);
	const int W = DATA_WIDTH / 8;
	// the port's filter: station MAC, flags and MTU from the seed
	const uint64_t station = 0x02a1b2c3d4e5ull;
	const bool promisc = seed & 1, allmulti = (seed >> 1) & 1;
	const unsigned mtu = (seed >> 2) & 1 ? 1000 : 1500;
	auto set_dmac = [](std::vector<uint8_t> &d, uint64_t mac) {
		for (int i = 0; i < 6; i++)
			d[i] = static_cast<uint8_t>(mac >> (40 - 8 * i));
	};

	std::vector<Frame> frames;
	for (int a = 2; a < argc; a++) {
		PcapFile pf;
		std::string err;
		if (!pcap_read(argv[a], &pf, &err)) {
			fprintf(stderr, "%s\n", err.c_str());
			return 2;
		}
		for (const PcapFrame &p : pf.frames) {
			size_t bth = bth_of(p.data);
			Frame g{p.data, GOOD, {}, 0};
			g.psn = p.data[bth + 9] << 16 | p.data[bth + 10] << 8 | p.data[bth + 11];
			// everything after the BTH up to the pad: extension headers and
			// payload; the payload that comes out must be its tail
			g.payload = payload_of(p.data, bth + 12);
			set_dmac(g.data, station);   // outside the ICRC
			frames.push_back(g);
			Frame o = g;                 // for another station: filtered
			o.kind = FILTERED;
			set_dmac(o.data, promisc ? 0xffffffffffffull : station ^ (1ull << (rng() % 40)));
			frames.push_back(o);
			Frame c = g;
			c.kind = CORRUPT;
			c.data[c.data.size() - 1 - rng() % 4] ^= static_cast<uint8_t>(1u << (rng() % 8));
			frames.push_back(c);
		}
	}
	for (int i = 0; i < 40; i++) {
		Frame n;
		n.kind = NET;
		n.data.resize(60 + rng() % 1400);
		for (auto &b : n.data)
			b = static_cast<uint8_t>(rng());
		n.data[12] = 0x08;
		n.data[13] = 0x06;  // ARP ethertype: not RoCE
		uint64_t mac = 0;
		bool mcast = false;
		switch (rng() % 4) {
		case 0: mac = station; break;
		case 1: mac = 0xffffffffffffull; mcast = true; break;
		case 2: mac = 0x01005e000000ull | (rng() & 0x7fffff); mcast = true; break;
		default: mac = (station ^ (uint64_t(rng()) << 8)) & ~(1ull << 40); break;
		}
		set_dmac(n.data, mac);
		bool pass = mac == station || mac == 0xffffffffffffull || (mcast && allmulti) || promisc;
		if (n.data.size() > mtu + 18)
			pass = false;
		if (!pass)
			n.kind = FILTERED;
		frames.push_back(n);
	}
	// the length limit's edge (port_mtu + 18 bytes passes, one more does
	// not), with every tail-beat size around it
	for (unsigned len = mtu + 10; len <= mtu + 26; len++) {
		Frame n;
		n.kind = len <= mtu + 18 ? NET : FILTERED;
		n.data.resize(len);
		for (auto &b : n.data)
			b = static_cast<uint8_t>(rng());
		n.data[12] = 0x08;
		n.data[13] = 0x06;
		set_dmac(n.data, station);
		frames.push_back(n);
	}
	for (int i = 0; i < 4; i++) {
		Frame h;
		h.kind = HUGE;
		h.data.assign(4096 + 100 + rng() % 2000, 0x5a);  // more than the 4 KiB ring
		h.data[12] = 0x88;
		h.data[13] = 0xb5;
		set_dmac(h.data, station);
		frames.push_back(h);
	}
	std::shuffle(frames.begin(), frames.end(), rng);

	std::deque<const Frame *> want_roce, want_net;
	unsigned n_good = 0, n_drop = 0, n_net = 0, n_huge = 0, n_filt = 0;
	for (const Frame &f : frames) {
		if (f.kind == GOOD) {
			want_roce.push_back(&f);
			n_good++;
		} else if (f.kind == NET) {
			want_net.push_back(&f);
			n_net++;
		} else if (f.kind == CORRUPT) {
			n_drop++;
		} else if (f.kind == FILTERED) {
			n_filt++;
		} else {
			n_huge++;
		}
	}

	auto ctx = std::make_unique<VerilatedContext>();
	Vpktbuf_tb_top m(ctx.get(), "tb");
	std::uniform_real_distribution<double> coin(0, 1);
	auto busy = [&]() { return coin(rng) < 0.3; };
	m.port_mac = station;
	m.port_mtu = mtu;
	m.port_promisc = promisc;
	m.port_allmulti = allmulti;
	m.rst = 1;
	for (int i = 0; i < 4; i++) {
		m.clk = 0;
		m.eval();
		m.clk = 1;
		m.eval();
	}
	m.rst = 0;

	size_t fi = 0, off = 0;
	std::vector<uint8_t> roce_data, net_data;
	std::deque<Rhdr> hdrs;
	unsigned errors = 0, got_roce = 0, got_net = 0;
	unsigned s_roce = 0, s_net = 0, s_drop = 0, s_over = 0, s_all = 0, s_filt = 0;
	uint8_t buf[64];
	uint64_t idle = 0;
	// headers held by the consumer while a payload streams: the buffer hands
	// out committed headers ahead of the payloads (at most HDR_DEPTH)
	size_t max_hdrs_ahead = 0;
	auto fail = [&](const std::string &why) {
		if (errors++ < 10)
			fprintf(stderr, "FAIL: %s\n", why.c_str());
	};
	while ((!want_roce.empty() || !want_net.empty() || fi < frames.size()) && idle < 50000) {
		m.clk = 0;
		bool v = fi < frames.size() && !busy();
		if (v) {
			const std::vector<uint8_t> &d = frames[fi].data;
			int n = static_cast<int>(std::min<size_t>(W, d.size() - off));
			froce::put_bytes(m.s_tdata, d.data() + off, n);
			m.s_tkeep = n >= 64 ? ~0ull : ((1ull << n) - 1);
			m.s_tlast = off + W >= d.size();
		}
		m.s_tvalid = v;
		m.roce_hdr_ready = !busy();
		m.roce_tready = !busy();
		m.net_tready = !busy();
		m.eval();
		bool in_fire = m.s_tvalid && m.s_tready;
		bool progress = in_fire;
		if (m.stat_valid) {
			s_all++;
			s_roce += m.stat_roce;
			s_net += m.stat_net;
			s_drop += m.stat_dropped;
			s_over += m.stat_overflow;
			s_filt += m.stat_filtered;
		}
		if (m.roce_hdr_valid && m.roce_hdr_ready) {
			hdrs.push_back(froce::get_hdr(m.roce_hdr));
			progress = true;
		}
		if (m.roce_tvalid && m.roce_tready) {
			progress = true;
			max_hdrs_ahead = std::max(max_hdrs_ahead, hdrs.size());
			uint64_t keep = m.roce_tkeep;
			froce::get_bytes(m.roce_tdata, buf, W);
			for (int i = 0; i < W; i++)
				if (keep >> i & 1)
					roce_data.push_back(buf[i]);
			if (m.roce_tlast) {
				if (hdrs.empty() || want_roce.empty()) {
					fail("RoCE packet out with no header or none expected");
				} else {
					const Frame *f = want_roce.front();
					want_roce.pop_front();
					uint32_t psn = static_cast<uint32_t>(RHDR_GET(hdrs.front(), PSN));
					if (psn != f->psn)
						fail("PSN " + std::to_string(psn) + " expected " + std::to_string(f->psn));
					size_t plen = roce_data.size();
					if (plen > f->payload.size() ||
					    !std::equal(roce_data.begin(), roce_data.end(),
							f->payload.end() - static_cast<long>(plen)) ||
					    plen != RHDR_GET(hdrs.front(), PAYLOAD_LEN))
						fail("payload of PSN " + std::to_string(f->psn) + " wrong");
					hdrs.pop_front();
				}
				roce_data.clear();
				got_roce++;
			}
		}
		if (m.net_tvalid && m.net_tready) {
			progress = true;
			uint64_t keep = m.net_tkeep;
			froce::get_bytes(m.net_tdata, buf, W);
			for (int i = 0; i < W; i++)
				if (keep >> i & 1)
					net_data.push_back(buf[i]);
			if (m.net_tlast) {
				if (want_net.empty() || net_data != want_net.front()->data)
					fail("netdev frame " + std::to_string(got_net + 1) + " wrong");
				if (!want_net.empty())
					want_net.pop_front();
				net_data.clear();
				got_net++;
			}
		}
		m.clk = 1;
		m.eval();
		if (in_fire) {
			off += W;
			if (off >= frames[fi].data.size()) {
				off = 0;
				fi++;
			}
		}
		idle = progress ? 0 : idle + 1;
	}
	// drain: the last frames may still be in the parser when the input ends
	m.s_tvalid = 0;
	for (int i = 0; i < 400; i++) {
		m.clk = 0;
		m.eval();
		if (m.stat_valid) {
			s_all++;
			s_roce += m.stat_roce;
			s_net += m.stat_net;
			s_drop += m.stat_dropped;
			s_over += m.stat_overflow;
			s_filt += m.stat_filtered;
		}
		if (m.roce_tvalid || m.net_tvalid)
			fail("output after all expected packets");
		m.clk = 1;
		m.eval();
	}
	if (idle >= 50000)
		fail("hang: no progress for 50000 cycles");
	if (!want_roce.empty() || !want_net.empty())
		fail(std::to_string(want_roce.size()) + " RoCE and " + std::to_string(want_net.size()) +
		     " netdev packets never came out");
	if (s_all != frames.size() || s_roce != n_good || s_net != n_net || s_drop != n_drop ||
	    s_over != n_huge || s_filt != n_filt)
		fail("status pulses: all " + std::to_string(s_all) + " roce " + std::to_string(s_roce) +
		     " net " + std::to_string(s_net) + " dropped " + std::to_string(s_drop) +
		     " overflow " + std::to_string(s_over) + " filtered " + std::to_string(s_filt) +
		     " (expected " + std::to_string(n_filt) + ")");
	if (n_good >= 2 && max_hdrs_ahead < 2)
		fail("the next packet's header never came out while a payload was streaming");
	if (max_hdrs_ahead > 16)
		fail("more headers out ahead of their payloads (" + std::to_string(max_hdrs_ahead) +
		     ") than the header FIFO holds");
	printf("pktbuf width=%d seed=%u (promisc %d allmulti %d mtu %u): %zu frames in, %u RoCE out (of %u "
	       "good), %u netdev out, %u dropped for ICRC, %u filtered, %u too large for the ring, up to "
	       "%zu headers ahead, %s\n",
	       DATA_WIDTH, seed, promisc, allmulti, mtu, frames.size(), got_roce, n_good, got_net, n_drop,
	       n_filt, n_huge, max_hdrs_ahead, errors ? "FAIL" : "ok");
	m.final();
	return errors ? 1 : 0;
}
