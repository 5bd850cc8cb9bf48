// SPDX-License-Identifier: MIT
/*
 * table_csv_read.c - reading a CSV table (tplan_table_read(),
 * tplan_table_load()) and freeing one (tplan_table_free()): the lines
 * before the header, the header and the rows, then the ids, then
 * tplan_check_table(), whose findings become messages that point into the
 * file, then the table.  The format and the map of the CSV layer's files
 * are in table_csv.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libtplan.h"
#include "planner.h"
#include "table_csv.h"

/*
 * The lines in order: before the header, comments and the "# tplan:" line;
 * then the header; then the rows.
 */
static int csv_read_rows(struct csv_reader *r)
{
	int ret;

	while ((ret = tplan_csv_read_line(r)) > 0) {
		if (tplan_csv_line_blank(r))
			continue;
		if (!r->nfields && r->line[0] == '#')
			ret = tplan_csv_parse_record(r);
		else if (!r->nfields)
			ret = tplan_csv_parse_header(r);
		else
			ret = tplan_csv_parse_row(r);
		if (ret)
			return ret;
	}
	if (ret)
		return ret;
	if (!r->nfields)
		return tplan_csv_error_at(r, 0, 0, -EINVAL, "empty file");
	if (!r->count)
		return tplan_csv_error_at(r, 0, 0, -EINVAL,
					  "no tensors (only a header)");
	return 0;
}

static int csv_lifetime_error(struct csv_reader *r, u32 i, int ret)
{
	const struct tplan_tensor *t = &r->t[i];
	const struct csv_row_pos *pos = &r->pos[i];
	const struct csv_field *lo = &r->slot_name[SLOT_LOWER];
	const struct csv_field *up = &r->slot_name[SLOT_UPPER];

	/* quote the values as written, i.e. end rather than end + 1 */
	return tplan_csv_error_at(r, pos->line, pos->col[SLOT_UPPER], ret,
				  "lifetime is empty: '%.*s' %llu is %s '%.*s' %llu",
				  (int)up->len, up->s,
				  r->inclusive ? t->upper - 1 : t->upper,
				  r->inclusive ? "less than" : "not greater than",
				  (int)lo->len, lo->s, t->lower);
}

/* Turns what tplan_check_table() found into a message about the file. */
static int csv_finding_error(struct csv_reader *r,
			     const struct tplan_finding *f, int ret)
{
	const struct csv_row_pos *pos, *other;
	const struct tplan_tensor *t;

	if (f->index >= r->count || f->other >= r->count)
		return tplan_csv_error_at(r, 0, 0, ret, "%s",
					  tplan_defect_name(f->defect));
	t = &r->t[f->index];
	pos = &r->pos[f->index];
	other = &r->pos[f->other];
	switch (f->defect) {
	case TPLAN_DEFECT_LIFETIME:
		return csv_lifetime_error(r, f->index, ret);
	case TPLAN_DEFECT_ALIGNMENT:
		return tplan_csv_error_at(r, pos->line,
					  pos->col[SLOT_ALIGNMENT], ret,
					  "alignment %llu is not a power of two",
					  t->alignment);
	case TPLAN_DEFECT_DUPLICATE_ID:
		/* point at the later row, whichever one the check named */
		if (other->line > pos->line) {
			const struct csv_row_pos *tmp = pos;

			pos = other;
			other = tmp;
		}
		if (r->names) {
			struct csv_field id = tplan_csv_kept(r, pos->id_text,
							     pos->col[SLOT_ID]);

			return tplan_csv_error_at(r, pos->line, id.col, ret,
						  "duplicate id '%.*s%s' (first on line %u)",
						  CSV_QUOTE(&id), other->line);
		}
		return tplan_csv_error_at(r, pos->line, pos->col[SLOT_ID], ret,
					  "duplicate id %llu (first on line %u)",
					  t->id, other->line);
	case TPLAN_DEFECT_TOO_LARGE:
		return tplan_csv_error_at(r, pos->line, pos->col[SLOT_SIZE],
					  ret,
					  "the sizes (with alignment padding) add up past 2^64 - 1");
	default:
		return tplan_csv_error_at(r, pos->line, 1, ret, "%s",
					  tplan_defect_name(f->defect));
	}
}

static int csv_check(struct csv_reader *r)
{
	struct tplan_finding f = { TPLAN_DEFECT_NONE, 0, 0 };
	int ret;

	if (r->piece) {
		/* the rows of a spill plan are pieces: an id repeats */
		struct tplan_tensor *copy = malloc((size_t)r->count *
						   sizeof(*copy));
		u32 i;

		if (!copy)
			return tplan_csv_nomem(r);
		for (i = 0; i < r->count; i++) {
			copy[i] = r->t[i];
			copy[i].id = i;
			copy[i].model = 0;
		}
		ret = tplan_check_table(copy, r->count, &f);
		free(copy);
	} else {
		ret = tplan_check_table(r->t, r->count, &f);
	}
	if (!ret)
		return 0;
	if (f.defect == TPLAN_DEFECT_NONE)
		return tplan_csv_error_at(r, 0, 0, ret, "%s", strerror(-ret));
	return csv_finding_error(r, &f, ret);
}

/* Each row's unknown fields, packed as the names are. */
static int csv_make_extras(struct csv_reader *r)
{
	if (!r->nextra)
		return 0;
	r->extra = tplan_csv_pack_texts(r, true);
	return r->extra ? 0 : tplan_csv_nomem(r);
}

/* Hands the rows over to a new table; r keeps nothing it would free. */
static int csv_finish(struct csv_reader *r, struct tplan_table **table)
{
	struct tplan_table *tab;
	struct tplan_tensor *t;

	if (csv_make_extras(r))
		return -ENOMEM;
	tab = calloc(1, sizeof(*tab));
	if (!tab)
		return tplan_csv_nomem(r);
	/* give back the slack of the last doubling; keep it if that fails */
	t = realloc(r->t, (size_t)r->count * sizeof(*t));
	if (t)
		r->t = t;
	tab->tensors = r->t;
	tab->names = r->names;
	tab->count = r->count;
	tab->columns = r->columns;
	tab->use_step = r->use_step;
	tab->use_start = r->use_start;
	tab->piece = r->piece;
	tab->host_offset = r->host_offset;
	tab->gaps = r->gaps;
	tab->gap_count = r->gap_count;
	tab->extra_header = r->extra_header;
	tab->extra = r->extra;
	tab->record = r->record;
	r->gaps = NULL;
	r->extra_header = NULL;
	r->extra = NULL;
	r->t = NULL;
	r->names = NULL;
	r->use_step = NULL;
	r->use_start = NULL;
	r->piece = NULL;
	r->host_offset = NULL;
	*table = tab;
	return 0;
}

static void csv_reader_init(struct csv_reader *r, FILE *in, const char *name,
			    struct tplan_error *err)
{
	u32 i;

	r->in = in;
	r->name = name;
	r->err = err;
	for (i = 0; i < NR_SLOTS; i++)
		r->field_of[i] = -1;
	r->bad_alias = CSV_NO_ROW;
}

/**
 * tplan_table_read() - parse a CSV table from a stream
 * @in: the stream, read to its end (or to the first error)
 * @name: what to call it in messages, such as its path
 * @table: set to a new table on success (free with tplan_table_free()),
 *         to NULL on failure
 * @err: the reason for a failure (may be NULL)
 *
 * Return: 0; -EINVAL for malformed input or a table that breaks a rule of
 * tplan_check_table(), which may also give -EOVERFLOW; -ENOMEM; or the
 * negative errno of a read error.
 */
int tplan_table_read(FILE *in, const char *name, struct tplan_table **table,
		     struct tplan_error *err)
{
	struct tplan_error ignored;
	struct csv_reader *r;
	int ret;

	if (!err)
		err = &ignored;
	err->msg[0] = '\0';
	if (!name)
		name = "<input>";
	if (table)
		*table = NULL;
	if (!table || !in) {
		snprintf(err->msg, sizeof(err->msg), "%s: %s", name,
			 strerror(EINVAL));
		return -EINVAL;
	}
	/* tens of kilobytes: too big for the stack of a library call */
	r = calloc(1, sizeof(*r));
	if (!r) {
		snprintf(err->msg, sizeof(err->msg), "%s: %s", name,
			 strerror(ENOMEM));
		return -ENOMEM;
	}
	csv_reader_init(r, in, name, err);
	flockfile(in);
	ret = csv_read_rows(r);
	funlockfile(in);
	if (!ret)
		ret = tplan_csv_resolve(r);
	if (!ret)
		ret = csv_check(r);
	if (!ret)
		ret = csv_finish(r, table);
	free(r->t);
	free(r->pos);
	free(r->text);
	free(r->names);
	free(r->use_step);
	free(r->use_start);
	free(r->piece);
	free(r->host_offset);
	free(r->gaps);
	free(r->extra_header);
	free(r->extra);
	free(r);
	return ret;
}

/**
 * tplan_table_load() - read a CSV table from a file
 * @path: the file; "-" means standard input
 * @table: as for tplan_table_read()
 * @err: as for tplan_table_read()
 *
 * Return: as for tplan_table_read(), or the negative errno of fopen().
 */
int tplan_table_load(const char *path, struct tplan_table **table,
		     struct tplan_error *err)
{
	FILE *in;
	int ret;

	if (path && !strcmp(path, "-"))
		return tplan_table_read(stdin, "<stdin>", table, err);
	if (table)
		*table = NULL;
	in = path ? fopen(path, "r") : NULL;
	if (!in) {
		ret = path ? errno : EINVAL;
		if (err)
			snprintf(err->msg, sizeof(err->msg), "%s: %s",
				 path ? path : "<null>", strerror(ret));
		return -ret;
	}
	ret = tplan_table_read(in, path, table, err);
	fclose(in);
	return ret;
}

/**
 * tplan_table_free() - free a table from tplan_table_read()
 * @table: the table, or NULL
 *
 * The names of a named table are one allocation (the pointer array, then
 * the strings), freed with one free().
 */
void tplan_table_free(struct tplan_table *table)
{
	if (!table)
		return;
	free(table->tensors);
	free(table->names);
	free(table->use_step);
	free(table->use_start);
	free(table->piece);
	free(table->host_offset);
	free(table->gaps);
	free(table->extra_header);
	free(table->extra);
	free(table);
}
