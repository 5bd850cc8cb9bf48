/* SPDX-License-Identifier: MIT */
/*
 * harness.h - a tiny unit-test harness: a test passes when none of its
 * CHECKs fails.  run_tests.c runs every suite and prints
 * "N passed, N failed" as its last line.
 */
#ifndef TPLAN_TEST_HARNESS_H
#define TPLAN_TEST_HARNESS_H

#include <inttypes.h>
#include <stdio.h>

struct test_case {
	const char *name;
	void (*fn)(void);
};

struct test_suite {
	const char *name;
	const struct test_case *cases;
	unsigned int count;
};

/* Failed CHECKs in the running test; reset by the runner before each test. */
extern unsigned int test_failures;

void test_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define CHECK(cond)							\
	do {								\
		if (!(cond))						\
			test_fail(__FILE__, __LINE__, "%s", #cond);	\
	} while (0)

#define CHECK_EQ(a, b)							\
	do {								\
		uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);	\
		if (a_ != b_)						\
			test_fail(__FILE__, __LINE__,			\
				  "%s == %s (%" PRIu64 " != %" PRIu64 ")", \
				  #a, #b, a_, b_);			\
	} while (0)

/*
 * The first seed of a property test of @rounds seeds: TPLAN_SEED, or a
 * fixed default; printed so that a failure can be replayed.
 */
uint64_t test_first_seed(unsigned int rounds);

#define TEST_CASE(fn) { #fn, fn }
#define TEST_SUITE(var, label, arr) \
	const struct test_suite var = { label, arr, sizeof(arr) / sizeof(arr[0]) }

#endif /* TPLAN_TEST_HARNESS_H */
