// SPDX-License-Identifier: GPL-2.0
/*
 * gem.c - a plan's regions as GEM objects of the accel device: their
 * handles in the submitting file, mmap at their fake offsets, and
 * TPLAN_IOC_EXPORT (a region as a dma-buf, DRM PRIME).
 */

/**
 * DOC: Regions as GEM objects
 *
 * Purpose: every region of a plan is a GEM object of the device.  SUBMIT
 * and SUBMIT_SPILL make one per region once the plan has its memory
 * (tplan_gem_open_plan()): it gets a fake mmap offset, which the tensors'
 * and regions' mmap_offset return, and a handle in the submitting file.
 * mmap() of the accel file is drm_gem_mmap(): a file maps only objects it
 * holds a handle of (else -EACCES), an offset no object has is -EINVAL.
 * The handle may be exported as a dma-buf with DRM_IOCTL_PRIME_HANDLE_TO_FD
 * or TPLAN_IOC_EXPORT (by plan and pool, or by mmap offset); the dma-buf
 * may be passed on (SCM_RIGHTS, fork), mmap()ed, imported by this device
 * (DRM_IOCTL_PRIME_FD_TO_HANDLE) or attached by another device
 * (get_sg_table, vmap).  A kept region shared by the plans of a serial
 * group is one object per plan, each mapping the same bytes.
 *
 * Access modes: a region's dma-buf is read-write only when exported with
 * %TPLAN_EXPORT_RDWR (DRM_RDWR), which needs a file opened for writing;
 * the first export fixes it for the region.  A read-only dma-buf imported
 * into another file becomes a read-only object of its own
 * (tplan_gem_prime_import()): never mappable through the accel file, and
 * exported again it is the same read-only dma-buf.
 *
 * Ownership: the handle holds the object, the object the plan, the plan
 * its regions.  RELEASE closes the plan's handles in its file
 * (tplan_gem_close_plan()) and drops the client's reference; close()
 * closes every handle of the file.  A mapping, a dma-buf or an import
 * holds the object, so the region stays reserved, and its bytes mapped,
 * until the last of them is gone; then it is zeroed and returns to its
 * pool as any region does.  A handle the caller closed itself (GEM_CLOSE)
 * is gone: the plan keeps its regions until RELEASE, but the file can no
 * longer map or export them.  The plan records its handles by number, and
 * each use checks that the number still names that plan's object (the
 * caller may have closed it and reused the number).
 *
 * Locking: none of its own: the DRM core's handle table and offset
 * manager have theirs.  A plan's handles are set before it is published
 * and do not change after; an object's fields do not change at all.
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
#include "tplan_accel.h"

/**
 * struct tplan_gem - a plan's region as a GEM object
 * @base: the GEM object; its size is the region's when it was made (a
 *        group's scratch region may grow later)
 * @accel: the device
 * @plan: the plan, one reference
 * @hold: the region, one of @plan's slots
 */
struct tplan_gem {
	struct drm_gem_object base;
	struct tplan_accel *accel;
	struct tplan_arena_plan *plan;
	struct tplan_hold *hold;
};

static struct tplan_gem *to_gem(struct drm_gem_object *obj)
{
	return container_of(obj, struct tplan_gem, base);
}

/*
 * The region's DMA buffer and where in it the region starts; NULL while
 * the region is smaller than the object (a group's scratch region whose
 * growth failed: the submit is failing, but a racing thread of the caller
 * may have exported the handle already).  Regions never shrink.
 */
static struct tplan_dma_pool *gem_pool(struct tplan_gem *g, u64 *start)
{
	u64 size;

	tplan_hold_extent(g->hold, start, &size);
	if (size < g->base.size)
		return NULL;
	return &g->accel->pools[g->hold->pool];
}

static void gem_free(struct drm_gem_object *obj)
{
	struct tplan_gem *g = to_gem(obj);

	drm_gem_object_release(obj);
	tplan_plan_put(g->plan);
	kfree(g);
}

#ifdef TPLAN_NO_VM_FLAGS_MOD	/* before 6.3: see Kbuild */
static void vm_flags_mod(struct vm_area_struct *vma, vm_flags_t set,
			 vm_flags_t clear)
{
	vma->vm_flags = (vma->vm_flags | set) & ~clear;
}
#endif

/**
 * check_vma() - the rules every mapping of a region follows
 * @vma: the new mapping; its flags are set to keep them
 *
 * Only shared mappings: a private (copy-on-write) one of a PFN range makes
 * remap_pfn_range() store the physical page number in vm_pgoff, which
 * /proc/PID/maps shows to the process.  Never executable, never grown by
 * mremap(), never in a core dump.
 *
 * Return: 0, -EINVAL for a private mapping, -EPERM for an executable one.
 */
static int check_vma(struct vm_area_struct *vma)
{
	/* MAP_SHARED: a read-only file's has VM_MAYSHARE but not VM_SHARED */
	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	if (vma->vm_flags & VM_EXEC)
		return -EPERM;
	vm_flags_mod(vma, VM_DONTEXPAND | VM_DONTDUMP, VM_MAYEXEC);
	return 0;
}

/**
 * map_hold() - map a hold's bytes
 * @arena: the arena
 * @vma: the mapping, checked by check_vma()
 * @hold: the region
 * @pgoff: the first page to map, from the start of the region
 *
 * The host maps from vma->vm_pgoff, a page index in the pool: a DMA
 * buffer's host must give dma_mmap_coherent() the whole buffer and the
 * region's page offset in it, as the DMA API wants (with an IOMMU it
 * cannot map from an address inside the buffer).  vm_pgoff is then set
 * back to what the caller passed.
 *
 * Return: 0; -EINVAL for a mapping beyond the region; -ENODEV for a pool
 * its host cannot map; or as the host's mmap.
 */
static int map_hold(struct tplan_arena *arena, struct vm_area_struct *vma,
		    const struct tplan_hold *hold, unsigned long pgoff)
{
	const struct tplan_pool *pool = &arena->pools[hold->pool];
	unsigned long caller_pgoff = vma->vm_pgoff;
	u64 start, size;
	int ret;

	if (!tplan_pool_mappable(pool))
		return -ENODEV;
	tplan_hold_extent(hold, &start, &size);
	if (pgoff > size >> PAGE_SHIFT ||
	    vma->vm_end - vma->vm_start > size - ((u64)pgoff << PAGE_SHIFT))
		return -EINVAL;
	vma->vm_pgoff = (start >> PAGE_SHIFT) + pgoff;
	ret = pool->ops->mmap(pool->priv, vma);
	vma->vm_pgoff = caller_pgoff;
	return ret;
}

/*
 * mmap at the object's fake offset (drm_gem_mmap()) or of its dma-buf
 * (drm_gem_prime_mmap(), which adds the fake offset to vm_pgoff too).
 */
static int gem_mmap(struct drm_gem_object *obj, struct vm_area_struct *vma)
{
	struct tplan_gem *g = to_gem(obj);
	unsigned long pgoff;
	int ret;

	ret = check_vma(vma);
	if (ret)
		return ret;
	pgoff = vma->vm_pgoff - drm_vma_node_start(&obj->vma_node);
	return map_hold(g->accel->arena, vma, g->hold, pgoff);
}

/* For a device that attaches to the dma-buf: the region's pages. */
static struct sg_table *gem_get_sg_table(struct drm_gem_object *obj)
{
	struct tplan_gem *g = to_gem(obj);
	struct tplan_dma_pool *pool;
	struct sg_table *sgt;
	u64 start;
	int ret;

	pool = gem_pool(g, &start);
	if (!pool)
		return ERR_PTR(-EINVAL);
	sgt = kzalloc(sizeof(*sgt), GFP_KERNEL_ACCOUNT);
	if (!sgt)
		return ERR_PTR(-ENOMEM);
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
	if (!pool)
		return -EINVAL;
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

/*
 * An imported read-only region: no mmap offset, no pages or address for
 * anyone, and its dma-buf (drm_gem_object.dma_buf, the one it was imported
 * from) is what a re-export gives.
 */
static const struct drm_gem_object_funcs tplan_gem_read_only_funcs = {
	.free = gem_free,
};

/*
 * A GEM object of @size bytes (whole pages) for one of the plan's regions,
 * with a plan reference.
 */
static struct tplan_gem *gem_new(struct tplan_accel *accel,
				 const struct drm_gem_object_funcs *funcs,
				 struct tplan_arena_plan *plan,
				 struct tplan_hold *hold, u64 size)
{
	struct tplan_gem *g = kzalloc(sizeof(*g), GFP_KERNEL_ACCOUNT);

	if (!g)
		return ERR_PTR(-ENOMEM);
	g->base.funcs = funcs;
	drm_gem_private_object_init(&accel->drm, &g->base, size);
	g->accel = accel;
	kref_get(&plan->ref);
	g->plan = plan;
	g->hold = hold;
	return g;
}

/*
 * Slot @s of the plan as a GEM object of @size bytes with an mmap offset
 * and a handle.
 */
static int open_slot(struct drm_file *file, struct tplan_arena_plan *plan,
		     u32 s, u64 size)
{
	struct tplan_accel *accel = container_of(file->minor->dev,
						 struct tplan_accel, drm);
	struct tplan_gem *g = gem_new(accel, &tplan_gem_funcs, plan,
				      plan->slots[s], size);
	u32 handle;
	int ret;

	if (IS_ERR(g))
		return PTR_ERR(g);
	ret = drm_gem_create_mmap_offset(&g->base);
	if (!ret)
		ret = drm_gem_handle_create(file, &g->base, &handle);
	if (!ret) {
		plan->handles[s] = handle;
		plan->mmap_offsets[s] = drm_vma_node_offset_addr(&g->base.vma_node);
		plan->map_sizes[s] = size;
	}
	/* the handle holds the object now, or nothing does */
	drm_gem_object_put(&g->base);
	return ret;
}

/**
 * tplan_gem_open_plan() - each of a new plan's regions becomes a GEM object
 * with a handle in the file
 * @file: the DRM file that submits the plan
 * @plan: the plan, its regions reserved, not yet published
 * @scratch: for a plan joining a serial group, the bytes it needs of the
 *           group's scratch region, which grows to them when the group
 *           takes the plan (after its places are written); else 0
 *
 * Sets the plan's handles, mmap offsets and object sizes.  Each object is
 * as large as its region will be once the plan is complete: what the
 * plan's results report.  On failure the handles made are closed again.
 *
 * Return: 0, -ENOMEM or -ENOSPC (no fake offset left).
 */
int tplan_gem_open_plan(struct drm_file *file, struct tplan_arena_plan *plan,
			u64 scratch)
{
	u64 start, size;
	int ret = 0;
	u32 s;

	for (s = 0; s < TPLAN_PLAN_SLOTS && !ret; s++) {
		if (!plan->slots[s])
			continue;
		tplan_hold_extent(plan->slots[s], &start, &size);
		if (s < TPLAN_KEEP_SLOT)
			size = max(size, PAGE_ALIGN(scratch));
		ret = open_slot(file, plan, s, size);
	}
	if (ret)
		tplan_gem_close_plan(file, plan);
	return ret;
}

/*
 * The plan's object in slot @s, with a reference, found by its handle in
 * @file; NULL when the file has no such handle (never made, or closed by
 * the caller, whose number may now name another object).
 */
static struct drm_gem_object *slot_object(struct drm_file *file,
					  const struct tplan_arena_plan *plan,
					  u32 s)
{
	struct drm_gem_object *obj;

	if (!plan->handles[s])
		return NULL;
	obj = drm_gem_object_lookup(file, plan->handles[s]);
	if (obj && (obj->funcs != &tplan_gem_funcs ||
		    to_gem(obj)->plan != plan ||
		    to_gem(obj)->hold != plan->slots[s])) {
		drm_gem_object_put(obj);
		obj = NULL;
	}
	return obj;
}

/**
 * tplan_gem_close_plan() - close the handles of a plan's regions in the file
 * @file: the DRM file that submitted the plan
 * @plan: the plan
 *
 * Handles the caller closed itself are left alone.  Mappings, dma-bufs and
 * imports keep the objects, and with them the plan.
 */
void tplan_gem_close_plan(struct drm_file *file, struct tplan_arena_plan *plan)
{
	struct drm_gem_object *obj;
	u32 s;

	for (s = 0; s < TPLAN_PLAN_SLOTS; s++) {
		obj = slot_object(file, plan, s);
		if (!obj)
			continue;
		drm_gem_handle_delete(file, plan->handles[s]);
		drm_gem_object_put(obj);
	}
}

/*
 * A writable dma-buf only for a file opened for writing: what a file can
 * write through its own mappings, it may share, and no more.
 */
static int may_export(struct drm_file *file, u32 flags)
{
	if ((flags & TPLAN_EXPORT_RDWR) && !(file->filp->f_mode & FMODE_WRITE))
		return -EACCES;
	return 0;
}

static int export_check(const struct tplan_export *req)
{
	if (req->flags & ~TPLAN_EXPORT_FLAGS || req->pad ||
	    memchr_inv(req->reserved, 0, sizeof(req->reserved)))
		return -EINVAL;
	if (req->slot >= TPLAN_MAX_POOLS || (req->mmap_offset && req->slot))
		return -EINVAL;
	return 0;
}

/* The slot an export names: its pool, or the one at its mmap offset. */
static u32 export_slot(const struct tplan_arena_plan *plan,
		       const struct tplan_export *req)
{
	u32 s;

	if (!req->mmap_offset)
		return req->slot;
	for (s = 0; s < TPLAN_PLAN_SLOTS; s++)
		if (plan->mmap_offsets[s] == req->mmap_offset)
			return s;
	return TPLAN_NO_SLOT;
}

/*
 * The region's dma-buf, as DRM_IOCTL_PRIME_HANDLE_TO_FD makes it: one per
 * object, remembered with the handle, so that importing it into this file
 * gives the same handle back.  @obj is what the handle named a moment ago;
 * if the caller closed it meanwhile and the number names another object,
 * the export is -ENOENT.
 */
static struct dma_buf *export_buf(struct drm_file *file,
				  struct drm_gem_object *obj, u32 handle,
				  u32 flags)
{
	struct dma_buf *buf;

	buf = drm_gem_prime_handle_to_dmabuf(obj->dev, file, handle, flags);
	if (!IS_ERR(buf) && buf->priv != obj) {
		dma_buf_put(buf);
		buf = ERR_PTR(-ENOENT);
	}
	return buf;
}

/**
 * tplan_export_ioctl() - TPLAN_IOC_EXPORT: one of the caller's plans'
 * regions as a dma-buf
 * @file: the DRM file
 * @data: the caller's &struct tplan_export, copied in; @fd and @size are
 *        filled in
 *
 * If the results cannot be written back, the descriptor stays open in the
 * caller's table, as DRM_IOCTL_PRIME_HANDLE_TO_FD's does.  A region
 * exported before keeps its dma-buf (and that one's access mode).
 *
 * Return: 0; -EINVAL for unknown flags, non-zero pad or reserved bytes, a
 * slot beyond %TPLAN_MAX_POOLS or a slot with an mmap offset; -EACCES for
 * %TPLAN_EXPORT_RDWR through a file not opened for writing; -ENOENT when
 * the file holds no plan of that id, the plan no region there, or the file
 * no handle of it (closed with GEM_CLOSE); -EMFILE; -ENOMEM.
 */
int tplan_export_ioctl(struct drm_file *file, void *data)
{
	struct tplan_export *req = data;
	struct tplan_arena_plan *plan;
	struct drm_gem_object *obj;
	struct dma_buf *buf;
	u32 s;
	int ret;

	ret = export_check(req);
	if (!ret)
		ret = may_export(file, req->flags);
	if (ret)
		return ret;
	plan = tplan_client_get_plan(file->driver_priv, req->plan_id);
	if (!plan)
		return -ENOENT;
	s = export_slot(plan, req);
	obj = s < TPLAN_PLAN_SLOTS ? slot_object(file, plan, s) : NULL;
	buf = obj ? export_buf(file, obj, plan->handles[s], req->flags) :
		    ERR_PTR(-ENOENT);
	tplan_plan_put(plan);
	if (obj) {
		req->size = obj->size;
		drm_gem_object_put(obj);
	}
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ret = dma_buf_fd(buf, req->flags & TPLAN_EXPORT_CLOEXEC);
	if (ret < 0) {
		dma_buf_put(buf);
		return ret;
	}
	req->fd = ret;
	return 0;
}

/**
 * tplan_accel_prime_handle_to_fd() - &drm_driver.prime_handle_to_fd
 * @dev: the DRM device
 * @file: the caller's DRM file
 * @handle: the object's handle in @file
 * @flags: DRM_CLOEXEC, DRM_RDWR
 * @fd: out: the dma-buf's descriptor
 *
 * DRM_IOCTL_PRIME_HANDLE_TO_FD as the DRM core does it, with
 * TPLAN_IOC_EXPORT's rule on access modes.
 *
 * Return: 0, -EACCES for DRM_RDWR through a file not opened for writing,
 * or as drm_gem_prime_handle_to_fd().
 */
int tplan_accel_prime_handle_to_fd(struct drm_device *dev,
				   struct drm_file *file, u32 handle,
				   u32 flags, int *fd)
{
	int ret = may_export(file, flags);

	if (ret)
		return ret;
	return drm_gem_prime_handle_to_fd(dev, file, handle, flags, fd);
}
EXPORT_SYMBOL_NS_GPL(tplan_accel_prime_handle_to_fd, TPLAN);

/**
 * tplan_accel_prime_import() - &drm_driver.gem_prime_import
 * @dev: the DRM device
 * @buf: the dma-buf being imported into a file of @dev
 *
 * A dma-buf of this device exported read-write imports as its object, as
 * drm_gem_prime_import() does.  One exported read-only imports as a new,
 * read-only object of the same region: the original, which every file
 * holding it may map at its fake offset, would hand the importer write
 * access its dma-buf refused.  The read-only object has no mmap offset,
 * no pages and no address for anyone; re-exported, it gives its dma-buf
 * back, read-only still.  (The file that exported the dma-buf gets its
 * own handle back before this is called: the DRM core remembers it.)
 *
 * Context: process context, under the device's object_name_lock.
 * Return: the object with a reference; ERR_PTR(-ENOMEM), or as
 * drm_gem_prime_import() (-EINVAL for another device's dma-buf).
 */
struct drm_gem_object *tplan_accel_prime_import(struct drm_device *dev,
						struct dma_buf *buf)
{
	struct drm_gem_object *obj = drm_gem_prime_import(dev, buf);
	struct tplan_gem *g, *view;

	if (IS_ERR(obj) || (buf->file->f_mode & FMODE_WRITE))
		return obj;
	if (obj->funcs != &tplan_gem_funcs) {	/* not a region's dma-buf */
		drm_gem_object_put(obj);
		return ERR_PTR(-EINVAL);
	}
	g = to_gem(obj);
	view = gem_new(g->accel, &tplan_gem_read_only_funcs, g->plan, g->hold,
		       obj->size);
	drm_gem_object_put(obj);
	return IS_ERR(view) ? ERR_CAST(view) : &view->base;
}
EXPORT_SYMBOL_NS_GPL(tplan_accel_prime_import, TPLAN);
