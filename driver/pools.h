/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pools.h - the arena's pools: the memory its host described, one piece
 * per tier (pools.c).
 */
#ifndef TPLAN_POOLS_H
#define TPLAN_POOLS_H

#include <linux/types.h>

#include "region.h"

struct tplan_arena;
struct tplan_pool_desc;
struct tplan_pool_info;
struct tplan_pool_ops;

/**
 * struct tplan_pool - one tier of the arena, as its host described it
 * @cpu_addr: the kernel's view of the pool, or NULL (the CPU cannot reach it)
 * @dev_addr: the device's address of its first byte
 * @ops: the host's callbacks, or NULL (see &struct tplan_pool_ops)
 * @priv: passed to @ops
 * @regions: who holds which bytes; @regions.size is the pool's size
 * @tier: 0 for the fastest
 */
struct tplan_pool {
	void *cpu_addr;
	u64 dev_addr;
	const struct tplan_pool_ops *ops;
	void *priv;
	struct tplan_region_pool regions;
	u32 tier;
};

int tplan_pools_create(struct tplan_arena *arena,
		       const struct tplan_pool_desc *pools, u32 count);
void tplan_pools_destroy(struct tplan_arena *arena);
u64 tplan_pool_room(struct tplan_arena *arena, u32 pool);
void tplan_pool_info(struct tplan_arena *arena, u32 index,
		     struct tplan_pool_info *info);
bool tplan_pool_mappable(const struct tplan_pool *pool);
void tplan_pool_zero(const struct tplan_pool *pool, u64 start, u64 size);
int tplan_pool_map(const struct tplan_pool *pool, u64 start, u64 size);
void tplan_pool_unmap(const struct tplan_pool *pool, u64 start, u64 size);

#endif /* TPLAN_POOLS_H */
