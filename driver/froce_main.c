// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * froce: PCI driver of the froce RoCE v2 NIC. Probe maps BAR0 (registers) and
 * BAR2 (UAR doorbell pages), checks the interface identity against
 * froce_hw.h, waits for the firmware, sets up the mailbox, MSI-X and EQ 0,
 * reads the firmware's version and capabilities, and registers the netdev.
 */

#include <linux/bitfield.h>
#include <linux/dma-mapping.h>
#include <linux/iopoll.h>
#include <linux/module.h>
#include <linux/pci.h>

#include "froce.h"

#define FROCE_BAR_REGS	0
#define FROCE_BAR_UAR	2

static unsigned int ready_timeout_ms = 10000;
module_param(ready_timeout_ms, uint, 0444);
MODULE_PARM_DESC(ready_timeout_ms,
		 "Time to wait for DEV_STATUS.READY at probe in ms (default 10000)");

static int froce_check_id(struct froce_dev *fdev)
{
	struct device *dev = froce_dev_dev(fdev);
	u32 id, ver, hash, scratch;

	id = froce_rd32(fdev, FROCE_REG_ID);
	ver = froce_rd32(fdev, FROCE_REG_HW_VERSION);
	hash = froce_rd32(fdev, FROCE_REG_SPEC_HASH);

	if (FIELD_GET(FROCE_REG_ID_VENDOR_MASK, id) != FROCE_PCI_VENDOR_ID ||
	    FIELD_GET(FROCE_REG_ID_DEVICE_MASK, id) != FROCE_PCI_DEVICE_ID) {
		dev_err(dev, "BAR0 ID %#x is not a froce device\n", id);
		return -ENODEV;
	}
	if (FIELD_GET(FROCE_REG_HW_VERSION_MAJOR_MASK, ver) !=
	    FROCE_HW_VERSION_MAJOR) {
		dev_err(dev, "hardware interface %#x, driver supports %#x\n",
			ver, FROCE_HW_VERSION);
		return -ENODEV;
	}
	if (hash != FROCE_HW_SPEC_HASH) {
		dev_err(dev, "spec hash %#x, driver built for %#x\n", hash,
			FROCE_HW_SPEC_HASH);
		return -ENODEV;
	}
	if (ver != FROCE_HW_VERSION)
		dev_info(dev, "hardware interface %#x, driver built for %#x\n",
			 ver, FROCE_HW_VERSION);

	/* BAR access check: SCRATCH reads back what was written */
	froce_wr32(fdev, FROCE_REG_SCRATCH, 0x5a5aa5a5);
	scratch = froce_rd32(fdev, FROCE_REG_SCRATCH);
	froce_wr32(fdev, FROCE_REG_SCRATCH, 0);
	if (scratch != 0x5a5aa5a5) {
		dev_err(dev, "SCRATCH reads %#x after writing 0x5a5aa5a5\n",
			scratch);
		return -EIO;
	}
	return 0;
}

static int froce_wait_ready(struct froce_dev *fdev)
{
	struct device *dev = froce_dev_dev(fdev);
	u32 st;
	int err;

	err = readl_poll_timeout(fdev->bar0 + FROCE_REG_DEV_STATUS, st,
				 st & (FROCE_REG_DEV_STATUS_READY_MASK |
				       FROCE_REG_DEV_STATUS_FATAL_MASK),
				 1000, ready_timeout_ms * USEC_PER_MSEC);
	if (!err && !(st & FROCE_REG_DEV_STATUS_FATAL_MASK))
		return 0;

	if (st & FROCE_REG_DEV_STATUS_FATAL_MASK) {
		u32 syn = froce_rd32(fdev, FROCE_REG_FATAL_SYNDROME);

		dev_err(dev, "device fatal: code %u info %#x\n",
			FIELD_GET(FROCE_REG_FATAL_SYNDROME_CODE_MASK, syn),
			FIELD_GET(FROCE_REG_FATAL_SYNDROME_INFO_MASK, syn));
	} else {
		dev_err(dev,
			"DEV_STATUS.READY not set after %u ms (DEV_STATUS %#x, FW_VERSION %#x, HEARTBEAT %#x)\n",
			ready_timeout_ms, st,
			froce_rd32(fdev, FROCE_REG_FW_VERSION),
			froce_rd32(fdev, FROCE_REG_HEARTBEAT));
	}
	return -EIO;
}

/*
 * DEV_CTRL.RESET: the device finishes the DMA it started, drops every
 * context, restarts its firmware and comes back READY (the MSI-X table
 * stays). READY reads 0 from the first read after the write.
 */
static int froce_reset_device(struct froce_dev *fdev)
{
	froce_wr32(fdev, FROCE_REG_DEV_CTRL, FROCE_REG_DEV_CTRL_RESET_MASK);
	return froce_wait_ready(fdev);
}

static int froce_map_bars(struct froce_dev *fdev)
{
	struct pci_dev *pdev = fdev->pdev;
	struct device *dev = &pdev->dev;
	resource_size_t len, need;
	u32 info;
	int err = -ENODEV;

	len = pci_resource_len(pdev, FROCE_BAR_REGS);
	if (len < FROCE_BAR0_SIZE) {
		dev_err(dev, "BAR0 is %pa bytes, need %#x\n", &len,
			FROCE_BAR0_SIZE);
		return -ENODEV;
	}
	fdev->bar0 = pci_iomap(pdev, FROCE_BAR_REGS, FROCE_BAR0_SIZE);
	if (!fdev->bar0)
		return -ENOMEM;

	info = froce_rd32(fdev, FROCE_REG_UAR_INFO);
	fdev->num_uar_pages = FIELD_GET(FROCE_REG_UAR_INFO_NUM_PAGES_MASK,
					info);
	if (FIELD_GET(FROCE_REG_UAR_INFO_PAGE_SHIFT_MASK, info) !=
	    FROCE_UAR_PAGE_SHIFT) {
		dev_err(dev, "UAR_INFO %#x: page shift is not %u\n", info,
			FROCE_UAR_PAGE_SHIFT);
		goto err_unmap_bar0;
	}
	len = pci_resource_len(pdev, FROCE_BAR_UAR);
	need = (resource_size_t)fdev->num_uar_pages << FROCE_UAR_PAGE_SHIFT;
	if (len < need) {
		dev_err(dev, "BAR2 is %pa bytes, %u UAR pages need %pa\n",
			&len, fdev->num_uar_pages, &need);
		goto err_unmap_bar0;
	}
	if (need) {
		fdev->bar2 = pci_iomap(pdev, FROCE_BAR_UAR, need);
		if (!fdev->bar2) {
			err = -ENOMEM;
			goto err_unmap_bar0;
		}
	}
	return 0;

err_unmap_bar0:
	pci_iounmap(pdev, fdev->bar0);
	fdev->bar0 = NULL;
	return err;
}

static void froce_unmap_bars(struct froce_dev *fdev)
{
	if (fdev->bar2)
		pci_iounmap(fdev->pdev, fdev->bar2);
	pci_iounmap(fdev->pdev, fdev->bar0);
}

static int froce_alloc_vectors(struct froce_dev *fdev)
{
	u32 info = froce_rd32(fdev, FROCE_REG_IRQ_INFO);
	int max = FIELD_GET(FROCE_REG_IRQ_INFO_NUM_VECTORS_MASK, info);
	int n;

	/* EQ 0, the netdev, then one completion EQ per CPU */
	max = min3(max, FROCE_MSIX_MAX_VECTORS,
		   FROCE_VEC_COMP0 + (int)num_online_cpus());
	if (max < FROCE_MIN_VECTORS) {
		dev_err(froce_dev_dev(fdev), "IRQ_INFO %#x: no vectors\n",
			info);
		return -ENODEV;
	}
	n = pci_alloc_irq_vectors(fdev->pdev, FROCE_MIN_VECTORS, max,
				  PCI_IRQ_MSIX);
	if (n < 0) {
		dev_err(froce_dev_dev(fdev), "no MSI-X vectors: %d\n", n);
		return n;
	}
	fdev->num_vectors = n;
	return 0;
}

static int froce_query_device(struct froce_dev *fdev)
{
	struct device *dev = froce_dev_dev(fdev);
	struct froce_port_attr port;
	int err;

	err = froce_cmd_query_fw(fdev, &fdev->fw);
	if (err)
		return err;
	if (fdev->fw.spec_hash != FROCE_HW_SPEC_HASH) {
		dev_err(dev, "firmware spec hash %#x, driver built for %#x\n",
			fdev->fw.spec_hash, FROCE_HW_SPEC_HASH);
		return -ENODEV;
	}
	err = froce_cmd_query_caps(fdev, &fdev->caps);
	if (err)
		return err;
	err = froce_cmd_query_port(fdev, 1, &port);
	if (err)
		return err;

	dev_info(dev,
		 "firmware %u.%u.%u build %#x, %u QPs, %u CQs, %u MRs, %u GIDs, port state %u MAC %pM, %d vectors\n",
		 fdev->fw.major, fdev->fw.minor, fdev->fw.patch,
		 fdev->fw.build_id, fdev->caps.max_qp, fdev->caps.max_cq,
		 fdev->caps.max_mr, fdev->caps.num_gid, port.state, port.mac,
		 fdev->num_vectors);
	return 0;
}

static int froce_probe(struct pci_dev *pdev, const struct pci_device_id *ent)
{
	struct device *dev = &pdev->dev;
	struct froce_dev *fdev;
	int err;

	fdev = kzalloc(sizeof(*fdev), GFP_KERNEL);
	if (!fdev)
		return -ENOMEM;
	fdev->pdev = pdev;
	spin_lock_init(&fdev->cnt_lock);
	pci_set_drvdata(pdev, fdev);

	err = pci_enable_device_mem(pdev);
	if (err) {
		dev_err(dev, "cannot enable device: %d\n", err);
		goto err_free;
	}
	err = pci_request_mem_regions(pdev, FROCE_DRV_NAME);
	if (err) {
		dev_err(dev, "cannot request BARs: %d\n", err);
		goto err_disable;
	}
	pci_set_master(pdev);
	err = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (err) {
		dev_err(dev, "no 64-bit DMA: %d\n", err);
		goto err_clear_master;
	}

	err = froce_map_bars(fdev);
	if (err)
		goto err_clear_master;
	err = froce_check_id(fdev);
	if (err)
		goto err_unmap;
	fdev->hw_caps = froce_rd32(fdev, FROCE_REG_CAPS);
	/* whatever an earlier driver instance left behind goes */
	err = froce_wait_ready(fdev);
	if (!err)
		err = froce_reset_device(fdev);
	if (err)
		goto err_unmap;

	err = froce_cmdq_init(fdev);
	if (err)
		goto err_unmap;
	err = froce_alloc_vectors(fdev);
	if (err)
		goto err_cmdq;
	err = froce_eq0_init(fdev);
	if (err)
		goto err_vectors;
	froce_cmdq_use_events(fdev, true);

	err = froce_query_device(fdev);
	if (err)
		goto err_eq0;

	/* the netdev before anything else registers (the ib_device uses it) */
	err = froce_netdev_probe(fdev);
	if (err)
		goto err_eq0;
	err = froce_ib_probe(fdev);
	if (err)
		goto err_netdev;
	return 0;

err_netdev:
	froce_netdev_remove(fdev);

err_eq0:
	froce_cmdq_use_events(fdev, false);
	froce_eq0_destroy(fdev);
err_vectors:
	pci_free_irq_vectors(pdev);
err_cmdq:
	froce_cmdq_destroy(fdev);
err_unmap:
	froce_unmap_bars(fdev);
err_clear_master:
	pci_clear_master(pdev);
	pci_release_mem_regions(pdev);
err_disable:
	pci_disable_device(pdev);
err_free:
	pci_set_drvdata(pdev, NULL);
	kfree(fdev);
	return err;
}

static void froce_remove(struct pci_dev *pdev)
{
	struct froce_dev *fdev = pci_get_drvdata(pdev);

	froce_ib_remove(fdev);
	froce_netdev_remove(fdev);
	froce_cmdq_use_events(fdev, false);
	/* no DMA into EQ 0 and the command block once they are freed */
	if (froce_reset_device(fdev))
		dev_warn(&pdev->dev, "device reset at remove failed\n");
	froce_eq0_destroy(fdev);
	pci_free_irq_vectors(pdev);
	froce_cmdq_destroy(fdev);
	froce_unmap_bars(fdev);
	pci_clear_master(pdev);
	pci_release_mem_regions(pdev);
	pci_disable_device(pdev);
	pci_set_drvdata(pdev, NULL);
	kfree(fdev);
}

static const struct pci_device_id froce_pci_ids[] = {
	{ PCI_DEVICE(FROCE_PCI_VENDOR_ID, FROCE_PCI_DEVICE_ID) },
	{ }
};
MODULE_DEVICE_TABLE(pci, froce_pci_ids);

static struct pci_driver froce_pci_driver = {
	.name = FROCE_DRV_NAME,
	.id_table = froce_pci_ids,
	.probe = froce_probe,
	.remove = froce_remove,
};
module_pci_driver(froce_pci_driver);

MODULE_DESCRIPTION("froce RoCE v2 NIC");
MODULE_LICENSE("Dual BSD/GPL");
