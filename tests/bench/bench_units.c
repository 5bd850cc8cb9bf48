// SPDX-License-Identifier: MIT
/*
 * bench_units.c - what a work unit costs: each searching strategy and
 * greedy-size on tables of unlike shapes, with their default budgets, and
 * the time of a unit (ns) in each run that spends at least UNITS_LEAST.
 * A unit is meant to cost about the same everywhere (docs/PLANNER.md,
 * "Work units"); the last line gives the spread.  Nothing fails here: the
 * figures are for reading.  TPLAN_BENCH_SECTION=units runs it alone.
 *
 * Time here is this process's CPU time, not the wall clock: the planner
 * runs on one thread, and on a shared machine the wall clock also counts
 * the time other processes had the CPU.  Each figure is the least of
 * UNITS_RUNS plans: others' use of the caches and memory only adds to it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "gen.h"
#include "planner.h"

/* Runs below this many units are mostly set-up: not counted. */
#define UNITS_LEAST	400000ull
/* Plans timed per strategy and table; the least time counts. */
#define UNITS_RUNS	3

static const __u32 unit_strategies[] = {
	TPLAN_STRATEGY_GREEDY_SIZE, TPLAN_STRATEGY_STRIP,
	TPLAN_STRATEGY_SEARCH, TPLAN_STRATEGY_AUTO,
};

struct unit_spread {
	double least;
	double most;
};

static double cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/*
 * The least CPU time of UNITS_RUNS plans of @t (into @copy) with @o, or -1
 * when one fails.  The plan and its work are the same each run; a shared
 * machine only ever adds time, so the least is the closest to the cost.
 */
static double least_cpu_ns(struct tplan_tensor *copy,
			   const struct tplan_tensor *t, __u32 n,
			   const struct tplan_options *o, struct tplan_result *res)
{
	double least = 0, cpu;

	for (int run = 0; run < UNITS_RUNS; run++) {
		memcpy(copy, t, sizeof(*copy) * n);
		cpu = cpu_ns();
		if (tplan_plan(copy, n, o, res))
			return -1;
		cpu = cpu_ns() - cpu;
		if (!run || cpu < least)
			least = cpu;
	}
	return least;
}

/* One row: each strategy's ms, units and ns per unit on a copy of @t. */
static int units_row(const char *name, const struct tplan_tensor *t, __u32 n,
		     struct unit_spread *spread)
{
	struct tplan_tensor *copy = malloc(sizeof(*copy) * n);
	int ret = copy ? 0 : -1;

	printf("%-16s %7u", name, n);
	for (__u32 i = 0; !ret && i < ARRAY_SIZE(unit_strategies); i++) {
		struct tplan_options o = { .strategy = unit_strategies[i] };
		struct tplan_result res;
		double ns, cpu;

		cpu = least_cpu_ns(copy, t, n, &o, &res);
		if (cpu < 0) {
			printf(" | %-24s", "failed");
			ret = -1;
			break;
		}
		ns = res.work ? cpu / res.work : 0;
		printf(" | %7.1f %7.1fM %6.1f%s", cpu / 1e6,
		       res.work / 1e6, ns, res.work < UNITS_LEAST ? "-" : " ");
		if (res.work >= UNITS_LEAST) {
			if (!spread->least || ns < spread->least)
				spread->least = ns;
			if (ns > spread->most)
				spread->most = ns;
		}
	}
	putchar('\n');
	free(copy);
	return ret;
}

static int units_file(const char *path, const char *name,
		      struct unit_spread *spread)
{
	struct tplan_table *table;
	struct tplan_error err;
	int ret;

	if (tplan_table_load(path, &table, &err)) {
		printf("%s\n", err.msg);
		return -1;
	}
	ret = units_row(name, table->tensors, table->count, spread);
	tplan_table_free(table);
	return ret;
}

static int units_generated(const char *name, struct tplan_tensor *t, __u32 n,
			   struct unit_spread *spread)
{
	int ret = t ? units_row(name, t, n, spread) : -1;

	free(t);
	return ret;
}

static void print_spread(const char *which, const struct unit_spread *s)
{
	if (s->least)
		printf("ns per unit%s: %.1f to %.1f (%.1f x)\n", which,
		       s->least, s->most, s->most / s->least);
}

/*
 * Tables of shapes and seeds the search's weights were not fitted to
 * (docs/PLANNER.md, "Work units"): how far the spread holds beyond them.
 */
static int units_held_out(const char *challenging)
{
	const struct gen_params shapes[] = {
		{ .n = 500, .horizon = 200, .max_life = 60, .max_size = 65536,
		  .max_align_log2 = 6 },
		{ .n = 1500, .horizon = 400, .max_life = 120,
		  .max_size = 1 << 20 },
		{ .n = 12000, .horizon = 3000, .max_life = 50,
		  .max_size = 1 << 16 },
	};
	static const char *const files[] = { "E.1048576.csv", "I.1048576.csv" };
	struct unit_spread spread = { 0 };
	char name[32], path[4096];
	int ret = 0;

	printf("not fitted to:\n");
	for (__u32 i = 0; i < ARRAY_SIZE(shapes); i++) {
		snprintf(name, sizeof(name), "random-%u-s%u", shapes[i].n, i + 3);
		ret |= units_generated(name, gen_random_table(&shapes[i], i + 3),
				       shapes[i].n, &spread);
	}
	ret |= units_generated("network-30000-s5",
			       gen_network_table(30000, 5), 30000, &spread);
	for (__u32 i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "%s/%s", challenging, files[i]);
		ret |= units_file(path, files[i], &spread);
	}
	print_spread(" (not fitted to)", &spread);
	return ret;
}

/**
 * bench_units() - the work units section
 * @challenging: BENCH_DIR/minimalloc/challenging
 * @large: BENCH_DIR/idealloc
 *
 * Return: 0, or -1 when a table could not be read or planned.
 */
int bench_units(const char *challenging, const char *large)
{
	/* random lifetimes, random alignments: a bound out of reach */
	const struct gen_params aligned = {
		.n = 200, .horizon = 100, .max_life = 30, .max_size = 8192,
		.max_align_log2 = 8,
	};
	const struct gen_params wide = {
		.n = 3000, .horizon = 300, .max_life = 40, .max_size = 100000,
	};
	static const char *const files[][2] = {
		{ "challenging", "D.1048576.csv" },
		{ "challenging", "J.1048576.csv" },
		{ "large", "somas_resnet50.csv" },
		{ "large", "somas_bert_large.csv" },
		{ "large", "iopddl_S_1.csv" },
	};
	struct unit_spread spread = { 0 };
	char path[4096];
	int ret = 0;

	printf("\nWork units, default budgets; per strategy: CPU ms, units, ns per unit"
	       " (- : under %lluk units, not counted)\n%-16s %7s",
	       UNITS_LEAST / 1000, "table", "n");
	for (__u32 i = 0; i < ARRAY_SIZE(unit_strategies); i++)
		printf(" | %-24s", tplan_strategy_name(unit_strategies[i]));
	putchar('\n');
	ret |= units_generated("random-200-align",
			       gen_random_table(&aligned, 42), aligned.n,
			       &spread);
	ret |= units_generated("random-3000", gen_random_table(&wide, 42),
			       wide.n, &spread);
	ret |= units_generated("network-100000",
			       gen_network_table(100000, 42), 100000, &spread);
	for (__u32 i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "%s/%s",
			 files[i][0][0] == 'c' ? challenging : large,
			 files[i][1]);
		ret |= units_file(path, files[i][1], &spread);
	}
	print_spread("", &spread);
	return ret | units_held_out(challenging);
}
