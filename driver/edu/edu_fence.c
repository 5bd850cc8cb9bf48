// SPDX-License-Identifier: GPL-2.0
/*
 * edu_fence.c - the fences of an edu device's jobs: one timeline per
 * device, its numbers given in the order jobs are queued (and so run).
 */
#include <linux/dma-fence.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "edu.h"
#include "edu_fence.h"

static const char *edu_fence_driver_name(struct dma_fence *fence)
{
	return TPLAN_EDU_DRIVER_NAME;
}

static const char *edu_fence_timeline_name(struct dma_fence *fence)
{
	return "jobs";
}

/*
 * A fence outlives its job in sync_files: its ops are this module's, so
 * each fence holds the module.
 */
static void edu_fence_release(struct dma_fence *fence)
{
	dma_fence_free(fence);
	module_put(THIS_MODULE);
}

static const struct dma_fence_ops edu_fence_ops = {
	.get_driver_name = edu_fence_driver_name,
	.get_timeline_name = edu_fence_timeline_name,
	.release = edu_fence_release,
};

/**
 * edu_fence_new() - the fence of the next job on the device's timeline
 * @edu: the device
 *
 * Context: process context, under &tplan_edu.queue_lock, so that numbers
 * are given in queue order.
 * Return: the fence (one reference), or NULL for no memory.
 */
struct dma_fence *edu_fence_new(struct tplan_edu *edu)
{
	struct dma_fence *fence;

	lockdep_assert_held(&edu->queue_lock);
	fence = kzalloc(sizeof(*fence), GFP_KERNEL_ACCOUNT);
	if (!fence)
		return NULL;
	__module_get(THIS_MODULE);
	dma_fence_init(fence, &edu_fence_ops, &edu->fence_lock,
		       edu->fence_context, ++edu->fence_seqno);
	return fence;
}
