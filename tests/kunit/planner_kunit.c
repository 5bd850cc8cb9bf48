// SPDX-License-Identifier: GPL-2.0
/*
 * planner_kunit.c - KUnit cases for the kernel build of the shared planner:
 * the hand-made cases of tests/test_planner.c and tests/test_validate.c, a
 * pseudo-random table whose plans (every strategy) must match the ones
 * libtplan computes, a small budget every searching strategy keeps to, and
 * a perfect table (tests/test_property.c) that search packs to its bound.
 *
 * The tables live in static const arrays; every test plans a copy in a
 * kunit_kzalloc'd buffer, so no table sits on the kernel stack.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/string.h>

#include "gen.h"
#include "planner.h"

#define T(id_, lo, up, sz) \
	{ .id = (id_), .lower = (lo), .upper = (up), .size = (sz), .alignment = 1 }

#define P(id_, lo, up, sz, off) \
	{ .id = (id_), .lower = (lo), .upper = (up), .size = (sz), \
	  .alignment = 1, .offset = (off) }

/*
 * The published greedy-by-size example (first step, last step inclusive,
 * size): (0,1,32) (1,4,28) (2,5,36) (3,5,16) (4,5,8) (5,7,64) (6,8,10)
 * (7,8,40).  Upper is last + 1.
 */
static const struct tplan_tensor published[] = {
	T(0, 0, 2, 32), T(1, 1, 5, 28), T(2, 2, 6, 36), T(3, 3, 6, 16),
	T(4, 4, 6, 8), T(5, 5, 8, 64), T(6, 6, 9, 10), T(7, 7, 9, 40),
};

/* [0,2) and [2,4) never live together: the bound is 10, not 20. */
static const struct tplan_tensor exclusive_upper[] = {
	T(1, 0, 2, 10), T(2, 2, 4, 10),
};

/* y sits on x; z overlaps y only and fits below it, at 0. */
static const struct tplan_tensor gap_at_zero[] = {
	T(1, 0, 2, 100), T(2, 1, 4, 90), T(3, 3, 5, 80),
};

static const struct tplan_tensor aligned[] = {
	T(1, 0, 4, 100),
	{ .id = 2, .lower = 0, .upper = 4, .size = 10, .alignment = 64 },
	{ .id = 3, .lower = 0, .upper = 4, .size = 1, .alignment = 256 },
};

static const struct tplan_tensor zero_size[] = {
	T(1, 0, 4, 0), T(2, 0, 4, 16), T(3, 1, 2, 0),
};

static const struct tplan_tensor bad_rows[] = {
	T(1, 0, 2, 8), T(2, 3, 3, 8), T(3, 1, 2, 8),
};

static const struct tplan_tensor duplicate_ids[] = {
	T(5, 0, 2, 8), T(7, 0, 2, 8), T(6, 1, 2, 8), T(7, 1, 3, 8),
};

static const struct tplan_tensor overflowing[] = {
	T(1, 0, 2, 1ull << 63), T(2, 5, 6, 1ull << 63),
};

static const struct tplan_tensor huge[] = {
	T(1, 0, 2, 1ull << 62), T(2, 1, 3, 1ull << 62),
	T(3, 2, 4, (1ull << 63) - 1),
};

static const struct tplan_tensor valid_plan[] = {
	P(1, 0, 4, 10, 0), P(2, 0, 4, 10, 10), P(3, 4, 6, 20, 0),
	P(4, 2, 3, 0, 5),	/* zero size, inside another: fine */
};

static const struct tplan_tensor touching[] = {
	P(1, 0, 2, 8, 0), P(2, 2, 4, 8, 0),
};

static const struct tplan_tensor overlap_base[] = {
	P(1, 0, 4, 10, 0), P(2, 0, 4, 10, 10), P(3, 3, 6, 20, 20),
	P(4, 5, 8, 8, 0),
};

static const struct tplan_tensor same_offset[] = {
	P(1, 0, 2, 1, 7), P(2, 1, 3, 1, 7),
};

/*
 * A long tensor low down, a short one above it, and a newcomer that only
 * collides with the low one: the sweep must still find it.
 */
static const struct tplan_tensor hidden_overlap[] = {
	P(1, 0, 10, 100, 0), P(2, 0, 10, 10, 100), P(3, 5, 6, 10, 50),
};

static const struct tplan_tensor misaligned[] = {
	P(1, 0, 2, 8, 0),
	{ .id = 2, .lower = 0, .upper = 2, .size = 8, .alignment = 8,
	  .offset = 12 },
};

static const struct tplan_tensor two_of_eight[] = {
	P(1, 0, 2, 8, 0), P(2, 0, 2, 8, 8),
};

static const struct tplan_tensor end_past_u64[] = {
	P(1, 0, 2, 8, ~0ull - 3),
};

static const struct tplan_tensor same_id[] = {
	P(1, 0, 2, 8, 0), P(1, 0, 2, 8, 8),
};

/* A copy of @n rows of @src in test-managed memory (zeroed if @src is NULL). */
static struct tplan_tensor *table_dup(struct kunit *test,
				      const struct tplan_tensor *src, u32 n)
{
	struct tplan_tensor *t;

	t = kunit_kzalloc(test, array_size(n ? n : 1, sizeof(*t)), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	if (src)
		memcpy(t, src, array_size(n, sizeof(*t)));
	return t;
}

static int plan(struct tplan_tensor *t, u32 n, u32 strategy, u64 capacity,
		struct tplan_result *res)
{
	struct tplan_options o = { .strategy = strategy, .capacity = capacity };

	return tplan_plan(t, n, &o, res);
}

static void published_example_greedy(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, published,
					   ARRAY_SIZE(published));
	struct tplan_result res;
	struct tplan_finding f;

	KUNIT_ASSERT_EQ(test, plan(t, ARRAY_SIZE(published),
				   TPLAN_STRATEGY_GREEDY_SIZE, 0, &res), 0);
	KUNIT_EXPECT_EQ(test, res.lower_bound, 124);
	KUNIT_EXPECT_EQ(test, res.peak, 124);
	KUNIT_EXPECT_EQ(test, res.naive_total, 234);
	KUNIT_EXPECT_EQ(test, res.strategy, TPLAN_STRATEGY_GREEDY_SIZE);
	KUNIT_EXPECT_GT(test, res.work, 0);
	KUNIT_EXPECT_EQ(test, tplan_peak(t, ARRAY_SIZE(published)), 124);
	KUNIT_EXPECT_EQ(test, tplan_validate(t, ARRAY_SIZE(published), 124, &f),
			0);
}

static void published_example_naive(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, published,
					   ARRAY_SIZE(published));
	struct tplan_result res;
	struct tplan_finding f;

	KUNIT_ASSERT_EQ(test, plan(t, ARRAY_SIZE(published),
				   TPLAN_STRATEGY_NAIVE, 0, &res), 0);
	KUNIT_EXPECT_EQ(test, res.peak, 234);
	KUNIT_EXPECT_EQ(test, res.strategy, TPLAN_STRATEGY_NAIVE);
	KUNIT_EXPECT_EQ(test, t[0].offset, 0);
	KUNIT_EXPECT_EQ(test, t[1].offset, 32);
	KUNIT_EXPECT_EQ(test, t[7].offset, 194);
	KUNIT_EXPECT_EQ(test, tplan_validate(t, ARRAY_SIZE(published), 0, &f),
			0);
}

static void lower_bound_exclusive_upper(struct kunit *test)
{
	u64 bound = ~0ull;

	KUNIT_EXPECT_EQ(test, tplan_lower_bound(exclusive_upper,
						ARRAY_SIZE(exclusive_upper),
						&bound), 0);
	KUNIT_EXPECT_EQ(test, bound, 10);
}

static void gap_at_offset_zero_is_used(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, gap_at_zero,
					   ARRAY_SIZE(gap_at_zero));
	struct tplan_result res;

	KUNIT_ASSERT_EQ(test, plan(t, ARRAY_SIZE(gap_at_zero),
				   TPLAN_STRATEGY_GREEDY_SIZE, 0, &res), 0);
	KUNIT_EXPECT_EQ(test, t[0].offset, 0);
	KUNIT_EXPECT_EQ(test, t[1].offset, 100);
	KUNIT_EXPECT_EQ(test, t[2].offset, 0);
	KUNIT_EXPECT_EQ(test, res.peak, 190);
}

static void alignment_is_honoured(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, aligned, ARRAY_SIZE(aligned));
	struct tplan_result res;
	struct tplan_finding f;

	KUNIT_ASSERT_EQ(test, plan(t, ARRAY_SIZE(aligned),
				   TPLAN_STRATEGY_GREEDY_SIZE, 0, &res), 0);
	KUNIT_EXPECT_EQ(test, t[0].offset, 0);
	KUNIT_EXPECT_EQ(test, t[1].offset, 128);
	KUNIT_EXPECT_EQ(test, t[2].offset, 256);
	KUNIT_EXPECT_EQ(test, tplan_validate(t, ARRAY_SIZE(aligned), 0, &f), 0);

	KUNIT_ASSERT_EQ(test, plan(t, ARRAY_SIZE(aligned), TPLAN_STRATEGY_NAIVE,
				   0, &res), 0);
	KUNIT_EXPECT_EQ(test, t[1].offset, 128);
	KUNIT_EXPECT_EQ(test, t[2].offset, 256);
	KUNIT_EXPECT_EQ(test, res.naive_total, 257);
}

static void zero_size_takes_no_space(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, zero_size,
					   ARRAY_SIZE(zero_size));
	struct tplan_result res;
	struct tplan_finding f;

	KUNIT_ASSERT_EQ(test, plan(t, ARRAY_SIZE(zero_size),
				   TPLAN_STRATEGY_GREEDY_SIZE, 0, &res), 0);
	KUNIT_EXPECT_EQ(test, res.peak, 16);
	KUNIT_EXPECT_EQ(test, res.lower_bound, 16);
	KUNIT_EXPECT_EQ(test, t[0].offset, 0);
	KUNIT_EXPECT_EQ(test, t[2].offset, 0);
	KUNIT_EXPECT_EQ(test, tplan_validate(t, ARRAY_SIZE(zero_size), 16, &f),
			0);
}

static void capacity_too_small_is_enospc(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, published,
					   ARRAY_SIZE(published));
	struct tplan_result res;

	KUNIT_EXPECT_EQ(test, plan(t, ARRAY_SIZE(published),
				   TPLAN_STRATEGY_GREEDY_SIZE, 123, &res),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, res.peak, 124);
	memcpy(t, published, sizeof(published));
	KUNIT_EXPECT_EQ(test, plan(t, ARRAY_SIZE(published),
				   TPLAN_STRATEGY_GREEDY_SIZE, 124, &res), 0);
	KUNIT_EXPECT_EQ(test, res.peak, 124);
}

static void unknown_strategy_is_einval(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, published,
					   ARRAY_SIZE(published));
	struct tplan_result res;

	KUNIT_EXPECT_EQ(test, plan(t, ARRAY_SIZE(published),
				   TPLAN_STRATEGY_COUNT, 0, &res), -EINVAL);
	KUNIT_EXPECT_EQ(test, plan(t, ARRAY_SIZE(published), ~0u, 0, &res),
			-EINVAL);
}

static void budget_exhausted_is_etimedout(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, published,
					   ARRAY_SIZE(published));
	struct tplan_options o = {
		.strategy = TPLAN_STRATEGY_GREEDY_SIZE, .budget = 2,
	};
	struct tplan_result res;

	KUNIT_EXPECT_EQ(test, tplan_plan(t, ARRAY_SIZE(published), &o, &res),
			-ETIMEDOUT);
	KUNIT_EXPECT_GT(test, res.work, 2);
}

static void empty_table_plans_to_nothing(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, NULL, 1);
	struct tplan_result res;
	struct tplan_finding f;

	KUNIT_EXPECT_EQ(test, plan(t, 0, TPLAN_STRATEGY_GREEDY_SIZE, 0, &res),
			0);
	KUNIT_EXPECT_EQ(test, res.peak, 0);
	KUNIT_EXPECT_EQ(test, res.lower_bound, 0);
	KUNIT_EXPECT_EQ(test, plan(t, 0, TPLAN_STRATEGY_NAIVE, 0, &res), 0);
	KUNIT_EXPECT_EQ(test, res.peak, 0);
	KUNIT_EXPECT_EQ(test, tplan_validate(t, 0, 0, &f), 0);
}

static void expect_defect(struct kunit *test, struct tplan_tensor *t, u32 n,
			  int err, u32 defect, u32 index, u32 other)
{
	struct tplan_finding f;
	struct tplan_result res;

	KUNIT_EXPECT_EQ(test, tplan_check_table(t, n, &f), err);
	KUNIT_EXPECT_EQ(test, f.defect, defect);
	KUNIT_EXPECT_EQ(test, f.index, index);
	KUNIT_EXPECT_EQ(test, f.other, other);
	KUNIT_EXPECT_EQ(test, plan(t, n, TPLAN_STRATEGY_GREEDY_SIZE, 0, &res),
			err);
}

static void check_table_rejects_bad_rows(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, bad_rows,
					   ARRAY_SIZE(bad_rows));
	u32 n = ARRAY_SIZE(bad_rows);

	expect_defect(test, t, n, -EINVAL, TPLAN_DEFECT_LIFETIME, 1, 1);
	t[1].upper = 2;			/* upper < lower */
	expect_defect(test, t, n, -EINVAL, TPLAN_DEFECT_LIFETIME, 1, 1);
	t[1].upper = 4;
	t[2].alignment = 0;
	expect_defect(test, t, n, -EINVAL, TPLAN_DEFECT_ALIGNMENT, 2, 2);
	t[2].alignment = 24;
	expect_defect(test, t, n, -EINVAL, TPLAN_DEFECT_ALIGNMENT, 2, 2);
	t[2].alignment = 8;
	t[0].flags = 0x80;
	expect_defect(test, t, n, -EINVAL, TPLAN_DEFECT_FLAGS, 0, 0);
	t[0].flags = TPLAN_TENSOR_ALIAS;
	t[0].pad = 1;
	expect_defect(test, t, n, -EINVAL, TPLAN_DEFECT_FLAGS, 0, 0);
	t[0].pad = 0;
	KUNIT_EXPECT_EQ(test, tplan_check_table(t, n, NULL), 0);
}

static void check_table_rejects_duplicate_ids(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, duplicate_ids,
					   ARRAY_SIZE(duplicate_ids));

	expect_defect(test, t, ARRAY_SIZE(duplicate_ids), -EINVAL,
		      TPLAN_DEFECT_DUPLICATE_ID, 3, 1);
}

static void check_table_rejects_overflowing_sizes(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, overflowing,
					   ARRAY_SIZE(overflowing));

	expect_defect(test, t, 2, -EOVERFLOW, TPLAN_DEFECT_TOO_LARGE, 1, 1);
	t[1].size = (1ull << 63) - 1;	/* sums to 2^64 - 1: still fine */
	KUNIT_EXPECT_EQ(test, tplan_check_table(t, 2, NULL), 0);
	t[1].alignment = 2;		/* alignment slack tips it over */
	expect_defect(test, t, 2, -EOVERFLOW, TPLAN_DEFECT_TOO_LARGE, 1, 1);
}

static void huge_sizes_plan_without_overflow(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, huge, ARRAY_SIZE(huge));
	struct tplan_result res;
	struct tplan_finding f;

	KUNIT_ASSERT_EQ(test, plan(t, ARRAY_SIZE(huge),
				   TPLAN_STRATEGY_GREEDY_SIZE, 0, &res), 0);
	KUNIT_EXPECT_EQ(test, tplan_validate(t, ARRAY_SIZE(huge), 0, &f), 0);
	KUNIT_EXPECT_GE(test, res.peak, res.lower_bound);
}

static void strategy_names(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, tplan_strategy_name(TPLAN_STRATEGY_NAIVE),
			   "naive");
	KUNIT_EXPECT_STREQ(test,
			   tplan_strategy_name(TPLAN_STRATEGY_GREEDY_SIZE),
			   "greedy-size");
	KUNIT_EXPECT_STREQ(test, tplan_strategy_name(TPLAN_STRATEGY_STRIP),
			   "strip");
	KUNIT_EXPECT_STREQ(test, tplan_strategy_name(TPLAN_STRATEGY_SEARCH),
			   "search");
	KUNIT_EXPECT_STREQ(test, tplan_strategy_name(TPLAN_STRATEGY_AUTO),
			   "auto");
	KUNIT_EXPECT_STREQ(test, tplan_strategy_name(TPLAN_STRATEGY_COUNT),
			   "unknown");
	KUNIT_EXPECT_STREQ(test, tplan_strategy_name(99), "unknown");
}

static void same_input_same_plan(struct kunit *test)
{
	struct tplan_tensor *a = table_dup(test, published,
					   ARRAY_SIZE(published));
	struct tplan_tensor *b = table_dup(test, published,
					   ARRAY_SIZE(published));
	struct tplan_result ra, rb;

	KUNIT_ASSERT_EQ(test, plan(a, ARRAY_SIZE(published),
				   TPLAN_STRATEGY_GREEDY_SIZE, 0, &ra), 0);
	KUNIT_ASSERT_EQ(test, plan(b, ARRAY_SIZE(published),
				   TPLAN_STRATEGY_GREEDY_SIZE, 0, &rb), 0);
	KUNIT_EXPECT_MEMEQ(test, a, b, sizeof(published));
	KUNIT_EXPECT_EQ(test, ra.work, rb.work);
}

static void search_below_lower_bound_is_impossible(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, published,
					   ARRAY_SIZE(published));
	struct tplan_result res;

	KUNIT_EXPECT_EQ(test, plan(t, ARRAY_SIZE(published),
				   TPLAN_STRATEGY_SEARCH, 123, &res), -ENOSPC);
	KUNIT_EXPECT_EQ(test, res.search, TPLAN_SEARCH_IMPOSSIBLE);
	KUNIT_EXPECT_EQ(test, res.peak, 124);
	memcpy(t, published, sizeof(published));
	KUNIT_EXPECT_EQ(test, plan(t, ARRAY_SIZE(published),
				   TPLAN_STRATEGY_SEARCH, 0, &res), 0);
	KUNIT_EXPECT_EQ(test, res.search, TPLAN_SEARCH_FIT);
	KUNIT_EXPECT_EQ(test, res.peak, 124);
}

static void search_names(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, tplan_search_name(TPLAN_SEARCH_NOT_RUN),
			   "not run");
	KUNIT_EXPECT_STREQ(test, tplan_search_name(TPLAN_SEARCH_FIT), "fit");
	KUNIT_EXPECT_STREQ(test, tplan_search_name(TPLAN_SEARCH_IMPOSSIBLE),
			   "impossible");
	KUNIT_EXPECT_STREQ(test, tplan_search_name(TPLAN_SEARCH_GAVE_UP),
			   "gave up");
	KUNIT_EXPECT_STREQ(test, tplan_search_name(42), "unknown");
}

/* Validator cases (tests/test_validate.c). */

static void expect_validate(struct kunit *test, const struct tplan_tensor *t,
			    u32 n, u64 capacity, int err, u32 defect,
			    u32 index, u32 other)
{
	struct tplan_finding f;

	KUNIT_EXPECT_EQ(test, tplan_validate(t, n, capacity, &f), err);
	KUNIT_EXPECT_EQ(test, f.defect, defect);
	KUNIT_EXPECT_EQ(test, f.index, index);
	KUNIT_EXPECT_EQ(test, f.other, other);
}

static void validate_valid_plan_passes(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, valid_plan,
					   ARRAY_SIZE(valid_plan));

	expect_validate(test, t, ARRAY_SIZE(valid_plan), 20, 0,
			TPLAN_DEFECT_NONE, 0, 0);
}

static void validate_touching_lifetimes_may_share(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, touching,
					   ARRAY_SIZE(touching));

	expect_validate(test, t, ARRAY_SIZE(touching), 0, 0, TPLAN_DEFECT_NONE,
			0, 0);
}

static void validate_injected_overlap_names_both(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, overlap_base,
					   ARRAY_SIZE(overlap_base));
	u32 n = ARRAY_SIZE(overlap_base);

	expect_validate(test, t, n, 0, 0, TPLAN_DEFECT_NONE, 0, 0);
	t[3].offset = 27;	/* [27,35) meets tensor 3's [20,40) at step 5 */
	expect_validate(test, t, n, 0, -EINVAL, TPLAN_DEFECT_OVERLAP, 2, 3);
	t[3].offset = 40;
	t[1].offset = 9;	/* one byte into tensor 1 */
	expect_validate(test, t, n, 0, -EINVAL, TPLAN_DEFECT_OVERLAP, 0, 1);
}

static void validate_same_offset_overlaps(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, same_offset,
					   ARRAY_SIZE(same_offset));

	expect_validate(test, t, ARRAY_SIZE(same_offset), 0, -EINVAL,
			TPLAN_DEFECT_OVERLAP, 0, 1);
}

static void validate_overlap_hidden_behind_a_neighbour(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, hidden_overlap,
					   ARRAY_SIZE(hidden_overlap));

	expect_validate(test, t, ARRAY_SIZE(hidden_overlap), 0, -EINVAL,
			TPLAN_DEFECT_OVERLAP, 0, 2);
}

static void validate_misaligned_offset(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, misaligned,
					   ARRAY_SIZE(misaligned));

	expect_validate(test, t, ARRAY_SIZE(misaligned), 0, -EINVAL,
			TPLAN_DEFECT_MISALIGNED, 1, 1);
	t[1].offset = 16;
	expect_validate(test, t, ARRAY_SIZE(misaligned), 0, 0,
			TPLAN_DEFECT_NONE, 0, 0);
}

static void validate_beyond_capacity(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, two_of_eight,
					   ARRAY_SIZE(two_of_eight));

	expect_validate(test, t, ARRAY_SIZE(two_of_eight), 15, -EINVAL,
			TPLAN_DEFECT_CAPACITY, 1, 1);
	expect_validate(test, t, ARRAY_SIZE(two_of_eight), 16, 0,
			TPLAN_DEFECT_NONE, 0, 0);
}

static void validate_end_past_u64_is_capacity_defect(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, end_past_u64,
					   ARRAY_SIZE(end_past_u64));

	expect_validate(test, t, ARRAY_SIZE(end_past_u64), 0, -EINVAL,
			TPLAN_DEFECT_CAPACITY, 0, 0);
}

static void validate_bad_table_is_reported(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, same_id, ARRAY_SIZE(same_id));

	expect_validate(test, t, ARRAY_SIZE(same_id), 0, -EINVAL,
			TPLAN_DEFECT_DUPLICATE_ID, 1, 0);
}

/* FNV-1a over the offsets, one u64 at a time. */
static u64 offsets_checksum(const struct tplan_tensor *t, u32 n)
{
	u64 h = 0xcbf29ce484222325ull;
	u32 i;

	for (i = 0; i < n; i++) {
		h ^= t[i].offset;
		h *= 0x100000001b3ull;
	}
	return h;
}

/*
 * gen_random_table() with the shape searching_strategies_keep_to_the_budget
 * of tests/test_planner.c uses: horizon 200, lifetimes up to 60, sizes up
 * to 64 KiB, no zero sizes, alignment 1.  Greedy-size cannot pack it.
 */
#define BUDGET_TENSORS		300
#define BUDGET_SEED		7
#define BUDGET_WORK		100000ull

static void budget_table(struct tplan_tensor *t, u32 n, u64 seed)
{
	const struct gen_params p = {
		.n = n, .horizon = 200, .max_life = 60, .max_size = 1 << 16,
	};

	gen_fill_random(t, &p, seed);
}

static void searching_strategies_keep_to_the_budget(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, NULL, BUDGET_TENSORS);
	struct tplan_options o = { .budget = BUDGET_WORK };
	struct tplan_result res;
	struct tplan_finding f;

	budget_table(t, BUDGET_TENSORS, BUDGET_SEED);
	for (o.strategy = TPLAN_STRATEGY_STRIP;
	     o.strategy < TPLAN_STRATEGY_COUNT; o.strategy++) {
		const char *name = tplan_strategy_name(o.strategy);

		KUNIT_EXPECT_EQ_MSG(test, tplan_plan(t, BUDGET_TENSORS, &o, &res),
				    0, "%s", name);
		KUNIT_EXPECT_LE_MSG(test, res.work, BUDGET_WORK + 10000, "%s",
				    name);
		KUNIT_EXPECT_EQ_MSG(test, tplan_validate(t, BUDGET_TENSORS, 0, &f),
				    0, "%s", name);
		if (res.peak > res.lower_bound)
			KUNIT_EXPECT_NE_MSG(test, res.search, TPLAN_SEARCH_FIT,
					    "%s", name);
	}
}

/*
 * 12 pieces of a 64 x 256 rectangle, a seed where greedy-size misses the
 * bound (the host build of the same generator and planner says so).
 */
#define PERFECT_TENSORS		12
#define PERFECT_SEED		20261124ull
#define PERFECT_BOUND		(256ull * 64)
#define PERFECT_GREEDY_PEAK	17280ull
#define PERFECT_SEARCH_WORK	242ull
#define PERFECT_SEARCH_CHECKSUM	0x29985d65918e8455ull

static void perfect_table_is_packed_by_search(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, NULL, PERFECT_TENSORS);
	struct tplan_result res;
	struct tplan_finding f;

	KUNIT_ASSERT_TRUE(test, gen_fill_perfect(t, PERFECT_TENSORS, 64, 256,
						 PERFECT_SEED));
	KUNIT_EXPECT_EQ(test, tplan_validate(t, PERFECT_TENSORS, PERFECT_BOUND,
					     &f), 0);	/* the cut itself */
	KUNIT_ASSERT_EQ(test, plan(t, PERFECT_TENSORS,
				   TPLAN_STRATEGY_GREEDY_SIZE, 0, &res), 0);
	KUNIT_EXPECT_EQ(test, res.lower_bound, PERFECT_BOUND);
	KUNIT_EXPECT_EQ(test, res.peak, PERFECT_GREEDY_PEAK);

	KUNIT_ASSERT_EQ(test, plan(t, PERFECT_TENSORS, TPLAN_STRATEGY_SEARCH,
				   0, &res), 0);
	KUNIT_EXPECT_EQ(test, res.search, TPLAN_SEARCH_FIT);
	KUNIT_EXPECT_EQ(test, res.lower_bound, PERFECT_BOUND);
	KUNIT_EXPECT_EQ(test, res.peak, PERFECT_BOUND);
	KUNIT_EXPECT_EQ(test, res.work, PERFECT_SEARCH_WORK);
	KUNIT_EXPECT_EQ(test, offsets_checksum(t, PERFECT_TENSORS),
			PERFECT_SEARCH_CHECKSUM);
	KUNIT_EXPECT_EQ(test, tplan_validate(t, PERFECT_TENSORS, PERFECT_BOUND,
					     &f), 0);
}

/*
 * A pseudo-random table from splitmix64 with a fixed seed.  The expected
 * values below come from the userspace build of the same generator and
 * planner (a host program linked with the planner's sources), so a match
 * proves that the kernel and libtplan make the same plan.  Greedy-size
 * runs unlimited, the searching strategies on RANDOM_BUDGET work units.
 */
#define RANDOM_TENSORS		2000
#define RANDOM_SEED		0x74706c616e4b5554ull
#define RANDOM_LOWER_BOUND	996324ull
#define RANDOM_NAIVE_TOTAL	15717229ull
#define RANDOM_BUDGET		2000000ull

static const struct random_expect {
	u32 strategy;
	u64 budget;
	u64 peak;
	u64 work;
	u32 search;
	u64 checksum;
} random_expected[] = {
	{ TPLAN_STRATEGY_GREEDY_SIZE, 0, 1100937, 641239,
	  TPLAN_SEARCH_NOT_RUN, 0xd261a8584609db82ull },
	{ TPLAN_STRATEGY_STRIP, RANDOM_BUDGET, 1100937, 2000099,
	  TPLAN_SEARCH_NOT_RUN, 0xd261a8584609db82ull },
	{ TPLAN_STRATEGY_SEARCH, RANDOM_BUDGET, 1100937, 2000040,
	  TPLAN_SEARCH_GAVE_UP, 0xd261a8584609db82ull },
	{ TPLAN_STRATEGY_AUTO, RANDOM_BUDGET, 1100937, 1929636,
	  TPLAN_SEARCH_GAVE_UP, 0xd261a8584609db82ull },
};

static void random_table(struct tplan_tensor *t, u32 n)
{
	struct gen_rng rng = { RANDOM_SEED };
	u32 i;

	memset(t, 0, array_size(n, sizeof(*t)));
	for (i = 0; i < n; i++) {
		u64 r = gen_next(&rng);

		t[i].id = 100000 + (u64)i * 3;
		t[i].lower = r % 512;
		t[i].upper = t[i].lower + 1 + (r >> 16) % 48;
		t[i].size = ((r >> 24) & 15) ? (r >> 32) % 16384 : 0;
		t[i].alignment = 1ull << ((r >> 56) % 8);
	}
}

static void expect_random_plan(struct kunit *test, struct tplan_tensor *a,
			       struct tplan_tensor *b,
			       const struct random_expect *e)
{
	struct tplan_options o = { .strategy = e->strategy,
				   .budget = e->budget };
	const char *name = tplan_strategy_name(e->strategy);
	struct tplan_result ra, rb;
	struct tplan_finding f;

	random_table(a, RANDOM_TENSORS);
	random_table(b, RANDOM_TENSORS);
	KUNIT_ASSERT_EQ_MSG(test, tplan_plan(a, RANDOM_TENSORS, &o, &ra), 0,
			    "%s", name);
	KUNIT_ASSERT_EQ_MSG(test, tplan_plan(b, RANDOM_TENSORS, &o, &rb), 0,
			    "%s", name);
	KUNIT_EXPECT_MEMEQ_MSG(test, a, b,
			       array_size(RANDOM_TENSORS, sizeof(*a)),
			       "%s", name);
	KUNIT_EXPECT_EQ_MSG(test, ra.work, rb.work, "%s", name);
	KUNIT_EXPECT_EQ_MSG(test, ra.peak, rb.peak, "%s", name);

	KUNIT_EXPECT_EQ_MSG(test, offsets_checksum(a, RANDOM_TENSORS),
			    e->checksum, "%s", name);
	KUNIT_EXPECT_EQ_MSG(test, ra.peak, e->peak, "%s", name);
	KUNIT_EXPECT_EQ_MSG(test, ra.work, e->work, "%s", name);
	KUNIT_EXPECT_EQ_MSG(test, ra.search, e->search, "%s", name);
	KUNIT_EXPECT_EQ_MSG(test, ra.strategy, e->strategy, "%s", name);
	KUNIT_EXPECT_EQ_MSG(test, ra.lower_bound, RANDOM_LOWER_BOUND, "%s",
			    name);
	KUNIT_EXPECT_EQ_MSG(test, ra.naive_total, RANDOM_NAIVE_TOTAL, "%s",
			    name);
	KUNIT_EXPECT_EQ_MSG(test, tplan_validate(a, RANDOM_TENSORS, ra.peak,
						 &f), 0, "%s", name);
}

static void random_table_same_plan_as_userspace(struct kunit *test)
{
	struct tplan_tensor *a = table_dup(test, NULL, RANDOM_TENSORS);
	struct tplan_tensor *b = table_dup(test, NULL, RANDOM_TENSORS);
	u32 i;

	for (i = 0; i < ARRAY_SIZE(random_expected); i++)
		expect_random_plan(test, a, b, &random_expected[i]);
}

/* id, lifetime, size, priority, allowed tiers, model, share_key */
#define TM(id_, lo, up, sz, prio, tiers_, model_, key) \
	{ .id = (id_), .lower = (lo), .upper = (up), .size = (sz), \
	  .alignment = 1, .priority = (prio), .tiers = (tiers_), \
	  .model = (model_), .share_key = (key) }

static const struct tplan_tensor three_priorities[] = {
	TM(1, 0, 4, 60, 1, 0, 0, 0), TM(2, 0, 4, 60, 5, 0, 0, 0),
	TM(3, 0, 4, 40, 3, 0, 0, 0), TM(4, 0, 4, 10, 9, BIT(1), 0, 0),
};

/* Tier 0 (100 bytes) holds the keenest tensors that may use it. */
static void tiers_fill_fast_tier_by_priority(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, three_priorities, 4);
	struct tplan_options o = {
		.strategy = TPLAN_STRATEGY_AUTO,
		.tier_count = 2,
		.tier_capacity = { 100, 0 },
	};
	struct tplan_finding f;
	struct tplan_result res;

	KUNIT_ASSERT_EQ(test, tplan_plan(t, 4, &o, &res), 0);
	KUNIT_EXPECT_EQ(test, t[0].tier, 1);
	KUNIT_EXPECT_EQ(test, t[1].tier, 0);
	KUNIT_EXPECT_EQ(test, t[2].tier, 0);
	KUNIT_EXPECT_EQ(test, t[3].tier, 1);
	KUNIT_EXPECT_EQ(test, res.tier_peak[0], 100);
	KUNIT_EXPECT_EQ(test, res.tier_peak[1], 70);
	KUNIT_EXPECT_EQ(test, res.tier_weight[0], 60 * 5 + 40 * 3);
	KUNIT_EXPECT_EQ(test, tplan_validate_plan(t, 4, &o, &f), 0);
	o.tier_capacity[0] = 0;		/* only the last tier may be unlimited */
	KUNIT_EXPECT_EQ(test, tplan_plan(t, 4, &o, &res), -EINVAL);
}

static const struct tplan_tensor two_models_shared[] = {
	TM(1, 0, 4, 500, 1, 0, 0, 9), TM(2, 0, 2, 100, 1, 0, 0, 0),
	TM(1, 0, 6, 500, 1, 0, 1, 9), TM(2, 1, 6, 200, 1, 0, 1, 0),
};

/* Serial models need the largest scratch; the weights are stored once. */
static void models_serial_share_once(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, two_models_shared, 4);
	struct tplan_options o = { .strategy = TPLAN_STRATEGY_AUTO,
				   .flags = TPLAN_PLAN_SERIAL };
	struct tplan_finding f;
	struct tplan_result res;

	KUNIT_ASSERT_EQ(test, tplan_plan(t, 4, &o, &res), 0);
	KUNIT_EXPECT_EQ(test, res.peak, 700);
	KUNIT_EXPECT_EQ(test, t[0].offset, t[2].offset);
	KUNIT_EXPECT_EQ(test, tplan_validate_plan(t, 4, &o, &f), 0);
	o.flags = 0;			/* concurrent: each its own scratch */
	memcpy(t, two_models_shared, sizeof(two_models_shared));
	KUNIT_ASSERT_EQ(test, tplan_plan(t, 4, &o, &res), 0);
	KUNIT_EXPECT_EQ(test, res.peak, 800);
	KUNIT_EXPECT_EQ(test, tplan_validate_plan(t, 4, &o, &f), 0);
	t[3].size = 300;		/* a key's tensors must agree */
	t[2].size = 400;
	KUNIT_EXPECT_EQ(test, tplan_check_input(t, 4, &o, &f), -EINVAL);
	KUNIT_EXPECT_EQ(test, f.defect, TPLAN_DEFECT_SHARE_SIZE);
}

static struct kunit_case tplan_planner_cases[] = {
	KUNIT_CASE(published_example_greedy),
	KUNIT_CASE(published_example_naive),
	KUNIT_CASE(lower_bound_exclusive_upper),
	KUNIT_CASE(gap_at_offset_zero_is_used),
	KUNIT_CASE(alignment_is_honoured),
	KUNIT_CASE(zero_size_takes_no_space),
	KUNIT_CASE(capacity_too_small_is_enospc),
	KUNIT_CASE(unknown_strategy_is_einval),
	KUNIT_CASE(budget_exhausted_is_etimedout),
	KUNIT_CASE(empty_table_plans_to_nothing),
	KUNIT_CASE(check_table_rejects_bad_rows),
	KUNIT_CASE(check_table_rejects_duplicate_ids),
	KUNIT_CASE(check_table_rejects_overflowing_sizes),
	KUNIT_CASE(huge_sizes_plan_without_overflow),
	KUNIT_CASE(strategy_names),
	KUNIT_CASE(same_input_same_plan),
	KUNIT_CASE(search_below_lower_bound_is_impossible),
	KUNIT_CASE(searching_strategies_keep_to_the_budget),
	KUNIT_CASE(search_names),
	KUNIT_CASE(perfect_table_is_packed_by_search),
	KUNIT_CASE(validate_valid_plan_passes),
	KUNIT_CASE(validate_touching_lifetimes_may_share),
	KUNIT_CASE(validate_injected_overlap_names_both),
	KUNIT_CASE(validate_same_offset_overlaps),
	KUNIT_CASE(validate_overlap_hidden_behind_a_neighbour),
	KUNIT_CASE(validate_misaligned_offset),
	KUNIT_CASE(validate_beyond_capacity),
	KUNIT_CASE(validate_end_past_u64_is_capacity_defect),
	KUNIT_CASE(validate_bad_table_is_reported),
	KUNIT_CASE(random_table_same_plan_as_userspace),
	KUNIT_CASE(tiers_fill_fast_tier_by_priority),
	KUNIT_CASE(models_serial_share_once),
	{}
};

static struct kunit_suite tplan_planner_suite = {
	.name = "tplan_planner",
	.test_cases = tplan_planner_cases,
};

kunit_test_suite(tplan_planner_suite);

MODULE_DESCRIPTION("KUnit tests of the tplan offset planner");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
