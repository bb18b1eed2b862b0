/* SPDX-License-Identifier: MIT */
/* Writes a seed corpus for fuzz_fw (fuzz_format.h) into the directory given:
 * sequences that reach deep into the handlers (objects created, a QP driven
 * to RTS, MRs over page lists), so the fuzzer mutates from there. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "froce_hw.h"
#include "fuzz_format.h"

static uint8_t buf[8192];
static size_t n;

static unsigned op_index(uint16_t op)
{
	unsigned i = 0;
#define IDX(name, o, in, out) \
	if (o == op) \
		return i; \
	i++;
	FROCE_CMD_LIST(IDX)
#undef IDX
	return 0;
}

static void cmd(uint16_t op, unsigned flags, const uint8_t *in, unsigned len)
{
	buf[n++] = REC_CMD;
	buf[n++] = (uint8_t)op_index(op);
	buf[n++] = (uint8_t)flags;
	buf[n++] = (uint8_t)len;
	memcpy(buf + n, in, len);
	n += len;
}

static void mem(unsigned page, unsigned slot, uint64_t v)
{
	buf[n++] = REC_MEM;
	buf[n++] = (uint8_t)page;
	buf[n++] = (uint8_t)slot;
	buf[n++] = (uint8_t)(slot >> 8);
	t_st64(buf + n, v);
	n += 8;
}

static void save(const char *dir, const char *name)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, n, f) != n) {
		perror(path);
		return;
	}
	fclose(f);
	n = 0;
}

#define MQ(F) FROCE_CMD_MODIFY_QP_IN_##F
#define A(x) FROCE_QP_ATTR_##x

static void modify(uint32_t qpn, uint32_t mask, uint32_t state)
{
	uint8_t m[FROCE_CMD_MODIFY_QP_IN_SIZE] = { 0 };

	TSET(m, MQ(QPN), qpn);
	TSET(m, MQ(ATTR_MASK), mask);
	TSET(m, MQ(STATE), state);
	TSET(m, MQ(PATH_MTU), FROCE_MTU_1024);
	TSET(m, MQ(PORT), 1);
	TSET(m, MQ(ACCESS_FLAGS), 7);
	TSET(m, MQ(QKEY), 0x1234);
	TSET(m, MQ(MAX_RD_ATOMIC), 4);
	TSET(m, MQ(MAX_DEST_RD_ATOMIC), 4);
	TSET(m, MQ(AV_NET_TYPE), FROCE_KIND_ROCE_V2_IPV4);
	TSETQ(m, MQ(AV_DMAC), 0x020000000002ull);
	m[MQ(AV_DGID_BYTE) + 10] = m[MQ(AV_DGID_BYTE) + 11] = 0xFF;
	m[MQ(AV_DGID_BYTE) + 15] = 2;
	cmd(FROCE_CMD_MODIFY_QP, 0, m, sizeof m);
}

/* PD 1 (UAR 1), CQ 0 on EQ 0, GID 0, and a QP of `type` */
static void objects(unsigned type, unsigned uar)
{
	uint8_t in[FROCE_CMD_CREATE_QP_IN_SIZE] = { 0 };

	in[0] = (uint8_t)uar;
	cmd(FROCE_CMD_ALLOC_PD, 0, in, 8);
	memset(in, 0, sizeof in);
	TSETQ(in, FROCE_CMD_CREATE_CQ_IN_BUF_ADDR, 0x200000);
	TSET(in, FROCE_CMD_CREATE_CQ_IN_BUF_NUM_PAGES, 1);
	TSET(in, FROCE_CMD_CREATE_CQ_IN_BUF_PAGE_SHIFT, 12);
	TSET(in, FROCE_CMD_CREATE_CQ_IN_LOG_SIZE, 7);
	TSET(in, FROCE_CMD_CREATE_CQ_IN_UAR, uar);
	cmd(FROCE_CMD_CREATE_CQ, 0, in, FROCE_CMD_CREATE_CQ_IN_SIZE);
	memset(in, 0, sizeof in);
	TSET(in, FROCE_CMD_ADD_GID_IN_TYPE, FROCE_GID_TYPE_ROCE_V2);
	TSETQ(in, FROCE_CMD_ADD_GID_IN_SMAC, 0x020000000001ull);
	in[FROCE_CMD_ADD_GID_IN_GID_BYTE + 10] = in[FROCE_CMD_ADD_GID_IN_GID_BYTE + 11] = 0xFF;
	in[FROCE_CMD_ADD_GID_IN_GID_BYTE + 15] = 1;
	cmd(FROCE_CMD_ADD_GID, 0, in, FROCE_CMD_ADD_GID_IN_SIZE);
	memset(in, 0, sizeof in);
	TSET(in, FROCE_CMD_CREATE_QP_IN_TYPE, type);
	TSET(in, FROCE_CMD_CREATE_QP_IN_PRIV, uar == 0);
	TSET(in, FROCE_CMD_CREATE_QP_IN_PDN, 1);
	TSET(in, FROCE_CMD_CREATE_QP_IN_UAR, uar);
	TSET(in, FROCE_CMD_CREATE_QP_IN_LOG_SQ_SIZE, 3);
	TSET(in, FROCE_CMD_CREATE_QP_IN_SQ_WQE_SHIFT, 6);
	TSET(in, FROCE_CMD_CREATE_QP_IN_LOG_RQ_SIZE, 3);
	TSET(in, FROCE_CMD_CREATE_QP_IN_RQ_WQE_SHIFT, 6);
	TSETQ(in, FROCE_CMD_CREATE_QP_IN_SQ_BUF_ADDR, 0x300000);
	TSET(in, FROCE_CMD_CREATE_QP_IN_SQ_BUF_NUM_PAGES, 1);
	TSET(in, FROCE_CMD_CREATE_QP_IN_SQ_BUF_PAGE_SHIFT, 12);
	TSETQ(in, FROCE_CMD_CREATE_QP_IN_RQ_BUF_ADDR, FUZZ_PAGE(2));
	TSET(in, FROCE_CMD_CREATE_QP_IN_RQ_BUF_NUM_PAGES, 1);
	TSET(in, FROCE_CMD_CREATE_QP_IN_RQ_BUF_PAGE_SHIFT, 12);
	TSET(in, FROCE_CMD_CREATE_QP_IN_RQ_BUF_LEVEL, FROCE_BUF_LEVEL_LIST);
	cmd(FROCE_CMD_CREATE_QP, 0, in, FROCE_CMD_CREATE_QP_IN_SIZE);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s corpus-dir\n", argv[0]);
		return 2;
	}
	const char *dir = argv[1];
	uint8_t in[FROCE_CMD_REG_MR_IN_SIZE] = { 0 };

	/* every command with an all-zero input, with the event */
#define ONE(name, o, i, u) \
	cmd(o, FZ_EVENT, in, i); \
	save(dir, "cmd-" #name);
	FROCE_CMD_LIST(ONE)
#undef ONE

	/* an RC QP to RTS and back */
	mem(1, 0, 0x7000000000ull);
	objects(FROCE_QP_TYPE_RC, 1);
	modify(2, A(STATE) | A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS), FROCE_QP_STATE_INIT);
	modify(2, A(STATE) | A(AV) | A(PATH_MTU) | A(DEST_QPN) | A(RQ_PSN) | A(MAX_DEST_RD_ATOMIC) | A(MIN_RNR_TIMER),
	       FROCE_QP_STATE_RTR);
	modify(2, A(STATE) | A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) | A(SQ_PSN) | A(MAX_QP_RD_ATOMIC),
	       FROCE_QP_STATE_RTS);
	modify(2, A(STATE) | A(EN_SQD_ASYNC_NOTIFY), FROCE_QP_STATE_SQD);
	buf[n++] = REC_EVENT;
	buf[n++] = FROCE_EQE_TYPE_QP_EVENT;
	buf[n++] = FROCE_QP_EV_FATAL;
	buf[n++] = 2;
	cmd(FROCE_CMD_QUERY_QP, 0, (uint8_t[8]){ 2 }, 8);
	cmd(FROCE_CMD_DESTROY_QP, 0, (uint8_t[8]){ 2 }, 8);
	cmd(FROCE_CMD_DESTROY_CQ, 0, (uint8_t[8]){ 0 }, 8);
	cmd(FROCE_CMD_DEALLOC_PD, 0, (uint8_t[8]){ 1 }, 8);
	save(dir, "rc-to-rts");

	/* GSI and UD */
	objects(FROCE_QP_TYPE_GSI, 0);
	modify(1, A(STATE) | A(PKEY_INDEX) | A(QKEY), FROCE_QP_STATE_INIT);
	modify(1, A(STATE), FROCE_QP_STATE_RTR);
	modify(1, A(STATE) | A(SQ_PSN), FROCE_QP_STATE_RTS);
	objects(FROCE_QP_TYPE_UD, 0);
	save(dir, "gsi-ud");

	/* MRs over LIST and LIST2 page lists, deregistration, re-registration */
	cmd(FROCE_CMD_ALLOC_PD, 0, (uint8_t[8]){ 1 }, 8);
	for (unsigned i = 0; i < 4; i++)
		mem(3, i, 0x40000000ull + 0x10000ull * i);
	mem(4, 0, FUZZ_PAGE(3));
	memset(in, 0, sizeof in);
	TSET(in, FROCE_CMD_REG_MR_IN_PDN, 1);
	TSET(in, FROCE_CMD_REG_MR_IN_ACCESS, 3);
	TSETQ(in, FROCE_CMD_REG_MR_IN_IOVA, 0x1100);
	TSETQ(in, FROCE_CMD_REG_MR_IN_LENGTH, 0x3000);
	TSETQ(in, FROCE_CMD_REG_MR_IN_PBL_ADDR, FUZZ_PAGE(3));
	TSET(in, FROCE_CMD_REG_MR_IN_PBL_NUM_PAGES, 4);
	TSET(in, FROCE_CMD_REG_MR_IN_PBL_PAGE_SHIFT, 12);
	TSET(in, FROCE_CMD_REG_MR_IN_PBL_LEVEL, FROCE_BUF_LEVEL_LIST);
	cmd(FROCE_CMD_REG_MR, 0, in, sizeof in);
	TSETQ(in, FROCE_CMD_REG_MR_IN_PBL_ADDR, FUZZ_PAGE(4));
	TSET(in, FROCE_CMD_REG_MR_IN_PBL_LEVEL, FROCE_BUF_LEVEL_LIST2);
	cmd(FROCE_CMD_REG_MR, 0, in, sizeof in);
	cmd(FROCE_CMD_DEREG_MR, 0, (uint8_t[8]){ 1, 1 }, 8);
	buf[n++] = REC_BUSY;
	buf[n++] = 3;
	cmd(FROCE_CMD_DEREG_MR, 0, (uint8_t[8]){ 1, 2 }, 8);
	cmd(FROCE_CMD_REG_MR, 0, in, sizeof in);
	save(dir, "mr-lists");

	/* EQs, ports, GIDs, counters */
	memset(in, 0, sizeof in);
	TSETQ(in, FROCE_CMD_CREATE_EQ_IN_BUF_ADDR, 0x500000);
	TSET(in, FROCE_CMD_CREATE_EQ_IN_BUF_NUM_PAGES, 1);
	TSET(in, FROCE_CMD_CREATE_EQ_IN_BUF_PAGE_SHIFT, 12);
	TSET(in, FROCE_CMD_CREATE_EQ_IN_LOG_SIZE, 6);
	cmd(FROCE_CMD_CREATE_EQ, FZ_EVENT, in, FROCE_CMD_CREATE_EQ_IN_SIZE);
	memset(in, 0, sizeof in);
	in[0] = 1;
	TSET(in, FROCE_CMD_SET_PORT_IN_MTU, 4000);
	TSETQ(in, FROCE_CMD_SET_PORT_IN_MAC, 0x020000000009ull);
	cmd(FROCE_CMD_SET_PORT, 0, in, 16);
	cmd(FROCE_CMD_QUERY_PORT, 0, (uint8_t[8]){ 1 }, 8);
	buf[n++] = REC_LINK;
	cmd(FROCE_CMD_QUERY_COUNTERS, 0, (uint8_t[8]){ 1 }, 8);
	cmd(FROCE_CMD_DESTROY_EQ, 0, (uint8_t[8]){ 1 }, 8);
	save(dir, "eq-port");
	return 0;
}
