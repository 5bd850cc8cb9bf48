// SPDX-License-Identifier: GPL-2.0
/*
 * plan.c - plans: SUBMIT and SUBMIT_SPILL make them, their client and
 * their regions' GEM objects hold them, the last reference frees them.
 */
#include <linux/err.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "group.h"
#include "hold.h"
#include "plan.h"
#include "planner.h"
#include "arena.h"

/**
 * DOC: Plans
 *
 * Purpose: a &struct tplan_arena_plan is one submitted table's memory: a region
 * per pool it uses (for a group plan, the group's scratch region) and the
 * kept regions of its group's share_key tensors, each in its own slot
 * (%TPLAN_PLAN_SLOTS).  The offsets themselves go back to the caller;
 * the kernel keeps only the regions (and, for the accel device, the GEM
 * handles and mmap offsets gem.c gives them).  A plan knows no ioctl and
 * no file; client.c enters it in a client's plan table
 * (tplan_client_begin_plan()), submit.c and submit_spill.c fill it.
 *
 * Cost: one small allocation per plan, charged to the caller; a file holds
 * at most max_plans of them in its table.  A released plan that a mapping,
 * a dma-buf or an import still keeps holds no slot of any file, and may
 * hold no pool bytes either (a group plan using only a kept region): the
 * arena counts every plan until it is freed, at most max_device_plans.
 *
 * Locking: a plan's slots are set before it is published to its file and
 * do not change after; &tplan_arena.lock guards the device's list of plans
 * (debugfs) and @released.  EXPORT and the API look plans up without the
 * client's lock: they are freed after an RCU grace period.
 *
 * Ownership: reference counted.  The owning file holds one reference from
 * SUBMIT until RELEASE or close() (tplan_plan_release()), every GEM object
 * of its regions one more (gem.c).  The plan holds a reference on each of
 * its regions and on its group; the last tplan_plan_put() drops them.
 */

/**
 * tplan_plan_new() - a plan holding nothing yet
 * @arena: the arena
 * @tensors: tensors in its table
 * @peak: bytes it needs
 *
 * Return: the plan with one reference; ERR_PTR(-ENFILE) when the arena
 * has max_device_plans plans alive, or ERR_PTR(-ENOMEM).
 */
struct tplan_arena_plan *tplan_plan_new(struct tplan_arena *arena,
					u32 tensors, u64 peak)
{
	struct tplan_arena_plan *plan;

	if (atomic_inc_return(&arena->live_plans) >
	    arena->limits.max_device_plans) {
		atomic_dec(&arena->live_plans);
		return ERR_PTR(-ENFILE);
	}
	plan = kzalloc(sizeof(*plan), GFP_KERNEL_ACCOUNT);
	if (!plan) {
		atomic_dec(&arena->live_plans);
		return ERR_PTR(-ENOMEM);
	}
	kref_init(&plan->ref);
	INIT_LIST_HEAD(&plan->link);
	plan->arena = arena;
	plan->owner = task_tgid_nr(current);
	plan->tensors = tensors;
	plan->peak = peak;
	return plan;
}

/**
 * tplan_plan_publish() - list the plan in debugfs
 * @plan: a plan with its regions, about to be published to its file
 */
void tplan_plan_publish(struct tplan_arena_plan *plan)
{
	mutex_lock(&plan->arena->lock);
	list_add_tail(&plan->link, &plan->arena->plans);
	mutex_unlock(&plan->arena->lock);
}

/**
 * tplan_plan_release() - the owning file gives the plan up
 * @plan: the plan, taken out of its file (and group); the file's reference
 *        is dropped, its GEM objects may still hold it
 */
void tplan_plan_release(struct tplan_arena_plan *plan)
{
	mutex_lock(&plan->arena->lock);
	plan->released = true;
	mutex_unlock(&plan->arena->lock);
	tplan_plan_put(plan);
}

static bool in_tier(const struct tplan_tensor *x, u32 tier)
{
	return x->tier == tier;
}

/**
 * tplan_plan_reserve() - give a plan outside any group its regions
 * @plan: the new plan, with no region yet
 * @t: its planned table; untiered, each tensor's tier becomes the pool
 *     that holds it
 * @n: tensors in @t
 * @opts: the options it was planned with
 * @res: what the planner reported
 *
 * One region per pool the plan uses, aligned as its tensors need.
 * Untiered, the fastest pool with room that every tensor allows takes it
 * all; tiered, each tier's peak goes to its own pool.  Regions reserved
 * before a failure stay with the plan and go with its last reference.
 *
 * Return: 0, -ENOSPC or -ENOMEM.
 */
int tplan_plan_reserve(struct tplan_arena_plan *plan, struct tplan_tensor *t,
		       u32 n, const struct tplan_options *opts,
		       const struct tplan_result *res)
{
	struct tplan_arena *arena = plan->arena;
	struct tplan_hold *hold;
	u32 k, i, pools;
	u64 align;

	if (opts->tier_count < 2) {
		if (!res->peak)
			return 0;
		pools = tplan_tensors_need(t, n, NULL, 0, &align);
		hold = tplan_hold_alloc_first(arena, res->peak, align, pools);
		if (IS_ERR(hold))
			return PTR_ERR(hold);
		plan->slots[hold->pool] = hold;
		for (i = 0; i < n; i++)
			t[i].tier = hold->pool;
		return 0;
	}
	for (k = 0; k < opts->tier_count; k++) {
		if (!res->tier_peak[k])
			continue;
		tplan_tensors_need(t, n, in_tier, k, &align);
		hold = tplan_hold_alloc(arena, k, res->tier_peak[k], align);
		if (IS_ERR(hold))
			return PTR_ERR(hold);
		plan->slots[k] = hold;
	}
	return 0;
}

/**
 * tplan_plan_reserve_first() - give a spill plan its region
 * @plan: the new plan, with no region yet
 * @t: its table
 * @n: tensors in @t
 * @peak: bytes its pieces need at once
 *
 * One region of @peak bytes, aligned for the most aligned tensor, in the
 * fastest pool with room.
 *
 * Return: 0, -ENOSPC or -ENOMEM.
 */
int tplan_plan_reserve_first(struct tplan_arena_plan *plan,
			     const struct tplan_tensor *t, u32 n, u64 peak)
{
	struct tplan_hold *hold;
	u64 align;

	if (!peak)
		return 0;
	tplan_tensors_need(t, n, NULL, 0, &align);
	hold = tplan_hold_alloc_first(plan->arena, peak, align, ~0U);
	if (IS_ERR(hold))
		return PTR_ERR(hold);
	plan->slots[hold->pool] = hold;
	return 0;
}

static void plan_free(struct kref *ref)
{
	struct tplan_arena_plan *plan = container_of(ref, struct tplan_arena_plan, ref);
	struct tplan_arena *arena = plan->arena;
	u32 i;

	mutex_lock(&arena->lock);
	list_del(&plan->link);
	mutex_unlock(&arena->lock);
	for (i = 0; i < TPLAN_PLAN_SLOTS; i++)
		tplan_hold_put(plan->slots[i]);
	if (plan->group)
		tplan_group_put(plan->group);
	atomic_dec(&arena->live_plans);
	/* EXPORT may be looking it up (tplan_client_get_plan()) */
	kfree_rcu(plan, rcu);
}

/**
 * tplan_plan_put() - drop a reference; the last one frees the plan
 * @plan: the plan
 */
void tplan_plan_put(struct tplan_arena_plan *plan)
{
	kref_put(&plan->ref, plan_free);
}

static void plan_free_work(struct work_struct *work)
{
	struct tplan_arena_plan *plan =
		container_of(work, struct tplan_arena_plan, free_work);

	plan_free(&plan->ref);
}

/* The last reference is gone: free the plan from the arena's workqueue. */
static void plan_free_later(struct kref *ref)
{
	struct tplan_arena_plan *plan = container_of(ref, struct tplan_arena_plan, ref);

	INIT_WORK(&plan->free_work, plan_free_work);
	queue_work(plan->arena->puts, &plan->free_work);
}

/**
 * tplan_plan_put_async() - drop a reference in any context
 * @plan: the plan
 *
 * The last reference queues the plan's freeing on the arena's workqueue,
 * which tplan_arena_flush() waits for; the arena still counts the plan
 * until then.
 */
void tplan_plan_put_async(struct tplan_arena_plan *plan)
{
	kref_put(&plan->ref, plan_free_later);
}
