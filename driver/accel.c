// SPDX-License-Identifier: GPL-2.0
/*
 * accel.c - an accel device planned by tplan: its DMA buffers, its arena
 * and its DRM registration, for tplan's own device and any other host
 * (tplan_accel.h).
 */
#include <linux/device.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <drm/drm_drv.h>

#include "dma_pools.h"
#include "tplan_accel.h"
#include "tplan_arena.h"

/**
 * tplan_accel_parse_sizes() - pool sizes from a module parameter
 * @text: sizes, fastest pool first, comma-separated, with memparse()'s
 *        K/M/G suffixes ("256K,4M")
 * @sizes: out: %TPLAN_MAX_POOLS entries, each rounded up to whole pages
 * @count: out: entries used
 *
 * Context: process context; may sleep.
 * Return: 0; -EINVAL for no size, a zero or malformed one, or more than
 * %TPLAN_MAX_POOLS; -ENOMEM.
 */
int tplan_accel_parse_sizes(const char *text, u64 *sizes, u32 *count)
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
	return ret ?: (*count ? 0 : -EINVAL);
}
EXPORT_SYMBOL_NS_GPL(tplan_accel_parse_sizes, TPLAN);

/**
 * tplan_accel_init() - the DMA buffers of an accel device and the arena
 * over them
 * @accel: the host's device, allocated with devm_drm_dev_alloc() (its
 *         @drm member); @host_ioctls and @host_ioctl_count set if it has
 *         ioctls of its own
 * @dma_dev: the device whose DMA engine reaches the buffers: they are
 *           allocated for it (dma_alloc_coherent(), with its DMA mask,
 *           through its IOMMU if it has one)
 * @sizes: bytes per pool, fastest first, whole pages
 * @count: pools, 1 to %TPLAN_MAX_POOLS
 * @limits: what the arena allows its callers (&struct tplan_limits)
 *
 * Context: process context; sleeps.
 * Return: 0; -EINVAL for sizes or limits the arena refuses; -ENOMEM, with
 * nothing allocated.
 */
int tplan_accel_init(struct tplan_accel *accel, struct device *dma_dev,
		     const u64 *sizes, u32 count,
		     const struct tplan_limits *limits)
{
	struct tplan_pool_desc descs[TPLAN_MAX_POOLS];
	int ret;

	might_sleep();
	if (!count || count > TPLAN_MAX_POOLS)
		return -EINVAL;
	ret = tplan_dma_pools_create(accel, dma_dev, sizes, count, descs);
	if (ret)
		return ret;
	accel->arena = tplan_arena_create(descs, count, limits);
	if (!IS_ERR(accel->arena))
		return 0;
	ret = PTR_ERR(accel->arena);
	accel->arena = NULL;
	tplan_dma_pools_destroy(accel);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(tplan_accel_init, TPLAN);

/**
 * tplan_accel_register() - make an initialised accel device visible
 * (/dev/accel/accelN) with its debugfs state
 * @accel: the device, after tplan_accel_init()
 *
 * On failure the host calls tplan_accel_fini() as it would after
 * success.
 *
 * Context: process context; sleeps.
 * Return: 0, or as drm_dev_register().
 */
int tplan_accel_register(struct tplan_accel *accel)
{
	int ret = drm_dev_register(&accel->drm, 0);

	if (ret)
		return ret;
	/* /sys/kernel/debug/accel/<device>/state */
	tplan_arena_debugfs(accel->arena, accel->drm.debugfs_root);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(tplan_accel_register, TPLAN);

/**
 * tplan_accel_fini() - take an accel device away and free its memory
 * @accel: the device, after tplan_accel_init() (registered or not)
 *
 * The host calls this when no file, mapping or dma-buf of the device is
 * left (they hold its module) and its own users of the regions (jobs) are
 * over; the puts of regions waiting for fences that have signalled are
 * made first.  A region still held is a bug in the host: the arena is then
 * leaked with its DMA buffers (and reported) rather than freed under the
 * holder.
 *
 * Context: process context; sleeps.
 */
void tplan_accel_fini(struct tplan_accel *accel)
{
	might_sleep();
	if (accel->drm.registered)
		drm_dev_unregister(&accel->drm);
	if (!accel->arena)
		return;
	/* busy: something still holds the DMA buffers; leak them, never free */
	if (WARN_ON(tplan_arena_destroy(accel->arena)))
		return;
	accel->arena = NULL;
	tplan_dma_pools_destroy(accel);
}
EXPORT_SYMBOL_NS_GPL(tplan_accel_fini, TPLAN);
