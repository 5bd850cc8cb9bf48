// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl.c - GET_INFO, SUBMIT and RELEASE.
 *
 * Every input is checked before anything changes; a rejected call returns a
 * precise errno and leaves the device and the file as they were.  Planning
 * runs outside every lock, under a work budget, and stops on a fatal signal.
 */
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "planner.h"
#include "tplan_drv.h"

/* The first ABI version's sizes: the smallest a caller may pass. */
#define TPLAN_INFO_SIZE_VER1	sizeof(struct tplan_info)
#define TPLAN_SUBMIT_SIZE_VER1	sizeof(struct tplan_submit)
#define TPLAN_RELEASE_SIZE_VER1	sizeof(struct tplan_release)
#define TPLAN_TENSOR_SIZE_VER1	TPLAN_TENSOR_DESC_SIZE_VER1

/* How often the table copy yields and looks for fatal signals. */
#define TPLAN_COPY_CHECK_INTERVAL	1024

/* mmap offsets are plan ids in pages; keep them within a 32-bit pgoff. */
#define TPLAN_MAX_PLAN_ID	((1U << 20) - 1)

static_assert(TPLAN_STRATEGY_ID_NAIVE == TPLAN_STRATEGY_NAIVE);
static_assert(TPLAN_STRATEGY_ID_GREEDY_SIZE == TPLAN_STRATEGY_GREEDY_SIZE);
static_assert(TPLAN_STRATEGY_ID_STRIP == TPLAN_STRATEGY_STRIP);
static_assert(TPLAN_STRATEGY_ID_SEARCH == TPLAN_STRATEGY_SEARCH);
static_assert(TPLAN_STRATEGY_ID_AUTO == TPLAN_STRATEGY_AUTO);

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

static long ioctl_get_info(struct tplan_file *tf, void __user *uarg,
			   size_t usize)
{
	struct tplan_device *tdev = tf->tdev;
	struct tplan_info *info;
	long ret;
	u32 i;

	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	info->abi_version = TPLAN_ABI_VERSION;
	info->pool_count = tdev->pool_count;
	info->max_tensors = tdev->limits.max_tensors;
	info->max_plans = tdev->limits.max_plans;
	info->region_align = PAGE_SIZE;
	info->default_budget = tdev->limits.default_budget;
	mutex_lock(&tf->lock);
	info->plans_held = tf->count;
	mutex_unlock(&tf->lock);
	for (i = 0; i < tdev->pool_count; i++)
		tplan_pool_info(tdev, &info->pools[i], i);
	ret = copy_struct_out(uarg, usize, info, sizeof(*info));
	kfree(info);
	return ret;
}

static int check_submit(const struct tplan_submit *req,
			const struct tplan_limits *limits)
{
	size_t bytes;

	if (req->flags & ~TPLAN_SUBMIT_FLAGS)
		return -EINVAL;
	if (memchr_inv(req->reserved, 0, sizeof(req->reserved)))
		return -EINVAL;
	if (req->strategy >= TPLAN_STRATEGY_COUNT)
		return -EINVAL;
	if (!req->count)
		return -EINVAL;
	if (req->count > limits->max_tensors)
		return -E2BIG;
	if (req->stride < TPLAN_TENSOR_SIZE_VER1 || req->stride > PAGE_SIZE)
		return -EINVAL;
	if (check_mul_overflow((size_t)req->count, (size_t)req->stride, &bytes))
		return -EOVERFLOW;
	if (!access_ok(u64_to_user_ptr(req->tensors), bytes))
		return -EFAULT;
	return 0;
}

static void tensor_from_desc(struct tplan_tensor *t,
			     const struct tplan_tensor_desc *d)
{
	memset(t, 0, sizeof(*t));
	t->id = d->id;
	t->lower = d->lower;
	t->upper = d->upper;
	t->size = d->size;
	t->alignment = d->alignment;
	t->alias_of = d->alias_of;
	t->alias_offset = d->alias_offset;
	if (d->flags & TPLAN_TENSOR_HAS_ALIAS)
		t->flags |= TPLAN_TENSOR_ALIAS;
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
		if (ret)
			return ret;
		if (d.flags & ~TPLAN_TENSOR_HAS_ALIAS)
			return -EINVAL;
		tensor_from_desc(&t[i], &d);
		if (!(i % TPLAN_COPY_CHECK_INTERVAL)) {
			cond_resched();
			if (fatal_signal_pending(current))
				return -EINTR;
		}
	}
	return 0;
}

static int write_offsets_back(const struct tplan_submit *req,
			      const struct tplan_tensor *t, u32 pool)
{
	void __user *base = u64_to_user_ptr(req->tensors);
	u32 i;

	for (i = 0; i < req->count; i++) {
		struct tplan_tensor_desc __user *d = base + (size_t)i * req->stride;

		if (put_user(t[i].offset, &d->offset) || put_user(pool, &d->pool))
			return -EFAULT;
		if (!(i % TPLAN_COPY_CHECK_INTERVAL))
			cond_resched();
	}
	return 0;
}

static int plan_table(struct tplan_device *tdev, struct tplan_submit *req,
		      struct tplan_tensor **tensors)
{
	struct tplan_options opts = {
		.strategy = req->strategy,
		.budget = req->budget ? req->budget : tdev->limits.default_budget,
		.time_limit_ns = req->time_limit_ns,
		.small_below = req->small_below,
		.flags = req->flags & TPLAN_SUBMIT_ALIASES ? TPLAN_PLAN_ALIASES : 0,
	};
	struct tplan_result res;
	struct tplan_tensor *t;
	int ret;

	t = kvmalloc_array(req->count, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	ret = copy_table_in(req, t);
	if (!ret)
		ret = tplan_plan(t, req->count, &opts, &res);
	if (ret) {
		kvfree(t);
		return ret;
	}
	req->lower_bound = res.lower_bound;
	req->peak = res.peak;
	req->work = res.work;
	req->search = res.search;
	*tensors = t;
	return 0;
}

static struct tplan_plan *plan_new(struct tplan_device *tdev,
				   const struct tplan_submit *req)
{
	struct tplan_plan *plan = kzalloc(sizeof(*plan), GFP_KERNEL);

	if (!plan)
		return ERR_PTR(-ENOMEM);
	kref_init(&plan->ref);
	INIT_LIST_HEAD(&plan->link);
	plan->tdev = tdev;
	plan->owner = task_tgid_nr(current);
	plan->tensors = req->count;
	plan->peak = req->peak;
	return plan;
}

/* Make the plan the file's; its id is its handle and its mmap offset. */
static int file_add_plan(struct tplan_file *tf, struct tplan_plan *plan)
{
	u32 id;
	int ret;

	mutex_lock(&tf->lock);
	if (tf->count >= tf->tdev->limits.max_plans) {
		mutex_unlock(&tf->lock);
		return -EMFILE;
	}
	ret = xa_alloc_cyclic(&tf->plans, &id, plan,
			      XA_LIMIT(1, TPLAN_MAX_PLAN_ID), &tf->next_id,
			      GFP_KERNEL);
	if (ret >= 0) {
		plan->id = id;
		tf->count++;
		ret = 0;
	}
	mutex_unlock(&tf->lock);
	return ret == -EBUSY ? -EMFILE : ret;
}

static struct tplan_plan *file_take_plan(struct tplan_file *tf, u64 id)
{
	struct tplan_plan *plan = NULL;

	if (!id || id > TPLAN_MAX_PLAN_ID)
		return NULL;
	mutex_lock(&tf->lock);
	plan = xa_erase(&tf->plans, id);
	if (plan)
		tf->count--;
	mutex_unlock(&tf->lock);
	return plan;
}

/* The file gives the plan up; mappings may still hold it. */
static void plan_release(struct tplan_plan *plan)
{
	mutex_lock(&plan->tdev->lock);
	plan->released = true;
	mutex_unlock(&plan->tdev->lock);
	tplan_plan_put(plan);
}

static void fill_region(struct tplan_submit *req, const struct tplan_plan *plan)
{
	req->plan_id = plan->id;
	req->pool = plan->pool;
	req->mmap_offset = (u64)plan->id << PAGE_SHIFT;
	if (plan->region) {
		req->region_offset = plan->region->start;
		req->region_size = plan->region->size;
	}
}

/* Reserve, write the offsets back, and hand the plan to the file. */
static int commit_plan(struct tplan_file *tf, struct tplan_submit *req,
		       const struct tplan_tensor *t, struct tplan_plan **out)
{
	struct tplan_plan *plan = plan_new(tf->tdev, req);
	int ret;

	if (IS_ERR(plan))
		return PTR_ERR(plan);
	ret = tplan_plan_reserve(tf->tdev, plan);
	if (ret) {
		kfree(plan);
		return ret;
	}
	ret = write_offsets_back(req, t, plan->pool);
	if (!ret)
		ret = file_add_plan(tf, plan);
	if (ret) {
		tplan_plan_put(plan);
		return ret;
	}
	fill_region(req, plan);
	*out = plan;
	return 0;
}

static long ioctl_submit(struct tplan_file *tf, void __user *uarg,
			 size_t usize)
{
	struct tplan_plan *plan = NULL;
	struct tplan_tensor *t = NULL;
	struct tplan_submit req;
	int ret;

	ret = copy_struct_from_user(&req, sizeof(req), uarg, usize);
	if (!ret)
		ret = check_submit(&req, &tf->tdev->limits);
	if (!ret)
		ret = plan_table(tf->tdev, &req, &t);
	if (ret)
		return ret;
	req.plan_id = 0;
	req.region_offset = 0;
	req.region_size = 0;
	req.mmap_offset = 0;
	req.pool = 0;
	if (req.flags & TPLAN_SUBMIT_DRY_RUN)
		ret = write_offsets_back(&req, t, 0);
	else
		ret = commit_plan(tf, &req, t, &plan);
	kvfree(t);
	if (ret && ret != -ENOSPC)
		return ret;
	/* On -ENOSPC the caller still learns the peak it would need. */
	if (copy_struct_out(uarg, usize, &req, sizeof(req))) {
		if (plan && file_take_plan(tf, plan->id))
			tplan_plan_put(plan);
		return -EFAULT;
	}
	return ret;
}

static long ioctl_release(struct tplan_file *tf, void __user *uarg,
			  size_t usize)
{
	struct tplan_release req;
	struct tplan_plan *plan;
	int ret;

	ret = copy_struct_from_user(&req, sizeof(req), uarg, usize);
	if (ret)
		return ret;
	if (req.flags || req.pad ||
	    memchr_inv(req.reserved, 0, sizeof(req.reserved)))
		return -EINVAL;
	plan = file_take_plan(tf, req.plan_id);
	if (!plan)
		return -ENOENT;
	plan_release(plan);
	return 0;
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
	struct tplan_file *tf = file->private_data;
	void __user *uarg = (void __user *)arg;
	size_t usize = _IOC_SIZE(cmd);

	if (_IOC_TYPE(cmd) != TPLAN_IOC_MAGIC)
		return -ENOTTY;
	switch (_IOC_NR(cmd)) {
	case _IOC_NR(TPLAN_IOC_GET_INFO):
		if (_IOC_DIR(cmd) != _IOC_READ || usize < TPLAN_INFO_SIZE_VER1)
			return -ENOTTY;
		return ioctl_get_info(tf, uarg, usize);
	case _IOC_NR(TPLAN_IOC_SUBMIT):
		if (_IOC_DIR(cmd) != (_IOC_READ | _IOC_WRITE) ||
		    usize < TPLAN_SUBMIT_SIZE_VER1)
			return -ENOTTY;
		return ioctl_submit(tf, uarg, usize);
	case _IOC_NR(TPLAN_IOC_RELEASE):
		if (_IOC_DIR(cmd) != _IOC_WRITE || usize < TPLAN_RELEASE_SIZE_VER1)
			return -ENOTTY;
		return ioctl_release(tf, uarg, usize);
	}
	return -ENOTTY;
}

/**
 * tplan_file_release_all() - drop every plan of a closing file
 * @tf: the file
 */
void tplan_file_release_all(struct tplan_file *tf)
{
	struct tplan_plan *plan;
	unsigned long id;

	xa_for_each(&tf->plans, id, plan) {
		xa_erase(&tf->plans, id);
		plan_release(plan);
	}
	tf->count = 0;
}
