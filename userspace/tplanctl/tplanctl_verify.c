// SPDX-License-Identifier: MIT
/*
 * tplanctl_verify.c - "tplanctl verify": check a plan file, ours or
 * MiniMalloc's, with the independent validator.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tplanctl.h"

static void describe(const struct tplan_table *table, u32 i)
{
	const struct tplan_tensor *t = &table->tensors[i];

	tplanctl_print_tensor_id(table, i);
	fprintf(stderr, " (steps [%llu, %llu), bytes [%llu, %llu), alignment %llu)",
		t->lower, t->upper, t->offset, t->offset + t->size,
		t->alignment);
}

static void report_finding(const char *cmd, const char *path,
			   const struct tplan_table *table,
			   const struct tplan_finding *f)
{
	fprintf(stderr, "tplanctl %s: %s: invalid plan: %s: tensor ", cmd, path,
		tplan_defect_name(f->defect));
	describe(table, f->index);
	if (f->other != f->index) {
		fputs(" and tensor ", stderr);
		describe(table, f->other);
	}
	fputc('\n', stderr);
}

#define VERIFY_USAGE \
	"tplanctl verify PLAN.csv [--capacity N | --tiers N,N,...] [--aliases]\n" \
	"       [--serial | --concurrent] [--json]\n" \
	"       tplanctl verify OUT.csv --spill --table IN.csv --capacity N [--json]"

/* The peak of each tier into @peak; their sum is returned. */
static u64 tier_peaks(const struct tplan_table *table,
		      u64 peak[TPLAN_MAX_TIERS])
{
	u64 sum = 0;
	u32 i, k;

	memset(peak, 0, TPLAN_MAX_TIERS * sizeof(*peak));
	for (i = 0; i < table->count; i++) {
		const struct tplan_tensor *t = &table->tensors[i];

		if (t->size && t->offset + t->size > peak[t->tier])
			peak[t->tier] = t->offset + t->size;
	}
	for (k = 0; k < TPLAN_MAX_TIERS; k++)
		sum += peak[k];
	return sum;
}

/* "valid plan" and its figures, as a line or (--json) one JSON object. */
static void print_valid(const char *path, const struct tplanctl_args *a,
			const struct tplan_table *table, u64 bound)
{
	u64 peak[TPLAN_MAX_TIERS], sum = tier_peaks(table, peak);
	u32 tiers = a->opts.tier_count, k;

	if (a->json) {
		fputs("{\"file\":", stdout);
		tplanctl_print_json_string(path);
		printf(",\"valid\":true,\"tensors\":%" PRIu32 ",\"peak\":%llu,"
		       "\"lower_bound\":%llu", table->count, sum, bound);
		if (tiers > 1) {
			fputs(",\"tier_peak\":[", stdout);
			for (k = 0; k < tiers; k++)
				printf("%s%llu", k ? "," : "", peak[k]);
			putchar(']');
		}
		puts("}");
		return;
	}
	printf("%s: valid plan: %" PRIu32 " tensors", path, table->count);
	for (k = 0; tiers > 1 && k < tiers; k++)
		printf(", tier %u peak %llu", k, peak[k]);
	printf(", peak %llu, lower bound %llu\n", sum, bound);
}

/**
 * tplanctl_check_plan() - check a plan file's offsets, as verify does
 * @cmd: the command, for messages ("verify", "show")
 * @path: the file, for messages
 * @a: the options it is checked with (capacity, tiers, aliases, models)
 * @table: the plan
 * @bound: out: the table's lower bound, when the plan is valid
 *
 * Return: %TPLANCTL_EXIT_OK; %TPLANCTL_EXIT_INFEASIBLE for an invalid plan
 * and %TPLANCTL_EXIT_USAGE for a file that is not a plan, after a message.
 */
int tplanctl_check_plan(const char *cmd, const char *path,
			const struct tplanctl_args *a,
			const struct tplan_table *table, u64 *bound)
{
	struct tplan_options opts = a->opts;
	struct tplan_finding finding;
	u32 i;
	int ret;

	opts.gaps = table->gaps;
	opts.gap_count = table->gap_count;
	if (!(table->columns & TPLAN_COLUMN_OFFSET)) {
		fprintf(stderr, "tplanctl %s: %s: no offset column: not a plan\n",
			cmd, path);
		return TPLANCTL_EXIT_USAGE;
	}
	if (a->opts.tier_count > 1 && !(table->columns & TPLAN_COLUMN_TIER)) {
		fprintf(stderr, "tplanctl %s: %s: --tiers needs a tier column\n",
			cmd, path);
		return TPLANCTL_EXIT_USAGE;
	}
	for (i = 0; i < table->count; i++) {
		if (table->tensors[i].flags & TPLAN_TENSOR_PINNED)
			continue;
		fprintf(stderr, "tplanctl %s: %s: tensor ", cmd, path);
		tplanctl_print_tensor_id(table, i);
		fputs(" has no offset: not a plan\n", stderr);
		return TPLANCTL_EXIT_USAGE;
	}
	ret = tplan_tensors_validate(table->tensors, table->count, &opts,
				     &finding);
	if ((ret == -EINVAL || ret == -EOVERFLOW) &&
	    finding.defect != TPLAN_DEFECT_NONE) {
		report_finding(cmd, path, table, &finding);
		return TPLANCTL_EXIT_INFEASIBLE;
	}
	if (!ret)
		ret = tplan_tensors_lower_bound(table->tensors, table->count,
						&opts, bound);
	if (ret) {
		fprintf(stderr, "tplanctl %s: %s: %s\n", cmd, path,
			strerror(-ret));
		return TPLANCTL_EXIT_USAGE;
	}
	return TPLANCTL_EXIT_OK;
}

/**
 * tplanctl_check_pieces() - check a spill plan's device bytes without its
 * table
 * @cmd: the command, for messages ("show")
 * @path: the file, for messages
 * @table: the plan, one row per piece
 *
 * Each piece a tensor of its own (a tensor's pieces never meet in time),
 * they must make a valid plan; the uses, the host bytes and the moves need
 * the table (verify --spill).
 *
 * Return: %TPLANCTL_EXIT_OK, %TPLANCTL_EXIT_INFEASIBLE for pieces that
 * collide or are misaligned, %TPLANCTL_EXIT_USAGE when out of memory,
 * after a message.
 */
int tplanctl_check_pieces(const char *cmd, const char *path,
			  const struct tplan_table *table)
{
	struct tplan_tensor *piece = calloc(table->count + 1, sizeof(*piece));
	struct tplan_options opts = { 0 };
	struct tplan_finding finding;
	u32 i;
	int ret;

	if (!piece) {
		fprintf(stderr, "tplanctl %s: %s: %s\n", cmd, path,
			strerror(ENOMEM));
		return TPLANCTL_EXIT_USAGE;
	}
	for (i = 0; i < table->count; i++) {
		piece[i] = table->tensors[i];
		piece[i].id = i;
		piece[i].model = 0;
	}
	ret = tplan_tensors_validate(piece, table->count, &opts, &finding);
	free(piece);
	if (ret && finding.defect != TPLAN_DEFECT_NONE) {
		report_finding(cmd, path, table, &finding);
		return TPLANCTL_EXIT_INFEASIBLE;
	}
	if (ret) {
		fprintf(stderr, "tplanctl %s: %s: %s\n", cmd, path,
			strerror(-ret));
		return TPLANCTL_EXIT_USAGE;
	}
	return TPLANCTL_EXIT_OK;
}

static int verify_table(const char *path, const struct tplanctl_args *a,
			const struct tplan_table *table)
{
	u64 bound;
	int ret = tplanctl_check_plan("verify", path, a, table, &bound);

	if (!ret)
		print_valid(path, a, table, bound);
	return ret;
}

int tplanctl_verify(int argc, char **argv)
{
	struct tplan_table *table;
	struct tplanctl_args a;
	int ret;

	if (tplanctl_parse_args("verify", argc, argv, TPLANCTL_ARG_CAPACITY |
				TPLANCTL_ARG_ALIASES | TPLANCTL_ARG_TIERS |
				TPLANCTL_ARG_MODELS | TPLANCTL_ARG_FILE |
				TPLANCTL_ARG_SPILL | TPLANCTL_ARG_TABLE |
				TPLANCTL_ARG_JSON,
				VERIFY_USAGE, &a))
		return TPLANCTL_EXIT_USAGE;
	if (a.spill != !!a.table || a.spill_strategy_set ||
	    (a.spill && (!a.opts.capacity || a.opts.tier_count ||
			 a.opts.flags))) {
		fprintf(stderr, "tplanctl verify: --spill takes --table IN.csv and --capacity N (and no other option)\nusage: %s\n",
			VERIFY_USAGE);
		return TPLANCTL_EXIT_USAGE;
	}
	if (a.spill)
		return tplanctl_verify_spill(&a);
	ret = tplanctl_load("verify", &a, &table);
	if (ret)
		return ret;
	ret = tplanctl_apply_record("verify", &a, table, true);
	if (!ret)
		ret = verify_table(a.input, &a, table);
	tplan_table_free(table);
	return ret;
}
