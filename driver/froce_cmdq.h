/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * froce: the firmware mailbox (BAR0 CMD block, one command at a time) and
 * typed wrappers of its commands.
 */

#ifndef FROCE_CMDQ_H
#define FROCE_CMDQ_H

#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/types.h>

struct froce_dev;
struct froce_buf_desc;
struct froce_create_qp_params;
struct froce_qp_attr;
struct froce_reg_mr_params;

struct froce_cmdq {
	struct froce_dev *fdev;
	struct mutex lock;	/* one command in flight; protects all below */
	void *blk;		/* FROCE_MBOX_SIZE coherent bytes */
	dma_addr_t blk_dma;
	u16 token;		/* token of the next command */
	bool dead;		/* a command timed out: fail fast */
	u32 last_syndrome;	/* SYNDROME of the last refused command */
	bool use_events;	/* ring with EVENT, sleep on @done */
	u16 wait_token;		/* token @done waits for (EQ 0 handler) */
	struct completion done;
};

int froce_cmdq_init(struct froce_dev *fdev);
void froce_cmdq_destroy(struct froce_dev *fdev);
void froce_cmdq_mark_dead(struct froce_dev *fdev);
void froce_cmdq_use_events(struct froce_dev *fdev, bool on);
void froce_cmdq_event(struct froce_dev *fdev, u16 token, u8 status);

int froce_cmd_exec(struct froce_dev *fdev, u16 opcode, const void *in,
		   u32 in_len, void *out, u32 out_len);

struct froce_fw_info {
	u8 major;
	u8 minor;
	u16 patch;
	u32 spec_hash;
	u32 build_id;
};

struct froce_caps {
	u32 max_qp;
	u32 max_cq;
	u32 max_pd;
	u32 max_mr;
	u32 max_mtt;
	u32 max_cqe;
	u16 max_qp_wr;
	u8 max_send_sge;
	u8 max_recv_sge;
	u16 max_inline;
	u8 max_eq;
	u8 num_gid;
	u8 max_qp_rd_atom;
	u8 max_qp_init_rd_atom;
	u8 max_mtu;		/* enum ib_mtu */
	u8 num_ports;
	u32 max_msg_sz;
	u32 page_size_cap;
	u32 local_dma_lkey;
	u16 max_uar;
	u64 max_mr_size;
};

struct froce_port_attr {
	u8 state;		/* FROCE_PORT_STATE_* */
	u8 active_mtu;		/* enum ib_mtu */
	u8 max_mtu;		/* enum ib_mtu */
	u8 speed_gbps;
	u16 mtu;		/* Ethernet MTU */
	u8 mac[6];
};

struct froce_gid_entry {
	u8 index;
	u8 type;		/* FROCE_GID_TYPE_* */
	bool vlan_en;
	u16 vlan_id;
	u8 smac[6];
	u8 gid[16];
};

/* Ethernet parameters of a port (SET_PORT) */
struct froce_port_cfg {
	u8 port;
	u8 mac[6];
	u16 mtu;		/* Ethernet MTU, IP packet bytes */
	bool promisc;
	bool allmulti;
};

int froce_cmd_query_fw(struct froce_dev *fdev, struct froce_fw_info *fw);
int froce_cmd_query_caps(struct froce_dev *fdev, struct froce_caps *caps);
int froce_cmd_query_port(struct froce_dev *fdev, u8 port,
			 struct froce_port_attr *attr);
int froce_cmd_set_port(struct froce_dev *fdev,
		       const struct froce_port_cfg *cfg);
int froce_cmd_add_gid(struct froce_dev *fdev,
		      const struct froce_gid_entry *ent);
int froce_cmd_del_gid(struct froce_dev *fdev, u8 index);
int froce_cmd_alloc_pd(struct froce_dev *fdev, u16 uar, u32 *pdn);
int froce_cmd_dealloc_pd(struct froce_dev *fdev, u32 pdn);
int froce_cmd_create_eq(struct froce_dev *fdev,
			const struct froce_buf_desc *ring, u32 log_size,
			u32 vector, u32 *eqn);
int froce_cmd_destroy_eq(struct froce_dev *fdev, u32 eqn);
int froce_cmd_create_cq(struct froce_dev *fdev,
			const struct froce_buf_desc *ring, u32 log_size,
			u32 eqn, u32 uar, u32 *cqn);
int froce_cmd_destroy_cq(struct froce_dev *fdev, u32 cqn);
int froce_cmd_create_qp(struct froce_dev *fdev,
			const struct froce_create_qp_params *p, u32 *qpn);
int froce_cmd_modify_qp(struct froce_dev *fdev, u32 qpn,
			const struct froce_qp_attr *a);
int froce_cmd_query_qp(struct froce_dev *fdev, u32 qpn,
		       struct froce_qp_attr *a);
int froce_cmd_destroy_qp(struct froce_dev *fdev, u32 qpn);
int froce_cmd_reg_mr(struct froce_dev *fdev,
		     const struct froce_reg_mr_params *p, u32 *lkey, u32 *rkey);
int froce_cmd_dereg_mr(struct froce_dev *fdev, u32 lkey);

#endif /* FROCE_CMDQ_H */
