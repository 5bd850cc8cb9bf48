// SPDX-License-Identifier: MIT
/*
 * tplanctl_info.c - "tplanctl info": what each accel device that speaks
 * tplan's ABI offers and how full its pools are (tplan's own device and a
 * host driver's, such as tplan_edu's), or the one --device or $TPLAN_DEVICE
 * names.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tplanctl.h"

static void print_text(const char *path, const char *driver,
		       const struct tplan_info *in, u32 pools)
{
	u32 i;

	printf("device          %s\n", path);
	printf("driver          %s\n", *driver ? driver : "?");
	printf("abi version     %" PRIu32 "\n", in->abi_version);
	printf("max tensors     %" PRIu32 "\n", in->max_tensors);
	printf("max plans       %" PRIu32 "\n", in->max_plans);
	printf("region align    %llu bytes\n", in->region_align);
	printf("default budget  %llu units\n", in->default_budget);
	printf("max budget      %llu units\n", in->max_budget);
	printf("max submit mem  %llu bytes\n", in->max_submit_bytes);
	printf("max submits     %" PRIu32 " at once\n", in->max_submits);
	printf("plans held      %" PRIu32 "\n", in->plans_held);
	if (in->max_device_plans)	/* 0: a module that does not say */
		printf("device plans    %" PRIu32 " at most, all files\n"
		       "max group keys  %llu a file, %llu all files\n",
		       in->max_device_plans, in->max_file_keys,
		       in->max_device_keys);
	printf("pools           %" PRIu32 "\n", in->pool_count);
	printf("%4s %4s %14s %14s %14s %14s %12s\n", "pool", "tier", "size",
	       "used", "free", "largest free", "free regions");
	for (i = 0; i < pools; i++) {
		const struct tplan_pool_info *p = &in->pools[i];

		printf("%4" PRIu32 " %4" PRIu32 " %14llu %14llu %14llu %14llu"
		       " %12" PRIu32 "\n", i, p->tier, p->size, p->used,
		       p->free, p->largest_free, p->free_regions);
	}
}

static void print_json(const char *path, const char *driver,
		       const struct tplan_info *in, u32 pools)
{
	u32 i;

	fputs("{\"device\":", stdout);
	tplanctl_print_json_string(path);
	fputs(",\"driver\":", stdout);
	tplanctl_print_json_string(driver);
	printf(",\"abi_version\":%" PRIu32 ",\"max_tensors\":%" PRIu32 ","
	       "\"max_plans\":%" PRIu32 ",\"region_align\":%llu,"
	       "\"default_budget\":%llu,\"max_budget\":%llu,"
	       "\"max_submit_bytes\":%llu,\"max_submits\":%" PRIu32 ","
	       "\"plans_held\":%" PRIu32 ",\"max_device_plans\":%" PRIu32 ","
	       "\"max_file_keys\":%llu,\"max_device_keys\":%llu,\"pools\":[",
	       in->abi_version, in->max_tensors, in->max_plans,
	       in->region_align, in->default_budget, in->max_budget,
	       in->max_submit_bytes, in->max_submits, in->plans_held,
	       in->max_device_plans, in->max_file_keys, in->max_device_keys);
	for (i = 0; i < pools; i++) {
		const struct tplan_pool_info *p = &in->pools[i];

		printf("%s{\"pool\":%" PRIu32 ",\"tier\":%" PRIu32 ","
		       "\"size\":%llu,\"used\":%llu,\"free\":%llu,"
		       "\"largest_free\":%llu,\"free_regions\":%" PRIu32 "}",
		       i ? "," : "", i, p->tier, p->size, p->used, p->free,
		       p->largest_free, p->free_regions);
	}
	puts("]}");
}

/* Prints one device's info; an exit code. */
static int info_one(const char *node, int json)
{
	struct tplan_device *dev;
	struct tplan_info info;
	const char *path;
	u32 pools;
	int ret;

	ret = tplanctl_open_device("info", node, &dev);
	if (ret)
		return ret;
	path = tplan_device_path(dev);
	ret = tplan_device_get_info(dev, &info);
	if (ret) {
		fprintf(stderr, "tplanctl info: %s: %s (%s%s)\n", path,
			strerror(-ret), tplanctl_errno_name(ret),
			ret == -ENOTTY ? "; not a tplan device?" : "");
		tplan_device_close(dev);
		return TPLANCTL_EXIT_USAGE;
	}
	pools = info.pool_count < TPLAN_MAX_POOLS ? info.pool_count :
						    TPLAN_MAX_POOLS;
	if (json)
		print_json(path, tplan_device_driver(dev), &info, pools);
	else
		print_text(path, tplan_device_driver(dev), &info, pools);
	tplan_device_close(dev);
	return TPLANCTL_EXIT_OK;
}

/*
 * With --device PATH or $TPLAN_DEVICE: that device.  Else every accel
 * device that speaks tplan's ABI (tplan_device_find_at()), tplan's first:
 * in text a blank line between two, in JSON one object a line.
 */
int tplanctl_info(int argc, char **argv)
{
	char path[PATH_MAX];
	struct tplanctl_args a;
	const char *env = getenv("TPLAN_DEVICE");
	unsigned int i;
	int ret, worst = TPLANCTL_EXIT_OK;

	if (tplanctl_parse_args("info", argc, argv,
				TPLANCTL_ARG_DEVICE | TPLANCTL_ARG_JSON,
				"tplanctl info [--device PATH] [--json]", &a))
		return TPLANCTL_EXIT_USAGE;
	if (a.device || (env && *env))
		return info_one(a.device, a.json);
	for (i = 0; !tplan_device_find_at(i, path, sizeof(path), NULL, 0); i++) {
		if (i && !a.json)
			putchar('\n');
		ret = info_one(path, a.json);
		if (ret != TPLANCTL_EXIT_OK)
			worst = ret;
	}
	if (!i)	/* none: say so as an open of the default device does */
		return info_one(NULL, a.json);
	return worst;
}
