/* SPDX-License-Identifier: GPL-2.0 */
/*
 * file.h - an open file of /dev/tplan: its plan table, RELEASE, open,
 * close and mmap, and the mmap offsets that name its plans' regions
 * (file.c).
 */
#ifndef TPLAN_FILE_H
#define TPLAN_FILE_H

#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/xarray.h>

struct file;
struct inode;
struct vm_area_struct;
struct tplan_arena;
struct tplan_arena_plan;

/**
 * struct tplan_file - one open file of /dev/tplan
 * @arena: the arena
 * @lock: serialises changes to @plans and @groups; a group submit holds it
 *        while it writes the offsets back, so it may be held across user
 *        memory faults (mmap never takes it)
 * @plans: plan id -> &struct tplan_arena_plan, ids from 1
 * @groups: group id -> &struct tplan_group, while it has members
 * @count: entries in @plans
 * @next_id: where the search for a free plan id starts (ids are not reused
 *           soon, so a stale id does not name a new plan)
 * @keys: share_key entries its groups store, at most
 *        &tplan_limits.max_file_keys (under @lock)
 */
struct tplan_file {
	struct tplan_arena *arena;
	struct mutex lock;	/* plans, count and groups change together */
	struct xarray plans;
	struct xarray groups;
	u32 count;
	u32 next_id;
	u64 keys;
};

u64 tplan_mmap_offset(u64 plan_id, u32 slot);
struct tplan_arena_plan *tplan_file_begin_plan(struct tplan_file *tf,
					       u32 tensors, u64 peak);
int tplan_file_finish_plan(struct tplan_file *tf, struct tplan_arena_plan *plan,
			   int ret);
int tplan_file_drop_plan(struct tplan_file *tf, u64 id);
int tplan_file_plans_held(struct tplan_file *tf, u32 *count);
int tplan_release_ioctl(struct tplan_file *tf, void *data);

/* file.c's file operations: ioctl.c's tplan_fops names them */
int tplan_file_open(struct inode *inode, struct file *file);
int tplan_file_close(struct inode *inode, struct file *file);
int tplan_file_mmap(struct file *file, struct vm_area_struct *vma);

#endif /* TPLAN_FILE_H */
