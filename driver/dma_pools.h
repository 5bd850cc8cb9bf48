/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dma_pools.h - the accel device's pools: one pinned DMA buffer per tier, as an
 * arena host describes its memory (dma_pools.c).
 */
#ifndef TPLAN_DMA_POOLS_H
#define TPLAN_DMA_POOLS_H

#include <linux/types.h>

struct device;
struct tplan_dev;
struct tplan_pool_desc;

int tplan_dma_pools_create(struct tplan_dev *tdev, struct device *dev,
			   const u64 *sizes, u32 count,
			   struct tplan_pool_desc *descs);
void tplan_dma_pools_destroy(struct tplan_dev *tdev);

#endif /* TPLAN_DMA_POOLS_H */
