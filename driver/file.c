// SPDX-License-Identifier: GPL-2.0
/*
 * file.c - an open file of /dev/tplan: open, its plan table, RELEASE,
 * close, and mmap with the offsets that name its plans' regions.
 */
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

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
#define TPLAN_MAX_PLAN_ID	((1U << 20) - 1)

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
 * DOC: The file's plan table
 *
 * Purpose: an open file knows its plans by id (&tplan_file.plans, ids from
 * 1, handed out cyclically so that a stale id does not soon name a new
 * plan).  Only plans of this file can be released or mapped through it.
 * A submit reserves an id first (the offsets it writes back name it) and
 * publishes the plan under it only when the plan is complete, so RELEASE,
 * mmap and close() never see a half-made plan.
 *
 * Cost: an xarray entry per plan, charged to the caller; at most
 * max_plans per file, with ids up to %TPLAN_MAX_PLAN_ID.
 *
 * Locking: &tplan_file.lock serialises changes to the table, its count and
 * the file's groups.  A group submit holds it while it writes offsets
 * back, so it may be held across faults on user memory; mmap therefore
 * never takes it and looks plans up under RCU.
 *
 * Ownership: the table holds one reference on each plan, dropped by
 * RELEASE or when the file goes.  A mapping holds a reference on its plan,
 * and the plan on its regions, so a region released (or whose file is
 * closed) while mapped stays reserved until the last mapping goes.  A
 * mapping also holds the file itself (as every mapping of a file does), so
 * the file's plans are given back when the last descriptor is closed *and*
 * the last mapping is gone.
 */

/**
 * tplan_file_reserve_id() - reserve a new plan's id in the file
 * @tf: the file
 * @plan: the plan being made; its @id is set
 *
 * The id names the plan's mappings, so the offsets written back need it,
 * but until tplan_file_publish_plan() nothing (mmap, RELEASE, close) sees
 * a half-made plan: the id's entry holds no plan.
 *
 * Return: 0, -EMFILE when the file holds max_plans plans (or no id is
 * free), -EINTR when the task is killed while waiting for the file's lock
 * (another thread's group submit may hold it across a fault), or -ENOMEM.
 */
static int tplan_file_reserve_id(struct tplan_file *tf,
				 struct tplan_arena_plan *plan)
{
	u32 id;
	int ret;

	if (mutex_lock_killable(&tf->lock))
		return -EINTR;
	if (tf->count >= tf->arena->limits.max_plans) {
		mutex_unlock(&tf->lock);
		return -EMFILE;
	}
	ret = xa_alloc_cyclic(&tf->plans, &id, NULL,
			      XA_LIMIT(1, TPLAN_MAX_PLAN_ID), &tf->next_id,
			      GFP_KERNEL_ACCOUNT);
	if (ret >= 0) {
		plan->id = id;
		tf->count++;
		ret = 0;
	}
	mutex_unlock(&tf->lock);
	return ret == -EBUSY ? -EMFILE : ret;
}

/**
 * tplan_file_publish_plan() - the plan is complete: its id now names it
 * @tf: the file
 * @plan: a plan with an id from tplan_file_reserve_id()
 *
 * From here a RELEASE of its id (or close()) may free the plan at any time.
 *
 * Return: 0 or -ENOMEM.
 */
static int tplan_file_publish_plan(struct tplan_file *tf,
				   struct tplan_arena_plan *plan)
{
	void *old;

	mutex_lock(&tf->lock);
	old = xa_store(&tf->plans, plan->id, plan, GFP_KERNEL_ACCOUNT);
	mutex_unlock(&tf->lock);
	return xa_err(old);
}

/**
 * tplan_file_cancel_plan() - a plan that was never published: free its id
 * and take it out of its group
 * @tf: the file
 * @plan: a plan with an id from tplan_file_reserve_id()
 *
 * The file's reference is still the caller's to drop.
 */
static void tplan_file_cancel_plan(struct tplan_file *tf,
				   struct tplan_arena_plan *plan)
{
	mutex_lock(&tf->lock);
	xa_release(&tf->plans, plan->id);
	tf->count--;
	if (plan->group)
		tplan_group_leave(tf, plan);
	mutex_unlock(&tf->lock);
}

/**
 * tplan_file_begin_plan() - a new plan of the file, its id reserved
 * @tf: the file
 * @tensors: tensors in its table
 * @peak: bytes it needs
 *
 * The id names the plan's mappings, so the places written back can name
 * it; nothing else sees the plan until tplan_file_finish_plan().
 *
 * Return: the plan, or ERR_PTR(-ENOMEM) or ERR_PTR(-EMFILE).
 */
struct tplan_arena_plan *tplan_file_begin_plan(struct tplan_file *tf,
					       u32 tensors, u64 peak)
{
	struct tplan_arena_plan *plan = tplan_plan_new(tf->arena, tensors, peak);
	int ret;

	if (IS_ERR(plan))
		return plan;
	ret = tplan_file_reserve_id(tf, plan);
	if (ret) {
		tplan_plan_put(plan);
		return ERR_PTR(ret);
	}
	return plan;
}

/**
 * tplan_file_finish_plan() - hand a plan from tplan_file_begin_plan() to
 * its file, or give it back
 * @tf: the file
 * @plan: the plan, its regions taken and its results filled in
 * @ret: 0 if it is complete, else why not
 *
 * A plan that is not complete, or cannot be published, leaves no trace:
 * its id is free again and its regions go back.  Once published, a
 * RELEASE of its id may free it at any time: the caller must not touch it.
 *
 * Return: @ret, or -ENOMEM when the plan could not be published.
 */
int tplan_file_finish_plan(struct tplan_file *tf, struct tplan_arena_plan *plan,
			   int ret)
{
	if (!ret) {
		tplan_plan_publish(plan);
		ret = tplan_file_publish_plan(tf, plan);
	}
	if (ret) {
		tplan_file_cancel_plan(tf, plan);
		tplan_plan_release(plan);
	}
	return ret;
}

/*
 * Take a plan from the file (and from its group) into @plan, NULL if there
 * is none.  A caller's RELEASE waits for the lock killably (-EINTR); the
 * kernel's own clean-ups (close, an undone submit) wait until they have it.
 */
static int file_take_plan(struct tplan_file *tf, u64 id, bool killable,
			  struct tplan_arena_plan **plan)
{
	*plan = NULL;
	if (!id || id > TPLAN_MAX_PLAN_ID)
		return 0;
	if (!killable)
		mutex_lock(&tf->lock);
	else if (mutex_lock_killable(&tf->lock))
		return -EINTR;
	/* a reserved id of a plan being made reads as NULL and stays */
	*plan = xa_load(&tf->plans, id);
	if (*plan) {
		xa_erase(&tf->plans, id);
		tf->count--;
		if ((*plan)->group)
			tplan_group_leave(tf, *plan);
	}
	mutex_unlock(&tf->lock);
	return 0;
}

static int drop_plan(struct tplan_file *tf, u64 id, bool killable)
{
	struct tplan_arena_plan *plan;
	int ret = file_take_plan(tf, id, killable, &plan);

	if (ret)
		return ret;
	if (!plan)
		return -ENOENT;
	tplan_plan_release(plan);
	return 0;
}

/**
 * tplan_file_drop_plan() - the file gives up one of its plans
 * @tf: the file
 * @id: the plan's id
 *
 * Mappings may keep the plan, and its regions, until they go.  For the
 * kernel's own clean-ups: it waits for the file's lock whatever happens.
 *
 * Return: 0, or -ENOENT when the file holds no plan of that id (a plan
 * still being made is not held yet).
 */
int tplan_file_drop_plan(struct tplan_file *tf, u64 id)
{
	return drop_plan(tf, id, false);
}

/**
 * tplan_file_plans_held() - how many plans the file holds
 * @tf: the file
 * @count: the plans it holds, those being made included
 *
 * Return: 0, or -EINTR when the task is killed while waiting for the
 * file's lock.
 */
int tplan_file_plans_held(struct tplan_file *tf, u32 *count)
{
	if (mutex_lock_killable(&tf->lock))
		return -EINTR;
	*count = tf->count;
	mutex_unlock(&tf->lock);
	return 0;
}

/**
 * tplan_release_ioctl() - TPLAN_IOC_RELEASE: give a plan back
 * @tf: the file
 * @data: the caller's &struct tplan_release, copied in
 *
 * Return: 0; -EINVAL for non-zero flags, pad or reserved bytes; -ENOENT
 * when the file holds no plan of that id; -EINTR when the task is killed
 * while waiting for the file's lock.
 */
int tplan_release_ioctl(struct tplan_file *tf, void *data)
{
	const struct tplan_release *req = data;

	if (req->flags || req->pad ||
	    memchr_inv(req->reserved, 0, sizeof(req->reserved)))
		return -EINVAL;
	return drop_plan(tf, req->plan_id, true);
}

/**
 * tplan_file_open() - open /dev/tplan: a new file with no plan
 * @inode: the device's inode
 * @file: the new file; its private_data is the misc device, then the file
 *
 * Return: 0 or -ENOMEM.
 */
int tplan_file_open(struct inode *inode, struct file *file)
{
	struct tplan_dev *tdev = container_of(file->private_data,
					      struct tplan_dev, misc);
	struct tplan_file *tf = kzalloc(sizeof(*tf), GFP_KERNEL_ACCOUNT);

	if (!tf)
		return -ENOMEM;
	tf->arena = tdev->arena;
	mutex_init(&tf->lock);
	xa_init_flags(&tf->plans, XA_FLAGS_ALLOC1);
	xa_init(&tf->groups);
	file->private_data = tf;
	return 0;
}

/**
 * tplan_file_close() - the file is gone (its last descriptor and mapping):
 * drop its plans
 * @inode: the device's inode
 * @file: the file
 *
 * Return: 0.
 */
int tplan_file_close(struct inode *inode, struct file *file)
{
	struct tplan_file *tf = file->private_data;
	struct tplan_arena_plan *plan;
	unsigned long id;

	xa_for_each(&tf->plans, id, plan)
		tplan_file_drop_plan(tf, id);
	xa_destroy(&tf->plans);
	xa_destroy(&tf->groups);
	mutex_destroy(&tf->lock);
	kfree(tf);
	return 0;
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

/*
 * The plan with this id, if this file owns it; with a reference.  Without
 * the file's lock, which a submit may hold while it faults on user memory
 * (under which mmap runs): plans are freed after an RCU grace period.
 */
static struct tplan_arena_plan *get_own_plan(struct tplan_file *tf, unsigned long id)
{
	struct tplan_arena_plan *plan;

	rcu_read_lock();
	plan = xa_load(&tf->plans, id);
	if (plan && !kref_get_unless_zero(&plan->ref))
		plan = NULL;
	rcu_read_unlock();
	return plan;
}

#ifdef TPLAN_NO_VM_FLAGS_MOD	/* before 6.3: see Kbuild */
static void vm_flags_mod(struct vm_area_struct *vma, vm_flags_t set,
			 vm_flags_t clear)
{
	vma->vm_flags = (vma->vm_flags | set) & ~clear;
}
#endif

/*
 * Only shared mappings: a private (copy-on-write) one of a PFN range makes
 * remap_pfn_range() store the physical page number in vm_pgoff, which
 * /proc/PID/maps shows to the process.  Never executable, never grown by
 * mremap(), never in a core dump.
 */
static int check_vma(struct vm_area_struct *vma)
{
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (vma->vm_flags & VM_EXEC)
		return -EPERM;
	vm_flags_mod(vma, VM_DONTEXPAND | VM_DONTDUMP, VM_MAYEXEC);
	return 0;
}

/*
 * Map the hold's bytes.  The host maps from vma->vm_pgoff, a page index in
 * the pool: a DMA buffer's host must give dma_mmap_coherent() the whole
 * buffer and the region's page offset in it, as the DMA API wants (with an
 * IOMMU it cannot map from an address inside the buffer).  vm_pgoff is
 * then set back to the mmap offset the caller passed.
 */
static int map_hold(struct tplan_arena *arena, struct vm_area_struct *vma,
		    const struct tplan_hold *hold)
{
	const struct tplan_pool *pool = &arena->pools[hold->pool];
	unsigned long pgoff = vma->vm_pgoff;
	u64 start, size;
	int ret;

	if (!tplan_pool_mappable(pool))
		return -ENODEV;
	tplan_hold_extent(hold, &start, &size);
	if (vma->vm_end - vma->vm_start > size)
		return -EINVAL;
	vma->vm_pgoff = start >> PAGE_SHIFT;
	ret = pool->ops->mmap(pool->priv, vma);
	vma->vm_pgoff = pgoff;
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
 * host's mmap (dma_mmap_coherent() for /dev/tplan's pools).
 */
int tplan_file_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct tplan_file *tf = file->private_data;
	unsigned long pgoff = vma->vm_pgoff;
	struct tplan_arena_plan *plan;
	struct tplan_hold *hold;
	int ret;

	ret = check_vma(vma);
	if (ret)
		return ret;
	plan = get_own_plan(tf, mmap_plan_id(pgoff));
	if (!plan)
		return -ENXIO;
	hold = plan->slots[mmap_slot(pgoff)];
	ret = hold ? map_hold(tf->arena, vma, hold) : -ENXIO;
	if (ret) {
		tplan_plan_put(plan);
		return ret;
	}
	vma->vm_private_data = plan;
	vma->vm_ops = &tplan_vm_ops;
	return 0;
}
