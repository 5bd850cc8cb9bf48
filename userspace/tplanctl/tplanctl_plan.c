// SPDX-License-Identifier: MIT
/*
 * tplanctl_plan.c - "tplanctl plan": plan a table (or several models, one
 * file each) offline, and with --svg draw the plan.
 */
#include <stdio.h>
#include <string.h>

#include "tplanctl_show.h"

#define PLAN_USAGE \
	"tplanctl plan FILE... [--strategy S] [--capacity N | --tiers N,N,...]\n" \
	"       [--budget N] [--time-limit MS] [--small-below N] [--aliases]\n" \
	"       [--serial | --concurrent] [-o OUT.csv] [--json] [--svg FILE]\n" \
	"       [--progress]\n" \
	"       tplanctl plan FILE --minimize [--strategy search|auto] [--budget N]\n" \
	"       tplanctl plan FILE --capacity N --spill\n" \
	"       [--spill-strategy default|furthest|ga] [--budget N] [-o OUT.csv] [--json]"

/* --spill takes one file and a capacity, and none of the layout options. */
static int check_spill(const struct tplanctl_args *a)
{
	const char *why = tplanctl_spill_misuse(a, "--spill plans one file");

	if (!why && !a->spill)
		return 0;
	if (!why && (a->opts.tier_count || a->opts.small_below ||
		     a->opts.flags || a->opts.time_limit_ns || a->svg))
		why = "--spill takes none of --tiers, --small-below, --aliases, --serial, --time-limit, --svg";
	if (!why)
		return 0;
	fprintf(stderr, "tplanctl plan: %s\nusage: %s\n", why, PLAN_USAGE);
	return -EINVAL;
}

/* --minimize needs a searching strategy, and sets the capacity itself. */
static int check_minimize(const struct tplanctl_args *a)
{
	const char *why = NULL;

	if (!a->minimize)
		return 0;
	if (a->opts.strategy != TPLAN_STRATEGY_SEARCH &&
	    a->opts.strategy != TPLAN_STRATEGY_AUTO)
		why = "--minimize needs --strategy search or auto";
	else if (a->opts.capacity || a->opts.tier_count || a->spill)
		why = "--minimize finds the capacity: drop --capacity, --tiers, --spill";
	if (!why)
		return 0;
	fprintf(stderr, "tplanctl plan: %s\nusage: %s\n", why, PLAN_USAGE);
	return -EINVAL;
}

/* Plan the loaded table, report the plan and draw it if asked. */
static int plan_loaded(struct tplanctl_args *a)
{
	struct tplan_table *table;
	struct tplan_result res;
	int ret;

	ret = tplanctl_load("plan", a, &table);
	if (ret)
		return ret;
	tplanctl_progress_stage("planning");
	tplanctl_note_ignored_aliases("plan", a, table);
	/* a plan given back keeps its offsets: read them as they were made */
	ret = tplanctl_apply_record("plan", a, table, false);
	if (ret) {
		tplan_table_free(table);
		return ret;
	}
	if (a->minimize)
		ret = tplanctl_minimize(a, table, &res);
	else
		ret = tplan_table_plan(table, &a->opts, &res);
	tplanctl_progress_stage("writing");
	if (ret)
		ret = tplanctl_report_failure("plan", a, table, &res, ret);
	else
		ret = tplanctl_report_plan("plan", a, table, &res, NULL, NULL,
					   NULL);
	if (!ret && a->svg)
		ret = tplanctl_show_write_svg("plan", table, a->input, a, a->svg);
	tplan_table_free(table);
	return ret;
}

int tplanctl_plan(int argc, char **argv)
{
	struct tplanctl_args a;
	int ret;

	if (tplanctl_parse_args("plan", argc, argv, TPLANCTL_ARGS_PLAN |
				TPLANCTL_ARG_TIERS | TPLANCTL_ARG_SVG | TPLANCTL_ARG_SPILL |
				TPLANCTL_ARG_SPILL_STRATEGY |
				TPLANCTL_ARG_MINIMIZE | TPLANCTL_ARG_PROGRESS,
				PLAN_USAGE, &a) ||
	    check_spill(&a) || check_minimize(&a))
		return TPLANCTL_EXIT_USAGE;
	if (a.output && a.svg && !strcmp(a.output, "-") && !strcmp(a.svg, "-")) {
		fprintf(stderr, "tplanctl plan: -o - and --svg - both write standard output: send one to a file\nusage: %s\n",
			PLAN_USAGE);
		return TPLANCTL_EXIT_USAGE;
	}
	if (a.spill)
		return tplanctl_plan_spill(&a);
	tplanctl_progress_start("plan", a.input, a.progress);
	ret = plan_loaded(&a);
	tplanctl_progress_stop();
	return ret;
}
