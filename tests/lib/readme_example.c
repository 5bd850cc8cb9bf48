// SPDX-License-Identifier: MIT
/*
 * readme_example.c - README's libtplan example, built against the installed
 * headers and both libraries by tests/lib/lib_test.sh.  Usage: readme_example
 * TABLE.csv
 */
#include <stdio.h>

#include <tplan/libtplan.h>

int main(int argc, char **argv)
{
	struct tplan_table *table;
	struct tplan_error err;
	struct tplan_options opts = { .strategy = TPLAN_STRATEGY_AUTO };
	struct tplan_result res;
	int ret;

	if (argc != 2)
		return 2;
	if (tplan_table_load(argv[1], &table, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 2;
	}
	ret = tplan_table_plan(table, &opts, &res);
	if (!ret)
		printf("peak %llu, bound %llu\n", res.peak, res.lower_bound);
	tplan_table_free(table);
	return ret ? 1 : 0;
}
