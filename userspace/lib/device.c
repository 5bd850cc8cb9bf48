// SPDX-License-Identifier: MIT
/*
 * device.c - libtplan's side of the tplan device: open it, ask what it
 * offers, submit a table to the kernel's planner, map and release the
 * region it reserves; the jobs of a device that runs them and their fences.
 * The ABI is uapi/linux/tplan.h (and uapi/linux/tplan_edu.h for jobs).
 */
#include <fcntl.h>
#include <linux/sync_file.h>
#include <poll.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libtplan.h"
#include "planner.h"

/*
 * The planner's strategy values (0 is auto) to the ABI's ids (0 is naive);
 * driver/table.c maps them back.
 */
static const u32 strategy_id[] = {
	[TPLAN_STRATEGY_AUTO] = TPLAN_STRATEGY_ID_AUTO,
	[TPLAN_STRATEGY_NAIVE] = TPLAN_STRATEGY_ID_NAIVE,
	[TPLAN_STRATEGY_GREEDY_SIZE] = TPLAN_STRATEGY_ID_GREEDY_SIZE,
	[TPLAN_STRATEGY_STRIP] = TPLAN_STRATEGY_ID_STRIP,
	[TPLAN_STRATEGY_SEARCH] = TPLAN_STRATEGY_ID_SEARCH,
};
_Static_assert(ARRAY_SIZE(strategy_id) == TPLAN_STRATEGY_COUNT,
	       "a strategy without an id");
_Static_assert(sizeof(struct tplan_tensor_desc) == TPLAN_TENSOR_DESC_SIZE_VER2,
	       "libtplan speaks ABI version 2 descriptors");
_Static_assert(sizeof(struct tplan_gap_desc) == TPLAN_GAP_DESC_SIZE_VER1,
	       "gap descriptors of ABI version 1");
/* mmap offsets (GEM fake offsets) start at 4 GiB: a 32-bit off_t cannot hold them. */
_Static_assert(sizeof(off_t) == 8, "build with -D_FILE_OFFSET_BITS=64");
_Static_assert(TPLAN_MAX_TIERS == TPLAN_MAX_POOLS, "a tier per pool");

struct tplan_device {
	int fd;
	char path[256];
	char driver[64];
};

/*
 * DRM_IOCTL_VERSION as <drm/drm.h> spells it (Debian's linux-libc-dev has
 * no DRM headers): the DRM core answers it on every DRM file.
 */
struct drm_version_abi {
	int version_major;
	int version_minor;
	int version_patchlevel;
	size_t name_len;
	char *name;
	size_t date_len;
	char *date;
	size_t desc_len;
	char *desc;
};

#define DRM_IOCTL_VERSION_ABI	_IOWR('d', 0x00, struct drm_version_abi)

/* The driver's name of an open DRM node in @name, "" if it is none. */
static void driver_name(int fd, char *name, size_t size)
{
	struct drm_version_abi v;

	memset(&v, 0, sizeof(v));
	memset(name, 0, size);
	v.name = name;
	v.name_len = size - 1;
	if (ioctl(fd, DRM_IOCTL_VERSION_ABI, &v))
		name[0] = '\0';
}

/**
 * tplan_device_open() - open a device that speaks tplan's ABI
 * @path: the device node; NULL means $TPLAN_DEVICE, else the first accel
 *        device that speaks tplan's ABI, tplan's own first
 *        (tplan_device_find())
 * @dev: the handle, on success
 *
 * Plans submitted through the handle belong to it: closing it releases them.
 *
 * Return: 0; -ENOMEM; -ENAMETOOLONG for a path longer than 255 bytes; or
 * the negative errno of tplan_device_find() or open(2) (-ENOENT when the
 * module is not loaded, -EACCES, ...).
 */
int tplan_device_open(const char *path, struct tplan_device **dev)
{
	struct tplan_device *d = malloc(sizeof(*d));
	int ret = 0;

	if (!d)
		return -ENOMEM;
	if (!path)
		ret = tplan_device_find(d->path, sizeof(d->path));
	else if (snprintf(d->path, sizeof(d->path), "%s", path) >=
		 (int)sizeof(d->path))
		ret = -ENAMETOOLONG;
	if (!ret) {
		d->fd = open(d->path, O_RDWR | O_CLOEXEC);
		ret = d->fd < 0 ? -errno : 0;
	}
	if (!ret)
		driver_name(d->fd, d->driver, sizeof(d->driver));
	if (ret) {
		free(d);
		return ret;
	}
	*dev = d;
	return 0;
}

/**
 * tplan_device_path() - the node a handle was opened on
 * @dev: a handle from tplan_device_open()
 *
 * Return: the path, as long as the handle is open.
 */
const char *tplan_device_path(const struct tplan_device *dev)
{
	return dev->path;
}

/**
 * tplan_device_driver() - the driver of the device a handle was opened on
 * @dev: a handle from tplan_device_open()
 *
 * The DRM driver's name (DRM_IOCTL_VERSION), asked once at open: "tplan"
 * for tplan's own device, "tplan_edu" for the edu accelerator's...
 *
 * Return: the name, as long as the handle is open; "" when the file is not
 * a DRM device.
 */
const char *tplan_device_driver(const struct tplan_device *dev)
{
	return dev->driver;
}

/**
 * tplan_device_close() - close the device
 * @dev: a handle from tplan_device_open(), or NULL
 *
 * The kernel releases every plan still held through the handle; regions
 * still mapped return to their pool when their last mapping is gone.
 */
void tplan_device_close(struct tplan_device *dev)
{
	if (!dev)
		return;
	close(dev->fd);
	free(dev);
}

/**
 * tplan_device_get_info() - what the device offers (TPLAN_IOC_GET_INFO)
 * @dev: the device
 * @info: ABI version, limits and the state of every pool
 *
 * Return: 0, or the negative errno of the ioctl (-ENOTTY: not a tplan
 * device).
 */
int tplan_device_get_info(struct tplan_device *dev, struct tplan_info *info)
{
	memset(info, 0, sizeof(*info));
	if (ioctl(dev->fd, TPLAN_IOC_GET_INFO, info))
		return -errno;
	return 0;
}

/**
 * tplan_device_release() - give a plan back (TPLAN_IOC_RELEASE)
 * @dev: the device the plan was submitted through
 * @plan_id: &struct tplan_submission.plan_id
 *
 * The region returns to its pool at once, or when its last mapping is gone.
 *
 * Return: 0, or the negative errno of the ioctl (-ENOENT: no such plan).
 */
int tplan_device_release(struct tplan_device *dev, u64 plan_id)
{
	struct tplan_release req = { .plan_id = plan_id };

	if (ioctl(dev->fd, TPLAN_IOC_RELEASE, &req))
		return -errno;
	return 0;
}

/* TPLAN_IOC_EXPORT: the descriptor in *fd, or the negative errno. */
static int export_region(struct tplan_device *dev, struct tplan_export *req,
			 int *fd)
{
	if (ioctl(dev->fd, TPLAN_IOC_EXPORT, req))
		return -errno;
	*fd = req->fd;
	return 0;
}

/**
 * tplan_device_export() - one region of a plan as a dma-buf
 * @dev: the handle that submitted the plan
 * @plan_id: the plan
 * @slot: the region: its pool (as in &tplan_submission.regions); a kept
 *        region of a group has none (the ioctl takes its mmap offset)
 * @flags: %TPLAN_EXPORT_CLOEXEC, %TPLAN_EXPORT_RDWR
 * @fd: out: the dma-buf's file descriptor, for close(2)
 *
 * The region stays reserved while the dma-buf, an import or a mapping of
 * it lives, even after tplan_device_release() or tplan_device_close().
 *
 * Return: 0; -ENOENT (no such plan or region, or its GEM handle was closed),
 * -EINVAL (flags, a slot beyond the pools), -EMFILE,
 * -ENOMEM, or -ENOTTY from a device without EXPORT.
 */
int tplan_device_export(struct tplan_device *dev, u64 plan_id, u32 slot,
			u32 flags, int *fd)
{
	struct tplan_export req = {
		.plan_id = plan_id, .slot = slot, .flags = flags,
	};

	return export_region(dev, &req, fd);
}

/**
 * tplan_device_export_at() - the region of a plan at an mmap offset as a
 * dma-buf
 * @dev: the handle that submitted the plan
 * @plan_id: the plan
 * @mmap_offset: the region's mmap offset: a tensor's (from
 *               &tplan_submit_params.tensor_mmap), which names a kept
 *               region of a serial group too, or a region's
 * @flags: %TPLAN_EXPORT_CLOEXEC, %TPLAN_EXPORT_RDWR
 * @fd: out: the dma-buf's file descriptor, for close(2)
 *
 * As tplan_device_export(), for regions that have no pool index.
 *
 * Return: 0; -ENOENT (no such plan, no region of it at @mmap_offset, or
 * its GEM handle was closed; also for @mmap_offset 0), -EINVAL (flags, or
 * a kernel without the offset field), -EMFILE, -ENOMEM, or -ENOTTY from a
 * device without EXPORT.
 */
int tplan_device_export_at(struct tplan_device *dev, u64 plan_id,
			   u64 mmap_offset, u32 flags, int *fd)
{
	struct tplan_export req = {
		.plan_id = plan_id, .mmap_offset = mmap_offset, .flags = flags,
	};

	if (!mmap_offset)	/* the kernel would read it as pool 0 */
		return -ENOENT;
	return export_region(dev, &req, fd);
}

/* The table as the kernel takes it: one descriptor per tensor. */
static struct tplan_tensor_desc *descs_from_table(const struct tplan_table *table)
{
	struct tplan_tensor_desc *d;
	u32 i;

	d = calloc(table->count ? table->count : 1, sizeof(*d));
	if (!d)
		return NULL;
	for (i = 0; i < table->count; i++) {
		const struct tplan_tensor *t = &table->tensors[i];

		d[i].id = t->id;
		d[i].lower = t->lower;
		d[i].upper = t->upper;
		d[i].size = t->size;
		/* the 0.2.0 module refuses alignment 0 (now read as 1) */
		d[i].alignment = t->alignment ? t->alignment : 1;
		d[i].alias_of = t->alias_of;
		d[i].alias_offset = t->alias_offset;
		d[i].priority = t->priority;
		d[i].tiers = t->tiers;
		d[i].model = t->model;
		d[i].share_key = t->share_key;
		if (t->flags & TPLAN_TENSOR_ALIAS)
			d[i].flags |= TPLAN_TENSOR_HAS_ALIAS;
		if (t->flags & TPLAN_TENSOR_PINNED) {
			d[i].flags |= TPLAN_TENSOR_FIXED_OFFSET;
			d[i].offset = t->offset;
		}
		if (t->flags & TPLAN_TENSOR_HINT) {
			d[i].flags |= TPLAN_TENSOR_HAS_HINT;
			d[i].hint = t->hint;
		}
		d[i].gap_first = t->gap_first;
		d[i].gap_count = t->gap_count;
	}
	return d;
}

/* The table's gaps as the kernel takes them (NULL with none, or -ENOMEM). */
static int gaps_from_table(const struct tplan_table *table,
			   struct tplan_gap_desc **out)
{
	struct tplan_gap_desc *g;
	u32 k;

	*out = NULL;
	if (!table->gaps || !table->gap_count)
		return 0;
	g = calloc(table->gap_count, sizeof(*g));
	if (!g)
		return -ENOMEM;
	for (k = 0; k < table->gap_count; k++) {
		g[k].lower = table->gaps[k].lower;
		g[k].upper = table->gaps[k].upper;
		g[k].from = table->gaps[k].from;
		g[k].to = table->gaps[k].to;
		if (table->gaps[k].flags & TPLAN_GAP_WINDOW)
			g[k].flags = TPLAN_GAP_HAS_WINDOW;
	}
	*out = g;
	return 0;
}

/* The first pool the plan has a region in (0 for none, as a dry run). */
static u32 first_pool(const struct tplan_plan_region *regions)
{
	u32 k;

	for (k = 0; k < TPLAN_MAX_POOLS; k++)
		if (regions[k].region_size)
			return k;
	return 0;
}

/* What the kernel said, in the planner's terms; per pool when tiered. */
static void result_from_submit(const struct tplan_submit *req,
			       const struct tplan_table *table,
			       struct tplan_result *res)
{
	u32 k, first = first_pool(req->regions);

	res->peak = req->peak;
	res->lower_bound = req->lower_bound;
	res->work = req->work;
	res->search = req->search;
	res->naive_total = tplan_naive_total(table->tensors, table->count);
	if (!(req->flags & TPLAN_SUBMIT_TIERED)) {
		res->tier_peak[0] = req->peak;
		res->tier_weight[0] = req->regions[first].weight;
		return;
	}
	for (k = 0; k < TPLAN_MAX_POOLS; k++) {
		res->tier_peak[k] = req->regions[k].peak;
		res->tier_weight[k] = req->regions[k].weight;
	}
}

static void submission_from_submit(const struct tplan_submit *req,
				   struct tplan_submission *sub)
{
	sub->plan_id = req->plan_id;
	sub->shared_bytes = req->shared_bytes;
	sub->pool = first_pool(req->regions);
	memcpy(sub->regions, req->regions, sizeof(sub->regions));
}

/**
 * tplan_device_submit() - plan a table in the kernel and reserve its memory
 * @dev: the device
 * @table: the table; on success the offsets (and tiers: the pools holding
 *         the tensors) are written into its tensors
 * @opts: strategy, capacity and budget; a budget of 0 means the device's
 *        default (not unlimited, as offline); a non-zero capacity fails
 *        the submission when the peak exceeds it, as tplan_table_plan() does;
 *        %TPLAN_PLAN_SERIAL and %TPLAN_PLAN_ALIASES are passed on
 * @params: %TPLAN_SUBMIT_* flags, the serial group to join and where to
 *          put each tensor's region; NULL for none of these
 * @res: peak, lower bound, naive total, work, strategy and the time spent in
 *       the ioctl; with %TPLAN_SUBMIT_TIERED the peak and weight of each
 *       pool; on -ENOSPC @res->peak holds the bytes the plan needs
 * @sub: the plan's id and its region in each pool (all zero on a dry run)
 *
 * The planner is the one tplan_table_plan() runs, so for the same table and
 * options the offsets are the same.
 *
 * Return: 0; -ENOSPC when the plan does not fit the capacity or the device's
 * free memory (the plan, if reserved, is released again); -ETIMEDOUT when
 * the budget ran out; -EINVAL for a table the planner rejects, an empty
 * table, unknown flags or strategy, non-zero @params->reserved or
 * @opts->version, @opts->pad, @opts->reserved (a tensor's alignment 0 is
 * sent as 1; tplan_table_check() says what the planner rejects); -E2BIG for
 * more tensors than the device takes; -EMFILE when the handle holds
 * max_plans plans; -ENOMEM; or another negative errno of the ioctl.
 */
int tplan_device_submit(struct tplan_device *dev, struct tplan_table *table,
			const struct tplan_options *opts,
			const struct tplan_submit_params *params,
			struct tplan_result *res, struct tplan_submission *sub)
{
	static const struct tplan_submit_params none;
	static const u64 zero[ARRAY_SIZE(opts->reserved)];
	struct tplan_gap_desc *gaps;
	struct tplan_tensor_desc *d;
	struct tplan_submit req;
	u64 start;
	u32 i;
	int ret = 0;

	memset(res, 0, sizeof(*res));
	memset(sub, 0, sizeof(*sub));
	res->strategy = opts->strategy;
	if (!params)
		params = &none;
	if (memcmp(params->reserved, none.reserved, sizeof(none.reserved)))
		return -EINVAL;
	/* options of a layout this library knows, as tplan_table_plan() */
	if (opts->version || opts->pad ||
	    memcmp(opts->reserved, zero, sizeof(zero)))
		return -EINVAL;
	if (gaps_from_table(table, &gaps))
		return -ENOMEM;
	d = descs_from_table(table);
	if (!d) {
		free(gaps);
		return -ENOMEM;
	}
	memset(&req, 0, sizeof(req));
	req.flags = params->flags;
	if (opts->flags & TPLAN_PLAN_ALIASES)
		req.flags |= TPLAN_SUBMIT_ALIASES;
	if (opts->flags & TPLAN_PLAN_SERIAL)
		req.flags |= TPLAN_SUBMIT_SERIAL;
	/* an unknown strategy stays unknown: the device rejects it */
	req.strategy = opts->strategy < TPLAN_STRATEGY_COUNT ?
		       strategy_id[opts->strategy] : opts->strategy;
	req.tensors = (u64)(uintptr_t)d;
	req.count = table->count;
	req.stride = sizeof(*d);
	req.budget = opts->budget;
	req.time_limit_ns = opts->time_limit_ns;
	req.small_below = opts->small_below;
	req.group = params->group;
	if (gaps) {
		req.gaps = (u64)(uintptr_t)gaps;
		req.gap_count = table->gap_count;
		req.gap_stride = sizeof(*gaps);
	}

	start = tplan_now_ns();
	if (ioctl(dev->fd, TPLAN_IOC_SUBMIT, &req))
		ret = -errno;
	res->time_ns = tplan_now_ns() - start;
	/* The kernel copies the struct out on success and on -ENOSPC. */
	if (!ret || ret == -ENOSPC)
		result_from_submit(&req, table, res);
	if (ret)
		goto out;

	for (i = 0; i < table->count; i++) {
		table->tensors[i].offset = d[i].offset;
		table->tensors[i].tier = d[i].pool;
		if (params->tensor_mmap)
			params->tensor_mmap[i] = d[i].mmap_offset;
	}
	if (opts->capacity && req.peak > opts->capacity) {
		if (req.plan_id)
			tplan_device_release(dev, req.plan_id);
		ret = -ENOSPC;
		goto out;
	}
	submission_from_submit(&req, sub);
out:
	free(d);
	free(gaps);
	return ret;
}

/* The region of @pool a mapping of @sub covers, or NULL if there is none. */
static const struct tplan_plan_region *
mappable_region(const struct tplan_submission *sub, u32 pool)
{
	const struct tplan_plan_region *r;

	if (!sub->plan_id || pool >= TPLAN_MAX_POOLS)
		return NULL;
	r = &sub->regions[pool];
	if (!r->region_size || r->region_size > SIZE_MAX ||
	    r->mmap_offset > (u64)INT64_MAX)
		return NULL;
	return r;
}

/**
 * tplan_device_map() - map one of a plan's regions into this process
 * @dev: the device the plan was submitted through
 * @sub: the plan, not a dry run
 * @pool: the pool whose region to map: @sub->pool for an untiered plan,
 *        any pool with a region (@sub->regions[@pool].region_size > 0) for a
 *        tiered one
 * @addr: the mapping (@sub->regions[@pool].region_size bytes, read-write,
 *        shared)
 *
 * A tensor planned at offset O in tier @pool is at (char *)*addr + O.  The
 * mapping keeps the region alive after tplan_device_release() until
 * tplan_device_unmap().
 *
 * Return: 0; -EINVAL for a dry run's submission or a pool in which the plan
 * holds no region; or the negative errno of mmap(2).
 */
int tplan_device_map(struct tplan_device *dev,
		     const struct tplan_submission *sub, u32 pool, void **addr)
{
	const struct tplan_plan_region *r = mappable_region(sub, pool);
	void *p;

	if (!r)
		return -EINVAL;
	p = mmap(NULL, r->region_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 dev->fd, (off_t)r->mmap_offset);
	if (p == MAP_FAILED)
		return -errno;
	*addr = p;
	return 0;
}

/**
 * tplan_device_unmap() - undo tplan_device_map()
 * @sub: the submission it was mapped from
 * @pool: the pool it was mapped for
 * @addr: the mapping
 *
 * Return: 0; -EINVAL when @sub has no region in @pool; or the negative
 * errno of munmap(2).
 */
int tplan_device_unmap(const struct tplan_submission *sub, u32 pool,
		       void *addr)
{
	const struct tplan_plan_region *r = mappable_region(sub, pool);

	if (!r)
		return -EINVAL;
	if (munmap(addr, r->region_size))
		return -errno;
	return 0;
}

/* The kernel writes its piece descriptors straight into the caller's pieces. */
_Static_assert(sizeof(struct tplan_piece) == TPLAN_PIECE_DESC_SIZE_VER1,
	       "a piece is a version 1 piece descriptor");
_Static_assert(offsetof(struct tplan_piece, lower) ==
	       offsetof(struct tplan_piece_desc, lower) &&
	       offsetof(struct tplan_piece, host_offset) ==
	       offsetof(struct tplan_piece_desc, host_offset),
	       "a piece is a version 1 piece descriptor");
_Static_assert(TPLAN_SPILL_DEFAULT == TPLAN_SPILL_ID_DEFAULT &&
	       TPLAN_SPILL_FURTHEST == TPLAN_SPILL_ID_FURTHEST &&
	       TPLAN_SPILL_GA == TPLAN_SPILL_ID_GA,
	       "spill strategy ids differ");

static void spill_result_from_submit(const struct tplan_submit_spill *req,
				     struct tplan_spill_result *res)
{
	res->moved = req->moved;
	res->moved_bound = req->moved_bound;
	res->host_peak = req->host_peak;
	res->peak = req->peak;
	res->live_peak = req->live_peak;
	res->work = req->work;
	res->pieces = req->piece_count;
	res->strategy = req->kept;
	res->fail_step = req->fail_step;
	res->fail_bytes = req->fail_bytes;
}

/**
 * tplan_device_submit_spill() - plan a table that may not fit in the
 * kernel, as pieces, and reserve what they need (TPLAN_IOC_SUBMIT_SPILL)
 * @dev: the device
 * @table: the table, with its uses column if it has one (a tensor without
 *         uses is used at lower and upper - 1)
 * @params: flags, spill strategy, capacity and budget
 * @pieces: room for @piece_cap pieces, written on success tensor after
 *          tensor in time order; @pieces[i].tensor is a row of @table.
 *          Not passed to the kernel when @piece_cap is 0 (may be NULL)
 * @piece_cap: room in @pieces: one per use plus one per tensor is always
 *             enough; 0 to learn how many are needed (-ENOBUFS)
 * @res: moved bytes, their bound, host peak, peak, pieces written (needed,
 *       with -ENOBUFS), the strategy kept; with -ENOSPC the failing step
 *       and its bytes (@res->fail_bytes 0: the plan fits the capacity but
 *       no pool of the device has room for its peak now)
 * @sub: the plan's id and region (all zero on a dry run); map it with
 *       tplan_device_map(), give it back with tplan_device_release()
 *
 * The kernel runs the planner "tplanctl plan --spill" runs offline, so for
 * the same table, capacity, strategy and budget the pieces are the same.
 * The device copies nothing: the caller moves each tensor out at the end
 * of a piece and back in before the next one, as the pieces say.
 *
 * Return: 0; -ENOBUFS when @piece_cap is too small; -ENOSPC; -ETIMEDOUT
 * when the budget ran out; -EINVAL for a table or uses the planner
 * rejects, a capacity of 0, unknown flags or strategy, non-zero
 * @params->reserved; -E2BIG for more tensors than the device takes or a
 * table needing more than its max_submit_bytes; -EMFILE when the handle
 * holds max_plans plans; -ENOMEM; or another negative errno of the ioctl.
 */
int tplan_device_submit_spill(struct tplan_device *dev,
			      const struct tplan_table *table,
			      const struct tplan_spill_params *params,
			      struct tplan_piece *pieces, u32 piece_cap,
			      struct tplan_spill_result *res,
			      struct tplan_submission *sub)
{
	static const u64 zero[4];
	struct tplan_submit_spill req;
	struct tplan_tensor_desc *d;
	int ret = 0;

	memset(res, 0, sizeof(*res));
	memset(sub, 0, sizeof(*sub));
	if (memcmp(params->reserved, zero, sizeof(zero)))
		return -EINVAL;
	d = descs_from_table(table);
	if (!d)
		return -ENOMEM;
	memset(&req, 0, sizeof(req));
	req.flags = params->flags;
	req.strategy = params->strategy;
	req.tensors = (u64)(uintptr_t)d;
	req.count = table->count;
	req.stride = sizeof(*d);
	if (table->use_start) {
		req.use_start = (u64)(uintptr_t)table->use_start;
		req.use_count = table->use_start[table->count];
		/* the kernel takes no pointer without a count */
		if (req.use_count)
			req.uses = (u64)(uintptr_t)table->use_step;
	}
	if (piece_cap)
		req.pieces = (u64)(uintptr_t)pieces;
	req.piece_cap = piece_cap;
	req.piece_stride = sizeof(*pieces);
	req.capacity = params->capacity;
	req.budget = params->budget;
	if (ioctl(dev->fd, TPLAN_IOC_SUBMIT_SPILL, &req))
		ret = -errno;
	/* The kernel copies the struct out on success, -ENOSPC and -ENOBUFS. */
	if (!ret || ret == -ENOSPC || ret == -ENOBUFS)
		spill_result_from_submit(&req, res);
	if (!ret) {
		sub->plan_id = req.plan_id;
		sub->pool = first_pool(req.regions);
		memcpy(sub->regions, req.regions, sizeof(sub->regions));
	}
	free(d);
	return ret;
}

_Static_assert(sizeof(struct tplan_edu_job) == TPLAN_EDU_JOB_SIZE_VER1,
	       "a job is a version 1 job");

/**
 * tplan_device_job() - run copies on the device's DMA engine
 * (TPLAN_EDU_IOC_JOB)
 * @dev: a device that runs jobs (driver tplan_edu)
 * @copies: @count copies, carried out in this order, after every job
 *          queued before on the device: each between a region of a plan
 *          the handle holds (%TPLAN_EDU_PLACE_REGION: plan id, slot, offset
 *          in the region) and the caller's memory (%TPLAN_EDU_PLACE_USER:
 *          its address in @offset), or between two regions
 * @count: 1 to %TPLAN_EDU_MAX_COPIES; 0 queues nothing and asks whether
 *         the device runs jobs: -EINVAL from one that does, -ENOTTY from
 *         one that does not
 * @timeout_ms: the job fails (its fence with -ETIMEDOUT) if the device
 *              has not finished this long after it starts; 0 for the
 *              device's default (%TPLAN_EDU_DEFAULT_TIMEOUT_MS), at most
 *              %TPLAN_EDU_MAX_TIMEOUT_MS
 * @fence_fd: out: a sync_file (close-on-exec) that signals when the job is
 *            over; wait with tplan_fence_wait(), then close(2) it
 *
 * The call returns once the job is queued.  The caller's memory a job
 * names stays pinned until its fence signals; the caller must not read a
 * destination nor write a source before then.  The regions stay reserved
 * as long, even if their plans are released meanwhile.
 *
 * Return: 0; -ENOTTY from a device without jobs; the ioctl's negative
 * errno, with nothing queued: -EINVAL (a kind, slot, flag or timeout the
 * ABI does not take, a zero size, overlapping sides), -ENOENT (no such
 * plan, or no region in that slot), -ERANGE (past a region's end),
 * -E2BIG (more than %TPLAN_EDU_MAX_COPIES copies or
 * %TPLAN_EDU_MAX_JOB_BYTES bytes), -EACCES (a region written through a
 * handle opened read-only), -EFAULT (memory that cannot be read, or
 * written for a destination), -EAGAIN (%TPLAN_EDU_MAX_QUEUED jobs already
 * queued on the device), -ENOMEM, -EINTR.
 */
int tplan_device_job(struct tplan_device *dev,
		     const struct tplan_edu_copy *copies, u32 count,
		     u32 timeout_ms, int *fence_fd)
{
	struct tplan_edu_job req;

	memset(&req, 0, sizeof(req));
	req.copies = (u64)(uintptr_t)copies;
	req.count = count;
	req.timeout_ms = timeout_ms;
	req.fence_fd = -1;
	if (ioctl(dev->fd, TPLAN_EDU_IOC_JOB, &req))
		return -errno;
	*fence_fd = req.fence_fd;
	return 0;
}

/* Milliseconds left of @timeout_ms since @start (ns), at least 0. */
static int ms_left(int timeout_ms, u64 start)
{
	u64 spent = (tplan_now_ns() - start) / 1000000;

	return spent >= (u64)timeout_ms ? 0 : timeout_ms - (int)spent;
}

/**
 * tplan_fence_wait() - wait until a fence signals, and say how it ended
 * @fence_fd: a sync_file, such as tplan_device_job()'s fence; not closed
 * @timeout_ms: the longest wait; negative: no limit; 0: only look
 *
 * Polls the file (interrupted waits are resumed with the time left), then
 * reads its status with SYNC_IOC_FILE_INFO.
 *
 * Return: 0 when the fence signalled success; the fence's negative errno
 * when it signalled a failure (a job's -ETIMEDOUT or -EIO); -ETIME when it
 * did not signal within @timeout_ms; -EBADF for a descriptor that is not
 * open; -ENOTTY (or another errno of the ioctl) for a file that is not a
 * sync_file; or poll(2)'s negative errno.
 */
int tplan_fence_wait(int fence_fd, int timeout_ms)
{
	struct pollfd pfd = { .fd = fence_fd, .events = POLLIN };
	struct sync_file_info info;
	u64 start = tplan_now_ns();
	int left = timeout_ms, n;

	if (fence_fd < 0)
		return -EBADF;
	for (;;) {
		n = poll(&pfd, 1, left);
		if (n > 0)
			break;
		if (n == 0)
			return -ETIME;
		if (errno != EINTR)
			return -errno;
		if (timeout_ms >= 0)
			left = ms_left(timeout_ms, start);
	}
	if (pfd.revents & POLLNVAL)
		return -EBADF;
	memset(&info, 0, sizeof(info));
	if (ioctl(fence_fd, SYNC_IOC_FILE_INFO, &info))
		return -errno;
	if (info.status < 0)
		return info.status;
	return info.status == 1 ? 0 : -ETIME;
}
