// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * strategy_peak.c - peak first: the tensors alive at the busiest step are
 * placed before all others, stacked by birth; the rest follow in
 * greedy-size's order.  One of auto's phases, not offered on its own.
 *
 * At the busiest step every live tensor overlaps every other, so placing
 * them first, each as low as it fits, stacks them without a hole: the plan
 * meets the lower bound there, whatever comes after.  Stacked by birth
 * (the earliest lowest), those alive at an earlier step form one run from
 * offset 0, and the tensors living only then find one free run above it;
 * on training graphs, where activations die in the reverse order of their
 * birth, the same holds after the peak.  If the plan still ends above the
 * bound, the busiest step under its highest tensor becomes the next anchor:
 * its tensors not yet ordered follow the first group, stacked the same way,
 * and the table is placed again; at most PEAK_ANCHORS anchors, the best
 * plan kept.  Each round is one placement: O(n log n) for the order, and
 * the placer's work.
 */
#include "placement.h"

#define PEAK_ANCHORS	8
#define REST		(~(u32)0)

struct peak_key {
	u32 group;	/* the anchor it is alive at, or REST */
	u32 idx;
	u64 k1;
	u64 k2;
	u64 k3;
};

struct peak {
	struct tplan_tensor *t;
	u32 n;
	struct tplan_placer placer;
	const struct tplan_timeline *tl;	/* the goal's, or @own */
	struct tplan_timeline own;
	u32 *group;
	u32 *order;
	struct peak_key *key;
	u64 *best;
	u64 best_peak;
	bool has_plan;
};

static int cmp_peak_key(const void *a, const void *b, const void *priv)
{
	const struct peak_key *x = a, *y = b;
	int c = tplan_cmp_u64(x->group, y->group);

	if (!c)
		c = tplan_cmp_u64(x->k1, y->k1);
	if (!c)
		c = tplan_cmp_u64(x->k2, y->k2);
	if (!c)
		c = tplan_cmp_u64(x->k3, y->k3);
	return c ? c : tplan_cmp_u64(x->idx, y->idx);
}

/*
 * An anchor's tensors: earliest born first, then the latest to die, the
 * largest.  The rest: greedy-size's order (largest, earliest born).
 */
static int make_order(struct peak *p, struct tplan_work *w)
{
	u32 i;

	for (i = 0; i < p->n; i++) {
		const struct tplan_tensor *x = &p->t[i];
		struct peak_key *k = &p->key[i];

		k->group = p->group[i];
		k->idx = i;
		if (k->group == REST) {
			k->k1 = ~x->size;
			k->k2 = x->lower;
			k->k3 = 0;
		} else {
			k->k1 = x->lower;
			k->k2 = ~x->upper;
			k->k3 = ~x->size;
		}
	}
	tplan_sort(p->key, p->n, sizeof(*p->key), cmp_peak_key, NULL);
	for (i = 0; i < p->n; i++)
		p->order[i] = p->key[i].idx;
	return tplan_work_charge(w, p->n);
}

/* Tensors alive at @step and in no group yet join group @g. */
static void anchor_at(struct peak *p, u64 step, u32 g)
{
	u32 i;

	for (i = 0; i < p->n; i++)
		if (p->group[i] == REST && p->t[i].lower <= step &&
		    step < p->t[i].upper)
			p->group[i] = g;
}

/* The busiest step under the highest tensor of the plan just made. */
static u64 next_anchor(struct peak *p)
{
	u64 top = 0, step;
	u32 i, hi = 0;

	for (i = 0; i < p->n; i++) {
		const struct tplan_tensor *x = &p->t[i];

		if (x->size && x->offset + x->size > top) {
			top = x->offset + x->size;
			hi = i;
		}
	}
	tplan_timeline_busiest(p->tl, p->t[hi].lower, p->t[hi].upper, &step);
	return step;
}

static void keep_if_better(struct peak *p)
{
	u64 peak = tplan_peak(p->t, p->n);
	u32 i;

	if (p->has_plan && peak >= p->best_peak)
		return;
	p->has_plan = true;
	p->best_peak = peak;
	for (i = 0; i < p->n; i++)
		p->best[i] = p->t[i].offset;
}

/* Rounds of placement, one anchor more each, while above @bound. */
static int rounds(struct peak *p, u64 bound, struct tplan_work *w)
{
	u64 anchors[PEAK_ANCHORS], step;
	u32 g, k;
	int ret;

	tplan_timeline_busiest(p->tl, 0, TPLAN_U64_MAX, &step);
	for (g = 0; g < PEAK_ANCHORS; g++) {
		for (k = 0; k < g && anchors[k] != step; k++)
			;
		if (k < g)
			break;	/* the same anchor again: nothing changes */
		anchors[g] = step;
		anchor_at(p, step, g);
		ret = make_order(p, w);
		if (!ret)
			ret = tplan_placer_run(&p->placer, p->order, w);
		if (ret)
			return ret;
		tplan_work_have_plan(w);
		keep_if_better(p);
		if (p->best_peak <= bound)
			break;
		step = next_anchor(p);
	}
	return 0;
}

static void peak_free(struct peak *p)
{
	tplan_placer_free(&p->placer);
	tplan_timeline_free(&p->own);
	tplan_free(p->group);
	tplan_free(p->order);
	tplan_free(p->key);
	tplan_free(p->best);
}

/**
 * tplan_place_peak_first() - peak-first placement
 * @t: the tensors, already checked; offsets are written
 * @n: how many
 * @goal: the lower bound, where the rounds stop; the gaps; the capacity
 *        hints must respect
 * @w: the work meter
 * @search: unused
 *
 * Memory: 60 bytes per tensor plus the placer's.
 *
 * Return: 0 (the best plan of the rounds made is in @t), -ENOMEM, -EINTR,
 * or -ETIMEDOUT if not even one plan was made.
 */
int tplan_place_peak_first(struct tplan_tensor *t, u32 n,
			   const struct tplan_goal *goal, struct tplan_work *w,
			   u32 *search)
{
	struct peak p = { .t = t, .n = n, .best_peak = TPLAN_U64_MAX };
	u32 i;
	int ret;

	p.group = tplan_alloc_array(n, sizeof(*p.group));
	p.order = tplan_alloc_array(n, sizeof(*p.order));
	p.key = tplan_alloc_array(n, sizeof(*p.key));
	p.best = tplan_alloc_array(n, sizeof(*p.best));
	ret = p.group && p.order && p.key && p.best ? 0 : -ENOMEM;
	p.tl = goal->timeline;
	if (!ret && !p.tl) {
		ret = tplan_timeline_init(&p.own, t, n);
		p.tl = &p.own;
	}
	if (!ret)
		ret = tplan_placer_init(&p.placer, t, n, goal->gaps,
					goal->capacity, p.tl);
	if (!ret) {
		for (i = 0; i < n; i++)
			p.group[i] = REST;
		ret = rounds(&p, goal->lower_bound, w);
	}
	if (p.has_plan && (!ret || ret == -ETIMEDOUT)) {
		for (i = 0; i < n; i++)
			t[i].offset = p.best[i];
		ret = 0;
	}
	peak_free(&p);
	return ret;
}
