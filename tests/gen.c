// SPDX-License-Identifier: MIT
/*
 * gen.c - deterministic random tables for tests and benchmarks.
 */
#include <stdlib.h>

#include "gen.h"

u64 gen_next(struct gen_rng *rng)
{
	u64 z = (rng->state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

u64 gen_between(struct gen_rng *rng, u64 lo, u64 hi)
{
	u64 span = hi - lo + 1;

	return span ? lo + gen_next(rng) % span : gen_next(rng);
}

/* Log-uniform in [1, max]: small and large sizes are equally common. */
static u64 log_uniform(struct gen_rng *rng, u64 max)
{
	u32 bits = 0;
	u64 top;

	while (bits < 63 && (2ull << bits) <= max)
		bits++;
	top = 1ull << gen_between(rng, 0, bits);
	return gen_between(rng, top, top * 2 - 1 < max ? top * 2 - 1 : max);
}

struct tplan_tensor *gen_random_table(const struct gen_params *p, u64 seed)
{
	struct gen_rng rng = { seed };
	struct tplan_tensor *t = calloc(p->n ? p->n : 1, sizeof(*t));
	u32 i;

	if (!t)
		return NULL;
	for (i = 0; i < p->n; i++) {
		u64 life = gen_between(&rng, 1, p->max_life);

		t[i].id = i;
		t[i].lower = gen_between(&rng, 0, p->horizon - 1);
		t[i].upper = t[i].lower + life;
		t[i].size = gen_between(&rng, 1, 100) <= p->zero_pct ? 0 :
			    log_uniform(&rng, p->max_size);
		t[i].alignment = 1ull << gen_between(&rng, 0, p->max_align_log2);
	}
	return t;
}

struct tplan_tensor *gen_network_table(u32 n, u64 seed)
{
	struct gen_rng rng = { seed };
	struct tplan_tensor *t = calloc(n ? n : 1, sizeof(*t));
	u32 i;

	if (!t)
		return NULL;
	for (i = 0; i < n; i++) {
		bool skip = gen_between(&rng, 1, 100) <= 3;

		t[i].id = i;
		t[i].lower = i / 2;
		t[i].upper = t[i].lower + (skip ? gen_between(&rng, 8, 64) :
					   gen_between(&rng, 1, 4));
		t[i].size = 256 * log_uniform(&rng, 16384);
		t[i].alignment = 64;
	}
	return t;
}

/* Cut piece @i across its longer side (in units) at a random point. */
static bool cut(struct gen_rng *rng, struct tplan_tensor *t, u32 i, u32 next)
{
	u64 w = t[i].upper - t[i].lower, h = t[i].size / 64, at;

	if (w < 2 && h < 2)
		return false;
	t[next] = t[i];
	t[next].id = next;
	if (w >= 2 && (h < 2 || gen_between(rng, 0, w + h - 1) < w)) {
		at = t[i].lower + gen_between(rng, 1, w - 1);
		t[i].upper = at;
		t[next].lower = at;
	} else {
		at = gen_between(rng, 1, h - 1);
		t[i].size = at * 64;
		t[next].size = (h - at) * 64;
		t[next].offset = t[i].offset + t[i].size;
	}
	return true;
}

struct tplan_tensor *gen_perfect_table(u32 n, u64 steps, u64 height, u64 seed)
{
	struct gen_rng rng = { seed };
	struct tplan_tensor *t = calloc(n ? n : 1, sizeof(*t));
	u32 count = 1, tries = 0;

	if (!t || !n)
		return t;
	t[0] = (struct tplan_tensor){ .id = 0, .lower = 0, .upper = steps,
				      .size = height * 64, .alignment = 1 };
	while (count < n && tries++ < 64 * n) {
		u32 i = (u32)gen_between(&rng, 0, count - 1);

		if (cut(&rng, t, i, count))
			count++;
	}
	if (count < n) {	/* the rectangle is too small for n pieces */
		free(t);
		return NULL;
	}
	return t;
}
