// SPDX-License-Identifier: MIT
/*
 * test_constrained.c - properties of pins, gaps (with windows) and hints on
 * random tables: every plan is valid by a brute-force check of presence
 * step by step, pinned tensors stay, plans are deterministic, the
 * validator agrees with the brute force.  Every check prints the seed of
 * the table it failed on; TPLAN_SEED=N replays from seed N.
 */
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "harness.h"
#include "planner.h"
#include "strategy/placement.h"

#define ROUNDS 200

/**
 * struct constrained_table - a random table with pins, gaps and hints
 * @t: the tensors
 * @n: how many
 * @gaps: their gaps (at most one per tensor here, some with windows)
 * @gap_count: entries in @gaps
 * @pin: the offset each pinned tensor must keep
 */
struct constrained_table {
	struct tplan_tensor *t;
	u32 n;
	struct tplan_gap *gaps;
	u32 gap_count;
	u64 *pin;
};

static void constrained_free(struct constrained_table *f)
{
	free(f->t);
	free(f->gaps);
	free(f->pin);
}

static struct tplan_options constrained_options(const struct constrained_table *f,
					  u32 strategy)
{
	struct tplan_options o = {
		.strategy = strategy,
		.budget = strategy != TPLAN_STRATEGY_NAIVE &&
			  strategy != TPLAN_STRATEGY_GREEDY_SIZE ? 200000 : 0,
		.gaps = f->gaps, .gap_count = f->gap_count,
	};

	return o;
}

/* A gap inside a third of the lifetimes of 3 steps or more. */
static void add_gaps(struct constrained_table *f, struct gen_rng *rng)
{
	for (u32 i = 0; i < f->n; i++) {
		struct tplan_tensor *x = &f->t[i];
		struct tplan_gap *g = &f->gaps[f->gap_count];

		if (x->upper - x->lower < 3 || gen_between(rng, 0, 2))
			continue;
		memset(g, 0, sizeof(*g));
		g->lower = gen_between(rng, x->lower + 1, x->upper - 2);
		g->upper = gen_between(rng, g->lower + 1, x->upper - 1);
		if (x->size && gen_between(rng, 0, 1)) {
			g->flags = TPLAN_GAP_WINDOW;
			g->from = gen_between(rng, 0, x->size);
			g->to = gen_between(rng, g->from, x->size);
		}
		x->gap_first = f->gap_count++;
		x->gap_count = 1;
	}
}

/*
 * Pins from a greedy plan (so they can all hold), on a quarter of the
 * tensors; hints on another quarter, some aligned and free, some not.
 */
static bool add_pins_hints(struct constrained_table *f, struct gen_rng *rng)
{
	struct tplan_options o = constrained_options(f, TPLAN_STRATEGY_GREEDY_SIZE);
	struct tplan_result res;

	if (tplan_plan(f->t, f->n, &o, &res))
		return false;
	for (u32 i = 0; i < f->n; i++) {
		struct tplan_tensor *x = &f->t[i];
		u64 r = gen_between(rng, 0, 3);

		if (!r) {
			x->flags |= TPLAN_TENSOR_PINNED;
			f->pin[i] = x->offset;
		} else if (r == 1) {
			x->flags |= TPLAN_TENSOR_HINT;
			x->hint = gen_between(rng, 0, 1) ? x->offset :
				  gen_between(rng, 0, res.peak);
		}
		x->offset = x->flags & TPLAN_TENSOR_PINNED ? x->offset : 0;
	}
	return true;
}

static bool constrained_random(struct constrained_table *f, u64 seed)
{
	struct gen_rng rng = { seed ^ 0xf1ed };
	struct gen_params p = {
		.n = (u32)gen_between(&rng, 1, 120),
		.horizon = gen_between(&rng, 4, 40),
		.max_life = gen_between(&rng, 1, 20),
		.max_size = gen_between(&rng, 1, 1u << 16),
		.max_align_log2 = (u32)gen_between(&rng, 0, 4),
		.zero_pct = 5,
	};

	memset(f, 0, sizeof(*f));
	f->n = p.n;
	f->t = gen_random_table(&p, seed);
	f->gaps = calloc(p.n, sizeof(*f->gaps));
	f->pin = calloc(p.n, sizeof(*f->pin));
	if (!f->t || !f->gaps || !f->pin)
		return false;
	add_gaps(f, &rng);
	return add_pins_hints(f, &rng);
}

/* Bytes [*from, *to) of @x present at step @s (empty: none, or dead). */
static void present_at(const struct constrained_table *f, const struct tplan_tensor *x,
		       u64 s, u64 *from, u64 *to)
{
	*from = 0;
	*to = s >= x->lower && s < x->upper ? x->size : 0;
	for (u32 k = 0; k < x->gap_count && *to; k++) {
		const struct tplan_gap *g = &f->gaps[x->gap_first + k];

		if (s >= g->lower && s < g->upper) {
			*from = g->from;
			*to = g->to;
		}
	}
}

/* O(n^2 x steps) reference of a valid plan with gaps. */
static bool brute_force_valid(const struct constrained_table *f)
{
	for (u32 i = 0; i < f->n; i++) {
		const struct tplan_tensor *a = &f->t[i];

		if (a->offset % a->alignment)
			return false;
		for (u32 j = i + 1; j < f->n; j++) {
			const struct tplan_tensor *b = &f->t[j];
			u64 lo = a->lower > b->lower ? a->lower : b->lower;
			u64 hi = a->upper < b->upper ? a->upper : b->upper;

			for (u64 s = lo; s < hi; s++) {
				u64 af, at, bf, bt;

				present_at(f, a, s, &af, &at);
				present_at(f, b, s, &bf, &bt);
				if (af < at && bf < bt &&
				    a->offset + af < b->offset + bt &&
				    b->offset + bf < a->offset + at)
					return false;
			}
		}
	}
	return true;
}

/* Pins or gaps: what makes search incomplete (hints alone do not). */
static bool pins_or_gaps(const struct constrained_table *f)
{
	for (u32 i = 0; i < f->n; i++)
		if (f->t[i].gap_count || (f->t[i].flags & TPLAN_TENSOR_PINNED))
			return true;
	return false;
}

/* Offsets back to the table's: pins where they were, the rest 0. */
static void reset_offsets(struct constrained_table *f)
{
	for (u32 i = 0; i < f->n; i++)
		f->t[i].offset = f->t[i].flags & TPLAN_TENSOR_PINNED ?
				 f->pin[i] : 0;
}

/* The lowest peak greedy-size, strip and auto find (pins reset after). */
static u64 best_other_peak(struct constrained_table *f, u64 *bound)
{
	static const u32 others[] = {
		TPLAN_STRATEGY_GREEDY_SIZE, TPLAN_STRATEGY_STRIP,
		TPLAN_STRATEGY_AUTO,
	};
	u64 best = ~0ull;

	for (u32 k = 0; k < 3; k++) {
		struct tplan_options o = constrained_options(f, others[k]);
		struct tplan_result res;

		reset_offsets(f);
		CHECK_EQ(tplan_plan(f->t, f->n, &o, &res), 0);
		if (res.peak < best)
			best = res.peak;
		*bound = res.lower_bound;
	}
	reset_offsets(f);
	return best;
}

/* Whether a pinned tensor ends above @capacity (the table is refused). */
static bool pin_above(const struct constrained_table *f, u64 capacity)
{
	for (u32 i = 0; i < f->n; i++)
		if ((f->t[i].flags & TPLAN_TENSOR_PINNED) &&
		    f->pin[i] + f->t[i].size > capacity)
			return true;
	return false;
}

/* One search at @capacity: a valid plan within it, or an honest "no". */
static void search_one(struct constrained_table *f, u64 capacity, u64 best,
		       u32 *fits)
{
	struct tplan_options o = constrained_options(f, TPLAN_STRATEGY_SEARCH);
	struct tplan_result res;
	struct tplan_finding fd;
	int ret;

	o.capacity = capacity;
	reset_offsets(f);
	ret = tplan_plan(f->t, f->n, &o, &res);
	CHECK(ret == 0 || ret == -ENOSPC);
	if (res.search == TPLAN_SEARCH_IMPOSSIBLE) {
		/* a proof only without pins and gaps, and never wrong */
		CHECK(!pins_or_gaps(f));
		CHECK(capacity < best);
	}
	if (ret)
		return;
	(*fits)++;
	CHECK(res.peak <= capacity);
	CHECK_EQ(tplan_validate_gaps(f->t, f->n, f->gaps, f->gap_count,
				     capacity, &fd), 0);
	CHECK(brute_force_valid(f));
	for (u32 i = 0; i < f->n; i++)
		if (f->t[i].flags & TPLAN_TENSOR_PINNED)
			CHECK_EQ(f->t[i].offset, f->pin[i]);
}

/*
 * Search at capacities from the lower bound up to the best peak the other
 * strategies find: every plan it returns is valid within the capacity and
 * keeps the pins, and it claims "impossible" only where that is true.
 */
static void search_honours_pins_and_gaps(void)
{
	u64 seed0 = test_first_seed(ROUNDS);
	u32 fits = 0, below_others = 0;

	for (u64 seed = seed0; seed < seed0 + ROUNDS; seed++) {
		struct constrained_table f;
		unsigned int before = test_failures;
		u64 bound = 0, best, caps[3];

		CHECK(constrained_random(&f, seed));
		if (!f.t) {
			constrained_free(&f);
			continue;
		}
		best = best_other_peak(&f, &bound);
		caps[0] = bound;
		caps[1] = bound + (best - bound) / 2;
		caps[2] = best;
		for (u32 k = 0; k < 3; k++) {
			u32 before_fits = fits;

			if (pin_above(&f, caps[k]))
				continue;
			search_one(&f, caps[k], best, &fits);
			below_others += fits > before_fits && caps[k] < best;
		}
		if (test_failures != before)
			printf("    search with pins and gaps failed on TPLAN_SEED=%llu\n",
			       seed);
		constrained_free(&f);
	}
	printf("    %u searches fit, %u below every other strategy\n", fits,
	       below_others);
	CHECK(below_others > 0);
}

static void plans_keep_pins_and_are_valid(void)
{
	u64 seed0 = test_first_seed(ROUNDS);

	for (u64 seed = seed0; seed < seed0 + ROUNDS; seed++) {
		struct constrained_table f;
		unsigned int before = test_failures;

		CHECK(constrained_random(&f, seed));
		for (u32 s = 0; s < TPLAN_STRATEGY_COUNT && f.t; s++) {
			struct tplan_options o = constrained_options(&f, s);
			struct tplan_result res;
			struct tplan_finding fd;
			int ret = tplan_plan(f.t, f.n, &o, &res);

			CHECK_EQ(ret, 0);
			CHECK_EQ(tplan_validate_gaps(f.t, f.n, f.gaps,
						     f.gap_count, res.peak, &fd),
				 0);
			if (!brute_force_valid(&f)) {
				CHECK(!"plan is valid");
				printf("    strategy %s\n", tplan_strategy_name(s));
			}
			CHECK(res.peak >= res.lower_bound);
			for (u32 i = 0; i < f.n; i++)
				if (f.t[i].flags & TPLAN_TENSOR_PINNED)
					CHECK_EQ(f.t[i].offset, f.pin[i]);
		}
		if (test_failures != before)
			printf("    fixed property failed on TPLAN_SEED=%llu\n",
			       seed);
		constrained_free(&f);
	}
}

static void plans_are_deterministic(void)
{
	u64 seed0 = test_first_seed(ROUNDS);

	for (u64 seed = seed0; seed < seed0 + ROUNDS; seed += 5) {
		struct constrained_table a, b;
		unsigned int before = test_failures;

		CHECK(constrained_random(&a, seed) && constrained_random(&b, seed));
		for (u32 s = 0; s < TPLAN_STRATEGY_COUNT && a.t && b.t; s++) {
			struct tplan_options oa = constrained_options(&a, s);
			struct tplan_options ob = constrained_options(&b, s);
			struct tplan_result ra, rb;

			CHECK_EQ(tplan_plan(a.t, a.n, &oa, &ra), 0);
			CHECK_EQ(tplan_plan(b.t, b.n, &ob, &rb), 0);
			CHECK_EQ(ra.work, rb.work);
			for (u32 i = 0; i < a.n; i++)
				CHECK_EQ(a.t[i].offset, b.t[i].offset);
		}
		if (test_failures != before)
			printf("    nondeterministic on TPLAN_SEED=%llu\n", seed);
		constrained_free(&a);
		constrained_free(&b);
	}
}

/* Random plans, valid or not: the validator and the brute force agree. */
static void validator_agrees_with_brute_force(void)
{
	u64 seed0 = test_first_seed(ROUNDS);

	for (u64 seed = seed0; seed < seed0 + ROUNDS; seed++) {
		struct gen_rng rng = { seed };
		struct constrained_table f;
		struct tplan_finding fd;
		int ret;

		CHECK(constrained_random(&f, seed));
		for (u32 i = 0; i < f.n && f.t; i++)
			f.t[i].offset = gen_between(&rng, 0, 1u << 16) &
					~(f.t[i].alignment - 1);
		if (f.t) {
			ret = tplan_validate_gaps(f.t, f.n, f.gaps, f.gap_count,
						  0, &fd);
			CHECK_EQ(!ret, brute_force_valid(&f));
			if (ret)
				CHECK_EQ(fd.defect, TPLAN_DEFECT_OVERLAP);
			if (!ret != brute_force_valid(&f))
				printf("    validator disagrees on TPLAN_SEED=%llu\n",
				       seed);
		}
		constrained_free(&f);
	}
}

/*
 * Placing a tensor next to one with many gaps walks that one's stretches:
 * the walk is work like any other, so the budget bounds it.  One tensor
 * alive throughout owns GAP_WALK_GAPS one-step gaps (16 per tensor of the
 * table, the kernel's most), the others live one step each, spread over
 * its life: each placement walks up to all its stretches.
 */
#define GAP_WALK_GAPS	4096u
#define GAP_WALK_OTHERS	255u

static void gap_walks_are_charged(void)
{
	const u32 n = GAP_WALK_OTHERS + 1;
	struct tplan_tensor *t = calloc(n, sizeof(*t));
	struct tplan_gap *g = calloc(GAP_WALK_GAPS, sizeof(*g));
	struct tplan_options o = {
		.strategy = TPLAN_STRATEGY_GREEDY_SIZE, .budget = 400000,
		.gaps = g, .gap_count = GAP_WALK_GAPS,
	};
	struct tplan_result r;

	CHECK(t && g);
	for (u32 k = 0; k < GAP_WALK_GAPS && g; k++) {
		g[k].lower = 2 * k + 1;
		g[k].upper = 2 * k + 2;
	}
	for (u32 i = 0; i < n && t; i++) {
		u64 at = 2ull * ((u64)i * GAP_WALK_GAPS / n);

		t[i] = (struct tplan_tensor){ .id = i, .lower = at,
			.upper = at + 1, .size = 64, .alignment = 1 };
	}
	if (t) {
		t[0].upper = 2 * GAP_WALK_GAPS;
		t[0].size = 128;	/* placed first */
		t[0].gap_count = GAP_WALK_GAPS;
	}
	/* about 255 x 4096 stretches walked: far more than 100000 units */
	CHECK_EQ(t && g ? tplan_plan(t, n, &o, &r) : 0, -ETIMEDOUT);
	o.budget = 0;
	CHECK_EQ(t && g ? tplan_plan(t, n, &o, &r) : -1, 0);
	CHECK(r.work > 100000);
	free(t);
	free(g);
}

/*
 * Sweep fit, the first plan of auto and search on dense tables, places
 * everything above the pins and each tensor with gaps as if present all
 * its lifetime: valid by the brute force, pins where they were.
 */
static void sweep_keeps_pins_and_is_valid(void)
{
	u64 seed0 = test_first_seed(ROUNDS);

	for (u64 seed = seed0; seed < seed0 + ROUNDS; seed++) {
		struct constrained_table f;
		struct tplan_timeline tl = { 0 };
		unsigned int before = test_failures;

		CHECK(constrained_random(&f, seed));
		if (f.t && !tplan_timeline_init(&tl, f.t, f.n)) {
			CHECK_EQ(tplan_place_sweep(f.t, f.n, &tl), 0);
			CHECK(brute_force_valid(&f));
			for (u32 i = 0; i < f.n; i++)
				if (f.t[i].flags & TPLAN_TENSOR_PINNED)
					CHECK_EQ(f.t[i].offset, f.pin[i]);
		}
		tplan_timeline_free(&tl);
		if (test_failures != before)
			printf("    sweep failed on TPLAN_SEED=%llu\n", seed);
		constrained_free(&f);
	}
}

/*
 * A hint does not take sweep fit away: auto's first plan on a dense table
 * with one costs no work units, so a budget far below greedy-size's cost
 * still gives a valid plan (before, greedy-size came first: -ETIMEDOUT).
 */
static void dense_hinted_table_plans_in_a_small_budget(void)
{
	const struct gen_params p = {
		.n = 3000, .horizon = 300, .max_life = 40, .max_size = 100000,
	};
	struct tplan_tensor *t = gen_random_table(&p, 42);
	struct tplan_options o = { .budget = 1000 };
	struct tplan_result res;
	struct tplan_finding fd;

	CHECK(t);
	if (!t)
		return;
	t[0].flags |= TPLAN_TENSOR_HINT;
	t[0].hint = 0;
	CHECK_EQ(tplan_plan(t, p.n, &o, &res), 0);
	CHECK_EQ(tplan_validate(t, p.n, 0, &fd), 0);
	CHECK(res.peak >= res.lower_bound);
	free(t);
}

static const struct test_case cases[] = {
	TEST_CASE(plans_keep_pins_and_are_valid),
	TEST_CASE(plans_are_deterministic),
	TEST_CASE(search_honours_pins_and_gaps),
	TEST_CASE(validator_agrees_with_brute_force),
	TEST_CASE(gap_walks_are_charged),
	TEST_CASE(sweep_keeps_pins_and_is_valid),
	TEST_CASE(dense_hinted_table_plans_in_a_small_budget),
};

TEST_SUITE(constrained_suite, "constrained", cases);
