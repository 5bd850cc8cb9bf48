// SPDX-License-Identifier: MIT
/*
 * test_planner.c - hand-made cases for the planner and its table checks.
 */
#include <errno.h>
#include <string.h>

#include <stdlib.h>

#include "gen.h"
#include "harness.h"
#include "planner.h"

#define T(id_, lo, up, sz) \
	{ .id = (id_), .lower = (lo), .upper = (up), .size = (sz), .alignment = 1 }

/*
 * The published greedy-by-size example (first step, last step inclusive,
 * size): (0,1,32) (1,4,28) (2,5,36) (3,5,16) (4,5,8) (5,7,64) (6,8,10)
 * (7,8,40).  Upper is last + 1.
 */
static const struct tplan_tensor published[] = {
	T(0, 0, 2, 32), T(1, 1, 5, 28), T(2, 2, 6, 36), T(3, 3, 6, 16),
	T(4, 4, 6, 8), T(5, 5, 8, 64), T(6, 6, 9, 10), T(7, 7, 9, 40),
};

#define N_PUBLISHED (sizeof(published) / sizeof(published[0]))

static int plan_copy(const struct tplan_tensor *src, u32 n, u32 strategy,
		     u64 capacity, struct tplan_tensor *dst,
		     struct tplan_result *res)
{
	struct tplan_options o = { .strategy = strategy, .capacity = capacity };

	memcpy(dst, src, n * sizeof(*src));
	return tplan_plan(dst, n, &o, res);
}

static void published_example_greedy(void)
{
	struct tplan_tensor t[N_PUBLISHED];
	struct tplan_result res;
	struct tplan_finding f;

	CHECK_EQ(plan_copy(published, N_PUBLISHED, TPLAN_STRATEGY_GREEDY_SIZE, 0,
			   t, &res), 0);
	CHECK_EQ(res.lower_bound, 124);
	CHECK_EQ(res.peak, 124);
	CHECK_EQ(res.naive_total, 234);
	CHECK_EQ(res.strategy, TPLAN_STRATEGY_GREEDY_SIZE);
	CHECK(res.work > 0);
	CHECK_EQ(tplan_validate(t, N_PUBLISHED, 124, &f), 0);
}

static void published_example_naive(void)
{
	struct tplan_tensor t[N_PUBLISHED];
	struct tplan_result res;
	struct tplan_finding f;

	CHECK_EQ(plan_copy(published, N_PUBLISHED, TPLAN_STRATEGY_NAIVE, 0, t,
			   &res), 0);
	CHECK_EQ(res.peak, 234);
	CHECK_EQ(t[0].offset, 0);
	CHECK_EQ(t[1].offset, 32);
	CHECK_EQ(t[7].offset, 194);
	CHECK_EQ(tplan_validate(t, N_PUBLISHED, 0, &f), 0);
}

static void lower_bound_exclusive_upper(void)
{
	/* [0,2) and [2,4) never live together: the bound is 10, not 20. */
	const struct tplan_tensor t[] = { T(1, 0, 2, 10), T(2, 2, 4, 10) };
	u64 bound;

	CHECK_EQ(tplan_lower_bound(t, 2, &bound), 0);
	CHECK_EQ(bound, 10);
}

static void gap_at_offset_zero_is_used(void)
{
	/* y sits on x; z overlaps y only and fits below it, at 0. */
	const struct tplan_tensor src[] = {
		T(1, 0, 2, 100), T(2, 1, 4, 90), T(3, 3, 5, 80),
	};
	struct tplan_tensor t[3];
	struct tplan_result res;

	CHECK_EQ(plan_copy(src, 3, TPLAN_STRATEGY_GREEDY_SIZE, 0, t, &res), 0);
	CHECK_EQ(t[0].offset, 0);
	CHECK_EQ(t[1].offset, 100);
	CHECK_EQ(t[2].offset, 0);
	CHECK_EQ(res.peak, 190);
}

static void alignment_is_honoured(void)
{
	struct tplan_tensor src[] = {
		T(1, 0, 4, 100), T(2, 0, 4, 10), T(3, 0, 4, 1),
	};
	struct tplan_tensor t[3];
	struct tplan_result res;
	struct tplan_finding f;

	src[1].alignment = 64;
	src[2].alignment = 256;
	CHECK_EQ(plan_copy(src, 3, TPLAN_STRATEGY_GREEDY_SIZE, 0, t, &res), 0);
	CHECK_EQ(t[0].offset, 0);
	CHECK_EQ(t[1].offset, 128);
	CHECK_EQ(t[2].offset, 256);
	CHECK_EQ(tplan_validate(t, 3, 0, &f), 0);
	CHECK_EQ(plan_copy(src, 3, TPLAN_STRATEGY_NAIVE, 0, t, &res), 0);
	CHECK_EQ(t[1].offset, 128);
	CHECK_EQ(t[2].offset, 256);
	CHECK_EQ(res.naive_total, 257);
}

static void zero_size_takes_no_space(void)
{
	const struct tplan_tensor src[] = {
		T(1, 0, 4, 0), T(2, 0, 4, 16), T(3, 1, 2, 0),
	};
	struct tplan_tensor t[3];
	struct tplan_result res;
	struct tplan_finding f;

	CHECK_EQ(plan_copy(src, 3, TPLAN_STRATEGY_GREEDY_SIZE, 0, t, &res), 0);
	CHECK_EQ(res.peak, 16);
	CHECK_EQ(res.lower_bound, 16);
	CHECK_EQ(t[0].offset, 0);
	CHECK_EQ(t[2].offset, 0);
	CHECK_EQ(tplan_validate(t, 3, 16, &f), 0);
}

static void capacity_too_small_is_enospc(void)
{
	struct tplan_tensor t[N_PUBLISHED];
	struct tplan_result res;

	CHECK_EQ(plan_copy(published, N_PUBLISHED, TPLAN_STRATEGY_GREEDY_SIZE,
			   123, t, &res), -ENOSPC);
	CHECK_EQ(res.peak, 124);
	CHECK_EQ(plan_copy(published, N_PUBLISHED, TPLAN_STRATEGY_GREEDY_SIZE,
			   124, t, &res), 0);
}

static void unknown_strategy_is_einval(void)
{
	struct tplan_tensor t[N_PUBLISHED];
	struct tplan_result res;

	CHECK_EQ(plan_copy(published, N_PUBLISHED, TPLAN_STRATEGY_COUNT, 0, t,
			   &res), -EINVAL);
}

static void budget_exhausted_is_etimedout(void)
{
	struct tplan_tensor t[N_PUBLISHED];
	struct tplan_options o = {
		.strategy = TPLAN_STRATEGY_GREEDY_SIZE, .budget = 2,
	};
	struct tplan_result res;

	memcpy(t, published, sizeof(published));
	CHECK_EQ(tplan_plan(t, N_PUBLISHED, &o, &res), -ETIMEDOUT);
	CHECK(res.work > 2);
}

static void empty_table_plans_to_nothing(void)
{
	struct tplan_tensor t[1];
	struct tplan_options o = { .strategy = TPLAN_STRATEGY_GREEDY_SIZE };
	struct tplan_result res;

	CHECK_EQ(tplan_plan(t, 0, &o, &res), 0);
	CHECK_EQ(res.peak, 0);
	CHECK_EQ(res.lower_bound, 0);
}

static void expect_defect(struct tplan_tensor *t, u32 n, int err, u32 defect,
			  u32 index, u32 other)
{
	struct tplan_options o = { .strategy = TPLAN_STRATEGY_GREEDY_SIZE };
	struct tplan_finding f;
	struct tplan_result res;

	CHECK_EQ(tplan_check_table(t, n, &f), err);
	CHECK_EQ(f.defect, defect);
	CHECK_EQ(f.index, index);
	CHECK_EQ(f.other, other);
	CHECK_EQ(tplan_plan(t, n, &o, &res), err);
}

static void check_table_rejects_bad_rows(void)
{
	struct tplan_tensor t[] = { T(1, 0, 2, 8), T(2, 3, 3, 8), T(3, 1, 2, 8) };

	expect_defect(t, 3, -EINVAL, TPLAN_DEFECT_LIFETIME, 1, 1);
	t[1].upper = 2;			/* upper < lower */
	expect_defect(t, 3, -EINVAL, TPLAN_DEFECT_LIFETIME, 1, 1);
	t[1].upper = 4;
	t[2].alignment = 0;
	expect_defect(t, 3, -EINVAL, TPLAN_DEFECT_ALIGNMENT, 2, 2);
	t[2].alignment = 24;
	expect_defect(t, 3, -EINVAL, TPLAN_DEFECT_ALIGNMENT, 2, 2);
	t[2].alignment = 8;
	t[0].flags = 0x80;
	expect_defect(t, 3, -EINVAL, TPLAN_DEFECT_FLAGS, 0, 0);
	t[0].flags = TPLAN_TENSOR_ALIAS;
	t[0].pad = 1;
	expect_defect(t, 3, -EINVAL, TPLAN_DEFECT_FLAGS, 0, 0);
	t[0].pad = 0;
	CHECK_EQ(tplan_check_table(t, 3, NULL), 0);
}

static void check_table_rejects_duplicate_ids(void)
{
	struct tplan_tensor t[] = {
		T(5, 0, 2, 8), T(7, 0, 2, 8), T(6, 1, 2, 8), T(7, 1, 3, 8),
	};

	expect_defect(t, 4, -EINVAL, TPLAN_DEFECT_DUPLICATE_ID, 3, 1);
}

static void check_table_rejects_overflowing_sizes(void)
{
	struct tplan_tensor t[] = {
		T(1, 0, 2, 1ull << 63), T(2, 5, 6, 1ull << 63),
	};

	expect_defect(t, 2, -EOVERFLOW, TPLAN_DEFECT_TOO_LARGE, 1, 1);
	t[1].size = (1ull << 63) - 1;	/* sums to 2^64 - 1: still fine */
	CHECK_EQ(tplan_check_table(t, 2, NULL), 0);
	t[1].alignment = 2;		/* alignment slack tips it over */
	expect_defect(t, 2, -EOVERFLOW, TPLAN_DEFECT_TOO_LARGE, 1, 1);
}

static void huge_sizes_plan_without_overflow(void)
{
	const struct tplan_tensor src[] = {
		T(1, 0, 2, 1ull << 62), T(2, 1, 3, 1ull << 62),
		T(3, 2, 4, (1ull << 63) - 1),
	};
	struct tplan_tensor t[3];
	struct tplan_result res;
	struct tplan_finding f;

	CHECK_EQ(plan_copy(src, 3, TPLAN_STRATEGY_GREEDY_SIZE, 0, t, &res), 0);
	CHECK_EQ(tplan_validate(t, 3, 0, &f), 0);
	CHECK(res.peak >= res.lower_bound);
}

/*
 * Past 2^62 bytes the search does not run: the greedy plan stands.  A cut
 * rectangle greedy-size does not pack (the KUnit suite's), scaled by 2^47.
 */
static void search_gives_up_on_huge_tables(void)
{
	struct tplan_tensor *t = gen_perfect_table(12, 64, 256, 20261124);
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

static void same_input_same_plan(void)
{
	struct tplan_tensor a[N_PUBLISHED], b[N_PUBLISHED];
	struct tplan_result ra, rb;

	plan_copy(published, N_PUBLISHED, TPLAN_STRATEGY_GREEDY_SIZE, 0, a, &ra);
	plan_copy(published, N_PUBLISHED, TPLAN_STRATEGY_GREEDY_SIZE, 0, b, &rb);
	CHECK(!memcmp(a, b, sizeof(a)));
	CHECK_EQ(ra.work, rb.work);
}

static void search_below_lower_bound_is_impossible(void)
{
	struct tplan_tensor t[N_PUBLISHED];
	struct tplan_result res;

	CHECK_EQ(plan_copy(published, N_PUBLISHED, TPLAN_STRATEGY_SEARCH, 123,
			   t, &res), -ENOSPC);
	CHECK_EQ(res.search, TPLAN_SEARCH_IMPOSSIBLE);
	CHECK_EQ(res.peak, 124);
	CHECK_EQ(plan_copy(published, N_PUBLISHED, TPLAN_STRATEGY_SEARCH, 0, t,
			   &res), 0);
	CHECK_EQ(res.search, TPLAN_SEARCH_FIT);
	CHECK_EQ(res.peak, 124);
}

/* A table greedy cannot pack: the searching strategies stop on budget. */
static void searching_strategies_keep_to_the_budget(void)
{
	struct gen_params p = {
		.n = 300, .horizon = 200, .max_life = 60, .max_size = 1 << 16,
	};
	struct tplan_tensor *t = gen_random_table(&p, 7);
	struct tplan_result res;
	struct tplan_finding f;

	for (u32 s = TPLAN_STRATEGY_STRIP; s < TPLAN_STRATEGY_COUNT; s++) {
		struct tplan_options o = { .strategy = s, .budget = 100000 };

		CHECK_EQ(tplan_plan(t, p.n, &o, &res), 0);
		CHECK(res.work <= 100000 + 10000);
		CHECK_EQ(tplan_validate(t, p.n, 0, &f), 0);
		if (res.peak > res.lower_bound)
			CHECK_EQ(res.search == TPLAN_SEARCH_FIT, 0);
	}
	free(t);
}

static void search_names(void)
{
	CHECK(!strcmp(tplan_search_name(TPLAN_SEARCH_FIT), "fit"));
	CHECK(!strcmp(tplan_search_name(TPLAN_SEARCH_IMPOSSIBLE), "impossible"));
	CHECK(!strcmp(tplan_search_name(TPLAN_SEARCH_GAVE_UP), "gave up"));
	CHECK(!strcmp(tplan_search_name(42), "unknown"));
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

	memcpy(t, published, sizeof(t));
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

static const struct test_case cases[] = {
	TEST_CASE(published_example_greedy),
	TEST_CASE(published_example_naive),
	TEST_CASE(lower_bound_exclusive_upper),
	TEST_CASE(gap_at_offset_zero_is_used),
	TEST_CASE(alignment_is_honoured),
	TEST_CASE(zero_size_takes_no_space),
	TEST_CASE(capacity_too_small_is_enospc),
	TEST_CASE(unknown_strategy_is_einval),
	TEST_CASE(budget_exhausted_is_etimedout),
	TEST_CASE(empty_table_plans_to_nothing),
	TEST_CASE(check_table_rejects_bad_rows),
	TEST_CASE(check_table_rejects_duplicate_ids),
	TEST_CASE(check_table_rejects_overflowing_sizes),
	TEST_CASE(huge_sizes_plan_without_overflow),
	TEST_CASE(search_gives_up_on_huge_tables),
	TEST_CASE(strategy_names_round_trip),
	TEST_CASE(same_input_same_plan),
	TEST_CASE(search_below_lower_bound_is_impossible),
	TEST_CASE(searching_strategies_keep_to_the_budget),
	TEST_CASE(search_names),
	TEST_CASE(small_tensors_are_kept_apart),
	TEST_CASE(aliases_share_their_owner),
	TEST_CASE(bad_alias_groups_are_rejected),
	TEST_CASE(misplaced_alias_is_found),
};

TEST_SUITE(planner_suite, "planner", cases);
