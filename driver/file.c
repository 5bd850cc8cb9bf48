// SPDX-License-Identifier: GPL-2.0
/*
 * file.c - open, close and mmap of /dev/tplan.
 *
 * A mapping holds a reference on its plan, and the plan on its regions, so
 * a region released (or whose file is closed) while mapped stays reserved
 * until the last mapping goes.  A mapping also holds the file itself (as
 * every mapping of a file does), so the file's plans are given back when
 * the last descriptor is closed *and* the last mapping is gone.
 */
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "tplan_drv.h"

static int tplan_open(struct inode *inode, struct file *file)
{
	struct tplan_dev *tdev = container_of(file->private_data,
					      struct tplan_dev, misc);
	struct tplan_file *tf = kzalloc(sizeof(*tf), GFP_KERNEL_ACCOUNT);

	if (!tf)
		return -ENOMEM;
	tf->tdev = tdev;
	mutex_init(&tf->lock);
	xa_init_flags(&tf->plans, XA_FLAGS_ALLOC1);
	xa_init(&tf->groups);
	file->private_data = tf;
	return 0;
}

static int tplan_release(struct inode *inode, struct file *file)
{
	struct tplan_file *tf = file->private_data;

	tplan_file_release_all(tf);
	xa_destroy(&tf->plans);
	xa_destroy(&tf->groups);
	mutex_destroy(&tf->lock);
	kfree(tf);
	return 0;
}

static void tplan_vma_open(struct vm_area_struct *vma)
{
	struct tplan_plan *plan = vma->vm_private_data;

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
static struct tplan_plan *get_own_plan(struct tplan_file *tf, unsigned long id)
{
	struct tplan_plan *plan;

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
 * Map the hold's bytes.  dma_mmap_coherent() is given the whole buffer and
 * the region's page offset in it (vm_pgoff), as the DMA API wants: with an
 * IOMMU it cannot map from an address inside the buffer.  vm_pgoff is then
 * set back to the mmap offset the caller passed.
 */
static int map_hold(struct tplan_dev *tdev, struct vm_area_struct *vma,
		    const struct tplan_hold *hold)
{
	const struct tplan_pool *pool = &tdev->pools[hold->pool];
	unsigned long pgoff = vma->vm_pgoff;
	u64 start, size;
	int ret;

	tplan_hold_extent(hold, &start, &size);
	if (vma->vm_end - vma->vm_start > size)
		return -EINVAL;
	vma->vm_pgoff = start >> PAGE_SHIFT;
	ret = dma_mmap_coherent(tdev->dma_dev, vma, pool->cpu_addr,
				pool->dma_addr, pool->regions.size);
	vma->vm_pgoff = pgoff;
	return ret;
}

/*
 * The mmap offset names a plan's region: plan id x TPLAN_PLAN_SLOTS + slot,
 * in pages.  The mapping starts at the beginning of the region and may not
 * be longer than it.  Regions are whole pages, so the mapping shows no byte
 * of anyone else's.
 */
static int tplan_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct tplan_file *tf = file->private_data;
	unsigned long pgoff = vma->vm_pgoff;
	struct tplan_plan *plan;
	struct tplan_hold *hold;
	int ret;

	ret = check_vma(vma);
	if (ret)
		return ret;
	plan = get_own_plan(tf, pgoff / TPLAN_PLAN_SLOTS);
	if (!plan)
		return -ENXIO;
	hold = plan->slots[pgoff % TPLAN_PLAN_SLOTS];
	ret = hold ? map_hold(tf->tdev, vma, hold) : -ENXIO;
	if (ret) {
		tplan_plan_put(plan);
		return ret;
	}
	vma->vm_private_data = plan;
	vma->vm_ops = &tplan_vm_ops;
	return 0;
}

const struct file_operations tplan_fops = {
	.owner = THIS_MODULE,
	.open = tplan_open,
	.release = tplan_release,
	.unlocked_ioctl = tplan_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = tplan_mmap,
};
