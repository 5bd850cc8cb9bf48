// SPDX-License-Identifier: MIT
/*
 * libtplan.c - planning in this process with the shared planner: first the
 * array-level API (an array of struct tplan_tensor: plan, check, lower
 * bound, validate, spill plan and spill validate), the planner's calls with
 * the library's ABI checks; then the table calls built on it (a table's
 * alignment 0 read as 1, its gaps, what a plan records, why it failed).
 * It reaches the planner through planner.h only.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "libtplan.h"
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

/* Version 0, pad and reserved words zero: what this library knows. */
static bool options_known(const struct tplan_options *opts)
{
	static const u64 zero[ARRAY_SIZE(opts->reserved)];

	return !opts->version && !opts->pad &&
	       !memcmp(opts->reserved, zero, sizeof(zero));
}

/* The caller's finding, or @local when it passed none; zeroed. */
static struct tplan_finding *zeroed_finding(struct tplan_finding *finding,
					    struct tplan_finding *local)
{
	if (!finding)
		finding = local;
	memset(finding, 0, sizeof(*finding));
	return finding;
}

/**
 * tplan_tensors_plan() - plan an array of tensors in this process
 * @tensors: the tensors; each one's offset (and tier) is written
 * @count: how many
 * @opts: strategy, capacity or tiers, budget, flags, gaps
 * @res: peak, lower bound and statistics
 *
 * The planner the kernel module runs, on the caller's own array: the same
 * tensors and options give the offsets the device would give.  Unlike the
 * table calls, nothing is read for the caller: an alignment must be a
 * power of two (1 or more), and the gaps are @opts->gaps.  A zeroed
 * &struct tplan_options plans with auto, unlimited capacity and the
 * default budget.
 *
 * Return: 0; -EINVAL or -EOVERFLOW for tensors tplan_tensors_check()
 * rejects, an unknown strategy or flags, bad tiers, options with a
 * non-zero version, pad or reserved word; -ENOSPC when the plan does not
 * fit (@res holds the peaks needed); -ETIMEDOUT when the budget ran out;
 * -ENOMEM.
 */
int tplan_tensors_plan(struct tplan_tensor *tensors, u32 count,
		       const struct tplan_options *opts,
		       struct tplan_result *res)
{
	memset(res, 0, sizeof(*res));
	if (!options_known(opts))
		return -EINVAL;
	return tplan_plan(tensors, count, opts, res);
}

/**
 * tplan_tensors_check() - check an array of tensors and options before
 * planning
 * @tensors: the tensors
 * @count: how many
 * @opts: the options they will be planned with (gaps included)
 * @finding: the first defect found; may be NULL
 *
 * Every rule tplan_tensors_plan() checks before it places a tensor: the
 * options (version, pad and reserved words, strategy, flags, tiers), each
 * tensor's fields, ids, alias groups (with %TPLAN_PLAN_ALIASES), tiers,
 * share keys, pins, gaps and hints.
 *
 * Return: 0; -EINVAL or -EOVERFLOW with @finding filled (defect
 * %TPLAN_DEFECT_NONE: the options are at fault); -ENOMEM.
 */
int tplan_tensors_check(const struct tplan_tensor *tensors, u32 count,
			const struct tplan_options *opts,
			struct tplan_finding *finding)
{
	struct tplan_finding ignored;

	finding = zeroed_finding(finding, &ignored);
	if (!options_known(opts) || tplan_check_options(opts))
		return -EINVAL;
	return tplan_check_input(tensors, count, opts, finding);
}

/**
 * tplan_tensors_check_gaps() - check the gaps of an array of tensors
 * @tensors: the tensors, with lifetimes and sizes tplan_tensors_check()
 *           accepts
 * @count: how many
 * @gaps: the gaps their gap_first and gap_count index (may be NULL)
 * @gap_count: entries in @gaps
 * @finding: the first defect found (the tensor, twice); may be NULL
 *
 * Each tensor's gaps must lie in @gaps, be non-empty, inside its lifetime,
 * in time order without overlapping, and a window must lie inside its
 * size: the gap rules alone, for a program that reads gaps (to draw a
 * plan, say) without planning.
 *
 * Return: 0 or -EINVAL.
 */
int tplan_tensors_check_gaps(const struct tplan_tensor *tensors, u32 count,
			     const struct tplan_gap *gaps, u32 gap_count,
			     struct tplan_finding *finding)
{
	struct tplan_finding ignored;

	finding = zeroed_finding(finding, &ignored);
	return tplan_check_gaps(tensors, count, gaps, gap_count, finding);
}

/**
 * tplan_tensors_lower_bound() - the lower bound a plan is measured against
 * @tensors: the tensors
 * @count: how many
 * @opts: the options (%TPLAN_PLAN_ALIASES, %TPLAN_PLAN_SERIAL and the gaps
 *        count; the strategy and capacity do not)
 * @bound: the largest sum of sizes alive at one step: of the alias groups
 *         folded, of the models' common timeline when serial, summed over
 *         the models when concurrent
 *
 * The bound tplan_tensors_plan() reports in &struct tplan_result, without
 * planning: no plan of these tensors needs fewer bytes.
 *
 * Return: 0; -EINVAL for options with a non-zero version, pad or reserved
 * word, or tensors tplan_tensors_check() rejects; -EOVERFLOW; -ENOMEM.
 */
int tplan_tensors_lower_bound(const struct tplan_tensor *tensors, u32 count,
			      const struct tplan_options *opts, u64 *bound)
{
	*bound = 0;
	if (!options_known(opts))
		return -EINVAL;
	return tplan_plan_bound(tensors, count, opts, bound);
}

/**
 * tplan_tensors_validate() - check a plan made with the given options
 * @tensors: the planned tensors (offset and tier of each)
 * @count: how many
 * @opts: the options it was planned with: tiers and their capacities (or
 *        the capacity), %TPLAN_PLAN_ALIASES, %TPLAN_PLAN_SERIAL, the gaps
 * @finding: the first defect found; may be NULL
 *
 * The independent validator, which shares no code with the placers: the
 * input rules, then that every tensor sits in a tier it may use, aligned
 * and within that tier's capacity, alias members at their owners' places,
 * the tensors of a share_key at one place, and that no two tensors share
 * a byte of one tier while both may be alive (bytes present at one step,
 * with gaps).
 *
 * Return: 0 for a valid plan; -EINVAL or -EOVERFLOW with @finding filled
 * (defect %TPLAN_DEFECT_NONE: the options are at fault); -ENOMEM.
 */
int tplan_tensors_validate(const struct tplan_tensor *tensors, u32 count,
			   const struct tplan_options *opts,
			   struct tplan_finding *finding)
{
	struct tplan_finding ignored;

	finding = zeroed_finding(finding, &ignored);
	if (!options_known(opts))
		return -EINVAL;
	return tplan_validate_plan(tensors, count, opts, finding);
}

/**
 * tplan_tensors_plan_spill() - plan an array of tensors that may not fit,
 * as pieces moved out to host memory between uses
 * @tensors: the tensors (one model; no pin, hint, gap or share_key)
 * @count: how many
 * @uses: the steps each tensor is used at, or NULL: lower and upper - 1
 * @params: spill strategy, capacity (non-zero) and budget; flags and
 *          reserved zero
 * @pieces: room for @piece_cap pieces, written on success tensor after
 *          tensor in time order; @pieces[i].tensor indexes @tensors
 * @piece_cap: room in @pieces; tplan_tensors_max_pieces() is always enough
 * @res: bytes moved, their lower bound, host peak, peak, work
 *
 * The planner tplan_device_submit_spill() runs in the kernel, with the
 * same parameters: the same pieces, byte for byte.  An alignment must be
 * a power of two.
 *
 * Return: 0; -ENOBUFS when @piece_cap is too small (@res->pieces says how
 * many are needed); -ENOSPC; -ETIMEDOUT; -EINVAL for tensors or uses
 * tplan_tensors_check_spill() rejects, a capacity of 0, an unknown
 * strategy, non-zero flags or reserved words; -ENOMEM.
 */
int tplan_tensors_plan_spill(const struct tplan_tensor *tensors, u32 count,
			     const struct tplan_uses *uses,
			     const struct tplan_spill_params *params,
			     struct tplan_piece *pieces, u32 piece_cap,
			     struct tplan_spill_result *res)
{
	static const u64 zero[ARRAY_SIZE(params->reserved)];
	struct tplan_spill_options o = {
		params->strategy, params->capacity, params->budget
	};
	int ret;

	memset(res, 0, sizeof(*res));
	if (params->flags || memcmp(params->reserved, zero, sizeof(zero)))
		return -EINVAL;
	ret = tplan_spill_plan(tensors, count, uses, &o, pieces, piece_cap,
			       res);
	/* the device's errno for "room too small", not the planner's */
	return ret == -E2BIG && res->pieces > piece_cap ? -ENOBUFS : ret;
}

/**
 * tplan_tensors_check_spill() - check tensors and their uses for a spill
 * plan
 * @tensors: the tensors
 * @count: how many
 * @uses: their uses, or NULL (every tensor: lower and upper - 1)
 * @finding: the first defect found; may be NULL
 *
 * What tplan_tensors_plan_spill() checks before planning: the tensor rules,
 * one model, no share_key, no pin, gap or hint (every tensor may move),
 * and uses strictly increasing inside each lifetime.  Alias, tier and
 * priority fields are not looked at.
 *
 * Return: 0; -EINVAL or -EOVERFLOW with @finding filled.
 */
int tplan_tensors_check_spill(const struct tplan_tensor *tensors, u32 count,
			      const struct tplan_uses *uses,
			      struct tplan_finding *finding)
{
	struct tplan_finding ignored;

	finding = zeroed_finding(finding, &ignored);
	return tplan_check_spill_input(tensors, count, uses, finding);
}

/**
 * tplan_tensors_max_pieces() - room for the pieces of any spill plan
 * @tensors: the tensors, accepted by tplan_tensors_check_spill()
 * @count: how many
 * @uses: their uses, accepted by tplan_tensors_check_spill(), or NULL
 *
 * Every piece holds a use (lower counts as one), so a spill plan has at
 * most one piece per use.
 *
 * Return: that count, saturated at 2^32 - 1.
 */
u32 tplan_tensors_max_pieces(const struct tplan_tensor *tensors, u32 count,
			     const struct tplan_uses *uses)
{
	return tplan_spill_max_pieces(tensors, count, uses);
}

/**
 * tplan_tensors_validate_spill() - check a spill plan
 * @tensors: the tensors the plan is for
 * @count: how many
 * @uses: their uses, or NULL (lower and upper - 1)
 * @pieces: the pieces
 * @piece_count: how many
 * @capacity: the device bytes the pieces may use
 * @finding: the first defect found; may be NULL: @index and @other are
 *           pieces, except for %TPLAN_DEFECT_USE_OUT and the input rules,
 *           where they are the tensor
 *
 * The independent validator of spill plans: every tensor has pieces
 * numbered 0, 1, ... in time order with a gap between two, the first at
 * lower, each inside the lifetime; every use is in a piece; offsets are
 * aligned and within @capacity; pieces alive at one step share no byte,
 * nor do the copies waiting in host memory.
 *
 * Return: 0 for a valid plan; -EINVAL or -EOVERFLOW with @finding filled;
 * -ENOMEM.
 */
int tplan_tensors_validate_spill(const struct tplan_tensor *tensors,
				 u32 count, const struct tplan_uses *uses,
				 const struct tplan_piece *pieces,
				 u32 piece_count, u64 capacity,
				 struct tplan_finding *finding)
{
	struct tplan_finding ignored;

	finding = zeroed_finding(finding, &ignored);
	return tplan_validate_spill(tensors, count, uses, pieces, piece_count,
				    capacity, finding);
}

/* Whether the table holds more than one model. */
static bool several_models(const struct tplan_table *table)
{
	u32 i;

	for (i = 1; i < table->count; i++)
		if (table->tensors[i].model != table->tensors[0].model)
			return true;
	return false;
}

/**
 * tplan_table_record() - note in a table how its offsets are planned
 * @table: the table; its &struct tplan_record is overwritten
 * @opts: the options the offsets were (or will be) planned with
 *
 * What checking the offsets needs besides the rows, which
 * tplan_table_write() writes as the "# tplan:" line: aliases honoured
 * (with an alias_of column), how several models run, the tiers.
 * tplan_table_plan() calls it; a program that plans elsewhere (the device)
 * calls it before saving the plan.
 */
void tplan_table_record(struct tplan_table *table,
			const struct tplan_options *opts)
{
	struct tplan_record *rec = &table->record;
	u32 k;

	memset(rec, 0, sizeof(*rec));
	if ((opts->flags & TPLAN_PLAN_ALIASES) &&
	    (table->columns & TPLAN_COLUMN_ALIAS_OF))
		rec->flags |= TPLAN_RECORD_ALIASES;
	if (several_models(table))
		rec->flags |= opts->flags & TPLAN_PLAN_SERIAL ?
			      TPLAN_RECORD_SERIAL : TPLAN_RECORD_CONCURRENT;
	if (opts->tier_count > 1 && opts->tier_count <= TPLAN_MAX_TIERS) {
		rec->flags |= TPLAN_RECORD_TIERS;
		rec->tier_count = opts->tier_count;
		for (k = 0; k < opts->tier_count; k++)
			rec->tier_capacity[k] = opts->tier_capacity[k];
	}
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
 * Return: as tplan_tensors_plan().
 */
int tplan_table_plan(struct tplan_table *table, const struct tplan_options *opts,
		     struct tplan_result *res)
{
	struct tplan_options o = *opts;

	int ret;

	o.gaps = table->gaps;
	o.gap_count = table->gap_count;
	ret = tplan_tensors_plan(table->tensors, table->count, &o, res);
	if (!ret)
		tplan_table_record(table, opts);
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
	struct tplan_uses u = { table->use_step, table->use_start };

	memset(res, 0, sizeof(*res));
	return tplan_tensors_plan_spill(table->tensors, table->count,
					table->use_start ? &u : NULL, params,
					pieces, piece_cap, res);
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

	return tplan_validate_gaps(table->tensors, table->count, table->gaps,
				   table->gap_count, capacity,
				   finding ? finding : &ignored);
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
	if (!options_known(opts))
		return opts->version ?
		       "options: unknown version (this libtplan knows 0)" :
		       "options: non-zero pad or reserved words";
	if (opts->strategy >= TPLAN_STRATEGY_COUNT)
		return "options: unknown strategy";
	if (opts->flags & ~TPLAN_PLAN_KNOWN_FLAGS)
		return "options: unknown flags";
	if (tplan_check_options(opts))
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
	const char *why = options_wrong(opts);
	char a[192], b[192];
	int ret;

	if (err)
		err->msg[0] = '\0';
	if (why) {
		set_error(err, "%s", why);
		return -EINVAL;
	}
	o.gaps = table->gaps;
	o.gap_count = table->gap_count;
	ret = tplan_tensors_check(table->tensors, table->count, &o, &f);
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
			set_error(err, "planning was cut short before a first plan");
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
