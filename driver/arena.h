/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arena.h - the arena's insides, for the driver's own files (arena.c);
 * hosts see only tplan_arena.h.
 */
#ifndef TPLAN_ARENA_H
#define TPLAN_ARENA_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/semaphore.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "linux/tplan.h"

#include "pools.h"
#include "tplan_arena.h"

/**
 * struct tplan_arena - pools, the plans in them and the limits on callers
 * @lock: protects @pools' allocators and @plans
 * @pools: the tiers, fastest first
 * @pool_count: entries used in @pools
 * @plans: every live plan, for debugfs
 * @limits: see &struct tplan_limits
 * @submits: counts down the submits that may still start planning
 * @keys: share_key entries the groups of every client store, at most
 *        @limits.max_device_keys (reserved by a join before it allocates)
 * @live_plans: plans not yet freed, at most @limits.max_device_plans:
 *              released ones that a mapping, dma-buf or import keeps count
 * @puts: runs the puts of tplan_arena_put_after() once their fences signal
 * @pending_puts: puts waiting for their fence or queued on @puts
 * @live_holds: holds not yet freed (every region handed out)
 * @live_clients: clients not yet destroyed
 */
struct tplan_arena {
	struct mutex lock;	/* pools' allocators, plans, plan->released */
	struct tplan_pool pools[TPLAN_MAX_POOLS];
	u32 pool_count;
	struct list_head plans;
	struct tplan_limits limits;
	struct semaphore submits;
	atomic64_t keys;
	atomic_t live_plans;
	struct workqueue_struct *puts;
	atomic_t pending_puts;
	atomic_t live_holds;
	atomic_t live_clients;
};

struct dma_fence;

int tplan_limits_check(const struct tplan_limits *l);
void tplan_arena_put_after(struct tplan_arena *arena, struct dma_fence *fence,
			   void (*put)(void *obj), void *obj);

#endif /* TPLAN_ARENA_H */
