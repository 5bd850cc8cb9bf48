// SPDX-License-Identifier: MIT
/*
 * table_csv.c - read and write tensor lifetime tables as CSV.
 *
 * The format is MiniMalloc's, so that its benchmark inputs load unchanged:
 *
 *   - The first non-blank line is a header of comma-separated column names,
 *     in any order, lower case.  Required: id, lower, upper, size.
 *     MiniMalloc's synonyms are accepted: buffer or buffer_id for id, start or
 *     begin for lower, and end instead of upper, which is inclusive (upper =
 *     end + 1).  Naming a column twice, or one column under two names, is an
 *     error, as in MiniMalloc.
 *   - Optional columns we know: alignment (empty means 1), alias_of (empty
 *     means none), alias_offset (where the tensor sits inside the bytes of
 *     the one it aliases; empty means 0, and anything else on a row without
 *     alias_of is an error), model (the model a tensor belongs to; empty
 *     means 0), priority (benefit per byte of a fast tier; empty means
 *     TPLAN_DEFAULT_PRIORITY), tiers (the tiers a tensor may use, as digits:
 *     "0", "12"; empty means any), share_key (non-zero: persistent, stored
 *     once per key; empty means 0), uses (the steps at which the tensor
 *     is read or written, separated by blanks, strictly increasing, each in
 *     [lower, upper); empty means lower and upper - 1), and the planned
 *     tier and offset (for "tplanctl verify"), and a spill plan's piece
 *     and host_offset (its rows are pieces: one id may then repeat).
 *   - MiniMalloc's offset (a pin), hint (-1 or empty: none, written back as
 *     -1) and gaps (see csv_store_gaps(); a gap reaching outside the
 *     lifetime is cut to it, as MiniMalloc ignores that part) are read.
 *   - Any other column is kept as text (struct tplan_table.extra) and
 *     written back.
 *   - Every row has as many fields as the header.  Values are unsigned
 *     decimal 64-bit numbers, except ids and alias_of (below).  Blanks
 *     (spaces, tabs) around names and values are ignored.  There is no
 *     quoting: a comma always ends a field.
 *   - Ids are numbers or names.  If every id in the file is an unsigned
 *     decimal 64-bit number, that number is the tensor's id and alias_of
 *     holds numbers too.  Otherwise (MiniMalloc's example uses b1, b2, ...)
 *     every id is a name, even one that looks like a number: a file with
 *     ids "1" and "b" has the names "1" and "b".  The table then keeps the
 *     names as written (struct tplan_table.names), each tensor's id becomes
 *     the row index of the first row with its name in its model (so a
 *     repeated name in one model is a duplicate id), and alias_of names the
 *     row it aliases in the same model.
 *   - Ids and alias_of are valid UTF-8 (they end up in SVG and JSON).
 *   - Lines before the header that start with '#' are comments, except
 *     "# tplan: WORD...", which records how a plan was made (struct
 *     tplan_record): aliases, serial or concurrent, tiers=N,N,...
 *     tplan_table_write() writes it first when the table records anything,
 *     so that a table that records nothing stays MiniMalloc's.
 *   - Blank lines are skipped, CRLF line ends are accepted, the last line
 *     may lack its line end, and a UTF-8 byte order mark before the header is
 *     ignored.  A line is at most TPLAN_MAX_LINE bytes; a NUL byte in a line
 *     is an error.
 *
 * Errors are reported as "NAME:LINE:COL: reason" where COL is the 1-based
 * character (not byte) column of the offending field, so that editors jump
 * to the right place even after non-ASCII text in an ignored column.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libtplan.h"
#include "planner.h"

/* What a header column feeds; two names for one slot is an error. */
enum csv_slot {
	SLOT_ID,
	SLOT_LOWER,
	SLOT_UPPER,
	SLOT_SIZE,
	SLOT_ALIGNMENT,
	SLOT_ALIAS_OF,
	SLOT_ALIAS_OFFSET,	/* after SLOT_ALIAS_OF: needs to know the alias */
	SLOT_MODEL,
	SLOT_PRIORITY,
	SLOT_TIERS,
	SLOT_SHARE_KEY,
	SLOT_TIER,
	SLOT_USES,	/* after SLOT_LOWER and SLOT_UPPER: checked against them */
	SLOT_PIECE,
	SLOT_HOST_OFFSET,
	SLOT_HINT,
	SLOT_GAPS,	/* after the lifetime and size: checked against them */
	SLOT_OFFSET,
	NR_SLOTS,
	SLOT_NONE = NR_SLOTS,
};

struct csv_name {
	const char *name;
	u8 slot;
	bool inclusive;		/* MiniMalloc's "end": upper = end + 1 */
};

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

/* Optional columns and the TPLAN_COLUMN_* bit that remembers each. */
static const struct {
	u8 slot;
	u32 column;
} csv_optional[] = {
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
static const struct csv_name *csv_slot_name(u32 slot)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(csv_names); i++)
		if (csv_names[i].slot == slot)
			return &csv_names[i];
	return NULL;
}

/* A line of n bytes has at most n + 1 fields (all empty). */
#define CSV_MAX_FIELDS		(TPLAN_MAX_LINE + 1)
/* Longest value quoted back in an error message. */
#define CSV_QUOTE_MAX		32
/* Quotes a text as '%.*s%s' does: at most CSV_QUOTE_MAX bytes. */
#define CSV_QUOTE(f) \
	(int)((f)->len > CSV_QUOTE_MAX ? CSV_QUOTE_MAX : (f)->len), (f)->s, \
	(f)->len > CSV_QUOTE_MAX ? "..." : ""

/* One field of a line, blanks trimmed; not NUL-terminated. */
struct csv_field {
	const char *s;
	u32 len;
	u32 col;		/* 1-based character column of s */
};

/*
 * Where a row came from, kept until tplan_check_table() has had its say so
 * that its findings can point into the file.  Columns fit in u16 because a
 * line has at most TPLAN_MAX_LINE bytes.
 */
struct csv_row_pos {
	u32 line;
	u16 col[NR_SLOTS];
	/* where the id, alias_of and unknown columns' texts are in csv_reader.text */
	size_t id_text;
	size_t alias_text;
	size_t extra_text;
};

/* No row: csv_reader.bad_alias when every alias_of so far is a number. */
#define CSV_NO_ROW		UINT32_MAX

struct csv_reader {
	FILE *in;
	const char *name;
	struct tplan_error *err;

	u32 lineno;
	u32 len;
	/* room for TPLAN_MAX_LINE bytes, a CR and a NUL */
	char line[TPLAN_MAX_LINE + 2];

	/* the header outlives its line: messages quote its names */
	char header[TPLAN_MAX_LINE + 2];
	u32 nfields;
	int field_of[NR_SLOTS];		/* header index, or -1 */
	struct csv_field slot_name[NR_SLOTS];
	bool inclusive;
	u32 columns;

	struct csv_field fields[CSV_MAX_FIELDS];

	struct tplan_tensor *t;
	struct csv_row_pos *pos;
	u32 count;
	u32 cap;

	/*
	 * Whether ids are numbers or names is known only after the last row,
	 * so the id and alias_of fields of every row are kept as text here,
	 * each NUL-terminated.
	 */
	char *text;
	size_t text_len;
	size_t text_cap;
	bool named;		/* some id is not a number */
	/* the uses of every row so far, and the piece columns, per row */
	u64 *use_step;
	u32 *use_start;
	u32 use_count;
	u32 use_cap;
	u32 *piece;
	u64 *host_offset;
	u32 bad_alias;		/* first row whose alias_of is not a number */
	char **names;		/* for the table, once the ids are names */
	/* the gaps of every row so far */
	struct tplan_gap *gaps;
	u32 gap_count;
	u32 gap_cap;
	/* the columns we do not know: their header indices, their names */
	u32 nextra;
	u16 extra_of[CSV_MAX_FIELDS];
	char *extra_header;
	char **extra;		/* for the table: each row's unknown fields */
	/* the "# tplan:" line before the header, and where it was */
	struct tplan_record record;
	u32 record_line;
};

static bool csv_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool csv_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* UTF-8 continuation bytes do not start a character. */
static u32 csv_chars(const char *s, u32 len)
{
	u32 i, n = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			n++;
	return n;
}

__attribute__((format(printf, 5, 6)))
static int csv_error_at(struct csv_reader *r, u32 line, u32 col, int ret,
			const char *fmt, ...)
{
	char *msg = r->err->msg;
	size_t size = sizeof(r->err->msg);
	va_list ap;
	int n;

	if (line)
		n = snprintf(msg, size, "%s:%u:%u: ", r->name, line, col);
	else
		n = snprintf(msg, size, "%s: ", r->name);
	if (n < 0 || (size_t)n >= size)
		return ret;
	va_start(ap, fmt);
	vsnprintf(msg + n, size - n, fmt, ap);
	va_end(ap);
	return ret;
}

/* Most errors are about a field of the line just read. */
#define csv_error(r, col, fmt, ...) \
	csv_error_at(r, (r)->lineno, col, -EINVAL, fmt, ##__VA_ARGS__)

static int csv_nomem(struct csv_reader *r)
{
	return csv_error_at(r, 0, 0, -ENOMEM, "%s", strerror(ENOMEM));
}

static int csv_io_error(struct csv_reader *r)
{
	int e = errno ? errno : EIO;

	return csv_error_at(r, 0, 0, -e, "read error: %s", strerror(e));
}

/*
 * Reads one line into r->line without its line end.  Memory stays bounded
 * by TPLAN_MAX_LINE whatever the input, unlike getline(), which would
 * swallow a gigabyte without a newline before we could object.
 *
 * Return: 1 with a line, 0 at end of file, or a negative errno.
 */
static int csv_read_line(struct csv_reader *r)
{
	bool too_long = false;
	u32 len = 0;
	int c;

	r->lineno++;
	errno = 0;
	while ((c = getc_unlocked(r->in)) != EOF && c != '\n') {
		if (!c)
			return csv_error(r, csv_chars(r->line, len) + 1,
					 "NUL byte in line");
		/* one byte beyond the limit may still be a CR */
		if (len == TPLAN_MAX_LINE + 1) {
			too_long = true;
			break;
		}
		r->line[len++] = (char)c;
	}
	if (c == EOF && ferror(r->in))
		return csv_io_error(r);
	if (c == EOF && !len) {
		r->lineno--;
		return 0;
	}
	if (!too_long && len && r->line[len - 1] == '\r')
		len--;
	if (too_long || len > TPLAN_MAX_LINE)
		return csv_error(r, csv_chars(r->line, TPLAN_MAX_LINE) + 1,
				 "line longer than %u bytes", TPLAN_MAX_LINE);
	if (r->lineno == 1 && len >= 3 && !memcmp(r->line, "\xef\xbb\xbf", 3)) {
		len -= 3;
		memmove(r->line, r->line + 3, len);
	}
	r->line[len] = '\0';
	r->len = len;
	return 1;
}

static bool csv_line_blank(const struct csv_reader *r)
{
	u32 i;

	for (i = 0; i < r->len; i++)
		if (!csv_blank(r->line[i]))
			return false;
	return true;
}

/*
 * Splits a line at commas, trimming blanks, into at most @max fields.
 * Return: the number of fields the line has, which may exceed @max.
 */
static u32 csv_split(const char *line, u32 len, struct csv_field *f, u32 max)
{
	u32 i = 0, n = 0, col = 1;

	for (;;) {
		u32 start, end, start_col, blank_col = col;

		while (i < len && csv_blank(line[i])) {
			i++;
			col++;
		}
		start = i;
		start_col = col;
		while (i < len && line[i] != ',') {
			if (((unsigned char)line[i] & 0xc0) != 0x80)
				col++;
			i++;
		}
		end = i;
		while (end > start && csv_blank(line[end - 1]))
			end--;
		/* an empty field is best shown where it starts */
		if (end == start)
			start_col = blank_col;
		if (n < max) {
			f[n].s = line + start;
			f[n].len = end - start;
			f[n].col = start_col;
		}
		n++;
		if (i == len)
			return n;
		i++;		/* the comma */
		col++;
	}
}

static bool csv_is_number(const struct csv_field *f)
{
	u32 i;

	for (i = 0; i < f->len; i++)
		if (!csv_digit(f->s[i]))
			return false;
	return f->len > 0;
}

/* A plain unsigned decimal that fits in 64 bits. */
static bool csv_u64(const struct csv_field *f, u64 *out)
{
	u64 v = 0;
	u32 i;

	if (!f->len)
		return false;
	for (i = 0; i < f->len; i++) {
		unsigned int d = (unsigned int)(f->s[i] - '0');

		if (!csv_digit(f->s[i]) || v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

static bool csv_field_is(const struct csv_field *f, const char *s)
{
	return strlen(s) == f->len && !memcmp(f->s, s, f->len);
}

static const struct csv_name *csv_lookup(const struct csv_field *f)
{
	size_t i;

	for (i = 0; i < sizeof(csv_names) / sizeof(csv_names[0]); i++)
		if (csv_field_is(f, csv_names[i].name))
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
		if (r->fields[j].len == f->len &&
		    !memcmp(r->fields[j].s, f->s, f->len))
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

/* The unknown columns' fields of the line, joined by commas, into @out. */
static size_t csv_join_extras(const struct csv_reader *r, char *out)
{
	size_t len = 0;
	u32 k;

	for (k = 0; k < r->nextra; k++) {
		const struct csv_field *f = &r->fields[r->extra_of[k]];

		if (k && out)
			out[len] = ',';
		len += !!k;
		if (out)
			memcpy(out + len, f->s, f->len);
		len += f->len;
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
	r->extra_header = malloc(csv_join_extras(r, NULL));
	if (!r->extra_header)
		return csv_nomem(r);
	csv_join_extras(r, r->extra_header);
	return 0;
}

/* "tiers=1024,0": 2 to TPLAN_MAX_TIERS decimal capacities. */
static bool csv_record_tiers(const struct csv_field *w, struct tplan_record *rec)
{
	struct csv_field one;
	const char *p = w->s + 6, *end = w->s + w->len;

	rec->tier_count = 0;
	while (p <= end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));

		one.s = p;
		one.len = (u32)((comma ? comma : end) - p);
		if (rec->tier_count == TPLAN_MAX_TIERS ||
		    !csv_u64(&one, &rec->tier_capacity[rec->tier_count++]))
			return false;
		p += one.len + 1;
	}
	return rec->tier_count >= 2;
}

/*
 * A line before the header that starts with '#': a comment, or the
 * "# tplan:" line that records how a plan was made (tplanctl(1)): words
 * separated by blanks, each aliases, serial, concurrent or tiers=N,N,...
 */
static int csv_parse_record(struct csv_reader *r)
{
	static const char tag[] = "tplan:";
	struct tplan_record *rec = &r->record;
	struct csv_field w;
	u32 i = 1, col;

	while (i < r->len && csv_blank(r->line[i]))
		i++;
	if (r->len - i < sizeof(tag) - 1 ||
	    memcmp(r->line + i, tag, sizeof(tag) - 1))
		return 0;	/* any other comment */
	if (r->record_line)
		return csv_error(r, 1, "a second '# tplan:' line (the first on line %u)",
				 r->record_line);
	r->record_line = r->lineno;
	for (i += sizeof(tag) - 1; i < r->len;) {
		while (i < r->len && csv_blank(r->line[i]))
			i++;
		if (i == r->len)
			break;
		w.s = r->line + i;
		col = csv_chars(r->line, i) + 1;
		while (i < r->len && !csv_blank(r->line[i]))
			i++;
		w.len = (u32)(r->line + i - w.s);
		if (csv_field_is(&w, "aliases")) {
			rec->flags |= TPLAN_RECORD_ALIASES;
		} else if (csv_field_is(&w, "serial") ||
			   csv_field_is(&w, "concurrent")) {
			if (rec->flags & (TPLAN_RECORD_SERIAL |
					  TPLAN_RECORD_CONCURRENT))
				return csv_error(r, col, "'# tplan:' line: serial and concurrent exclude each other");
			rec->flags |= w.s[0] == 's' ? TPLAN_RECORD_SERIAL :
						      TPLAN_RECORD_CONCURRENT;
		} else if (w.len > 6 && !memcmp(w.s, "tiers=", 6)) {
			if (!csv_record_tiers(&w, rec))
				return csv_error(r, col, "'# tplan:' line: malformed '%.*s%s' (2 to %u byte counts, comma-separated)",
						 CSV_QUOTE(&w), TPLAN_MAX_TIERS);
			rec->flags |= TPLAN_RECORD_TIERS;
		} else {
			return csv_error(r, col, "'# tplan:' line: unknown word '%.*s%s' (known: aliases, serial, concurrent, tiers=N,N,...)",
					 CSV_QUOTE(&w));
		}
	}
	return 0;
}

static int csv_parse_header(struct csv_reader *r)
{
	static const char *const required[] = {
		[SLOT_ID] = "'id' (or 'buffer', 'buffer_id')",
		[SLOT_LOWER] = "'lower' (or 'start', 'begin')",
		[SLOT_UPPER] = "'upper' (or 'end')",
		[SLOT_SIZE] = "'size'",
	};
	u32 i;
	int ret;

	memcpy(r->header, r->line, r->len + 1);
	r->nfields = csv_split(r->header, r->len, r->fields, CSV_MAX_FIELDS);
	if (csv_is_number(&r->fields[0]))
		return csv_error(r, r->fields[0].col,
				 "missing header line (expected id,lower,upper,size)");
	for (i = 0; i < r->nfields; i++) {
		ret = csv_header_column(r, i);
		if (ret)
			return ret;
	}
	for (i = 0; i <= SLOT_SIZE; i++)
		if (r->field_of[i] < 0)
			return csv_error(r, 1, "missing column %s",
					 required[i]);
	for (i = 0; i < ARRAY_SIZE(csv_optional); i++)
		if (r->field_of[csv_optional[i].slot] >= 0)
			r->columns |= csv_optional[i].column;
	return csv_keep_extra_header(r);
}

/* Quotes at most CSV_QUOTE_MAX bytes of a value back in a message. */
static int csv_bad_value(struct csv_reader *r, const struct csv_field *f,
			 u32 slot, const char *why)
{
	const struct csv_field *name = &r->slot_name[slot];
	bool cut = f->len > CSV_QUOTE_MAX;

	return csv_error(r, f->col, "column '%.*s': %s '%.*s%s'",
			 (int)name->len, name->s, why,
			 (int)(cut ? CSV_QUOTE_MAX : f->len), f->s,
			 cut ? "..." : "");
}

static int csv_number(struct csv_reader *r, const struct csv_field *f,
		      u32 slot, u64 *out)
{
	const struct csv_field *name = &r->slot_name[slot];
	u64 v = 0;
	u32 i;

	if (!f->len)
		return csv_error(r, f->col, "column '%.*s': empty value",
				 (int)name->len, name->s);
	if (f->s[0] == '-' && f->len > 1 && csv_digit(f->s[1]))
		return csv_bad_value(r, f, slot, "negative value");
	for (i = 0; i < f->len; i++) {
		unsigned int d = (unsigned int)(f->s[i] - '0');

		if (!csv_digit(f->s[i]))
			return csv_bad_value(r, f, slot, "not a number:");
		if (v > (UINT64_MAX - d) / 10)
			return csv_error(r, f->col,
					 "column '%.*s': value does not fit in 64 bits",
					 (int)name->len, name->s);
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

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
			return csv_nomem(r);
		r->text = text;
		r->text_cap = cap;
	}
	return 0;
}

/* Keeps the row's unknown fields in r->text, for the table's extra. */
static int csv_keep_extras(struct csv_reader *r, struct csv_row_pos *pos)
{
	size_t len = csv_join_extras(r, NULL);
	int ret = csv_text_room(r, len);

	if (ret)
		return ret;
	pos->extra_text = r->text_len;
	csv_join_extras(r, r->text + r->text_len);
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
			return csv_nomem(r);
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
static u32 csv_utf8_char(const unsigned char *s, u32 len)
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
		n = csv_utf8_char(s + i, f->len - i);
		if (n)
			continue;
		return csv_error(r, f->col + csv_chars(f->s, i),
				 "column '%.*s': not valid UTF-8 (byte 0x%02x at byte %u of the value)",
				 (int)name->len, name->s, s[i], i + 1);
	}
	return 0;
}

/* An id is a number or a name; csv_resolve() decides which, at the end. */
static int csv_store_id(struct csv_reader *r, struct tplan_tensor *t,
			struct csv_row_pos *pos, const struct csv_field *f)
{
	u64 v = 0;
	int ret;

	if (!f->len)
		return csv_number(r, f, SLOT_ID, &v);
	ret = csv_check_utf8(r, f, SLOT_ID);
	if (!ret)
		ret = csv_keep_text(r, f, &pos->id_text);
	if (ret)
		return ret;
	if (csv_u64(f, &v))
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
	if (csv_u64(f, &v))
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
			return csv_bad_value(r, f, SLOT_TIERS,
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
		return csv_nomem(r);
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
		ret = csv_number(r, &one, SLOT_USES, &v);
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
		return csv_nomem(r);
	r->gaps = gaps;
	r->gap_cap = cap;
	return 0;
}

/* Digits only, as everywhere in the format. */
static bool csv_gap_number(const char *s, const char *end, u64 *v)
{
	struct csv_field f = { s, (u32)(end - s), 0 };

	return csv_u64(&f, v);
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
static int csv_store_gaps(struct csv_reader *r, struct tplan_tensor *t,
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
static int csv_store_place(struct csv_reader *r, struct tplan_tensor *t,
			   u32 slot, const struct csv_field *f)
{
	u64 v;
	int ret;

	if (!f->len || csv_field_is(f, "-1"))
		return 0;
	ret = csv_number(r, f, slot, &v);
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

/* A u32 column (model, priority, tier). */
static int csv_u32(struct csv_reader *r, const struct csv_field *f, u32 slot,
		   u64 v, u32 *out)
{
	if (v > UINT32_MAX)
		return csv_bad_value(r, f, slot, "value above 2^32 - 1:");
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
		return csv_store_gaps(r, t, f);
	if (slot == SLOT_HINT || slot == SLOT_OFFSET)
		return csv_store_place(r, t, slot, f);
	if (slot == SLOT_HOST_OFFSET && !f->len)
		return 0;
	if (!f->len && csv_may_be_empty(slot))
		return 0;
	ret = csv_number(r, f, slot, &v);
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
		return csv_nomem(r);
	r->t = t;
	pos = realloc(r->pos, (size_t)cap * sizeof(*pos));
	if (!pos)
		return csv_nomem(r);
	r->pos = pos;
	if (r->columns & TPLAN_COLUMN_USES) {
		u32 *start = realloc(r->use_start, ((size_t)cap + 1) *
				     sizeof(*start));

		if (!start)
			return csv_nomem(r);
		r->use_start = start;
	}
	if (r->columns & TPLAN_COLUMN_PIECE) {
		u32 *piece = realloc(r->piece, (size_t)cap * sizeof(*piece));

		if (!piece)
			return csv_nomem(r);
		r->piece = piece;
	}
	if (r->columns & TPLAN_COLUMN_HOST_OFFSET) {
		u64 *host = realloc(r->host_offset, (size_t)cap * sizeof(*host));

		if (!host)
			return csv_nomem(r);
		r->host_offset = host;
	}
	r->cap = cap;
	return 0;
}

static int csv_parse_row(struct csv_reader *r)
{
	struct tplan_tensor *t;
	struct csv_row_pos *pos;
	u32 n, slot;
	int ret;

	n = csv_split(r->line, r->len, r->fields, r->nfields + 1);
	if (n != r->nfields) {
		/* point at the first extra field, or just past the line */
		u32 col = n > r->nfields ? r->fields[r->nfields].col :
			  csv_chars(r->line, r->len) + 1;

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

static int csv_read_rows(struct csv_reader *r)
{
	int ret;

	while ((ret = csv_read_line(r)) > 0) {
		if (csv_line_blank(r))
			continue;
		if (!r->nfields && r->line[0] == '#')
			ret = csv_parse_record(r);
		else if (!r->nfields)
			ret = csv_parse_header(r);
		else
			ret = csv_parse_row(r);
		if (ret)
			return ret;
	}
	if (ret)
		return ret;
	if (!r->nfields)
		return csv_error_at(r, 0, 0, -EINVAL, "empty file");
	if (!r->count)
		return csv_error_at(r, 0, 0, -EINVAL,
				    "no tensors (only a header)");
	return 0;
}

/* A kept id or alias_of text as a field, for messages. */
static struct csv_field csv_kept(const struct csv_reader *r, size_t off,
				 u32 col)
{
	struct csv_field f;

	f.s = r->text + off;
	f.len = (u32)strlen(f.s);
	f.col = col;
	return f;
}

/*
 * All ids were numbers but some alias_of was not: the error csv_number()
 * would have given while reading that row.
 */
static int csv_alias_number_error(struct csv_reader *r, u32 i)
{
	const struct csv_row_pos *pos = &r->pos[i];
	struct csv_field f = csv_kept(r, pos->alias_text,
				      pos->col[SLOT_ALIAS_OF]);
	u64 v;
	int ret;

	r->lineno = pos->line;		/* csv_error() reports this line */
	ret = csv_number(r, &f, SLOT_ALIAS_OF, &v);
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
static char **csv_pack_texts(const struct csv_reader *r, bool extras)
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
	r->names = csv_pack_texts(r, false);
	return r->names ? 0 : csv_nomem(r);
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
		return csv_nomem(r);
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
		f = csv_kept(r, pos->alias_text, pos->col[SLOT_ALIAS_OF]);
		ret = csv_error_at(r, pos->line, f.col, -EINVAL,
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
static int csv_resolve(struct csv_reader *r)
{
	if (r->named)
		return csv_resolve_names(r);
	if (r->bad_alias != CSV_NO_ROW)
		return csv_alias_number_error(r, r->bad_alias);
	return 0;
}

static int csv_lifetime_error(struct csv_reader *r, u32 i, int ret)
{
	const struct tplan_tensor *t = &r->t[i];
	const struct csv_row_pos *pos = &r->pos[i];
	const struct csv_field *lo = &r->slot_name[SLOT_LOWER];
	const struct csv_field *up = &r->slot_name[SLOT_UPPER];

	/* quote the values as written, i.e. end rather than end + 1 */
	return csv_error_at(r, pos->line, pos->col[SLOT_UPPER], ret,
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
		return csv_error_at(r, 0, 0, ret, "%s",
				    tplan_defect_name(f->defect));
	t = &r->t[f->index];
	pos = &r->pos[f->index];
	other = &r->pos[f->other];
	switch (f->defect) {
	case TPLAN_DEFECT_LIFETIME:
		return csv_lifetime_error(r, f->index, ret);
	case TPLAN_DEFECT_ALIGNMENT:
		return csv_error_at(r, pos->line, pos->col[SLOT_ALIGNMENT], ret,
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
			struct csv_field id = csv_kept(r, pos->id_text,
						       pos->col[SLOT_ID]);

			return csv_error_at(r, pos->line, id.col, ret,
					    "duplicate id '%.*s%s' (first on line %u)",
					    CSV_QUOTE(&id), other->line);
		}
		return csv_error_at(r, pos->line, pos->col[SLOT_ID], ret,
				    "duplicate id %llu (first on line %u)",
				    t->id, other->line);
	case TPLAN_DEFECT_TOO_LARGE:
		return csv_error_at(r, pos->line, pos->col[SLOT_SIZE], ret,
				    "the sizes (with alignment padding) add up past 2^64 - 1");
	default:
		return csv_error_at(r, pos->line, 1, ret, "%s",
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
			return csv_nomem(r);
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
		return csv_error_at(r, 0, 0, ret, "%s", strerror(-ret));
	return csv_finding_error(r, &f, ret);
}

/* Each row's unknown fields, packed as the names are. */
static int csv_make_extras(struct csv_reader *r)
{
	if (!r->nextra)
		return 0;
	r->extra = csv_pack_texts(r, true);
	return r->extra ? 0 : csv_nomem(r);
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
		return csv_nomem(r);
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
		ret = csv_resolve(r);
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

/* stdio sets errno when it fails; fall back on EIO if it did not say. */
static int csv_write_errno(void)
{
	return errno ? -errno : -EIO;
}

/* "," then the tiers as digits ("" for any). */
static int csv_write_tiers(u32 tiers, FILE *out)
{
	u32 k;

	if (fputc(',', out) == EOF)
		return -1;
	for (k = 0; k < TPLAN_MAX_TIERS; k++)
		if ((tiers & (1u << k)) && fputc('0' + (int)k, out) == EOF)
			return -1;
	return 0;
}

/*
 * The columns a write keeps: uses only with the uses, never pieces, gaps
 * whenever there are some.
 */
static u32 csv_written_columns(const struct tplan_table *table)
{
	u32 c = table->columns & ~(TPLAN_COLUMN_PIECE |
				   TPLAN_COLUMN_HOST_OFFSET);

	if (table->gaps && table->gap_count)
		c |= TPLAN_COLUMN_GAPS;
	return table->use_start ? c : c & ~TPLAN_COLUMN_USES;
}

/* "," then row @i's uses separated by spaces ("" for the default). */
static int csv_write_uses(const struct tplan_table *table, u32 i, FILE *out)
{
	u32 k;

	if (fputc(',', out) == EOF)
		return -1;
	for (k = table->use_start[i]; k < table->use_start[i + 1]; k++)
		if (fprintf(out, k > table->use_start[i] ? " %llu" : "%llu",
			    table->use_step[k]) < 0)
			return -1;
	return 0;
}

/* "," then row @i's gaps separated by spaces, as MiniMalloc writes them. */
static int csv_write_gaps(const struct tplan_table *table, u32 i, FILE *out)
{
	const struct tplan_tensor *t = &table->tensors[i];
	u32 k;

	if (fputc(',', out) == EOF)
		return -1;
	for (k = 0; k < t->gap_count && table->gaps; k++) {
		const struct tplan_gap *g = &table->gaps[t->gap_first + k];

		if (fprintf(out, k ? " %llu-%llu" : "%llu-%llu", g->lower,
			    g->upper) < 0)
			return -1;
		if ((g->flags & TPLAN_GAP_WINDOW) &&
		    fprintf(out, "@%llu:%llu", g->from, g->to) < 0)
			return -1;
	}
	return 0;
}

/* The columns after alias_offset, in the header's order; offset last. */
static int csv_write_extras(const struct tplan_table *table, u32 i,
			    FILE *out)
{
	const struct tplan_tensor *t = &table->tensors[i];
	u32 columns = csv_written_columns(table);

	if ((columns & TPLAN_COLUMN_MODEL) && fprintf(out, ",%u", t->model) < 0)
		return -1;
	if ((columns & TPLAN_COLUMN_PRIORITY) &&
	    fprintf(out, ",%u", t->priority) < 0)
		return -1;
	if ((columns & TPLAN_COLUMN_TIERS) && csv_write_tiers(t->tiers, out))
		return -1;
	if ((columns & TPLAN_COLUMN_SHARE_KEY) &&
	    fprintf(out, ",%llu", t->share_key) < 0)
		return -1;
	if ((columns & TPLAN_COLUMN_TIER) && fprintf(out, ",%u", t->tier) < 0)
		return -1;
	if ((columns & TPLAN_COLUMN_USES) && csv_write_uses(table, i, out))
		return -1;
	if (columns & TPLAN_COLUMN_HINT) {
		/* no hint: -1, which MiniMalloc reads (an empty field it does not) */
		if (!(t->flags & TPLAN_TENSOR_HINT)) {
			if (fputs(",-1", out) == EOF)
				return -1;
		} else if (fprintf(out, ",%llu", t->hint) < 0) {
			return -1;
		}
	}
	if ((columns & TPLAN_COLUMN_GAPS) && csv_write_gaps(table, i, out))
		return -1;
	if (table->extra_header && table->extra &&
	    fprintf(out, ",%s", table->extra[i]) < 0)
		return -1;
	return fprintf(out, ",%llu\n", t->offset) < 0 ? -1 : 0;
}

static int csv_write_row(const struct tplan_table *table, u32 i, FILE *out)
{
	const struct tplan_tensor *t = &table->tensors[i];
	/* in a named table alias_of is the row index of the owner */
	bool alias_name = table->names && t->alias_of < table->count;

	if (table->names) {
		if (fputs(table->names[i], out) == EOF)
			return -1;
	} else if (fprintf(out, "%llu", t->id) < 0) {
		return -1;
	}
	if (fprintf(out, ",%llu,%llu,%llu",
		    t->lower, t->upper, t->size) < 0)
		return -1;
	if ((table->columns & TPLAN_COLUMN_ALIGNMENT) &&
	    fprintf(out, ",%llu", t->alignment) < 0)
		return -1;
	if (table->columns & TPLAN_COLUMN_ALIAS_OF) {
		if (!(t->flags & TPLAN_TENSOR_ALIAS)) {
			if (fputc(',', out) == EOF)
				return -1;
		} else if (alias_name) {
			if (fputc(',', out) == EOF ||
			    fputs(table->names[t->alias_of], out) == EOF)
				return -1;
		} else if (fprintf(out, ",%llu", t->alias_of) < 0) {
			return -1;
		}
	}
	if (table->columns & TPLAN_COLUMN_ALIAS_OFFSET) {
		/* a number without an alias_of would not read back */
		if (!(t->flags & TPLAN_TENSOR_ALIAS) ||
		    !(table->columns & TPLAN_COLUMN_ALIAS_OF)) {
			if (fputc(',', out) == EOF)
				return -1;
		} else if (fprintf(out, ",%llu", t->alias_offset) < 0) {
			return -1;
		}
	}
	return csv_write_extras(table, i, out);
}

/* The "# tplan:" line, when the table records something; 0 or -1. */
static int csv_write_record(const struct tplan_record *rec, FILE *out)
{
	u32 k;

	if (!rec->flags)
		return 0;
	if (fputs("# tplan:", out) == EOF ||
	    ((rec->flags & TPLAN_RECORD_ALIASES) && fputs(" aliases", out) == EOF) ||
	    ((rec->flags & TPLAN_RECORD_SERIAL) && fputs(" serial", out) == EOF) ||
	    ((rec->flags & TPLAN_RECORD_CONCURRENT) &&
	     fputs(" concurrent", out) == EOF))
		return -1;
	if ((rec->flags & TPLAN_RECORD_TIERS) && rec->tier_count <= TPLAN_MAX_TIERS)
		for (k = 0; k < rec->tier_count; k++)
			if (fprintf(out, k ? ",%llu" : " tiers=%llu",
				    rec->tier_capacity[k]) < 0)
				return -1;
	return fputc('\n', out) == EOF ? -1 : 0;
}

/**
 * tplan_table_write() - write a table as CSV
 * @table: the table; first its record, as a "# tplan:" line, if it records
 *         anything; its optional columns are written if the source had
 *         them (tier if the plan has tiers), and offset always is, last.  With names, the id column
 *         holds names[i] and alias_of holds names[alias_of].  alias_offset
 *         is empty on a row that aliases nothing (or with no alias_of
 *         column).
 * @out: the stream; flushed but not closed
 *
 * Return: 0 or a negative errno.
 */
int tplan_table_write(const struct tplan_table *table, FILE *out)
{
	u32 i;

	if (!table || !out || (table->count && !table->tensors))
		return -EINVAL;
	errno = 0;
	if (csv_write_record(&table->record, out) ||
	    fputs("id,lower,upper,size", out) == EOF)
		return csv_write_errno();
	if ((table->columns & TPLAN_COLUMN_ALIGNMENT) &&
	    fputs(",alignment", out) == EOF)
		return csv_write_errno();
	if ((table->columns & TPLAN_COLUMN_ALIAS_OF) &&
	    fputs(",alias_of", out) == EOF)
		return csv_write_errno();
	if ((table->columns & TPLAN_COLUMN_ALIAS_OFFSET) &&
	    fputs(",alias_offset", out) == EOF)
		return csv_write_errno();
	for (i = 0; i < ARRAY_SIZE(csv_optional); i++) {
		const struct csv_name *c = csv_slot_name(csv_optional[i].slot);

		if (csv_optional[i].slot > SLOT_ALIAS_OFFSET &&
		    csv_optional[i].slot != SLOT_OFFSET &&
		    (csv_written_columns(table) & csv_optional[i].column) &&
		    fprintf(out, ",%s", c->name) < 0)
			return csv_write_errno();
	}
	if (table->extra_header && table->extra &&
	    fprintf(out, ",%s", table->extra_header) < 0)
		return csv_write_errno();
	if (fputs(",offset\n", out) == EOF)
		return csv_write_errno();
	for (i = 0; i < table->count; i++)
		if (csv_write_row(table, i, out))
			return csv_write_errno();
	/* a full disk shows up only when the buffer goes out */
	if (fflush(out) || ferror(out))
		return csv_write_errno();
	return 0;
}

/**
 * tplan_table_save() - write a table as CSV to a file
 * @table: the table
 * @path: the file, created or truncated; "-" means standard output
 * @err: the reason for a failure (may be NULL)
 *
 * Return: 0 or a negative errno.
 */
int tplan_table_save(const struct tplan_table *table, const char *path,
		     struct tplan_error *err)
{
	const char *name = path;
	FILE *out;
	int ret;

	if (!path) {
		ret = -EINVAL;
		name = "<null>";
	} else if (!strcmp(path, "-")) {
		name = "<stdout>";
		ret = tplan_table_write(table, stdout);
	} else {
		out = fopen(path, "w");
		if (!out) {
			ret = -errno;
		} else {
			ret = tplan_table_write(table, out);
			/* fclose() reports what the last flush could not */
			if (fclose(out) && !ret)
				ret = csv_write_errno();
		}
	}
	if (ret && err)
		snprintf(err->msg, sizeof(err->msg), "%s: %s", name,
			 strerror(-ret));
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
