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
 * nodes; zeroing is linear in the bytes and yields every
 * %TPLAN_ZERO_CHUNK.
 *
 * Locking: the region bookkeeping and the mappable size are changed under
 * &tplan_dev.lock; zeroing runs outside it, on bytes no one else reaches.
 *
 * Ownership: reference counted, one reference per plan slot (or group
 * key) using it; the last tplan_hold_put() zeroes the bytes and gives the
 * region back to its pool.
 */
#include <linux/kref.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "planner.h"
#include "hold.h"
#include "tplan_drv.h"

/* Zero this much at a time, then yield: a pool may be large. */
#define TPLAN_ZERO_CHUNK	(1024 * 1024)

/* Zero bytes of a pool that no one else can reach, yielding as it goes. */
static void zero_bytes(struct tplan_pool *pool, u64 start, u64 size)
{
	while (size) {
		u64 chunk = min_t(u64, size, TPLAN_ZERO_CHUNK);

		memset(pool->cpu_addr + start, 0, chunk);
		start += chunk;
		size -= chunk;
		cond_resched();
	}
}

static void hold_free(struct kref *ref)
{
	struct tplan_hold *hold = container_of(ref, struct tplan_hold, ref);
	struct tplan_dev *tdev = hold->tdev;
	struct tplan_pool *pool = &tdev->pools[hold->pool];

	/* The last reference: no mapping and no plan reaches these bytes. */
	zero_bytes(pool, hold->region->start, hold->region->size);
	mutex_lock(&tdev->lock);
	tplan_region_free(&pool->regions, hold->region);
	mutex_unlock(&tdev->lock);
	kfree(hold);
}

/**
 * tplan_hold_put() - drop a reference; the last one zeroes and frees the
 * region
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
 * @align: a power of two the region's start (in the pool) is a multiple
 *         of; at least the page size is used
 *
 * Return: the hold (one reference), ERR_PTR(-ENOSPC) when no free run of
 * the pool fits, or ERR_PTR(-ENOMEM).
 */
struct tplan_hold *tplan_hold_alloc(struct tplan_dev *tdev, u32 pool,
				    u64 size, u64 align)
{
	struct tplan_hold *hold = kzalloc(sizeof(*hold), GFP_KERNEL_ACCOUNT);
	struct tplan_region *region;

	if (!hold)
		return ERR_PTR(-ENOMEM);
	mutex_lock(&tdev->lock);
	region = tplan_region_alloc(&tdev->pools[pool].regions, size,
				    max_t(u64, align, PAGE_SIZE));
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
	zero_bytes(&tdev->pools[pool], region->start, region->size);
	hold->size = region->size;
	return hold;
}

/**
 * tplan_hold_alloc_first() - hold a zeroed region of the fastest allowed
 * pool with room (the near tier while it has room, then the next)
 * @tdev: the device
 * @size: bytes, non-zero
 * @align: as for tplan_hold_alloc()
 * @pools: bit k set: pool k may be used
 *
 * Return: as tplan_hold_alloc(); -ENOSPC when no allowed pool has room.
 */
struct tplan_hold *tplan_hold_alloc_first(struct tplan_dev *tdev, u64 size,
					  u64 align, u32 pools)
{
	struct tplan_hold *hold = ERR_PTR(-ENOSPC);
	u32 i;

	for (i = 0; i < tdev->pool_count; i++) {
		if (!(pools & BIT(i)))
			continue;
		hold = tplan_hold_alloc(tdev, i, size, align);
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
 * The new bytes are zeroed before they become part of the mappable extent
 * (tplan_hold_extent()); the old ones keep their contents.
 *
 * Return: 0, or -ENOSPC when the bytes after the region are not free.
 */
int tplan_hold_grow(struct tplan_hold *hold, u64 size)
{
	struct tplan_dev *tdev = hold->tdev;
	struct tplan_region *r = hold->region;
	u64 old, now;
	int ret;

	mutex_lock(&tdev->lock);
	old = r->size;
	ret = tplan_region_grow(&tdev->pools[hold->pool].regions, r, size);
	now = r->size;
	mutex_unlock(&tdev->lock);
	if (ret || now == old)
		return ret;
	zero_bytes(&tdev->pools[hold->pool], r->start + old, now - old);
	mutex_lock(&tdev->lock);
	hold->size = now;
	mutex_unlock(&tdev->lock);
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
	mutex_lock(&hold->tdev->lock);
	*start = hold->region->start;
	*size = hold->size;
	mutex_unlock(&hold->tdev->lock);
}

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
		if (pick && !pick(&t[i], arg))
			continue;
		*align = max(*align, t[i].alignment);
		if (t[i].tiers)
			pools &= t[i].tiers;
	}
	return pools;
}
