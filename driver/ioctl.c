// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl.c - GET_INFO, SUBMIT and RELEASE.
 *
 * Every input is checked before anything changes; a rejected call returns a
 * precise errno and leaves the device and the file as they were.  Planning
 * runs outside every lock, at most max_submits at once, under a work budget
 * clamped to max_budget, with its memory charged to the caller and capped
 * at max_submit_bytes; it stops when a signal is pending and the call is
 * restarted (the plan is deterministic, so a restart gives the same one).
 */
#include <linux/mm.h>
#include <linux/nospec.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "planner.h"
#include "tplan_drv.h"

/* ABI version 1's structs end where the uapi header says, forever. */
static_assert(offsetofend(struct tplan_info, pools) == TPLAN_INFO_SIZE_VER1);
static_assert(offsetofend(struct tplan_submit, reserved) ==
	      TPLAN_SUBMIT_SIZE_VER1);
static_assert(offsetofend(struct tplan_release, reserved) ==
	      TPLAN_RELEASE_SIZE_VER1);
static_assert(offsetofend(struct tplan_tensor_desc, mmap_offset) ==
	      TPLAN_TENSOR_DESC_SIZE_VER1);

/* How often the table copy yields and looks for signals. */
#define TPLAN_COPY_CHECK_INTERVAL	1024

static_assert(TPLAN_STRATEGY_ID_NAIVE == TPLAN_STRATEGY_NAIVE);
static_assert(TPLAN_STRATEGY_ID_GREEDY_SIZE == TPLAN_STRATEGY_GREEDY_SIZE);
static_assert(TPLAN_STRATEGY_ID_STRIP == TPLAN_STRATEGY_STRIP);
static_assert(TPLAN_STRATEGY_ID_SEARCH == TPLAN_STRATEGY_SEARCH);
static_assert(TPLAN_STRATEGY_ID_AUTO == TPLAN_STRATEGY_AUTO);

static int tplan_submit_check(struct tplan_file *tf, const void *data)
{
	const struct tplan_limits *limits = &tf->tdev->limits;
	const struct tplan_submit *req = data;
	size_t bytes;

	if (req->flags & ~TPLAN_SUBMIT_FLAGS)
		return -EINVAL;
	if (memchr_inv(req->reserved, 0, sizeof(req->reserved)))
		return -EINVAL;
	if (req->group && (req->flags & TPLAN_SUBMIT_TIERED))
		return -EINVAL;
	if (req->strategy >= TPLAN_STRATEGY_COUNT)
		return -EINVAL;
	if (!req->count)
		return -EINVAL;
	if (req->count > limits->max_tensors)
		return -E2BIG;
	if (req->stride < TPLAN_TENSOR_DESC_SIZE_VER1 ||
	    req->stride > TPLAN_TENSOR_DESC_MAX_STRIDE || req->stride % 8)
		return -EINVAL;
	if (check_mul_overflow((size_t)req->count, (size_t)req->stride, &bytes))
		return -EOVERFLOW;
	if (!access_ok(u64_to_user_ptr(req->tensors), bytes))
		return -EFAULT;
	return 0;
}

static int tensor_from_desc(struct tplan_tensor *t,
			    const struct tplan_tensor_desc *d)
{
	if ((d->flags & ~TPLAN_TENSOR_HAS_ALIAS) || d->pad)
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
	return 0;
}

/*
 * Copy the table in, one descriptor at a time so that a caller's larger
 * stride works; copy_struct_from_user() rejects non-zero bytes beyond the
 * fields this kernel knows with -E2BIG.
 */
static int copy_table_in(const struct tplan_submit *req, struct tplan_tensor *t)
{
	void __user *base = u64_to_user_ptr(req->tensors);
	struct tplan_tensor_desc d;
	u32 i;
	int ret;

	for (i = 0; i < req->count; i++) {
		ret = copy_struct_from_user(&d, sizeof(d),
					    base + (size_t)i * req->stride,
					    req->stride);
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

/*
 * Each tensor's offset, pool and region.  A planned tensor's tier is the
 * plan's slot for its region (its pool, or a kept region of a group;
 * TPLAN_NO_SLOT for an empty kept tensor, which is in pool 0 and no
 * region); a dry run's is its pool.
 */
static int write_offsets_back(const struct tplan_submit *req,
			      const struct tplan_tensor *t,
			      const struct tplan_plan *plan)
{
	void __user *base = u64_to_user_ptr(req->tensors);
	u32 i;

	for (i = 0; i < req->count; i++) {
		struct tplan_tensor_desc __user *d = base + (size_t)i * req->stride;
		u32 slot = t[i].tier;
		const struct tplan_hold *hold =
			plan && slot < TPLAN_PLAN_SLOTS ? plan->slots[slot] : NULL;
		u32 pool = hold ? hold->pool : slot < TPLAN_KEEP_SLOT ? slot : 0;
		u64 mmap = hold ? tplan_mmap_offset(plan->id, slot) : 0;

		if (put_user(t[i].offset, &d->offset) ||
		    put_user(pool, &d->pool) ||
		    put_user(mmap, &d->mmap_offset))
			return -EFAULT;
		if (!(i % TPLAN_COPY_CHECK_INTERVAL))
			cond_resched();
	}
	return 0;
}

/*
 * With TPLAN_SUBMIT_TIERED the pools are the tiers, each with the room of
 * its largest free run now.  A full pool gets one byte of room (0 would
 * mean unlimited): only empty tensors fit there.
 */
static void tiers_from_pools(struct tplan_dev *tdev,
			     struct tplan_options *opts)
{
	u32 k;

	if (tdev->pool_count < 2)
		return;
	opts->tier_count = tdev->pool_count;
	for (k = 0; k < tdev->pool_count; k++)
		opts->tier_capacity[k] = max(tplan_pool_room(tdev, k), 1ULL);
}

static void options_from_submit(struct tplan_dev *tdev,
				const struct tplan_submit *req,
				struct tplan_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->strategy = req->strategy;
	opts->budget = req->budget ? req->budget : tdev->limits.default_budget;
	opts->budget = min(opts->budget, tdev->limits.max_budget);
	opts->time_limit_ns = req->time_limit_ns;
	opts->small_below = req->small_below;
	if (req->flags & TPLAN_SUBMIT_ALIASES)
		opts->flags |= TPLAN_PLAN_ALIASES;
	if (req->flags & TPLAN_SUBMIT_SERIAL)
		opts->flags |= TPLAN_PLAN_SERIAL;
	if (req->flags & TPLAN_SUBMIT_TIERED)
		tiers_from_pools(tdev, opts);
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

/*
 * Plan in one of the device's max_submits turns.  The turn is held only
 * while the planner runs, never across an access to user memory, which a
 * caller could make wait as long as it likes (a FUSE-backed mapping).
 */
static int plan_in_turn(struct tplan_dev *tdev, bool grouped,
			struct tplan_tensor *t, u32 n,
			const struct tplan_options *opts, struct tplan_result *res)
{
	int ret;

	if (down_interruptible(&tdev->submits))
		return -EINTR;
	if (grouped)
		ret = plan_scratch(t, n, opts, res);
	else
		ret = tplan_plan(t, n, opts, res);
	up(&tdev->submits);
	return ret;
}

static int plan_table(struct tplan_dev *tdev, const struct tplan_submit *req,
		      const struct tplan_options *opts,
		      struct tplan_tensor **tensors, struct tplan_result *res)
{
	bool grouped = req->group && !(req->flags & TPLAN_SUBMIT_DRY_RUN);
	struct tplan_tensor *t;
	int ret;

	memset(res, 0, sizeof(*res));
	t = tplan_alloc_array(req->count, sizeof(*t));
	if (!t)
		return -ENOMEM;
	ret = copy_table_in(req, t);
	if (!ret)
		ret = plan_in_turn(tdev, grouped, t, req->count, opts, res);
	if (ret) {
		tplan_free(t);
		return ret;
	}
	*tensors = t;
	return 0;
}

static bool in_tier(const struct tplan_tensor *x, u32 tier)
{
	return x->tier == tier;
}

/*
 * A plan outside any group: one region per pool it uses, aligned as its
 * tensors need.  Untiered, the fastest pool with room that every tensor
 * allows takes it all (fastest tier first); tiered, each tier's peak goes
 * to its own pool.
 */
static int reserve_regions(struct tplan_dev *tdev, struct tplan_plan *plan,
			   struct tplan_tensor *t, u32 n,
			   const struct tplan_options *opts,
			   const struct tplan_result *res)
{
	struct tplan_hold *hold;
	u32 k, i, pools;
	u64 align;

	if (opts->tier_count < 2) {
		if (!res->peak)
			return 0;
		pools = tplan_tensors_need(t, n, NULL, 0, &align);
		hold = tplan_hold_alloc_first(tdev, res->peak, align, pools);
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
		hold = tplan_hold_alloc(tdev, k, res->tier_peak[k], align);
		if (IS_ERR(hold))
			return PTR_ERR(hold);
		plan->slots[k] = hold;
	}
	return 0;
}

/* The plan's part of each pool. */
static void fill_regions(struct tplan_submit *req, const struct tplan_plan *plan,
			 const struct tplan_options *opts,
			 const struct tplan_result *res)
{
	bool tiered = opts->tier_count > 1;
	u32 k;

	req->plan_id = plan ? plan->id : 0;
	for (k = 0; k < TPLAN_MAX_POOLS; k++) {
		struct tplan_plan_region *r = &req->regions[k];
		const struct tplan_hold *hold = plan ? plan->slots[k] : NULL;

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
		tplan_hold_extent(hold, &r->region_offset, &r->region_size);
		r->mmap_offset = tplan_mmap_offset(plan->id, k);
	}
}

/*
 * Put the plan into its serial group.  The file's lock is held throughout,
 * the write-back included, so that a failure at any step (a fault on the
 * caller's memory too) leaves the group as it was.
 */
static int join_group(struct tplan_file *tf, struct tplan_submit *req,
		      struct tplan_tensor *t, struct tplan_plan *plan,
		      const struct tplan_result *res)
{
	struct tplan_join j = {
		.tf = tf, .id = req->group, .plan = plan, .t = t,
		.n = req->count, .peak = res->peak,
	};
	int ret;

	ret = tplan_group_sort(&j);
	if (ret)
		goto out;
	ret = mutex_lock_interruptible(&tf->lock);
	if (ret)
		goto out;
	ret = tplan_group_prepare(&j);
	if (!ret)
		ret = write_offsets_back(req, t, plan);
	if (!ret)
		ret = tplan_group_commit(&j);
	if (!ret)
		req->shared_bytes = j.shared_bytes;
	tplan_group_end(&j);
	mutex_unlock(&tf->lock);
	return ret;
out:
	tplan_free(j.keyed);
	return ret;
}

/* Give a plan memory, write the offsets back and hand it to the file. */
static int commit_plan(struct tplan_file *tf, struct tplan_submit *req,
		       struct tplan_tensor *t, const struct tplan_options *opts,
		       const struct tplan_result *res)
{
	struct tplan_plan *plan = tplan_plan_new(tf->tdev, req->count, res->peak);
	int ret;

	if (IS_ERR(plan))
		return PTR_ERR(plan);
	ret = tplan_file_reserve_id(tf, plan);
	if (ret) {
		tplan_plan_put(plan);
		return ret;
	}
	if (req->group) {
		ret = join_group(tf, req, t, plan, res);
	} else {
		ret = reserve_regions(tf->tdev, plan, t, req->count, opts, res);
		if (!ret)
			ret = write_offsets_back(req, t, plan);
	}
	if (ret) {
		tplan_file_cancel_plan(tf, plan);
		tplan_plan_release(plan);
		return ret;
	}
	fill_regions(req, plan, opts, res);
	tplan_plan_publish(plan);
	/* From here a RELEASE of req->plan_id may free the plan at any time. */
	ret = tplan_file_publish_plan(tf, plan);
	if (ret) {
		tplan_file_cancel_plan(tf, plan);
		tplan_plan_release(plan);
	}
	return ret;
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

static int submit(struct tplan_file *tf, struct tplan_submit *req,
		  struct submit_call *c)
{
	struct tplan_tensor *t = NULL;
	int ret;

	options_from_submit(tf->tdev, req, &c->opts);
	ret = plan_table(tf->tdev, req, &c->opts, &t, &c->res);
	clear_outputs(req);
	fill_result(req, &c->res);
	if (ret)
		return ret;
	if (req->flags & TPLAN_SUBMIT_DRY_RUN) {
		ret = write_offsets_back(req, t, NULL);
		fill_regions(req, NULL, &c->opts, &c->res);
	} else {
		ret = commit_plan(tf, req, t, &c->opts, &c->res);
	}
	tplan_free(t);
	return ret;
}

/*
 * Submit with the memory metered: running out of max_submit_bytes is
 * -E2BIG.  A pending signal stops the copy, the wait for a turn or the
 * planning, and the call is restarted.
 */
static int submit_metered(struct tplan_file *tf, struct tplan_submit *req,
			  struct submit_call *c)
{
	int ret;

	tplan_meter_start(&c->meter, tf->tdev->limits.max_submit_bytes);
	ret = submit(tf, req, c);
	if (tplan_meter_stop(&c->meter) && ret == -ENOMEM)
		ret = -E2BIG;
	if (ret == -EINTR && signal_pending(current))
		ret = -ERESTARTSYS;
	return ret;
}

static int tplan_submit_ioctl(struct tplan_file *tf, void *data)
{
	struct submit_call *c;
	int ret;

	c = kzalloc(sizeof(*c), GFP_KERNEL_ACCOUNT);
	if (!c)
		return -ENOMEM;
	ret = submit_metered(tf, data, c);
	kfree(c);
	return ret;
}

/* The caller cannot learn the plan's id: give the plan back. */
static void tplan_submit_undo(struct tplan_file *tf, const void *data)
{
	const struct tplan_submit *req = data;

	tplan_file_drop_plan(tf, req->plan_id);
}

/**
 * struct tplan_ioctl_desc - one ioctl of /dev/tplan
 * @cmd: its number, with this kernel's struct size
 * @min_size: the smallest struct a caller may pass: ABI version 1's
 * @check: checks the struct copied in and changes nothing; or NULL
 * @func: the handler: acts on the struct in kernel memory and fills in
 *        its results
 * @undo: takes back what @func did when its results cannot be written
 *        back; or NULL
 */
struct tplan_ioctl_desc {
	unsigned int cmd;
	size_t min_size;
	int (*check)(struct tplan_file *tf, const void *data);
	int (*func)(struct tplan_file *tf, void *data);
	void (*undo)(struct tplan_file *tf, const void *data);
};

static const struct tplan_ioctl_desc tplan_ioctls[] = {
	[_IOC_NR(TPLAN_IOC_GET_INFO)] = {
		.cmd = TPLAN_IOC_GET_INFO,
		.min_size = TPLAN_INFO_SIZE_VER1,
		.func = tplan_get_info_ioctl,
	},
	[_IOC_NR(TPLAN_IOC_SUBMIT)] = {
		.cmd = TPLAN_IOC_SUBMIT,
		.min_size = TPLAN_SUBMIT_SIZE_VER1,
		.check = tplan_submit_check,
		.func = tplan_submit_ioctl,
		.undo = tplan_submit_undo,
	},
	[_IOC_NR(TPLAN_IOC_RELEASE)] = {
		.cmd = TPLAN_IOC_RELEASE,
		.min_size = TPLAN_RELEASE_SIZE_VER1,
		.func = tplan_release_ioctl,
	},
};

/* Structs up to this size are copied to the stack, larger ones to the heap. */
#define TPLAN_IOCTL_STACK_BYTES	64

/* The row of a number with the right direction and size, or NULL. */
static const struct tplan_ioctl_desc *find_ioctl(unsigned int cmd)
{
	const struct tplan_ioctl_desc *desc;
	unsigned int nr = _IOC_NR(cmd);

	if (_IOC_TYPE(cmd) != TPLAN_IOC_MAGIC || nr >= ARRAY_SIZE(tplan_ioctls))
		return NULL;
	desc = &tplan_ioctls[array_index_nospec(nr, ARRAY_SIZE(tplan_ioctls))];
	if (!desc->func || _IOC_DIR(cmd) != _IOC_DIR(desc->cmd) ||
	    _IOC_SIZE(cmd) < desc->min_size)
		return NULL;
	return desc;
}

/* Copies a struct out, zero-filling what a newer caller has beyond ours. */
static int copy_struct_out(void __user *dst, size_t usize, const void *src,
			   size_t ksize)
{
	if (copy_to_user(dst, src, min(usize, ksize)))
		return -EFAULT;
	if (usize > ksize && clear_user(dst + ksize, usize - ksize))
		return -EFAULT;
	return 0;
}

/* Steps 2 to 6 of "ioctl dispatch", with @data zeroed, @ksize bytes. */
static int call_ioctl(struct tplan_file *tf, const struct tplan_ioctl_desc *desc,
		      void __user *uarg, size_t usize, void *data)
{
	unsigned int dir = _IOC_DIR(desc->cmd);
	size_t ksize = _IOC_SIZE(desc->cmd);
	int ret = 0;

	if (dir & _IOC_WRITE)
		ret = copy_struct_from_user(data, ksize, uarg, usize);
	if (!ret && desc->check)
		ret = desc->check(tf, data);
	/* writing back what was read changes nothing */
	if (!ret && dir == (_IOC_READ | _IOC_WRITE))
		ret = copy_struct_out(uarg, usize, data, ksize);
	if (!ret)
		ret = desc->func(tf, data);
	if ((dir & _IOC_READ) && (!ret || ret == -ENOSPC) &&
	    copy_struct_out(uarg, usize, data, ksize)) {
		if (desc->undo)
			desc->undo(tf, data);
		ret = -EFAULT;
	}
	return ret;
}

/**
 * tplan_ioctl() - the ioctl entry point of /dev/tplan
 * @file: the open file
 * @cmd: a TPLAN_IOC_* number; its size field may differ from this kernel's
 *       struct size, the struct is then extended or truncated as the ABI says
 * @arg: user pointer to the command's struct
 *
 * Return: 0 or a negative errno (see docs/DRIVER.md for the list).
 */
long tplan_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	u64 stack_data[TPLAN_IOCTL_STACK_BYTES / sizeof(u64)];
	const struct tplan_ioctl_desc *desc = find_ioctl(cmd);
	size_t ksize;
	void *data;
	int ret;

	if (!desc)
		return -ENOTTY;
	ksize = _IOC_SIZE(desc->cmd);
	if (ksize <= sizeof(stack_data)) {
		data = memset(stack_data, 0, ksize);
	} else {
		data = kzalloc(ksize, GFP_KERNEL_ACCOUNT);
		if (!data)
			return -ENOMEM;
	}
	ret = call_ioctl(file->private_data, desc, (void __user *)arg,
			 _IOC_SIZE(cmd), data);
	if (data != stack_data)
		kfree(data);
	return ret;
}
