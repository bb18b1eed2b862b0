/* SPDX-License-Identifier: MIT */
/* The command loop: header checks, sizes, tokens, events, block faults. */
#include "tutil.h"

#define HDR(F) (FW_SYND_HDR | TOFF(FROCE_MBOX_HDR_##F))

static void refused_hdr(uint16_t op, uint32_t in_len, uint32_t out_len, int token_delta, uint8_t status,
			uint32_t syndrome, int line)
{
	uint8_t in[128] = { 0 };
	struct snapshot *s = snapshot_take();
	struct res r = t_run_full(op, in, in_len, out_len, true, token_delta);
	const char *d = snapshot_diff(s);

	CHECK(r.status == status && r.syndrome == syndrome, "line %d: status %#x syndrome %#x", line, r.status,
	      r.syndrome);
	CHECK(!d, "line %d: refused command changed state: %s", line, d);
	snapshot_free(s);
}

void test_mailbox(void)
{
	t_boot(&t_cfg);

	/* NOP, with and without the CMD_DONE event */
	struct res r = t_run_full(FROCE_CMD_NOP, NULL, 0, 0, true, 0);

	CHECK(r.status == OK && r.syndrome == 0, "NOP: %#x", r.status);
	r = t_run_full(FROCE_CMD_NOP, NULL, 0, 0, false, 0);
	CHECK_EQ(r.status, OK);
	/* a longer input than the command's is accepted */
	r = t_run_full(FROCE_CMD_NOP, NULL, 64, 16, false, 0);
	CHECK_EQ(r.status, OK);

	refused_hdr(0x7777, 0, 0, 0, ST(BAD_OPCODE), HDR(OPCODE), __LINE__);
	refused_hdr(FROCE_CMD_NOP, 0, 0, 1, ST(BAD_PARAM), HDR(TOKEN), __LINE__);
	refused_hdr(FROCE_CMD_NOP, FROCE_MBOX_IN_MAX + 4, 0, 0, ST(BAD_SIZE), HDR(IN_LEN), __LINE__);
	refused_hdr(FROCE_CMD_NOP, 0, FROCE_MBOX_OUT_MAX + 4, 0, ST(BAD_SIZE), HDR(OUT_LEN), __LINE__);
	/* every command: one byte of input or output short */
#define SHORT(name, op, in, out) \
	if (in) \
		refused_hdr(op, in - 1, out, 0, ST(BAD_SIZE), HDR(IN_LEN), __LINE__); \
	if (out) \
		refused_hdr(op, in, out - 1, 0, ST(BAD_SIZE), HDR(OUT_LEN), __LINE__);
	FROCE_CMD_LIST(SHORT)
#undef SHORT

	/* a block address that is not 4 KiB aligned: nothing is read or written */
	uint8_t before[64], after[64];
	uint64_t reads = M.dma_reads, writes = M.dma_writes;

	model_read(BLOCK, before, sizeof before);
	fw_mbox_service(0x4321 | FROCE_REG_CMD_DOORBELL_EVENT_MASK, BLOCK + 0x40);
	model_read(BLOCK, after, sizeof after);
	CHECK(!memcmp(before, after, sizeof before), "unaligned block: block written");
	CHECK(M.dma_reads == reads && M.dma_writes == writes, "unaligned block: DMA done");
	CHECK_EQ(M.cmd_status, 0x4321u | (uint32_t)ST(BAD_PARAM) << FROCE_REG_CMD_STATUS_STATUS_SHIFT);
	CHECK(M.n_eqes && M.eqes[M.n_eqes - 1].dw[2] == (0x4321u | (uint32_t)ST(BAD_PARAM) << FROCE_EQE_STATUS_SHIFT),
	      "unaligned block: CMD_DONE EQE");
	/* a block the DMA cannot read: INTERNAL_ERR in CMD_STATUS, no write */
	writes = M.dma_writes;
	fw_mbox_service(0x4322, 0x7000000000ull);
	CHECK_EQ(M.cmd_status, 0x4322u | (uint32_t)ST(INTERNAL_ERR) << FROCE_REG_CMD_STATUS_STATUS_SHIFT);
	CHECK_EQ(M.dma_writes, writes);

	/* the input cannot be read: INTERNAL_ERR, nothing done */
	M.dma_fail_addr = BLOCK + FROCE_MBOX_IN_OFF;
	refused_hdr(FROCE_CMD_ALLOC_PD, 8, 8, 0, ST(INTERNAL_ERR), 0, __LINE__);
	/* the output cannot be written: the command took effect, the driver
	 * sees INTERNAL_ERR (README "Limits") */
	M.dma_fail_addr = BLOCK + FROCE_MBOX_OUT_OFF;
	CHECK_EQ(t_run(FROCE_CMD_ALLOC_PD, IN8(1)).status, ST(INTERNAL_ERR));
	CHECK(fw.pd[1].flags & FW_F_USED, "ALLOC_PD whose output was lost did not allocate");
	M.dma_fail_addr = 0;
	t_consistent(__LINE__);

	/* CMD_STATUS says BUSY while the command runs: observed through a
	 * count of status writes (busy, then done) */
	const unsigned sw = M.cmd_status_writes;

	t_run(FROCE_CMD_NOP, NULL);
	CHECK_EQ(M.cmd_status_writes, sw + 2);

	/* the main loop: a doorbell runs the command; ticks drive the heartbeat */
	uint8_t blk[64] = { 0 };

	TSET(blk, FROCE_MBOX_HDR_OPCODE, FROCE_CMD_QUERY_FW);
	TSET(blk, FROCE_MBOX_HDR_TOKEN, 0x55);
	TSET(blk, FROCE_MBOX_HDR_OUT_LEN, 16);
	model_write(BLOCK, blk, sizeof blk);
	M.db_pending = true;
	M.db_value = 0x55;
	M.db_block = BLOCK;
	M.ms_ticks = 2;
	fw_run_once();
	fw_run_once();
	fw_run_once();
	model_read(BLOCK, blk, sizeof blk);
	CHECK(TGET(blk, FROCE_MBOX_HDR_DONE) == 1 && TGET(blk, FROCE_MBOX_HDR_STATUS) == OK, "fw_run_once: command");
	CHECK_EQ(M.heartbeat, 2);
	t_consistent(__LINE__);
}
