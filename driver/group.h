/* SPDX-License-Identifier: GPL-2.0 */
/*
 * group.h - serial groups: plans of one open file whose models run one at
 * a time and share memory (group.c).
 */
#ifndef TPLAN_GROUP_H
#define TPLAN_GROUP_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/types.h>

struct tplan_client;
struct tplan_hold;
struct tplan_arena_plan;
struct tplan_tensor;

/**
 * struct tplan_key - a share_key tensor a serial group keeps
 * @node: in &tplan_group.keys, by @share_key, once its join commits
 * @share_key: the key
 * @size: its bytes, non-zero (an empty tensor is not kept)
 * @offset: where it is inside @hold
 * @align: the alignment it was placed with: the largest of its tensors'
 * @hold: the kept region holding it
 */
struct tplan_key {
	struct rb_node node;
	u64 share_key;
	u64 size;
	u64 offset;
	u64 align;
	struct tplan_hold *hold;
};

/**
 * struct tplan_key_block - the keys one join stored: one kept region's
 * @link: in &tplan_group.blocks
 * @hold: that kept region (the block holds a reference)
 * @n: entries in @keys
 * @keys: the keys, sorted by key
 */
struct tplan_key_block {
	struct list_head link;
	struct tplan_hold *hold;
	u32 n;
	struct tplan_key keys[] __counted_by(n);
};

/**
 * struct tplan_group - plans that run one at a time and share memory
 * @ref: one for the file while the group has members, one per member plan
 * @id: the caller's name for it, unique in its file
 * @members: plans of the file in the group (under &tplan_client.lock)
 * @scratch: the scratch region all members share, sized to the largest
 * @keys: the share_key tensors stored for the group, a tree by key; each
 *        one charged to the file's and the device's key counts
 * @blocks: where they are: a &struct tplan_key_block per kept region
 *
 * Changed only under &tplan_client.lock.
 */
struct tplan_group {
	struct kref ref;
	u32 id;
	u32 members;
	struct tplan_hold *scratch;
	struct rb_root keys;
	struct list_head blocks;
};

void tplan_group_leave(struct tplan_client *client, struct tplan_arena_plan *plan);
void tplan_group_put(struct tplan_group *group);

/*
 * Writes a new plan's places where its caller wants them; the plan's
 * regions are set, and the caller may name them (the accel device's GEM
 * objects).
 */
typedef int (*tplan_place_fn)(void *ctx, const struct tplan_tensor *t,
			      struct tplan_arena_plan *plan);
int tplan_group_join(struct tplan_client *client, u32 group,
		     struct tplan_tensor *t, u32 n,
		     struct tplan_arena_plan *plan, u64 peak,
		     tplan_place_fn place, void *ctx, u64 *shared_bytes);

#endif /* TPLAN_GROUP_H */
