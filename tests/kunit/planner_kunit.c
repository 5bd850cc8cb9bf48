// SPDX-License-Identifier: GPL-2.0
/*
 * planner_kunit.c - KUnit cases for the kernel build of the shared planner:
 * the hand-made cases the userspace unit tests run too (written once, in
 * tests/common/planner_cases.c: one KUnit parameter per case), a
 * pseudo-random table whose plans (every strategy) must match the ones
 * libtplan computes, a small budget every searching strategy keeps to, a
 * perfect table (as in tests/unit/test_property.c) that search packs to its
 * bound, tiers and models.
 *
 * The tables live in static const arrays; every test plans a copy in a
 * kunit_kzalloc'd buffer, so no table sits on the kernel stack.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/string.h>

#include "gen.h"
#include "planner.h"
#include "planner_cases.h"

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

/* A failed expectation of a shared case fails the running KUnit test. */
struct kunit_case_check {
	struct case_check chk;
	struct kunit *test;
};

static void kunit_case_fail(struct case_check *chk, int line, const char *name,
			    const char *what, u64 got, u64 want)
{
	struct kunit_case_check *kc;

	kc = container_of(chk, struct kunit_case_check, chk);
	KUNIT_FAIL(kc->test, "planner_cases.c:%d: %s: %s (%llu != %llu)", line,
		   name, what, got, want);
}

#define KUNIT_CASE_CHECK(test) { { .fail = kunit_case_fail }, (test) }

/* Parameters: the shared cases one by one, each named after its case. */
static const void *plan_case_params(const void *prev, char *desc)
{
	const struct plan_case *c = prev ? (const struct plan_case *)prev + 1 :
					   plan_cases;

	if (c >= plan_cases + plan_case_count)
		return NULL;
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
	return c;
}

static const void *table_check_case_params(const void *prev, char *desc)
{
	const struct finding_case *c = prev ?
		(const struct finding_case *)prev + 1 : table_check_cases;

	if (c >= table_check_cases + table_check_case_count)
		return NULL;
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
	return c;
}

static const void *validate_case_params(const void *prev, char *desc)
{
	const struct finding_case *c = prev ?
		(const struct finding_case *)prev + 1 : validate_cases;

	if (c >= validate_cases + validate_case_count)
		return NULL;
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
	return c;
}

static const void *bound_case_params(const void *prev, char *desc)
{
	const struct bound_case *c = prev ? (const struct bound_case *)prev + 1 :
					    bound_cases;

	if (c >= bound_cases + bound_case_count)
		return NULL;
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
	return c;
}

static void plan_case_holds(struct kunit *test)
{
	struct kunit_case_check kc = KUNIT_CASE_CHECK(test);
	struct tplan_tensor *a = table_dup(test, NULL, CASE_MAX_TENSORS);
	struct tplan_tensor *b = table_dup(test, NULL, CASE_MAX_TENSORS);

	plan_case_run(&kc.chk, test->param_value, a, b);
}

static void table_check_case_holds(struct kunit *test)
{
	struct kunit_case_check kc = KUNIT_CASE_CHECK(test);
	struct tplan_tensor *t = table_dup(test, NULL, CASE_MAX_TENSORS);

	table_check_case_run(&kc.chk, test->param_value, t);
}

static void validate_case_holds(struct kunit *test)
{
	struct kunit_case_check kc = KUNIT_CASE_CHECK(test);

	validate_case_run(&kc.chk, test->param_value);
}

static void bound_case_holds(struct kunit *test)
{
	struct kunit_case_check kc = KUNIT_CASE_CHECK(test);

	bound_case_run(&kc.chk, test->param_value);
}

static void names_hold(struct kunit *test)
{
	struct kunit_case_check kc = KUNIT_CASE_CHECK(test);

	names_case_run(&kc.chk);
}

static void pins_gaps_hints_hold(struct kunit *test)
{
	struct kunit_case_check kc = KUNIT_CASE_CHECK(test);

	constrained_cases_run(&kc.chk);
}

static void searching_strategies_keep_to_the_budget(struct kunit *test)
{
	struct kunit_case_check kc = KUNIT_CASE_CHECK(test);

	budget_case_run(&kc.chk, table_dup(test, NULL, BUDGET_CASE_TENSORS));
}

/*
 * The shared cut rectangle: greedy-size misses the bound (the host build
 * of the same generator and planner says so), search reaches it.
 */
#define PERFECT_TENSORS		PERFECT_CASE_TENSORS
#define PERFECT_BOUND		(PERFECT_CASE_HEIGHT * 64ull)
#define PERFECT_GREEDY_PEAK	17280ull
#define PERFECT_SEARCH_WORK	576ull
#define PERFECT_SEARCH_CHECKSUM	0x29985d65918e8455ull

static void perfect_table_is_packed_by_search(struct kunit *test)
{
	struct tplan_tensor *t = table_dup(test, NULL, PERFECT_TENSORS);
	struct tplan_result res;
	struct tplan_finding f;

	KUNIT_ASSERT_TRUE(test, gen_fill_perfect(t, PERFECT_TENSORS,
						 PERFECT_CASE_STEPS,
						 PERFECT_CASE_HEIGHT,
						 PERFECT_CASE_SEED));
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
#define RANDOM_BUDGET		8000000ull

static const struct random_expect {
	u32 strategy;
	u64 budget;
	u64 peak;
	u64 work;
	u32 search;
	u64 checksum;
} random_expected[] = {
	{ TPLAN_STRATEGY_GREEDY_SIZE, 0, 1100937, 979048,
	  TPLAN_SEARCH_NOT_RUN, 0xd261a8584609db82ull },
	{ TPLAN_STRATEGY_STRIP, RANDOM_BUDGET, 1097976, 8000345,
	  TPLAN_SEARCH_NOT_RUN, 0x9083b3822d2fdd73ull },
	{ TPLAN_STRATEGY_SEARCH, RANDOM_BUDGET, 1100937, 8000045,
	  TPLAN_SEARCH_GAVE_UP, 0xd261a8584609db82ull },
	{ TPLAN_STRATEGY_AUTO, RANDOM_BUDGET, 1026432, 7918475,
	  TPLAN_SEARCH_GAVE_UP, 0x0a0613e9f193b646ull },
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

/* Furthest-next-use moves x for a 10-byte excess; the default moves y. */
static const struct tplan_tensor spill_table[] = {
	{ .id = 1, .lower = 0, .upper = 20, .size = 100, .alignment = 1 },
	{ .id = 2, .lower = 0, .upper = 15, .size = 10, .alignment = 1 },
	{ .id = 3, .lower = 5, .upper = 6, .size = 10, .alignment = 1 },
};

static void spill_default_beats_furthest(struct kunit *test)
{
	struct tplan_spill_options o = { TPLAN_SPILL_FURTHEST, 110, 0 };
	struct tplan_spill_result res;
	struct tplan_piece *p;

	p = kunit_kzalloc(test, array_size(8, sizeof(*p)), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, tplan_spill_plan(spill_table, 3, NULL, &o, p, 8,
					       &res), 0);
	KUNIT_EXPECT_EQ(test, res.moved, 200);
	KUNIT_EXPECT_EQ(test, tplan_validate_spill(spill_table, 3, NULL, p,
						   res.pieces, 110, NULL), 0);
	o.strategy = TPLAN_SPILL_DEFAULT;
	KUNIT_ASSERT_EQ(test, tplan_spill_plan(spill_table, 3, NULL, &o, p, 8,
					       &res), 0);
	KUNIT_EXPECT_EQ(test, res.moved, 20);
	KUNIT_EXPECT_EQ(test, res.moved_bound, 20);
	KUNIT_EXPECT_EQ(test, res.pieces, 4);
	KUNIT_EXPECT_EQ(test, tplan_validate_spill(spill_table, 3, NULL, p,
						   res.pieces, 110, NULL), 0);
	o.capacity = 15;	/* x and y are written at step 0 */
	KUNIT_EXPECT_EQ(test, tplan_spill_plan(spill_table, 3, NULL, &o, p, 8,
					       &res), -ENOSPC);
	KUNIT_EXPECT_EQ(test, res.fail_step, 0);
	KUNIT_EXPECT_EQ(test, res.fail_bytes, 110);
}

/*
 * A generated training step (8 layers, generator state 2) at 75 % of its
 * lower bound: each strategy's plan is valid and moves what libtplan's
 * does (the figures measured in userspace); ga, on the table above, shares
 * y's segment with z as the design document does.
 */
static void spill_training_step_as_in_userspace(struct kunit *test)
{
	static const u64 moved[TPLAN_SPILL_COUNT] = {
		[TPLAN_SPILL_DEFAULT] = 9699328,
		[TPLAN_SPILL_FURTHEST] = 12681216,
		[TPLAN_SPILL_GA] = 10354688,
	};
	struct tplan_spill_options o = { TPLAN_SPILL_GA, 110, 0 };
	struct tplan_spill_result res;
	struct tplan_piece *p;
	struct tplan_uses u;
	struct gen_train g;
	u32 n, uses, s, room;
	u64 lb;

	gen_training_counts(8, &n, &uses);
	g.t = kunit_kzalloc(test, array_size(n, sizeof(*g.t)), GFP_KERNEL);
	g.step = kunit_kzalloc(test, array_size(uses, sizeof(u64)), GFP_KERNEL);
	g.start = kunit_kzalloc(test, array_size(n + 1, sizeof(u32)),
				GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, g.t && g.step && g.start);
	gen_fill_training(&g, 8, 2);
	u.step = g.step;
	u.start = g.start;
	room = tplan_spill_max_pieces(g.t, g.n, &u);
	p = kunit_kzalloc(test, array_size(room, sizeof(*p)), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, tplan_spill_plan(spill_table, 3, NULL, &o, p,
					       room, &res), 0);
	KUNIT_EXPECT_EQ(test, res.moved, 20);
	KUNIT_ASSERT_EQ(test, tplan_lower_bound(g.t, g.n, &lb), 0);
	o.capacity = lb * 3 / 4;
	for (s = 0; s < TPLAN_SPILL_COUNT; s++) {
		o.strategy = s;
		KUNIT_ASSERT_EQ(test, tplan_spill_plan(g.t, g.n, &u, &o, p,
						       room, &res), 0);
		KUNIT_EXPECT_EQ(test, res.moved, moved[s]);
		KUNIT_EXPECT_EQ(test, tplan_validate_spill(g.t, g.n, &u, p,
							   res.pieces,
							   o.capacity, NULL),
				0);
	}
}

static struct kunit_case tplan_planner_cases[] = {
	KUNIT_CASE_PARAM(plan_case_holds, plan_case_params),
	KUNIT_CASE_PARAM(table_check_case_holds, table_check_case_params),
	KUNIT_CASE_PARAM(validate_case_holds, validate_case_params),
	KUNIT_CASE_PARAM(bound_case_holds, bound_case_params),
	KUNIT_CASE(names_hold),
	KUNIT_CASE(pins_gaps_hints_hold),
	KUNIT_CASE(searching_strategies_keep_to_the_budget),
	KUNIT_CASE(perfect_table_is_packed_by_search),
	KUNIT_CASE(random_table_same_plan_as_userspace),
	KUNIT_CASE(tiers_fill_fast_tier_by_priority),
	KUNIT_CASE(models_serial_share_once),
	KUNIT_CASE(spill_default_beats_furthest),
	KUNIT_CASE(spill_training_step_as_in_userspace),
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
MODULE_IMPORT_NS(TPLAN);
