// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Test of include/froce_hw.h as its C users see it.
 *
 * Part 1 (always, no includes, also built freestanding with -D__KERNEL__,
 * as C++ and for the rv32 firmware target): compile-time checks of layout
 * sizes, field placement and the X-macro tables.
 *
 * Part 2 (hosted builds): parse the rxe golden frames in
 * tests/gen/vectors/rxe_frames.csv with nothing but the header's offsets and
 * opcode table, and recompute each ICRC with the masks placed by those
 * offsets. Exit status 0 = all frames consistent.
 */
#include "froce_hw.h"

#ifdef __cplusplus
#define SA(cond, msg) static_assert(cond, msg)
#else
#define SA(cond, msg) _Static_assert(cond, msg)
#endif

/* ---- Part 1: compile-time checks ---- */

SA(FROCE_ETH_LEN == 14 && FROCE_VLAN_LEN == 4, "Ethernet/VLAN length");
SA(FROCE_IPV4_LEN == 20 && FROCE_IPV6_LEN == 40 && FROCE_UDP_LEN == 8, "IP/UDP length");
SA(FROCE_GRH_LEN == 40, "GRH length");
SA(FROCE_BTH_LEN == 12, "BTH is 12 bytes");
SA(FROCE_RETH_LEN == 16, "RETH is 16 bytes");
SA(FROCE_AETH_LEN == 4 && FROCE_DETH_LEN == 8, "AETH/DETH length");
SA(FROCE_IMMDT_LEN == 4 && FROCE_IETH_LEN == 4, "ImmDt/IETH length");
SA(FROCE_ATOMICETH_LEN == 28, "AtomicETH is 28 bytes");
SA(FROCE_ATOMICACKETH_LEN == 8, "AtomicAckETH is 8 bytes");
SA(FROCE_BTH_DQPN_OFF == 40 && FROCE_BTH_PSN_OFF == 72, "BTH DestQP/PSN placement");
SA(FROCE_ATOMICETH_SWAP_OFF == 96 && FROCE_ATOMICETH_CMP_OFF == 160, "AtomicETH order");
SA(FROCE_ETHERTYPE_IPV6 == 0x86DD && FROCE_UDP_PORT_ROCE == 4791, "constants");
SA(FROCE_OP_RC_ACKNOWLEDGE == 0x11 && FROCE_OP_UD_SEND_ONLY == 0x64 &&
   FROCE_OP_CNP == 0x81, "opcodes");

/* RHDR: LSB-first packing, first field at 0, no gaps */
SA(FROCE_RHDR_KIND_LSB == 0 && FROCE_RHDR_KIND_W == 3, "RHDR kind first");
SA(FROCE_RHDR_VLAN_EN_LSB == 3, "RHDR vlan_en follows kind");
SA(FROCE_RHDR_PAYLOAD_LEN_LSB + FROCE_RHDR_PAYLOAD_LEN_W == FROCE_RHDR_W,
   "RHDR payload_len last");

/* Queue formats */
SA(FROCE_CQE_SIZE == 32 && FROCE_EQE_SIZE == 16, "CQE/EQE size");
SA(FROCE_CQE_OWNER_LSB == 8 * FROCE_CQE_SIZE - 1, "CQE owner is the last bit");
SA(FROCE_EQE_OWNER_LSB == 8 * FROCE_EQE_SIZE - 1, "EQE owner is the last bit");
SA(FROCE_WQE_CTRL_SIZE == FROCE_WQE_SEG && FROCE_WQE_DATA_SIZE == FROCE_WQE_SEG,
   "segment granule");
SA(FROCE_WQE_CTRL_SIZE + FROCE_WQE_UD_SIZE == FROCE_WQE_BB, "UD header fills one block");
SA(FROCE_WQE_CTRL_SIZE + FROCE_WQE_ATOMIC_SIZE + FROCE_WQE_DATA_SIZE == FROCE_WQE_BB,
   "atomic WQE fits one block");
SA(FROCE_WQE_BB == 1 << FROCE_WQE_SHIFT_MIN, "WQE basic block");
SA(FROCE_WQE_UD_AV_DMAC_QW * 8 == 8 + FROCE_AV_DMAC_QW * 8, "AV embedded at byte 8");
SA(FROCE_WQE_DATA_ADDR_QW == 0 && FROCE_WQE_DATA_LEN_DW == 2 && FROCE_WQE_DATA_LKEY_DW == 3,
   "data segment = struct ibv_sge");
SA(FROCE_DB_QP_SIZE == 8 && FROCE_DB_CQ_SIZE == 8, "doorbells are one qword");
SA(FROCE_DB_QP_TYPE_SHIFT == FROCE_DB_CQ_TYPE_SHIFT, "doorbell type in the same place");
SA(FROCE_UAR_DB_SLOTS * FROCE_DB_QP_SIZE == 1 << FROCE_UAR_PAGE_SHIFT, "slots fill a page");
SA(FROCE_NTX_DESC_SIZE == 16 && FROCE_NRX_DESC_SIZE == 16, "netdev descriptors");
SA(FROCE_CQE_SMAC_MASK == 0x0000FFFFFFFFFFFFULL, "48-bit qword mask");
SA(FROCE_CQE_OWNER_MASK == 0x80000000U, "dword mask");

/* Mailbox */
SA(FROCE_MBOX_HDR_SIZE <= FROCE_MBOX_IN_OFF, "header before input");
SA(FROCE_MBOX_IN_OFF + FROCE_MBOX_IN_MAX == FROCE_MBOX_OUT_OFF, "input before output");
SA(FROCE_MBOX_OUT_OFF + FROCE_MBOX_OUT_MAX == FROCE_MBOX_SIZE, "output ends the block");
SA(FROCE_CMD_MODIFY_QP_IN_AV_DGID_BYTE == 16 + FROCE_QPATTR_AV_DGID_BYTE, "QPATTR at byte 16");

/* BAR0 */
SA(FROCE_REG_ID == 0 && FROCE_REG_CMD_DOORBELL == 0x88, "register offsets");
SA(FROCE_REG_CAPS_UAR_SHADOW_MASK == 1, "shadow UAR capability bit 0");
SA(FROCE_CNT_NUM * 8 <= FROCE_BAR0_COUNTERS_SIZE, "counters fit their block");
SA(FROCE_HW_VERSION == (FROCE_HW_VERSION_MAJOR << 24 | FROCE_HW_VERSION_MINOR << 16 |
			FROCE_HW_VERSION_PATCH), "version word");

/* Every opcode row: ext_len is the sum of its headers, the name matches */
#define EXT_LEN_OF(f)                                                                    \
	(((f) & FROCE_OPF_RETH ? FROCE_RETH_LEN : 0) +                                   \
	 ((f) & FROCE_OPF_DETH ? FROCE_DETH_LEN : 0) +                                   \
	 ((f) & FROCE_OPF_ATOMICETH ? FROCE_ATOMICETH_LEN : 0) +                         \
	 ((f) & FROCE_OPF_AETH ? FROCE_AETH_LEN : 0) +                                   \
	 ((f) & FROCE_OPF_ATOMICACKETH ? FROCE_ATOMICACKETH_LEN : 0) +                   \
	 ((f) & FROCE_OPF_IMMDT ? FROCE_IMMDT_LEN : 0) +                                 \
	 ((f) & FROCE_OPF_IETH ? FROCE_IETH_LEN : 0))
#define CHECK_OP(name, val, flags, ext)                                                  \
	SA(FROCE_OP_##name == (val) && EXT_LEN_OF(flags) == (ext), "opcode " #name);
FROCE_OPCODE_LIST(CHECK_OP)

#define CHECK_CMD(name, op, in, out)                                                     \
	SA(FROCE_CMD_##name == (op) && (in) <= FROCE_MBOX_IN_MAX &&                       \
	   (out) <= FROCE_MBOX_OUT_MAX && (in) % 8 == 0 && (out) % 8 == 0, "command " #name);
FROCE_CMD_LIST(CHECK_CMD)

#define CHECK_CNT(NAME, name) SA(FROCE_CNT_##NAME < FROCE_CNT_NUM, "counter " #name);
FROCE_COUNTER_LIST(CHECK_CNT)

/* The generic accessors work on dword and qword fields */
SA(FROCE_FIELD_PREP(FROCE_CQE_OPCODE, FROCE_CQE_OP_RECV) == 0x80000000U, "FIELD_PREP dw");
SA(FROCE_FIELD_GET(FROCE_CQE_VLAN_ID, 0x0ABC000000000000ULL) == 0xABC, "FIELD_GET qw");

#if !defined(FROCE_FREESTANDING)
/* ---- Part 2: the rxe frames ---- */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define EXPECT(cond, ...)                                                               \
	do {                                                                             \
		if (!(cond)) {                                                           \
			fprintf(stderr, "FAIL %s:%s: ", file, frame);                     \
			fprintf(stderr, __VA_ARGS__);                                    \
			fputc('\n', stderr);                                             \
			failures++;                                                      \
			return;                                                          \
		}                                                                        \
	} while (0)

/* big-endian bit field: offset from the first bit on the wire, width <= 64 */
static uint64_t get(const uint8_t *h, unsigned off, unsigned w)
{
	uint64_t v = 0;

	for (unsigned i = off; i < off + w; i++)
		v = v << 1 | ((h[i / 8] >> (7 - i % 8)) & 1);
	return v;
}

static void set_ones(uint8_t *h, unsigned off, unsigned w)
{
	for (unsigned i = off; i < off + w; i++)
		h[i / 8] |= (uint8_t)(0x80 >> (i % 8));
}

static uint32_t crc32_update(uint32_t crc, const uint8_t *p, size_t n)
{
	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ 0xEDB88320U : crc >> 1;
	}
	return crc;
}

struct opinfo {
	int valid, flags, ext_len;
};
static struct opinfo optab[256];

#define FILL_OP(name, val, fl, ext) optab[val] = (struct opinfo){ 1, (fl), (ext) };

#define F(h, fld) FROCE_##h##_##fld##_OFF, FROCE_##h##_##fld##_W

static void check_frame(const char *file, const char *frame, unsigned want_op,
			uint8_t *p, unsigned len)
{
	uint8_t m[2048];
	unsigned l3 = FROCE_ETH_LEN, type = (unsigned)get(p, F(ETH, TYPE)), udp, ip_len;

	EXPECT(len <= sizeof(m), "frame too long");
	memcpy(m, p, len);
	if (type == FROCE_ETHERTYPE_VLAN) {
		EXPECT(get(p + l3, F(VLAN, VID)) == 100, "VLAN id");
		type = (unsigned)get(p + l3, F(VLAN, TYPE));
		l3 += FROCE_VLAN_LEN;
	}
	if (type == FROCE_ETHERTYPE_IPV4) {
		uint8_t *ip = p + l3;
		uint32_t sum = 0;

		EXPECT(get(ip, F(IPV4, VERSION)) == FROCE_IPV4_VERSION, "IPv4 version");
		EXPECT(get(ip, F(IPV4, IHL)) == FROCE_IPV4_IHL_NOOPT, "IHL");
		EXPECT(get(ip, F(IPV4, PROTOCOL)) == FROCE_IPPROTO_UDP, "protocol");
		EXPECT(get(ip, F(IPV4, FLAGS)) == FROCE_IPV4_FLAGS_DF, "DF");
		ip_len = (unsigned)get(ip, F(IPV4, TOTAL_LEN));
		EXPECT(l3 + ip_len == len, "IPv4 total length %u", ip_len);
		for (unsigned i = 0; i < FROCE_IPV4_LEN; i += 2)
			sum += (uint32_t)(ip[i] << 8 | ip[i + 1]);
		while (sum >> 16)
			sum = (sum & 0xFFFF) + (sum >> 16);
		EXPECT(sum == 0xFFFF, "IPv4 header checksum");
		set_ones(m + l3, F(IPV4, TOS));
		set_ones(m + l3, F(IPV4, TTL));
		set_ones(m + l3, F(IPV4, CHECKSUM));
		udp = l3 + FROCE_IPV4_LEN;
	} else {
		uint8_t *ip = p + l3;

		EXPECT(type == FROCE_ETHERTYPE_IPV6, "EtherType 0x%04x", type);
		EXPECT(get(ip, F(IPV6, VERSION)) == FROCE_IPV6_VERSION, "IPv6 version");
		EXPECT(get(ip, F(IPV6, NEXT_HDR)) == FROCE_IPPROTO_UDP, "next header");
		ip_len = (unsigned)get(ip, F(IPV6, PAYLOAD_LEN));
		EXPECT(l3 + FROCE_IPV6_LEN + ip_len == len, "IPv6 payload length");
		EXPECT(get(ip, FROCE_IPV6_SRC_OFF, 64) == 0xFD00000000000000ULL, "IPv6 source");
		set_ones(m + l3, F(IPV6, TCLASS));
		set_ones(m + l3, F(IPV6, FLOW_LABEL));
		set_ones(m + l3, F(IPV6, HOP_LIMIT));
		udp = l3 + FROCE_IPV6_LEN;
	}
	EXPECT(get(p + udp, F(UDP, DPORT)) == FROCE_UDP_PORT_ROCE, "UDP port");
	EXPECT(udp + get(p + udp, F(UDP, LEN)) == len, "UDP length");
	set_ones(m + udp, F(UDP, CHECKSUM));

	unsigned bth = udp + FROCE_UDP_LEN;
	const uint8_t *b = p + bth;
	unsigned op = (unsigned)get(b, F(BTH, OPCODE));
	struct opinfo oi = optab[op];

	EXPECT(op == want_op, "opcode 0x%02x, csv says 0x%02x", op, want_op);
	EXPECT(oi.valid, "opcode 0x%02x not in FROCE_OPCODE_LIST", op);
	EXPECT(get(b, F(BTH, TVER)) == FROCE_BTH_TVER, "TVer");
	EXPECT(get(b, F(BTH, PKEY)) == FROCE_DEFAULT_PKEY, "P_Key");
	EXPECT(get(b, F(BTH, DQPN)) != 0, "DestQP");
	set_ones(m + bth, FROCE_BTH_FECN_OFF,
		 FROCE_BTH_FECN_W + FROCE_BTH_BECN_W + FROCE_BTH_RESV6A_W);

	int pad = (int)get(b, F(BTH, PADCNT));
	int payload = (int)len - (int)(bth + FROCE_BTH_LEN) - oi.ext_len - pad - FROCE_ICRC_LEN;

	EXPECT(payload >= 0, "negative payload %d", payload);
	EXPECT((oi.flags & FROCE_OPF_PAYLOAD) || (payload == 0 && pad == 0),
	       "payload %d on an opcode without payload", payload);

	const uint8_t *ext = b + FROCE_BTH_LEN; /* walk the extension headers in IBA order */
	if (oi.flags & FROCE_OPF_RETH) {
		EXPECT(get(ext, F(RETH, DMALEN)) >= (uint64_t)payload, "RETH DMA length");
		ext += FROCE_RETH_LEN;
	}
	if (oi.flags & FROCE_OPF_DETH) {
		EXPECT(get(ext, F(DETH, QKEY)) == 0x11111111, "DETH Q_Key");
		EXPECT(get(ext, F(DETH, SQPN)) != 0, "DETH source QP");
		ext += FROCE_DETH_LEN;
	}
	if (oi.flags & FROCE_OPF_AETH) {
		unsigned syn = (unsigned)get(ext, F(AETH, SYNDROME));

		EXPECT(syn >> 5 == FROCE_AETH_TYPE_ACK, "AETH syndrome 0x%02x", syn);
		ext += FROCE_AETH_LEN;
	}
	if (oi.flags & FROCE_OPF_IMMDT)
		ext += FROCE_IMMDT_LEN;
	EXPECT(ext == b + FROCE_BTH_LEN + oi.ext_len, "extension headers walked");

	/* ICRC: 8 bytes of ones for the LRH, masked headers, rest up to the ICRC */
	static const uint8_t lrh[8] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };
	uint32_t crc = crc32_update(0xFFFFFFFFU, lrh, sizeof(lrh));

	crc = ~crc32_update(crc, m + l3, len - l3 - FROCE_ICRC_LEN);
	const uint8_t *ic = p + len - FROCE_ICRC_LEN;
	uint32_t wire = (uint32_t)ic[0] | (uint32_t)ic[1] << 8 | (uint32_t)ic[2] << 16 |
			(uint32_t)ic[3] << 24;
	EXPECT(crc == wire, "ICRC computed 0x%08x, wire 0x%08x", crc, wire);
}

int main(int argc, char **argv)
{
	static char line[8192];
	static uint8_t frm[4096];
	unsigned frames = 0, seen[256] = { 0 }, kinds = 0;
	FILE *f;

	FROCE_OPCODE_LIST(FILL_OP)
	if (argc != 2 || !(f = fopen(argv[1], "r"))) {
		fprintf(stderr, "usage: %s rxe_frames.csv\n", argv[0]);
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		char *file = strtok(line, ","), *frame = strtok(NULL, ","), *op = strtok(NULL, ",");
		char *hex = strtok(NULL, ",\r\n");
		unsigned len = 0;

		if (!hex || line[0] == '#' || !strcmp(file, "file"))
			continue;
		for (; hex[2 * len] && hex[2 * len + 1] && len < sizeof(frm); len++) {
			char byte[3] = { hex[2 * len], hex[2 * len + 1], 0 };

			frm[len] = (uint8_t)strtoul(byte, NULL, 16);
		}
		check_frame(file, frame, (unsigned)strtoul(op, NULL, 16), frm, len);
		frames++;
		seen[(unsigned)strtoul(op, NULL, 16)]++;
	}
	fclose(f);
	for (unsigned i = 0; i < 256; i++)
		kinds += seen[i] != 0;
	printf("hw_header_test: %u frames, %u opcodes, %d failures\n", frames, kinds, failures);
	return failures || frames < 40 ? 1 : 0;
}
#endif
