// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * alias.c - the stage for in-place aliases: a reshape takes its input's block,
 * concat inputs sit at offsets inside the output's block, split outputs at
 * offsets inside the input's block.  Each alias group (an owner and every
 * tensor aliasing it, directly or through others) is folded into one block:
 * the owner's size, alive from the group's first step to its last.  The
 * folded table goes to the next stage like any other; every member then
 * sits at its owner's offset plus its place inside it.
 */
#include "core/internal.h"

#define NONE	(~(u32)0)

static int cmp_id(const void *a, const void *b, const void *priv)
{
	const struct tplan_tensor *t = priv;

	return tplan_cmp_key(&t[*(const u32 *)a], &t[*(const u32 *)b]);
}

/* The index of the tensor @x aliases (same model, id alias_of), or NONE. */
static u32 find_owner(const struct tplan_tensor *t, const u32 *by_id, u32 n,
		      const struct tplan_tensor *x)
{
	struct tplan_tensor key = { .model = x->model, .id = x->alias_of };
	u32 lo = 0, hi = n;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (tplan_cmp_key(&t[by_id[mid]], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !tplan_cmp_key(&t[by_id[lo]], &key) ? by_id[lo] : NONE;
}

/* Each tensor's direct owner (or NONE), checking that it exists and fits. */
static int find_owners(const struct tplan_tensor *t, u32 n, u32 *owner,
		       u32 *by_id, struct tplan_finding *f)
{
	u32 i;

	for (i = 0; i < n; i++)
		by_id[i] = i;
	tplan_sort(by_id, n, sizeof(*by_id), cmp_id, t);
	for (i = 0; i < n; i++) {
		const struct tplan_tensor *x = &t[i];
		u64 end;

		owner[i] = NONE;
		if (!(x->flags & TPLAN_TENSOR_ALIAS))
			continue;
		owner[i] = find_owner(t, by_id, n, x);
		if (owner[i] == NONE || owner[i] == i)
			return tplan_defect(f, owner[i] == i ? TPLAN_DEFECT_ALIAS_CYCLE :
				      TPLAN_DEFECT_ALIAS_UNKNOWN, i, i);
		if (check_add_overflow(x->alias_offset, x->size, &end) ||
		    end > t[owner[i]].size)
			return tplan_defect(f, TPLAN_DEFECT_ALIAS_OUTSIDE, i, owner[i]);
	}
	return 0;
}

/*
 * Root and place inside the root of every tensor, without recursion: walk
 * up from each unresolved tensor, remembering the path, until a resolved
 * one or a root; then resolve the path downwards.  A walk longer than n
 * steps, or one that meets its own path, is a cycle.
 */
static int resolve_roots(struct tplan_alias_map *m, const struct tplan_tensor *t,
			 u32 n, const u32 *owner, u32 *path,
			 struct tplan_finding *f)
{
	u32 i, len, x;

	for (i = 0; i < n; i++)
		m->root[i] = NONE;
	for (i = 0; i < n; i++) {
		for (len = 0, x = i; m->root[x] == NONE && owner[x] != NONE;
		     x = owner[x]) {
			if (len == n)	/* x is on the cycle by now */
				return tplan_defect(f, TPLAN_DEFECT_ALIAS_CYCLE, x,
					      owner[x]);
			path[len++] = x;
		}
		if (m->root[x] == NONE) {	/* x is a root */
			m->root[x] = x;
			m->rel[x] = 0;
		}
		while (len--) {
			u32 y = path[len];

			m->root[y] = m->root[owner[y]];
			m->rel[y] = m->rel[owner[y]] + t[y].alias_offset;
			if (m->rel[y] & (tplan_alignment(&t[y]) - 1))
				return tplan_defect(f, TPLAN_DEFECT_ALIAS_MISALIGNED, y,
					      owner[y]);
		}
	}
	return 0;
}

/*
 * Widen the folded block @b to cover member @x: its lifetime, alignment,
 * allowed tiers and priority (the block is worth its keenest member).
 */
static int cover(struct tplan_tensor *b, const struct tplan_tensor *x)
{
	u32 tiers = tplan_common_tiers(b->tiers, x->tiers);

	if (x->share_key)
		return TPLAN_DEFECT_SHARE_ALIAS;
	if ((b->tiers || x->tiers) && !tiers)
		return TPLAN_DEFECT_TIER_CONFLICT;
	b->tiers = tiers;
	b->lower = min(b->lower, x->lower);
	b->upper = max(b->upper, x->upper);
	b->alignment = max(tplan_alignment(b), tplan_alignment(x));
	b->priority = max(b->priority, x->priority);
	return TPLAN_DEFECT_NONE;
}

/*
 * A group's block is pinned where a pinned member puts it (all of them
 * must agree) and hinted where the first hinted member would like it; no
 * member of a group of several may have gaps.
 */
static u32 cover_constrained(struct tplan_tensor *b,
			     const struct tplan_tensor *x,
			     const struct tplan_tensor *root, u64 rel)
{
	if (x->gap_count || root->gap_count)
		return TPLAN_DEFECT_GAP_ALIAS;
	if (x->flags & TPLAN_TENSOR_PINNED) {
		if (x->offset < rel || ((b->flags & TPLAN_TENSOR_PINNED) &&
					b->offset != x->offset - rel))
			return TPLAN_DEFECT_PIN_ALIAS;
		b->offset = x->offset - rel;
		b->flags |= TPLAN_TENSOR_PINNED;
	}
	if ((x->flags & TPLAN_TENSOR_HINT) && !(b->flags & TPLAN_TENSOR_HINT) &&
	    x->hint >= rel) {
		b->hint = x->hint - rel;
		b->flags |= TPLAN_TENSOR_HINT;
	}
	return TPLAN_DEFECT_NONE;
}

/* One folded tensor per root, covering its whole group. */
static int fold(struct tplan_alias_map *m, const struct tplan_tensor *t, u32 n,
		struct tplan_finding *f)
{
	u32 i, kind;

	m->count = 0;
	for (i = 0; i < n; i++) {
		if (m->root[i] != i)
			continue;
		m->slot[i] = m->count;
		m->folded[m->count] = t[i];
		m->folded[m->count].flags = t[i].flags &
			(TPLAN_TENSOR_PINNED | TPLAN_TENSOR_HINT);
		m->folded[m->count].alias_of = 0;
		m->folded[m->count].alias_offset = 0;
		m->count++;
	}
	for (i = 0; i < n; i++) {
		if (m->root[i] == i)
			continue;
		kind = cover(&m->folded[m->slot[m->root[i]]], &t[i]);
		if (kind == TPLAN_DEFECT_NONE && t[m->root[i]].share_key)
			kind = TPLAN_DEFECT_SHARE_ALIAS;
		if (kind == TPLAN_DEFECT_NONE)
			kind = cover_constrained(&m->folded[m->slot[m->root[i]]],
						 &t[i], &t[m->root[i]],
						 m->rel[i]);
		if (kind != TPLAN_DEFECT_NONE)
			return tplan_defect(f, kind, i, m->root[i]);
	}
	return 0;
}

/**
 * tplan_alias_map_free() - free what tplan_fold_aliases() allocated
 * @m: the map
 */
void tplan_alias_map_free(struct tplan_alias_map *m)
{
	tplan_free(m->root);
	tplan_free(m->rel);
	tplan_free(m->slot);
	tplan_free(m->folded);
	memset(m, 0, sizeof(*m));
}

/**
 * tplan_fold_aliases() - fold every alias group into one tensor
 * @t: the tensors, accepted by tplan_check_table()
 * @n: how many
 * @m: filled in: the folded table and how to unfold it
 * @f: the defect, if the groups are bad (may be NULL)
 *
 * A group is bad when a tensor aliases an unknown id (ALIAS_UNKNOWN), the
 * aliases form a cycle (ALIAS_CYCLE), a tensor does not lie inside its
 * owner (ALIAS_OUTSIDE), or its place in the group breaks its alignment
 * (ALIAS_MISALIGNED), the members have no allowed tier in common
 * (TIER_CONFLICT), or a member has a share_key (SHARE_ALIAS).  The folded
 * block may live in the tiers all members allow and has the highest of
 * their priorities.  Memory: 120 bytes per tensor while planning.
 *
 * Return: 0, -EINVAL with @f filled, or -ENOMEM.
 */
int tplan_fold_aliases(const struct tplan_tensor *t, u32 n,
		       struct tplan_alias_map *m, struct tplan_finding *f)
{
	u32 *owner, *scratch;
	int ret;

	memset(m, 0, sizeof(*m));
	m->root = tplan_alloc_array(n, sizeof(*m->root));
	m->rel = tplan_alloc_array(n, sizeof(*m->rel));
	m->slot = tplan_alloc_array(n, sizeof(*m->slot));
	m->folded = tplan_alloc_array(n, sizeof(*m->folded));
	owner = tplan_alloc_array(n, sizeof(*owner));
	scratch = tplan_alloc_array(n, sizeof(*scratch));
	ret = -ENOMEM;
	if (m->root && m->rel && m->slot && m->folded && owner && scratch) {
		ret = find_owners(t, n, owner, scratch, f);
		if (!ret)
			ret = resolve_roots(m, t, n, owner, scratch, f);
		if (!ret)
			ret = fold(m, t, n, f);
	}
	tplan_free(owner);
	tplan_free(scratch);
	if (ret)
		tplan_alias_map_free(m);
	return ret;
}

/**
 * tplan_unfold_aliases() - give every tensor its place from the folded plan
 * @t: the tensors; offsets are written
 * @n: how many
 * @m: the map, with m->folded planned
 *
 * Every member gets its block's tier and its offset plus its place in it.
 */
void tplan_unfold_aliases(struct tplan_tensor *t, u32 n,
			  const struct tplan_alias_map *m)
{
	u32 i;

	for (i = 0; i < n; i++) {
		const struct tplan_tensor *b = &m->folded[m->slot[m->root[i]]];

		t[i].offset = b->offset + m->rel[i];
		t[i].tier = b->tier;
	}
}

/**
 * tplan_aliases_stage() - plan each alias group as one block, if asked
 * @t: the tensors, checked but for their alias groups; tier and offset are
 *     written
 * @n: how many
 * @tiers: the tiers and their room
 * @next: the stage that places the folded table
 * @run: the options (%TPLAN_PLAN_ALIASES) and the work meter
 *
 * Return: 0, -EINVAL for a bad alias group (see tplan_fold_aliases()),
 * -ENOMEM, or the next stage's error.
 */
int tplan_aliases_stage(struct tplan_tensor *t, u32 n,
			const struct tplan_tiers *tiers,
			const struct tplan_stage *next, struct tplan_run *run)
{
	struct tplan_alias_map m;
	int ret;

	if (!(run->opts->flags & TPLAN_PLAN_ALIASES))
		return tplan_next_stage(next, t, n, tiers, run);
	ret = tplan_fold_aliases(t, n, &m, NULL);
	if (ret)
		return ret;
	ret = tplan_next_stage(next, m.folded, m.count, tiers, run);
	if (!ret || ret == -ENOSPC)
		tplan_unfold_aliases(t, n, &m);
	tplan_alias_map_free(&m);
	return ret;
}
