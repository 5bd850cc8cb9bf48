// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * constrained_cases.c - hand-made cases of pinned offsets, gaps (with windows)
 * and hints, for the planner and the validators; the userspace suite and
 * the KUnit suite both run them, so both builds must agree.
 */
#include "planner_cases.h"

#define FX_MAX	6

/* Tables are built here, not on the (kernel) stack. */
static struct tplan_tensor fx[FX_MAX];
static struct tplan_gap fx_gaps[4];

static void fx_eq(struct case_check *chk, int line, const char *what, u64 got,
		  u64 want)
{
	if (got != want)
		chk->fail(chk, line, "constrained", what, got, want);
}

#define FX_EQ(chk, what, got, want) \
	fx_eq(chk, __LINE__, what, (u64)(got), (u64)(want))

/* Row @i: alive [@lower, @upper), @size bytes, alignment 1, id @i. */
static void fx_row(u32 i, u64 lower, u64 upper, u64 size)
{
	memset(&fx[i], 0, sizeof(fx[i]));
	fx[i].id = i;
	fx[i].lower = lower;
	fx[i].upper = upper;
	fx[i].size = size;
	fx[i].alignment = 1;
	fx[i].priority = TPLAN_DEFAULT_PRIORITY;
}

static void fx_pin(u32 i, u64 offset)
{
	fx[i].offset = offset;
	fx[i].flags |= TPLAN_TENSOR_PINNED;
}

static void fx_hint(u32 i, u64 hint)
{
	fx[i].hint = hint;
	fx[i].flags |= TPLAN_TENSOR_HINT;
}

/* Gap @k, given to row @i (its only one): absent, or [from, to) present. */
static void fx_gap(u32 i, u32 k, u64 lower, u64 upper, bool window, u64 from,
		   u64 to)
{
	memset(&fx_gaps[k], 0, sizeof(fx_gaps[k]));
	fx_gaps[k].lower = lower;
	fx_gaps[k].upper = upper;
	if (window) {
		fx_gaps[k].flags = TPLAN_GAP_WINDOW;
		fx_gaps[k].from = from;
		fx_gaps[k].to = to;
	}
	fx[i].gap_first = k;
	fx[i].gap_count = 1;
}

static int fx_plan(u32 n, u32 strategy, u32 flags, u64 capacity,
		   struct tplan_result *res)
{
	struct tplan_options o = {
		.strategy = strategy, .capacity = capacity, .flags = flags,
		.gaps = fx_gaps, .gap_count = ARRAY_SIZE(fx_gaps),
	};

	return tplan_plan(fx, n, &o, res);
}

static u32 fx_input_defect(u32 n, u32 strategy, u32 flags, u32 tiers,
			   u64 capacity)
{
	struct tplan_options o = {
		.strategy = strategy, .capacity = capacity, .flags = flags,
		.gaps = fx_gaps, .gap_count = ARRAY_SIZE(fx_gaps),
		.tier_count = tiers,
	};
	struct tplan_finding f = { TPLAN_DEFECT_NONE, 0, 0 };

	if (tiers > 1) {
		o.tier_capacity[0] = 64;
		o.tier_capacity[1] = 64;
	}
	tplan_check_input(fx, n, &o, &f);
	return f.defect;
}

static u32 fx_valid(u32 n, u64 capacity)
{
	struct tplan_finding f = { TPLAN_DEFECT_NONE, 0, 0 };

	tplan_validate_gaps(fx, n, fx_gaps, ARRAY_SIZE(fx_gaps), capacity, &f);
	return f.defect;
}

/* A tensor absent in a gap lends its bytes; a window lends the rest. */
static void gaps_lend_bytes(struct case_check *chk)
{
	struct tplan_result res;
	u32 s;

	for (s = 0; s < TPLAN_STRATEGY_COUNT; s++) {
		if (s == TPLAN_STRATEGY_NAIVE)
			continue;
		fx_row(0, 0, 10, 8);
		fx_row(1, 3, 5, 8);
		fx_gap(0, 0, 2, 6, false, 0, 0);
		FX_EQ(chk, "gap: plan", fx_plan(2, s, 0, 0, &res), 0);
		FX_EQ(chk, "gap: peak", res.peak, 8);
		FX_EQ(chk, "gap: lower bound", res.lower_bound, 8);
		FX_EQ(chk, "gap: valid", fx_valid(2, 8), TPLAN_DEFECT_NONE);
		fx_row(1, 3, 5, 4);
		fx_gap(0, 0, 2, 6, true, 0, 4);
		FX_EQ(chk, "window: plan", fx_plan(2, s, 0, 0, &res), 0);
		FX_EQ(chk, "window: offset", fx[1].offset, 4);
		FX_EQ(chk, "window: peak", res.peak, 8);
	}
}

/* The validator: only bytes present at one step may not overlap. */
static void validator_sees_presence(struct case_check *chk)
{
	struct tplan_finding f;

	fx_row(0, 0, 10, 8);
	fx_row(1, 3, 5, 4);
	fx_gap(0, 0, 2, 6, true, 0, 4);
	fx[1].offset = 4;
	FX_EQ(chk, "window beside", fx_valid(2, 0), TPLAN_DEFECT_NONE);
	fx[1].offset = 3;
	FX_EQ(chk, "window overlap", fx_valid(2, 0), TPLAN_DEFECT_OVERLAP);
	fx_gap(0, 0, 2, 4, true, 0, 4);
	fx[1].offset = 4;
	FX_EQ(chk, "present again", fx_valid(2, 0), TPLAN_DEFECT_OVERLAP);
	fx_gap(0, 0, 2, 11, false, 0, 0);
	FX_EQ(chk, "gap outside", fx_valid(2, 0), TPLAN_DEFECT_GAP_OUTSIDE);
	fx_gap(0, 0, 4, 4, false, 0, 0);
	FX_EQ(chk, "gap empty", fx_valid(2, 0), TPLAN_DEFECT_GAP_OUTSIDE);
	fx_gap(0, 0, 2, 4, true, 5, 9);
	FX_EQ(chk, "window beyond", fx_valid(2, 0), TPLAN_DEFECT_GAP_WINDOW);
	fx_gap(0, 0, 2, 4, true, 5, 3);
	FX_EQ(chk, "window reversed", fx_valid(2, 0), TPLAN_DEFECT_GAP_WINDOW);
	fx_gap(0, 0, 2, 4, false, 0, 0);
	fx_gaps[0].to = 3;
	FX_EQ(chk, "window unflagged", fx_valid(2, 0), TPLAN_DEFECT_GAP_WINDOW);
	fx_gap(0, 2, 5, 7, false, 0, 0);
	fx_gap(0, 1, 2, 6, false, 0, 0);
	fx[0].gap_count = 2;
	FX_EQ(chk, "gaps out of order", fx_valid(2, 0), TPLAN_DEFECT_GAP_ORDER);
	fx[0].gap_first = 3;
	FX_EQ(chk, "gaps past the array", fx_valid(2, 0),
	      TPLAN_DEFECT_GAP_UNKNOWN);
	fx_gap(0, 0, 2, 6, false, 0, 0);
	FX_EQ(chk, "gaps unseen", tplan_validate(fx, 2, 0, &f), -EINVAL);
	FX_EQ(chk, "gaps unseen: why", f.defect, TPLAN_DEFECT_GAP_UNKNOWN);
}

/* Pinned tensors stay; the others plan around them. */
static void pins_stay(struct case_check *chk)
{
	struct tplan_result res;
	u32 s;

	for (s = 0; s < TPLAN_STRATEGY_COUNT; s++) {
		fx_row(0, 0, 4, 8);
		fx_row(1, 0, 4, 8);
		fx_row(2, 2, 6, 8);
		fx_pin(0, 16);
		FX_EQ(chk, "pin: plan", fx_plan(3, s, 0, 0, &res), 0);
		FX_EQ(chk, "pin: kept", fx[0].offset, 16);
		FX_EQ(chk, "pin: valid", fx_valid(3, res.peak),
		      TPLAN_DEFECT_NONE);
		if (s != TPLAN_STRATEGY_NAIVE)
			FX_EQ(chk, "pin: peak", res.peak, 24);
	}
}

/*
 * Search plans through gaps and around pins where greedy cannot: tensors
 * 0 and 3 live inside tensor 2's gap, in its bytes; and a pin in the
 * middle that greedy builds above.  Both reach the lower bound.
 */
static void search_beats_greedy(struct case_check *chk)
{
	struct tplan_result res;

	fx_row(0, 2, 5, 3);
	fx_row(1, 0, 8, 3);
	fx_row(2, 0, 7, 4);
	fx_row(3, 2, 5, 2);
	fx_gap(0, 0, 3, 4, false, 0, 0);
	fx_gap(1, 1, 6, 7, false, 0, 0);
	fx_gap(2, 2, 1, 5, false, 0, 0);
	FX_EQ(chk, "gaps: greedy",
	      fx_plan(4, TPLAN_STRATEGY_GREEDY_SIZE, 0, 0, &res), 0);
	FX_EQ(chk, "gaps: greedy peak", res.peak, 9);
	FX_EQ(chk, "gaps: search", fx_plan(4, TPLAN_STRATEGY_SEARCH, 0, 0, &res),
	      0);
	FX_EQ(chk, "gaps: search peak", res.peak, 8);
	FX_EQ(chk, "gaps: at the bound", res.lower_bound, 8);
	FX_EQ(chk, "gaps: search fit", res.search, TPLAN_SEARCH_FIT);
	FX_EQ(chk, "gaps: search valid", fx_valid(4, 8), TPLAN_DEFECT_NONE);
	FX_EQ(chk, "gaps: auto", fx_plan(4, TPLAN_STRATEGY_AUTO, 0, 0, &res), 0);
	FX_EQ(chk, "gaps: auto peak", res.peak, 8);

	fx_row(0, 3, 6, 4);
	fx_row(1, 0, 4, 2);
	fx_row(2, 0, 6, 3);
	fx_row(3, 2, 3, 4);
	fx_pin(0, 3);
	FX_EQ(chk, "pin: greedy",
	      fx_plan(4, TPLAN_STRATEGY_GREEDY_SIZE, 0, 0, &res), 0);
	FX_EQ(chk, "pin: greedy peak", res.peak, 12);
	FX_EQ(chk, "pin: search", fx_plan(4, TPLAN_STRATEGY_SEARCH, 0, 0, &res),
	      0);
	FX_EQ(chk, "pin: search peak", res.peak, 9);
	FX_EQ(chk, "pin: at the bound", res.lower_bound, 9);
	FX_EQ(chk, "pin: kept", fx[0].offset, 3);
	FX_EQ(chk, "pin: search valid", fx_valid(4, 9), TPLAN_DEFECT_NONE);
	/* below the bound: no plan, but with pins no proof either */
	FX_EQ(chk, "pin: below the bound",
	      fx_plan(4, TPLAN_STRATEGY_SEARCH, 0, 8, &res), -ENOSPC);
	FX_EQ(chk, "pin: gave up", res.search, TPLAN_SEARCH_GAVE_UP);
	FX_EQ(chk, "pin: still kept", fx[0].offset, 3);
	FX_EQ(chk, "pin: auto", fx_plan(4, TPLAN_STRATEGY_AUTO, 0, 0, &res), 0);
	FX_EQ(chk, "pin: auto peak", res.peak, 9);
}

/* Pins that cannot all hold are refused, naming the tensors. */
static void pins_refused(struct case_check *chk)
{
	struct tplan_finding f = { TPLAN_DEFECT_NONE, 0, 0 };
	struct tplan_options o = { .gaps = fx_gaps, .gap_count = 4 };

	fx_row(0, 0, 4, 8);
	fx_row(1, 2, 6, 8);
	fx_pin(0, 0);
	fx_pin(1, 4);
	FX_EQ(chk, "pins overlap", tplan_check_input(fx, 2, &o, &f), -EINVAL);
	FX_EQ(chk, "pins overlap: why", f.defect, TPLAN_DEFECT_PIN_OVERLAP);
	FX_EQ(chk, "pins overlap: first", f.index, 0);
	FX_EQ(chk, "pins overlap: second", f.other, 1);
	fx_gap(1, 0, 2, 4, false, 0, 0);
	FX_EQ(chk, "pins apart by a gap", fx_input_defect(2, 0, 0, 0, 0),
	      TPLAN_DEFECT_NONE);
	FX_EQ(chk, "pin beyond capacity", fx_input_defect(2, 0, 0, 0, 11),
	      TPLAN_DEFECT_PIN_CAPACITY);
	fx[1].alignment = 8;
	FX_EQ(chk, "pin misaligned", fx_input_defect(2, 0, 0, 0, 0),
	      TPLAN_DEFECT_PIN_MISALIGNED);
	fx[1].alignment = 1;
	FX_EQ(chk, "pins with tiers", fx_input_defect(2, 0, 0, 2, 0),
	      TPLAN_DEFECT_PIN_TIERS);
	fx[1].model = 1;
	FX_EQ(chk, "pins with models", fx_input_defect(2, 0, 0, 0, 0),
	      TPLAN_DEFECT_CONSTRAINED_MODELS);
}

/*
 * A hint is taken when it is aligned, free and within the capacity; search
 * (and auto through it) may leave it for a lower peak: a preference.
 */
static void hints_when_they_fit(struct case_check *chk)
{
	struct tplan_result res;
	u32 s;

	for (s = 0; s < TPLAN_STRATEGY_COUNT; s++) {
		bool searches = s == TPLAN_STRATEGY_SEARCH ||
				s == TPLAN_STRATEGY_AUTO;

		fx_row(0, 0, 4, 8);
		fx_row(1, 0, 4, 8);
		fx_hint(1, 32);
		FX_EQ(chk, "hint: plan", fx_plan(2, s, 0, 0, &res), 0);
		if (searches)
			FX_EQ(chk, "hint: left for the bound", res.peak, 16);
		else
			FX_EQ(chk, "hint: taken", fx[1].offset, 32);
		fx_pin(0, 0);
		fx_hint(1, 4);
		FX_EQ(chk, "hint on a pin", fx_plan(2, s, 0, 0, &res), 0);
		FX_EQ(chk, "hint on a pin: moved", fx[1].offset, 8);
		fx[1].alignment = 16;
		fx_hint(1, 24);
		FX_EQ(chk, "hint misaligned", fx_plan(2, s, 0, 0, &res), 0);
		FX_EQ(chk, "hint misaligned: moved", fx[1].offset, 16);
		fx[1].alignment = 1;
		fx_hint(1, 12);
		FX_EQ(chk, "hint past capacity", fx_plan(2, s, 0, 16, &res), 0);
		FX_EQ(chk, "hint past capacity: moved", fx[1].offset, 8);
	}
}

/* An alias group's pin comes from any member, and all must agree. */
static void aliases_carry_pins(struct case_check *chk)
{
	struct tplan_result res;

	fx_row(0, 0, 4, 16);
	fx_row(1, 2, 6, 8);
	fx_row(2, 1, 3, 8);
	fx[1].flags = TPLAN_TENSOR_ALIAS;
	fx[1].alias_of = 0;
	fx[1].alias_offset = 8;
	fx_pin(1, 40);
	FX_EQ(chk, "alias pin: plan",
	      fx_plan(3, TPLAN_STRATEGY_GREEDY_SIZE, TPLAN_PLAN_ALIASES, 0,
		      &res), 0);
	FX_EQ(chk, "alias pin: owner", fx[0].offset, 32);
	FX_EQ(chk, "alias pin: alias", fx[1].offset, 40);
	fx_pin(0, 0);
	FX_EQ(chk, "alias pins disagree",
	      fx_input_defect(3, 0, TPLAN_PLAN_ALIASES, 0, 0),
	      TPLAN_DEFECT_PIN_ALIAS);
	fx[0].flags = 0;
	fx_gap(0, 0, 1, 2, false, 0, 0);
	FX_EQ(chk, "alias gaps", fx_input_defect(3, 0, TPLAN_PLAN_ALIASES, 0, 0),
	      TPLAN_DEFECT_GAP_ALIAS);
}

/* Small tensors set apart leave the pinned ones where they are. */
static void small_apart_keeps_pins(struct case_check *chk)
{
	struct tplan_options o = {
		.strategy = TPLAN_STRATEGY_GREEDY_SIZE, .small_below = 16,
	};
	struct tplan_result res;

	fx_row(0, 0, 4, 64);
	fx_row(1, 0, 4, 8);
	fx_row(2, 0, 4, 8);
	fx_pin(1, 64);
	FX_EQ(chk, "small: plan", tplan_plan(fx, 3, &o, &res), 0);
	FX_EQ(chk, "small: pinned kept", fx[1].offset, 64);
	FX_EQ(chk, "small: apart above", fx[2].offset, 72);
}

/**
 * constrained_cases_run() - run every case of pins, gaps and hints
 * @chk: how a failed expectation is recorded
 */
void constrained_cases_run(struct case_check *chk)
{
	gaps_lend_bytes(chk);
	validator_sees_presence(chk);
	pins_stay(chk);
	search_beats_greedy(chk);
	pins_refused(chk);
	hints_when_they_fit(chk);
	aliases_carry_pins(chk);
	small_apart_keeps_pins(chk);
}
