// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * models.c - the stage for several models in one table.
 *
 * Serial models run one after another: each gets its own stretch of one
 * common timeline, so the scratch of one reuses the bytes of another and
 * the plan needs about the largest model's peak, not the sum.  Concurrent
 * models run at the same time: each is planned on its own and stacked above
 * the ones before, so no two share a byte.
 *
 * A tensor with a non-zero share_key is persistent (weights, instruction
 * data): it lives for the whole run, whichever model runs, and all the
 * tensors with one key are stored once, at one place.  Every other tensor
 * is scratch.
 */
#include "core/gaps.h"

/**
 * struct models_view - a table of several models as the planner sees it
 * @view: one tensor per share_key first, then every other tensor by model
 * @of: table index -> view index
 * @order: table indices, sorted as building the view needs
 * @count: entries in @view
 * @shared: @view[0, @shared) are the share_key tensors
 * @total: steps of the common timeline
 */
struct models_view {
	struct tplan_tensor *view;
	u32 *of;
	u32 *order;
	u32 count;
	u32 shared;
	u64 total;
};

static int cmp_share_key(const void *a, const void *b, const void *priv)
{
	const struct tplan_tensor *t = priv;
	u32 ia = *(const u32 *)a, ib = *(const u32 *)b;
	int c = tplan_cmp_u64(t[ia].share_key, t[ib].share_key);

	return c ? c : tplan_cmp_u64(ia, ib);
}

static int cmp_model(const void *a, const void *b, const void *priv)
{
	const struct tplan_tensor *t = priv;
	u32 ia = *(const u32 *)a, ib = *(const u32 *)b;
	int c = tplan_cmp_u64(t[ia].model, t[ib].model);

	return c ? c : tplan_cmp_u64(ia, ib);
}

/* Sort the indices of the tensors with (@keyed) or without a share_key. */
static u32 sort_indices(const struct tplan_tensor *t, u32 n, u32 *order,
			bool keyed)
{
	u32 i, count = 0;

	for (i = 0; i < n; i++)
		if (!!t[i].share_key == keyed)
			order[count++] = i;
	tplan_sort(order, count, sizeof(*order),
		   keyed ? cmp_share_key : cmp_model, t);
	return count;
}

/**
 * tplan_check_shares() - check the tensors that share a key
 * @t: the tensors
 * @n: how many
 * @tier_count: tiers the plan has
 * @f: where to say what is wrong (may be NULL)
 *
 * Tensors with one share_key are stored once, so they must have the same
 * size (SHARE_SIZE) and a tier in common (TIER_CONFLICT).
 *
 * Return: 0, -EINVAL with @f filled, or -ENOMEM.
 */
int tplan_check_shares(const struct tplan_tensor *t, u32 n, u32 tier_count,
		       struct tplan_finding *f)
{
	u32 *order, count, i, rep = 0, tiers = 0;
	int ret = 0;

	order = tplan_alloc_array(n, sizeof(*order));
	if (!order)
		return -ENOMEM;
	count = sort_indices(t, n, order, true);
	for (i = 0; i < count && !ret; i++) {
		const struct tplan_tensor *x = &t[order[i]];

		if (!i || x->share_key != t[rep].share_key) {
			rep = order[i];
			tiers = tplan_allowed_tiers(x, tier_count);
			continue;
		}
		tiers &= tplan_allowed_tiers(x, tier_count);
		if (x->size != t[rep].size)
			ret = tplan_defect(f, TPLAN_DEFECT_SHARE_SIZE, order[i], rep);
		else if (!tiers)
			ret = tplan_defect(f, TPLAN_DEFECT_TIER_CONFLICT, order[i],
					   rep);
	}
	tplan_free(order);
	return ret;
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_check_shares);

/* One view tensor per share_key: the strictest needs of its tensors. */
static void view_shared(struct models_view *m, const struct tplan_tensor *t,
			u32 n)
{
	u32 count = sort_indices(t, n, m->order, true), i;
	struct tplan_tensor *v = NULL;

	m->count = 0;
	for (i = 0; i < count; i++) {
		const struct tplan_tensor *x = &t[m->order[i]];

		if (!v || x->share_key != v->share_key) {
			v = &m->view[m->count++];
			*v = *x;
		}
		v->alignment = max(tplan_alignment(v), tplan_alignment(x));
		v->priority = max(v->priority, x->priority);
		v->tiers = tplan_common_tiers(v->tiers, x->tiers);
		m->of[m->order[i]] = m->count - 1;
	}
	m->shared = m->count;
}

/*
 * Every other tensor, by model.  Serial models get consecutive stretches of
 * the timeline, each model's from its first step to its last.
 */
static int view_scratch(struct models_view *m, const struct tplan_tensor *t,
			u32 n, bool serial)
{
	u32 count = sort_indices(t, n, m->order, false), i, j, k;
	u64 base = 0, first, last;

	for (i = 0; i < count; i = j) {
		u32 model = t[m->order[i]].model;

		first = TPLAN_U64_MAX;
		last = 0;
		for (j = i; j < count && t[m->order[j]].model == model; j++) {
			first = min(first, t[m->order[j]].lower);
			last = max(last, t[m->order[j]].upper);
		}
		for (k = i; k < j; k++) {
			struct tplan_tensor *v = &m->view[m->count];

			*v = t[m->order[k]];
			if (serial) {
				v->lower = v->lower - first + base;
				v->upper = v->upper - first + base;
			}
			m->of[m->order[k]] = m->count++;
		}
		if (check_add_overflow(base, last - first, &base))
			return -EOVERFLOW;
		m->total = serial ? base : max(m->total, last - first);
	}
	return 0;
}

/* Persistent tensors live over the whole timeline. */
static void view_persist(struct models_view *m)
{
	u32 i;

	for (i = 0; i < m->shared; i++) {
		m->view[i].lower = 0;
		m->view[i].upper = max(m->total, 1ull);
	}
}

static void view_free(struct models_view *m)
{
	tplan_free(m->view);
	tplan_free(m->of);
	tplan_free(m->order);
}

/*
 * view_build() - the view of a table the planner works on
 * @m: filled in
 * @t: the tensors, checked
 * @n: how many
 * @serial: give each model its own stretch of the timeline
 *
 * Return: 0, -EOVERFLOW or -ENOMEM.
 */
static int view_build(struct models_view *m, const struct tplan_tensor *t,
		      u32 n, bool serial)
{
	int ret;

	memset(m, 0, sizeof(*m));
	m->view = tplan_alloc_array(n, sizeof(*m->view));
	m->of = tplan_alloc_array(n, sizeof(*m->of));
	m->order = tplan_alloc_array(n, sizeof(*m->order));
	if (!m->view || !m->of || !m->order) {
		view_free(m);
		return -ENOMEM;
	}
	view_shared(m, t, n);
	ret = view_scratch(m, t, n, serial);
	if (ret)
		view_free(m);
	else
		view_persist(m);
	return ret;
}

/* The end of the stack segment starting at @s: the shared part, a model. */
static u32 segment_end(const struct models_view *m, u32 s)
{
	u32 e = s + 1;

	if (s < m->shared)
		return m->shared;
	while (e < m->count && m->view[e].model == m->view[s].model)
		e++;
	return e;
}

/* The lower bound of @t; without gaps, from its timeline, kept in @tl. */
static int unit_bound(const struct tplan_tensor *t, u32 n,
		      const struct tplan_gap *gaps, struct tplan_timeline *tl,
		      u64 *bound)
{
	u32 i = n;

	/* checked: without gaps no tensor has any */
	if (gaps)
		for (i = 0; i < n && !t[i].gap_count; i++)
			;
	if (i < n)
		return tplan_lower_bound_gaps(t, n, gaps, bound);
	if (tplan_timeline_init(tl, t, n))
		return -ENOMEM;
	*bound = tl->most;
	return 0;
}

/*
 * One unit (the table, the serial timeline, or one part of a concurrent
 * stack) to the next stage; the lower bound reported is the sum of the
 * units'.  The unit's bound and timeline are left in @run for the
 * strategy stage: sorting a large table is a good part of planning it.
 */
static int place_unit(struct tplan_tensor *t, u32 n,
		      const struct tplan_tiers *tiers,
		      const struct tplan_stage *next, struct tplan_run *run)
{
	struct tplan_timeline tl = { 0 };
	u64 bound;
	int ret = unit_bound(t, n, run->opts->gaps, &tl, &bound);

	if (ret)
		return ret;
	run->lower_bound += bound;
	run->unit = t;
	run->unit_n = n;
	run->unit_bound = bound;
	run->unit_timeline = tl.born ? &tl : NULL;
	ret = tplan_next_stage(next, t, n, tiers, run);
	run->unit = NULL;
	run->unit_timeline = NULL;
	tplan_timeline_free(&tl);
	return ret;
}

/*
 * Concurrent: plan the shared part, then each model, every one in the room
 * the ones before left, at aligned bases above them in each tier.
 */
static int stack(struct models_view *m, const struct tplan_tiers *tiers,
		 const struct tplan_stage *next, struct tplan_run *run)
{
	u64 base[TPLAN_MAX_TIERS] = { 0 }, top[TPLAN_MAX_TIERS] = { 0 };
	struct tplan_tiers left = *tiers;
	u64 align = 1;
	u32 s, e, i, k;
	int ret;

	for (i = 0; i < m->count; i++)
		align = max(align, tplan_alignment(&m->view[i]));
	for (s = 0; s < m->count; s = e) {
		e = segment_end(m, s);
		ret = place_unit(m->view + s, e - s, &left, next, run);
		if (ret)
			return ret;
		for (i = s; i < e; i++) {
			struct tplan_tensor *x = &m->view[i];

			if (!x->size)
				continue;
			x->offset += base[x->tier];
			top[x->tier] = max(top[x->tier], x->offset + x->size);
		}
		for (k = 0; k < tiers->count; k++) {
			if (check_add_overflow(top[k], align - 1, &base[k]))
				return -EOVERFLOW;
			base[k] &= ~(align - 1);
			if (tiers->room[k] != TPLAN_U64_MAX)
				left.room[k] = tiers->room[k] > base[k] ?
					       tiers->room[k] - base[k] : 0;
		}
	}
	return 0;
}

static bool single_model(const struct tplan_tensor *t, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (t[i].share_key || t[i].model != t[0].model)
			return false;
	return true;
}

/**
 * tplan_models_stage() - place a table that may hold several models
 * @t: the tensors, checked; tier and offset are written
 * @n: how many
 * @tiers: the tiers and their room
 * @next: the stage that places one unit: the serial timeline, or one part
 *        of the concurrent stack
 * @run: the work meter and the options (%TPLAN_PLAN_SERIAL); the units'
 *       lower bounds are added to it
 *
 * A table of one model without share_key is placed as it is.  Otherwise the
 * planner works on a view (104 bytes per tensor): serial models on one
 * timeline, concurrent ones stacked; then every tensor takes its view
 * tensor's place, so all the tensors of a share_key share one.
 *
 * Return: 0, -ENOSPC, -EOVERFLOW (the serial timeline passes 2^64 steps or
 * the stack 2^64 bytes), -ENOMEM or the next stage's error.
 */
int tplan_models_stage(struct tplan_tensor *t, u32 n,
		       const struct tplan_tiers *tiers,
		       const struct tplan_stage *next, struct tplan_run *run)
{
	bool serial = run->opts->flags & TPLAN_PLAN_SERIAL;
	struct models_view m;
	u32 i;
	int ret;

	if ((t == run->plain && n == run->plain_n) || single_model(t, n))
		return place_unit(t, n, tiers, next, run);
	ret = view_build(&m, t, n, serial);
	if (ret)
		return ret;
	if (serial)
		ret = place_unit(m.view, m.count, tiers, next, run);
	else
		ret = stack(&m, tiers, next, run);
	for (i = 0; i < n && (!ret || ret == -ENOSPC); i++) {
		t[i].offset = m.view[m.of[i]].offset;
		t[i].tier = m.view[m.of[i]].tier;
	}
	view_free(&m);
	return ret;
}

/**
 * tplan_models_bound() - the lower bound the models stage reports
 * @t: the tensors, checked
 * @n: how many
 * @serial: the models take turns on one timeline
 * @gaps: the tensors' gaps (only a single model may have any)
 * @bound: the sum of the units' lower bounds
 *
 * Return: 0, -EOVERFLOW or -ENOMEM.
 */
int tplan_models_bound(const struct tplan_tensor *t, u32 n, bool serial,
		       const struct tplan_gap *gaps, u64 *bound)
{
	struct models_view m;
	u32 s, e;
	u64 part;
	int ret;

	if (single_model(t, n))
		return tplan_lower_bound_gaps(t, n, gaps, bound);
	ret = view_build(&m, t, n, serial);
	if (ret)
		return ret;
	if (serial) {
		ret = tplan_lower_bound(m.view, m.count, bound);
	} else {
		*bound = 0;
		for (s = 0; s < m.count && !ret; s = e) {
			e = segment_end(&m, s);
			ret = tplan_lower_bound(m.view + s, e - s, &part);
			*bound += part;
		}
	}
	view_free(&m);
	return ret;
}
