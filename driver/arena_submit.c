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
 * plan back with tplan_arena_plan_put() (at once) or
 * tplan_arena_plan_put_after() (when a fence signals).  The submitter's
 * reference is one reference like any other: tplan_arena_plan_get() takes
 * more, for jobs, and the last put frees the plan.  The host owns the
 * plan's memory from submit to its last put: no file, mapping or group of
 * the accel device ever sees it.
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
 *        are the tiers and their capacities are their free room now, or
 *        tier_capacity[k] where that is non-zero and smaller (0: the
 *        pool's room); time_limit_ns bounds the wall-clock time
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
 *          in the plan's region; NULL (with @cap 0) asks how many there
 *          are: -ENOBUFS with @res->pieces, as SUBMIT_SPILL does
 * @cap: entries @pieces holds (tplan_spill_max_pieces() is always enough)
 * @res: out: what the spill planner reports, also on -ENOSPC and -ENOBUFS
 * @plan: out: the plan, one reference for the caller; its one region is
 *        in the fastest pool with room
 *
 * As SUBMIT_SPILL: planned in one of max_submits turns, its memory charged
 * to the calling task and capped at max_submit_bytes.
 *
 * Context: process context; sleeps.  Stops when a signal is pending.
 * Return: 0; -EINVAL for a bad table, uses or options, or NULL @pieces
 * with a non-zero @cap; -E2BIG for more than max_tensors tensors or more
 * memory than max_submit_bytes; -ENOBUFS when @cap is too small
 * (@res->pieces says how many, nothing is reserved); -ENOSPC when a step
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
	struct tplan_piece none;
	struct tplan_meter meter;
	int ret;

	memset(res, 0, sizeof(*res));
	if (!n || n > arena->limits.max_tensors)
		return n ? -E2BIG : -EINVAL;
	if (!pieces && cap)
		return -EINVAL;
	/* no array: room for none, so the planner only counts them */
	if (!pieces)
		pieces = &none;
	use.budget = tplan_table_spill_budget(arena, opts->budget);
	tplan_meter_start(&meter, arena->limits.max_submit_bytes);
	ret = host_submit_spill(arena, t, n, u, &use, pieces, cap, res, plan);
	if (tplan_meter_stop(&meter) && ret == -ENOMEM)
		ret = -E2BIG;
	return ret;
}
EXPORT_SYMBOL_NS_GPL(tplan_arena_submit_spill, TPLAN);

/**
 * tplan_plan_offsets() - plan a table into the caller's own buffer: offsets
 * only, no device memory
 * @t: the table, in kernel memory; on success each tensor's offset is its
 *     place in the caller's buffer (tiered: in its tier's buffer, the
 *     tensor's tier)
 * @n: tensors in @t, 1 to %TPLAN_ARENA_MAX_TENSORS
 * @opts: the planner's options (as libtplan's); @opts->capacity is the
 *        caller's buffer size (0: unlimited, the plan says how much it
 *        needs), tiers are honoured as given (@opts->tier_capacity, the
 *        caller's buffers); a budget of 0 is the planner's default
 *        (%TPLAN_DEFAULT_BUDGET, which never cuts off a first plan);
 *        @opts->time_limit_ns bounds the wall-clock time
 * @res: out: what the planner reports, also on -ENOSPC
 *
 * For a driver that manages its memory itself (a &struct drm_mm per
 * context, a heap buffer object, a gen_pool of SRAM): the same checks and
 * planner as tplan_arena_submit(), without an arena, a turn or a region.
 * The planner's memory is charged to the calling task and capped at
 * %TPLAN_OFFSETS_BYTES_PER_TENSOR per tensor plus
 * %TPLAN_OFFSETS_BYTES_BASE.  The table is the caller's: the planner
 * rejects a bad one with -EINVAL and a finding it does not report.
 *
 * Context: process context; sleeps.  Stops when a signal is pending.
 * Return: 0; -EINVAL (or -EOVERFLOW) for a bad table or options, or no
 * tensors; -E2BIG for more than %TPLAN_ARENA_MAX_TENSORS tensors or more
 * memory than the cap; -ENOSPC when the plan does not fit the capacity;
 * -ETIMEDOUT when the budget or the time limit ran out before a first
 * plan; -EINTR; -ENOMEM.
 */
int tplan_plan_offsets(struct tplan_tensor *t, u32 n,
		       const struct tplan_options *opts,
		       struct tplan_result *res)
{
	struct tplan_options use = *opts;
	struct tplan_meter meter;
	int ret;

	memset(res, 0, sizeof(*res));
	if (!n || n > TPLAN_ARENA_MAX_TENSORS)
		return n ? -E2BIG : -EINVAL;
	/* a default budget is the planner's to give, not the caller's flag */
	use.flags &= ~TPLAN_PLAN_DEFAULT_BUDGET;
	tplan_meter_start(&meter, TPLAN_OFFSETS_BYTES_BASE +
			  (u64)n * TPLAN_OFFSETS_BYTES_PER_TENSOR);
	ret = tplan_plan(t, n, &use, res);
	if (tplan_meter_stop(&meter) && ret == -ENOMEM)
		ret = -E2BIG;
	return ret;
}
EXPORT_SYMBOL_NS_GPL(tplan_plan_offsets, TPLAN);

/**
 * tplan_arena_plan_region() - where one of a plan's regions is
 * @plan: the plan
 * @slot: the region's slot, 0 to %TPLAN_ARENA_SLOTS - 1: a pool's index
 *        (the tier a tensor of tplan_arena_submit() is given), then a
 *        group's kept regions (for a client's plan, tplan_client_plan_get())
 * @info: out: the region (&struct tplan_region_info)
 *
 * Context: process context; may sleep.
 * Return: 0, or -ENOENT when the plan holds no region in @slot.
 */
int tplan_arena_plan_region(const struct tplan_arena_plan *plan, u32 slot,
			    struct tplan_region_info *info)
{
	if (slot >= TPLAN_PLAN_SLOTS || !plan->slots[slot])
		return -ENOENT;
	tplan_hold_info(plan->slots[slot], info);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(tplan_arena_plan_region, TPLAN);

/**
 * tplan_arena_plan_get() - take one more reference on a plan
 * @plan: a plan the caller holds a reference on
 *
 * Context: any context.
 * Return: @plan, for tplan_arena_plan_put() or tplan_arena_plan_put_after().
 */
struct tplan_arena_plan *tplan_arena_plan_get(struct tplan_arena_plan *plan)
{
	kref_get(&plan->ref);
	return plan;
}
EXPORT_SYMBOL_NS_GPL(tplan_arena_plan_get, TPLAN);

/**
 * tplan_arena_plan_put() - drop a reference on a plan
 * @plan: the plan, or NULL
 *
 * Drops one reference: the one tplan_arena_submit() or
 * tplan_arena_submit_spill() gave the submitter (which gives the plan
 * back), or one from tplan_arena_plan_get() or tplan_client_plan_get()
 * (a client's plan stays the client's until tplan_client_release()).
 * The last reference frees the plan: its regions return to their pools,
 * zeroed, with their last user.  From a fence callback or interrupt, use
 * tplan_arena_plan_put_after() or tplan_arena_plan_put_async().
 *
 * Context: process context; may sleep (the last put zeroes bytes and
 * takes the arena's mutex).
 */
void tplan_arena_plan_put(struct tplan_arena_plan *plan)
{
	might_sleep();
	if (plan)
		tplan_plan_put(plan);
}
EXPORT_SYMBOL_NS_GPL(tplan_arena_plan_put, TPLAN);

/**
 * tplan_arena_plan_put_async() - drop a reference on a plan, in any context
 * @plan: the plan, or NULL
 *
 * As tplan_arena_plan_put(), for where a driver frees its jobs: an
 * interrupt handler, a fence callback, under a spinlock.  A last reference
 * does not free the plan here: its freeing (zeroing, the arena's mutex)
 * is queued on the arena's workqueue; tplan_arena_flush() waits for it,
 * and until then the regions stay the plan's and tplan_arena_destroy()
 * refuses.
 *
 * Context: any context.
 */
void tplan_arena_plan_put_async(struct tplan_arena_plan *plan)
{
	if (plan)
		tplan_plan_put_async(plan);
}
EXPORT_SYMBOL_NS_GPL(tplan_arena_plan_put_async, TPLAN);

static void plan_put_void(void *plan)
{
	tplan_plan_put(plan);
}

/**
 * tplan_arena_plan_put_after() - drop a reference on a plan when a fence
 * signals
 * @plan: the plan, or NULL
 * @fence: the fence of the last job using the plan's regions (the call
 *         takes a reference on it until the put)
 *
 * As tplan_arena_plan_put(), but not before @fence signals: until then
 * the regions stay where they are, unzeroed, and no one else is given
 * their bytes.  The fence's callback may run in interrupt context; the put
 * itself runs later from the arena's workqueue (tplan_arena_flush() waits
 * for it).  If @fence has already signaled, the reference is dropped now.
 * Without memory for the callback, the call waits for @fence.
 *
 * Context: process context; may sleep.
 */
void tplan_arena_plan_put_after(struct tplan_arena_plan *plan,
				struct dma_fence *fence)
{
	if (plan)
		tplan_arena_put_after(plan->arena, fence, plan_put_void, plan);
}
EXPORT_SYMBOL_NS_GPL(tplan_arena_plan_put_after, TPLAN);
