// SPDX-License-Identifier: MIT
/*
 * tplanctl_submit.c - "tplanctl submit": plan a table in the kernel through
 * the accel device and reserve its memory; report it as "plan" does.
 */
#include <stdio.h>
#include <string.h>

#include "tplanctl.h"

#define SUBMIT_USAGE							\
	"tplanctl submit FILE... [--device PATH] [--strategy S] [--budget N]\n" \
	"       [--capacity N] [--time-limit MS] [--small-below N] [--aliases]\n" \
	"       [--tiered] [--serial | --concurrent | --group ID] [--dry-run]\n" \
	"       [-o OUT.csv] [--json] [--hold]\n" \
	"       tplanctl submit FILE --capacity N --spill\n" \
	"       [--spill-strategy default|furthest|ga] [--device PATH] [--budget N]\n" \
	"       [--dry-run] [-o OUT.csv] [--json] [--hold]"

static int report_submit_failure(const struct tplan_device *dev,
				 const struct tplanctl_args *a,
				 const struct tplan_result *res, int err)
{
	const char *why = NULL;

	tplanctl_note_errno(err);
	if (err == -ENOTTY) {
		fprintf(stderr, "tplanctl submit: %s: not a tplan device"
			" (ENOTTY)\n", tplan_device_path(dev));
		return TPLANCTL_EXIT_USAGE;
	}
	if (err == -E2BIG)
		why = "more tensors than the device takes (see tplanctl info)";
	else if (err == -EMFILE)
		why = "too many plans held through this file";
	else if (err == -ENFILE)
		why = "the device holds as many plans as it allows (max_device_plans),"
		      " some perhaps kept by mappings or dma-bufs";
	if (!why)
		return tplanctl_report_failure("submit", a, NULL, res, err);
	fprintf(stderr, "tplanctl submit: %s: %s (%s)\n", a->input, why,
		tplanctl_errno_name(err));
	return TPLANCTL_EXIT_USAGE;
}

/* How "submit" plans one model alone: a dry run on the same device. */
struct dry_run_ctx {
	struct tplan_device *dev;
	u32 flags;
};

static int plan_on_device(void *ctx, struct tplan_table *part,
			  const struct tplan_options *opts,
			  struct tplan_result *res)
{
	const struct dry_run_ctx *c = ctx;
	struct tplan_submit_params params = {
		.flags = c->flags | TPLAN_SUBMIT_DRY_RUN,
	};
	struct tplan_submission sub;

	return tplan_device_submit(c->dev, part, opts, &params, res, &sub);
}

/* --tiered: the device's pools are the tiers; show their sizes. */
static int use_pools_as_tiers(struct tplan_device *dev, struct tplanctl_args *a)
{
	struct tplan_info info;
	u32 k;
	int ret = tplan_device_get_info(dev, &info);

	if (ret) {
		fprintf(stderr, "tplanctl submit: GET_INFO: %s\n", strerror(-ret));
		return TPLANCTL_EXIT_USAGE;
	}
	if (info.pool_count < 2)
		return TPLANCTL_EXIT_OK;
	a->opts.tier_count = info.pool_count;
	for (k = 0; k < info.pool_count; k++)
		a->opts.tier_capacity[k] = info.pools[k].size;
	return TPLANCTL_EXIT_OK;
}

static int submit_table(struct tplan_device *dev, struct tplanctl_args *a,
			struct tplan_table *table, u32 flags)
{
	struct dry_run_ctx ctx = { dev, flags };
	struct tplan_submit_params params = { .flags = flags, .group = a->group };
	struct tplan_options opts = a->opts;
	struct tplan_submission sub;
	struct tplan_result res;
	int ret;

	opts.tier_count = 0;	/* the device derives the tiers itself */
	memset(opts.tier_capacity, 0, sizeof(opts.tier_capacity));
	ret = tplan_device_submit(dev, table, &opts, &params, &res, &sub);
	if (ret)
		return report_submit_failure(dev, a, &res, ret);
	if (a->group)
		printf("group        %u: stored %llu new bytes of share_key tensors\n",
		       a->group, sub.shared_bytes);
	ret = tplanctl_report_plan("submit", a, table, &res,
				   a->dry_run ? NULL : &sub, plan_on_device, &ctx);
	if (!ret && a->hold)
		ret = tplanctl_submit_hold(dev, &sub);
	return ret;
}

/* --group: each file is its own plan in the group, held until exit. */
static int submit_group(struct tplan_device *dev, struct tplanctl_args *a,
			struct tplan_table **tables, u32 flags)
{
	struct tplanctl_args one = *a;
	u32 k;
	int ret = 0;

	one.input_count = 1;
	for (k = 0; k < a->input_count && !ret; k++) {
		one.inputs = a->inputs + k;
		one.input = a->inputs[k];
		ret = submit_table(dev, &one, tables[k], flags);
	}
	return ret;
}

/* One table per file with --group, else one table of all the files. */
static int load_tables(struct tplanctl_args *a, struct tplan_table **tables)
{
	struct tplanctl_args one = *a;
	u32 k;
	int ret = 0;

	if (!a->group) {
		ret = tplanctl_load("submit", a, &tables[0]);
		if (!ret)
			tplanctl_note_ignored_aliases("submit", a, tables[0]);
		return ret;
	}
	if (a->input_count > TPLANCTL_MAX_FILES) {
		fprintf(stderr, "tplanctl submit: more than %u files\n",
			TPLANCTL_MAX_FILES);
		return TPLANCTL_EXIT_USAGE;
	}
	one.input_count = 1;
	for (k = 0; k < a->input_count && !ret; k++) {
		one.inputs = a->inputs + k;
		ret = tplanctl_load("submit", &one, &tables[k]);
		if (!ret)
			tplanctl_note_ignored_aliases("submit", &one, tables[k]);
	}
	return ret;
}

/* --spill takes one file and a capacity, and none of the layout options. */
static int check_spill(const struct tplanctl_args *a)
{
	const char *why = tplanctl_spill_misuse(a, "--spill submits one file");

	if (!why && !a->spill)
		return 0;
	if (!why && (a->opts.small_below || a->opts.flags ||
		     a->opts.time_limit_ns || a->tiered || a->group))
		why = "--spill takes none of --small-below, --aliases, --serial, --time-limit, --tiered, --group";
	if (!why)
		return 0;
	fprintf(stderr, "tplanctl submit: %s\nusage: %s\n", why, SUBMIT_USAGE);
	return -EINVAL;
}

int tplanctl_submit(int argc, char **argv)
{
	struct tplan_table *tables[TPLANCTL_MAX_FILES] = { NULL };
	struct tplan_device *dev = NULL;
	struct tplanctl_args a;
	u32 flags, k;
	int ret;

	if (tplanctl_parse_args("submit", argc, argv, TPLANCTL_ARGS_PLAN |
				TPLANCTL_ARG_DEVICE | TPLANCTL_ARG_DRY_RUN |
				TPLANCTL_ARG_HOLD | TPLANCTL_ARG_TIERED |
				TPLANCTL_ARG_GROUP | TPLANCTL_ARG_SPILL |
				TPLANCTL_ARG_SPILL_STRATEGY,
				SUBMIT_USAGE, &a) || check_spill(&a))
		return TPLANCTL_EXIT_USAGE;
	if (a.hold && a.dry_run) {
		fputs("tplanctl submit: --hold needs a reserved plan; a dry run"
		      " reserves none\n", stderr);
		return TPLANCTL_EXIT_USAGE;
	}
	if (a.group && (a.tiered || a.dry_run || a.hold || a.output)) {
		fputs("tplanctl submit: --group takes none of --tiered, --dry-run,"
		      " --hold, -o\n", stderr);
		return TPLANCTL_EXIT_USAGE;
	}
	if (a.spill)
		return tplanctl_submit_spill(&a);
	flags = (a.dry_run ? TPLAN_SUBMIT_DRY_RUN : 0) |
		(a.tiered ? TPLAN_SUBMIT_TIERED : 0);
	ret = load_tables(&a, tables);
	if (!ret)
		ret = tplanctl_open_device("submit", a.device, &dev);
	if (!ret && a.tiered)
		ret = use_pools_as_tiers(dev, &a);
	if (!ret && a.group)
		ret = submit_group(dev, &a, tables, flags);
	else if (!ret)
		ret = submit_table(dev, &a, tables[0], flags);
	/* Closing releases whatever the file still holds. */
	if (dev)
		tplan_device_close(dev);
	for (k = 0; k < TPLANCTL_MAX_FILES; k++)
		tplan_table_free(tables[k]);
	return ret;
}
