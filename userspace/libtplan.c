// SPDX-License-Identifier: MIT
/*
 * libtplan.c - offline planning of a loaded table with the shared planner.
 */
#include <errno.h>
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
 * says).
 *
 * Return: as tplan_plan().
 */
int tplan_table_plan(struct tplan_table *table, const struct tplan_options *opts,
		     struct tplan_result *res)
{
	struct tplan_options o = *opts;

	o.gaps = table->gaps;
	o.gap_count = table->gap_count;
	return tplan_plan(table->tensors, table->count, &o, res);
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
	int ret;

	memset(res, 0, sizeof(*res));
	if (params->flags || memcmp(params->reserved, zero, sizeof(zero)))
		return -EINVAL;
	ret = tplan_spill_plan(table->tensors, table->count,
			       table->use_start ? &u : NULL, &o, pieces,
			       piece_cap, res);
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
 * partly present): only bytes present at one step must not overlap.
 *
 * Return: as tplan_validate_gaps().
 */
int tplan_table_validate(const struct tplan_table *table, u64 capacity,
			 struct tplan_finding *finding)
{
	struct tplan_finding ignored;

	return tplan_validate_gaps(table->tensors, table->count, table->gaps,
				   table->gap_count, capacity,
				   finding ? finding : &ignored);
}
