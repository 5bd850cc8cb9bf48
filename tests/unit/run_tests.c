// SPDX-License-Identifier: MIT
/*
 * run_tests.c - runs every userspace test suite; the last line is
 * "N passed, N failed".  "run_tests NAME" runs only the suites or tests
 * whose name contains NAME.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

extern const struct test_suite planner_suite;
extern const struct test_suite cases_suite;
extern const struct test_suite property_suite;
extern const struct test_suite csv_suite;
extern const struct test_suite tiers_models_suite;
extern const struct test_suite validate_plan_suite;
extern const struct test_suite spill_suite;
extern const struct test_suite constrained_suite;
extern const struct test_suite minimalloc_suite;
extern const struct test_suite libapi_suite;
extern const struct test_suite device_find_suite;

static const struct test_suite *const suites[] = {
	&planner_suite,
	&cases_suite,
	&property_suite,
	&tiers_models_suite,
	&validate_plan_suite,
	&spill_suite,
	&constrained_suite,
	&csv_suite,
	&minimalloc_suite,
	&libapi_suite,
	&device_find_suite,
};

unsigned int test_failures;
static const char *current_test;

uint64_t test_first_seed(unsigned int rounds)
{
	const char *env = getenv("TPLAN_SEED");
	uint64_t seed = env ? strtoull(env, NULL, 0) : 20261122;

	printf("    seeds %" PRIu64 "..%" PRIu64 " (replay one with TPLAN_SEED=N)\n",
	       seed, seed + rounds - 1);
	return seed;
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stdout, "    %s:%d: %s: CHECK failed: ", file, line, current_test);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	test_failures++;
}

int main(int argc, char **argv)
{
	const char *filter = argc > 1 ? argv[1] : NULL;
	unsigned int passed = 0, failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (size_t s = 0; s < sizeof(suites) / sizeof(suites[0]); s++) {
		const struct test_suite *suite = suites[s];
		int whole = !filter || strstr(suite->name, filter);

		for (unsigned int i = 0; i < suite->count; i++) {
			const struct test_case *tc = &suite->cases[i];

			if (!whole && !strstr(tc->name, filter))
				continue;
			current_test = tc->name;
			test_failures = 0;
			tc->fn();
			printf("%s %s.%s\n", test_failures ? "FAIL" : "ok  ",
			       suite->name, tc->name);
			if (test_failures)
				failed++;
			else
				passed++;
		}
	}
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
