// SPDX-License-Identifier: GPL-2.0
/*
 * arena_submit.c - the in-kernel API's plans: a host driver's table, in
 * kernel memory, planned into the arena and given its regions.
 */

/**
 * DOC: Host plans
 *
 * A host driver plans a table it holds in kernel memory with
 * tplan_arena_submit(): the same checks, planner, turns, work budget and
 * memory meter as SUBMIT, charged to the calling task, and the same
 * regions (tplan_plan_reserve()).  The host learns each region's pool,
 * place and device address with tplan_arena_plan_region() and gives the
 * plan back with tplan_arena_plan_put().  It owns the plan's memory from
 * submit to put: no file, mapping or group of the accel device ever sees it.
 */
#include <linux/err.h>
#include <linux/sched/signal.h>

#include "planner.h"
#include "arena.h"
#include "hold.h"
#include "meter.h"
#include "plan.h"
#include "table.h"

/* A plan given its regions goes to the host; one that failed, back. */
static int host_publish(struct tplan_arena_plan *plan, int ret,
			struct tplan_arena_plan **planp)
{
	if (ret) {
		tplan_plan_put(plan);
		return ret;
	}
	tplan_plan_publish(plan);
	*planp = plan;
	return 0;
}

static int host_submit(struct tplan_arena *arena, struct tplan_tensor *t,
		       u32 n, const struct tplan_options *opts,
		       struct tplan_result *res, struct tplan_arena_plan **planp)
{
	struct tplan_arena_plan *plan;
	int ret;

	ret = tplan_table_plan_in_turn(arena, false, t, n, opts, res);
	if (ret)
		return ret;
	plan = tplan_plan_new(arena, n, res->peak);
	if (IS_ERR(plan))
		return PTR_ERR(plan);
	return host_publish(plan, tplan_plan_reserve(plan, t, n, opts, res),
			    planp);
}

/**
 * tplan_arena_submit() - plan a table and reserve its regions
 * @arena: the arena
 * @t: the table, in kernel memory; on success each tensor's offset is
 *     its place in its region and its tier the pool of that region
 * @n: tensors in @t, 1 to the arena's max_tensors
 * @opts: the planner's options (as libtplan's); a budget of 0 is the
 *        arena's default, any budget is clamped to its max_budget; with
 *        tier_count above 1 (it must be the arena's pool count) the pools
 *        are the tiers and their capacities are their free room now
 * @res: out: what the planner reports, also on -ENOSPC
 * @plan: out: the plan, one reference for the caller
 *
 * Plans as SUBMIT does (docs/DRIVER.md), outside every lock, in one of
 * max_submits turns, with the memory it needs charged to the calling task
 * and capped at max_submit_bytes.  The table is the caller's: the planner
 * rejects a bad one with -EINVAL and a finding it does not report.
 *
 * Context: process context; sleeps.  Stops when a signal is pending.
 * Return: 0; -EINVAL (or -EOVERFLOW) for a bad table or options; -E2BIG
 * for more than max_tensors tensors or more memory than max_submit_bytes;
 * -ENOSPC when the plan exceeds its capacity or no allowed pool has room;
 * -ENFILE when the arena has max_device_plans plans alive; -ETIMEDOUT
 * when the budget ran out; -EINTR; -ENOMEM (tplan_plan()).
 */
int tplan_arena_submit(struct tplan_arena *arena, struct tplan_tensor *t,
		       u32 n, const struct tplan_options *opts,
		       struct tplan_result *res, struct tplan_arena_plan **plan)
{
	struct tplan_options use;
	struct tplan_meter meter;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = tplan_table_host_options(arena, n, opts, &use);
	if (ret)
		return ret;
	tplan_meter_start(&meter, arena->limits.max_submit_bytes);
	ret = host_submit(arena, t, n, &use, res, plan);
	if (tplan_meter_stop(&meter) && ret == -ENOMEM)
		ret = -E2BIG;
	return ret;
}
EXPORT_SYMBOL_NS_GPL(tplan_arena_submit, TPLAN);

static int host_submit_spill(struct tplan_arena *arena,
			     const struct tplan_tensor *t, u32 n,
			     const struct tplan_uses *u,
			     const struct tplan_spill_options *opts,
			     struct tplan_piece *pieces, u32 cap,
			     struct tplan_spill_result *res,
			     struct tplan_arena_plan **planp)
{
	struct tplan_arena_plan *plan;
	int ret;

	ret = tplan_table_spill_in_turn(arena, t, n, u, opts, pieces, cap, res);
	if (ret)
		return ret;
	plan = tplan_plan_new(arena, n, res->peak);
	if (IS_ERR(plan))
		return PTR_ERR(plan);
	ret = tplan_plan_reserve_first(plan, t, n, res->peak);
	if (ret) {
		/* no pool has room: not the capacity's fault, no failing step */
		res->fail_step = 0;
		res->fail_bytes = 0;
	}
	return host_publish(plan, ret, planp);
}

/**
 * tplan_arena_submit_spill() - plan a table as pieces within a capacity
 * and reserve what they need
 * @arena: the arena
 * @t: the table, in kernel memory (as for tplan_arena_submit())
 * @n: tensors in @t, 1 to the arena's max_tensors
 * @u: every tensor's uses (&struct tplan_uses), or NULL
 * @opts: the spill strategy, the capacity and a budget (0: the arena's
 *        default; clamped to its max_budget)
 * @pieces: out: the pieces, each a stretch of a tensor's life at an offset
 *          in the plan's region
 * @cap: entries @pieces holds (tplan_spill_max_pieces() is always enough)
 * @res: out: what the spill planner reports, also on -ENOSPC and -ENOBUFS
 * @plan: out: the plan, one reference for the caller; its one region is
 *        in the fastest pool with room
 *
 * As SUBMIT_SPILL: planned in one of max_submits turns, its memory charged
 * to the calling task and capped at max_submit_bytes.
 *
 * Context: process context; sleeps.  Stops when a signal is pending.
 * Return: 0; -EINVAL for a bad table, uses or options; -E2BIG for more
 * than max_tensors tensors or more memory than max_submit_bytes; -ENOBUFS
 * when @cap is too small (@res->pieces says how many); -ENOSPC when a step
 * cannot fit the capacity (@res->fail_step) or no pool has room
 * (@res->fail_bytes 0); -ENFILE when the arena has max_device_plans plans
 * alive; -ETIMEDOUT; -EINTR; -ENOMEM.
 */
int tplan_arena_submit_spill(struct tplan_arena *arena,
			     const struct tplan_tensor *t, u32 n,
			     const struct tplan_uses *u,
			     const struct tplan_spill_options *opts,
			     struct tplan_piece *pieces, u32 cap,
			     struct tplan_spill_result *res,
			     struct tplan_arena_plan **plan)
{
	struct tplan_spill_options use = *opts;
	struct tplan_meter meter;
	int ret;

	memset(res, 0, sizeof(*res));
	if (!n || n > arena->limits.max_tensors)
		return n ? -E2BIG : -EINVAL;
	use.budget = tplan_table_spill_budget(arena, opts->budget);
	tplan_meter_start(&meter, arena->limits.max_submit_bytes);
	ret = host_submit_spill(arena, t, n, u, &use, pieces, cap, res, plan);
	if (tplan_meter_stop(&meter) && ret == -ENOMEM)
		ret = -E2BIG;
	return ret;
}
EXPORT_SYMBOL_NS_GPL(tplan_arena_submit_spill, TPLAN);

/**
 * tplan_arena_plan_region() - where a plan's region in one pool is
 * @plan: the plan
 * @pool: index of the pool
 * @info: out: the region (&struct tplan_region_info)
 *
 * Context: process context; may sleep.
 * Return: 0, or -ENOENT when the plan holds no region in @pool.
 */
int tplan_arena_plan_region(const struct tplan_arena_plan *plan, u32 pool,
			    struct tplan_region_info *info)
{
	if (pool >= TPLAN_MAX_POOLS || !plan->slots[pool])
		return -ENOENT;
	tplan_hold_info(plan->slots[pool], info);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(tplan_arena_plan_region, TPLAN);

/**
 * tplan_arena_plan_put() - give a plan back; its regions return to their
 * pools, zeroed, with their last user
 * @plan: the plan from tplan_arena_submit(), or NULL
 *
 * Context: process context; may sleep.
 */
void tplan_arena_plan_put(struct tplan_arena_plan *plan)
{
	if (plan)
		tplan_plan_release(plan);
}
EXPORT_SYMBOL_NS_GPL(tplan_arena_plan_put, TPLAN);
