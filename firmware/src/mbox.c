/* SPDX-License-Identifier: MIT */
/* The mailbox command loop: fetch a command block, check its header, run the
 * handler, write output and status; asynchronous events; the main loop. */
#include "fw_string.h"

#include "fw_int.h"

struct cmd_desc {
	uint16_t opcode;
	uint16_t in_size;
	uint16_t out_size;
	uint8_t (*run)(struct fw_cmd *c);
};

/* Every command of spec/commands.toml, with its sizes from the spec: a
 * command without a handler does not link. */
#define CMD_ENTRY(name, op, in, out) { op, in, out, fw_cmd_##name },
static const struct cmd_desc commands[] = { FROCE_CMD_LIST(CMD_ENTRY) };
#undef CMD_ENTRY

/* buffers as large as the largest input / output of any command */
#define IN_SIZE(name, op, in, out) uint8_t name[in + 1];
#define OUT_SIZE(name, op, in, out) uint8_t name[out + 1];
union cmd_in_sizes { FROCE_CMD_LIST(IN_SIZE) };
union cmd_out_sizes { FROCE_CMD_LIST(OUT_SIZE) };
#undef IN_SIZE
#undef OUT_SIZE
/* DMA buffers are word aligned (fw_hal.h) */
static _Alignas(8) uint8_t cmd_in[sizeof(union cmd_in_sizes)];
static _Alignas(8) uint8_t cmd_out[sizeof(union cmd_out_sizes)];

void fw_post_eqe(uint32_t eqn, uint32_t type, uint32_t subtype, uint32_t id, uint32_t token, uint32_t status)
{
	uint32_t dw[3];

	dw[0] = FROCE_FIELD_PREP(FROCE_EQE_TYPE, type) | FROCE_FIELD_PREP(FROCE_EQE_SUBTYPE, subtype);
	dw[1] = FROCE_FIELD_PREP(FROCE_EQE_ID, id);
	dw[2] = FROCE_FIELD_PREP(FROCE_EQE_TOKEN, token) | FROCE_FIELD_PREP(FROCE_EQE_STATUS, status);
	if (hal_eq_post(eqn, dw))
		fw.eq_dropped++;
}

static const struct cmd_desc *find_command(uint32_t opcode)
{
	for (unsigned i = 0; i < NELEM(commands); i++)
		if (commands[i].opcode == opcode)
			return &commands[i];
	return NULL;
}

/* Runs the command in the block; returns its status, *syndrome its detail.
 * *write_header says whether the block may be written (it is not when the
 * block cannot be read or its address is invalid). */
static uint8_t run_block(uint32_t token, uint64_t block, uint32_t *syndrome, bool *write_header)
{
	_Alignas(8) uint8_t hdr[8];

	*syndrome = 0;
	*write_header = false;
	if (block & (FROCE_MBOX_SIZE - 1)) {
		*syndrome = FW_SYND_BLOCK_ADDR;
		return FROCE_CMD_STATUS_BAD_PARAM;
	}
	if (hal_dma_read(block, hdr, sizeof hdr))
		return FROCE_CMD_STATUS_INTERNAL_ERR;
	*write_header = true;

	const uint32_t opcode = GET_DW(hdr, FROCE_MBOX_HDR_OPCODE);
	const uint32_t in_len = GET_DW(hdr, FROCE_MBOX_HDR_IN_LEN);
	const uint32_t out_len = GET_DW(hdr, FROCE_MBOX_HDR_OUT_LEN);

	if (GET_DW(hdr, FROCE_MBOX_HDR_TOKEN) != token) {
		*syndrome = FW_SYND_HDR | OFF_DW(FROCE_MBOX_HDR_TOKEN);
		return FROCE_CMD_STATUS_BAD_PARAM;
	}
	const struct cmd_desc *d = find_command(opcode);

	if (!d) {
		*syndrome = FW_SYND_HDR | OFF_DW(FROCE_MBOX_HDR_OPCODE);
		return FROCE_CMD_STATUS_BAD_OPCODE;
	}
	/* a longer input than the command's is accepted (its tail ignored),
	 * a shorter one or one beyond the block's input area is not */
	if (in_len < d->in_size || in_len > FROCE_MBOX_IN_MAX) {
		*syndrome = FW_SYND_HDR | OFF_DW(FROCE_MBOX_HDR_IN_LEN);
		return FROCE_CMD_STATUS_BAD_SIZE;
	}
	if (out_len < d->out_size || out_len > FROCE_MBOX_OUT_MAX) {
		*syndrome = FW_SYND_HDR | OFF_DW(FROCE_MBOX_HDR_OUT_LEN);
		return FROCE_CMD_STATUS_BAD_SIZE;
	}
	memset(cmd_in, 0, sizeof cmd_in);
	memset(cmd_out, 0, sizeof cmd_out);
	if (d->in_size && hal_dma_read(block + FROCE_MBOX_IN_OFF, cmd_in, d->in_size))
		return FROCE_CMD_STATUS_INTERNAL_ERR;

	struct fw_cmd c = { cmd_in, cmd_out, 0 };
	const uint8_t status = d->run(&c);

	if (status != FROCE_CMD_STATUS_OK) {
		*syndrome = c.syndrome;
		return status;
	}
	/* done, but the driver cannot learn the result: it sees a failure
	 * (the command's effect stays; see README "Limits") */
	if (d->out_size && hal_dma_write(block + FROCE_MBOX_OUT_OFF, cmd_out, d->out_size))
		return FROCE_CMD_STATUS_INTERNAL_ERR;
	return FROCE_CMD_STATUS_OK;
}

void fw_mbox_service(uint32_t doorbell, uint64_t block)
{
	const uint32_t token = FROCE_FIELD_GET(FROCE_REG_CMD_DOORBELL_TOKEN, doorbell);
	uint32_t syndrome;
	bool write_header;

	hal_mbox_status(FROCE_FIELD_PREP(FROCE_REG_CMD_STATUS_TOKEN, token) |
			FROCE_FIELD_PREP(FROCE_REG_CMD_STATUS_BUSY, 1u));
	const uint8_t status = run_block(token, block, &syndrome, &write_header);

	if (write_header) {
		_Alignas(4) uint8_t w[4];

		/* SYNDROME, then the dword with STATUS and DONE: the driver
		 * polls DONE, so it must land last (DMA writes are ordered) */
		st32(w, syndrome);
		(void)hal_dma_write(block + 4 * FROCE_MBOX_HDR_SYNDROME_DW, w, 4);
		st32(w, FROCE_FIELD_PREP(FROCE_MBOX_HDR_STATUS, status) | FROCE_FIELD_PREP(FROCE_MBOX_HDR_DONE, 1u));
		(void)hal_dma_write(block + 4 * FROCE_MBOX_HDR_STATUS_DW, w, 4);
	}
	hal_mbox_status(FROCE_FIELD_PREP(FROCE_REG_CMD_STATUS_TOKEN, token) |
			FROCE_FIELD_PREP(FROCE_REG_CMD_STATUS_STATUS, status));
	if (doorbell & FROCE_REG_CMD_DOORBELL_EVENT_MASK)
		fw_post_eqe(0, FROCE_EQE_TYPE_CMD_DONE, 0, 0, token, status);
}

/* ---- asynchronous events ---- */

#define EVENTS_PER_POLL 16	/* then the mailbox gets its turn again */

static bool qp_event(const struct fw_async_event *ev)
{
	if (ev->id >= fw.num_qps || !(fw.qp_flags[ev->id] & FW_F_USED))
		return false;
	uint8_t *qpc = fw.qpc[ev->id];

	switch (ev->subtype) {
	case FROCE_QP_EV_FATAL:
	case FROCE_QP_EV_REQ_ERR:
	case FROCE_QP_EV_ACCESS_ERR:
		/* the engine stopped the QP; its context and our copy say ERR too */
		if (GET_DW(qpc, FROCE_QPC_STATE) == FROCE_QP_STATE_RESET)
			return false;	/* a stale event of an earlier life */
		SET_DW(qpc, FROCE_QPC_STATE, FROCE_QP_STATE_ERR);
		fw_ctx_write(FROCE_CTL_QPC_BASE + ev->id * (uint32_t)FROCE_QPC_SIZE, qpc, FROCE_QPC_SIZE);
		return true;
	case FROCE_QP_EV_COMM_EST:
	case FROCE_QP_EV_SQ_DRAINED:
	case FROCE_QP_EV_LAST_WQE_REACHED:
		return true;
	default:
		return false;
	}
}

static bool cq_event(const struct fw_async_event *ev)
{
	if (ev->id >= fw.num_cqs || !(fw.cq[ev->id].flags & FW_F_USED))
		return false;
	return ev->subtype == FROCE_CQ_EV_OVERRUN || ev->subtype == FROCE_CQ_EV_ACCESS_ERR;
}

void fw_poll_events(void)
{
	struct fw_async_event ev;

	for (unsigned n = 0; n < EVENTS_PER_POLL && hal_async_poll(&ev); n++) {
		bool forward = false;

		if (ev.type == FROCE_EQE_TYPE_QP_EVENT)
			forward = qp_event(&ev);
		else if (ev.type == FROCE_EQE_TYPE_CQ_ERROR)
			forward = cq_event(&ev);
		if (forward)
			fw_post_eqe(0, ev.type, ev.subtype, ev.id, 0, 0);
		else
			fw.async_dropped++;
	}
	const uint8_t up = (hal_link_status() & FROCE_REG_LINK_STATUS_UP_MASK) != 0;

	if (up != fw.link_up) {
		fw.link_up = up;
		fw_post_eqe(0, FROCE_EQE_TYPE_PORT_CHANGE, up ? FROCE_PORT_EV_ACTIVE : FROCE_PORT_EV_DOWN,
			    FW_PORT, 0, 0);
	}
}

void fw_run_once(void)
{
	uint32_t doorbell;
	uint64_t block;

	if (hal_mbox_poll(&doorbell, &block))
		fw_mbox_service(doorbell, block);
	fw_poll_events();
	if (hal_ms_tick())
		hal_heartbeat(++fw.heartbeat);
}

void fw_main(void)
{
	fw_puts("froce fw ");
	fw_puthex(FW_VERSION_MAJOR << 24 | FW_VERSION_MINOR << 16 | FW_VERSION_PATCH);
	fw_puts("\n");
	if (fw_init()) {
		fw_puts("fw: init failed, halted\n");
		for (;;)
			;
	}
	hal_dev_ready(FROCE_FIELD_PREP(FROCE_REG_FW_VERSION_MAJOR, FW_VERSION_MAJOR) |
		      FROCE_FIELD_PREP(FROCE_REG_FW_VERSION_MINOR, FW_VERSION_MINOR) |
		      FROCE_FIELD_PREP(FROCE_REG_FW_VERSION_PATCH, FW_VERSION_PATCH));
	for (;;)
		fw_run_once();
}
