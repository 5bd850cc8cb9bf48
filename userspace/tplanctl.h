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

/**
 * struct tplanctl_summary - what "plan" (and later "submit") reports
 * @source: the table's file name
 * @count: tensors in the table
 * @res: the planner's result
 * @capacity: the capacity asked for, 0 if none
 */
struct tplanctl_summary {
	const char *source;
	u32 count;
	const struct tplan_result *res;
	u64 capacity;
};

int tplanctl_parse_size(const char *text, u64 *value);
void tplanctl_print_summary(const struct tplanctl_summary *s, bool json);

int tplanctl_plan(int argc, char **argv);
int tplanctl_verify(int argc, char **argv);

#endif /* TPLANCTL_H */
