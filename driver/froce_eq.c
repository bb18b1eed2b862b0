// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * froce: event queue 0 (command completions and asynchronous events).
 *
 * EQ 0 is configured in BAR0 (EQ0_ADDR, EQ0_CFG) and raises MSI-X vector
 * FROCE_MSIX_VECTOR_ASYNC once per arm. The handler consumes EQEs by owner
 * bit (OWNER == !((ci >> log_size) & 1), read first, then a read barrier),
 * reports the consumer index and re-arms through EQ_DOORBELL.
 */

#include <linux/dma-mapping.h>

#include "froce.h"
#include "froce_mbox.h"

void froce_eq_doorbell(struct froce_dev *fdev, u32 eqn, u32 ci, bool arm)
{
	u32 db = FIELD_PREP(FROCE_REG_EQ_DOORBELL_CI_MASK,
			    ci & FIELD_MAX(FROCE_REG_EQ_DOORBELL_CI_MASK)) |
		 FIELD_PREP(FROCE_REG_EQ_DOORBELL_EQN_MASK, eqn) |
		 FIELD_PREP(FROCE_REG_EQ_DOORBELL_ARM_MASK, arm);

	froce_wr32(fdev, FROCE_REG_EQ_DOORBELL, db);
}

static void froce_eq0_event(struct froce_dev *fdev, const __le32 *eqe)
{
	struct device *dev = froce_dev_dev(fdev);
	u32 type = FROCE_GET_DW(eqe, FROCE_EQE_TYPE);
	u32 subtype = FROCE_GET_DW(eqe, FROCE_EQE_SUBTYPE);
	u32 id = FROCE_GET_DW(eqe, FROCE_EQE_ID);

	switch (type) {
	case FROCE_EQE_TYPE_CMD_DONE:
		froce_cmdq_event(fdev, FROCE_GET_DW(eqe, FROCE_EQE_TOKEN),
				 FROCE_GET_DW(eqe, FROCE_EQE_STATUS));
		break;
	case FROCE_EQE_TYPE_PORT_CHANGE:
		dev_info(dev, "port %s\n",
			 subtype == FROCE_PORT_EV_DOWN ? "down" : "up");
		froce_netdev_port_event(fdev, subtype != FROCE_PORT_EV_DOWN);
		froce_ib_async_event(fdev, eqe);
		break;
	case FROCE_EQE_TYPE_DEVICE_FATAL:
		dev_err(dev, "device fatal error, code %u\n", id);
		froce_cmdq_mark_dead(fdev);
		break;
	case FROCE_EQE_TYPE_EQ_OVERRUN:
		dev_err(dev, "EQ %u overran\n", id);
		break;
	case FROCE_EQE_TYPE_QP_EVENT:
	case FROCE_EQE_TYPE_CQ_ERROR:
		froce_ib_async_event(fdev, eqe);
		break;
	case FROCE_EQE_TYPE_COMPLETION:
		/* completions go to the completion EQs (froce_ib.c) */
		dev_warn_ratelimited(dev, "EQ 0: completion EQE for CQ %#x\n",
				     id);
		break;
	default:
		dev_warn_ratelimited(dev, "unknown EQE type %#x\n", type);
		break;
	}
}

static irqreturn_t froce_eq0_irq(int irq, void *data)
{
	struct froce_dev *fdev = data;
	struct froce_eq *eq = &fdev->eq0;
	u32 mask = (1U << eq->log_size) - 1;
	unsigned int n;

	for (n = 0; n < FROCE_EQ_BUDGET; n++) {
		const __le32 *eqe = eq->ring + (eq->ci & mask) * FROCE_EQE_SIZE;

		if (!froce_eqe_valid(eqe, eq->ci, eq->log_size))
			break;
		/* OWNER is written last: read the rest only after it */
		dma_rmb();
		froce_eq0_event(fdev, eqe);
		eq->ci++;
	}

	/* re-arming fires again at once if EQEs beyond ci are left */
	froce_eq_doorbell(fdev, 0, eq->ci, true);
	return IRQ_HANDLED;
}

int froce_eq0_init(struct froce_dev *fdev)
{
	struct froce_eq *eq = &fdev->eq0;
	struct device *dev = froce_dev_dev(fdev);
	size_t size;
	int err;

	eq->log_size = FROCE_EQ0_LOG_SIZE;
	eq->ci = 0;
	size = FROCE_EQE_SIZE << eq->log_size;
	/* page aligned and zeroed: no EQE is valid on the first pass */
	eq->ring = dma_alloc_coherent(dev, size, &eq->ring_dma, GFP_KERNEL);
	if (!eq->ring)
		return -ENOMEM;

	eq->irq = pci_irq_vector(fdev->pdev, FROCE_MSIX_VECTOR_ASYNC);
	if (eq->irq < 0) {
		err = eq->irq;
		goto err_free_ring;
	}
	err = request_irq(eq->irq, froce_eq0_irq, 0, FROCE_DRV_NAME "-async",
			  fdev);
	if (err)
		goto err_free_ring;

	froce_wr32(fdev, FROCE_REG_EQ0_CFG, 0);
	froce_wr32(fdev, FROCE_REG_EQ0_ADDR_LO, lower_32_bits(eq->ring_dma));
	froce_wr32(fdev, FROCE_REG_EQ0_ADDR_HI, upper_32_bits(eq->ring_dma));
	froce_wr32(fdev, FROCE_REG_EQ0_CFG,
		   FIELD_PREP(FROCE_REG_EQ0_CFG_LOG_SIZE_MASK, eq->log_size) |
		   FIELD_PREP(FROCE_REG_EQ0_CFG_VECTOR_MASK,
			      FROCE_MSIX_VECTOR_ASYNC) |
		   FROCE_REG_EQ0_CFG_ENABLE_MASK);
	eq->enabled = true;
	froce_eq_doorbell(fdev, 0, eq->ci, true);
	return 0;

err_free_ring:
	dma_free_coherent(dev, size, eq->ring, eq->ring_dma);
	eq->ring = NULL;
	return err;
}

void froce_eq0_destroy(struct froce_dev *fdev)
{
	struct froce_eq *eq = &fdev->eq0;

	/* stop event writes, then wait out a running handler */
	froce_wr32(fdev, FROCE_REG_EQ0_CFG, 0);
	/* a read flushes the posted write before the ring goes away */
	froce_rd32(fdev, FROCE_REG_EQ0_CFG);
	eq->enabled = false;
	free_irq(eq->irq, fdev);
	dma_free_coherent(froce_dev_dev(fdev), FROCE_EQE_SIZE << eq->log_size,
			  eq->ring, eq->ring_dma);
	eq->ring = NULL;
}
