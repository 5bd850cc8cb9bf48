// SPDX-License-Identifier: GPL-2.0
/*
 * tplan_module.c - module parameters, the DMA-capable platform device and
 * its driver, which makes the arena and the accel device.
 */
#include <linux/dma-mapping.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/platform_device.h>

#include <drm/drm_accel.h>
#include <drm/drm_drv.h>

#include "planner.h"
#include "arena.h"
#include "tplan_accel.h"
#include "tplan_arena.h"

static char *pool_sizes = "256K,4M";
module_param(pool_sizes, charp, 0444);
MODULE_PARM_DESC(pool_sizes,
		 "bytes per pool (tier), fastest first, comma-separated, K/M/G suffixes (default 256K,4M)");

static unsigned int max_tensors = 65536;
module_param(max_tensors, uint, 0444);
MODULE_PARM_DESC(max_tensors, "most tensors in one table, 1 to 16777216 (default 65536)");

static unsigned int max_plans = 64;
module_param(max_plans, uint, 0444);
MODULE_PARM_DESC(max_plans, "most plans one open file may hold (default 64)");

static unsigned int max_submits = 4;
module_param(max_submits, uint, 0444);
MODULE_PARM_DESC(max_submits,
		 "submits (dry runs too) the device plans at once; more wait (default 4)");

static unsigned long default_budget = TPLAN_DEFAULT_BUDGET;
module_param(default_budget, ulong, 0444);
MODULE_PARM_DESC(default_budget,
		 "planner work units for a submit that asks for 0 (default 160000000, as offline)");

static unsigned long max_budget = 10 * TPLAN_DEFAULT_BUDGET;
module_param(max_budget, ulong, 0444);
MODULE_PARM_DESC(max_budget,
		 "the most work units one submit may spend; larger budgets are clamped (default 1600000000, ten times the default)");

static unsigned long max_submit_bytes = 64UL << 20;
module_param(max_submit_bytes, ulong, 0444);
MODULE_PARM_DESC(max_submit_bytes,
		 "the most kernel memory one submit may use while planning (default 64 MiB)");

static unsigned long max_file_keys = 1UL << 20;
module_param(max_file_keys, ulong, 0444);
MODULE_PARM_DESC(max_file_keys,
		 "most share_key tensors the serial groups of one open file store, 64 bytes of kernel memory each (default 1048576)");

static unsigned long max_device_keys = 1UL << 22;
module_param(max_device_keys, ulong, 0444);
MODULE_PARM_DESC(max_device_keys,
		 "most share_key tensors stored by every open file together (default 4194304)");

static unsigned int max_device_plans = 4096;
module_param(max_device_plans, uint, 0444);
MODULE_PARM_DESC(max_device_plans,
		 "most plans alive at once over every open file, released ones a mapping or dma-buf keeps included (default 4096)");

static struct platform_device *tplan_pdev;

static void get_limits(struct tplan_limits *l)
{
	*l = (struct tplan_limits) {
		.max_tensors = max_tensors, .max_plans = max_plans,
		.max_submits = max_submits, .default_budget = default_budget,
		.max_budget = max_budget, .max_submit_bytes = max_submit_bytes,
		.max_file_keys = max_file_keys,
		.max_device_keys = max_device_keys,
		.max_device_plans = max_device_plans,
	};
}

/* The module's parameters, checked by the arena's own rules. */
static int check_params(u64 *sizes, u32 *count)
{
	struct tplan_limits limits;

	if (tplan_accel_parse_sizes(pool_sizes, sizes, count)) {
		pr_err("tplan: pool_sizes=%s: expected 1 to %u sizes such as 256K,4M\n",
		       pool_sizes, TPLAN_MAX_POOLS);
		return -EINVAL;
	}
	get_limits(&limits);
	if (tplan_limits_check(&limits)) {
		pr_err("tplan: max_tensors must be 1 to %u; max_plans, max_submits, max_submit_bytes, max_device_plans at least 1; default_budget 1 to max_budget\n",
		       TPLAN_ARENA_MAX_TENSORS);
		return -EINVAL;
	}
	return 0;
}

/* What the accel device does: tplan's ioctls and nothing of its own. */
static const struct file_operations tplan_fops = {
	TPLAN_ACCEL_FOPS,
};

static const struct drm_driver tplan_drm_driver = {
	TPLAN_ACCEL_DRIVER_OPS,
	.fops = &tplan_fops,
	.name = TPLAN_DRIVER_NAME,
	.desc = "tensor lifetime planner and DMA arena for ML accelerators",
	.date = "20261126",
	.major = 0,
	.minor = 2,	/* the Makefile's VERSION, 0.2 (dmabuf_e2e checks) */
};

/* The pool sizes tplan_init() parsed, for the probe. */
static u64 tplan_sizes[TPLAN_MAX_POOLS];
static u32 tplan_count;
/* Why the probe failed: tplan_init() reports it (a probe's error is lost). */
static int tplan_probe_error;

static int tplan_probe_dev(struct platform_device *pdev)
{
	struct tplan_accel *accel;
	struct tplan_limits limits;
	int ret;

	ret = dma_coerce_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret) {
		dev_err(&pdev->dev, "no usable DMA mask: %d\n", ret);
		return ret;
	}
	accel = devm_drm_dev_alloc(&pdev->dev, &tplan_drm_driver,
				   struct tplan_accel, drm);
	if (IS_ERR(accel))
		return PTR_ERR(accel);
	get_limits(&limits);
	ret = tplan_accel_init(accel, &pdev->dev, tplan_sizes, tplan_count,
			       &limits);
	if (ret)
		return ret;
	ret = tplan_accel_register(accel);
	if (ret) {
		tplan_accel_fini(accel);
		return ret;
	}
	platform_set_drvdata(pdev, accel);
	return 0;
}

static int tplan_probe(struct platform_device *pdev)
{
	tplan_probe_error = tplan_probe_dev(pdev);
	return tplan_probe_error;
}

/*
 * Unloading: no file is open (each holds the module), no mapping, dma-buf
 * or import is left (each holds a file or the module), so no plan is left.
 * Nothing else removes the device: the driver has no unbind attribute.
 */
static void tplan_remove(struct platform_device *pdev)
{
	tplan_accel_fini(platform_get_drvdata(pdev));
}

static struct platform_driver tplan_platform_driver = {
	.probe = tplan_probe,
	.remove = tplan_remove,
	.driver = {
		.name = TPLAN_DRIVER_NAME,
		/*
		 * No unbind through sysfs: mappings, dma-bufs and imports
		 * reach the pools directly, so the device goes only with
		 * the module, which they hold.
		 */
		.suppress_bind_attrs = true,
	},
};

static int __init tplan_init(void)
{
	int ret;

	ret = check_params(tplan_sizes, &tplan_count);
	if (ret)
		return ret;
	ret = platform_driver_register(&tplan_platform_driver);
	if (ret)
		return ret;
	tplan_probe_error = -ENODEV;
	tplan_pdev = platform_device_register_simple(TPLAN_DRIVER_NAME,
						     PLATFORM_DEVID_NONE,
						     NULL, 0);
	if (IS_ERR(tplan_pdev)) {
		ret = PTR_ERR(tplan_pdev);
		goto err_driver;
	}
	/* the probe ran as the device was added */
	if (!platform_get_drvdata(tplan_pdev)) {
		ret = tplan_probe_error;
		goto err_pdev;
	}
	return 0;

err_pdev:
	platform_device_unregister(tplan_pdev);
err_driver:
	platform_driver_unregister(&tplan_platform_driver);
	return ret;
}

static void __exit tplan_exit(void)
{
	platform_device_unregister(tplan_pdev);
	platform_driver_unregister(&tplan_platform_driver);
}

module_init(tplan_init);
module_exit(tplan_exit);

MODULE_DESCRIPTION("tplan: tensor lifetime planner and DMA arena for ML accelerators");
MODULE_AUTHOR("The tplan developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(TPLAN_VERSION);
MODULE_IMPORT_NS(DMA_BUF);
