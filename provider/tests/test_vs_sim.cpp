// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The provider's WQE builders against the simulator's host model: random
 * work requests go through froce_build_sq_wqe/froce_build_rq_wqe and through
 * sim/core/host.cpp build_sq_wqe/build_rq_wqe (the images the RTL is tested
 * with); every accepted request must give the same bytes.
 */
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <endian.h>

#include "froce_ring.h"
#include "host.h"

using namespace froce_sim;

int main()
{
	std::mt19937_64 rng(20261121);
	auto pick = [&](uint64_t n) { return uint64_t(rng() % n); };
	static const ibv_wr_opcode rc_ops[] = {
		IBV_WR_SEND, IBV_WR_SEND_WITH_IMM, IBV_WR_SEND_WITH_INV,
		IBV_WR_RDMA_WRITE, IBV_WR_RDMA_WRITE_WITH_IMM, IBV_WR_RDMA_READ,
		IBV_WR_ATOMIC_CMP_AND_SWP, IBV_WR_ATOMIC_FETCH_AND_ADD,
	};
	static uint8_t data[4][256];
	unsigned compared = 0, rejected = 0, failed = 0, rq = 0;

	for (auto &d : data)
		for (auto &b : d)
			b = uint8_t(rng());
	for (int it = 0; it < 20000; it++) {
		const bool ud = pick(4) == 0;
		froce_sq_info sq{};
		sq.qp_type = ud ? FROCE_QP_TYPE_UD : FROCE_QP_TYPE_RC;
		sq.wqe_shift = uint8_t(6 + pick(4));
		sq.max_sge = 8;
		sq.max_inline = 400;
		ibv_send_wr wr{};
		ibv_sge sg[8];
		wr.opcode = ud ? (pick(2) ? IBV_WR_SEND : IBV_WR_SEND_WITH_IMM)
			       : rc_ops[pick(8)];
		const bool atomic = wr.opcode == IBV_WR_ATOMIC_CMP_AND_SWP ||
				    wr.opcode == IBV_WR_ATOMIC_FETCH_AND_ADD;
		const bool inl = !atomic && wr.opcode != IBV_WR_RDMA_READ &&
				 pick(3) == 0;
		wr.num_sge = atomic ? 1 : int(pick(inl ? 5 : 9));
		for (int i = 0; i < wr.num_sge; i++) {
			sg[i].addr = inl ? uint64_t(uintptr_t(data[i % 4])) : rng();
			sg[i].length = inl ? uint32_t(pick(100)) : uint32_t(rng() >> 34);
			sg[i].lkey = uint32_t(rng());
		}
		if (atomic)
			sg[0].length = 8;
		wr.sg_list = sg;
		wr.send_flags = unsigned(pick(16)) & (IBV_SEND_SIGNALED |
			IBV_SEND_SOLICITED | IBV_SEND_FENCE);
		if (inl)
			wr.send_flags |= IBV_SEND_INLINE;
		wr.imm_data = uint32_t(rng());
		if (atomic) {
			wr.wr.atomic.remote_addr = rng() & ~7ull;
			wr.wr.atomic.rkey = uint32_t(rng());
			wr.wr.atomic.compare_add = rng();
			wr.wr.atomic.swap = rng();
		} else if (!ud) {
			wr.wr.rdma.remote_addr = rng();
			wr.wr.rdma.rkey = uint32_t(rng());
		}
		froce_av av{};
		av.sgid_index = uint8_t(rng());
		av.hop_limit = uint8_t(rng());
		av.tclass = uint8_t(rng());
		av.net_type = uint8_t(1 + pick(3));
		av.vlan_en = uint8_t(pick(2));
		av.vlan_id = uint16_t(pick(4096));
		av.udp_sport = uint16_t(rng());
		av.flow_label = uint32_t(pick(1u << 20));
		av.dmac = rng() & 0xFFFFFFFFFFFFull;
		for (auto &b : av.dgid)
			b = uint8_t(rng());
		const uint32_t dqpn = uint32_t(pick(1u << 24)), qkey = uint32_t(rng());
		const uint16_t idx = uint16_t(rng());

		std::vector<uint8_t> mine(size_t(1) << sq.wqe_shift, 0xA5);
		if (froce_build_sq_wqe(&sq, &wr, dqpn, qkey, ud ? &av : nullptr,
				       idx, mine.data())) {
			rejected++;
			continue;
		}
		SendWr s;
		s.opcode = uint8_t(froce_wqe_opcode(wr.opcode));
		s.signaled = wr.send_flags & IBV_SEND_SIGNALED;
		s.solicited = wr.send_flags & IBV_SEND_SOLICITED;
		s.fence = wr.send_flags & IBV_SEND_FENCE;
		s.inline_data = inl;
		std::vector<uint8_t> inl_bytes;
		for (int i = 0; i < wr.num_sge; i++) {
			s.sg.push_back(Sge{sg[i].addr, sg[i].length, sg[i].lkey});
			if (inl)
				inl_bytes.insert(inl_bytes.end(), data[i % 4],
						 data[i % 4] + sg[i].length);
		}
		if (atomic) {
			s.remote_addr = wr.wr.atomic.remote_addr;
			s.rkey = wr.wr.atomic.rkey;
			s.compare_add = wr.wr.atomic.compare_add;
			s.swap = wr.wr.atomic.swap;
		} else if (!ud) {
			s.remote_addr = wr.wr.rdma.remote_addr;
			s.rkey = wr.wr.rdma.rkey;
		}
		if (wr.opcode == IBV_WR_SEND_WITH_IMM ||
		    wr.opcode == IBV_WR_RDMA_WRITE_WITH_IMM)
			s.imm_inv = be32toh(wr.imm_data);
		else if (wr.opcode == IBV_WR_SEND_WITH_INV)
			s.imm_inv = wr.invalidate_rkey;
		s.ud.qpn = dqpn;
		s.ud.qkey = qkey;
		s.ud.av.sgid_index = av.sgid_index;
		s.ud.av.hop_limit = av.hop_limit;
		s.ud.av.tclass = av.tclass;
		s.ud.av.net_type = av.net_type;
		s.ud.av.flow_label = av.flow_label;
		s.ud.av.udp_sport = av.udp_sport;
		s.ud.av.vlan_en = av.vlan_en;
		s.ud.av.vlan_id = av.vlan_id;
		s.ud.av.dmac = av.dmac;
		std::memcpy(s.ud.av.dgid.raw, av.dgid, 16);
		std::vector<uint8_t> theirs;
		Status st = build_sq_wqe(sq.qp_type, sq.wqe_shift, s, idx,
					 inl_bytes, &theirs);
		if (!st.ok() || theirs != mine) {
			if (failed++ < 5)
				std::fprintf(stderr, "FAIL: SQ WQE %d (opcode %u, %d SGEs, inline %d, UD %d) differs%s\n",
					     it, s.opcode, wr.num_sge, inl, ud,
					     st.ok() ? "" : ": sim refused it");
			continue;
		}
		compared++;

		/* an RQ WQE from the same SGEs */
		ibv_recv_wr rw{};
		rw.sg_list = sg;
		rw.num_sge = wr.num_sge;
		std::vector<uint8_t> rmine(size_t(1) << sq.wqe_shift, 0x5A);
		if (froce_build_rq_wqe(sq.wqe_shift, 8, &rw, idx, rmine.data()))
			continue;
		RecvWr r;
		r.sg = s.sg;
		std::vector<uint8_t> rtheirs;
		if (!build_rq_wqe(sq.wqe_shift, r, idx, &rtheirs).ok() ||
		    rtheirs != rmine) {
			if (failed++ < 5)
				std::fprintf(stderr, "FAIL: RQ WQE %d differs\n", it);
			continue;
		}
		rq++;
	}
	std::printf("provider vs sim: %u SQ and %u RQ WQEs identical, %u refused by the provider, %u failed\n",
		    compared, rq, rejected, failed);
	return failed || compared < 10000 ? 1 : 0;
}
