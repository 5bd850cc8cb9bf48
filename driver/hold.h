/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hold.h - holds: the regions of a pool that plans and groups keep
 * (hold.c).
 */
#ifndef TPLAN_HOLD_H
#define TPLAN_HOLD_H

#include <linux/kref.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "tplan_arena.h"

struct tplan_arena;
struct tplan_region;
struct tplan_tensor;

/**
 * struct tplan_hold - a region of a pool and who uses it
 * @ref: one per plan (or group key) using it
 * @free_work: frees the hold after a last tplan_hold_put_async()
 * @arena: the arena
 * @region: the bytes
 * @size: bytes of @region that may be mapped: all zeroed or owned; a
 *        growing region is larger than this until its new bytes are zero
 * @pool: index of the pool @region is in
 * @users: for a kept region, the plans of its group using it (under
 *         &tplan_client.lock): its keys go with the last one
 */
struct tplan_hold {
	struct kref ref;
	struct work_struct free_work;
	struct tplan_arena *arena;
	struct tplan_region *region;
	u64 size;
	u32 pool;
	u32 users;
};

/* tplan_hold_alloc(), _alloc_first(), _info(), _put(): tplan_arena.h */
int tplan_hold_grow(struct tplan_hold *hold, u64 size);
void tplan_hold_extent(const struct tplan_hold *hold, u64 *start, u64 *size);

/* Selects tensors of a table; @arg is the caller's. */
typedef bool (*tplan_pick_fn)(const struct tplan_tensor *x, u32 arg);
u32 tplan_tensors_need(const struct tplan_tensor *t, u32 n, tplan_pick_fn pick,
		       u32 arg, u64 *align);

#endif /* TPLAN_HOLD_H */
