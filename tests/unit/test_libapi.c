// SPDX-License-Identifier: MIT
/*
 * test_libapi.c - libtplan's C API contracts (userspace/libtplan.c): a
 * zeroed struct tplan_options means auto, alignment 0 means 1, planning
 * says why it failed (tplan_table_plan_err(), tplan_table_check()), and
 * the options' version, pad and reserved words are checked, the result's
 * reserved words zeroed.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "libtplan.h"
#include "planner.h"

#define T(i, lo, up, sz) \
	{ .id = (i), .lower = (lo), .upper = (up), .size = (sz), \
	  .alignment = 1 }

/* Three tensors alive one after another: naive needs 3 x 64, auto 64. */
static void chain(struct tplan_tensor *t)
{
	const struct tplan_tensor rows[] = {
		T(1, 0, 2, 64), T(2, 2, 4, 64), T(3, 4, 6, 64),
	};

	memcpy(t, rows, sizeof(rows));
}

static void test_zeroed_options_mean_auto(void)
{
	struct tplan_tensor t[3];
	struct tplan_table table = { .tensors = t, .count = 3 };
	struct tplan_options zero, o = { .strategy = TPLAN_STRATEGY_AUTO };
	struct tplan_result res, want;
	u32 s = 99;

	memset(&zero, 0, sizeof(zero));
	CHECK_EQ(TPLAN_STRATEGY_AUTO, 0);
	CHECK(!strcmp(tplan_strategy_name(0), "auto"));
	CHECK_EQ(tplan_strategy_from_name("auto", &s), 0);
	CHECK_EQ(s, 0);
	chain(t);
	CHECK_EQ(tplan_table_plan(&table, &o, &want), 0);
	chain(t);
	CHECK_EQ(tplan_table_plan(&table, &zero, &res), 0);
	CHECK_EQ(res.strategy, TPLAN_STRATEGY_AUTO);
	CHECK_EQ(res.peak, want.peak);
	CHECK_EQ(res.peak, 64);
	/* naive is still there, by its name */
	o.strategy = TPLAN_STRATEGY_NAIVE;
	CHECK_EQ(tplan_table_plan(&table, &o, &res), 0);
	CHECK_EQ(res.peak, 3 * 64);
}

static void test_alignment_zero_means_one(void)
{
	struct tplan_tensor t[3], ones[3];
	struct tplan_table table = { .tensors = t, .count = 3 };
	struct tplan_table table1 = { .tensors = ones, .count = 3 };
	struct tplan_options o = { .strategy = TPLAN_STRATEGY_GREEDY_SIZE };
	struct tplan_spill_params sp = { .capacity = 1 << 20 };
	struct tplan_piece pieces[8];
	struct tplan_spill_result sres;
	struct tplan_finding f;
	struct tplan_result res, res1;
	struct tplan_error err;
	u32 i;

	chain(t);
	for (i = 0; i < 3; i++) {
		t[i].alignment = 0;
		t[i].lower = 0;		/* all alive together */
		t[i].size = 10 + i;
	}
	memcpy(ones, t, sizeof(t));
	for (i = 0; i < 3; i++)
		ones[i].alignment = 1;
	CHECK_EQ(tplan_table_check(&table, &o, &err), 0);
	CHECK_EQ(tplan_table_plan(&table, &o, &res), 0);
	CHECK_EQ(tplan_table_plan(&table1, &o, &res1), 0);
	CHECK_EQ(res.peak, res1.peak);
	for (i = 0; i < 3; i++) {
		CHECK_EQ(t[i].offset, ones[i].offset);
		CHECK_EQ(t[i].alignment, 0);	/* the caller's table as it was */
	}
	CHECK_EQ(tplan_table_validate(&table, res.peak, &f), 0);
	CHECK_EQ(tplan_table_plan_spill(&table, &sp, pieces, 8, &sres), 0);
	CHECK_EQ(sres.pieces, 3);
	/* the planner itself keeps rejecting 0, as the device's ABI does */
	CHECK_EQ(tplan_plan(t, 3, &o, &res), -EINVAL);
}

/* Reads @csv into a table; NULL on failure (a CHECK says so). */
static struct tplan_table *read_csv(const char *csv)
{
	FILE *in = fmemopen((void *)csv, strlen(csv), "r");
	struct tplan_table *t = NULL;
	struct tplan_error err;

	CHECK(in != NULL);
	if (!in)
		return NULL;
	CHECK_EQ(tplan_table_read(in, "t.csv", &t, &err), 0);
	fclose(in);
	return t;
}

#define CHECK_MSG(err, want) \
	do { \
		if (strcmp((err)->msg, want)) \
			test_fail(__FILE__, __LINE__, \
				  "message \"%s\", expected \"%s\"", \
				  (err)->msg, want); \
	} while (0)

static void test_plan_says_why(void)
{
	struct tplan_tensor t[3];
	struct tplan_table table = { .tensors = t, .count = 3 };
	struct tplan_options o = { .strategy = TPLAN_STRATEGY_GREEDY_SIZE };
	struct tplan_table *named;
	struct tplan_result res;
	struct tplan_error err;

	chain(t);
	memset(&err, 'x', sizeof(err));
	CHECK_EQ(tplan_table_plan_err(&table, &o, &res, &err), 0);
	CHECK_MSG(&err, "");
	memset(&err, 'x', sizeof(err));
	CHECK_EQ(tplan_table_check(&table, &o, &err), 0);
	CHECK_MSG(&err, "");

	t[1].upper = t[1].lower;
	CHECK_EQ(tplan_table_plan(&table, &o, &res), -EINVAL);
	CHECK_EQ(tplan_table_plan_err(&table, &o, &res, &err), -EINVAL);
	CHECK_MSG(&err, "row 2 (id 2): upper is not greater than lower");
	CHECK_EQ(tplan_table_check(&table, &o, &err), -EINVAL);
	CHECK_MSG(&err, "row 2 (id 2): upper is not greater than lower");
	CHECK_EQ(tplan_table_plan_err(&table, &o, &res, NULL), -EINVAL);

	chain(t);
	t[2].id = 1;
	CHECK_EQ(tplan_table_plan_err(&table, &o, &res, &err), -EINVAL);
	CHECK_MSG(&err, "row 1 (id 1) and row 3 (id 1): duplicate id");

	chain(t);
	t[0].alignment = 3;
	CHECK_EQ(tplan_table_plan_err(&table, &o, &res, &err), -EINVAL);
	CHECK_MSG(&err, "row 1 (id 1): alignment is not a power of two");

	chain(t);
	o.strategy = TPLAN_STRATEGY_COUNT;
	CHECK_EQ(tplan_table_plan_err(&table, &o, &res, &err), -EINVAL);
	CHECK_MSG(&err, "options: unknown strategy");
	o.strategy = TPLAN_STRATEGY_GREEDY_SIZE;
	o.flags = 0x80000000u;
	CHECK_EQ(tplan_table_plan_err(&table, &o, &res, &err), -EINVAL);
	CHECK_MSG(&err, "options: unknown flags");
	o.flags = 0;
	o.tier_count = TPLAN_MAX_TIERS + 1;
	CHECK_EQ(tplan_table_plan_err(&table, &o, &res, &err), -EINVAL);
	CHECK(!strncmp(err.msg, "options: invalid tiers", 22));
	o.tier_count = 0;

	o.capacity = 63;
	CHECK_EQ(tplan_table_plan_err(&table, &o, &res, &err), -ENOSPC);
	CHECK_MSG(&err, "does not fit in 63 bytes: peak 64 (lower bound 64)");
	o.capacity = 0;
	o.budget = 1;
	CHECK_EQ(tplan_table_plan_err(&table, &o, &res, &err), -ETIMEDOUT);
	CHECK_MSG(&err, "work budget of 1 units exhausted");

	/* a table read from a file: its ids as written, its models */
	named = read_csv("id,lower,upper,size,tiers,model\n"
			 "in,0,2,8,,0\nout,1,3,8,3,1\n");
	if (!named)
		return;
	o.budget = 0;
	CHECK_EQ(tplan_table_plan_err(named, &o, &res, &err), -EINVAL);
	CHECK_MSG(&err, "row 2 (id 'out' of model 1): tiers allows no tier the plan has");
	tplan_table_free(named);
}

static void test_options_reserved(void)
{
	struct tplan_tensor t[3];
	struct tplan_table table = { .tensors = t, .count = 3 };
	struct tplan_options o;
	struct tplan_result res;
	struct tplan_error err;
	u32 k;

	/* the fields before them keep their places */
	CHECK_EQ(offsetof(struct tplan_options, version), 4);
	CHECK_EQ(offsetof(struct tplan_options, capacity), 8);
	CHECK_EQ(offsetof(struct tplan_options, pad) + 4,
		 offsetof(struct tplan_options, reserved));
	CHECK_EQ(offsetof(struct tplan_result, reserved),
		 offsetof(struct tplan_result, tier_weight) +
		 sizeof(res.tier_weight));

	chain(t);
	memset(&o, 0, sizeof(o));
	o.version = 1;
	CHECK_EQ(tplan_table_plan(&table, &o, &res), -EINVAL);
	CHECK_EQ(tplan_table_plan_err(&table, &o, &res, &err), -EINVAL);
	CHECK_MSG(&err, "options: unknown version (this libtplan knows 0)");
	o.version = 0;
	o.pad = 1;
	CHECK_EQ(tplan_table_plan(&table, &o, &res), -EINVAL);
	o.pad = 0;
	for (k = 0; k < ARRAY_SIZE(o.reserved); k++) {
		o.reserved[k] = 1ull << 40;
		CHECK_EQ(tplan_table_plan(&table, &o, &res), -EINVAL);
		CHECK_EQ(tplan_table_check(&table, &o, &err), -EINVAL);
		CHECK_MSG(&err, "options: non-zero pad or reserved words");
		o.reserved[k] = 0;
	}
	memset(&res, 0xff, sizeof(res));
	CHECK_EQ(tplan_table_plan(&table, &o, &res), 0);
	for (k = 0; k < ARRAY_SIZE(res.reserved); k++)
		CHECK_EQ(res.reserved[k], 0);
}

static const struct test_case libapi_cases[] = {
	TEST_CASE(test_zeroed_options_mean_auto),
	TEST_CASE(test_alignment_zero_means_one),
	TEST_CASE(test_plan_says_why),
	TEST_CASE(test_options_reserved),
};

TEST_SUITE(libapi_suite, "libapi", libapi_cases);
