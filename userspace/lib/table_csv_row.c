// SPDX-License-Identifier: MIT
/*
 * table_csv_row.c - a CSV row into a tensor: the fields in the header's
 * order of slots, each checked and stored (ids and alias_of kept as text
 * until every row is in, numbers, tiers, uses, a spill plan's piece and
 * host_offset; MiniMalloc's columns through table_csv_minimalloc.c), and
 * the row's unknown fields kept as text (table_csv.h).
 */
#include <stdlib.h>
#include <string.h>

#include "libtplan.h"
#include "planner.h"
#include "table_csv.h"

/* Room for @len more bytes in r->text. */
static int csv_text_room(struct csv_reader *r, size_t len)
{
	size_t need = r->text_len + len;

	if (need > r->text_cap) {
		size_t cap = r->text_cap ? r->text_cap : 4096;
		char *text;

		while (cap < need)
			cap *= 2;
		text = realloc(r->text, cap);
		if (!text)
			return tplan_csv_nomem(r);
		r->text = text;
		r->text_cap = cap;
	}
	return 0;
}

/* Keeps the row's unknown fields in r->text, for the table's extra. */
static int csv_keep_extras(struct csv_reader *r, struct csv_row_pos *pos)
{
	size_t len = tplan_csv_join_extras(r, NULL);
	int ret = csv_text_room(r, len);

	if (ret)
		return ret;
	pos->extra_text = r->text_len;
	tplan_csv_join_extras(r, r->text + r->text_len);
	r->text_len += len;
	return 0;
}

/* Copies a field into r->text; *off says where. */
static int csv_keep_text(struct csv_reader *r, const struct csv_field *f,
			 size_t *off)
{
	size_t need = r->text_len + f->len + 1;

	if (need > r->text_cap) {
		size_t cap = r->text_cap ? r->text_cap : 4096;
		char *text;

		while (cap < need)
			cap *= 2;
		text = realloc(r->text, cap);
		if (!text)
			return tplan_csv_nomem(r);
		r->text = text;
		r->text_cap = cap;
	}
	*off = r->text_len;
	memcpy(r->text + r->text_len, f->s, f->len);
	r->text[r->text_len + f->len] = '\0';
	r->text_len = need;
	return 0;
}

/*
 * Length of the valid UTF-8 character at @s[0] (@len bytes left), or 0 if
 * none starts there.  Overlong forms, surrogates and code points beyond
 * U+10FFFF are invalid.
 */
u32 tplan_csv_utf8_char(const unsigned char *s, u32 len)
{
	u32 n, k, cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (len < n)
		return 0;
	cp = s[0] & (0x7f >> n);
	for (k = 1; k < n; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[k] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/*
 * Ids (and alias_of, which names one) are written into other formats
 * (SVG, JSON): they must be valid UTF-8.
 */
static int csv_check_utf8(struct csv_reader *r, const struct csv_field *f,
			  u32 slot)
{
	const struct csv_field *name = &r->slot_name[slot];
	const unsigned char *s = (const unsigned char *)f->s;
	u32 i, n;

	for (i = 0; i < f->len; i += n) {
		n = tplan_csv_utf8_char(s + i, f->len - i);
		if (n)
			continue;
		return csv_error(r, f->col + csv_chars(f->s, i),
				 "column '%.*s': not valid UTF-8 (byte 0x%02x at byte %u of the value)",
				 (int)name->len, name->s, s[i], i + 1);
	}
	return 0;
}

/*
 * An id is a number or a name; tplan_csv_resolve() decides which, at the
 * end.
 */
static int csv_store_id(struct csv_reader *r, struct tplan_tensor *t,
			struct csv_row_pos *pos, const struct csv_field *f)
{
	u64 v = 0;
	int ret;

	if (!f->len)
		return tplan_csv_number(r, f, SLOT_ID, &v);
	ret = csv_check_utf8(r, f, SLOT_ID);
	if (!ret)
		ret = csv_keep_text(r, f, &pos->id_text);
	if (ret)
		return ret;
	if (tplan_csv_u64(f, &v))
		t->id = v;
	else
		r->named = true;
	return 0;
}

/* Like an id: a number in a numeric table, a name in a named one. */
static int csv_store_alias(struct csv_reader *r, struct tplan_tensor *t,
			   struct csv_row_pos *pos, const struct csv_field *f)
{
	u64 v = 0;
	int ret;

	if (!f->len)
		return 0;
	ret = csv_check_utf8(r, f, SLOT_ALIAS_OF);
	if (!ret)
		ret = csv_keep_text(r, f, &pos->alias_text);
	if (ret)
		return ret;
	t->flags |= TPLAN_TENSOR_ALIAS;
	if (tplan_csv_u64(f, &v))
		t->alias_of = v;
	else if (r->bad_alias == CSV_NO_ROW)
		r->bad_alias = r->count;
	return 0;
}

/* Allowed tiers as digits, each a tier: "0", "01", "3"; empty means any. */
static int csv_store_tiers(struct csv_reader *r, struct tplan_tensor *t,
			   const struct csv_field *f)
{
	u32 i;

	for (i = 0; i < f->len; i++) {
		u32 tier = (u32)(f->s[i] - '0');

		if (!csv_digit(f->s[i]) || tier >= TPLAN_MAX_TIERS)
			return tplan_csv_bad_value(r, f, SLOT_TIERS,
						   "not a list of tiers 0-3:");
		t->tiers |= 1u << tier;
	}
	return 0;
}

/* Room for one more use; doubling keeps the copying linear. */
static int csv_grow_uses(struct csv_reader *r)
{
	u64 *step;
	u32 cap;

	if (r->use_count < r->use_cap)
		return 0;
	if (r->use_cap >= UINT32_MAX / 2)
		return csv_error(r, 1, "more than %u uses", r->use_cap);
	cap = r->use_cap ? r->use_cap * 2 : 256;
	step = realloc(r->use_step, (size_t)cap * sizeof(*step));
	if (!step)
		return tplan_csv_nomem(r);
	r->use_step = step;
	r->use_cap = cap;
	return 0;
}

/*
 * The steps at which a tensor is used, separated by blanks: each a number
 * in [lower, upper), each after the one before.  Empty: lower and
 * upper - 1 (none stored).
 */
static int csv_store_uses(struct csv_reader *r, const struct tplan_tensor *t,
			  const struct csv_field *f)
{
	u32 i = 0, first = r->use_count;
	int ret;

	while (i < f->len) {
		struct csv_field one;
		u64 v;

		while (i < f->len && csv_blank(f->s[i]))
			i++;
		one.s = f->s + i;
		one.col = f->col + csv_chars(f->s, i);
		while (i < f->len && !csv_blank(f->s[i]))
			i++;
		one.len = (u32)(f->s + i - one.s);
		ret = tplan_csv_number(r, &one, SLOT_USES, &v);
		if (ret)
			return ret;
		/* an empty lifetime is reported, better, by csv_check() */
		if (t->upper > t->lower && (v < t->lower || v >= t->upper))
			return csv_error(r, one.col,
					 "column 'uses': step %llu is outside the lifetime [%llu, %llu)",
					 v, t->lower, t->upper);
		if (r->use_count > first && v <= r->use_step[r->use_count - 1])
			return csv_error(r, one.col,
					 "column 'uses': step %llu does not come after step %llu",
					 v, r->use_step[r->use_count - 1]);
		ret = csv_grow_uses(r);
		if (ret)
			return ret;
		r->use_step[r->use_count++] = v;
	}
	return 0;
}

/* A u32 column (model, priority, tier). */
static int csv_u32(struct csv_reader *r, const struct csv_field *f, u32 slot,
		   u64 v, u32 *out)
{
	if (v > UINT32_MAX)
		return tplan_csv_bad_value(r, f, slot, "value above 2^32 - 1:");
	*out = (u32)v;
	return 0;
}

/* Columns whose empty field means their default (set before the row). */
static bool csv_may_be_empty(u32 slot)
{
	return slot == SLOT_ALIGNMENT || slot == SLOT_ALIAS_OFFSET ||
	       slot == SLOT_MODEL || slot == SLOT_PRIORITY ||
	       slot == SLOT_SHARE_KEY;
}

static int csv_store(struct csv_reader *r, struct tplan_tensor *t,
		     struct csv_row_pos *pos, u32 slot,
		     const struct csv_field *f)
{
	u64 v = 0;
	int ret;

	if (slot == SLOT_ID)
		return csv_store_id(r, t, pos, f);
	if (slot == SLOT_ALIAS_OF)
		return csv_store_alias(r, t, pos, f);
	if (slot == SLOT_TIERS)
		return csv_store_tiers(r, t, f);
	if (slot == SLOT_USES)
		return csv_store_uses(r, t, f);
	if (slot == SLOT_GAPS)
		return tplan_csv_store_gaps(r, t, f);
	if (slot == SLOT_HINT || slot == SLOT_OFFSET)
		return tplan_csv_store_place(r, t, slot, f);
	if (slot == SLOT_HOST_OFFSET && !f->len)
		return 0;
	if (!f->len && csv_may_be_empty(slot))
		return 0;
	ret = tplan_csv_number(r, f, slot, &v);
	if (ret)
		return ret;
	switch (slot) {
	case SLOT_MODEL:
		return csv_u32(r, f, slot, v, &t->model);
	case SLOT_PRIORITY:
		return csv_u32(r, f, slot, v, &t->priority);
	case SLOT_TIER:
		return csv_u32(r, f, slot, v, &t->tier);
	case SLOT_PIECE:
		return csv_u32(r, f, slot, v, &r->piece[r->count]);
	case SLOT_HOST_OFFSET:
		r->host_offset[r->count] = v;
		break;
	case SLOT_SHARE_KEY:
		t->share_key = v;
		break;
	case SLOT_LOWER:
		t->lower = v;
		break;
	case SLOT_UPPER:
		if (r->inclusive && check_add_overflow(v, 1, &v))
			return csv_error(r, f->col,
					 "column 'end': end + 1 does not fit in 64 bits");
		t->upper = v;
		break;
	case SLOT_SIZE:
		t->size = v;
		break;
	case SLOT_ALIGNMENT:
		t->alignment = v;
		break;
	case SLOT_ALIAS_OFFSET:
		/* alias_of, an earlier slot, has set the flag by now */
		if (v && !(t->flags & TPLAN_TENSOR_ALIAS))
			return csv_error(r, f->col,
					 "column 'alias_offset': set on a tensor that aliases nothing");
		t->alias_offset = v;
		break;
	}
	return 0;
}

/* Doubling keeps the copying linear in the number of rows. */
static int csv_grow(struct csv_reader *r)
{
	struct tplan_tensor *t;
	struct csv_row_pos *pos;
	u32 cap;

	if (r->count < r->cap)
		return 0;
	cap = r->cap ? r->cap * 2 : 64;
	if (cap > TPLAN_MAX_TENSORS)
		cap = TPLAN_MAX_TENSORS;
	t = realloc(r->t, (size_t)cap * sizeof(*t));
	if (!t)
		return tplan_csv_nomem(r);
	r->t = t;
	pos = realloc(r->pos, (size_t)cap * sizeof(*pos));
	if (!pos)
		return tplan_csv_nomem(r);
	r->pos = pos;
	if (r->columns & TPLAN_COLUMN_USES) {
		u32 *start = realloc(r->use_start, ((size_t)cap + 1) *
				     sizeof(*start));

		if (!start)
			return tplan_csv_nomem(r);
		r->use_start = start;
	}
	if (r->columns & TPLAN_COLUMN_PIECE) {
		u32 *piece = realloc(r->piece, (size_t)cap * sizeof(*piece));

		if (!piece)
			return tplan_csv_nomem(r);
		r->piece = piece;
	}
	if (r->columns & TPLAN_COLUMN_HOST_OFFSET) {
		u64 *host = realloc(r->host_offset, (size_t)cap * sizeof(*host));

		if (!host)
			return tplan_csv_nomem(r);
		r->host_offset = host;
	}
	r->cap = cap;
	return 0;
}

int tplan_csv_parse_row(struct csv_reader *r)
{
	struct tplan_tensor *t;
	struct csv_row_pos *pos;
	struct csv_split sp;
	u32 n, slot;
	int ret;

	n = tplan_csv_split(r->line, r->len, r->fields, r->nfields + 1, &sp);
	if (sp.why)
		return csv_error(r, sp.bad_col, "%s", sp.why);
	if (n != r->nfields) {
		/* point at the first extra field, or just past the line */
		u32 col = n > r->nfields ? r->fields[r->nfields].col :
			  sp.end_col;

		return csv_error(r, col, "expected %u fields, got %u",
				 r->nfields, n);
	}
	if (r->count == TPLAN_MAX_TENSORS)
		return csv_error(r, 1, "more than %u tensors",
				 TPLAN_MAX_TENSORS);
	ret = csv_grow(r);
	if (ret)
		return ret;
	t = &r->t[r->count];
	pos = &r->pos[r->count];
	memset(t, 0, sizeof(*t));
	memset(pos, 0, sizeof(*pos));
	t->alignment = 1;
	t->priority = TPLAN_DEFAULT_PRIORITY;
	pos->line = r->lineno;
	if (r->use_start)
		r->use_start[r->count] = r->use_count;
	if (r->piece)
		r->piece[r->count] = 0;
	if (r->host_offset)
		r->host_offset[r->count] = 0;
	for (slot = 0; slot < NR_SLOTS; slot++) {
		const struct csv_field *f;

		if (r->field_of[slot] < 0)
			continue;
		f = &r->fields[r->field_of[slot]];
		pos->col[slot] = (u16)f->col;
		ret = csv_store(r, t, pos, slot, f);
		if (ret)
			return ret;
	}
	if (r->nextra) {
		ret = csv_keep_extras(r, pos);
		if (ret)
			return ret;
	}
	r->count++;
	if (r->use_start)
		r->use_start[r->count] = r->use_count;
	return 0;
}
