// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs.c - /sys/kernel/debug/tplan/state: every pool's regions, used or
 * free, in address order, and every live plan.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "debugfs.h"
#include "group.h"
#include "hold.h"
#include "plan.h"
#include "tplan_drv.h"

static void show_pool(struct seq_file *m, const struct tplan_pool *pool,
		      u32 index)
{
	struct tplan_region_stats st;

	tplan_region_stats(&pool->regions, &st);
	seq_printf(m, "pool %u tier %u: size %llu used %llu free %llu largest_free %llu free_regions %u\n",
		   index, pool->tier, pool->regions.size, st.used, st.free,
		   st.largest_free, st.free_regions);
	tplan_region_print(&pool->regions, m);
}

static void show_plan(struct seq_file *m, const struct tplan_dev_plan *plan)
{
	u32 s;

	seq_printf(m, "plan %llu owner %d tensors %u peak %llu", plan->id,
		   plan->owner, plan->tensors, plan->peak);
	if (plan->group)
		seq_printf(m, " group %u", plan->group->id);
	for (s = 0; s < TPLAN_PLAN_SLOTS; s++) {
		const struct tplan_hold *hold = plan->slots[s];

		if (hold)
			seq_printf(m, " %s pool %u region %#llx+%llu",
				   s < TPLAN_KEEP_SLOT ? "scratch" : "kept",
				   hold->pool, hold->region->start,
				   hold->region->size);
	}
	seq_printf(m, "%s\n", plan->released ? " released, still mapped" : "");
}

static int state_show(struct seq_file *m, void *unused)
{
	struct tplan_dev *tdev = m->private;
	const struct tplan_dev_plan *plan;
	u32 i;

	mutex_lock(&tdev->lock);
	for (i = 0; i < tdev->pool_count; i++)
		show_pool(m, &tdev->pools[i], i);
	list_for_each_entry(plan, &tdev->plans, link)
		show_plan(m, plan);
	mutex_unlock(&tdev->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(state);

/**
 * tplan_debugfs_init() - create /sys/kernel/debug/tplan/state
 * @tdev: the device
 *
 * Failure is not fatal: debugfs is for people, not for the driver.
 */
void tplan_debugfs_init(struct tplan_dev *tdev)
{
	tdev->debugfs = debugfs_create_dir("tplan", NULL);
	debugfs_create_file("state", 0400, tdev->debugfs, tdev, &state_fops);
}

/**
 * tplan_debugfs_exit() - remove the debugfs files
 * @tdev: the device
 */
void tplan_debugfs_exit(struct tplan_dev *tdev)
{
	debugfs_remove_recursive(tdev->debugfs);
}
