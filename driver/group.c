// SPDX-License-Identifier: GPL-2.0
/*
 * group.c - serial groups: plans of one open file whose models run one at
 * a time.
 */

/**
 * DOC: Serial groups
 *
 * Purpose: plans of one open file whose models run one at a time share
 * memory.  They share one scratch region, sized to the largest scratch
 * among them (it grows in place, never moves), and store every share_key
 * tensor once, in kept regions that no scratch overlaps.  What a runtime
 * may assume (docs/DRIVER.md): a kept tensor keeps its contents across the
 * runs of every plan of the group that uses it; scratch holds whatever the
 * last run of any member left there, so a run writes each scratch tensor
 * before it reads it.
 *
 * A plan joins in three steps, all under the file's lock: prepare makes
 * everything that can fail ready (the new kept region, the key table, a
 * new scratch region) without touching the group, the caller writes the
 * offsets back to user memory, and commit grows the scratch region (the
 * only step that can still fail) and hands the prepared state to the
 * group.  So a failed submit, even one failing on its write-back, leaves
 * the group as it was.
 *
 * Cost: the keys are a red-black tree, 64 bytes a key, looked up in
 * O(log keys).  A join that stores keys makes one kept region and one
 * block for their keys (both sized to them) in prepare, and links the keys
 * into the tree at commit; a leave unlinks the block of a kept region no
 * plan uses any more and frees both.  A stored key never moves: no join
 * copies the keys it does not add (a sorted array merged anew at each join
 * copied and freed 21 MiB at 524k keys, which kept UML from scheduling for
 * tens of ms), and no key is an allocation of its own (a debug kernel's
 * slab triples the size of small objects).  A key is charged to the
 * caller and counted from the join that stores it to the leave that drops
 * it: the keys of one file's groups are capped by max_file_keys and those
 * of every file by max_device_keys (-E2BIG).  A group that only a released
 * plan's mapping or dma-buf keeps holds no keys (its last member left with
 * them).  Loops over keys yield every %TPLAN_KEY_YIELD keys.
 *
 * Locking: a group and its keys change only under &tplan_client.lock, as do
 * the kept regions' user counts.
 *
 * Ownership: the file's group table holds one reference while the group
 * has members, each member plan one more.  A key holds a reference on its
 * kept region; a kept region lives while a plan of the group uses it: its
 * keys are dropped with the last such plan.  When the last member leaves,
 * the file forgets the group.
 */
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "planner.h"
#include "client.h"
#include "group.h"
#include "hold.h"
#include "plan.h"
#include "arena.h"

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
 * @runs: the key of each run of @keyed sharing one: the group's, or one of
 *        @block
 * @nruns: entries in @runs
 * @block: the keys new to the group, linked in at commit; or NULL
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
	struct tplan_key **runs;
	u32 nruns;
	struct tplan_key_block *block;
	u32 added;
	struct tplan_hold *keep;
	struct tplan_hold *scratch;
};

/* Loops over keys yield this often: a table may hold 2^24 of them. */
#define TPLAN_KEY_YIELD		1024

static void group_free(struct kref *ref)
{
	struct tplan_group *group = container_of(ref, struct tplan_group, ref);
	struct tplan_key_block *b, *next;

	list_for_each_entry_safe(b, next, &group->blocks, link) {
		tplan_hold_put(b->hold);
		kvfree(b);
	}
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

/* Give back @n keys charged to the file and the device. */
static void uncharge_keys(struct tplan_client *client, u32 n)
{
	client->keys -= n;
	atomic64_sub(n, &client->arena->keys);
}

/* Forget the keys stored in @hold, their block's reference on it and their charge. */
static void drop_keys_in(struct tplan_client *client, struct tplan_group *g,
			 struct tplan_hold *hold)
{
	struct tplan_key_block *b;
	u32 i;

	list_for_each_entry(b, &g->blocks, link) {
		if (b->hold != hold)
			continue;
		for (i = 0; i < b->n; i++) {
			rb_erase(&b->keys[i].node, &g->keys);
			if (!(i % TPLAN_KEY_YIELD))
				cond_resched();
		}
		list_del(&b->link);
		uncharge_keys(client, b->n);
		tplan_hold_put(hold);
		kvfree(b);
		return;
	}
}

/**
 * tplan_group_leave() - the file gives up one plan of a group
 * @client: the file, its lock held
 * @plan: a plan of the group
 *
 * A kept region no other plan of the group uses loses its keys: a later
 * plan with those keys stores them anew (no key is left once the last
 * member is gone).  When the last member
 * leaves, the file forgets the group: a later submit with its id starts a
 * new one.  Mapped plans keep their memory until unmapped.
 */
void tplan_group_leave(struct tplan_client *client, struct tplan_arena_plan *plan)
{
	struct tplan_group *group = plan->group;
	u32 s;

	lockdep_assert_held(&client->lock);
	for (s = TPLAN_KEEP_SLOT; s < TPLAN_PLAN_SLOTS; s++) {
		struct tplan_hold *hold = plan->slots[s];

		if (hold && !--hold->users)
			drop_keys_in(client, group, hold);
	}
	if (--group->members)
		return;
	xa_erase(&client->groups, group->id);
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

static int key_cmp(const void *key, const struct rb_node *node)
{
	u64 want = *(const u64 *)key;
	u64 have = rb_entry(node, struct tplan_key, node)->share_key;

	return want < have ? -1 : want > have;
}

static bool key_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct tplan_key, node)->share_key <
	       rb_entry(b, struct tplan_key, node)->share_key;
}

/* The group's key of that value, or NULL. */
static struct tplan_key *find_key(const struct tplan_group *g, u64 key)
{
	struct rb_node *node = rb_find(&key, &g->keys, key_cmp);

	return node ? rb_entry(node, struct tplan_key, node) : NULL;
}

/* The existing group of that id, or a new one, in the file's table. */
static int find_group(struct tplan_join *j)
{
	int ret;

	j->group = xa_load(&j->client->groups, j->id);
	if (j->group)
		return 0;
	j->group = kzalloc(sizeof(*j->group), GFP_KERNEL_ACCOUNT);
	if (!j->group)
		return -ENOMEM;
	kref_init(&j->group->ref);
	INIT_LIST_HEAD(&j->group->blocks);
	j->group->id = j->id;
	ret = xa_insert(&j->client->groups, j->id, j->group, GFP_KERNEL_ACCOUNT);
	if (ret) {
		kfree(j->group);
		j->group = NULL;
		return ret;
	}
	j->fresh = true;
	return 0;
}

/* A tensor the group keeps: a share_key tensor that has bytes. */
static bool kept(const struct tplan_tensor *x, u32 unused)
{
	return x->share_key && x->size;
}

/* A tensor in the group's scratch region. */
static bool scratch_tensor(const struct tplan_tensor *x, u32 unused)
{
	return !x->share_key;
}

/**
 * tplan_group_sort() - list the kept tensors by key; before the file lock
 * @j: the join, with @t and @n set
 *
 * Return: 0 or -ENOMEM.
 */
static int tplan_group_sort(struct tplan_join *j)
{
	u32 i;

	j->keyed = tplan_alloc_array(max(j->n, 1U), sizeof(*j->keyed));
	if (!j->keyed)
		return -ENOMEM;
	for (i = 0; i < j->n; i++) {
		tplan_yield_every(i);
		if (kept(&j->t[i], 0))
			j->keyed[j->nkeyed++] = i;
	}
	tplan_sort(j->keyed, j->nkeyed, sizeof(*j->keyed), cmp_keyed, j->t);
	return 0;
}

/*
 * Check one key of the table, tensors keyed[from..to), against the group:
 * an existing key must have their size, its pool must be allowed and its
 * placement must have their alignment.  Its largest alignment is returned.
 */
static int check_key(struct tplan_join *j, u32 from, u32 to,
		     const struct tplan_key *k, u64 *align)
{
	u32 i;

	*align = 1;
	for (i = from; i < to; i++) {
		const struct tplan_tensor *x = &j->t[j->keyed[i]];

		*align = max(*align, x->alignment);
		if (!k)
			continue;
		if (k->size != x->size || x->alignment > k->align ||
		    (x->tiers && !(x->tiers & BIT(k->hold->pool))))
			return -EINVAL;
	}
	return 0;
}

/* The end of the run of keyed tensors sharing the key of keyed[@i]. */
static u32 key_run_end(const struct tplan_join *j, u32 i)
{
	u64 key = j->t[j->keyed[i]].share_key;

	while (++i < j->nkeyed && j->t[j->keyed[i]].share_key == key)
		;
	return i;
}

/*
 * Count the keys the plan uses (*@runs) and those the group lacks, and
 * reserve these against the file's and the device's caps (-E2BIG when
 * either would be passed).
 */
static int reserve_new_keys(struct tplan_join *j, u32 *runs)
{
	const struct tplan_limits *lim = &j->client->arena->limits;
	atomic64_t *dev_keys = &j->client->arena->keys;
	u32 i, added = 0;

	*runs = 0;
	for (i = 0; i < j->nkeyed; i = key_run_end(j, i)) {
		if (!find_key(j->group, j->t[j->keyed[i]].share_key))
			added++;
		if (!(++*runs % TPLAN_KEY_YIELD))
			cond_resched();
	}
	if (j->client->keys + added > lim->max_file_keys)
		return -E2BIG;
	if (atomic64_add_return(added, dev_keys) > lim->max_device_keys) {
		atomic64_sub(added, dev_keys);
		return -E2BIG;
	}
	j->added = added;
	return 0;
}

/* A key the group lacks, in the join's block; its kept region comes later. */
static struct tplan_key *new_key(struct tplan_join *j,
				 const struct tplan_tensor *x, u64 align,
				 u64 *end)
{
	struct tplan_key *k = &j->block->keys[j->block->n++];

	k->share_key = x->share_key;
	k->size = x->size;
	k->align = align;
	k->offset = ALIGN(*end, align);
	*end = k->offset + x->size;
	return k;
}

/*
 * Find or make the key of each run of kept tensors, the new ones laid out
 * one after the other for one new kept region of *@bytes, aligned to
 * *@align.  The new keys are reserved against the caps.
 */
static int add_new_keys(struct tplan_join *j, u64 *bytes, u64 *align)
{
	u32 i, next, runs;
	u64 end = 0;
	int ret;

	*align = 1;
	*bytes = 0;
	ret = reserve_new_keys(j, &runs);
	if (ret)
		return ret;
	j->runs = tplan_alloc_array(max(runs, 1U), sizeof(*j->runs));
	if (!j->runs)
		return -ENOMEM;
	if (j->added) {
		/* the caps bound it: it outlives the submit, so is not metered */
		j->block = kvzalloc(struct_size(j->block, keys, j->added),
				    GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
		if (!j->block)
			return -ENOMEM;
	}
	for (i = 0; i < j->nkeyed; i = next) {
		const struct tplan_tensor *x = &j->t[j->keyed[i]];
		struct tplan_key *k = find_key(j->group, x->share_key);
		u64 key_align;

		next = key_run_end(j, i);
		ret = check_key(j, i, next, k, &key_align);
		if (ret)
			return ret;
		cond_resched();
		if (!k) {
			k = new_key(j, x, key_align, &end);
			*align = max(*align, key_align);
		}
		j->runs[j->nruns++] = k;
	}
	*bytes = end;
	return 0;
}

/* The new kept region; the block of new keys will hold a reference on it. */
static int alloc_keep(struct tplan_join *j, u64 bytes, u64 align)
{
	u64 any_align;
	u32 i, pools = tplan_tensors_need(j->t, j->n, kept, 0, &any_align);

	if (!bytes)
		return 0;
	/* new keys are laid out with their own alignments: @align */
	j->keep = tplan_hold_alloc_first(j->client->arena, bytes, align, pools);
	if (IS_ERR(j->keep)) {
		int ret = PTR_ERR(j->keep);

		j->keep = NULL;
		return ret;
	}
	j->block->hold = j->keep;
	for (i = 0; i < j->block->n; i++) {
		tplan_yield_every(i);
		j->block->keys[i].hold = j->keep;
	}
	return 0;
}

/* The plan's slot for a kept region, taking one if needed. */
static int keep_slot(struct tplan_arena_plan *plan, struct tplan_hold *hold)
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

/*
 * Give every share_key tensor its place: tier = its kept region's slot,
 * offset in it.  An empty one holds no bytes: no slot, offset 0.
 */
static int place_keyed(struct tplan_join *j)
{
	u32 i, r, next;

	for (i = 0; i < j->n; i++) {
		tplan_yield_every(i);
		if (j->t[i].share_key) {
			j->t[i].offset = 0;
			j->t[i].tier = TPLAN_NO_SLOT;
		}
	}
	for (i = 0, r = 0; i < j->nkeyed; i = next, r++) {
		const struct tplan_key *k = j->runs[r];
		int slot = keep_slot(j->plan, k->hold);

		if (slot < 0)
			return slot;
		tplan_yield_every(r);
		for (next = key_run_end(j, i); i < next; i++) {
			j->t[j->keyed[i]].tier = slot;
			j->t[j->keyed[i]].offset = k->offset;
		}
	}
	return 0;
}

/*
 * The group's one scratch region: made by its first plan that needs one;
 * a later plan must have its alignment and allowed pool (it grows in
 * commit).  The plan's scratch tensors are in its slot.
 */
static int prepare_scratch(struct tplan_join *j)
{
	struct tplan_hold *s = j->group->scratch;
	u64 align;
	u32 pools = tplan_tensors_need(j->t, j->n, scratch_tensor, 0, &align);
	u32 i;

	if (!j->peak)
		return 0;
	if (!s) {
		s = tplan_hold_alloc_first(j->client->arena, j->peak, align, pools);
		if (IS_ERR(s))
			return PTR_ERR(s);
		j->scratch = s;
	} else if (!IS_ALIGNED(s->region->start, align) ||
		   !(pools & BIT(s->pool))) {
		return -EINVAL;
	}
	kref_get(&s->ref);
	j->plan->slots[s->pool] = s;
	for (i = 0; i < j->n; i++) {
		tplan_yield_every(i);
		if (scratch_tensor(&j->t[i], 0))
			j->t[i].tier = s->pool;
	}
	return 0;
}

/**
 * tplan_group_prepare() - make a plan's joining ready; the group unchanged
 * @j: the join, sorted by tplan_group_sort(); the file's lock held
 *
 * Gives the plan its kept and scratch regions and every tensor its place
 * (tier = the plan's slot holding it, %TPLAN_NO_SLOT for an empty
 * share_key tensor; offset).
 *
 * Return: 0; -EINVAL when a share_key has another size in the group, or
 * needs more alignment than it was placed with, or a tensor's pools do not
 * allow the group's region; -ENOSPC when a region does not fit; -E2BIG
 * when the plan would use more than %TPLAN_PLAN_SLOTS - %TPLAN_KEEP_SLOT
 * kept regions; -ENOMEM.
 */
static int tplan_group_prepare(struct tplan_join *j)
{
	u64 bytes, align;
	int ret;

	lockdep_assert_held(&j->client->lock);
	ret = find_group(j);
	if (!ret)
		ret = add_new_keys(j, &bytes, &align);
	if (!ret)
		ret = alloc_keep(j, bytes, align);
	if (!ret)
		j->shared_bytes = bytes;
	if (!ret)
		ret = place_keyed(j);
	if (!ret)
		ret = prepare_scratch(j);
	return ret;
}

/**
 * tplan_group_commit() - the group takes the prepared plan
 * @j: a prepared join; the file's lock still held
 *
 * Return: 0, or -ENOSPC when the scratch region cannot grow in place (it
 * never moves): then the group is as it was.
 */
static int tplan_group_commit(struct tplan_join *j)
{
	struct tplan_group *g = j->group;
	u32 i, s;
	int ret;

	lockdep_assert_held(&j->client->lock);
	if (g->scratch && j->peak) {
		ret = tplan_hold_grow(g->scratch, j->peak);
		if (ret)
			return ret;
	}
	if (j->block) {
		for (i = 0; i < j->block->n; i++) {
			tplan_yield_every(i);
			rb_add(&j->block->keys[i].node, &g->keys, key_less);
		}
		kref_get(&j->block->hold->ref);
		list_add(&j->block->link, &g->blocks);
		j->block = NULL;
	}
	j->client->keys += j->added;
	j->added = 0;		/* the device's count keeps them */
	if (j->scratch)
		g->scratch = j->scratch;
	j->scratch = NULL;
	for (s = TPLAN_KEEP_SLOT; s < TPLAN_PLAN_SLOTS; s++)
		if (j->plan->slots[s])
			j->plan->slots[s]->users++;
	g->members++;
	kref_get(&g->ref);
	j->plan->group = g;
	j->fresh = false;
	return 0;
}

/**
 * tplan_group_end() - free what a join prepared and the group did not take
 * @j: the join; the file's lock still held
 *
 * The plan's own references (its slots) go with the plan.
 */
static void tplan_group_end(struct tplan_join *j)
{
	tplan_hold_put(j->keep);
	tplan_hold_put(j->scratch);
	atomic64_sub(j->added, &j->client->arena->keys);
	kvfree(j->block);
	tplan_free(j->runs);
	tplan_free(j->keyed);
	if (j->fresh) {
		xa_erase(&j->client->groups, j->group->id);
		tplan_group_put(j->group);
	}
}

/**
 * tplan_group_join() - put a new plan into its client's serial group
 * @client: the client
 * @group: the group's id, non-zero
 * @t: the plan's table, its scratch tensors planned; on success each
 *     tensor's offset is its place in its region and its tier the plan's
 *     slot for that region (%TPLAN_NO_SLOT for an empty kept tensor)
 * @n: tensors in @t
 * @plan: the new plan, with no region yet
 * @peak: bytes its scratch tensors need
 * @place: called with the places before the join commits, or NULL; its
 *         failure leaves the group as it was
 * @ctx: passed to @place
 * @shared_bytes: out: bytes of share_key tensors new to the group
 *
 * The client's lock is held throughout, @place included, so that a
 * failure at any step (a fault on a caller's memory too) leaves the group
 * as it was.
 *
 * Return: 0; -EINTR; -E2BIG past a key cap; -EINVAL for a key of another
 * size; -ENOSPC; -ENOMEM; or @place's errno.
 */
int tplan_group_join(struct tplan_client *client, u32 group,
		     struct tplan_tensor *t, u32 n,
		     struct tplan_arena_plan *plan, u64 peak,
		     tplan_place_fn place, void *ctx, u64 *shared_bytes)
{
	struct tplan_join j = {
		.client = client, .id = group, .plan = plan, .t = t, .n = n,
		.peak = peak,
	};
	int ret;

	ret = tplan_group_sort(&j);
	if (ret)
		goto out;
	ret = mutex_lock_interruptible(&client->lock);
	if (ret)
		goto out;
	ret = tplan_group_prepare(&j);
	if (!ret && place)
		ret = place(ctx, t, plan);
	if (!ret)
		ret = tplan_group_commit(&j);
	if (!ret)
		*shared_bytes = j.shared_bytes;
	tplan_group_end(&j);
	mutex_unlock(&client->lock);
	return ret;
out:
	tplan_free(j.keyed);
	return ret;
}
