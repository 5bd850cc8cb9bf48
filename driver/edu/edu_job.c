// SPDX-License-Identifier: GPL-2.0
/*
 * edu_job.c - TPLAN_EDU_IOC_JOB: ordered copies between regions of the
 * caller's plans and its own memory, carried out by the DMA engine, ended
 * by a fence.
 */

/**
 * DOC: edu jobs
 *
 * Purpose: the proof that a plan's regions are device memory: the DMA
 * engine reads and writes tensors at the addresses the arena gave.
 *
 * A job is checked and resolved whole in the caller's context before
 * anything is queued: each region side becomes a plan reference and a
 * device address, each user side pinned pages (mapped for the device one
 * transfer at a time, when the job runs).  A
 * bad copy fails the call with nothing held.  Then the job gets the next
 * fence of the device's timeline, a sync_file for the caller, and its
 * place on the ordered workqueue; the worker runs its copies through the
 * device's 4 KiB buffer (at most %EDU_XFER_MAX bytes a transfer; chunks
 * never cross a user page, whose device addresses need not follow each
 * other) with one deadline for the job.
 *
 * Ownership: the job holds its plans and pinned pages until the engine is
 * done with them; then the pages go back and the plans' references are
 * given to the fence (tplan_arena_plan_put_after()), so a region is
 * neither zeroed nor handed to anyone else before the job's waiters have
 * seen it end, even when its plan was released or its file closed
 * meanwhile.  A transfer that overran the
 * deadline is waited for (edu_hw_settle()); if the engine never stops,
 * the device is wedged and the job's memory is never given back.
 *
 * Cost: at most %TPLAN_EDU_MAX_COPIES copies and %TPLAN_EDU_MAX_JOB_BYTES
 * per job, %TPLAN_EDU_MAX_QUEUED jobs per device, all charged to the
 * caller; the device time of a job is bounded by its timeout.
 */
#include <linux/dma-fence.h>
#include <linux/dma-mapping.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/sync_file.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include "tplan_arena.h"
#include "edu.h"
#include "edu_fence.h"
#include "edu_hw.h"
#include "edu_job.h"

static_assert(sizeof(struct tplan_edu_job) == TPLAN_EDU_JOB_SIZE_VER1);

/**
 * struct edu_user - a caller's memory, pinned for the job
 * @pages: the pinned pages
 * @npages: entries in @pages (0: nothing pinned)
 * @first: the first byte's offset in the first page
 * @write: the device writes them (a copy's destination)
 *
 * Each transfer maps the piece of a page it moves for its own length
 * only: two jobs (or two copies of one) writing different bytes of one
 * page never have overlapping mappings, which the DMA API does not allow.
 */
struct edu_user {
	struct page **pages;
	u32 npages;
	u32 first;
	bool write;
};

/**
 * struct edu_side - one side of a resolved copy
 * @user: the caller's memory, else a region
 * @addr: a region's device address of the first byte
 * @mem: the caller's memory
 */
struct edu_side {
	bool user;
	dma_addr_t addr;
	struct edu_user mem;
};

/**
 * struct edu_job - a job between its ioctl and its fence
 * @work: on &tplan_edu.jobs
 * @edu: the device
 * @fence: signalled when the job is over
 * @timeout: jiffies the job may take once started
 * @count: copies
 * @plan_count: entries of @plans
 * @plans: the plans whose regions the copies use, one reference each
 * @sides: per copy, its source then its destination
 * @sizes: per copy, its bytes
 */
struct edu_job {
	struct work_struct work;
	struct tplan_edu *edu;
	struct dma_fence *fence;
	unsigned long timeout;
	u32 count;
	u32 plan_count;
	struct tplan_arena_plan **plans;
	struct edu_side *sides;
	u64 *sizes;
};

/* A side the ABI knows, with no field its kind does not use. */
static int check_place(const struct tplan_edu_place *p)
{
	if (p->kind == TPLAN_EDU_PLACE_REGION)
		return p->slot < TPLAN_ARENA_SLOTS ? 0 : -EINVAL;
	if (p->kind == TPLAN_EDU_PLACE_USER)
		return p->slot || p->plan_id ? -EINVAL : 0;
	return -EINVAL;
}

/* Whether [a, a + m) and [b, b + n) share a byte; neither wraps. */
static bool ranges_meet(u64 a, u64 m, u64 b, u64 n)
{
	return a < b + n && b < a + m;
}

/*
 * What can be said of the copies without resolving them: known kinds,
 * sizes, ranges that do not wrap, user sides that do not overlap.
 */
static int check_copies(const struct tplan_edu_copy *c, u32 count)
{
	u64 total = 0;
	u32 i;
	int ret;

	for (i = 0; i < count; i++, c++) {
		ret = check_place(&c->src);
		if (!ret)
			ret = check_place(&c->dst);
		if (ret || !c->size)
			return -EINVAL;
		if (c->size > TPLAN_EDU_MAX_JOB_BYTES - total)
			return -E2BIG;
		total += c->size;
		if (c->src.offset + c->size < c->src.offset ||
		    c->dst.offset + c->size < c->dst.offset)
			return -ERANGE;
		if (c->src.kind == TPLAN_EDU_PLACE_USER &&
		    c->dst.kind == TPLAN_EDU_PLACE_USER &&
		    ranges_meet(c->src.offset, c->size, c->dst.offset, c->size))
			return -EINVAL;
	}
	return 0;
}

/*
 * A file opened read-only may read its regions, never write them: not by
 * mmap(), not by a dma-buf (EXPORT), not by the device either.
 */
static int may_write(struct drm_file *file, const struct tplan_edu_copy *c,
		     u32 count)
{
	u32 i;

	if (file->filp->f_mode & FMODE_WRITE)
		return 0;
	for (i = 0; i < count; i++)
		if (c[i].dst.kind == TPLAN_EDU_PLACE_REGION)
			return -EACCES;
	return 0;
}

static void unpin_user(struct edu_user *u)
{
	if (u->npages)
		unpin_user_pages_dirty_lock(u->pages, u->npages, u->write);
	kvfree(u->pages);
	u->npages = 0;
}

/* Pins @size bytes of the caller's memory at @addr. */
static int pin_user(u64 addr, u64 size, bool write, struct edu_user *u)
{
	u32 first = offset_in_page(addr);
	u32 n = DIV_ROUND_UP(first + size, PAGE_SIZE);
	unsigned int gup = FOLL_LONGTERM | (write ? FOLL_WRITE : 0);
	int got;

	u->write = write;
	u->first = first;
	u->pages = kvmalloc_array(n, sizeof(*u->pages), GFP_KERNEL_ACCOUNT);
	if (!u->pages)
		return -ENOMEM;
	got = pin_user_pages_fast(addr - first, n, gup, u->pages);
	if (got != n) {
		if (got > 0)
			unpin_user_pages(u->pages, got);
		kvfree(u->pages);
		return got < 0 && got != -EFAULT ? got : -EFAULT;
	}
	u->npages = n;
	return 0;
}

/* A region side: a reference on its plan, its device address. */
static int resolve_region(struct tplan_client *client, struct edu_job *job,
			  const struct tplan_edu_place *p, u64 size,
			  struct edu_side *side)
{
	struct tplan_region_info info;
	struct tplan_arena_plan *plan;
	int ret;

	ret = tplan_client_plan_get(client, p->plan_id, &plan);
	if (ret)
		return ret;
	job->plans[job->plan_count++] = plan;
	ret = tplan_arena_plan_region(plan, p->slot, &info);
	if (ret)
		return ret;
	if (p->offset > info.size || size > info.size - p->offset)
		return -ERANGE;
	side->addr = info.dev_addr + p->offset;
	return 0;
}

static int resolve_side(struct tplan_client *client, struct edu_job *job,
			const struct tplan_edu_place *p, u64 size, bool write,
			struct edu_side *side)
{
	int ret;

	if (p->kind == TPLAN_EDU_PLACE_REGION)
		return resolve_region(client, job, p, size, side);
	ret = pin_user(p->offset, size, write, &side->mem);
	side->user = !ret;	/* pinned: job_unpin() gives it back */
	return ret;
}

/* Two region sides may not share a byte: their device addresses say. */
static bool regions_meet(const struct edu_side *s, u64 size)
{
	return !s[0].user && !s[1].user &&
	       ranges_meet(s[0].addr, size, s[1].addr, size);
}

/* The caller's memory the job pinned goes back. */
static void job_unpin(struct edu_job *job)
{
	u32 i;

	for (i = 0; i < 2 * job->count; i++)
		if (job->sides[i].user)
			unpin_user(&job->sides[i].mem);
}

/* Gives back what resolve_copies() took, before any fence exists. */
static void job_unresolve(struct edu_job *job)
{
	u32 i;

	job_unpin(job);
	for (i = 0; i < job->plan_count; i++)
		tplan_arena_plan_put(job->plans[i]);
	job->plan_count = 0;
}

static int resolve_copies(struct tplan_client *client, struct edu_job *job,
			  const struct tplan_edu_copy *c)
{
	struct edu_side *s = job->sides;
	u32 i;
	int ret = 0;

	for (i = 0; i < job->count && !ret; i++, c++, s += 2) {
		job->sizes[i] = c->size;
		ret = resolve_side(client, job, &c->src, c->size, false, &s[0]);
		if (!ret)
			ret = resolve_side(client, job, &c->dst, c->size, true,
					   &s[1]);
		if (!ret && regions_meet(s, c->size))
			ret = -EINVAL;
		if (!ret && fatal_signal_pending(current))
			ret = -EINTR;
	}
	if (ret)
		job_unresolve(job);
	return ret;
}

static void job_free(struct edu_job *job)
{
	kvfree(job->plans);
	kvfree(job->sides);
	kvfree(job->sizes);
	kfree(job);
}

static struct edu_job *job_alloc(struct tplan_edu *edu, u32 count)
{
	struct edu_job *job = kzalloc(sizeof(*job), GFP_KERNEL_ACCOUNT);

	if (!job)
		return NULL;
	job->edu = edu;
	job->count = count;
	job->plans = kvcalloc(2 * count, sizeof(*job->plans),
			      GFP_KERNEL_ACCOUNT);
	job->sides = kvcalloc(2 * count, sizeof(*job->sides),
			      GFP_KERNEL_ACCOUNT);
	job->sizes = kvcalloc(count, sizeof(*job->sizes), GFP_KERNEL_ACCOUNT);
	if (job->plans && job->sides && job->sizes)
		return job;
	job_free(job);
	return NULL;
}

/* Bytes from @pos a side can take in one transfer. */
static u64 side_room(const struct edu_side *s, u64 pos)
{
	if (!s->user)
		return EDU_XFER_MAX;
	return PAGE_SIZE - offset_in_page(s->mem.first + pos);
}

/*
 * One transfer, waited for; one that overran the deadline is waited for
 * still (the engine may be writing), and a device whose engine never
 * stops is wedged.
 */
static int transfer(struct tplan_edu *edu, dma_addr_t addr, u64 n,
		    bool to_ram, unsigned long deadline)
{
	int ret = edu_hw_transfer(edu, addr, n, to_ram, deadline);

	if (ret == -ETIMEDOUT && edu_hw_settle(edu)) {
		dev_err(&edu->pdev->dev,
			"the DMA engine never stopped: the device is wedged, the memory of its jobs is kept\n");
		edu->wedged = true;
		ret = -EIO;
	}
	return ret;
}

/* Moves @n bytes at @pos of a side to (or from) the device's buffer. */
static int side_transfer(struct tplan_edu *edu, const struct edu_side *s,
			 u64 pos, u64 n, bool to_ram, unsigned long deadline)
{
	enum dma_data_direction dir = to_ram ? DMA_FROM_DEVICE : DMA_TO_DEVICE;
	struct device *dev = &edu->pdev->dev;
	u64 byte = s->mem.first + pos;
	dma_addr_t addr;
	int ret;

	if (!s->user)
		return transfer(edu, s->addr + pos, n, to_ram, deadline);
	addr = dma_map_page(dev, s->mem.pages[byte >> PAGE_SHIFT],
			    offset_in_page(byte), n, dir);
	if (dma_mapping_error(dev, addr))
		return -ENOMEM;
	ret = transfer(edu, addr, n, to_ram, deadline);
	if (!edu->wedged)
		dma_unmap_page(dev, addr, n, dir);
	return ret;
}

/* One copy: through the device's buffer, a chunk in and out at a time. */
static int run_copy(struct tplan_edu *edu, const struct edu_side *s,
		    u64 size, unsigned long deadline)
{
	u64 pos, n;
	int ret;

	for (pos = 0; pos < size; pos += n) {
		n = min3(size - pos, side_room(&s[0], pos),
			 side_room(&s[1], pos));
		n = min_t(u64, n, EDU_XFER_MAX);
		ret = side_transfer(edu, &s[0], pos, n, false, deadline);
		if (!ret)
			ret = side_transfer(edu, &s[1], pos, n, true,
					    deadline);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The engine is done with the job's memory: its pages go back now, its
 * regions when the fence has signalled (to anyone waiting on it first).
 */
static void job_release(struct edu_job *job)
{
	u32 i;

	job_unpin(job);
	for (i = 0; i < job->plan_count; i++)
		tplan_arena_plan_put_after(job->plans[i], job->fence);
}

/* The worker: the job's copies in order, then its fence. */
static void job_run(struct work_struct *work)
{
	struct edu_job *job = container_of(work, struct edu_job, work);
	struct tplan_edu *edu = job->edu;
	unsigned long deadline = jiffies + job->timeout;
	int ret = edu->wedged ? -EIO : 0;
	u32 i;

	for (i = 0; i < job->count && !ret; i++)
		ret = run_copy(edu, &job->sides[2 * i], job->sizes[i],
			       deadline);
	if (!edu->wedged)
		job_release(job);
	if (ret)
		dma_fence_set_error(job->fence, ret);
	dma_fence_signal(job->fence);
	dma_fence_put(job->fence);
	atomic_dec(&edu->queued);
	job_free(job);
}

/**
 * edu_job_check() - &tplan_accel_ioctl.check of TPLAN_EDU_IOC_JOB
 * @file: the DRM file
 * @data: the caller's &struct tplan_edu_job, copied in
 *
 * Return: 0; -EINVAL for flags, reserved bytes, no copies or a timeout
 * over the maximum; -E2BIG for more copies than %TPLAN_EDU_MAX_COPIES.
 */
int edu_job_check(struct drm_file *file, const void *data)
{
	const struct tplan_edu_job *req = data;

	if (req->flags || req->reserved || !req->count ||
	    req->timeout_ms > TPLAN_EDU_MAX_TIMEOUT_MS)
		return -EINVAL;
	if (req->count > TPLAN_EDU_MAX_COPIES)
		return -E2BIG;
	return 0;
}

/* The fence, its sync_file and the job's place in the queue, or none. */
static int job_queue(struct tplan_edu *edu, struct edu_job *job, int fd)
{
	struct sync_file *sync;
	int ret;

	ret = mutex_lock_killable(&edu->queue_lock);
	if (ret)
		return ret;
	job->fence = edu_fence_new(edu);
	sync = job->fence ? sync_file_create(job->fence) : NULL;
	if (!sync) {
		if (job->fence) {	/* its number is spent: signal it */
			dma_fence_set_error(job->fence, -ENOMEM);
			dma_fence_signal(job->fence);
			dma_fence_put(job->fence);
		}
		mutex_unlock(&edu->queue_lock);
		return -ENOMEM;
	}
	queue_work(edu->jobs, &job->work);
	mutex_unlock(&edu->queue_lock);
	fd_install(fd, sync->file);
	return 0;
}

/* Resolves and queues a job of @count copies copied in at @c. */
static int job_submit(struct drm_file *file, struct tplan_edu_job *req,
		      const struct tplan_edu_copy *c)
{
	struct tplan_edu *edu = to_edu(file->minor->dev);
	struct edu_job *job;
	int fd, ret;

	job = job_alloc(edu, req->count);
	if (!job)
		return -ENOMEM;
	INIT_WORK(&job->work, job_run);
	job->timeout = msecs_to_jiffies(req->timeout_ms ?:
					TPLAN_EDU_DEFAULT_TIMEOUT_MS);
	ret = resolve_copies(tplan_accel_client(file), job, c);
	if (ret)
		goto err_free;
	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0) {
		ret = fd;
		goto err_unresolve;
	}
	ret = job_queue(edu, job, fd);
	if (ret) {
		put_unused_fd(fd);
		goto err_unresolve;
	}
	req->fence_fd = fd;
	return 0;

err_unresolve:
	job_unresolve(job);
err_free:
	job_free(job);
	return ret;
}

/**
 * edu_job_ioctl() - TPLAN_EDU_IOC_JOB: queue a job of copies
 * @file: the DRM file
 * @data: the caller's &struct tplan_edu_job, checked by edu_job_check();
 *        @fence_fd is filled in
 *
 * If the results cannot be written back, the job runs and its sync_file
 * stays open in the caller's table, as EXPORT's dma-buf does.
 *
 * Context: process context; sleeps.
 * Return: 0, or an error of &struct tplan_edu_job (uapi/linux/tplan_edu.h)
 * with nothing queued; -EAGAIN while %TPLAN_EDU_MAX_QUEUED jobs are.
 */
int edu_job_ioctl(struct drm_file *file, void *data)
{
	struct tplan_edu *edu = to_edu(file->minor->dev);
	struct tplan_edu_job *req = data;
	struct tplan_edu_copy *copies;
	int ret;

	copies = kvmalloc_array(req->count, sizeof(*copies),
				GFP_KERNEL_ACCOUNT);
	if (!copies)
		return -ENOMEM;
	ret = copy_from_user(copies, u64_to_user_ptr(req->copies),
			     req->count * sizeof(*copies)) ? -EFAULT : 0;
	if (!ret)
		ret = check_copies(copies, req->count);
	if (!ret)
		ret = may_write(file, copies, req->count);
	if (!ret && atomic_inc_return(&edu->queued) > TPLAN_EDU_MAX_QUEUED) {
		atomic_dec(&edu->queued);
		ret = -EAGAIN;
	} else if (!ret) {
		ret = job_submit(file, req, copies);
		/* a queued job gives its place back when it is over */
		if (ret)
			atomic_dec(&edu->queued);
	}
	kvfree(copies);
	return ret;
}
