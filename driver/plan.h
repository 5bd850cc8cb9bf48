/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plan.h - plans: the regions one submitted table uses (plan.c).
 */
#ifndef TPLAN_PLAN_H
#define TPLAN_PLAN_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "linux/tplan.h"

struct tplan_arena;
struct tplan_group;
struct tplan_hold;
struct tplan_options;
struct tplan_result;
struct tplan_tensor;

/*
 * A plan's regions, by slot: the first TPLAN_MAX_POOLS slots are its
 * region in each pool (for a group plan, the group's scratch region), the
 * others the kept regions of share_key tensors it uses.
 */
#define TPLAN_PLAN_SLOTS	16
#define TPLAN_KEEP_SLOT		TPLAN_MAX_POOLS
/* The "slot" of an empty share_key tensor: it holds no bytes. */
#define TPLAN_NO_SLOT		TPLAN_PLAN_SLOTS

/**
 * struct tplan_arena_plan - a plan and the regions it uses
 * @ref: one for the owning client (until RELEASE or close), one per GEM
 *       object of its regions (gem.c)
 * @rcu: freed after a grace period: EXPORT and the API look plans up
 *       without the client's lock
 * @free_work: frees the plan after a last tplan_plan_put_async()
 * @arena: the arena
 * @link: in &tplan_arena.plans
 * @slots: the regions, by slot (see %TPLAN_PLAN_SLOTS); NULL if none
 * @handles: per slot, the GEM handle of the region's object in the file
 *           that submitted the plan (gem.c); 0: none, as for a host's plans
 * @mmap_offsets: per slot, that object's fake mmap offset; 0: none
 * @map_sizes: per slot, that object's size, the most a mapping at its
 *             offset may cover (a later join may grow a group's scratch
 *             region past it); 0: none
 * @group: the serial group it is in, or NULL
 * @id: the handle the owning file knows it by
 * @owner: thread group id of the process that submitted it
 * @tensors: tensors in the table
 * @peak: bytes the plan needs
 * @released: the owning client gave it up; only its GEM objects (their
 *            mappings and dma-bufs) keep it alive
 */
struct tplan_arena_plan {
	struct kref ref;
	struct rcu_head rcu;
	struct work_struct free_work;
	struct tplan_arena *arena;
	struct list_head link;
	struct tplan_hold *slots[TPLAN_PLAN_SLOTS];
	u32 handles[TPLAN_PLAN_SLOTS];
	u64 mmap_offsets[TPLAN_PLAN_SLOTS];
	u64 map_sizes[TPLAN_PLAN_SLOTS];
	struct tplan_group *group;
	u64 id;
	pid_t owner;
	u32 tensors;
	u64 peak;
	bool released;
};

struct tplan_arena_plan *tplan_plan_new(struct tplan_arena *arena,
					u32 tensors, u64 peak);
void tplan_plan_publish(struct tplan_arena_plan *plan);
void tplan_plan_release(struct tplan_arena_plan *plan);
void tplan_plan_put(struct tplan_arena_plan *plan);
void tplan_plan_put_async(struct tplan_arena_plan *plan);
int tplan_plan_reserve(struct tplan_arena_plan *plan, struct tplan_tensor *t,
		       u32 n, const struct tplan_options *opts,
		       const struct tplan_result *res);
int tplan_plan_reserve_first(struct tplan_arena_plan *plan,
			     const struct tplan_tensor *t, u32 n, u64 peak);

#endif /* TPLAN_PLAN_H */
