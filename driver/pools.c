// SPDX-License-Identifier: GPL-2.0
/*
 * pools.c - the arena: one pinned DMA buffer per tier, and the holds that
 * keep regions of it for plans.
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

static void hold_free(struct kref *ref)
{
	struct tplan_hold *hold = container_of(ref, struct tplan_hold, ref);
	struct tplan_device *tdev = hold->tdev;

	mutex_lock(&tdev->lock);
	tplan_region_free(&tdev->pools[hold->pool].regions, hold->region);
	mutex_unlock(&tdev->lock);
	kfree(hold);
}

/**
 * tplan_hold_put() - drop a reference; the last one frees the region
 * @hold: the hold, or NULL
 */
void tplan_hold_put(struct tplan_hold *hold)
{
	if (hold)
		kref_put(&hold->ref, hold_free);
}

/**
 * tplan_hold_alloc() - hold a zeroed region of a pool
 * @tdev: the device
 * @pool: index of the pool
 * @size: bytes, non-zero; rounded up to whole pages
 *
 * Return: the hold (one reference), ERR_PTR(-ENOSPC) when no free run of
 * the pool fits, or ERR_PTR(-ENOMEM).
 */
struct tplan_hold *tplan_hold_alloc(struct tplan_device *tdev, u32 pool,
				    u64 size)
{
	struct tplan_hold *hold = kzalloc(sizeof(*hold), GFP_KERNEL);
	struct tplan_region *region;

	if (!hold)
		return ERR_PTR(-ENOMEM);
	mutex_lock(&tdev->lock);
	region = tplan_region_alloc(&tdev->pools[pool].regions, size, PAGE_SIZE);
	mutex_unlock(&tdev->lock);
	if (IS_ERR(region)) {
		kfree(hold);
		return ERR_CAST(region);
	}
	kref_init(&hold->ref);
	hold->tdev = tdev;
	hold->region = region;
	hold->pool = pool;
	/* Whatever the previous holder left there is not for this one. */
	memset(tdev->pools[pool].cpu_addr + region->start, 0, region->size);
	return hold;
}

/**
 * tplan_hold_alloc_first() - hold a zeroed region of the fastest pool with
 * room (seed 001: the near tier while it has room, then the next)
 * @tdev: the device
 * @size: bytes, non-zero
 *
 * Return: as tplan_hold_alloc(); -ENOSPC when no pool has room.
 */
struct tplan_hold *tplan_hold_alloc_first(struct tplan_device *tdev, u64 size)
{
	struct tplan_hold *hold = ERR_PTR(-ENOSPC);
	u32 i;

	for (i = 0; i < tdev->pool_count; i++) {
		hold = tplan_hold_alloc(tdev, i, size);
		if (!IS_ERR(hold) || PTR_ERR(hold) != -ENOSPC)
			break;
	}
	return hold;
}

/**
 * tplan_hold_grow() - make a held region larger where it is
 * @hold: the hold
 * @size: the bytes it should have
 *
 * The new bytes are zeroed; the old ones keep their contents.
 *
 * Return: 0, or -ENOSPC when the bytes after the region are not free.
 */
int tplan_hold_grow(struct tplan_hold *hold, u64 size)
{
	struct tplan_device *tdev = hold->tdev;
	struct tplan_region *r = hold->region;
	u64 old;
	int ret;

	mutex_lock(&tdev->lock);
	old = r->size;
	ret = tplan_region_grow(&tdev->pools[hold->pool].regions, r, size);
	mutex_unlock(&tdev->lock);
	if (!ret)
		memset(tdev->pools[hold->pool].cpu_addr + r->start + old, 0,
		       r->size - old);
	return ret;
}

/**
 * tplan_hold_extent() - where a hold's bytes are, and how many
 * @hold: the hold
 * @start: its first byte, from the start of its pool
 * @size: its bytes
 *
 * Read under the device lock: a group's scratch region may be growing.
 */
void tplan_hold_extent(const struct tplan_hold *hold, u64 *start, u64 *size)
{
	mutex_lock(&hold->tdev->lock);
	*start = hold->region->start;
	*size = hold->region->size;
	mutex_unlock(&hold->tdev->lock);
}

/**
 * tplan_pool_room() - the largest free run of a pool, in bytes
 * @tdev: the device
 * @pool: index of the pool
 *
 * Return: the bytes one more region of the pool could have right now.
 */
u64 tplan_pool_room(struct tplan_device *tdev, u32 pool)
{
	struct tplan_region_stats stats;

	mutex_lock(&tdev->lock);
	tplan_region_stats(&tdev->pools[pool].regions, &stats);
	mutex_unlock(&tdev->lock);
	return stats.largest_free;
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
