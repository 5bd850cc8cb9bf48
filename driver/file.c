// SPDX-License-Identifier: GPL-2.0
/*
 * file.c - open, close and mmap of /dev/tplan.
 *
 * A mapping holds a reference on its plan, and the plan on its regions, so
 * a region released (or whose file is closed) while mapped stays reserved
 * until the last mapping goes.
 */
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "tplan_drv.h"

static int tplan_open(struct inode *inode, struct file *file)
{
	struct tplan_device *tdev = container_of(file->private_data,
						 struct tplan_device, misc);
	struct tplan_file *tf = kzalloc(sizeof(*tf), GFP_KERNEL);

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

/* The plan with this id, if this file owns it; with a reference. */
static struct tplan_plan *get_own_plan(struct tplan_file *tf, unsigned long id)
{
	struct tplan_plan *plan;

	mutex_lock(&tf->lock);
	plan = xa_load(&tf->plans, id);
	if (plan)
		kref_get(&plan->ref);
	mutex_unlock(&tf->lock);
	return plan;
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
	struct tplan_plan *plan = get_own_plan(tf, pgoff / TPLAN_PLAN_SLOTS);
	struct tplan_hold *hold;
	struct tplan_pool *pool;
	u64 start, size;
	int ret;

	if (!plan)
		return -ENXIO;
	hold = plan->slots[pgoff % TPLAN_PLAN_SLOTS];
	if (!hold) {
		tplan_plan_put(plan);
		return -ENXIO;
	}
	tplan_hold_extent(hold, &start, &size);
	if (vma->vm_end - vma->vm_start > size) {
		tplan_plan_put(plan);
		return -EINVAL;
	}
	pool = &tf->tdev->pools[hold->pool];
	/* dma_mmap_coherent() reads vm_pgoff as an offset into the buffer. */
	vma->vm_pgoff = 0;
	ret = dma_mmap_coherent(tf->tdev->dma_dev, vma, pool->cpu_addr + start,
				pool->dma_addr + start, size);
	if (ret) {
		vma->vm_pgoff = pgoff;
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
