// SPDX-License-Identifier: GPL-2.0
/*
 * gem.c - TPLAN_IOC_EXPORT: one region of a plan as a GEM object of the
 * accel device, exported as a dma-buf (DRM PRIME).
 */

/**
 * DOC: Exported regions
 *
 * Purpose: a plan's region is shared with another process or device as a
 * dma-buf.  TPLAN_IOC_EXPORT wraps the region in a GEM object that holds
 * a reference on the plan, exports it with drm_gem_prime_export() and
 * returns the dma-buf's file descriptor.  The descriptor may be passed on
 * (SCM_RIGHTS, fork), mmap()ed, imported by this device
 * (DRM_IOCTL_PRIME_FD_TO_HANDLE) or attached by another device
 * (get_sg_table, vmap).
 *
 * Ownership: the dma-buf holds the GEM object, the GEM object the plan,
 * the plan its regions.  RELEASE and close() drop only the file's
 * reference: the region stays reserved, and its bytes mapped, until the
 * last dma-buf, import and mapping is gone; then it is zeroed and returns
 * to its pool as any region does.
 *
 * Locking: none of its own.  The object's fields do not change after
 * export; the region's extent is read under the arena's lock.
 */
#include <linux/dma-buf.h>
#include <linux/dma-mapping.h>
#include <linux/iosys-map.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_prime.h>
#include <drm/drm_vma_manager.h>

#include "arena.h"
#include "client.h"
#include "file.h"
#include "gem.h"
#include "hold.h"
#include "plan.h"
#include "tplan_drv.h"

/**
 * struct tplan_gem - a plan's region as a GEM object
 * @base: the GEM object; its size is the region's when exported
 * @tdev: the device
 * @plan: the plan, one reference
 * @hold: the region, one of @plan's slots
 */
struct tplan_gem {
	struct drm_gem_object base;
	struct tplan_dev *tdev;
	struct tplan_arena_plan *plan;
	struct tplan_hold *hold;
};

static struct tplan_gem *to_gem(struct drm_gem_object *obj)
{
	return container_of(obj, struct tplan_gem, base);
}

/* The region's DMA buffer and where in it the region starts. */
static struct tplan_dma_pool *gem_pool(struct tplan_gem *g, u64 *start)
{
	u64 size;

	tplan_hold_extent(g->hold, start, &size);
	return &g->tdev->pools[g->hold->pool];
}

static void gem_free(struct drm_gem_object *obj)
{
	struct tplan_gem *g = to_gem(obj);

	drm_gem_object_release(obj);
	tplan_plan_put(g->plan);
	kfree(g);
}

/*
 * mmap of the dma-buf (or of a handle's fake offset): the same rules as a
 * mapping through the device.  vm_pgoff counts from the object's fake
 * offset (drm_gem_prime_mmap() adds it too).
 */
static int gem_mmap(struct drm_gem_object *obj, struct vm_area_struct *vma)
{
	struct tplan_gem *g = to_gem(obj);
	unsigned long pgoff;
	int ret;

	ret = tplan_check_vma(vma);
	if (ret)
		return ret;
	pgoff = vma->vm_pgoff - drm_vma_node_start(&obj->vma_node);
	return tplan_map_hold(g->tdev->arena, vma, g->hold, pgoff);
}

/* For a device that attaches to the dma-buf: the region's pages. */
static struct sg_table *gem_get_sg_table(struct drm_gem_object *obj)
{
	struct tplan_gem *g = to_gem(obj);
	struct tplan_dma_pool *pool;
	struct sg_table *sgt;
	u64 start;
	int ret;

	sgt = kzalloc(sizeof(*sgt), GFP_KERNEL_ACCOUNT);
	if (!sgt)
		return ERR_PTR(-ENOMEM);
	pool = gem_pool(g, &start);
	ret = dma_get_sgtable(pool->dev, sgt, pool->cpu_addr + start,
			      pool->dma_addr + start, obj->size);
	if (ret) {
		kfree(sgt);
		return ERR_PTR(ret);
	}
	return sgt;
}

static int gem_vmap(struct drm_gem_object *obj, struct iosys_map *map)
{
	struct tplan_gem *g = to_gem(obj);
	struct tplan_dma_pool *pool;
	u64 start;

	pool = gem_pool(g, &start);
	iosys_map_set_vaddr(map, pool->cpu_addr + start);
	return 0;
}

static const struct vm_operations_struct gem_vm_ops = {
	.open = drm_gem_vm_open,
	.close = drm_gem_vm_close,
};

static const struct drm_gem_object_funcs tplan_gem_funcs = {
	.free = gem_free,
	.mmap = gem_mmap,
	.get_sg_table = gem_get_sg_table,
	.vmap = gem_vmap,
	.vm_ops = &gem_vm_ops,
};

/* A GEM object for one of the plan's regions; it takes the reference. */
static struct tplan_gem *gem_new(struct tplan_dev *tdev,
				 struct tplan_arena_plan *plan,
				 struct tplan_hold *hold)
{
	struct tplan_gem *g = kzalloc(sizeof(*g), GFP_KERNEL_ACCOUNT);
	u64 start, size;

	if (!g)
		return ERR_PTR(-ENOMEM);
	tplan_hold_extent(hold, &start, &size);
	g->base.funcs = &tplan_gem_funcs;
	drm_gem_private_object_init(&tdev->drm, &g->base, size);
	g->tdev = tdev;
	g->plan = plan;
	g->hold = hold;
	return g;
}

static int export_check(const struct tplan_export *req)
{
	if (req->flags & ~TPLAN_EXPORT_FLAGS || req->pad ||
	    memchr_inv(req->reserved, 0, sizeof(req->reserved)))
		return -EINVAL;
	if (req->slot >= TPLAN_PLAN_SLOTS)
		return -EINVAL;
	return 0;
}

/* Export the GEM object as a dma-buf and give the caller a descriptor. */
static int export_fd(struct tplan_gem *g, u32 flags)
{
	struct dma_buf *buf;
	int fd;

	buf = drm_gem_prime_export(&g->base, flags);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	fd = dma_buf_fd(buf, flags & TPLAN_EXPORT_CLOEXEC);
	if (fd < 0)
		dma_buf_put(buf);
	return fd;
}

/**
 * tplan_export_ioctl() - TPLAN_IOC_EXPORT: one of the caller's plans'
 * regions as a dma-buf
 * @file: the DRM file
 * @data: the caller's &struct tplan_export, copied in; @fd and @size are
 *        filled in
 *
 * If the results cannot be written back, the descriptor stays open in the
 * caller's table, as DRM_IOCTL_PRIME_HANDLE_TO_FD's does.
 *
 * Return: 0; -EINVAL for unknown flags, non-zero pad or reserved bytes or
 * a slot beyond %TPLAN_PLAN_SLOTS; -ENOENT when the file holds no plan of
 * that id or the plan no region in that slot; -EMFILE; -ENOMEM.
 */
int tplan_export_ioctl(struct drm_file *file, void *data)
{
	struct tplan_dev *tdev = container_of(file->minor->dev,
					      struct tplan_dev, drm);
	struct tplan_export *req = data;
	struct tplan_arena_plan *plan;
	struct tplan_gem *g;
	u64 size;
	int ret;

	ret = export_check(req);
	if (ret)
		return ret;
	plan = tplan_client_get_plan(file->driver_priv, req->plan_id);
	if (!plan)
		return -ENOENT;
	if (!plan->slots[req->slot]) {
		tplan_plan_put(plan);
		return -ENOENT;
	}
	g = gem_new(tdev, plan, plan->slots[req->slot]);
	if (IS_ERR(g)) {
		tplan_plan_put(plan);
		return PTR_ERR(g);
	}
	size = g->base.size;
	ret = export_fd(g, req->flags);
	/* the dma-buf holds its own reference on the object */
	drm_gem_object_put(&g->base);
	if (ret < 0)
		return ret;
	req->fd = ret;
	req->size = size;
	return 0;
}
