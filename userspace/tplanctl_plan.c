// SPDX-License-Identifier: MIT
/*
 * tplanctl_plan.c - "tplanctl plan": plan a table (or several models, one
 * file each) offline, and with --svg draw the plan.
 */
#include <stdio.h>

#include "tplanctl_show.h"

#define PLAN_USAGE \
	"tplanctl plan FILE... [--strategy S] [--capacity N | --tiers N,N,...]\n" \
	"       [--budget N] [--time-limit MS] [--small-below N] [--aliases]\n" \
	"       [--serial | --concurrent] [-o OUT.csv] [--json] [--svg FILE]"

int tplanctl_plan(int argc, char **argv)
{
	struct tplan_table *table;
	struct tplanctl_args a;
	struct tplan_result res;
	int ret;

	if (tplanctl_parse_args("plan", argc, argv, TPLANCTL_ARGS_PLAN |
				TPLANCTL_ARG_TIERS | TPLANCTL_ARG_SVG, PLAN_USAGE, &a))
		return TPLANCTL_EXIT_USAGE;
	ret = tplanctl_load("plan", &a, &table);
	if (ret)
		return ret;
	ret = tplan_table_plan(table, &a.opts, &res);
	if (ret)
		ret = tplanctl_report_failure("plan", &a, table, &res, ret);
	else
		ret = tplanctl_report_plan("plan", &a, table, &res, NULL, NULL,
					   NULL);
	if (!ret && a.svg)
		ret = tplanctl_show_write_svg("plan", table, a.input, &a.opts,
					      a.svg);
	tplan_table_free(table);
	return ret;
}
