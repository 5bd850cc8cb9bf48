// SPDX-License-Identifier: GPL-2.0
/*
 * table.c - a submitted tensor table: checked, copied in, planned.
 */

/**
 * DOC: Submitted tables
 *
 * Purpose: the caller's tensor descriptors become the planner's table.  A
 * table is copied in one descriptor at a time so that a caller's larger
 * stride works (each is a size-extensible struct) and planned in one of
 * the device's max_submits turns; SUBMIT (submit.c) then writes each
 * tensor's offset, pool and mmap offset into its descriptor.
 *
 * Cost: a copy of the table (112 bytes per tensor) and the planner's arrays,
 * all through the memory meter; the copy yields and looks for signals
 * every %TPLAN_COPY_CHECK_INTERVAL descriptors, the planner every 4096
 * work units.
 *
 * Locking: the turn (&tplan_arena.submits) is held only while the planner
 * runs, never across an access to user memory, which a caller could stall
 * at will.
 *
 * Ownership: the copy belongs to the submit and is freed when it ends; the
 * kernel keeps no offsets.
 */
#include <linux/minmax.h>
#include <linux/nospec.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/semaphore.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "planner.h"
#include "pools.h"
#include "table.h"
#include "arena.h"

/* ABI version 1's tensor descriptor ends where the uapi header says. */
static_assert(offsetofend(struct tplan_tensor_desc, mmap_offset) ==
	      TPLAN_TENSOR_DESC_SIZE_VER1);

/*
 * The ABI's strategy ids (0 is naive) to the planner's values (0 is auto,
 * what a zeroed struct tplan_options means to libtplan); the ids run from 0
 * to TPLAN_STRATEGY_COUNT - 1, which tplan_submit_check() enforces.
 */
static const u32 strategy_from_id[] = {
	[TPLAN_STRATEGY_ID_NAIVE] = TPLAN_STRATEGY_NAIVE,
	[TPLAN_STRATEGY_ID_GREEDY_SIZE] = TPLAN_STRATEGY_GREEDY_SIZE,
	[TPLAN_STRATEGY_ID_STRIP] = TPLAN_STRATEGY_STRIP,
	[TPLAN_STRATEGY_ID_SEARCH] = TPLAN_STRATEGY_SEARCH,
	[TPLAN_STRATEGY_ID_AUTO] = TPLAN_STRATEGY_AUTO,
};

static_assert(ARRAY_SIZE(strategy_from_id) == TPLAN_STRATEGY_COUNT);

static int tensor_from_desc(struct tplan_tensor *t,
			    const struct tplan_tensor_desc *d)
{
	if ((d->flags & ~(TPLAN_TENSOR_HAS_ALIAS | TPLAN_TENSOR_FIXED_OFFSET |
			  TPLAN_TENSOR_HAS_HINT)) || d->pad)
		return -EINVAL;
	memset(t, 0, sizeof(*t));
	t->id = d->id;
	t->lower = d->lower;
	t->upper = d->upper;
	t->size = d->size;
	t->alignment = d->alignment;
	t->alias_of = d->alias_of;
	t->alias_offset = d->alias_offset;
	t->priority = d->priority;
	t->tiers = d->tiers;
	t->model = d->model;
	t->share_key = d->share_key;
	if (d->flags & TPLAN_TENSOR_HAS_ALIAS)
		t->flags |= TPLAN_TENSOR_ALIAS;
	if (d->flags & TPLAN_TENSOR_FIXED_OFFSET) {
		t->flags |= TPLAN_TENSOR_PINNED;
		t->offset = d->offset;
	}
	if (d->flags & TPLAN_TENSOR_HAS_HINT) {
		t->flags |= TPLAN_TENSOR_HINT;
		t->hint = d->hint;
	}
	t->gap_first = d->gap_first;
	t->gap_count = d->gap_count;
	return 0;
}

/**
 * tplan_table_check_array() - check where a table's descriptors are
 * @limits: the device's limits
 * @tensors: user pointer to the descriptors
 * @count: how many
 * @stride: bytes between them
 *
 * Changes nothing; SUBMIT and SUBMIT_SPILL take their tables alike.
 *
 * Return: 0; -EINVAL for no tensors or a bad stride; -E2BIG for more than
 * max_tensors; -EOVERFLOW or -EFAULT for an array that cannot be in user
 * memory.
 */
int tplan_table_check_array(const struct tplan_limits *limits, u64 tensors,
			    u32 count, u32 stride)
{
	size_t bytes;

	if (!count)
		return -EINVAL;
	if (count > limits->max_tensors)
		return -E2BIG;
	if (stride < TPLAN_TENSOR_DESC_SIZE_VER1 ||
	    stride > TPLAN_TENSOR_DESC_MAX_STRIDE || stride % 8)
		return -EINVAL;
	if (check_mul_overflow((size_t)count, (size_t)stride, &bytes))
		return -EOVERFLOW;
	if (!access_ok(u64_to_user_ptr(tensors), bytes))
		return -EFAULT;
	return 0;
}

/**
 * tplan_table_copy_in() - copy a checked table in
 * @tensors: user pointer to the descriptors
 * @count: how many
 * @stride: bytes between them, checked by tplan_table_check_array()
 * @t: room for @count tensors
 *
 * One descriptor at a time, so that a caller's larger stride works;
 * copy_struct_from_user() rejects non-zero bytes beyond the fields this
 * kernel knows with -E2BIG.
 *
 * Return: 0; -EFAULT, -E2BIG or -EINVAL for a bad descriptor; -EINTR when
 * a signal is pending.
 */
int tplan_table_copy_in(u64 tensors, u32 count, u32 stride,
			struct tplan_tensor *t)
{
	void __user *base = u64_to_user_ptr(tensors);
	struct tplan_tensor_desc d;
	u32 i;
	int ret;

	for (i = 0; i < count; i++) {
		ret = copy_struct_from_user(&d, sizeof(d),
					    base + (size_t)i * stride, stride);
		if (!ret)
			ret = tensor_from_desc(&t[i], &d);
		if (ret)
			return ret;
		if (!(i % TPLAN_COPY_CHECK_INTERVAL)) {
			cond_resched();
			if (signal_pending(current))
				return -EINTR;
		}
	}
	return 0;
}

/**
 * tplan_table_tiers() - make the pools the tiers of a plan
 * @arena: the arena
 * @opts: with two pools or more, its tiers set: one per pool, each with
 *        the room of the pool's largest free run now
 *
 * A full pool gets one byte of room (0 would mean unlimited): only empty
 * tensors fit there.
 */
void tplan_table_tiers(struct tplan_arena *arena, struct tplan_options *opts)
{
	u32 k;

	if (arena->pool_count < 2)
		return;
	opts->tier_count = arena->pool_count;
	for (k = 0; k < arena->pool_count; k++)
		opts->tier_capacity[k] = max(tplan_pool_room(arena, k), 1ULL);
}

/**
 * tplan_table_budget() - the work budget a caller gets
 * @arena: the arena
 * @budget: what the caller asked for; 0 for the arena's default
 * @opts: its budget set, clamped to max_budget
 */
void tplan_table_budget(struct tplan_arena *arena, u64 budget,
			struct tplan_options *opts)
{
	opts->budget = budget ? budget : arena->limits.default_budget;
	opts->budget = min(opts->budget, arena->limits.max_budget);
	/* the arena's default never cuts off a first plan; a caller's does */
	if (!budget)
		opts->flags |= TPLAN_PLAN_DEFAULT_BUDGET;
}

/**
 * tplan_table_spill_budget() - the work budget a spill plan gets
 * @arena: the arena
 * @budget: what the caller asked for; 0 for the arena's default
 *
 * Return: the budget, clamped to max_budget.
 */
u64 tplan_table_spill_budget(struct tplan_arena *arena, u64 budget)
{
	return min(budget ? budget : arena->limits.default_budget,
		   arena->limits.max_budget);
}

/**
 * tplan_table_host_options() - a host's options, with the arena's limits
 * and defaults applied
 * @arena: the arena
 * @n: tensors in the host's table
 * @opts: the host's options (as libtplan's)
 * @use: out: what the planner is given: a budget of 0 is the arena's
 *       default, any budget at most max_budget; with tier_count above 1
 *       the pools are the tiers, with their free room now, or the host's
 *       tier_capacity where that is non-zero and smaller
 *
 * Return: 0; -EINVAL for no tensors or tiers that are not the pools;
 * -E2BIG for more than max_tensors.
 */
int tplan_table_host_options(struct tplan_arena *arena, u32 n,
			     const struct tplan_options *opts,
			     struct tplan_options *use)
{
	if (!n || n > arena->limits.max_tensors)
		return n ? -E2BIG : -EINVAL;
	if (opts->tier_count > 1 && opts->tier_count != arena->pool_count)
		return -EINVAL;
	*use = *opts;
	use->flags &= ~TPLAN_PLAN_DEFAULT_BUDGET;
	tplan_table_budget(arena, opts->budget, use);
	if (opts->tier_count > 1) {
		u32 k;

		tplan_table_tiers(arena, use);
		for (k = 0; k < arena->pool_count; k++)
			if (opts->tier_capacity[k])
				use->tier_capacity[k] =
					min(use->tier_capacity[k],
					    opts->tier_capacity[k]);
	}
	return 0;
}

/**
 * tplan_table_options() - the planner's options for a request
 * @arena: the arena
 * @req: a checked request
 * @opts: filled in; with %TPLAN_SUBMIT_TIERED, the pools' free room now
 */
void tplan_table_options(struct tplan_arena *arena, const struct tplan_submit *req,
			 struct tplan_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	/* an id the check let through is in range; else the planner says no */
	if (req->strategy < ARRAY_SIZE(strategy_from_id))
		opts->strategy = strategy_from_id[array_index_nospec(req->strategy,
						  ARRAY_SIZE(strategy_from_id))];
	else
		opts->strategy = TPLAN_STRATEGY_COUNT;
	tplan_table_budget(arena, req->budget, opts);
	opts->time_limit_ns = req->time_limit_ns;
	opts->small_below = req->small_below;
	if (req->flags & TPLAN_SUBMIT_ALIASES)
		opts->flags |= TPLAN_PLAN_ALIASES;
	if (req->flags & TPLAN_SUBMIT_SERIAL)
		opts->flags |= TPLAN_PLAN_SERIAL;
	if (req->flags & TPLAN_SUBMIT_TIERED)
		tplan_table_tiers(arena, opts);
}

/*
 * A group plan keeps its share_key tensors apart (the group stores them);
 * the rest, its scratch, is planned alone.
 */
static int plan_scratch(struct tplan_tensor *t, u32 n,
			const struct tplan_options *opts,
			struct tplan_result *res)
{
	struct tplan_tensor *part;
	u32 i, m = 0;
	int ret;

	ret = tplan_check_input(t, n, opts, NULL);
	if (ret)
		return ret;
	part = tplan_alloc_array(n, sizeof(*part));
	if (!part)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (!t[i].share_key)
			part[m++] = t[i];
	ret = tplan_plan(part, m, opts, res);
	for (i = 0, m = 0; i < n && !ret; i++) {
		if (t[i].share_key)
			continue;
		t[i].offset = part[m].offset;
		t[i].tier = part[m++].tier;
	}
	tplan_free(part);
	return ret;
}

/**
 * tplan_table_plan_in_turn() - plan a table in kernel memory, in one of
 * the arena's max_submits turns
 * @arena: the arena
 * @grouped: plan the tensors without a share_key only (a group's scratch)
 * @t: the table
 * @n: tensors in @t
 * @opts: the planner's options
 * @res: out: what the planner reports
 *
 * The turn is held only while the planner runs, never across an access to
 * user memory, which a caller could make wait as long as it likes (a
 * FUSE-backed mapping).
 *
 * Return: 0, -EINTR when a signal is pending, or the planner's errno.
 */
int tplan_table_plan_in_turn(struct tplan_arena *arena, bool grouped,
			     struct tplan_tensor *t, u32 n,
			     const struct tplan_options *opts,
			     struct tplan_result *res)
{
	int ret;

	if (down_interruptible(&arena->submits))
		return -EINTR;
	if (grouped)
		ret = plan_scratch(t, n, opts, res);
	else
		ret = tplan_plan(t, n, opts, res);
	up(&arena->submits);
	return ret;
}

/**
 * tplan_table_spill_in_turn() - plan a table in kernel memory as pieces,
 * in one of the arena's max_submits turns
 * @arena: the arena
 * @t: the table
 * @n: tensors in @t
 * @u: every tensor's uses, or NULL
 * @opts: the spill planner's options
 * @p: out: the pieces
 * @cap: entries @p holds
 * @res: out: what the spill planner reports
 *
 * Return: 0; -ENOBUFS when the pieces need more than @cap entries
 * (@res->pieces says how many); -EINTR when a signal is pending; or the
 * spill planner's errno (tplan_spill_plan()).
 */
int tplan_table_spill_in_turn(struct tplan_arena *arena,
			      const struct tplan_tensor *t, u32 n,
			      const struct tplan_uses *u,
			      const struct tplan_spill_options *opts,
			      struct tplan_piece *p, u32 cap,
			      struct tplan_spill_result *res)
{
	int ret;

	if (down_interruptible(&arena->submits))
		return -EINTR;
	ret = tplan_spill_plan(t, n, u, opts, p, cap, res);
	up(&arena->submits);
	/* the planner's -E2BIG for a short array is the caller's -ENOBUFS */
	if (ret == -E2BIG && res->pieces > cap)
		ret = -ENOBUFS;
	return ret;
}

/**
 * tplan_table_plan_request() - copy a request's table in and plan it
 * @arena: the arena
 * @req: a checked request
 * @opts: from tplan_table_options()
 * @tensors: out: the planned table, for tplan_free()
 * @res: out: what the planner reports
 *
 * A group's plan (not a dry run) plans its scratch tensors only; its
 * share_key tensors are the group's to place.
 *
 * Pinned tensors keep the offsets their descriptors give; the gaps come
 * from the request's gap array (tplan_gaps_copy_in()).
 *
 * Return: 0; -EFAULT, -E2BIG or -EINVAL for a bad descriptor; -EINTR when
 * a signal is pending; -ENOMEM; or the planner's errno.
 */
int tplan_table_plan_request(struct tplan_arena *arena, const struct tplan_submit *req,
			     const struct tplan_options *opts,
		     struct tplan_tensor **tensors, struct tplan_result *res)
{
	bool grouped = req->group && !(req->flags & TPLAN_SUBMIT_DRY_RUN);
	struct tplan_options with_gaps = *opts;
	struct tplan_gap *gaps = NULL;
	struct tplan_tensor *t;
	int ret;

	memset(res, 0, sizeof(*res));
	t = tplan_alloc_array(req->count, sizeof(*t));
	if (!t)
		return -ENOMEM;
	ret = tplan_table_copy_in(req->tensors, req->count, req->stride, t);
	if (!ret)
		ret = tplan_gaps_copy_in(req, t, &gaps);
	with_gaps.gaps = gaps;
	with_gaps.gap_count = gaps ? req->gap_count : 0;
	if (!ret)
		ret = tplan_table_plan_in_turn(arena, grouped, t, req->count,
					       &with_gaps, res);
	tplan_free(gaps);
	if (ret) {
		tplan_free(t);
		return ret;
	}
	*tensors = t;
	return 0;
}
