// SPDX-License-Identifier: MIT
/*
 * test_csv.c - the CSV table reader and writer (userspace/lib/table_csv_*.c).
 *
 * Everything runs on in-memory streams (fmemopen, open_memstream), so the
 * tests need no files and no particular working directory.  What repeats
 * is a table of cases, each named, run by one loop: tables that read
 * (read_cases: a row's values), that must not read (the *_errors tables:
 * the errno, where the message points, what it says), that are written
 * (write_cases) and that round-trip (round_trips, exact_round_trips).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "libtplan.h"
#include "planner.h"
#include "csv_text.h"

#define NAME "t.csv"
#define HDR "id,lower,upper,size\n"

static int read_buf(const char *buf, size_t len, struct tplan_table **t,
		    struct tplan_error *err)
{
	return csv_text_read(NAME, buf, len, t, err);
}

static int read_str(const char *s, struct tplan_table **t,
		    struct tplan_error *err)
{
	return read_buf(s, strlen(s), t, err);
}

/*
 * Reads @len bytes of @buf and expects failure @want with a message that
 * starts with NAME:@where: (NAME: when @where is NULL) and contains @what.
 * A failure names the case: @name.
 */
static void expect_error(const char *name, const char *buf, size_t len,
			 int want, const char *where, const char *what)
{
	struct tplan_table *t = (struct tplan_table *)&t;
	struct tplan_error err;
	char prefix[64];
	int ret;

	memset(&err, 'x', sizeof(err));
	ret = read_buf(buf, len, &t, &err);
	if (ret != want)
		test_fail(__FILE__, __LINE__,
			  "%s: returned %d, expected %d (%s)", name, ret, want,
			  ret ? err.msg : "no error");
	if (t) {
		test_fail(__FILE__, __LINE__,
			  "%s: table not NULL after failure", name);
		tplan_table_free(t);
	}
	if (!memchr(err.msg, '\0', sizeof(err.msg))) {
		test_fail(__FILE__, __LINE__, "%s: message not terminated",
			  name);
		return;
	}
	if (where)
		snprintf(prefix, sizeof(prefix), NAME ":%s: ", where);
	else
		snprintf(prefix, sizeof(prefix), NAME ": ");
	if (strncmp(err.msg, prefix, strlen(prefix)))
		test_fail(__FILE__, __LINE__,
			  "%s: message \"%s\" does not start with \"%s\"",
			  name, err.msg, prefix);
	if (!strstr(err.msg, what))
		test_fail(__FILE__, __LINE__, "%s: message \"%s\" lacks \"%s\"",
			  name, err.msg, what);
}

/* A table that must not read, and what the reader says about it. */
struct error_case {
	const char *name;
	const char *csv;
	int err;		/* the negative errno returned */
	const char *where;	/* "LINE:COL" after "t.csv:"; NULL for none */
	const char *what;	/* words the message contains */
};

static void expect_errors(const struct error_case *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		expect_error(c[i].name, c[i].csv, strlen(c[i].csv), c[i].err,
			     c[i].where, c[i].what);
}

#define EXPECT_ERRORS(cases) expect_errors(cases, ARRAY_SIZE(cases))

/*
 * The writer writes every offset, so what was not pinned reads back
 * pinned where it was; the rest must match.
 */
static bool same_tensor(const struct tplan_tensor *a,
			const struct tplan_tensor *b)
{
	return a->id == b->id && a->lower == b->lower &&
	       a->upper == b->upper && a->size == b->size &&
	       a->alignment == b->alignment && a->alias_of == b->alias_of &&
	       a->offset == b->offset &&
	       (a->flags | TPLAN_TENSOR_PINNED) ==
	       (b->flags | TPLAN_TENSOR_PINNED) &&
	       a->pad == b->pad && a->alias_offset == b->alias_offset &&
	       a->hint == b->hint && a->gap_count == b->gap_count &&
	       a->gap_first == b->gap_first;
}

static bool same_tensors(const struct tplan_table *a,
			 const struct tplan_table *b)
{
	u32 i;

	if (!a || !b || a->count != b->count)
		return false;
	for (i = 0; i < a->count; i++)
		if (!same_tensor(&a->tensors[i], &b->tensors[i]))
			return false;
	return true;
}

/* The gaps and the unknown columns, read back, are what was read. */
static bool same_extras(const struct tplan_table *a,
			const struct tplan_table *b)
{
	u32 i;

	if (a->gap_count != b->gap_count || !a->extra_header != !b->extra_header ||
	    (a->gap_count && memcmp(a->gaps, b->gaps,
				    a->gap_count * sizeof(*a->gaps))))
		return false;
	if (!a->extra_header)
		return true;
	if (strcmp(a->extra_header, b->extra_header))
		return false;
	for (i = 0; i < a->count; i++)
		if (strcmp(a->extra[i], b->extra[i]))
			return false;
	return true;
}

static bool tensor_is(const struct tplan_tensor *t, u64 id, u64 lower,
		      u64 upper, u64 size)
{
	return t->id == id && t->lower == lower && t->upper == upper &&
	       t->size == size;
}

static void check_tensor(int line, const struct tplan_tensor *t, u64 id,
			 u64 lower, u64 upper, u64 size)
{
	if (!tensor_is(t, id, lower, upper, size))
		test_fail(__FILE__, line,
			  "tensor %llu,%llu,%llu,%llu"
			  " != %llu,%llu,%llu,%llu",
			  t->id, t->lower, t->upper, t->size,
			  id, lower, upper, size);
}

#define CHECK_TENSOR(t, id, lo, up, sz) \
	check_tensor(__LINE__, t, id, lo, up, sz)


/* ---- tables that read ---- */

static void test_basic(void)
{
	struct tplan_table *t;
	struct tplan_error err;

	CHECK_EQ(read_str(HDR "0,0,3,4\n1,3,9,8\n", &t, &err), 0);
	if (!t)
		return;
	CHECK_EQ(t->count, 2);
	CHECK_EQ(t->columns, 0);
	CHECK(t->names == NULL);
	CHECK_TENSOR(&t->tensors[0], 0, 0, 3, 4);
	CHECK_TENSOR(&t->tensors[1], 1, 3, 9, 8);
	CHECK_EQ(t->tensors[1].alignment, 1);
	CHECK_EQ(t->tensors[1].flags, 0);
	CHECK_EQ(t->tensors[1].alias_of, 0);
	CHECK_EQ(t->tensors[1].offset, 0);
	CHECK_EQ(t->tensors[1].pad, 0);
	tplan_table_free(t);
}

/* A table that reads: how many rows, and the values of one of them. */
struct read_case {
	const char *name;
	const char *csv;
	u32 count;
	u32 row;		/* the row checked */
	u64 id, lower, upper, size;
};

#define END_INCLUSIVE "id,start,end,size\n0,0,3,4\n1,4,4,2\n"
#define EXTREME_VALUES \
	HDR "18446744073709551615,0,18446744073709551615," \
	"18446744073709551615\n0,00,1,0\n"

static const struct read_case read_cases[] = {
	{ "columns_any_order", "size,upper,id,lower\n4,3,10,1\n",
	  1, 0, 10, 1, 3, 4 },
	{ "synonyms_buffer_start", "buffer,start,upper,size\n5,2,7,1\n",
	  1, 0, 5, 2, 7, 1 },
	/* column names in any case */
	{ "header_any_case", "ID,Lower,UPPER,Size\n5,2,7,1\n",
	  1, 0, 5, 2, 7, 1 },
	{ "synonyms_buffer_id_begin", "buffer_id,begin,upper,size\n5,2,7,1\n",
	  1, 0, 5, 2, 7, 1 },
	{ "end_is_inclusive", END_INCLUSIVE, 2, 0, 0, 0, 4, 4 },
	/* a one-step lifetime: end == start */
	{ "end_is_inclusive_one_step", END_INCLUSIVE, 2, 1, 1, 4, 5, 2 },
	{ "blank_lines_skipped",
	  "\n  \n\r\n" HDR "\n0,0,3,4\n\t\n\n1,0,3,4\n\n\n",
	  2, 1, 1, 0, 3, 4 },
	{ "no_trailing_newline", HDR "0,0,3,4\n1,2,3,5", 2, 1, 1, 2, 3, 5 },
	{ "no_trailing_newline_cr", HDR "0,0,3,4\r", 1, 0, 0, 0, 3, 4 },
	{ "spaces_trimmed", " id , lower,upper\t,size \n 3 ,\t1, 2 ,0 \n",
	  1, 0, 3, 1, 2, 0 },
	{ "bom_ignored", "\xef\xbb\xbf" HDR "0,0,3,4\n", 1, 0, 0, 0, 3, 4 },
	{ "extreme_values", EXTREME_VALUES,
	  2, 0, UINT64_MAX, 0, UINT64_MAX, UINT64_MAX },
	/* zero-size tensors are legal */
	{ "extreme_values_zero_size", EXTREME_VALUES, 2, 1, 0, 0, 1, 0 },
	{ "end_max_fits", "id,lower,end,size\n0,0,18446744073709551614,1\n",
	  1, 0, 0, 0, UINT64_MAX, 1 },
};

static void test_read_values(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(read_cases); i++) {
		const struct read_case *c = &read_cases[i];
		const struct tplan_tensor *r;
		struct tplan_table *t;
		struct tplan_error err;
		int ret = read_str(c->csv, &t, &err);

		if (ret || !t) {
			test_fail(__FILE__, __LINE__, "%s: returned %d (%s)",
				  c->name, ret, ret ? err.msg : "no table");
			continue;
		}
		if (t->count != c->count)
			test_fail(__FILE__, __LINE__,
				  "%s: %u rows, expected %u", c->name,
				  t->count, c->count);
		r = c->row < t->count ? &t->tensors[c->row] : NULL;
		if (r && !tensor_is(r, c->id, c->lower, c->upper, c->size))
			test_fail(__FILE__, __LINE__,
				  "%s: row %u is %llu,%llu,%llu,%llu"
				  " != %llu,%llu,%llu,%llu", c->name, c->row,
				  r->id, r->lower, r->upper, r->size,
				  c->id, c->lower, c->upper, c->size);
		tplan_table_free(t);
	}
}

static void test_alignment_column(void)
{
	struct tplan_table *t;
	struct tplan_error err;

	CHECK_EQ(read_str("id,lower,upper,size,alignment\n"
			  "0,0,1,4,64\n1,0,1,4,\n2,0,1,4, 1 \n", &t, &err), 0);
	if (!t)
		return;
	CHECK_EQ(t->columns, TPLAN_COLUMN_ALIGNMENT);
	CHECK_EQ(t->tensors[0].alignment, 64);
	CHECK_EQ(t->tensors[1].alignment, 1);
	CHECK_EQ(t->tensors[2].alignment, 1);
	tplan_table_free(t);
}

static void test_alias_of_column(void)
{
	struct tplan_table *t;
	struct tplan_error err;

	/* the shape of bench/real tables: empty alias_of as the last field */
	CHECK_EQ(read_str("id,lower,upper,size,alias_of\n"
			  "0,0,2,602112,\n1,1,3,1204224,\n2,2,6,1204224,1\n"
			  "3,5,7,1204224,0\n", &t, &err), 0);
	if (!t)
		return;
	CHECK_EQ(t->columns, TPLAN_COLUMN_ALIAS_OF);
	CHECK_EQ(t->tensors[0].flags, 0);
	CHECK_EQ(t->tensors[1].flags, 0);
	CHECK_EQ(t->tensors[2].flags, TPLAN_TENSOR_ALIAS);
	CHECK_EQ(t->tensors[2].alias_of, 1);
	/* alias of id 0 is still an alias */
	CHECK_EQ(t->tensors[3].flags, TPLAN_TENSOR_ALIAS);
	CHECK_EQ(t->tensors[3].alias_of, 0);
	tplan_table_free(t);
}

static void test_offset_column(void)
{
	struct tplan_table *t;
	struct tplan_error err;

	CHECK_EQ(read_str("id,lower,upper,size,offset\n0,0,1,4,16\n1,0,1,4,0\n",
			  &t, &err), 0);
	if (!t)
		return;
	CHECK_EQ(t->columns, TPLAN_COLUMN_OFFSET);
	CHECK_EQ(t->tensors[0].offset, 16);
	CHECK_EQ(t->tensors[1].offset, 0);
	tplan_table_free(t);
}

#define AO_HDR "id,lower,upper,size,alias_of,alias_offset\n"

static void test_alias_offset_column(void)
{
	struct tplan_table *t;
	struct tplan_error err;

	/* a concat: two inputs inside the bytes of their output */
	CHECK_EQ(read_str(AO_HDR "0,0,4,16,,\n1,1,2,8,0,0\n2,1,2,8,0, 8 \n"
			  "3,2,3,16,0,\n4,3,4,1,0,18446744073709551615\n"
			  "5,0,1,4,,0\n", &t, &err), 0);
	if (!t)
		return;
	CHECK_EQ(t->columns, TPLAN_COLUMN_ALIAS_OF | TPLAN_COLUMN_ALIAS_OFFSET);
	CHECK_EQ(t->tensors[0].alias_offset, 0);
	CHECK_EQ(t->tensors[1].alias_offset, 0);
	CHECK_EQ(t->tensors[2].flags, TPLAN_TENSOR_ALIAS);
	CHECK_EQ(t->tensors[2].alias_of, 0);
	CHECK_EQ(t->tensors[2].alias_offset, 8);
	/* empty means 0 */
	CHECK_EQ(t->tensors[3].flags, TPLAN_TENSOR_ALIAS);
	CHECK_EQ(t->tensors[3].alias_offset, 0);
	CHECK_EQ(t->tensors[4].alias_offset, UINT64_MAX);
	/* 0 without an alias is what an empty field means: fine */
	CHECK_EQ(t->tensors[5].flags, 0);
	CHECK_EQ(t->tensors[5].alias_offset, 0);
	tplan_table_free(t);
}

static void test_alias_offset_column_first(void)
{
	struct tplan_table *t;
	struct tplan_error err;

	/* before alias_of in the header, still checked against it */
	CHECK_EQ(read_str("alias_offset,id,lower,upper,size,alias_of,offset\n"
			  ",0,0,2,16,,0\n4,1,0,2,4,0,4\n", &t, &err), 0);
	if (!t)
		return;
	CHECK_EQ(t->columns, TPLAN_COLUMN_ALIAS_OF | TPLAN_COLUMN_ALIAS_OFFSET |
		 TPLAN_COLUMN_OFFSET);
	CHECK_EQ(t->tensors[0].alias_offset, 0);
	CHECK_EQ(t->tensors[1].alias_offset, 4);
	CHECK_EQ(t->tensors[1].offset, 4);
	tplan_table_free(t);
}

static void test_named_alias_offset(void)
{
	struct tplan_table *t;
	struct tplan_error err;

	CHECK_EQ(read_str(AO_HDR "cat,0,3,16,,\na,0,1,8,cat,0\nb,0,1,8,cat,8\n"
			  "r,3,4,16,cat,\n", &t, &err), 0);
	if (!t)
		return;
	CHECK(t->names != NULL);
	CHECK_EQ(t->columns, TPLAN_COLUMN_ALIAS_OF | TPLAN_COLUMN_ALIAS_OFFSET);
	CHECK_EQ(t->tensors[0].alias_offset, 0);
	CHECK_EQ(t->tensors[1].alias_of, 0);
	CHECK_EQ(t->tensors[1].alias_offset, 0);
	CHECK_EQ(t->tensors[2].alias_of, 0);
	CHECK_EQ(t->tensors[2].alias_offset, 8);
	CHECK_EQ(t->tensors[3].flags, TPLAN_TENSOR_ALIAS);
	CHECK_EQ(t->tensors[3].alias_offset, 0);
	tplan_table_free(t);
}

static void test_all_columns(void)
{
	struct tplan_table *t;
	struct tplan_error err;

	CHECK_EQ(read_str("offset,alias_of,alignment,size,upper,lower,id\n"
			  "8,3,2,4,9,1,7\n", &t, &err), 0);
	if (!t)
		return;
	CHECK_EQ(t->columns, TPLAN_COLUMN_ALIGNMENT | TPLAN_COLUMN_ALIAS_OF |
		 TPLAN_COLUMN_OFFSET);
	CHECK_TENSOR(&t->tensors[0], 7, 1, 9, 4);
	CHECK_EQ(t->tensors[0].alignment, 2);
	CHECK_EQ(t->tensors[0].alias_of, 3);
	CHECK_EQ(t->tensors[0].flags, TPLAN_TENSOR_ALIAS | TPLAN_TENSOR_PINNED);
	CHECK_EQ(t->tensors[0].offset, 8);
	tplan_table_free(t);
}

/* The tier and model columns read, default and write back. */
static void test_tier_model_columns(void)
{
	static const char csv[] =
		"id,lower,upper,size,model,priority,tiers,share_key,tier,offset\n"
		"w,0,4,16,0,3,01,7,1,0\n"
		"x,1,2,8,,,,,0,16\n"
		"w,0,4,16,1,9,2,7,1,0\n";
	struct tplan_table *t;
	struct tplan_error err;
	char *out;

	CHECK_EQ(read_str(csv, &t, &err), 0);
	if (!t)
		return;
	CHECK_EQ(t->columns, TPLAN_COLUMN_MODEL | TPLAN_COLUMN_PRIORITY |
		 TPLAN_COLUMN_TIERS | TPLAN_COLUMN_SHARE_KEY | TPLAN_COLUMN_TIER |
		 TPLAN_COLUMN_OFFSET);
	/* "w" twice is fine: names are per model */
	CHECK_EQ(t->tensors[0].id, 0);
	CHECK_EQ(t->tensors[2].id, 2);
	CHECK_EQ(t->tensors[2].model, 1);
	CHECK_EQ(t->tensors[0].priority, 3);
	CHECK_EQ(t->tensors[1].priority, TPLAN_DEFAULT_PRIORITY);
	CHECK_EQ(t->tensors[0].tiers, 3);
	CHECK_EQ(t->tensors[1].tiers, 0);
	CHECK_EQ(t->tensors[2].tiers, 4);
	CHECK_EQ(t->tensors[0].share_key, 7);
	CHECK_EQ(t->tensors[1].share_key, 0);
	CHECK_EQ(t->tensors[0].tier, 1);
	out = csv_text_write(t);
	CHECK(out && !strcmp(out,
		"id,lower,upper,size,model,priority,tiers,share_key,tier,offset\n"
		"w,0,4,16,0,3,01,7,1,0\n"
		"x,1,2,8,0,1,,0,0,16\n"
		"w,0,4,16,1,9,2,7,1,0\n"));
	free(out);
	tplan_table_free(t);
}

/* Columns we do not know are kept as text, in order, and written back. */
static void test_unknown_columns_kept(void)
{
	struct tplan_table *t;
	struct tplan_error err;
	char *out;

	CHECK_EQ(read_str("note,id,lower,upper,size,Sizes, x y \n"
			  "a b@c:d,0,0,5,4,-1,1-2\n,1,0,5,8,,\n",
			  &t, &err), 0);
	if (!t)
		return;
	CHECK_EQ(t->count, 2);
	CHECK_EQ(t->columns, 0);
	CHECK_TENSOR(&t->tensors[0], 0, 0, 5, 4);
	CHECK_TENSOR(&t->tensors[1], 1, 0, 5, 8);
	CHECK(t->extra_header && !strcmp(t->extra_header, "note,Sizes,x y"));
	CHECK(t->extra && !strcmp(t->extra[0], "a b@c:d,-1,1-2") &&
	      !strcmp(t->extra[1], ",,"));
	out = csv_text_write(t);
	CHECK(out && !strcmp(out, "id,lower,upper,size,note,Sizes,x y,offset\n"
			     "0,0,5,4,a b@c:d,-1,1-2,0\n1,0,5,8,,,,0\n"));
	free(out);
	tplan_table_free(t);
}

/* MiniMalloc's offset, hint and gaps columns: read, kept, written back. */
static void test_pins_hints_gaps(void)
{
	static const char csv[] =
		"id,lower,upper,size,gaps,hint,offset\n"
		"a,0,10,8,2-5 6-8@0:4,,\n"
		"b,0,10,8,,16,-1\n"
		"c,3,5,8,  ,-1,24\n";
	struct tplan_table *t;
	struct tplan_error err;
	char *out;

	CHECK_EQ(read_str(csv, &t, &err), 0);
	if (!t)
		return;
	CHECK_EQ(t->columns, TPLAN_COLUMN_GAPS | TPLAN_COLUMN_HINT |
		 TPLAN_COLUMN_OFFSET);
	CHECK_EQ(t->tensors[0].flags, 0);
	CHECK_EQ(t->tensors[1].flags, TPLAN_TENSOR_HINT);
	CHECK_EQ(t->tensors[1].hint, 16);
	CHECK_EQ(t->tensors[2].flags, TPLAN_TENSOR_PINNED);
	CHECK_EQ(t->tensors[2].offset, 24);
	CHECK_EQ(t->gap_count, 2);
	CHECK_EQ(t->tensors[0].gap_first, 0);
	CHECK_EQ(t->tensors[0].gap_count, 2);
	CHECK_EQ(t->tensors[1].gap_count, 0);
	if (t->gaps && t->gap_count == 2) {
		CHECK_EQ(t->gaps[0].lower, 2);
		CHECK_EQ(t->gaps[0].upper, 5);
		CHECK_EQ(t->gaps[0].flags, 0);
		CHECK_EQ(t->gaps[1].lower, 6);
		CHECK_EQ(t->gaps[1].upper, 8);
		CHECK_EQ(t->gaps[1].flags, TPLAN_GAP_WINDOW);
		CHECK_EQ(t->gaps[1].from, 0);
		CHECK_EQ(t->gaps[1].to, 4);
	}
	out = csv_text_write(t);
	/* no hint is written -1, as MiniMalloc writes it */
	CHECK(out && !strcmp(out, "id,lower,upper,size,hint,gaps,offset\n"
			     "a,0,10,8,-1,2-5 6-8@0:4,0\n"
			     "b,0,10,8,16,,0\n"
			     "c,3,5,8,-1,,24\n"));
	free(out);
	tplan_table_free(t);
}

/* With an "end" column a gap's end is inclusive too, as in MiniMalloc. */
static void test_gaps_end_inclusive(void)
{
	struct tplan_table *t;
	struct tplan_error err;

	CHECK_EQ(read_str("id,start,end,size,gaps\n0,0,9,8,2-4\n", &t, &err),
		 0);
	if (!t)
		return;
	CHECK_EQ(t->tensors[0].upper, 10);
	CHECK(t->gaps && t->gaps[0].lower == 2 && t->gaps[0].upper == 5);
	tplan_table_free(t);
	/* past the lifetime: cut to it, as MiniMalloc ignores that part */
	CHECK_EQ(read_str("id,start,end,size,gaps\n0,0,9,8,2-10\n", &t, &err),
		 0);
	if (!t)
		return;
	CHECK(t->gaps && t->gaps[0].lower == 2 && t->gaps[0].upper == 10);
	tplan_table_free(t);
}

/* MiniMalloc's columns: what is wrong in a gap, a hint or an offset. */
static const struct error_case minimalloc_errors[] = {
	{ "gap_empty", "id,lower,upper,size,gaps\n0,0,10,8,5-3\n", -EINVAL,
	  "2:10", "gap '5-3' is empty" },
	{ "gap_overlaps", "id,lower,upper,size,gaps\n0,0,10,8,1-4 3-5\n",
	  -EINVAL, "2:14", "gap '3-5' begins before the gap before it ends" },
	{ "gap_window_reversed", "id,lower,upper,size,gaps\n0,0,10,8,1-4@5:3\n",
	  -EINVAL, "2:10", "gap '1-4@5:3' has a reversed window" },
	{ "gap_window_past_size",
	  "id,lower,upper,size,gaps\n0,0,10,8,1-4@0:9\n", -EINVAL,
	  "2:10", "gap '1-4@0:9' has a window beyond the size" },
	{ "hint_not_a_number", "id,lower,upper,size,hint\n0,0,10,8,x\n",
	  -EINVAL, "2:10", "column 'hint': not a number: 'x'" },
	{ "offset_negative", "id,lower,upper,size,offset\n0,0,10,8,-2\n",
	  -EINVAL, "2:10", "column 'offset': negative value '-2'" },
	{ "offset_not_a_number", "id,lower,upper,size,offset\n0,0,10,8,1.5\n",
	  -EINVAL, "2:10", "column 'offset': not a number: '1.5'" },
};

/*
 * MiniMalloc's converter cases: what it rejects in a gap is rejected,
 * with the line and column of the gap.
 */
static void test_err_gaps(void)
{
	static const char *const bad[] = {
		"1-2-3", "A-B", "1-", "-2", "1", "-1-2", "1-2@", "1-2@3",
		"1-2@3:", "1-2@:4", "1-2@3:4:5", "1-2@3:4@5", "1-2@a:4",
		"+1-2", "1 -2", "99999999999999999999-1",
	};
	char csv[128];
	u32 i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(csv, sizeof(csv), "id,lower,upper,size,gaps\n"
			 "0,0,10,8,1-2 %s\n", bad[i]);
		expect_error(bad[i], csv, strlen(csv), -EINVAL, "2:14",
			     "column 'gaps': malformed gap");
	}
	EXPECT_ERRORS(minimalloc_errors);
}

static void test_crlf_equals_lf(void)
{
	struct tplan_table *a, *b;
	struct tplan_error err;

	CHECK_EQ(read_str("id,lower,upper,size,alias_of\n0,0,3,4,\n1,1,5,8,0\n",
			  &a, &err), 0);
	CHECK_EQ(read_str("id,lower,upper,size,alias_of\r\n0,0,3,4,\r\n"
			  "1,1,5,8,0\r\n", &b, &err), 0);
	CHECK(same_tensors(a, b));
	if (a && b)
		CHECK_EQ(a->columns, b->columns);
	tplan_table_free(a);
	tplan_table_free(b);
}

/* Builds HDR-style row "0,0,1,1,<pad>" of exactly @len bytes plus @end. */
static char *long_row_table(size_t len, const char *end)
{
	const char *head = "id,lower,upper,size,pad\n0,0,1,1,";
	size_t hl = strlen(head), row = strlen("0,0,1,1,");
	char *buf = malloc(hl + len + strlen(end) + 1);

	if (!buf)
		return NULL;
	memcpy(buf, head, hl);
	memset(buf + hl, 'p', len - row);
	strcpy(buf + hl + len - row, end);
	return buf;
}

static void test_longest_line_accepted(void)
{
	struct tplan_table *t;
	struct tplan_error err;
	char *buf;

	buf = long_row_table(TPLAN_MAX_LINE, "\n");
	CHECK(buf != NULL);
	if (!buf)
		return;
	CHECK_EQ(read_str(buf, &t, &err), 0);
	tplan_table_free(t);
	free(buf);
	/* the CR of a CRLF does not count */
	buf = long_row_table(TPLAN_MAX_LINE, "\r\n");
	if (!buf)
		return;
	CHECK_EQ(read_str(buf, &t, &err), 0);
	tplan_table_free(t);
	free(buf);
}

static void test_many_rows(void)
{
	struct tplan_table *t;
	struct tplan_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	u32 i;

	CHECK(out != NULL);
	if (!out)
		return;
	fputs(HDR, out);
	for (i = 0; i < 10000; i++)
		fprintf(out, "%u,%u,%u,%u\n", i, i, i + 3, i % 7);
	fclose(out);
	CHECK_EQ(read_str(buf, &t, &err), 0);
	free(buf);
	if (!t)
		return;
	CHECK_EQ(t->count, 10000);
	CHECK_TENSOR(&t->tensors[9999], 9999, 9999, 10002, 9999 % 7);
	tplan_table_free(t);
}

static void test_null_err_allowed(void)
{
	struct tplan_table *t;
	FILE *in = fmemopen((void *)"id\n", 3, "r");

	CHECK(in != NULL);
	if (!in)
		return;
	CHECK_EQ(tplan_table_read(in, NAME, &t, NULL), -EINVAL);
	CHECK(t == NULL);
	fclose(in);
}

/* ---- header errors ---- */

static const struct error_case header_errors[] = {
	{ "empty_file", "", -EINVAL, NULL, "empty file" },
	{ "empty_file_blank_lines", "\n\r\n  \n", -EINVAL, NULL, "empty file" },
	{ "no_tensors", HDR, -EINVAL, NULL, "no tensors" },
	{ "no_tensors_no_newline", "id,lower,upper,size", -EINVAL, NULL,
	  "no tensors" },
	{ "no_tensors_blank_lines", HDR "\n\n", -EINVAL, NULL, "no tensors" },
	{ "missing_header", "0,0,3,4\n1,0,3,4\n", -EINVAL, "1:1",
	  "missing header line (expected id,lower,upper,size)" },
	{ "missing_header_blanks", "\n 7,0,3,4\n", -EINVAL, "2:2",
	  "missing header line" },
	{ "missing_upper", "id,lower,size\n0,0,4\n", -EINVAL, "1:1",
	  "missing column 'upper'" },
	{ "missing_size", "id,lower,upper\n0,0,4\n", -EINVAL, "1:1",
	  "missing column 'size'" },
	{ "missing_id", "lower,upper,size\n0,4,1\n", -EINVAL, "1:1",
	  "missing column 'id'" },
	{ "missing_lower", "id,upper,size\n0,4,1\n", -EINVAL, "1:1",
	  "missing column 'lower'" },
	/* names are case-insensitive: ID is id, so twice is a duplicate */
	{ "header_case_duplicate", "ID,lower,upper,size,id\n0,0,3,4,0\n",
	  -EINVAL, "1:21", "duplicate column 'id'" },
	{ "header_semicolons", "id;lower;upper;size\n0;0;3;4\n", -EINVAL,
	  "1:1", "no comma in the header line: fields are separated by ',' (this line has ';')" },
	{ "duplicate_column", "id,lower,upper,size,lower\n0,0,3,4,0\n",
	  -EINVAL, "1:21", "duplicate column 'lower'" },
	/* even an unknown one */
	{ "duplicate_unknown_column", "id,x,lower,upper,size,x\n0,0,0,3,4,0\n",
	  -EINVAL, "1:23", "duplicate column 'x'" },
	{ "duplicate_synonym_start", "id,lower,upper,size,start\n0,0,3,4,0\n",
	  -EINVAL, "1:21", "duplicate column 'start' (same as 'lower')" },
	{ "duplicate_synonym_upper", "id,lower,end,upper,size\n0,0,3,4,0\n",
	  -EINVAL, "1:14", "duplicate column 'upper' (same as 'end')" },
	{ "duplicate_synonym_buffer_id",
	  "buffer,lower,upper,size,buffer_id\n0,0,3,4,0\n", -EINVAL, "1:25",
	  "duplicate column" },
	{ "empty_column_name", "id,lower,,upper,size\n0,0,,3,4\n", -EINVAL,
	  "1:10", "empty column name" },
	{ "empty_column_name_row", HDR "x\n", -EINVAL, "2:2",
	  "expected 4 fields, got 1" },
	{ "position_after_bom", "\xef\xbb\xbf" "id,lower,upper,size,id\n",
	  -EINVAL, "1:21", "duplicate column 'id'" },
};

static void test_err_header(void)
{
	EXPECT_ERRORS(header_errors);
}

/* ---- row errors ---- */

static const struct error_case row_errors[] = {
	{ "quote_not_closed", HDR "1,0,3,4\n\"a,0,3,4\n", -EINVAL, "3:1",
	  "quoted field not closed on its line" },
	{ "quote_then_text", HDR "\"a\"b,0,3,4\n", -EINVAL, "2:4",
	  "text after a quoted field's closing quote" },
	{ "quoted_comma_in_number", HDR "1,\"0,1\",3,4\n", -EINVAL, "2:4",
	  "column 'lower': not a number: '0,1'" },
	{ "too_few_fields", HDR "0,0,3,4\n1,2,3\n", -EINVAL, "3:6",
	  "expected 4 fields, got 3" },
	{ "too_many_fields", HDR "1,2,3,4, 5\n", -EINVAL, "2:10",
	  "expected 4 fields, got 5" },
	{ "too_many_fields_empty", HDR "1,2,3,4,\n", -EINVAL, "2:9",
	  "expected 4 fields, got 5" },
	{ "empty_field", HDR "1,,3,4\n", -EINVAL, "2:3",
	  "column 'lower': empty value" },
	{ "empty_field_blanks", HDR "1,0,3,  \n", -EINVAL, "2:7",
	  "column 'size': empty value" },
	{ "not_a_number", HDR "1,x2,3,4\n", -EINVAL, "2:3", "not a number" },
	{ "not_a_number_hex", HDR "1,0x10,3,4\n", -EINVAL, "2:3", "'0x10'" },
	{ "not_a_number_plus", HDR "1,0,+3,4\n", -EINVAL, "2:5",
	  "not a number" },
	{ "not_a_number_fraction", HDR "1,0,3,4.5\n", -EINVAL, "2:7",
	  "not a number" },
	{ "not_a_number_two", HDR "1,0,3,4 5\n", -EINVAL, "2:7",
	  "not a number" },
	{ "not_a_number_minus", HDR "1,0,3,-\n", -EINVAL, "2:7",
	  "not a number" },
	{ "not_a_number_alignment",
	  "id,lower,upper,size,alignment\n1,0,3,4,big\n", -EINVAL, "2:9",
	  "column 'alignment': not a number: 'big'" },
	{ "not_a_number_alias_of", "id,lower,upper,size,alias_of\n1,0,3,4,a\n",
	  -EINVAL, "2:9", "column 'alias_of'" },
	{ "tiers_not_a_tier", "id,lower,upper,size,tiers\n0,0,4,16,4\n",
	  -EINVAL, "2:10", "column 'tiers': not a list of tiers 0-3: '4'" },
	{ "tiers_comma", "id,lower,upper,size,tiers\n0,0,4,16,0,1\n", -EINVAL,
	  "2:12", "expected 5 fields, got 6" },
	{ "model_above_u32", "id,lower,upper,size,model\n0,0,4,16,4294967296\n",
	  -EINVAL, "2:10",
	  "column 'model': value above 2^32 - 1: '4294967296'" },
	{ "priority_negative", "id,lower,upper,size,priority\n0,0,4,16,-1\n",
	  -EINVAL, "2:10", "column 'priority': negative value '-1'" },
	{ "alias_offset_not_a_number", AO_HDR "0,0,4,16,,\n1,1,2,8,0,x8\n",
	  -EINVAL, "3:11", "column 'alias_offset': not a number: 'x8'" },
	{ "alias_offset_hex", AO_HDR "0,0,4,16,,\n1,1,2,8,0,0x8\n", -EINVAL,
	  "3:11", "column 'alias_offset': not a number: '0x8'" },
	{ "alias_offset_negative", AO_HDR "0,0,4,16,,\n1,1,2,8,0, -8\n",
	  -EINVAL, "3:12", "column 'alias_offset': negative value '-8'" },
	{ "alias_offset_overflow",
	  AO_HDR "0,0,4,16,,\n1,1,2,8,0,18446744073709551616\n", -EINVAL,
	  "3:11", "column 'alias_offset': value does not fit in 64 bits" },
	/* named tables follow the same rules */
	{ "alias_offset_named_negative", AO_HDR "a,0,4,16,,\nb,1,2,8,a,-1\n",
	  -EINVAL, "3:11", "column 'alias_offset': negative value '-1'" },
	{ "alias_offset_without_alias",
	  AO_HDR "0,0,4,16,,\n1,1,2,8,0,8\n2,1,2,8,,8\n", -EINVAL, "4:10",
	  "column 'alias_offset': set on a tensor that aliases nothing" },
	{ "alias_offset_without_alias_blanks", AO_HDR "a,0,4,16,  \t, 4\n",
	  -EINVAL, "2:15",
	  "column 'alias_offset': set on a tensor that aliases nothing" },
	/* with no alias_of column nothing can be an alias */
	{ "alias_offset_without_alias_of",
	  "id,lower,upper,size,alias_offset\n0,0,4,16,0\n1,0,4,16,16\n",
	  -EINVAL, "3:10",
	  "column 'alias_offset': set on a tensor that aliases nothing" },
	/* alias_offset before alias_of in the header: still this error */
	{ "alias_offset_first",
	  "alias_offset,alias_of,id,lower,upper,size\n1,,0,0,4,16\n", -EINVAL,
	  "2:1",
	  "column 'alias_offset': set on a tensor that aliases nothing" },
	{ "long_value_quoted_short",
	  HDR "1,0,3,aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", -EINVAL,
	  "2:7", "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...'" },
	{ "short_value_quoted", HDR "1,0,3,4a\n", -EINVAL, "2:7", "'4a'" },
	{ "negative", HDR "1,-2,3,4\n", -EINVAL, "2:3", "negative value" },
	{ "negative_alignment", "id,lower,upper,size,alignment\n1,0,3,4, -8\n",
	  -EINVAL, "2:10", "negative value" },
	{ "overflow", HDR "1,0,3,18446744073709551616\n", -EINVAL, "2:7",
	  "value does not fit in 64 bits" },
	{ "overflow_long",
	  HDR "1,0,99999999999999999999999999999999999999999,4\n", -EINVAL,
	  "2:5", "value does not fit in 64 bits" },
	{ "end_overflow", "id,lower,end,size\n0,0,18446744073709551615,1\n",
	  -EINVAL, "2:5", "does not fit in 64 bits" },
	/* positions */
	{ "position_after_blank_lines", "\n\n" HDR "\n0,0,1,4\n\n1,x,1,4\n",
	  -EINVAL, "7:3", "not a number" },
	{ "position_crlf", "id,lower,upper,size\r\n0,0,1,4\r\n1,x,1,4\r\n",
	  -EINVAL, "3:3", "not a number: 'x'" },
	{ "position_crlf_fields", "id,lower,upper,size\r\n1,2,3\r\n", -EINVAL,
	  "2:6", "got 3" },
	/* "h\u00e9\u00e9" is 5 bytes but 3 characters */
	{ "position_counts_characters",
	  "name,id,lower,upper,size\nh\xc3\xa9\xc3\xa9,1,x,3,4\n", -EINVAL,
	  "2:7", "not a number" },
};

static void test_err_row(void)
{
	EXPECT_ERRORS(row_errors);
}

static void test_err_nul_byte(void)
{
	static const char row[] = HDR "1,2\0,3,4\n";
	static const char head[] = "id,lo\0wer,upper,size\n0,0,1,1\n";

	expect_error("nul_byte_row", row, sizeof(row) - 1, -EINVAL, "2:4",
		     "NUL byte");
	expect_error("nul_byte_header", head, sizeof(head) - 1, -EINVAL, "1:6",
		     "NUL byte");
}

static void test_err_line_too_long(void)
{
	char *buf;

	buf = long_row_table(TPLAN_MAX_LINE + 1, "\n");
	CHECK(buf != NULL);
	if (!buf)
		return;
	expect_error("line_too_long", buf, strlen(buf), -EINVAL, "2:4097",
		     "line longer than 4096 bytes");
	free(buf);
	/* a CR inside the limit must not rescue a longer line */
	buf = long_row_table(TPLAN_MAX_LINE + 1, "\rpp\n");
	if (!buf)
		return;
	expect_error("line_too_long_cr", buf, strlen(buf), -EINVAL, "2:4097",
		     "line longer than");
	free(buf);
	/* a megabyte without a newline is refused, not swallowed */
	buf = long_row_table(1 << 20, "");
	if (!buf)
		return;
	expect_error("line_too_long_megabyte", buf, strlen(buf), -EINVAL,
		     "2:4097", "line longer than");
	free(buf);
}

static void test_err_line_too_long_header(void)
{
	size_t n = TPLAN_MAX_LINE + 10;
	char *buf = malloc(n + 1);

	CHECK(buf != NULL);
	if (!buf)
		return;
	memset(buf, 'h', n);
	buf[n] = '\0';
	expect_error("line_too_long_header", buf, n, -EINVAL, "1:4097",
		     "line longer than");
	free(buf);
}

/* ---- what tplan_check_table() finds ---- */

static const struct error_case check_errors[] = {
	{ "lifetime", HDR "0,0,3,4\n1,5,5,4\n", -EINVAL, "3:5",
	  "lifetime is empty: 'upper' 5 is not greater than 'lower' 5" },
	{ "lifetime_upper_first", "upper,id,lower,size\n2,1,7,4\n", -EINVAL,
	  "2:1", "lifetime is empty" },
	{ "lifetime_end", "id,start,end,size\n1,5,3,4\n", -EINVAL, "2:5",
	  "'end' 3 is less than 'start' 5" },
	{ "alignment_three",
	  "id,lower,upper,size,alignment\n0,0,1,4,2\n1,0,1,4,3\n", -EINVAL,
	  "3:9", "alignment 3 is not a power of two" },
	{ "duplicate_id", HDR "7,0,1,4\n8,0,1,4\n\n 7,0,1,4\n", -EINVAL, "5:2",
	  "duplicate id 7 (first on line 2)" },
	/* the same name twice in one model is still a duplicate */
	{ "duplicate_id_in_model",
	  "id,lower,upper,size,model\na,0,4,16,1\na,0,4,16,1\n", -EINVAL,
	  "3:1", "duplicate id 'a' (first on line 2)" },
	{ "too_large",
	  HDR "0,0,1,9223372036854775808\n1,0,1,9223372036854775808\n",
	  -EOVERFLOW, "3:7", "add up past 2^64 - 1" },
};

static void test_err_check(void)
{
	EXPECT_ERRORS(check_errors);
}

static void test_err_bad_arguments(void)
{
	struct tplan_table *t;
	struct tplan_error err;

	CHECK_EQ(tplan_table_read(NULL, NAME, &t, &err), -EINVAL);
	CHECK(t == NULL);
	CHECK(strncmp(err.msg, NAME ": ", strlen(NAME) + 2) == 0);
	CHECK_EQ(tplan_table_write(NULL, stdout), -EINVAL);
}

/* ---- writing ---- */

static struct tplan_tensor write_rows[2] = {
	{ .id = 1, .lower = 0, .upper = 3, .size = 4, .alignment = 1 },
	{ .id = 2, .lower = 3, .upper = 9, .size = 0, .alignment = 8,
	  .offset = 64, .flags = TPLAN_TENSOR_ALIAS, .alias_of = 1 },
};

static struct tplan_tensor alias_offset_rows[3] = {
	{ .id = 1, .lower = 0, .upper = 3, .size = 16, .alignment = 1,
	  .offset = 32 },
	{ .id = 2, .lower = 0, .upper = 1, .size = 8, .alignment = 1,
	  .offset = 40, .flags = TPLAN_TENSOR_ALIAS, .alias_of = 1,
	  .alias_offset = 8 },
	{ .id = 3, .lower = 0, .upper = 1, .size = 8, .alignment = 1,
	  .offset = 32, .flags = TPLAN_TENSOR_ALIAS, .alias_of = 1 },
};

static struct tplan_tensor named_rows[2] = {
	{ .id = 0, .lower = 0, .upper = 3, .size = 4, .alignment = 1 },
	{ .id = 1, .lower = 3, .upper = 9, .size = 4, .alignment = 1,
	  .flags = TPLAN_TENSOR_ALIAS, .alias_of = 0 },
};

static char *row_names[2] = { "a", "b" };

/* Rows, the columns their source had, and what the writer must write. */
struct write_case {
	const char *name;
	struct tplan_tensor *rows;
	u32 count;
	u32 columns;
	char **names;
	const char *want;
};

static const struct write_case write_cases[] = {
	/* no alignment or alias_of column unless the source had one */
	{ "basic", write_rows, 2, 0, NULL,
	  "id,lower,upper,size,offset\n1,0,3,4,0\n2,3,9,0,64\n" },
	{ "optional_columns", write_rows, 2,
	  TPLAN_COLUMN_ALIGNMENT | TPLAN_COLUMN_ALIAS_OF | TPLAN_COLUMN_OFFSET,
	  NULL, "id,lower,upper,size,alignment,alias_of,offset\n"
	  "1,0,3,4,1,,0\n2,3,9,0,8,1,64\n" },
	{ "alias_offset", alias_offset_rows, 3,
	  TPLAN_COLUMN_ALIGNMENT | TPLAN_COLUMN_ALIAS_OF |
	  TPLAN_COLUMN_ALIAS_OFFSET | TPLAN_COLUMN_OFFSET, NULL,
	  "id,lower,upper,size,alignment,alias_of,alias_offset,offset\n"
	  "1,0,3,16,1,,,32\n2,0,1,8,1,1,8,40\n3,0,1,8,1,1,0,32\n" },
	/* without the bit, no column */
	{ "alias_offset_no_column", alias_offset_rows, 3,
	  TPLAN_COLUMN_ALIAS_OF, NULL,
	  "id,lower,upper,size,alias_of,offset\n"
	  "1,0,3,16,,32\n2,0,1,8,1,40\n3,0,1,8,1,32\n" },
	/* without alias_of, a number would not read back: empty */
	{ "alias_offset_without_alias_of", alias_offset_rows, 3,
	  TPLAN_COLUMN_ALIAS_OFFSET, NULL,
	  "id,lower,upper,size,alias_offset,offset\n"
	  "1,0,3,16,,32\n2,0,1,8,,40\n3,0,1,8,,32\n" },
	{ "empty_table", NULL, 0, TPLAN_COLUMN_ALIAS_OF, NULL,
	  "id,lower,upper,size,alias_of,offset\n" },
	{ "names", named_rows, 2, TPLAN_COLUMN_ALIAS_OF, row_names,
	  "id,lower,upper,size,alias_of,offset\na,0,3,4,,0\nb,3,9,4,a,0\n" },
};

static void test_write(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(write_cases); i++) {
		const struct write_case *c = &write_cases[i];
		struct tplan_table t = {
			.tensors = c->rows, .names = c->names,
			.count = c->count, .columns = c->columns,
		};
		char *s = csv_text_write(&t);

		if (!s || strcmp(s, c->want))
			test_fail(__FILE__, __LINE__,
				  "%s: wrote \"%s\", expected \"%s\"", c->name,
				  s ? s : "(nothing)", c->want);
		free(s);
	}
}

static void test_write_error(void)
{
	struct tplan_tensor row = { .id = 1, .upper = 1, .alignment = 1 };
	struct tplan_table t = { .tensors = &row, .count = 1 };
	char buf[8];
	FILE *out = fmemopen(buf, sizeof(buf), "w");
	int ret;

	CHECK(out != NULL);
	if (!out)
		return;
	/* a full stream must be an error, not a silently cut file */
	setvbuf(out, NULL, _IONBF, 0);
	ret = tplan_table_write(&t, out);
	CHECK(ret < 0);
	fclose(out);
}

static void round_trip(const char *csv)
{
	struct tplan_table *a, *b = NULL;
	struct tplan_error err;
	char *s;

	CHECK_EQ(read_str(csv, &a, &err), 0);
	if (!a)
		return;
	s = csv_text_write(a);
	CHECK(s != NULL);
	if (s) {
		CHECK_EQ(read_str(s, &b, &err), 0);
		CHECK(same_tensors(a, b));
		/* the writer always adds offset */
		if (b)
			CHECK_EQ(b->columns, a->columns | TPLAN_COLUMN_OFFSET);
		if (b)
			CHECK(same_extras(a, b));
	}
	free(s);
	tplan_table_free(a);
	tplan_table_free(b);
}

/* Tables that read, write and read back the same. */
static const char *const round_trips[] = {
	"size,alias_of,id,lower,upper,alignment,other\n"
	"4,,0,0,3,1,x\n8,0,1,2,6,64,y\n0,,2,6,7,,\n"
	"5,,18446744073709551615,0,18446744073709551615,1,z\n",
	"id,lower,upper,size,offset\n0,0,1,4,12\n1,0,1,4,0\n",
	"id,lower,upper,size,gaps,hint,z\n0,0,9,4,1-2 4-6@1:3,8,q\n"
	"1,0,1,4,,,\n",
	HDR "0,0,1,4\n",
	/* an empty alias_offset on an alias is written back as 0 */
	AO_HDR "0,0,4,16,,\n1,1,2,8,0,\n",
	/* end is read inclusive and written back as exclusive upper */
	"buffer,start,end,size\n0,0,0,4\n1,2,5,8\n",
};

static void test_round_trip(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(round_trips); i++)
		round_trip(round_trips[i]);
}

/* What the writer writes, read back, is written again byte for byte. */
static void round_trip_exact(int line, const char *csv)
{
	struct tplan_table *a, *b = NULL;
	struct tplan_error err;
	char *s, *s2 = NULL;

	round_trip(csv);
	CHECK_EQ(read_str(csv, &a, &err), 0);
	if (!a)
		return;
	s = csv_text_write(a);
	if (s && strcmp(s, csv))
		test_fail(__FILE__, line, "wrote \"%s\", expected \"%s\"",
			  s, csv);
	if (s)
		CHECK_EQ(read_str(s, &b, &err), 0);
	if (b) {
		CHECK_EQ(b->columns, a->columns);
		s2 = csv_text_write(b);
		CHECK(s2 && !strcmp(s, s2));
	}
	free(s);
	free(s2);
	tplan_table_free(a);
	tplan_table_free(b);
}

/* Tables the writer writes byte for byte as they were read. */
static const char *const exact_round_trips[] = {
	"id,lower,upper,size,alias_of,alias_offset,offset\n"
	"0,0,4,16,,,0\n1,1,2,8,0,0,0\n2,1,2,8,0,8,8\n"
	"3,4,5,4,,,0\n4,2,3,1,0,18446744073709551615,0\n",
	"id,lower,upper,size,alignment,alias_of,alias_offset,offset\n"
	"cat,0,3,16,8,,,0\na,0,1,8,1,cat,0,0\n"
	"b,0,1,8,1,cat,8,8\nsplit/0,3,4,4,1,b,4,12\n",
	/* RFC 4180 quoting: written back as read, quoted where needed */
	"id,lower,upper,size,alias_of,node,offset\n"
	"\"a,b\",0,3,16,,\"conv, 1\",0\n"
	"\"say \"\"hi\"\"\",0,1,8,\"a,b\",plain,0\n"
	"\" c \",1,2,4,,\"\",16\n",
};

static void test_round_trip_exact(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(exact_round_trips); i++)
		round_trip_exact(__LINE__, exact_round_trips[i]);
}

static void test_round_trip_end(void)
{
	struct tplan_table *t;
	struct tplan_error err;
	char *s;

	/* end is read inclusive and written back as exclusive upper */
	CHECK_EQ(read_str("buffer,start,end,size\n0,0,0,4\n", &t, &err), 0);
	if (!t)
		return;
	s = csv_text_write(t);
	CHECK(s && !strcmp(s, "id,lower,upper,size,offset\n0,0,1,4,0\n"));
	free(s);
	tplan_table_free(t);
}

static void test_round_trip_crlf(void)
{
	struct tplan_table *a, *b = NULL;
	struct tplan_error err;
	char *s;

	CHECK_EQ(read_str("id,lower,upper,size,alignment\r\n0,0,1,4,2\r\n",
			  &a, &err), 0);
	if (!a)
		return;
	s = csv_text_write(a);
	CHECK(s && !strchr(s, '\r'));
	if (s)
		CHECK_EQ(read_str(s, &b, &err), 0);
	CHECK(same_tensors(a, b));
	free(s);
	tplan_table_free(a);
	tplan_table_free(b);
}

/* ---- named ids ---- */

/* MiniMalloc's examples/input.12.csv, as published. */
#define MINIMALLOC_EXAMPLE \
	"id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\nb3,0,9,4\nb4,9,21,4\n" \
	"b5,0,21,4\n"

static void test_named_ids(void)
{
	static const char *const want[] = { "b1", "b2", "b3", "b4", "b5" };
	struct tplan_table *t;
	struct tplan_error err;
	u32 i;

	CHECK_EQ(read_str(MINIMALLOC_EXAMPLE, &t, &err), 0);
	if (!t)
		return;
	CHECK_EQ(t->count, 5);
	CHECK(t->names != NULL);
	for (i = 0; t->names && i < t->count; i++) {
		CHECK_EQ(t->tensors[i].id, i);
		CHECK(!strcmp(t->names[i], want[i]));
	}
	CHECK_TENSOR(&t->tensors[3], 3, 9, 21, 4);
	tplan_table_free(t);
}

static void test_named_ids_trimmed(void)
{
	struct tplan_table *t;
	struct tplan_error err;

	/* blanks around a name go, blanks inside it stay */
	CHECK_EQ(read_str(HDR "  in put ,0,1,4\n\tx\t,0,1,4\n", &t, &err), 0);
	if (!t)
		return;
	CHECK(t->names && !strcmp(t->names[0], "in put"));
	CHECK(t->names && !strcmp(t->names[1], "x"));
	tplan_table_free(t);
}

static void test_named_ids_mixed(void)
{
	struct tplan_table *t;
	struct tplan_error err;

	/* one id that is not a number makes every id a name */
	CHECK_EQ(read_str(HDR "7,0,1,4\nb,0,1,4\n007,0,1,4\n", &t, &err), 0);
	if (!t)
		return;
	CHECK(t->names != NULL);
	if (t->names) {
		CHECK(!strcmp(t->names[0], "7"));
		CHECK(!strcmp(t->names[1], "b"));
		/* "007" is not the name "7" */
		CHECK(!strcmp(t->names[2], "007"));
	}
	CHECK_EQ(t->tensors[0].id, 0);
	CHECK_EQ(t->tensors[1].id, 1);
	CHECK_EQ(t->tensors[2].id, 2);
	tplan_table_free(t);
	/* so do a negative number and one too big for 64 bits */
	CHECK_EQ(read_str(HDR "-1,0,1,4\n18446744073709551616,0,1,4\n",
			  &t, &err), 0);
	if (!t)
		return;
	CHECK(t->names && !strcmp(t->names[0], "-1"));
	CHECK(t->names && !strcmp(t->names[1], "18446744073709551616"));
	tplan_table_free(t);
}

static void test_named_alias_of(void)
{
	struct tplan_table *t;
	struct tplan_error err;

	CHECK_EQ(read_str("id,lower,upper,size,alias_of\n"
			  "in,0,2,8,\nout,1,3,8, in \n1,2,4,8,out\n"
			  "x,3,5,8,1\n", &t, &err), 0);
	if (!t)
		return;
	CHECK(t->names != NULL);
	CHECK_EQ(t->tensors[0].flags, 0);
	CHECK_EQ(t->tensors[1].flags, TPLAN_TENSOR_ALIAS);
	CHECK_EQ(t->tensors[1].alias_of, 0);
	CHECK_EQ(t->tensors[2].alias_of, 1);
	/* "1" is the name of row 2 here, not the number 1 */
	CHECK_EQ(t->tensors[3].flags, TPLAN_TENSOR_ALIAS);
	CHECK_EQ(t->tensors[3].alias_of, 2);
	tplan_table_free(t);
}

/* Quoted fields hold their values: commas, blanks, doubled quotes. */
static void test_quoted_fields(void)
{
	static const char csv[] =
		"\"id\",lower,\"upper\",size\n"
		" \"a,b\" ,\"0\",3,16\n"
		"\"say \"\"hi\"\"\",0,1,8\n"
		"\" c \",1,2,4\n";
	static const char *const want[] = { "a,b", "say \"hi\"", " c " };
	struct tplan_table *t;
	struct tplan_error err;
	u32 i;

	CHECK_EQ(read_str(csv, &t, &err), 0);
	if (!t)
		return;
	CHECK_EQ(t->count, 3);
	for (i = 0; t->names && i < t->count; i++)
		CHECK(!strcmp(t->names[i], want[i]));
	CHECK_TENSOR(&t->tensors[0], 0, 0, 3, 16);
	tplan_table_free(t);
}

static void test_named_round_trip(void)
{
	static const char *const in[] = {
		MINIMALLOC_EXAMPLE,
		"id,lower,upper,size,alias_of,offset\n"
		"conv1/out,0,2,8,,0\nrelu \xc3\xa9,1,3,8,conv1/out,0\n"
		"42,2,3,8,relu \xc3\xa9,8\n",
	};
	static const char *const out[] = {
		"id,lower,upper,size,offset\nb1,0,3,4,0\nb2,3,9,4,0\n"
		"b3,0,9,4,0\nb4,9,21,4,0\nb5,0,21,4,0\n",
		NULL,
	};
	size_t i;

	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		struct tplan_table *a, *b = NULL;
		struct tplan_error err;
		char *s, *s2 = NULL;
		u32 j;

		round_trip(in[i]);
		CHECK_EQ(read_str(in[i], &a, &err), 0);
		if (!a)
			continue;
		s = csv_text_write(a);
		CHECK(s != NULL);
		if (s && out[i])
			CHECK(!strcmp(s, out[i]));
		if (s && !out[i])
			CHECK(!strcmp(s, in[i]));
		if (s)
			CHECK_EQ(read_str(s, &b, &err), 0);
		if (b) {
			CHECK(b->names != NULL);
			for (j = 0; b->names && j < b->count; j++)
				CHECK(!strcmp(a->names[j], b->names[j]));
			s2 = csv_text_write(b);
			CHECK(s2 && !strcmp(s, s2));
		}
		free(s);
		free(s2);
		tplan_table_free(a);
		tplan_table_free(b);
	}
}

static const struct error_case name_errors[] = {
	{ "duplicate_name", HDR "b1,0,1,4\nb2,0,1,4\nb3,0,1,4\n b2,0,1,4\n",
	  -EINVAL, "5:2", "duplicate id 'b2' (first on line 3)" },
	/* a third copy still names the first line */
	{ "duplicate_name_third", HDR "x,0,1,4\ny,0,1,4\nx,0,1,4\nx,0,1,4\n",
	  -EINVAL, "4:1", "duplicate id 'x' (first on line 2)" },
	/* "1" and "01" are different names */
	{ "duplicate_name_numeric",
	  HDR "a,0,1,4\n1,0,1,4\n01,0,1,4\n1,0,1,4\n", -EINVAL, "5:1",
	  "duplicate id '1' (first on line 3)" },
	{ "unknown_alias_name", "id,lower,upper,size,alias_of\n"
	  "a,0,1,4,\nb,0,1,4,a\nc,0,1,4,  x\n", -EINVAL, "4:11",
	  "alias_of 'x' names no tensor" },
	/* a number is a name too in a named table, and names no row here */
	{ "unknown_alias_number",
	  "id,lower,upper,size,alias_of\na,0,1,4,\nb,0,1,4,0\n", -EINVAL,
	  "3:9", "alias_of '0' names no tensor" },
	/* errors after names were kept: LSan checks that nothing leaks */
	{ "named_memory_number", HDR "a,0,1,4\nb,0,1,x\n", -EINVAL, "3:7",
	  "not a number" },
	{ "named_memory_lifetime", HDR "a,0,1,4\nb,2,1,4\n", -EINVAL, "3:5",
	  "lifetime is empty" },
	{ "named_memory_fields", "id,lower,upper,size,alias_of\na,0,1,4,\n"
	  "b,0,1,4,a\nc,0,1,4,a,\n", -EINVAL, "4:11", "expected 5 fields" },
};

static void test_err_names(void)
{
	EXPECT_ERRORS(name_errors);
}

/* ---- files: only paths that cannot exist, so nothing is created ---- */

static void test_load_missing_file(void)
{
	const char *path = "/nonexistent-tplan-dir/t.csv";
	struct tplan_table *t = (struct tplan_table *)&t;
	struct tplan_error err;

	CHECK_EQ(tplan_table_load(path, &t, &err), -ENOENT);
	CHECK(t == NULL);
	CHECK(!strncmp(err.msg, path, strlen(path)));
	CHECK(strstr(err.msg, strerror(ENOENT)) != NULL);
}

static void test_save_missing_dir(void)
{
	const char *path = "/nonexistent-tplan-dir/t.csv";
	struct tplan_tensor row = { .id = 1, .upper = 1, .alignment = 1 };
	struct tplan_table t = { .tensors = &row, .count = 1 };
	struct tplan_error err;

	CHECK_EQ(tplan_table_save(&t, path, &err), -ENOENT);
	CHECK(!strncmp(err.msg, path, strlen(path)));
	CHECK(strstr(err.msg, strerror(ENOENT)) != NULL);
}

static void test_free_null(void)
{
	tplan_table_free(NULL);
}

static const struct test_case csv_cases[] = {
	TEST_CASE(test_basic),
	TEST_CASE(test_read_values),
	TEST_CASE(test_alignment_column),
	TEST_CASE(test_alias_of_column),
	TEST_CASE(test_offset_column),
	TEST_CASE(test_alias_offset_column),
	TEST_CASE(test_alias_offset_column_first),
	TEST_CASE(test_named_alias_offset),
	TEST_CASE(test_all_columns),
	TEST_CASE(test_tier_model_columns),
	TEST_CASE(test_unknown_columns_kept),
	TEST_CASE(test_crlf_equals_lf),
	TEST_CASE(test_longest_line_accepted),
	TEST_CASE(test_many_rows),
	TEST_CASE(test_null_err_allowed),
	TEST_CASE(test_err_header),
	TEST_CASE(test_err_row),
	TEST_CASE(test_err_nul_byte),
	TEST_CASE(test_err_line_too_long),
	TEST_CASE(test_err_line_too_long_header),
	TEST_CASE(test_err_check),
	TEST_CASE(test_err_bad_arguments),
	TEST_CASE(test_write),
	TEST_CASE(test_write_error),
	TEST_CASE(test_round_trip),
	TEST_CASE(test_pins_hints_gaps),
	TEST_CASE(test_gaps_end_inclusive),
	TEST_CASE(test_err_gaps),
	TEST_CASE(test_round_trip_exact),
	TEST_CASE(test_round_trip_end),
	TEST_CASE(test_round_trip_crlf),
	TEST_CASE(test_named_ids),
	TEST_CASE(test_named_ids_trimmed),
	TEST_CASE(test_named_ids_mixed),
	TEST_CASE(test_named_alias_of),
	TEST_CASE(test_quoted_fields),
	TEST_CASE(test_named_round_trip),
	TEST_CASE(test_err_names),
	TEST_CASE(test_load_missing_file),
	TEST_CASE(test_save_missing_dir),
	TEST_CASE(test_free_null),
};

TEST_SUITE(csv_suite, "csv", csv_cases);
