/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * froce: driver-wide state of one function.
 */

#ifndef FROCE_H
#define FROCE_H

#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/pci.h>
#include <linux/types.h>

#include "froce_cmdq.h"
#include "froce_hw.h"

#define FROCE_DRV_NAME		"froce"

/* EQ 0: 2^8 EQEs of 16 bytes, one 4 KiB page */
#define FROCE_EQ0_LOG_SIZE	8
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
};

static inline u32 froce_rd32(struct froce_dev *fdev, u32 reg)
{
	return readl(fdev->bar0 + reg);
}

static inline void froce_wr32(struct froce_dev *fdev, u32 reg, u32 val)
{
	writel(val, fdev->bar0 + reg);
}

static inline struct device *froce_dev_dev(struct froce_dev *fdev)
{
	return &fdev->pdev->dev;
}

int froce_eq0_init(struct froce_dev *fdev);
void froce_eq0_destroy(struct froce_dev *fdev);

#endif /* FROCE_H */
