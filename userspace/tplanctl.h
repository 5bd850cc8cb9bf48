/* SPDX-License-Identifier: MIT */
/*
 * tplanctl.h - pieces shared by tplanctl's commands.
 */
#ifndef TPLANCTL_H
#define TPLANCTL_H

#include <stdbool.h>

#include "tplan.h"

enum tplanctl_exit {
	TPLANCTL_EXIT_OK = 0,
	TPLANCTL_EXIT_INFEASIBLE = 1,
	TPLANCTL_EXIT_USAGE = 2,
};

/* Options tplanctl_parse_args() takes, and whether a file argument follows. */
#define TPLANCTL_ARG_STRATEGY	(1u << 0)	/* --strategy S */
#define TPLANCTL_ARG_CAPACITY	(1u << 1)	/* --capacity N */
#define TPLANCTL_ARG_BUDGET	(1u << 2)	/* --budget N */
#define TPLANCTL_ARG_OUTPUT	(1u << 3)	/* -o, --output OUT.csv */
#define TPLANCTL_ARG_JSON	(1u << 4)	/* --json */
#define TPLANCTL_ARG_DEVICE	(1u << 5)	/* --device PATH */
#define TPLANCTL_ARG_DRY_RUN	(1u << 6)	/* --dry-run */
#define TPLANCTL_ARG_HOLD	(1u << 7)	/* --hold */
#define TPLANCTL_ARG_FILE	(1u << 8)	/* one FILE argument */
#define TPLANCTL_ARG_TIME_LIMIT	(1u << 9)	/* --time-limit MS */
#define TPLANCTL_ARG_SMALL	(1u << 10)	/* --small-below N */
#define TPLANCTL_ARG_ALIASES	(1u << 11)	/* --aliases */
#define TPLANCTL_ARGS_PLAN	(TPLANCTL_ARG_STRATEGY | TPLANCTL_ARG_CAPACITY | \
				 TPLANCTL_ARG_BUDGET | TPLANCTL_ARG_OUTPUT | \
				 TPLANCTL_ARG_JSON | TPLANCTL_ARG_FILE | \
				 TPLANCTL_ARG_TIME_LIMIT | TPLANCTL_ARG_SMALL | \
				 TPLANCTL_ARG_ALIASES)

/**
 * struct tplanctl_args - parsed options of plan, submit and info
 * @input: the file argument, or NULL
 * @output: -o's file ("-" is standard output), or NULL
 * @device: --device's path, or NULL for the default
 * @opts: strategy (default greedy-size), capacity and budget
 * @json: --json
 * @dry_run: --dry-run
 * @hold: --hold
 */
struct tplanctl_args {
	const char *input;
	const char *output;
	const char *device;
	struct tplan_options opts;
	bool json;
	bool dry_run;
	bool hold;
};

/**
 * struct tplanctl_summary - what "plan" and "submit" report
 * @source: the table's file name
 * @count: tensors in the table
 * @res: the planner's result
 * @capacity: the capacity asked for, 0 if none
 * @sub: where the device put the plan, or NULL (offline, dry run)
 */
struct tplanctl_summary {
	const char *source;
	u32 count;
	const struct tplan_result *res;
	u64 capacity;
	const struct tplan_submission *sub;
};

int tplanctl_parse_size(const char *text, u64 *value);
int tplanctl_parse_args(const char *cmd, int argc, char **argv,
			unsigned int accept, const char *usage,
			struct tplanctl_args *a);
void tplanctl_print_summary(const struct tplanctl_summary *s, bool json);
int tplanctl_report_plan(const char *cmd, const struct tplanctl_args *a,
			 const struct tplan_table *table,
			 const struct tplan_result *res,
			 const struct tplan_submission *sub);
void tplanctl_print_json_string(const char *text);
const char *tplanctl_errno_name(int err);
int tplanctl_report_failure(const char *cmd, const struct tplanctl_args *a,
			    const struct tplan_result *res, int err);
int tplanctl_open_device(const char *cmd, const char *path,
			 struct tplan_device **dev);

int tplanctl_plan(int argc, char **argv);
int tplanctl_verify(int argc, char **argv);
int tplanctl_info(int argc, char **argv);
int tplanctl_submit(int argc, char **argv);

#endif /* TPLANCTL_H */
