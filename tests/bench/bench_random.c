// SPDX-License-Identifier: MIT
/*
 * bench_random.c - tables with random lifetimes and sizes (thousands of
 * tensors alive at once, sizes that do not stack), from 10^4 to 2 x 10^6
 * tensors: auto with its default budget, and greedy-size where it ends in
 * seconds; then auto under time limits, on one of them and on MiniMalloc's
 * D and J, each next to the table's first plan.  Each plan is made in a
 * child process of its own, so that its peak RSS is its own, and checked
 * with the validator; a time-limited plan worse than the first plan fails
 * the run.  TPLAN_BENCH_SECTION=random runs it alone.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "gen.h"
#include "planner.h"

static const __u32 random_sizes[] = { 10000, 100000, 1000000, 2000000 };

/* greedy-size alone takes minutes above this. */
#define RANDOM_GREEDY_MAX	100000

static const __u64 time_limits_ms[] = { 1, 10, 100, 1000 };

/* Mean lifetime 100 steps, about 1500 alive at once, up to 1 MiB each. */
static struct tplan_tensor *random_lifetimes(__u32 n)
{
	struct gen_params p = {
		.n = n, .horizon = (__u64)n * 100 / 1500 + 1, .max_life = 199,
		.max_size = 1u << 20,
	};

	return gen_random_table(&p, 42);
}

struct random_plan {
	struct tplan_tensor *t;
	__u32 n;
	const struct tplan_options *o;
};

/* In a child: plan, check, print a column; nonzero on failure. */
static int plan_in_child(void *arg)
{
	const struct random_plan *p = arg;
	struct tplan_finding f;
	struct tplan_result res;
	struct rusage ru;

	if (tplan_plan(p->t, p->n, p->o, &res) ||
	    tplan_validate(p->t, p->n, 0, &f)) {
		printf(" | %-29s", "failed");
		return 1;
	}
	getrusage(RUSAGE_SELF, &ru);
	printf(" | %7.4f %8.1f %6.1fM %5ld", (double)res.peak / res.lower_bound,
	       res.time_ns / 1e6, res.work / 1e6, ru.ru_maxrss / 1024);
	return 0;
}

static int in_child(struct tplan_tensor *t, __u32 n,
		    const struct tplan_options *o)
{
	struct random_plan p = { t, n, o };

	return bench_in_child(plan_in_child, &p);
}

static int random_series(void)
{
	int ret = 0;

	printf("\nRandom lifetimes (mean 100 steps, ~1500 alive, sizes log-uniform"
	       " to 1 MiB, seed 42); per strategy: peak/bound, ms, work units,"
	       " peak RSS (MiB)\n%-10s | %-29s | %-29s\n", "n", "auto",
	       "greedy-size");
	for (__u32 i = 0; i < ARRAY_SIZE(random_sizes); i++) {
		__u32 n = random_sizes[i];
		struct tplan_tensor *t = random_lifetimes(n);
		struct tplan_options o = { .strategy = TPLAN_STRATEGY_AUTO };

		if (!t)
			return -1;
		printf("%-10" PRIu32, n);
		fflush(stdout);
		ret |= in_child(t, n, &o);
		o.strategy = TPLAN_STRATEGY_GREEDY_SIZE;
		if (n <= RANDOM_GREEDY_MAX)
			ret |= in_child(t, n, &o);
		else
			printf(" | %-29s", "(minutes)");
		putchar('\n');
		free(t);
	}
	return ret;
}

/*
 * The first plan auto makes: with a budget of one unit it stops right
 * after it, or (when greedy-size is its first plan) fails; then
 * greedy-size's.
 */
static int first_peak(struct tplan_tensor *t, __u32 n, __u64 *peak)
{
	struct tplan_options o = { .budget = 1 };
	struct tplan_result res;

	if (tplan_plan(t, n, &o, &res)) {
		o.strategy = TPLAN_STRATEGY_GREEDY_SIZE;
		o.budget = 0;
		if (tplan_plan(t, n, &o, &res))
			return -1;
	}
	*peak = res.peak;
	return 0;
}

/* One row: the first plan, then auto under each time limit. */
static int time_limit_row(const char *name, struct tplan_tensor *t, __u32 n)
{
	__u64 first;
	int ret = 0;

	if (first_peak(t, n, &first))
		return -1;
	printf("%-12s %12llu", name, (unsigned long long)first);
	for (__u32 i = 0; i < ARRAY_SIZE(time_limits_ms); i++) {
		struct tplan_options o = {
			.time_limit_ns = time_limits_ms[i] * 1000000,
		};
		struct tplan_result res;

		if (tplan_plan(t, n, &o, &res)) {
			printf(" %12s", "failed");
			ret = -1;
			continue;
		}
		printf(" %11llu%s", (unsigned long long)res.peak,
		       res.peak > first ? "!" : " ");
		if (res.peak > first)
			ret = -1;
	}
	putchar('\n');
	return ret;
}

static int time_limit_table(const char *dir, const char *name)
{
	char path[4096];
	struct tplan_table *t;
	struct tplan_error err;
	int ret;

	snprintf(path, sizeof(path), "%s/%s.1048576.csv", dir, name);
	if (tplan_table_load(path, &t, &err)) {
		printf("%-12s %s\n", name, err.msg);
		return -1;
	}
	ret = time_limit_row(name, t->tensors, t->count);
	tplan_table_free(t);
	return ret;
}

static int time_limit_series(const char *challenging)
{
	struct tplan_tensor *t = random_lifetimes(100000);
	int ret;

	printf("\nTime limits (auto, default budget): peak of the first plan,"
	       " then with each limit (\"!\": worse than the first plan)\n"
	       "%-12s %12s", "table", "first plan");
	for (__u32 i = 0; i < ARRAY_SIZE(time_limits_ms); i++)
		printf(" %9llu ms", (unsigned long long)time_limits_ms[i]);
	putchar('\n');
	if (!t)
		return -1;
	ret = time_limit_row("random-1e5", t, 100000);
	free(t);
	ret |= time_limit_table(challenging, "D");
	ret |= time_limit_table(challenging, "J");
	printf("never worse than the first plan: %s\n", ret ? "NO" : "yes");
	return ret;
}

/**
 * bench_random() - the random-lifetime and time-limit sections
 * @challenging: BENCH_DIR/minimalloc/challenging
 *
 * Return: 0, or -1 when a plan failed, was invalid, or a time-limited one
 * was worse than the first plan.
 */
int bench_random(const char *challenging)
{
	int ret = random_series();

	return time_limit_series(challenging) | ret;
}
