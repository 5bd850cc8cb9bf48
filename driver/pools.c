// SPDX-License-Identifier: GPL-2.0
/*
 * pools.c - the arena's pools: the memory its host described, what the
 * pools have free, and zeroing their bytes.
 */

/**
 * DOC: Pools
 *
 * Purpose: the memory plans get their regions from.  A pool is one
 * contiguous piece of memory the host driver owns and described
 * (&struct tplan_pool_desc); the pools are the tiers, fastest first (a
 * small near tier such as on-chip SRAM, then a large far tier such as
 * DRAM).  Each has a region allocator (region.c) for its bytes; the
 * regions plans keep are holds (hold.c).
 *
 * Cost: the memory is the host's, allocated before the arena and freed
 * after it; the arena adds one region node per run of bytes.  Reading a
 * pool's free room walks its regions; zeroing is linear in the bytes and
 * yields every %TPLAN_ZERO_CHUNK.
 *
 * Locking: &tplan_arena.lock serialises every pool's allocator.
 *
 * Ownership: the arena keeps the host's descriptions for its whole life;
 * it is destroyed only when no plan is left.
 */
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "pools.h"
#include "arena.h"

/* Zero this much at a time, then yield: a pool may be large. */
#define TPLAN_ZERO_CHUNK	(1024 * 1024)

/**
 * tplan_pool_mappable() - whether a pool's regions may be mapped
 * @pool: the pool
 *
 * Return: true when the host can map it and the arena can zero it first.
 */
bool tplan_pool_mappable(const struct tplan_pool *pool)
{
	return pool->ops && pool->ops->mmap &&
	       (pool->cpu_addr || pool->ops->zero);
}

/**
 * tplan_pool_zero() - zero bytes of a pool that no one else can reach,
 * yielding as it goes
 * @pool: the pool
 * @start: the first byte, from the start of the pool
 * @size: bytes
 *
 * A pool the CPU cannot reach is zeroed by its host (&tplan_pool_ops.zero);
 * one that neither can zero keeps its bytes, and is never mapped.
 */
void tplan_pool_zero(const struct tplan_pool *pool, u64 start, u64 size)
{
	while (size) {
		u64 chunk = min_t(u64, size, TPLAN_ZERO_CHUNK);

		if (pool->cpu_addr)
			memset(pool->cpu_addr + start, 0, chunk);
		else if (pool->ops && pool->ops->zero)
			pool->ops->zero(pool->priv, start, chunk);
		start += chunk;
		size -= chunk;
		cond_resched();
	}
}

/**
 * tplan_pool_map() - the host maps bytes of a pool being handed out
 * @pool: the pool
 * @start: the first byte, from the start of the pool
 * @size: bytes
 *
 * Return: 0 (also for a pool without &tplan_pool_ops.map), or the host's
 * negative errno.
 */
int tplan_pool_map(const struct tplan_pool *pool, u64 start, u64 size)
{
	if (!pool->ops || !pool->ops->map)
		return 0;
	return pool->ops->map(pool->priv, start, size);
}

/**
 * tplan_pool_unmap() - the host unmaps bytes of a pool coming back
 * @pool: the pool
 * @start: the first byte, from the start of the pool
 * @size: bytes, as tplan_pool_map() mapped them
 */
void tplan_pool_unmap(const struct tplan_pool *pool, u64 start, u64 size)
{
	if (size && pool->ops && pool->ops->unmap)
		pool->ops->unmap(pool->priv, start, size);
}

static int pool_create(struct tplan_pool *pool,
		       const struct tplan_pool_desc *desc)
{
	pool->cpu_addr = desc->cpu_addr;
	pool->dev_addr = desc->dev_addr;
	pool->ops = desc->ops;
	pool->priv = desc->priv;
	pool->tier = desc->tier;
	return tplan_region_pool_init(&pool->regions, desc->size, PAGE_SIZE);
}

/* Sizes whole pages, tiers fastest first, and nothing mapped unzeroed. */
static int pools_check(const struct tplan_pool_desc *pools, u32 count)
{
	u32 i;

	if (!count || count > TPLAN_MAX_POOLS)
		return -EINVAL;
	for (i = 0; i < count; i++) {
		const struct tplan_pool_desc *d = &pools[i];
		bool can_zero = d->cpu_addr || (d->ops && d->ops->zero);

		if (!d->size || !PAGE_ALIGNED(d->size))
			return -EINVAL;
		if (i && d->tier < pools[i - 1].tier)
			return -EINVAL;
		if (d->ops && d->ops->mmap && !can_zero)
			return -EINVAL;
	}
	return 0;
}

/**
 * tplan_pools_create() - take over the host's pools
 * @arena: the arena
 * @pools: the host's descriptions, fastest first
 * @count: number of pools, 1 to %TPLAN_MAX_POOLS
 *
 * Return: 0; -EINVAL for a size that is not whole pages, tiers out of
 * order, or a mappable pool that cannot be zeroed; or -ENOMEM, with
 * nothing kept.
 */
int tplan_pools_create(struct tplan_arena *arena,
		       const struct tplan_pool_desc *pools, u32 count)
{
	int ret;
	u32 i;

	ret = pools_check(pools, count);
	for (i = 0; i < count && !ret; i++) {
		ret = pool_create(&arena->pools[i], &pools[i]);
		if (!ret)
			arena->pool_count = i + 1;
	}
	if (ret)
		tplan_pools_destroy(arena);
	return ret;
}

/**
 * tplan_pools_destroy() - give the arena back; no plan may be left
 * @arena: the arena
 */
void tplan_pools_destroy(struct tplan_arena *arena)
{
	u32 i;

	for (i = 0; i < arena->pool_count; i++) {
		struct tplan_pool *pool = &arena->pools[i];

		tplan_region_pool_destroy(&pool->regions);
	}
	arena->pool_count = 0;
}

/**
 * tplan_pool_room() - the largest free run of a pool, in bytes
 * @arena: the arena
 * @pool: index of the pool
 *
 * Return: the bytes one more region of the pool could have right now.
 */
u64 tplan_pool_room(struct tplan_arena *arena, u32 pool)
{
	struct tplan_region_stats stats;

	mutex_lock(&arena->lock);
	tplan_region_stats(&arena->pools[pool].regions, &stats);
	mutex_unlock(&arena->lock);
	return stats.largest_free;
}

/**
 * tplan_pool_info() - describe one pool, as GET_INFO reports it
 * @arena: the arena
 * @index: index of the pool
 * @info: filled in: the pool's size, tier and what its allocator has free
 */
void tplan_pool_info(struct tplan_arena *arena, u32 index,
		     struct tplan_pool_info *info)
{
	struct tplan_pool *pool = &arena->pools[index];
	struct tplan_region_stats stats;

	mutex_lock(&arena->lock);
	tplan_region_stats(&pool->regions, &stats);
	mutex_unlock(&arena->lock);
	memset(info, 0, sizeof(*info));
	info->size = pool->regions.size;
	info->used = stats.used;
	info->free = stats.free;
	info->largest_free = stats.largest_free;
	info->free_regions = stats.free_regions;
	info->tier = pool->tier;
}
