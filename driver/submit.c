// SPDX-License-Identifier: GPL-2.0
/*
 * submit.c - TPLAN_IOC_SUBMIT: a table checked, planned (table.c), given
 * memory or joined to its group, its places written back, and the plan
 * handed to the file.
 */
#include <linux/err.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <drm/drm_file.h>

#include "planner.h"
#include "client.h"
#include "file.h"
#include "gem.h"
#include "group.h"
#include "hold.h"
#include "meter.h"
#include "plan.h"
#include "submit.h"
#include "table.h"
#include "arena.h"

/**
 * DOC: SUBMIT
 *
 * A submit checks the request (tplan_submit_check()), copies the table in
 * and plans it (table.c), then makes the plan: reserves its id in the
 * file, gives it regions (or joins its group), makes each region a GEM
 * object with a handle in the file (gem.c), writes each tensor's place
 * back, fills in the results and publishes the plan to its file.  A dry
 * run stops after writing the places back.
 *
 * Every input is checked before anything changes; a rejected call returns
 * a precise errno and leaves the device and the file as they were.
 * Planning runs outside every lock, at most max_submits at once, under a
 * work budget clamped to max_budget, with its memory charged to the caller
 * and capped at max_submit_bytes (see "Memory meter"); it stops when a
 * signal is pending and the call is restarted (the plan is deterministic,
 * so a restart gives the same one).
 */

/**
 * tplan_submit_check() - check a SUBMIT request before anything changes
 * @file: the DRM file
 * @data: the caller's &struct tplan_submit, copied in
 *
 * Return: 0; -EINVAL for unknown flags, non-zero reserved bytes, a tiered
 * group, an unknown strategy, no tensors or a bad stride; -E2BIG for more
 * than max_tensors; -EOVERFLOW or -EFAULT for a table that cannot be in
 * user memory; or as tplan_gaps_check().
 */
int tplan_submit_check(struct drm_file *file, const void *data)
{
	struct tplan_client *client = file->driver_priv;
	const struct tplan_limits *limits = &client->arena->limits;
	const struct tplan_submit *req = data;
	int ret;

	if (req->flags & ~TPLAN_SUBMIT_FLAGS)
		return -EINVAL;
	if (memchr_inv(req->reserved, 0, sizeof(req->reserved)))
		return -EINVAL;
	if (req->group && (req->flags & TPLAN_SUBMIT_TIERED))
		return -EINVAL;
	if (req->strategy >= TPLAN_STRATEGY_COUNT)
		return -EINVAL;
	ret = tplan_table_check_array(limits, req->tensors, req->count,
				      req->stride);
	if (ret)
		return ret;
	return tplan_gaps_check(req);
}

/* Descriptors written back between two preemption points. */
#define TPLAN_WRITE_BACK_YIELD	256

/**
 * write_back() - write each tensor's place into the caller's descriptors
 * @req: the request
 * @t: the planned table; a tensor's tier is the plan's slot for its region
 *     (its pool, or a kept region of a group; %TPLAN_NO_SLOT for an empty
 *     kept tensor, which is in pool 0 and no region), a dry run's its pool
 * @plan: the plan whose regions hold the tensors, or NULL for a dry run
 *
 * Writes each descriptor's offset, pool and mmap offset (its region's GEM
 * object's), yielding every %TPLAN_WRITE_BACK_YIELD descriptors: three
 * accesses to user memory each, slow in UML (a page-table walk apiece).
 *
 * Return: 0 or -EFAULT.
 */
static int write_back(const struct tplan_submit *req,
		      const struct tplan_tensor *t,
		      const struct tplan_arena_plan *plan)
{
	void __user *base = u64_to_user_ptr(req->tensors);
	u32 i;

	for (i = 0; i < req->count; i++) {
		struct tplan_tensor_desc __user *d = base + (size_t)i * req->stride;
		u32 slot = t[i].tier;
		const struct tplan_hold *hold =
			plan && slot < TPLAN_PLAN_SLOTS ? plan->slots[slot] : NULL;
		u32 pool = hold ? hold->pool : slot < TPLAN_KEEP_SLOT ? slot : 0;
		u64 mmap = hold ? plan->mmap_offsets[slot] : 0;

		if (put_user(t[i].offset, &d->offset) ||
		    put_user(pool, &d->pool) ||
		    put_user(mmap, &d->mmap_offset))
			return -EFAULT;
		if (!(i % TPLAN_WRITE_BACK_YIELD))
			cond_resched();
	}
	return 0;
}

/* The plan's part of each pool. */
static void fill_regions(struct tplan_submit *req, const struct tplan_arena_plan *plan,
			 const struct tplan_options *opts,
			 const struct tplan_result *res)
{
	bool tiered = opts->tier_count > 1;
	u32 k;

	req->plan_id = plan ? plan->id : 0;
	for (k = 0; k < TPLAN_MAX_POOLS; k++) {
		struct tplan_plan_region *r = &req->regions[k];
		const struct tplan_hold *hold = plan ? plan->slots[k] : NULL;
		u64 size;

		memset(r, 0, sizeof(*r));
		if (tiered) {
			r->peak = res->tier_peak[k];
			r->weight = res->tier_weight[k];
		} else if (hold || (!plan && !k)) {
			r->peak = res->peak;
			r->weight = res->tier_weight[0];
		}
		if (!hold)
			continue;
		/*
		 * The size of the plan's object, not the region's now: another
		 * thread's join may have grown the group's scratch region
		 * since this one let the file's lock go.
		 */
		tplan_hold_extent(hold, &r->region_offset, &size);
		r->region_size = plan->map_sizes[k];
		r->mmap_offset = plan->mmap_offsets[k];
		r->handle = plan->handles[k];
	}
}

/*
 * A plan being made: its file, the request its places are written into and
 * the bytes a group plan needs of its group's scratch region.
 */
struct submit_place {
	struct drm_file *file;
	struct tplan_submit *req;
	u64 scratch;
};

/*
 * The plan has its regions: they become GEM objects of the file, and the
 * places, naming their mmap offsets, go to the caller's array.  Also
 * tplan_group_join()'s placement.
 */
static int place_in_user(void *ctx, const struct tplan_tensor *t,
			 struct tplan_arena_plan *plan)
{
	struct submit_place *sp = ctx;
	int ret = tplan_gem_open_plan(sp->file, plan, sp->scratch);

	return ret ? ret : write_back(sp->req, t, plan);
}

/* Give a plan memory, write the offsets back and hand it to the file. */
static int commit_plan(struct drm_file *file, struct tplan_submit *req,
		       struct tplan_tensor *t, const struct tplan_options *opts,
		       const struct tplan_result *res)
{
	struct tplan_client *client = file->driver_priv;
	struct tplan_arena_plan *plan = tplan_client_begin_plan(client, req->count, res->peak);
	struct submit_place sp = {
		.file = file, .req = req, .scratch = req->group ? res->peak : 0,
	};
	int ret;

	if (IS_ERR(plan))
		return PTR_ERR(plan);
	if (req->group) {
		ret = tplan_group_join(client, req->group, t, req->count, plan,
				       res->peak, place_in_user, &sp,
				       &req->shared_bytes);
	} else {
		ret = tplan_plan_reserve(plan, t, req->count, opts, res);
		if (!ret)
			ret = place_in_user(&sp, t, plan);
	}
	if (ret)
		tplan_gem_close_plan(file, plan);
	else
		fill_regions(req, plan, opts, res);
	return tplan_client_finish_plan(client, plan, ret);
}

static void clear_outputs(struct tplan_submit *req)
{
	req->plan_id = 0;
	req->shared_bytes = 0;
	memset(req->regions, 0, sizeof(req->regions));
}

static void fill_result(struct tplan_submit *req, const struct tplan_result *res)
{
	req->lower_bound = res->lower_bound;
	req->peak = res->peak;
	req->work = res->work;
	req->search = res->search;
}

/* What a submit works on besides its request: too large for the stack. */
struct submit_call {
	struct tplan_options opts;
	struct tplan_result res;
	struct tplan_meter meter;
};

static int submit(struct drm_file *file, struct tplan_submit *req,
		  struct submit_call *c)
{
	struct tplan_client *client = file->driver_priv;
	struct tplan_tensor *t = NULL;
	int ret;

	tplan_table_options(client->arena, req, &c->opts);
	ret = tplan_table_plan_request(client->arena, req, &c->opts, &t, &c->res);
	clear_outputs(req);
	fill_result(req, &c->res);
	if (ret)
		return ret;
	if (req->flags & TPLAN_SUBMIT_DRY_RUN) {
		ret = write_back(req, t, NULL);
		fill_regions(req, NULL, &c->opts, &c->res);
	} else {
		ret = commit_plan(file, req, t, &c->opts, &c->res);
	}
	tplan_free(t);
	return ret;
}

/*
 * Submit with the memory metered: running out of max_submit_bytes is
 * -E2BIG.  A pending signal stops the copy, the wait for a turn or the
 * planning, and the call is restarted.
 */
static int submit_metered(struct drm_file *file, struct tplan_submit *req,
			  struct submit_call *c)
{
	struct tplan_client *client = file->driver_priv;
	int ret;

	tplan_meter_start(&c->meter, client->arena->limits.max_submit_bytes);
	ret = submit(file, req, c);
	if (tplan_meter_stop(&c->meter) && ret == -ENOMEM)
		ret = -E2BIG;
	if (ret == -EINTR && signal_pending(current))
		ret = -ERESTARTSYS;
	return ret;
}

/**
 * tplan_submit_ioctl() - TPLAN_IOC_SUBMIT: plan a table and reserve memory
 * @file: the DRM file
 * @data: the caller's &struct tplan_submit, copied in and checked by
 *        tplan_submit_check(); its results are filled in
 *
 * Return: 0 or a negative errno (docs/DRIVER.md lists them); on -ENOSPC
 * the results still say what the plan would need.
 */
int tplan_submit_ioctl(struct drm_file *file, void *data)
{
	struct submit_call *c;
	int ret;

	c = kzalloc(sizeof(*c), GFP_KERNEL_ACCOUNT);
	if (!c)
		return -ENOMEM;
	ret = submit_metered(file, data, c);
	kfree(c);
	return ret;
}

/**
 * tplan_submit_undo() - give back a plan whose id the caller cannot learn
 * @file: the DRM file
 * @data: the &struct tplan_submit tplan_submit_ioctl() filled in
 */
void tplan_submit_undo(struct drm_file *file, const void *data)
{
	const struct tplan_submit *req = data;

	tplan_file_undo_plan(file, req->plan_id);
}
