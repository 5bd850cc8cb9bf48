// SPDX-License-Identifier: MIT
/*
 * table_csv_line.c - the CSV reader's lines and fields: one line at a
 * time in bounded memory (its CRLF, BOM and NUL rules), split at commas
 * with blanks trimmed, fields as unsigned decimal numbers, and the error
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

/*
 * Splits a line at commas, trimming blanks, into at most @max fields.
 * Return: the number of fields the line has, which may exceed @max.
 */
u32 tplan_csv_split(const char *line, u32 len, struct csv_field *f, u32 max)
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
