// SPDX-License-Identifier: GPL-2.0
/*
 * client.c - a client of the arena (an open file of the accel device): its plan
 * table, its groups, RELEASE.
 */
#include <linux/err.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "arena.h"
#include "client.h"
#include "group.h"
#include "plan.h"

/**
 * DOC: Clients
 *
 * Purpose: a client is one caller of the arena: an open file of the
 * accel device, or a host's caller (client_api.c).  It knows its plans by
 * id (&tplan_client.plans, ids from 1, handed out cyclically so that a
 * stale id does not soon name a new plan) and its serial groups.  Only
 * plans of this client can be released or exported through it.  A submit
 * reserves an id first and publishes the plan under it only when the plan
 * is complete, so RELEASE, EXPORT and close() never see a half-made plan.
 *
 * Cost: an xarray entry per plan, charged to the caller; at most
 * max_plans per client, with ids up to %TPLAN_MAX_PLAN_ID.
 *
 * Locking: &tplan_client.lock serialises changes to the table, its count
 * and the client's groups.  A group submit holds it while it writes offsets
 * back, so it may be held across faults on user memory; lookups that must
 * not wait for it (EXPORT, the API's plan_region) take plans under RCU.
 *
 * Ownership: the table holds one reference on each plan, dropped by
 * RELEASE or when the client goes (tplan_client_destroy(), when its file
 * does).  The accel device's GEM objects of a plan's regions hold more
 * (gem.c), and the plan its regions, so a region released (or whose file
 * is closed) while mapped or exported stays reserved until the last
 * mapping and dma-buf go.  A mapping also holds the file itself (as every
 * mapping of a file does), so the file's plans are given back when the
 * last descriptor is closed *and* the last mapping is gone.
 */

/**
 * tplan_client_reserve_id() - reserve a new plan's id in the client
 * @client: the client
 * @plan: the plan being made; its @id is set
 *
 * The id names the plan in the results written back, but until
 * tplan_client_publish_plan() nothing (EXPORT, RELEASE, close) sees
 * a half-made plan: the id's entry holds no plan.
 *
 * Return: 0, -EMFILE when the client holds max_plans plans (or no id is
 * free), -EINTR when the task is killed while waiting for the client's lock
 * (another thread's group submit may hold it across a fault), or -ENOMEM.
 */
static int tplan_client_reserve_id(struct tplan_client *client,
				   struct tplan_arena_plan *plan)
{
	u32 id;
	int ret;

	if (mutex_lock_killable(&client->lock))
		return -EINTR;
	if (client->count >= client->arena->limits.max_plans) {
		mutex_unlock(&client->lock);
		return -EMFILE;
	}
	ret = xa_alloc_cyclic(&client->plans, &id, NULL,
			      XA_LIMIT(1, TPLAN_MAX_PLAN_ID), &client->next_id,
			      GFP_KERNEL_ACCOUNT);
	if (ret >= 0) {
		plan->id = id;
		client->count++;
		ret = 0;
	}
	mutex_unlock(&client->lock);
	return ret == -EBUSY ? -EMFILE : ret;
}

/**
 * tplan_client_publish_plan() - the plan is complete: its id now names it
 * @client: the client
 * @plan: a plan with an id from tplan_client_reserve_id()
 *
 * From here a RELEASE of its id (or close()) may free the plan at any time.
 *
 * Return: 0 or -ENOMEM.
 */
static int tplan_client_publish_plan(struct tplan_client *client,
				     struct tplan_arena_plan *plan)
{
	void *old;

	mutex_lock(&client->lock);
	old = xa_store(&client->plans, plan->id, plan, GFP_KERNEL_ACCOUNT);
	mutex_unlock(&client->lock);
	return xa_err(old);
}

/**
 * tplan_client_cancel_plan() - a plan that was never published: free its id
 * and take it out of its group
 * @client: the client
 * @plan: a plan with an id from tplan_client_reserve_id()
 *
 * The client's reference is still the caller's to drop.
 */
static void tplan_client_cancel_plan(struct tplan_client *client,
				     struct tplan_arena_plan *plan)
{
	mutex_lock(&client->lock);
	xa_release(&client->plans, plan->id);
	client->count--;
	if (plan->group)
		tplan_group_leave(client, plan);
	mutex_unlock(&client->lock);
}

/**
 * tplan_client_begin_plan() - a new plan of the client, its id reserved
 * @client: the client
 * @tensors: tensors in its table
 * @peak: bytes it needs
 *
 * The id is the plan's name in the results; nothing else sees the plan
 * until tplan_client_finish_plan().
 *
 * Return: the plan, ERR_PTR(-ENOMEM), ERR_PTR(-EMFILE) when the client
 * holds max_plans plans, or ERR_PTR(-ENFILE) when the arena has
 * max_device_plans alive.
 */
struct tplan_arena_plan *tplan_client_begin_plan(struct tplan_client *client,
						 u32 tensors, u64 peak)
{
	struct tplan_arena_plan *plan = tplan_plan_new(client->arena, tensors, peak);
	int ret;

	if (IS_ERR(plan))
		return plan;
	ret = tplan_client_reserve_id(client, plan);
	if (ret) {
		tplan_plan_put(plan);
		return ERR_PTR(ret);
	}
	return plan;
}

/**
 * tplan_client_finish_plan() - hand a plan from tplan_client_begin_plan() to
 * its client, or give it back
 * @client: the client
 * @plan: the plan, its regions taken and its results filled in
 * @ret: 0 if it is complete, else why not
 *
 * A plan that is not complete, or cannot be published, leaves no trace:
 * its id is free again and its regions go back.  Once published, a
 * RELEASE of its id may free it at any time: the caller must not touch it.
 *
 * Return: @ret, or -ENOMEM when the plan could not be published.
 */
int tplan_client_finish_plan(struct tplan_client *client, struct tplan_arena_plan *plan,
			     int ret)
{
	if (!ret) {
		tplan_plan_publish(plan);
		ret = tplan_client_publish_plan(client, plan);
	}
	if (ret) {
		tplan_client_cancel_plan(client, plan);
		tplan_plan_release(plan);
	}
	return ret;
}

/**
 * tplan_client_take_plan() - take a plan out of the client (and its group)
 * @client: the client
 * @id: the plan's id
 * @killable: wait for the client's lock killably (a caller's RELEASE), or
 *            until it has it (the kernel's own clean-ups: close, an undone
 *            submit)
 * @plan: out: the plan with the client's reference, for
 *        tplan_plan_release(); NULL if the client holds none of that id
 *
 * Return: 0, or -EINTR when killed while waiting for the lock.
 */
int tplan_client_take_plan(struct tplan_client *client, u64 id, bool killable,
			   struct tplan_arena_plan **plan)
{
	*plan = NULL;
	if (!id || id > TPLAN_MAX_PLAN_ID)
		return 0;
	if (!killable)
		mutex_lock(&client->lock);
	else if (mutex_lock_killable(&client->lock))
		return -EINTR;
	/* a reserved id of a plan being made reads as NULL and stays */
	*plan = xa_load(&client->plans, id);
	if (*plan) {
		xa_erase(&client->plans, id);
		client->count--;
		if ((*plan)->group)
			tplan_group_leave(client, *plan);
	}
	mutex_unlock(&client->lock);
	return 0;
}

/**
 * tplan_client_drop_plan() - the client gives up one of its plans
 * @client: the client
 * @id: the plan's id
 *
 * Other references (the accel device's GEM objects) may keep the plan, and
 * its regions, until they go.  It waits for the client's lock whatever
 * happens.
 *
 * Return: 0, or -ENOENT when the client holds no plan of that id (a plan
 * still being made is not held yet).
 */
int tplan_client_drop_plan(struct tplan_client *client, u64 id)
{
	struct tplan_arena_plan *plan;

	tplan_client_take_plan(client, id, false, &plan);
	if (!plan)
		return -ENOENT;
	tplan_plan_release(plan);
	return 0;
}

/**
 * tplan_client_plans_held() - how many plans the client holds
 * @client: the client
 * @count: the plans it holds, those being made included
 *
 * Return: 0, or -EINTR when the task is killed while waiting for the
 * client's lock.
 */
int tplan_client_plans_held(struct tplan_client *client, u32 *count)
{
	if (mutex_lock_killable(&client->lock))
		return -EINTR;
	*count = client->count;
	mutex_unlock(&client->lock);
	return 0;
}

/**
 * tplan_client_create() - a new client of an arena, with no plan: one
 * caller of the host (an open file of the accel device)
 * @arena: the arena
 *
 * Context: process context; may sleep.
 * Return: the client, or ERR_PTR(-ENOMEM).
 */
struct tplan_client *tplan_client_create(struct tplan_arena *arena)
{
	struct tplan_client *client = kzalloc(sizeof(*client),
					      GFP_KERNEL_ACCOUNT);

	if (!client)
		return ERR_PTR(-ENOMEM);
	client->arena = arena;
	atomic_inc(&arena->live_clients);
	mutex_init(&client->lock);
	xa_init_flags(&client->plans, XA_FLAGS_ALLOC1);
	xa_init(&client->groups);
	return client;
}
EXPORT_SYMBOL_NS_GPL(tplan_client_create, TPLAN);

/**
 * tplan_client_destroy() - the client is gone: drop its plans
 * @client: the client; no call of it may still run
 *
 * Mappings may keep its plans, and their regions, until they go.
 *
 * Context: process context; sleeps.
 */
void tplan_client_destroy(struct tplan_client *client)
{
	struct tplan_arena_plan *plan;
	unsigned long id;

	xa_for_each(&client->plans, id, plan)
		tplan_client_drop_plan(client, id);
	xa_destroy(&client->plans);
	xa_destroy(&client->groups);
	mutex_destroy(&client->lock);
	atomic_dec(&client->arena->live_clients);
	kfree(client);
}
EXPORT_SYMBOL_NS_GPL(tplan_client_destroy, TPLAN);

/**
 * tplan_client_get_plan() - one of the client's plans, with a reference
 * @client: the client
 * @id: the plan's id
 *
 * Without the client's lock, which a submit may hold while it faults on
 * user memory: plans are freed after an RCU grace
 * period.
 *
 * Return: the plan, for tplan_plan_put(), or NULL if the client holds no
 * plan of that id.
 */
struct tplan_arena_plan *tplan_client_get_plan(struct tplan_client *client,
					       unsigned long id)
{
	struct tplan_arena_plan *plan;

	rcu_read_lock();
	plan = xa_load(&client->plans, id);
	if (plan && !kref_get_unless_zero(&plan->ref))
		plan = NULL;
	rcu_read_unlock();
	return plan;
}
