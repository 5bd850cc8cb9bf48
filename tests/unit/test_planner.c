// SPDX-License-Identifier: MIT
/*
 * test_planner.c - hand-made planner cases that only userspace runs: huge
 * tables, strategy names from text, small tensors apart and aliases.  The
 * cases the KUnit suite runs as well are in tests/common/planner_cases.c.
 */
#include <errno.h>
#include <string.h>

#include <stdlib.h>

#include "gen.h"
#include "harness.h"
#include "strategy/placement.h"
#include "planner.h"
#include "planner_cases.h"

#define T(id_, lo, up, sz) \
	{ .id = (id_), .lower = (lo), .upper = (up), .size = (sz), .alignment = 1 }

#define N_PUBLISHED PUBLISHED_EXAMPLE_TENSORS

/*
 * Past 2^62 bytes the search does not run: the greedy plan stands.  A cut
 * rectangle greedy-size does not pack (the KUnit suite's), scaled by 2^47.
 */
static void search_gives_up_on_huge_tables(void)
{
	struct tplan_tensor *t = gen_perfect_table(PERFECT_CASE_TENSORS,
						   PERFECT_CASE_STEPS,
						   PERFECT_CASE_HEIGHT,
						   PERFECT_CASE_SEED);
	struct tplan_options o = { .strategy = TPLAN_STRATEGY_SEARCH };
	struct tplan_result res;
	struct tplan_finding f;

	CHECK(t != NULL);
	if (!t)
		return;
	for (u32 i = 0; i < 12; i++)
		t[i].size <<= 47;
	CHECK_EQ(tplan_check_table(t, 12, NULL), 0);
	CHECK_EQ(tplan_plan(t, 12, &o, &res), 0);
	CHECK(res.peak > res.lower_bound);
	CHECK_EQ(res.search, TPLAN_SEARCH_GAVE_UP);
	CHECK_EQ(tplan_validate(t, 12, 0, &f), 0);
	free(t);
}

/*
 * Past 2048 sections the search keeps its valleys in a tree (a scan of the
 * sections below): on a network table of 3000 tensors (about 3000
 * sections) where greedy-size is above the lower bound, it fits the
 * bound (measured: in about 1M units) with a valid plan, the same on every
 * run.
 */
static void search_on_many_sections(void)
{
	const u32 n = 3000;
	struct tplan_tensor *t = gen_network_table(n, 2);
	struct tplan_tensor *again = gen_network_table(n, 2);
	struct tplan_options g = { .strategy = TPLAN_STRATEGY_GREEDY_SIZE };
	struct tplan_options o = { .strategy = TPLAN_STRATEGY_SEARCH,
				   .budget = 12000000 };
	struct tplan_result rg, rs, ra;
	struct tplan_finding f;

	CHECK(t && again);
	if (!t || !again)
		goto out;
	CHECK_EQ(tplan_plan(t, n, &g, &rg), 0);
	CHECK_EQ(tplan_plan(t, n, &o, &rs), 0);
	CHECK_EQ(tplan_validate(t, n, 0, &f), 0);
	CHECK(rg.peak > rg.lower_bound);
	CHECK_EQ(rs.peak, rs.lower_bound);
	CHECK_EQ(rs.search, TPLAN_SEARCH_FIT);
	CHECK_EQ(tplan_plan(again, n, &o, &ra), 0);
	CHECK_EQ(ra.peak, rs.peak);
	CHECK_EQ(ra.work, rs.work);
	for (u32 i = 0; i < n; i++)
		CHECK_EQ(again[i].offset, t[i].offset);
out:
	free(t);
	free(again);
}

/*
 * A key-order round takes a wide valley's right candidates from a walk of
 * every tensor when sorting them would cost more (right_by_walk()).  On
 * network-5000 (seed 2) it does so some 900 times and the search fits the
 * bound in 3.9M units (measured); with the walk finding nothing it does
 * not fit within 5M.
 */
static void search_walks_wide_valleys(void)
{
	const u32 n = 5000;
	struct tplan_tensor *t = gen_network_table(n, 2);
	struct tplan_options o = { .strategy = TPLAN_STRATEGY_SEARCH,
				   .budget = 5000000 };
	struct tplan_result res;
	struct tplan_finding f;

	CHECK(t);
	if (!t)
		return;
	CHECK_EQ(tplan_plan(t, n, &o, &res), 0);
	CHECK_EQ(res.search, TPLAN_SEARCH_FIT);
	CHECK_EQ(res.peak, res.lower_bound);
	CHECK_EQ(tplan_validate(t, n, 0, &f), 0);
	free(t);
}

/*
 * After a sweep fit, greedy-size stops as soon as its pace says the budget
 * left cannot see it through: on 10^4 random lifetimes (about 1500 alive
 * at once; greedy-size needs 46.9M units) with a budget of 10M, auto keeps
 * the sweep's plan having spent a fraction of the budget (measured: 1.0M),
 * not all of it.
 */
static void greedy_after_a_sweep_stops_on_its_pace(void)
{
	const struct gen_params p = {
		.n = 10000, .horizon = 10000 * 100 / 1500 + 1, .max_life = 199,
		.max_size = 1u << 20,
	};
	struct tplan_tensor *t = gen_random_table(&p, 42);
	struct tplan_options o = { .budget = 10000000 };
	struct tplan_result res;
	struct tplan_finding f;

	CHECK(t);
	if (!t)
		return;
	CHECK_EQ(tplan_plan(t, p.n, &o, &res), 0);
	CHECK(res.work < o.budget / 4);
	CHECK_EQ(tplan_validate(t, p.n, 0, &f), 0);
	free(t);
}

/*
 * A default budget bounds the strategies that make their own first plan:
 * on the table above, greedy-size alone needs 46.9M units; under a default
 * budget of 10M (the kernel's SUBMIT with budget 0 sets the flag) it and
 * strip stand behind a sweep fit's plan and spend at most that budget.
 */
static void default_budget_bounds_own_first_plans(void)
{
	const u32 strategy[] = { TPLAN_STRATEGY_GREEDY_SIZE,
				 TPLAN_STRATEGY_STRIP };
	const struct gen_params p = {
		.n = 10000, .horizon = 10000 * 100 / 1500 + 1, .max_life = 199,
		.max_size = 1u << 20,
	};
	struct tplan_tensor *t = gen_random_table(&p, 42);
	struct tplan_result res;
	struct tplan_finding f;
	u32 i;

	CHECK(t);
	for (i = 0; t && i < ARRAY_SIZE(strategy); i++) {
		struct tplan_options o = {
			.strategy = strategy[i], .budget = 10000000,
			.flags = TPLAN_PLAN_DEFAULT_BUDGET,
		};

		CHECK_EQ(tplan_plan(t, p.n, &o, &res), 0);
		CHECK(res.work <= o.budget + 1);
		CHECK_EQ(tplan_validate(t, p.n, res.peak, &f), 0);
	}
	free(t);
}

static void strategy_names_round_trip(void)
{
	u32 s, back;

	for (s = 0; s < TPLAN_STRATEGY_COUNT; s++) {
		CHECK_EQ(tplan_strategy_from_name(tplan_strategy_name(s), &back), 0);
		CHECK_EQ(back, s);
	}
	CHECK_EQ(tplan_strategy_from_name("best", &back), -EINVAL);
	CHECK(!strcmp(tplan_strategy_name(99), "unknown"));
}

/* Below the threshold: own bytes, above every other tensor, in table order. */
static void small_tensors_are_kept_apart(void)
{
	struct tplan_tensor t[N_PUBLISHED];
	struct tplan_options o = {
		.strategy = TPLAN_STRATEGY_GREEDY_SIZE, .small_below = 30,
	};
	struct tplan_result res;
	struct tplan_finding f;
	u64 top_shared = 0, end;

	memcpy(t, published_example, sizeof(t));
	CHECK_EQ(tplan_plan(t, N_PUBLISHED, &o, &res), 0);
	CHECK_EQ(tplan_validate(t, N_PUBLISHED, res.peak, &f), 0);
	CHECK_EQ(res.lower_bound, 124);	/* of the whole table */
	for (u32 i = 0; i < N_PUBLISHED; i++)
		if (t[i].size >= 30 && t[i].offset + t[i].size > top_shared)
			top_shared = t[i].offset + t[i].size;
	end = top_shared;
	for (u32 i = 0; i < N_PUBLISHED; i++) {
		if (t[i].size >= 30)
			continue;
		CHECK_EQ(t[i].offset, end);
		end += t[i].size;
	}
	CHECK_EQ(res.peak, end);
	CHECK_EQ(end - top_shared, 28 + 16 + 8 + 10);
}

#define A(id_, lo, up, sz, of, at) { .id = (id_), .lower = (lo), \
	.upper = (up), .size = (sz), .alignment = 1, .alias_of = (of), \
	.alias_offset = (at), .flags = TPLAN_TENSOR_ALIAS }

/*
 * A concat: 2 and 3 are written into halves of 4's block, 5 is a reshape
 * of 4; 1 lives beside them.  Folded: one 200-byte block over steps 0-5.
 */
static const struct tplan_tensor concat[] = {
	T(1, 0, 6, 50), A(2, 0, 2, 100, 4, 0), A(3, 1, 3, 100, 4, 100),
	T(4, 2, 4, 200), A(5, 3, 6, 200, 4, 0),
};

#define N_CONCAT (sizeof(concat) / sizeof(concat[0]))

static void aliases_share_their_owner(void)
{
	struct tplan_tensor t[N_CONCAT];
	struct tplan_options o = {
		.strategy = TPLAN_STRATEGY_GREEDY_SIZE,
		.flags = TPLAN_PLAN_ALIASES,
	};
	struct tplan_result res;
	struct tplan_finding f;

	memcpy(t, concat, sizeof(t));
	CHECK_EQ(tplan_plan(t, N_CONCAT, &o, &res), 0);
	CHECK_EQ(res.lower_bound, 250);
	CHECK_EQ(res.peak, 250);
	CHECK_EQ(t[1].offset, t[3].offset);
	CHECK_EQ(t[2].offset, t[3].offset + 100);
	CHECK_EQ(t[4].offset, t[3].offset);
	CHECK_EQ(tplan_validate_aliases(t, N_CONCAT, 250, &f), 0);
	/* Without honouring them, the same plan overlaps. */
	CHECK_EQ(tplan_validate(t, N_CONCAT, 0, &f), -EINVAL);
	CHECK_EQ(f.defect, TPLAN_DEFECT_OVERLAP);
	/* Ignored, every row is its own buffer: a higher bound. */
	o.flags = 0;
	memcpy(t, concat, sizeof(t));
	CHECK_EQ(tplan_plan(t, N_CONCAT, &o, &res), 0);
	CHECK_EQ(res.lower_bound, 450);
}

static void expect_alias_defect(struct tplan_tensor *t, u32 n, u32 defect,
				u32 index)
{
	struct tplan_options o = { .flags = TPLAN_PLAN_ALIASES };
	struct tplan_alias_map m;
	struct tplan_result res;
	struct tplan_finding f;

	CHECK_EQ(tplan_fold_aliases(t, n, &m, &f), -EINVAL);
	CHECK_EQ(f.defect, defect);
	if (index != ~0u)
		CHECK_EQ(f.index, index);
	CHECK_EQ(tplan_plan(t, n, &o, &res), -EINVAL);
	CHECK_EQ(tplan_validate_aliases(t, n, 0, &f), -EINVAL);
	CHECK_EQ(f.defect, defect);
}

static void bad_alias_groups_are_rejected(void)
{
	struct tplan_tensor t[N_CONCAT];

	memcpy(t, concat, sizeof(t));
	t[1].alias_of = 9;
	expect_alias_defect(t, N_CONCAT, TPLAN_DEFECT_ALIAS_UNKNOWN, 1);
	memcpy(t, concat, sizeof(t));
	t[2].alias_offset = 101;	/* 101 + 100 > 200 */
	expect_alias_defect(t, N_CONCAT, TPLAN_DEFECT_ALIAS_OUTSIDE, 2);
	memcpy(t, concat, sizeof(t));
	t[3].flags = TPLAN_TENSOR_ALIAS;	/* 4 -> 5 -> 4 */
	t[3].alias_of = 5;
	t[3].size = 200;
	expect_alias_defect(t, N_CONCAT, TPLAN_DEFECT_ALIAS_CYCLE, ~0u);
	memcpy(t, concat, sizeof(t));
	t[1].alias_of = 2;		/* itself */
	expect_alias_defect(t, N_CONCAT, TPLAN_DEFECT_ALIAS_CYCLE, 1);
	memcpy(t, concat, sizeof(t));
	t[2].alignment = 64;		/* at 100 inside its owner */
	expect_alias_defect(t, N_CONCAT, TPLAN_DEFECT_ALIAS_MISALIGNED, 2);
}

static void misplaced_alias_is_found(void)
{
	struct tplan_tensor t[N_CONCAT];
	struct tplan_options o = {
		.strategy = TPLAN_STRATEGY_AUTO, .flags = TPLAN_PLAN_ALIASES,
	};
	struct tplan_result res;
	struct tplan_finding f;

	memcpy(t, concat, sizeof(t));
	CHECK_EQ(tplan_plan(t, N_CONCAT, &o, &res), 0);
	t[2].offset += 8;
	CHECK_EQ(tplan_validate_aliases(t, N_CONCAT, 0, &f), -EINVAL);
	CHECK_EQ(f.defect, TPLAN_DEFECT_ALIAS_MISPLACED);
	CHECK_EQ(f.index, 2);
	CHECK_EQ(f.other, 3);
}

/*
 * A set never holds more than TPLAN_OCC_SET_CAP ranges: as many tensors of
 * 3 bytes aligned to 8, alive at one step (a 5-byte hole after each), fill
 * the one set; then tensors of 1 byte aligned to 2 go into the holes, the
 * first into the hole the set closes to take it.  The set stays ordered,
 * the plan valid, and the first ones sit where exact greedy puts them.
 */
/* @s is sorted, its ranges disjoint and not touching. */
static bool occ_set_ordered(const struct tplan_occupancy *o,
			    const struct tplan_occ_set *s)
{
	const struct tplan_occ_range *r = &o->pool[s->start];

	for (u32 k = 0; k < s->len; k++)
		if (r[k].lo >= r[k].hi || (k + 1 < s->len && r[k].hi >= r[k + 1].lo))
			return false;
	return true;
}

static void occupancy_sets_are_capped(void)
{
	const u32 n = 2 * TPLAN_OCC_SET_CAP;
	struct tplan_tensor *t = calloc(n, sizeof(*t));
	struct tplan_placer p;
	struct tplan_finding f;
	struct tplan_work w;
	u32 *order = calloc(n, sizeof(*order));

	for (u32 i = 0; i < n; i++) {
		t[i] = (struct tplan_tensor){ .id = i, .lower = 0, .upper = 1,
			.size = i < n / 2 ? 3 : 1,
			.alignment = i < n / 2 ? 8 : 2 };
		order[i] = i;
	}
	tplan_work_init(&w, 0, 0, false);
	CHECK_EQ(tplan_placer_init(&p, t, n, NULL, 0, NULL), 0);
	CHECK(p.mode == TPLAN_PLACER_MERGED);
	for (u32 i = 0; i < n; i++) {
		CHECK_EQ(tplan_placer_try(&p, order[i], ~0ull >> 2, &w), 1);
		if (i % 97 == 0)
			CHECK(occ_set_ordered(&p.occ, &p.occ.cover[1]));
		if (i + 1 != n / 2)
			continue;
		/* one section: node 1 is its leaf, the only set */
		CHECK_EQ(p.occ.sections, 1);
		CHECK_EQ(p.occ.cover[1].len, TPLAN_OCC_SET_CAP);
	}
	for (u32 i = 0; i < n / 2; i++)
		CHECK_EQ(t[i].offset, 8ull * i);
	CHECK_EQ(tplan_validate(t, n, 0, &f), 0);
	tplan_placer_free(&p);
	free(order);
	free(t);
}

static const struct test_case cases[] = {
	TEST_CASE(search_gives_up_on_huge_tables),
	TEST_CASE(occupancy_sets_are_capped),
	TEST_CASE(search_on_many_sections),
	TEST_CASE(search_walks_wide_valleys),
	TEST_CASE(greedy_after_a_sweep_stops_on_its_pace),
	TEST_CASE(default_budget_bounds_own_first_plans),
	TEST_CASE(strategy_names_round_trip),
	TEST_CASE(small_tensors_are_kept_apart),
	TEST_CASE(aliases_share_their_owner),
	TEST_CASE(bad_alias_groups_are_rejected),
	TEST_CASE(misplaced_alias_is_found),
};

TEST_SUITE(planner_suite, "planner", cases);
