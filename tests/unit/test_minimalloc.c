// SPDX-License-Identifier: MIT
/*
 * test_minimalloc.c - parity with MiniMalloc's CSV converter: the 17 cases
 * its converter test reads (google/minimalloc, tests/converter_test.cc:
 * FromCsv*, Bogus*, MissingColumn, DuplicateColumn, ExtraFields), each
 * with an input of our own of the same shape, and what tplan writes back
 * that MiniMalloc's reader must take (a hint of -1).
 *
 * Where MiniMalloc accepts, tplan accepts with the same meaning; where it
 * rejects, tplan rejects too, with a message naming the line and column.
 * Gaps that reach outside the lifetime are kept by MiniMalloc and ignored
 * there; tplan cuts them to the lifetime (and drops one left empty).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "libtplan.h"
#include "planner.h"
#include "csv_text.h"

#define NAME "mm.csv"

static int mm_read(const char *s, struct tplan_table **t,
		   struct tplan_error *err)
{
	return csv_text_read(NAME, s, strlen(s), t, err);
}

/* Row @i is (@lower, @upper, @size), its id the name @name or number @id. */
static void mm_row(int line, const struct tplan_table *t, u32 i,
		   const char *name, u64 id, u64 lower, u64 upper, u64 size)
{
	const struct tplan_tensor *x = &t->tensors[i];

	if (i >= t->count) {
		test_fail(__FILE__, line, "no row %u", i);
		return;
	}
	if (name && (!t->names || strcmp(t->names[i], name)))
		test_fail(__FILE__, line, "row %u: name '%s', expected '%s'", i,
			  t->names ? t->names[i] : "(none)", name);
	if (!name && (t->names || x->id != id))
		test_fail(__FILE__, line, "row %u: id %llu, expected %llu", i,
			  x->id, id);
	if (x->lower != lower || x->upper != upper || x->size != size)
		test_fail(__FILE__, line,
			  "row %u: [%llu, %llu) size %llu, expected [%llu, %llu) size %llu",
			  i, x->lower, x->upper, x->size, lower, upper, size);
}

#define ROW(t, i, name, id, lo, up, sz) \
	mm_row(__LINE__, t, i, name, id, lo, up, sz)

/* Gap @k of row @i is [@lower, @upper), with window [@from, @to) if @win. */
static void mm_gap(int line, const struct tplan_table *t, u32 i, u32 k,
		   u64 lower, u64 upper, bool win, u64 from, u64 to)
{
	const struct tplan_tensor *x = &t->tensors[i];
	const struct tplan_gap *g;

	if (k >= x->gap_count || !t->gaps) {
		test_fail(__FILE__, line, "row %u has %u gaps, no gap %u", i,
			  x->gap_count, k);
		return;
	}
	g = &t->gaps[x->gap_first + k];
	if (g->lower != lower || g->upper != upper ||
	    !!(g->flags & TPLAN_GAP_WINDOW) != win ||
	    (win && (g->from != from || g->to != to)))
		test_fail(__FILE__, line,
			  "row %u gap %u: %llu-%llu@%llu:%llu flags %u", i, k,
			  g->lower, g->upper, g->from, g->to, g->flags);
}

#define GAP(t, i, k, lo, up) mm_gap(__LINE__, t, i, k, lo, up, false, 0, 0)
#define WINDOW(t, i, k, lo, up, from, to) \
	mm_gap(__LINE__, t, i, k, lo, up, true, from, to)

/* Reads @csv, which must be rejected with -EINVAL and @what at @where. */
static void mm_reject(int line, const char *csv, const char *where,
		      const char *what)
{
	struct tplan_table *t;
	struct tplan_error err;
	char prefix[64];
	int ret = mm_read(csv, &t, &err);

	if (ret != -EINVAL) {
		test_fail(__FILE__, line, "returned %d, expected -EINVAL", ret);
		tplan_table_free(t);
		return;
	}
	snprintf(prefix, sizeof(prefix), NAME ":%s: ", where);
	if (strncmp(err.msg, prefix, strlen(prefix)) || !strstr(err.msg, what))
		test_fail(__FILE__, line, "message \"%s\", expected \"%s%s\"",
			  err.msg, prefix, what);
}

#define REJECT(csv, where, what) mm_reject(__LINE__, csv, where, what)

/* Plans @t (auto) and checks the plan: the planner takes what was read. */
static void mm_plans(int line, struct tplan_table *t)
{
	struct tplan_options o = { .strategy = TPLAN_STRATEGY_AUTO };
	struct tplan_finding f;
	struct tplan_result res;
	int ret = tplan_table_plan(t, &o, &res);

	if (ret)
		test_fail(__FILE__, line, "tplan_table_plan() returned %d", ret);
	else if (tplan_table_validate(t, 0, &f))
		test_fail(__FILE__, line, "invalid plan: %s",
			  tplan_defect_name(f.defect));
}

#define PLANS(t) mm_plans(__LINE__, t)

/* FromCsvProblemOnly: the four required columns, in any order. */
static void test_mm_problem_only(void)
{
	struct tplan_table *t;
	struct tplan_error err;

	CHECK_EQ(mm_read("size,upper,id,lower\n32,9,4,3\n16,7,8,2\n", &t,
			 &err), 0);
	if (!t)
		return;
	CHECK_EQ(t->count, 2);
	ROW(t, 0, NULL, 4, 3, 9, 32);
	ROW(t, 1, NULL, 8, 2, 7, 16);
	CHECK_EQ(t->columns, 0);
	PLANS(t);
	tplan_table_free(t);
}

/* FromCsvWithAlignment: "begin" for lower, "buffer" for id, alignment. */
static void test_mm_with_alignment(void)
{
	struct tplan_table *t;
	struct tplan_error err;

	CHECK_EQ(mm_read("buffer,begin,upper,size,alignment\n"
			 "0,1,6,24,8\n1,0,4,10,1\n", &t, &err), 0);
	if (!t)
		return;
	ROW(t, 0, NULL, 0, 1, 6, 24);
	ROW(t, 1, NULL, 1, 0, 4, 10);
	CHECK_EQ(t->tensors[0].alignment, 8);
	CHECK_EQ(t->tensors[1].alignment, 1);
	CHECK_EQ(t->columns, TPLAN_COLUMN_ALIGNMENT);
	PLANS(t);
	tplan_table_free(t);
}

/* FromCsvWithHints: a hint of 0 is a hint; -1 is none. */
static void test_mm_with_hints(void)
{
	struct tplan_table *t;
	struct tplan_error err;

	CHECK_EQ(mm_read("begin,size,buffer,upper,alignment,hint\n"
			 "2,12,0,8,4,0\n3,20,1,9,1,-1\n", &t, &err), 0);
	if (!t)
		return;
	ROW(t, 0, NULL, 0, 2, 8, 12);
	ROW(t, 1, NULL, 1, 3, 9, 20);
	CHECK_EQ(t->tensors[0].flags, TPLAN_TENSOR_HINT);
	CHECK_EQ(t->tensors[0].hint, 0);
	CHECK_EQ(t->tensors[1].flags, 0);
	PLANS(t);
	tplan_table_free(t);
}

/* FromCsvWithEmptyGaps: "start", "buffer_id", and gaps left empty. */
static void test_mm_with_empty_gaps(void)
{
	struct tplan_table *t;
	struct tplan_error err;

	CHECK_EQ(mm_read("start,size,buffer_id,upper,alignment,gaps\n"
			 "0,40,7,5,2,\n4,8,3,6,1,\n", &t, &err), 0);
	if (!t)
		return;
	ROW(t, 0, NULL, 7, 0, 5, 40);
	ROW(t, 1, NULL, 3, 4, 6, 8);
	CHECK_EQ(t->tensors[0].gap_count, 0);
	CHECK_EQ(t->tensors[1].gap_count, 0);
	CHECK_EQ(t->gap_count, 0);
	PLANS(t);
	tplan_table_free(t);
}

/*
 * FromCsvWithGaps: a gap followed by a blank; a gap that runs past the
 * lifetime and one wholly after it, with a window (MiniMalloc takes both).
 */
static void test_mm_with_gaps(void)
{
	struct tplan_table *t;
	struct tplan_error err;

	CHECK_EQ(mm_read("start,size,buffer,upper,alignment,gaps\n"
			 "2,30,0,20,2,4-8 \n"
			 "1,12,1,9,1,6-11 13-15@1:10\n", &t, &err), 0);
	if (!t)
		return;
	ROW(t, 0, NULL, 0, 2, 20, 30);
	ROW(t, 1, NULL, 1, 1, 9, 12);
	CHECK_EQ(t->tensors[0].gap_count, 1);
	GAP(t, 0, 0, 4, 8);
	/* 6-11 cut to the lifetime [1, 9); 13-15 is outside it: dropped */
	CHECK_EQ(t->tensors[1].gap_count, 1);
	GAP(t, 1, 0, 6, 9);
	PLANS(t);
	tplan_table_free(t);
	/* the window is inside the size, and a gap may start before lower */
	CHECK_EQ(mm_read("id,lower,upper,size,gaps\n0,5,12,8,2-7@0:4\n", &t,
			 &err), 0);
	if (!t)
		return;
	WINDOW(t, 0, 0, 5, 7, 0, 4);
	PLANS(t);
	tplan_table_free(t);
}

/* FromCsvWithEndColumn: "end" is inclusive, and so are the gaps' ends. */
static void test_mm_with_end_column(void)
{
	struct tplan_table *t;
	struct tplan_error err;

	CHECK_EQ(mm_read("start,size,buffer,end,alignment,gaps\n"
			 "3,16,0,13,4,5-6 \n"
			 "0,8,1,6,1,5-7 9-10\n", &t, &err), 0);
	if (!t)
		return;
	ROW(t, 0, NULL, 0, 3, 14, 16);
	ROW(t, 1, NULL, 1, 0, 7, 8);
	GAP(t, 0, 0, 5, 7);
	/* 5-7 inclusive is [5, 8), cut to [5, 7); 9-10 lies after the end */
	CHECK_EQ(t->tensors[1].gap_count, 1);
	GAP(t, 1, 0, 5, 7);
	PLANS(t);
	tplan_table_free(t);
}

/* FromCsvWithSolution: an offset column gives the tensors' places. */
static void test_mm_with_solution(void)
{
	struct tplan_table *t;
	struct tplan_error err;

	CHECK_EQ(mm_read("lower,size,offset,buffer,upper\n"
			 "0,10,6,0,4\n2,6,0,1,8\n", &t, &err), 0);
	if (!t)
		return;
	ROW(t, 0, NULL, 0, 0, 4, 10);
	ROW(t, 1, NULL, 1, 2, 8, 6);
	CHECK_EQ(t->tensors[0].offset, 6);
	CHECK_EQ(t->tensors[1].offset, 0);
	CHECK_EQ(t->tensors[0].flags, TPLAN_TENSOR_PINNED);
	CHECK_EQ(t->columns, TPLAN_COLUMN_OFFSET);
	PLANS(t);
	/* the offsets were kept: a plan of a solution is that solution */
	CHECK_EQ(t->tensors[0].offset, 6);
	CHECK_EQ(t->tensors[1].offset, 0);
	tplan_table_free(t);
}

/* FromCsvBufferId: "buffer_id" names the id column. */
static void test_mm_buffer_id(void)
{
	struct tplan_table *t;
	struct tplan_error err;

	CHECK_EQ(mm_read("buffer_id,start,upper,size\n5,0,2,64\n6,1,3,32\n",
			 &t, &err), 0);
	if (!t)
		return;
	ROW(t, 0, NULL, 5, 0, 2, 64);
	ROW(t, 1, NULL, 6, 1, 3, 32);
	PLANS(t);
	tplan_table_free(t);
}

/* FromCsvWeirdIDs: numeric ids need not count from 0. */
static void test_mm_weird_ids(void)
{
	struct tplan_table *t;
	struct tplan_error err;

	CHECK_EQ(mm_read("start,size,buffer,upper\n0,4,300,3\n1,4,70,5\n",
			 &t, &err), 0);
	if (!t)
		return;
	ROW(t, 0, NULL, 300, 0, 3, 4);
	ROW(t, 1, NULL, 70, 1, 5, 4);
	PLANS(t);
	tplan_table_free(t);
}

/* FromCsvStringIDs: ids may be names. */
static void test_mm_string_ids(void)
{
	struct tplan_table *t;
	struct tplan_error err;
	char *out;

	CHECK_EQ(mm_read("start,size,buffer,upper\n0,9,Weights,6\n"
			 "2,3,Scratch,4\n", &t, &err), 0);
	if (!t)
		return;
	ROW(t, 0, "Weights", 0, 0, 6, 9);
	ROW(t, 1, "Scratch", 0, 2, 4, 3);
	PLANS(t);
	out = csv_text_write(t);
	CHECK(out && !strncmp(out, "id,lower,upper,size,offset\nWeights,",
			      strlen("id,lower,upper,size,offset\nWeights,")));
	free(out);
	tplan_table_free(t);
}

/* BogusInputs: letters where numbers belong. */
static void test_mm_bogus_inputs(void)
{
	REJECT("start,size,buffer,upper\np,q,r,s\nt,u,v,w\n", "2:1",
	       "column 'start': not a number: 'p'");
}

/* BogusOffsets: an offset that is not a number. */
static void test_mm_bogus_offsets(void)
{
	REJECT("start,size,offset,buffer,upper\n0,8,x,0,4\n1,8,y,1,5\n",
	       "2:5", "column 'offset': not a number: 'x'");
}

/* BogusGaps: a gap with two dashes. */
static void test_mm_bogus_gaps(void)
{
	REJECT("start,size,buffer,upper,gaps\n0,8,0,9,2-4-6\n1,8,1,5,\n",
	       "2:9", "column 'gaps': malformed gap '2-4-6'");
}

/* MoreBogusGaps: a gap whose ends are not numbers. */
static void test_mm_more_bogus_gaps(void)
{
	REJECT("start,size,buffer,upper,gaps\n0,8,0,9,X-Y\n1,8,1,5,\n",
	       "2:9", "column 'gaps': malformed gap 'X-Y'");
}

/* MissingColumn: no id column (MiniMalloc: not found; here -EINVAL). */
static void test_mm_missing_column(void)
{
	REJECT("start,size,upper\n0,8,3\n1,8,4\n", "1:1",
	       "missing column 'id'");
}

/* DuplicateColumn: one name twice. */
static void test_mm_duplicate_column(void)
{
	REJECT("start,size,offset,buffer,upper,upper\n0,8,0,0,3,3\n", "1:32",
	       "duplicate column 'upper'");
}

/* ExtraFields: a row with a field more than the header. */
static void test_mm_extra_fields(void)
{
	REJECT("start,size,offset,buffer,upper\n0,8,0,0,3\n1,8,8,1,4,99\n",
	       "3:11", "expected 5 fields, got 6");
}

/*
 * What tplan writes, MiniMalloc reads: its reader needs a number in every
 * hint field, so a row without a hint is written -1 (ToCsv writes -1 too),
 * and cut gaps are written as cut.
 */
static void test_mm_written_back(void)
{
	struct tplan_table *t, *again;
	struct tplan_error err;
	char *out;

	CHECK_EQ(mm_read("id,lower,upper,size,hint,gaps\n"
			 "0,0,6,8,,1-9\n1,1,4,8,-1,\n2,5,7,8,16,\n", &t, &err),
		 0);
	if (!t)
		return;
	out = csv_text_write(t);
	CHECK(out && !strcmp(out, "id,lower,upper,size,hint,gaps,offset\n"
			     "0,0,6,8,-1,1-6,0\n1,1,4,8,-1,,0\n"
			     "2,5,7,8,16,,0\n"));
	if (out) {
		CHECK_EQ(mm_read(out, &again, &err), 0);
		if (again)
			CHECK_EQ(again->tensors[1].flags & TPLAN_TENSOR_HINT,
				 0);
		tplan_table_free(again);
	}
	free(out);
	tplan_table_free(t);
}

static const struct test_case minimalloc_cases[] = {
	TEST_CASE(test_mm_problem_only),
	TEST_CASE(test_mm_with_alignment),
	TEST_CASE(test_mm_with_hints),
	TEST_CASE(test_mm_with_empty_gaps),
	TEST_CASE(test_mm_with_gaps),
	TEST_CASE(test_mm_with_end_column),
	TEST_CASE(test_mm_with_solution),
	TEST_CASE(test_mm_buffer_id),
	TEST_CASE(test_mm_weird_ids),
	TEST_CASE(test_mm_string_ids),
	TEST_CASE(test_mm_bogus_inputs),
	TEST_CASE(test_mm_bogus_offsets),
	TEST_CASE(test_mm_bogus_gaps),
	TEST_CASE(test_mm_more_bogus_gaps),
	TEST_CASE(test_mm_missing_column),
	TEST_CASE(test_mm_duplicate_column),
	TEST_CASE(test_mm_extra_fields),
	TEST_CASE(test_mm_written_back),
};

TEST_SUITE(minimalloc_suite, "minimalloc", minimalloc_cases);
