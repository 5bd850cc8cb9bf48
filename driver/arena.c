// SPDX-License-Identifier: GPL-2.0
/*
 * arena.c - the arena: made from a host's pools, destroyed when nothing is
 * left in it.  The in-kernel API's entry points (tplan_arena.h).
 */
#include <linux/module.h>
#include <linux/slab.h>

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
	ret = tplan_pools_create(arena, pools, count);
	if (ret) {
		mutex_destroy(&arena->lock);
		kfree(arena);
		return ERR_PTR(ret);
	}
	return arena;
}
EXPORT_SYMBOL_NS_GPL(tplan_arena_create, TPLAN);

/**
 * tplan_arena_destroy() - give up an arena; its host then frees the pools
 * @arena: the arena, or NULL; nothing it handed out may still be held
 *
 * A plan still in the arena is a bug in the host: it is reported and the
 * arena is left allocated (leaked) rather than freed under the plan.
 *
 * Context: process context; may sleep.
 */
void tplan_arena_destroy(struct tplan_arena *arena)
{
	if (!arena)
		return;
	if (WARN_ON(!list_empty(&arena->plans)))
		return;
	tplan_pools_destroy(arena);
	mutex_destroy(&arena->lock);
	kfree(arena);
}
EXPORT_SYMBOL_NS_GPL(tplan_arena_destroy, TPLAN);
