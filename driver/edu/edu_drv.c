// SPDX-License-Identifier: GPL-2.0
/*
 * edu_drv.c - tplan_edu: the PCI driver of QEMU's edu device, an accel
 * device planned by tplan whose DMA engine runs jobs (edu.h).
 */
#include <linux/dma-fence.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/workqueue.h>

#include <drm/drm_drv.h>

#include "tplan_arena.h"
#include "tplan_types.h"
#include "edu.h"
#include "edu_hw.h"
#include "edu_job.h"

#define PCI_VENDOR_ID_QEMU	0x1234
#define PCI_DEVICE_ID_QEMU_EDU	0x11e8

static char *pool_sizes = "64K,256K";
module_param(pool_sizes, charp, 0444);
MODULE_PARM_DESC(pool_sizes,
		 "bytes per pool, fastest first, comma-separated, K/M suffixes (default 64K,256K): DMA buffers the device reaches with 28-bit addresses");

/* What one device allows its callers: tplan's defaults, fewer plans. */
static const struct tplan_limits edu_limits = {
	.max_tensors = 65536,
	.max_plans = 64,
	.max_submits = 2,
	.default_budget = TPLAN_DEFAULT_BUDGET,
	.max_budget = 10 * TPLAN_DEFAULT_BUDGET,
	.max_submit_bytes = 64 << 20,
	.max_file_keys = 1 << 20,
	.max_device_keys = 1 << 22,
	.max_device_plans = 1024,
};

static const struct tplan_accel_ioctl edu_ioctls[] = {
	[_IOC_NR(TPLAN_EDU_IOC_JOB) - TPLAN_IOC_HOST_BASE] = {
		.cmd = TPLAN_EDU_IOC_JOB,
		.min_size = TPLAN_EDU_JOB_SIZE_VER1,
		.check = edu_job_check,
		.func = edu_job_ioctl,
	},
};

static const struct file_operations edu_fops = {
	TPLAN_ACCEL_FOPS,
};

static const struct drm_driver edu_drm_driver = {
	TPLAN_ACCEL_DRIVER_OPS,
	.fops = &edu_fops,
	.name = TPLAN_EDU_DRIVER_NAME,
	.desc = "QEMU edu device: tplan-planned DMA buffers and DMA jobs",
	.date = "20261127",
	.major = 0,
	.minor = 1,
};

/* BAR 0, the 28-bit DMA mask and the interrupt. */
static int edu_hw_init(struct tplan_edu *edu)
{
	struct pci_dev *pdev = edu->pdev;
	int ret;

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	edu->regs = pcim_iomap_region(pdev, 0, TPLAN_EDU_DRIVER_NAME);
	if (IS_ERR(edu->regs))
		return PTR_ERR(edu->regs);
	if (!edu_hw_identify(edu))
		return -ENODEV;
	pci_set_master(pdev);
	ret = dma_set_mask_and_coherent(&pdev->dev,
					DMA_BIT_MASK(EDU_DMA_BITS));
	if (ret) {
		dev_err(&pdev->dev, "no %u-bit DMA: %d\n", EDU_DMA_BITS, ret);
		return ret;
	}
	ret = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSI | PCI_IRQ_INTX);
	if (ret < 0)
		return ret;
	ret = request_irq(pci_irq_vector(pdev, 0), edu_hw_irq, IRQF_SHARED,
			  TPLAN_EDU_DRIVER_NAME, edu);
	if (ret)
		pci_free_irq_vectors(pdev);
	return ret;
}

static void edu_hw_fini(struct tplan_edu *edu)
{
	free_irq(pci_irq_vector(edu->pdev, 0), edu);
	pci_free_irq_vectors(edu->pdev);
}

static int edu_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct tplan_edu *edu;
	u64 sizes[TPLAN_MAX_POOLS];
	u32 count;
	int ret;

	ret = tplan_accel_parse_sizes(pool_sizes, sizes, &count);
	if (ret) {
		dev_err(&pdev->dev, "pool_sizes=%s: expected 1 to %u sizes\n",
			pool_sizes, TPLAN_MAX_POOLS);
		return ret;
	}
	edu = devm_drm_dev_alloc(&pdev->dev, &edu_drm_driver,
				 struct tplan_edu, accel.drm);
	if (IS_ERR(edu))
		return PTR_ERR(edu);
	edu->pdev = pdev;
	edu->accel.host_ioctls = edu_ioctls;
	edu->accel.host_ioctl_count = ARRAY_SIZE(edu_ioctls);
	init_completion(&edu->dma_done);
	mutex_init(&edu->queue_lock);
	spin_lock_init(&edu->fence_lock);
	edu->fence_context = dma_fence_context_alloc(1);
	edu->jobs = alloc_ordered_workqueue("tplan_edu", 0);
	if (!edu->jobs)
		return -ENOMEM;
	ret = edu_hw_init(edu);
	if (ret)
		goto err_wq;
	ret = tplan_accel_init(&edu->accel, &pdev->dev, sizes, count,
			       &edu_limits);
	if (ret)
		goto err_hw;
	ret = tplan_accel_register(&edu->accel);
	if (ret)
		goto err_accel;
	pci_set_drvdata(pdev, edu);
	return 0;

err_accel:
	tplan_accel_fini(&edu->accel);
err_hw:
	edu_hw_fini(edu);
err_wq:
	destroy_workqueue(edu->jobs);
	return ret;
}

/*
 * The device goes with the module only (no unbind attribute): no file,
 * mapping, dma-buf or fence is left (each holds the module).  Jobs whose
 * files were closed may still run: they end by their deadlines.
 */
static void edu_remove(struct pci_dev *pdev)
{
	struct tplan_edu *edu = pci_get_drvdata(pdev);

	drm_dev_unregister(&edu->accel.drm);
	destroy_workqueue(edu->jobs);
	edu_hw_fini(edu);
	tplan_accel_fini(&edu->accel);
}

static const struct pci_device_id edu_ids[] = {
	{ PCI_DEVICE(PCI_VENDOR_ID_QEMU, PCI_DEVICE_ID_QEMU_EDU) },
	{ }
};
MODULE_DEVICE_TABLE(pci, edu_ids);

static struct pci_driver edu_pci_driver = {
	.name = TPLAN_EDU_DRIVER_NAME,
	.id_table = edu_ids,
	.probe = edu_probe,
	.remove = edu_remove,
	.driver.suppress_bind_attrs = true,
};
module_pci_driver(edu_pci_driver);

MODULE_DESCRIPTION("tplan_edu: QEMU's edu PCI device as a tplan accel device with DMA jobs");
MODULE_AUTHOR("The tplan developers");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(TPLAN);
