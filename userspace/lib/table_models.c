// SPDX-License-Identifier: MIT
/*
 * table_models.c - tables of several models: one table from one file per
 * model, and what planning the models apart would need.
 */
#include <stdlib.h>
#include <string.h>

#include "libtplan.h"
#include "planner.h"

static int merge_error(struct tplan_error *err, int ret, const char *why,
		       const char *name)
{
	if (err)
		snprintf(err->msg, sizeof(err->msg), "%s: %s", name, why);
	return ret;
}

/* One allocation for the pointers and the strings, as the reader makes. */
static char **merge_names(struct tplan_table *const *tables, u32 count,
			  u32 rows)
{
	size_t bytes = (size_t)rows * sizeof(char *);
	char **names, *p;
	u32 k, i, row = 0;

	for (k = 0; k < count; k++)
		for (i = 0; i < tables[k]->count; i++)
			bytes += strlen(tables[k]->names[i]) + 1;
	names = malloc(bytes);
	if (!names)
		return NULL;
	p = (char *)(names + rows);
	for (k = 0; k < count; k++) {
		for (i = 0; i < tables[k]->count; i++) {
			size_t len = strlen(tables[k]->names[i]) + 1;

			names[row++] = memcpy(p, tables[k]->names[i], len);
			p += len;
		}
	}
	return names;
}

/* Each table can become one model: one model column at most, ids alike. */
static int merge_check(struct tplan_table *const *tables, u32 count,
		       const char *const *names, u64 *rows,
		       struct tplan_error *err)
{
	u32 k;

	*rows = 0;
	if (!count)
		return merge_error(err, -EINVAL, "no table to merge", "tplan");
	for (k = 0; k < count; k++) {
		if (tables[k]->columns & TPLAN_COLUMN_MODEL)
			return merge_error(err, -EINVAL,
					   "has a model column: give one file per model, or one file with a model column",
					   names[k]);
		if (tables[k]->gaps || (count > 1 && (tables[k]->columns &
						      TPLAN_COLUMN_HINT)))
			return merge_error(err, -EINVAL,
					   "has gaps or hints: those need a table of one model",
					   names[k]);
		if (!tables[k]->names != !tables[0]->names)
			return merge_error(err, -EINVAL,
					   "ids are names in one table and numbers in another",
					   names[k]);
		*rows += tables[k]->count;
	}
	if (*rows > TPLAN_MAX_TENSORS)
		return merge_error(err, -E2BIG, "too many tensors in all",
				   names[0]);
	return 0;
}

/* The uses of every table, one after another, if any table has some. */
static int merge_uses(struct tplan_table *m, struct tplan_table *const *tables,
		      u32 count)
{
	u32 k, i, row = 0, at = 0;
	bool any = false;
	u64 steps = 0;

	for (k = 0; k < count; k++) {
		if (tables[k]->use_start) {
			any = true;
			steps += tables[k]->use_start[tables[k]->count];
		}
	}
	if (!any)
		return 0;
	m->use_step = malloc((size_t)(steps ? steps : 1) * sizeof(*m->use_step));
	m->use_start = malloc(((size_t)m->count + 1) * sizeof(*m->use_start));
	if (!m->use_step || !m->use_start)
		return -ENOMEM;
	for (k = 0; k < count; k++) {
		const struct tplan_table *t = tables[k];

		for (i = 0; i < t->count; i++) {
			m->use_start[row++] = at;
			if (!t->use_start)
				continue;
			memcpy(&m->use_step[at], &t->use_step[t->use_start[i]],
			       (t->use_start[i + 1] - t->use_start[i]) *
			       sizeof(*m->use_step));
			at += t->use_start[i + 1] - t->use_start[i];
		}
	}
	m->use_start[row] = at;
	m->columns |= TPLAN_COLUMN_USES;
	return 0;
}

/**
 * tplan_table_merge() - one table of several models, one per table
 * @tables: the tables, none with a model column
 * @count: how many, at least 1
 * @names: what to call each table in messages
 * @merged: set to a new table (free with tplan_table_free()): table k's
 *          rows, in order, as model k
 * @err: the reason for a failure (may be NULL)
 *
 * Ids stay per model.  Tables with named ids stay named: a named id (and
 * alias_of) is then the row index in the merged table.  Uses are kept (a
 * row of a table without them has none: lower and upper - 1); a spill
 * plan's piece and host_offset columns are not (merge tables, not plans).
 *
 * Return: 0; -EINVAL when a table has its own model column, gaps, or
 * hints (with more than one table; pins, gaps and hints need a table of
 * one model), or named and numeric ids are mixed; -E2BIG; -ENOMEM.
 * Columns the library does not know are not merged.
 */
int tplan_table_merge(struct tplan_table *const *tables, u32 count,
		      const char *const *names, struct tplan_table **merged,
		      struct tplan_error *err)
{
	struct tplan_table *m;
	u32 k, i, row = 0;
	u64 rows;
	int ret;

	*merged = NULL;
	ret = merge_check(tables, count, names, &rows, err);
	if (ret)
		return ret;
	m = calloc(1, sizeof(*m));
	if (m)
		m->tensors = calloc(rows ? rows : 1, sizeof(*m->tensors));
	if (m && m->tensors && tables[0]->names)
		m->names = merge_names(tables, count, (u32)rows);
	if (!m || !m->tensors || (tables[0]->names && !m->names)) {
		tplan_table_free(m);
		return merge_error(err, -ENOMEM, "out of memory", names[0]);
	}
	for (k = 0; k < count; k++) {
		u32 base = row;

		/* uses are merged below; a plan's pieces are not */
		m->columns |= tables[k]->columns & ~(TPLAN_COLUMN_USES |
						     TPLAN_COLUMN_PIECE |
						     TPLAN_COLUMN_HOST_OFFSET);
		for (i = 0; i < tables[k]->count; i++) {
			struct tplan_tensor *t = &m->tensors[row++];

			*t = tables[k]->tensors[i];
			t->model = k;
			if (m->names) {
				t->id += base;
				t->alias_of += base;
			}
		}
	}
	m->count = (u32)rows;
	m->columns |= TPLAN_COLUMN_MODEL;
	if (merge_uses(m, tables, count)) {
		tplan_table_free(m);
		return merge_error(err, -ENOMEM, "out of memory", names[0]);
	}
	*merged = m;
	return 0;
}

/* The smallest model above @after (or the smallest, if @first); false if none. */
static bool next_model(const struct tplan_table *table, u32 after, bool first,
		       u32 *model)
{
	bool found = false;
	u32 i;

	for (i = 0; i < table->count; i++) {
		u32 m = table->tensors[i].model;

		if ((first || m > after) && (!found || m < *model)) {
			*model = m;
			found = true;
		}
	}
	return found;
}

/**
 * tplan_table_count_models() - how many models a table holds
 * @table: the table
 *
 * Return: the number of distinct model values.
 */
u32 tplan_table_count_models(const struct tplan_table *table)
{
	u32 model = 0, n = 0;

	while (next_model(table, model, !n, &model))
		n++;
	return n;
}

static int plan_offline(void *ctx, struct tplan_table *part,
			const struct tplan_options *opts, struct tplan_result *res)
{
	return tplan_table_plan(part, opts, res);
}

/**
 * tplan_table_plan_apart() - what the models need, each planned alone
 * @table: the table; left as it was
 * @opts: the options to plan each model with (%TPLAN_PLAN_SERIAL aside)
 * @plan: plans one model's table (a dry run on a device, say); NULL
 *        plans offline with tplan_table_plan()
 * @ctx: passed to @plan
 * @apart: the sum of the models' peaks (each one's tier peaks summed)
 *
 * The memory a runtime needs when it plans its models one by one, to
 * compare with a plan of all of them together.
 *
 * Return: 0 or the first error of @plan.
 */
int tplan_table_plan_apart(const struct tplan_table *table,
			   const struct tplan_options *opts,
			   tplan_plan_model_fn plan, void *ctx, u64 *apart)
{
	struct tplan_options one = *opts;
	struct tplan_table part = { .columns = table->columns,
				    .gaps = table->gaps,
				    .gap_count = table->gap_count };
	struct tplan_result res;
	u32 model = 0, i;
	bool first = true;
	int ret = 0;

	*apart = 0;
	part.tensors = malloc(((size_t)table->count + 1) * sizeof(*part.tensors));
	if (!part.tensors)
		return -ENOMEM;
	one.flags &= ~TPLAN_PLAN_SERIAL;
	while (!ret && next_model(table, model, first, &model)) {
		first = false;
		for (i = 0, part.count = 0; i < table->count; i++)
			if (table->tensors[i].model == model)
				part.tensors[part.count++] = table->tensors[i];
		ret = (plan ? plan : plan_offline)(ctx, &part, &one, &res);
		if (!ret)
			*apart += res.peak;
	}
	free(part.tensors);
	return ret;
}
