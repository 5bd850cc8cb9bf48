// SPDX-License-Identifier: MIT
/*
 * tplanctl_plan.c - "tplanctl plan": plan a table offline.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tplanctl.h"

struct plan_args {
	const char *input;
	const char *output;
	struct tplan_options opts;
	bool json;
};

static int bad_value(const char *opt, const char *val)
{
	fprintf(stderr, "tplanctl plan: invalid %s '%s'\n", opt, val);
	return -EINVAL;
}

static int parse_plan_args(int argc, char **argv, struct plan_args *a)
{
	static const struct option longopts[] = {
		{ "strategy", required_argument, NULL, 's' },
		{ "capacity", required_argument, NULL, 'c' },
		{ "budget", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	memset(a, 0, sizeof(*a));
	a->opts.strategy = TPLAN_STRATEGY_GREEDY_SIZE;
	while ((c = getopt_long(argc, argv, "s:c:b:o:j", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (tplan_strategy_from_name(optarg, &a->opts.strategy))
				return bad_value("strategy", optarg);
			break;
		case 'c':
			if (tplanctl_parse_size(optarg, &a->opts.capacity))
				return bad_value("capacity", optarg);
			break;
		case 'b':
			if (tplanctl_parse_size(optarg, &a->opts.budget))
				return bad_value("budget", optarg);
			break;
		case 'o':
			a->output = optarg;
			break;
		case 'j':
			a->json = true;
			break;
		default:
			return -EINVAL;
		}
	}
	if (optind != argc - 1) {
		fputs("usage: tplanctl plan FILE [--strategy S] [--capacity N] "
		      "[--budget N] [-o OUT.csv] [--json]\n", stderr);
		return -EINVAL;
	}
	a->input = argv[optind];
	return 0;
}

static int report_failure(const struct plan_args *a,
			  const struct tplan_result *res, int err)
{
	if (err == -ENOSPC) {
		fprintf(stderr, "tplanctl plan: %s: does not fit in %llu"
			" bytes: peak %llu (lower bound %llu)\n",
			a->input, a->opts.capacity, res->peak,
			res->lower_bound);
		return TPLANCTL_EXIT_INFEASIBLE;
	}
	if (err == -ETIMEDOUT) {
		fprintf(stderr, "tplanctl plan: %s: work budget of %llu"
			" units exhausted\n", a->input, a->opts.budget);
		return TPLANCTL_EXIT_INFEASIBLE;
	}
	fprintf(stderr, "tplanctl plan: %s: %s\n", a->input, strerror(-err));
	return TPLANCTL_EXIT_USAGE;
}

int tplanctl_plan(int argc, char **argv)
{
	struct tplan_table *table;
	struct tplan_result res;
	struct tplan_error err;
	struct plan_args a;
	int ret;

	if (parse_plan_args(argc, argv, &a))
		return TPLANCTL_EXIT_USAGE;
	ret = tplan_table_load(a.input, &table, &err);
	if (ret) {
		fprintf(stderr, "tplanctl plan: %s\n", err.msg);
		return TPLANCTL_EXIT_USAGE;
	}
	ret = tplan_table_plan(table, &a.opts, &res);
	if (ret) {
		ret = report_failure(&a, &res, ret);
	} else {
		struct tplanctl_summary s = {
			a.input, table->count, &res, a.opts.capacity
		};

		tplanctl_print_summary(&s, a.json);
		if (a.output && tplan_table_save(table, a.output, &err)) {
			fprintf(stderr, "tplanctl plan: %s\n", err.msg);
			ret = TPLANCTL_EXIT_USAGE;
		}
	}
	tplan_table_free(table);
	return ret;
}
