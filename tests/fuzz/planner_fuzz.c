// SPDX-License-Identifier: MIT
/*
 * planner_fuzz.c - a libFuzzer harness for the CSV reader and the planner,
 * with the independent validator as the oracle.
 *
 * The input is a table in tplan's CSV (with MiniMalloc's offset and gaps
 * columns, hints, uses).  The options (strategy, aliases, serial models,
 * small tensors apart, tiers; or a spill plan at a capacity under the
 * lower bound) come from a hash of the input, so an input always plans the
 * same way.  A table the reader takes is planned with a small budget; a
 * plan the planner returns must pass tplan_validate_plan() and keep every
 * pinned tensor where it was, a spill plan tplan_validate_spill() and
 * report the bytes its pieces move.  ASan and UBSan catch the rest; the
 * seeds include sizes and hints near 2^64, where overflows hide.
 *
 *   tests/fuzz/planner-fuzz.sh BUILD_DIR SECONDS DATA_DIR
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

static void fail(const char *what, const struct tplan_options *opts)
{
	fprintf(stderr, "planner_fuzz: %s (strategy %u flags %u tiers %u)\n",
		what, opts->strategy, opts->flags, opts->tier_count);
	abort();
}

/* A plan: valid, and pinned tensors where the table put them. */
static void plan_and_check(struct tplan_table *table,
			   struct tplan_options *opts)
{
	struct tplan_tensor *t = table->tensors;
	struct tplan_finding finding;
	struct tplan_result res;
	u64 *pinned;
	u32 i;

	pinned = calloc(table->count + 1, sizeof(*pinned));
	if (!pinned)
		return;
	for (i = 0; i < table->count; i++)
		pinned[i] = t[i].offset;
	opts->gaps = table->gaps;
	opts->gap_count = table->gap_count;
	if (!tplan_plan(t, table->count, opts, &res)) {
		if (tplan_validate_plan(t, table->count, opts, &finding))
			fail("invalid plan", opts);
		for (i = 0; i < table->count; i++)
			if ((t[i].flags & TPLAN_TENSOR_PINNED) &&
			    t[i].offset != pinned[i])
				fail("a pinned tensor moved", opts);
	}
	free(pinned);
}

/*
 * What a spill plan says it moves: twice a tensor's size per piece after
 * its first, counted without overflow, and no less than the bound.
 */
static bool moved_adds_up(const struct tplan_table *table,
			  const struct tplan_piece *p,
			  const struct tplan_spill_result *res)
{
	unsigned __int128 moved = 0;
	u32 i;

	for (i = 0; i < res->pieces; i++)
		if (p[i].piece)
			moved += 2 * (unsigned __int128)
				 table->tensors[p[i].tensor].size;
	return moved == res->moved && res->moved >= res->moved_bound;
}

/*
 * A spill plan at 50-100 % of the lower bound: valid when one is returned,
 * with its moved bytes right.
 */
static void spill_and_check(const struct tplan_table *table, uint32_t h)
{
	struct tplan_uses u = { table->use_step, table->use_start };
	struct tplan_spill_options o = { h % TPLAN_SPILL_COUNT, 0, FUZZ_BUDGET };
	struct tplan_spill_result res;
	struct tplan_piece *p;
	u64 bound;
	u32 cap;

	if (tplan_lower_bound(table->tensors, table->count, &bound) || !bound)
		return;
	o.capacity = bound / 100 * (50 + (h >> 4) % 51);
	if (!o.capacity)
		o.capacity = bound;
	cap = tplan_spill_max_pieces(table->tensors, table->count, &u);
	p = calloc((size_t)cap + 1, sizeof(*p));
	if (!p)
		return;
	if (!tplan_spill_plan(table->tensors, table->count, &u, &o, p, cap,
			      &res) &&
	    (tplan_validate_spill(table->tensors, table->count, &u, p,
				  res.pieces, o.capacity, NULL) ||
	     !moved_adds_up(table, p, &res))) {
		fprintf(stderr, "planner_fuzz: invalid spill plan or moved bytes (%s, capacity %llu)\n",
			tplan_spill_strategy_name(o.strategy), o.capacity);
		abort();
	}
	free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tplan_options opts = { 0 };
	struct tplan_table *table;
	struct tplan_error err;
	uint32_t h;
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
	h = hash(data, size);
	if (table->count > FUZZ_MAX_TENSORS) {
		/* too slow to be worth it */
	} else if (table->use_start && (h >> 20) % 4 == 0) {
		spill_and_check(table, h);
	} else {
		options_from(h, &opts);
		plan_and_check(table, &opts);
	}
	tplan_table_free(table);
	return 0;
}
