// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * froce: the ib_device. Registration, device and port queries, the RoCE GID
 * table (ADD_GID/DEL_GID), user contexts with their UAR page (BAR2, or a
 * shadow page bound through BAR0 UAR_SHADOW_* under simulation), the
 * completion EQs, asynchronous events from EQ 0, counters (hw_counters and
 * PMA PortCounters through process_mad). The verb objects are in
 * froce_verbs.c.
 */

#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <net/addrconf.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_pma.h>
#include <rdma/uverbs_ioctl.h>

#include "froce_ib.h"
#include "uapi/froce-abi.h"

/* ---- completion EQs ---- */

static void froce_ceq_event(struct froce_ceq *ceq, const __le32 *eqe)
{
	struct froce_ibdev *fib = ceq->ibdev;
	u32 type = FROCE_GET_DW(eqe, FROCE_EQE_TYPE);
	u32 id = FROCE_GET_DW(eqe, FROCE_EQE_ID);
	struct froce_cq *cq;

	if (type != FROCE_EQE_TYPE_COMPLETION) {
		dev_warn_ratelimited(froce_ibdev_dev(fib),
				     "EQ %u: unexpected EQE type %#x id %#x\n",
				     ceq->eqn, type, id);
		return;
	}
	/* destroy_cq erases the CQ, then waits for this handler */
	cq = xa_load(&fib->cqs, id);
	if (!cq) {
		dev_dbg(froce_ibdev_dev(fib),
			"EQ %u: completion for unknown CQ %#x\n", ceq->eqn, id);
		return;
	}
	if (cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
}

static irqreturn_t froce_ceq_irq(int irq, void *data)
{
	struct froce_ceq *ceq = data;
	struct froce_eq *eq = &ceq->eq;
	u32 mask = (1U << eq->log_size) - 1;
	unsigned int n;

	/* before CREATE_EQ returned there is no EQN to report to */
	if (!smp_load_acquire(&ceq->created))
		return IRQ_HANDLED;

	for (n = 0; n < FROCE_EQ_BUDGET; n++) {
		const __le32 *eqe = eq->ring + (eq->ci & mask) * FROCE_EQE_SIZE;

		if (!froce_eqe_valid(eqe, eq->ci, eq->log_size))
			break;
		/* OWNER is written last: read the rest only after it */
		dma_rmb();
		froce_ceq_event(ceq, eqe);
		eq->ci++;
	}
	froce_eq_doorbell(ceq->ibdev->fdev, ceq->eqn, eq->ci, true);
	return IRQ_HANDLED;
}

static int froce_ceq_create(struct froce_ibdev *fib, struct froce_ceq *ceq,
			    u32 vector)
{
	struct froce_dev *fdev = fib->fdev;
	struct device *dev = froce_dev_dev(fdev);
	struct froce_eq *eq = &ceq->eq;
	struct froce_buf_desc ring = {};
	size_t size;
	int err;

	ceq->ibdev = fib;
	ceq->vector = vector;
	eq->log_size = FROCE_CEQ_LOG_SIZE;
	eq->ci = 0;
	size = FROCE_EQE_SIZE << eq->log_size;
	eq->ring = dma_alloc_coherent(dev, size, &eq->ring_dma, GFP_KERNEL);
	if (!eq->ring)
		return -ENOMEM;

	eq->irq = pci_irq_vector(fdev->pdev, vector);
	if (eq->irq < 0) {
		err = eq->irq;
		goto err_free_ring;
	}
	snprintf(ceq->name, sizeof(ceq->name), FROCE_DRV_NAME "-comp%u@%s",
		 vector - FROCE_VEC_COMP0, pci_name(fdev->pdev));
	/*
	 * The IRQ first, as for EQ 0; the handler does nothing until
	 * CREATE_EQ has given the EQN (created).
	 */
	ceq->eqn = 0;
	WRITE_ONCE(ceq->created, false);
	err = request_irq(eq->irq, froce_ceq_irq, 0, ceq->name, ceq);
	if (err) {
		dev_err(dev, "request_irq for completion vector %u: %d\n",
			vector, err);
		goto err_free_ring;
	}

	ring.addr = eq->ring_dma;
	ring.num_pages = DIV_ROUND_UP(size, FROCE_RING_PAGE_SIZE);
	ring.page_shift = FROCE_RING_PAGE_SHIFT;
	ring.level = FROCE_BUF_LEVEL_CONTIG;
	err = froce_cmd_create_eq(fdev, &ring, eq->log_size, vector, &ceq->eqn);
	if (err) {
		dev_err(dev, "CREATE_EQ (2^%u EQEs, vector %u) failed: %d\n",
			eq->log_size, vector, err);
		goto err_free_irq;
	}
	/* the EQN before the flag, for the handler */
	smp_store_release(&ceq->created, true);
	eq->enabled = true;
	froce_eq_doorbell(fdev, ceq->eqn, eq->ci, true);
	return 0;

err_free_irq:
	free_irq(eq->irq, ceq);
	if (READ_ONCE(fdev->cmdq.dead)) {
		/* the EQ may exist after all: leave the ring to it */
		dev_err(dev, "mailbox dead: leaking the EQ ring\n");
		eq->ring = NULL;
		return err;
	}
err_free_ring:
	dma_free_coherent(dev, size, eq->ring, eq->ring_dma);
	eq->ring = NULL;
	return err;
}

static void froce_ceq_destroy(struct froce_ibdev *fib, struct froce_ceq *ceq)
{
	struct froce_dev *fdev = fib->fdev;
	struct device *dev = froce_dev_dev(fdev);
	struct froce_eq *eq = &ceq->eq;
	int err;

	err = froce_cmd_destroy_eq(fdev, ceq->eqn);
	free_irq(eq->irq, ceq);
	eq->enabled = false;
	WRITE_ONCE(ceq->created, false);
	if (err) {
		dev_err(dev, "DESTROY_EQ %u failed (%d): leaking its ring\n",
			ceq->eqn, err);
	} else {
		dma_free_coherent(dev, FROCE_EQE_SIZE << eq->log_size,
				  eq->ring, eq->ring_dma);
	}
	eq->ring = NULL;
}

static int froce_ceqs_create(struct froce_ibdev *fib)
{
	struct froce_dev *fdev = fib->fdev;
	u32 n, i;
	int err;

	n = fdev->num_vectors - FROCE_VEC_COMP0;
	/* EQ 0 is one of the firmware's max_eq */
	if (fdev->caps.max_eq > 1)
		n = min_t(u32, n, fdev->caps.max_eq - 1);
	if (!n || fdev->num_vectors <= FROCE_VEC_COMP0) {
		dev_err(froce_dev_dev(fdev),
			"no completion EQ: %d vectors, firmware MAX_EQ %u\n",
			fdev->num_vectors, fdev->caps.max_eq);
		return -ENODEV;
	}
	fib->ceqs = kcalloc(n, sizeof(*fib->ceqs), GFP_KERNEL);
	if (!fib->ceqs)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		err = froce_ceq_create(fib, &fib->ceqs[i], FROCE_VEC_COMP0 + i);
		if (err)
			break;
	}
	/* fewer EQs than vectors still works */
	if (!i) {
		kfree(fib->ceqs);
		fib->ceqs = NULL;
		return err;
	}
	fib->num_ceqs = i;
	return 0;
}

static void froce_ceqs_destroy(struct froce_ibdev *fib)
{
	u32 i;

	for (i = 0; i < fib->num_ceqs; i++)
		froce_ceq_destroy(fib, &fib->ceqs[i]);
	kfree(fib->ceqs);
	fib->ceqs = NULL;
	fib->num_ceqs = 0;
}

/* ---- device and port ---- */

static void froce_get_dev_fw_str(struct ib_device *ibdev, char *str)
{
	struct froce_dev *fdev = to_fibdev(ibdev)->fdev;

	snprintf(str, IB_FW_VERSION_NAME_MAX, "%u.%u.%u", fdev->fw.major,
		 fdev->fw.minor, fdev->fw.patch);
}

static int froce_query_device(struct ib_device *ibdev,
			      struct ib_device_attr *attr,
			      struct ib_udata *udata)
{
	struct froce_ibdev *fib = to_fibdev(ibdev);
	struct froce_dev *fdev = fib->fdev;
	const struct froce_caps *c = &fdev->caps;

	if (udata && (udata->inlen || udata->outlen))
		return -EINVAL;

	memset(attr, 0, sizeof(*attr));
	attr->fw_ver = (u64)fdev->fw.major << 32 | (u64)fdev->fw.minor << 16 |
		       fdev->fw.patch;
	attr->sys_image_guid = ibdev->node_guid;
	attr->max_mr_size = c->max_mr_size;
	attr->page_size_cap = c->page_size_cap &
			      GENMASK(FROCE_MR_PAGE_SHIFT_MAX,
				      FROCE_MR_PAGE_SHIFT_MIN);
	attr->vendor_id = FROCE_PCI_VENDOR_ID;
	attr->vendor_part_id = FROCE_PCI_DEVICE_ID;
	attr->hw_ver = froce_rd32(fdev, FROCE_REG_HW_VERSION);
	attr->max_qp = c->max_qp;
	attr->max_qp_wr = c->max_qp_wr;
	attr->device_cap_flags = IB_DEVICE_RC_RNR_NAK_GEN;
	attr->kernel_cap_flags = IBK_LOCAL_DMA_LKEY;
	attr->max_send_sge = c->max_send_sge;
	attr->max_recv_sge = c->max_recv_sge;
	attr->max_sge_rd = c->max_send_sge;
	attr->max_cq = c->max_cq;
	attr->max_cqe = c->max_cqe;
	attr->max_mr = c->max_mr;
	attr->max_pd = c->max_pd;
	attr->max_qp_rd_atom = c->max_qp_rd_atom;
	attr->max_qp_init_rd_atom = c->max_qp_init_rd_atom;
	attr->max_res_rd_atom = c->max_qp_rd_atom * c->max_qp;
	attr->atomic_cap = (fdev->hw_caps & FROCE_REG_CAPS_ATOMIC_MASK) ?
			   IB_ATOMIC_HCA : IB_ATOMIC_NONE;
	attr->max_ah = c->max_qp;
	attr->max_pkeys = 1;
	attr->local_ca_ack_delay = 16;
	return 0;
}

/* what ib_get_eth_speed() reports for an Ethernet link of @gbps */
static void froce_speed_width(u32 gbps, u16 *speed, u8 *width)
{
	if (gbps <= 1) {
		*width = IB_WIDTH_1X;
		*speed = IB_SPEED_SDR;
	} else if (gbps <= 10) {
		*width = IB_WIDTH_1X;
		*speed = IB_SPEED_FDR10;
	} else if (gbps <= 20) {
		*width = IB_WIDTH_4X;
		*speed = IB_SPEED_DDR;
	} else if (gbps <= 25) {
		*width = IB_WIDTH_1X;
		*speed = IB_SPEED_EDR;
	} else if (gbps <= 40) {
		*width = IB_WIDTH_4X;
		*speed = IB_SPEED_FDR10;
	} else if (gbps <= 100) {
		*width = IB_WIDTH_4X;
		*speed = IB_SPEED_EDR;
	} else {
		*width = IB_WIDTH_4X;
		*speed = IB_SPEED_HDR;
	}
}

static enum ib_mtu froce_max_mtu(struct froce_dev *fdev)
{
	u8 m = fdev->caps.max_mtu;

	return (m >= IB_MTU_256 && m <= IB_MTU_4096) ? m : IB_MTU_4096;
}

static int froce_query_port(struct ib_device *ibdev, u32 port,
			    struct ib_port_attr *attr)
{
	struct froce_ibdev *fib = to_fibdev(ibdev);
	struct froce_dev *fdev = fib->fdev;
	struct net_device *ndev = fdev->netdev;
	struct froce_port_attr pa;
	enum ib_mtu mtu;
	int err;

	err = froce_cmd_query_port(fdev, port, &pa);
	if (err) {
		dev_err_ratelimited(froce_dev_dev(fdev),
				    "QUERY_PORT %u failed: %d\n", port, err);
		return err;
	}

	/* ib_query_port() zeroed *attr */
	attr->state = (pa.state >= IB_PORT_DOWN &&
		       pa.state <= IB_PORT_ACTIVE) ? pa.state : IB_PORT_DOWN;
	if (ndev && (!netif_running(ndev) || !netif_carrier_ok(ndev)))
		attr->state = IB_PORT_DOWN;
	attr->phys_state = attr->state == IB_PORT_ACTIVE ?
			   IB_PORT_PHYS_STATE_LINK_UP :
			   IB_PORT_PHYS_STATE_DISABLED;
	attr->max_mtu = froce_max_mtu(fdev);
	mtu = ndev ? iboe_get_mtu(READ_ONCE(ndev->mtu)) : IB_MTU_256;
	if (!mtu)
		mtu = IB_MTU_256;
	attr->active_mtu = min(mtu, attr->max_mtu);
	attr->gid_tbl_len = fdev->caps.num_gid;
	attr->pkey_tbl_len = 1;
	attr->port_cap_flags = IB_PORT_CM_SUP;
	attr->max_msg_sz = fdev->caps.max_msg_sz;
	attr->bad_pkey_cntr = 0;
	attr->qkey_viol_cntr = 0;
	attr->lid = 0;
	attr->sm_lid = 0;
	attr->lmc = 0;
	attr->max_vl_num = 1;
	attr->ip_gids = true;
	froce_speed_width(pa.speed_gbps, &attr->active_speed,
			  &attr->active_width);
	return 0;
}

static int froce_get_port_immutable(struct ib_device *ibdev, u32 port,
				    struct ib_port_immutable *immutable)
{
	struct froce_dev *fdev = to_fibdev(ibdev)->fdev;

	immutable->pkey_tbl_len = 1;
	immutable->gid_tbl_len = fdev->caps.num_gid;
	if (fdev->hw_caps & FROCE_REG_CAPS_ROCE_V1_MASK)
		immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE |
					    RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP;
	else
		immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

static enum rdma_link_layer froce_get_link_layer(struct ib_device *ibdev,
						 u32 port)
{
	return IB_LINK_LAYER_ETHERNET;
}

static int froce_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
			    u16 *pkey)
{
	if (index)
		return -EINVAL;
	*pkey = IB_DEFAULT_PKEY_FULL;
	return 0;
}

/* ---- GID table ---- */

u8 froce_gid_attr_net_type(const struct ib_gid_attr *attr)
{
	switch (rdma_gid_attr_network_type(attr)) {
	case RDMA_NETWORK_IPV4:
		return FROCE_KIND_ROCE_V2_IPV4;
	case RDMA_NETWORK_IPV6:
		return FROCE_KIND_ROCE_V2_IPV6;
	default:
		return FROCE_KIND_ROCE_V1;
	}
}

static int froce_add_gid(const struct ib_gid_attr *attr, void **context)
{
	struct froce_ibdev *fib = to_fibdev(attr->device);
	struct device *dev = froce_ibdev_dev(fib);
	struct froce_gid_entry ent = {};
	u16 vlan_id = 0xffff;
	int err;

	if (attr->index > U8_MAX)
		return -EINVAL;
	switch (attr->gid_type) {
	case IB_GID_TYPE_ROCE:
		ent.type = FROCE_GID_TYPE_ROCE_V1;
		break;
	case IB_GID_TYPE_ROCE_UDP_ENCAP:
		ent.type = FROCE_GID_TYPE_ROCE_V2;
		break;
	default:
		dev_err(dev, "GID %u: type %d is not RoCE\n", attr->index,
			attr->gid_type);
		return -EINVAL;
	}
	err = rdma_read_gid_l2_fields(attr, &vlan_id, ent.smac);
	if (err) {
		dev_err(dev, "GID %u: no L2 fields: %d\n", attr->index, err);
		return err;
	}
	ent.index = attr->index;
	ent.vlan_en = vlan_id < VLAN_N_VID;
	ent.vlan_id = ent.vlan_en ? vlan_id : 0;
	memcpy(ent.gid, attr->gid.raw, sizeof(ent.gid));

	err = froce_cmd_add_gid(fib->fdev, &ent);
	if (err)
		dev_err(dev, "ADD_GID index %u type %u %pI6 vlan %d: %d\n",
			ent.index, ent.type, ent.gid,
			ent.vlan_en ? ent.vlan_id : -1, err);
	return err;
}

static int froce_del_gid(const struct ib_gid_attr *attr, void **context)
{
	struct froce_ibdev *fib = to_fibdev(attr->device);
	int err;

	if (attr->index > U8_MAX)
		return -EINVAL;
	err = froce_cmd_del_gid(fib->fdev, attr->index);
	if (err)
		dev_err(froce_ibdev_dev(fib), "DEL_GID index %u: %d\n",
			attr->index, err);
	return err;
}

/* ---- user contexts ---- */

static bool froce_shadow_uar(struct froce_dev *fdev)
{
	return fdev->hw_caps & FROCE_REG_CAPS_UAR_SHADOW_MASK;
}

static void froce_shadow_bind(struct froce_dev *fdev, u32 uar, dma_addr_t a)
{
	froce_wr32(fdev, FROCE_REG_UAR_SHADOW_INDEX,
		   FIELD_PREP(FROCE_REG_UAR_SHADOW_INDEX_INDEX_MASK, uar));
	froce_wr32(fdev, FROCE_REG_UAR_SHADOW_ADDR_LO, lower_32_bits(a));
	/* ADDR_HI commits the binding; 0 unbinds */
	froce_wr32(fdev, FROCE_REG_UAR_SHADOW_ADDR_HI, upper_32_bits(a));
}

int froce_uctx_alloc_slot(struct froce_ucontext *uctx, u32 *slot)
{
	int s = ida_alloc_max(&uctx->slot_ida, FROCE_UAR_DB_SLOTS - 1,
			      GFP_KERNEL);

	if (s < 0)
		return s == -ENOSPC ? -ENOMEM : s;
	*slot = s;
	return 0;
}

/* zero the slot (TYPE 0: ignored) so a new queue starts from a clean one */
void froce_uctx_free_slot(struct froce_ibdev *fib, struct froce_ucontext *uctx,
			  u32 slot)
{
	if (uctx->shadow) {
		u64 *p = page_address(uctx->shadow);

		WRITE_ONCE(p[slot], 0);
	} else if (fib->fdev->bar2) {
		writeq(0, fib->fdev->bar2 +
			  ((size_t)uctx->uar << FROCE_UAR_PAGE_SHIFT) + 8 * slot);
	}
	ida_free(&uctx->slot_ida, slot);
}

static int froce_alloc_ucontext(struct ib_ucontext *ibuctx,
				struct ib_udata *udata)
{
	struct froce_ucontext *uctx = to_fuctx(ibuctx);
	struct froce_ibdev *fib = to_fibdev(ibuctx->device);
	struct froce_dev *fdev = fib->fdev;
	struct device *dev = froce_dev_dev(fdev);
	struct froce_ib_alloc_ucontext_resp resp = {};
	struct froce_ib_alloc_ucontext_req req = {};
	struct froce_user_mmap_entry *entry;
	int uar, err;

	if (udata->inlen) {
		err = ib_copy_from_udata(&req, udata,
					 min(sizeof(req), udata->inlen));
		if (err)
			return err;
		if (req.comp_mask || req.reserved)
			return -EOPNOTSUPP;
	}
	if (PAGE_SIZE != 1UL << FROCE_UAR_PAGE_SHIFT) {
		dev_err(dev, "UAR pages are 4 KiB, CPU pages %lu bytes\n",
			PAGE_SIZE);
		return -EOPNOTSUPP;
	}
	if (!froce_shadow_uar(fdev) && !fdev->bar2) {
		dev_err(dev, "no UAR pages in BAR2\n");
		return -ENODEV;
	}
	if (fib->num_uar < 2) {
		dev_err(dev, "%u UAR pages: none for user contexts\n",
			fib->num_uar);
		return -ENOMEM;
	}
	uar = ida_alloc_range(&fib->uar_ida, 1, fib->num_uar - 1, GFP_KERNEL);
	if (uar < 0) {
		dev_err_ratelimited(dev, "all %u user UAR pages taken\n",
				    fib->num_uar - 1);
		return uar == -ENOSPC ? -ENOMEM : uar;
	}
	uctx->uar = uar;
	ida_init(&uctx->slot_ida);

	entry = kzalloc(sizeof(*entry), GFP_KERNEL);
	if (!entry) {
		err = -ENOMEM;
		goto err_uar;
	}
	if (froce_shadow_uar(fdev)) {
		uctx->shadow = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!uctx->shadow) {
			err = -ENOMEM;
			goto err_entry;
		}
		uctx->shadow_dma = dma_map_page(dev, uctx->shadow, 0,
						PAGE_SIZE, DMA_BIDIRECTIONAL);
		if (dma_mapping_error(dev, uctx->shadow_dma)) {
			dev_err(dev, "cannot DMA-map the shadow UAR page\n");
			err = -ENOMEM;
			__free_page(uctx->shadow);
			uctx->shadow = NULL;
			goto err_entry;
		}
		froce_shadow_bind(fdev, uar, uctx->shadow_dma);
		entry->type = FROCE_MMAP_PAGE;
		entry->page = uctx->shadow;
		resp.caps |= FROCE_UCTX_CAP_SHADOW_UAR;
	} else {
		entry->type = FROCE_MMAP_IO;
		entry->pfn = PHYS_PFN(pci_resource_start(fdev->pdev, 2)) + uar;
	}
	/* from here the page belongs to the entry (froce_mmap_free) */
	err = rdma_user_mmap_entry_insert(ibuctx, &entry->rdma_entry,
					  PAGE_SIZE);
	if (err) {
		if (uctx->shadow) {
			froce_shadow_bind(fdev, uar, 0);
			dma_unmap_page(dev, uctx->shadow_dma, PAGE_SIZE,
				       DMA_BIDIRECTIONAL);
			__free_page(uctx->shadow);
			uctx->shadow = NULL;
		}
		goto err_entry;
	}
	uctx->uar_entry = &entry->rdma_entry;

	resp.uar_mmap_key = rdma_user_mmap_get_offset(uctx->uar_entry);
	resp.uar_index = uar;
	resp.db_slots = FROCE_UAR_DB_SLOTS;
	resp.max_sq_wr = fdev->caps.max_qp_wr ?
			 rounddown_pow_of_two(fdev->caps.max_qp_wr) : 0;
	resp.max_cqe = fdev->caps.max_cqe ?
		       rounddown_pow_of_two(fdev->caps.max_cqe) : 0;
	resp.max_send_sge = fdev->caps.max_send_sge;
	resp.max_recv_sge = fdev->caps.max_recv_sge;
	resp.max_inline = fdev->caps.max_inline;
	err = ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
	if (err)
		goto err_remove;
	return 0;

err_remove:
	if (uctx->shadow) {
		froce_shadow_bind(fdev, uar, 0);
		dma_unmap_page(dev, uctx->shadow_dma, PAGE_SIZE,
			       DMA_BIDIRECTIONAL);
		uctx->shadow = NULL;	/* freed by froce_mmap_free */
	}
	rdma_user_mmap_entry_remove(uctx->uar_entry);
	ida_destroy(&uctx->slot_ida);
	ida_free(&fib->uar_ida, uar);
	return err;

err_entry:
	kfree(entry);
err_uar:
	ida_destroy(&uctx->slot_ida);
	ida_free(&fib->uar_ida, uar);
	return err;
}

static void froce_dealloc_ucontext(struct ib_ucontext *ibuctx)
{
	struct froce_ucontext *uctx = to_fuctx(ibuctx);
	struct froce_ibdev *fib = to_fibdev(ibuctx->device);
	struct froce_dev *fdev = fib->fdev;

	/* unbind before the page index can go to another context */
	if (uctx->shadow) {
		froce_shadow_bind(fdev, uctx->uar, 0);
		/* a read flushes the posted unbind before the unmap */
		froce_rd32(fdev, FROCE_REG_UAR_SHADOW_INDEX);
		dma_unmap_page(froce_dev_dev(fdev), uctx->shadow_dma, PAGE_SIZE,
			       DMA_BIDIRECTIONAL);
		uctx->shadow = NULL;
	}
	/* the page itself goes when the last mapping does (mmap_free) */
	rdma_user_mmap_entry_remove(uctx->uar_entry);
	ida_destroy(&uctx->slot_ida);
	ida_free(&fib->uar_ida, uctx->uar);
}

static int froce_mmap(struct ib_ucontext *ibuctx, struct vm_area_struct *vma)
{
	struct froce_ibdev *fib = to_fibdev(ibuctx->device);
	struct rdma_user_mmap_entry *rdma_entry;
	struct froce_user_mmap_entry *entry;
	int err;

	/* checks VM_SHARED and that the length is the entry's */
	rdma_entry = rdma_user_mmap_entry_get(ibuctx, vma);
	if (!rdma_entry) {
		dev_dbg(froce_ibdev_dev(fib), "mmap: no entry at pgoff %#lx\n",
			vma->vm_pgoff);
		return -EINVAL;
	}
	entry = container_of(rdma_entry, struct froce_user_mmap_entry,
			     rdma_entry);
	switch (entry->type) {
	case FROCE_MMAP_IO:
		err = rdma_user_mmap_io(ibuctx, vma, entry->pfn, PAGE_SIZE,
					pgprot_noncached(vma->vm_page_prot),
					rdma_entry);
		break;
	case FROCE_MMAP_PAGE:
		vma->vm_flags |= VM_DONTEXPAND | VM_DONTDUMP;
		err = vm_insert_page(vma, vma->vm_start, entry->page);
		break;
	default:
		err = -EINVAL;
		break;
	}
	if (err)
		dev_err(froce_ibdev_dev(fib), "mmap of the UAR page: %d\n",
			err);
	rdma_user_mmap_entry_put(rdma_entry);
	return err;
}

static void froce_mmap_free(struct rdma_user_mmap_entry *rdma_entry)
{
	struct froce_user_mmap_entry *entry =
		container_of(rdma_entry, struct froce_user_mmap_entry,
			     rdma_entry);

	if (entry->type == FROCE_MMAP_PAGE)
		__free_page(entry->page);
	kfree(entry);
}

/*
 * On device removal with contexts open: ib core destroys their objects and
 * zaps rdma_user_mmap_io() mappings itself; a shadow page stays mapped but
 * referenced by the VMA, and is unbound in dealloc_ucontext.
 */
static void froce_disassociate_ucontext(struct ib_ucontext *ibuctx)
{
}

/* ---- counters ---- */

/* FROCE_COUNTER_LIST is in index order */
#define FROCE_STAT_DESC(NAME, str) { .name = #str },
static const struct rdma_stat_desc froce_stat_descs[] = {
	FROCE_COUNTER_LIST(FROCE_STAT_DESC)
};

#undef FROCE_STAT_DESC

static void froce_read_counters(struct froce_ibdev *fib, u64 *val)
{
	u32 i;

	/* process context only (sysfs, netlink); 80 MMIO reads */
	for (i = 0; i < FROCE_CNT_NUM; i++)
		val[i] = froce_rd_counter64(fib->fdev,
					    FROCE_BAR0_COUNTERS_BASE + 8 * i);
}

static struct rdma_hw_stats *froce_alloc_hw_port_stats(struct ib_device *ibdev,
						       u32 port)
{
	BUILD_BUG_ON(ARRAY_SIZE(froce_stat_descs) != FROCE_CNT_NUM);
	BUILD_BUG_ON(8 * FROCE_CNT_NUM > FROCE_BAR0_COUNTERS_SIZE);
	return rdma_alloc_hw_stats_struct(froce_stat_descs, FROCE_CNT_NUM,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

static int froce_get_hw_stats(struct ib_device *ibdev,
			      struct rdma_hw_stats *stats, u32 port, int index)
{
	if (stats->num_counters != FROCE_CNT_NUM)
		return -EINVAL;
	froce_read_counters(to_fibdev(ibdev), stats->value);
	return stats->num_counters;
}

static __be32 froce_be32_sat(u64 v)
{
	return cpu_to_be32(min_t(u64, v, U32_MAX));
}

static __be16 froce_be16_sat(u64 v)
{
	return cpu_to_be16(min_t(u64, v, U16_MAX));
}

/*
 * Performance management GETs (ClassPortInfo, PortCounters,
 * PortCountersExt) from the device counters: what makes
 * /sys/class/infiniband/<dev>/ports/1/counters/ and answers perfquery.
 * Everything else is left to the MAD layer.
 */
static int froce_process_mad(struct ib_device *ibdev, int mad_flags,
			     u32 port, const struct ib_wc *in_wc,
			     const struct ib_grh *in_grh,
			     const struct ib_mad *in, struct ib_mad *out,
			     size_t *out_mad_size, u16 *out_mad_pkey_index)
{
	struct froce_ibdev *fib = to_fibdev(ibdev);
	struct ib_pma_mad *pma = (struct ib_pma_mad *)out;
	u64 cnt[FROCE_CNT_NUM];

	if (in->mad_hdr.mgmt_class != IB_MGMT_CLASS_PERF_MGMT ||
	    in->mad_hdr.method != IB_MGMT_METHOD_GET)
		return IB_MAD_RESULT_SUCCESS;

	memcpy(out, in, sizeof(*out));
	out->mad_hdr.method = IB_MGMT_METHOD_GET_RESP;
	out->mad_hdr.status = 0;
	memset(pma->data, 0, sizeof(pma->data));

	switch (in->mad_hdr.attr_id) {
	case IB_PMA_CLASS_PORT_INFO: {
		struct ib_class_port_info *cpi = (void *)pma->data;

		cpi->base_version = IB_MGMT_BASE_VERSION;
		cpi->class_version = 1;
		cpi->capability_mask = IB_PMA_CLASS_CAP_EXT_WIDTH;
		break;
	}
	case IB_PMA_PORT_COUNTERS: {
		struct ib_pma_portcounters *pc = (void *)pma->data;

		froce_read_counters(fib, cnt);
		pc->port_select = port;
		pc->link_downed_counter =
			min_t(u64, cnt[FROCE_CNT_LINK_DOWNED], U8_MAX);
		pc->port_rcv_errors =
			froce_be16_sat(cnt[FROCE_CNT_RX_ICRC_ENCAPSULATED] +
				       cnt[FROCE_CNT_RX_IP_CSUM_ERRORS] +
				       cnt[FROCE_CNT_RX_BAD_PKTS]);
		/* data counters count 4-byte words */
		pc->port_xmit_data =
			froce_be32_sat(cnt[FROCE_CNT_SENT_BYTES] >> 2);
		pc->port_rcv_data =
			froce_be32_sat(cnt[FROCE_CNT_RCVD_BYTES] >> 2);
		pc->port_xmit_packets =
			froce_be32_sat(cnt[FROCE_CNT_SENT_PKTS]);
		pc->port_rcv_packets =
			froce_be32_sat(cnt[FROCE_CNT_RCVD_PKTS]);
		break;
	}
	case IB_PMA_PORT_COUNTERS_EXT: {
		struct ib_pma_portcounters_ext *pe = (void *)pma->data;

		froce_read_counters(fib, cnt);
		pe->port_select = port;
		pe->port_xmit_data =
			cpu_to_be64(cnt[FROCE_CNT_SENT_BYTES] >> 2);
		pe->port_rcv_data = cpu_to_be64(cnt[FROCE_CNT_RCVD_BYTES] >> 2);
		pe->port_xmit_packets = cpu_to_be64(cnt[FROCE_CNT_SENT_PKTS]);
		pe->port_rcv_packets = cpu_to_be64(cnt[FROCE_CNT_RCVD_PKTS]);
		break;
	}
	default:
		out->mad_hdr.status =
			cpu_to_be16(IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB);
		break;
	}
	return IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY;
}

/* ---- asynchronous events (EQ 0, hard IRQ) ---- */

static int froce_qp_ev(u32 subtype, enum ib_event_type *ev)
{
	switch (subtype) {
	case FROCE_QP_EV_COMM_EST:
		*ev = IB_EVENT_COMM_EST;
		return 0;
	case FROCE_QP_EV_SQ_DRAINED:
		*ev = IB_EVENT_SQ_DRAINED;
		return 0;
	case FROCE_QP_EV_LAST_WQE_REACHED:
		*ev = IB_EVENT_QP_LAST_WQE_REACHED;
		return 0;
	case FROCE_QP_EV_FATAL:
		*ev = IB_EVENT_QP_FATAL;
		return 0;
	case FROCE_QP_EV_REQ_ERR:
		*ev = IB_EVENT_QP_REQ_ERR;
		return 0;
	case FROCE_QP_EV_ACCESS_ERR:
		*ev = IB_EVENT_QP_ACCESS_ERR;
		return 0;
	default:
		return -EINVAL;
	}
}

void froce_ib_async_event(struct froce_dev *fdev, const void *eqe)
{
	struct froce_ibdev *fib = READ_ONCE(fdev->ibdev);
	struct device *dev = froce_dev_dev(fdev);
	u32 type = FROCE_GET_DW(eqe, FROCE_EQE_TYPE);
	u32 subtype = FROCE_GET_DW(eqe, FROCE_EQE_SUBTYPE);
	u32 id = FROCE_GET_DW(eqe, FROCE_EQE_ID);
	struct ib_event ev = {};
	struct froce_qp *qp;
	struct froce_cq *cq;

	if (!fib) {
		dev_dbg(dev, "EQE type %#x subtype %#x id %#x before the ib_device\n",
			type, subtype, id);
		return;
	}
	ev.device = &fib->ibdev;

	switch (type) {
	case FROCE_EQE_TYPE_QP_EVENT:
		if (froce_qp_ev(subtype, &ev.event)) {
			dev_warn_ratelimited(dev, "QP %#x: unknown event %u\n",
					     id, subtype);
			return;
		}
		/* destroy_qp erases the QP, then waits for the EQ 0 IRQ */
		qp = xa_load(&fib->qps, id);
		if (!qp) {
			dev_dbg(dev, "event %u for unknown QP %#x\n", subtype,
				id);
			return;
		}
		if (ev.event != IB_EVENT_COMM_EST)
			dev_warn_ratelimited(dev, "QP %#x: %s\n", id,
					     ib_event_msg(ev.event));
		ev.element.qp = &qp->ibqp;
		if (qp->ibqp.event_handler)
			qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
		break;
	case FROCE_EQE_TYPE_CQ_ERROR:
		cq = xa_load(&fib->cqs, id);
		dev_warn_ratelimited(dev, "CQ %#x: error %s\n", id,
				     subtype == FROCE_CQ_EV_OVERRUN ?
				     "overrun" : "access");
		if (!cq)
			return;
		ev.event = IB_EVENT_CQ_ERR;
		ev.element.cq = &cq->ibcq;
		if (cq->ibcq.event_handler)
			cq->ibcq.event_handler(&ev, cq->ibcq.cq_context);
		break;
	case FROCE_EQE_TYPE_PORT_CHANGE:
		ev.event = subtype == FROCE_PORT_EV_DOWN ? IB_EVENT_PORT_ERR :
							   IB_EVENT_PORT_ACTIVE;
		ev.element.port_num = 1;
		ib_dispatch_event(&ev);
		break;
	default:
		break;
	}
}

/* ---- registration ---- */

static int froce_post_send_nokern(struct ib_qp *qp, const struct ib_send_wr *wr,
				  const struct ib_send_wr **bad_wr)
{
	*bad_wr = wr;
	return -EOPNOTSUPP;
}

static int froce_post_recv_nokern(struct ib_qp *qp, const struct ib_recv_wr *wr,
				  const struct ib_recv_wr **bad_wr)
{
	*bad_wr = wr;
	return -EOPNOTSUPP;
}

static int froce_poll_cq_nokern(struct ib_cq *cq, int num, struct ib_wc *wc)
{
	return -EOPNOTSUPP;
}

static int froce_req_notify_cq_nokern(struct ib_cq *cq,
				      enum ib_cq_notify_flags flags)
{
	return -EOPNOTSUPP;
}

static struct ib_mr *froce_get_dma_mr(struct ib_pd *pd, int access)
{
	return ERR_PTR(-EOPNOTSUPP);
}

/*
 * post_send .. get_dma_mr: kernel QPs and CQs cannot be created yet (no
 * GSI QP), so these never see an object; they exist because ib core treats
 * a device without them as no kernel-verbs provider and then attaches no
 * kernel client (rdma_cm among them).
 */
static const struct ib_device_ops froce_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,
	.uverbs_abi_ver = FROCE_ABI_VERSION,

	.add_gid = froce_add_gid,
	.alloc_hw_port_stats = froce_alloc_hw_port_stats,
	.alloc_pd = froce_alloc_pd,
	.alloc_ucontext = froce_alloc_ucontext,
	.create_ah = froce_create_ah,
	.create_user_ah = froce_create_ah,
	.create_cq = froce_create_cq,
	.create_qp = froce_create_qp,
	.dealloc_pd = froce_dealloc_pd,
	.dealloc_ucontext = froce_dealloc_ucontext,
	.del_gid = froce_del_gid,
	.dereg_mr = froce_dereg_mr,
	.destroy_ah = froce_destroy_ah,
	.destroy_cq = froce_destroy_cq,
	.destroy_qp = froce_destroy_qp,
	.disassociate_ucontext = froce_disassociate_ucontext,
	.get_dev_fw_str = froce_get_dev_fw_str,
	.get_dma_mr = froce_get_dma_mr,
	.get_hw_stats = froce_get_hw_stats,
	.get_link_layer = froce_get_link_layer,
	.get_port_immutable = froce_get_port_immutable,
	.mmap = froce_mmap,
	.mmap_free = froce_mmap_free,
	.modify_qp = froce_modify_qp,
	.poll_cq = froce_poll_cq_nokern,
	.post_recv = froce_post_recv_nokern,
	.post_send = froce_post_send_nokern,
	.process_mad = froce_process_mad,
	.query_device = froce_query_device,
	.query_pkey = froce_query_pkey,
	.query_port = froce_query_port,
	.query_qp = froce_query_qp,
	.reg_user_mr = froce_reg_user_mr,
	.req_notify_cq = froce_req_notify_cq_nokern,

	INIT_RDMA_OBJ_SIZE(ib_ah, froce_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, froce_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_pd, froce_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, froce_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, froce_ucontext, ibucontext),
};

int froce_ib_probe(struct froce_dev *fdev)
{
	struct device *dev = froce_dev_dev(fdev);
	struct froce_ibdev *fib;
	struct ib_device *ibdev;
	int err;

	if (!fdev->netdev) {
		dev_err(dev, "no net_device for port 1: the ib_device needs the netdev (froce_netdev_probe) first\n");
		return -ENODEV;
	}
	if (!fdev->caps.num_gid) {
		dev_err(dev, "QUERY_CAPS: NUM_GID is 0\n");
		return -ENODEV;
	}

	fib = ib_alloc_device(froce_ibdev, ibdev);
	if (!fib)
		return -ENOMEM;
	ibdev = &fib->ibdev;
	fib->fdev = fdev;
	ida_init(&fib->uar_ida);
	xa_init(&fib->cqs);
	xa_init(&fib->qps);
	/* the netdev's address: the port's is 0 until the netdev is opened */
	ether_addr_copy(fib->mac, fdev->netdev->dev_addr);

	fib->num_uar = fdev->num_uar_pages;
	if (!fib->num_uar && (fdev->hw_caps & FROCE_REG_CAPS_UAR_SHADOW_MASK))
		fib->num_uar = fdev->caps.max_uar;
	if (fdev->caps.max_uar)
		fib->num_uar = min_t(u32, fib->num_uar, fdev->caps.max_uar);

	err = froce_ceqs_create(fib);
	if (err)
		goto err_dealloc;

	ibdev->node_type = RDMA_NODE_IB_CA;
	ibdev->phys_port_cnt = 1;
	ibdev->num_comp_vectors = fib->num_ceqs;
	ibdev->local_dma_lkey = fdev->caps.local_dma_lkey;
	ibdev->dev.parent = dev;
	addrconf_addr_eui48((u8 *)&ibdev->node_guid, fib->mac);
	strscpy(ibdev->node_desc, "froce", sizeof(ibdev->node_desc));
	ib_set_device_ops(ibdev, &froce_dev_ops);

	err = ib_device_set_netdev(ibdev, fdev->netdev, 1);
	if (err) {
		dev_err(dev, "ib_device_set_netdev(%s): %d\n",
			netdev_name(fdev->netdev), err);
		goto err_ceqs;
	}

	/* async events find the tables from now on */
	WRITE_ONCE(fdev->ibdev, fib);
	err = ib_register_device(ibdev, "froce%d", dev);
	if (err) {
		dev_err(dev, "ib_register_device: %d\n", err);
		goto err_clear;
	}
	dev_info(dev, "%s on %s: %u completion EQs, %u UAR pages%s\n",
		 dev_name(&ibdev->dev), netdev_name(fdev->netdev),
		 fib->num_ceqs, fib->num_uar,
		 (fdev->hw_caps & FROCE_REG_CAPS_UAR_SHADOW_MASK) ?
		 " (shadow)" : "");
	return 0;

err_clear:
	WRITE_ONCE(fdev->ibdev, NULL);
	synchronize_irq(fdev->eq0.irq);
err_ceqs:
	froce_ceqs_destroy(fib);
err_dealloc:
	xa_destroy(&fib->qps);
	xa_destroy(&fib->cqs);
	ida_destroy(&fib->uar_ida);
	ib_dealloc_device(ibdev);
	return err;
}

void froce_ib_remove(struct froce_dev *fdev)
{
	struct froce_ibdev *fib = fdev->ibdev;

	if (!fib)
		return;
	/* destroys every user object through the verbs below */
	ib_unregister_device(&fib->ibdev);
	WRITE_ONCE(fdev->ibdev, NULL);
	synchronize_irq(fdev->eq0.irq);
	froce_ceqs_destroy(fib);
	if (!xa_empty(&fib->cqs) || !xa_empty(&fib->qps))
		dev_warn(froce_dev_dev(fdev), "CQs or QPs left after unregister\n");
	xa_destroy(&fib->qps);
	xa_destroy(&fib->cqs);
	ida_destroy(&fib->uar_ida);
	ib_dealloc_device(&fib->ibdev);
}
