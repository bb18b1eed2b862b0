// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * froce: the Ethernet netdev on the plain TX/RX descriptor rings (BAR0
 * NETDEV block, rtl/core/froce_netdev.v).
 *
 * Both rings are coherent arrays of 16-byte descriptors. The driver posts a
 * descriptor and writes the free-running producer index to NTX_PI / NRX_PI
 * (posted writes); the hardware reports progress only by writing dword 3 of
 * the descriptor (DONE, ERR, and PKT_LEN for RX), so the hot path never reads
 * BAR0 (an MMIO read costs 20-40 us in the co-simulation).
 *
 * Buffers are per-slot coherent bounce buffers, filled and emptied by
 * memcpy, on both rings. That is the simplest correct choice for this
 * device: it has no checksum offload, no TSO and a 16 KiB store-and-forward
 * FIFO per direction, so every frame is one descriptor of at most one MTU
 * and a copy of it is cheap next to the per-frame doorbell; there is no
 * streaming DMA map/unmap per skb (and nothing to unwind if the device dies
 * with frames in flight), the skb is freed in ndo_start_xmit, padding to
 * ETH_ZLEN is a memset, and an RX buffer is reposted at once at the same
 * address.
 *
 * Interrupt: MSI-X vector FROCE_VEC_NETDEV (NETDEV_IRQ) fires once and stays
 * quiet until NETDEV_ARM is written; writing NETDEV_ARM fires it again at
 * once if a descriptor completed since it last fired. So the handler only
 * schedules NAPI, and the poll writes NETDEV_ARM after napi_complete_done().
 *
 * Link: carrier from LINK_STATUS at open, then from PORT_CHANGE EQEs on EQ 0
 * (froce_netdev_port_event()).
 */

#include <linux/bitfield.h>
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/if_vlan.h>
#include <linux/iopoll.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/sizes.h>
#include <linux/skbuff.h>
#include <linux/u64_stats_sync.h>
#include <linux/workqueue.h>

#include "froce.h"
#include "froce_ndring.h"

/* 2^8 descriptors per ring: 4 KiB of descriptors each */
#define FROCE_ND_TX_LOG		8
#define FROCE_ND_RX_LOG		8
/*
 * MTU range: the firmware's SET_PORT accepts 68..9000 (FW_ETH_MTU_MIN/MAX in
 * firmware/include/fw.h); the RX parser drops frames longer than 9216 bytes
 * (froce_rx_parser MAX_FRAME_BYTES) and the netdev FIFOs hold 16 KiB, so a
 * 9000-byte MTU frame with a VLAN tag (9018 bytes) passes everywhere.
 */
#define FROCE_ND_MIN_MTU	ETH_MIN_MTU
#define FROCE_ND_MAX_MTU	9000
/* bounce buffer slot alignment and the coherent chunk they are cut from */
#define FROCE_ND_BUF_ALIGN	64
#define FROCE_ND_CHUNK		SZ_32K
/* wake a stopped TX queue once this many descriptors are free */
#define FROCE_ND_TX_WAKE	16
/* generous: under co-simulation a frame can take milliseconds */
#define FROCE_ND_TX_TIMEOUT	(15 * HZ)
/* how long a disabled ring may take to report CI = 0 */
#define FROCE_ND_STOP_TIMEOUT_MS	500
#define FROCE_ND_PORT		1

/* driver counters updated by the NAPI poll (names in froce_nd_napi_names) */
struct froce_nd_napi_stats {
	u64 rx_packets;
	u64 rx_bytes;
	u64 rx_errors;		/* NRX_DESC.ERR: the frame's DMA write failed */
	u64 rx_length_errors;	/* PKT_LEN shorter than a header or too long */
	u64 rx_nomem;		/* no skb */
	u64 tx_packets;
	u64 tx_bytes;
	u64 tx_errors;		/* NTX_DESC.ERR: the frame was dropped */
	u64 tx_wake;
	u64 napi_polls;
	u64 irq_arms;
};

static const char * const froce_nd_napi_names[] = {
	"drv_rx_packets", "drv_rx_bytes", "drv_rx_errors",
	"drv_rx_length_errors", "drv_rx_nomem", "drv_tx_packets",
	"drv_tx_bytes", "drv_tx_errors", "drv_tx_wake", "drv_napi_polls",
	"drv_irq_arms",
};

/* driver counters updated by ndo_start_xmit (under the TX queue lock) */
struct froce_nd_xmit_stats {
	u64 tx_dropped;		/* too long for the buffers, or empty */
	u64 tx_busy;		/* NETDEV_TX_BUSY returned */
	u64 tx_stop;		/* queue stopped on a full ring */
};

static const char * const froce_nd_xmit_names[] = {
	"drv_tx_dropped", "drv_tx_busy", "drv_tx_stop",
};

/* the spec's counter names (lower case), in index order */
#define FROCE_ND_CNT_NAME(NAME, name) { #name },
static const struct {
	const char *name;
} froce_cnt_names[] = {
	FROCE_COUNTER_LIST(FROCE_ND_CNT_NAME)
};

#undef FROCE_ND_CNT_NAME

static const char * const froce_icnt_names[] = {
	[FROCE_ICNT_EQES] = "icnt_eqes",
	[FROCE_ICNT_MSIX] = "icnt_msix",
	[FROCE_ICNT_EQ_DROPPED] = "icnt_eq_dropped",
	[FROCE_ICNT_CQ_ARMS] = "icnt_cq_arms",
	[FROCE_ICNT_QKEY_DROPPED] = "icnt_qkey_dropped",
	[FROCE_ICNT_ASYNC_LOST] = "icnt_async_lost",
	[FROCE_ICNT_ADP_RETRANS] = "icnt_adp_retrans",
	[FROCE_ICNT_RX_FILTERED] = "icnt_rx_filtered",
};

#define FROCE_ND_NUM_STATS \
	(ARRAY_SIZE(froce_cnt_names) + ARRAY_SIZE(froce_icnt_names) + \
	 ARRAY_SIZE(froce_nd_napi_names) + ARRAY_SIZE(froce_nd_xmit_names))

struct froce_nd_slot {
	void *buf;		/* buf_size bytes, coherent */
	dma_addr_t dma;
	u32 len;		/* TX: skb bytes in flight (stats, BQL) */
};

struct froce_nd_chunk {
	void *va;
	dma_addr_t dma;
};

struct froce_nd_ring {
	void *desc;		/* 2^log descriptors of 16 bytes, coherent */
	dma_addr_t desc_dma;
	u32 log;
	u32 size;
	u32 head;		/* descriptors posted, free-running */
	u32 tail;		/* descriptors completed, free-running */
	u32 buf_size;		/* bytes of each slot's buffer */
	struct froce_nd_slot *slot;
	struct froce_nd_chunk *chunk;
	u32 nchunks;
	u32 chunk_size;
};

struct froce_nd {
	struct froce_dev *fdev;
	struct net_device *netdev;
	struct napi_struct napi;
	int irq;
	bool running;		/* rings set up (ndo_open done); rtnl */
	bool promisc;		/* PROMISC last sent with SET_PORT; rtnl */

	struct froce_nd_ring tx;
	struct froce_nd_ring rx;

	spinlock_t link_lock;	/* carrier updates vs. open/stop */
	bool link_track;	/* PORT_CHANGE events drive the carrier */

	struct work_struct rx_mode_work;

	struct u64_stats_sync nsync;
	struct froce_nd_napi_stats nstats;
	struct u64_stats_sync xsync;
	struct froce_nd_xmit_stats xstats;
};

static void *froce_nd_desc(struct froce_nd_ring *r, u32 idx)
{
	return r->desc + froce_ring_slot(idx, r->size) * FROCE_NTX_DESC_SIZE;
}

/* ---- rings ---- */

static u32 froce_nd_buf_size(u32 mtu)
{
	/* the largest frame: MTU, Ethernet header and one VLAN tag (no FCS) */
	return ALIGN(mtu + VLAN_ETH_HLEN, FROCE_ND_BUF_ALIGN);
}

static void froce_nd_ring_free(struct froce_nd *nd, struct froce_nd_ring *r,
			       bool release_dma)
{
	struct device *dma = froce_dev_dev(nd->fdev);
	u32 i;

	if (r->chunk && release_dma) {
		for (i = 0; i < r->nchunks; i++)
			if (r->chunk[i].va)
				dma_free_coherent(dma, r->chunk_size,
						  r->chunk[i].va,
						  r->chunk[i].dma);
	}
	if (r->desc && release_dma)
		dma_free_coherent(dma, r->size * FROCE_NTX_DESC_SIZE, r->desc,
				  r->desc_dma);
	kfree(r->chunk);
	kfree(r->slot);
	memset(r, 0, sizeof(*r));
}

static int froce_nd_ring_alloc(struct froce_nd *nd, struct froce_nd_ring *r,
			       const char *what, u32 log, u32 buf_size)
{
	struct device *dma = froce_dev_dev(nd->fdev);
	u32 i, per_chunk;

	memset(r, 0, sizeof(*r));
	r->log = log;
	r->size = 1U << log;
	r->buf_size = buf_size;
	r->chunk_size = max_t(u32, FROCE_ND_CHUNK,
			      PAGE_SIZE << get_order(buf_size));
	per_chunk = r->chunk_size / buf_size;
	r->nchunks = DIV_ROUND_UP(r->size, per_chunk);

	/* page aligned (the rings must be 4 KiB aligned) and zeroed */
	r->desc = dma_alloc_coherent(dma, r->size * FROCE_NTX_DESC_SIZE,
				     &r->desc_dma, GFP_KERNEL);
	r->slot = kcalloc(r->size, sizeof(*r->slot), GFP_KERNEL);
	r->chunk = kcalloc(r->nchunks, sizeof(*r->chunk), GFP_KERNEL);
	if (!r->desc || !r->slot || !r->chunk)
		goto err_nomem;

	for (i = 0; i < r->nchunks; i++) {
		r->chunk[i].va = dma_alloc_coherent(dma, r->chunk_size,
						    &r->chunk[i].dma,
						    GFP_KERNEL);
		if (!r->chunk[i].va)
			goto err_nomem;
	}
	for (i = 0; i < r->size; i++) {
		struct froce_nd_chunk *c = &r->chunk[i / per_chunk];
		u32 off = (i % per_chunk) * buf_size;

		r->slot[i].buf = c->va + off;
		r->slot[i].dma = c->dma + off;
	}
	return 0;

err_nomem:
	netdev_err(nd->netdev,
		   "cannot allocate the %s ring: %u descriptors, %u buffers of %u bytes in %u KiB chunks\n",
		   what, r->size, r->size, buf_size, r->chunk_size / SZ_1K);
	froce_nd_ring_free(nd, r, true);
	return -ENOMEM;
}

/* ---- hardware ---- */

static u32 froce_nd_ring_cis(struct froce_nd *nd)
{
	struct froce_dev *fdev = nd->fdev;

	return FIELD_GET(FROCE_REG_NTX_CI_CI_MASK,
			 froce_rd32(fdev, FROCE_REG_NTX_CI)) |
	       FIELD_GET(FROCE_REG_NRX_CI_CI_MASK,
			 froce_rd32(fdev, FROCE_REG_NRX_CI)) << 16;
}

/*
 * Stop both rings (CFG with ENABLE = 0, which also zeroes PI). The hardware
 * finishes the DMA it is in, abandons the rest and then returns CI to 0.
 * Returns true when that was seen, i.e. the rings' memory may be freed;
 * false if the device did not confirm (dead or gone): then the caller must
 * leak the memory rather than free what the device may still write.
 */
static bool froce_nd_hw_stop(struct froce_nd *nd)
{
	struct froce_dev *fdev = nd->fdev;
	u32 cis;
	int err;

	froce_wr32(fdev, FROCE_REG_NTX_CFG, 0);
	froce_wr32(fdev, FROCE_REG_NRX_CFG, 0);
	err = read_poll_timeout(froce_nd_ring_cis, cis, cis == 0, 100,
				FROCE_ND_STOP_TIMEOUT_MS * USEC_PER_MSEC, false, nd);
	if (err) {
		dev_err(froce_dev_dev(fdev),
			"netdev rings did not stop within %u ms (NTX_CI %#x, NRX_CI %#x%s)\n",
			FROCE_ND_STOP_TIMEOUT_MS, cis & 0xffff, cis >> 16,
			cis == U32_MAX ? ", device gone?" : "");
		return false;
	}
	/*
	 * CI = 0 proves the abort finished only if CI was not 0 before; a
	 * DMA burst the ring was in the middle of ends within microseconds.
	 */
	usleep_range(1000, 2000);
	return true;
}

static void froce_nd_hw_ring_start(struct froce_dev *fdev,
				   struct froce_nd_ring *r, u32 addr_lo,
				   u32 addr_hi, u32 cfg)
{
	froce_wr32(fdev, cfg, 0);
	froce_wr32(fdev, addr_lo, lower_32_bits(r->desc_dma));
	froce_wr32(fdev, addr_hi, upper_32_bits(r->desc_dma));
	/* NTX_CFG and NRX_CFG have the same layout */
	froce_wr32(fdev, cfg,
		   FIELD_PREP(FROCE_REG_NTX_CFG_LOG_SIZE_MASK, r->log) |
		   FROCE_REG_NTX_CFG_ENABLE_MASK);
}

static void froce_nd_hw_start(struct froce_nd *nd)
{
	struct froce_dev *fdev = nd->fdev;

	froce_wr32(fdev, FROCE_REG_NETDEV_IRQ,
		   FIELD_PREP(FROCE_REG_NETDEV_IRQ_VECTOR_MASK,
			      FROCE_VEC_NETDEV));
	froce_nd_hw_ring_start(fdev, &nd->tx, FROCE_REG_NTX_ADDR_LO,
			       FROCE_REG_NTX_ADDR_HI, FROCE_REG_NTX_CFG);
	froce_nd_hw_ring_start(fdev, &nd->rx, FROCE_REG_NRX_ADDR_LO,
			       FROCE_REG_NRX_ADDR_HI, FROCE_REG_NRX_CFG);
	/* writel() orders the descriptors before the index */
	froce_wr32(fdev, FROCE_REG_NRX_PI, froce_ring_pi(nd->rx.head));
	/* fires at once if the vector was left disarmed with completions */
	froce_wr32(fdev, FROCE_REG_NETDEV_ARM, FROCE_REG_NETDEV_ARM_ARM_MASK);
}

static int froce_nd_set_port(struct froce_nd *nd, const u8 *mac, u32 mtu)
{
	struct net_device *dev = nd->netdev;
	struct froce_port_cfg cfg = {
		.port = FROCE_ND_PORT,
		.mtu = mtu,
		.promisc = !!(dev->flags & IFF_PROMISC),
		/* no multicast filter list in SET_PORT: take all multicast */
		.allmulti = true,
	};
	int err;

	ASSERT_RTNL();
	ether_addr_copy(cfg.mac, mac);
	err = froce_cmd_set_port(nd->fdev, &cfg);
	if (err) {
		netdev_err(dev, "SET_PORT (MAC %pM, MTU %u, promisc %u) failed: %d\n",
			   mac, mtu, cfg.promisc, err);
		return err;
	}
	nd->promisc = cfg.promisc;
	return 0;
}

/* ---- data path ---- */

static irqreturn_t froce_nd_irq(int irq, void *data)
{
	struct froce_nd *nd = data;

	/* the vector stays quiet until the poll writes NETDEV_ARM */
	napi_schedule_irqoff(&nd->napi);
	return IRQ_HANDLED;
}

static void froce_nd_tx_reap(struct froce_nd *nd)
{
	struct froce_nd_ring *tx = &nd->tx;
	struct netdev_queue *txq = netdev_get_tx_queue(nd->netdev, 0);
	u32 tail = tx->tail, head = READ_ONCE(tx->head);
	u32 pkts = 0, bytes = 0, errors = 0, done = 0, done_bytes = 0;
	bool wake = false;

	/* pairs with the smp_wmb() in xmit: dw3 was cleared before head */
	smp_rmb();
	while (tail != head) {
		u32 st = froce_ntx_desc_status(froce_nd_desc(tx, tail));
		u32 len = tx->slot[froce_ring_slot(tail, tx->size)].len;

		if (!froce_ntx_done(st))
			break;
		if (unlikely(froce_ntx_err(st))) {
			errors++;
		} else {
			pkts++;
			bytes += len;
		}
		done++;
		done_bytes += len;
		tail++;
	}
	if (!done)
		return;

	/* the tail first: BQL may wake the queue, and xmit reads the tail */
	WRITE_ONCE(tx->tail, tail);
	netdev_tx_completed_queue(txq, done, done_bytes);
	/* the tail before the stopped check; pairs with smp_mb() in xmit */
	smp_mb();
	if (unlikely(netif_tx_queue_stopped(txq)) &&
	    froce_ring_free(READ_ONCE(tx->head), tail, tx->size) >=
	    FROCE_ND_TX_WAKE) {
		netif_tx_wake_queue(txq);
		wake = true;
	}

	u64_stats_update_begin(&nd->nsync);
	nd->nstats.tx_packets += pkts;
	nd->nstats.tx_bytes += bytes;
	nd->nstats.tx_errors += errors;
	nd->nstats.tx_wake += wake;
	u64_stats_update_end(&nd->nsync);
}

static int froce_nd_rx(struct froce_nd *nd, int budget)
{
	struct froce_nd_ring *rx = &nd->rx;
	struct net_device *dev = nd->netdev;
	u32 tail = rx->tail;
	u32 pkts = 0, bytes = 0, errors = 0, len_errors = 0, nomem = 0;
	int done = 0;

	while (done < budget) {
		void *desc = froce_nd_desc(rx, tail);
		struct froce_nd_slot *slot =
			&rx->slot[froce_ring_slot(tail, rx->size)];
		u32 st = froce_nrx_desc_status(desc);
		u32 len = froce_nrx_pkt_len(st);
		struct sk_buff *skb;

		if (!froce_nrx_done(st))
			break;
		/* the frame was written before DONE: read it after */
		dma_rmb();

		if (unlikely(froce_nrx_err(st))) {
			errors++;
		} else if (unlikely(len < ETH_HLEN || len > rx->buf_size)) {
			len_errors++;
			netdev_warn_once(dev,
					 "RX descriptor %u: PKT_LEN %u, buffer %u bytes (dw3 %#x)\n",
					 tail, len, rx->buf_size, st);
		} else {
			skb = napi_alloc_skb(&nd->napi, len);
			if (likely(skb)) {
				skb_put_data(skb, slot->buf, len);
				skb->protocol = eth_type_trans(skb, dev);
				napi_gro_receive(&nd->napi, skb);
				pkts++;
				bytes += len;
			} else {
				nomem++;
			}
		}

		/* the buffer goes back at once: same address, dw3 cleared */
		froce_nrx_desc_fill(desc, slot->dma, rx->buf_size);
		tail++;
		done++;
	}
	if (!done)
		return 0;

	rx->tail = tail;
	rx->head += done;
	froce_wr32(nd->fdev, FROCE_REG_NRX_PI, froce_ring_pi(rx->head));

	u64_stats_update_begin(&nd->nsync);
	nd->nstats.rx_packets += pkts;
	nd->nstats.rx_bytes += bytes;
	nd->nstats.rx_errors += errors;
	nd->nstats.rx_length_errors += len_errors;
	nd->nstats.rx_nomem += nomem;
	u64_stats_update_end(&nd->nsync);
	return done;
}

static int froce_nd_poll(struct napi_struct *napi, int budget)
{
	struct froce_nd *nd = container_of(napi, struct froce_nd, napi);
	bool armed = false;
	int done;

	froce_nd_tx_reap(nd);
	done = froce_nd_rx(nd, budget);

	if (done < budget && napi_complete_done(napi, done)) {
		/* fires again at once if anything completed since it fired */
		froce_wr32(nd->fdev, FROCE_REG_NETDEV_ARM,
			   FROCE_REG_NETDEV_ARM_ARM_MASK);
		armed = true;
	}

	u64_stats_update_begin(&nd->nsync);
	nd->nstats.napi_polls++;
	nd->nstats.irq_arms += armed;
	u64_stats_update_end(&nd->nsync);
	return done;
}

static void froce_nd_xmit_count(struct froce_nd *nd, u64 *counter)
{
	u64_stats_update_begin(&nd->xsync);
	(*counter)++;
	u64_stats_update_end(&nd->xsync);
}

static netdev_tx_t froce_nd_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct froce_nd *nd = netdev_priv(dev);
	struct froce_nd_ring *tx = &nd->tx;
	struct netdev_queue *txq = netdev_get_tx_queue(dev, 0);
	u32 head = tx->head, len = skb->len, wire_len;
	struct froce_nd_slot *slot;

	if (unlikely(!froce_ring_free(head, READ_ONCE(tx->tail), tx->size))) {
		/* the queue is stopped before the ring fills: not reached */
		netif_tx_stop_queue(txq);
		froce_nd_xmit_count(nd, &nd->xstats.tx_busy);
		netdev_err_once(dev, "TX ring full with the queue running\n");
		return NETDEV_TX_BUSY;
	}

	slot = &tx->slot[froce_ring_slot(head, tx->size)];
	if (unlikely(!len || len > tx->buf_size ||
		     skb_copy_bits(skb, 0, slot->buf, len))) {
		froce_nd_xmit_count(nd, &nd->xstats.tx_dropped);
		netdev_warn_once(dev, "dropping a %u-byte TX frame (buffers %u bytes)\n",
				 len, tx->buf_size);
		dev_kfree_skb_any(skb);
		return NETDEV_TX_OK;
	}
	wire_len = len;
	if (len < ETH_ZLEN) {
		memset(slot->buf + len, 0, ETH_ZLEN - len);
		wire_len = ETH_ZLEN;
	}
	slot->len = len;
	froce_ntx_desc_fill(froce_nd_desc(tx, head), slot->dma, wire_len, true);

	netdev_tx_sent_queue(txq, len);
	skb_tx_timestamp(skb);
	dev_consume_skb_any(skb);

	/* descriptor (dw3 = 0) before head: the poll looks below head */
	smp_wmb();
	WRITE_ONCE(tx->head, ++head);

	if (unlikely(!froce_ring_free(head, READ_ONCE(tx->tail), tx->size))) {
		netif_tx_stop_queue(txq);
		froce_nd_xmit_count(nd, &nd->xstats.tx_stop);
		/* the stop before reading tail; pairs with smp_mb() in reap */
		smp_mb();
		if (froce_ring_free(head, READ_ONCE(tx->tail), tx->size) >=
		    FROCE_ND_TX_WAKE)
			netif_tx_start_queue(txq);
	}

	/* writel() orders the descriptor and buffer before the index */
	if (!netdev_xmit_more() || netif_xmit_stopped(txq))
		froce_wr32(nd->fdev, FROCE_REG_NTX_PI, froce_ring_pi(head));
	return NETDEV_TX_OK;
}

/* ---- open / stop ---- */

static void froce_nd_link_track(struct froce_nd *nd, bool on)
{
	unsigned long flags;
	u32 ls;

	spin_lock_irqsave(&nd->link_lock, flags);
	nd->link_track = on;
	if (on) {
		/* under the lock, so that an event cannot come in between */
		ls = froce_rd32(nd->fdev, FROCE_REG_LINK_STATUS);
		if (ls != U32_MAX && (ls & FROCE_REG_LINK_STATUS_UP_MASK))
			netif_carrier_on(nd->netdev);
		else
			netif_carrier_off(nd->netdev);
	} else {
		netif_carrier_off(nd->netdev);
	}
	spin_unlock_irqrestore(&nd->link_lock, flags);
}

static int froce_nd_up(struct froce_nd *nd)
{
	struct net_device *dev = nd->netdev;
	u32 buf_size = froce_nd_buf_size(dev->mtu);
	u32 i;
	int err;

	err = froce_nd_set_port(nd, dev->dev_addr, dev->mtu);
	if (err)
		return err;

	err = froce_nd_ring_alloc(nd, &nd->tx, "TX", FROCE_ND_TX_LOG,
				  buf_size);
	if (err)
		return err;
	err = froce_nd_ring_alloc(nd, &nd->rx, "RX", FROCE_ND_RX_LOG,
				  buf_size);
	if (err)
		goto err_free_tx;

	/* every RX buffer posted; nothing on TX */
	for (i = 0; i < nd->rx.size; i++)
		froce_nrx_desc_fill(froce_nd_desc(&nd->rx, i),
				    nd->rx.slot[i].dma, buf_size);
	nd->rx.head = nd->rx.size;
	netdev_reset_queue(dev);

	/* NAPI before the IRQ: a schedule on a disabled NAPI would be lost */
	napi_enable(&nd->napi);
	err = request_irq(nd->irq, froce_nd_irq, 0, FROCE_DRV_NAME "-netdev",
			  nd);
	if (err) {
		netdev_err(dev, "cannot request IRQ %d (MSI-X vector %u): %d\n",
			   nd->irq, FROCE_VEC_NETDEV, err);
		goto err_napi;
	}

	froce_nd_hw_start(nd);
	nd->running = true;
	froce_nd_link_track(nd, true);
	/* wake, not start: after an MTU change the qdisc may hold frames */
	netif_tx_wake_all_queues(dev);
	return 0;

err_napi:
	napi_disable(&nd->napi);
	froce_nd_ring_free(nd, &nd->rx, true);
err_free_tx:
	froce_nd_ring_free(nd, &nd->tx, true);
	return err;
}

static void froce_nd_down(struct froce_nd *nd)
{
	struct net_device *dev = nd->netdev;
	bool stopped;

	froce_nd_link_track(nd, false);
	/* NAPI first: it could wake the queue after netif_tx_disable() */
	napi_disable(&nd->napi);
	netif_tx_disable(dev);

	stopped = froce_nd_hw_stop(nd);
	free_irq(nd->irq, nd);
	netdev_reset_queue(dev);
	nd->running = false;

	if (!stopped)
		netdev_err(dev,
			   "leaking the ring memory (%u + %u buffers) the device may still write\n",
			   nd->tx.size, nd->rx.size);
	froce_nd_ring_free(nd, &nd->rx, stopped);
	froce_nd_ring_free(nd, &nd->tx, stopped);
}

static int froce_nd_open(struct net_device *dev)
{
	return froce_nd_up(netdev_priv(dev));
}

static int froce_nd_stop(struct net_device *dev)
{
	struct froce_nd *nd = netdev_priv(dev);

	if (nd->running)
		froce_nd_down(nd);
	return 0;
}

static int froce_nd_change_mtu(struct net_device *dev, int new_mtu)
{
	struct froce_nd *nd = netdev_priv(dev);
	u32 old_mtu = dev->mtu;
	int err, err2;

	if (!nd->running) {
		/* SET_PORT goes out at open */
		dev->mtu = new_mtu;
		return 0;
	}

	/* the buffers are sized by the MTU: reopen the rings */
	froce_nd_down(nd);
	dev->mtu = new_mtu;
	err = froce_nd_up(nd);
	if (!err)
		return 0;

	dev->mtu = old_mtu;
	err2 = froce_nd_up(nd);
	if (err2)
		netdev_err(dev,
			   "MTU %d failed (%d) and reopening with MTU %u failed too (%d): the port stays stopped until it is set down and up\n",
			   new_mtu, err, old_mtu, err2);
	else
		netdev_err(dev, "MTU %d failed (%d): back to %u\n", new_mtu,
			   err, old_mtu);
	return err;
}

static int froce_nd_set_mac(struct net_device *dev, void *p)
{
	struct froce_nd *nd = netdev_priv(dev);
	struct sockaddr *sa = p;
	int err;

	err = eth_prepare_mac_addr_change(dev, p);
	if (err)
		return err;
	if (nd->running) {
		err = froce_nd_set_port(nd, sa->sa_data, dev->mtu);
		if (err)
			return err;
	}
	eth_commit_mac_addr_change(dev, p);
	return 0;
}

/* IFF_PROMISC changes go to the firmware (SET_PORT sleeps: not here) */
static void froce_nd_set_rx_mode(struct net_device *dev)
{
	struct froce_nd *nd = netdev_priv(dev);

	schedule_work(&nd->rx_mode_work);
}

static void froce_nd_rx_mode_work(struct work_struct *work)
{
	struct froce_nd *nd = container_of(work, struct froce_nd,
					   rx_mode_work);
	struct net_device *dev = nd->netdev;

	rtnl_lock();
	if (nd->running && nd->promisc != !!(dev->flags & IFF_PROMISC))
		froce_nd_set_port(nd, dev->dev_addr, dev->mtu);
	rtnl_unlock();
}

static void froce_nd_tx_timeout(struct net_device *dev, unsigned int txqueue)
{
	struct froce_nd *nd = netdev_priv(dev);
	struct froce_nd_ring *tx = &nd->tx;
	u32 tail = READ_ONCE(tx->tail);

	if (!nd->running) {
		netdev_err(dev, "TX timeout with the rings stopped\n");
		return;
	}
	netdev_err(dev,
		   "TX timeout: head %u tail %u, descriptor %u dw3 %#x, NTX_CI %#x, NTX_CFG %#x\n",
		   READ_ONCE(tx->head), tail, froce_ring_slot(tail, tx->size),
		   froce_ntx_desc_status(froce_nd_desc(tx, tail)),
		   froce_rd32(nd->fdev, FROCE_REG_NTX_CI),
		   froce_rd32(nd->fdev, FROCE_REG_NTX_CFG));
}

static void froce_nd_napi_stats(struct froce_nd *nd,
				struct froce_nd_napi_stats *s)
{
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&nd->nsync);
		*s = nd->nstats;
	} while (u64_stats_fetch_retry(&nd->nsync, start));
}

static void froce_nd_xmit_stats(struct froce_nd *nd,
				struct froce_nd_xmit_stats *s)
{
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&nd->xsync);
		*s = nd->xstats;
	} while (u64_stats_fetch_retry(&nd->xsync, start));
}

static void froce_nd_get_stats64(struct net_device *dev,
				 struct rtnl_link_stats64 *st)
{
	struct froce_nd *nd = netdev_priv(dev);
	struct froce_nd_napi_stats n;
	struct froce_nd_xmit_stats x;

	froce_nd_napi_stats(nd, &n);
	froce_nd_xmit_stats(nd, &x);
	st->rx_packets = n.rx_packets;
	st->rx_bytes = n.rx_bytes;
	st->rx_errors = n.rx_errors + n.rx_length_errors;
	st->rx_length_errors = n.rx_length_errors;
	st->rx_dropped = n.rx_nomem;
	st->tx_packets = n.tx_packets;
	st->tx_bytes = n.tx_bytes;
	st->tx_errors = n.tx_errors;
	st->tx_dropped = x.tx_dropped;
}

static const struct net_device_ops froce_nd_ops = {
	.ndo_open = froce_nd_open,
	.ndo_stop = froce_nd_stop,
	.ndo_start_xmit = froce_nd_xmit,
	.ndo_change_mtu = froce_nd_change_mtu,
	.ndo_set_mac_address = froce_nd_set_mac,
	.ndo_validate_addr = eth_validate_addr,
	.ndo_set_rx_mode = froce_nd_set_rx_mode,
	.ndo_tx_timeout = froce_nd_tx_timeout,
	.ndo_get_stats64 = froce_nd_get_stats64,
};

/* ---- ethtool ---- */

static void froce_nd_get_drvinfo(struct net_device *dev,
				 struct ethtool_drvinfo *info)
{
	struct froce_nd *nd = netdev_priv(dev);
	struct froce_dev *fdev = nd->fdev;

	strscpy(info->driver, FROCE_DRV_NAME, sizeof(info->driver));
	snprintf(info->fw_version, sizeof(info->fw_version), "%u.%u.%u",
		 fdev->fw.major, fdev->fw.minor, fdev->fw.patch);
	strscpy(info->bus_info, pci_name(fdev->pdev), sizeof(info->bus_info));
}

static int froce_nd_get_link_ksettings(struct net_device *dev,
				       struct ethtool_link_ksettings *cmd)
{
	struct froce_nd *nd = netdev_priv(dev);
	u32 ls = froce_rd32(nd->fdev, FROCE_REG_LINK_STATUS);
	u32 gbps = FIELD_GET(FROCE_REG_LINK_STATUS_SPEED_GBPS_MASK, ls);

	ethtool_link_ksettings_zero_link_mode(cmd, supported);
	ethtool_link_ksettings_zero_link_mode(cmd, advertising);
	cmd->base.port = PORT_OTHER;
	cmd->base.autoneg = AUTONEG_DISABLE;
	if (ls != U32_MAX && (ls & FROCE_REG_LINK_STATUS_UP_MASK) && gbps) {
		cmd->base.speed = gbps * 1000;
		cmd->base.duplex = DUPLEX_FULL;
	} else {
		cmd->base.speed = SPEED_UNKNOWN;
		cmd->base.duplex = DUPLEX_UNKNOWN;
	}
	return 0;
}

static void froce_nd_get_ringparam(struct net_device *dev,
				   struct ethtool_ringparam *ring,
				   struct kernel_ethtool_ringparam *kring,
				   struct netlink_ext_ack *extack)
{
	ring->rx_max_pending = 1U << FROCE_ND_RX_LOG;
	ring->tx_max_pending = 1U << FROCE_ND_TX_LOG;
	ring->rx_pending = ring->rx_max_pending;
	ring->tx_pending = ring->tx_max_pending;
}

static int froce_nd_get_sset_count(struct net_device *dev, int sset)
{
	return sset == ETH_SS_STATS ? FROCE_ND_NUM_STATS : -EOPNOTSUPP;
}

static void froce_nd_get_strings(struct net_device *dev, u32 sset, u8 *data)
{
	unsigned int i;

	if (sset != ETH_SS_STATS)
		return;
	for (i = 0; i < ARRAY_SIZE(froce_cnt_names); i++)
		ethtool_sprintf(&data, "%s", froce_cnt_names[i].name);
	for (i = 0; i < ARRAY_SIZE(froce_icnt_names); i++)
		ethtool_sprintf(&data, "%s", froce_icnt_names[i]);
	for (i = 0; i < ARRAY_SIZE(froce_nd_napi_names); i++)
		ethtool_sprintf(&data, "%s", froce_nd_napi_names[i]);
	for (i = 0; i < ARRAY_SIZE(froce_nd_xmit_names); i++)
		ethtool_sprintf(&data, "%s", froce_nd_xmit_names[i]);
}

static void froce_nd_get_ethtool_stats(struct net_device *dev,
				       struct ethtool_stats *stats, u64 *data)
{
	struct froce_nd *nd = netdev_priv(dev);
	struct froce_dev *fdev = nd->fdev;
	struct froce_nd_napi_stats n;
	struct froce_nd_xmit_stats x;
	unsigned int i;

	BUILD_BUG_ON(ARRAY_SIZE(froce_cnt_names) != FROCE_CNT_NUM);
	BUILD_BUG_ON(ARRAY_SIZE(froce_icnt_names) != FROCE_ICNT_NUM);
	BUILD_BUG_ON(FROCE_CNT_NUM * 8 > FROCE_BAR0_COUNTERS_SIZE);
	BUILD_BUG_ON(FROCE_ICNT_NUM * 8 > FROCE_BAR0_ICOUNTERS_SIZE);
	BUILD_BUG_ON(sizeof(n) != ARRAY_SIZE(froce_nd_napi_names) * sizeof(u64));
	BUILD_BUG_ON(sizeof(x) != ARRAY_SIZE(froce_nd_xmit_names) * sizeof(u64));

	/* 64-bit BAR0 counters, low word first (it latches the high word) */
	for (i = 0; i < FROCE_CNT_NUM; i++)
		*data++ = froce_rd_counter64(fdev,
					     FROCE_BAR0_COUNTERS_BASE + 8 * i);
	for (i = 0; i < FROCE_ICNT_NUM; i++)
		*data++ = froce_rd_counter64(fdev,
					     FROCE_BAR0_ICOUNTERS_BASE + 8 * i);

	froce_nd_napi_stats(nd, &n);
	froce_nd_xmit_stats(nd, &x);
	/* both structs are arrays of u64 in the order of their names */
	memcpy(data, &n, sizeof(n));
	data += ARRAY_SIZE(froce_nd_napi_names);
	memcpy(data, &x, sizeof(x));
}

static const struct ethtool_ops froce_nd_ethtool_ops = {
	.get_drvinfo = froce_nd_get_drvinfo,
	.get_link = ethtool_op_get_link,
	.get_link_ksettings = froce_nd_get_link_ksettings,
	.get_ringparam = froce_nd_get_ringparam,
	.get_sset_count = froce_nd_get_sset_count,
	.get_strings = froce_nd_get_strings,
	.get_ethtool_stats = froce_nd_get_ethtool_stats,
};

/* ---- probe / remove ---- */

static void froce_nd_init_mac(struct froce_nd *nd)
{
	struct froce_dev *fdev = nd->fdev;
	struct net_device *dev = nd->netdev;
	u32 lo = froce_rd32(fdev, FROCE_REG_MAC_LO);
	u32 hi = froce_rd32(fdev, FROCE_REG_MAC_HI);
	u64 perm = (u64)FIELD_GET(FROCE_REG_MAC_HI_MAC_MASK, hi) << 32 | lo;
	u8 addr[ETH_ALEN];

	/* first wire octet most significant */
	u64_to_ether_addr(perm, addr);
	if (is_valid_ether_addr(addr)) {
		eth_hw_addr_set(dev, addr);
		return;
	}
	eth_hw_addr_random(dev);
	if (perm)
		dev_warn(froce_dev_dev(fdev),
			 "permanent MAC %pM (MAC_HI %#x MAC_LO %#x) is not a unicast address: using random %pM\n",
			 addr, hi, lo, dev->dev_addr);
	else
		dev_info(froce_dev_dev(fdev),
			 "no permanent MAC (MAC_LO/HI read 0): using random %pM\n",
			 dev->dev_addr);
}

int froce_netdev_probe(struct froce_dev *fdev)
{
	struct device *dev = froce_dev_dev(fdev);
	struct net_device *netdev;
	struct froce_nd *nd;
	int irq, err;

	if (!(fdev->hw_caps & FROCE_REG_CAPS_NETDEV_MASK)) {
		dev_err(dev, "CAPS %#x: no netdev rings (CAPS.NETDEV clear)\n",
			fdev->hw_caps);
		return -ENODEV;
	}
	irq = pci_irq_vector(fdev->pdev, FROCE_VEC_NETDEV);
	if (irq < 0) {
		dev_err(dev, "no IRQ for MSI-X vector %u: %d\n",
			FROCE_VEC_NETDEV, irq);
		return irq;
	}

	netdev = alloc_etherdev(sizeof(*nd));
	if (!netdev)
		return -ENOMEM;
	SET_NETDEV_DEV(netdev, dev);
	nd = netdev_priv(netdev);
	nd->fdev = fdev;
	nd->netdev = netdev;
	nd->irq = irq;
	spin_lock_init(&nd->link_lock);
	INIT_WORK(&nd->rx_mode_work, froce_nd_rx_mode_work);
	u64_stats_init(&nd->nsync);
	u64_stats_init(&nd->xsync);

	netdev->netdev_ops = &froce_nd_ops;
	netdev->ethtool_ops = &froce_nd_ethtool_ops;
	netdev->watchdog_timeo = FROCE_ND_TX_TIMEOUT;
	netdev->min_mtu = FROCE_ND_MIN_MTU;
	netdev->max_mtu = FROCE_ND_MAX_MTU;
	froce_nd_init_mac(nd);
	netif_napi_add(netdev, &nd->napi, froce_nd_poll);
	netif_carrier_off(netdev);

	/* rings an earlier load may have left running: stop them */
	if (!froce_nd_hw_stop(nd))
		dev_warn(dev, "going on: the rings are programmed again at open\n");

	err = register_netdev(netdev);
	if (err) {
		dev_err(dev, "cannot register the netdev: %d\n", err);
		goto err_free;
	}
	WRITE_ONCE(fdev->netdev, netdev);
	netdev_info(netdev,
		    "MAC %pM, MTU %u (%u..%u), %u TX / %u RX descriptors, MSI-X vector %u\n",
		    netdev->dev_addr, netdev->mtu, netdev->min_mtu,
		    netdev->max_mtu, 1U << FROCE_ND_TX_LOG,
		    1U << FROCE_ND_RX_LOG, FROCE_VEC_NETDEV);
	return 0;

err_free:
	netif_napi_del(&nd->napi);
	free_netdev(netdev);
	return err;
}

void froce_netdev_remove(struct froce_dev *fdev)
{
	struct net_device *netdev = fdev->netdev;
	struct froce_nd *nd;

	if (!netdev)
		return;
	nd = netdev_priv(netdev);

	/* no PORT_CHANGE handler may be using it past this point */
	WRITE_ONCE(fdev->netdev, NULL);
	synchronize_irq(fdev->eq0.irq);

	/* ndo_stop runs here; it sends no command, so a dead mailbox is fine */
	unregister_netdev(netdev);
	cancel_work_sync(&nd->rx_mode_work);
	netif_napi_del(&nd->napi);
	free_netdev(netdev);
}

/* PORT_CHANGE EQE on EQ 0 (hard IRQ context) */
void froce_netdev_port_event(struct froce_dev *fdev, bool up)
{
	struct net_device *netdev = READ_ONCE(fdev->netdev);
	struct froce_nd *nd;
	unsigned long flags;

	if (!netdev)
		return;
	nd = netdev_priv(netdev);
	spin_lock_irqsave(&nd->link_lock, flags);
	if (nd->link_track) {
		if (up)
			netif_carrier_on(netdev);
		else
			netif_carrier_off(netdev);
	}
	spin_unlock_irqrestore(&nd->link_lock, flags);
}
