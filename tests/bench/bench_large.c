// SPDX-License-Identifier: MIT
/*
 * bench_large.c - large training graphs (BENCH_DIR/idealloc: tens of
 * thousands of tensors, thousands alive at once): every strategy but naive
 * with its default budget, each in a child process of its own so that its
 * peak RSS is its own.  Prints peak / lower bound, milliseconds, work units
 * and peak RSS; every plan is checked with the validator, and auto must be
 * within LARGE_AUTO_MAX of the bound (the run fails otherwise).
 * TPLAN_BENCH_SECTION=large runs it alone.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "planner.h"

/* auto's plan may end at most 1/1000 above the lower bound. */
#define LARGE_AUTO_MAX_PERMILLE	1001

static const __u32 large_strategies[] = {
	TPLAN_STRATEGY_GREEDY_SIZE, TPLAN_STRATEGY_STRIP,
	TPLAN_STRATEGY_SEARCH, TPLAN_STRATEGY_AUTO,
};

struct large_plan {
	struct tplan_table *t;
	__u32 strategy;
};

/* In a child: plan, check, print one column; nonzero when it fails. */
static int plan_in_child(void *arg)
{
	const struct large_plan *p = arg;
	struct tplan_table *t = p->t;
	__u32 strategy = p->strategy;
	struct tplan_options o = { .strategy = strategy };
	struct tplan_finding f;
	struct tplan_result res;
	struct rusage ru;
	int bad;

	if (tplan_table_plan(t, &o, &res) ||
	    tplan_validate(t->tensors, t->count, 0, &f)) {
		printf(" | %-11s failed", tplan_strategy_name(strategy));
		return 1;
	}
	getrusage(RUSAGE_SELF, &ru);
	bad = strategy == TPLAN_STRATEGY_AUTO &&
	      res.peak * 1000 > res.lower_bound * LARGE_AUTO_MAX_PERMILLE;
	printf(" | %7.4f%s %7.1f %6.1fM %5ld", (double)res.peak / res.lower_bound,
	       bad ? "!" : " ", res.time_ns / 1e6, res.work / 1e6,
	       ru.ru_maxrss / 1024);
	return bad;
}

static int bench_large_table(const char *name, struct tplan_table *t,
			     __u64 unused)
{
	__u64 bound;
	int ret = 0;

	if (tplan_lower_bound(t->tensors, t->count, &bound))
		return -1;
	printf("%-22s %6" PRIu32 " %11llu", name, t->count, bound);
	fflush(stdout);
	for (__u32 i = 0; i < ARRAY_SIZE(large_strategies); i++) {
		struct large_plan p = { t, large_strategies[i] };

		if (bench_in_child(plan_in_child, &p))
			ret = -1;
	}
	putchar('\n');
	return ret;
}

/**
 * bench_large() - the large-graph section
 * @dir: BENCH_DIR/idealloc
 *
 * Return: 0, or -1 when a plan failed, was invalid, or auto's was more than
 * 1/1000 above the bound (marked "!").
 */
int bench_large(const char *dir)
{
	int ret;

	printf("\nLarge training graphs (%s), default budgets; per strategy:"
	       " peak/bound, ms, work units, peak RSS (MiB)\n%-22s %6s %11s",
	       dir, "table", "n", "lower bnd");
	for (__u32 i = 0; i < ARRAY_SIZE(large_strategies); i++)
		printf(" | %-30s", tplan_strategy_name(large_strategies[i]));
	putchar('\n');
	ret = bench_for_each_table(dir, true, bench_large_table, 0);
	printf("auto within %d.%03d x bound on every table: %s\n",
	       LARGE_AUTO_MAX_PERMILLE / 1000, LARGE_AUTO_MAX_PERMILLE % 1000,
	       ret ? "NO" : "yes");
	return ret;
}
