// SPDX-License-Identifier: GPL-2.0
/*
 * group.c - serial groups (seeds 003 and 004): plans of one open file whose
 * models run one at a time.  They share one scratch region, sized to the
 * largest scratch among them, and store every share_key tensor once, in
 * kept regions that no scratch overlaps.
 *
 * What a runtime may assume (docs/DRIVER.md): a kept tensor keeps its
 * contents across the runs of every plan of the group; scratch holds
 * whatever the last run of any member left there, so a run writes each
 * scratch tensor before it reads it.
 *
 * Joining prepares everything that can fail first (the new kept region,
 * the key table, the scratch region or its growth), so that a failed
 * submit leaves the group as it was.
 */
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "planner.h"
#include "tplan_drv.h"

/**
 * struct tplan_join - a plan joining a group, prepared
 * @tf: the file
 * @group: the group, existing or new
 * @fresh: @group is new: not in the file's table yet
 * @keyed: indices of the table's share_key tensors, by key then index
 * @nkeyed: entries in @keyed
 * @keys: the group's key table with this plan's new keys merged in
 * @nkeys: entries in @keys
 * @keep: the kept region for this plan's new keys, or NULL
 * @scratch: a new scratch region for a group that had none, or NULL
 */
struct tplan_join {
	struct tplan_file *tf;
	struct tplan_group *group;
	bool fresh;
	u32 *keyed;
	u32 nkeyed;
	struct tplan_key *keys;
	u32 nkeys;
	struct tplan_hold *keep;
	struct tplan_hold *scratch;
};

static void group_free(struct kref *ref)
{
	struct tplan_group *group = container_of(ref, struct tplan_group, ref);
	u32 i;

	for (i = 0; i < group->nkeys; i++)
		tplan_hold_put(group->keys[i].hold);
	kvfree(group->keys);
	tplan_hold_put(group->scratch);
	kfree(group);
}

/**
 * tplan_group_put() - drop a reference; the last one frees the group
 * @group: the group
 */
void tplan_group_put(struct tplan_group *group)
{
	kref_put(&group->ref, group_free);
}

/**
 * tplan_group_leave() - the file gives up one plan of a group
 * @tf: the file, its lock held
 * @group: the plan's group
 *
 * When the last member leaves, the file forgets the group: a later submit
 * with its id starts a new one.  Mapped plans keep the memory until unmapped.
 */
void tplan_group_leave(struct tplan_file *tf, struct tplan_group *group)
{
	lockdep_assert_held(&tf->lock);
	if (--group->members)
		return;
	xa_erase(&tf->groups, group->id);
	tplan_group_put(group);
}

static int cmp_keyed(const void *a, const void *b, const void *priv)
{
	const struct tplan_tensor *t = priv;
	u32 ia = *(const u32 *)a, ib = *(const u32 *)b;

	if (t[ia].share_key != t[ib].share_key)
		return t[ia].share_key < t[ib].share_key ? -1 : 1;
	return ia < ib ? -1 : ia > ib;
}

/* The group's key of that value, or NULL; the table is sorted by key. */
static struct tplan_key *find_key(struct tplan_key *keys, u32 n, u64 key)
{
	u32 lo = 0, hi = n;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (keys[mid].share_key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && keys[lo].share_key == key ? &keys[lo] : NULL;
}

/* The existing group of that id, or a new one the file does not know yet. */
static int find_group(struct tplan_join *j, u32 id)
{
	j->group = xa_load(&j->tf->groups, id);
	if (j->group)
		return 0;
	j->group = kzalloc(sizeof(*j->group), GFP_KERNEL);
	if (!j->group)
		return -ENOMEM;
	kref_init(&j->group->ref);
	j->group->id = id;
	j->fresh = true;
	return 0;
}

/* Sort the share_key tensors; count the distinct keys. */
static int sort_keyed(struct tplan_join *j, const struct tplan_tensor *t,
		      u32 n, u32 *distinct)
{
	u32 i;

	j->keyed = kvmalloc_array(max(n, 1U), sizeof(*j->keyed), GFP_KERNEL);
	if (!j->keyed)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (t[i].share_key)
			j->keyed[j->nkeyed++] = i;
	sort_r(j->keyed, j->nkeyed, sizeof(*j->keyed), cmp_keyed, NULL, t);
	for (*distinct = 0, i = 0; i < j->nkeyed; i++)
		if (!i || t[j->keyed[i]].share_key != t[j->keyed[i - 1]].share_key)
			(*distinct)++;
	return 0;
}

/*
 * Lay the keys the group lacks out in one new kept region, and make the
 * group's key table with them merged in (both sorted by key).
 */
static int add_new_keys(struct tplan_join *j, const struct tplan_tensor *t,
			u32 distinct, u64 *new_bytes)
{
	struct tplan_group *g = j->group;
	u32 i, from = 0, out = 0;
	u64 end = 0;

	j->keys = kvmalloc_array(g->nkeys + distinct, sizeof(*j->keys),
				 GFP_KERNEL);
	if (!j->keys)
		return -ENOMEM;
	for (i = 0; i < j->nkeyed; i++) {
		const struct tplan_tensor *x = &t[j->keyed[i]];
		struct tplan_key *k;

		if (i && x->share_key == t[j->keyed[i - 1]].share_key)
			continue;
		k = find_key(g->keys, g->nkeys, x->share_key);
		if (k) {
			if (k->size != x->size)
				return -EINVAL;
			continue;
		}
		while (from < g->nkeys && g->keys[from].share_key < x->share_key)
			j->keys[out++] = g->keys[from++];
		k = &j->keys[out++];
		k->share_key = x->share_key;
		k->size = x->size;
		k->offset = ALIGN(end, x->alignment);
		k->hold = NULL;		/* the new kept region, once there */
		end = k->offset + x->size;
	}
	while (from < g->nkeys)
		j->keys[out++] = g->keys[from++];
	j->nkeys = out;
	*new_bytes = end;
	return 0;
}

/* The new kept region; every new key takes a reference on it. */
static int alloc_keep(struct tplan_join *j, u64 bytes)
{
	u32 i;

	if (!bytes)
		return 0;
	j->keep = tplan_hold_alloc_first(j->tf->tdev, bytes);
	if (IS_ERR(j->keep)) {
		int ret = PTR_ERR(j->keep);

		j->keep = NULL;
		return ret;
	}
	for (i = 0; i < j->nkeys; i++)
		if (!j->keys[i].hold)
			j->keys[i].hold = j->keep;
	return 0;
}

/* The plan's mmap slot for a kept region, taking one if needed. */
static int keep_slot(struct tplan_plan *plan, struct tplan_hold *hold)
{
	u32 s;

	for (s = TPLAN_KEEP_SLOT; s < TPLAN_PLAN_SLOTS; s++) {
		if (plan->slots[s] == hold)
			return s;
		if (!plan->slots[s]) {
			kref_get(&hold->ref);
			plan->slots[s] = hold;
			return s;
		}
	}
	return -E2BIG;
}

/* Give every share_key tensor its kept place: tier = slot, offset. */
static int place_keyed(struct tplan_join *j, struct tplan_plan *plan,
		       struct tplan_tensor *t)
{
	u32 i;

	for (i = 0; i < j->nkeyed; i++) {
		struct tplan_tensor *x = &t[j->keyed[i]];
		struct tplan_key *k = find_key(j->keys, j->nkeys, x->share_key);
		int slot = keep_slot(plan, k->hold);

		if (slot < 0)
			return slot;
		x->tier = slot;
		x->offset = k->offset;
	}
	return 0;
}

/* One scratch region for all: made by the first plan, grown by larger ones. */
static int size_scratch(struct tplan_join *j, u64 peak)
{
	struct tplan_hold *s = j->group->scratch;

	if (!peak)
		return 0;
	if (s)
		return tplan_hold_grow(s, peak);
	j->scratch = tplan_hold_alloc_first(j->tf->tdev, peak);
	if (IS_ERR(j->scratch)) {
		int ret = PTR_ERR(j->scratch);

		j->scratch = NULL;
		return ret;
	}
	return 0;
}

/* Nothing can fail any more: the group takes the prepared state. */
static void commit(struct tplan_join *j, struct tplan_plan *plan,
		   struct tplan_tensor *t, u32 n)
{
	struct tplan_group *g = j->group;
	u32 i, slot;

	for (i = 0; i < j->nkeys; i++)
		if (j->keys[i].hold == j->keep && j->keep)
			kref_get(&j->keep->ref);
	kvfree(g->keys);
	g->keys = j->keys;
	g->nkeys = j->nkeys;
	j->keys = NULL;
	if (j->scratch)
		g->scratch = j->scratch;
	j->scratch = NULL;
	if (g->scratch) {
		slot = g->scratch->pool;
		kref_get(&g->scratch->ref);
		plan->slots[slot] = g->scratch;
		for (i = 0; i < n; i++)
			if (!t[i].share_key)
				t[i].tier = slot;
	}
	g->members++;
	kref_get(&g->ref);
	plan->group = g;
	j->fresh = false;
}

static void join_cleanup(struct tplan_join *j)
{
	tplan_hold_put(j->keep);
	tplan_hold_put(j->scratch);
	kvfree(j->keys);
	kvfree(j->keyed);
	if (j->fresh) {
		xa_erase(&j->tf->groups, j->group->id);
		tplan_group_put(j->group);
	}
}

/**
 * tplan_group_join() - put a planned table into a serial group
 * @tf: the file
 * @id: the group's id, non-zero
 * @plan: the new plan, holding no region yet; it gets the group's scratch
 *        region and the kept regions its share_key tensors are in
 * @t: the table: tensors without share_key planned (their scratch peak is
 *     @peak); each tensor's tier becomes its mmap slot, and share_key ones
 *     get their offset in the kept region
 * @n: tensors in @t
 * @peak: the scratch the plan needs
 * @shared_bytes: out: bytes of share_key tensors stored anew
 *
 * Return: 0; -EINVAL when a share_key has another size in the group;
 * -ENOSPC when a region does not fit (the scratch region only grows in
 * place); -E2BIG when the plan would use more than
 * %TPLAN_PLAN_SLOTS - %TPLAN_KEEP_SLOT kept regions; -ENOMEM.  On error the
 * group is as it was.
 */
int tplan_group_join(struct tplan_file *tf, u32 id, struct tplan_plan *plan,
		     struct tplan_tensor *t, u32 n, u64 peak, u64 *shared_bytes)
{
	struct tplan_join j = { .tf = tf };
	u32 distinct;
	int ret;

	*shared_bytes = 0;
	mutex_lock(&tf->lock);
	ret = find_group(&j, id);
	if (ret)
		goto out;
	if (j.fresh) {
		ret = xa_insert(&tf->groups, id, j.group, GFP_KERNEL);
		if (ret) {
			kfree(j.group);
			j.fresh = false;
			goto out;
		}
	}
	ret = sort_keyed(&j, t, n, &distinct);
	if (!ret)
		ret = add_new_keys(&j, t, distinct, shared_bytes);
	if (!ret)
		ret = alloc_keep(&j, *shared_bytes);
	if (!ret)
		ret = place_keyed(&j, plan, t);
	if (!ret)
		ret = size_scratch(&j, peak);
	if (!ret)
		commit(&j, plan, t, n);
out:
	join_cleanup(&j);
	mutex_unlock(&tf->lock);
	return ret;
}
