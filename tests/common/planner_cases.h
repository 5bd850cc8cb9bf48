/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * planner_cases.h - the hand-made planner and validator cases, written once
 * and run by both test harnesses: the userspace unit tests
 * (tests/unit/test_cases.c) and the KUnit suite tplan_planner
 * (tests/kunit/planner_kunit.c), so the kernel build of the planner is held
 * to the very same expectations as libtplan.
 *
 * A case is data: a table, what is asked, what must come out.  The runners
 * in planner_cases.c make the calls and compare; a harness passes a
 * struct case_check whose fail() records a mismatch its own way (CHECK or
 * KUNIT_FAIL) and the buffers the tables are copied into (in the kernel
 * from kunit_kzalloc(), so no table sits on the kernel stack).
 */
#ifndef TPLAN_TEST_PLANNER_CASES_H
#define TPLAN_TEST_PLANNER_CASES_H

#include "planner.h"

/*
 * The published greedy-by-size example: greedy-size packs it to its lower
 * bound, 124 bytes (naive: 234).
 */
#define PUBLISHED_EXAMPLE_TENSORS	8
extern const struct tplan_tensor published_example[PUBLISHED_EXAMPLE_TENSORS];

/* The most tensors a hand-made table has: the size of a case buffer. */
#define CASE_MAX_TENSORS	8

/**
 * struct case_check - how a harness records a failed expectation
 * @fail: called once per mismatch with the runner's source line, the
 *        case's name, what was compared, and the value found and wanted
 */
struct case_check {
	void (*fail)(struct case_check *chk, int line, const char *name,
		     const char *what, u64 got, u64 want);
};

/* What a plan case may check besides the return value (0 ends the list). */
enum case_field {
	CASE_END,
	CASE_PEAK,
	CASE_LOWER_BOUND,
	CASE_NAIVE_TOTAL,
	CASE_SEARCH,
	CASE_OFFSET,
};

/**
 * struct case_expect - one expected value of a plan
 * @field: an &enum case_field
 * @index: the tensor, for %CASE_OFFSET
 * @value: the value wanted
 */
struct case_expect {
	u32 field;
	u32 index;
	u64 value;
};

#define EXPECT_PEAK(v)		{ CASE_PEAK, 0, (v) }
#define EXPECT_LOWER_BOUND(v)	{ CASE_LOWER_BOUND, 0, (v) }
#define EXPECT_NAIVE_TOTAL(v)	{ CASE_NAIVE_TOTAL, 0, (v) }
#define EXPECT_SEARCH(v)	{ CASE_SEARCH, 0, (v) }
#define EXPECT_OFFSET(i, v)	{ CASE_OFFSET, (i), (v) }

/**
 * struct plan_case - tplan_plan() on a hand-made table
 * @name: what the case shows
 * @table: the tensors (copied before planning)
 * @n: how many
 * @opts: the options planned with
 * @ret: what tplan_plan() returns
 * @expect: values of the result and offsets, up to the first %CASE_END
 *
 * Every case also checks, whatever it expects: a plan that succeeds is
 * valid within its own peak, its peak is tplan_peak() of the offsets and no
 * less than the lower bound, it names the strategy asked for (unless auto),
 * some work was counted (unless the table is empty), and planning the table
 * again gives the same bytes and the same work; a plan out of budget spent
 * more than the budget.
 */
struct plan_case {
	const char *name;
	const struct tplan_tensor *table;
	u32 n;
	struct tplan_options opts;
	int ret;
	struct case_expect expect[6];
};

/**
 * struct finding_case - a table or a plan that tplan_check_table() or
 *                       tplan_validate() judges
 * @name: what the case shows
 * @table: the tensors (offsets matter for tplan_validate())
 * @n: how many
 * @capacity: tplan_validate()'s capacity (0: none)
 * @ret: what is returned
 * @defect: the finding's defect
 * @index: the finding's index
 * @other: the finding's other tensor
 */
struct finding_case {
	const char *name;
	const struct tplan_tensor *table;
	u32 n;
	u64 capacity;
	int ret;
	u32 defect;
	u32 index;
	u32 other;
};

/**
 * struct bound_case - tplan_lower_bound() of a hand-made table
 * @name: what the case shows
 * @table: the tensors
 * @n: how many
 * @bound: the bound wanted
 */
struct bound_case {
	const char *name;
	const struct tplan_tensor *table;
	u32 n;
	u64 bound;
};

extern const struct plan_case plan_cases[];
extern const u32 plan_case_count;
/* Rejected or accepted by tplan_check_table() (and so by tplan_plan()). */
extern const struct finding_case table_check_cases[];
extern const u32 table_check_case_count;
/* Plans judged by tplan_validate(). */
extern const struct finding_case validate_cases[];
extern const u32 validate_case_count;
extern const struct bound_case bound_cases[];
extern const u32 bound_case_count;

/* @a and @b hold CASE_MAX_TENSORS tensors each. */
void plan_case_run(struct case_check *chk, const struct plan_case *c,
		   struct tplan_tensor *a, struct tplan_tensor *b);
/* @t holds CASE_MAX_TENSORS tensors. */
void table_check_case_run(struct case_check *chk,
			  const struct finding_case *c, struct tplan_tensor *t);
void validate_case_run(struct case_check *chk, const struct finding_case *c);
void bound_case_run(struct case_check *chk, const struct bound_case *c);

/* The names of every strategy and search outcome. */
void names_case_run(struct case_check *chk);
/* Pins, gaps and hints (constrained_cases.c). */
void constrained_cases_run(struct case_check *chk);

/*
 * A random table greedy cannot pack (BUDGET_CASE_TENSORS tensors in @t):
 * every searching strategy keeps to a small budget and still plans validly.
 */
#define BUDGET_CASE_TENSORS	300
void budget_case_run(struct case_check *chk, struct tplan_tensor *t);

/*
 * A cut rectangle (gen_fill_perfect()) greedy-size does not pack to its
 * bound and search does: PERFECT_CASE_TENSORS pieces of a
 * PERFECT_CASE_STEPS x PERFECT_CASE_HEIGHT rectangle from PERFECT_CASE_SEED.
 */
#define PERFECT_CASE_TENSORS	12
#define PERFECT_CASE_STEPS	64
#define PERFECT_CASE_HEIGHT	256
#define PERFECT_CASE_SEED	20261124ull

#endif /* TPLAN_TEST_PLANNER_CASES_H */
