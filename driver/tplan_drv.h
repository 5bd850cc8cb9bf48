/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tplan_drv.h - the tplan driver's objects and how they relate.
 */

/**
 * DOC: Driver objects
 *
 * A &tplan_dev owns the arena: one &tplan_pool per tier, each a pinned
 * DMA buffer managed by a region allocator.  A &tplan_hold is one region,
 * reference counted by the plans that use it.  Every open file is a
 * &tplan_file holding its plans and its serial groups; a &tplan_plan holds
 * a region per pool it uses, and in a &tplan_group the group's scratch
 * region and the kept regions of its share_key tensors.  A plan is
 * reference counted too: its file holds one reference until RELEASE or
 * close(), every mapping one more.  A region returns to its pool only with
 * the last reference to it, so no one ever sees memory another owns.
 *
 * Each object has its file: tplan_module.c for the device and its
 * parameters, pools.c for the pools (and GET_INFO), hold.c for holds,
 * region.c for the region allocator, plan.c for plans (and SUBMIT;
 * table.c takes a submitted table through the planner; spill.c plans one
 * as pieces for SUBMIT_SPILL), group.c for
 * serial groups, file.c for open files (and RELEASE, mmap and the mmap
 * offsets), meter.c for the memory meter.  ioctl.c holds only the ioctl
 * table and what every call shares; debugfs.c shows the state.
 */
#ifndef TPLAN_DRV_H
#define TPLAN_DRV_H

#include <linux/device.h>
#include <linux/kref.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/semaphore.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include "linux/tplan.h"

#include "region.h"

struct dentry;

/**
 * struct tplan_pool - one tier of the arena
 * @cpu_addr: the kernel's view of the buffer
 * @dma_addr: the device's view of the buffer
 * @regions: who holds which bytes; @regions.size is the buffer's size
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
 * @max_submits: submits the device plans at once; more wait their turn
 * @default_budget: work units for a submit that asks for 0
 * @max_budget: the most work units one submit may spend
 * @max_submit_bytes: the most kernel memory one submit may use
 * @max_file_keys: most share_key entries the serial groups of one open
 *                 file store together (40 bytes of key table each)
 * @max_device_keys: most share_key entries stored by all open files
 */
struct tplan_limits {
	u32 max_tensors;
	u32 max_plans;
	u32 max_submits;
	u64 default_budget;
	u64 max_budget;
	u64 max_submit_bytes;
	u64 max_file_keys;
	u64 max_device_keys;
};

/**
 * struct tplan_dev - the device behind /dev/tplan
 * @misc: the character device
 * @dma_dev: the device the DMA buffers are allocated for
 * @lock: protects @pools' allocators and @plans
 * @pools: the tiers, fastest first
 * @pool_count: entries used in @pools
 * @plans: every live plan, for debugfs
 * @limits: see &struct tplan_limits
 * @submits: counts down the submits that may still start planning
 * @debugfs: the debugfs directory, if any
 * @keys: share_key entries the groups of every open file store, at most
 *        @limits.max_device_keys (reserved by a join before it allocates)
 */
struct tplan_dev {
	struct miscdevice misc;
	struct device *dma_dev;
	struct mutex lock;	/* pools' allocators, plans, plan->released */
	struct tplan_pool pools[TPLAN_MAX_POOLS];
	u32 pool_count;
	struct list_head plans;
	struct tplan_limits limits;
	struct semaphore submits;
	struct dentry *debugfs;
	atomic64_t keys;
};

/**
 * struct tplan_hold - a region of a pool and who uses it
 * @ref: one per plan (or group key) using it
 * @tdev: the device
 * @region: the bytes
 * @size: bytes of @region that may be mapped: all zeroed or owned; a
 *        growing region is larger than this until its new bytes are zero
 * @pool: index of the pool @region is in
 * @users: for a kept region, the plans of its group using it (under
 *         &tplan_file.lock): its keys go with the last one
 */
struct tplan_hold {
	struct kref ref;
	struct tplan_dev *tdev;
	struct tplan_region *region;
	u64 size;
	u32 pool;
	u32 users;
};

/*
 * A plan's regions, each mappable at its own mmap offset: the first
 * TPLAN_MAX_POOLS slots are its region in each pool (for a group plan, the
 * group's scratch region), the others the kept regions of share_key
 * tensors it uses.
 */
#define TPLAN_PLAN_SLOTS	16
#define TPLAN_KEEP_SLOT		TPLAN_MAX_POOLS
/* The "slot" of an empty share_key tensor: it holds no bytes. */
#define TPLAN_NO_SLOT		TPLAN_PLAN_SLOTS

/**
 * struct tplan_key - a share_key tensor a serial group keeps
 * @share_key: the key
 * @size: its bytes, non-zero (an empty tensor is not kept)
 * @offset: where it is inside @hold
 * @align: the alignment it was placed with: the largest of its tensors'
 * @hold: the kept region holding it (the key holds a reference)
 */
struct tplan_key {
	u64 share_key;
	u64 size;
	u64 offset;
	u64 align;
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
 * @rcu: freed after a grace period: mmap looks plans up without a lock
 * @tdev: the device
 * @link: in &tplan_dev.plans
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
	struct rcu_head rcu;
	struct tplan_dev *tdev;
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
 * @lock: serialises changes to @plans and @groups; a group submit holds it
 *        while it writes the offsets back, so it may be held across user
 *        memory faults (mmap never takes it)
 * @plans: plan id -> &struct tplan_plan, ids from 1
 * @groups: group id -> &struct tplan_group, while it has members
 * @count: entries in @plans
 * @next_id: where the search for a free plan id starts (ids are not reused
 *           soon, so a stale id does not name a new plan)
 * @keys: share_key entries its groups store, at most
 *        &tplan_limits.max_file_keys (under @lock)
 */
struct tplan_file {
	struct tplan_dev *tdev;
	struct mutex lock;	/* plans, count and groups change together */
	struct xarray plans;
	struct xarray groups;
	u32 count;
	u32 next_id;
	u64 keys;
};

/* file.c: an open file, its plan table, RELEASE and mmap */
extern const struct file_operations tplan_fops;
u64 tplan_mmap_offset(u64 plan_id, u32 slot);
int tplan_file_reserve_id(struct tplan_file *tf, struct tplan_plan *plan);
int tplan_file_publish_plan(struct tplan_file *tf, struct tplan_plan *plan);
void tplan_file_cancel_plan(struct tplan_file *tf, struct tplan_plan *plan);
int tplan_file_drop_plan(struct tplan_file *tf, u64 id);
int tplan_file_plans_held(struct tplan_file *tf, u32 *count);
int tplan_release_ioctl(struct tplan_file *tf, void *data);

/* ioctl.c: the ioctl table */
long tplan_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

/* pools.c: the arena, and GET_INFO */
int tplan_pools_create(struct tplan_dev *tdev, const u64 *sizes, u32 count);
void tplan_pools_destroy(struct tplan_dev *tdev);
u64 tplan_pool_room(struct tplan_dev *tdev, u32 pool);
int tplan_get_info_ioctl(struct tplan_file *tf, void *data);

/* hold.c: the regions plans keep */
struct tplan_hold *tplan_hold_alloc(struct tplan_dev *tdev, u32 pool,
				    u64 size, u64 align);
struct tplan_hold *tplan_hold_alloc_first(struct tplan_dev *tdev, u64 size,
					  u64 align, u32 pools);
int tplan_hold_grow(struct tplan_hold *hold, u64 size);
void tplan_hold_extent(const struct tplan_hold *hold, u64 *start, u64 *size);
void tplan_hold_put(struct tplan_hold *hold);

struct tplan_tensor;
/* Selects tensors of a table; @arg is the caller's. */
typedef bool (*tplan_pick_fn)(const struct tplan_tensor *x, u32 arg);
u32 tplan_tensors_need(const struct tplan_tensor *t, u32 n, tplan_pick_fn pick,
		       u32 arg, u64 *align);

/* plan.c: plans, and SUBMIT */
struct tplan_plan *tplan_plan_begin(struct tplan_file *tf, u32 tensors,
				    u64 peak);
int tplan_plan_finish(struct tplan_file *tf, struct tplan_plan *plan, int ret);
void tplan_plan_release(struct tplan_plan *plan);
void tplan_plan_put(struct tplan_plan *plan);
int tplan_submit_check(struct tplan_file *tf, const void *data);
int tplan_submit_ioctl(struct tplan_file *tf, void *data);
void tplan_submit_undo(struct tplan_file *tf, const void *data);

/* spill.c: SUBMIT_SPILL */
int tplan_spill_check(struct tplan_file *tf, const void *data);
int tplan_spill_ioctl(struct tplan_file *tf, void *data);
void tplan_spill_undo(struct tplan_file *tf, const void *data);

/* table.c: a submitted table, in, through the planner and back */
struct tplan_options;
struct tplan_result;
struct tplan_gap;
int tplan_table_check_array(const struct tplan_limits *limits, u64 tensors,
			    u32 count, u32 stride);
int tplan_table_copy_in(u64 tensors, u32 count, u32 stride,
			struct tplan_tensor *t);
void tplan_table_options(struct tplan_dev *tdev, const struct tplan_submit *req,
			 struct tplan_options *opts);
int tplan_gaps_check(const struct tplan_submit *req);
int tplan_gaps_copy_in(const struct tplan_submit *req,
		       const struct tplan_tensor *t, struct tplan_gap **gaps);
int tplan_table_plan(struct tplan_dev *tdev, const struct tplan_submit *req,
		     const struct tplan_options *opts,
		     struct tplan_tensor **tensors, struct tplan_result *res);
int tplan_table_write_back(const struct tplan_submit *req,
			   const struct tplan_tensor *t,
			   const struct tplan_plan *plan);

/**
 * struct tplan_join - a plan joining a serial group: what it needs, then
 * what tplan_group_prepare() made ready for tplan_group_commit()
 * @tf: the file, its lock held from prepare to end
 * @id: the group's id, non-zero
 * @plan: the new plan, holding no region yet
 * @t: its table; share_key tensors unplanned, the others planned with a
 *     scratch peak of @peak
 * @n: tensors in @t
 * @peak: the scratch the plan needs
 * @shared_bytes: out: bytes of share_key tensors stored anew
 * @group: the group, existing or new
 * @fresh: @group is new: not in the file's table before this join
 * @keyed: indices of the table's kept tensors, by key then index
 * @nkeyed: entries in @keyed
 * @keys: the group's key table with this plan's new keys merged in
 * @nkeys: entries in @keys
 * @added: keys new to the group, reserved in &tplan_dev.keys until commit
 * @keep: the kept region for this plan's new keys, or NULL
 * @scratch: a new scratch region for a group that had none, or NULL
 */
struct tplan_join {
	struct tplan_file *tf;
	u32 id;
	struct tplan_plan *plan;
	struct tplan_tensor *t;
	u32 n;
	u64 peak;
	u64 shared_bytes;
	struct tplan_group *group;
	bool fresh;
	u32 *keyed;
	u32 nkeyed;
	struct tplan_key *keys;
	u32 nkeys;
	u32 added;
	struct tplan_hold *keep;
	struct tplan_hold *scratch;
};

/* group.c: serial groups */
int tplan_group_sort(struct tplan_join *j);
int tplan_group_prepare(struct tplan_join *j);
int tplan_group_commit(struct tplan_join *j);
void tplan_group_end(struct tplan_join *j);
void tplan_group_leave(struct tplan_file *tf, struct tplan_plan *plan);
void tplan_group_put(struct tplan_group *group);

/**
 * struct tplan_meter - kernel memory one submit's planner holds
 * @link: in the list of running meters
 * @task: the submitting task: the planner allocates in its context
 * @used: bytes held now
 * @limit: bytes it may hold (max_submit_bytes)
 * @over: an allocation was refused because of @limit
 */
struct tplan_meter {
	struct list_head link;
	struct task_struct *task;
	u64 used;
	u64 limit;
	bool over;
};

/* meter.c: the planner's memory, metered per submit */
void tplan_meter_start(struct tplan_meter *m, u64 limit);
bool tplan_meter_stop(struct tplan_meter *m);

/* debugfs.c */
void tplan_debugfs_init(struct tplan_dev *tdev);
void tplan_debugfs_exit(struct tplan_dev *tdev);

#endif /* TPLAN_DRV_H */
