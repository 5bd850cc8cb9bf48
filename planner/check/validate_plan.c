// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * validate_plan.c - checks a plan with everything the options ask for:
 * alias groups, tiers, several models and share_key groups.
 *
 * It shares no code with the stages that make plans, so that a mistake in
 * one is not repeated in the other: only the input rules (table_check.c),
 * which both must obey, and tplan_validate(), the plain overlap sweep.
 *
 * Each alias group becomes one block: its owner's bytes, alive from the
 * group's first step to its last.  Then two tensors of one tier collide
 * when their bytes overlap and
 *  - they are scratch of one model alive at one step: each (tier, model)
 *    gets its own stretch of time and tplan_validate() sweeps them all;
 *  - or either is persistent (a share_key, other than the other's), or they
 *    are scratch of different concurrent models: whatever the time, so a
 *    sweep over addresses finds them.
 * Scratch of different serial models never collide: they take turns.
 */
#include "core/internal.h"

#define NONE	(~(u32)0)

/**
 * struct plan_check - what checking one plan needs, allocated once
 * @t: the plan
 * @n: tensors in it
 * @order: indices, sorted as each step needs
 * @owner: with aliases, each tensor's direct owner (or NONE); then, for a
 *         group's owner, its block
 * @root: the owner of each tensor's alias group (itself if none)
 * @blocks: one tensor per alias group, then the scratch ones alone
 * @table: block -> index of the tensor that owns it
 * @count: entries in @blocks
 * @gaps: the tensors' gaps (NULL: none)
 */
struct plan_check {
	const struct tplan_tensor *t;
	u32 n;
	u32 *order;
	u32 *owner;
	u32 *root;
	struct tplan_tensor *blocks;
	u32 *table;
	u32 count;
	const struct tplan_gap *gaps;
};

/* Tier, alignment and room of every tensor. */
static int check_places(const struct tplan_tensor *t, u32 n,
			const struct tplan_tiers *tiers, struct tplan_finding *f)
{
	u32 i;

	for (i = 0; i < n; i++) {
		const struct tplan_tensor *x = &t[i];
		u64 room;

		if (x->tier >= tiers->count ||
		    !(tplan_allowed_tiers(x, tiers->count) & BIT(x->tier)))
			return tplan_defect(f, TPLAN_DEFECT_TIER_WRONG, i, i);
		if (x->offset & (tplan_alignment(x) - 1))
			return tplan_defect(f, TPLAN_DEFECT_MISALIGNED, i, i);
		room = tiers->room[x->tier];
		if (x->offset > room || x->size > room - x->offset)
			return tplan_defect(f, TPLAN_DEFECT_CAPACITY, i, i);
	}
	return 0;
}

static int cmp_key(const void *a, const void *b, const void *priv)
{
	const struct tplan_tensor *t = priv;

	return tplan_cmp_key(&t[*(const u32 *)a], &t[*(const u32 *)b]);
}

/* The tensor with @x's model and the id @x aliases, or NONE. */
static u32 lookup_owner(const struct plan_check *c,
			const struct tplan_tensor *x)
{
	struct tplan_tensor key = { .model = x->model, .id = x->alias_of };
	u32 lo = 0, hi = c->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (tplan_cmp_key(&c->t[c->order[mid]], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->n && !tplan_cmp_key(&c->t[c->order[lo]], &key))
		return c->order[lo];
	return NONE;
}

/*
 * Every alias at its owner's offset plus its alias_offset, in its owner's
 * tier; then each tensor's group owner, walking up without recursion (the
 * input rules exclude cycles) and remembering each answer.
 */
static int check_aliases(struct plan_check *c, bool aliases,
			 struct tplan_finding *f)
{
	const struct tplan_tensor *t = c->t;
	u32 i, x, len;

	for (i = 0; i < c->n; i++) {
		c->order[i] = i;
		c->owner[i] = NONE;
		c->root[i] = NONE;
	}
	tplan_sort(c->order, c->n, sizeof(*c->order), cmp_key, t);
	for (i = 0; aliases && i < c->n; i++) {
		if (!(t[i].flags & TPLAN_TENSOR_ALIAS))
			continue;
		x = lookup_owner(c, &t[i]);
		if (x == NONE)
			return tplan_defect(f, TPLAN_DEFECT_ALIAS_UNKNOWN, i, i);
		if (t[i].offset != t[x].offset + t[i].alias_offset ||
		    t[i].tier != t[x].tier)
			return tplan_defect(f, TPLAN_DEFECT_ALIAS_MISPLACED, i, x);
		c->owner[i] = x;
	}
	for (i = 0; i < c->n; i++) {
		for (len = 0, x = i; c->root[x] == NONE && c->owner[x] != NONE;
		     x = c->owner[x])
			c->order[len++] = x;
		if (c->root[x] == NONE)
			c->root[x] = x;
		while (len--)
			c->root[c->order[len]] = c->root[x];
	}
	return 0;
}

static int cmp_share_key(const void *a, const void *b, const void *priv)
{
	const struct tplan_tensor *t = priv;
	u32 ia = *(const u32 *)a, ib = *(const u32 *)b;
	int c = tplan_cmp_u64(t[ia].share_key, t[ib].share_key);

	return c ? c : tplan_cmp_u64(ia, ib);
}

/* The tensors of one share_key all at the place of the first of them. */
static int check_shares(struct plan_check *c, struct tplan_finding *f)
{
	const struct tplan_tensor *t = c->t;
	u32 i, count = 0, first = 0;

	for (i = 0; i < c->n; i++)
		if (t[i].share_key)
			c->order[count++] = i;
	tplan_sort(c->order, count, sizeof(*c->order), cmp_share_key, t);
	for (i = 0; i < count; i++) {
		const struct tplan_tensor *x = &t[c->order[i]];

		if (!i || x->share_key != t[first].share_key) {
			first = c->order[i];
			continue;
		}
		if (x->offset != t[first].offset || x->tier != t[first].tier)
			return tplan_defect(f, TPLAN_DEFECT_SHARE_MISPLACED,
					    c->order[i], first);
	}
	return 0;
}

/* One block per alias group: its owner, alive over the whole group. */
static void make_blocks(struct plan_check *c)
{
	u32 i;

	c->count = 0;
	for (i = 0; i < c->n; i++) {
		if (c->root[i] != i)
			continue;
		c->owner[i] = c->count;
		c->table[c->count] = i;
		c->blocks[c->count++] = c->t[i];
	}
	for (i = 0; i < c->n; i++) {
		struct tplan_tensor *b = &c->blocks[c->owner[c->root[i]]];

		b->lower = min(b->lower, c->t[i].lower);
		b->upper = max(b->upper, c->t[i].upper);
	}
}

/* By tier, then model, then place in the kept blocks (the id, for now). */
static int cmp_tier_model(const void *a, const void *b, const void *priv)
{
	const struct tplan_tensor *x = a, *y = b;
	int c = tplan_cmp_u64(x->tier, y->tier);

	if (!c)
		c = tplan_cmp_u64(x->model, y->model);
	return c ? c : tplan_cmp_u64(x->id, y->id);
}

/*
 * The gaps of blocks @b[0..@k), copied in their order and renumbered.  A
 * block with gaps is a tensor alone (no alias group has gaps), so its
 * gap_first still points into the table's gaps.
 */
static int copy_gaps(const struct plan_check *c, struct tplan_tensor *b, u32 k,
		     struct tplan_gap **out, u32 *count)
{
	u64 total = 0;
	u32 i, at = 0;

	*out = NULL;
	*count = 0;
	for (i = 0; i < k; i++)
		total += b[i].gap_count;
	if (!total)
		return 0;
	if (total > 0xffffffffull)
		return -E2BIG;
	*out = tplan_alloc_array(total, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (i = 0; i < k; i++) {
		memcpy(*out + at, c->gaps + b[i].gap_first,
		       b[i].gap_count * sizeof(**out));
		b[i].gap_first = at;
		at += b[i].gap_count;
	}
	*count = at;
	return 0;
}

/* Blocks @b[0..@k) of one tier and model: none may share a byte at a step. */
static int check_group(const struct plan_check *c, struct tplan_tensor *b,
		       u32 k, struct tplan_finding *f)
{
	struct tplan_gap *gaps;
	u32 gap_count, i;
	int ret = copy_gaps(c, b, k, &gaps, &gap_count);

	if (ret)
		return ret;
	for (i = 0; i < k; i++) {
		b[i].flags = 0;
		b[i].alias_of = 0;
		b[i].alias_offset = 0;
	}
	ret = tplan_validate_gaps(b, k, gaps, gap_count, 0, f);
	tplan_free(gaps);
	if (ret == -EINVAL) {
		f->index = c->table[b[f->index].id];
		f->other = c->table[b[f->other].id];
	}
	return ret;
}

/*
 * Scratch blocks alive at one step of one model and tier: keep only them
 * and sweep each (tier, model) on its own (steps are not shifted apart:
 * they may be as large as 2^64 - 1).  @c->table maps the kept blocks to
 * the table.
 */
static int check_in_time(struct plan_check *c, struct tplan_finding *f)
{
	struct tplan_tensor *b = c->blocks;
	u32 i, k = 0, from;
	int ret = 0;

	for (i = 0; i < c->count; i++) {
		if (b[i].share_key)
			continue;
		c->table[k] = c->table[i];
		b[k] = b[i];
		b[k].id = k;
		k++;
	}
	tplan_sort(b, k, sizeof(*b), cmp_tier_model, NULL);
	for (from = 0; from < k && !ret; from = i) {
		for (i = from + 1; i < k && b[i].tier == b[from].tier &&
		     b[i].model == b[from].model; i++)
			;
		ret = check_group(c, b + from, i - from, f);
	}
	return ret;
}

/*
 * Who may never share a byte with whom, whatever the time: blocks of
 * different groups.  A share_key is a group; scratch is one group per
 * concurrent model, one for all serial ones.
 */
static bool same_group(const struct tplan_tensor *a,
		       const struct tplan_tensor *b, bool serial)
{
	if (a->share_key || b->share_key)
		return a->share_key == b->share_key;
	return serial || a->model == b->model;
}

static int cmp_tier_offset(const void *a, const void *b, const void *priv)
{
	const struct tplan_tensor *v = priv;
	u32 ia = *(const u32 *)a, ib = *(const u32 *)b;
	int c = tplan_cmp_u64(v[ia].tier, v[ib].tier);

	if (!c)
		c = tplan_cmp_u64(v[ia].offset, v[ib].offset);
	return c ? c : tplan_cmp_u64(ia, ib);
}

static u64 end_of(const struct tplan_tensor *x)
{
	return x->offset + x->size;
}

/*
 * In address order, a block collides with an earlier one of another group
 * exactly when the furthest end among the other groups' blocks passes its
 * start; the furthest ends of two different groups answer that for any
 * group.
 */
static int check_apart(struct plan_check *c, bool serial,
		       struct tplan_finding *f)
{
	const struct tplan_tensor *b = c->blocks;
	u32 i, count = 0, best = NONE, second = NONE, x, other;

	for (i = 0; i < c->count; i++)
		if (b[i].size)
			c->root[count++] = i;
	tplan_sort(c->root, count, sizeof(*c->root), cmp_tier_offset, b);
	for (i = 0; i < count; i++) {
		x = c->root[i];
		if (i && b[x].tier != b[c->root[i - 1]].tier) {
			best = NONE;
			second = NONE;
		}
		other = best != NONE && !same_group(&b[best], &b[x], serial) ?
			best : second;
		if (other != NONE && end_of(&b[other]) > b[x].offset)
			return tplan_defect(f, TPLAN_DEFECT_OVERLAP,
					    c->table[other], c->table[x]);
		if (best != NONE && same_group(&b[best], &b[x], serial)) {
			if (end_of(&b[x]) > end_of(&b[best]))
				best = x;
		} else if (best == NONE || end_of(&b[x]) > end_of(&b[best])) {
			second = best;
			best = x;
		} else if (second == NONE || end_of(&b[x]) > end_of(&b[second])) {
			second = x;
		}
	}
	return 0;
}

static void check_free(struct plan_check *c)
{
	tplan_free(c->order);
	tplan_free(c->owner);
	tplan_free(c->root);
	tplan_free(c->blocks);
	tplan_free(c->table);
}

static int check_alloc(struct plan_check *c, const struct tplan_tensor *t,
		       u32 n)
{
	c->t = t;
	c->n = n;
	c->order = tplan_alloc_array(n, sizeof(*c->order));
	c->owner = tplan_alloc_array(n, sizeof(*c->owner));
	c->root = tplan_alloc_array(n, sizeof(*c->root));
	c->blocks = tplan_alloc_array(n, sizeof(*c->blocks));
	c->table = tplan_alloc_array(n, sizeof(*c->table));
	if (c->order && c->owner && c->root && c->blocks && c->table)
		return 0;
	check_free(c);
	return -ENOMEM;
}

/**
 * tplan_validate_plan() - check a plan made with the given options
 * @t: the planned tensors (offset and tier of each)
 * @n: how many
 * @opts: the options it was planned with: tiers and their capacity (or the
 *        capacity), %TPLAN_PLAN_ALIASES, %TPLAN_PLAN_SERIAL
 * @finding: the first defect found (defect NONE if none)
 *
 * Checks the input as tplan_plan() does (tplan_check_input()), then that
 * every tensor sits in a tier it may use (TIER_WRONG), aligned and within
 * that tier's capacity; alias members at their owners' places; the tensors
 * of a share_key at one place (SHARE_MISPLACED); and that no two tensors
 * share a byte of one tier while both may be alive: at the same step of one
 * model, at any step when one is persistent (share_key) or when they belong
 * to different concurrent models.  Findings name an alias group by its
 * owner.  About 130 bytes per tensor, O(n log n).
 *
 * Return: 0 for a valid plan, -EINVAL or -EOVERFLOW with @finding filled
 * (bad options: defect NONE), -ENOMEM.
 */
int tplan_validate_plan(const struct tplan_tensor *t, u32 n,
			const struct tplan_options *opts,
			struct tplan_finding *finding)
{
	bool serial = opts->flags & TPLAN_PLAN_SERIAL;
	struct tplan_tiers tiers;
	struct plan_check c;
	int ret;

	memset(finding, 0, sizeof(*finding));
	if (tplan_tiers_from_options(opts, &tiers) ||
	    (opts->flags & ~TPLAN_PLAN_KNOWN_FLAGS))
		return -EINVAL;
	ret = tplan_check_input_for(t, n, opts, false, finding);
	if (!ret)
		ret = check_places(t, n, &tiers, finding);
	if (ret)
		return ret;
	ret = check_alloc(&c, t, n);
	if (ret)
		return ret;
	c.gaps = opts->gaps;
	ret = check_aliases(&c, opts->flags & TPLAN_PLAN_ALIASES, finding);
	if (!ret)
		ret = check_shares(&c, finding);
	if (!ret) {
		make_blocks(&c);
		ret = check_apart(&c, serial, finding);
	}
	if (!ret)
		ret = check_in_time(&c, finding);
	check_free(&c);
	return ret;
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_validate_plan);

/**
 * tplan_validate_aliases() - check a plan that honours alias groups
 * @t: the planned tensors
 * @n: how many
 * @capacity: bytes available; 0 means unlimited
 * @finding: the first defect found
 *
 * tplan_validate_plan() for one tier of @capacity bytes with
 * %TPLAN_PLAN_ALIASES: every member must sit at its owner's offset plus its
 * place inside it (ALIAS_MISPLACED otherwise); the groups, folded, must then
 * be a valid plan (findings named by the groups' owners).
 *
 * Return: 0 for a valid plan, -EINVAL or -EOVERFLOW with @finding filled,
 * -ENOMEM.
 */
int tplan_validate_aliases(const struct tplan_tensor *t, u32 n, u64 capacity,
			   struct tplan_finding *finding)
{
	struct tplan_options opts = {
		.capacity = capacity,
		.flags = TPLAN_PLAN_ALIASES,
	};

	return tplan_validate_plan(t, n, &opts, finding);
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_validate_aliases);
