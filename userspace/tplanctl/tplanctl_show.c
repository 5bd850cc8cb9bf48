// SPDX-License-Identifier: MIT
/*
 * tplanctl_show.c - "tplanctl show": draw a plan, as an SVG picture (-o)
 * or as text for a terminal (--ascii, or without -o); and the picture
 * "plan --svg" writes.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tplanctl_show.h"

#define SHOW_USAGE \
	"tplanctl show PLAN.csv [-o OUT.svg] [--ascii] [--width N]\n" \
	"       [--serial | --concurrent] [--aliases] [--names FILE]\n" \
	"       [--steps A:B]"

/* The names to write on the tensors (@names: a names file, or NULL). */
static int find_labels(const char *cmd, struct tplanctl_show_view *v,
		       const char *names)
{
	int ret = tplanctl_show_labels(v, names);

	if (!ret)
		return TPLANCTL_EXIT_OK;
	if (ret == -EILSEQ)
		;	/* said with the file's line */
	else if (ret == -EINVAL)
		fprintf(stderr, "tplanctl %s: %s: no header naming an 'id' and a 'node' or 'name' column (tab-separated)\n",
			cmd, names);
	else
		fprintf(stderr, "tplanctl %s: %s: %s\n", cmd,
			names ? names : v->source, strerror(-ret));
	tplanctl_show_free(v);
	return TPLANCTL_EXIT_USAGE;
}

/* Cuts @v to --steps, or says why not; returns an exit code. */
static int zoom(const char *cmd, struct tplanctl_show_view *v,
		const struct tplanctl_args *a)
{
	u64 t0 = v->t0, t1 = v->t1;
	int ret;

	if (!a->steps_from && a->steps_to == UINT64_MAX)
		return TPLANCTL_EXIT_OK;
	ret = tplanctl_show_zoom(v, a->steps_from, a->steps_to);
	if (!ret)
		return TPLANCTL_EXIT_OK;
	if (ret == -ERANGE && a->steps_to == UINT64_MAX)
		fprintf(stderr, "tplanctl %s: %s: --steps %llu: holds none of the plan's steps (%llu to %llu)\n",
			cmd, v->source, a->steps_from, t0, t1 - 1);
	else if (ret == -ERANGE)
		fprintf(stderr, "tplanctl %s: %s: --steps %llu:%llu holds none of the plan's steps (%llu to %llu)\n",
			cmd, v->source, a->steps_from, a->steps_to, t0, t1 - 1);
	else
		fprintf(stderr, "tplanctl %s: %s\n", cmd, strerror(-ret));
	tplanctl_show_free(v);
	return TPLANCTL_EXIT_USAGE;
}

/* Lays @table out with its labels, or says why not; returns an exit code. */
static int build_view(const char *cmd, struct tplanctl_show_view *v,
		      const struct tplan_table *table, const char *source,
		      const struct tplanctl_args *a)
{
	u32 row;
	int ret = tplanctl_show_build(v, table, source, &a->opts, &row);

	if (!ret)
		ret = find_labels(cmd, v, a->names);
	if (!ret)
		return zoom(cmd, v, a);
	if (ret > 0)
		return ret;
	fprintf(stderr, "tplanctl %s: %s: ", cmd, source);
	if (ret == -ERANGE || ret == -EOVERFLOW || ret == -EINVAL) {
		fputs("tensor ", stderr);
		tplanctl_print_tensor_id(table, row);
		if (ret == -EINVAL)
			fprintf(stderr, ": %s\n", tplan_defect_name(v->defect));
		else if (ret == -ERANGE)
			fprintf(stderr, ": tier %u, beyond the %u tiers a plan may have\n",
				table->tensors[row].tier, TPLAN_MAX_TIERS);
		else
			fputs(": offset + size (or the models' timeline) beyond 64 bits\n",
			      stderr);
	} else {
		fprintf(stderr, "%s\n", strerror(-ret));
	}
	return TPLANCTL_EXIT_USAGE;
}

/**
 * tplanctl_show_write_svg() - draw a plan into an SVG file
 * @cmd: the command, for messages
 * @table: the plan
 * @source: its name, for the picture's title
 * @a: the options: as planned (%TPLAN_PLAN_SERIAL, %TPLAN_PLAN_ALIASES,
 *     the tiers), the names file for the tensors' labels (NULL: the
 *     table's node column), the steps to draw
 * @path: the file, created or truncated; "-" is standard output
 *
 * Return: %TPLANCTL_EXIT_OK, or %TPLANCTL_EXIT_USAGE after a message.
 */
int tplanctl_show_write_svg(const char *cmd, const struct tplan_table *table,
			    const char *source, const struct tplanctl_args *a,
			    const char *path)
{
	struct tplanctl_show_view v;
	bool std = !strcmp(path, "-");
	FILE *out;
	int ret;

	ret = build_view(cmd, &v, table, source, a);
	if (ret)
		return ret;
	out = std ? stdout : fopen(path, "w");
	if (!out) {
		fprintf(stderr, "tplanctl %s: %s: %s\n", cmd, path,
			strerror(errno));
		tplanctl_show_free(&v);
		return TPLANCTL_EXIT_USAGE;
	}
	ret = tplanctl_show_svg(&v, a->width, out);
	if (!std && fclose(out) && !ret)
		ret = -EIO;
	tplanctl_show_free(&v);
	if (ret) {
		fprintf(stderr, "tplanctl %s: %s: %s\n", cmd, path,
			strerror(-ret));
		return TPLANCTL_EXIT_USAGE;
	}
	return TPLANCTL_EXIT_OK;
}

static int show_ascii(const struct tplanctl_args *a,
		      const struct tplan_table *table)
{
	struct tplanctl_show_view v;
	int ret;

	ret = build_view("show", &v, table, a->input, a);
	if (ret)
		return ret;
	ret = tplanctl_show_ascii(&v, a->width, stdout);
	tplanctl_show_free(&v);
	if (ret) {
		fprintf(stderr, "tplanctl show: %s\n", strerror(-ret));
		return TPLANCTL_EXIT_USAGE;
	}
	return TPLANCTL_EXIT_OK;
}

/*
 * A tier column without a recorded tiers=: check each tier found as an
 * arena of its own, whatever its room (show draws a tier's peak, not its
 * capacity), so that tensors overlapping inside one tier are refused as
 * in a plan of one.  A tier past the last a plan may have is left to the
 * drawing, which names it (exit 2: not a plan, rather than an invalid one).
 */
static int check_tiers_found(const char *path, const struct tplanctl_args *a,
			     const struct tplan_table *table, u64 *bound)
{
	struct tplanctl_args found = *a;
	u32 i, count = 1;

	for (i = 0; i < table->count; i++) {
		if (table->tensors[i].tier >= TPLAN_MAX_TIERS)
			return TPLANCTL_EXIT_OK;
		count = max(count, table->tensors[i].tier + 1);
	}
	found.opts.capacity = 0;
	found.opts.tier_count = count > 1 ? count : 0;
	for (i = 0; i < TPLAN_MAX_TIERS; i++)
		found.opts.tier_capacity[i] = i + 1 < count ? UINT64_MAX : 0;
	return tplanctl_check_plan("show", path, &found, table, bound);
}

int tplanctl_show(int argc, char **argv)
{
	struct tplan_table *table;
	struct tplanctl_args a;
	u64 bound;
	int ret;

	if (tplanctl_parse_args("show", argc, argv, TPLANCTL_ARG_OUTPUT |
				TPLANCTL_ARG_ASCII | TPLANCTL_ARG_WIDTH |
				TPLANCTL_ARG_MODELS | TPLANCTL_ARG_ALIASES |
				TPLANCTL_ARG_NAMES | TPLANCTL_ARG_STEPS |
				TPLANCTL_ARG_FILE, SHOW_USAGE,
				&a))
		return TPLANCTL_EXIT_USAGE;
	ret = tplanctl_load("show", &a, &table);
	if (ret)
		return ret;
	ret = tplanctl_apply_record("show", &a, table, true);
	/*
	 * What verify refuses is not drawn.  A spill plan's pieces are
	 * checked as a plan of their own; against their table, only by
	 * verify --spill.
	 */
	if (!ret && !(table->columns & TPLAN_COLUMN_OFFSET)) {
		fprintf(stderr, "tplanctl show: %s: no offset column: not a plan\n",
			a.input);
		ret = TPLANCTL_EXIT_USAGE;
	} else if (!ret && (table->columns & TPLAN_COLUMN_PIECE)) {
		ret = tplanctl_check_pieces("show", a.input, table);
	} else if (!ret && (table->columns & TPLAN_COLUMN_TIER)) {
		ret = a.opts.tier_count ?
		      tplanctl_check_plan("show", a.input, &a, table, &bound) :
		      check_tiers_found(a.input, &a, table, &bound);
	} else if (!ret) {
		ret = tplanctl_check_plan("show", a.input, &a, table, &bound);
	}
	if (!ret && a.output)
		ret = tplanctl_show_write_svg("show", table, a.input, &a,
					      a.output);
	if (!ret && (a.ascii || !a.output))
		ret = show_ascii(&a, table);
	tplan_table_free(table);
	return ret;
}
