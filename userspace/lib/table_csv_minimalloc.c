// SPDX-License-Identifier: MIT
/*
 * table_csv_minimalloc.c - MiniMalloc's own CSV columns: offset (a pin),
 * hint (an offset the tensor would like) and gaps (steps of its lifetime
 * when it is absent, or present only in a window of its bytes), read as
 * MiniMalloc's converter reads them (table_csv.h).
 */
#include <stdlib.h>
#include <string.h>

#include "libtplan.h"
#include "planner.h"
#include "table_csv.h"

/* Room for one more gap; doubling keeps the copying linear. */
static int csv_grow_gaps(struct csv_reader *r)
{
	struct tplan_gap *gaps;
	u32 cap;

	if (r->gap_count < r->gap_cap)
		return 0;
	if (r->gap_cap >= UINT32_MAX / 2)
		return csv_error(r, 1, "more than %u gaps", r->gap_cap);
	cap = r->gap_cap ? r->gap_cap * 2 : 64;
	gaps = realloc(r->gaps, (size_t)cap * sizeof(*gaps));
	if (!gaps)
		return tplan_csv_nomem(r);
	r->gaps = gaps;
	r->gap_cap = cap;
	return 0;
}

/* Digits only, as everywhere in the format. */
static bool csv_gap_number(const char *s, const char *end, u64 *v)
{
	struct csv_field f = { s, (u32)(end - s), 0, false };

	return tplan_csv_u64(&f, v);
}

/*
 * One of MiniMalloc's gaps: LOWER-UPPER, or LOWER-UPPER@FROM:TO (bytes
 * [FROM, TO) present).  What MiniMalloc's converter rejects is rejected
 * (a part missing, more than one '-' or ':', a part not a number); so are
 * a sign and a second '@', which it lets through.
 */
static bool csv_parse_gap(const char *s, u32 len, struct tplan_gap *g)
{
	const char *end = s + len, *at = memchr(s, '@', len);
	const char *head = at ? at : end, *dash, *colon;

	memset(g, 0, sizeof(*g));
	dash = memchr(s, '-', (size_t)(head - s));
	if (!dash || !csv_gap_number(s, dash, &g->lower) ||
	    !csv_gap_number(dash + 1, head, &g->upper))
		return false;
	if (!at)
		return true;
	colon = memchr(at + 1, ':', (size_t)(end - at - 1));
	if (!colon || !csv_gap_number(at + 1, colon, &g->from) ||
	    !csv_gap_number(colon + 1, end, &g->to))
		return false;
	g->flags = TPLAN_GAP_WINDOW;
	return true;
}

/* What is wrong with gap @g of @t after @prev (NULL: none), or NULL. */
static const char *csv_gap_wrong(const struct tplan_tensor *t,
				 const struct tplan_gap *g,
				 const struct tplan_gap *prev)
{
	if (g->lower >= g->upper)
		return "is empty";
	if (prev && g->lower < prev->upper)
		return "begins before the gap before it ends";
	if (g->from > g->to)
		return "has a reversed window";
	if (g->to > t->size)
		return "has a window beyond the size";
	return NULL;
}

/*
 * MiniMalloc's gaps column: gaps separated by blanks, each LOWER-UPPER or
 * LOWER-UPPER@FROM:TO, in time order; with an "end" column UPPER is
 * inclusive too.  Empty: none.  As in MiniMalloc a gap may reach outside
 * the lifetime, where the tensor is absent anyway: it is cut to the
 * lifetime, and dropped when nothing is left.
 */
int tplan_csv_store_gaps(struct csv_reader *r, struct tplan_tensor *t,
			 const struct csv_field *f)
{
	const struct csv_field *name = &r->slot_name[SLOT_GAPS];
	u32 i = 0, first = r->gap_count;
	struct tplan_gap g, prev = { 0 };
	bool had = false;
	const char *why;
	int ret;

	while (i < f->len) {
		struct csv_field one;

		while (i < f->len && csv_blank(f->s[i]))
			i++;
		one.s = f->s + i;
		one.col = f->col + csv_chars(f->s, i);
		while (i < f->len && !csv_blank(f->s[i]))
			i++;
		one.len = (u32)(f->s + i - one.s);
		if (!one.len)
			break;
		if (!csv_parse_gap(one.s, one.len, &g))
			return csv_error(r, one.col,
					 "column '%.*s': malformed gap '%.*s%s' (expected LOWER-UPPER or LOWER-UPPER@FROM:TO)",
					 (int)name->len, name->s, CSV_QUOTE(&one));
		if (r->inclusive && check_add_overflow(g.upper, 1, &g.upper))
			return csv_error(r, one.col,
					 "column '%.*s': gap end + 1 does not fit in 64 bits",
					 (int)name->len, name->s);
		/* an empty lifetime is reported, better, by csv_check() */
		why = t->upper > t->lower ?
		      csv_gap_wrong(t, &g, had ? &prev : NULL) : NULL;
		if (why)
			return csv_error(r, one.col,
					 "column '%.*s': gap '%.*s%s' %s (lifetime [%llu, %llu), size %llu)",
					 (int)name->len, name->s,
					 CSV_QUOTE(&one), why, t->lower,
					 t->upper, t->size);
		prev = g;
		had = true;
		g.lower = max(g.lower, t->lower);
		g.upper = min(g.upper, t->upper);
		if (g.lower >= g.upper)
			continue;
		ret = csv_grow_gaps(r);
		if (ret)
			return ret;
		r->gaps[r->gap_count++] = g;
	}
	t->gap_count = r->gap_count - first;
	if (t->gap_count)
		t->gap_first = first;
	return 0;
}

/*
 * An offset or a hint: empty, or MiniMalloc's -1, means none; else a
 * number that pins the tensor there, or that it would like.
 */
int tplan_csv_store_place(struct csv_reader *r, struct tplan_tensor *t,
			  u32 slot, const struct csv_field *f)
{
	u64 v;
	int ret;

	if (!f->len || csv_field_is(f, "-1"))
		return 0;
	ret = tplan_csv_number(r, f, slot, &v);
	if (ret)
		return ret;
	if (slot == SLOT_HINT) {
		t->hint = v;
		t->flags |= TPLAN_TENSOR_HINT;
	} else {
		t->offset = v;
		t->flags |= TPLAN_TENSOR_PINNED;
	}
	return 0;
}
