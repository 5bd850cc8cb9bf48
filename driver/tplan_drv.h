/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tplan_drv.h - the tplan driver's objects and how they relate.
 *
 * A &tplan_device owns the arena: one &tplan_pool per tier, each a pinned
 * DMA buffer managed by a region allocator.  A &tplan_hold is one region,
 * reference counted by the plans that use it.  Every open file is a
 * &tplan_file holding its plans and its serial groups; a &tplan_plan holds
 * a region per pool it uses, and in a &tplan_group the group's scratch
 * region and the kept regions of its share_key tensors.  A plan is
 * reference counted too: its file holds one reference until RELEASE or
 * close(), every mapping one more.  A region returns to its pool only with
 * the last reference to it, so no one ever sees memory another owns.
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
 * struct tplan_hold - a region of a pool and who uses it
 * @ref: one per plan (or group) using it
 * @tdev: the device
 * @region: the bytes
 * @pool: index of the pool @region is in
 */
struct tplan_hold {
	struct kref ref;
	struct tplan_device *tdev;
	struct tplan_region *region;
	u32 pool;
};

/*
 * A plan's regions, each mappable at its own mmap offset: the first
 * TPLAN_MAX_POOLS slots are its region in each pool (for a group plan, the
 * group's scratch region), the others the kept regions of share_key
 * tensors it uses.
 */
#define TPLAN_PLAN_SLOTS	16
#define TPLAN_KEEP_SLOT		TPLAN_MAX_POOLS

/**
 * struct tplan_key - a share_key tensor a serial group keeps
 * @share_key: the key
 * @size: its bytes
 * @offset: where it is inside @hold
 * @hold: the kept region holding it (the key holds a reference)
 */
struct tplan_key {
	u64 share_key;
	u64 size;
	u64 offset;
	struct tplan_hold *hold;
};

/**
 * struct tplan_group - plans that run one at a time and share memory
 * @ref: one for the file while the group has members, one per member plan
 * @id: the caller's name for it, unique in its file
 * @members: plans of the file in the group (under &tplan_file.lock)
 * @scratch: the scratch region all members share, sized to the largest
 * @keys: the share_key tensors stored for the group, sorted by key
 * @nkeys: entries in @keys
 *
 * Changed only under &tplan_file.lock.
 */
struct tplan_group {
	struct kref ref;
	u32 id;
	u32 members;
	struct tplan_hold *scratch;
	struct tplan_key *keys;
	u32 nkeys;
};

/**
 * struct tplan_plan - a plan and the regions it uses
 * @ref: one for the owning file (until RELEASE or close), one per mapping
 * @tdev: the device
 * @link: in &tplan_device.plans
 * @slots: the regions, by mmap slot (see %TPLAN_PLAN_SLOTS); NULL if none
 * @group: the serial group it is in, or NULL
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
	struct tplan_hold *slots[TPLAN_PLAN_SLOTS];
	struct tplan_group *group;
	u64 id;
	pid_t owner;
	u32 tensors;
	u64 peak;
	bool released;
};

/**
 * struct tplan_file - one open file of /dev/tplan
 * @tdev: the device
 * @lock: serialises changes to @plans and @groups
 * @plans: plan id -> &struct tplan_plan, ids from 1
 * @groups: group id -> &struct tplan_group, while it has members
 * @count: entries in @plans
 * @next_id: where the search for a free plan id starts (ids are not reused
 *           soon, so a stale id does not name a new plan)
 */
struct tplan_file {
	struct tplan_device *tdev;
	struct mutex lock;	/* plans, count and groups change together */
	struct xarray plans;
	struct xarray groups;
	u32 count;
	u32 next_id;
};

extern const struct file_operations tplan_fops;

int tplan_pools_create(struct tplan_device *tdev, const u64 *sizes, u32 count);
void tplan_pools_destroy(struct tplan_device *tdev);
struct tplan_hold *tplan_hold_alloc(struct tplan_device *tdev, u32 pool,
				    u64 size);
struct tplan_hold *tplan_hold_alloc_first(struct tplan_device *tdev, u64 size);
int tplan_hold_grow(struct tplan_hold *hold, u64 size);
void tplan_hold_extent(const struct tplan_hold *hold, u64 *start, u64 *size);
void tplan_hold_put(struct tplan_hold *hold);
u64 tplan_pool_room(struct tplan_device *tdev, u32 pool);

struct tplan_plan *tplan_plan_new(struct tplan_device *tdev, u32 tensors,
				  u64 peak);
void tplan_plan_publish(struct tplan_plan *plan);
void tplan_plan_put(struct tplan_plan *plan);

struct tplan_tensor;
int tplan_group_join(struct tplan_file *tf, u32 id, struct tplan_plan *plan,
		     struct tplan_tensor *t, u32 n, u64 peak, u64 *shared_bytes);
void tplan_group_leave(struct tplan_file *tf, struct tplan_group *group);
void tplan_group_put(struct tplan_group *group);
void tplan_pool_info(struct tplan_device *tdev, struct tplan_pool_info *info,
		     u32 index);

long tplan_ioctl(struct file *file, unsigned int cmd, unsigned long arg);
void tplan_file_release_all(struct tplan_file *tf);

void tplan_debugfs_init(struct tplan_device *tdev);
void tplan_debugfs_exit(struct tplan_device *tdev);

#endif /* TPLAN_DRV_H */
