// SPDX-License-Identifier: MIT
/*
 * bench_spill.c - the bench's spill section: tables that do not fit, at
 * 90 %, 75 % and 50 % of their lower bound, planned by ga, furthest and
 * the default, side by side: bytes moved and milliseconds each, the
 * bound on moved bytes, and the default's host staging peak.  Every plan
 * is checked with tplan_validate_spill() and carried out in the documented
 * order (spill_exec.c); a broken one fails the run, and so does a default
 * moving more than ga or furthest.
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "gen.h"
#include "libtplan.h"
#include "planner.h"
#include "spill_exec.h"

static const u32 spill_pcts[] = { 90, 75, 50 };
static const u32 spill_order[] = { TPLAN_SPILL_GA, TPLAN_SPILL_FURTHEST,
				   TPLAN_SPILL_DEFAULT };
static const u32 training_layers[] = { 16, 32, 64, 128 };

#define TRAINING_SEEDS	2

/**
 * struct spill_tally - how the default did against both baselines, per
 * capacity
 * @planned: rows every strategy planned
 * @refused: rows no plan can exist for (a step's used tensors)
 * @no_more: rows where the default moved no more than ga and furthest
 * @less: rows where it moved strictly less than both
 * @worse: rows where it moved more than either
 */
struct spill_tally {
	u32 planned;
	u32 refused;
	u32 no_more;
	u32 less;
	u32 worse;
};

static struct spill_tally tally[ARRAY_SIZE(spill_pcts)];

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

/* One strategy; 0 planned and valid, 1 no plan (ENOSPC), -1 broken. */
static int spill_one(const struct tplan_tensor *t, u32 n,
		     const struct tplan_uses *u, u64 cap, u32 strategy,
		     struct tplan_piece *p, struct tplan_spill_result *r,
		     double *ms)
{
	struct tplan_spill_options o = { .strategy = strategy,
					 .capacity = cap };
	struct spill_exec_fault fault;
	struct tplan_finding f;
	u64 t0 = now_ns();
	int ret;

	ret = tplan_spill_plan(t, n, u, &o, p, tplan_spill_max_pieces(t, n, u),
			       r);
	*ms = (now_ns() - t0) / 1e6;
	if (ret == -ENOSPC)
		return 1;
	if (ret || tplan_validate_spill(t, n, u, p, r->pieces, cap, &f)) {
		printf("  %s: %d, %s\n", tplan_spill_strategy_name(strategy),
		       ret, ret ? "" : tplan_defect_name(f.defect));
		return -1;
	}
	if (spill_execute(t, n, u, p, r->pieces, &fault)) {
		printf("  %s: tensor %u %s at step %llu\n",
		       tplan_spill_strategy_name(strategy), fault.tensor,
		       fault.what, (unsigned long long)fault.step);
		return -1;
	}
	return 0;
}

/* Every strategy at one capacity, one line. */
static int spill_row(const char *label, const struct tplan_tensor *t, u32 n,
		     const struct tplan_uses *u, u64 lb, u32 k,
		     struct tplan_piece *p)
{
	struct tplan_spill_result r[ARRAY_SIZE(spill_order)];
	u64 cap = lb * spill_pcts[k] / 100, best = ~0ull;
	u32 i, planned = 0;
	double ms;
	int ret[ARRAY_SIZE(spill_order)];

	printf("%-26s %5" PRIu32 " %3" PRIu32 "%% %11llu", label, n,
	       spill_pcts[k], cap);
	for (i = 0; i < ARRAY_SIZE(spill_order); i++) {
		ret[i] = spill_one(t, n, u, cap, spill_order[i], p, &r[i], &ms);
		if (ret[i] < 0)
			return -1;
		if (ret[i]) {
			printf(" |%12s %7s", "no plan", "");
			continue;
		}
		planned++;
		printf(" |%12llu %7.1f", r[i].moved, ms);
		if (spill_order[i] != TPLAN_SPILL_DEFAULT)
			best = min(best, r[i].moved);
	}
	if (ret[2] && r[2].fail_step != ~0ull) {
		printf("  refused: step %llu uses %llu bytes\n", r[2].fail_step,
		       r[2].fail_bytes);
		tally[k].refused++;
		return 0;
	}
	printf(" |%12llu %11llu", r[2].moved_bound, ret[2] ? 0 : r[2].host_peak);
	if (planned == ARRAY_SIZE(spill_order)) {
		tally[k].planned++;
		tally[k].no_more += r[2].moved <= best;
		tally[k].less += r[2].moved < best;
		tally[k].worse += r[2].moved > best;
		if (r[2].moved > best)
			printf("  WORSE");
	}
	putchar('\n');
	fflush(stdout);
	return !ret[2] || ret[0] || ret[1] ? 0 : -1;
}

static int spill_table(const char *label, const struct tplan_tensor *t, u32 n,
		       const struct tplan_uses *u)
{
	struct tplan_piece *p;
	u64 lb;
	int ret = 0;

	if (tplan_lower_bound(t, n, &lb))
		return -1;
	p = calloc((size_t)tplan_spill_max_pieces(t, n, u) + 1, sizeof(*p));
	if (!p)
		return -1;
	for (u32 k = 0; k < ARRAY_SIZE(spill_pcts); k++)
		ret |= spill_row(label, t, n, u, lb, k, p);
	free(p);
	return ret;
}

static int spill_file(const char *name, struct tplan_table *t, u64 unused)
{
	struct tplan_uses u = { t->use_step, t->use_start };

	return spill_table(name, t->tensors, t->count,
			   t->use_start ? &u : NULL);
}

static int spill_training(void)
{
	char label[64];
	int ret = 0;

	for (u32 i = 0; i < ARRAY_SIZE(training_layers); i++) {
		for (u32 seed = 1; seed <= TRAINING_SEEDS; seed++) {
			struct gen_train g;
			struct tplan_uses u;

			if (!gen_training_table(&g, training_layers[i], seed))
				return -1;
			u.step = g.step;
			u.start = g.start;
			snprintf(label, sizeof(label), "training-%" PRIu32 "-s%" PRIu32,
				 training_layers[i], seed);
			ret |= spill_table(label, g.t, g.n, &u);
			gen_training_free(&g);
		}
	}
	return ret;
}

static void spill_header(const char *title)
{
	printf("\n%s\n%-26s %5s %4s %11s", title, "table", "n", "cap",
	       "capacity");
	for (u32 i = 0; i < ARRAY_SIZE(spill_order); i++)
		printf(" |%12s %7s", tplan_spill_strategy_name(spill_order[i]),
		       "ms");
	printf(" |%12s %11s\n", "moved bound", "host peak");
}

/**
 * bench_spill() - the spill section
 * @real: the real networks' tables
 * @training: traced training tables (with uses), if the directory exists
 *
 * Return: 0, or -1 when a plan is broken or the default moves more than a
 * baseline.
 */
int bench_spill(const char *real, const char *training)
{
	DIR *d = opendir(training);
	int ret = 0;

	memset(tally, 0, sizeof(tally));
	printf("\nSpill: capacity = 90/75/50 %% of the lower bound; bytes"
	       " moved (out + in) and ms per strategy");
	spill_header("\nReal networks (bench/real; uses: lower and upper - 1)");
	ret |= bench_for_each_table(real, true, spill_file, 0);
	spill_header("Generated training steps (forward, mirrored backward,"
		     " optimizer; with uses)");
	ret |= spill_training();
	if (d) {
		closedir(d);
		spill_header("Traced training steps (tests/bench/training)");
		ret |= bench_for_each_table(training, false, spill_file, 0);
	}
	for (u32 k = 0; k < ARRAY_SIZE(spill_pcts); k++) {
		printf("at %" PRIu32 " %%: %" PRIu32 " planned by all, %" PRIu32
		       " refused; default <= ga and furthest on %" PRIu32
		       ", strictly less on %" PRIu32 ", more on %" PRIu32 "\n",
		       spill_pcts[k], tally[k].planned, tally[k].refused,
		       tally[k].no_more, tally[k].less, tally[k].worse);
		if (tally[k].worse)
			ret = -1;
	}
	return ret;
}
