// SPDX-License-Identifier: MIT
/*
 * test_libapi.c - libtplan's C API contracts (userspace/lib/libtplan.c): a
 * zeroed struct tplan_options means auto, alignment 0 means 1, planning
 * says why it failed (tplan_table_plan_err(), tplan_table_check()), and
 * the options' version, pad and reserved words are checked, the result's
 * reserved words zeroed; the array-level API (tplan_tensors_*()) under
 * the table calls, the names of spill strategies, the record of how a
 * table was planned (tplan_table_record()), tables made of columns
 * (tplan_table_from_columns()); jobs and fences without a
 * device that runs them (tplan_device_job(), tplan_fence_wait()).
 */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

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

/* The record says aliases only with an alias_of column, tiers from two. */
static void test_table_record(void)
{
	struct tplan_tensor t[3];
	struct tplan_table table = { .tensors = t, .count = 3 };
	struct tplan_options o = { .flags = TPLAN_PLAN_ALIASES,
				   .tier_count = 2,
				   .tier_capacity = { 64, 0 } };

	chain(t);
	table.record.flags = ~0u;
	tplan_table_record(&table, &o);
	CHECK_EQ(table.record.flags, TPLAN_RECORD_TIERS);
	CHECK_EQ(table.record.tier_count, 2);
	CHECK_EQ(table.record.tier_capacity[0], 64);
	table.columns = TPLAN_COLUMN_ALIAS_OF;
	o.tier_count = 1;
	tplan_table_record(&table, &o);
	CHECK_EQ(table.record.flags, TPLAN_RECORD_ALIASES);
	CHECK_EQ(table.record.tier_count, 0);
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
	/* the planner reads it so too, as the array calls and the ABI do */
	CHECK_EQ(tplan_plan(t, 3, &o, &res), 0);
	CHECK_EQ(tplan_tensors_plan(t, 3, &o, &res), 0);
	for (i = 0; i < 3; i++)
		CHECK_EQ(t[i].offset, ones[i].offset);
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

/* A CSV's alignment 0 is a table's: read as 1 when planning. */
static void test_csv_alignment_zero(void)
{
	struct tplan_table *t = read_csv("id,lower,upper,size,alignment\n"
					 "0,0,2,4,0\n1,1,3,4,8\n");
	struct tplan_options o = { .strategy = TPLAN_STRATEGY_AUTO };
	struct tplan_result res;

	if (!t)
		return;
	CHECK_EQ(t->tensors[0].alignment, 0);
	CHECK_EQ(tplan_table_plan(t, &o, &res), 0);
	CHECK_EQ(res.peak, 8);
	tplan_table_free(t);
}

/* A table of columns is the table a file of the same rows gives. */
static void test_table_from_columns(void)
{
	static const __u64 lower[] = { 0, 1, 2 }, upper[] = { 2, 3, 4 };
	static const __u64 size[] = { 32, 16, 8 }, align[] = { 0, 8, 1 };
	struct tplan_columns c = { .count = 3, .lower = lower, .upper = upper,
				   .size = size, .alignment = align };
	struct tplan_table *t, *f = read_csv("id,lower,upper,size,alignment\n"
					     "0,0,2,32,0\n1,1,3,16,8\n"
					     "2,2,4,8,1\n");
	struct tplan_error err;
	u32 i;

	CHECK_EQ(tplan_table_from_columns(&c, &t, &err), 0);
	if (!t || !f)
		goto out;
	CHECK_EQ(t->count, f->count);
	CHECK_EQ(t->columns, f->columns);
	for (i = 0; i < t->count && i < f->count; i++)
		CHECK(!memcmp(&t->tensors[i], &f->tensors[i],
			      sizeof(t->tensors[i])));
out:
	tplan_table_free(t);
	tplan_table_free(f);
}

/* Names are copied, written back quoted where needed; ids are row indexes. */
static void test_table_from_columns_names(void)
{
	static const __u64 lower[] = { 0, 1 }, upper[] = { 2, 3 };
	static const __u64 size[] = { 32, 16 };
	const char *names[] = { "a,b", "c" };
	struct tplan_columns c = { .count = 2, .names = names, .lower = lower,
				   .upper = upper, .size = size };
	struct tplan_table *t;
	struct tplan_error err;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	CHECK_EQ(tplan_table_from_columns(&c, &t, &err), 0);
	if (!t)
		return;
	names[0] = "changed";	/* copied, not kept */
	out = open_memstream(&text, &len);
	CHECK(out && !tplan_table_write(t, out));
	if (out)
		fclose(out);
	CHECK(text && !strcmp(text, "id,lower,upper,size,offset\n"
				    "\"a,b\",0,2,32,0\nc,1,3,16,0\n"));
	CHECK_EQ(t->tensors[1].id, 1);
	free(text);
	tplan_table_free(t);
}

/* Each refusal: its errno, its reason, no table. */
static void test_table_from_columns_errors(void)
{
	static const __u64 lower[] = { 0, 1, 2 }, upper[] = { 2, 1, 4 };
	static const __u64 ok_upper[] = { 2, 3, 4 }, size[] = { 8, 8, 8 };
	const char *dup[] = { "a", "b", "a" }, *bad[] = { "a", "b\nc", "d" };
	const struct {
		struct tplan_columns c;
		int ret;
		const char *msg;
	} cases[] = {
		{ { .count = 3, .lower = lower, .upper = ok_upper },
		  -EINVAL, "columns: lower, upper and size are required" },
		{ { .count = 3, .flags = 1, .lower = lower, .upper = ok_upper,
		    .size = size }, -EINVAL, "columns: unknown flags" },
		{ { .count = 3, .lower = lower, .upper = upper, .size = size },
		  -EINVAL, "row 2 (id 1): " },
		{ { .count = 3, .names = dup, .lower = lower,
		    .upper = ok_upper, .size = size },
		  -EINVAL, "row 3: duplicate id 'a' (first in row 1)" },
		{ { .count = 3, .names = bad, .lower = lower,
		    .upper = ok_upper, .size = size },
		  -EINVAL, "row 2: not a name" },
		{ { .count = TPLAN_MAX_TENSORS + 1, .lower = lower,
		    .upper = ok_upper, .size = size }, -E2BIG, "columns: " },
	};
	struct tplan_table *t;
	struct tplan_error err;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		t = (struct tplan_table *)&err;	/* must become NULL */
		CHECK_EQ(tplan_table_from_columns(&cases[i].c, &t, &err),
			 cases[i].ret);
		CHECK(!t);
		CHECK(!strncmp(err.msg, cases[i].msg,
			       strlen(cases[i].msg)));
	}
}

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

/* The array-level API: the planner's calls with the library's checks. */
static void test_tensors_plan_check_bound(void)
{
	struct tplan_tensor t[3], copy[3];
	struct tplan_table table = { .tensors = copy, .count = 3 };
	struct tplan_options o = { .strategy = TPLAN_STRATEGY_AUTO };
	struct tplan_result res, tres;
	struct tplan_finding f;
	u64 bound = 1;

	chain(t);
	memcpy(copy, t, sizeof(t));
	CHECK_EQ(tplan_tensors_check(t, 3, &o, &f), 0);
	CHECK_EQ(f.defect, TPLAN_DEFECT_NONE);
	CHECK_EQ(tplan_tensors_check(t, 3, &o, NULL), 0);
	CHECK_EQ(tplan_tensors_lower_bound(t, 3, &o, &bound), 0);
	CHECK_EQ(bound, 64);
	CHECK_EQ(tplan_tensors_plan(t, 3, &o, &res), 0);
	CHECK_EQ(res.peak, 64);
	CHECK_EQ(res.lower_bound, 64);
	/* the table call is this one on the table's rows */
	CHECK_EQ(tplan_table_plan(&table, &o, &tres), 0);
	CHECK_EQ(tres.peak, res.peak);
	CHECK_EQ(memcmp(t, copy, sizeof(t)), 0);

	/* alignment 0 is read as 1 here too, as in the tables and the ABI */
	t[1].alignment = 0;
	CHECK_EQ(tplan_tensors_check(t, 3, &o, &f), 0);
	CHECK_EQ(tplan_tensors_lower_bound(t, 3, &o, &bound), 0);
	CHECK_EQ(bound, 64);
	CHECK_EQ(tplan_tensors_plan(t, 3, &o, &res), 0);
	CHECK_EQ(res.peak, 64);
	CHECK_EQ(tplan_tensors_validate(t, 3, &o, &f), 0);
	t[1].alignment = 3;
	CHECK_EQ(tplan_tensors_check(t, 3, &o, &f), -EINVAL);
	CHECK_EQ(f.defect, TPLAN_DEFECT_ALIGNMENT);
	CHECK_EQ(f.index, 1);
	CHECK_EQ(tplan_tensors_plan(t, 3, &o, &res), -EINVAL);
	t[1].alignment = 1;

	/* options the library does not know, or the planner rejects */
	o.version = 1;
	CHECK_EQ(tplan_tensors_plan(t, 3, &o, &res), -EINVAL);
	CHECK_EQ(tplan_tensors_check(t, 3, &o, &f), -EINVAL);
	CHECK_EQ(f.defect, TPLAN_DEFECT_NONE);
	CHECK_EQ(tplan_tensors_lower_bound(t, 3, &o, &bound), -EINVAL);
	CHECK_EQ(tplan_tensors_validate(t, 3, &o, &f), -EINVAL);
	o.version = 0;
	o.tier_count = TPLAN_MAX_TIERS + 1;
	CHECK_EQ(tplan_tensors_check(t, 3, &o, &f), -EINVAL);
	CHECK_EQ(f.defect, TPLAN_DEFECT_NONE);
	o.tier_count = 0;
	o.strategy = TPLAN_STRATEGY_COUNT;
	CHECK_EQ(tplan_tensors_check(t, 3, &o, NULL), -EINVAL);
	CHECK_EQ(tplan_tensors_plan(t, 3, &o, &res), -EINVAL);
}

static void test_tensors_validate(void)
{
	struct tplan_tensor t[3];
	struct tplan_options o = { .strategy = TPLAN_STRATEGY_AUTO };
	struct tplan_result res;
	struct tplan_finding f;

	chain(t);
	CHECK_EQ(tplan_tensors_plan(t, 3, &o, &res), 0);
	CHECK_EQ(tplan_tensors_validate(t, 3, &o, &f), 0);
	CHECK_EQ(f.defect, TPLAN_DEFECT_NONE);
	CHECK_EQ(tplan_tensors_validate(t, 3, &o, NULL), 0);
	/* tensor 2 now alive with tensor 1, at the same offset */
	t[1].lower = 1;
	CHECK_EQ(t[0].offset, t[1].offset);
	CHECK_EQ(tplan_tensors_validate(t, 3, &o, &f), -EINVAL);
	CHECK_EQ(f.defect, TPLAN_DEFECT_OVERLAP);
	CHECK_EQ(f.index, 0);
	CHECK_EQ(f.other, 1);
	t[1].lower = 2;
	o.capacity = 63;
	CHECK_EQ(tplan_tensors_validate(t, 3, &o, &f), -EINVAL);
	CHECK_EQ(f.defect, TPLAN_DEFECT_CAPACITY);
}

static void test_tensors_check_gaps(void)
{
	struct tplan_tensor t[3];
	struct tplan_gap g = { .lower = 1, .upper = 2 };
	struct tplan_finding f;

	chain(t);
	CHECK_EQ(tplan_tensors_check_gaps(t, 3, NULL, 0, &f), 0);
	t[2].gap_count = 1;	/* tensor 3 lives in [4, 6): absent at 1 */
	CHECK_EQ(tplan_tensors_check_gaps(t, 3, &g, 1, &f), -EINVAL);
	CHECK_EQ(f.defect, TPLAN_DEFECT_GAP_OUTSIDE);
	CHECK_EQ(f.index, 2);
	g.lower = 4;
	g.upper = 5;
	CHECK_EQ(tplan_tensors_check_gaps(t, 3, &g, 1, &f), 0);
	CHECK_EQ(tplan_tensors_check_gaps(t, 3, &g, 1, NULL), 0);
	g.flags = TPLAN_GAP_WINDOW;
	g.to = 65;		/* a window past the tensor's 64 bytes */
	CHECK_EQ(tplan_tensors_check_gaps(t, 3, &g, 1, &f), -EINVAL);
	CHECK_EQ(f.defect, TPLAN_DEFECT_GAP_WINDOW);
}

/*
 * Tensor 1 is used at 0 and 5 only, so at steps 2 and 3, where tensors 2
 * and 3 need the 128 bytes, it waits in host memory.
 */
static void spill_table(struct tplan_tensor *t, u64 *step, u32 *start)
{
	const struct tplan_tensor rows[] = {
		T(1, 0, 6, 64), T(2, 1, 4, 64), T(3, 2, 4, 64),
	};
	const u64 steps[] = { 0, 5, 1, 3, 2, 3 };
	const u32 starts[] = { 0, 2, 4, 6 };

	memcpy(t, rows, sizeof(rows));
	memcpy(step, steps, sizeof(steps));
	memcpy(start, starts, sizeof(starts));
}

static void test_tensors_spill(void)
{
	struct tplan_tensor t[3];
	u64 step[6];
	u32 start[4], cap, i;
	struct tplan_uses u = { step, start };
	struct tplan_table table = { .tensors = t, .count = 3,
				     .use_step = step, .use_start = start };
	struct tplan_spill_params sp = { .capacity = 128 };
	struct tplan_piece p[16], tp[16];
	struct tplan_spill_result r, tr;
	struct tplan_finding f;

	spill_table(t, step, start);
	CHECK_EQ(tplan_tensors_check_spill(t, 3, &u, &f), 0);
	cap = tplan_tensors_max_pieces(t, 3, &u);
	CHECK_EQ(cap, 6);
	CHECK_EQ(tplan_tensors_max_pieces(t, 3, NULL), 6);
	CHECK_EQ(tplan_tensors_plan_spill(t, 3, &u, &sp, p, cap, &r), 0);
	CHECK(r.pieces > 3);	/* tensor 1 went out and came back */
	CHECK(r.moved >= 128);
	CHECK(r.peak <= 128);
	CHECK_EQ(tplan_tensors_validate_spill(t, 3, &u, p, r.pieces, 128, &f), 0);
	CHECK_EQ(tplan_tensors_validate_spill(t, 3, &u, p, r.pieces, 128, NULL),
		 0);
	/* the table call makes the same pieces */
	CHECK_EQ(tplan_table_plan_spill(&table, &sp, tp, 16, &tr), 0);
	CHECK_EQ(tr.pieces, r.pieces);
	for (i = 0; i < r.pieces && i < 16; i++) {
		CHECK_EQ(tp[i].tensor, p[i].tensor);
		CHECK_EQ(tp[i].offset, p[i].offset);
		CHECK_EQ(tp[i].lower, p[i].lower);
	}
	/* pieces that do not fit in less room */
	CHECK_EQ(tplan_tensors_validate_spill(t, 3, &u, p, r.pieces, 63, &f),
		 -EINVAL);
	CHECK_EQ(f.defect, TPLAN_DEFECT_CAPACITY);
	/* a piece past its tensor's lifetime */
	p[0].upper = 100;
	CHECK_EQ(tplan_tensors_validate_spill(t, 3, &u, p, r.pieces, 128, &f),
		 -EINVAL);
	CHECK(f.defect != TPLAN_DEFECT_NONE);

	/* too little room: the device's errno, and how many are needed */
	CHECK_EQ(tplan_tensors_plan_spill(t, 3, &u, &sp, p, 2, &r), -ENOBUFS);
	CHECK(r.pieces > 2);
	sp.reserved[3] = 1;
	CHECK_EQ(tplan_tensors_plan_spill(t, 3, &u, &sp, p, cap, &r), -EINVAL);
	sp.reserved[3] = 0;
	sp.capacity = 64;
	CHECK_EQ(tplan_tensors_plan_spill(t, 3, &u, &sp, p, cap, &r), -ENOSPC);

	/* kept for the whole run: not a tensor a spill plan may move */
	t[1].share_key = 7;
	CHECK_EQ(tplan_tensors_check_spill(t, 3, &u, &f), -EINVAL);
	CHECK_EQ(f.defect, TPLAN_DEFECT_SPILL_SHARED);
	CHECK_EQ(f.index, 1);
	CHECK_EQ(tplan_tensors_check_spill(t, 3, &u, NULL), -EINVAL);
}

static void test_spill_strategy_names(void)
{
	u32 s = 99, k;

	CHECK(!strcmp(tplan_spill_strategy_name(TPLAN_SPILL_DEFAULT), "default"));
	CHECK(!strcmp(tplan_spill_strategy_name(TPLAN_SPILL_FURTHEST),
		      "furthest"));
	CHECK(!strcmp(tplan_spill_strategy_name(TPLAN_SPILL_GA), "ga"));
	CHECK(!strcmp(tplan_spill_strategy_name(TPLAN_SPILL_COUNT), "unknown"));
	for (k = 0; k < TPLAN_SPILL_COUNT; k++) {
		CHECK_EQ(tplan_spill_strategy_from_name(tplan_spill_strategy_name(k),
							&s), 0);
		CHECK_EQ(s, k);
	}
	s = 99;
	CHECK_EQ(tplan_spill_strategy_from_name("auto", &s), -EINVAL);
	CHECK_EQ(s, 99);
}

/* A job on a node without jobs: -ENOTTY, nothing written back. */
static void test_job_without_jobs(void)
{
	struct tplan_edu_copy c = {
		.src = { .kind = TPLAN_EDU_PLACE_USER },
		.dst = { .kind = TPLAN_EDU_PLACE_USER },
		.size = 1,
	};
	struct tplan_device *dev;
	int fd = -7;

	CHECK_EQ(tplan_device_open("/dev/null", &dev), 0);
	CHECK_EQ(tplan_device_job(dev, &c, 1, 0, &fd), -ENOTTY);
	CHECK_EQ(tplan_device_job(dev, NULL, 0, 0, &fd), -ENOTTY);
	CHECK_EQ(fd, -7);
	tplan_device_close(dev);
}

static void on_alarm(int sig)
{
	(void)sig;
}

static double ms_since(const struct timespec *a)
{
	struct timespec b;

	clock_gettime(CLOCK_MONOTONIC, &b);
	return (b.tv_sec - a->tv_sec) * 1e3 + (b.tv_nsec - a->tv_nsec) / 1e6;
}

/*
 * tplan_fence_wait() on what is not a fence: a bad descriptor, a file that
 * never becomes readable (-ETIME, after the whole timeout even when a
 * signal interrupts the wait), one that does but is no sync_file.
 */
static void test_fence_wait(void)
{
	struct itimerval tick = { .it_value = { .tv_usec = 20000 } };
	struct sigaction sa = { .sa_handler = on_alarm }, old;
	struct timespec start;
	int p[2], closed[2];

	CHECK_EQ(tplan_fence_wait(-1, 0), -EBADF);
	CHECK_EQ(pipe(closed), 0);
	close(closed[0]);
	close(closed[1]);
	CHECK_EQ(tplan_fence_wait(closed[0], 0), -EBADF);

	CHECK_EQ(pipe(p), 0);
	CHECK_EQ(tplan_fence_wait(p[0], 0), -ETIME);
	CHECK_EQ(sigaction(SIGALRM, &sa, &old), 0);
	clock_gettime(CLOCK_MONOTONIC, &start);
	CHECK_EQ(setitimer(ITIMER_REAL, &tick, NULL), 0);
	CHECK_EQ(tplan_fence_wait(p[0], 200), -ETIME);
	CHECK(ms_since(&start) >= 190);
	sigaction(SIGALRM, &old, NULL);

	CHECK_EQ(write(p[1], "x", 1), 1);
	CHECK_EQ(tplan_fence_wait(p[0], -1), -ENOTTY);
	close(p[0]);
	close(p[1]);
}

static const struct test_case libapi_cases[] = {
	TEST_CASE(test_zeroed_options_mean_auto),
	TEST_CASE(test_alignment_zero_means_one),
	TEST_CASE(test_csv_alignment_zero),
	TEST_CASE(test_plan_says_why),
	TEST_CASE(test_table_from_columns),
	TEST_CASE(test_table_from_columns_names),
	TEST_CASE(test_table_from_columns_errors),
	TEST_CASE(test_options_reserved),
	TEST_CASE(test_tensors_plan_check_bound),
	TEST_CASE(test_tensors_validate),
	TEST_CASE(test_tensors_check_gaps),
	TEST_CASE(test_tensors_spill),
	TEST_CASE(test_spill_strategy_names),
	TEST_CASE(test_table_record),
	TEST_CASE(test_job_without_jobs),
	TEST_CASE(test_fence_wait),
};

TEST_SUITE(libapi_suite, "libapi", libapi_cases);
