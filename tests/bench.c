// SPDX-License-Identifier: MIT
/*
 * bench.c - every strategy on every bench table, side by side: peak, peak /
 * lower bound, and milliseconds.  Usage: tplan-bench BENCH_DIR, where
 * BENCH_DIR holds real/ and minimalloc/challenging/ (../shared/bench).
 * Every plan is checked with the validator; a broken one fails the run.
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "tplan.h"

static const u32 synthetic_sizes[] = { 1000, 10000, 100000 };

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void print_header(void)
{
	printf("%-30s %7s %12s", "table", "tensors", "lower bound");
	for (u32 s = 0; s < TPLAN_STRATEGY_COUNT; s++)
		printf(" | %-12s %7s %9s", tplan_strategy_name(s), "ratio", "ms");
	putchar('\n');
}

/* Plans one table with every strategy and prints its row; 0 or -1. */
static int bench_table(const char *label, struct tplan_tensor *t, u32 n)
{
	struct tplan_result res;
	struct tplan_finding f;
	int bad = 0;

	for (u32 s = 0; s < TPLAN_STRATEGY_COUNT; s++) {
		struct tplan_options o = { .strategy = s };

		if (tplan_plan(t, n, &o, &res) || tplan_validate(t, n, 0, &f)) {
			printf("%s: strategy %s failed\n", label,
			       tplan_strategy_name(s));
			return -1;
		}
		if (!s)
			printf("%-30s %7" PRIu32 " %12llu", label, n,
			       res.lower_bound);
		printf(" | %-12llu %7.4f %9.3f", res.peak,
		       res.lower_bound ? (double)res.peak / res.lower_bound : 1.0,
		       res.time_ns / 1e6);
	}
	putchar('\n');
	fflush(stdout);
	return bad;
}

static int bench_dir(const char *dir)
{
	struct tplan_table *table;
	struct tplan_error err;
	char *names[512], path[4096];
	u32 count = 0;
	struct dirent *de;
	DIR *d = opendir(dir);
	int ret = 0;

	if (!d) {
		printf("%s: cannot open (skipped)\n", dir);
		return -1;
	}
	while ((de = readdir(d)) && count < 512) {
		size_t len = strlen(de->d_name);

		if (len > 4 && !strcmp(de->d_name + len - 4, ".csv"))
			names[count++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, count, sizeof(names[0]), cmp_str);
	for (u32 i = 0; i < count; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (tplan_table_load(path, &table, &err)) {
			printf("%s\n", err.msg);
			ret = -1;
		} else {
			if (bench_table(names[i], table->tensors, table->count))
				ret = -1;
			tplan_table_free(table);
		}
		free(names[i]);
	}
	return ret;
}

static int bench_synthetic(void)
{
	char label[64];
	int ret = 0;

	for (u32 i = 0; i < sizeof(synthetic_sizes) / sizeof(u32); i++) {
		u32 n = synthetic_sizes[i];
		struct tplan_tensor *t = gen_network_table(n, 42);

		snprintf(label, sizeof(label), "synthetic-network-%" PRIu32, n);
		if (!t || bench_table(label, t, n))
			ret = -1;
		free(t);
	}
	return ret;
}

int main(int argc, char **argv)
{
	char dir[4096];
	int ret = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: tplan-bench BENCH_DIR\n");
		return 2;
	}
	print_header();
	snprintf(dir, sizeof(dir), "%s/real", argv[1]);
	ret |= bench_dir(dir);
	snprintf(dir, sizeof(dir), "%s/minimalloc/challenging", argv[1]);
	ret |= bench_dir(dir);
	ret |= bench_synthetic();
	return ret ? 1 : 0;
}
