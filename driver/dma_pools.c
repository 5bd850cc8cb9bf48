// SPDX-License-Identifier: GPL-2.0
/*
 * dma_pools.c - the accel device's pools: one pinned DMA buffer per tier,
 * described to the arena as any host describes its memory.
 */

/**
 * DOC: DMA pools
 *
 * Purpose: the memory the accel device plans into.  Each pool is one physically
 * contiguous, DMA-coherent buffer allocated for the device at load
 * (pool_sizes=) and pinned until unload; nothing in it is charged to a
 * memory cgroup.  The arena reaches it through its CPU address and maps
 * it with dma_mmap_coherent().
 *
 * Ownership: the device allocates the buffers before its arena and frees
 * them after it.
 */
#include <linux/dma-mapping.h>
#include <linux/mm.h>

#include "dma_pools.h"
#include "tplan_arena.h"
#include "tplan_accel.h"

/*
 * The arena asks for the pool's pages from vma->vm_pgoff on.  The DMA API
 * maps from a whole buffer and a page offset in it (with an IOMMU it cannot
 * map from an address inside the buffer), which is just that.
 */
static int dma_pool_mmap(void *priv, struct vm_area_struct *vma)
{
	struct tplan_dma_pool *pool = priv;

	return dma_mmap_coherent(pool->dev, vma, pool->cpu_addr,
				 pool->dma_addr, pool->size);
}

static const struct tplan_pool_ops dma_pool_ops = {
	.mmap = dma_pool_mmap,
};

/*
 * dma_alloc_coherent() returns a buffer aligned to the smallest page order
 * that holds it, so an offset aligned within the pool (up to that order)
 * is aligned on the device too.
 */
static int dma_pool_create(struct tplan_dma_pool *pool, struct device *dev,
			   u32 tier, u64 size, struct tplan_pool_desc *desc)
{
	pool->dev = dev;
	pool->size = size;
	pool->cpu_addr = dma_alloc_coherent(dev, size, &pool->dma_addr,
					    GFP_KERNEL | __GFP_NOWARN);
	if (!pool->cpu_addr) {
		dev_err(dev,
			"tier %u: cannot allocate %llu bytes of contiguous DMA memory; use a smaller pool_sizes= entry, or reserve CMA memory (cma= on the kernel command line)\n",
			tier, size);
		return -ENOMEM;
	}
	*desc = (struct tplan_pool_desc) {
		.size = size, .tier = tier, .cpu_addr = pool->cpu_addr,
		.dev_addr = pool->dma_addr, .ops = &dma_pool_ops, .priv = pool,
	};
	return 0;
}

/**
 * tplan_dma_pools_create() - allocate the device's DMA buffers
 * @accel: the device
 * @dev: the device the buffers are for
 * @sizes: bytes per tier, fastest first, each a multiple of PAGE_SIZE
 * @count: number of tiers, 1 to %TPLAN_MAX_POOLS
 * @descs: out: the buffers as the arena is to see them
 *
 * Return: 0 or -ENOMEM, with nothing allocated.
 */
int tplan_dma_pools_create(struct tplan_accel *accel, struct device *dev,
			   const u64 *sizes, u32 count,
			   struct tplan_pool_desc *descs)
{
	int ret = 0;
	u32 i;

	for (i = 0; i < count && !ret; i++) {
		ret = dma_pool_create(&accel->pools[i], dev, i, sizes[i],
				      &descs[i]);
		if (!ret)
			accel->pool_count = i + 1;
	}
	if (ret)
		tplan_dma_pools_destroy(accel);
	return ret;
}

/**
 * tplan_dma_pools_destroy() - free the DMA buffers; the arena is gone
 * @accel: the device
 */
void tplan_dma_pools_destroy(struct tplan_accel *accel)
{
	u32 i;

	for (i = 0; i < accel->pool_count; i++) {
		struct tplan_dma_pool *pool = &accel->pools[i];

		dma_free_coherent(pool->dev, pool->size, pool->cpu_addr,
				  pool->dma_addr);
	}
	accel->pool_count = 0;
}
