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

bool gen_training_table(struct gen_train *g, u32 layers, u64 seed)
{
	u32 n, uses;

	gen_training_counts(layers, &n, &uses);
	g->t = table_alloc(n);
	g->step = calloc(uses, sizeof(*g->step));
	g->start = calloc((size_t)n + 1, sizeof(*g->start));
	if (!g->t || !g->step || !g->start) {
		gen_training_free(g);
		return false;
	}
	gen_fill_training(g, layers, seed);
	return true;
}

void gen_training_free(struct gen_train *g)
{
	free(g->t);
	free(g->step);
	free(g->start);
	g->t = NULL;
	g->step = NULL;
	g->start = NULL;
}
