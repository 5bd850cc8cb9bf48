// SPDX-License-Identifier: MIT
/*
 * test_tiers_models.c - tiered placement, several models and share_key
 * groups: hand-made cases, the checks that reject bad input, and
 * properties on random tables (seed printed).
 */
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "harness.h"
#include "planner.h"

#define ROUNDS 200

/* id, lifetime, size, priority, allowed tiers, model, share_key */
#define TM(id_, lo, up, sz, prio, tiers_, model_, key) \
	{ .id = (id_), .lower = (lo), .upper = (up), .size = (sz), \
	  .alignment = 1, .priority = (prio), .tiers = (tiers_), \
	  .model = (model_), .share_key = (key) }

static struct tplan_options two_tiers(u64 fast, u64 slow)
{
	struct tplan_options o = {
		.strategy = TPLAN_STRATEGY_AUTO,
		.tier_count = 2,
		.tier_capacity = { fast, slow },
	};

	return o;
}

static void check_valid(const struct tplan_tensor *t, u32 n,
			const struct tplan_options *o)
{
	struct tplan_finding f;

	CHECK_EQ(tplan_validate_plan(t, n, o, &f), 0);
	CHECK_EQ(f.defect, TPLAN_DEFECT_NONE);
}

/* All alive together; tier 0 holds 100 bytes: the keenest go there. */
static void tiers_highest_priority_first(void)
{
	struct tplan_tensor t[] = {
		TM(1, 0, 4, 60, 1, 0, 0, 0),
		TM(2, 0, 4, 60, 5, 0, 0, 0),
		TM(3, 0, 4, 40, 3, 0, 0, 0),
	};
	struct tplan_options o = two_tiers(100, 0);
	struct tplan_result res;

	CHECK_EQ(tplan_plan(t, 3, &o, &res), 0);
	CHECK_EQ(t[0].tier, 1);
	CHECK_EQ(t[1].tier, 0);
	CHECK_EQ(t[2].tier, 0);
	CHECK_EQ(res.tier_peak[0], 100);
	CHECK_EQ(res.tier_peak[1], 60);
	CHECK_EQ(res.peak, 160);
	CHECK_EQ(res.tier_weight[0], 60 * 5 + 40 * 3);
	CHECK_EQ(res.tier_weight[1], 60);
	check_valid(t, 3, &o);
}

/* Tensors alive at different steps share the fast tier's bytes. */
static void tiers_reuse_within_a_tier(void)
{
	struct tplan_tensor t[] = {
		TM(1, 0, 2, 100, 1, 0, 0, 0),
		TM(2, 2, 4, 100, 1, 0, 0, 0),
		TM(3, 4, 6, 100, 1, 0, 0, 0),
	};
	struct tplan_options o = two_tiers(100, 0);
	struct tplan_result res;

	CHECK_EQ(tplan_plan(t, 3, &o, &res), 0);
	CHECK_EQ(res.tier_peak[0], 100);
	CHECK_EQ(res.tier_peak[1], 0);
	check_valid(t, 3, &o);
}

/* Allowed tiers win over priority; a tensor that fits nowhere: -ENOSPC. */
static void tiers_allowed(void)
{
	struct tplan_tensor t[] = {
		TM(1, 0, 4, 50, 9, BIT(1), 0, 0),	/* slow only */
		TM(2, 0, 4, 80, 1, BIT(0), 0, 0),	/* fast only */
		TM(3, 0, 4, 50, 5, 0, 0, 0),
	};
	struct tplan_options o = two_tiers(100, 0);
	struct tplan_result res;

	CHECK_EQ(tplan_plan(t, 3, &o, &res), 0);
	CHECK_EQ(t[0].tier, 1);
	CHECK_EQ(t[1].tier, 0);	/* before 3, though 3 is keener */
	CHECK_EQ(t[2].tier, 1);
	check_valid(t, 3, &o);
	t[2].tiers = BIT(0);	/* now 3 must share tier 0 with 2: too big */
	CHECK_EQ(tplan_plan(t, 3, &o, &res), -ENOSPC);
}

static void tiers_bad_options(void)
{
	struct tplan_tensor t[] = { TM(1, 0, 4, 50, 1, 0, 0, 0) };
	struct tplan_options o = two_tiers(100, 0);
	struct tplan_result res;
	struct tplan_finding f;

	o.tier_count = TPLAN_MAX_TIERS + 1;
	CHECK_EQ(tplan_plan(t, 1, &o, &res), -EINVAL);
	o = two_tiers(0, 100);		/* only the last may be unlimited */
	CHECK_EQ(tplan_plan(t, 1, &o, &res), -EINVAL);
	o = two_tiers(100, 0);
	o.capacity = 10;		/* tiers give the capacities */
	CHECK_EQ(tplan_plan(t, 1, &o, &res), -EINVAL);
	o = two_tiers(100, 0);
	o.tier_capacity[2] = 5;		/* beyond tier_count */
	CHECK_EQ(tplan_plan(t, 1, &o, &res), -EINVAL);
	o = two_tiers(100, 0);
	t[0].tiers = BIT(2);		/* a tier the plan does not have */
	CHECK_EQ(tplan_plan(t, 1, &o, &res), -EINVAL);
	CHECK_EQ(tplan_check_input(t, 1, &o, &f), -EINVAL);
	CHECK_EQ(f.defect, TPLAN_DEFECT_TIER_UNKNOWN);
	t[0].tiers = BIT(TPLAN_MAX_TIERS);	/* beyond any plan */
	CHECK_EQ(tplan_check_table(t, 1, &f), -EINVAL);
	CHECK_EQ(f.defect, TPLAN_DEFECT_TIER_UNKNOWN);
}

/* An alias group lives in the tiers all its members allow. */
static void tiers_alias_groups(void)
{
	struct tplan_tensor t[] = {
		TM(1, 0, 3, 100, 1, BIT(1), 0, 0),
		TM(2, 2, 5, 100, 1, 0, 0, 0),
	};
	struct tplan_options o = two_tiers(1000, 0);
	struct tplan_result res;
	struct tplan_finding f;

	o.flags = TPLAN_PLAN_ALIASES;
	t[1].flags = TPLAN_TENSOR_ALIAS;
	t[1].alias_of = 1;
	CHECK_EQ(tplan_plan(t, 2, &o, &res), 0);
	CHECK_EQ(t[0].tier, 1);
	CHECK_EQ(t[1].tier, 1);
	CHECK_EQ(t[1].offset, t[0].offset);
	check_valid(t, 2, &o);
	t[1].tiers = BIT(0);
	CHECK_EQ(tplan_check_input(t, 2, &o, &f), -EINVAL);
	CHECK_EQ(f.defect, TPLAN_DEFECT_TIER_CONFLICT);
}

/* Two models of 100 and 150 bytes: serial needs 150, concurrent 250. */
static const struct tplan_tensor two_models[] = {
	TM(1, 0, 2, 60, 1, 0, 0, 0), TM(2, 1, 3, 40, 1, 0, 0, 0),
	TM(1, 0, 2, 150, 1, 0, 1, 0), TM(2, 2, 4, 150, 1, 0, 1, 0),
};

static void models_serial_needs_the_largest(void)
{
	struct tplan_options o = { .strategy = TPLAN_STRATEGY_AUTO,
				   .flags = TPLAN_PLAN_SERIAL };
	struct tplan_tensor t[4];
	struct tplan_result res;
	struct tplan_finding f;

	memcpy(t, two_models, sizeof(t));
	CHECK_EQ(tplan_plan(t, 4, &o, &res), 0);
	CHECK_EQ(res.peak, 150);
	CHECK_EQ(res.lower_bound, 150);
	check_valid(t, 4, &o);
	/* the same plan is not one of concurrent models */
	o.flags = 0;
	CHECK_EQ(tplan_validate_plan(t, 4, &o, &f), -EINVAL);
	CHECK_EQ(f.defect, TPLAN_DEFECT_OVERLAP);
}

static void models_concurrent_never_share(void)
{
	struct tplan_options o = { .strategy = TPLAN_STRATEGY_AUTO };
	struct tplan_tensor t[4];
	struct tplan_result res;

	memcpy(t, two_models, sizeof(t));
	CHECK_EQ(tplan_plan(t, 4, &o, &res), 0);
	CHECK_EQ(res.peak, 250);
	CHECK_EQ(res.lower_bound, 250);
	check_valid(t, 4, &o);
}

/* Weights with one key are stored once, whichever the mode. */
static void models_share_key_stored_once(void)
{
	struct tplan_tensor base[] = {
		TM(1, 0, 4, 500, 1, 0, 0, 9), TM(2, 0, 2, 100, 1, 0, 0, 0),
		TM(1, 0, 6, 500, 1, 0, 1, 9), TM(2, 1, 6, 200, 1, 0, 1, 0),
	};
	struct tplan_options o = { .strategy = TPLAN_STRATEGY_AUTO,
				   .flags = TPLAN_PLAN_SERIAL };
	struct tplan_tensor t[4];
	struct tplan_result res;
	struct tplan_finding f;

	memcpy(t, base, sizeof(t));
	CHECK_EQ(tplan_plan(t, 4, &o, &res), 0);
	CHECK_EQ(res.peak, 700);		/* 500 once + max(100, 200) */
	CHECK_EQ(t[0].offset, t[2].offset);
	check_valid(t, 4, &o);
	t[2].offset += 1;
	CHECK_EQ(tplan_validate_plan(t, 4, &o, &f), -EINVAL);
	CHECK_EQ(f.defect, TPLAN_DEFECT_SHARE_MISPLACED);

	memcpy(t, base, sizeof(t));
	o.flags = 0;
	CHECK_EQ(tplan_plan(t, 4, &o, &res), 0);
	CHECK_EQ(res.peak, 800);		/* 500 once + 100 + 200 */
	check_valid(t, 4, &o);
}

static void models_bad_input(void)
{
	struct tplan_tensor t[] = {
		TM(1, 0, 4, 500, 1, 0, 0, 9), TM(1, 0, 4, 400, 1, 0, 1, 9),
	};
	struct tplan_options o = { .strategy = TPLAN_STRATEGY_AUTO };
	struct tplan_result res;
	struct tplan_finding f;

	/* ids are per model: the same id in two models is fine */
	CHECK_EQ(tplan_check_table(t, 2, &f), 0);
	CHECK_EQ(tplan_plan(t, 2, &o, &res), -EINVAL);
	CHECK_EQ(tplan_check_input(t, 2, &o, &f), -EINVAL);
	CHECK_EQ(f.defect, TPLAN_DEFECT_SHARE_SIZE);
	t[1].model = 0;
	t[1].size = 500;
	CHECK_EQ(tplan_check_table(t, 2, &f), -EINVAL);
	CHECK_EQ(f.defect, TPLAN_DEFECT_DUPLICATE_ID);
	/* a shared tensor may not alias, nor be aliased */
	t[1].id = 2;
	t[1].share_key = 0;
	t[1].flags = TPLAN_TENSOR_ALIAS;
	t[1].alias_of = 1;
	o.flags = TPLAN_PLAN_ALIASES;
	CHECK_EQ(tplan_check_input(t, 2, &o, &f), -EINVAL);
	CHECK_EQ(f.defect, TPLAN_DEFECT_SHARE_ALIAS);
	/* alias_of looks in the tensor's own model */
	t[1].model = 1;
	CHECK_EQ(tplan_check_input(t, 2, &o, &f), -EINVAL);
	CHECK_EQ(f.defect, TPLAN_DEFECT_ALIAS_UNKNOWN);
}

/* The validator's per-tier checks. */
static void validate_plan_tiers(void)
{
	struct tplan_tensor t[] = {
		TM(1, 0, 4, 60, 1, BIT(0), 0, 0), TM(2, 0, 4, 60, 1, 0, 0, 0),
	};
	struct tplan_options o = two_tiers(100, 0);
	struct tplan_finding f;

	t[1].tier = 1;
	check_valid(t, 2, &o);
	t[1].tier = 0;			/* both in tier 0, same bytes */
	CHECK_EQ(tplan_validate_plan(t, 2, &o, &f), -EINVAL);
	CHECK_EQ(f.defect, TPLAN_DEFECT_OVERLAP);
	t[1].offset = 60;		/* apart, but past tier 0's 100 bytes */
	CHECK_EQ(tplan_validate_plan(t, 2, &o, &f), -EINVAL);
	CHECK_EQ(f.defect, TPLAN_DEFECT_CAPACITY);
	t[1].offset = 0;
	t[0].tier = 1;			/* tensor 1 may not use tier 1 */
	t[1].tier = 0;
	CHECK_EQ(tplan_validate_plan(t, 2, &o, &f), -EINVAL);
	CHECK_EQ(f.defect, TPLAN_DEFECT_TIER_WRONG);
	CHECK_EQ(f.index, 0);
}

/* Random models, priorities, allowed tiers and keys on a random table. */
static void decorate(struct tplan_tensor *t, u32 n, u64 seed)
{
	struct gen_rng rng = { seed ^ 0x7135 };
	u32 i;

	for (i = 0; i < n; i++) {
		t[i].model = (u32)gen_between(&rng, 0, 2);
		t[i].priority = (u32)gen_between(&rng, 0, 9);
		t[i].tiers = gen_between(&rng, 0, 3) ? 0 :
			     (u32)gen_between(&rng, 1, 3);
		/* a few weights, keyed by size so that a key has one size */
		if (!gen_between(&rng, 0, 7) && t[i].size)
			t[i].share_key = t[i].size;
	}
}

/* Some tensor may live in tier 0 only: the one way tier 1 cannot save it. */
static bool has_fast_only(const struct tplan_tensor *t, u32 n)
{
	for (u32 i = 0; i < n; i++)
		if (t[i].tiers == BIT(0) && t[i].size)
			return true;
	return false;
}

/*
 * Property: on random multi-model tables with tiers, every plan validates
 * and keeps tier 0 within its room; only tensors bound to tier 0 can make
 * it fail, and only keys with clashing tiers make the input bad.
 */
static void property_tiers_models_valid(void)
{
	u64 seed0 = test_first_seed(ROUNDS);

	for (u64 seed = seed0; seed < seed0 + ROUNDS; seed++) {
		struct gen_rng rng = { seed };
		struct gen_params p = {
			.n = (u32)gen_between(&rng, 1, 80),
			.horizon = gen_between(&rng, 1, 40),
			.max_life = gen_between(&rng, 1, 20),
			.max_size = gen_between(&rng, 1, 1u << 16),
			.max_align_log2 = (u32)gen_between(&rng, 0, 4),
			.zero_pct = 5,
		};
		struct tplan_tensor *t = gen_random_table(&p, seed);
		struct tplan_options o = two_tiers(gen_between(&rng, 1, 1u << 17), 0);
		struct tplan_result res;
		struct tplan_finding f;
		int ret;

		CHECK(t != NULL);
		if (!t)
			return;
		decorate(t, p.n, seed);
		o.flags = gen_between(&rng, 0, 1) ? TPLAN_PLAN_SERIAL : 0;
		ret = tplan_plan(t, p.n, &o, &res);
		if (ret == -EINVAL) {
			CHECK_EQ(tplan_check_input(t, p.n, &o, &f), -EINVAL);
			CHECK_EQ(f.defect, TPLAN_DEFECT_TIER_CONFLICT);
		} else if (ret == -ENOSPC) {
			CHECK(has_fast_only(t, p.n));
			if (!has_fast_only(t, p.n))
				printf("    seed %llu: -ENOSPC\n", seed);
		} else {
			CHECK_EQ(ret, 0);
			CHECK(res.tier_peak[0] <= o.tier_capacity[0]);
			ret = tplan_validate_plan(t, p.n, &o, &f);
			CHECK_EQ(ret, 0);
			if (ret)
				printf("    seed %llu: %s (%u, %u)\n", seed,
				       tplan_defect_name(f.defect), f.index,
				       f.other);
		}
		free(t);
	}
}

static const struct test_case cases[] = {
	TEST_CASE(tiers_highest_priority_first),
	TEST_CASE(tiers_reuse_within_a_tier),
	TEST_CASE(tiers_allowed),
	TEST_CASE(tiers_bad_options),
	TEST_CASE(tiers_alias_groups),
	TEST_CASE(models_serial_needs_the_largest),
	TEST_CASE(models_concurrent_never_share),
	TEST_CASE(models_share_key_stored_once),
	TEST_CASE(models_bad_input),
	TEST_CASE(validate_plan_tiers),
	TEST_CASE(property_tiers_models_valid),
};

TEST_SUITE(tiers_models_suite, "tiers_models", cases);
