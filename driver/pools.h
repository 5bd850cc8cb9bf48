/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pools.h - the arena: one pinned DMA buffer per tier (pools.c).
 */
#ifndef TPLAN_POOLS_H
#define TPLAN_POOLS_H

#include <linux/types.h>

#include "region.h"

struct tplan_dev;
struct tplan_pool_info;

/**
 * struct tplan_pool - one tier of the arena
 * @cpu_addr: the kernel's view of the buffer
 * @dma_addr: the device's view of the buffer
 * @regions: who holds which bytes; @regions.size is the buffer's size
 * @tier: 0 for the fastest
 */
struct tplan_pool {
	void *cpu_addr;
	dma_addr_t dma_addr;
	struct tplan_region_pool regions;
	u32 tier;
};

int tplan_pools_create(struct tplan_dev *tdev, const u64 *sizes, u32 count);
void tplan_pools_destroy(struct tplan_dev *tdev);
u64 tplan_pool_room(struct tplan_dev *tdev, u32 pool);
void tplan_pool_info(struct tplan_dev *tdev, u32 index,
		     struct tplan_pool_info *info);

#endif /* TPLAN_POOLS_H */
