// SPDX-License-Identifier: MIT
/*
 * test_validate.c - the validator catches every kind of broken plan.
 */
#include <errno.h>

#include "harness.h"
#include "planner.h"

#define P(id_, lo, up, sz, off) { .id = (id_), .lower = (lo), .upper = (up), \
	.size = (sz), .alignment = 1, .offset = (off) }

static void expect(const struct tplan_tensor *t, u32 n, u64 capacity, int err,
		   u32 defect, u32 index, u32 other)
{
	struct tplan_finding f;

	CHECK_EQ(tplan_validate(t, n, capacity, &f), err);
	CHECK_EQ(f.defect, defect);
	CHECK_EQ(f.index, index);
	CHECK_EQ(f.other, other);
}

static void valid_plan_passes(void)
{
	const struct tplan_tensor t[] = {
		P(1, 0, 4, 10, 0), P(2, 0, 4, 10, 10), P(3, 4, 6, 20, 0),
		P(4, 2, 3, 0, 5),	/* zero size, inside another: fine */
	};

	expect(t, 4, 20, 0, TPLAN_DEFECT_NONE, 0, 0);
}

static void touching_lifetimes_may_share(void)
{
	const struct tplan_tensor t[] = { P(1, 0, 2, 8, 0), P(2, 2, 4, 8, 0) };

	expect(t, 2, 0, 0, TPLAN_DEFECT_NONE, 0, 0);
}

static void injected_overlap_names_both(void)
{
	struct tplan_tensor t[] = {
		P(1, 0, 4, 10, 0), P(2, 0, 4, 10, 10), P(3, 3, 6, 20, 20),
		P(4, 5, 8, 8, 0),
	};

	expect(t, 4, 0, 0, TPLAN_DEFECT_NONE, 0, 0);
	t[3].offset = 27;	/* [27,35) meets tensor 3's [20,40) at step 5 */
	expect(t, 4, 0, -EINVAL, TPLAN_DEFECT_OVERLAP, 2, 3);
	t[3].offset = 40;
	t[1].offset = 9;	/* one byte into tensor 1 */
	expect(t, 4, 0, -EINVAL, TPLAN_DEFECT_OVERLAP, 0, 1);
}

static void same_offset_overlaps(void)
{
	const struct tplan_tensor t[] = { P(1, 0, 2, 1, 7), P(2, 1, 3, 1, 7) };

	expect(t, 2, 0, -EINVAL, TPLAN_DEFECT_OVERLAP, 0, 1);
}

static void overlap_hidden_behind_a_neighbour(void)
{
	/*
	 * A long tensor low down, a short one above it, and a newcomer that
	 * only collides with the low one: the sweep must still find it.
	 */
	const struct tplan_tensor t[] = {
		P(1, 0, 10, 100, 0), P(2, 0, 10, 10, 100), P(3, 5, 6, 10, 50),
	};

	expect(t, 3, 0, -EINVAL, TPLAN_DEFECT_OVERLAP, 0, 2);
}

static void misaligned_offset(void)
{
	struct tplan_tensor t[] = { P(1, 0, 2, 8, 0), P(2, 0, 2, 8, 12) };

	t[1].alignment = 8;
	expect(t, 2, 0, -EINVAL, TPLAN_DEFECT_MISALIGNED, 1, 1);
	t[1].offset = 16;
	expect(t, 2, 0, 0, TPLAN_DEFECT_NONE, 0, 0);
}

static void beyond_capacity(void)
{
	const struct tplan_tensor t[] = { P(1, 0, 2, 8, 0), P(2, 0, 2, 8, 8) };

	expect(t, 2, 15, -EINVAL, TPLAN_DEFECT_CAPACITY, 1, 1);
	expect(t, 2, 16, 0, TPLAN_DEFECT_NONE, 0, 0);
}

static void end_past_u64_is_capacity_defect(void)
{
	const struct tplan_tensor t[] = { P(1, 0, 2, 8, ~0ull - 3) };

	expect(t, 1, 0, -EINVAL, TPLAN_DEFECT_CAPACITY, 0, 0);
}

static void bad_table_is_reported(void)
{
	const struct tplan_tensor t[] = { P(1, 0, 2, 8, 0), P(1, 0, 2, 8, 8) };

	expect(t, 2, 0, -EINVAL, TPLAN_DEFECT_DUPLICATE_ID, 1, 0);
}

static const struct test_case cases[] = {
	TEST_CASE(valid_plan_passes),
	TEST_CASE(touching_lifetimes_may_share),
	TEST_CASE(injected_overlap_names_both),
	TEST_CASE(same_offset_overlaps),
	TEST_CASE(overlap_hidden_behind_a_neighbour),
	TEST_CASE(misaligned_offset),
	TEST_CASE(beyond_capacity),
	TEST_CASE(end_past_u64_is_capacity_defect),
	TEST_CASE(bad_table_is_reported),
};

TEST_SUITE(validate_suite, "validate", cases);
