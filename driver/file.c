// SPDX-License-Identifier: GPL-2.0
/*
 * file.c - an open file of the accel device: open and close (its client),
 * and mmap with the offsets that name its plans' regions.
 */
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <drm/drm_file.h>

#include "client.h"
#include "file.h"
#include "group.h"
#include "hold.h"
#include "plan.h"
#include "arena.h"
#include "tplan_drv.h"

/**
 * DOC: mmap offsets
 *
 * An mmap offset names one region of one plan of the file: plan id x
 * %TPLAN_PLAN_SLOTS + slot, in pages.  Slots 0 to %TPLAN_MAX_POOLS - 1 are
 * the plan's region in each pool, the others the kept regions of its
 * group it uses.  tplan_mmap_offset() encodes it for SUBMIT's results and
 * tplan_file_mmap() decodes it, both here.  Plan ids are at most
 * %TPLAN_MAX_PLAN_ID, so that an offset fits a 32-bit pgoff.  The offset
 * is all /proc/PID/maps shows: never a physical address.
 */

/**
 * tplan_mmap_offset() - the mmap offset naming one of a plan's regions
 * @plan_id: the plan's id in its file
 * @slot: the region's slot in the plan (see %TPLAN_PLAN_SLOTS)
 *
 * Return: the offset in bytes, plan id x %TPLAN_PLAN_SLOTS + slot pages;
 * tplan_file_mmap() decodes it.
 */
u64 tplan_mmap_offset(u64 plan_id, u32 slot)
{
	return (plan_id * TPLAN_PLAN_SLOTS + slot) << PAGE_SHIFT;
}

/* The plan id an mmap offset (in pages) names: tplan_mmap_offset() back. */
static unsigned long mmap_plan_id(unsigned long pgoff)
{
	return pgoff / TPLAN_PLAN_SLOTS;
}

/* The slot an mmap offset (in pages) names. */
static u32 mmap_slot(unsigned long pgoff)
{
	return pgoff % TPLAN_PLAN_SLOTS;
}

/**
 * tplan_drm_open() - a new open file of the accel device: a client with no
 * plan
 * @drm: the device
 * @file: the DRM file; its driver_priv becomes the client
 *
 * Return: 0 or -ENOMEM.
 */
int tplan_drm_open(struct drm_device *drm, struct drm_file *file)
{
	struct tplan_dev *tdev = container_of(drm, struct tplan_dev, drm);
	struct tplan_client *client = tplan_client_create(tdev->arena);

	if (IS_ERR(client))
		return PTR_ERR(client);
	file->driver_priv = client;
	return 0;
}

/**
 * tplan_drm_postclose() - the file is gone (its last descriptor and
 * mapping): its client goes with its plans
 * @drm: the device
 * @file: the DRM file
 */
void tplan_drm_postclose(struct drm_device *drm, struct drm_file *file)
{
	tplan_client_destroy(file->driver_priv);
}

static void tplan_vma_open(struct vm_area_struct *vma)
{
	struct tplan_arena_plan *plan = vma->vm_private_data;

	kref_get(&plan->ref);
}

static void tplan_vma_close(struct vm_area_struct *vma)
{
	tplan_plan_put(vma->vm_private_data);
}

static const struct vm_operations_struct tplan_vm_ops = {
	.open = tplan_vma_open,
	.close = tplan_vma_close,
};

#ifdef TPLAN_NO_VM_FLAGS_MOD	/* before 6.3: see Kbuild */
static void vm_flags_mod(struct vm_area_struct *vma, vm_flags_t set,
			 vm_flags_t clear)
{
	vma->vm_flags = (vma->vm_flags | set) & ~clear;
}
#endif

/**
 * tplan_check_vma() - the rules every mapping of a region follows
 * @vma: the new mapping; its flags are set to keep them
 *
 * Only shared mappings: a private (copy-on-write) one of a PFN range makes
 * remap_pfn_range() store the physical page number in vm_pgoff, which
 * /proc/PID/maps shows to the process.  Never executable, never grown by
 * mremap(), never in a core dump.
 *
 * Return: 0, -EINVAL for a private mapping, -EPERM for an executable one.
 */
int tplan_check_vma(struct vm_area_struct *vma)
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
 * tplan_map_hold() - map a hold's bytes
 * @arena: the arena
 * @vma: the mapping, checked by tplan_check_vma()
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
int tplan_map_hold(struct tplan_arena *arena, struct vm_area_struct *vma,
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

/**
 * tplan_file_mmap() - map one region of one of the file's plans
 * @file: the file
 * @vma: the mapping; its offset names a plan's region (tplan_mmap_offset())
 *
 * The mapping starts at the beginning of the region and may not be longer
 * than it.  Regions are whole pages, so the mapping shows no byte of
 * anyone else's.
 *
 * Return: 0; -EINVAL for a private mapping or one longer than the region;
 * -EPERM for an executable one; -ENXIO when the offset names no region of
 * the file's plans; -ENODEV for a pool its host cannot map; or as the
 * host's mmap (dma_mmap_coherent() for the accel device's pools).
 */
int tplan_file_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct drm_file *drm_file = file->private_data;
	struct tplan_client *client = drm_file->driver_priv;
	unsigned long pgoff = vma->vm_pgoff;
	struct tplan_arena_plan *plan;
	struct tplan_hold *hold;
	int ret;

	ret = tplan_check_vma(vma);
	if (ret)
		return ret;
	plan = tplan_client_get_plan(client, mmap_plan_id(pgoff));
	if (!plan)
		return -ENXIO;
	hold = plan->slots[mmap_slot(pgoff)];
	ret = hold ? tplan_map_hold(client->arena, vma, hold, 0) : -ENXIO;
	if (ret) {
		tplan_plan_put(plan);
		return ret;
	}
	vma->vm_private_data = plan;
	vma->vm_ops = &tplan_vm_ops;
	return 0;
}
