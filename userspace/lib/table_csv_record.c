// SPDX-License-Identifier: MIT
/*
 * table_csv_record.c - the "# tplan:" line before a CSV header, which
 * records how a plan was made (struct tplan_record: aliases, serial or
 * concurrent, tiers=N,N,...); any other line starting with '#' there is a
 * comment (table_csv.h).  tplan_table_write() writes the line back.
 */
#include <string.h>

#include "libtplan.h"
#include "planner.h"
#include "table_csv.h"

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
		    !tplan_csv_u64(&one,
				   &rec->tier_capacity[rec->tier_count++]))
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
int tplan_csv_parse_record(struct csv_reader *r)
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
