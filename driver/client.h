/* SPDX-License-Identifier: GPL-2.0 */
/*
 * client.h - a client of the arena (an open file of the accel device): its plan
 * table, its groups, RELEASE (client.c).
 */
#ifndef TPLAN_CLIENT_H
#define TPLAN_CLIENT_H

#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include "tplan_arena.h"

struct tplan_arena;
struct tplan_arena_plan;

/*
 * Plan ids are at most this: handed out cyclically, a stale id names no
 * new plan for 2^20 submits.
 */
#define TPLAN_MAX_PLAN_ID	((1U << 20) - 1)

/**
 * struct tplan_client - one caller of the arena: an open file of the accel
 * device, or a host's caller
 * @arena: the arena
 * @lock: serialises changes to @plans and @groups; a group submit holds it
 *        while it writes the offsets back, so it may be held across user
 *        memory faults (mmap never takes it)
 * @plans: plan id -> &struct tplan_arena_plan, ids from 1
 * @groups: group id -> &struct tplan_group, while it has members
 * @count: entries in @plans
 * @next_id: where the search for a free plan id starts (ids are not reused
 *           soon, so a stale id does not name a new plan)
 * @keys: share_key entries its groups store, at most
 *        &tplan_limits.max_file_keys (under @lock)
 */
struct tplan_client {
	struct tplan_arena *arena;
	struct mutex lock;	/* plans, count and groups change together */
	struct xarray plans;
	struct xarray groups;
	u32 count;
	u32 next_id;
	u64 keys;
};

/* tplan_client_create(), _destroy(): tplan_arena.h, hosts call them */
struct tplan_arena_plan *tplan_client_begin_plan(struct tplan_client *client,
						 u32 tensors, u64 peak);
int tplan_client_finish_plan(struct tplan_client *client,
			     struct tplan_arena_plan *plan, int ret);
struct tplan_arena_plan *tplan_client_get_plan(struct tplan_client *client,
					       unsigned long id);
int tplan_client_take_plan(struct tplan_client *client, u64 id, bool killable,
			   struct tplan_arena_plan **plan);
int tplan_client_drop_plan(struct tplan_client *client, u64 id);
int tplan_client_plans_held(struct tplan_client *client, u32 *count);

#endif /* TPLAN_CLIENT_H */
