/* SPDX-License-Identifier: MIT */
/*
 * table_csv.h - what the files of libtplan's CSV layer share: the reader's
 * state, the column slots and the calls between the files.  Private: not
 * installed, included only by userspace/lib/table_csv_*.c.
 *
 * The CSV layer reads and writes tensor lifetime tables (tplan_table_read(),
 * tplan_table_load(), tplan_table_write(), tplan_table_save() and
 * tplan_table_free() of libtplan.h), one concern a file:
 *
 *   table_csv_read.c        the entry points that read, and
 *                           tplan_table_free(): the lines in order, then
 *                           the ids, then tplan_check_table(), whose
 *                           findings it turns into positions in the file,
 *                           then the table
 *   table_csv_record.c      the "# tplan:" line before the header
 *   table_csv_header.c      the columns: names, synonyms, the header line,
 *                           the unknown columns kept as text
 *   table_csv_row.c         a row's values into a tensor
 *   table_csv_minimalloc.c  MiniMalloc's offset, hint and gaps
 *   table_csv_ids.c         ids as numbers or names, resolved once every
 *                           row is in
 *   table_csv_line.c        lines, fields, numbers and the error messages
 *                           that point into the file
 *   table_csv_write.c       the entry points that write
 *
 * Calls run one way: read calls record, header, row and ids; row calls
 * header and minimalloc; all of these call line, which calls none of
 * them; write calls only header (the column names), and nothing calls
 * write (tests/lint/layers.sh checks it).
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
 *   - MiniMalloc's columns are read, used by the planner and written back:
 *     offset (a pin: the tensor must sit there), hint (an offset it would
 *     like); for either, -1 or empty means none, and a hint that is none is
 *     written back as -1, which MiniMalloc reads.  And gaps (the steps of
 *     the lifetime when the tensor is absent, or present only in a window
 *     of its bytes: see tplan_csv_store_gaps()); a gap reaching outside the
 *     lifetime is cut to it, since the tensor is absent there anyway, as
 *     MiniMalloc does.
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
 * to the right place even after non-ASCII text in an earlier column.
 */
#ifndef TPLAN_TABLE_CSV_H
#define TPLAN_TABLE_CSV_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

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

/* A column's name (table_csv_header.c has them all). */
struct csv_name {
	const char *name;
	u8 slot;
	bool inclusive;		/* MiniMalloc's "end": upper = end + 1 */
};

/* An optional column and the TPLAN_COLUMN_* bit that remembers it. */
struct csv_column {
	u8 slot;
	u32 column;
};

/* Every slot from SLOT_ALIGNMENT on is an optional column. */
#define CSV_NR_OPTIONAL		(NR_SLOTS - SLOT_ALIGNMENT)

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
	bool quoted;		/* it was in double quotes (s is its value) */
};

/* What tplan_csv_split() says of a line besides its fields. */
struct csv_split {
	u32 end_col;		/* the column just past the line */
	u32 bad_col;		/* where a malformed quoted field went wrong */
	const char *why;	/* NULL, or what was wrong with it */
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

/*
 * The reader's state, from the first line to the table: one per
 * tplan_table_read() (table_csv_read.c), passed to every reading call.
 */
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

static inline bool csv_blank(char c)
{
	return c == ' ' || c == '\t';
}

static inline bool csv_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* UTF-8 continuation bytes do not start a character. */
static inline u32 csv_chars(const char *s, u32 len)
{
	u32 i, n = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			n++;
	return n;
}

static inline bool csv_field_is(const struct csv_field *f, const char *s)
{
	return strlen(s) == f->len && !memcmp(f->s, s, f->len);
}

/* Column names are case-insensitive ("ID" is "id"). */
static inline bool csv_same_name(const struct csv_field *f, const char *s,
				 size_t len)
{
	return len == f->len && !strncasecmp(f->s, s, len);
}

/* Most errors are about a field of the line just read. */
#define csv_error(r, col, fmt, ...) \
	tplan_csv_error_at(r, (r)->lineno, col, -EINVAL, fmt, ##__VA_ARGS__)

/* table_csv_line.c: lines, fields, numbers, messages */
__attribute__((format(printf, 5, 6)))
int tplan_csv_error_at(struct csv_reader *r, u32 line, u32 col, int ret,
		       const char *fmt, ...);
int tplan_csv_nomem(struct csv_reader *r);
int tplan_csv_read_line(struct csv_reader *r);
bool tplan_csv_line_blank(const struct csv_reader *r);
u32 tplan_csv_split(char *line, u32 len, struct csv_field *f, u32 max,
		    struct csv_split *sp);
size_t tplan_csv_put_text(const char *s, size_t len, bool quote, char *out);
bool tplan_csv_needs_quotes(const char *s, size_t len);
bool tplan_csv_u64(const struct csv_field *f, u64 *out);
int tplan_csv_bad_value(struct csv_reader *r, const struct csv_field *f,
			u32 slot, const char *why);
int tplan_csv_number(struct csv_reader *r, const struct csv_field *f,
		     u32 slot, u64 *out);

/* table_csv_row.c: UTF-8, for ids that go into SVG and JSON */
u32 tplan_csv_utf8_char(const unsigned char *s, u32 len);

/* table_csv_header.c: the columns */
extern const struct csv_column tplan_csv_optional[CSV_NR_OPTIONAL];
const struct csv_name *tplan_csv_slot_name(u32 slot);
size_t tplan_csv_join_extras(const struct csv_reader *r, char *out);
int tplan_csv_parse_header(struct csv_reader *r);

/* table_csv_record.c: the "# tplan:" line */
int tplan_csv_parse_record(struct csv_reader *r);

/* table_csv_minimalloc.c: offset, hint, gaps */
int tplan_csv_store_gaps(struct csv_reader *r, struct tplan_tensor *t,
			 const struct csv_field *f);
int tplan_csv_store_place(struct csv_reader *r, struct tplan_tensor *t,
			  u32 slot, const struct csv_field *f);

/* table_csv_row.c: a row */
int tplan_csv_parse_row(struct csv_reader *r);

/* table_csv_ids.c: numbers or names */
struct csv_field tplan_csv_kept(const struct csv_reader *r, size_t off,
				u32 col);
char **tplan_csv_pack_texts(const struct csv_reader *r, bool extras);
int tplan_csv_resolve(struct csv_reader *r);

#endif /* TPLAN_TABLE_CSV_H */
