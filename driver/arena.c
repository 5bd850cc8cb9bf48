// SPDX-License-Identifier: GPL-2.0
/*
 * arena.c - the arena: made from a host's pools, destroyed when nothing is
 * left in it.  The in-kernel API's entry points (tplan_arena.h).
 */
#include <linux/dma-fence.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "arena.h"

static_assert(TPLAN_ARENA_MAX_POOLS == TPLAN_MAX_POOLS);

/**
 * tplan_limits_check() - refuse limits a caller cannot live with, or that
 * would overflow the planner
 * @l: the limits
 *
 * Return: 0, or -EINVAL for a zero limit, more than
 * %TPLAN_ARENA_MAX_TENSORS tensors, or a default budget above the maximum.
 */
int tplan_limits_check(const struct tplan_limits *l)
{
	if (!l->max_tensors || l->max_tensors > TPLAN_ARENA_MAX_TENSORS ||
	    !l->max_plans || !l->max_submits || !l->max_submit_bytes ||
	    !l->max_device_plans)
		return -EINVAL;
	if (!l->default_budget || l->default_budget > l->max_budget)
		return -EINVAL;
	return 0;
}

/**
 * DOC: Puts after a fence
 *
 * A device job uses a plan's (or a hold's) regions until its fence
 * signals; its host gives them back at once with
 * tplan_arena_plan_put_after() or tplan_hold_put_after() and goes on.  The
 * fence's callback may run in interrupt context, where a last put cannot
 * run (it zeroes the bytes, takes the arena's mutex, may free memory):
 * it only queues a work item on the arena's workqueue, whose function
 * makes the put in process context.  Until then the bytes stay the job's:
 * not zeroed, not handed to anyone.  tplan_arena_flush() waits for the
 * puts of fences that have signaled; tplan_arena_destroy() refuses while
 * any put waits.
 *
 * A driver that frees its jobs where it cannot sleep (an interrupt
 * handler, a fence callback, under a spinlock) drops its references there
 * with tplan_arena_plan_put_async() or tplan_hold_put_async(): a last
 * reference queues the freeing on the same workqueue, so the same flush
 * waits for it and the same destroy refuses until it is done (the arena
 * counts the plan or hold until it is freed).
 */

/**
 * struct tplan_deferred_put - one put waiting for a fence
 * @cb: on the fence's callback list
 * @work: queued on &tplan_arena.puts when the fence signals
 * @arena: the arena, kept alive by @arena's pending_puts
 * @fence: a reference on the fence, dropped by the work
 * @put: makes the put, in process context
 * @obj: passed to @put
 */
struct tplan_deferred_put {
	struct dma_fence_cb cb;
	struct work_struct work;
	struct tplan_arena *arena;
	struct dma_fence *fence;
	void (*put)(void *obj);
	void *obj;
};

static void deferred_put_work(struct work_struct *work)
{
	struct tplan_deferred_put *d =
		container_of(work, struct tplan_deferred_put, work);
	struct tplan_arena *arena = d->arena;

	d->put(d->obj);
	dma_fence_put(d->fence);
	kfree(d);
	atomic_dec(&arena->pending_puts);
}

/* May run in interrupt context, with the fence's lock held: queue only. */
static void deferred_put_cb(struct dma_fence *fence, struct dma_fence_cb *cb)
{
	struct tplan_deferred_put *d =
		container_of(cb, struct tplan_deferred_put, cb);

	queue_work(d->arena->puts, &d->work);
}

/**
 * tplan_arena_put_after() - make a put when a fence signals
 * @arena: the arena of @obj
 * @fence: the fence
 * @put: the put, called in process context
 * @obj: passed to @put
 *
 * If @fence has signaled, @put runs now.  A reference on @fence is held
 * until the put is made.  Without memory for the callback the caller
 * waits for @fence (uninterruptibly) and then puts: the bytes are never
 * given back before the fence signals.
 *
 * Context: process context; may sleep.
 */
void tplan_arena_put_after(struct tplan_arena *arena, struct dma_fence *fence,
			   void (*put)(void *obj), void *obj)
{
	struct tplan_deferred_put *d;

	might_sleep();
	if (dma_fence_is_signaled(fence)) {
		put(obj);
		return;
	}
	d = kzalloc(sizeof(*d), GFP_KERNEL_ACCOUNT);
	if (!d) {
		dma_fence_wait(fence, false);
		put(obj);
		return;
	}
	INIT_WORK(&d->work, deferred_put_work);
	d->arena = arena;
	d->fence = dma_fence_get(fence);
	d->put = put;
	d->obj = obj;
	atomic_inc(&arena->pending_puts);
	if (dma_fence_add_callback(fence, &d->cb, deferred_put_cb)) {
		/* -ENOENT: it signaled meanwhile */
		atomic_dec(&arena->pending_puts);
		dma_fence_put(fence);
		kfree(d);
		put(obj);
	}
}

/**
 * tplan_arena_flush() - wait for the puts of fences that have signaled
 * @arena: the arena
 *
 * Puts whose fence signaled before the call (tplan_arena_plan_put_after(),
 * tplan_hold_put_after()) and the frees that last puts from any context
 * queued before it (tplan_arena_plan_put_async(), tplan_hold_put_async())
 * are made when it returns; puts whose fence has not signaled still wait
 * for it.
 *
 * Context: process context; sleeps.  Not from the arena's own callbacks.
 */
void tplan_arena_flush(struct tplan_arena *arena)
{
	might_sleep();
	flush_workqueue(arena->puts);
}
EXPORT_SYMBOL_NS_GPL(tplan_arena_flush, TPLAN);

/**
 * tplan_arena_create() - make an arena of a host's pools
 * @pools: the pools, fastest first (&struct tplan_pool_desc); the host
 *         keeps their memory until tplan_arena_destroy()
 * @count: entries in @pools, 1 to %TPLAN_ARENA_MAX_POOLS
 * @limits: what the arena allows each caller; copied
 *
 * Context: process context; may sleep.
 * Return: the arena, ERR_PTR(-EINVAL) for pools or limits it cannot use
 * (a size that is not whole pages, tiers out of order, a mappable pool
 * that cannot be zeroed, a zero limit, more than %TPLAN_ARENA_MAX_TENSORS
 * tensors, a default budget above the maximum), or ERR_PTR(-ENOMEM).
 */
struct tplan_arena *tplan_arena_create(const struct tplan_pool_desc *pools,
				       u32 count,
				       const struct tplan_limits *limits)
{
	struct tplan_arena *arena;
	int ret;

	ret = tplan_limits_check(limits);
	if (ret)
		return ERR_PTR(ret);
	arena = kzalloc(sizeof(*arena), GFP_KERNEL_ACCOUNT);
	if (!arena)
		return ERR_PTR(-ENOMEM);
	mutex_init(&arena->lock);
	INIT_LIST_HEAD(&arena->plans);
	arena->limits = *limits;
	atomic64_set(&arena->keys, 0);
	atomic_set(&arena->live_plans, 0);
	sema_init(&arena->submits, limits->max_submits);
	atomic_set(&arena->pending_puts, 0);
	atomic_set(&arena->live_holds, 0);
	atomic_set(&arena->live_clients, 0);
	ret = tplan_pools_create(arena, pools, count);
	if (ret)
		goto err_free;
	arena->puts = alloc_workqueue("tplan_puts", WQ_UNBOUND, 0);
	if (!arena->puts) {
		tplan_pools_destroy(arena);
		ret = -ENOMEM;
		goto err_free;
	}
	return arena;

err_free:
	mutex_destroy(&arena->lock);
	kfree(arena);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_NS_GPL(tplan_arena_create, TPLAN);

/**
 * tplan_arena_destroy() - give up an arena; its host then frees the pools
 * @arena: the arena, or NULL
 *
 * Waits for the puts of fences that have signaled (tplan_arena_flush()),
 * then refuses, changing nothing, while anything the arena handed out is
 * still alive: a plan (whoever holds it: the submitter, a reference from
 * tplan_arena_plan_get() or tplan_client_plan_get(), a mapping), a hold,
 * a client, or a put waiting for its fence.  The host must not free the
 * pools' memory until it succeeds; it may call it again later.  No other
 * call may use the arena while it runs or after it succeeds.
 *
 * Context: process context; sleeps.
 * Return: 0 (the arena is freed; also for NULL), or -EBUSY.
 */
int tplan_arena_destroy(struct tplan_arena *arena)
{
	if (!arena)
		return 0;
	tplan_arena_flush(arena);
	if (atomic_read(&arena->live_plans) ||
	    atomic_read(&arena->live_holds) ||
	    atomic_read(&arena->live_clients) ||
	    atomic_read(&arena->pending_puts))
		return -EBUSY;
	/* the last put's work item may still be returning: wait for it */
	destroy_workqueue(arena->puts);
	tplan_pools_destroy(arena);
	mutex_destroy(&arena->lock);
	kfree(arena);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(tplan_arena_destroy, TPLAN);
