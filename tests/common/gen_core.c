// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * gen_core.c - deterministic table generators that fill a caller's array:
 * plain C on planner/compat.h, so the KUnit tests build the very tables the
 * userspace tests and benchmarks use (gen.c allocates them there).
 */
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

void gen_fill_random(struct tplan_tensor *t, const struct gen_params *p,
		     u64 seed)
{
	struct gen_rng rng = { seed };
	u32 i;

	memset(t, 0, p->n * sizeof(*t));
	for (i = 0; i < p->n; i++) {
		u64 life = gen_between(&rng, 1, p->max_life);

		t[i].id = i;
		t[i].lower = gen_between(&rng, 0, p->horizon - 1);
		t[i].upper = t[i].lower + life;
		t[i].size = gen_between(&rng, 1, 100) <= p->zero_pct ? 0 :
			    log_uniform(&rng, p->max_size);
		t[i].alignment = 1ull << gen_between(&rng, 0, p->max_align_log2);
	}
}

void gen_fill_network(struct tplan_tensor *t, u32 n, u64 seed)
{
	struct gen_rng rng = { seed };
	u32 i;

	memset(t, 0, n * sizeof(*t));
	for (i = 0; i < n; i++) {
		bool skip = gen_between(&rng, 1, 100) <= 3;

		t[i].id = i;
		t[i].lower = i / 2;
		t[i].upper = t[i].lower + (skip ? gen_between(&rng, 8, 64) :
					   gen_between(&rng, 1, 4));
		t[i].size = 256 * log_uniform(&rng, 16384);
		t[i].alignment = 64;
	}
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

bool gen_fill_perfect(struct tplan_tensor *t, u32 n, u64 steps, u64 height,
		      u64 seed)
{
	struct gen_rng rng = { seed };
	u32 count = 1, tries = 0;

	if (!n)
		return true;
	memset(t, 0, n * sizeof(*t));
	t[0].upper = steps;
	t[0].size = height * 64;
	t[0].alignment = 1;
	while (count < n && tries++ < 64 * n) {
		u32 i = (u32)gen_between(&rng, 0, count - 1);

		if (cut(&rng, t, i, count))
			count++;
	}
	return count == n;
}
