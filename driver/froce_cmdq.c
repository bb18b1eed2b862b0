// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * froce: the firmware mailbox.
 *
 * One 4 KiB coherent command block whose address sits in CMD_ADDR for the
 * life of the driver. A command fills the header (DONE clear) and the input,
 * rings CMD_DOORBELL with the header's token and polls DONE in the block; the
 * firmware writes SYNDROME, then the dword with STATUS and DONE, last, and the
 * output only on success. Once EQ 0 runs, the doorbell also asks for a
 * CMD_DONE EQE and the caller sleeps until it comes; DONE in the block stays
 * the authority and is checked at least every few ms, so a lost EQE costs
 * time, not the command. One command at a time (cmdq->lock). A timeout marks
 * the mailbox dead: the firmware may still own the block, so every later
 * command fails at once with -EIO.
 */

#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/string.h>

#include "froce.h"
#include "froce_mbox.h"

static unsigned int cmd_timeout_ms = 5000;
module_param(cmd_timeout_ms, uint, 0644);
MODULE_PARM_DESC(cmd_timeout_ms,
		 "Firmware command timeout in ms (default 5000)");

static bool cmd_events = true;
module_param(cmd_events, bool, 0444);
MODULE_PARM_DESC(cmd_events,
		 "Wait for commands on CMD_DONE events once EQ 0 runs, else poll (default Y)");

/* longest sleep between two looks at DONE when waiting for the event */
#define FROCE_CMD_EVENT_SLICE_MS	10
/* how often a slow command checks that the device is still there */
#define FROCE_CMD_PROBE_MS		200

int froce_cmdq_init(struct froce_dev *fdev)
{
	struct froce_cmdq *cmdq = &fdev->cmdq;
	struct device *dev = froce_dev_dev(fdev);

	mutex_init(&cmdq->lock);
	cmdq->fdev = fdev;
	cmdq->token = 1;
	cmdq->dead = false;
	cmdq->use_events = false;
	init_completion(&cmdq->done);

	/* dma_alloc_coherent() memory is page aligned: bits 11:0 are 0 */
	cmdq->blk = dma_alloc_coherent(dev, FROCE_MBOX_SIZE, &cmdq->blk_dma,
				       GFP_KERNEL);
	if (!cmdq->blk) {
		mutex_destroy(&cmdq->lock);
		return -ENOMEM;
	}

	froce_wr32(fdev, FROCE_REG_CMD_ADDR_LO, lower_32_bits(cmdq->blk_dma));
	froce_wr32(fdev, FROCE_REG_CMD_ADDR_HI, upper_32_bits(cmdq->blk_dma));
	return 0;
}

void froce_cmdq_destroy(struct froce_dev *fdev)
{
	struct froce_cmdq *cmdq = &fdev->cmdq;

	/*
	 * After a timeout the firmware may still write the block: leak it
	 * rather than hand memory back that a device may DMA into.
	 */
	if (cmdq->dead) {
		dev_warn(froce_dev_dev(fdev),
			 "mailbox dead: leaking the command block\n");
	} else {
		froce_wr32(fdev, FROCE_REG_CMD_ADDR_LO, 0);
		froce_wr32(fdev, FROCE_REG_CMD_ADDR_HI, 0);
		dma_free_coherent(froce_dev_dev(fdev), FROCE_MBOX_SIZE,
				  cmdq->blk, cmdq->blk_dma);
	}
	cmdq->blk = NULL;
	mutex_destroy(&cmdq->lock);
}

void froce_cmdq_mark_dead(struct froce_dev *fdev)
{
	WRITE_ONCE(fdev->cmdq.dead, true);
}

/*
 * Switch between polling and events; off before EQ 0 goes away. Taking the
 * lock keeps a running command in one mode.
 */
void froce_cmdq_use_events(struct froce_dev *fdev, bool on)
{
	struct froce_cmdq *cmdq = &fdev->cmdq;

	mutex_lock(&cmdq->lock);
	cmdq->use_events = on && cmd_events;
	mutex_unlock(&cmdq->lock);
}

/* CMD_DONE EQE on EQ 0 (IRQ context): wake the waiting command. */
void froce_cmdq_event(struct froce_dev *fdev, u16 token, u8 status)
{
	struct froce_cmdq *cmdq = &fdev->cmdq;

	dev_dbg(froce_dev_dev(fdev), "CMD_DONE token %#x status %s\n",
		token, froce_cmd_status_name(status));
	if (token == READ_ONCE(cmdq->wait_token))
		complete(&cmdq->done);
}

static int froce_cmd_wait(struct froce_dev *fdev, u16 opcode, u16 token)
{
	struct froce_cmdq *cmdq = &fdev->cmdq;
	unsigned long deadline = jiffies + msecs_to_jiffies(cmd_timeout_ms);
	unsigned long next_probe = jiffies + msecs_to_jiffies(FROCE_CMD_PROBE_MS);
	u32 cs, st;
	bool expired;

	for (;;) {
		/* sample the clock first so a late DONE is not a timeout */
		expired = time_after(jiffies, deadline);
		if (froce_mbox_done(cmdq->blk))
			return 0;
		if (expired)
			break;
		/* a device that went away reads all ones: do not wait it out */
		if (time_after(jiffies, next_probe)) {
			next_probe = jiffies + msecs_to_jiffies(FROCE_CMD_PROBE_MS);
			if (froce_rd32(fdev, FROCE_REG_DEV_STATUS) == ~0U) {
				dev_err(froce_dev_dev(fdev),
					"%s (token %#x): device gone (DEV_STATUS reads all ones): mailbox disabled\n",
					froce_cmd_name(opcode), token);
				froce_cmdq_mark_dead(fdev);
				return -EIO;
			}
		}
		if (cmdq->use_events)
			wait_for_completion_timeout(&cmdq->done,
						    msecs_to_jiffies(FROCE_CMD_EVENT_SLICE_MS));
		else
			usleep_range(10, 100);
	}

	cs = froce_rd32(fdev, FROCE_REG_CMD_STATUS);
	st = froce_rd32(fdev, FROCE_REG_DEV_STATUS);
	dev_err(froce_dev_dev(fdev),
		"%s (token %#x) timed out after %u ms; CMD_STATUS %#x (busy %u token %#x status %s), DEV_STATUS %#x: mailbox disabled\n",
		froce_cmd_name(opcode), token, cmd_timeout_ms, cs,
		FIELD_GET(FROCE_REG_CMD_STATUS_BUSY_MASK, cs),
		FIELD_GET(FROCE_REG_CMD_STATUS_TOKEN_MASK, cs),
		froce_cmd_status_name(FIELD_GET(FROCE_REG_CMD_STATUS_STATUS_MASK,
						cs)),
		st);
	froce_cmdq_mark_dead(fdev);
	return -EIO;
}

/*
 * Run one command: @in_len bytes of @in, @out_len bytes of output copied to
 * @out on success. Sleeps. Returns 0 or a negative errno from CMD_STATUS.
 */
int froce_cmd_exec(struct froce_dev *fdev, u16 opcode, const void *in,
		   u32 in_len, void *out, u32 out_len)
{
	struct froce_cmdq *cmdq = &fdev->cmdq;
	struct device *dev = froce_dev_dev(fdev);
	u32 syndrome;
	u16 token;
	u8 status;
	int err;

	might_sleep();

	mutex_lock(&cmdq->lock);
	if (READ_ONCE(cmdq->dead)) {
		err = -EIO;
		goto out_unlock;
	}

	token = cmdq->token++;
	err = froce_mbox_prepare(cmdq->blk, opcode, token, in, in_len,
				 out_len);
	if (err) {
		dev_err(dev, "%s: bad sizes in %u out %u\n",
			froce_cmd_name(opcode), in_len, out_len);
		goto out_unlock;
	}

	if (cmdq->use_events) {
		WRITE_ONCE(cmdq->wait_token, token);
		reinit_completion(&cmdq->done);
	}
	/* writel() orders the block writes before the doorbell */
	froce_wr32(fdev, FROCE_REG_CMD_DOORBELL,
		   FIELD_PREP(FROCE_REG_CMD_DOORBELL_TOKEN_MASK, token) |
		   FIELD_PREP(FROCE_REG_CMD_DOORBELL_EVENT_MASK,
			      cmdq->use_events));

	err = froce_cmd_wait(fdev, opcode, token);
	if (err)
		goto out_unlock;

	/* DONE is written last: read the rest only after seeing it */
	dma_rmb();
	froce_mbox_result(cmdq->blk, &status, &syndrome);
	err = froce_cmd_status_errno(status);
	if (err) {
		cmdq->last_syndrome = syndrome;
		dev_err_ratelimited(dev,
				    "%s (token %#x) failed: status %s (%#x), syndrome %#x: %d\n",
				    froce_cmd_name(opcode), token,
				    froce_cmd_status_name(status), status,
				    syndrome, err);
		goto out_unlock;
	}
	if (out_len)
		memcpy(out, froce_mbox_out(cmdq->blk), out_len);

out_unlock:
	mutex_unlock(&cmdq->lock);
	return err;
}

/* ---- typed commands ---- */

int froce_cmd_query_fw(struct froce_dev *fdev, struct froce_fw_info *fw)
{
	__le32 out[FROCE_CMD_QUERY_FW_OUT_SIZE / 4];
	int err;

	err = froce_cmd_exec(fdev, FROCE_CMD_QUERY_FW, NULL, 0, out,
			     sizeof(out));
	if (err)
		return err;

	fw->major = FROCE_GET_DW(out, FROCE_CMD_QUERY_FW_OUT_VER_MAJOR);
	fw->minor = FROCE_GET_DW(out, FROCE_CMD_QUERY_FW_OUT_VER_MINOR);
	fw->patch = FROCE_GET_DW(out, FROCE_CMD_QUERY_FW_OUT_VER_PATCH);
	fw->spec_hash = FROCE_GET_DW(out, FROCE_CMD_QUERY_FW_OUT_SPEC_HASH);
	fw->build_id = FROCE_GET_DW(out, FROCE_CMD_QUERY_FW_OUT_BUILD_ID);
	return 0;
}

int froce_cmd_query_caps(struct froce_dev *fdev, struct froce_caps *caps)
{
	__le64 out[FROCE_CMD_QUERY_CAPS_OUT_SIZE / 8];
	int err;

	err = froce_cmd_exec(fdev, FROCE_CMD_QUERY_CAPS, NULL, 0, out,
			     sizeof(out));
	if (err)
		return err;

	caps->max_qp = FROCE_GET_DW(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_QP);
	caps->max_cq = FROCE_GET_DW(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_CQ);
	caps->max_pd = FROCE_GET_DW(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_PD);
	caps->max_mr = FROCE_GET_DW(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_MR);
	caps->max_mtt = FROCE_GET_DW(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_MTT);
	caps->max_cqe = FROCE_GET_DW(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_CQE);
	caps->max_qp_wr = FROCE_GET_DW(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_QP_WR);
	caps->max_send_sge =
		FROCE_GET_DW(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_SEND_SGE);
	caps->max_recv_sge =
		FROCE_GET_DW(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_RECV_SGE);
	caps->max_inline =
		FROCE_GET_DW(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_INLINE);
	caps->max_eq = FROCE_GET_DW(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_EQ);
	caps->num_gid = FROCE_GET_DW(out, FROCE_CMD_QUERY_CAPS_OUT_NUM_GID);
	caps->max_qp_rd_atom =
		FROCE_GET_DW(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_QP_RD_ATOM);
	caps->max_qp_init_rd_atom =
		FROCE_GET_DW(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_QP_INIT_RD_ATOM);
	caps->max_mtu = FROCE_GET_DW(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_MTU);
	caps->num_ports = FROCE_GET_DW(out, FROCE_CMD_QUERY_CAPS_OUT_NUM_PORTS);
	caps->max_msg_sz =
		FROCE_GET_DW(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_MSG_SZ);
	caps->page_size_cap =
		FROCE_GET_DW(out, FROCE_CMD_QUERY_CAPS_OUT_PAGE_SIZE_CAP);
	caps->local_dma_lkey =
		FROCE_GET_DW(out, FROCE_CMD_QUERY_CAPS_OUT_LOCAL_DMA_LKEY);
	caps->max_uar = FROCE_GET_DW(out, FROCE_CMD_QUERY_CAPS_OUT_MAX_UAR);
	caps->max_mr_size = FROCE_GET_QW(out,
					 FROCE_CMD_QUERY_CAPS_OUT_MAX_MR_SIZE);
	return 0;
}

int froce_cmd_query_port(struct froce_dev *fdev, u8 port,
			 struct froce_port_attr *attr)
{
	__le64 in[FROCE_CMD_QUERY_PORT_IN_SIZE / 8] = {};
	__le64 out[FROCE_CMD_QUERY_PORT_OUT_SIZE / 8];
	u64 mac;
	int err;

	FROCE_SET_DW(in, FROCE_CMD_QUERY_PORT_IN_PORT, port);
	err = froce_cmd_exec(fdev, FROCE_CMD_QUERY_PORT, in, sizeof(in), out,
			     sizeof(out));
	if (err)
		return err;

	attr->state = FROCE_GET_DW(out, FROCE_CMD_QUERY_PORT_OUT_STATE);
	attr->active_mtu = FROCE_GET_DW(out,
					FROCE_CMD_QUERY_PORT_OUT_ACTIVE_MTU);
	attr->max_mtu = FROCE_GET_DW(out, FROCE_CMD_QUERY_PORT_OUT_MAX_MTU);
	attr->speed_gbps = FROCE_GET_DW(out,
					FROCE_CMD_QUERY_PORT_OUT_SPEED_GBPS);
	attr->mtu = FROCE_GET_DW(out, FROCE_CMD_QUERY_PORT_OUT_MTU);
	/* MAC: low 48 bits of the qword, first octet in bits 47:40 */
	mac = FROCE_GET_QW(out, FROCE_CMD_QUERY_PORT_OUT_MAC);
	u64_to_ether_addr(mac, attr->mac);
	return 0;
}

int froce_cmd_set_port(struct froce_dev *fdev,
		       const struct froce_port_cfg *cfg)
{
	__le64 in[FROCE_CMD_SET_PORT_IN_SIZE / 8];

	froce_set_port_encode(in, cfg->port, ether_addr_to_u64(cfg->mac),
			      cfg->mtu, cfg->promisc, cfg->allmulti);
	return froce_cmd_exec(fdev, FROCE_CMD_SET_PORT, in, sizeof(in), NULL,
			      0);
}

int froce_cmd_add_gid(struct froce_dev *fdev,
		      const struct froce_gid_entry *ent)
{
	__le64 in[FROCE_CMD_ADD_GID_IN_SIZE / 8] = {};

	FROCE_SET_DW(in, FROCE_CMD_ADD_GID_IN_INDEX, ent->index);
	FROCE_SET_DW(in, FROCE_CMD_ADD_GID_IN_TYPE, ent->type);
	FROCE_SET_DW(in, FROCE_CMD_ADD_GID_IN_VLAN_EN, ent->vlan_en);
	FROCE_SET_DW(in, FROCE_CMD_ADD_GID_IN_VLAN_ID, ent->vlan_id);
	/* VALID is QUERY_GID output only: the firmware refuses it set */
	FROCE_SET_QW(in, FROCE_CMD_ADD_GID_IN_SMAC,
		     ether_addr_to_u64(ent->smac));
	BUILD_BUG_ON(sizeof(ent->gid) != FROCE_CMD_ADD_GID_IN_GID_BYTES);
	memcpy((u8 *)in + FROCE_CMD_ADD_GID_IN_GID_BYTE, ent->gid,
	       FROCE_CMD_ADD_GID_IN_GID_BYTES);

	return froce_cmd_exec(fdev, FROCE_CMD_ADD_GID, in, sizeof(in), NULL, 0);
}

int froce_cmd_del_gid(struct froce_dev *fdev, u8 index)
{
	__le64 in[FROCE_CMD_DEL_GID_IN_SIZE / 8] = {};

	FROCE_SET_DW(in, FROCE_CMD_DEL_GID_IN_INDEX, index);
	return froce_cmd_exec(fdev, FROCE_CMD_DEL_GID, in, sizeof(in), NULL, 0);
}

int froce_cmd_alloc_pd(struct froce_dev *fdev, u16 uar, u32 *pdn)
{
	__le64 in[FROCE_CMD_ALLOC_PD_IN_SIZE / 8] = {};
	__le64 out[FROCE_CMD_ALLOC_PD_OUT_SIZE / 8];
	int err;

	FROCE_SET_DW(in, FROCE_CMD_ALLOC_PD_IN_UAR, uar);
	err = froce_cmd_exec(fdev, FROCE_CMD_ALLOC_PD, in, sizeof(in), out,
			     sizeof(out));
	if (err)
		return err;
	*pdn = FROCE_GET_DW(out, FROCE_CMD_ALLOC_PD_OUT_PDN);
	return 0;
}

int froce_cmd_dealloc_pd(struct froce_dev *fdev, u32 pdn)
{
	__le64 in[FROCE_CMD_DEALLOC_PD_IN_SIZE / 8] = {};

	FROCE_SET_DW(in, FROCE_CMD_DEALLOC_PD_IN_PDN, pdn);
	return froce_cmd_exec(fdev, FROCE_CMD_DEALLOC_PD, in, sizeof(in),
			      NULL, 0);
}

/*
 * A command image the pure encoder refused: say which command and why, so
 * the log names the field rather than a firmware BAD_PARAM.
 */
static int froce_cmd_enc_failed(struct froce_dev *fdev, u16 opcode, int err)
{
	dev_err(froce_dev_dev(fdev), "%s: input does not fit the command: %d\n",
		froce_cmd_name(opcode), err);
	return err;
}

int froce_cmd_create_eq(struct froce_dev *fdev,
			const struct froce_buf_desc *ring, u32 log_size,
			u32 vector, u32 *eqn)
{
	__le64 in[FROCE_CMD_CREATE_EQ_IN_SIZE / 8] = {};
	__le64 out[FROCE_CMD_CREATE_EQ_OUT_SIZE / 8];
	int err;

	err = froce_enc_create_eq(in, ring, log_size, vector);
	if (err)
		return froce_cmd_enc_failed(fdev, FROCE_CMD_CREATE_EQ, err);
	err = froce_cmd_exec(fdev, FROCE_CMD_CREATE_EQ, in, sizeof(in), out,
			     sizeof(out));
	if (err)
		return err;
	*eqn = FROCE_GET_DW(out, FROCE_CMD_CREATE_EQ_OUT_EQN);
	return 0;
}

int froce_cmd_destroy_eq(struct froce_dev *fdev, u32 eqn)
{
	__le64 in[FROCE_CMD_DESTROY_EQ_IN_SIZE / 8] = {};

	FROCE_SET_DW(in, FROCE_CMD_DESTROY_EQ_IN_EQN, eqn);
	return froce_cmd_exec(fdev, FROCE_CMD_DESTROY_EQ, in, sizeof(in),
			      NULL, 0);
}

int froce_cmd_create_cq(struct froce_dev *fdev,
			const struct froce_buf_desc *ring, u32 log_size,
			u32 eqn, u32 uar, u32 *cqn)
{
	__le64 in[FROCE_CMD_CREATE_CQ_IN_SIZE / 8] = {};
	__le64 out[FROCE_CMD_CREATE_CQ_OUT_SIZE / 8];
	int err;

	err = froce_enc_create_cq(in, ring, log_size, eqn, uar);
	if (err)
		return froce_cmd_enc_failed(fdev, FROCE_CMD_CREATE_CQ, err);
	err = froce_cmd_exec(fdev, FROCE_CMD_CREATE_CQ, in, sizeof(in), out,
			     sizeof(out));
	if (err)
		return err;
	*cqn = FROCE_GET_DW(out, FROCE_CMD_CREATE_CQ_OUT_CQN);
	return 0;
}

int froce_cmd_destroy_cq(struct froce_dev *fdev, u32 cqn)
{
	__le64 in[FROCE_CMD_DESTROY_CQ_IN_SIZE / 8] = {};

	FROCE_SET_DW(in, FROCE_CMD_DESTROY_CQ_IN_CQN, cqn);
	return froce_cmd_exec(fdev, FROCE_CMD_DESTROY_CQ, in, sizeof(in),
			      NULL, 0);
}

int froce_cmd_create_qp(struct froce_dev *fdev,
			const struct froce_create_qp_params *p, u32 *qpn)
{
	__le64 in[FROCE_CMD_CREATE_QP_IN_SIZE / 8] = {};
	__le64 out[FROCE_CMD_CREATE_QP_OUT_SIZE / 8];
	int err;

	err = froce_enc_create_qp(in, p);
	if (err)
		return froce_cmd_enc_failed(fdev, FROCE_CMD_CREATE_QP, err);
	err = froce_cmd_exec(fdev, FROCE_CMD_CREATE_QP, in, sizeof(in), out,
			     sizeof(out));
	if (err)
		return err;
	*qpn = FROCE_GET_DW(out, FROCE_CMD_CREATE_QP_OUT_QPN);
	return 0;
}

int froce_cmd_modify_qp(struct froce_dev *fdev, u32 qpn,
			const struct froce_qp_attr *a)
{
	__le64 in[FROCE_CMD_MODIFY_QP_IN_SIZE / 8] = {};
	u32 bad_off;
	int err;

	err = froce_enc_modify_qp(in, qpn, a, &bad_off);
	if (err) {
		dev_err_ratelimited(froce_dev_dev(fdev),
				    "MODIFY_QP QPN %#x: attribute mask %#x: %s (input byte %u): %d\n",
				    qpn, a->mask,
				    err == -EOPNOTSUPP ? "unsupported bits" :
				    "value out of range", bad_off, err);
		return err;
	}
	return froce_cmd_exec(fdev, FROCE_CMD_MODIFY_QP, in, sizeof(in),
			      NULL, 0);
}

int froce_cmd_query_qp(struct froce_dev *fdev, u32 qpn,
		       struct froce_qp_attr *a)
{
	__le64 in[FROCE_CMD_QUERY_QP_IN_SIZE / 8] = {};
	__le64 out[FROCE_CMD_QUERY_QP_OUT_SIZE / 8];
	int err;

	FROCE_SET_DW(in, FROCE_CMD_QUERY_QP_IN_QPN, qpn);
	err = froce_cmd_exec(fdev, FROCE_CMD_QUERY_QP, in, sizeof(in), out,
			     sizeof(out));
	if (err)
		return err;
	froce_dec_query_qp(out, a);
	return 0;
}

int froce_cmd_destroy_qp(struct froce_dev *fdev, u32 qpn)
{
	__le64 in[FROCE_CMD_DESTROY_QP_IN_SIZE / 8] = {};

	FROCE_SET_DW(in, FROCE_CMD_DESTROY_QP_IN_QPN, qpn);
	return froce_cmd_exec(fdev, FROCE_CMD_DESTROY_QP, in, sizeof(in),
			      NULL, 0);
}

int froce_cmd_reg_mr(struct froce_dev *fdev,
		     const struct froce_reg_mr_params *p, u32 *lkey, u32 *rkey)
{
	__le64 in[FROCE_CMD_REG_MR_IN_SIZE / 8] = {};
	__le64 out[FROCE_CMD_REG_MR_OUT_SIZE / 8];
	int err;

	err = froce_enc_reg_mr(in, p);
	if (err)
		return froce_cmd_enc_failed(fdev, FROCE_CMD_REG_MR, err);
	err = froce_cmd_exec(fdev, FROCE_CMD_REG_MR, in, sizeof(in), out,
			     sizeof(out));
	if (err)
		return err;
	*lkey = FROCE_GET_DW(out, FROCE_CMD_REG_MR_OUT_LKEY);
	*rkey = FROCE_GET_DW(out, FROCE_CMD_REG_MR_OUT_RKEY);
	return 0;
}

int froce_cmd_dereg_mr(struct froce_dev *fdev, u32 lkey)
{
	__le64 in[FROCE_CMD_DEREG_MR_IN_SIZE / 8] = {};

	FROCE_SET_DW(in, FROCE_CMD_DEREG_MR_IN_LKEY, lkey);
	return froce_cmd_exec(fdev, FROCE_CMD_DEREG_MR, in, sizeof(in),
			      NULL, 0);
}
