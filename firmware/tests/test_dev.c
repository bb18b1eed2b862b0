/* SPDX-License-Identifier: MIT */
/* QUERY_FW, QUERY_CAPS, ports, GIDs, counters, start-up. */
#include "tutil.h"

static void test_boot(void)
{
	t_boot(&t_cfg);
	/* the junk contexts of a fresh FPGA are cleared, QPs with LOAD_RESET */
	for (uint32_t q = 0; q < t_cfg.num_qps; q++)
		CHECK(M.qpc_load[q] == FROCE_QPC_LOAD_RESET_MASK && M.qpc_commits[q] == 1, "QP %u not reset at boot", q);
	CHECK_EQ(M.port_mac, t_cfg.perm_mac);
	CHECK_EQ(M.port_mtu, 1500);

	struct res r = RUN_OK(QUERY_FW, NULL);

	CHECK_EQ(TGET(r.out, FROCE_CMD_QUERY_FW_OUT_VER_MAJOR), FW_VERSION_MAJOR);
	CHECK_EQ(TGET(r.out, FROCE_CMD_QUERY_FW_OUT_VER_MINOR), FW_VERSION_MINOR);
	CHECK_EQ(TGET(r.out, FROCE_CMD_QUERY_FW_OUT_VER_PATCH), FW_VERSION_PATCH);
	CHECK_EQ(TGET(r.out, FROCE_CMD_QUERY_FW_OUT_SPEC_HASH), FROCE_HW_SPEC_HASH);

	r = RUN_OK(QUERY_CAPS, NULL);
#define CAP(F) TGET(r.out, FROCE_CMD_QUERY_CAPS_OUT_##F)
	CHECK_EQ(CAP(MAX_QP), 15);
	CHECK_EQ(CAP(MAX_CQ), 8);
	CHECK_EQ(CAP(MAX_PD), 7);
	CHECK_EQ(CAP(MAX_MR), 31);
	CHECK_EQ(CAP(MAX_MTT), 256);
	CHECK_EQ(CAP(MAX_CQE), 65536);
	CHECK_EQ(CAP(MAX_QP_WR), 32768);
	CHECK_EQ(CAP(MAX_SEND_SGE), 28);	/* (512 - 16 ctrl - 48 UD) / 16 */
	CHECK_EQ(CAP(MAX_RECV_SGE), 31);
	CHECK_EQ(CAP(MAX_INLINE), 448);
	CHECK_EQ(CAP(MAX_EQ), 4);
	CHECK_EQ(CAP(NUM_GID), 8);
	CHECK_EQ(CAP(MAX_QP_RD_ATOM), 8);
	CHECK_EQ(CAP(MAX_QP_INIT_RD_ATOM), 8);
	CHECK_EQ(CAP(MAX_MTU), FROCE_MTU_4096);
	CHECK_EQ(CAP(NUM_PORTS), 1);
	CHECK_EQ(CAP(PAGE_SIZE_CAP), 0x003FF000);
	CHECK_EQ(CAP(LOCAL_DMA_LKEY), 0);
	CHECK_EQ(CAP(MAX_UAR), 4);
	CHECK_EQ(TGETQ(r.out, FROCE_CMD_QUERY_CAPS_OUT_MAX_MR_SIZE), 256ull << 21);
#undef CAP

	/* MRT_REGS.INIT is waited for */
	struct model_cfg c = t_cfg;

	c.init_busy_reads = 50;
	t_boot(&c);
	CHECK_EQ(M.init_reads, 0);
	c.init_busy_reads = FW_MRT_WAIT_POLLS + 10;
	model_init(&c);
	CHECK(fw_init() == -1, "fw_init with MRT_REGS.INIT stuck");

	/* short of RAM: fewer QPs/MRs/MTT/CQs than the hardware, and said so */
	c = t_cfg;
	c.num_qps = 256;
	c.num_mrs = 1024;
	c.num_mtt = 65536;
	c.arena_bytes = 24 * 1024;
	t_boot(&c);
	CHECK(fw.num_qps < 256 && fw.arena_used <= c.arena_bytes, "tables not shrunk: %u QPs, %u bytes", fw.num_qps,
	      fw.arena_used);
	r = RUN_OK(QUERY_CAPS, NULL);
	CHECK_EQ(TGET(r.out, FROCE_CMD_QUERY_CAPS_OUT_MAX_QP), fw.num_qps - 1);
	CHECK_EQ(TGET(r.out, FROCE_CMD_QUERY_CAPS_OUT_MAX_MTT), fw.num_mtt);
	c.arena_bytes = 256;
	model_init(&c);
	CHECK(fw_init() == -1, "fw_init with no RAM for tables");

	/* the RTL's default sizes: what README.md says fits where (arena of
	 * the 64 KiB image, and of a 96 KiB RAM) */
	c = t_cfg;
	c.num_qps = 256;
	c.num_cqs = 256;
	c.num_eqs = 8;
	c.num_gids = 16;
	c.num_pds = 256;
	c.num_mrs = 1024;
	c.num_mtt = 65536;
	c.arena_bytes = 41888;
	t_boot(&c);
	CHECK(fw.num_qps == 128 && fw.num_cqs == 128 && fw.num_mrs == 512 && fw.num_mtt == 32768,
	      "64 KiB RAM: %u QPs %u CQs %u MRs %u MTT", fw.num_qps, fw.num_cqs, fw.num_mrs, fw.num_mtt);
	c.arena_bytes = 96 * 1024 - 18704 - 848 - 4096;
	t_boot(&c);
	CHECK(fw.num_qps == 256 && fw.num_cqs == 256 && fw.num_mrs == 1024 && fw.num_mtt == 65536 &&
		      fw.arena_used == 58688,
	      "96 KiB RAM: %u QPs %u CQs %u MRs %u MTT, %u bytes", fw.num_qps, fw.num_cqs, fw.num_mrs, fw.num_mtt,
	      fw.arena_used);
}

static void test_port(void)
{
	uint8_t in[16] = { 0 };

	t_boot(&t_cfg);
	TSET(in, FROCE_CMD_QUERY_PORT_IN_PORT, 1);
	struct res r = RUN_OK(QUERY_PORT, in);

#define OUTP(F) TGET(r.out, FROCE_CMD_QUERY_PORT_OUT_##F)
	CHECK_EQ(OUTP(STATE), FROCE_PORT_STATE_ACTIVE);
	CHECK_EQ(OUTP(ACTIVE_MTU), FROCE_MTU_1024);	/* 1500 - 96 header bytes */
	CHECK_EQ(OUTP(MAX_MTU), FROCE_MTU_4096);
	CHECK_EQ(OUTP(SPEED_GBPS), 10);
	CHECK_EQ(OUTP(MTU), 1500);
	CHECK_EQ(TGETQ(r.out, FROCE_CMD_QUERY_PORT_OUT_MAC), t_cfg.perm_mac);
	TSET(in, FROCE_CMD_QUERY_PORT_IN_PORT, 2);
	REFUSE(QUERY_PORT, in, BAD_PARAM, 0);
	TSET(in, FROCE_CMD_QUERY_PORT_IN_PORT, 1);
	in[5] = 1;	/* dword 1 is reserved */
	REFUSE(QUERY_PORT, in, BAD_PARAM, 4);

	memset(in, 0, sizeof in);
	TSET(in, FROCE_CMD_SET_PORT_IN_PORT, 1);
	TSET(in, FROCE_CMD_SET_PORT_IN_PROMISC, 1);
	TSET(in, FROCE_CMD_SET_PORT_IN_MTU, 4200);
	TSETQ(in, FROCE_CMD_SET_PORT_IN_MAC, 0x021122334455ull);
	RUN_OK(SET_PORT, in);
	CHECK(M.port_mac == 0x021122334455ull && M.port_mtu == 4200 && M.port_promisc && !M.port_allmulti,
	      "SET_PORT not applied");
	memset(in, 0, 8);
	TSET(in, FROCE_CMD_QUERY_PORT_IN_PORT, 1);
	M.link_status = 0;
	r = RUN_OK(QUERY_PORT, in);
	CHECK_EQ(OUTP(STATE), FROCE_PORT_STATE_DOWN);
	CHECK_EQ(OUTP(SPEED_GBPS), 0);
	CHECK_EQ(OUTP(ACTIVE_MTU), FROCE_MTU_4096);
	CHECK_EQ(OUTP(MTU), 4200);
	CHECK_EQ(TGETQ(r.out, FROCE_CMD_QUERY_PORT_OUT_MAC), 0x021122334455ull);
	/* the RoCE MTU that fits each Ethernet MTU (96 header bytes), at least 256 */
	static const uint32_t eth[][2] = { { 2200, FROCE_MTU_2048 }, { 2143, FROCE_MTU_1024 }, { 700, FROCE_MTU_512 },
					   { 300, FROCE_MTU_256 }, { 68, FROCE_MTU_256 } };

	for (unsigned i = 0; i < 5; i++) {
		uint8_t sp[16] = { 1 };

		TSET(sp, FROCE_CMD_SET_PORT_IN_MTU, eth[i][0]);
		TSETQ(sp, FROCE_CMD_SET_PORT_IN_MAC, 0x021122334455ull);
		RUN_OK(SET_PORT, sp);
		r = RUN_OK(QUERY_PORT, in);
		CHECK(OUTP(ACTIVE_MTU) == eth[i][1], "Ethernet MTU %u: active MTU %u", eth[i][0], OUTP(ACTIVE_MTU));
	}
#undef OUTP

	uint8_t good[16] = { 0 };

	TSET(good, FROCE_CMD_SET_PORT_IN_PORT, 1);
	TSET(good, FROCE_CMD_SET_PORT_IN_MTU, 1500);
	TSETQ(good, FROCE_CMD_SET_PORT_IN_MAC, 0x021122334466ull);
	memcpy(in, good, 16);
	TSET(in, FROCE_CMD_SET_PORT_IN_PORT, 0);
	REFUSE(SET_PORT, in, BAD_PARAM, 0);
	memcpy(in, good, 16);
	in[1] |= 0x04;	/* bit 10 of dword 0 */
	REFUSE(SET_PORT, in, BAD_PARAM, 0);
	memcpy(in, good, 16);
	in[6] = 1;	/* bit 16 of dword 1 */
	REFUSE(SET_PORT, in, BAD_PARAM, 4);
	memcpy(in, good, 16);
	in[14] = 1;	/* bit 48 of the MAC qword */
	REFUSE(SET_PORT, in, BAD_PARAM, 12);
	memcpy(in, good, 16);
	TSET(in, FROCE_CMD_SET_PORT_IN_MTU, FW_ETH_MTU_MIN - 1);
	REFUSE(SET_PORT, in, BAD_PARAM, TOFF(FROCE_CMD_SET_PORT_IN_MTU));
	TSET(in, FROCE_CMD_SET_PORT_IN_MTU, FW_ETH_MTU_MAX + 1);
	REFUSE(SET_PORT, in, BAD_PARAM, TOFF(FROCE_CMD_SET_PORT_IN_MTU));
	memcpy(in, good, 16);
	TSETQ(in, FROCE_CMD_SET_PORT_IN_MAC, 0);
	REFUSE(SET_PORT, in, BAD_PARAM, TOFFQ(FROCE_CMD_SET_PORT_IN_MAC));
	TSETQ(in, FROCE_CMD_SET_PORT_IN_MAC, 0x010203040506ull);	/* multicast */
	REFUSE(SET_PORT, in, BAD_PARAM, TOFFQ(FROCE_CMD_SET_PORT_IN_MAC));
}

static void test_gid(void)
{
	uint8_t in[FROCE_CMD_ADD_GID_IN_SIZE] = { 0 }, good[FROCE_CMD_ADD_GID_IN_SIZE] = { 0 };

	t_boot(&t_cfg);
	TSET(good, FROCE_CMD_ADD_GID_IN_INDEX, 3);
	TSET(good, FROCE_CMD_ADD_GID_IN_TYPE, FROCE_GID_TYPE_ROCE_V1);
	TSET(good, FROCE_CMD_ADD_GID_IN_VLAN_EN, 1);
	TSET(good, FROCE_CMD_ADD_GID_IN_VLAN_ID, 100);
	TSETQ(good, FROCE_CMD_ADD_GID_IN_SMAC, 0x02AABBCCDDEEull);
	memcpy(good + FROCE_CMD_ADD_GID_IN_GID_BYTE, t_gid_v6, 16);
	RUN_OK(ADD_GID, good);
	const uint8_t *e = M.gid + 3 * FROCE_GID_CTX_SIZE;

	CHECK_EQ(TGET(e, FROCE_GID_CTX_TYPE), FROCE_GID_TYPE_ROCE_V1);
	CHECK_EQ(TGET(e, FROCE_GID_CTX_VLAN_EN), 1);
	CHECK_EQ(TGET(e, FROCE_GID_CTX_VLAN_ID), 100);
	CHECK_EQ(TGET(e, FROCE_GID_CTX_VALID), 1);
	CHECK_EQ(TGETQ(e, FROCE_GID_CTX_SMAC), 0x02AABBCCDDEEull);
	CHECK(!memcmp(e + FROCE_GID_CTX_GID_BYTE, t_gid_v6, 16), "GID bytes");

	uint8_t q[8] = { 0 };

	TSET(q, FROCE_CMD_QUERY_GID_IN_INDEX, 3);
	struct res r = RUN_OK(QUERY_GID, q);

	CHECK_EQ(TGET(r.out, FROCE_CMD_QUERY_GID_OUT_INDEX), 3);
	CHECK_EQ(TGET(r.out, FROCE_CMD_QUERY_GID_OUT_TYPE), FROCE_GID_TYPE_ROCE_V1);
	CHECK_EQ(TGET(r.out, FROCE_CMD_QUERY_GID_OUT_VLAN_EN), 1);
	CHECK_EQ(TGET(r.out, FROCE_CMD_QUERY_GID_OUT_VLAN_ID), 100);
	CHECK_EQ(TGET(r.out, FROCE_CMD_QUERY_GID_OUT_VALID), 1);
	CHECK_EQ(TGETQ(r.out, FROCE_CMD_QUERY_GID_OUT_SMAC), 0x02AABBCCDDEEull);
	CHECK(!memcmp(r.out + FROCE_CMD_QUERY_GID_OUT_GID_BYTE, t_gid_v6, 16), "QUERY_GID bytes");

#define BADGID(mod, status, syn) \
	do { \
		memcpy(in, good, sizeof in); \
		mod; \
		REFUSE(ADD_GID, in, status, syn); \
	} while (0)
	BADGID(TSET(in, FROCE_CMD_ADD_GID_IN_INDEX, 8), BAD_INDEX, 0);
	BADGID(TSET(in, FROCE_CMD_ADD_GID_IN_TYPE, 0), BAD_PARAM, TOFF(FROCE_CMD_ADD_GID_IN_TYPE));
	BADGID(TSET(in, FROCE_CMD_ADD_GID_IN_TYPE, 3), BAD_PARAM, TOFF(FROCE_CMD_ADD_GID_IN_TYPE));
	BADGID(TSET(in, FROCE_CMD_ADD_GID_IN_VALID, 1), BAD_PARAM, TOFF(FROCE_CMD_ADD_GID_IN_VALID));
	BADGID(TSET(in, FROCE_CMD_ADD_GID_IN_VLAN_EN, 0), BAD_PARAM, TOFF(FROCE_CMD_ADD_GID_IN_VLAN_ID));
	BADGID(TSETQ(in, FROCE_CMD_ADD_GID_IN_SMAC, 0), BAD_PARAM, TOFFQ(FROCE_CMD_ADD_GID_IN_SMAC));
	BADGID(TSETQ(in, FROCE_CMD_ADD_GID_IN_SMAC, 0x01AABBCCDDEEull), BAD_PARAM, TOFFQ(FROCE_CMD_ADD_GID_IN_SMAC));
	BADGID(memset(in + FROCE_CMD_ADD_GID_IN_GID_BYTE, 0, 16), BAD_PARAM, FROCE_CMD_ADD_GID_IN_GID_BYTE);
	BADGID(in[1] |= 0x08, BAD_PARAM, 0);	/* bit 11 */
	BADGID(in[4] = 1, BAD_PARAM, 4);	/* dword 1 */
	BADGID(in[15] = 1, BAD_PARAM, 12);	/* above the 48-bit SMAC */
#undef BADGID

	REFUSE(QUERY_GID, IN8(8), BAD_INDEX, 0);
	REFUSE(QUERY_GID, IN8(3, 0, 0, 1), BAD_PARAM, 0);
	RUN_OK(DEL_GID, q);
	CHECK(!memcmp(M.gid + 3 * FROCE_GID_CTX_SIZE, (uint8_t[32]){ 0 }, 32), "DEL_GID: entry not cleared");
	r = RUN_OK(QUERY_GID, q);
	CHECK_EQ(TGET(r.out, FROCE_CMD_QUERY_GID_OUT_VALID), 0);
	REFUSE(DEL_GID, q, BAD_RES_STATE, 0);
	REFUSE(DEL_GID, IN8(9), BAD_INDEX, 0);
	REFUSE(DEL_GID, IN8(3, 1), BAD_PARAM, 0);
	REFUSE(DEL_GID, IN8(3, 0, 0, 0, 1), BAD_PARAM, 4);
	/* an entry may be written again */
	t_add_gid(0, t_gid_v4, FROCE_GID_TYPE_ROCE_V2, 0x020000000001ull);
	t_add_gid(0, t_gid_v6, FROCE_GID_TYPE_ROCE_V2, 0x020000000002ull);
	CHECK_EQ(TGETQ(M.gid, FROCE_GID_CTX_SMAC), 0x020000000002ull);
}

static void test_counters(void)
{
	uint8_t in[8] = { 0 };

	t_boot(&t_cfg);
	for (unsigned i = 0; i < FROCE_CNT_NUM; i++)
		M.counters[i] = 0x100000000ull * i + 1000 + i;
	M.counters[FROCE_CNT_RCVD_PKTS] = 0x1FFFFFFFFull;
	M.carry_counter = FROCE_CNT_RCVD_PKTS;	/* carries between the halves */
	struct res r = RUN_OK(QUERY_COUNTERS, in);

	for (unsigned i = 0; i < FROCE_CNT_NUM; i++)
		if (i != FROCE_CNT_RCVD_PKTS)
			CHECK(t_ld64(r.out + 8 * i) == 0x100000000ull * i + 1000 + i, "counter %u", i);
	CHECK_EQ(t_ld64(r.out + 8 * FROCE_CNT_RCVD_PKTS), 0x200000000ull);	/* never a torn 0x1_00000000 */

	TSET(in, FROCE_CMD_QUERY_COUNTERS_IN_CLEAR, 1);
	RUN_OK(QUERY_COUNTERS, in);
	M.counters[FROCE_CNT_SENT_PKTS] += 5;
	M.counters[FROCE_CNT_NETDEV_RX_DROPPED] += 7;
	r = RUN_OK(QUERY_COUNTERS, in);
	for (unsigned i = 0; i < FROCE_CNT_NUM; i++) {
		const uint64_t want = i == FROCE_CNT_SENT_PKTS ? 5 : i == FROCE_CNT_NETDEV_RX_DROPPED ? 7 : 0;

		CHECK(t_ld64(r.out + 8 * i) == want, "counter %u after CLEAR: %llu", i, (ull)t_ld64(r.out + 8 * i));
	}
	REFUSE(QUERY_COUNTERS, IN8(2), BAD_PARAM, 0);
	REFUSE(QUERY_COUNTERS, IN8(0, 0, 0, 0, 0x80), BAD_PARAM, 4);
}

void test_device(void)
{
	test_boot();
	test_port();
	test_gid();
	test_counters();
}
