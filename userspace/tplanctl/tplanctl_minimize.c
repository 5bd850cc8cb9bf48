// SPDX-License-Identifier: MIT
/*
 * tplanctl_minimize.c - "tplanctl plan --minimize": the smallest capacity
 * that fits.
 *
 * The strategy (search or auto) first plans without a capacity, aiming at
 * the lower bound; its peak is a capacity that fits.  Then searches for
 * capacities between the lowest one not yet ruled out and the best peak
 * found halve that gap: a fit lowers the best peak, a proof that nothing
 * fits rules out that capacity and every smaller one, and a search that
 * runs out of its budget rules out nothing (bisection goes on above it,
 * but the result may then be only the best found).  Each search has the call's budget
 * (--budget, else the default), so the whole run is bounded by about 64
 * budgets.  No plan ends below a pinned tensor: capacities below the
 * pins' top are ruled out at once (the planner refuses them).
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
	u64 lo, hi, proven, top = pins_top(table), *best;
	u64 deadline = a->opts.time_limit_ns ?
		       now_ns() + a->opts.time_limit_ns : 0;
	u32 i;
	int ret;

	best = calloc(table->count + 1, sizeof(*best));
	if (!best)
		return -ENOMEM;
	ret = probe(a, table, a->opts.strategy, 0, deadline, res, &total);
	if (ret)
		goto out;
	for (i = 0; i < table->count; i++)
		best[i] = table->tensors[i].offset;
	hi = res->peak;
	proven = res->lower_bound;
	if (res->search == TPLAN_SEARCH_IMPOSSIBLE)
		proven++;
	/* The lower bound itself was just searched for. */
	lo = res->lower_bound + 1;
	if (top > proven) {	/* and no plan ends below a pin */
		proven = top;
		lo = top > lo ? top : lo;
	}
	while (lo < hi) {
		u64 cap = lo + (hi - lo) / 2;

		ret = probe(a, table, TPLAN_STRATEGY_SEARCH, cap, deadline,
			    &one, &total);
		if (!ret) {
			hi = one.peak;
			*res = one;
			for (i = 0; i < table->count; i++)
				best[i] = table->tensors[i].offset;
		} else if (ret == -ETIMEDOUT && deadline) {
			break;	/* the run's time is up: the best stands */
		} else if (ret != -ENOSPC) {
			goto out;
		} else {
			/* nothing fits @cap, hence nothing below it: proven */
			if (one.search == TPLAN_SEARCH_IMPOSSIBLE)
				proven = cap + 1;
			lo = cap + 1;
		}
	}
	ret = 0;
	for (i = 0; i < table->count; i++)
		table->tensors[i].offset = best[i];
	res->work = total.work;
	res->time_ns = total.time_ns;
	a->proven_above = proven < res->peak ? proven : res->peak;
out:
	free(best);
	return ret;
}
