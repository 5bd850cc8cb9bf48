// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs.c - an arena's "state" file (the accel device's:
 * /sys/kernel/debug/accel/tplan/state): the device-wide counts against
 * their caps, every pool's regions, used or free, in address order, and
 * every live plan.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "group.h"
#include "hold.h"
#include "plan.h"
#include "arena.h"

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

static void show_plan(struct seq_file *m, const struct tplan_arena_plan *plan)
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
	seq_printf(m, "%s\n", plan->released ? " released, still held" : "");
}

static int state_show(struct seq_file *m, void *unused)
{
	struct tplan_arena *arena = m->private;
	const struct tplan_arena_plan *plan;
	u32 i;

	seq_printf(m, "alive: plans %d of %u, keys %lld of %llu\n",
		   atomic_read(&arena->live_plans),
		   arena->limits.max_device_plans,
		   (long long)atomic64_read(&arena->keys),
		   arena->limits.max_device_keys);
	mutex_lock(&arena->lock);
	for (i = 0; i < arena->pool_count; i++)
		show_pool(m, &arena->pools[i], i);
	list_for_each_entry(plan, &arena->plans, link)
		show_plan(m, plan);
	mutex_unlock(&arena->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(state);

/**
 * tplan_arena_debugfs() - show the arena's pools and plans in a "state"
 * file
 * @arena: the arena
 * @parent: the host's debugfs directory (the accel device's is its DRM
 *          device's, /sys/kernel/debug/accel/tplan, linked from accel/N)
 *
 * The file goes with @parent: the host removes it before
 * tplan_arena_destroy().  Failure is not reported: debugfs is for people,
 * not for drivers.
 *
 * Context: process context; may sleep.
 */
void tplan_arena_debugfs(struct tplan_arena *arena, struct dentry *parent)
{
	debugfs_create_file("state", 0400, parent, arena, &state_fops);
}
EXPORT_SYMBOL_NS_GPL(tplan_arena_debugfs, TPLAN);
