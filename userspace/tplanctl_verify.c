// SPDX-License-Identifier: MIT
/*
 * tplanctl_verify.c - "tplanctl verify": check a plan file, ours or
 * MiniMalloc's, with the independent validator.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tplanctl.h"

static void describe(const struct tplan_table *table, u32 i)
{
	const struct tplan_tensor *t = &table->tensors[i];

	if (table->names)
		fprintf(stderr, "id %s", table->names[i]);
	else
		fprintf(stderr, "id %llu", t->id);
	fprintf(stderr, " (steps [%llu, %llu), bytes [%llu, %llu), alignment %llu)",
		t->lower, t->upper, t->offset, t->offset + t->size,
		t->alignment);
}

static void report_finding(const char *path, const struct tplan_table *table,
			   const struct tplan_finding *f)
{
	fprintf(stderr, "tplanctl verify: %s: invalid plan: %s: tensor ", path,
		tplan_defect_str(f->defect));
	describe(table, f->index);
	if (f->other != f->index) {
		fputs(" and tensor ", stderr);
		describe(table, f->other);
	}
	fputc('\n', stderr);
}

#define VERIFY_USAGE "usage: tplanctl verify PLAN.csv [--capacity N] [--aliases]\n"

/* The lower bound of the table, or of its alias groups folded; 0 or -errno. */
static int bound_of(const struct tplan_table *table, bool aliases, u64 *bound)
{
	struct tplan_alias_map m;
	int ret;

	if (!aliases)
		return tplan_lower_bound(table->tensors, table->count, bound);
	ret = tplan_fold_aliases(table->tensors, table->count, &m, NULL);
	if (!ret) {
		ret = tplan_lower_bound(m.folded, m.count, bound);
		tplan_alias_map_free(&m);
	}
	return ret;
}

int tplanctl_verify(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "capacity", required_argument, NULL, 'c' },
		{ "aliases", no_argument, NULL, 'A' },
		{ NULL, 0, NULL, 0 }
	};
	bool aliases = false;
	struct tplan_finding finding;
	struct tplan_table *table;
	struct tplan_error err;
	u64 capacity = 0, bound;
	const char *path;
	int c, ret;

	while ((c = getopt_long(argc, argv, "c:", longopts, NULL)) != -1) {
		if (c == 'A') {
			aliases = true;
		} else if (c != 'c' || tplanctl_parse_size(optarg, &capacity)) {
			fputs(VERIFY_USAGE, stderr);
			return TPLANCTL_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fputs(VERIFY_USAGE, stderr);
		return TPLANCTL_EXIT_USAGE;
	}
	path = argv[optind];
	ret = tplan_table_load(path, &table, &err);
	if (ret) {
		fprintf(stderr, "tplanctl verify: %s\n", err.msg);
		return TPLANCTL_EXIT_USAGE;
	}
	if (!(table->columns & TPLAN_COLUMN_OFFSET)) {
		fprintf(stderr, "tplanctl verify: %s: no offset column: not a plan\n",
			path);
		ret = TPLANCTL_EXIT_USAGE;
	} else {
		ret = aliases ? tplan_validate_aliases(table->tensors,
						       table->count, capacity,
						       &finding) :
			tplan_table_validate(table, capacity, &finding);
		if (ret == -EINVAL || ret == -EOVERFLOW) {
			report_finding(path, table, &finding);
			ret = TPLANCTL_EXIT_INFEASIBLE;
		} else if (ret || bound_of(table, aliases, &bound)) {
			fprintf(stderr, "tplanctl verify: %s: out of memory\n", path);
			ret = TPLANCTL_EXIT_USAGE;
		} else {
			printf("%s: valid plan: %" PRIu32 " tensors, peak %llu"
			       ", lower bound %llu\n", path, table->count,
			       tplan_peak(table->tensors, table->count), bound);
		}
	}
	tplan_table_free(table);
	return ret;
}
