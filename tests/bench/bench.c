// SPDX-License-Identifier: MIT
/*
 * bench.c - every strategy on every bench table, side by side: peak, peak /
 * lower bound, and milliseconds.  Usage: tplan-bench BENCH_DIR
 * [TRAINING_DIR], where BENCH_DIR holds real/ and minimalloc/challenging/
 * (tests/data) and TRAINING_DIR training-step tables with uses
 * (tests/bench/training), planned like the real ones.  Then generated
 * tables whose optimum is their lower bound, and a scaling series; the
 * challenging files again with pins and gaps (bench_constrained.c).  Every
 * plan is checked with the validator; a broken one fails the run.  Then,
 * on the real tables, auto with alias_of ignored and honoured, and what the
 * small-tensor threshold costs (64 KiB).  Then plans written by MiniMalloc
 * (BENCH_DIR/minimalloc/outputs, or $TPLAN_MINIMALLOC_OUTPUTS) are checked
 * with the validator.  Last, the spill section (bench_spill.c;
 * TPLAN_BENCH_SECTION=spill runs it alone, =constrained the pins and gaps,
 * =large the large training graphs of BENCH_DIR/idealloc, bench_large.c,
 * =scaling the network series, =units what a work unit costs,
 * bench_units.c).  Budgets: the default (160M work
 * units, about a second) for strip and auto, and for search on MiniMalloc's
 * files, where it is asked to fit their capacity; elsewhere SEARCH_BUDGET
 * (about 10 s) for search, asked to fit the lower bound.  A table where
 * search reached the lower bound and auto, with its default budget, did
 * not is marked, and each group counts them.
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "gen.h"
#include "libtplan.h"
#include "planner.h"

static const u32 synthetic_sizes[] = { 1000, 10000, 100000 };
static const u32 perfect_sizes[] = { 50, 100, 200, 400 };

#define SEARCH_BUDGET	1000000000ull
#define PERFECT_SEEDS	5

/* How often each strategy reached the lower bound, per table group. */
static u32 reached[TPLAN_STRATEGY_COUNT], tables;
/* Tables where search reached the lower bound, and auto did too. */
static u32 search_at_bound, auto_too;
/* Challenging set: files search fitted at their capacity, and its time. */
static u32 fitted;
static double fitted_ms_max;

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Plans one table with every strategy and prints its row; 0 or -1.
 * @capacity: what search is asked to fit (0: the lower bound).
 */
static int bench_table(const char *label, struct tplan_tensor *t, u32 n,
		       u64 capacity)
{
	struct tplan_result res;
	struct tplan_finding f;
	bool bound[TPLAN_STRATEGY_COUNT];

	tables++;
	for (u32 s = 0; s < TPLAN_STRATEGY_COUNT; s++) {
		struct tplan_options o = { .strategy = s };
		int ret;

		if (s == TPLAN_STRATEGY_SEARCH) {
			/* a capacity (MiniMalloc's files): the default budget */
			o.budget = capacity ? 0 : SEARCH_BUDGET;
			o.capacity = capacity;
		}
		ret = tplan_plan(t, n, &o, &res);
		if ((ret && ret != -ENOSPC) || tplan_validate(t, n, 0, &f)) {
			printf("%s: strategy %s failed: %d\n", label,
			       tplan_strategy_name(s), ret);
			return -1;
		}
		if (!s)
			printf("%-26s %6" PRIu32 " %10llu", label, n,
			       res.lower_bound);
		if (s == TPLAN_STRATEGY_SEARCH && capacity && !ret) {
			fitted++;
			if (res.time_ns / 1e6 > fitted_ms_max)
				fitted_ms_max = res.time_ns / 1e6;
		}
		bound[s] = res.peak == res.lower_bound;
		reached[s] += bound[s];
		printf(" |%11llu %6.4f %8.1f", res.peak,
		       res.lower_bound ? (double)res.peak / res.lower_bound : 1.0,
		       res.time_ns / 1e6);
	}
	if (!capacity && bound[TPLAN_STRATEGY_SEARCH]) {
		search_at_bound++;
		auto_too += bound[TPLAN_STRATEGY_AUTO];
		if (!bound[TPLAN_STRATEGY_AUTO])
			printf("  auto (default budget) above the bound search reached");
	}
	putchar('\n');
	fflush(stdout);
	return 0;
}

static void print_header(const char *title)
{
	printf("\n%s\n%-26s %6s %10s", title, "table", "n", "lower bnd");
	for (u32 s = 0; s < TPLAN_STRATEGY_COUNT; s++)
		printf(" |%11s %6s %8s", tplan_strategy_name(s), "ratio", "ms");
	putchar('\n');
	memset(reached, 0, sizeof(reached));
	tables = 0;
	search_at_bound = 0;
	auto_too = 0;
}

static void print_reached(void)
{
	printf("%-44s", "reached the lower bound");
	for (u32 s = 0; s < TPLAN_STRATEGY_COUNT; s++)
		printf(" |%11s %3u of %-3u", "", reached[s], tables);
	putchar('\n');
	if (search_at_bound)
		printf("auto at the bound on %u of the %u tables where search"
		       " reached it\n", auto_too, search_at_bound);
}

/* The CSV files in @dir, sorted, into @names (strdup'ed); their number. */
static u32 list_csv(const char *dir, char **names, u32 max)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	u32 count = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)) && count < max) {
		size_t len = strlen(de->d_name);

		if (len > 4 && !strcmp(de->d_name + len - 4, ".csv"))
			names[count++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, count, sizeof(names[0]), cmp_str);
	return count;
}

static bool list_is_empty(const char *dir)
{
	char *names[1];
	u32 count = list_csv(dir, names, 1);

	if (count)
		free(names[0]);
	return !count;
}

/* MiniMalloc's files name their capacity: X.1048576.csv. */
static u64 capacity_in_name(const char *name)
{
	const char *dot = strchr(name, '.');

	return dot ? strtoull(dot + 1, NULL, 10) : 0;
}

/*
 * Calls @fn on every CSV table in @dir (sorted by name), with its file name
 * and the u64 @arg; 0, or -1 when a table does not load or @fn fails.
 * @need_any: no table in @dir is a failure too.
 */
int bench_for_each_table(const char *dir, bool need_any,
			 int (*fn)(const char *name, struct tplan_table *t,
				   u64 arg),
			 u64 arg)
{
	struct tplan_table *table;
	struct tplan_error err;
	char *names[512], path[8192];
	u32 count = list_csv(dir, names, 512);
	int ret = 0;

	if (!count && need_any) {
		printf("%s: no tables\n", dir);
		ret = -1;
	}
	for (u32 i = 0; i < count; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (tplan_table_load(path, &table, &err)) {
			printf("%s\n", err.msg);
			ret = -1;
		} else {
			if (fn(names[i], table, arg))
				ret = -1;
			tplan_table_free(table);
		}
		free(names[i]);
	}
	return ret;
}

/* Every strategy on one file; MiniMalloc's search fits their capacity. */
static int bench_file(const char *name, struct tplan_table *t, u64 unused)
{
	return bench_table(name, t->tensors, t->count, capacity_in_name(name));
}

/*
 * The MiniMalloc challenging set: search, with the default budget, fits
 * each file's capacity; the count and the slowest fit.  MiniMalloc took
 * 0.6-7.0 s per file on this kind of machine.
 */
static int bench_challenging(const char *dir)
{
	int ret;

	print_header("MiniMalloc challenging (search fits capacity 1048576, default budget)");
	fitted = 0;
	fitted_ms_max = 0;
	ret = bench_for_each_table(dir, true, bench_file, 0);
	print_reached();
	printf("search fitted the capacity on %u of %u (slowest %.1f ms;"
	       " MiniMalloc: 0.6-7.0 s each)\n", fitted, tables,
	       fitted_ms_max);
	return ret;
}

/*
 * A plan written by MiniMalloc itself (an --output file, named like its
 * input), checked with our validator against the capacity in the name.
 */
static int check_minimalloc_output(const char *name, struct tplan_table *t,
				   u64 unused)
{
	struct tplan_finding f;

	if (!(t->columns & TPLAN_COLUMN_OFFSET) ||
	    tplan_table_validate(t, capacity_in_name(name), &f)) {
		printf("%-26s INVALID (%s)\n", name,
		       t->columns & TPLAN_COLUMN_OFFSET ?
		       tplan_defect_name(f.defect) : "no offset column");
		return -1;
	}
	printf("%-26s valid, peak %llu\n", name, tplan_peak(t->tensors, t->count));
	return 0;
}

/* auto's bound and peak with alias_of ignored and honoured. */
static int compare_aliases(const char *name, struct tplan_table *t, u64 unused)
{
	struct tplan_options o = { .strategy = TPLAN_STRATEGY_AUTO };
	struct tplan_result plain, aliased;
	struct tplan_finding f;
	int ret = 0;

	if (tplan_table_plan(t, &o, &plain))
		ret = -1;
	o.flags = TPLAN_PLAN_ALIASES;
	if (tplan_table_plan(t, &o, &aliased) ||
	    tplan_validate_aliases(t->tensors, t->count, 0, &f))
		ret = -1;
	printf("%-26s %11llu %11llu %11llu %11llu%s\n", name,
	       plain.lower_bound, plain.peak, aliased.lower_bound, aliased.peak,
	       aliased.peak > plain.peak ? "  HIGHER" : "");
	return ret;
}

/* What keeping tensors under @below bytes apart (small_below) costs auto. */
static int compare_small_apart(const char *name, struct tplan_table *t,
			       u64 below)
{
	struct tplan_options o = { .strategy = TPLAN_STRATEGY_AUTO };
	struct tplan_result without, with;
	int ret = 0;

	if (tplan_table_plan(t, &o, &without))
		ret = -1;
	o.small_below = below;
	if (tplan_table_plan(t, &o, &with))
		ret = -1;
	printf("%-26s %10llu %11llu %11llu %7.2f%%\n", name,
	       without.lower_bound, without.peak, with.peak,
	       100.0 * ((double)with.peak / without.peak - 1));
	return ret;
}

/* Model pairs from bench/real: serial needs the larger, not the sum. */
static const char *const model_pairs[][2] = {
	{ "resnet18_b1", "squeezenet1_1_b1" },
	{ "mobilenet_v2_b1", "efficientnet_b0_b1" },
	{ "googlenet_b1", "inception_v3_b1" },
	{ "resnet50_b1", "densenet121_b1" },
	{ "vgg16_b1", "convnext_tiny_b1" },
};

/* Weights of a shared backbone, added to each model of a pair. */
#define SHARED_WEIGHTS	(4ull << 20)

/* One weights tensor per model, alive throughout, with one share_key. */
static void add_shared_weights(struct tplan_table **table)
{
	struct tplan_table *t = *table;
	struct tplan_tensor *grown;
	u32 k;

	grown = realloc(t->tensors, (t->count + 2) * sizeof(*grown));
	if (!grown) {
		tplan_table_free(t);
		*table = NULL;
		return;
	}
	t->tensors = grown;
	free(t->names);		/* ids are numbers from here on */
	t->names = NULL;
	for (k = 0; k < 2; k++) {
		struct tplan_tensor *w = &t->tensors[t->count++];
		u64 end = 1;

		for (u32 i = 0; i + 1 < t->count; i++)
			if (t->tensors[i].model == k && t->tensors[i].upper > end)
				end = t->tensors[i].upper;
		*w = (struct tplan_tensor){ .id = UINT64_MAX, .upper = end,
					    .size = SHARED_WEIGHTS, .alignment = 64,
					    .model = k, .share_key = 1 };
	}
}

static struct tplan_table *load_pair(const char *dir, const char *const *pair,
				     bool weights)
{
	struct tplan_table *parts[2] = { NULL, NULL }, *merged = NULL;
	const char *names[2] = { pair[0], pair[1] };
	struct tplan_error err;
	char path[4096];
	u32 k;

	for (k = 0; k < 2; k++) {
		if (snprintf(path, sizeof(path), "%s/%s.csv", dir, pair[k]) >=
		    (int)sizeof(path) ||
		    tplan_table_load(path, &parts[k], &err))
			printf("%s\n", err.msg);
	}
	if (parts[0] && parts[1] &&
	    tplan_table_merge(parts, 2, names, &merged, &err))
		printf("%s\n", err.msg);
	tplan_table_free(parts[0]);
	tplan_table_free(parts[1]);
	if (merged && weights)
		add_shared_weights(&merged);
	return merged;
}

static u64 peak_with(struct tplan_table *t, u32 flags)
{
	struct tplan_options o = { .strategy = TPLAN_STRATEGY_AUTO,
				   .flags = flags };
	struct tplan_result res;
	struct tplan_finding f;

	if (tplan_table_plan(t, &o, &res) ||
	    tplan_validate_plan(t->tensors, t->count, &o, &f))
		return 0;
	return res.peak;
}

static int compare_models(const char *dir, const char *const *pair,
			  bool weights)
{
	struct tplan_options o = { .strategy = TPLAN_STRATEGY_AUTO };
	struct tplan_table *t = load_pair(dir, pair, weights);
	u64 apart, serial, concurrent;
	char label[64];

	if (!t || tplan_table_plan_apart(t, &o, NULL, NULL, &apart))
		return -1;
	serial = peak_with(t, TPLAN_PLAN_SERIAL);
	concurrent = peak_with(t, 0);
	snprintf(label, sizeof(label), "%s+%s", pair[0], pair[1]);
	printf("%-36s %11llu %11llu %11llu %7.1f%%\n", label, apart,
	       concurrent, serial, 100.0 * (1 - (double)serial / apart));
	tplan_table_free(t);
	return serial && concurrent ? 0 : -1;
}

static int bench_models(const char *dir)
{
	int ret = 0;

	for (int weights = 0; weights < 2; weights++) {
		if (weights)
			printf("... each with a shared 4 MiB weights tensor"
			       " (share_key 1)\n");
		for (u32 i = 0; i < ARRAY_SIZE(model_pairs); i++)
			ret |= compare_models(dir, model_pairs[i], weights);
	}
	return ret;
}

/* A deterministic spread of priorities 1..10. */
static u32 bench_priority(u32 row)
{
	return 1 + (row * 37) % 10;
}

static u64 weight_in(const struct tplan_table *t, u32 tier)
{
	u64 sum = 0;

	for (u32 i = 0; i < t->count; i++)
		if (t->tensors[i].tier == tier)
			sum += t->tensors[i].size * bench_priority(i);
	return sum;
}

/*
 * The fast tier (tier 0): filled by priority, against filled in arrival order
 * (the same planner, priority = earlier first); the share of the
 * priority-weighted bytes each puts in the fast tier.
 */
static int compare_tiers(const char *name, struct tplan_table *t, u64 fast)
{
	struct tplan_options o = { .strategy = TPLAN_STRATEGY_AUTO,
				   .tier_count = 2,
				   .tier_capacity = { fast, 0 } };
	struct tplan_result res;
	struct tplan_finding f;
	u64 ours, arrival, total;
	u64 peak0;

	for (u32 i = 0; i < t->count; i++)
		t->tensors[i].priority = t->count - i;
	if (tplan_table_plan(t, &o, &res))
		return -1;
	arrival = weight_in(t, 0);
	for (u32 i = 0; i < t->count; i++)
		t->tensors[i].priority = bench_priority(i);
	if (tplan_table_plan(t, &o, &res) ||
	    tplan_validate_plan(t->tensors, t->count, &o, &f))
		return -1;
	ours = weight_in(t, 0);
	total = ours + weight_in(t, 1);
	peak0 = res.tier_peak[0];
	printf("%-26s %10llu %10llu %10.1f%% %10.1f%%\n", name, fast, peak0,
	       100.0 * ours / total, 100.0 * arrival / total);
	return 0;
}

static int bench_synthetic(void)
{
	char label[64];
	int ret = 0;

	for (u32 i = 0; i < sizeof(synthetic_sizes) / sizeof(u32); i++) {
		u32 n = synthetic_sizes[i];
		struct tplan_tensor *t = gen_network_table(n, 42);

		snprintf(label, sizeof(label), "network-%" PRIu32, n);
		if (!t || bench_table(label, t, n, 0))
			ret = -1;
		free(t);
	}
	return ret;
}

/* Plans per strategy at 10^6 tensors: the median of these is reported. */
#define MILLION_RUNS	5

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * 10^6 tensors: greedy-size and auto with their default budgets (auto must
 * never fail where greedy-size succeeds), each MILLION_RUNS times, taking
 * turns, so that a slow spell of a shared machine does not make the
 * figure: the median time, the fastest and slowest, and the peak memory.
 * The plan is the same every run (checked).
 */
static int million_runs(void)
{
	const u32 n = 1000000;
	const u32 strategies[] = { TPLAN_STRATEGY_GREEDY_SIZE,
				   TPLAN_STRATEGY_AUTO };
	struct tplan_tensor *t = gen_network_table(n, 42);
	double ms[2][MILLION_RUNS];
	struct tplan_result res, first[2];
	struct tplan_finding f;
	struct rusage ru;
	int ret = t ? 0 : -1;

	printf("\n10^6 tensors (network-%" PRIu32 "), %d runs each, taking turns\n"
	       "%-12s %10s %10s %7s %9s %15s %8s\n", n, MILLION_RUNS,
	       "strategy", "lower bnd", "peak", "ratio", "median ms",
	       "fastest-slowest", "max MiB");
	for (u32 r = 0; !ret && r < MILLION_RUNS * 2; r++) {
		u32 i = r % 2;
		struct tplan_options o = { .strategy = strategies[i] };

		ret = tplan_plan(t, n, &o, &res);
		if (ret || tplan_validate(t, n, 0, &f) ||
		    (r >= 2 && (res.peak != first[i].peak ||
				res.work != first[i].work))) {
			printf("%s failed: %d\n", tplan_strategy_name(o.strategy),
			       ret);
			ret = -1;
			break;
		}
		if (r < 2)
			first[i] = res;
		ms[i][r / 2] = res.time_ns / 1e6;
	}
	getrusage(RUSAGE_SELF, &ru);
	for (u32 i = 0; !ret && i < 2; i++) {
		qsort(ms[i], MILLION_RUNS, sizeof(ms[i][0]), cmp_double);
		printf("%-12s %10llu %10llu %7.4f %9.1f %7.1f-%-7.1f %8ld\n",
		       tplan_strategy_name(strategies[i]), first[i].lower_bound,
		       first[i].peak, (double)first[i].peak / first[i].lower_bound,
		       ms[i][MILLION_RUNS / 2], ms[i][0], ms[i][MILLION_RUNS - 1],
		       ru.ru_maxrss / 1024);
	}
	free(t);
	return ret;
}

/**
 * bench_in_child() - run @fn in a process of its own
 * @fn: the measurement; nonzero when it failed
 * @arg: passed to @fn
 *
 * Its peak memory is then its own, and what earlier sections left of
 * this process's heap does not slow it (docs/BENCHMARKS.md, "10^6
 * tensors").
 *
 * Return: 0, or -1 when @fn failed or could not run.
 */
int bench_in_child(int (*fn)(void *arg), void *arg)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int ret = fn(arg);

		fflush(stdout);
		_exit(ret ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid ||
	    !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return 0;
}

static int million_in_child(void *unused)
{
	return million_runs();
}

static int bench_million(void)
{
	return bench_in_child(million_in_child, NULL);
}

static int bench_perfect(void)
{
	char label[64];
	int ret = 0;

	for (u32 i = 0; i < sizeof(perfect_sizes) / sizeof(u32); i++) {
		for (u32 seed = 1; seed <= PERFECT_SEEDS; seed++) {
			u32 n = perfect_sizes[i];
			struct tplan_tensor *t = gen_perfect_table(n, 4 * n, 4096,
								   seed);

			snprintf(label, sizeof(label), "perfect-%" PRIu32 "-s%" PRIu32,
				 n, seed);
			if (!t || bench_table(label, t, n, 0))
				ret = -1;
			free(t);
		}
	}
	return ret;
}

int main(int argc, char **argv)
{
	const char *outputs = getenv("TPLAN_MINIMALLOC_OUTPUTS");
	const char *section = getenv("TPLAN_BENCH_SECTION");
	char real[4096], challenging[4096], mm_out[4096], large[4096];
	int ret = 0;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: tplan-bench BENCH_DIR [TRAINING_DIR]\n");
		return 2;
	}
	snprintf(real, sizeof(real), "%s/real", argv[1]);
	snprintf(challenging, sizeof(challenging), "%s/minimalloc/challenging",
		 argv[1]);
	snprintf(mm_out, sizeof(mm_out), "%s/minimalloc/outputs", argv[1]);
	snprintf(large, sizeof(large), "%s/idealloc", argv[1]);
	if (!outputs)
		outputs = mm_out;
	if (section && !strcmp(section, "spill"))
		return bench_spill(real, argc == 3 ? argv[2] : "") ? 1 : 0;
	if (section && !strcmp(section, "constrained"))
		return bench_constrained(challenging) ? 1 : 0;
	if (section && !strcmp(section, "large"))
		return bench_large(large) ? 1 : 0;
	if (section && !strcmp(section, "random"))
		return bench_random(challenging) ? 1 : 0;
	if (section && !strcmp(section, "units"))
		return bench_units(challenging, large) ? 1 : 0;
	if (section && !strcmp(section, "scaling")) {
		print_header("Scaling: network-shaped tables");
		return bench_synthetic() | bench_million() ? 1 : 0;
	}

	print_header("Real networks (bench/real)");
	ret |= bench_for_each_table(real, true, bench_file, 0);
	print_reached();
	if (argc == 3) {
		print_header("Training steps, forward + backward (tests/bench/training)");
		ret |= bench_for_each_table(argv[2], true, bench_file, 0);
		print_reached();
	}
	ret |= bench_challenging(challenging);
	ret |= bench_constrained(challenging);
	print_header("Generated: optimum == lower bound (cut from a rectangle)");
	ret |= bench_perfect();
	print_reached();
	ret |= bench_large(large);
	ret |= bench_random(challenging);
	ret |= bench_units(challenging, large);
	print_header("Scaling: network-shaped tables");
	ret |= bench_synthetic();
	ret |= bench_million();

	printf("\nIn-place aliases: auto, alias_of ignored and honoured\n"
	       "%-26s %11s %11s %11s %11s\n", "table", "lower bnd", "peak",
	       "aliased bnd", "aliased");
	ret |= bench_for_each_table(real, true, compare_aliases, 0);
	printf("\nSmall-tensor threshold: auto, tensors under %u bytes never "
	       "reused\n%-26s %10s %11s %11s %8s\n", 65536, "table",
	       "lower bnd", "peak", "kept apart", "cost");
	ret |= bench_for_each_table(real, true, compare_small_apart, 65536);
	printf("\nSeveral models (auto): each alone, summed; together"
	       " concurrent; together serial\n%-36s %11s %11s %11s %8s\n",
	       "models", "apart", "concurrent", "serial", "saved");
	ret |= bench_models(real);
	printf("\nTiers (auto): a fast tier of 256 KiB, the rest slow;"
	       " priorities 1-10; share of\npriority-weighted bytes in the"
	       " fast tier, filled by priority or in arrival order\n"
	       "%-26s %10s %10s %11s %11s\n", "table", "fast cap", "fast peak",
	       "priority", "arrival");
	ret |= bench_for_each_table(real, true, compare_tiers, 256 << 10);
	printf("\nMiniMalloc's own plans in %s%s\n", outputs,
	       list_is_empty(outputs) ?
	       ": none (put minimalloc --output files there to check them)" : "");
	ret |= bench_for_each_table(outputs, false, check_minimalloc_output, 0);
	ret |= bench_spill(real, argc == 3 ? argv[2] : "");
	return ret ? 1 : 0;
}
