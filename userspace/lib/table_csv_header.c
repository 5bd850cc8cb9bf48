// SPDX-License-Identifier: MIT
/*
 * table_csv_header.c - the CSV columns: their names and MiniMalloc's
 * synonyms, the header line (every required column, none twice), and the
 * columns we do not know, kept as text so that a write keeps them
 * (table_csv.h).
 */
#include <stdlib.h>
#include <string.h>

#include "libtplan.h"
#include "planner.h"
#include "table_csv.h"

/* Every column name we know; a slot's first is its canonical name. */
static const struct csv_name csv_names[] = {
	{ "id",		SLOT_ID,	false },
	{ "buffer",	SLOT_ID,	false },
	{ "buffer_id",	SLOT_ID,	false },
	{ "lower",	SLOT_LOWER,	false },
	{ "start",	SLOT_LOWER,	false },
	{ "begin",	SLOT_LOWER,	false },
	{ "upper",	SLOT_UPPER,	false },
	{ "end",	SLOT_UPPER,	true },
	{ "size",	SLOT_SIZE,	false },
	{ "alignment",	SLOT_ALIGNMENT,	false },
	{ "alias_of",	SLOT_ALIAS_OF,	false },
	{ "alias_offset", SLOT_ALIAS_OFFSET, false },
	{ "model",	SLOT_MODEL,	false },
	{ "priority",	SLOT_PRIORITY,	false },
	{ "tiers",	SLOT_TIERS,	false },
	{ "share_key",	SLOT_SHARE_KEY,	false },
	{ "tier",	SLOT_TIER,	false },
	{ "uses",	SLOT_USES,	false },
	{ "piece",	SLOT_PIECE,	false },
	{ "host_offset", SLOT_HOST_OFFSET, false },
	{ "hint",	SLOT_HINT,	false },
	{ "gaps",	SLOT_GAPS,	false },
	{ "offset",	SLOT_OFFSET,	false },
};

/*
 * The optional columns and the TPLAN_COLUMN_* bit that remembers each, in
 * slot order; table_csv.h gives the count, so a missing one does not build.
 */
const struct csv_column tplan_csv_optional[] = {
	{ SLOT_ALIGNMENT, TPLAN_COLUMN_ALIGNMENT },
	{ SLOT_ALIAS_OF, TPLAN_COLUMN_ALIAS_OF },
	{ SLOT_ALIAS_OFFSET, TPLAN_COLUMN_ALIAS_OFFSET },
	{ SLOT_MODEL, TPLAN_COLUMN_MODEL },
	{ SLOT_PRIORITY, TPLAN_COLUMN_PRIORITY },
	{ SLOT_TIERS, TPLAN_COLUMN_TIERS },
	{ SLOT_SHARE_KEY, TPLAN_COLUMN_SHARE_KEY },
	{ SLOT_TIER, TPLAN_COLUMN_TIER },
	{ SLOT_USES, TPLAN_COLUMN_USES },
	{ SLOT_PIECE, TPLAN_COLUMN_PIECE },
	{ SLOT_HOST_OFFSET, TPLAN_COLUMN_HOST_OFFSET },
	{ SLOT_HINT, TPLAN_COLUMN_HINT },
	{ SLOT_GAPS, TPLAN_COLUMN_GAPS },
	{ SLOT_OFFSET, TPLAN_COLUMN_OFFSET },
};

/* The first (canonical) name of a slot. */
const struct csv_name *tplan_csv_slot_name(u32 slot)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(csv_names); i++)
		if (csv_names[i].slot == slot)
			return &csv_names[i];
	return NULL;
}

static bool csv_is_number(const struct csv_field *f)
{
	u32 i;

	for (i = 0; i < f->len; i++)
		if (!csv_digit(f->s[i]))
			return false;
	return f->len > 0;
}

static const struct csv_name *csv_lookup(const struct csv_field *f)
{
	size_t i;

	for (i = 0; i < sizeof(csv_names) / sizeof(csv_names[0]); i++)
		if (csv_same_name(f, csv_names[i].name,
				  strlen(csv_names[i].name)))
			return &csv_names[i];
	return NULL;
}

/* A header column: reject repeats, remember where the known ones are. */
static int csv_header_column(struct csv_reader *r, u32 i)
{
	const struct csv_field *f = &r->fields[i];
	const struct csv_name *known;
	const struct csv_field *prev;
	u32 j;

	if (!f->len)
		return csv_error(r, f->col, "empty column name");
	for (j = 0; j < i; j++)
		if (csv_same_name(f, r->fields[j].s, r->fields[j].len))
			return csv_error(r, f->col,
					 "duplicate column '%.*s'",
					 (int)f->len, f->s);
	known = csv_lookup(f);
	if (!known) {
		r->extra_of[r->nextra++] = (u16)i;
		return 0;
	}
	if (r->field_of[known->slot] >= 0) {
		prev = &r->slot_name[known->slot];
		return csv_error(r, f->col,
				 "duplicate column '%.*s' (same as '%.*s')",
				 (int)f->len, f->s, (int)prev->len, prev->s);
	}
	r->field_of[known->slot] = (int)i;
	r->slot_name[known->slot] = *f;
	if (known->inclusive)
		r->inclusive = true;
	return 0;
}

/*
 * The unknown columns' fields of the line, joined by commas, into @out
 * (NULL: only measured), quoted as they came (an unquoted field reads
 * back as it is).
 */
size_t tplan_csv_join_extras(const struct csv_reader *r, char *out)
{
	size_t len = 0;
	u32 k;

	for (k = 0; k < r->nextra; k++) {
		const struct csv_field *f = &r->fields[r->extra_of[k]];

		if (k && out)
			out[len] = ',';
		len += !!k;
		len += tplan_csv_put_text(f->s, f->len, f->quoted,
					  out ? out + len : NULL);
	}
	if (out)
		out[len] = '\0';
	return len + 1;
}

/* The names of the columns we do not know, kept so that a write keeps them. */
static int csv_keep_extra_header(struct csv_reader *r)
{
	if (!r->nextra)
		return 0;
	r->extra_header = malloc(tplan_csv_join_extras(r, NULL));
	if (!r->extra_header)
		return tplan_csv_nomem(r);
	tplan_csv_join_extras(r, r->extra_header);
	return 0;
}

int tplan_csv_parse_header(struct csv_reader *r)
{
	static const char *const required[] = {
		[SLOT_ID] = "'id' (or 'buffer', 'buffer_id')",
		[SLOT_LOWER] = "'lower' (or 'start', 'begin')",
		[SLOT_UPPER] = "'upper' (or 'end')",
		[SLOT_SIZE] = "'size'",
	};
	struct csv_split sp;
	u32 i;
	int ret;

	memcpy(r->header, r->line, r->len + 1);
	r->nfields = tplan_csv_split(r->header, r->len, r->fields,
				     CSV_MAX_FIELDS, &sp);
	if (sp.why)
		return csv_error(r, sp.bad_col, "%s", sp.why);
	if (csv_is_number(&r->fields[0]))
		return csv_error(r, r->fields[0].col,
				 "missing header line (expected id,lower,upper,size)");
	if (r->nfields == 1 && strpbrk(r->header, ";\t"))
		return csv_error(r, 1, "no comma in the header line: fields are separated by ',' (this line has '%c')",
				 strchr(r->header, ';') ? ';' : '\t');
	for (i = 0; i < r->nfields; i++) {
		ret = csv_header_column(r, i);
		if (ret)
			return ret;
	}
	for (i = 0; i <= SLOT_SIZE; i++)
		if (r->field_of[i] < 0)
			return csv_error(r, 1, "missing column %s",
					 required[i]);
	for (i = 0; i < ARRAY_SIZE(tplan_csv_optional); i++)
		if (r->field_of[tplan_csv_optional[i].slot] >= 0)
			r->columns |= tplan_csv_optional[i].column;
	return csv_keep_extra_header(r);
}
