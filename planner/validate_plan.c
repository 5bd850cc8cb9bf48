// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * validate_plan.c - checks a plan with everything the options ask for:
 * alias groups, tiers, several models and share_key groups.
 *
 * The plan is reduced to a table tplan_validate() checks: alias groups are
 * folded (each member at its owner's place), the models are laid on one
 * timeline as for a serial plan (shared tensors alive throughout), and each
 * tier gets its own stretch of time, so that only tensors of one tier can
 * collide.  Concurrent models must in addition never share a byte, whatever
 * the time: a sweep over addresses checks that.
 */
#include "internal.h"

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
		if (x->offset & (x->alignment - 1))
			return tplan_defect(f, TPLAN_DEFECT_MISALIGNED, i, i);
		room = tiers->room[x->tier];
		if (x->offset > room || x->size > room - x->offset)
			return tplan_defect(f, TPLAN_DEFECT_CAPACITY, i, i);
	}
	return 0;
}

/* Every tensor of a share_key at the place of the key's view tensor. */
static int check_shares_placed(const struct tplan_tensor *t, u32 n,
			       const struct models_view *m, const u32 *first,
			       struct tplan_finding *f)
{
	u32 i;

	for (i = 0; i < n; i++) {
		u32 r = first[m->of[i]];

		if (t[i].offset != t[r].offset || t[i].tier != t[r].tier)
			return tplan_defect(f, TPLAN_DEFECT_SHARE_MISPLACED, i, r);
	}
	return 0;
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

/*
 * Concurrent models: no byte of one model's scratch may be another's.  In
 * address order, a tensor collides with an earlier one of another model
 * exactly when the furthest end among the other models' tensors passes its
 * start; the two furthest ends of distinct models answer that for any model.
 */
static int check_apart(const struct models_view *m, u32 *order,
		       struct tplan_finding *f)
{
	const struct tplan_tensor *v = m->view;
	u32 count = 0, i, best = 0, second = 0;
	bool have_best = false, have_second = false;

	for (i = m->shared; i < m->count; i++)
		if (v[i].size)
			order[count++] = i;
	tplan_sort(order, count, sizeof(*order), cmp_tier_offset, v);
	for (i = 0; i < count; i++) {
		const struct tplan_tensor *x = &v[order[i]];
		u32 other;

		if (i && x->tier != v[order[i - 1]].tier) {
			have_best = false;
			have_second = false;
		}
		if (have_best && v[best].model != x->model)
			other = best;
		else if (have_second)
			other = second;
		else
			other = order[i];
		if (other != order[i] &&
		    v[other].offset + v[other].size > x->offset)
			return tplan_defect(f, TPLAN_DEFECT_OVERLAP, other, order[i]);
		if (have_best && v[best].model == x->model) {
			if (x->offset + x->size > v[best].offset + v[best].size)
				best = order[i];
		} else if (!have_best || x->offset + x->size >
			   v[best].offset + v[best].size) {
			second = best;
			have_second = have_best;
			best = order[i];
			have_best = true;
		} else if (!have_second || x->offset + x->size >
			   v[second].offset + v[second].size) {
			second = order[i];
			have_second = true;
		}
	}
	return 0;
}

/*
 * Give each tier its own stretch of time after the timeline's, then check
 * the view like any plan; ids become view indices (models may reuse ids).
 */
static int check_view(struct models_view *m, struct tplan_finding *f)
{
	u64 stretch = max(m->total, 1ull), shift;
	u32 i;

	for (i = 0; i < m->count; i++) {
		struct tplan_tensor *v = &m->view[i];

		if (check_mul_overflow(stretch, (u64)v->tier, &shift) ||
		    check_add_overflow(v->upper, shift, &v->upper))
			return -EOVERFLOW;
		v->lower += shift;
		v->id = i;
		v->flags = 0;
	}
	return tplan_validate(m->view, m->count, 0, f);
}

static int validate_models(const struct tplan_tensor *t, u32 n, bool serial,
			   struct tplan_finding *f)
{
	struct models_view m;
	u32 *first, i;
	int ret;

	ret = tplan_view_build(&m, t, n, true);
	if (ret)
		return ret;
	first = tplan_alloc_array(n, sizeof(*first));
	if (!first) {
		tplan_view_free(&m);
		return -ENOMEM;
	}
	for (i = n; i--; )
		first[m.of[i]] = i;
	ret = check_shares_placed(t, n, &m, first, f);
	if (!ret) {
		ret = check_view(&m, f);
		if (!ret && !serial)
			ret = check_apart(&m, m.order, f);
		if (ret == -EINVAL) {	/* name the tensors, not the view's */
			f->index = first[f->index];
			f->other = first[f->other];
		}
	}
	tplan_free(first);
	tplan_view_free(&m);
	return ret;
}

/* Members at their owners' places; then the folded groups, checked. */
static int validate_folded(const struct tplan_tensor *t, u32 n, bool serial,
			   struct tplan_finding *f)
{
	struct tplan_alias_map m;
	u32 i, *owner_of;
	int ret;

	ret = tplan_fold_aliases(t, n, &m, f);
	if (ret)
		return ret;
	for (i = 0; i < n && !ret; i++) {
		u32 r = m.root[i];
		struct tplan_tensor *b = &m.folded[m.slot[r]];

		if (t[i].offset != t[r].offset + m.rel[i] ||
		    t[i].tier != t[r].tier)
			ret = tplan_defect(f, TPLAN_DEFECT_ALIAS_MISPLACED, i, r);
		b->offset = t[r].offset;
		b->tier = t[r].tier;
	}
	owner_of = tplan_alloc_array(m.count, sizeof(*owner_of));
	if (!ret && !owner_of)
		ret = -ENOMEM;
	if (!ret) {
		for (i = 0; i < n; i++)
			if (m.root[i] == i)
				owner_of[m.slot[i]] = i;
		ret = validate_models(m.folded, m.count, serial, f);
		if (ret == -EINVAL) {
			f->index = owner_of[f->index];
			f->other = owner_of[f->other];
		}
	}
	tplan_free(owner_of);
	tplan_alias_map_free(&m);
	return ret;
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
 * to different concurrent models.  O(n log n).
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
	int ret;

	memset(finding, 0, sizeof(*finding));
	if (tplan_tiers_from_options(opts, &tiers) ||
	    (opts->flags & ~TPLAN_PLAN_KNOWN_FLAGS))
		return -EINVAL;
	/* validate_folded() checks the alias groups as it folds them */
	ret = tplan_check_unfolded(t, n, opts, finding);
	if (!ret)
		ret = check_places(t, n, &tiers, finding);
	if (ret)
		return ret;
	if (opts->flags & TPLAN_PLAN_ALIASES)
		return validate_folded(t, n, serial, finding);
	return validate_models(t, n, serial, finding);
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
