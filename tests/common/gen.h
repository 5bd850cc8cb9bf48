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

#ifndef __KERNEL__
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
