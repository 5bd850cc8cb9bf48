// SPDX-License-Identifier: MIT
/*
 * tplanctl_submit.c - "tplanctl submit": plan a table in the kernel through
 * /dev/tplan and reserve its memory; report it as "plan" does.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "tplanctl.h"

#define SUBMIT_USAGE							\
	"tplanctl submit FILE [--device PATH] [--strategy S] [--budget N]\n" \
	"       [--capacity N] [--time-limit MS] [--small-below N] [--dry-run]\n" \
	"       [-o OUT.csv]" \
	"       [--json] [--hold]"

static int report_submit_failure(const struct tplanctl_args *a,
				 const struct tplan_result *res, int err)
{
	const char *why = NULL;

	if (err == -ENOTTY) {
		fprintf(stderr, "tplanctl submit: %s: not a tplan device"
			" (ENOTTY)\n", a->device ? a->device : TPLAN_DEVICE_PATH);
		return TPLANCTL_EXIT_USAGE;
	}
	if (err == -E2BIG)
		why = "more tensors than the device takes (see tplanctl info)";
	else if (err == -EMFILE)
		why = "too many plans held through this file";
	if (!why)
		return tplanctl_report_failure("submit", a, res, err);
	fprintf(stderr, "tplanctl submit: %s: %s (%s)\n", a->input, why,
		tplanctl_errno_name(err));
	return TPLANCTL_EXIT_USAGE;
}

/*
 * Keep the plan until interrupted, then give it back.  The signals are
 * blocked before "holding" is printed, so whoever waits for that line may
 * interrupt at once.
 */
static int hold(struct tplan_device *dev, const struct tplan_submission *sub)
{
	sigset_t set;
	int ret = 0, sig;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		ret = -errno;
	fflush(stdout);
	if (!ret) {
		fprintf(stderr, "tplanctl submit: holding plan %llu; interrupt to"
			" release\n", sub->plan_id);
		ret = -sigwait(&set, &sig);
	}
	if (!ret)
		ret = tplan_device_release(dev, sub->plan_id);
	if (ret) {
		fprintf(stderr, "tplanctl submit: plan %llu: %s (%s)\n",
			sub->plan_id, strerror(-ret), tplanctl_errno_name(ret));
		return TPLANCTL_EXIT_USAGE;
	}
	return TPLANCTL_EXIT_OK;
}

int tplanctl_submit(int argc, char **argv)
{
	struct tplan_submission sub;
	struct tplan_device *dev;
	struct tplan_table *table;
	struct tplan_result res;
	struct tplan_error err;
	struct tplanctl_args a;
	int ret;

	if (tplanctl_parse_args("submit", argc, argv, TPLANCTL_ARGS_PLAN |
				TPLANCTL_ARG_DEVICE | TPLANCTL_ARG_DRY_RUN |
				TPLANCTL_ARG_HOLD, SUBMIT_USAGE, &a))
		return TPLANCTL_EXIT_USAGE;
	if (a.hold && a.dry_run) {
		fputs("tplanctl submit: --hold needs a reserved plan; a dry run"
		      " reserves none\n", stderr);
		return TPLANCTL_EXIT_USAGE;
	}
	ret = tplan_table_load(a.input, &table, &err);
	if (ret) {
		fprintf(stderr, "tplanctl submit: %s\n", err.msg);
		return TPLANCTL_EXIT_USAGE;
	}
	ret = tplanctl_open_device("submit", a.device, &dev);
	if (ret) {
		tplan_table_free(table);
		return ret;
	}
	ret = tplan_device_submit(dev, table, &a.opts,
				  a.dry_run ? TPLAN_SUBMIT_DRY_RUN : 0,
				  &res, &sub);
	if (ret) {
		ret = report_submit_failure(&a, &res, ret);
	} else {
		ret = tplanctl_report_plan("submit", &a, table, &res,
					   a.dry_run ? NULL : &sub);
		if (!ret && a.hold)
			ret = hold(dev, &sub);
	}
	/* Closing releases whatever the file still holds. */
	tplan_device_close(dev);
	tplan_table_free(table);
	return ret;
}
