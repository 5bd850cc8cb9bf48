// SPDX-License-Identifier: MIT
/*
 * gen.c - the generators of gen_core.c, into freshly allocated tables.
 */
#include <stdlib.h>

#include "gen.h"

static struct tplan_tensor *table_alloc(u32 n)
{
	return calloc(n ? n : 1, sizeof(struct tplan_tensor));
}

struct tplan_tensor *gen_random_table(const struct gen_params *p, u64 seed)
{
	struct tplan_tensor *t = table_alloc(p->n);

	if (t)
		gen_fill_random(t, p, seed);
	return t;
}

struct tplan_tensor *gen_network_table(u32 n, u64 seed)
{
	struct tplan_tensor *t = table_alloc(n);

	if (t)
		gen_fill_network(t, n, seed);
	return t;
}

struct tplan_tensor *gen_perfect_table(u32 n, u64 steps, u64 height, u64 seed)
{
	struct tplan_tensor *t = table_alloc(n);

	if (t && !gen_fill_perfect(t, n, steps, height, seed)) {
		free(t);	/* the rectangle is too small for n pieces */
		return NULL;
	}
	return t;
}
