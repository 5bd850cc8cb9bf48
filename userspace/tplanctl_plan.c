// SPDX-License-Identifier: MIT
/*
 * tplanctl_plan.c - "tplanctl plan": plan a table offline.
 */
#include <stdio.h>

#include "tplanctl.h"

int tplanctl_plan(int argc, char **argv)
{
	struct tplan_table *table;
	struct tplanctl_args a;
	struct tplan_result res;
	struct tplan_error err;
	int ret;

	if (tplanctl_parse_args("plan", argc, argv, TPLANCTL_ARGS_PLAN,
				"tplanctl plan FILE [--strategy S] [--capacity N]"
				" [--budget N] [--time-limit MS] [--small-below N]"
				" [-o OUT.csv]"
				" [--json]", &a))
		return TPLANCTL_EXIT_USAGE;
	ret = tplan_table_load(a.input, &table, &err);
	if (ret) {
		fprintf(stderr, "tplanctl plan: %s\n", err.msg);
		return TPLANCTL_EXIT_USAGE;
	}
	ret = tplan_table_plan(table, &a.opts, &res);
	if (ret) {
		ret = tplanctl_report_failure("plan", &a, &res, ret);
	} else {
		ret = tplanctl_report_plan("plan", &a, table, &res, NULL);
	}
	tplan_table_free(table);
	return ret;
}
