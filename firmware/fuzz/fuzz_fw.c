/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: command blocks, page-list contents and engine events
 * (fuzz_format.h) into the firmware running on the model HAL. After every
 * step: the model has not aborted (no access outside a table, no half-written
 * context), the bookkeeping agrees with the tables (check_consistency), a
 * refused command changed nothing (snapshot), the block's header is complete
 * and a BAD_PARAM syndrome points into the input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fuzz_format.h"
#include "model_hal.h"

static const struct model_cfg cfg = {
	.num_qps = 8, .num_cqs = 4, .num_eqs = 3, .num_gids = 4, .num_uars = 3, .num_vectors = 4, .num_pds = 4,
	.rd_atomic_max = 8, .num_mrs = 16, .num_mtt = 128, .arena_bytes = 16 * 1024, .perm_mac = 0x02AABBCCDDEEull,
	.link_status = FROCE_REG_LINK_STATUS_UP_MASK,
};

static const struct {
	uint16_t op, in, out;
} cmds[] = {
#define CMD(name, o, i, u) { o, i, u },
	FROCE_CMD_LIST(CMD)
#undef CMD
};
#define NCMDS (sizeof cmds / sizeof cmds[0])

static void die(const char *what, const char *detail, unsigned step)
{
	fprintf(stderr, "fuzz_fw: step %u: %s: %s\n", step, what, detail ? detail : "");
	abort();
}

static void consistent(unsigned step)
{
	const char *e = check_consistency();

	if (e)
		die("bookkeeping and tables disagree", e, step);
}

static uint16_t token;

static void run_command(const uint8_t *p, const uint8_t *end, const uint8_t **next, unsigned step)
{
	if (end - p < 3) {
		*next = end;
		return;
	}
	const unsigned idx = p[0] % NCMDS, flags = p[1];
	unsigned len = p[2];
	uint8_t blk[FROCE_MBOX_SIZE];

	p += 3;
	if (len > (unsigned)(end - p))
		len = (unsigned)(end - p);
	*next = p + len;
	memset(blk, 0, sizeof blk);
	memcpy(blk + FROCE_MBOX_IN_OFF, p, len < FUZZ_IN_MAX ? len : FUZZ_IN_MAX);
	uint32_t in_len = cmds[idx].in, out_len = cmds[idx].out;
	const uint16_t op = flags & FZ_UNKNOWN_OP ? (uint16_t)(0x7700 | idx) : cmds[idx].op;

	if ((flags & FZ_SHORT_IN) && in_len)
		in_len--;
	if ((flags & FZ_SHORT_OUT) && out_len)
		out_len--;
	if (flags & FZ_LONG_IN)
		in_len += 64;
	token++;
	blk[0] = (uint8_t)op;
	blk[1] = (uint8_t)(op >> 8);
	const uint16_t htoken = flags & FZ_BAD_TOKEN ? (uint16_t)(token ^ 0x8000) : token;

	blk[2] = (uint8_t)htoken;
	blk[3] = (uint8_t)(htoken >> 8);
	t_st32(blk + 4, in_len | out_len << 16);
	model_write(FUZZ_BLOCK, blk, sizeof blk);

	struct snapshot *s = snapshot_take();

	fw_mbox_service(token | (flags & FZ_EVENT ? FROCE_REG_CMD_DOORBELL_EVENT_MASK : 0), FUZZ_BLOCK);
	model_read(FUZZ_BLOCK, blk, 16);
	const uint32_t status = TGET(blk, FROCE_MBOX_HDR_STATUS), syn = TGET(blk, FROCE_MBOX_HDR_SYNDROME);

	if (!TGET(blk, FROCE_MBOX_HDR_DONE))
		die("DONE not set", NULL, step);
	if (M.cmd_status != ((uint32_t)token | status << FROCE_REG_CMD_STATUS_STATUS_SHIFT))
		die("CMD_STATUS differs from the block's status", NULL, step);
	if (status != FROCE_CMD_STATUS_OK) {
		const char *d = snapshot_diff(s);

		if (d) {
			char msg[160];

			snprintf(msg, sizeof msg, "opcode %#x status %#x syndrome %#x: %s", op, status, syn, d);
			die("a refused command changed state", msg, step);
		}
		if (status == FROCE_CMD_STATUS_BAD_PARAM && !(syn & FW_SYND_HDR) && syn >= cmds[idx].in)
			die("BAD_PARAM syndrome outside the input", NULL, step);
	} else if (syn != 0) {
		die("OK with a syndrome", NULL, step);
	}
	snapshot_free(s);
	consistent(step);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;

	model_init(&cfg);
	model_map(FUZZ_BLOCK, FROCE_MBOX_SIZE);
	for (unsigned i = 0; i < FUZZ_PAGES; i++)
		model_map(FUZZ_PAGE(i), 4096);
	if (fw_init())
		die("fw_init failed", NULL, 0);
	consistent(0);
	token = 0;
	for (unsigned step = 1; p < end && step <= FUZZ_MAX_RECORDS; step++) {
		const unsigned kind = *p++ % REC_KINDS;

		switch (kind) {
		case REC_CMD:
			run_command(p, end, &p, step);
			break;
		case REC_MEM:
			if (end - p < 11) {
				p = end;
				break;
			}
			model_write(FUZZ_PAGE(p[0] % FUZZ_PAGES) + 8 * ((p[1] | p[2] << 8) % 512), p + 3, 8);
			p += 11;
			break;
		case REC_EVENT:
			if (end - p < 3) {
				p = end;
				break;
			}
			if (M.async_n < MODEL_MAX_ASYNC)
				model_async_push(p[0] % 8, p[1] % 8, p[2] % 16);
			p += 3;
			fw_poll_events();
			consistent(step);
			break;
		case REC_LINK:
			M.link_status ^= FROCE_REG_LINK_STATUS_UP_MASK;
			fw_poll_events();
			consistent(step);
			break;
		case REC_BUSY:
			if (p < end)
				M.busy_reads = *p++ % 8;
			break;
		}
	}
	return 0;
}
