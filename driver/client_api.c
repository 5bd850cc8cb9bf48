// SPDX-License-Identifier: GPL-2.0
/*
 * client_api.c - the in-kernel API's clients: a host driver's callers,
 * each with its plans by id and its serial groups, as an open file of the
 * accel device has.
 */

/**
 * DOC: Host clients
 *
 * A host driver that serves several callers (its own open files, say)
 * gives each a client (tplan_client_create()) and plans their tables
 * through it: tplan_client_submit() plans a table in kernel memory as
 * SUBMIT does, alone or into one of the client's serial groups (plans that
 * run one after another share one scratch region and store each share_key
 * tensor once), and returns a plan id.  tplan_client_plan_region() says
 * where a plan's regions are, tplan_client_release() gives a plan back and
 * tplan_client_destroy() all of them; tplan_client_plan_get() takes a
 * reference on a plan for a job that may outlive the client's hold on it.
 * A client's plans count against max_plans, its keys against
 * max_file_keys; like a file's, its calls may run at once from several
 * threads.
 */
#include <linux/err.h>

#include "planner.h"
#include "arena.h"
#include "client.h"
#include "group.h"
#include "hold.h"
#include "meter.h"
#include "plan.h"
#include "table.h"

static_assert(TPLAN_ARENA_SLOTS == TPLAN_PLAN_SLOTS);
static_assert(TPLAN_ARENA_NO_SLOT == TPLAN_NO_SLOT);

static int client_commit(struct tplan_client *client, u32 group,
			 struct tplan_tensor *t, u32 n,
			 const struct tplan_options *opts,
			 const struct tplan_result *res, u64 *plan_id)
{
	struct tplan_arena_plan *plan;
	u64 shared_bytes;
	int ret;

	plan = tplan_client_begin_plan(client, n, res->peak);
	if (IS_ERR(plan))
		return PTR_ERR(plan);
	*plan_id = plan->id;
	if (group)
		ret = tplan_group_join(client, group, t, n, plan, res->peak,
				       NULL, NULL, &shared_bytes);
	else
		ret = tplan_plan_reserve(plan, t, n, opts, res);
	/* published, the plan may be released by another thread at once */
	return tplan_client_finish_plan(client, plan, ret);
}

/**
 * tplan_client_submit() - plan a table for a client and reserve its memory
 * @client: the client
 * @group: a serial group of the client to join (created by its first
 *         plan), or 0 for none
 * @t: the table, in kernel memory; on success each tensor's offset is its
 *     place in its region and its tier the plan's slot for that region
 *     (tplan_client_plan_region(); %TPLAN_ARENA_NO_SLOT: an empty kept
 *     tensor)
 * @n: tensors in @t, 1 to the arena's max_tensors
 * @opts: the planner's options, as for tplan_arena_submit(); a group plan
 *        cannot be tiered
 * @res: out: what the planner reports, also on -ENOSPC
 * @plan_id: out: the plan's id in the client
 *
 * Context: process context; sleeps.  Stops when a signal is pending.
 * Return: 0; -EINVAL for a bad table or options (a tiered group plan
 * too); -E2BIG past max_tensors, max_submit_bytes or a key cap; -EMFILE
 * for more than max_plans plans; -ENFILE past max_device_plans; -ENOSPC;
 * -ETIMEDOUT; -EINTR; -ENOMEM.
 */
int tplan_client_submit(struct tplan_client *client, u32 group,
			struct tplan_tensor *t, u32 n,
			const struct tplan_options *opts,
			struct tplan_result *res, u64 *plan_id)
{
	struct tplan_arena *arena = client->arena;
	struct tplan_options use;
	struct tplan_meter meter;
	int ret;

	memset(res, 0, sizeof(*res));
	if (group && opts->tier_count > 1)
		return -EINVAL;
	ret = tplan_table_host_options(arena, n, opts, &use);
	if (ret)
		return ret;
	tplan_meter_start(&meter, arena->limits.max_submit_bytes);
	ret = tplan_table_plan_in_turn(arena, group, t, n, &use, res);
	if (!ret)
		ret = client_commit(client, group, t, n, &use, res, plan_id);
	if (tplan_meter_stop(&meter) && ret == -ENOMEM)
		ret = -E2BIG;
	return ret;
}
EXPORT_SYMBOL_NS_GPL(tplan_client_submit, TPLAN);

/**
 * tplan_client_plan_region() - where one of a client's plans' regions is
 * @client: the client
 * @plan_id: the plan
 * @slot: the region's slot, 0 to %TPLAN_ARENA_SLOTS - 1: a pool's index,
 *        or a kept region's slot (a tensor's tier after
 *        tplan_client_submit())
 * @info: out: the region
 *
 * Context: process context; may sleep.
 * Return: 0; -ENOENT when the client holds no such plan or the plan no
 * region in @slot.
 */
int tplan_client_plan_region(struct tplan_client *client, u64 plan_id,
			     u32 slot, struct tplan_region_info *info)
{
	struct tplan_arena_plan *plan;
	int ret = -ENOENT;

	if (plan_id > TPLAN_MAX_PLAN_ID)
		return -ENOENT;
	plan = tplan_client_get_plan(client, plan_id);
	if (!plan)
		return -ENOENT;
	if (slot < TPLAN_PLAN_SLOTS && plan->slots[slot]) {
		tplan_hold_info(plan->slots[slot], info);
		ret = 0;
	}
	tplan_plan_put(plan);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(tplan_client_plan_region, TPLAN);

/**
 * tplan_client_plan_get() - a counted reference on one of a client's plans
 * @client: the client
 * @plan_id: the plan
 * @plan: out: the plan, for tplan_arena_plan_region(); unchanged on error
 *
 * The reference keeps the plan and its regions (their bytes and their
 * place) alive after tplan_client_release() or tplan_client_destroy(),
 * until it is dropped with tplan_arena_plan_put() or
 * tplan_arena_plan_put_after(): a job the host runs on a plan's regions
 * takes one for its life.  It is not the client's reference: the plan
 * stays the client's until it releases it.
 *
 * Context: any context; takes no lock (the lookup is RCU's).
 * Return: 0, or -ENOENT when the client holds no such plan.
 */
int tplan_client_plan_get(struct tplan_client *client, u64 plan_id,
			  struct tplan_arena_plan **plan)
{
	struct tplan_arena_plan *p;

	if (plan_id > TPLAN_MAX_PLAN_ID)
		return -ENOENT;
	p = tplan_client_get_plan(client, plan_id);
	if (!p)
		return -ENOENT;
	*plan = p;
	return 0;
}
EXPORT_SYMBOL_NS_GPL(tplan_client_plan_get, TPLAN);

/**
 * tplan_client_release() - a client gives one of its plans back
 * @client: the client
 * @plan_id: the plan
 *
 * Its regions return to their pools, zeroed, with their last user (a
 * group's kept regions with the group's last plan using them).
 *
 * Context: process context; sleeps.
 * Return: 0, or -ENOENT when the client holds no such plan.
 */
int tplan_client_release(struct tplan_client *client, u64 plan_id)
{
	return tplan_client_drop_plan(client, plan_id);
}
EXPORT_SYMBOL_NS_GPL(tplan_client_release, TPLAN);
