// SPDX-License-Identifier: MIT
/*
 * tplanctl_info.c - "tplanctl info": what the accel device offers and how full
 * its pools are.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tplanctl.h"

static void print_text(const char *path, const struct tplan_info *in, u32 pools)
{
	u32 i;

	printf("device          %s\n", path);
	printf("abi version     %" PRIu32 "\n", in->abi_version);
	printf("max tensors     %" PRIu32 "\n", in->max_tensors);
	printf("max plans       %" PRIu32 "\n", in->max_plans);
	printf("region align    %llu bytes\n", in->region_align);
	printf("default budget  %llu units\n", in->default_budget);
	printf("max budget      %llu units\n", in->max_budget);
	printf("max submit mem  %llu bytes\n", in->max_submit_bytes);
	printf("max submits     %" PRIu32 " at once\n", in->max_submits);
	printf("plans held      %" PRIu32 "\n", in->plans_held);
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

static void print_json(const char *path, const struct tplan_info *in, u32 pools)
{
	u32 i;

	fputs("{\"device\":", stdout);
	tplanctl_print_json_string(path);
	printf(",\"abi_version\":%" PRIu32 ",\"max_tensors\":%" PRIu32 ","
	       "\"max_plans\":%" PRIu32 ",\"region_align\":%llu,"
	       "\"default_budget\":%llu,\"max_budget\":%llu,"
	       "\"max_submit_bytes\":%llu,\"max_submits\":%" PRIu32 ","
	       "\"plans_held\":%" PRIu32 ",\"pools\":[",
	       in->abi_version, in->max_tensors, in->max_plans,
	       in->region_align, in->default_budget, in->max_budget,
	       in->max_submit_bytes, in->max_submits, in->plans_held);
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

int tplanctl_info(int argc, char **argv)
{
	struct tplan_device *dev;
	struct tplanctl_args a;
	struct tplan_info info;
	const char *path;
	u32 pools;
	int ret;

	if (tplanctl_parse_args("info", argc, argv,
				TPLANCTL_ARG_DEVICE | TPLANCTL_ARG_JSON,
				"tplanctl info [--device PATH] [--json]", &a))
		return TPLANCTL_EXIT_USAGE;
	ret = tplanctl_open_device("info", a.device, &dev);
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
	if (a.json)
		print_json(path, &info, pools);
	else
		print_text(path, &info, pools);
	tplan_device_close(dev);
	return TPLANCTL_EXIT_OK;
}
