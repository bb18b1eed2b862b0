/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * froce: driver-wide state of one function.
 */

#ifndef FROCE_H
#define FROCE_H

#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/pci.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "froce_cmdq.h"
#include "froce_hw.h"

#define FROCE_DRV_NAME		"froce"

/* EQ 0: 2^8 EQEs of 16 bytes, one 4 KiB page */
#define FROCE_EQ0_LOG_SIZE	8
/*
 * MSI-X vectors: 0 for EQ 0 (command completions, async events), 1 for the
 * netdev rings, 2.. for the completion EQs (at least one).
 */
#define FROCE_VEC_ASYNC		FROCE_MSIX_VECTOR_ASYNC
#define FROCE_VEC_NETDEV	1
#define FROCE_VEC_COMP0		2
#define FROCE_MIN_VECTORS	3

/* EQEs handled per interrupt before the EQ is re-armed */
#define FROCE_EQ_BUDGET		64

struct froce_eq {
	void *ring;		/* 2^log_size EQEs, coherent */
	dma_addr_t ring_dma;
	u32 log_size;
	u32 ci;			/* EQEs consumed, free-running */
	int irq;
	bool enabled;
};

struct froce_dev {
	struct pci_dev *pdev;
	void __iomem *bar0;
	void __iomem *bar2;	/* UAR pages; NULL if the BAR is empty */
	u32 num_uar_pages;
	u32 hw_caps;		/* FROCE_REG_CAPS */
	int num_vectors;

	struct froce_cmdq cmdq;
	struct froce_eq eq0;

	struct froce_fw_info fw;
	struct froce_caps caps;

	/* the BAR0 COUNTERS/ICOUNTERS high-word latch (one for all) */
	spinlock_t cnt_lock;

	struct net_device *netdev;	/* froce_netdev.c; NULL until registered */
	struct froce_ibdev *ibdev;	/* froce_ib.c; NULL until registered */
};

static inline u32 froce_rd32(struct froce_dev *fdev, u32 reg)
{
	return readl(fdev->bar0 + reg);
}

static inline void froce_wr32(struct froce_dev *fdev, u32 reg, u32 val)
{
	writel(val, fdev->bar0 + reg);
}

/*
 * A 64-bit counter of BAR0 COUNTERS or ICOUNTERS at @reg: the low word first,
 * which latches the high word for the next high-word read. The latch is
 * shared by all counters, so the pair is read under cnt_lock.
 */
static inline u64 froce_rd_counter64(struct froce_dev *fdev, u32 reg)
{
	unsigned long flags;
	u32 lo, hi;

	spin_lock_irqsave(&fdev->cnt_lock, flags);
	lo = froce_rd32(fdev, reg);
	hi = froce_rd32(fdev, reg + 4);
	spin_unlock_irqrestore(&fdev->cnt_lock, flags);
	return (u64)hi << 32 | lo;
}

static inline struct device *froce_dev_dev(struct froce_dev *fdev)
{
	return &fdev->pdev->dev;
}

int froce_eq0_init(struct froce_dev *fdev);
void froce_eq0_destroy(struct froce_dev *fdev);
/* EQ_DOORBELL: consumer index of EQ @eqn, and re-arm its interrupt */
void froce_eq_doorbell(struct froce_dev *fdev, u32 eqn, u32 ci, bool arm);

/* froce_netdev.c: the Ethernet port on the NTX/NRX rings */
int froce_netdev_probe(struct froce_dev *fdev);
void froce_netdev_remove(struct froce_dev *fdev);
void froce_netdev_port_event(struct froce_dev *fdev, bool up);

/* froce_ib.c: the ib_device and its verbs */
int froce_ib_probe(struct froce_dev *fdev);
void froce_ib_remove(struct froce_dev *fdev);
/* EQ 0 QP_EVENT / CQ_ERROR / PORT_CHANGE EQEs (16 bytes) */
void froce_ib_async_event(struct froce_dev *fdev, const void *eqe);

#endif /* FROCE_H */
