// SPDX-License-Identifier: GPL-2.0
/*
 * tplan_module.c - module parameters, the DMA-capable platform device and
 * its driver, which makes the arena and the accel device.
 */
#include <linux/dma-mapping.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <drm/drm_accel.h>
#include <drm/drm_drv.h>

#include "planner.h"
#include "file.h"
#include "gem.h"
#include "ioctl.h"
#include "dma_pools.h"
#include "arena.h"
#include "tplan_arena.h"
#include "tplan_drv.h"

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
		 "planner work units for a submit that asks for 0 (default 40000000, as offline)");

static unsigned long max_budget = 10 * TPLAN_DEFAULT_BUDGET;
module_param(max_budget, ulong, 0444);
MODULE_PARM_DESC(max_budget,
		 "the most work units one submit may spend; larger budgets are clamped (default 400000000, a few seconds)");

static unsigned long max_submit_bytes = 64UL << 20;
module_param(max_submit_bytes, ulong, 0444);
MODULE_PARM_DESC(max_submit_bytes,
		 "the most kernel memory one submit may use while planning (default 64 MiB)");

static unsigned long max_file_keys = 1UL << 20;
module_param(max_file_keys, ulong, 0444);
MODULE_PARM_DESC(max_file_keys,
		 "most share_key tensors the serial groups of one open file store, 40 bytes of kernel memory each (default 1048576)");

static unsigned long max_device_keys = 1UL << 22;
module_param(max_device_keys, ulong, 0444);
MODULE_PARM_DESC(max_device_keys,
		 "most share_key tensors stored by every open file together (default 4194304)");

static unsigned int max_device_plans = 4096;
module_param(max_device_plans, uint, 0444);
MODULE_PARM_DESC(max_device_plans,
		 "most plans alive at once over every open file, released ones a mapping or dma-buf keeps included (default 4096)");

static struct platform_device *tplan_pdev;

static int parse_pool_sizes(const char *text, u64 *sizes, u32 *count)
{
	char *copy = kstrdup(text, GFP_KERNEL), *cur, *tok;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	*count = 0;
	cur = copy;
	while ((tok = strsep(&cur, ",")) && !ret) {
		char *end;
		u64 size = memparse(tok, &end);

		if (*end || !size || *count == TPLAN_MAX_POOLS)
			ret = -EINVAL;
		else
			sizes[(*count)++] = PAGE_ALIGN(size);
	}
	kfree(copy);
	return ret;
}

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

	if (parse_pool_sizes(pool_sizes, sizes, count) || !*count) {
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

/* The arena over the DMA buffers, with the module's limits. */
static int tplan_dev_arena(struct tplan_dev *tdev, struct device *dma_dev,
			   const u64 *sizes, u32 count)
{
	struct tplan_pool_desc descs[TPLAN_MAX_POOLS];
	struct tplan_limits limits;
	int ret;

	ret = tplan_dma_pools_create(tdev, dma_dev, sizes, count, descs);
	if (ret)
		return ret;
	get_limits(&limits);
	tdev->arena = tplan_arena_create(descs, count, &limits);
	if (!IS_ERR(tdev->arena))
		return 0;
	ret = PTR_ERR(tdev->arena);
	tplan_dma_pools_destroy(tdev);
	return ret;
}

static const struct drm_driver tplan_drm_driver = {
	.driver_features = DRIVER_COMPUTE_ACCEL | DRIVER_GEM,
	.open = tplan_drm_open,
	.postclose = tplan_drm_postclose,
	.prime_handle_to_fd = tplan_gem_prime_handle_to_fd,
	.gem_prime_import = tplan_gem_prime_import,
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
	struct tplan_dev *tdev;
	int ret;

	ret = dma_coerce_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret) {
		dev_err(&pdev->dev, "no usable DMA mask: %d\n", ret);
		return ret;
	}
	tdev = devm_drm_dev_alloc(&pdev->dev, &tplan_drm_driver,
				  struct tplan_dev, drm);
	if (IS_ERR(tdev))
		return PTR_ERR(tdev);
	ret = tplan_dev_arena(tdev, &pdev->dev, tplan_sizes, tplan_count);
	if (ret)
		return ret;
	ret = drm_dev_register(&tdev->drm, 0);
	if (ret) {
		tplan_arena_destroy(tdev->arena);
		tplan_dma_pools_destroy(tdev);
		return ret;
	}
	/* /sys/kernel/debug/accel/tplan/state */
	tplan_arena_debugfs(tdev->arena, tdev->drm.debugfs_root);
	platform_set_drvdata(pdev, tdev);
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
	struct tplan_dev *tdev = platform_get_drvdata(pdev);

	drm_dev_unregister(&tdev->drm);
	/* busy: something still holds the pools; leak them, never free */
	if (WARN_ON(tplan_arena_destroy(tdev->arena)))
		return;
	tplan_dma_pools_destroy(tdev);
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
