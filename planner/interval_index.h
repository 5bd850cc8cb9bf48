/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * interval_index.h - which tensors are alive during a span of steps.
 */
#ifndef TPLAN_INTERVAL_INDEX_H
#define TPLAN_INTERVAL_INDEX_H

#include "internal.h"

/*
 * Deep enough for any u32 tensor count: every level halves a range and a
 * walk keeps at most two pending ranges per level.
 */
#define TPLAN_INDEX_STACK	80

struct tplan_index_range {
	u32 lo;
	u32 hi;
};

/**
 * struct tplan_interval_index - a static interval tree over lifetimes
 * @t: the tensors indexed
 * @n: how many
 * @by_lower: tensor indices sorted by lower; the implicit binary tree over
 *            this array has the middle of each range as its root
 * @max_upper: at each position, the largest upper in that position's subtree
 * @stack: pending ranges of a walk (kept here, not on the kernel stack)
 */
struct tplan_interval_index {
	const struct tplan_tensor *t;
	u32 n;
	u32 *by_lower;
	u64 *max_upper;
	struct tplan_index_range *stack;
};

/* 12 bytes per tensor. */
int tplan_index_build(struct tplan_interval_index *ix,
		      const struct tplan_tensor *t, u32 n);
void tplan_index_free(struct tplan_interval_index *ix);
u32 tplan_index_query(struct tplan_interval_index *ix, u64 lower, u64 upper,
		      u32 *out, u64 *visited);

#endif /* TPLAN_INTERVAL_INDEX_H */
