// SPDX-License-Identifier: GPL-2.0
/*
 * plan.c - a plan's life: made at submit, known to debugfs, and freed with
 * its last reference, which drops its regions and its group.
 */
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "tplan_drv.h"

/**
 * tplan_plan_new() - a plan holding nothing yet
 * @tdev: the device
 * @tensors: tensors in its table
 * @peak: bytes it needs
 *
 * Return: the plan with one reference, or ERR_PTR(-ENOMEM).
 */
struct tplan_plan *tplan_plan_new(struct tplan_dev *tdev, u32 tensors,
				  u64 peak)
{
	struct tplan_plan *plan = kzalloc(sizeof(*plan), GFP_KERNEL_ACCOUNT);

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
 * @plan: a plan with its regions
 */
void tplan_plan_publish(struct tplan_plan *plan)
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
void tplan_plan_release(struct tplan_plan *plan)
{
	mutex_lock(&plan->tdev->lock);
	plan->released = true;
	mutex_unlock(&plan->tdev->lock);
	tplan_plan_put(plan);
}

static void plan_free(struct kref *ref)
{
	struct tplan_plan *plan = container_of(ref, struct tplan_plan, ref);
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
void tplan_plan_put(struct tplan_plan *plan)
{
	kref_put(&plan->ref, plan_free);
}
