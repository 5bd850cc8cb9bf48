// SPDX-License-Identifier: MIT
/*
 * test_validate_plan.c - the plan checker's rules for options: concurrent
 * models, share_key tensors and alias groups, each broken on purpose.
 */
#include <errno.h>

#include "harness.h"
#include "planner.h"

#define P(id_, lo, up, sz, off) { .id = (id_), .lower = (lo), .upper = (up), \
	.size = (sz), .alignment = 1, .offset = (off) }

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

/*
 * Serial models at steps near 2^64: each model is checked on its own
 * timeline (they once were laid end to end, which overflowed: EOVERFLOW
 * for a valid plan).
 */
static void huge_steps_of_serial_models(void)
{
	const u64 far = 1ULL << 63, end = ~0ULL - 1;
	struct tplan_tensor t[] = {
		P(1, 0, 2, 8, 0), P(2, far, end, 8, 0), P(3, far, end - 1, 8, 0),
		P(4, far + 5, end, 8, 4),
	};

	t[1].model = 1;
	t[2].model = 2;
	t[3].model = 2;
	expect_plan(t, 4, TPLAN_PLAN_SERIAL, -EINVAL, TPLAN_DEFECT_OVERLAP,
		    2, 3);
	t[3].offset = 8;
	expect_plan(t, 4, TPLAN_PLAN_SERIAL, 0, TPLAN_DEFECT_NONE, 0, 0);
}

static const struct test_case cases[] = {
	TEST_CASE(concurrent_models_never_share_a_byte),
	TEST_CASE(shared_tensor_collides_at_any_step),
	TEST_CASE(alias_group_holds_bytes_in_between),
	TEST_CASE(huge_steps_of_serial_models),
};

TEST_SUITE(validate_plan_suite, "validate_plan", cases);
