// SPDX-License-Identifier: MIT
/*
 * libtplan.c - offline planning of a loaded table with the shared planner.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "libtplan.h"
#include "internal.h"
#include "planner.h"

/* One version, the Makefile's VERSION: the soname, tplan.pc and tplanctl. */
#ifndef TPLAN_VERSION
#error "TPLAN_VERSION must come from the Makefile"
#endif

/**
 * tplan_version() - the version of libtplan in use
 *
 * The version of the library the program runs with, which may be newer
 * than the one it was built against (same soname, same major version).
 *
 * Return: "MAJOR.MINOR.PATCH", a static string.
 */
const char *tplan_version(void)
{
	return TPLAN_VERSION;
}

/*
 * What checking the new offsets needs besides the rows: aliases honoured
 * (with an alias_of column), how several models run, the tiers.
 */
static void record_options(struct tplan_table *table,
			   const struct tplan_options *opts)
{
	struct tplan_record *rec = &table->record;
	u32 k;

	memset(rec, 0, sizeof(*rec));
	if ((opts->flags & TPLAN_PLAN_ALIASES) &&
	    (table->columns & TPLAN_COLUMN_ALIAS_OF))
		rec->flags |= TPLAN_RECORD_ALIASES;
	if (tplan_table_count_models(table) > 1)
		rec->flags |= opts->flags & TPLAN_PLAN_SERIAL ?
			      TPLAN_RECORD_SERIAL : TPLAN_RECORD_CONCURRENT;
	if (opts->tier_count > 1 && opts->tier_count <= TPLAN_MAX_TIERS) {
		rec->flags |= TPLAN_RECORD_TIERS;
		rec->tier_count = opts->tier_count;
		for (k = 0; k < opts->tier_count; k++)
			rec->tier_capacity[k] = opts->tier_capacity[k];
	}
}

/* Version 0, pad and reserved words zero: what this library knows. */
static bool options_known(const struct tplan_options *opts)
{
	static const u64 zero[ARRAY_SIZE(opts->reserved)];

	return !opts->version && !opts->pad &&
	       !memcmp(opts->reserved, zero, sizeof(zero));
}

/*
 * The table's tensors with alignment 0 read as 1: the tensors themselves
 * when none has 0, else a copy in *@copy (NULL when there is none, or out
 * of memory: then NULL is returned for a non-empty table).
 */
static struct tplan_tensor *aligned_tensors(const struct tplan_table *table,
					    struct tplan_tensor **copy)
{
	u32 i;

	*copy = NULL;
	for (i = 0; i < table->count; i++)
		if (!table->tensors[i].alignment)
			break;
	if (i == table->count)
		return table->tensors;
	*copy = malloc((size_t)table->count * sizeof(**copy));
	if (!*copy)
		return NULL;
	memcpy(*copy, table->tensors, (size_t)table->count * sizeof(**copy));
	for (; i < table->count; i++)
		if (!(*copy)[i].alignment)
			(*copy)[i].alignment = 1;
	return *copy;
}

/* tplan_plan() on the table's tensors, alignment 0 read as 1. */
static int plan_tensors(struct tplan_table *table,
			const struct tplan_options *opts,
			struct tplan_result *res)
{
	struct tplan_tensor *copy, *t;
	int ret;
	u32 i;

	memset(res, 0, sizeof(*res));
	if (!options_known(opts))
		return -EINVAL;
	t = aligned_tensors(table, &copy);
	if (!t && table->count)
		return -ENOMEM;
	ret = tplan_plan(t, table->count, opts, res);
	if (copy) {
		/* what the planner writes: the offsets and tiers */
		for (i = 0; i < table->count; i++) {
			table->tensors[i].offset = copy[i].offset;
			table->tensors[i].tier = copy[i].tier;
		}
		free(copy);
	}
	return ret;
}

/**
 * tplan_table_plan() - plan a table in this process
 * @table: the table; offsets are written into its tensors
 * @opts: strategy, capacity, budget
 * @res: peak, lower bound and statistics
 *
 * Runs the very planner code the kernel module runs, so the offsets are the
 * ones the device would give for the same table and options.  Pinned
 * tensors keep their offsets, hints are taken where they fit, and the
 * table's gaps are honoured (@opts' gaps are the table's, whatever @opts
 * says).  On success @table->record says what checking the plan needs
 * besides its rows (aliases, serial or concurrent models, tiers), which
 * tplan_table_write() writes as the "# tplan:" line.
 *
 * A tensor's alignment 0 is read as 1 (the table is not changed).
 * tplan_table_plan_err() says in words why a plan failed.
 *
 * Return: as tplan_plan(); also -EINVAL for options with a non-zero
 * version, pad or reserved word.
 */
int tplan_table_plan(struct tplan_table *table, const struct tplan_options *opts,
		     struct tplan_result *res)
{
	struct tplan_options o = *opts;

	int ret;

	o.gaps = table->gaps;
	o.gap_count = table->gap_count;
	ret = plan_tensors(table, &o, res);
	if (!ret)
		record_options(table, opts);
	return ret;
}

/**
 * tplan_table_plan_spill() - plan a table that may not fit, in this process
 * @table: the table, with its uses column if it has one (a tensor without
 *         uses is used at lower and upper - 1)
 * @params: spill strategy, capacity and budget; flags and reserved zero
 * @pieces: room for @piece_cap pieces, written on success tensor after
 *          tensor in time order; @pieces[i].tensor is a row of @table
 * @piece_cap: room in @pieces: one per use plus one per tensor is always
 *             enough
 * @res: as tplan_device_submit_spill() reports it
 *
 * The planner tplan_device_submit_spill() runs in the kernel, with the
 * same parameters: the same pieces, byte for byte.  Nothing is reserved.
 *
 * Return: 0; -ENOBUFS when @piece_cap is too small (@res->pieces says how
 * many are needed); -ENOSPC; -ETIMEDOUT; -EINVAL for a table or uses the
 * planner rejects, a capacity of 0, an unknown strategy, non-zero flags
 * or reserved words; -ENOMEM.
 */
int tplan_table_plan_spill(const struct tplan_table *table,
			   const struct tplan_spill_params *params,
			   struct tplan_piece *pieces, u32 piece_cap,
			   struct tplan_spill_result *res)
{
	static const u64 zero[4];
	struct tplan_spill_options o = {
		params->strategy, params->capacity, params->budget
	};
	struct tplan_uses u = { table->use_step, table->use_start };
	struct tplan_tensor *copy, *t;
	int ret;

	memset(res, 0, sizeof(*res));
	if (params->flags || memcmp(params->reserved, zero, sizeof(zero)))
		return -EINVAL;
	t = aligned_tensors(table, &copy);
	if (!t && table->count)
		return -ENOMEM;
	ret = tplan_spill_plan(t, table->count, table->use_start ? &u : NULL,
			       &o, pieces, piece_cap, res);
	free(copy);
	/* the device's errno for "room too small", not the planner's */
	return ret == -E2BIG && res->pieces > piece_cap ? -ENOBUFS : ret;
}

/**
 * tplan_table_validate() - check the offsets of a table
 * @table: the planned table
 * @capacity: bytes available; 0 means unlimited
 * @finding: the first defect found; may be NULL
 *
 * Tensors with gaps may share bytes with others while absent (or only
 * partly present): only bytes present at one step must not overlap.  A
 * tensor's alignment 0 is read as 1.
 *
 * Return: as tplan_validate_gaps(); -ENOMEM.
 */
int tplan_table_validate(const struct tplan_table *table, u64 capacity,
			 struct tplan_finding *finding)
{
	struct tplan_finding ignored;
	struct tplan_tensor *copy, *t = aligned_tensors(table, &copy);
	int ret;

	if (!t && table->count)
		return -ENOMEM;
	ret = tplan_validate_gaps(t, table->count, table->gaps,
				  table->gap_count, capacity,
				  finding ? finding : &ignored);
	free(copy);
	return ret;
}

/* Formats a reason into @err (which may be NULL). */
static __attribute__((format(printf, 2, 3)))
void set_error(struct tplan_error *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

/* "row N (id X[ of model M])" for row @i, 1-based as in the file's rows. */
static int name_row(const struct tplan_table *table, u32 i, char *buf,
		    size_t len)
{
	const struct tplan_tensor *t = &table->tensors[i];
	int n;

	if (table->names)
		n = snprintf(buf, len, "row %u (id '%s'", i + 1,
			     table->names[i]);
	else
		n = snprintf(buf, len, "row %u (id %llu", i + 1, t->id);
	if (n >= 0 && (size_t)n < len && (table->columns & TPLAN_COLUMN_MODEL))
		n += snprintf(buf + n, len - (size_t)n, " of model %u",
			      t->model);
	if (n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, ")");
	return n;
}

/* What is wrong with the options alone, or NULL. */
static const char *options_wrong(const struct tplan_options *opts)
{
	struct tplan_tiers tiers;

	if (!options_known(opts))
		return opts->version ?
		       "options: unknown version (this libtplan knows 0)" :
		       "options: non-zero pad or reserved words";
	if (opts->strategy >= TPLAN_STRATEGY_COUNT)
		return "options: unknown strategy";
	if (opts->flags & ~TPLAN_PLAN_KNOWN_FLAGS)
		return "options: unknown flags";
	if (tplan_tiers_from_options(opts, &tiers))
		return "options: invalid tiers (tier_count above TPLAN_MAX_TIERS, tiers with a capacity, or a tier_capacity missing or past tier_count)";
	return NULL;
}

/**
 * tplan_table_check() - check a table and options before planning
 * @table: the table
 * @opts: the options it will be planned with (its gaps are the table's)
 * @err: why not, in words; may be NULL
 *
 * Every rule tplan_table_plan() (and the device) checks before planning:
 * the options, each tensor's fields, ids, alias groups, tiers, share keys,
 * pins, gaps and hints.  A tensor at fault is named by its row (1-based, in
 * the table's order, which is a file's row order) and its id.
 *
 * Return: 0; -EINVAL or -EOVERFLOW with @err saying why; -ENOMEM.
 */
int tplan_table_check(const struct tplan_table *table,
		      const struct tplan_options *opts, struct tplan_error *err)
{
	struct tplan_finding f = { TPLAN_DEFECT_NONE, 0, 0 };
	struct tplan_options o = *opts;
	struct tplan_tensor *copy, *t;
	const char *why = options_wrong(opts);
	char a[192], b[192];
	int ret;

	if (err)
		err->msg[0] = '\0';
	if (why) {
		set_error(err, "%s", why);
		return -EINVAL;
	}
	t = aligned_tensors(table, &copy);
	if (!t && table->count) {
		set_error(err, "out of memory");
		return -ENOMEM;
	}
	o.gaps = table->gaps;
	o.gap_count = table->gap_count;
	ret = tplan_check_input(t, table->count, &o, &f);
	free(copy);
	if (!ret)
		return 0;
	if (ret == -ENOMEM) {
		set_error(err, "out of memory");
		return ret;
	}
	if (f.defect == TPLAN_DEFECT_NONE || f.index >= table->count ||
	    f.other >= table->count) {
		set_error(err, "invalid table: %s", strerror(-ret));
		return ret;
	}
	if (f.other == f.index) {
		name_row(table, f.index, a, sizeof(a));
		set_error(err, "%s: %s", a, tplan_defect_name(f.defect));
	} else {
		/* the rows in the table's order */
		name_row(table, min(f.index, f.other), a, sizeof(a));
		name_row(table, max(f.index, f.other), b, sizeof(b));
		set_error(err, "%s and %s: %s", a, b,
			  tplan_defect_name(f.defect));
	}
	return ret;
}

/* Why a plan of @table with @opts that returned @ret failed, in @err. */
static void explain(const struct tplan_table *table,
		    const struct tplan_options *opts,
		    const struct tplan_result *res, int ret,
		    struct tplan_error *err)
{
	char tiers[160];
	size_t n = 0;
	u32 k;

	switch (ret) {
	case -EINVAL:
	case -EOVERFLOW:
		if (tplan_table_check(table, opts, err) == ret)
			return;
		break;
	case -ENOSPC:
		if (opts->tier_count > 1) {
			for (k = 0; k < opts->tier_count &&
			     k < TPLAN_MAX_TIERS && n < sizeof(tiers); k++)
				n += (size_t)snprintf(tiers + n,
						      sizeof(tiers) - n,
						      "%s tier %u peak %llu of %llu",
						      k ? "," : "", k,
						      res->tier_peak[k],
						      opts->tier_capacity[k]);
			set_error(err, "does not fit in its tiers:%s (or a tensor fits in none of the tiers it allows)",
				  tiers);
			return;
		}
		set_error(err, "does not fit in %llu bytes: peak %llu (lower bound %llu)%s",
			  opts->capacity, res->peak, res->lower_bound,
			  res->search == TPLAN_SEARCH_IMPOSSIBLE ?
			  "; proven that no plan fits" : "");
		return;
	case -ETIMEDOUT:
		if (opts->budget)
			set_error(err, "work budget of %llu units exhausted",
				  opts->budget);
		else
			set_error(err, "time limit of %llu ns reached before a first plan",
				  opts->time_limit_ns);
		return;
	case -ENOMEM:
		set_error(err, "out of memory");
		return;
	}
	set_error(err, "%s", strerror(-ret));
}

/**
 * tplan_table_plan_err() - plan a table in this process, saying why not
 * @table: as for tplan_table_plan()
 * @opts: as for tplan_table_plan()
 * @res: as for tplan_table_plan()
 * @err: on failure, the reason in words: the row and id of a tensor at
 *       fault and what is wrong with it, the options at fault, the peak
 *       that does not fit...; an empty string on success; may be NULL
 *
 * tplan_table_plan() with a reason.
 *
 * Return: as tplan_table_plan().
 */
int tplan_table_plan_err(struct tplan_table *table,
			 const struct tplan_options *opts,
			 struct tplan_result *res, struct tplan_error *err)
{
	int ret = tplan_table_plan(table, opts, res);

	if (err)
		err->msg[0] = '\0';
	if (ret && err)
		explain(table, opts, res, ret, err);
	return ret;
}
