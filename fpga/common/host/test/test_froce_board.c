// SPDX-License-Identifier: MIT
/*
 * Unit test of froce_board.c (ASan + UBSan):
 *
 *   - pure parts: the window allocator, names, GIDs and MACs, and the WQE,
 *     doorbell and CQE formats, checked at the byte offsets the spec gives
 *     and, with libibverbs' headers (XCHECK_PROVIDER), byte for byte against
 *     the provider's provider/froce_ring.c;
 *   - the library on a link: fake_bridge.c (a model of the UART bridge, in a
 *     child process) holds BAR0 and the window; a thread here plays the part
 *     of the firmware where the bridge model has none: it answers
 *     DEV_CTRL.RESET with READY and mailbox doorbells with DONE and canned
 *     outputs, and keeps every command's block. Each command image the
 *     library sends is compared with the kernel driver's encoder
 *     (driver/froce_mbox.c) for the same values; WQEs, doorbells, CQE
 *     polling (owner parity, ring wrap, the re-read of a CQE whose OWNER
 *     was seen), the number of link requests, and the error paths and their
 *     messages are checked.
 *
 * Prints a line per failed check and "N passed, N failed"; exits non-zero
 * on failure.
 */
#define _GNU_SOURCE
#include "../froce_board.h"
#include "../froce_uart_link.h"
#include "fake_bridge.h"
#include "froce_hw.h"
#include "xcheck.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int passed, failed;

#define CHECK(cond, ...)                                                        \
	do {                                                                    \
		if (cond) {                                                     \
			passed++;                                               \
		} else {                                                        \
			failed++;                                               \
			printf("FAIL  %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			printf(__VA_ARGS__);                                    \
			printf("\n");                                           \
		}                                                               \
	} while (0)

/* ---- little-endian fields, written here without the library's helpers ---- */

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

#define TGET(p, F) FROCE_FIELD_GET(F, le32((const uint8_t *)(p) + 4 * F##_DW))
#define TGETQ(p, F) FROCE_FIELD_GET(F, le64((const uint8_t *)(p) + 8 * F##_QW))
#define TSET(p, F, v) put32((uint8_t *)(p) + 4 * F##_DW, le32((uint8_t *)(p) + 4 * F##_DW) | FROCE_FIELD_PREP(F, v))

static bool contains(const char *s, const char *sub)
{
	return s && strstr(s, sub);
}

/* ---- pure parts ---- */

static void t_window(void)
{
	struct froce_win w;
	uint64_t a = 0, b = 0, c = 0, d = 0;
	const uint64_t base = 0x100000000ull;

	froce_win_init(&w, base, 0x10000);
	CHECK(froce_win_alloc(&w, 0x1000, 0x1000, &a) == 0 && a == base, "first block at %#llx",
	      (unsigned long long)a);
	CHECK(froce_win_alloc(&w, 100, 8, &b) == 0 && b == base + 0x1000, "second at %#llx", (unsigned long long)b);
	CHECK(froce_win_alloc(&w, 0x1000, 0x1000, &c) == 0 && c == base + 0x2000, "aligned past the small one: %#llx",
	      (unsigned long long)c);
	CHECK(froce_win_used(&w) == 0x2000 + 100, "used %llu", (unsigned long long)froce_win_used(&w));
	CHECK(froce_win_largest(&w, 0x1000) == 0xd000, "largest %#llx",
	      (unsigned long long)froce_win_largest(&w, 0x1000));
	CHECK(froce_win_alloc(&w, 0xe000, 0x1000, &d) == -ENOMEM, "too big");
	CHECK(froce_win_alloc(&w, 0xd000, 0x1000, &d) == 0 && d == base + 0x3000, "exactly the rest");
	CHECK(froce_win_alloc(&w, 1, 1, &d) == 0 && d == base + 0x1000 + 100, "first fit into the gap: %#llx",
	      (unsigned long long)d);
	CHECK(froce_win_free(&w, b) == 0 && froce_win_free(&w, b) == -ENOENT, "free once");
	CHECK(froce_win_free(&w, base + 5) == -ENOENT, "not a block start");
	CHECK(froce_win_alloc(&w, 100, 8, &b) == 0 && b == base + 0x1000, "reused: %#llx", (unsigned long long)b);
	CHECK(froce_win_alloc(&w, 0, 8, &b) == -EINVAL && froce_win_alloc(&w, 8, 3, &b) == -EINVAL, "bad arguments");
	CHECK(froce_win_alloc(&w, UINT64_MAX, 1, &b) == -ENOMEM, "huge length");

	/* every block in use */
	froce_win_init(&w, 0, 4096);
	for (int i = 0; i < FROCE_WIN_MAX_BLOCKS; i++)
		CHECK(froce_win_alloc(&w, 1, 1, &a) == 0 && a == (uint64_t)i, "block %d at %llu", i,
		      (unsigned long long)a);
	CHECK(froce_win_alloc(&w, 1, 1, &a) == -ENOMEM && froce_win_largest(&w, 1) == 0, "table full");
	CHECK(froce_win_free(&w, 7) == 0 && froce_win_alloc(&w, 1, 1, &a) == 0 && a == 7, "hole refilled");

	/* a window at the top of the address space does not wrap */
	froce_win_init(&w, UINT64_MAX - 0xfff, 0x1000);
	CHECK(w.size == 0xfff, "clamped size %#llx", (unsigned long long)w.size);
	CHECK(froce_win_alloc(&w, 0x1000, 1, &a) == -ENOMEM && froce_win_alloc(&w, 0x10, 0x2000, &a) == -ENOMEM,
	      "no wrap past 2^64");
	CHECK(froce_win_alloc(&w, 0xfff, 0x1000, &a) == 0 && a == UINT64_MAX - 0xfff, "the clamped window fits");
}

static void t_names(void)
{
	CHECK(!strcmp(froce_board_cmd_name(FROCE_CMD_CREATE_QP), "CREATE_QP"), "%s",
	      froce_board_cmd_name(FROCE_CMD_CREATE_QP));
	CHECK(!strcmp(froce_board_cmd_name(0x7777), "unknown"), "unknown opcode");
	CHECK(!strcmp(froce_board_cmd_status_name(FROCE_CMD_STATUS_BAD_QP_STATE), "BAD_QP_STATE"), "status name");
	CHECK(froce_board_cmd_status_errno(FROCE_CMD_STATUS_OK) == 0, "OK");
	CHECK(froce_board_cmd_status_errno(FROCE_CMD_STATUS_BAD_PARAM) == -EINVAL, "BAD_PARAM");
	CHECK(froce_board_cmd_status_errno(FROCE_CMD_STATUS_EXCEED_LIM) == -ENOMEM, "EXCEED_LIM");
	CHECK(froce_board_cmd_status_errno(FROCE_CMD_STATUS_RESOURCE_BUSY) == -EBUSY, "BUSY");
	CHECK(froce_board_cmd_status_errno(0x77) == -EIO, "unknown status");
	CHECK(!strcmp(froce_board_wc_status_name(FROCE_WC_RETRY_EXC_ERR), "RETRY_EXC_ERR") &&
		      !strcmp(froce_board_wc_status_name(FROCE_WC_SUCCESS), "SUCCESS") &&
		      !strcmp(froce_board_wc_status_name(FROCE_WC_GENERAL_ERR), "GENERAL_ERR") &&
		      !strcmp(froce_board_wc_status_name(200), "unknown"),
	      "WC names");
	CHECK(!strcmp(froce_board_vendor_err_name(FROCE_VENDOR_ERR_RNR_RETRY_EXCEEDED), "RNR_RETRY_EXCEEDED") &&
		      !strcmp(froce_board_vendor_err_name(FROCE_VENDOR_ERR_INLINE_TOO_LONG), "INLINE_TOO_LONG") &&
		      !strcmp(froce_board_vendor_err_name(99), "unknown"),
	      "vendor error names");
}

static void t_gid_mac(void)
{
	static const uint8_t ip[4] = { 10, 9, 0, 1 };
	static const uint8_t want[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 9, 0, 1 };
	static const uint8_t mac[6] = { 0x02, 0x00, 0x00, 0x77, 0x00, 0x01 };
	uint8_t gid[16];

	memset(gid, 0x55, sizeof(gid));
	froce_board_gid_ipv4(gid, ip);
	CHECK(!memcmp(gid, want, 16), "::ffff:10.9.0.1");
	CHECK(froce_board_gid_is_ipv4(gid), "is IPv4");
	gid[0] = 0xfe;
	CHECK(!froce_board_gid_is_ipv4(gid), "fe.. is not");
	CHECK(froce_board_mac_u64(mac) == 0x020000770001ull, "MAC %#llx", (unsigned long long)froce_board_mac_u64(mac));
}

static void t_wqe(void)
{
	const struct froce_board_sge sg[3] = {
		{ 0x100001000ull, 4096, 0x1234 }, { 0x100002010ull, 7, 0xabcd01 }, { 0x100003000ull, 1, 2 },
	};
	uint8_t w[512], ref[512];

	/* SEND, one SGE, 64-byte slot: the spec's byte offsets */
	memset(w, 0xee, sizeof(w));
	CHECK(froce_board_build_send_wqe(w, 6, 0x1234, true, sg, 1) == 0, "send WQE");
	CHECK(w[0] == FROCE_WQE_OP_SEND, "OPCODE %#x", w[0]);
	CHECK(TGET(w, FROCE_WQE_CTRL_SIGNALED) == 1 && TGET(w, FROCE_WQE_CTRL_DS) == 2 &&
		      TGET(w, FROCE_WQE_CTRL_WQE_INDEX) == 0x1234 && TGET(w, FROCE_WQE_CTRL_INLINE) == 0,
	      "ctrl %08x %08x", le32(w), le32(w + 4));
	CHECK(le64(w + 16) == sg[0].addr && le32(w + 24) == 4096 && le32(w + 28) == 0x1234,
	      "WQE_DATA is struct ibv_sge at byte 16");
	CHECK(le64(w + 32) == 0 && le64(w + 40) == 0 && le64(w + 48) == 0 && le64(w + 56) == 0 && w[64] == 0xee,
	      "the rest of the slot zeroed, nothing beyond it");
	CHECK(froce_board_build_send_wqe(w, 6, 1, false, sg, 3) == 0 && TGET(w, FROCE_WQE_CTRL_DS) == 4 &&
		      TGET(w, FROCE_WQE_CTRL_SIGNALED) == 0,
	      "three SGEs, unsignalled");
	CHECK(froce_board_build_send_wqe(w, 6, 1, false, sg, 4) == -EINVAL, "four SGEs do not fit 64 bytes");
	CHECK(froce_board_build_send_wqe(w, 5, 1, false, sg, 1) == -EINVAL &&
		      froce_board_build_send_wqe(w, FROCE_WQE_SHIFT_MAX + 1, 1, false, sg, 1) == -EINVAL,
	      "bad slot sizes");

	memset(w, 0xee, sizeof(w));
	CHECK(froce_board_build_recv_wqe(w, 6, 0xfffe, sg, 2) == 0, "recv WQE");
	CHECK(TGET(w, FROCE_RQ_WQE_HDR_WQE_INDEX) == 0xfffe && TGET(w, FROCE_RQ_WQE_HDR_NUM_SGE) == 2 &&
		      le64(w + 16) == sg[0].addr && le64(w + 32) == sg[1].addr && le32(w + 40) == 7 &&
		      le32(w + 44) == 0xabcd01 && le64(w + 48) == 0 && le64(w + 56) == 0,
	      "RQ_WQE_HDR and two WQE_DATA");
	CHECK(froce_board_build_recv_wqe(w, 6, 0, sg, 4) == -EINVAL, "four SGEs do not fit 64 bytes");

#ifdef XCHECK_PROVIDER
	for (unsigned int shift = 6; shift <= 7; shift++) {
		for (unsigned int n = 0; n <= 3; n++) {
			memset(w, 0xee, sizeof(w));
			memset(ref, 0x11, sizeof(ref));
			CHECK(froce_board_build_send_wqe(w, shift, (uint16_t)(n * 7 + 0xfff0), n & 1, sg, n) == 0 &&
				      xprov_send_wqe(ref, shift, (uint16_t)(n * 7 + 0xfff0), n & 1, sg, n) == 0 &&
				      !memcmp(w, ref, 1u << shift),
			      "SEND WQE of %u SGEs in 2^%u bytes differs from the provider's", n, shift);
			CHECK(froce_board_build_recv_wqe(w, shift, (uint16_t)(n + 3), sg, n) == 0 &&
				      xprov_recv_wqe(ref, shift, (uint16_t)(n + 3), sg, n) == 0 &&
				      !memcmp(w, ref, 1u << shift),
			      "RECV WQE of %u SGEs in 2^%u bytes differs from the provider's", n, shift);
		}
	}
#else
	(void)ref;
	printf("skip  WQE images against the provider's (no libibverbs headers)\n");
#endif
}

static void t_db_cqe(void)
{
	uint8_t cqe[FROCE_CQE_SIZE];
	struct froce_board_cqe c;
	uint64_t db = froce_board_db_qp(0x123456, FROCE_DB_TYPE_RQ, 0x1abcd);
	uint8_t b[8];

	put64(b, db);
	CHECK((le32(b) & 0xffffff) == 0x123456 && b[3] == FROCE_DB_TYPE_RQ && (le32(b + 4) & 0xffff) == 0xabcd,
	      "DB_QP %#llx: QPN, TYPE in byte 3, PI's low 16 bits", (unsigned long long)db);

	memset(cqe, 0, sizeof(cqe));
	TSET(cqe, FROCE_CQE_QPN, 0x45);
	TSET(cqe, FROCE_CQE_OPCODE, FROCE_CQE_OP_RECV);
	TSET(cqe, FROCE_CQE_WQE_INDEX, 0xbeef);
	TSET(cqe, FROCE_CQE_STATUS, FROCE_WC_REM_ACCESS_ERR);
	TSET(cqe, FROCE_CQE_VENDOR_ERR, FROCE_VENDOR_ERR_NAK_REMOTE_ACCESS);
	TSET(cqe, FROCE_CQE_BYTE_CNT, 0x12345678);
	froce_board_cqe_decode(cqe, &c);
	CHECK(c.qpn == 0x45 && c.opcode == FROCE_CQE_OP_RECV && c.wqe_index == 0xbeef &&
		      c.status == FROCE_WC_REM_ACCESS_ERR && c.vendor_err == FROCE_VENDOR_ERR_NAK_REMOTE_ACCESS &&
		      c.byte_cnt == 0x12345678,
	      "decode");
	/* OWNER is bit 7 of the last byte: 1 on the first pass, 0 on the second */
	CHECK(!froce_board_cqe_owned(cqe, 0, 3) && froce_board_cqe_owned(cqe, 8, 3) &&
		      !froce_board_cqe_owned(cqe, 16, 3),
	      "OWNER 0: valid on odd passes only");
	cqe[31] |= 0x80;
	CHECK(froce_board_cqe_owned(cqe, 5, 3) && !froce_board_cqe_owned(cqe, 13, 3) &&
		      froce_board_cqe_owned(cqe, 0x10000, 16) == false && froce_board_cqe_owned(cqe, 0x20000, 16),
	      "OWNER 1: valid on even passes");
#ifdef XCHECK_PROVIDER
	{
		struct froce_board_cqe p;

		xprov_cqe_decode(cqe, &p);
		froce_board_cqe_decode(cqe, &c);
		/* field by field: the struct's padding bytes are indeterminate */
		CHECK(p.qpn == c.qpn && p.opcode == c.opcode && p.wqe_index == c.wqe_index && p.status == c.status &&
			      p.vendor_err == c.vendor_err && p.byte_cnt == c.byte_cnt,
		      "CQE decode differs from the provider's");
		for (uint32_t ci = 0; ci < 64; ci += 3)
			CHECK(froce_board_cqe_owned(cqe, ci, 2) == (xprov_cqe_owned(cqe, ci, 2) != 0),
			      "owner rule at ci %u differs from the provider's", ci);
		for (uint32_t pi = 0; pi < 0x30000; pi += 0x7777)
			CHECK(froce_board_db_qp(0xabc, FROCE_DB_TYPE_SQ, pi) == xprov_db_qp(0xabc, FROCE_DB_TYPE_SQ, pi),
			      "doorbell for PI %#x differs from the provider's", pi);
	}
#endif
}

static void t_enc_modify_qp(void)
{
	struct froce_board_qp_attr a = {
		.mask = FROCE_QP_ATTR_STATE | FROCE_QP_ATTR_AV | FROCE_QP_ATTR_PATH_MTU | FROCE_QP_ATTR_DEST_QPN |
			FROCE_QP_ATTR_RQ_PSN | FROCE_QP_ATTR_MAX_DEST_RD_ATOMIC | FROCE_QP_ATTR_MIN_RNR_TIMER,
		.state = FROCE_QP_STATE_RTR,
		.path_mtu = FROCE_MTU_1024,
		.dest_qpn = 0x11,
		.rq_psn = 0xabcdef,
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = 12,
		.av = { .sgid_index = 3, .hop_limit = 1, .net_type = FROCE_KIND_ROCE_V2_IPV4,
			.dmac = { 0x02, 0, 0, 0x77, 0, 2 },
			.dgid = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 77, 0, 2 } },
	};
	uint8_t in[FROCE_CMD_MODIFY_QP_IN_SIZE], ref[FROCE_CMD_MODIFY_QP_IN_SIZE];
	uint32_t bad;

	CHECK(froce_board_enc_modify_qp(in, 0x22, &a, &bad) == 0, "RTR");
	CHECK(TGET(in, FROCE_CMD_MODIFY_QP_IN_QPN) == 0x22 && TGET(in, FROCE_CMD_MODIFY_QP_IN_ATTR_MASK) == a.mask &&
		      TGET(in, FROCE_CMD_MODIFY_QP_IN_STATE) == FROCE_QP_STATE_RTR &&
		      TGET(in, FROCE_CMD_MODIFY_QP_IN_DEST_QPN) == 0x11 &&
		      TGET(in, FROCE_CMD_MODIFY_QP_IN_RQ_PSN) == 0xabcdef &&
		      TGET(in, FROCE_CMD_MODIFY_QP_IN_AV_SGID_INDEX) == 3 &&
		      TGETQ(in, FROCE_CMD_MODIFY_QP_IN_AV_DMAC) == 0x020000770002ull &&
		      !memcmp(in + FROCE_CMD_MODIFY_QP_IN_AV_DGID_BYTE, a.av.dgid, 16),
	      "fields");
	CHECK(xdrv_modify_qp(ref, 0x22, &a) == 0 && !memcmp(in, ref, sizeof(in)), "RTR differs from the driver's");
	a.dest_qpn = 1u << 24;
	CHECK(froce_board_enc_modify_qp(in, 0x22, &a, &bad) == -EINVAL && bad == 4 * FROCE_CMD_MODIFY_QP_IN_DEST_QPN_DW,
	      "DEST_QPN too wide: byte %u", bad);
	a.dest_qpn = 0x11;
	a.mask |= FROCE_QP_ATTR_CUR_STATE;
	CHECK(froce_board_enc_modify_qp(in, 0x22, &a, &bad) == -EOPNOTSUPP, "CUR_STATE is not encoded");
}

/* ---- the library on the fake bridge, with a fake firmware ---- */

static struct fake_ctl *ctl;
static pid_t child = -1;

static uint32_t bar0_get(uint32_t off)
{
	return __atomic_load_n((uint32_t *)(void *)(ctl->bar0 + off), __ATOMIC_ACQUIRE);
}

static void bar0_set(uint32_t off, uint32_t v)
{
	__atomic_store_n((uint32_t *)(void *)(ctl->bar0 + off), v, __ATOMIC_RELEASE);
}

static uint8_t *mem_at(uint64_t addr)
{
	return ctl->mem + (addr - FAKE_MEM_BASE);
}

/* what the firmware thread does and saw */
struct fake_fw {
	pthread_t thread;
	int stop;
	/* behaviour */
	int ready_after_ms;		/* READY this long after a RESET */
	bool wrong_fw_hash;
	bool no_done;			/* never complete a command */
	uint16_t fail_opcode;		/* answer this opcode with fail_status */
	uint8_t fail_status;
	uint32_t fail_syndrome;
	/* observations */
	int resets;
	int cmds;
	uint32_t next_handle;
	struct {
		int count;
		uint8_t hdr[FROCE_MBOX_IN_OFF];
		uint8_t in[128];
	} seen[256];			/* by the opcode's low byte */
};

static struct fake_fw fw;

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void fw_answer(uint16_t opcode, uint8_t *out)
{
	switch (opcode) {
	case FROCE_CMD_QUERY_FW:
		TSET(out, FROCE_CMD_QUERY_FW_OUT_VER_MAJOR, 0);
		TSET(out, FROCE_CMD_QUERY_FW_OUT_VER_MINOR, 1);
		TSET(out, FROCE_CMD_QUERY_FW_OUT_VER_PATCH, 7);
		TSET(out, FROCE_CMD_QUERY_FW_OUT_SPEC_HASH, fw.wrong_fw_hash ? ~FROCE_HW_SPEC_HASH : FROCE_HW_SPEC_HASH);
		break;
	case FROCE_CMD_QUERY_CAPS:
		TSET(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_QP, 63);
		TSET(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_CQ, 64);
		TSET(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_CQE, 1u << 16);
		TSET(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_QP_WR, 1u << 15);
		TSET(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_SEND_SGE, 23);
		TSET(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_RECV_SGE, 31);
		TSET(out, FROCE_CMD_QUERY_CAPS_OUT_NUM_GID, 16);
		TSET(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_MTU, FROCE_MTU_4096);
		TSET(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_MSG_SZ, 0x80000000u);
		put64(out + 8 * FROCE_CMD_QUERY_CAPS_OUT_MAX_MR_SIZE_QW, 1ull << 33);
		break;
	case FROCE_CMD_QUERY_PORT:
		TSET(out, FROCE_CMD_QUERY_PORT_OUT_STATE, FROCE_PORT_STATE_ACTIVE);
		TSET(out, FROCE_CMD_QUERY_PORT_OUT_ACTIVE_MTU, FROCE_MTU_1024);
		TSET(out, FROCE_CMD_QUERY_PORT_OUT_SPEED_GBPS, 1);
		TSET(out, FROCE_CMD_QUERY_PORT_OUT_MTU, 1500);
		put64(out + 8 * FROCE_CMD_QUERY_PORT_OUT_MAC_QW,
		      TGETQ(fw.seen[FROCE_CMD_SET_PORT].in, FROCE_CMD_SET_PORT_IN_MAC));
		break;
	case FROCE_CMD_ALLOC_PD:
		TSET(out, FROCE_CMD_ALLOC_PD_OUT_PDN, fw.next_handle++);
		break;
	case FROCE_CMD_CREATE_CQ:
		TSET(out, FROCE_CMD_CREATE_CQ_OUT_CQN, fw.next_handle++);
		break;
	case FROCE_CMD_CREATE_QP:
		TSET(out, FROCE_CMD_CREATE_QP_OUT_QPN, fw.next_handle++);
		break;
	case FROCE_CMD_REG_MR:
		TSET(out, FROCE_CMD_REG_MR_OUT_LKEY, fw.next_handle << 8 | 0x5a);
		TSET(out, FROCE_CMD_REG_MR_OUT_RKEY, fw.next_handle << 8 | 0x5a);
		fw.next_handle++;
		break;
	default:
		break;
	}
}

static void fw_command(uint16_t db_token)
{
	uint8_t *blk = mem_at((uint64_t)bar0_get(FROCE_REG_CMD_ADDR_HI) << 32 | bar0_get(FROCE_REG_CMD_ADDR_LO));
	const uint16_t opcode = (uint16_t)TGET(blk, FROCE_MBOX_HDR_OPCODE);
	const uint32_t in_len = TGET(blk, FROCE_MBOX_HDR_IN_LEN);
	uint8_t *out = blk + FROCE_MBOX_OUT_OFF;
	uint8_t status = FROCE_CMD_STATUS_OK;
	uint32_t syndrome = 0, dw3;

	fw.cmds++;
	fw.seen[opcode & 0xff].count++;
	memcpy(fw.seen[opcode & 0xff].hdr, blk, FROCE_MBOX_IN_OFF);
	memcpy(fw.seen[opcode & 0xff].in, blk + FROCE_MBOX_IN_OFF, in_len < 128 ? in_len : 128);
	if (fw.no_done)
		return;
	if (TGET(blk, FROCE_MBOX_HDR_TOKEN) != db_token || TGET(blk, FROCE_MBOX_HDR_DONE)) {
		status = FROCE_CMD_STATUS_BAD_PARAM;
		syndrome = 0x80000000u;
	} else if (fw.fail_status && fw.fail_opcode == opcode) {
		status = fw.fail_status;
		syndrome = fw.fail_syndrome;
		fw.fail_status = 0;
	} else {
		memset(out, 0, 512);
		fw_answer(opcode, out);
	}
	/* SYNDROME, then STATUS and DONE last, as the firmware does */
	put32(blk + 4 * FROCE_MBOX_HDR_SYNDROME_DW, syndrome);
	dw3 = FROCE_FIELD_PREP(FROCE_MBOX_HDR_STATUS, status) | FROCE_FIELD_PREP(FROCE_MBOX_HDR_DONE, 1u);
	__atomic_store_n((uint32_t *)(void *)(blk + 4 * FROCE_MBOX_HDR_DONE_DW), dw3, __ATOMIC_RELEASE);
}

static void *fw_main(void *arg)
{
	/* dev_reset_ctl() zeroed BAR0 before the thread started; reading the
	 * doorbell here instead could miss a command rung meanwhile */
	uint32_t last_db = 0;
	long long ready_at = -1;

	(void)arg;
	while (!__atomic_load_n(&fw.stop, __ATOMIC_ACQUIRE)) {
		const uint32_t db = bar0_get(FROCE_REG_CMD_DOORBELL);

		if (bar0_get(FROCE_REG_DEV_CTRL) & FROCE_REG_DEV_CTRL_RESET_MASK) {
			bar0_set(FROCE_REG_DEV_CTRL, 0);
			bar0_set(FROCE_REG_DEV_STATUS, 0);
			fw.resets++;
			ready_at = now_ms() + fw.ready_after_ms;
		}
		if (ready_at >= 0 && now_ms() >= ready_at) {
			bar0_set(FROCE_REG_DEV_STATUS, FROCE_REG_DEV_STATUS_READY_MASK);
			ready_at = -1;
		}
		if (db != last_db) {
			last_db = db;
			fw_command((uint16_t)FROCE_FIELD_GET(FROCE_REG_CMD_DOORBELL_TOKEN, db));
		}
		usleep(50);
	}
	return NULL;
}

/* a fresh fake device: BAR0 identity, READY, the window full of 0xa5 */
static void dev_reset_ctl(void)
{
	memset(ctl, 0, sizeof(*ctl));
	memset(ctl->mem, 0xa5, sizeof(ctl->mem));
	bar0_set(FROCE_REG_ID, FROCE_FIELD_PREP(FROCE_REG_ID_VENDOR, FROCE_PCI_VENDOR_ID) |
				       FROCE_FIELD_PREP(FROCE_REG_ID_DEVICE, FROCE_PCI_DEVICE_ID));
	bar0_set(FROCE_REG_HW_VERSION, FROCE_HW_VERSION);
	bar0_set(FROCE_REG_SPEC_HASH, FROCE_HW_SPEC_HASH);
	bar0_set(FROCE_REG_UAR_INFO, FROCE_FIELD_PREP(FROCE_REG_UAR_INFO_NUM_PAGES, 16) |
					     FROCE_FIELD_PREP(FROCE_REG_UAR_INFO_PAGE_SHIFT, FROCE_UAR_PAGE_SHIFT));
	bar0_set(FROCE_REG_DEV_STATUS, FROCE_REG_DEV_STATUS_READY_MASK);
	memset(&fw, 0, sizeof(fw));
	fw.ready_after_ms = 20;
	fw.next_handle = 2;
}

static struct froce_link *dev_start(void)
{
	struct froce_link_opts o = { .timeout_ms = 2000, .retries = 1 };
	struct froce_link *l;
	char err[256];
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		perror("socketpair");
		exit(2);
	}
	child = fork();
	if (child == 0) {
		close(sv[0]);
		fake_bridge_serve(sv[1], ctl);
		_exit(0);
	}
	close(sv[1]);
	if (froce_link_open_fd(&l, sv[0], 0, &o, err, sizeof(err))) {
		printf("FAIL  link open: %s\n", err);
		kill(child, SIGTERM);
		exit(1);
	}
	pthread_create(&fw.thread, NULL, fw_main, NULL);
	return l;
}

static void dev_stop(struct froce_link *l)
{
	__atomic_store_n(&fw.stop, 1, __ATOMIC_RELEASE);
	pthread_join(fw.thread, NULL);
	froce_link_close(l);
	waitpid(child, NULL, 0);
	child = -1;
}

static const struct froce_board_opts quick = { .ready_timeout_ms = 300, .cmd_timeout_ms = 300 };

/* open must fail with rc and a message containing msg */
static void open_fails(const char *what, int rc_want, const char *msg)
{
	struct froce_link *l = dev_start();
	struct froce_board *b;
	char err[512] = "";
	int rc = froce_board_open(&b, l, &quick, err, sizeof(err));

	CHECK(rc == rc_want && !b && contains(err, msg), "%s: rc %d, \"%s\"", what, rc, err);
	dev_stop(l);
}

static void t_open_errors(void)
{
	dev_reset_ctl();
	bar0_set(FROCE_REG_ID, 0x12345678);
	open_fails("wrong ID", -ENODEV, "BAR0 ID 0x12345678 is not a froce device");

	dev_reset_ctl();
	bar0_set(FROCE_REG_HW_VERSION, FROCE_HW_VERSION + (1u << FROCE_REG_HW_VERSION_MAJOR_SHIFT));
	open_fails("other major version", -ENODEV, "hardware interface");

	dev_reset_ctl();
	bar0_set(FROCE_REG_SPEC_HASH, ~FROCE_HW_SPEC_HASH);
	open_fails("spec hash", -ENODEV, "spec hash");

	dev_reset_ctl();
	bar0_set(FROCE_REG_UAR_INFO, 0);
	open_fails("no UAR page", -ENODEV, "UAR_INFO");

	/* READY never comes: the first wait, before the reset, times out */
	dev_reset_ctl();
	bar0_set(FROCE_REG_DEV_STATUS, 0);
	bar0_set(FROCE_REG_HEARTBEAT, 0x77);
	open_fails("not ready", -ETIMEDOUT, "DEV_STATUS.READY not set after 300 ms (DEV_STATUS 0, FW_VERSION 0, HEARTBEAT 0x77)");

	dev_reset_ctl();
	bar0_set(FROCE_REG_DEV_STATUS, FROCE_REG_DEV_STATUS_FATAL_MASK);
	bar0_set(FROCE_REG_FATAL_SYNDROME, FROCE_FIELD_PREP(FROCE_REG_FATAL_SYNDROME_CODE, 3) |
						   FROCE_FIELD_PREP(FROCE_REG_FATAL_SYNDROME_INFO, 0x42));
	open_fails("fatal", -EIO, "device fatal: code 3 info 0x42");

	dev_reset_ctl();
	fw.wrong_fw_hash = true;
	open_fails("firmware hash", -ENODEV, "firmware spec hash");

	dev_reset_ctl();
	fw.no_done = true;
	open_fails("QUERY_FW never done", -ETIMEDOUT, "QUERY_FW (token 0x1) timed out after 300 ms");
}

static int requests(void)
{
	return __atomic_load_n(&ctl->requests, __ATOMIC_ACQUIRE);
}

/* a CQE written as the NIC would, in the pass of consumer index ci */
static void put_cqe(const struct froce_board_cq *cq, uint32_t ci, uint32_t qpn, uint8_t opcode, uint16_t wqe_index,
		    uint8_t status, uint32_t bytes)
{
	uint8_t *p = mem_at(cq->ring + (uint64_t)(ci & ((1u << cq->log_size) - 1)) * FROCE_CQE_SIZE);

	memset(p, 0, FROCE_CQE_SIZE);
	TSET(p, FROCE_CQE_QPN, qpn);
	TSET(p, FROCE_CQE_OPCODE, opcode);
	TSET(p, FROCE_CQE_WQE_INDEX, wqe_index);
	TSET(p, FROCE_CQE_STATUS, status);
	TSET(p, FROCE_CQE_BYTE_CNT, bytes);
	TSET(p, FROCE_CQE_OWNER, !((ci >> cq->log_size) & 1));
}

static void t_board(void)
{
	static const uint8_t mac[6] = { 0x02, 0x00, 0x00, 0x77, 0x00, 0x01 };
	static const uint8_t ip[4] = { 10, 77, 0, 1 };
	struct froce_link *l;
	struct froce_board *b;
	struct froce_board_port port;
	struct froce_board_mr mr;
	struct froce_board_cq *cq, *cq2;
	struct froce_board_qp *qp;
	struct froce_board_wc wc[4];
	uint8_t ref[512], gid[16];
	const struct froce_win *w;
	uint32_t pdn = 0;
	uint64_t buf = 0, big = 0;
	char err[512] = "";
	int rc, r0;

	dev_reset_ctl();
	l = dev_start();
	rc = froce_board_open(&b, l, NULL, err, sizeof(err));
	CHECK(rc == 0, "open: %d %s", rc, err);
	if (rc) {
		dev_stop(l);
		return;
	}
	w = froce_board_win(b);
	CHECK(fw.resets == 1 && bar0_get(FROCE_REG_SCRATCH) == 0, "one reset, SCRATCH cleared: %d", fw.resets);
	CHECK(bar0_get(FROCE_REG_CMD_ADDR_LO) == (uint32_t)FAKE_MEM_BASE &&
		      bar0_get(FROCE_REG_CMD_ADDR_HI) == (uint32_t)(FAKE_MEM_BASE >> 32) && froce_win_used(w) == FROCE_MBOX_SIZE,
	      "command block at the window's start");
	CHECK(froce_board_fw(b)->minor == 1 && froce_board_fw(b)->patch == 7 && froce_board_caps(b)->max_qp_wr == 1u << 15 &&
		      froce_board_caps(b)->num_gid == 16 && froce_board_caps(b)->max_mr_size == 1ull << 33,
	      "QUERY_FW, QUERY_CAPS");
	CHECK(xdrv_mbox_prepare(ref, FROCE_CMD_QUERY_CAPS, 2, NULL, 0, FROCE_CMD_QUERY_CAPS_OUT_SIZE) == 0 &&
		      !memcmp(fw.seen[FROCE_CMD_QUERY_CAPS].hdr, ref, FROCE_MBOX_IN_OFF),
	      "QUERY_CAPS header differs from the driver's");

	/* port and GID */
	CHECK(froce_board_set_port(b, mac, 1500) == 0, "SET_PORT: %s", froce_board_errmsg(b));
	xdrv_set_port(ref, mac, 1500);
	CHECK(!memcmp(fw.seen[FROCE_CMD_SET_PORT].in, ref, FROCE_CMD_SET_PORT_IN_SIZE), "SET_PORT differs from the driver's");
	CHECK(xdrv_mbox_prepare(ref, FROCE_CMD_SET_PORT, 3, fw.seen[FROCE_CMD_SET_PORT].in, FROCE_CMD_SET_PORT_IN_SIZE, 0) ==
			      0 &&
		      !memcmp(fw.seen[FROCE_CMD_SET_PORT].hdr, ref, FROCE_MBOX_IN_OFF),
	      "SET_PORT header differs from the driver's");
	froce_board_gid_ipv4(gid, ip);
	CHECK(froce_board_add_gid(b, 5, FROCE_GID_TYPE_ROCE_V2, gid, mac) == 0, "ADD_GID");
	{
		const uint8_t *in = fw.seen[FROCE_CMD_ADD_GID].in;

		CHECK(TGET(in, FROCE_CMD_ADD_GID_IN_INDEX) == 5 && TGET(in, FROCE_CMD_ADD_GID_IN_TYPE) == FROCE_GID_TYPE_ROCE_V2 &&
			      TGET(in, FROCE_CMD_ADD_GID_IN_VALID) == 0 && TGET(in, FROCE_CMD_ADD_GID_IN_VLAN_EN) == 0 &&
			      TGETQ(in, FROCE_CMD_ADD_GID_IN_SMAC) == 0x020000770001ull &&
			      !memcmp(in + FROCE_CMD_ADD_GID_IN_GID_BYTE, gid, 16),
		      "ADD_GID fields");
	}
	CHECK(froce_board_query_port(b, &port) == 0 && port.state == FROCE_PORT_STATE_ACTIVE && port.mtu == 1500 &&
		      !memcmp(port.mac, mac, 6) && port.active_mtu == FROCE_MTU_1024,
	      "QUERY_PORT");

	/* a refused command: errno and message */
	fw.fail_opcode = FROCE_CMD_ALLOC_PD;
	fw.fail_status = FROCE_CMD_STATUS_BAD_PARAM;
	fw.fail_syndrome = 0;
	rc = froce_board_alloc_pd(b, &pdn);
	CHECK(rc == -EINVAL && contains(froce_board_errmsg(b), "ALLOC_PD (token 0x6) failed: status BAD_PARAM (0x3), syndrome 0 (input byte 0)"),
	      "%d %s", rc, froce_board_errmsg(b));
	fw.fail_status = FROCE_CMD_STATUS_EXCEED_LIM;
	rc = froce_board_alloc_pd(b, &pdn);
	CHECK(rc == -ENOMEM && contains(froce_board_errmsg(b), "status EXCEED_LIM (0x8), syndrome 0"), "%d %s", rc,
	      froce_board_errmsg(b));
	CHECK(froce_board_alloc_pd(b, &pdn) == 0 && pdn == 2, "ALLOC_PD %u", pdn);

	/* window memory and an MR over it */
	CHECK(froce_board_mem_alloc(b, 6000, 4096, "message buffer", &buf) == 0 && buf == FAKE_MEM_BASE + 0x1000,
	      "buffer at %#llx", (unsigned long long)buf);
	rc = froce_board_mem_alloc(b, 0x10000, 4096, "big buffer", &big);
	CHECK(rc == -ENOMEM && contains(froce_board_errmsg(b), "big buffer: 65536 bytes do not fit the host-memory window (65536 bytes at 0x1234560000: 10096 in use in 2 blocks, largest free block 53248 bytes)"),
	      "%s", froce_board_errmsg(b));
	CHECK(froce_board_reg_mr(b, pdn, buf + 0x10, 5000, FROCE_ACCESS_LOCAL_WRITE, &mr) == 0 && mr.lkey == (3u << 8 | 0x5a),
	      "REG_MR: %s", froce_board_errmsg(b));
	{
		/* [0x...1010, 0x...2398): pages 0x1000 and 0x2000 */
		const struct xbuf pbl = { .addr = buf, .pages = 2, .shift = 12 };

		CHECK(xdrv_reg_mr(ref, pdn, FROCE_ACCESS_LOCAL_WRITE, buf + 0x10, 5000, &pbl) == 0 &&
			      !memcmp(fw.seen[FROCE_CMD_REG_MR].in, ref, FROCE_CMD_REG_MR_IN_SIZE),
		      "REG_MR differs from the driver's");
	}
	CHECK(froce_board_reg_mr(b, pdn, FAKE_MEM_BASE + 0xff00, 0x200, 0, &mr) == -ERANGE &&
		      contains(froce_board_errmsg(b), "not inside the host-memory window"),
	      "MR past the window");

	/* CQ: 3 entries -> 4, its ring zeroed (the window was 0xa5) */
	CHECK(froce_board_create_cq(b, 3, &cq) == 0 && cq->log_size == 2 && cq->cqn == 4, "CREATE_CQ: %s",
	      froce_board_errmsg(b));
	{
		const struct xbuf ring = { .addr = cq->ring, .pages = 1, .shift = 12 };
		const uint8_t *p = mem_at(cq->ring);
		bool zero = true;

		for (int i = 0; i < 4096; i++)
			zero &= !p[i];
		CHECK(zero && cq->ring % 4096 == 0, "CQ ring page zeroed");
		CHECK(xdrv_create_cq(ref, &ring, 2) == 0 && !memcmp(fw.seen[FROCE_CMD_CREATE_CQ].in, ref, FROCE_CMD_CREATE_CQ_IN_SIZE),
		      "CREATE_CQ differs from the driver's");
	}
	CHECK(froce_board_create_cq(b, 1u << 17, &cq2) == -EINVAL && !cq2, "CQ beyond MAX_CQE");

	/* QP: SQ 2 x 64 bytes (1 SGE), RQ 4 x 64 bytes (3 SGEs) */
	{
		const struct froce_board_qp_init init = {
			.pdn = pdn, .send_cq = cq, .recv_cq = cq, .max_send_wr = 2, .max_recv_wr = 3,
			.max_send_sge = 1, .max_recv_sge = 3,
		};
		struct xqp x;

		CHECK(froce_board_create_qp(b, &init, &qp) == 0 && qp->qpn == 5 && qp->sq.log_size == 1 &&
			      qp->rq.log_size == 2 && qp->sq.wqe_shift == 6 && qp->rq.wqe_shift == 6,
		      "CREATE_QP: %s", froce_board_errmsg(b));
		x = (struct xqp){ .pdn = pdn, .send_cqn = cq->cqn, .recv_cqn = cq->cqn, .log_sq = 1, .sq_shift = 6,
				  .log_rq = 2, .rq_shift = 6, .sq = { qp->sq.ring, 1, 12 }, .rq = { qp->rq.ring, 1, 12 } };
		CHECK(xdrv_create_qp(ref, &x) == 0 && !memcmp(fw.seen[FROCE_CMD_CREATE_QP].in, ref, FROCE_CMD_CREATE_QP_IN_SIZE),
		      "CREATE_QP differs from the driver's");
		CHECK(qp->sq.db_slot != qp->rq.db_slot, "own doorbell slots");
	}
	CHECK(froce_board_destroy_cq(b, cq) == -EBUSY && contains(froce_board_errmsg(b), "QP 0x5 still uses it"),
	      "CQ in use");

	/* MODIFY_QP: INIT as rc_pingpong asks */
	{
		const struct froce_board_qp_attr a = {
			.mask = FROCE_QP_ATTR_STATE | FROCE_QP_ATTR_PKEY_INDEX | FROCE_QP_ATTR_PORT | FROCE_QP_ATTR_ACCESS_FLAGS,
			.state = FROCE_QP_STATE_INIT, .port = 1,
		};

		CHECK(froce_board_modify_qp(b, qp, &a) == 0 && xdrv_modify_qp(ref, qp->qpn, &a) == 0 &&
			      !memcmp(fw.seen[FROCE_CMD_MODIFY_QP].in, ref, FROCE_CMD_MODIFY_QP_IN_SIZE),
		      "INIT differs from the driver's");
	}

	/* receives: 3 WQEs in one MEM_WR, one doorbell */
	{
		const struct froce_board_sge sg = { buf, 6000, mr.lkey };
		struct froce_board_recv_wr rw[3] = {
			{ 11, &sg, 1 }, { 12, &sg, 1 }, { 13, &sg, 1 },
		};
		const int mw = ctl->mem_writes, dbw = ctl->db_writes;

		CHECK(froce_board_post_recv(b, qp, rw, 3) == 0 && ctl->mem_writes == mw + 1 && ctl->db_writes == dbw + 1,
		      "post_recv: %d MEM_WR, %d doorbells", ctl->mem_writes - mw, ctl->db_writes - dbw);
		CHECK(ctl->last_db_off == qp->rq.db_slot * 8u && ctl->last_db_val == froce_board_db_qp(qp->qpn, FROCE_DB_TYPE_RQ, 3),
		      "RQ doorbell %#x %#llx", ctl->last_db_off, (unsigned long long)ctl->last_db_val);
		for (unsigned int i = 0; i < 3; i++) {
			froce_board_build_recv_wqe(ref, 6, (uint16_t)i, &sg, 1);
			CHECK(!memcmp(mem_at(qp->rq.ring + 64 * i), ref, 64), "RQ WQE %u in the ring", i);
		}
		CHECK(froce_board_post_recv(b, qp, rw, 2) == -ENOMEM && contains(froce_board_errmsg(b), "3 of 4 WQEs outstanding"),
		      "RQ full: %s", froce_board_errmsg(b));
	}

	/* an empty CQ: one 32-byte read */
	r0 = requests();
	CHECK(froce_board_poll_cq(b, cq, wc, 2) == 0 && requests() == r0 + 1, "empty poll: %d requests", requests() - r0);

	/* one receive completion: learn its OWNER, then read it again */
	put_cqe(cq, 0, qp->qpn, FROCE_CQE_OP_RECV, 0, FROCE_WC_SUCCESS, 6000);
	r0 = requests();
	rc = froce_board_poll_cq(b, cq, wc, 2);
	CHECK(rc == 1 && wc[0].wr_id == 11 && wc[0].byte_len == 6000 && wc[0].qpn == qp->qpn && requests() == r0 + 2 &&
		      cq->ci == 1 && qp->rq.ci == 1,
	      "one CQE: rc %d, wr_id %llu, %d requests", rc, (unsigned long long)wc[0].wr_id, requests() - r0);

	/* a send and a receive at once: the first read learns one, the
	 * second takes it and learns the other, the third takes that */
	{
		const struct froce_board_sge sg = { buf, 100, mr.lkey };
		const struct froce_board_send_wr sw[2] = { { 21, &sg, 1, false }, { 22, &sg, 1, true } };

		CHECK(froce_board_post_send(b, qp, sw, 2) == 0 && ctl->last_db_off == qp->sq.db_slot * 8u &&
			      ctl->last_db_val == froce_board_db_qp(qp->qpn, FROCE_DB_TYPE_SQ, 2),
		      "post_send: %s", froce_board_errmsg(b));
		froce_board_build_send_wqe(ref, 6, 1, true, &sg, 1);
		CHECK(!memcmp(mem_at(qp->sq.ring + 64), ref, 64), "SQ WQE 1 in the ring");
		CHECK(froce_board_post_send(b, qp, sw, 1) == -ENOMEM, "SQ full");
	}
	put_cqe(cq, 1, qp->qpn, FROCE_CQE_OP_SEND, 1, FROCE_WC_SUCCESS, 0);
	put_cqe(cq, 2, qp->qpn, FROCE_CQE_OP_RECV, 1, FROCE_WC_SUCCESS, 100);
	r0 = requests();
	rc = froce_board_poll_cq(b, cq, wc, 2);
	CHECK(rc == 1 && wc[0].wr_id == 22 && qp->sq.ci == 2 && cq->seen == 1 && requests() == r0 + 2,
	      "the signalled send completes both: rc %d wr_id %llu sq.ci %u, %d requests", rc,
	      (unsigned long long)wc[0].wr_id, qp->sq.ci, requests() - r0);
	r0 = requests();
	rc = froce_board_poll_cq(b, cq, wc, 2);
	CHECK(rc == 1 && wc[0].wr_id == 12 && requests() == r0 + 1 && cq->ci == 3,
	      "the known one in one read: rc %d wr_id %llu, %d requests", rc, (unsigned long long)wc[0].wr_id,
	      requests() - r0);

	/* ring wrap: slot 3 then slot 0 of the second pass (OWNER 0) */
	put_cqe(cq, 3, qp->qpn, FROCE_CQE_OP_RECV, 2, FROCE_WC_RNR_RETRY_EXC_ERR, 0);
	rc = froce_board_poll_cq(b, cq, wc, 4);
	CHECK(rc == 1 && wc[0].wr_id == 13 && wc[0].status == FROCE_WC_RNR_RETRY_EXC_ERR && cq->ci == 4,
	      "slot 3, an error status: rc %d", rc);
	CHECK(froce_board_poll_cq(b, cq, wc, 4) == 0, "slot 0 still holds the first pass's CQE (OWNER 1)");
	put_cqe(cq, 4, qp->qpn, FROCE_CQE_OP_RECV, 3, FROCE_WC_SUCCESS, 0);
	rc = froce_board_poll_cq(b, cq, wc, 4);
	CHECK(rc < 0 && contains(froce_board_errmsg(b), "a receive completion (WQE 3) with no receive posted"),
	      "receive CQE with nothing posted: %d %s", rc, froce_board_errmsg(b));
	put_cqe(cq, 5, 0x3f, FROCE_CQE_OP_SEND, 0, FROCE_WC_SUCCESS, 0);
	CHECK(froce_board_poll_cq(b, cq, wc, 4) == 0 && cq->ci == 6, "a CQE of an unknown QP is dropped");

	/* the RQ wraps: 3 more receives go to slots 3, 0, 1 in two MEM_WRs */
	{
		const struct froce_board_sge sg = { buf, 64, mr.lkey };
		struct froce_board_recv_wr rw[3] = { { 31, &sg, 1 }, { 32, &sg, 1 }, { 33, &sg, 1 } };
		const int mw = ctl->mem_writes;

		CHECK(froce_board_post_recv(b, qp, rw, 3) == 0 && ctl->mem_writes == mw + 2 && qp->rq.pi == 6,
		      "wrapping post: %d MEM_WRs", ctl->mem_writes - mw);
		froce_board_build_recv_wqe(ref, 6, 5, &sg, 1);
		CHECK(!memcmp(mem_at(qp->rq.ring + 64), ref, 64), "WQE 5 in slot 1");
	}

	/* teardown: the window gets everything back */
	CHECK(froce_board_destroy_qp(b, qp) == 0 && froce_board_destroy_cq(b, cq) == 0 &&
		      froce_board_dereg_mr(b, &mr) == 0 && froce_board_dealloc_pd(b, pdn) == 0 &&
		      froce_board_mem_free(b, buf) == 0,
	      "teardown: %s", froce_board_errmsg(b));
	CHECK(TGET(fw.seen[FROCE_CMD_DEREG_MR].in, FROCE_CMD_DEREG_MR_IN_LKEY) == mr.lkey &&
		      TGET(fw.seen[FROCE_CMD_DESTROY_QP].in, FROCE_CMD_DESTROY_QP_IN_QPN) == 5,
	      "destroy inputs");
	CHECK(froce_win_used(w) == FROCE_MBOX_SIZE && w->n == 1, "only the command block left: %llu",
	      (unsigned long long)froce_win_used(w));

	/* a command that never completes disables the mailbox */
	{
		struct froce_board_opts o = quick;
		struct froce_board *b2;

		/* a second board on the same link: a fresh mailbox with short timeouts */
		fw.no_done = false;
		CHECK(froce_board_open(&b2, l, &o, err, sizeof(err)) == 0, "reopen: %s", err);
		fw.no_done = true;
		rc = froce_board_alloc_pd(b2, &pdn);
		CHECK(rc == -ETIMEDOUT && contains(froce_board_errmsg(b2), "ALLOC_PD (token 0x3) timed out after 300 ms; CMD_STATUS 0") &&
			      contains(froce_board_errmsg(b2), "mailbox disabled"),
		      "timeout: %d %s", rc, froce_board_errmsg(b2));
		fw.no_done = false;
		rc = froce_board_alloc_pd(b2, &pdn);
		CHECK(rc == -EIO && contains(froce_board_errmsg(b2), "ALLOC_PD: the mailbox is disabled since a command timed out"),
		      "dead: %d %s", rc, froce_board_errmsg(b2));
		froce_board_close(b2);

		/* the doorbell's write fails (SLVERR): the command may run, so
		 * the block is not reused either */
		CHECK(froce_board_open(&b2, l, &o, err, sizeof(err)) == 0, "reopen: %s", err);
		ctl->axi_error = 2;
		rc = froce_board_alloc_pd(b2, &pdn);
		CHECK(rc == -EIO && contains(froce_board_errmsg(b2), "BAR0 CMD_DOORBELL write:"), "doorbell failed: %d %s", rc,
		      froce_board_errmsg(b2));
		rc = froce_board_alloc_pd(b2, &pdn);
		CHECK(rc == -EIO && contains(froce_board_errmsg(b2), "the mailbox is disabled"), "dead after it: %d %s", rc,
		      froce_board_errmsg(b2));
		froce_board_close(b2);
	}
	froce_board_close(b);
	dev_stop(l);
}

int main(void)
{
	ctl = mmap(NULL, sizeof(*ctl), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ctl == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	t_window();
	t_names();
	t_gid_mac();
	t_wqe();
	t_db_cqe();
	t_enc_modify_qp();
	t_open_errors();
	t_board();
	printf("test_froce_board: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
