// SPDX-License-Identifier: MIT
/*
 * tplanctl - plan tensor lifetime tables and check plans from the shell.
 *
 * Exit codes: 0 success; 1 the plan does not fit or is invalid; 2 bad usage,
 * bad input, an I/O or a device error.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "tplanctl.h"

static void usage(void)
{
	fputs("usage: tplanctl COMMAND [ARGS]\n"
	      "\n"
	      "commands:\n"
	      "  plan FILE... [--strategy S] [--capacity N | --tiers N,N,...]\n"
	      "            [--budget N] [--time-limit MS] [--small-below N]\n"
	      "            [--aliases] [--serial | --concurrent] [-o OUT.csv]\n"
	      "            [--json] [--svg FILE]\n"
	      "      plan a table (or several models, one file each) offline with\n"
	      "      the planner the kernel runs; --svg draws the plan; -o -\n"
	      "      and --svg - write the data alone to standard output (the\n"
	      "      summary then goes to standard error)\n"
	      "  plan FILE --minimize [--strategy search|auto] [--budget N]\n"
	      "            [--time-limit MS] [--small-below N] [--aliases]\n"
	      "            [-o OUT.csv] [--json] [--svg FILE]\n"
	      "      the smallest capacity that fits: bisection with search\n"
	      "  plan FILE --capacity N --spill [--spill-strategy S] [--budget N]\n"
	      "            [-o OUT.csv] [--json]\n"
	      "      plan a table that does not fit N bytes as pieces: tensors\n"
	      "      move out to host memory between two uses\n"
	      "  verify PLAN.csv [--capacity N | --tiers N,N,...] [--aliases]\n"
	      "                  [--serial | --concurrent]\n"
	      "      check a plan (a table with an offset column; - reads\n"
	      "      standard input); what the plan records of how it was\n"
	      "      made (its '# tplan:' line) needs no flag\n"
	      "  verify OUT.csv --spill --table IN.csv --capacity N\n"
	      "      check a spill plan (one row per piece) against its table\n"
	      "  submit FILE... [--device PATH] [--strategy S] [--budget N]\n"
	      "              [--capacity N] [--time-limit MS] [--small-below N]\n"
	      "              [--aliases] [--tiered]\n"
	      "              [--serial | --concurrent | --group ID] [--dry-run]\n"
	      "              [-o OUT.csv] [--json] [--hold]\n"
	      "      plan a table in the kernel and reserve its memory; the\n"
	      "      plan is released on exit, or on SIGINT/SIGTERM with --hold\n"
	      "  submit FILE --capacity N --spill [--spill-strategy S]\n"
	      "              [--device PATH] [--budget N] [--dry-run]\n"
	      "              [-o OUT.csv] [--json] [--hold]\n"
	      "      plan --spill in the kernel and reserve what the pieces need\n"
	      "  show PLAN.csv [-o OUT.svg] [--ascii] [--width N]\n"
	      "               [--serial | --concurrent] [--aliases] [--names FILE]\n"
	      "      draw a plan: an SVG picture with -o (time across, address\n"
	      "      up, a panel per tier), else a text view (--ascii: both);\n"
	      "      labels from the node column or --names FILE\n"
	      "  info [--device PATH] [--json]\n"
	      "      the device's ABI version, limits and pools\n"
	      "  COMMAND --help\n"
	      "      the command's usage\n"
	      "\n"
	      "strategies: auto (default), search, strip, greedy-size, naive\n"
	      "budget: deterministic work units (0: 160M for auto, search and\n"
	      "        strip, unlimited for the others); --time-limit caps the\n"
	      "        wall-clock time on top, at the price of determinism\n"
	      "aliases: honour alias_of/alias_offset: an alias group shares its\n"
	      "        owner's bytes (plan, submit and verify)\n"
	      "small-below: tensors smaller than N bytes are never reused; they\n"
	      "        get their own bytes above the others (default: off)\n"
	      "tiers: capacities of 2-4 tiers, fastest first (last 0: unlimited);\n"
	      "        the fast tiers take the highest priority per byte first;\n"
	      "        --tiered: the device's pools are the tiers\n"
	      "models: several files are one model each; --serial models take\n"
	      "        turns and share scratch, --concurrent (default) never\n"
	      "        share; equal share_key tensors are stored once; --group ID\n"
	      "        submits each file as a plan of one serial group\n"
	      "spill: a tensor is in memory at each use (uses column; default\n"
	      "        lower and upper - 1) and may be out in between; spill\n"
	      "        strategies default (fewest bytes moved), furthest\n"
	      "        (furthest next use first) and ga (segments and a\n"
	      "        genetic algorithm)\n"
	      "sizes take an optional K, M or G suffix (powers of 1024)\n"
	      "files: --input=FILE (MiniMalloc's spelling) for a FILE argument\n"
	      "the device is the first accel device that speaks tplan's ABI\n"
	      "        (/dev/accel/accelN, driver tplan first, then tplan_edu)\n"
	      "        unless --device or $TPLAN_DEVICE names another; info\n"
	      "        without them lists every one\n"
	      "json: --json's errors are one JSON object on standard output,\n"
	      "        {\"error\":\"...\",\"errno\":\"ENOENT\",\"exit\":2}\n"
	      "exit codes: 0 ok, 1 plan does not fit or is invalid,\n"
	      "            2 bad usage, input, I/O or device\n", stdout);
}

/* Without a command: the commands alone, and where the rest is. */
static void brief_usage(void)
{
	fputs("usage: tplanctl COMMAND [ARGS]\n"
	      "  plan FILE...      plan a table offline (the kernel's planner)\n"
	      "  verify PLAN.csv   check a plan\n"
	      "  submit FILE...    plan in the kernel and reserve the memory\n"
	      "  show PLAN.csv     draw a plan\n"
	      "  info              the device's limits and pools\n"
	      "tplanctl COMMAND --help: a command's options; tplanctl --help:\n"
	      "all of them; tplanctl(1): the manual\n", stderr);
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd) {
		brief_usage();
		return TPLANCTL_EXIT_USAGE;
	}
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") ||
	    !strcmp(cmd, "help")) {
		usage();
		return TPLANCTL_EXIT_OK;
	}
	if (!strcmp(cmd, "--version")) {
		printf("tplanctl %s\n", tplan_version());
		return TPLANCTL_EXIT_OK;
	}
	if (!strcmp(cmd, "plan"))
		return tplanctl_finish(tplanctl_plan(argc - 1, argv + 1));
	if (!strcmp(cmd, "verify"))
		return tplanctl_finish(tplanctl_verify(argc - 1, argv + 1));
	if (!strcmp(cmd, "submit"))
		return tplanctl_finish(tplanctl_submit(argc - 1, argv + 1));
	if (!strcmp(cmd, "show"))
		return tplanctl_finish(tplanctl_show(argc - 1, argv + 1));
	if (!strcmp(cmd, "info"))
		return tplanctl_finish(tplanctl_info(argc - 1, argv + 1));
	fprintf(stderr, "tplanctl: unknown command '%s' (try --help)\n", cmd);
	return TPLANCTL_EXIT_USAGE;
}
