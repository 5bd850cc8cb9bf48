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

/* tplan_validate_plan() with @flags; @index, @other name the finding. */
static void expect_plan(const struct tplan_tensor *t, u32 n, u32 flags,
			int err, u32 defect, u32 index, u32 other)
{
	struct tplan_options o = { .flags = flags };
	struct tplan_finding f;

	CHECK_EQ(tplan_validate_plan(t, n, &o, &f), err);
	CHECK_EQ(f.defect, defect);
	CHECK_EQ(f.index, index);
	CHECK_EQ(f.other, other);
}

/* Models at different times: apart when concurrent, free when serial. */
static void concurrent_models_never_share_a_byte(void)
{
	struct tplan_tensor t[] = { P(1, 0, 2, 8, 0), P(1, 5, 7, 8, 4) };

	t[1].model = 1;
	expect_plan(t, 2, TPLAN_PLAN_SERIAL, 0, TPLAN_DEFECT_NONE, 0, 0);
	expect_plan(t, 2, 0, -EINVAL, TPLAN_DEFECT_OVERLAP, 0, 1);
	t[1].offset = 8;
	expect_plan(t, 2, 0, 0, TPLAN_DEFECT_NONE, 0, 0);
}

/* A share_key tensor is alive throughout, whatever its lower and upper. */
static void shared_tensor_collides_at_any_step(void)
{
	struct tplan_tensor t[] = {
		P(1, 0, 1, 8, 0), P(2, 3, 4, 8, 4), P(3, 6, 7, 8, 0),
	};

	t[0].share_key = 7;
	t[2].share_key = 7;
	t[2].model = 1;
	expect_plan(t, 3, TPLAN_PLAN_SERIAL, -EINVAL, TPLAN_DEFECT_OVERLAP,
		    0, 1);
	t[1].offset = 8;
	expect_plan(t, 3, TPLAN_PLAN_SERIAL, 0, TPLAN_DEFECT_NONE, 0, 0);
	t[2].offset = 16;
	expect_plan(t, 3, TPLAN_PLAN_SERIAL, -EINVAL,
		    TPLAN_DEFECT_SHARE_MISPLACED, 2, 0);
}

/*
 * An alias group holds its owner's bytes from its first step to its last:
 * tensor 3 may not use them between the owner's death and its alias's
 * birth.
 */
static void alias_group_holds_bytes_in_between(void)
{
	struct tplan_tensor t[] = {
		P(1, 0, 1, 16, 0), P(2, 3, 4, 8, 8), P(3, 1, 3, 8, 0),
	};

	t[1].flags = TPLAN_TENSOR_ALIAS;
	t[1].alias_of = 1;
	t[1].alias_offset = 8;
	expect_plan(t, 3, 0, 0, TPLAN_DEFECT_NONE, 0, 0);
	expect_plan(t, 3, TPLAN_PLAN_ALIASES, -EINVAL, TPLAN_DEFECT_OVERLAP,
		    0, 2);
	t[1].offset = 0;
	expect_plan(t, 3, TPLAN_PLAN_ALIASES, -EINVAL,
		    TPLAN_DEFECT_ALIAS_MISPLACED, 1, 0);
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
	TEST_CASE(concurrent_models_never_share_a_byte),
	TEST_CASE(shared_tensor_collides_at_any_step),
	TEST_CASE(alias_group_holds_bytes_in_between),
};

TEST_SUITE(validate_suite, "validate", cases);
