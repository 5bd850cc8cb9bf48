/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tplan_drv.h - the tplan driver's objects and how they relate.
 *
 * A &tplan_device owns the arena: one &tplan_pool per tier, each a pinned
 * DMA buffer managed by a region allocator.  Every open file is a
 * &tplan_file holding its plans; a &tplan_plan holds one region.  A plan is
 * reference counted: its file holds one reference until RELEASE or close(),
 * every mapping of its region one more, and the region returns to its pool
 * only with the last reference, so no one ever sees memory another owns.
 */
#ifndef TPLAN_DRV_H
#define TPLAN_DRV_H

#include <linux/device.h>
#include <linux/kref.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include "linux/tplan.h"

#include "region.h"

struct dentry;

/**
 * struct tplan_pool - one tier of the arena
 * @cpu_addr: the kernel's view of the buffer
 * @dma_addr: the device's view of the buffer
 * @regions: who holds which bytes
 * @tier: 0 for the fastest
 */
struct tplan_pool {
	void *cpu_addr;
	dma_addr_t dma_addr;
	struct tplan_region_pool regions;
	u32 tier;
};

/**
 * struct tplan_limits - module parameters, fixed while the device exists
 * @max_tensors: most tensors in one table
 * @max_plans: most plans one open file may hold
 * @default_budget: work units for a submit that asks for 0
 */
struct tplan_limits {
	u32 max_tensors;
	u32 max_plans;
	u64 default_budget;
};

/**
 * struct tplan_device - the device behind /dev/tplan
 * @misc: the character device
 * @dma_dev: the device the DMA buffers are allocated for
 * @lock: protects @pools' allocators and @plans
 * @pools: the tiers, fastest first
 * @pool_count: entries used in @pools
 * @plans: every live plan, for debugfs
 * @limits: see &struct tplan_limits
 * @debugfs: the debugfs directory, if any
 */
struct tplan_device {
	struct miscdevice misc;
	struct device *dma_dev;
	struct mutex lock;	/* pools' allocators, plans, plan->released */
	struct tplan_pool pools[TPLAN_MAX_POOLS];
	u32 pool_count;
	struct list_head plans;
	struct tplan_limits limits;
	struct dentry *debugfs;
};

/**
 * struct tplan_plan - a plan and the region it holds
 * @ref: one for the owning file (until RELEASE or close), one per mapping
 * @tdev: the device
 * @link: in &tplan_device.plans
 * @region: the bytes held, or NULL when the plan needs none (peak 0)
 * @pool: index of the pool @region is in
 * @id: the handle the owning file knows it by
 * @owner: thread group id of the process that submitted it
 * @tensors: tensors in the table
 * @peak: bytes the plan needs
 * @released: the owning file gave it up; only mappings keep it alive
 */
struct tplan_plan {
	struct kref ref;
	struct tplan_device *tdev;
	struct list_head link;
	struct tplan_region *region;
	u32 pool;
	u64 id;
	pid_t owner;
	u32 tensors;
	u64 peak;
	bool released;
};

/**
 * struct tplan_file - one open file of /dev/tplan
 * @tdev: the device
 * @lock: serialises changes to @plans
 * @plans: plan id -> &struct tplan_plan, ids from 1
 * @count: entries in @plans
 * @next_id: where the search for a free plan id starts (ids are not reused
 *           soon, so a stale id does not name a new plan)
 */
struct tplan_file {
	struct tplan_device *tdev;
	struct mutex lock;	/* plans and count change together */
	struct xarray plans;
	u32 count;
	u32 next_id;
};

extern const struct file_operations tplan_fops;

int tplan_pools_create(struct tplan_device *tdev, const u64 *sizes, u32 count);
void tplan_pools_destroy(struct tplan_device *tdev);
int tplan_plan_reserve(struct tplan_device *tdev, struct tplan_plan *plan);
void tplan_plan_put(struct tplan_plan *plan);
void tplan_pool_info(struct tplan_device *tdev, struct tplan_pool_info *info,
		     u32 index);

long tplan_ioctl(struct file *file, unsigned int cmd, unsigned long arg);
void tplan_file_release_all(struct tplan_file *tf);

void tplan_debugfs_init(struct tplan_device *tdev);
void tplan_debugfs_exit(struct tplan_device *tdev);

#endif /* TPLAN_DRV_H */
