// SPDX-License-Identifier: GPL-2.0
/*
 * tplan_module.c - module parameters, the DMA-capable device that owns the
 * arena, and /dev/tplan.
 */
#include <linux/debugfs.h>
#include <linux/dma-mapping.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "planner.h"
#include "ioctl.h"
#include "dma_pools.h"
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

static struct platform_device *tplan_pdev;
static struct tplan_dev *tplan_tdev;

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

static int check_params(u64 *sizes, u32 *count)
{
	if (parse_pool_sizes(pool_sizes, sizes, count) || !*count) {
		pr_err("tplan: pool_sizes=%s: expected 1 to %u sizes such as 256K,4M\n",
		       pool_sizes, TPLAN_MAX_POOLS);
		return -EINVAL;
	}
	if (!max_tensors || max_tensors > TPLAN_ARENA_MAX_TENSORS || !max_plans ||
	    !max_submits) {
		pr_err("tplan: max_tensors must be 1 to %u, max_plans and max_submits at least 1\n",
		       TPLAN_ARENA_MAX_TENSORS);
		return -EINVAL;
	}
	if (!default_budget || default_budget > max_budget || !max_submit_bytes) {
		pr_err("tplan: default_budget must be 1 to max_budget, max_submit_bytes at least 1\n");
		return -EINVAL;
	}
	return 0;
}

static void get_limits(struct tplan_limits *l)
{
	*l = (struct tplan_limits) {
		.max_tensors = max_tensors, .max_plans = max_plans,
		.max_submits = max_submits, .default_budget = default_budget,
		.max_budget = max_budget, .max_submit_bytes = max_submit_bytes,
		.max_file_keys = max_file_keys,
		.max_device_keys = max_device_keys,
	};
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
	/* check_params() has checked the limits the arena checks again */
	ret = PTR_ERR(tdev->arena);
	tplan_dma_pools_destroy(tdev);
	return ret;
}

static struct tplan_dev *tplan_dev_create(struct device *dma_dev,
					  const u64 *sizes, u32 count)
{
	struct tplan_dev *tdev = kzalloc(sizeof(*tdev), GFP_KERNEL);
	int ret;

	if (!tdev)
		return ERR_PTR(-ENOMEM);
	ret = tplan_dev_arena(tdev, dma_dev, sizes, count);
	if (ret)
		goto err_free;
	tdev->misc.minor = MISC_DYNAMIC_MINOR;
	tdev->misc.name = "tplan";
	tdev->misc.fops = &tplan_fops;
	tdev->misc.parent = dma_dev;
	/* root and the group udev gives it (60-tplan.rules: render) */
	tdev->misc.mode = 0660;
	ret = misc_register(&tdev->misc);
	if (ret)
		goto err_arena;
	tdev->debugfs = debugfs_create_dir("tplan", NULL);
	tplan_arena_debugfs(tdev->arena, tdev->debugfs);
	return tdev;

err_arena:
	tplan_arena_destroy(tdev->arena);
	tplan_dma_pools_destroy(tdev);
err_free:
	kfree(tdev);
	return ERR_PTR(ret);
}

static void tplan_dev_destroy(struct tplan_dev *tdev)
{
	debugfs_remove_recursive(tdev->debugfs);
	misc_deregister(&tdev->misc);
	tplan_arena_destroy(tdev->arena);
	tplan_dma_pools_destroy(tdev);
	kfree(tdev);
}

static int __init tplan_init(void)
{
	u64 sizes[TPLAN_MAX_POOLS];
	u32 count;
	int ret;

	ret = check_params(sizes, &count);
	if (ret)
		return ret;
	tplan_pdev = platform_device_register_simple("tplan", PLATFORM_DEVID_NONE,
						     NULL, 0);
	if (IS_ERR(tplan_pdev))
		return PTR_ERR(tplan_pdev);
	ret = dma_coerce_mask_and_coherent(&tplan_pdev->dev, DMA_BIT_MASK(64));
	if (ret) {
		dev_err(&tplan_pdev->dev, "no usable DMA mask: %d\n", ret);
		goto err_pdev;
	}
	tplan_tdev = tplan_dev_create(&tplan_pdev->dev, sizes, count);
	if (IS_ERR(tplan_tdev)) {
		ret = PTR_ERR(tplan_tdev);
		goto err_pdev;
	}
	return 0;

err_pdev:
	platform_device_unregister(tplan_pdev);
	return ret;
}

static void __exit tplan_exit(void)
{
	tplan_dev_destroy(tplan_tdev);
	platform_device_unregister(tplan_pdev);
}

module_init(tplan_init);
module_exit(tplan_exit);

MODULE_DESCRIPTION("tplan: tensor lifetime planner and DMA arena for ML accelerators");
MODULE_AUTHOR("The tplan developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(TPLAN_VERSION);
