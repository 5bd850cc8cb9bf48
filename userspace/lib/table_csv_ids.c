// SPDX-License-Identifier: MIT
/*
 * table_csv_ids.c - a CSV table's ids, once every row is in: numbers if
 * every id is one, else names, each tensor's id then the row index of the
 * first row with its name in its model and alias_of resolved by name; and
 * the ids' and unknown fields' texts packed for the table (table_csv.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libtplan.h"
#include "planner.h"
#include "table_csv.h"

/* A kept id or alias_of text as a field, for messages. */
struct csv_field tplan_csv_kept(const struct csv_reader *r, size_t off,
				u32 col)
{
	struct csv_field f;

	f.s = r->text + off;
	f.len = (u32)strlen(f.s);
	f.col = col;
	return f;
}

/*
 * All ids were numbers but some alias_of was not: the error tplan_csv_number()
 * would have given while reading that row.
 */
static int csv_alias_number_error(struct csv_reader *r, u32 i)
{
	const struct csv_row_pos *pos = &r->pos[i];
	struct csv_field f = tplan_csv_kept(r, pos->alias_text,
					    pos->col[SLOT_ALIAS_OF]);
	u64 v;
	int ret;

	r->lineno = pos->line;		/* csv_error() reports this line */
	ret = tplan_csv_number(r, &f, SLOT_ALIAS_OF, &v);
	return ret ? ret : csv_error(r, f.col, "column 'alias_of': bad value");
}

/* A name in a model: names are per model, like numeric ids. */
struct csv_name_ref {
	const char *s;
	u32 model;
	u32 row;
};

static int csv_cmp_name(const void *a, const void *b)
{
	const struct csv_name_ref *x = a, *y = b;

	if (x->model != y->model)
		return x->model < y->model ? -1 : 1;
	return strcmp(x->s, y->s);
}

/* By model and name, then by row, so that the first row of a name is first. */
static int csv_cmp_name_row(const void *a, const void *b)
{
	const struct csv_name_ref *x = a, *y = b;
	int c = csv_cmp_name(a, b);

	if (c)
		return c;
	return x->row < y->row ? -1 : x->row > y->row;
}

/* Row @i's id text, or its unknown fields' text with @extras. */
static const char *csv_row_text(const struct csv_reader *r, u32 i, bool extras)
{
	return r->text + (extras ? r->pos[i].extra_text : r->pos[i].id_text);
}

/*
 * Every row's id (or unknown fields) as one allocation, the pointer array
 * followed by the strings, so that tplan_table_free() frees it with one
 * free().  NULL when out of memory.
 */
char **tplan_csv_pack_texts(const struct csv_reader *r, bool extras)
{
	size_t ptrs = (size_t)r->count * sizeof(char *), bytes = 0, len;
	char **texts, *p;
	u32 i;

	for (i = 0; i < r->count; i++)
		bytes += strlen(csv_row_text(r, i, extras)) + 1;
	if (bytes > SIZE_MAX - ptrs)
		return NULL;
	texts = malloc(ptrs + bytes);
	if (!texts)
		return NULL;
	p = (char *)texts + ptrs;
	for (i = 0; i < r->count; i++) {
		len = strlen(csv_row_text(r, i, extras)) + 1;
		memcpy(p, csv_row_text(r, i, extras), len);
		texts[i] = p;
		p += len;
	}
	return texts;
}

/* The table's names, as written in the file. */
static int csv_make_names(struct csv_reader *r)
{
	r->names = tplan_csv_pack_texts(r, false);
	return r->names ? 0 : tplan_csv_nomem(r);
}

/*
 * Named ids become the row index of the first row with that name, and
 * alias_of names the id of that row.  Sorting an index by name keeps this
 * O(n log n).
 */
static int csv_resolve_names(struct csv_reader *r)
{
	struct csv_name_ref *refs, key, *hit;
	u32 i;
	int ret = 0;

	refs = malloc((size_t)r->count * sizeof(*refs));
	if (!refs)
		return tplan_csv_nomem(r);
	for (i = 0; i < r->count; i++) {
		refs[i].s = r->text + r->pos[i].id_text;
		refs[i].model = r->t[i].model;
		refs[i].row = i;
	}
	qsort(refs, r->count, sizeof(*refs), csv_cmp_name_row);
	for (i = 0; i < r->count; i++) {
		if (i && !csv_cmp_name(&refs[i], &refs[i - 1]))
			r->t[refs[i].row].id = r->t[refs[i - 1].row].id;
		else
			r->t[refs[i].row].id = refs[i].row;
	}
	for (i = 0; i < r->count; i++) {
		const struct csv_row_pos *pos = &r->pos[i];
		struct csv_field f;

		if (!(r->t[i].flags & TPLAN_TENSOR_ALIAS))
			continue;
		key.s = r->text + pos->alias_text;
		key.model = r->t[i].model;
		key.row = 0;
		hit = bsearch(&key, refs, r->count, sizeof(*refs),
			      csv_cmp_name);
		if (hit) {
			r->t[i].alias_of = r->t[hit->row].id;
			continue;
		}
		f = tplan_csv_kept(r, pos->alias_text, pos->col[SLOT_ALIAS_OF]);
		ret = tplan_csv_error_at(r, pos->line, f.col, -EINVAL,
					 "alias_of '%.*s%s' names no tensor",
					 CSV_QUOTE(&f));
		break;
	}
	free(refs);
	if (!ret)
		ret = csv_make_names(r);
	return ret;
}

/* Now that every row is in: numbers or names. */
int tplan_csv_resolve(struct csv_reader *r)
{
	if (r->named)
		return csv_resolve_names(r);
	if (r->bad_alias != CSV_NO_ROW)
		return csv_alias_number_error(r, r->bad_alias);
	return 0;
}
