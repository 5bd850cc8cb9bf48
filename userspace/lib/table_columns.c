// SPDX-License-Identifier: MIT
/*
 * table_columns.c - a table made of columns (arrays of ids or names,
 * lifetimes, sizes, alignments) rather than read from text: the way a
 * program that has its tensors in arrays gives them to the library.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libtplan.h"
#include "planner.h"
#include "table_csv.h"

/* A reason into @err (may be NULL); returns @ret. */
static int columns_error(struct tplan_error *err, int ret, const char *why,
			 u32 row, const char *name)
{
	if (err && name)
		snprintf(err->msg, sizeof(err->msg), "row %u: %s '%.64s'",
			 row + 1, why, name);
	else if (err)
		snprintf(err->msg, sizeof(err->msg), "columns: %s", why);
	return ret;
}

/* Whether @s is a name a table file could hold: UTF-8, one line, not empty. */
static bool name_ok(const char *s)
{
	size_t len = strlen(s), i, n;

	if (!len || len > TPLAN_MAX_LINE || strpbrk(s, "\r\n"))
		return false;
	for (i = 0; i < len; i += n) {
		n = tplan_csv_utf8_char((const unsigned char *)s + i,
					(u32)(len - i));
		if (!n)
			return false;
	}
	return true;
}

/* The names copied into one block (array, then strings): one free. */
static char **copy_names(const char *const *names, u32 count)
{
	size_t bytes = (size_t)count * sizeof(char *), at;
	char **out;
	u32 i;

	for (i = 0; i < count; i++)
		bytes += strlen(names[i]) + 1;
	out = malloc(bytes ? bytes : 1);
	if (!out)
		return NULL;
	at = (size_t)count * sizeof(char *);
	for (i = 0; i < count; i++) {
		out[i] = (char *)out + at;
		at += strlen(names[i]) + 1;
		memcpy(out[i], names[i], strlen(names[i]) + 1);
	}
	return out;
}

struct named_row {
	const char *name;
	u32 row;
};

static int by_name(const void *a, const void *b)
{
	const struct named_row *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->row > y->row) - (x->row < y->row);
}

/*
 * The first row (in row order) whose name an earlier row has: -EINVAL with
 * @err naming both, 0 if none, -ENOMEM.
 */
static int names_unique(const char *const *names, u32 count,
			struct tplan_error *err)
{
	struct named_row *order = malloc((count ? count : 1) * sizeof(*order));
	u32 i, row = count, first = 0;

	if (!order)
		return columns_error(err, -ENOMEM, "out of memory", 0, NULL);
	for (i = 0; i < count; i++)
		order[i] = (struct named_row){ names[i], i };
	qsort(order, count, sizeof(*order), by_name);
	for (i = 1; i < count; i++)
		if (!strcmp(order[i].name, order[i - 1].name) &&
		    order[i].row < row) {
			row = order[i].row;
			first = order[i - 1].row;
		}
	free(order);
	if (row == count)
		return 0;
	if (err)
		snprintf(err->msg, sizeof(err->msg),
			 "row %u: duplicate id '%.64s' (first in row %u)",
			 row + 1, names[row], first + 1);
	return -EINVAL;
}

static int columns_valid(const struct tplan_columns *c,
			 struct tplan_error *err)
{
	u32 i;

	if (c->flags)
		return columns_error(err, -EINVAL, "unknown flags", 0, NULL);
	if (!c->lower || !c->upper || !c->size)
		return columns_error(err, -EINVAL,
				     "lower, upper and size are required",
				     0, NULL);
	if (c->count > TPLAN_MAX_TENSORS)
		return columns_error(err, -E2BIG, "more than 16777216 rows",
				     0, NULL);
	for (i = 0; c->names && i < c->count; i++)
		if (!c->names[i] || !name_ok(c->names[i]))
			return columns_error(err, -EINVAL,
					     "not a name (empty, a line end or not UTF-8):",
					     i, c->names[i] ? c->names[i] : "");
	return c->names ? names_unique(c->names, c->count, err) : 0;
}

static void fill_tensor(struct tplan_tensor *t, const struct tplan_columns *c,
			u32 i)
{
	memset(t, 0, sizeof(*t));
	t->id = c->names || !c->id ? i : c->id[i];
	t->lower = c->lower[i];
	t->upper = c->upper[i];
	t->size = c->size[i];
	t->alignment = c->alignment ? c->alignment[i] : 1;	/* 0 means 1 */
	t->priority = TPLAN_DEFAULT_PRIORITY;
}

/**
 * tplan_table_from_columns() - a table made of columns
 * @columns: the columns; copied, not kept
 * @table: set to the new table on success, to free with tplan_table_free();
 *         to NULL on failure
 * @err: why not, in words ("row 3 (id 7): ..."); may be NULL
 *
 * The table a file of the same rows would give (named ids become row
 * indexes, as tplan_table_load() makes them), checked as
 * tplan_table_check() checks a table for the default options.
 *
 * Return: 0; -EINVAL (a column missing, flags, a bad or duplicate name, or
 * what tplan_table_check() refuses), -EOVERFLOW, -E2BIG (too many rows) or
 * -ENOMEM, with @err saying why.
 */
int tplan_table_from_columns(const struct tplan_columns *columns,
			     struct tplan_table **table,
			     struct tplan_error *err)
{
	const struct tplan_options defaults = {
		.strategy = TPLAN_STRATEGY_AUTO,
	};
	struct tplan_table *t;
	u32 i;
	int ret;

	*table = NULL;
	if (err)
		err->msg[0] = '\0';
	ret = columns_valid(columns, err);
	if (ret)
		return ret;
	t = calloc(1, sizeof(*t));
	if (t)
		t->tensors = calloc(columns->count ? columns->count : 1,
				    sizeof(*t->tensors));
	if (t && t->tensors && columns->names)
		t->names = copy_names(columns->names, columns->count);
	if (!t || !t->tensors || (columns->names && !t->names)) {
		tplan_table_free(t);
		return columns_error(err, -ENOMEM, "out of memory", 0, NULL);
	}
	for (i = 0; i < columns->count; i++)
		fill_tensor(&t->tensors[i], columns, i);
	t->count = columns->count;
	t->columns = columns->alignment ? TPLAN_COLUMN_ALIGNMENT : 0;
	ret = tplan_table_check(t, &defaults, err);
	if (ret) {
		tplan_table_free(t);
		return ret;
	}
	*table = t;
	return 0;
}
