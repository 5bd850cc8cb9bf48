// SPDX-License-Identifier: MIT
/*
 * tplanctl_args.c - the options "plan", "submit" and "info" share, parsed
 * once: each command names the ones it takes; sizes such as 256K.
 */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "tplanctl.h"

/* An option: its bit, names, and what --help says of it. */
struct arg_spec {
	unsigned int bit;
	const char *name;
	int has_arg;
	int key;
	const char *arg;	/* its argument's name in --help, or NULL */
	const char *help;
};

static const struct arg_spec arg_specs[] = {
	{ TPLANCTL_ARG_STRATEGY, "strategy", required_argument, 's', "S",
	  "auto (default), search, strip, greedy-size or naive" },
	{ TPLANCTL_ARG_CAPACITY, "capacity", required_argument, 'c', "N",
	  "bytes the plan must fit in (K, M or G suffix)" },
	{ TPLANCTL_ARG_BUDGET, "budget", required_argument, 'b', "N",
	  "work units (0: the strategy's default)" },
	{ TPLANCTL_ARG_OUTPUT, "output", required_argument, 'o', "FILE",
	  "write the result to FILE (-: standard output)" },
	{ TPLANCTL_ARG_JSON, "json", no_argument, 'j', NULL,
	  "the result, or the error, as JSON on standard output" },
	{ TPLANCTL_ARG_DEVICE, "device", required_argument, 'd', "PATH",
	  "the accel node (default: $TPLAN_DEVICE, else the first)" },
	{ TPLANCTL_ARG_DRY_RUN, "dry-run", no_argument, 'n', NULL,
	  "plan in the kernel and reserve nothing" },
	{ TPLANCTL_ARG_HOLD, "hold", no_argument, 'H', NULL,
	  "keep the plan until SIGINT or SIGTERM" },
	{ TPLANCTL_ARG_TIME_LIMIT, "time-limit", required_argument, 'T', "MS",
	  "stop improving the plan after MS milliseconds" },
	{ TPLANCTL_ARG_SMALL, "small-below", required_argument, 'S', "N",
	  "tensors under N bytes get bytes of their own" },
	{ TPLANCTL_ARG_ALIASES, "aliases", no_argument, 'A', NULL,
	  "honour the alias_of and alias_offset columns" },
	{ TPLANCTL_ARG_TIERS, "tiers", required_argument, 't', "N,N,...",
	  "capacities of 2-4 tiers, fastest first" },
	{ TPLANCTL_ARG_MODELS, "serial", no_argument, 'L', NULL,
	  "the models (one a file) take turns and share scratch" },
	{ TPLANCTL_ARG_MODELS, "concurrent", no_argument, 'C', NULL,
	  "the models run at once and share nothing (default)" },
	{ TPLANCTL_ARG_TIERED, "tiered", no_argument, 'D', NULL,
	  "the device's pools are the tiers" },
	{ TPLANCTL_ARG_GROUP, "group", required_argument, 'G', "ID",
	  "each file a plan of serial group ID" },
	{ TPLANCTL_ARG_ASCII, "ascii", no_argument, 'a', NULL,
	  "the text view too" },
	{ TPLANCTL_ARG_WIDTH, "width", required_argument, 'W', "N",
	  "columns of the text view" },
	{ TPLANCTL_ARG_SVG, "svg", required_argument, 'V', "FILE",
	  "draw the plan as SVG (-: standard output)" },
	{ TPLANCTL_ARG_SPILL, "spill", no_argument, 'P', NULL,
	  "tensors may leave memory between two uses" },
	{ TPLANCTL_ARG_SPILL_STRATEGY, "spill-strategy", required_argument,
	  'X', "S", "default, furthest or ga" },
	{ TPLANCTL_ARG_TABLE, "table", required_argument, 'I', "FILE",
	  "the table the spill plan was made from" },
	{ TPLANCTL_ARG_MINIMIZE, "minimize", no_argument, 'M', NULL,
	  "the smallest capacity that fits" },
	{ TPLANCTL_ARG_NAMES, "names", required_argument, 'N', "FILE",
	  "labels: id and node columns" },
	{ TPLANCTL_ARG_STEPS, "steps", required_argument, 'R', "A:B",
	  "draw steps A to B - 1 only (A: to the end, :B from 0)" },
	{ TPLANCTL_ARG_PROGRESS, "progress", no_argument, 'g', NULL,
	  "a progress line on stderr each second (default on a terminal)" },
	{ TPLANCTL_ARG_HELP, "help", no_argument, 'h', NULL, "this help" },
	/* MiniMalloc's spelling of the file argument */
	{ TPLANCTL_ARG_FILE | TPLANCTL_ARG_FILES, "input", required_argument,
	  'i', "FILE", "the file argument (MiniMalloc's spelling)" },
};

#define ARG_SPECS	(sizeof(arg_specs) / sizeof(arg_specs[0]))

/*
 * Parses a decimal byte count with an optional K, M or G suffix (powers of
 * 1024).  Returns 0 or -EINVAL (not a number, trailing junk, overflow).
 */
int tplanctl_parse_size(const char *text, u64 *value)
{
	u64 v = 0, mul = 1;
	const char *p = text;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++)
		if (check_mul_overflow(v, 10, &v) ||
		    check_add_overflow(v, (u64)(*p - '0'), &v))
			return -EINVAL;
	switch (*p) {
	case 'K': case 'k':
		mul = 1ull << 10;
		break;
	case 'M': case 'm':
		mul = 1ull << 20;
		break;
	case 'G': case 'g':
		mul = 1ull << 30;
		break;
	case '\0':
		break;
	default:
		return -EINVAL;
	}
	if (*p && p[1])
		return -EINVAL;
	if (check_mul_overflow(v, mul, value))
		return -EINVAL;
	return 0;
}

static int bad_value(const char *cmd, const char *opt, const char *val)
{
	tplanctl_note_errno(-EINVAL);
	fprintf(stderr, "tplanctl %s: invalid %s '%s'\n", cmd, opt, val);
	return -EINVAL;
}

/* An unknown name: the message lists the @count names @name() gives. */
static int bad_name(const char *cmd, const char *opt, const char *val,
		    const char *(*name)(u32), u32 count)
{
	u32 i;

	tplanctl_note_errno(-EINVAL);
	fprintf(stderr, "tplanctl %s: invalid %s '%s' (one of:", cmd, opt, val);
	for (i = 0; i < count; i++)
		fprintf(stderr, " %s", name(i));
	fprintf(stderr, ")\n");
	return -EINVAL;
}

/* "256K,4M": each tier's capacity, fastest first; the last may be 0. */
static int parse_tiers(const char *text, struct tplan_options *o)
{
	const char *p = text;
	char one[32];

	o->tier_count = 0;
	while (*p) {
		size_t len = strcspn(p, ",");

		if (o->tier_count == TPLAN_MAX_TIERS || !len ||
		    len >= sizeof(one))
			return -EINVAL;
		memcpy(one, p, len);
		one[len] = '\0';
		if (tplanctl_parse_size(one, &o->tier_capacity[o->tier_count++]))
			return -EINVAL;
		p += len;
		if (*p && !*++p)
			return -EINVAL;	/* a trailing comma */
	}
	return o->tier_count < 2 ? -EINVAL : 0;
}

/* "A.csv+B.csv" for messages, cut with "..." if it does not fit. */
static void join_inputs(struct tplanctl_args *a)
{
	size_t used = 0, room = sizeof(a->label);
	u32 i;

	a->input = a->inputs[0];
	if (a->input_count < 2)
		return;
	for (i = 0; i < a->input_count && used < room; i++)
		used += (size_t)snprintf(a->label + used, room - used, "%s%s",
					 i ? "+" : "", a->inputs[i]);
	if (used >= room)
		memcpy(a->label + room - 4, "...", 4);
	a->input = a->label;
}

/* --steps A:B, A: or :B (a step range to draw); 0 or -EINVAL. */
static int parse_steps(const char *text, struct tplanctl_args *a)
{
	const char *colon = strchr(text, ':');
	char from[32];
	u64 to = UINT64_MAX;

	if (!colon || (size_t)(colon - text) >= sizeof(from))
		return -EINVAL;
	memcpy(from, text, (size_t)(colon - text));
	from[colon - text] = '\0';
	a->steps_from = 0;
	if ((*from && tplanctl_parse_size(from, &a->steps_from)) ||
	    (colon[1] && tplanctl_parse_size(colon + 1, &to)) ||
	    a->steps_from >= to)
		return -EINVAL;
	a->steps_to = to;
	return 0;
}

/* The options "plan" always had keep a short form too (-s, -c...). */
static bool has_short(int key)
{
	return strchr("scbojh", key);
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
		if (has_short(arg_specs[i].key)) {
			*shortopts++ = (char)arg_specs[i].key;
			if (arg_specs[i].has_arg)
				*shortopts++ = ':';
		}
	}
	memset(&longopts[n], 0, sizeof(longopts[n]));
	*shortopts = '\0';
}

/*
 * Whether the arguments ask for --json (or -j, alone or among other short
 * options), looked at before parsing so that an error about an option
 * before it is JSON too.
 */
static bool wants_json(int argc, char **argv)
{
	const char *p;
	int i;

	for (i = 1; i < argc; i++) {
		p = argv[i];
		if (!strcmp(p, "--"))
			return false;
		if (p[0] == '-' && p[1] == '-' && strlen(p) >= 3 &&
		    !strncmp(p, "--json", strlen(p)))
			return true;
		if (p[0] != '-' || p[1] == '-')
			continue;
		for (p++; *p && !strchr("scbo", *p); p++)
			if (*p == 'j')
				return true;
	}
	return false;
}

/*
 * --help: the command's usage and each option it takes, on standard
 * output; the command exits 0.
 */
static int print_help(const char *usage, unsigned int accept)
{
	char name[40];
	unsigned int i;

	printf("usage: %s\n\noptions:\n", usage);
	for (i = 0; i < ARG_SPECS; i++) {
		if (!(accept & arg_specs[i].bit))
			continue;
		snprintf(name, sizeof(name), "%c%c%c --%s%s%s",
			 has_short(arg_specs[i].key) ? '-' : ' ',
			 has_short(arg_specs[i].key) ? arg_specs[i].key : ' ',
			 has_short(arg_specs[i].key) ? ',' : ' ',
			 arg_specs[i].name, arg_specs[i].arg ? " " : "",
			 arg_specs[i].arg ? arg_specs[i].arg : "");
		printf("  %-26s %s\n", name, arg_specs[i].help);
	}
	printf("\nmore: tplanctl --help, and tplanctl(1)\n");
	tplanctl_help_shown = true;
	return -EINVAL;
}

/**
 * tplanctl_parse_args() - parse a command's options and its files
 * @cmd: the command's name, for messages
 * @argc: arguments, the command's name first
 * @argv: the arguments
 * @accept: %TPLANCTL_ARG_* bits: the options the command takes, and
 *          %TPLANCTL_ARG_FILE if it takes one file argument,
 *          %TPLANCTL_ARG_FILES if one or more (else none)
 * @usage: the usage line printed on a usage error, and by --help (every
 *         command takes it)
 * @a: the parsed options, defaults (greedy-size) for the others
 *
 * With --json, what the command then writes to standard error is kept and
 * becomes a JSON error if it fails (tplanctl_json_errors()).
 *
 * Return: 0, or -EINVAL after printing why (or after --help printed the
 * usage: the command then exits 0, see tplanctl_help_shown).
 */
int tplanctl_parse_args(const char *cmd, int argc, char **argv,
			unsigned int accept, const char *usage,
			struct tplanctl_args *a)
{
	struct option longopts[ARG_SPECS + 1];
	char shortopts[16];
	int c, files = accept & (TPLANCTL_ARG_FILE | TPLANCTL_ARG_FILES) ? 1 : 0;
	bool serial = false, concurrent = false;
	u64 value;

	memset(a, 0, sizeof(*a));
	a->opts.strategy = TPLAN_STRATEGY_AUTO;
	a->width = TPLANCTL_TEXT_WIDTH;
	a->steps_to = UINT64_MAX;
	accept |= TPLANCTL_ARG_HELP;
	if ((accept & TPLANCTL_ARG_JSON) && wants_json(argc, argv))
		tplanctl_json_errors();
	build_options(accept, longopts, shortopts);
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (tplan_strategy_from_name(optarg, &a->opts.strategy))
				return bad_name(cmd, "strategy", optarg,
						tplan_strategy_name,
						TPLAN_STRATEGY_COUNT);
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
		case 't':
			if (parse_tiers(optarg, &a->opts))
				return bad_value(cmd, "tiers (2 to 4 sizes, comma-separated)",
						 optarg);
			break;
		case 'L':
			serial = true;
			a->opts.flags |= TPLAN_PLAN_SERIAL;
			break;
		case 'C':
			concurrent = true;
			a->concurrent = true;
			break;
		case 'D':
			a->tiered = true;
			break;
		case 'G':
			if (tplanctl_parse_size(optarg, &value) || !value ||
			    value > UINT32_MAX)
				return bad_value(cmd, "group (1 to 2^32 - 1)", optarg);
			a->group = (u32)value;
			break;
		case 'a':
			a->ascii = true;
			break;
		case 'W':
			if (tplanctl_parse_size(optarg, &value) ||
			    value < TPLANCTL_MIN_WIDTH || value > TPLANCTL_MAX_WIDTH)
				return bad_value(cmd, "width (24 to 1000)", optarg);
			a->width = (u32)value;
			break;
		case 'V':
			a->svg = optarg;
			break;
		case 'R':
			if (parse_steps(optarg, a))
				return bad_value(cmd, "steps (A:B, A below B)",
						 optarg);
			break;
		case 'P':
			a->spill = true;
			break;
		case 'X':
			if (tplan_spill_strategy_from_name(optarg,
							   &a->spill_strategy))
				return bad_name(cmd, "spill strategy", optarg,
						tplan_spill_strategy_name,
						TPLAN_SPILL_COUNT);
			a->spill_strategy_set = true;
			break;
		case 'N':
			a->names = optarg;
			break;
		case 'I':
			a->table = optarg;
			break;
		case 'i':
			a->input_option = optarg;
			break;
		case 'M':
			a->minimize = true;
			break;
		case 'g':
			a->progress = true;
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
		case 'h':
			return print_help(usage, accept);
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
	if ((serial && concurrent) || (a->group && (serial || concurrent))) {
		fprintf(stderr, "tplanctl %s: --serial, --concurrent and --group exclude each other\n",
			cmd);
		goto usage;
	}
	if (a->opts.tier_count && a->opts.capacity) {
		fprintf(stderr, "tplanctl %s: --tiers gives each tier's capacity; drop --capacity\n",
			cmd);
		goto usage;
	}
	if (a->input_option) {
		if (argc > optind) {
			fprintf(stderr, "tplanctl %s: --input names the file: no file argument after it\n",
				cmd);
			goto usage;
		}
		a->inputs = &a->input_option;
		a->input_count = 1;
		join_inputs(a);
		return 0;
	}
	if (argc - optind < files ||
	    (argc - optind > files && !(accept & TPLANCTL_ARG_FILES)))
		goto usage;
	a->inputs = argv + optind;
	a->input_count = (u32)(argc - optind);
	if (files)
		join_inputs(a);
	return 0;
usage:
	tplanctl_note_errno(-EINVAL);
	fprintf(stderr, "usage: %s\n", usage);
	return -EINVAL;
}
