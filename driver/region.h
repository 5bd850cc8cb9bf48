/* SPDX-License-Identifier: GPL-2.0 */
/*
 * region.h - the run-time allocator of one pool: regions kept in address
 * order, adjacent free regions merged on release.
 */
#ifndef TPLAN_REGION_H
#define TPLAN_REGION_H

#include <linux/list.h>
#include <linux/types.h>

struct seq_file;

/**
 * struct tplan_region - a run of bytes of a pool, free or held
 * @link: in &tplan_region_pool.regions, by address
 * @start: first byte, from the start of the pool
 * @size: bytes
 * @used: held by a plan
 */
struct tplan_region {
	struct list_head link;
	u64 start;
	u64 size;
	bool used;
};

/**
 * struct tplan_region_pool - every region of a pool, used or free
 * @regions: the regions by address; together they cover the pool exactly
 * @size: bytes in the pool
 * @granule: region starts and sizes are multiples of this power of two
 * @used: bytes in used regions
 *
 * Not locked here: the caller serialises every call on one pool.
 */
struct tplan_region_pool {
	struct list_head regions;
	u64 size;
	u64 granule;
	u64 used;
};

/**
 * struct tplan_region_stats - a summary of a pool's allocator
 * @used: bytes held
 * @free: bytes free
 * @largest_free: bytes in the largest free region
 * @free_regions: number of free regions
 */
struct tplan_region_stats {
	u64 used;
	u64 free;
	u64 largest_free;
	u32 free_regions;
};

int tplan_region_pool_init(struct tplan_region_pool *pool, u64 size,
			   u64 granule);
void tplan_region_pool_destroy(struct tplan_region_pool *pool);
struct tplan_region *tplan_region_alloc(struct tplan_region_pool *pool,
					u64 size, u64 align);
void tplan_region_free(struct tplan_region_pool *pool,
		       struct tplan_region *region);
int tplan_region_grow(struct tplan_region_pool *pool,
		      struct tplan_region *region, u64 size);
void tplan_region_stats(const struct tplan_region_pool *pool,
			struct tplan_region_stats *stats);
void tplan_region_print(const struct tplan_region_pool *pool,
			struct seq_file *m);

#endif /* TPLAN_REGION_H */
