// SPDX-License-Identifier: GPL-2.0
/*
 * plan.c - plans: SUBMIT and SUBMIT_SPILL make them, their file and
 * mappings hold them, the last reference frees them.
 */
#include <linux/err.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "group.h"
#include "hold.h"
#include "plan.h"
#include "tplan_drv.h"

/**
 * DOC: Plans
 *
 * Purpose: a &struct tplan_dev_plan is one submitted table's memory: a region
 * per pool it uses (for a group plan, the group's scratch region) and the
 * kept regions of its group's share_key tensors, each at its own mmap
 * slot (%TPLAN_PLAN_SLOTS).  The offsets themselves go back to the caller;
 * the kernel keeps only the regions.  A plan is a plain object: it knows
 * no ioctl and no file; file.c enters it in a file's plan table
 * (tplan_file_begin_plan()), submit.c and submit_spill.c fill it.
 *
 * Cost: one small allocation per plan, charged to the caller; a file holds
 * at most max_plans of them.
 *
 * Locking: a plan's slots are set before it is published to its file and
 * do not change after; &tplan_dev.lock guards the device's list of plans
 * (debugfs) and @released.  mmap looks plans up without a lock: they are
 * freed after an RCU grace period.
 *
 * Ownership: reference counted.  The owning file holds one reference from
 * SUBMIT until RELEASE or close() (tplan_plan_release()), every mapping
 * one more.  The plan holds a reference on each of its regions and on its
 * group; the last tplan_plan_put() drops them.
 */

/**
 * tplan_plan_new() - a plan holding nothing yet
 * @tdev: the device
 * @tensors: tensors in its table
 * @peak: bytes it needs
 *
 * Return: the plan with one reference, or ERR_PTR(-ENOMEM).
 */
struct tplan_dev_plan *tplan_plan_new(struct tplan_dev *tdev, u32 tensors,
				      u64 peak)
{
	struct tplan_dev_plan *plan = kzalloc(sizeof(*plan), GFP_KERNEL_ACCOUNT);

	if (!plan)
		return ERR_PTR(-ENOMEM);
	kref_init(&plan->ref);
	INIT_LIST_HEAD(&plan->link);
	plan->tdev = tdev;
	plan->owner = task_tgid_nr(current);
	plan->tensors = tensors;
	plan->peak = peak;
	return plan;
}

/**
 * tplan_plan_publish() - list the plan in debugfs
 * @plan: a plan with its regions, about to be published to its file
 */
void tplan_plan_publish(struct tplan_dev_plan *plan)
{
	mutex_lock(&plan->tdev->lock);
	list_add_tail(&plan->link, &plan->tdev->plans);
	mutex_unlock(&plan->tdev->lock);
}

/**
 * tplan_plan_release() - the owning file gives the plan up
 * @plan: the plan, taken out of its file (and group); the file's reference
 *        is dropped, mappings may still hold it
 */
void tplan_plan_release(struct tplan_dev_plan *plan)
{
	mutex_lock(&plan->tdev->lock);
	plan->released = true;
	mutex_unlock(&plan->tdev->lock);
	tplan_plan_put(plan);
}

static void plan_free(struct kref *ref)
{
	struct tplan_dev_plan *plan = container_of(ref, struct tplan_dev_plan, ref);
	struct tplan_dev *tdev = plan->tdev;
	u32 i;

	mutex_lock(&tdev->lock);
	list_del(&plan->link);
	mutex_unlock(&tdev->lock);
	for (i = 0; i < TPLAN_PLAN_SLOTS; i++)
		tplan_hold_put(plan->slots[i]);
	if (plan->group)
		tplan_group_put(plan->group);
	/* mmap may be looking it up right now (file.c: get_own_plan()) */
	kfree_rcu(plan, rcu);
}

/**
 * tplan_plan_put() - drop a reference; the last one frees the plan
 * @plan: the plan
 */
void tplan_plan_put(struct tplan_dev_plan *plan)
{
	kref_put(&plan->ref, plan_free);
}
