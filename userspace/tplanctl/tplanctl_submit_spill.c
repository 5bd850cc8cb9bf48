// SPDX-License-Identifier: MIT
/*
 * tplanctl_submit_spill.c - "tplanctl submit --spill": plan a table as
 * pieces in the kernel (TPLAN_IOC_SUBMIT_SPILL) and reserve what they
 * need; report and write it as "plan --spill" does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tplanctl.h"

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

static int submit_pieces(struct tplan_device *dev,
			 const struct tplanctl_args *a,
			 const struct tplan_table *table,
			 struct tplan_piece *p, u32 cap)
{
	struct tplan_spill_params params = {
		.flags = a->dry_run ? TPLAN_SUBMIT_DRY_RUN : 0,
		.strategy = a->spill_strategy,
		.capacity = a->opts.capacity,
		.budget = a->opts.budget,
	};
	struct tplan_spill_result r;
	struct tplan_submission sub;
	u64 start = now_ns();
	int ret;

	ret = tplan_device_submit_spill(dev, table, &params, p, cap, &r, &sub);
	if (ret)
		tplanctl_note_errno(ret);
	if (ret == -ENOTTY) {
		fprintf(stderr, "tplanctl submit: %s: not a tplan device, or one without spill plans (ENOTTY)\n",
			tplan_device_path(dev));
		return TPLANCTL_EXIT_USAGE;
	}
	if (ret == -E2BIG) {
		fprintf(stderr, "tplanctl submit: %s: more tensors or uses than the device takes (see tplanctl info) (E2BIG)\n",
			a->input);
		return TPLANCTL_EXIT_USAGE;
	}
	if (ret)
		return tplanctl_spill_failure("submit", a, table, &r, ret);
	ret = tplanctl_spill_report("submit", a, table, &r, p, now_ns() - start,
				    a->dry_run ? NULL : &sub);
	if (!ret && a->hold)
		ret = tplanctl_submit_hold(dev, &sub);
	return ret;
}

/**
 * tplanctl_submit_spill() - "submit --spill": pieces planned by the device
 * @a: the parsed options (one file, a capacity)
 *
 * Closing the device at the end releases the plan (kept until then with
 * --hold).
 *
 * Return: an exit code.
 */
int tplanctl_submit_spill(const struct tplanctl_args *a)
{
	struct tplan_device *dev = NULL;
	struct tplan_table *table;
	struct tplan_piece *p;
	struct tplan_uses u;
	u32 cap;
	int ret;

	ret = tplanctl_load("submit", a, &table);
	if (ret)
		return ret;
	cap = tplan_tensors_max_pieces(table->tensors, table->count,
				       tplanctl_table_uses(table, &u));
	p = calloc(cap ? cap : 1, sizeof(*p));
	if (!p) {
		fprintf(stderr, "tplanctl submit: %s\n", strerror(ENOMEM));
		ret = TPLANCTL_EXIT_USAGE;
	}
	if (!ret)
		ret = tplanctl_open_device("submit", a->device, &dev);
	if (!ret)
		ret = submit_pieces(dev, a, table, p, cap);
	tplan_device_close(dev);
	free(p);
	tplan_table_free(table);
	return ret;
}
