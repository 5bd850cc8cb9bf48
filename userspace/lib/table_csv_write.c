// SPDX-License-Identifier: MIT
/*
 * table_csv_write.c - writing a table as CSV (tplan_table_write(),
 * tplan_table_save()): the "# tplan:" line when the table records
 * anything, the header, then one row per tensor; what a source read had
 * (optional and unknown columns, names, MiniMalloc's hint as -1 when
 * there is none, gaps) is written back so that it reads back the same
 * (table_csv.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "libtplan.h"
#include "planner.h"
#include "table_csv.h"

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

/* A name as a field: quoted when it holds a comma or edge blanks; 0 or -1. */
static int csv_write_name(const char *name, FILE *out)
{
	size_t len = strlen(name);
	char *text;
	int ret;

	if (!tplan_csv_needs_quotes(name, len))
		return fputs(name, out) == EOF ? -1 : 0;
	text = malloc(tplan_csv_put_text(name, len, true, NULL));
	if (!text)
		return -1;
	len = tplan_csv_put_text(name, len, true, text);
	ret = fwrite(text, 1, len, out) == len ? 0 : -1;
	free(text);
	return ret;
}

static int csv_write_row(const struct tplan_table *table, u32 i, FILE *out)
{
	const struct tplan_tensor *t = &table->tensors[i];
	/* in a named table alias_of is the row index of the owner */
	bool alias_name = table->names && t->alias_of < table->count;

	if (table->names) {
		if (csv_write_name(table->names[i], out))
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
			    csv_write_name(table->names[t->alias_of], out))
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
 *         them (tier if the plan has tiers), and offset always is, last.
 *         With names, the id column holds names[i] and alias_of holds
 *         names[alias_of].  alias_offset is empty on a row that aliases
 *         nothing (or with no alias_of column).
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
	for (i = 0; i < ARRAY_SIZE(tplan_csv_optional); i++) {
		const struct csv_column *o = &tplan_csv_optional[i];
		const struct csv_name *c = tplan_csv_slot_name(o->slot);

		if (o->slot > SLOT_ALIAS_OFFSET && o->slot != SLOT_OFFSET &&
		    (csv_written_columns(table) & o->column) &&
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
