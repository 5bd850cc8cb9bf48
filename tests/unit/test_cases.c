// SPDX-License-Identifier: MIT
/*
 * test_cases.c - the shared hand-made planner and validator cases
 * (tests/common/planner_cases.c), which the KUnit suite runs too.
 */
#include "harness.h"
#include "planner_cases.h"

static void case_fail(struct case_check *chk, int line, const char *name,
		      const char *what, u64 got, u64 want)
{
	test_fail("planner_cases.c", line, "%s: %s (%llu != %llu)", name, what,
		  (unsigned long long)got, (unsigned long long)want);
}

static struct case_check check = { .fail = case_fail };

static void plan_cases_hold(void)
{
	struct tplan_tensor a[CASE_MAX_TENSORS], b[CASE_MAX_TENSORS];

	for (u32 i = 0; i < plan_case_count; i++)
		plan_case_run(&check, &plan_cases[i], a, b);
}

static void table_check_cases_hold(void)
{
	struct tplan_tensor t[CASE_MAX_TENSORS];

	for (u32 i = 0; i < table_check_case_count; i++)
		table_check_case_run(&check, &table_check_cases[i], t);
}

static void validate_cases_hold(void)
{
	for (u32 i = 0; i < validate_case_count; i++)
		validate_case_run(&check, &validate_cases[i]);
}

static void bound_cases_hold(void)
{
	for (u32 i = 0; i < bound_case_count; i++)
		bound_case_run(&check, &bound_cases[i]);
}

static void names_hold(void)
{
	names_case_run(&check);
}

static void pins_gaps_hints_hold(void)
{
	constrained_cases_run(&check);
}

static void searching_strategies_keep_to_the_budget(void)
{
	static struct tplan_tensor t[BUDGET_CASE_TENSORS];

	budget_case_run(&check, t);
}

static const struct test_case cases[] = {
	TEST_CASE(plan_cases_hold),
	TEST_CASE(pins_gaps_hints_hold),
	TEST_CASE(table_check_cases_hold),
	TEST_CASE(validate_cases_hold),
	TEST_CASE(bound_cases_hold),
	TEST_CASE(names_hold),
	TEST_CASE(searching_strategies_keep_to_the_budget),
};

TEST_SUITE(cases_suite, "cases", cases);
