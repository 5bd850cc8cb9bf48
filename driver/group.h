/* SPDX-License-Identifier: GPL-2.0 */
/*
 * group.h - serial groups: plans of one open file whose models run one at
 * a time and share memory (group.c).
 */
#ifndef TPLAN_GROUP_H
#define TPLAN_GROUP_H

#include <linux/kref.h>
#include <linux/types.h>

struct tplan_client;
struct tplan_hold;
struct tplan_arena_plan;
struct tplan_tensor;

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
 * @members: plans of the file in the group (under &tplan_client.lock)
 * @scratch: the scratch region all members share, sized to the largest
 * @keys: the share_key tensors stored for the group, sorted by key
 * @nkeys: entries in @keys
 *
 * Changed only under &tplan_client.lock.
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
 * struct tplan_join - a plan joining a serial group: what it needs, then
 * what tplan_group_prepare() made ready for tplan_group_commit()
 * @client: the file, its lock held from prepare to end
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
 * @added: keys new to the group, reserved in &tplan_arena.keys until commit
 * @keep: the kept region for this plan's new keys, or NULL
 * @scratch: a new scratch region for a group that had none, or NULL
 */
struct tplan_join {
	struct tplan_client *client;
	u32 id;
	struct tplan_arena_plan *plan;
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

int tplan_group_sort(struct tplan_join *j);
int tplan_group_prepare(struct tplan_join *j);
int tplan_group_commit(struct tplan_join *j);
void tplan_group_end(struct tplan_join *j);
void tplan_group_leave(struct tplan_client *client, struct tplan_arena_plan *plan);
void tplan_group_put(struct tplan_group *group);

#endif /* TPLAN_GROUP_H */
