// SPDX-License-Identifier: MIT
/*
 * test_property.c - properties on random tables.  Every check prints the
 * seed of the table it failed on; TPLAN_SEED=N replays from seed N.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "harness.h"
#include "core/interval_index.h"
#include "core/key_sort.h"
#include "strategy/placement.h"
#include "strategy/search_valleys.h"
#include "planner.h"

#define ROUNDS 300

static struct gen_params random_shape(u64 seed)
{
	struct gen_rng rng = { seed ^ 0x5eed };
	struct gen_params p = {
		.n = (u32)gen_between(&rng, 0, 160),
		.horizon = gen_between(&rng, 1, 60),
		.max_life = gen_between(&rng, 1, 40),
		.max_size = gen_between(&rng, 1, 1u << 20),
		.max_align_log2 = (u32)gen_between(&rng, 0, 6),
		.zero_pct = (u32)gen_between(&rng, 0, 10),
	};

	return p;
}

static bool overlap_in_time(const struct tplan_tensor *a,
			    const struct tplan_tensor *b)
{
	return a->lower < b->upper && b->lower < a->upper;
}

/* O(n^2) reference: is there any pair of live tensors sharing bytes? */
static bool brute_force_valid(const struct tplan_tensor *t, u32 n)
{
	for (u32 i = 0; i < n; i++) {
		if (t[i].offset % t[i].alignment)
			return false;
		for (u32 j = i + 1; j < n; j++)
			if (t[i].size && t[j].size && overlap_in_time(&t[i], &t[j]) &&
			    t[i].offset < t[j].offset + t[j].size &&
			    t[j].offset < t[i].offset + t[i].size)
				return false;
	}
	return true;
}

static u64 brute_force_bound(const struct tplan_tensor *t, u32 n)
{
	u64 best = 0;

	for (u32 i = 0; i < n; i++) {
		u64 live = 0;	/* the maximum is reached at some birth */

		for (u32 j = 0; j < n; j++)
			if (t[j].lower <= t[i].lower && t[i].lower < t[j].upper)
				live += t[j].size;
		if (live > best)
			best = live;
	}
	return best;
}

/*
 * With alignment, greedy can lose to naive by the padding; it never exceeds
 * every tensor stacked with its worst-case padding.
 */
static u64 slack_total(const struct tplan_tensor *t, u32 n)
{
	u64 sum = 0;

	for (u32 i = 0; i < n; i++)
		sum += t[i].size ? t[i].size + t[i].alignment - 1 : 0;
	return sum;
}

static bool searches(u32 strategy)
{
	return strategy == TPLAN_STRATEGY_STRIP ||
	       strategy == TPLAN_STRATEGY_SEARCH || strategy == TPLAN_STRATEGY_AUTO;
}

/* Plans with @strategy (small budgets for the searching ones): 0 or -errno. */
static int plan_with(struct tplan_tensor *t, u32 n, u32 strategy,
		     struct tplan_result *res)
{
	struct tplan_options o = {
		.strategy = strategy, .budget = searches(strategy) ? 200000 : 0,
	};

	return tplan_plan(t, n, &o, res);
}

static void plans_are_valid_and_bounded(void)
{
	u64 seed0 = test_first_seed(ROUNDS);

	for (u64 seed = seed0; seed < seed0 + ROUNDS; seed++) {
		struct gen_params p = random_shape(seed);
		struct tplan_tensor *t = gen_random_table(&p, seed);
		struct tplan_result res[TPLAN_STRATEGY_COUNT];
		struct tplan_finding f;
		unsigned int before = test_failures;

		for (u32 s = 0; s < TPLAN_STRATEGY_COUNT; s++) {
			CHECK_EQ(plan_with(t, p.n, s, &res[s]), 0);
			CHECK_EQ(tplan_validate(t, p.n, res[s].peak, &f), 0);
			CHECK(brute_force_valid(t, p.n));
			CHECK(res[s].peak >= res[s].lower_bound);
			CHECK_EQ(res[s].lower_bound, brute_force_bound(t, p.n));
		}
		CHECK_EQ(res[TPLAN_STRATEGY_NAIVE].peak,
			 res[TPLAN_STRATEGY_NAIVE].naive_total);
		CHECK(res[TPLAN_STRATEGY_GREEDY_SIZE].peak <= slack_total(t, p.n));
		if (!p.max_align_log2)
			CHECK(res[TPLAN_STRATEGY_NAIVE].peak >=
			      res[TPLAN_STRATEGY_GREEDY_SIZE].peak);
		/* The searching strategies start from greedy-size's plan. */
		for (u32 s = 0; s < TPLAN_STRATEGY_COUNT; s++)
			if (searches(s))
				CHECK(res[s].peak <=
				      res[TPLAN_STRATEGY_GREEDY_SIZE].peak);
		if (test_failures != before)
			printf("    property failed on TPLAN_SEED=%llu\n", seed);
		free(t);
	}
}

/* Small tensors never share a byte with any other tensor, alive or not. */
static void small_tensors_share_nothing(void)
{
	u64 seed0 = test_first_seed(ROUNDS);

	for (u64 seed = seed0; seed < seed0 + ROUNDS; seed += 3) {
		struct gen_params p = random_shape(seed);
		struct tplan_tensor *t = gen_random_table(&p, seed);
		struct tplan_options o = {
			.strategy = (u32)(seed % TPLAN_STRATEGY_COUNT),
			.budget = 200000, .small_below = 1 + p.max_size / 8,
		};
		struct tplan_result res;
		struct tplan_finding f;

		CHECK_EQ(tplan_plan(t, p.n, &o, &res), 0);
		CHECK_EQ(tplan_validate(t, p.n, res.peak, &f), 0);
		for (u32 i = 0; i < p.n; i++) {
			if (!t[i].size || t[i].size >= o.small_below)
				continue;
			for (u32 j = 0; j < p.n; j++)
				if (j != i && t[j].size &&
				    t[i].offset < t[j].offset + t[j].size &&
				    t[j].offset < t[i].offset + t[i].size)
					CHECK(!"a small tensor shares bytes");
		}
		free(t);
	}
}

/* Same table, same options: same offsets and same work, every strategy. */
static void plans_are_deterministic(void)
{
	u64 seed0 = test_first_seed(ROUNDS);

	for (u64 seed = seed0; seed < seed0 + ROUNDS; seed += 10) {
		struct gen_params p = random_shape(seed);
		struct tplan_tensor *a = gen_random_table(&p, seed);
		struct tplan_tensor *b = gen_random_table(&p, seed);
		struct tplan_result ra, rb;

		for (u32 s = 0; s < TPLAN_STRATEGY_COUNT; s++) {
			CHECK_EQ(plan_with(a, p.n, s, &ra), 0);
			CHECK_EQ(plan_with(b, p.n, s, &rb), 0);
			CHECK(!memcmp(a, b, p.n * sizeof(*a)));
			CHECK_EQ(ra.work, rb.work);
			CHECK_EQ(ra.peak, rb.peak);
		}
		if (memcmp(a, b, p.n * sizeof(*a)))
			printf("    nondeterministic on TPLAN_SEED=%llu\n", seed);
		free(a);
		free(b);
	}
}

/*
 * Steps and sizes past 2^32 sort as 16-byte keys, the rest as 8-byte words
 * (tplan_packed_sort()): the same table with every step moved up by 2^40
 * gets the same offsets from greedy-size and strip, and with every size and
 * alignment times 2^31 the offsets times 2^31 from greedy-size; above the
 * radix threshold (1024 tensors) and below.
 */
static void orders_past_2_32_agree(void)
{
	u64 seed0 = test_first_seed(ROUNDS);

	for (u64 seed = seed0; seed < seed0 + ROUNDS; seed += 10) {
		struct gen_params p = random_shape(seed);

		if (seed & 1)
			p.n = 1024 + (u32)(seed % 2000);
		struct tplan_tensor *a = gen_random_table(&p, seed);
		struct tplan_tensor *b = gen_random_table(&p, seed);
		struct tplan_tensor *c = gen_random_table(&p, seed);
		struct tplan_result r;

		for (u32 i = 0; i < p.n; i++) {
			b[i].lower += 1ull << 40;
			b[i].upper += 1ull << 40;
			c[i].size <<= 31;
			c[i].alignment = tplan_alignment(&c[i]) << 31;
		}
		for (u32 s = TPLAN_STRATEGY_GREEDY_SIZE;
		     s <= TPLAN_STRATEGY_STRIP; s++) {
			CHECK_EQ(plan_with(a, p.n, s, &r), 0);
			CHECK_EQ(plan_with(b, p.n, s, &r), 0);
			if (s == TPLAN_STRATEGY_GREEDY_SIZE)
				CHECK_EQ(plan_with(c, p.n, s, &r), 0);
			for (u32 i = 0; i < p.n; i++) {
				CHECK_EQ(b[i].offset, a[i].offset);
				if (s == TPLAN_STRATEGY_GREEDY_SIZE)
					CHECK_EQ(c[i].offset, a[i].offset << 31);
			}
		}
		free(a);
		free(b);
		free(c);
	}
}

/*
 * Alignment 0 is read as 1 everywhere: a table whose 1s are 0s gets the same
 * offsets, peak and work from every strategy, and validates.
 */
static void alignment_zero_is_one(void)
{
	u64 seed0 = test_first_seed(ROUNDS);

	for (u64 seed = seed0; seed < seed0 + ROUNDS; seed += 10) {
		struct gen_params p = random_shape(seed);
		struct tplan_tensor *a = gen_random_table(&p, seed);
		struct tplan_tensor *b = gen_random_table(&p, seed);
		struct tplan_result ra, rb;
		struct tplan_finding f;
		bool same = true;

		for (u32 i = 0; i < p.n; i++)
			if (b[i].alignment == 1)
				b[i].alignment = 0;
		for (u32 s = 0; s < TPLAN_STRATEGY_COUNT; s++) {
			CHECK_EQ(plan_with(a, p.n, s, &ra), 0);
			CHECK_EQ(plan_with(b, p.n, s, &rb), 0);
			for (u32 i = 0; i < p.n; i++)
				same &= a[i].offset == b[i].offset;
			CHECK_EQ(ra.work, rb.work);
			CHECK_EQ(ra.peak, rb.peak);
			CHECK_EQ(tplan_validate(b, p.n, rb.peak, &f), 0);
		}
		CHECK(same);
		if (!same)
			printf("    alignment 0 planned apart on TPLAN_SEED=%llu\n",
			       (unsigned long long)seed);
		free(a);
		free(b);
	}
}

/*
 * Instances cut from a rectangle fit their lower bound: auto reaches it on
 * most, and the search never claims that it cannot be reached.
 */
static void perfect_instances_are_packed(void)
{
	u64 seed0 = test_first_seed(ROUNDS);
	u32 reached = 0, total = 0;

	for (u64 seed = seed0; seed < seed0 + 40; seed++) {
		u32 n = 8 + (u32)(seed % 33);
		struct tplan_tensor *t = gen_perfect_table(n, 64, 256, seed);
		struct tplan_options o = { .budget = 2000000 };
		struct tplan_result res;
		struct tplan_finding f;

		CHECK(t != NULL);
		if (!t)
			continue;
		for (u32 s = 0; s < TPLAN_STRATEGY_COUNT; s++) {
			if (!searches(s) || s == TPLAN_STRATEGY_STRIP)
				continue;
			o.strategy = s;
			CHECK_EQ(tplan_plan(t, n, &o, &res), 0);
			CHECK_EQ(res.lower_bound, 256 * 64);
			CHECK_EQ(tplan_validate(t, n, 0, &f), 0);
			CHECK(res.search != TPLAN_SEARCH_IMPOSSIBLE);
		}
		total++;
		reached += res.peak == res.lower_bound;
		free(t);
	}
	printf("    auto reached the lower bound on %u of %u perfect tables\n",
	       reached, total);
	CHECK(reached * 10 >= total * 8);
}

/* The lowest offset where @x fits among the first @k tensors of @order. */
static u64 lowest_fit(const struct tplan_tensor *t, const u32 *order, u32 k,
		      const struct tplan_tensor *x)
{
	u64 best = ~0ull;

	for (u32 c = 0; c <= k; c++) {
		const struct tplan_tensor *below = c < k ? &t[order[c]] : NULL;
		u64 at = below ? below->offset + below->size : 0;
		bool free_here = at < best;

		if (below && !overlap_in_time(below, x))
			continue;
		for (u32 j = 0; j < k && free_here; j++) {
			const struct tplan_tensor *y = &t[order[j]];

			free_here = !overlap_in_time(y, x) ||
				    y->offset >= at + x->size ||
				    at >= y->offset + y->size;
		}
		if (free_here)
			best = at;
	}
	return best;
}

/* Every order from depth @k on, each tensor at its lowest fit. */
static void try_orders(struct tplan_tensor *t, u32 n, u32 *order, u32 k,
		       u32 used, u64 top, u64 *best)
{
	if (top >= *best)
		return;
	if (k == n) {
		*best = top;
		return;
	}
	for (u32 i = 0; i < n; i++) {
		u64 end;

		if (used & (1u << i))
			continue;
		order[k] = i;
		t[i].offset = lowest_fit(t, order, k, &t[i]);
		end = t[i].offset + t[i].size;
		try_orders(t, n, order, k + 1, used | (1u << i),
			   top > end ? top : end, best);
	}
}

/*
 * The optimum peak by brute force: every order, each tensor at its lowest
 * fit.  Placing the tensors of any plan in the order of their offsets this
 * way puts none higher, so the best order reaches the optimum.
 */
static u64 brute_force_optimum(struct tplan_tensor *t, u32 n)
{
	u32 order[8];
	u64 best = ~0ull;

	try_orders(t, n, order, 0, 0, 0, &best);
	return best;
}

/*
 * The search is exact on small tables: it fits the optimum (found by brute
 * force) and proves that one byte less cannot fit.
 */
static void search_is_exact_on_small_tables(void)
{
	u64 seed0 = test_first_seed(ROUNDS);

	for (u64 seed = seed0; seed < seed0 + ROUNDS; seed++) {
		struct gen_rng rng = { seed };
		struct gen_params p = {
			.n = (u32)gen_between(&rng, 1, 7),
			.horizon = 12, .max_life = 6, .max_size = 16,
		};
		struct tplan_tensor *t = gen_random_table(&p, seed);
		struct tplan_options o = { .strategy = TPLAN_STRATEGY_SEARCH };
		struct tplan_result res;
		unsigned int before = test_failures;
		u64 opt;

		CHECK(t != NULL);
		if (!t)
			continue;
		opt = brute_force_optimum(t, p.n);
		o.capacity = opt;
		CHECK_EQ(tplan_plan(t, p.n, &o, &res), 0);
		CHECK(brute_force_valid(t, p.n));
		if (opt > 1) {	/* capacity 0 would mean unlimited */
			o.capacity = opt - 1;
			CHECK_EQ(tplan_plan(t, p.n, &o, &res), -ENOSPC);
			CHECK_EQ(res.search, TPLAN_SEARCH_IMPOSSIBLE);
		}
		if (test_failures != before)
			printf("    search not exact on TPLAN_SEED=%llu\n", seed);
		free(t);
	}
}

static void validator_agrees_with_brute_force(void)
{
	u64 seed0 = test_first_seed(ROUNDS);
	u32 invalid = 0;

	for (u64 seed = seed0; seed < seed0 + ROUNDS; seed++) {
		struct gen_params p = random_shape(seed);
		struct tplan_tensor *t = gen_random_table(&p, seed);
		struct gen_rng rng = { seed };
		struct tplan_finding f;
		int ret;

		/* Random offsets on a coarse grid: many plans are broken. */
		for (u32 i = 0; i < p.n; i++)
			t[i].offset = gen_between(&rng, 0, 8) << 20;
		ret = tplan_validate(t, p.n, 0, &f);
		if ((ret == 0) != brute_force_valid(t, p.n))
			printf("    validator disagrees on TPLAN_SEED=%llu\n",
			       seed);
		CHECK_EQ(ret == 0, brute_force_valid(t, p.n));
		if (ret) {
			invalid++;
			/* The named pair really is a violation. */
			CHECK(f.defect == TPLAN_DEFECT_OVERLAP ||
			      f.defect == TPLAN_DEFECT_MISALIGNED);
			if (f.defect == TPLAN_DEFECT_OVERLAP)
				CHECK(overlap_in_time(&t[f.index], &t[f.other]));
		}
		free(t);
	}
	CHECK(invalid > ROUNDS / 4);	/* the test did exercise failures */
}

/*
 * The work a query reports must not depend on how the index lays out its
 * nodes (the budget decides plans): the classic walk of the same tree, over
 * the tensors sorted by lower, each node's subtree maximum recomputed.
 */
static const struct tplan_tensor *ref_t;

static int ref_cmp_lower(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	if (ref_t[x].lower != ref_t[y].lower)
		return ref_t[x].lower < ref_t[y].lower ? -1 : 1;
	return x < y ? -1 : x > y;
}

static u64 ref_max(const u32 *by, u32 lo, u32 hi)
{
	u64 m = 0;

	for (u32 i = lo; i < hi; i++)
		if (ref_t[by[i]].upper > m)
			m = ref_t[by[i]].upper;
	return m;
}

static u64 ref_visited(const u32 *by, u32 lo, u32 hi, u64 lower, u64 upper)
{
	u32 m = lo + (hi - lo) / 2;
	u64 v = 1;

	if (lo >= hi)
		return 0;
	if (ref_max(by, lo, hi) <= lower)
		return 1;
	v += ref_visited(by, lo, m, lower, upper);
	if (ref_t[by[m]].lower < upper)
		v += ref_visited(by, m + 1, hi, lower, upper);
	return v;
}

/* @order: a random permutation of 0..@n-1. */
static void shuffle_order(u32 *order, u32 n, struct gen_rng *rng)
{
	for (u32 i = 0; i < n; i++)
		order[i] = i;
	for (u32 i = n; i > 1; i--) {
		u32 j = (u32)gen_between(rng, 0, i - 1), x = order[i - 1];

		order[i - 1] = order[j];
		order[j] = x;
	}
}

/*
 * Neighbour lists and the merged occupancy find the same lowest fit as the
 * interval index: place each random table in a random order all three
 * ways, some tensors only if they end below a random limit.
 */
static void placer_modes_agree(void)
{
	u64 seed0 = test_first_seed(ROUNDS);

	for (u64 seed = seed0; seed < seed0 + ROUNDS; seed++) {
		struct gen_params p = random_shape(seed);
		struct tplan_tensor *t = gen_random_table(&p, seed);
		u32 *order = calloc(p.n + 1, sizeof(*order));
		u64 *merged = calloc(p.n + 1, sizeof(*merged));
		u8 *kept = calloc(p.n + 1, 1);
		struct gen_rng rng = { seed };
		u64 limit = gen_between(&rng, 1, 4u << 20);
		unsigned int before = test_failures;
		int pass;

		shuffle_order(order, p.n, &rng);
		for (pass = 0; pass < 3; pass++) {
			struct tplan_placer pl;
			struct tplan_work w;

			tplan_work_init(&w, 0, 0, false);
			CHECK_EQ(tplan_placer_init(&pl, t, p.n, NULL, 0, NULL), 0);
			CHECK_EQ(tplan_placer_use(&pl, pass), 0);
			for (u32 i = 0; i < p.n; i++) {
				u64 lim = i % 3 ? TPLAN_U64_MAX >> 2 : limit;
				int r = tplan_placer_try(&pl, order[i], lim, &w);

				CHECK(r >= 0);
				if (pass == 0) {
					merged[order[i]] = t[order[i]].offset;
					kept[order[i]] = r;
				} else {
					CHECK_EQ(r, kept[order[i]]);
					CHECK_EQ(t[order[i]].offset,
						 merged[order[i]]);
				}
			}
			tplan_placer_free(&pl);
		}
		if (test_failures != before)
			printf("    placer modes differ on TPLAN_SEED=%llu\n",
			       seed);
		free(order);
		free(merged);
		free(kept);
		free(t);
	}
}

/*
 * Some tensors pinned where @offset (a valid plan) put them, some hinted
 * at a random aligned offset; each pass of the placer then takes the pins
 * first and the hints that are free.
 */
static void pin_and_hint(struct tplan_tensor *t, u32 n, const u64 *offset,
			 struct gen_rng *rng)
{
	for (u32 i = 0; i < n; i++) {
		u64 roll = gen_between(rng, 0, 19);

		t[i].offset = 0;
		if (roll == 0) {
			t[i].flags |= TPLAN_TENSOR_PINNED;
			t[i].offset = offset[i];
		} else if (roll == 1) {
			t[i].flags |= TPLAN_TENSOR_HINT;
			t[i].hint = gen_between(rng, 0, 64) * t[i].alignment;
		}
	}
}

/* Offsets not written by a pass stay this. */
#define UNTOUCHED 0x5a5a5a5a5a5a5a5aull

/* Every offset but the pins' UNTOUCHED, so that a pass must write them. */
static void forget_offsets(struct tplan_tensor *t, u32 n)
{
	for (u32 i = 0; i < n; i++)
		if (!(t[i].flags & TPLAN_TENSOR_PINNED))
			t[i].offset = UNTOUCHED;
}

/*
 * A whole pass (tplan_placer_run()) gives the same offsets in all three
 * modes, with or without pins and hints; a pass through the lists stopped
 * by its budget leaves each tensor it placed where the whole pass put it
 * and the others untouched.
 */
static void placer_runs_agree(void)
{
	u64 seed0 = test_first_seed(ROUNDS);

	for (u64 seed = seed0; seed < seed0 + ROUNDS; seed++) {
		struct gen_params p = random_shape(seed);
		struct tplan_finding found;
		struct tplan_tensor *t;

		/* now and then more tensors than the lists' queue holds */
		if (seed % 16 == 0) {
			p.n = 4096 + (u32)(seed % 5000);
			p.horizon = p.n / 2;
		}
		t = gen_random_table(&p, seed);
		u32 *order = calloc(p.n + 1, sizeof(*order));
		u64 *first = calloc(p.n + 1, sizeof(*first));
		struct gen_rng rng = { seed };
		unsigned int before = test_failures;
		struct tplan_placer pl;
		struct tplan_work w;
		u64 spent = 0;

		shuffle_order(order, p.n, &rng);
		if (seed & 1) {
			CHECK_EQ(tplan_placer_init(&pl, t, p.n, NULL, 0, NULL), 0);
			tplan_work_init(&w, 0, 0, false);
			CHECK_EQ(tplan_placer_run(&pl, order, &w), 0);
			tplan_placer_free(&pl);
			for (u32 i = 0; i < p.n; i++)
				first[i] = t[i].offset;
			pin_and_hint(t, p.n, first, &rng);
		}
		for (int mode = 0; mode < 3; mode++) {
			forget_offsets(t, p.n);
			CHECK_EQ(tplan_placer_init(&pl, t, p.n, NULL, 0, NULL), 0);
			CHECK_EQ(tplan_placer_use(&pl, mode), 0);
			tplan_work_init(&w, 0, 0, false);
			CHECK_EQ(tplan_placer_run(&pl, order, &w), 0);
			for (u32 i = 0; i < p.n; i++) {
				if (mode == 0)
					first[i] = t[i].offset;
				CHECK_EQ(t[i].offset, first[i]);
			}
			if (mode == TPLAN_PLACER_LISTS)
				spent = w.spent;
			tplan_placer_free(&pl);
		}
		if (p.n <= 1000)
			CHECK(brute_force_valid(t, p.n));
		else
			CHECK_EQ(tplan_validate(t, p.n, 0, &found), 0);
		if (spent > 2) {
			forget_offsets(t, p.n);
			CHECK_EQ(tplan_placer_init(&pl, t, p.n, NULL, 0, NULL), 0);
			CHECK_EQ(tplan_placer_use(&pl, TPLAN_PLACER_LISTS), 0);
			tplan_work_init(&w, gen_between(&rng, 1, spent - 1), 0,
					false);
			CHECK_EQ(tplan_placer_run(&pl, order, &w), -ETIMEDOUT);
			for (u32 i = 0; i < p.n; i++) {
				bool pinned = t[i].flags & TPLAN_TENSOR_PINNED;

				CHECK_EQ(t[i].offset, pl.placed[i] || pinned ?
						      first[i] : UNTOUCHED);
			}
			tplan_placer_free(&pl);
		}
		if (test_failures != before)
			printf("    placer passes differ on TPLAN_SEED=%llu\n",
			       seed);
		free(order);
		free(first);
		free(t);
	}
}

/*
 * Sweep fit gives a valid plan of every random table, the same twice, never
 * above every tensor stacked with its padding; auto, whose first plan it
 * is on dense tables, is never above it, even with a budget of one unit.
 */
static void sweep_plans_are_valid(void)
{
	u64 seed0 = test_first_seed(ROUNDS);

	for (u64 seed = seed0; seed < seed0 + ROUNDS; seed++) {
		struct gen_params p = random_shape(seed);
		struct tplan_tensor *t = gen_random_table(&p, seed);
		u64 *first = calloc(p.n + 1, sizeof(*first));
		unsigned int before = test_failures;
		struct tplan_options o = { .budget = 1 };
		struct tplan_timeline tl;
		struct tplan_result res;
		u64 peak;

		CHECK_EQ(tplan_timeline_init(&tl, t, p.n), 0);
		CHECK_EQ(tplan_place_sweep(t, p.n, &tl), 0);
		CHECK(brute_force_valid(t, p.n));
		peak = tplan_peak(t, p.n);
		CHECK(peak <= slack_total(t, p.n));
		for (u32 i = 0; i < p.n; i++)
			first[i] = t[i].offset;
		CHECK_EQ(tplan_place_sweep(t, p.n, &tl), 0);
		for (u32 i = 0; i < p.n; i++)
			CHECK_EQ(t[i].offset, first[i]);
		if (tplan_sweep_applies(&tl)) {
			CHECK_EQ(tplan_plan(t, p.n, &o, &res), 0);
			CHECK(res.peak <= peak);
		}
		tplan_timeline_free(&tl);
		if (test_failures != before)
			printf("    sweep fit fails on TPLAN_SEED=%llu\n", seed);
		free(first);
		free(t);
	}
}

static void index_finds_exactly_the_overlapping(void)
{
	u64 seed0 = test_first_seed(ROUNDS);

	for (u64 seed = seed0; seed < seed0 + ROUNDS; seed++) {
		struct gen_params p = random_shape(seed);
		struct tplan_tensor *t = gen_random_table(&p, seed);
		struct tplan_interval_index ix;
		u32 *out = calloc(p.n + 1, sizeof(*out));
		u8 *hit = calloc(p.n + 1, 1);
		u32 *by = calloc(p.n + 1, sizeof(*by));
		struct gen_rng rng = { seed };

		for (u32 i = 0; i < p.n; i++)
			by[i] = i;
		ref_t = t;
		qsort(by, p.n, sizeof(*by), ref_cmp_lower);
		CHECK_EQ(tplan_index_build(&ix, t, p.n), 0);
		for (int q = 0; q < 20; q++) {
			u64 lo = gen_between(&rng, 0, p.horizon + 5);
			u64 up = lo + gen_between(&rng, 1, 20);
			u64 visited = 0;
			u32 k = tplan_index_query(&ix, lo, up, out, &visited);
			struct tplan_tensor span = { .lower = lo, .upper = up };
			u32 expected = 0;

			CHECK_EQ(visited, ref_visited(by, 0, p.n, lo, up));

			memset(hit, 0, p.n + 1);
			for (u32 i = 0; i < k; i++) {
				CHECK(!hit[out[i]]);	/* no duplicates */
				hit[out[i]] = 1;
			}
			for (u32 i = 0; i < p.n; i++) {
				bool live = overlap_in_time(&t[i], &span);

				expected += live;
				CHECK_EQ(hit[i], live);
			}
			CHECK_EQ(k, expected);
		}
		tplan_index_free(&ix);
		free(by);
		free(out);
		free(hit);
		free(t);
	}
}

/*
 * The valley a scan of the sections takes (the search's rule): a run of
 * equal floor below @cap with higher walls (the ends of time are walls),
 * the narrowest or the lowest, leftmost among equals.
 */
static bool scan_valley(const u64 *floor, u32 sections, u64 cap, bool lowest,
			u32 *best_lo, u32 *best_hi)
{
	u64 best = UINT64_MAX;

	for (u32 lo = 0, hi; lo < sections; lo = hi) {
		u64 h = floor[lo], score;

		for (hi = lo + 1; hi < sections && floor[hi] == h; hi++)
			;
		score = lowest ? h : hi - lo;
		if (h < cap && score < best && (!lo || floor[lo - 1] > h) &&
		    (hi == sections || floor[hi] > h)) {
			best = score;
			*best_lo = lo;
			*best_hi = hi;
		}
	}
	return best != UINT64_MAX;
}

static void check_valley(struct tplan_valleys *v, const u64 *floor,
			 u32 sections, u64 cap, bool lowest)
{
	u32 lo = 0, hi = 0, elo = 0, ehi = 0;
	u64 work = 0;
	bool got = tplan_valleys_best(v, &lo, &hi, &work);
	bool want = scan_valley(floor, sections, cap, lowest, &elo, &ehi);

	CHECK_EQ(got, want);
	if (got && want) {
		CHECK_EQ(lo, elo);
		CHECK_EQ(hi, ehi);
	}
}

/* The valley tree picks what a scan picks, after any change of floors. */
static void valleys_match_a_scan(void)
{
	u64 seed0 = test_first_seed(ROUNDS);

	for (u64 seed = seed0; seed < seed0 + ROUNDS; seed++) {
		struct gen_rng rng = { seed };
		u32 sections = gen_between(&rng, 0, seed % 4 ? 70 : 700);
		u64 cap = gen_between(&rng, 1, 6);
		bool lowest = gen_next(&rng) & 1;
		u64 *floor = calloc(sections + 1, sizeof(*floor));
		struct tplan_valleys v;

		for (u32 j = 0; j < sections; j++)
			floor[j] = gen_between(&rng, 0, cap);
		CHECK_EQ(tplan_valleys_alloc(&v, sections), 0);
		tplan_valleys_reset(&v, floor, cap, lowest);
		check_valley(&v, floor, sections, cap, lowest);
		for (int q = 0; q < 60 && sections; q++) {
			u32 lo = gen_between(&rng, 0, sections - 1);
			u32 hi = lo + 1 + gen_between(&rng, 0, sections - lo - 1);
			bool flat = gen_next(&rng) & 1;
			u64 h = gen_between(&rng, 0, cap);

			if (gen_between(&rng, 0, 3) == 0)
				hi = lo + 1 + (hi - lo) % 4;	/* mostly narrow */
			for (u32 j = lo; j < hi; j++)
				floor[j] = flat ? h : gen_between(&rng, 0, cap);
			tplan_valleys_changed(&v, lo, hi);
			if (gen_next(&rng) % 3)	/* sometimes several changes */
				check_valley(&v, floor, sections, cap, lowest);
		}
		check_valley(&v, floor, sections, cap, lowest);
		tplan_valleys_free(&v);
		free(floor);
	}
}

/* By value, then by position: what a stable sort of the keys gives. */
static int cmp_value_then_idx(const void *a, const void *b)
{
	const struct tplan_key *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * tplan_key_sort() is a stable sort, on both sides of its radix threshold,
 * whichever bits the values differ in (few distinct values, one high bit,
 * any 64-bit value, sorted already); tplan_u64_sort() and
 * tplan_u64_heapsort() give the values in the same order.
 */
static void key_sort_is_stable(void)
{
	u64 seed0 = test_first_seed(ROUNDS);

	for (u64 seed = seed0; seed < seed0 + ROUNDS; seed++) {
		struct gen_rng rng = { seed };
		u32 n = gen_between(&rng, 0, seed % 3 ? 3000 : 40);
		u32 shape = gen_between(&rng, 0, 3);
		struct tplan_key *key = calloc(n + 1, sizeof(*key));
		struct tplan_key *want = calloc(n + 1, sizeof(*want));

		for (u32 i = 0; i < n; i++) {
			u64 v = gen_next(&rng);

			key[i].value = shape == 0 ? v % 5 :
				       shape == 1 ? (v & 1) << 63 | (v % 3) :
				       shape == 2 ? v : i / 7;
			key[i].idx = i;	/* the position, for the reference */
		}
		u64 *plain = calloc(n + 1, sizeof(*plain));
		u64 *heap = calloc(n + 1, sizeof(*heap));

		for (u32 i = 0; i < n; i++)
			plain[i] = heap[i] = key[i].value;
		memcpy(want, key, n * sizeof(*key));
		qsort(want, n, sizeof(*want), cmp_value_then_idx);
		tplan_key_sort(key, n);
		CHECK_EQ(tplan_u64_sort(plain, n), 0);
		tplan_u64_heapsort(heap, n);
		for (u32 i = 0; i < n; i++) {
			CHECK_EQ(key[i].value, want[i].value);
			CHECK_EQ(key[i].idx, want[i].idx);
			CHECK_EQ(key[i].pad, 0);
			CHECK_EQ(plain[i], want[i].value);
			CHECK_EQ(heap[i], want[i].value);
		}
		free(key);
		free(want);
		free(plain);
		free(heap);
	}
}

/*
 * tplan_packed_sort() orders words by their high halves as a stable sort
 * would, whatever their low halves, above and below its radix threshold.
 */
static void packed_sort_is_stable(void)
{
	u64 seed0 = test_first_seed(ROUNDS);

	for (u64 seed = seed0; seed < seed0 + ROUNDS; seed++) {
		struct gen_rng rng = { seed };
		u32 n = gen_between(&rng, 0, seed % 3 ? 3000 : 40);
		u32 shape = gen_between(&rng, 0, 3);
		u64 *word = calloc(n + 1, sizeof(*word));
		u64 *was = calloc(n + 1, sizeof(*was));
		struct tplan_key *want = calloc(n + 1, sizeof(*want));

		for (u32 i = 0; i < n; i++) {
			u64 v = gen_next(&rng);
			u32 high = shape == 0 ? v % 5 : shape == 1 ? v >> 32 :
				   shape == 2 ? i / 7 : n - i;

			word[i] = (u64)high << 32 | (u32)gen_next(&rng);
			want[i].value = high;
			want[i].idx = i;
		}
		memcpy(was, word, n * sizeof(*word));
		qsort(want, n, sizeof(*want), cmp_value_then_idx);
		CHECK_EQ(tplan_packed_sort(word, n), 0);
		for (u32 i = 0; i < n; i++)
			CHECK_EQ(word[i], was[want[i].idx]);
		free(word);
		free(was);
		free(want);
	}
}

/* What each row adds to the facts, one column at a time. */
static u32 row_has(const struct tplan_tensor *t, u32 i)
{
	u32 has = 0;

	if (t[i].tiers)
		has |= TPLAN_HAS_TIERS;
	if (t[i].share_key)
		has |= TPLAN_HAS_SHARES;
	if (t[i].gap_count ||
	    (t[i].flags & (TPLAN_TENSOR_PINNED | TPLAN_TENSOR_HINT)))
		has |= TPLAN_HAS_CONSTRAINED;
	if (t[i].model != t[0].model)
		has |= TPLAN_HAS_MODELS;
	return has;
}

/*
 * The table check's facts (tplan_check_table_facts()) are what a walk of
 * the rows finds: each column that some row uses, wherever that row is
 * (often only the last), the naive total and whether (model, id) rise.
 */
static void facts_match_the_rows(void)
{
	u64 seed0 = test_first_seed(ROUNDS);

	for (u64 seed = seed0; seed < seed0 + ROUNDS; seed++) {
		struct gen_rng rng = { seed };
		u32 n = gen_between(&rng, 1, 60);
		struct tplan_tensor *t = calloc(n, sizeof(*t));
		struct tplan_facts facts;
		u32 want = 0, where;
		bool rising = true;

		for (u32 i = 0; i < n; i++) {
			t[i].id = seed % 4 ? i : n - i;
			t[i].lower = gen_between(&rng, 0, 50);
			t[i].upper = t[i].lower + gen_between(&rng, 1, 20);
			t[i].size = gen_between(&rng, 0, 3) ? gen_next(&rng) % 5000 : 0;
			t[i].alignment = 1u << gen_between(&rng, 0, 6);
		}
		/* a few columns used, each by one row: the last or any */
		for (u32 k = gen_between(&rng, 0, 3); k > 0; k--) {
			where = gen_between(&rng, 0, 1) ? n - 1 :
				gen_between(&rng, 0, n - 1);
			switch (gen_between(&rng, 0, 5)) {
			case 0: t[where].tiers = 2; break;
			case 1: t[where].share_key = 7; break;
			case 2: t[where].gap_count = 1; break;
			case 3: t[where].flags = TPLAN_TENSOR_PINNED; break;
			case 4: t[where].flags = TPLAN_TENSOR_HINT; break;
			default: t[where].model = 3; break;
			}
		}
		for (u32 i = 0; i < n; i++) {
			want |= row_has(t, i);
			rising &= !i || t[i - 1].model < t[i].model ||
				  (t[i - 1].model == t[i].model &&
				   t[i - 1].id < t[i].id);
		}
		CHECK_EQ(tplan_check_table_facts(t, n, &facts, NULL), 0);
		CHECK_EQ(facts.has, want);
		CHECK_EQ(facts.naive_total, tplan_naive_total(t, n));
		CHECK_EQ(facts.in_order, rising);
		free(t);
	}
}

static const struct test_case cases[] = {
	TEST_CASE(plans_are_valid_and_bounded),
	TEST_CASE(plans_are_deterministic),
	TEST_CASE(orders_past_2_32_agree),
	TEST_CASE(alignment_zero_is_one),
	TEST_CASE(small_tensors_share_nothing),
	TEST_CASE(perfect_instances_are_packed),
	TEST_CASE(search_is_exact_on_small_tables),
	TEST_CASE(validator_agrees_with_brute_force),
	TEST_CASE(index_finds_exactly_the_overlapping),
	TEST_CASE(placer_modes_agree),
	TEST_CASE(placer_runs_agree),
	TEST_CASE(sweep_plans_are_valid),
	TEST_CASE(valleys_match_a_scan),
	TEST_CASE(key_sort_is_stable),
	TEST_CASE(packed_sort_is_stable),
	TEST_CASE(facts_match_the_rows),
};

TEST_SUITE(property_suite, "property", cases);
