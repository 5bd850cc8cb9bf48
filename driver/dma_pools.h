/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dma_pools.h - the accel device's pools: one pinned DMA buffer per tier, as an
 * arena host describes its memory (dma_pools.c).
 */
#ifndef TPLAN_DMA_POOLS_H
#define TPLAN_DMA_POOLS_H

#include <linux/types.h>

struct device;
struct tplan_accel;
struct tplan_pool_desc;

int tplan_dma_pools_create(struct tplan_accel *accel, struct device *dev,
			   const u64 *sizes, u32 count,
			   struct tplan_pool_desc *descs);
void tplan_dma_pools_destroy(struct tplan_accel *accel);

#endif /* TPLAN_DMA_POOLS_H */
