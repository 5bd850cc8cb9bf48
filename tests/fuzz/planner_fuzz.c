// SPDX-License-Identifier: MIT
/*
 * planner_fuzz.c - a libFuzzer harness for the CSV reader and the planner,
 * with the independent validator as the oracle.
 *
 * The input is a table in tplan's CSV.  The options (strategy, aliases,
 * serial models, small tensors apart, tiers) come from a hash of the input,
 * so an input always plans the same way.  A table the reader takes is
 * planned with a small budget; a plan the planner returns must pass
 * tplan_validate_plan().  ASan and UBSan catch the rest.
 *
 *   tests/fuzz/planner-fuzz.sh BUILD_DIR SECONDS SHARED_DIR
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "libtplan.h"
#include "planner.h"

/* Planning is quadratic at worst: keep each input fast. */
#define FUZZ_MAX_TENSORS	2000
#define FUZZ_BUDGET		200000

static uint32_t hash(const uint8_t *data, size_t size)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < size; i++)
		h = (h ^ data[i]) * 16777619u;
	return h;
}

static void options_from(uint32_t h, struct tplan_options *opts)
{
	static const u64 tiers[] = { 4096, 65536, 1 << 20, 0 };

	opts->strategy = h % TPLAN_STRATEGY_COUNT;
	opts->budget = FUZZ_BUDGET;
	opts->flags = (h >> 8) & TPLAN_PLAN_KNOWN_FLAGS;
	opts->small_below = (h >> 12) & 1 ? 64 : 0;
	opts->tier_count = (h >> 16) % 4;	/* 0 or 1: untiered */
	if (opts->tier_count < 2)
		opts->tier_count = 0;
	for (u32 k = 0; k < opts->tier_count; k++)
		opts->tier_capacity[k] = tiers[4 - opts->tier_count + k];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tplan_options opts = { 0 };
	struct tplan_finding finding;
	struct tplan_table *table;
	struct tplan_result res;
	struct tplan_error err;
	FILE *in;

	if (!size)
		return 0;
	in = fmemopen((void *)data, size, "r");
	if (!in)
		return 0;
	if (tplan_table_read(in, "fuzz", &table, &err)) {
		fclose(in);
		return 0;
	}
	fclose(in);
	options_from(hash(data, size), &opts);
	if (table->count <= FUZZ_MAX_TENSORS &&
	    !tplan_plan(table->tensors, table->count, &opts, &res) &&
	    tplan_validate_plan(table->tensors, table->count, &opts, &finding)) {
		fprintf(stderr, "planner_fuzz: invalid plan (strategy %u flags %u tiers %u)\n",
			opts.strategy, opts.flags, opts.tier_count);
		abort();
	}
	tplan_table_free(table);
	return 0;
}
