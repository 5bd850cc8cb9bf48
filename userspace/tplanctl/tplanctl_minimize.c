// SPDX-License-Identifier: MIT
/*
 * tplanctl_minimize.c - "tplanctl plan --minimize": the smallest capacity
 * that fits.
 *
 * The strategy (search or auto) first plans without a capacity, aiming at
 * the lower bound; its peak is a capacity that fits.  Then searches for
 * capacities below the best peak: a fit lowers the best peak, a proof that
 * nothing fits rules out that capacity and every smaller one.  A search
 * that runs out of its budget rules out nothing: whether a search fits is
 * not monotone in the capacity (it may give up at X and fit at X - 1), so
 * such a capacity only splits the range still open.  Each probe takes the
 * middle of the widest stretch of capacities not yet tried (the upper one
 * on a tie, which fits more often), so a stretch below a search that gave
 * up is tried as soon as it is the widest.  Each search has the call's
 * budget (--budget, else the default), and the run makes at most
 * MINIMIZE_PROBES of them.  No plan ends below a pinned tensor: capacities
 * below the pins' top are ruled out at once (the planner refuses them).
 *
 * --time-limit is the whole run's: each search gets what is left of it,
 * and when it is gone the bisection stops.  The best plan found is kept
 * (its offsets copied), not planned again: a search cut off by the clock
 * need not give the same plan twice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tplanctl.h"

/* Searches one run makes at most, besides the first plan. */
#define MINIMIZE_PROBES	64

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

/*
 * Plans @table at @capacity with @strategy into @res, in what is left of
 * the run's time limit (@deadline, 0 if none); 0 or -errno (-ETIMEDOUT
 * when no time is left).
 */
static int probe(struct tplanctl_args *a, struct tplan_table *table,
		 u32 strategy, u64 capacity, u64 deadline,
		 struct tplan_result *res, struct tplan_result *total)
{
	struct tplan_options opts = a->opts;
	u64 now = now_ns();
	int ret;

	memset(res, 0, sizeof(*res));
	if (deadline && now >= deadline)
		return -ETIMEDOUT;
	opts.strategy = strategy;
	opts.capacity = capacity;
	opts.time_limit_ns = deadline ? deadline - now : 0;
	ret = tplan_table_plan(table, &opts, res);
	total->work += res->work;
	total->time_ns += res->time_ns;
	return ret;
}

/* Where the highest pinned tensor ends; 0 without pins. */
static u64 pins_top(const struct tplan_table *table)
{
	u64 top = 0;
	u32 i;

	for (i = 0; i < table->count; i++) {
		const struct tplan_tensor *x = &table->tensors[i];

		if ((x->flags & TPLAN_TENSOR_PINNED) && x->size &&
		    x->offset + x->size > top)
			top = x->offset + x->size;
	}
	return top;
}

/**
 * struct open_range - the capacities --minimize has not settled
 * @proven: nothing below it fits (proven, or below the pins' top)
 * @best: the best peak found: it fits
 * @gave_up: capacities in [@proven, @best) whose search gave up, sorted
 *           (the lower bound, if the first plan missed it, and the probes)
 * @count: how many
 */
struct open_range {
	u64 proven;
	u64 best;
	u64 gave_up[MINIMIZE_PROBES + 1];
	u32 count;
};

/*
 * The next capacity to try: the middle of the widest stretch of untried
 * capacities in [@r->proven, @r->best), the upper one on a tie; false when
 * every capacity there has been tried.
 */
static bool next_capacity(const struct open_range *r, u64 *cap)
{
	u64 from = r->proven, width = 0, w;
	u32 i;

	for (i = 0; i <= r->count; i++) {
		u64 to = i < r->count ? r->gave_up[i] : r->best;

		w = to - from;
		if (w && w >= width) {
			width = w;
			*cap = from + w / 2;
		}
		from = to + 1;
	}
	return width > 0;
}

/* Keeps only the capacities that gave up inside [@proven, @best). */
static void range_trim(struct open_range *r)
{
	u32 i, k = 0;

	for (i = 0; i < r->count; i++)
		if (r->gave_up[i] >= r->proven && r->gave_up[i] < r->best)
			r->gave_up[k++] = r->gave_up[i];
	r->count = k;
}

static void range_gave_up(struct open_range *r, u64 cap)
{
	u32 i = r->count++;

	while (i && r->gave_up[i - 1] > cap) {
		r->gave_up[i] = r->gave_up[i - 1];
		i--;
	}
	r->gave_up[i] = cap;
}

/**
 * tplanctl_minimize() - plan @table at the smallest capacity found
 * @a: the options: strategy search or auto, no capacity, no tiers; on
 *     return @a->proven_above says below which capacity nothing fits
 * @table: the table; its offsets are the best plan found
 * @res: the best plan's result, with the work and time of every search
 *
 * The plan is optimal when @a->proven_above equals @res->peak.
 *
 * Return: 0, or a negative errno from the planner.
 */
int tplanctl_minimize(struct tplanctl_args *a, struct tplan_table *table,
		      struct tplan_result *res)
{
	struct tplan_result total = { 0 }, one;
	struct open_range r = { 0 };
	u64 cap = 0, top = pins_top(table), *best;
	u64 deadline = a->opts.time_limit_ns ?
		       now_ns() + a->opts.time_limit_ns : 0;
	u32 i, probes;
	int ret;

	best = calloc(table->count + 1, sizeof(*best));
	if (!best)
		return -ENOMEM;
	ret = probe(a, table, a->opts.strategy, 0, deadline, res, &total);
	if (ret)
		goto out;
	for (i = 0; i < table->count; i++)
		best[i] = table->tensors[i].offset;
	r.best = res->peak;
	/* The lower bound itself was just searched for. */
	r.proven = res->lower_bound + (res->search == TPLAN_SEARCH_IMPOSSIBLE);
	if (res->search != TPLAN_SEARCH_IMPOSSIBLE && res->peak > res->lower_bound)
		range_gave_up(&r, res->lower_bound);
	if (top > r.proven)	/* no plan ends below a pin */
		r.proven = top;
	range_trim(&r);
	for (probes = 0; probes < MINIMIZE_PROBES && next_capacity(&r, &cap);
	     probes++) {
		ret = probe(a, table, TPLAN_STRATEGY_SEARCH, cap, deadline,
			    &one, &total);
		if (!ret) {
			r.best = one.peak;
			*res = one;
			for (i = 0; i < table->count; i++)
				best[i] = table->tensors[i].offset;
		} else if (ret == -ETIMEDOUT && deadline) {
			break;	/* the run's time is up: the best stands */
		} else if (ret != -ENOSPC) {
			goto out;
		} else if (one.search == TPLAN_SEARCH_IMPOSSIBLE) {
			r.proven = cap + 1;	/* nothing fits @cap or below */
		} else {
			range_gave_up(&r, cap);
		}
		range_trim(&r);
	}
	ret = 0;
	for (i = 0; i < table->count; i++)
		table->tensors[i].offset = best[i];
	res->work = total.work;
	res->time_ns = total.time_ns;
	a->proven_above = r.proven < res->peak ? r.proven : res->peak;
out:
	free(best);
	return ret;
}
