// SPDX-License-Identifier: GPL-2.0
/*
 * submit_spill.c - SUBMIT_SPILL: a table that may not fit its capacity,
 * planned as pieces (the shared planner's tplan_spill_plan()), and a plan
 * reserving what the pieces need.
 */

/**
 * DOC: SUBMIT_SPILL
 *
 * Purpose: a table whose lower bound exceeds the memory it may use still
 * runs when tensors are moved out to host memory between two of their
 * uses.  The caller passes the table (as for SUBMIT), every tensor's uses
 * and a capacity; the planner returns pieces, each a stretch of time a
 * tensor spends in device memory at an offset, and the host offsets of the
 * moved copies.  The pieces go to the caller's array; the plan reserves a
 * region of their peak in the first pool with room and is released,
 * mapped and closed as a SUBMIT plan is.  The device copies nothing: the
 * runtime (or the device's DMA engine) moves the tensors as the pieces say.
 *
 * Cost: the table's copy (112 bytes per tensor), the uses (8 bytes per use,
 * 4 per tensor), the pieces (40 bytes each, no more than the caller's
 * array holds) and the planner's arrays, all through the memory meter
 * (max_submit_bytes, charged to the caller); copies yield and look for
 * signals every %TPLAN_SPILL_COPY_CHUNK entries, the planner every 4096
 * work units, under the same work budget as SUBMIT.
 *
 * Locking: planning holds one of the device's max_submits turns and no
 * lock; the turn is never held across an access to user memory.
 *
 * Errors: every input is checked before anything changes.  Too many
 * pieces for the caller's array is -ENOBUFS, with piece_count saying how
 * many are needed (nothing is reserved, no piece written); a step whose
 * used tensors alone exceed the capacity, or pieces that do not fit by
 * addresses, is -ENOSPC with fail_step and fail_bytes; a plan that fits
 * its capacity but finds no pool with room is -ENOSPC with fail_bytes 0.
 */
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/semaphore.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <drm/drm_file.h>

#include "planner.h"
#include "client.h"
#include "file.h"
#include "gem.h"
#include "hold.h"
#include "meter.h"
#include "plan.h"
#include "submit_spill.h"
#include "table.h"
#include "arena.h"

/* ABI version 1's piece descriptor ends where the uapi header says. */
static_assert(offsetofend(struct tplan_piece_desc, host_offset) ==
	      TPLAN_PIECE_DESC_SIZE_VER1);
static_assert(TPLAN_SPILL_ID_DEFAULT == TPLAN_SPILL_DEFAULT);
static_assert(TPLAN_SPILL_ID_FURTHEST == TPLAN_SPILL_FURTHEST);
static_assert(TPLAN_SPILL_ID_GA == TPLAN_SPILL_GA);

/* Entries copied between two looks for a signal. */
#define TPLAN_SPILL_COPY_CHUNK	4096U

/* The most uses one table may have: the planner counts them in 31 bits. */
#define TPLAN_SPILL_MAX_USES	0x7fffffffU

/* Whether @count entries, @stride bytes apart, can be in user memory. */
static int check_user_array(u64 addr, u32 count, size_t stride)
{
	size_t bytes;

	if (check_mul_overflow((size_t)count, stride, &bytes))
		return -EOVERFLOW;
	if (!access_ok(u64_to_user_ptr(addr), bytes))
		return -EFAULT;
	return 0;
}

/*
 * A pointer comes with a count, as SUBMIT's gaps do: a pointer without
 * one is a caller's mistake (a count never filled in), not a request.
 */
static int check_uses(const struct tplan_submit_spill *req)
{
	int ret;

	if (!req->use_start)
		return req->uses || req->use_count ? -EINVAL : 0;
	if (!req->use_count && req->uses)
		return -EINVAL;
	if (req->use_count > TPLAN_SPILL_MAX_USES)
		return -E2BIG;
	ret = check_user_array(req->use_start, req->count + 1, sizeof(u32));
	if (!ret)
		ret = check_user_array(req->uses, req->use_count, sizeof(u64));
	return ret;
}

/**
 * tplan_spill_check() - check a SUBMIT_SPILL request before anything
 * changes
 * @file: the DRM file
 * @data: the caller's &struct tplan_submit_spill, copied in
 *
 * Return: 0; -EINVAL for unknown flags, a non-zero pad or reserved field,
 * an unknown strategy, capacity 0, no tensors, a bad stride, uses
 * without use_start, or a uses or pieces pointer without a count; -E2BIG
 * for more than max_tensors or 2^31 - 1 uses; -EOVERFLOW or -EFAULT for
 * an array that cannot be in user memory.
 */
int tplan_spill_check(struct drm_file *file, const void *data)
{
	struct tplan_client *client = file->driver_priv;
	const struct tplan_submit_spill *req = data;
	int ret;

	if (req->flags & ~TPLAN_SUBMIT_SPILL_FLAGS)
		return -EINVAL;
	if (req->pad || memchr_inv(req->reserved, 0, sizeof(req->reserved)))
		return -EINVAL;
	if (req->strategy >= TPLAN_SPILL_COUNT || !req->capacity)
		return -EINVAL;
	if (req->piece_stride < TPLAN_PIECE_DESC_SIZE_VER1 ||
	    req->piece_stride > TPLAN_PIECE_DESC_MAX_STRIDE ||
	    req->piece_stride % 8)
		return -EINVAL;
	ret = tplan_table_check_array(&client->arena->limits, req->tensors,
				      req->count, req->stride);
	if (!ret)
		ret = check_uses(req);
	if (!ret && !req->piece_cap && req->pieces)
		ret = -EINVAL;
	if (!ret)
		ret = check_user_array(req->pieces, req->piece_cap,
				       req->piece_stride);
	return ret;
}

/**
 * struct spill_call - what a SUBMIT_SPILL works on besides its request
 * @opts: the planner's options
 * @res: the planner's results
 * @uses: @step and @start for the planner, or unused without uses
 * @meter: the memory meter
 * @t: the table
 * @step: the uses
 * @start: where each tensor's uses start (count + 1 entries)
 * @p: room for @cap pieces
 * @cap: the caller's room, or less when no plan can need that many
 */
struct spill_call {
	struct tplan_spill_options opts;
	struct tplan_spill_result res;
	struct tplan_uses uses;
	struct tplan_meter meter;
	struct tplan_tensor *t;
	u64 *step;
	u32 *start;
	struct tplan_piece *p;
	u32 cap;
};

/* Copy @n entries of @size bytes in, a chunk at a time. */
static int copy_array_in(void *dst, u64 src, u32 n, size_t size)
{
	const u8 __user *from = u64_to_user_ptr(src);
	u32 i, k;

	for (i = 0; i < n; i += k) {
		k = min(n - i, TPLAN_SPILL_COPY_CHUNK);
		if (copy_from_user((u8 *)dst + (size_t)i * size,
				   from + (size_t)i * size, (size_t)k * size))
			return -EFAULT;
		cond_resched();
		if (signal_pending(current))
			return -EINTR;
	}
	return 0;
}

/*
 * The uses in: use_start must end at use_count, so that no entry reaches
 * past the steps copied; tplan_check_uses() checks that it starts at 0 and
 * never decreases before it reads a step, then the steps themselves.
 */
static int copy_uses_in(const struct tplan_submit_spill *req,
			struct spill_call *c)
{
	u32 n = req->count;
	int ret;

	c->start = tplan_alloc_array((size_t)n + 1, sizeof(u32));
	c->step = tplan_alloc_array(max(req->use_count, 1U), sizeof(u64));
	if (!c->start || !c->step)
		return -ENOMEM;
	ret = copy_array_in(c->start, req->use_start, n + 1, sizeof(u32));
	if (!ret)
		ret = copy_array_in(c->step, req->uses, req->use_count,
				    sizeof(u64));
	if (ret)
		return ret;
	if (c->start[n] != req->use_count)
		return -EINVAL;
	c->uses.step = c->step;
	c->uses.start = c->start;
	return 0;
}

/*
 * The table and its uses in, and room for the pieces.  Both are checked
 * here already (the planner checks them again) so that the room is
 * counted on a valid table.
 */
static int spill_copy_in(const struct tplan_submit_spill *req,
			 struct spill_call *c)
{
	const struct tplan_uses *u = req->use_start ? &c->uses : NULL;
	int ret;

	c->t = tplan_alloc_array(req->count, sizeof(*c->t));
	if (!c->t)
		return -ENOMEM;
	ret = tplan_table_copy_in(req->tensors, req->count, req->stride, c->t);
	if (!ret && req->use_start)
		ret = copy_uses_in(req, c);
	if (!ret)
		ret = tplan_check_table(c->t, req->count, NULL);
	if (!ret)
		ret = tplan_check_uses(c->t, req->count, u, NULL);
	if (ret)
		return ret;
	c->cap = min(req->piece_cap, tplan_spill_max_pieces(c->t, req->count, u));
	c->p = tplan_alloc_array(max(c->cap, 1U), sizeof(*c->p));
	return c->p ? 0 : -ENOMEM;
}

/* Plan in one of the arena's max_submits turns (see table.c). */
static int spill_plan_in_turn(struct tplan_arena *arena,
			      const struct tplan_submit_spill *req,
			      struct spill_call *c)
{
	const struct tplan_uses *u = req->use_start ? &c->uses : NULL;

	return tplan_table_spill_in_turn(arena, c->t, req->count, u, &c->opts,
					 c->p, c->cap, &c->res);
}

static void fill_result(struct tplan_submit_spill *req,
			const struct tplan_spill_result *res)
{
	req->plan_id = 0;
	req->piece_count = res->pieces;
	req->moved = res->moved;
	req->moved_bound = res->moved_bound;
	req->host_peak = res->host_peak;
	req->peak = res->peak;
	req->live_peak = res->live_peak;
	req->work = res->work;
	req->fail_step = res->fail_step;
	req->fail_bytes = res->fail_bytes;
	req->kept = res->strategy;
	memset(req->regions, 0, sizeof(req->regions));
}

/* The pieces out, each zero-filled beyond this kernel's descriptor. */
static int write_pieces(const struct tplan_submit_spill *req,
			const struct tplan_piece *p, u32 np)
{
	void __user *base = u64_to_user_ptr(req->pieces);
	struct tplan_piece_desc d;
	u32 i;

	for (i = 0; i < np; i++) {
		void __user *to = base + (size_t)i * req->piece_stride;

		memset(&d, 0, sizeof(d));
		d.tensor = p[i].tensor;
		d.piece = p[i].piece;
		d.lower = p[i].lower;
		d.upper = p[i].upper;
		d.offset = p[i].offset;
		d.host_offset = p[i].host_offset;
		if (copy_to_user(to, &d, sizeof(d)))
			return -EFAULT;
		if (req->piece_stride > sizeof(d) &&
		    clear_user(to + sizeof(d), req->piece_stride - sizeof(d)))
			return -EFAULT;
		if (!(i % TPLAN_SPILL_COPY_CHUNK))
			cond_resched();
	}
	return 0;
}

static void fill_region(struct tplan_submit_spill *req,
			const struct tplan_arena_plan *plan)
{
	u32 k;

	req->plan_id = plan->id;
	for (k = 0; k < TPLAN_MAX_POOLS; k++) {
		struct tplan_plan_region *r = &req->regions[k];

		if (!plan->slots[k])
			continue;
		r->peak = plan->peak;
		tplan_hold_extent(plan->slots[k], &r->region_offset,
				  &r->region_size);
		r->mmap_offset = plan->mmap_offsets[k];
		r->handle = plan->handles[k];
	}
}

/*
 * Reserve the pieces' memory as a GEM object of the file, write them out,
 * hand the plan to the file.
 */
static int spill_commit(struct drm_file *file, struct tplan_submit_spill *req,
			struct spill_call *c)
{
	struct tplan_client *client = file->driver_priv;
	struct tplan_arena_plan *plan = tplan_client_begin_plan(client, req->count, c->res.peak);
	int ret;

	if (IS_ERR(plan))
		return PTR_ERR(plan);
	ret = tplan_plan_reserve_first(plan, c->t, req->count, c->res.peak);
	if (!ret)
		ret = tplan_gem_open_plan(file, plan, 0);
	if (!ret)
		ret = write_pieces(req, c->p, c->res.pieces);
	if (ret)
		tplan_gem_close_plan(file, plan);
	else
		fill_region(req, plan);
	return tplan_client_finish_plan(client, plan, ret);
}

static int spill_submit(struct drm_file *file, struct tplan_submit_spill *req,
			struct spill_call *c)
{
	struct tplan_client *client = file->driver_priv;
	int ret;

	c->opts.strategy = req->strategy;
	c->opts.capacity = req->capacity;
	c->opts.budget = tplan_table_spill_budget(client->arena, req->budget);
	ret = spill_copy_in(req, c);
	if (!ret)
		ret = spill_plan_in_turn(client->arena, req, c);
	fill_result(req, &c->res);
	if (ret)
		return ret;
	if (req->flags & TPLAN_SUBMIT_DRY_RUN) {
		req->regions[0].peak = c->res.peak;
		return write_pieces(req, c->p, c->res.pieces);
	}
	ret = spill_commit(file, req, c);
	/* no pool has room: not the capacity's fault, so no failing step */
	if (ret == -ENOSPC) {
		req->fail_step = 0;
		req->fail_bytes = 0;
	}
	return ret;
}

static void spill_call_free(struct spill_call *c)
{
	tplan_free(c->t);
	tplan_free(c->step);
	tplan_free(c->start);
	tplan_free(c->p);
}

/**
 * tplan_spill_ioctl() - TPLAN_IOC_SUBMIT_SPILL: plan a table as pieces
 * within a capacity and reserve what they need
 * @file: the DRM file
 * @data: the caller's &struct tplan_submit_spill, copied in and checked by
 *        tplan_spill_check(); its results are filled in
 *
 * Running out of max_submit_bytes is -E2BIG; a pending signal stops the
 * copies, the wait for a turn or the planning, and the call is restarted
 * (the plan is deterministic, so a restart gives the same one).
 *
 * Return: 0 or a negative errno (docs/DRIVER.md lists them); on -ENOSPC
 * and -ENOBUFS the results say why.
 */
int tplan_spill_ioctl(struct drm_file *file, void *data)
{
	struct tplan_client *client = file->driver_priv;
	struct spill_call *c;
	int ret;

	c = kzalloc(sizeof(*c), GFP_KERNEL_ACCOUNT);
	if (!c)
		return -ENOMEM;
	tplan_meter_start(&c->meter, client->arena->limits.max_submit_bytes);
	ret = spill_submit(file, data, c);
	spill_call_free(c);
	if (tplan_meter_stop(&c->meter) && ret == -ENOMEM)
		ret = -E2BIG;
	if (ret == -EINTR && signal_pending(current))
		ret = -ERESTARTSYS;
	kfree(c);
	return ret;
}

/**
 * tplan_spill_undo() - give back a spill plan whose id the caller cannot
 * learn
 * @file: the DRM file
 * @data: the &struct tplan_submit_spill tplan_spill_ioctl() filled in
 */
void tplan_spill_undo(struct drm_file *file, const void *data)
{
	const struct tplan_submit_spill *req = data;

	tplan_file_undo_plan(file, req->plan_id);
}
