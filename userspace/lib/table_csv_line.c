// SPDX-License-Identifier: MIT
/*
 * table_csv_line.c - the CSV reader's lines and fields: one line at a
 * time in bounded memory (its CRLF, BOM and NUL rules), split at commas
 * with blanks trimmed (RFC 4180's quoted fields too, on one line), fields
 * as unsigned decimal numbers, and the error
 * messages that point at a line and column of the file.  The bottom of the
 * CSV layer: it calls no other file of it (table_csv.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "libtplan.h"
#include "planner.h"
#include "table_csv.h"

__attribute__((format(printf, 5, 6)))
int tplan_csv_error_at(struct csv_reader *r, u32 line, u32 col, int ret,
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

int tplan_csv_nomem(struct csv_reader *r)
{
	return tplan_csv_error_at(r, 0, 0, -ENOMEM, "%s", strerror(ENOMEM));
}

static int csv_io_error(struct csv_reader *r)
{
	int e = errno ? errno : EIO;

	return tplan_csv_error_at(r, 0, 0, -e, "read error: %s", strerror(e));
}

/*
 * Reads one line into r->line without its line end.  Memory stays bounded
 * by TPLAN_MAX_LINE whatever the input, unlike getline(), which would
 * swallow a gigabyte without a newline before we could object.
 *
 * Return: 1 with a line, 0 at end of file, or a negative errno.
 */
int tplan_csv_read_line(struct csv_reader *r)
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

bool tplan_csv_line_blank(const struct csv_reader *r)
{
	u32 i;

	for (i = 0; i < r->len; i++)
		if (!csv_blank(r->line[i]))
			return false;
	return true;
}

/* Columns advance at the first byte of each UTF-8 character. */
static u32 csv_col_step(char c)
{
	return ((unsigned char)c & 0xc0) != 0x80;
}

/*
 * The quoted field at line[*i] (its opening quote), as RFC 4180 has it:
 * "" stands for one quote; blanks may follow the closing one.  Its value
 * is written over the field in place (it is never longer), from @w on.
 *
 * Return: the value's end, or NULL after filling in @sp's reason.
 */
static char *csv_unquote(char *line, u32 len, u32 *i, u32 *col, char *w,
			 struct csv_split *sp)
{
	u32 open_col = *col;

	(*i)++;
	(*col)++;
	for (;;) {
		if (*i == len) {
			sp->bad_col = open_col;
			sp->why = "quoted field not closed on its line";
			return NULL;
		}
		if (line[*i] == '"' && (*i + 1 == len || line[*i + 1] != '"'))
			break;
		if (line[*i] == '"') {	/* "" */
			(*i)++;
			(*col)++;
		}
		*col += csv_col_step(line[*i]);
		*w++ = line[(*i)++];
	}
	(*i)++;			/* the closing quote */
	(*col)++;
	while (*i < len && csv_blank(line[*i])) {
		(*i)++;
		(*col)++;
	}
	if (*i < len && line[*i] != ',') {
		sp->bad_col = *col;
		sp->why = "text after a quoted field's closing quote";
		return NULL;
	}
	return w;
}

/*
 * Splits a line at commas, trimming blanks, into at most @max fields; a
 * field in double quotes may hold commas and blanks ("" is a quote), and
 * its value replaces it in @line.
 *
 * Return: the number of fields the line has, which may exceed @max; on a
 * malformed quoted field, @sp says where and why (else its why is NULL).
 */
u32 tplan_csv_split(char *line, u32 len, struct csv_field *f, u32 max,
		    struct csv_split *sp)
{
	u32 i = 0, n = 0, col = 1;

	sp->why = NULL;
	for (;;) {
		u32 start, end, start_col, blank_col = col;
		bool quoted;

		while (i < len && csv_blank(line[i])) {
			i++;
			col++;
		}
		start = i;
		start_col = col;
		quoted = i < len && line[i] == '"';
		if (quoted) {
			char *value_end = csv_unquote(line, len, &i, &col,
						      line + start, sp);

			if (!value_end)
				return n + 1;
			end = (u32)(value_end - line);
			start_col++;	/* the value starts after the quote */
		} else {
			while (i < len && line[i] != ',') {
				col += csv_col_step(line[i]);
				i++;
			}
			end = i;
			while (end > start && csv_blank(line[end - 1]))
				end--;
		}
		/* an empty field is best shown where it starts */
		if (end == start && !quoted)
			start_col = blank_col;
		if (n < max) {
			f[n].s = line + start;
			f[n].len = end - start;
			f[n].col = start_col;
			f[n].quoted = quoted;
		}
		n++;
		sp->end_col = col;
		if (i == len)
			return n;
		i++;		/* the comma */
		col++;
	}
}

/*
 * A value as CSV text into @out (NULL: only measured): as it is, or with
 * @quote in double quotes, its quotes doubled.
 *
 * Return: its length.
 */
size_t tplan_csv_put_text(const char *s, size_t len, bool quote, char *out)
{
	size_t i, n = 0;

	if (quote && out)
		out[n] = '"';
	n += quote;
	for (i = 0; i < len; i++) {
		if (quote && s[i] == '"') {
			if (out)
				out[n] = '"';
			n++;
		}
		if (out)
			out[n] = s[i];
		n++;
	}
	if (quote && out)
		out[n] = '"';
	return n + quote;
}

/* Whether a value must be quoted to be read back as it is. */
bool tplan_csv_needs_quotes(const char *s, size_t len)
{
	return len && (memchr(s, ',', len) || memchr(s, '"', len) ||
		       csv_blank(s[0]) || csv_blank(s[len - 1]));
}

/* A plain unsigned decimal that fits in 64 bits. */
bool tplan_csv_u64(const struct csv_field *f, u64 *out)
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

/* Quotes at most CSV_QUOTE_MAX bytes of a value back in a message. */
int tplan_csv_bad_value(struct csv_reader *r, const struct csv_field *f,
			u32 slot, const char *why)
{
	const struct csv_field *name = &r->slot_name[slot];
	bool cut = f->len > CSV_QUOTE_MAX;

	return csv_error(r, f->col, "column '%.*s': %s '%.*s%s'",
			 (int)name->len, name->s, why,
			 (int)(cut ? CSV_QUOTE_MAX : f->len), f->s,
			 cut ? "..." : "");
}

int tplan_csv_number(struct csv_reader *r, const struct csv_field *f,
		     u32 slot, u64 *out)
{
	const struct csv_field *name = &r->slot_name[slot];
	u64 v = 0;
	u32 i;

	if (!f->len)
		return csv_error(r, f->col, "column '%.*s': empty value",
				 (int)name->len, name->s);
	if (f->s[0] == '-' && f->len > 1 && csv_digit(f->s[1]))
		return tplan_csv_bad_value(r, f, slot, "negative value");
	for (i = 0; i < f->len; i++) {
		unsigned int d = (unsigned int)(f->s[i] - '0');

		if (!csv_digit(f->s[i]))
			return tplan_csv_bad_value(r, f, slot, "not a number:");
		if (v > (UINT64_MAX - d) / 10)
			return csv_error(r, f->col,
					 "column '%.*s': value does not fit in 64 bits",
					 (int)name->len, name->s);
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}
