// SPDX-License-Identifier: GPL-2.0
/*
 * pools.c - the arena: one pinned DMA buffer per tier, and the plans that
 * hold regions of it.
 */
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "tplan_drv.h"

static void pool_free_buffer(struct tplan_device *tdev, struct tplan_pool *pool)
{
	dma_free_coherent(tdev->dma_dev, pool->regions.size, pool->cpu_addr,
			  pool->dma_addr);
	pool->cpu_addr = NULL;
}

static int pool_create(struct tplan_device *tdev, u32 tier, u64 size)
{
	struct tplan_pool *pool = &tdev->pools[tier];
	int ret;

	pool->tier = tier;
	pool->cpu_addr = dma_alloc_coherent(tdev->dma_dev, size, &pool->dma_addr,
					    GFP_KERNEL | __GFP_NOWARN);
	if (!pool->cpu_addr) {
		dev_err(tdev->dma_dev,
			"tier %u: cannot allocate %llu bytes of contiguous DMA memory; use a smaller pool_sizes= entry, or reserve CMA memory (cma= on the kernel command line)\n",
			tier, size);
		return -ENOMEM;
	}
	ret = tplan_region_pool_init(&pool->regions, size, PAGE_SIZE);
	if (ret)
		pool_free_buffer(tdev, pool);
	return ret;
}

/**
 * tplan_pools_create() - allocate the arena
 * @tdev: the device; its dma_dev must be set
 * @sizes: bytes per tier, fastest first, each a multiple of PAGE_SIZE
 * @count: number of tiers, 1 to %TPLAN_MAX_POOLS
 *
 * Return: 0 or a negative errno, with nothing allocated.
 */
int tplan_pools_create(struct tplan_device *tdev, const u64 *sizes, u32 count)
{
	int ret = 0;
	u32 i;

	if (!count || count > TPLAN_MAX_POOLS)
		return -EINVAL;
	for (i = 0; i < count && !ret; i++) {
		ret = pool_create(tdev, i, sizes[i]);
		if (!ret)
			tdev->pool_count = i + 1;
	}
	if (ret)
		tplan_pools_destroy(tdev);
	return ret;
}

/**
 * tplan_pools_destroy() - give the arena back; no plan may be left
 * @tdev: the device
 */
void tplan_pools_destroy(struct tplan_device *tdev)
{
	u32 i;

	for (i = 0; i < tdev->pool_count; i++) {
		tplan_region_pool_destroy(&tdev->pools[i].regions);
		pool_free_buffer(tdev, &tdev->pools[i]);
	}
	tdev->pool_count = 0;
}

/* The fastest pool with a free run large enough (seed 001). */
static struct tplan_region *alloc_in_first_pool(struct tplan_device *tdev,
						u64 size, u32 *index)
{
	struct tplan_region *region;
	u32 i;

	for (i = 0; i < tdev->pool_count; i++) {
		region = tplan_region_alloc(&tdev->pools[i].regions, size,
					    PAGE_SIZE);
		if (!IS_ERR(region) || PTR_ERR(region) != -ENOSPC) {
			*index = i;
			return region;
		}
	}
	return ERR_PTR(-ENOSPC);
}

/**
 * tplan_plan_reserve() - hold a region of plan->peak bytes for a plan
 * @tdev: the device
 * @plan: the plan; on success its region and pool are set, the memory is
 *        zeroed, and it is on the device's list
 *
 * The near tier is used while it has room, then the next (seed 001).  A
 * plan of peak 0 holds nothing.
 *
 * Return: 0, or -ENOSPC when no pool can hold it, or -ENOMEM.
 */
int tplan_plan_reserve(struct tplan_device *tdev, struct tplan_plan *plan)
{
	struct tplan_region *region = NULL;

	mutex_lock(&tdev->lock);
	if (plan->peak) {
		region = alloc_in_first_pool(tdev, plan->peak, &plan->pool);
		if (IS_ERR(region)) {
			mutex_unlock(&tdev->lock);
			return PTR_ERR(region);
		}
	}
	plan->region = region;
	list_add_tail(&plan->link, &tdev->plans);
	mutex_unlock(&tdev->lock);
	/* Whatever the previous holder left there is not for this one. */
	if (region)
		memset(tdev->pools[plan->pool].cpu_addr + region->start, 0,
		       region->size);
	return 0;
}

static void plan_free(struct kref *ref)
{
	struct tplan_plan *plan = container_of(ref, struct tplan_plan, ref);
	struct tplan_device *tdev = plan->tdev;

	mutex_lock(&tdev->lock);
	if (plan->region)
		tplan_region_free(&tdev->pools[plan->pool].regions, plan->region);
	list_del(&plan->link);
	mutex_unlock(&tdev->lock);
	kfree(plan);
}

/**
 * tplan_plan_put() - drop a reference; the last one frees the region
 * @plan: the plan
 */
void tplan_plan_put(struct tplan_plan *plan)
{
	kref_put(&plan->ref, plan_free);
}

/**
 * tplan_pool_info() - describe one pool for GET_INFO
 * @tdev: the device
 * @info: filled in
 * @index: the pool
 */
void tplan_pool_info(struct tplan_device *tdev, struct tplan_pool_info *info,
		     u32 index)
{
	struct tplan_pool *pool = &tdev->pools[index];
	struct tplan_region_stats stats;

	mutex_lock(&tdev->lock);
	tplan_region_stats(&pool->regions, &stats);
	mutex_unlock(&tdev->lock);
	memset(info, 0, sizeof(*info));
	info->size = pool->regions.size;
	info->used = stats.used;
	info->free = stats.free;
	info->largest_free = stats.largest_free;
	info->free_regions = stats.free_regions;
	info->tier = pool->tier;
}
