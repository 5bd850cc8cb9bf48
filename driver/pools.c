// SPDX-License-Identifier: GPL-2.0
/*
 * pools.c - the arena: one pinned DMA buffer per tier, and what the pools
 * have free.
 */

/**
 * DOC: Pools
 *
 * Purpose: the arena plans get their memory from.  A pool is one
 * physically contiguous, DMA-coherent buffer; the pools are the tiers,
 * fastest first (a small near tier such as on-chip SRAM, then a large far
 * tier such as DRAM).  Each has a region allocator (region.c) for its
 * bytes; the regions plans keep are holds (hold.c).
 *
 * Cost: the buffers are allocated once, at load (pool_sizes=), and pinned
 * until unload; nothing in them is charged to a memory cgroup.  Reading a
 * pool's free room walks its regions.
 *
 * Locking: &tplan_dev.lock serialises every pool's allocator.
 *
 * Ownership: the device owns its pools for its whole life; they are
 * destroyed only when no plan is left.
 */
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/string.h>

#include "pools.h"
#include "tplan_drv.h"

static void pool_free_buffer(struct tplan_dev *tdev, struct tplan_pool *pool,
			     u64 size)
{
	dma_free_coherent(tdev->dma_dev, size, pool->cpu_addr, pool->dma_addr);
	pool->cpu_addr = NULL;
}

/*
 * dma_alloc_coherent() returns a buffer aligned to the smallest page order
 * that holds it, so an offset aligned within the pool (up to that order)
 * is aligned on the device too.
 */
static int pool_create(struct tplan_dev *tdev, u32 tier, u64 size)
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
		pool_free_buffer(tdev, pool, size);
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
int tplan_pools_create(struct tplan_dev *tdev, const u64 *sizes, u32 count)
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
void tplan_pools_destroy(struct tplan_dev *tdev)
{
	u32 i;

	for (i = 0; i < tdev->pool_count; i++) {
		struct tplan_pool *pool = &tdev->pools[i];

		tplan_region_pool_destroy(&pool->regions);
		pool_free_buffer(tdev, pool, pool->regions.size);
	}
	tdev->pool_count = 0;
}

/**
 * tplan_pool_room() - the largest free run of a pool, in bytes
 * @tdev: the device
 * @pool: index of the pool
 *
 * Return: the bytes one more region of the pool could have right now.
 */
u64 tplan_pool_room(struct tplan_dev *tdev, u32 pool)
{
	struct tplan_region_stats stats;

	mutex_lock(&tdev->lock);
	tplan_region_stats(&tdev->pools[pool].regions, &stats);
	mutex_unlock(&tdev->lock);
	return stats.largest_free;
}

/**
 * tplan_pool_info() - describe one pool, as GET_INFO reports it
 * @tdev: the device
 * @index: index of the pool
 * @info: filled in: the pool's size, tier and what its allocator has free
 */
void tplan_pool_info(struct tplan_dev *tdev, u32 index,
		     struct tplan_pool_info *info)
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
