// SPDX-License-Identifier: MIT
/*
 * tplanctl_args.c - the options "plan", "submit" and "info" share, parsed
 * once: each command names the ones it takes.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "tplanctl.h"

struct arg_spec {
	unsigned int bit;
	const char *name;
	int has_arg;
	int key;
};

static const struct arg_spec arg_specs[] = {
	{ TPLANCTL_ARG_STRATEGY, "strategy", required_argument, 's' },
	{ TPLANCTL_ARG_CAPACITY, "capacity", required_argument, 'c' },
	{ TPLANCTL_ARG_BUDGET, "budget", required_argument, 'b' },
	{ TPLANCTL_ARG_OUTPUT, "output", required_argument, 'o' },
	{ TPLANCTL_ARG_JSON, "json", no_argument, 'j' },
	{ TPLANCTL_ARG_DEVICE, "device", required_argument, 'd' },
	{ TPLANCTL_ARG_DRY_RUN, "dry-run", no_argument, 'n' },
	{ TPLANCTL_ARG_HOLD, "hold", no_argument, 'H' },
	{ TPLANCTL_ARG_TIME_LIMIT, "time-limit", required_argument, 'T' },
	{ TPLANCTL_ARG_SMALL, "small-below", required_argument, 'S' },
	{ TPLANCTL_ARG_ALIASES, "aliases", no_argument, 'A' },
};

#define ARG_SPECS	(sizeof(arg_specs) / sizeof(arg_specs[0]))

static int bad_value(const char *cmd, const char *opt, const char *val)
{
	fprintf(stderr, "tplanctl %s: invalid %s '%s'\n", cmd, opt, val);
	return -EINVAL;
}

/*
 * The options "plan" always had keep their short forms (-s, -c, -b, -o, -j);
 * the device ones are long only.  getopt_long() also takes unambiguous
 * prefixes of long options.
 */
static void build_options(unsigned int accept, struct option *longopts,
			  char *shortopts)
{
	unsigned int i, n = 0;

	*shortopts++ = ':';	/* report a missing argument as ':' */
	for (i = 0; i < ARG_SPECS; i++) {
		if (!(accept & arg_specs[i].bit))
			continue;
		longopts[n++] = (struct option){
			arg_specs[i].name, arg_specs[i].has_arg, NULL,
			arg_specs[i].key
		};
		if (strchr("scboj", arg_specs[i].key)) {
			*shortopts++ = (char)arg_specs[i].key;
			if (arg_specs[i].has_arg)
				*shortopts++ = ':';
		}
	}
	memset(&longopts[n], 0, sizeof(longopts[n]));
	*shortopts = '\0';
}

/**
 * tplanctl_parse_args() - parse a command's options and its one file
 * @cmd: the command's name, for messages
 * @argc: arguments, the command's name first
 * @argv: the arguments
 * @accept: %TPLANCTL_ARG_* bits: the options the command takes, and
 *          %TPLANCTL_ARG_FILE if it takes one file argument (else none)
 * @usage: the usage line printed on a usage error
 * @a: the parsed options, defaults (greedy-size) for the others
 *
 * Return: 0, or -EINVAL after printing why.
 */
int tplanctl_parse_args(const char *cmd, int argc, char **argv,
			unsigned int accept, const char *usage,
			struct tplanctl_args *a)
{
	struct option longopts[ARG_SPECS + 1];
	char shortopts[16];
	int c, files = accept & TPLANCTL_ARG_FILE ? 1 : 0;

	memset(a, 0, sizeof(*a));
	a->opts.strategy = TPLAN_STRATEGY_AUTO;
	build_options(accept, longopts, shortopts);
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (tplan_strategy_from_name(optarg, &a->opts.strategy))
				return bad_value(cmd, "strategy", optarg);
			break;
		case 'c':
			if (tplanctl_parse_size(optarg, &a->opts.capacity))
				return bad_value(cmd, "capacity", optarg);
			break;
		case 'b':
			if (tplanctl_parse_size(optarg, &a->opts.budget))
				return bad_value(cmd, "budget", optarg);
			break;
		case 'T':
			if (tplanctl_parse_size(optarg, &a->opts.time_limit_ns) ||
			    check_mul_overflow(a->opts.time_limit_ns, 1000000ull,
					       &a->opts.time_limit_ns))
				return bad_value(cmd, "time limit", optarg);
			break;
		case 'A':
			a->opts.flags |= TPLAN_PLAN_ALIASES;
			break;
		case 'S':
			if (tplanctl_parse_size(optarg, &a->opts.small_below))
				return bad_value(cmd, "small-below", optarg);
			break;
		case 'o':
			a->output = optarg;
			break;
		case 'j':
			a->json = true;
			break;
		case 'd':
			a->device = optarg;
			break;
		case 'n':
			a->dry_run = true;
			break;
		case 'H':
			a->hold = true;
			break;
		case ':':
			fprintf(stderr, "tplanctl %s: option '%s' needs a value\n",
				cmd, argv[optind - 1]);
			goto usage;
		default:
			fprintf(stderr, "tplanctl %s: unknown option '%s'\n",
				cmd, argv[optind - 1]);
			goto usage;
		}
	}
	if (argc - optind != files)
		goto usage;
	if (files)
		a->input = argv[optind];
	return 0;
usage:
	fprintf(stderr, "usage: %s\n", usage);
	return -EINVAL;
}
