/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * gen.h - deterministic random tables for tests and benchmarks, the same
 * in the kernel (KUnit) and in userspace.
 */
#ifndef TPLAN_TEST_GEN_H
#define TPLAN_TEST_GEN_H

#include "planner.h"

/* splitmix64: tiny, fast, and the same sequence everywhere for a seed. */
struct gen_rng {
	u64 state;
};

u64 gen_next(struct gen_rng *rng);
/* A value in [lo, hi], both inclusive. */
u64 gen_between(struct gen_rng *rng, u64 lo, u64 hi);

/**
 * struct gen_params - the shape of a random table
 * @n: tensors
 * @horizon: steps; lifetimes lie in [0, horizon]
 * @max_life: longest lifetime
 * @max_size: largest size (sizes are log-uniform in [1, max_size])
 * @max_align_log2: alignments are 2^k for k in [0, max_align_log2]
 * @zero_pct: percentage of zero-size tensors
 */
struct gen_params {
	u32 n;
	u64 horizon;
	u64 max_life;
	u64 max_size;
	u32 max_align_log2;
	u32 zero_pct;
};

/* Fill @t (p->n entries) with a random table, ids 0..n-1. */
void gen_fill_random(struct tplan_tensor *t, const struct gen_params *p,
		     u64 seed);
void gen_fill_network(struct tplan_tensor *t, u32 n, u64 seed);
bool gen_fill_perfect(struct tplan_tensor *t, u32 n, u64 steps, u64 height,
		      u64 seed);

/**
 * struct gen_train - a training-shaped table with its uses
 * @t: the tensors (room for gen_training_counts()'s n)
 * @step: their uses (room for its uses)
 * @start: n + 1 entries, as in &struct tplan_uses
 * @n: tensors written
 */
struct gen_train {
	struct tplan_tensor *t;
	u64 *step;
	u32 *start;
	u32 n;
};

/*
 * A training step over @layers layers: forward at steps 0..L-1, the loss at
 * L, backward mirrored (layer i at 2L - i), then the optimizer updating
 * layer i at 2L + 1 + i.  Per layer: its weights (used forward, backward
 * and by the optimizer), its output activation (written forward, read by
 * the next layer and, for about one layer in seven, by a skip reader up
 * to 4 layers on; read again by their backward steps), the activation's
 * gradient (two backward steps), the weights' gradient (written backward,
 * read by the optimizer) and a scratch buffer forward and backward; plus
 * the input batch.  Four stages of depth: activations 1-4 MiB in the first,
 * halving per stage; weights 16-128 KiB in the first, doubling per stage;
 * scratch 64 B - 64 KiB, log-uniform.
 */
void gen_training_counts(u32 layers, u32 *n, u32 *uses);
void gen_fill_training(struct gen_train *g, u32 layers, u64 seed);

#ifndef __KERNEL__
/* gen_fill_training() into arrays from calloc(); false when out of memory. */
bool gen_training_table(struct gen_train *g, u32 layers, u64 seed);
void gen_training_free(struct gen_train *g);

/* The same into a table from calloc() (NULL when out of memory). */
struct tplan_tensor *gen_random_table(const struct gen_params *p, u64 seed);

/*
 * A table shaped like a network's activations: n tensors, about two born
 * per step, most living a few steps and a few living long (skip
 * connections), sizes log-uniform from 256 bytes to 4 MiB.
 */
struct tplan_tensor *gen_network_table(u32 n, u64 seed);

/*
 * A table whose optimum equals its lower bound by construction: a
 * @steps x @height rectangle (height in units of 64 bytes) cut by random
 * guillotine cuts into n pieces; each piece is a tensor (its steps, its
 * bytes).  The pieces tile the rectangle, so every step sums to the height
 * (lower bound = height * 64) and the cut itself is a plan at that peak.
 */
struct tplan_tensor *gen_perfect_table(u32 n, u64 steps, u64 height, u64 seed);
#endif

#endif /* TPLAN_TEST_GEN_H */
