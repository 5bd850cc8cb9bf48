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

/*
 * Training: layer i runs forward at step i and backward at step 2L - i
 * (the loss at step L in between); the optimizer updates layer i's weights
 * at step 2L + 1 + i.
 */
#define TRAIN_FWD(i)		((u64)(i))
#define TRAIN_BWD(L, i)		(2 * (u64)(L) - (i))
#define TRAIN_OPT(L, i)		(2 * (u64)(L) + 1 + (i))
#define TRAIN_USES_MAX		5

void gen_training_counts(u32 layers, u32 *n, u32 *uses)
{
	*n = 6 * layers + 1;
	*uses = TRAIN_USES_MAX * *n;
}

/* One tensor and its uses (strictly increasing; repeats dropped). */
static void train_tensor(struct gen_train *g, u64 size, const u64 *use,
			 u32 count)
{
	struct tplan_tensor *x = &g->t[g->n];
	u32 k, first = g->start[g->n], m = first;

	x->id = g->n;
	x->lower = use[0];
	x->size = size;
	x->alignment = 64;
	x->priority = TPLAN_DEFAULT_PRIORITY;
	g->step[m++] = use[0];
	for (k = 1; k < count; k++)
		if (use[k] > g->step[m - 1])
			g->step[m++] = use[k];
	x->upper = g->step[m - 1] + 1;
	/* one use: the default (lower and upper - 1) says it */
	g->start[++g->n] = m - first > 1 ? m : first;
}

void gen_fill_training(struct gen_train *g, u32 layers, u64 seed)
{
	struct gen_rng rng = { seed };
	u64 L = layers, in[] = { 0, TRAIN_BWD(layers, 0) };
	u32 i;

	memset(g->t, 0, (6 * (size_t)layers + 1) * sizeof(*g->t));
	g->n = 0;
	g->start[0] = 0;
	train_tensor(g, 1 << 20, in, 2);	/* the input batch */
	for (i = 0; i < layers; i++) {
		u32 stage = 4 * i / layers;
		u64 act = (256ull << (10 - stage)) * gen_between(&rng, 4, 16);
		u64 wt = (16ull << (10 + stage)) * gen_between(&rng, 1, 8);
		u64 ws = 64 * log_uniform(&rng, 1024);
		u64 skip = gen_between(&rng, 1, 100) <= 15 ?
			   gen_between(&rng, 2, 4) : 1;
		u64 reader = i + skip < L ? i + skip : L;
		u64 w[] = { TRAIN_FWD(i), TRAIN_BWD(L, i), TRAIN_OPT(L, i) };
		u64 a[] = { TRAIN_FWD(i), TRAIN_FWD(i + 1), TRAIN_FWD(reader),
			    TRAIN_BWD(L, reader), TRAIN_BWD(L, i + 1) };
		u64 da[] = { TRAIN_BWD(L, i + 1), TRAIN_BWD(L, i) };
		u64 dw[] = { TRAIN_BWD(L, i), TRAIN_OPT(L, i) };
		u64 wf[] = { TRAIN_FWD(i) }, wb[] = { TRAIN_BWD(L, i) };

		train_tensor(g, wt, w, 3);	/* weights */
		/* read forward by the next layer (and a skip), again backward */
		train_tensor(g, act, a, 5);
		train_tensor(g, act, da, 2);	/* its gradient */
		train_tensor(g, wt, dw, 2);	/* the weights' gradient */
		train_tensor(g, ws, wf, 1);	/* scratch, forward */
		train_tensor(g, ws, wb, 1);	/* scratch, backward */
	}
}
