// SPDX-License-Identifier: GPL-2.0
/*
 * hold.c - holds: the regions of a pool that plans and groups keep.
 */

/**
 * DOC: Holds
 *
 * Purpose: a &struct tplan_hold is one region of a pool that plans use: a
 * plan's region in a pool, a group's scratch region or a kept region.
 * Bytes are zeroed before they become visible to a new owner (a hold's
 * mappable extent, tplan_hold_extent(), only covers zeroed or owned bytes)
 * and again when they go back to the pool, so free memory never keeps what
 * a process left.
 *
 * Cost: one small allocation (charged to the caller) and the allocator's
 * nodes; zeroing (tplan_pool_zero()) is linear in the bytes and yields.
 *
 * Locking: the region bookkeeping and the mappable size are changed under
 * &tplan_arena.lock; zeroing runs outside it, on bytes no one else reaches.
 *
 * Ownership: reference counted, one reference per plan slot (or group
 * key) using it; the last tplan_hold_put() zeroes the bytes and gives the
 * region back to its pool.
 */
#include <linux/kref.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "planner.h"
#include "hold.h"
#include "arena.h"

static void hold_free(struct kref *ref)
{
	struct tplan_hold *hold = container_of(ref, struct tplan_hold, ref);
	struct tplan_arena *arena = hold->arena;
	struct tplan_pool *pool = &arena->pools[hold->pool];

	/* The last reference: no mapping and no plan reaches these bytes. */
	tplan_pool_unmap(pool, hold->region->start, hold->size);
	tplan_pool_zero(pool, hold->region->start, hold->region->size);
	mutex_lock(&arena->lock);
	tplan_region_free(&pool->regions, hold->region);
	mutex_unlock(&arena->lock);
	kfree(hold);
	atomic_dec(&arena->live_holds);
}

/**
 * tplan_hold_put() - drop a reference; the last one zeroes and frees the
 * region
 * @hold: the hold, or NULL
 *
 * From a fence callback or interrupt, use tplan_hold_put_after() or
 * tplan_hold_put_async().
 *
 * Context: process context; may sleep (the last put zeroes the bytes and
 * takes the arena's mutex).
 */
void tplan_hold_put(struct tplan_hold *hold)
{
	might_sleep();
	if (hold)
		kref_put(&hold->ref, hold_free);
}
EXPORT_SYMBOL_NS_GPL(tplan_hold_put, TPLAN);

static void hold_free_work(struct work_struct *work)
{
	struct tplan_hold *hold = container_of(work, struct tplan_hold, free_work);

	hold_free(&hold->ref);
}

/* The last reference is gone: free the region from the arena's workqueue. */
static void hold_free_later(struct kref *ref)
{
	struct tplan_hold *hold = container_of(ref, struct tplan_hold, ref);

	INIT_WORK(&hold->free_work, hold_free_work);
	queue_work(hold->arena->puts, &hold->free_work);
}

/**
 * tplan_hold_put_async() - drop a reference on a hold, in any context
 * @hold: the hold, or NULL
 *
 * As tplan_hold_put(), but a last reference only queues the zeroing and
 * the region's return on the arena's workqueue (tplan_arena_flush() waits
 * for it; tplan_arena_destroy() refuses until then).
 *
 * Context: any context.
 */
void tplan_hold_put_async(struct tplan_hold *hold)
{
	if (hold)
		kref_put(&hold->ref, hold_free_later);
}
EXPORT_SYMBOL_NS_GPL(tplan_hold_put_async, TPLAN);

static void hold_put_void(void *hold)
{
	tplan_hold_put(hold);
}

/**
 * tplan_hold_put_after() - drop a reference on a hold when a fence signals
 * @hold: the hold, or NULL
 * @fence: the fence of the last job using the region (the call takes a
 *         reference on it until the put)
 *
 * As tplan_hold_put(), but not before @fence signals (see
 * tplan_arena_plan_put_after()).
 *
 * Context: process context; may sleep.
 */
void tplan_hold_put_after(struct tplan_hold *hold, struct dma_fence *fence)
{
	if (hold)
		tplan_arena_put_after(hold->arena, fence, hold_put_void, hold);
}
EXPORT_SYMBOL_NS_GPL(tplan_hold_put_after, TPLAN);

/**
 * tplan_hold_alloc() - hold a zeroed region of a pool
 * @arena: the arena
 * @pool: index of the pool
 * @size: bytes, non-zero; rounded up to whole pages
 * @align: a power of two the region's start (in the pool) is a multiple
 *         of; at least the page size is used
 *
 * The region is zeroed, then mapped by the pool's &tplan_pool_ops.map.
 *
 * Context: process context; sleeps.
 * Return: the hold (one reference); ERR_PTR(-EINVAL) for no such pool, no
 * bytes or an alignment that is not a power of two; ERR_PTR(-ENOSPC) when
 * no free run of the pool fits; the map hook's errno (the region is back
 * in the pool); or ERR_PTR(-ENOMEM).
 */
struct tplan_hold *tplan_hold_alloc(struct tplan_arena *arena, u32 pool,
				    u64 size, u64 align)
{
	struct tplan_hold *hold;
	struct tplan_region *region;
	int ret;

	if (pool >= arena->pool_count || !size || !is_power_of_2(align))
		return ERR_PTR(-EINVAL);
	hold = kzalloc(sizeof(*hold), GFP_KERNEL_ACCOUNT);
	if (!hold)
		return ERR_PTR(-ENOMEM);
	mutex_lock(&arena->lock);
	region = tplan_region_alloc(&arena->pools[pool].regions, size,
				    max_t(u64, align, PAGE_SIZE));
	mutex_unlock(&arena->lock);
	if (IS_ERR(region)) {
		kfree(hold);
		return ERR_CAST(region);
	}
	/* Whatever the previous holder left there is not for this one. */
	tplan_pool_zero(&arena->pools[pool], region->start, region->size);
	ret = tplan_pool_map(&arena->pools[pool], region->start, region->size);
	if (ret) {
		mutex_lock(&arena->lock);
		tplan_region_free(&arena->pools[pool].regions, region);
		mutex_unlock(&arena->lock);
		kfree(hold);
		return ERR_PTR(ret);
	}
	kref_init(&hold->ref);
	atomic_inc(&arena->live_holds);
	hold->arena = arena;
	hold->region = region;
	hold->pool = pool;
	hold->size = region->size;
	return hold;
}
EXPORT_SYMBOL_NS_GPL(tplan_hold_alloc, TPLAN);

/**
 * tplan_hold_alloc_first() - hold a zeroed region of the fastest allowed
 * pool with room (the near tier while it has room, then the next)
 * @arena: the arena
 * @size: bytes, non-zero
 * @align: as for tplan_hold_alloc()
 * @pools: bit k set: pool k may be used
 *
 * Context: process context; sleeps.
 * Return: as tplan_hold_alloc(); -ENOSPC when no allowed pool has room.
 */
struct tplan_hold *tplan_hold_alloc_first(struct tplan_arena *arena, u64 size,
					  u64 align, u32 pools)
{
	struct tplan_hold *hold = ERR_PTR(-ENOSPC);
	u32 i;

	for (i = 0; i < arena->pool_count; i++) {
		if (!(pools & BIT(i)))
			continue;
		hold = tplan_hold_alloc(arena, i, size, align);
		if (!IS_ERR(hold) || PTR_ERR(hold) != -ENOSPC)
			break;
	}
	return hold;
}
EXPORT_SYMBOL_NS_GPL(tplan_hold_alloc_first, TPLAN);

/**
 * tplan_hold_grow() - make a held region larger where it is
 * @hold: the hold
 * @size: the bytes it should have
 *
 * The new bytes are zeroed and mapped (&tplan_pool_ops.map) before they
 * become part of the mappable extent (tplan_hold_extent()); the old ones
 * keep their contents.  When the map hook fails, the region keeps the
 * bytes (unmapped, out of the extent) until it is freed or grown again.
 *
 * Return: 0, -ENOSPC when the bytes after the region are not free, or the
 * map hook's errno.
 */
int tplan_hold_grow(struct tplan_hold *hold, u64 size)
{
	struct tplan_arena *arena = hold->arena;
	struct tplan_pool *pool = &arena->pools[hold->pool];
	struct tplan_region *r = hold->region;
	u64 have, now;
	int ret;

	mutex_lock(&arena->lock);
	have = hold->size;
	ret = tplan_region_grow(&pool->regions, r, size);
	now = r->size;
	mutex_unlock(&arena->lock);
	if (ret || now == have)
		return ret;
	tplan_pool_zero(pool, r->start + have, now - have);
	ret = tplan_pool_map(pool, r->start + have, now - have);
	if (ret)
		return ret;
	mutex_lock(&arena->lock);
	hold->size = now;
	mutex_unlock(&arena->lock);
	return 0;
}

/**
 * tplan_hold_extent() - the bytes of a hold a mapping may show
 * @hold: the hold
 * @start: its first byte, from the start of its pool
 * @size: its bytes
 *
 * Read under the device lock: a group's scratch region may be growing.
 */
void tplan_hold_extent(const struct tplan_hold *hold, u64 *start, u64 *size)
{
	mutex_lock(&hold->arena->lock);
	*start = hold->region->start;
	*size = hold->size;
	mutex_unlock(&hold->arena->lock);
}

/**
 * tplan_hold_info() - where a hold's region is, for its host
 * @hold: the hold
 * @info: out: its pool, place, size and device (and CPU) address
 *
 * Context: process context; takes the arena's mutex.
 */
void tplan_hold_info(const struct tplan_hold *hold,
		     struct tplan_region_info *info)
{
	const struct tplan_pool *pool = &hold->arena->pools[hold->pool];

	memset(info, 0, sizeof(*info));
	info->pool = hold->pool;
	tplan_hold_extent(hold, &info->offset, &info->size);
	info->dev_addr = pool->dev_addr + info->offset;
	if (pool->cpu_addr)
		info->cpu_addr = pool->cpu_addr + info->offset;
}
EXPORT_SYMBOL_NS_GPL(tplan_hold_info, TPLAN);

/**
 * tplan_tensors_need() - what some tensors ask of the region holding them
 * @t: the table
 * @n: tensors in @t
 * @pick: the tensors that count, or NULL for all of them
 * @arg: passed to @pick
 * @align: out: the largest alignment among them (at least 1)
 *
 * Return: the pools (bits) every one of them allows.
 */
u32 tplan_tensors_need(const struct tplan_tensor *t, u32 n, tplan_pick_fn pick,
		       u32 arg, u64 *align)
{
	u32 pools = ~0U, i;

	*align = 1;
	for (i = 0; i < n; i++) {
		tplan_yield_every(i);
		if (pick && !pick(&t[i], arg))
			continue;
		*align = max(*align, t[i].alignment);
		if (t[i].tiers)
			pools &= t[i].tiers;
	}
	return pools;
}
