// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * strategy_strip.c - static allocation as 2-D strip packing.
 *
 * Every tensor is a rectangle, its lifetime wide and its size high, placed
 * as low as it fits in the container.  The placement order is set by a
 * metric: size, duration, summed time overlap with the other tensors, and
 * their combinations (lexicographic, sum of ranks, product, ratio).  While
 * the peak is above the lower bound, "peak suppression" reorders the risky
 * rectangles only: high risk (ending above the bound), medium risk (ending
 * at it); low risk (alive with a high or medium one) and no risk keep their
 * order.  High and medium are clustered into groups that overlap in time,
 * each group sorted by the next metric, and the order becomes high and
 * medium groups, then low, then no risk; then everything is placed again.
 * Stop goals: the lower bound; an order seen before (a fixed point) for
 * every metric; the round cap; the work budget.  The best plan seen is kept,
 * and the first metric is greedy-size's order, so strip is never worse.
 */
#include "placement.h"

#define STRIP_ROUNDS	32

enum strip_metric {
	BY_SIZE,		/* greedy-size's order */
	BY_DURATION,
	BY_OVERLAP,
	BY_SIZE_THEN_DURATION,	/* lexicographic */
	BY_RANK_SUM,		/* rank by size + rank by duration */
	BY_AREA,		/* size x duration */
	BY_DENSITY,		/* size / duration */
	METRIC_COUNT
};

enum strip_risk { RISK_HIGH, RISK_MEDIUM, RISK_LOW, RISK_NONE };

struct strip {
	struct tplan_tensor *t;
	u32 n;
	u64 lower_bound;
	struct tplan_placer placer;
	struct tplan_interval_index ix;	/* who overlaps whom in time */
	u32 *neighbours;		/* an index query's answers */
	u64 *overlap;		/* summed time overlap with the others */
	u32 *size_rank;		/* 0 for the largest */
	u32 *duration_rank;	/* 0 for the longest-lived */
	u64 *key;		/* the current metric, larger first */
	u64 *key2;		/* tie-break: size, or duration */
	u32 *order;
	u32 *next;		/* the order being built */
	u8 *risk;
	u64 *best;		/* offsets of the best plan */
	u64 best_peak;
	bool has_plan;		/* best holds one (its peak may be 2^64 - 1) */
};

static u64 duration(const struct tplan_tensor *x)
{
	return x->upper - x->lower;
}

static int cmp_key(const void *a, const void *b, const void *priv)
{
	const struct strip *s = priv;
	u32 ia = *(const u32 *)a, ib = *(const u32 *)b;
	int c = tplan_cmp_u64(s->key[ib], s->key[ia]);

	if (!c)
		c = tplan_cmp_u64(s->key2[ib], s->key2[ia]);
	if (!c)
		c = tplan_cmp_u64(s->t[ia].lower, s->t[ib].lower);
	return c ? c : tplan_cmp_u64(ia, ib);
}

static u64 sat_mul(u64 a, u64 b)
{
	u64 r;

	return check_mul_overflow(a, b, &r) ? TPLAN_U64_MAX : r;
}

static u64 metric(const struct strip *s, u32 m, u32 i)
{
	const struct tplan_tensor *x = &s->t[i];

	switch (m) {
	case BY_DURATION:
		return duration(x);
	case BY_OVERLAP:
		return s->overlap[i];
	case BY_RANK_SUM:
		return 2 * (u64)s->n - s->size_rank[i] - s->duration_rank[i];
	case BY_AREA:
		return sat_mul(x->size, duration(x));
	case BY_DENSITY:
		return sat_mul(x->size, 1 << 16) / duration(x);
	default:
		return x->size;
	}
}

static void set_keys(struct strip *s, u32 m)
{
	u32 i;

	for (i = 0; i < s->n; i++) {
		s->key[i] = metric(s, m, i);
		s->key2[i] = m == BY_SIZE_THEN_DURATION ? duration(&s->t[i]) :
			     s->t[i].size;
	}
}

/* Summed overlap in time with every other tensor, saturating. */
static int compute_overlap(struct strip *s, struct tplan_work *w)
{
	u32 i, k, found;
	int ret = 0;

	for (i = 0; i < s->n && !ret; i++) {
		const struct tplan_tensor *x = &s->t[i];
		u64 visited = 0, sum = 0;

		found = tplan_index_query(&s->ix, x->lower, x->upper,
					  s->neighbours, &visited);
		for (k = 0; k < found; k++) {
			const struct tplan_tensor *y = &s->t[s->neighbours[k]];
			u64 lo = x->lower > y->lower ? x->lower : y->lower;
			u64 hi = x->upper < y->upper ? x->upper : y->upper;

			if (y != x && check_add_overflow(sum, hi - lo, &sum))
				sum = TPLAN_U64_MAX;
		}
		s->overlap[i] = sum;
		/* a neighbour read costs half a unit here (fitted: docs/PLANNER.md) */
		ret = tplan_work_charge(w, 1 + (visited + found) / 2);
	}
	return ret;
}

/* Place in s->order; keep the plan if it is the best so far. */
static int place_and_keep(struct strip *s, struct tplan_work *w, u64 *out)
{
	u64 peak;
	u32 i;
	int ret;

	ret = tplan_placer_run(&s->placer, s->order, w);
	if (ret)
		return ret;
	peak = tplan_peak(s->t, s->n);
	*out = peak;
	if (!s->has_plan || peak < s->best_peak) {
		s->has_plan = true;
		s->best_peak = peak;
		for (i = 0; i < s->n; i++)
			s->best[i] = s->t[i].offset;
	}
	return 0;
}

static void classify(struct strip *s)
{
	u32 i, k, found;
	u64 visited = 0;

	for (i = 0; i < s->n; i++) {
		u64 end = s->t[i].offset + s->t[i].size;

		s->risk[i] = !s->t[i].size ? RISK_NONE :
			     end > s->lower_bound ? RISK_HIGH :
			     end == s->lower_bound ? RISK_MEDIUM : RISK_NONE;
	}
	for (i = 0; i < s->n; i++) {
		if (s->risk[i] > RISK_MEDIUM)
			continue;
		found = tplan_index_query(&s->ix, s->t[i].lower,
					  s->t[i].upper, s->neighbours,
					  &visited);
		for (k = 0; k < found; k++)
			if (s->risk[s->neighbours[k]] == RISK_NONE)
				s->risk[s->neighbours[k]] = RISK_LOW;
	}
}

/*
 * Groups of high and medium rectangles that overlap in time: sorted by
 * lower, a group runs while the next one starts before the group ends.
 * Each group is sorted by the metric in s->key; groups keep time order.
 */
static u32 append_risky_groups(struct strip *s, u32 at)
{
	u32 i, start = at;
	u64 end = 0;

	for (i = 0; i < s->n; i++)
		if (s->risk[s->order[i]] <= RISK_MEDIUM)
			s->next[at++] = s->order[i];
	tplan_sort(s->next + start, at - start, sizeof(u32), tplan_cmp_by_lower,
		   s->t);
	for (i = start; i < at; i++) {
		u32 g = i;

		end = s->t[s->next[i]].upper;
		while (i + 1 < at && s->t[s->next[i + 1]].lower < end) {
			i++;
			if (s->t[s->next[i]].upper > end)
				end = s->t[s->next[i]].upper;
		}
		tplan_sort(s->next + g, i + 1 - g, sizeof(u32), cmp_key, s);
	}
	return at;
}

/* The next order by peak suppression; true when it differs from s->order. */
static bool suppress_peak(struct strip *s, u32 m)
{
	u32 i, at, r;
	bool changed = false;

	classify(s);
	set_keys(s, m);
	at = append_risky_groups(s, 0);
	for (r = RISK_LOW; r <= RISK_NONE; r++)
		for (i = 0; i < s->n; i++)
			if (s->risk[s->order[i]] == r)
				s->next[at++] = s->order[i];
	for (i = 0; i < s->n; i++) {
		changed |= s->next[i] != s->order[i];
		s->order[i] = s->next[i];
	}
	return changed;
}

/*
 * Rounds of peak suppression from the best order of the first pass; each
 * round that reaches a fixed point moves to the next metric.
 */
static int refine(struct strip *s, struct tplan_work *w)
{
	u32 round, m = 0, still = 0;
	u64 peak;
	int ret = 0;

	for (round = 0; round < STRIP_ROUNDS && !ret; round++) {
		if (s->best_peak <= s->lower_bound || still == METRIC_COUNT)
			break;
		if (!suppress_peak(s, m)) {
			still++;
			m = (m + 1) % METRIC_COUNT;
			continue;
		}
		still = 0;
		ret = place_and_keep(s, w, &peak);
	}
	return ret;
}

static void order_by(struct strip *s, u32 m)
{
	u32 i;

	set_keys(s, m);
	for (i = 0; i < s->n; i++)
		s->order[i] = i;
	tplan_sort(s->order, s->n, sizeof(u32), cmp_key, s);
}

/* rank[i] = position of i when sorted by @m, larger first. */
static void rank_by(struct strip *s, u32 m, u32 *rank)
{
	u32 i;

	order_by(s, m);
	for (i = 0; i < s->n; i++)
		rank[s->order[i]] = i;
}

/*
 * One placement per metric, greedy-size's order first (so that there is a
 * plan before any budget can run out); the order of the best one is left
 * placed in s->order.
 */
static int first_pass(struct strip *s, struct tplan_work *w)
{
	u64 best = TPLAN_U64_MAX, peak;
	u32 m, best_m = BY_SIZE;
	int ret;

	for (m = 0; m < METRIC_COUNT; m++) {
		if (m == BY_SIZE + 1) {
			ret = compute_overlap(s, w);
			if (ret)
				return ret;
			rank_by(s, BY_SIZE, s->size_rank);
			rank_by(s, BY_DURATION, s->duration_rank);
		}
		order_by(s, m);
		ret = place_and_keep(s, w, &peak);
		if (ret)
			return ret;
		tplan_work_have_plan(w);
		if (peak < best) {
			best = peak;
			best_m = m;
		}
		if (best <= s->lower_bound)
			return 0;
	}
	order_by(s, best_m);
	return tplan_placer_run(&s->placer, s->order, w);
}

static void strip_free(struct strip *s)
{
	tplan_placer_free(&s->placer);
	tplan_index_free(&s->ix);
	tplan_free(s->neighbours);
	tplan_free(s->overlap);
	tplan_free(s->size_rank);
	tplan_free(s->duration_rank);
	tplan_free(s->key);
	tplan_free(s->key2);
	tplan_free(s->order);
	tplan_free(s->next);
	tplan_free(s->risk);
	tplan_free(s->best);
}

static int strip_alloc(struct strip *s, struct tplan_tensor *t, u32 n,
		       const struct tplan_goal *goal)
{
	memset(s, 0, sizeof(*s));
	s->t = t;
	s->n = n;
	s->best_peak = TPLAN_U64_MAX;
	s->neighbours = tplan_alloc_array(n, sizeof(u32));
	s->overlap = tplan_alloc_array(n, sizeof(u64));
	s->size_rank = tplan_alloc_array(n, sizeof(u32));
	s->duration_rank = tplan_alloc_array(n, sizeof(u32));
	s->key = tplan_alloc_array(n, sizeof(u64));
	s->key2 = tplan_alloc_array(n, sizeof(u64));
	s->order = tplan_alloc_array(n, sizeof(u32));
	s->next = tplan_alloc_array(n, sizeof(u32));
	s->risk = tplan_alloc_array(n, sizeof(u8));
	s->best = tplan_alloc_array(n, sizeof(u64));
	if (!s->neighbours || !s->overlap || !s->size_rank || !s->duration_rank || !s->key ||
	    !s->key2 || !s->order || !s->next || !s->risk || !s->best ||
	    tplan_index_build(&s->ix, t, n) ||
	    tplan_placer_init(&s->placer, t, n, goal->gaps, goal->capacity,
			      goal->timeline)) {
		strip_free(s);
		return -ENOMEM;
	}
	return 0;
}

/**
 * tplan_place_strip() - strip packing with peak suppression
 * @t: the tensors, already checked; offsets are written
 * @n: how many
 * @goal: the lower bound, where refining stops
 * @w: the work meter
 * @search: unused
 *
 * Memory: 105 bytes per tensor (with its interval index) plus the
 * placer's.  When the budget runs
 * out after the first placement, the best plan so far is returned.
 *
 * Return: 0, -ENOMEM, -EINTR, or -ETIMEDOUT if not even one plan was made.
 */
int tplan_place_strip(struct tplan_tensor *t, u32 n,
		      const struct tplan_goal *goal, struct tplan_work *w,
		      u32 *search)
{
	struct strip s;
	u32 i;
	int ret;

	ret = strip_alloc(&s, t, n, goal);
	if (ret)
		return ret;
	s.lower_bound = goal->lower_bound;
	ret = first_pass(&s, w);
	if (!ret)
		ret = refine(&s, w);
	if (s.has_plan && ret == -ETIMEDOUT)
		ret = 0;	/* out of budget: the best plan seen stands */
	if (!ret)
		for (i = 0; i < n; i++)
			t[i].offset = s.best[i];
	strip_free(&s);
	return ret;
}
