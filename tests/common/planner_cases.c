// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * planner_cases.c - the hand-made planner and validator cases and their
 * runners, compiled into the userspace unit tests and into the KUnit
 * module tplan_planner_kunit (see planner_cases.h).
 */
#include "gen.h"
#include "planner_cases.h"

#define T(id_, lo, up, sz) \
	{ .id = (id_), .lower = (lo), .upper = (up), .size = (sz), .alignment = 1 }

#define TA(id_, lo, up, sz, al) \
	{ .id = (id_), .lower = (lo), .upper = (up), .size = (sz), \
	  .alignment = (al) }

#define P(id_, lo, up, sz, off) \
	{ .id = (id_), .lower = (lo), .upper = (up), .size = (sz), \
	  .alignment = 1, .offset = (off) }

#define TH(id_, lo, up, sz, al, h) \
	{ .id = (id_), .lower = (lo), .upper = (up), .size = (sz), \
	  .alignment = (al), .hint = (h), .flags = TPLAN_TENSOR_HINT }

#define PA(id_, lo, up, sz, off, al) \
	{ .id = (id_), .lower = (lo), .upper = (up), .size = (sz), \
	  .alignment = (al), .offset = (off) }

/*
 * The published greedy-by-size example (first step, last step inclusive,
 * size): (0,1,32) (1,4,28) (2,5,36) (3,5,16) (4,5,8) (5,7,64) (6,8,10)
 * (7,8,40).  Upper is last + 1.
 */
const struct tplan_tensor published_example[PUBLISHED_EXAMPLE_TENSORS] = {
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
	T(1, 0, 4, 100), TA(2, 0, 4, 10, 64), TA(3, 0, 4, 1, 256),
};

static const struct tplan_tensor zero_size[] = {
	T(1, 0, 4, 0), T(2, 0, 4, 16), T(3, 1, 2, 0),
};

static const struct tplan_tensor huge[] = {
	T(1, 0, 2, 1ull << 62), T(2, 1, 3, 1ull << 62),
	T(3, 2, 4, (1ull << 63) - 1),
};

/*
 * Sizes that add up to 2^64 - 1 exactly, alive together: every plan's peak
 * is 2^64 - 1, which strip, peak first and auto once took for "no plan
 * yet" (strip then copied offsets it never set).
 */
static const struct tplan_tensor peak_max[] = {
	T(1, 0, 9, 1ull << 63), T(2, 0, 9, (1ull << 63) - 1),
};

/*
 * Hints that leave no room below 2^64 for the tensors placed above them:
 * not taken (a lowest fit above 3's hint once wrapped past 2^64 to a low
 * offset, over other tensors).
 */
static const struct tplan_tensor hint_no_room[] = {
	TA(1, 0, 9, 1ull << 63, 2), TH(2, 0, 9, 1, 1, (1ull << 63) - 2),
	TH(3, 0, 9, 1, 1, ~0ull - 1),
};

#define GREEDY		{ .strategy = TPLAN_STRATEGY_GREEDY_SIZE }
#define NAIVE		{ .strategy = TPLAN_STRATEGY_NAIVE }

const struct plan_case plan_cases[] = {
	{ "published_example_greedy",
	  published_example, ARRAY_SIZE(published_example), GREEDY, 0,
	  { EXPECT_LOWER_BOUND(124), EXPECT_PEAK(124),
	    EXPECT_NAIVE_TOTAL(234) } },
	{ "published_example_naive",
	  published_example, ARRAY_SIZE(published_example), NAIVE, 0,
	  { EXPECT_PEAK(234), EXPECT_OFFSET(0, 0), EXPECT_OFFSET(1, 32),
	    EXPECT_OFFSET(7, 194) } },
	{ "gap_at_offset_zero_is_used",
	  gap_at_zero, ARRAY_SIZE(gap_at_zero), GREEDY, 0,
	  { EXPECT_OFFSET(0, 0), EXPECT_OFFSET(1, 100), EXPECT_OFFSET(2, 0),
	    EXPECT_PEAK(190) } },
	{ "alignment_is_honoured_greedy",
	  aligned, ARRAY_SIZE(aligned), GREEDY, 0,
	  { EXPECT_OFFSET(0, 0), EXPECT_OFFSET(1, 128),
	    EXPECT_OFFSET(2, 256) } },
	{ "alignment_is_honoured_naive",
	  aligned, ARRAY_SIZE(aligned), NAIVE, 0,
	  { EXPECT_OFFSET(1, 128), EXPECT_OFFSET(2, 256),
	    EXPECT_NAIVE_TOTAL(257) } },
	{ "zero_size_takes_no_space",
	  zero_size, ARRAY_SIZE(zero_size), GREEDY, 0,
	  { EXPECT_PEAK(16), EXPECT_LOWER_BOUND(16), EXPECT_OFFSET(0, 0),
	    EXPECT_OFFSET(2, 0) } },
	{ "capacity_too_small_is_enospc",
	  published_example, ARRAY_SIZE(published_example),
	  { .strategy = TPLAN_STRATEGY_GREEDY_SIZE, .capacity = 123 }, -ENOSPC,
	  { EXPECT_PEAK(124) } },
	{ "capacity_just_enough",
	  published_example, ARRAY_SIZE(published_example),
	  { .strategy = TPLAN_STRATEGY_GREEDY_SIZE, .capacity = 124 }, 0,
	  { EXPECT_PEAK(124) } },
	{ "unknown_strategy_is_einval",
	  published_example, ARRAY_SIZE(published_example),
	  { .strategy = TPLAN_STRATEGY_COUNT }, -EINVAL, {} },
	{ "all_ones_strategy_is_einval",
	  published_example, ARRAY_SIZE(published_example),
	  { .strategy = ~0u }, -EINVAL, {} },
	{ "budget_exhausted_is_etimedout",
	  published_example, ARRAY_SIZE(published_example),
	  { .strategy = TPLAN_STRATEGY_GREEDY_SIZE, .budget = 2 }, -ETIMEDOUT,
	  {} },
	{ "empty_table_plans_to_nothing_greedy", NULL, 0, GREEDY, 0,
	  { EXPECT_PEAK(0), EXPECT_LOWER_BOUND(0) } },
	{ "empty_table_plans_to_nothing_naive", NULL, 0, NAIVE, 0,
	  { EXPECT_PEAK(0) } },
	{ "huge_sizes_plan_without_overflow",
	  huge, ARRAY_SIZE(huge), GREEDY, 0, {} },
	{ "search_below_lower_bound_is_impossible",
	  published_example, ARRAY_SIZE(published_example),
	  { .strategy = TPLAN_STRATEGY_SEARCH, .capacity = 123 }, -ENOSPC,
	  { EXPECT_SEARCH(TPLAN_SEARCH_IMPOSSIBLE), EXPECT_PEAK(124) } },
	{ "peak_2_64_minus_1_greedy", peak_max, ARRAY_SIZE(peak_max), GREEDY,
	  0, { EXPECT_PEAK(~0ull) } },
	{ "peak_2_64_minus_1_strip", peak_max, ARRAY_SIZE(peak_max),
	  { .strategy = TPLAN_STRATEGY_STRIP }, 0, { EXPECT_PEAK(~0ull) } },
	{ "peak_2_64_minus_1_search", peak_max, ARRAY_SIZE(peak_max),
	  { .strategy = TPLAN_STRATEGY_SEARCH }, 0, { EXPECT_PEAK(~0ull) } },
	{ "peak_2_64_minus_1_auto", peak_max, ARRAY_SIZE(peak_max),
	  { .strategy = TPLAN_STRATEGY_AUTO }, 0, { EXPECT_PEAK(~0ull) } },
	{ "hint_without_room_naive", hint_no_room, ARRAY_SIZE(hint_no_room),
	  NAIVE, 0, {} },
	{ "hint_without_room_greedy", hint_no_room, ARRAY_SIZE(hint_no_room),
	  GREEDY, 0, {} },
	{ "hint_without_room_strip", hint_no_room, ARRAY_SIZE(hint_no_room),
	  { .strategy = TPLAN_STRATEGY_STRIP }, 0, {} },
	{ "hint_without_room_search", hint_no_room, ARRAY_SIZE(hint_no_room),
	  { .strategy = TPLAN_STRATEGY_SEARCH }, 0, {} },
	{ "hint_without_room_auto", hint_no_room, ARRAY_SIZE(hint_no_room),
	  { .strategy = TPLAN_STRATEGY_AUTO }, 0, {} },
	{ "search_fits_the_lower_bound",
	  published_example, ARRAY_SIZE(published_example),
	  { .strategy = TPLAN_STRATEGY_SEARCH }, 0,
	  { EXPECT_SEARCH(TPLAN_SEARCH_FIT), EXPECT_PEAK(124) } },
};

const u32 plan_case_count = ARRAY_SIZE(plan_cases);

/* One defect at a time, each in a copy of the same three rows. */
static const struct tplan_tensor lifetime_empty[] = {
	T(1, 0, 2, 8), T(2, 3, 3, 8), T(3, 1, 2, 8),
};

static const struct tplan_tensor lifetime_reversed[] = {
	T(1, 0, 2, 8), T(2, 3, 2, 8), T(3, 1, 2, 8),
};

static const struct tplan_tensor alignment_zero[] = {
	T(1, 0, 2, 8), T(2, 3, 4, 8), TA(3, 1, 2, 8, 0),
};

static const struct tplan_tensor alignment_not_power_of_two[] = {
	T(1, 0, 2, 8), T(2, 3, 4, 8), TA(3, 1, 2, 8, 24),
};

static const struct tplan_tensor unknown_flag[] = {
	{ .id = 1, .lower = 0, .upper = 2, .size = 8, .alignment = 1,
	  .flags = 0x80 },
	T(2, 3, 4, 8), TA(3, 1, 2, 8, 8),
};

static const struct tplan_tensor pad_set[] = {
	{ .id = 1, .lower = 0, .upper = 2, .size = 8, .alignment = 1,
	  .flags = TPLAN_TENSOR_ALIAS, .pad = 1 },
	T(2, 3, 4, 8), TA(3, 1, 2, 8, 8),
};

/* The alias flag alone is no defect: it counts only when aliases are on. */
static const struct tplan_tensor alias_flag_alone[] = {
	{ .id = 1, .lower = 0, .upper = 2, .size = 8, .alignment = 1,
	  .flags = TPLAN_TENSOR_ALIAS },
	T(2, 3, 4, 8), TA(3, 1, 2, 8, 8),
};

static const struct tplan_tensor duplicate_ids[] = {
	T(5, 0, 2, 8), T(7, 0, 2, 8), T(6, 1, 2, 8), T(7, 1, 3, 8),
};

static const struct tplan_tensor sizes_past_u64[] = {
	T(1, 0, 2, 1ull << 63), T(2, 5, 6, 1ull << 63),
};

/* Sums to 2^64 - 1: still fine. */
static const struct tplan_tensor sizes_up_to_u64[] = {
	T(1, 0, 2, 1ull << 63), T(2, 5, 6, (1ull << 63) - 1),
};

/* The same, and alignment slack tips it over. */
static const struct tplan_tensor slack_past_u64[] = {
	T(1, 0, 2, 1ull << 63), TA(2, 5, 6, (1ull << 63) - 1, 2),
};

const struct finding_case table_check_cases[] = {
	{ "empty_lifetime",
	  lifetime_empty, ARRAY_SIZE(lifetime_empty), 0, -EINVAL,
	  TPLAN_DEFECT_LIFETIME, 1, 1 },
	{ "upper_below_lower",
	  lifetime_reversed, ARRAY_SIZE(lifetime_reversed), 0, -EINVAL,
	  TPLAN_DEFECT_LIFETIME, 1, 1 },
	{ "alignment_zero_reads_as_one",
	  alignment_zero, ARRAY_SIZE(alignment_zero), 0, 0,
	  TPLAN_DEFECT_NONE, 0, 0 },
	{ "alignment_not_power_of_two",
	  alignment_not_power_of_two, ARRAY_SIZE(alignment_not_power_of_two), 0,
	  -EINVAL, TPLAN_DEFECT_ALIGNMENT, 2, 2 },
	{ "unknown_flag",
	  unknown_flag, ARRAY_SIZE(unknown_flag), 0, -EINVAL, TPLAN_DEFECT_FLAGS,
	  0, 0 },
	{ "pad_set",
	  pad_set, ARRAY_SIZE(pad_set), 0, -EINVAL, TPLAN_DEFECT_FLAGS, 0, 0 },
	{ "alias_flag_alone_is_fine",
	  alias_flag_alone, ARRAY_SIZE(alias_flag_alone), 0, 0,
	  TPLAN_DEFECT_NONE, 0, 0 },
	{ "duplicate_ids",
	  duplicate_ids, ARRAY_SIZE(duplicate_ids), 0, -EINVAL,
	  TPLAN_DEFECT_DUPLICATE_ID, 3, 1 },
	{ "sizes_past_u64",
	  sizes_past_u64, ARRAY_SIZE(sizes_past_u64), 0, -EOVERFLOW,
	  TPLAN_DEFECT_TOO_LARGE, 1, 1 },
	{ "sizes_up_to_u64_are_fine",
	  sizes_up_to_u64, ARRAY_SIZE(sizes_up_to_u64), 0, 0,
	  TPLAN_DEFECT_NONE, 0, 0 },
	{ "alignment_slack_past_u64",
	  slack_past_u64, ARRAY_SIZE(slack_past_u64), 0, -EOVERFLOW,
	  TPLAN_DEFECT_TOO_LARGE, 1, 1 },
};

const u32 table_check_case_count = ARRAY_SIZE(table_check_cases);

static const struct tplan_tensor valid_plan[] = {
	P(1, 0, 4, 10, 0), P(2, 0, 4, 10, 10), P(3, 4, 6, 20, 0),
	P(4, 2, 3, 0, 5),	/* zero size, inside another: fine */
};

static const struct tplan_tensor touching[] = {
	P(1, 0, 2, 8, 0), P(2, 2, 4, 8, 0),
};

static const struct tplan_tensor no_overlap[] = {
	P(1, 0, 4, 10, 0), P(2, 0, 4, 10, 10), P(3, 3, 6, 20, 20),
	P(4, 5, 8, 8, 0),
};

/* [27,35) meets tensor 3's [20,40) at step 5. */
static const struct tplan_tensor overlap_late[] = {
	P(1, 0, 4, 10, 0), P(2, 0, 4, 10, 10), P(3, 3, 6, 20, 20),
	P(4, 5, 8, 8, 27),
};

/* Tensor 2 one byte into tensor 1. */
static const struct tplan_tensor overlap_one_byte[] = {
	P(1, 0, 4, 10, 0), P(2, 0, 4, 10, 9), P(3, 3, 6, 20, 20),
	P(4, 5, 8, 8, 40),
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
	P(1, 0, 2, 8, 0), PA(2, 0, 2, 8, 12, 8),
};

static const struct tplan_tensor aligned_offset[] = {
	P(1, 0, 2, 8, 0), PA(2, 0, 2, 8, 16, 8),
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

const struct finding_case validate_cases[] = {
	{ "valid_plan_passes",
	  valid_plan, ARRAY_SIZE(valid_plan), 20, 0, TPLAN_DEFECT_NONE,
	  0, 0 },
	{ "touching_lifetimes_may_share",
	  touching, ARRAY_SIZE(touching), 0, 0,
	  TPLAN_DEFECT_NONE, 0, 0 },
	{ "no_overlap_passes",
	  no_overlap, ARRAY_SIZE(no_overlap), 0, 0, TPLAN_DEFECT_NONE,
	  0, 0 },
	{ "late_overlap_names_both",
	  overlap_late, ARRAY_SIZE(overlap_late), 0, -EINVAL,
	  TPLAN_DEFECT_OVERLAP, 2, 3 },
	{ "one_byte_overlap_names_both",
	  overlap_one_byte, ARRAY_SIZE(overlap_one_byte), 0, -EINVAL,
	  TPLAN_DEFECT_OVERLAP, 0, 1 },
	{ "same_offset_overlaps",
	  same_offset, ARRAY_SIZE(same_offset), 0, -EINVAL,
	  TPLAN_DEFECT_OVERLAP, 0, 1 },
	{ "overlap_hidden_behind_a_neighbour",
	  hidden_overlap, ARRAY_SIZE(hidden_overlap), 0,
	  -EINVAL, TPLAN_DEFECT_OVERLAP, 0, 2 },
	{ "misaligned_offset",
	  misaligned, ARRAY_SIZE(misaligned), 0, -EINVAL,
	  TPLAN_DEFECT_MISALIGNED, 1, 1 },
	{ "aligned_offset_passes",
	  aligned_offset, ARRAY_SIZE(aligned_offset), 0, 0,
	  TPLAN_DEFECT_NONE, 0, 0 },
	{ "beyond_capacity",
	  two_of_eight, ARRAY_SIZE(two_of_eight), 15, -EINVAL,
	  TPLAN_DEFECT_CAPACITY, 1, 1 },
	{ "exactly_at_capacity",
	  two_of_eight, ARRAY_SIZE(two_of_eight), 16, 0,
	  TPLAN_DEFECT_NONE, 0, 0 },
	{ "end_past_u64_is_capacity_defect",
	  end_past_u64, ARRAY_SIZE(end_past_u64), 0, -EINVAL,
	  TPLAN_DEFECT_CAPACITY, 0, 0 },
	{ "bad_table_is_reported",
	  same_id, ARRAY_SIZE(same_id), 0, -EINVAL,
	  TPLAN_DEFECT_DUPLICATE_ID, 1, 0 },
};

const u32 validate_case_count = ARRAY_SIZE(validate_cases);

const struct bound_case bound_cases[] = {
	{ "exclusive_upper",
	  exclusive_upper, ARRAY_SIZE(exclusive_upper), 10 },
	{ "published_example",
	  published_example, ARRAY_SIZE(published_example), 124 },
	{ "zero_size",
	  zero_size, ARRAY_SIZE(zero_size), 16 },
	{ "empty_table", NULL, 0, 0 },
};

const u32 bound_case_count = ARRAY_SIZE(bound_cases);

/* Records a mismatch of @got and @want, described by @what. */
#define EXPECT_EQ(chk, name, what, got, want)				\
	do {								\
		struct case_check *chk_ = (chk);			\
		u64 got_ = (got), want_ = (want);			\
									\
		if (got_ != want_)					\
			chk_->fail(chk_, __LINE__, (name), (what), got_,	\
				   want_);				\
	} while (0)

static void table_copy(struct tplan_tensor *dst,
		       const struct tplan_tensor *src, u32 n)
{
	if (n)
		memcpy(dst, src, n * sizeof(*src));
}

static u64 expected_field(const struct tplan_result *res,
			  const struct tplan_tensor *t,
			  const struct case_expect *e)
{
	switch (e->field) {
	case CASE_PEAK:
		return res->peak;
	case CASE_LOWER_BOUND:
		return res->lower_bound;
	case CASE_NAIVE_TOTAL:
		return res->naive_total;
	case CASE_SEARCH:
		return res->search;
	default:
		return t[e->index].offset;
	}
}

static const char *const field_names[] = {
	[CASE_PEAK] = "peak",
	[CASE_LOWER_BOUND] = "lower_bound",
	[CASE_NAIVE_TOTAL] = "naive_total",
	[CASE_SEARCH] = "search",
	[CASE_OFFSET] = "offset",
};

void plan_case_run(struct case_check *chk, const struct plan_case *c,
		   struct tplan_tensor *a, struct tplan_tensor *b)
{
	struct tplan_result ra, rb;
	struct tplan_finding f;
	const struct case_expect *e;
	int ret;

	table_copy(a, c->table, c->n);
	ret = tplan_plan(a, c->n, &c->opts, &ra);
	EXPECT_EQ(chk, c->name, "tplan_plan", ret, c->ret);
	for (e = c->expect; e < c->expect + ARRAY_SIZE(c->expect); e++) {
		if (e->field == CASE_END)
			break;
		EXPECT_EQ(chk, c->name, field_names[e->field],
			  expected_field(&ra, a, e), e->value);
	}
	if (ret == -ETIMEDOUT)
		EXPECT_EQ(chk, c->name, "work > budget",
			  ra.work > c->opts.budget, 1);
	if (ret)
		return;

	EXPECT_EQ(chk, c->name, "tplan_validate within the peak",
		  tplan_validate(a, c->n, ra.peak, &f), 0);
	EXPECT_EQ(chk, c->name, "tplan_peak", tplan_peak(a, c->n), ra.peak);
	EXPECT_EQ(chk, c->name, "peak >= lower_bound",
		  ra.peak >= ra.lower_bound, 1);
	if (c->n)
		EXPECT_EQ(chk, c->name, "work > 0", ra.work > 0, 1);
	if (c->opts.strategy != TPLAN_STRATEGY_AUTO)
		EXPECT_EQ(chk, c->name, "strategy", ra.strategy,
			  c->opts.strategy);

	table_copy(b, c->table, c->n);
	EXPECT_EQ(chk, c->name, "tplan_plan again",
		  tplan_plan(b, c->n, &c->opts, &rb), 0);
	EXPECT_EQ(chk, c->name, "same plan again",
		  c->n ? memcmp(a, b, c->n * sizeof(*a)) : 0, 0);
	EXPECT_EQ(chk, c->name, "same work again", rb.work, ra.work);
}

void table_check_case_run(struct case_check *chk,
			  const struct finding_case *c, struct tplan_tensor *t)
{
	struct tplan_options o = { .strategy = TPLAN_STRATEGY_GREEDY_SIZE };
	struct tplan_finding f;
	struct tplan_result res;

	EXPECT_EQ(chk, c->name, "tplan_check_table",
		  tplan_check_table(c->table, c->n, &f), c->ret);
	EXPECT_EQ(chk, c->name, "defect", f.defect, c->defect);
	EXPECT_EQ(chk, c->name, "index", f.index, c->index);
	EXPECT_EQ(chk, c->name, "other", f.other, c->other);
	EXPECT_EQ(chk, c->name, "tplan_check_table without a finding",
		  tplan_check_table(c->table, c->n, NULL), c->ret);
	table_copy(t, c->table, c->n);
	EXPECT_EQ(chk, c->name, "tplan_plan", tplan_plan(t, c->n, &o, &res),
		  c->ret);
}

void validate_case_run(struct case_check *chk, const struct finding_case *c)
{
	struct tplan_finding f;

	EXPECT_EQ(chk, c->name, "tplan_validate",
		  tplan_validate(c->table, c->n, c->capacity, &f), c->ret);
	EXPECT_EQ(chk, c->name, "defect", f.defect, c->defect);
	EXPECT_EQ(chk, c->name, "index", f.index, c->index);
	EXPECT_EQ(chk, c->name, "other", f.other, c->other);
}

void bound_case_run(struct case_check *chk, const struct bound_case *c)
{
	u64 bound = ~0ull;

	EXPECT_EQ(chk, c->name, "tplan_lower_bound",
		  tplan_lower_bound(c->table, c->n, &bound), 0);
	EXPECT_EQ(chk, c->name, "bound", bound, c->bound);
}

static const char *const strategy_names[] = {
	[TPLAN_STRATEGY_NAIVE] = "naive",
	[TPLAN_STRATEGY_GREEDY_SIZE] = "greedy-size",
	[TPLAN_STRATEGY_STRIP] = "strip",
	[TPLAN_STRATEGY_SEARCH] = "search",
	[TPLAN_STRATEGY_AUTO] = "auto",
};

static const char *const search_names[] = {
	[TPLAN_SEARCH_NOT_RUN] = "not run",
	[TPLAN_SEARCH_FIT] = "fit",
	[TPLAN_SEARCH_IMPOSSIBLE] = "impossible",
	[TPLAN_SEARCH_GAVE_UP] = "gave up",
};

/* 0 when equal, else the index of the first byte that differs, plus 1. */
static u64 str_diff(const char *got, const char *want)
{
	u64 i;

	for (i = 0; got[i] == want[i]; i++)
		if (!got[i])
			return 0;
	return i + 1;
}

void names_case_run(struct case_check *chk)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(strategy_names); i++)
		EXPECT_EQ(chk, strategy_names[i], "tplan_strategy_name",
			  str_diff(tplan_strategy_name(i), strategy_names[i]),
			  0);
	EXPECT_EQ(chk, "unknown strategy", "tplan_strategy_name",
		  str_diff(tplan_strategy_name(TPLAN_STRATEGY_COUNT),
			   "unknown"), 0);
	EXPECT_EQ(chk, "strategy 99", "tplan_strategy_name",
		  str_diff(tplan_strategy_name(99), "unknown"), 0);
	for (i = 0; i < ARRAY_SIZE(search_names); i++)
		EXPECT_EQ(chk, search_names[i], "tplan_search_name",
			  str_diff(tplan_search_name(i), search_names[i]), 0);
	EXPECT_EQ(chk, "search 42", "tplan_search_name",
		  str_diff(tplan_search_name(42), "unknown"), 0);
}

/*
 * gen_fill_random() with horizon 200, lifetimes up to 60, sizes up to
 * 64 KiB, no zero sizes, alignment 1: greedy-size cannot pack it.
 */
#define BUDGET_CASE_SEED	7
#define BUDGET_CASE_WORK	400000ull

void budget_case_run(struct case_check *chk, struct tplan_tensor *t)
{
	const struct gen_params p = {
		.n = BUDGET_CASE_TENSORS, .horizon = 200, .max_life = 60,
		.max_size = 1 << 16,
	};
	struct tplan_options o = { .budget = BUDGET_CASE_WORK };
	struct tplan_result res;
	static const u32 searching[] = {
		TPLAN_STRATEGY_STRIP, TPLAN_STRATEGY_SEARCH, TPLAN_STRATEGY_AUTO,
	};
	struct tplan_finding f;
	u32 i;

	gen_fill_random(t, &p, BUDGET_CASE_SEED);
	for (i = 0; i < ARRAY_SIZE(searching); i++) {
		const char *name = tplan_strategy_name(searching[i]);

		o.strategy = searching[i];
		EXPECT_EQ(chk, name, "tplan_plan",
			  tplan_plan(t, p.n, &o, &res), 0);
		EXPECT_EQ(chk, name, "work <= budget + 10000",
			  res.work <= BUDGET_CASE_WORK + 10000, 1);
		EXPECT_EQ(chk, name, "tplan_validate",
			  tplan_validate(t, p.n, 0, &f), 0);
		if (res.peak > res.lower_bound)
			EXPECT_EQ(chk, name, "search fit above the bound",
				  res.search == TPLAN_SEARCH_FIT, 0);
	}
}
