// SPDX-License-Identifier: GPL-2.0
/*
 * region.c - the run-time allocator of one pool.
 */

/**
 * DOC: Region allocator
 *
 * Purpose: which bytes of a pool are held and which are free.  Every
 * region, free or used, is a &struct tplan_region in one list in address
 * order, so a released region finds its neighbours in O(1) and merges
 * with the free ones: an idle pool is always exactly one free region.
 * Allocation is first fit in address order, which keeps held regions low
 * and the free space in one piece at the top as long as it can.  Starts
 * and sizes are multiples of the pool's granule (the page size).
 *
 * Cost: allocation walks the list, O(regions); it allocates at most two
 * nodes (the free runs left below and above), both before anything
 * changes, so -ENOMEM leaves the pool as it was.  Freeing and growing in
 * place are O(1) and never allocate.  Free runs being nodes too, a node
 * embedded in the caller's hold would not make allocation infallible: a
 * split can still leave two free runs to describe.
 *
 * Locking: none here; the caller serialises every call on one pool (the
 * driver holds &tplan_arena.lock).
 *
 * Ownership: the pool owns every node.  A used region is handed to its
 * holder (a &struct tplan_hold), which gives it back with
 * tplan_region_free(); the node may be freed there.
 */
#include <linux/align.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/log2.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "compat.h"
#include "region.h"

/* Exported (in a KUnit kernel only) for the KUnit tests of this file. */

static struct tplan_region *region_new(u64 start, u64 size, bool used)
{
	struct tplan_region *r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);

	if (r) {
		r->start = start;
		r->size = size;
		r->used = used;
	}
	return r;
}

/**
 * tplan_region_pool_init() - start a pool as one free region
 * @pool: the pool
 * @size: bytes, a non-zero multiple of @granule
 * @granule: a power of two every region start and size is a multiple of
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int tplan_region_pool_init(struct tplan_region_pool *pool, u64 size,
			   u64 granule)
{
	struct tplan_region *r;

	if (!size || !is_power_of_2(granule) || !IS_ALIGNED(size, granule))
		return -EINVAL;
	r = region_new(0, size, false);
	if (!r)
		return -ENOMEM;
	INIT_LIST_HEAD(&pool->regions);
	list_add(&r->link, &pool->regions);
	pool->size = size;
	pool->granule = granule;
	pool->used = 0;
	return 0;
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_region_pool_init);

/**
 * tplan_region_pool_destroy() - free the bookkeeping of a pool
 * @pool: the pool; every region should be free by now
 */
void tplan_region_pool_destroy(struct tplan_region_pool *pool)
{
	struct tplan_region *r, *next;

	WARN_ON(pool->used);
	list_for_each_entry_safe(r, next, &pool->regions, link) {
		list_del(&r->link);
		kfree(r);
	}
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_region_pool_destroy);

/*
 * Carve [at, at + size) out of the free region @r: what is left below and
 * above stays free.  Both leftover nodes are allocated before anything is
 * changed, so a failure leaves the pool as it was.
 */
static struct tplan_region *carve(struct tplan_region_pool *pool,
				  struct tplan_region *r, u64 at, u64 size)
{
	u64 below = at - r->start, above = r->start + r->size - at - size;
	struct tplan_region *lo = NULL, *hi = NULL;

	if (below) {
		lo = region_new(r->start, below, false);
		if (!lo)
			return ERR_PTR(-ENOMEM);
	}
	if (above) {
		hi = region_new(at + size, above, false);
		if (!hi) {
			kfree(lo);
			return ERR_PTR(-ENOMEM);
		}
		list_add(&hi->link, &r->link);
	}
	if (lo)
		list_add_tail(&lo->link, &r->link);
	r->start = at;
	r->size = size;
	r->used = true;
	pool->used += size;
	return r;
}

/**
 * tplan_region_alloc() - hold the lowest free run that fits
 * @pool: the pool
 * @size: bytes, rounded up to the pool's granule; must be non-zero
 * @align: a power of two the start must be a multiple of (at least the
 *         granule is used)
 *
 * Return: the region, ERR_PTR(-EINVAL) for size 0 or a bad alignment,
 * ERR_PTR(-ENOSPC) when no free run fits, ERR_PTR(-ENOMEM).
 */
struct tplan_region *tplan_region_alloc(struct tplan_region_pool *pool,
					u64 size, u64 align)
{
	struct tplan_region *r;

	if (!size || !is_power_of_2(align))
		return ERR_PTR(-EINVAL);
	if (size > pool->size)
		return ERR_PTR(-ENOSPC);
	size = ALIGN(size, pool->granule);
	align = max(align, pool->granule);
	list_for_each_entry(r, &pool->regions, link) {
		u64 at = ALIGN(r->start, align);

		/* at < start: aligning wrapped past 2^64 */
		if (r->used || at < r->start || at >= r->start + r->size)
			continue;
		if (r->start + r->size - at >= size)
			return carve(pool, r, at, size);
	}
	return ERR_PTR(-ENOSPC);
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_region_alloc);

static bool free_neighbour(struct tplan_region_pool *pool,
			   struct list_head *pos)
{
	return pos != &pool->regions &&
	       !list_entry(pos, struct tplan_region, link)->used;
}

/**
 * tplan_region_free() - give a region back, merged with free neighbours
 * @pool: the pool it came from
 * @region: a region tplan_region_alloc() returned; it may be freed here
 */
void tplan_region_free(struct tplan_region_pool *pool,
		       struct tplan_region *region)
{
	struct tplan_region *r = region;

	if (WARN_ON(!r->used))
		return;
	r->used = false;
	pool->used -= r->size;
	if (free_neighbour(pool, r->link.prev)) {
		struct tplan_region *prev = list_prev_entry(r, link);

		prev->size += r->size;
		list_del(&r->link);
		kfree(r);
		r = prev;
	}
	if (free_neighbour(pool, r->link.next)) {
		struct tplan_region *next = list_next_entry(r, link);

		r->size += next->size;
		list_del(&next->link);
		kfree(next);
	}
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_region_free);

/**
 * tplan_region_grow() - make a held region larger, where it is
 * @pool: the pool it came from
 * @region: a held region
 * @size: the bytes it should have, rounded up to the granule
 *
 * The region never moves: it grows into the free run right after it, if
 * that run is large enough.  Growing to its size or less changes nothing.
 *
 * Return: 0, or -ENOSPC when the bytes after it are held or too few.
 */
int tplan_region_grow(struct tplan_region_pool *pool,
		      struct tplan_region *region, u64 size)
{
	struct tplan_region *next;
	u64 more;

	if (size <= region->size)
		return 0;
	more = ALIGN(size, pool->granule) - region->size;
	if (!free_neighbour(pool, region->link.next))
		return -ENOSPC;
	next = list_next_entry(region, link);
	if (next->size < more)
		return -ENOSPC;
	region->size += more;
	pool->used += more;
	next->start += more;
	next->size -= more;
	if (!next->size) {
		list_del(&next->link);
		kfree(next);
	}
	return 0;
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_region_grow);

/**
 * tplan_region_stats() - summarise a pool
 * @pool: the pool
 * @stats: filled in
 */
void tplan_region_stats(const struct tplan_region_pool *pool,
			struct tplan_region_stats *stats)
{
	const struct tplan_region *r;

	memset(stats, 0, sizeof(*stats));
	list_for_each_entry(r, &pool->regions, link) {
		if (r->used) {
			stats->used += r->size;
			continue;
		}
		stats->free += r->size;
		stats->free_regions++;
		stats->largest_free = max(stats->largest_free, r->size);
	}
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_region_stats);

/**
 * tplan_region_print() - one line per region, in address order
 * @pool: the pool
 * @m: where to print
 */
void tplan_region_print(const struct tplan_region_pool *pool,
			struct seq_file *m)
{
	const struct tplan_region *r;

	list_for_each_entry(r, &pool->regions, link)
		seq_printf(m, "  %#018llx-%#018llx: %llu: %s\n", r->start,
			   r->start + r->size, r->size, r->used ? "used" : "free");
}
