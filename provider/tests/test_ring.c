// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests of the provider's ring logic (froce_ring.c): every WQE image is
 * compared byte for byte with one built independently here from the
 * froce_hw.h field macros (FROCE_FIELD_PREP on little-endian words), the way
 * sim/core/host.cpp's build_sq_wqe/build_rq_wqe lay them out.
 */
#include <endian.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "froce_ring.h"

static int failures, checks;

#define CHECK(cond)                                                         \
	do {                                                                \
		checks++;                                                   \
		if (!(cond)) {                                              \
			failures++;                                         \
			fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__,      \
				__LINE__, #cond);                           \
		}                                                           \
	} while (0)

/* ---- expected images, built from the field macros ---- */
struct img {
	uint8_t b[512];
};

static void put_dw(uint8_t *base, unsigned int dw, uint32_t v)
{
	uint32_t w;

	memcpy(&w, base + 4 * dw, 4);
	w = htole32(le32toh(w) | v);
	memcpy(base + 4 * dw, &w, 4);
}

static void put_qw(uint8_t *base, unsigned int qw, uint64_t v)
{
	uint64_t w;

	memcpy(&w, base + 8 * qw, 8);
	w = htole64(le64toh(w) | v);
	memcpy(base + 8 * qw, &w, 8);
}

#define XDW(base, F, v) put_dw((base), F##_DW, FROCE_FIELD_PREP(F, (uint32_t)(v)))
#define XQW(base, F, v) put_qw((base), F##_QW, FROCE_FIELD_PREP(F, (uint64_t)(v)))

static void x_ctrl(uint8_t *p, unsigned int op, int sig, int sol, int fence,
		   int inl, unsigned int ds, unsigned int idx, uint32_t imm,
		   unsigned int inl_len)
{
	XDW(p, FROCE_WQE_CTRL_OPCODE, op);
	XDW(p, FROCE_WQE_CTRL_SIGNALED, sig);
	XDW(p, FROCE_WQE_CTRL_SOLICITED, sol);
	XDW(p, FROCE_WQE_CTRL_FENCE, fence);
	XDW(p, FROCE_WQE_CTRL_INLINE, inl);
	XDW(p, FROCE_WQE_CTRL_DS, ds);
	XDW(p, FROCE_WQE_CTRL_WQE_INDEX, idx);
	XDW(p, FROCE_WQE_CTRL_IMM_INV, imm);
	XDW(p, FROCE_WQE_CTRL_INLINE_LEN, inl_len);
}

static uint8_t *x_data(uint8_t *seg, const struct ibv_sge *s)
{
	XQW(seg, FROCE_WQE_DATA_ADDR, s->addr);
	XDW(seg, FROCE_WQE_DATA_LEN, s->length);
	XDW(seg, FROCE_WQE_DATA_LKEY, s->lkey);
	return seg + FROCE_WQE_DATA_SIZE;
}

static uint8_t *x_raddr(uint8_t *seg, uint64_t va, uint32_t rkey)
{
	XQW(seg, FROCE_WQE_RADDR_VA, va);
	XDW(seg, FROCE_WQE_RADDR_RKEY, rkey);
	return seg + FROCE_WQE_RADDR_SIZE;
}

static const struct ibv_sge sges[4] = {
	{ .addr = 0x1000123456789ABCull, .length = 100, .lkey = 0x1201 },
	{ .addr = 0x7FFF00001000ull, .length = 4096, .lkey = 0x3402 },
	{ .addr = 0x42, .length = 1, .lkey = 0xFFFFFF03 },
	{ .addr = 0xFFFFFFFFFFFFFFF0ull, .length = 0x80000000u - 5000, .lkey = 7 },
};

static const struct froce_sq_info rc7 = {
	.qp_type = FROCE_QP_TYPE_RC, .wqe_shift = 7, .max_sge = 4,
	.max_inline = 64,
};

/* build with the provider and compare with the expected image */
static int same_sq(const struct froce_sq_info *sq, const struct ibv_send_wr *wr,
		   uint32_t dqpn, uint32_t qkey, const struct froce_av *av,
		   uint16_t idx, const struct img *want)
{
	struct img got;

	memset(&got, 0xA5, sizeof(got));	/* garbage: must be cleared */
	if (froce_build_sq_wqe(sq, wr, dqpn, qkey, av, idx, got.b))
		return 0;
	return !memcmp(got.b, want->b, (size_t)1 << sq->wqe_shift);
}

static void test_send(void)
{
	struct ibv_send_wr wr = { .wr_id = 1, .sg_list = (struct ibv_sge *)sges,
				  .num_sge = 1, .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	struct img want = { { 0 } };

	x_ctrl(want.b, FROCE_WQE_OP_SEND, 1, 0, 0, 0, 2, 5, 0, 0);
	x_data(want.b + 16, &sges[0]);
	CHECK(same_sq(&rc7, &wr, 0, 0, NULL, 5, &want));

	/* SEND_WITH_IMM: the number whose big-endian bytes go on the wire */
	memset(&want, 0, sizeof(want));
	wr.opcode = IBV_WR_SEND_WITH_IMM;
	wr.imm_data = htobe32(0x12345678);
	wr.send_flags = IBV_SEND_SOLICITED;
	wr.num_sge = 2;
	x_ctrl(want.b, FROCE_WQE_OP_SEND_WITH_IMM, 0, 1, 0, 0, 3, 0xFFFF,
	       0x12345678, 0);
	x_data(x_data(want.b + 16, &sges[0]), &sges[1]);
	CHECK(same_sq(&rc7, &wr, 0, 0, NULL, 0xFFFF, &want));

	/* sq_sig_all signals every WQE */
	{
		struct froce_sq_info all = rc7;
		struct img got;

		all.sig_all = 1;
		CHECK(!froce_build_sq_wqe(&all, &wr, 0, 0, NULL, 0, got.b));
		CHECK(got.b[1] & 1);	/* SIGNALED is bit 8 */
	}

	/* SEND_WITH_INV: IMM_INV is the rkey as a number */
	memset(&want, 0, sizeof(want));
	wr.opcode = IBV_WR_SEND_WITH_INV;
	wr.invalidate_rkey = 0xABCD0102;
	wr.send_flags = IBV_SEND_FENCE;
	wr.num_sge = 0;
	x_ctrl(want.b, FROCE_WQE_OP_SEND_WITH_INV, 0, 0, 1, 0, 1, 9,
	       0xABCD0102, 0);
	CHECK(same_sq(&rc7, &wr, 0, 0, NULL, 9, &want));
}

static void test_rdma(void)
{
	struct ibv_send_wr wr = { .sg_list = (struct ibv_sge *)sges,
				  .num_sge = 4, .opcode = IBV_WR_RDMA_WRITE,
				  .send_flags = IBV_SEND_SIGNALED | IBV_SEND_FENCE };
	struct img want = { { 0 } };
	uint8_t *seg;
	int i;

	wr.wr.rdma.remote_addr = 0xDEADBEEF00112233ull;
	wr.wr.rdma.rkey = 0x00ABCD42;
	x_ctrl(want.b, FROCE_WQE_OP_RDMA_WRITE, 1, 0, 1, 0, 6, 1, 0, 0);
	seg = x_raddr(want.b + 16, wr.wr.rdma.remote_addr, wr.wr.rdma.rkey);
	for (i = 0; i < 4; i++)
		seg = x_data(seg, &sges[i]);
	CHECK(same_sq(&rc7, &wr, 0, 0, NULL, 1, &want));

	memset(&want, 0, sizeof(want));
	wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
	wr.imm_data = htobe32(0xCAFEF00D);
	wr.num_sge = 1;
	wr.send_flags = 0;
	x_ctrl(want.b, FROCE_WQE_OP_RDMA_WRITE_WITH_IMM, 0, 0, 0, 0, 3, 2,
	       0xCAFEF00D, 0);
	x_data(x_raddr(want.b + 16, wr.wr.rdma.remote_addr, wr.wr.rdma.rkey),
	       &sges[0]);
	CHECK(same_sq(&rc7, &wr, 0, 0, NULL, 2, &want));

	memset(&want, 0, sizeof(want));
	wr.opcode = IBV_WR_RDMA_READ;
	wr.num_sge = 2;
	x_ctrl(want.b, FROCE_WQE_OP_RDMA_READ, 0, 0, 0, 0, 4, 3, 0, 0);
	x_data(x_data(x_raddr(want.b + 16, wr.wr.rdma.remote_addr,
			      wr.wr.rdma.rkey), &sges[0]), &sges[1]);
	CHECK(same_sq(&rc7, &wr, 0, 0, NULL, 3, &want));
}

static void test_atomic(void)
{
	struct ibv_sge s8 = { .addr = 0x5000, .length = 8, .lkey = 0x101 };
	struct ibv_send_wr wr = { .sg_list = &s8, .num_sge = 1,
				  .opcode = IBV_WR_ATOMIC_CMP_AND_SWP,
				  .send_flags = IBV_SEND_SIGNALED };
	struct img want = { { 0 } };
	uint8_t *seg = want.b + 16;

	wr.wr.atomic.remote_addr = 0x123456780ull;
	wr.wr.atomic.rkey = 0x4455;
	wr.wr.atomic.compare_add = 0x1111222233334444ull;
	wr.wr.atomic.swap = 0x5555666677778888ull;
	x_ctrl(want.b, FROCE_WQE_OP_ATOMIC_CMP_SWP, 1, 0, 0, 0, 4, 7, 0, 0);
	XQW(seg, FROCE_WQE_ATOMIC_VA, 0x123456780ull);
	XDW(seg, FROCE_WQE_ATOMIC_RKEY, 0x4455);
	XQW(seg, FROCE_WQE_ATOMIC_SWAP_ADD, 0x5555666677778888ull);
	XQW(seg, FROCE_WQE_ATOMIC_COMPARE, 0x1111222233334444ull);
	x_data(seg + 32, &s8);
	CHECK(same_sq(&rc7, &wr, 0, 0, NULL, 7, &want));

	memset(&want, 0, sizeof(want));
	wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
	x_ctrl(want.b, FROCE_WQE_OP_ATOMIC_FETCH_ADD, 1, 0, 0, 0, 4, 8, 0, 0);
	XQW(seg, FROCE_WQE_ATOMIC_VA, 0x123456780ull);
	XDW(seg, FROCE_WQE_ATOMIC_RKEY, 0x4455);
	XQW(seg, FROCE_WQE_ATOMIC_SWAP_ADD, 0x1111222233334444ull);
	x_data(seg + 32, &s8);
	CHECK(same_sq(&rc7, &wr, 0, 0, NULL, 8, &want));

	/* shape errors */
	s8.length = 4;
	CHECK(froce_build_sq_wqe(&rc7, &wr, 0, 0, NULL, 0, want.b) == -EINVAL);
	s8.length = 8;
	wr.wr.atomic.remote_addr = 0x1004;
	CHECK(froce_build_sq_wqe(&rc7, &wr, 0, 0, NULL, 0, want.b) == -EINVAL);
	wr.wr.atomic.remote_addr = 0x1000;
	wr.send_flags = IBV_SEND_INLINE;
	CHECK(froce_build_sq_wqe(&rc7, &wr, 0, 0, NULL, 0, want.b) == -EINVAL);
	wr.send_flags = 0;
	{
		struct ibv_sge two[2] = { s8, s8 };

		wr.sg_list = two;
		wr.num_sge = 2;
		CHECK(froce_build_sq_wqe(&rc7, &wr, 0, 0, NULL, 0, want.b) ==
		      -EINVAL);
	}
}

static void test_inline(void)
{
	static const char a[] = "hello, ", b[] = "inline world!!";
	struct ibv_sge s[2] = {
		{ .addr = (uintptr_t)a, .length = 7, .lkey = 0 },
		{ .addr = (uintptr_t)b, .length = 14, .lkey = 0 },
	};
	struct ibv_send_wr wr = { .sg_list = s, .num_sge = 2,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_INLINE | IBV_SEND_SIGNALED };
	struct img want = { { 0 } };
	uint8_t *seg;

	/* 21 bytes round up to two 16-byte segments: DS = 1 + 2 */
	x_ctrl(want.b, FROCE_WQE_OP_SEND, 1, 0, 0, 1, 3, 4, 0, 21);
	memcpy(want.b + 16, a, 7);
	memcpy(want.b + 23, b, 14);
	CHECK(same_sq(&rc7, &wr, 0, 0, NULL, 4, &want));

	memset(&want, 0, sizeof(want));
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.wr.rdma.remote_addr = 0x99;
	wr.wr.rdma.rkey = 0x77;
	x_ctrl(want.b, FROCE_WQE_OP_RDMA_WRITE, 1, 0, 0, 1, 4, 4, 0, 21);
	seg = x_raddr(want.b + 16, 0x99, 0x77);
	memcpy(seg, a, 7);
	memcpy(seg + 7, b, 14);
	CHECK(same_sq(&rc7, &wr, 0, 0, NULL, 4, &want));

	/* an empty inline SGE may have a NULL address */
	{
		struct ibv_sge z = { .addr = 0, .length = 0 };
		struct ibv_send_wr w0 = { .sg_list = &z, .num_sge = 1,
					  .opcode = IBV_WR_SEND,
					  .send_flags = IBV_SEND_INLINE };

		memset(&want, 0, sizeof(want));
		x_ctrl(want.b, FROCE_WQE_OP_SEND, 0, 0, 0, 1, 1, 0, 0, 0);
		CHECK(same_sq(&rc7, &w0, 0, 0, NULL, 0, &want));
	}

	/* errors: READ inline; longer than max_inline; longer than the slot */
	wr.opcode = IBV_WR_RDMA_READ;
	CHECK(froce_build_sq_wqe(&rc7, &wr, 0, 0, NULL, 0, want.b) == -EINVAL);
	wr.opcode = IBV_WR_SEND;
	{
		struct froce_sq_info small = rc7;
		static uint8_t big[200];
		struct ibv_sge bs = { .addr = (uintptr_t)big, .length = 65 };
		struct ibv_send_wr w2 = wr;

		w2.sg_list = &bs;
		w2.num_sge = 1;
		CHECK(froce_build_sq_wqe(&rc7, &w2, 0, 0, NULL, 0, want.b) ==
		      -EINVAL);	/* 65 > max_inline 64 */
		bs.length = 64;
		CHECK(!froce_build_sq_wqe(&rc7, &w2, 0, 0, NULL, 0, want.b));
		small.max_inline = 200;
		small.wqe_shift = 6;
		CHECK(froce_build_sq_wqe(&small, &w2, 0, 0, NULL, 0, want.b) ==
		      -EINVAL);	/* 16 + 64 > 64-byte slot */
	}
}

static void test_ud(void)
{
	const struct froce_sq_info ud = { .qp_type = FROCE_QP_TYPE_UD,
					  .wqe_shift = 7, .max_sge = 2 };
	struct froce_av av = {
		.sgid_index = 3, .hop_limit = 64, .tclass = 0x62,
		.net_type = FROCE_KIND_ROCE_V2_IPV4, .vlan_en = 1,
		.vlan_id = 0xABC, .udp_sport = 0xC001, .flow_label = 0xFEDCB,
		.dmac = 0x0A1B2C3D4E5Full,
		.dgid = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 10, 0, 0, 2 },
	};
	struct ibv_send_wr wr = { .sg_list = (struct ibv_sge *)sges,
				  .num_sge = 2, .opcode = IBV_WR_SEND_WITH_IMM,
				  .send_flags = IBV_SEND_SIGNALED };
	struct img want = { { 0 } };
	uint8_t *seg = want.b + 16;

	wr.imm_data = htobe32(0x01020304);
	x_ctrl(want.b, FROCE_WQE_OP_SEND_WITH_IMM, 1, 0, 0, 0, 6, 0x1234,
	       0x01020304, 0);
	XDW(seg, FROCE_WQE_UD_DQPN, 0xABCDEF);
	XDW(seg, FROCE_WQE_UD_QKEY, 0x80010203);
	XDW(seg, FROCE_WQE_UD_AV_SGID_INDEX, 3);
	XDW(seg, FROCE_WQE_UD_AV_HOP_LIMIT, 64);
	XDW(seg, FROCE_WQE_UD_AV_TCLASS, 0x62);
	XDW(seg, FROCE_WQE_UD_AV_NET_TYPE, FROCE_KIND_ROCE_V2_IPV4);
	XDW(seg, FROCE_WQE_UD_AV_VLAN_EN, 1);
	XDW(seg, FROCE_WQE_UD_AV_FLOW_LABEL, 0xFEDCB);
	XDW(seg, FROCE_WQE_UD_AV_UDP_SPORT, 0xC001);
	XDW(seg, FROCE_WQE_UD_AV_VLAN_ID, 0xABC);
	XQW(seg, FROCE_WQE_UD_AV_DMAC, 0x0A1B2C3D4E5Full);
	memcpy(seg + FROCE_WQE_UD_AV_DGID_BYTE, av.dgid, 16);
	x_data(x_data(seg + FROCE_WQE_UD_SIZE, &sges[0]), &sges[1]);
	CHECK(same_sq(&ud, &wr, 0xABCDEF, 0x80010203, &av, 0x1234, &want));

	/* UD: only sends, needs an AV, 24-bit QPN */
	CHECK(froce_build_sq_wqe(&ud, &wr, 0xABCDEF, 0, NULL, 0, want.b) ==
	      -EINVAL);
	CHECK(froce_build_sq_wqe(&ud, &wr, 0x1000000, 0, &av, 0, want.b) ==
	      -EINVAL);
	wr.opcode = IBV_WR_RDMA_WRITE;
	CHECK(froce_build_sq_wqe(&ud, &wr, 1, 0, &av, 0, want.b) == -EINVAL);
	/* 3 SGEs > max_sge 2 */
	wr.opcode = IBV_WR_SEND;
	wr.num_sge = 3;
	CHECK(froce_build_sq_wqe(&ud, &wr, 1, 0, &av, 0, want.b) == -EINVAL);
}

static void test_sq_errors(void)
{
	struct ibv_send_wr wr = { .sg_list = (struct ibv_sge *)sges,
				  .num_sge = 5, .opcode = IBV_WR_SEND };
	struct froce_sq_info sq = rc7;
	struct img got;

	CHECK(froce_build_sq_wqe(&rc7, &wr, 0, 0, NULL, 0, got.b) == -EINVAL);
	wr.num_sge = 1;
	wr.opcode = IBV_WR_LOCAL_INV;
	CHECK(froce_build_sq_wqe(&rc7, &wr, 0, 0, NULL, 0, got.b) == -EINVAL);
	wr.opcode = IBV_WR_BIND_MW;
	CHECK(froce_build_sq_wqe(&rc7, &wr, 0, 0, NULL, 0, got.b) == -EINVAL);
	/* 4 SGEs + RADDR + CTRL = 96 bytes do not fit a 64-byte slot */
	sq.wqe_shift = 6;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.num_sge = 4;
	CHECK(froce_build_sq_wqe(&sq, &wr, 0, 0, NULL, 0, got.b) == -EINVAL);
	/* message longer than 2^31 */
	{
		struct ibv_sge two[2] = { sges[3], sges[3] };

		wr.sg_list = two;
		wr.num_sge = 2;
		CHECK(froce_build_sq_wqe(&rc7, &wr, 0, 0, NULL, 0, got.b) ==
		      -EINVAL);
	}
	sq.wqe_shift = 10;
	wr.num_sge = 1;
	CHECK(froce_build_sq_wqe(&sq, &wr, 0, 0, NULL, 0, got.b) == -EINVAL);
}

static void test_rq(void)
{
	struct ibv_recv_wr wr = { .sg_list = (struct ibv_sge *)sges, .num_sge = 3 };
	struct img want = { { 0 } }, got;
	uint8_t *seg;
	int i;

	XDW(want.b, FROCE_RQ_WQE_HDR_WQE_INDEX, 0xBEEF);
	XDW(want.b, FROCE_RQ_WQE_HDR_NUM_SGE, 3);
	seg = want.b + FROCE_RQ_WQE_HDR_SIZE;
	for (i = 0; i < 3; i++)
		seg = x_data(seg, &sges[i]);
	memset(&got, 0x5A, sizeof(got));
	CHECK(!froce_build_rq_wqe(6, 3, &wr, 0xBEEF, got.b));
	CHECK(!memcmp(got.b, want.b, 64));

	memset(&want, 0, sizeof(want));
	wr.num_sge = 0;
	XDW(want.b, FROCE_RQ_WQE_HDR_WQE_INDEX, 1);
	memset(&got, 0x5A, sizeof(got));
	CHECK(!froce_build_rq_wqe(7, 3, &wr, 1, got.b));
	CHECK(!memcmp(got.b, want.b, 128));

	wr.num_sge = 4;
	CHECK(froce_build_rq_wqe(7, 3, &wr, 0, got.b) == -EINVAL); /* > max */
	CHECK(froce_build_rq_wqe(6, 8, &wr, 0, got.b) == -EINVAL); /* > slot */
	CHECK(!froce_build_rq_wqe(7, 8, &wr, 0, got.b));
	CHECK(froce_build_rq_wqe(5, 8, &wr, 0, got.b) == -EINVAL);
}

static void test_doorbells(void)
{
	uint64_t w;

	w = FROCE_FIELD_PREP(FROCE_DB_QP_QPN, 0x123456u) |
	    FROCE_FIELD_PREP(FROCE_DB_QP_TYPE, (uint32_t)FROCE_DB_TYPE_SQ);
	w |= (uint64_t)FROCE_FIELD_PREP(FROCE_DB_QP_PI, 0x2345u) << 32;
	CHECK(froce_db_qp(0x123456, FROCE_DB_TYPE_SQ, 0x12345) == w);
	CHECK(froce_db_qp(7, FROCE_DB_TYPE_RQ, 0x10000) ==
	      ((uint64_t)FROCE_DB_TYPE_RQ << 24 | 7));

	w = FROCE_FIELD_PREP(FROCE_DB_CQ_CQN, 0x42u) |
	    FROCE_FIELD_PREP(FROCE_DB_CQ_TYPE, (uint32_t)FROCE_DB_TYPE_CQ_ARM);
	w |= (uint64_t)(FROCE_FIELD_PREP(FROCE_DB_CQ_CI, 0xABCDEFu) |
			FROCE_FIELD_PREP(FROCE_DB_CQ_SOLICITED, 1u) |
			FROCE_FIELD_PREP(FROCE_DB_CQ_SN, 0xFu)) << 32;
	CHECK(froce_db_cq_arm(0x42, 0x12ABCDEF, 1, 0x1F) == w);
	CHECK(froce_db_cq_arm(1, 0, 0, 0) == ((uint64_t)FROCE_DB_TYPE_CQ_ARM << 24 | 1));
}

static void make_cqe(uint8_t *p, int owner)
{
	memset(p, 0, FROCE_CQE_SIZE);
	XDW(p, FROCE_CQE_QPN, 0x00ABCD);
	XDW(p, FROCE_CQE_OPCODE, FROCE_CQE_OP_RECV);
	XDW(p, FROCE_CQE_WQE_INDEX, 0x8001);
	XDW(p, FROCE_CQE_STATUS, FROCE_WC_REM_ACCESS_ERR);
	XDW(p, FROCE_CQE_VENDOR_ERR, FROCE_VENDOR_ERR_NAK_REMOTE_ACCESS);
	XDW(p, FROCE_CQE_BYTE_CNT, 0x80000000u);
	XDW(p, FROCE_CQE_IMM_INV, 0x11223344);
	XDW(p, FROCE_CQE_SRC_QPN, 0xFEDCBA);
	XDW(p, FROCE_CQE_GRH, 1);
	XDW(p, FROCE_CQE_WITH_IMM, 1);
	XDW(p, FROCE_CQE_VLAN, 1);
	XDW(p, FROCE_CQE_SOLICITED, 1);
	XDW(p, FROCE_CQE_NET_TYPE, FROCE_KIND_ROCE_V2_IPV6);
	XQW(p, FROCE_CQE_SMAC, 0x001122334455ull);
	XQW(p, FROCE_CQE_VLAN_ID, 0x123);
	XDW(p, FROCE_CQE_OWNER, owner);
}

static void test_cqe(void)
{
	uint8_t p[FROCE_CQE_SIZE];
	struct froce_cqe c;
	struct ibv_wc wc;
	uint32_t ci;

	make_cqe(p, 1);
	froce_cqe_decode(p, &c);
	CHECK(c.qpn == 0xABCD && c.opcode == FROCE_CQE_OP_RECV);
	CHECK(c.wqe_index == 0x8001 && c.status == FROCE_WC_REM_ACCESS_ERR);
	CHECK(c.vendor_err == FROCE_VENDOR_ERR_NAK_REMOTE_ACCESS);
	CHECK(c.byte_cnt == 0x80000000u && c.imm_inv == 0x11223344);
	CHECK(c.src_qpn == 0xFEDCBA && c.grh && c.with_imm && !c.with_inv);
	CHECK(c.vlan && c.solicited && c.net_type == FROCE_KIND_ROCE_V2_IPV6);
	CHECK(c.smac == 0x001122334455ull && c.vlan_id == 0x123);

	/* owner rule on a 4-entry ring: 1 on pass 0, 0 on pass 1, wraps */
	for (ci = 0; ci < 4; ci++)
		CHECK(froce_cqe_owned(p, ci, 2));
	for (ci = 4; ci < 8; ci++)
		CHECK(!froce_cqe_owned(p, ci, 2));
	CHECK(froce_cqe_owned(p, 8, 2));
	CHECK(froce_cqe_owned(p, 0xFFFFFFFFu, 2) == 0);	/* pass 2^30-1: odd */
	make_cqe(p, 0);
	CHECK(!froce_cqe_owned(p, 0, 2) && froce_cqe_owned(p, 5, 2));
	CHECK(froce_cqe_owned(p, 0xFFFFFFFFu, 2));
	memset(p, 0, sizeof(p));	/* a zeroed ring is empty on pass 0 */
	CHECK(!froce_cqe_owned(p, 0, 6));

	memset(&wc, 0xEE, sizeof(wc));
	CHECK(!froce_cqe_to_wc(&c, &wc));
	CHECK(wc.opcode == IBV_WC_RECV && wc.status == IBV_WC_REM_ACCESS_ERR);
	CHECK(wc.vendor_err == FROCE_VENDOR_ERR_NAK_REMOTE_ACCESS);
	CHECK(wc.imm_data == htobe32(0x11223344));
	CHECK(wc.wc_flags == (IBV_WC_WITH_IMM | IBV_WC_GRH));
	CHECK(wc.byte_len == 0x80000000u && wc.qp_num == 0xABCD &&
	      wc.src_qp == 0xFEDCBA);
	c.with_imm = 0;
	c.with_inv = 1;
	c.grh = 0;
	c.opcode = FROCE_CQE_OP_RECV_RDMA_WITH_IMM;
	CHECK(!froce_cqe_to_wc(&c, &wc));
	CHECK(wc.wc_flags == IBV_WC_WITH_INV && wc.invalidated_rkey == 0x11223344);
	CHECK(wc.opcode == IBV_WC_RECV_RDMA_WITH_IMM);
	{
		static const struct { uint8_t hw; enum ibv_wc_opcode wc; } map[] = {
			{ FROCE_CQE_OP_SEND, IBV_WC_SEND },
			{ FROCE_CQE_OP_RDMA_WRITE, IBV_WC_RDMA_WRITE },
			{ FROCE_CQE_OP_RDMA_READ, IBV_WC_RDMA_READ },
			{ FROCE_CQE_OP_COMP_SWAP, IBV_WC_COMP_SWAP },
			{ FROCE_CQE_OP_FETCH_ADD, IBV_WC_FETCH_ADD },
		};
		unsigned int i;

		for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
			c.opcode = map[i].hw;
			CHECK(!froce_cqe_to_wc(&c, &wc) && wc.opcode == map[i].wc);
		}
		c.opcode = 0x7F;
		CHECK(froce_cqe_to_wc(&c, &wc) == -EINVAL);
	}
}

static void test_queue_logic(void)
{
	unsigned int s, r;

	/* full with free-running counters, across the 32-bit wrap */
	CHECK(!froce_wq_full(3, 0, 2) && froce_wq_full(4, 0, 2));
	CHECK(froce_wq_full(2, 0xFFFFFFFEu, 2) && !froce_wq_full(1, 0xFFFFFFFEu, 2));

	/* a signaled WQE completes the unsignaled ones before it */
	CHECK(froce_sq_complete(5, 0, 3) == 4);
	CHECK(froce_sq_complete(5, 0, 0) == 1);
	CHECK(froce_sq_complete(5, 0, 5) == -EINVAL);	/* not posted */
	CHECK(froce_sq_complete(5, 2, 1) == -EINVAL);	/* done already */
	/* across the 16-bit WQE_INDEX wrap and the 32-bit counter wrap */
	CHECK(froce_sq_complete(0x10002, 0xFFFE, 0x0001) == 0x10002);
	CHECK(froce_sq_complete(2, 0xFFFFFFFEu, 0xFFFF) == 0);

	/* WQE sizes as sim/core/host.cpp create_qp computes them */
	CHECK(!froce_qp_shifts(FROCE_QP_TYPE_RC, 1, 0, 1, &s, &r) && s == 6 && r == 6);
	CHECK(!froce_qp_shifts(FROCE_QP_TYPE_RC, 4, 0, 3, &s, &r) && s == 7 && r == 6);
	CHECK(!froce_qp_shifts(FROCE_QP_TYPE_RC, 2, 200, 4, &s, &r) && s == 8 && r == 7);
	CHECK(!froce_qp_shifts(FROCE_QP_TYPE_UD, 1, 0, 1, &s, &r) && s == 7 && r == 6);
	CHECK(!froce_qp_shifts(FROCE_QP_TYPE_RC, 30, 0, 31, &s, &r) && s == 9 && r == 9);
	CHECK(froce_qp_shifts(FROCE_QP_TYPE_RC, 31, 0, 1, &s, &r) == -EINVAL);
	CHECK(froce_qp_shifts(FROCE_QP_TYPE_RC, 1, 0, 32, &s, &r) == -EINVAL);
	CHECK(froce_qp_shifts(FROCE_QP_TYPE_RC, 1, 497, 1, &s, &r) == -EINVAL);
	CHECK(froce_sq_max_sge(FROCE_QP_TYPE_RC, 9) == 30);
	CHECK(froce_sq_max_inline(FROCE_QP_TYPE_RC, 6) == 32);
	CHECK(froce_sq_max_inline(FROCE_QP_TYPE_UD, 7) == 64);

	CHECK(froce_log2_ceil(1) == 0 && froce_log2_ceil(2) == 1 &&
	      froce_log2_ceil(3) == 2 && froce_log2_ceil(4096) == 12);

	CHECK(froce_wqe_opcode(IBV_WR_SEND) == FROCE_WQE_OP_SEND);
	CHECK(froce_wqe_opcode(IBV_WR_TSO) == -EINVAL);
}

int main(void)
{
	test_send();
	test_rdma();
	test_atomic();
	test_inline();
	test_ud();
	test_sq_errors();
	test_rq();
	test_doorbells();
	test_cqe();
	test_queue_logic();
	printf("provider ring tests: %d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
