// SPDX-License-Identifier: MIT
/*
 * bench_constrained.c - the bench's section on MiniMalloc's pinned offsets and
 * gaps: each challenging file is planned by search at its capacity, then
 * every fifth tensor is pinned where that plan put it; a second table adds
 * gaps to that one (the middle of every third lifetime of 3 steps or more
 * absent, every other one a window of the first half), which the same
 * plan still fits.  greedy-size, search (asked to fit the file's capacity
 * again) and auto plan both, with the default budget: peak and
 * milliseconds each.  Every
 * plan is checked with tplan_validate_gaps() and its pins compared; a
 * broken one fails the run.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "libtplan.h"
#include "planner.h"

static const u32 constrained_order[] = {
	TPLAN_STRATEGY_GREEDY_SIZE, TPLAN_STRATEGY_SEARCH, TPLAN_STRATEGY_AUTO,
};

/*
 * A table with pins (@pin: each pinned tensor's offset) and gaps, and the
 * capacity search is asked to fit.
 */
struct constrained_bench {
	struct tplan_tensor *t;
	u32 n;
	u64 *pin;
	struct tplan_gap *gaps;
	u32 gap_count;
	u64 capacity;
};

/* One strategy on @fb, checked; its row cells.  0 or -1. */
static int plan_one(const char *label, struct constrained_bench *fb, u32 strategy)
{
	struct tplan_options o = {
		.strategy = strategy, .gaps = fb->gaps,
		.gap_count = fb->gap_count,
	};
	struct tplan_result res;
	struct tplan_finding f;
	int ret;

	if (strategy == TPLAN_STRATEGY_SEARCH)
		o.capacity = fb->capacity;
	for (u32 i = 0; i < fb->n; i++)
		fb->t[i].offset = fb->t[i].flags & TPLAN_TENSOR_PINNED ?
				  fb->pin[i] : 0;
	ret = tplan_plan(fb->t, fb->n, &o, &res);
	if ((ret && ret != -ENOSPC) || tplan_validate_gaps(fb->t, fb->n, fb->gaps, fb->gap_count,
				       0, &f)) {
		printf("%s: strategy %s failed: %d\n", label,
		       tplan_strategy_name(strategy), ret);
		return -1;
	}
	for (u32 i = 0; i < fb->n; i++) {
		if ((fb->t[i].flags & TPLAN_TENSOR_PINNED) &&
		    fb->t[i].offset != fb->pin[i]) {
			printf("%s: strategy %s moved a pin\n", label,
			       tplan_strategy_name(strategy));
			return -1;
		}
	}
	if (strategy == TPLAN_STRATEGY_GREEDY_SIZE)
		printf(" %10llu", res.lower_bound);
	printf(" |%11llu %8.1f", res.peak, res.time_ns / 1e6);
	if (strategy == TPLAN_STRATEGY_SEARCH)
		printf(" %-8s", tplan_search_name(res.search));
	return 0;
}

static int plan_row(const char *label, struct constrained_bench *fb)
{
	u32 pinned = 0;
	int ret = 0;

	for (u32 i = 0; i < fb->n; i++)
		pinned += !!(fb->t[i].flags & TPLAN_TENSOR_PINNED);
	printf("%-22s %5u %5u %5u", label, fb->n, pinned, fb->gap_count);
	for (u32 k = 0; k < 3 && !ret; k++)
		ret = plan_one(label, fb, constrained_order[k]);
	putchar('\n');
	fflush(stdout);
	return ret;
}

/* Every fifth tensor pinned where search put it at the file's capacity. */
static int pin_from_search(struct constrained_bench *fb)
{
	struct tplan_options o = {
		.strategy = TPLAN_STRATEGY_SEARCH, .capacity = fb->capacity,
	};
	struct tplan_result res;

	if (tplan_plan(fb->t, fb->n, &o, &res))
		return -1;
	for (u32 i = 0; i < fb->n; i++) {
		fb->pin[i] = fb->t[i].offset;
		if (i % 5 == 4)
			fb->t[i].flags |= TPLAN_TENSOR_PINNED;
	}
	return 0;
}

static void add_gaps(struct constrained_bench *fb)
{
	for (u32 i = 0; i < fb->n; i++) {
		struct tplan_tensor *x = &fb->t[i];
		struct tplan_gap *g = &fb->gaps[fb->gap_count];

		if (i % 3 != 1 || x->upper - x->lower < 3)
			continue;
		memset(g, 0, sizeof(*g));
		g->lower = x->lower + 1;
		g->upper = x->upper - 1;
		if (i % 2) {
			g->flags = TPLAN_GAP_WINDOW;
			g->to = x->size / 2;
		}
		x->gap_first = fb->gap_count++;
		x->gap_count = 1;
	}
}

static int bench_constrained_file(const char *name, struct tplan_table *table,
			    u64 unused)
{
	const char *dot = strchr(name, '.');
	struct constrained_bench fb = { .n = table->count };
	char label[64];
	int ret = -1;

	fb.t = calloc(fb.n, sizeof(*fb.t));
	fb.pin = calloc(fb.n, sizeof(*fb.pin));
	fb.gaps = calloc(fb.n, sizeof(*fb.gaps));
	if (!fb.t || !fb.pin || !fb.gaps)
		goto out;
	memcpy(fb.t, table->tensors, fb.n * sizeof(*fb.t));
	fb.capacity = dot ? strtoull(dot + 1, NULL, 10) : 0;
	if (pin_from_search(&fb))
		goto out;
	snprintf(label, sizeof(label), "%.*s pins", (int)(dot ? dot - name : 8),
		 name);
	ret = plan_row(label, &fb);
	add_gaps(&fb);
	snprintf(label, sizeof(label), "%.*s pins+gaps",
		 (int)(dot ? dot - name : 8), name);
	ret |= plan_row(label, &fb);
out:
	free(fb.t);
	free(fb.pin);
	free(fb.gaps);
	return ret;
}

/**
 * bench_constrained() - the pins and gaps section
 * @challenging: the MiniMalloc challenging directory
 *
 * Return: 0, or -1 when a plan is broken or a table does not load.
 */
int bench_constrained(const char *challenging)
{
	printf("\nPins and gaps (MiniMalloc's offset and gaps columns): every "
	       "fifth tensor pinned where\nsearch put it at the file's "
	       "capacity; then gaps on every third.  search fits that\n"
	       "capacity again, auto aims at the lower bound\n%-22s %5s %5s %5s %10s "
	       "|%11s %8s |%11s %8s %-8s |%11s %8s\n", "table", "n", "pins",
	       "gaps", "lower bnd", "greedy-size", "ms", "search", "ms", "",
	       "auto", "ms");
	return bench_for_each_table(challenging, true, bench_constrained_file, 0);
}
