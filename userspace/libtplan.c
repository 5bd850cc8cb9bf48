// SPDX-License-Identifier: MIT
/*
 * libtplan.c - offline planning of a loaded table with the shared planner.
 */
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
