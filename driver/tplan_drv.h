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
 * &tplan_file holding its plans and its serial groups; a &tplan_dev_plan holds
 * a region per pool it uses, and in a &tplan_group the group's scratch
 * region and the kept regions of its share_key tensors.  A plan is
 * reference counted too: its file holds one reference until RELEASE or
 * close(), every mapping one more.  A region returns to its pool only with
 * the last reference to it, so no one ever sees memory another owns.
 *
 * Each object has its file and its header (tplan_drv.h is the device's:
 * struct tplan_dev and its limits).  Each file calls only files before it
 * in this list, so the calls run one way:
 *
 * - region.c (region.h): the region allocator of one pool;
 * - pools.c (pools.h): the arena, one pool per tier, and its free room;
 * - hold.c (hold.h): holds, the reference-counted regions plans keep;
 * - meter.c (meter.h): the planner's memory, metered per submit;
 * - table_gaps.c, table.c (table.h): a submitted table and its gaps,
 *   checked, copied in and taken through the planner;
 * - group.c (group.h): serial groups;
 * - plan.c (plan.h): plans, a pure object: its regions, group and
 *   references, knowing no ioctl;
 * - file.c (file.h): open files: their plan table, RELEASE, open, close,
 *   mmap and the mmap offsets;
 * - submit.c (submit.h): SUBMIT; submit_spill.c (submit_spill.h):
 *   SUBMIT_SPILL;
 * - ioctl.c (ioctl.h): the file operations of /dev/tplan, the ioctl
 *   table, what every call shares, and GET_INFO;
 * - debugfs.c (debugfs.h): the state, for people;
 * - tplan_module.c: the device, its parameters and /dev/tplan.
 */
#ifndef TPLAN_DRV_H
#define TPLAN_DRV_H

#include <linux/device.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/semaphore.h>
#include <linux/types.h>

#include "linux/tplan.h"

#include "pools.h"

struct dentry;

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

#endif /* TPLAN_DRV_H */
