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
 * struct tplan_index_node - one tensor's place in the tree
 * @lower: the tensor's lower (copied: a walk reads only the nodes)
 * @upper: its upper
 * @left_max: the largest upper in the left subtree (0 if empty)
 * @right_max: the largest upper in the right subtree (0 if empty)
 * @idx: the tensor's index in the table
 * @pad: zero
 *
 * On large tables a walk's cost is its cache misses: one per node looked
 * at, and none for a subtree its parent's node prunes.
 */
struct tplan_index_node {
	u64 lower;
	u64 upper;
	u64 left_max;
	u64 right_max;
	u32 idx;
	u32 pad;
};

/**
 * struct tplan_interval_index - a static interval tree over lifetimes
 * @n: how many tensors
 * @root_max: the largest upper of all
 * @node: the tensors sorted by lower (then index); the implicit binary
 *        tree over this array has the middle of each range as its root
 * @stack: pending ranges of a walk (kept here, not on the kernel stack)
 */
struct tplan_interval_index {
	u32 n;
	u64 root_max;
	struct tplan_index_node *node;
	struct tplan_index_range *stack;
};

/* 40 bytes per tensor. */
int tplan_index_build(struct tplan_interval_index *ix,
		      const struct tplan_tensor *t, u32 n);
void tplan_index_free(struct tplan_interval_index *ix);
u32 tplan_index_query(struct tplan_interval_index *ix, u64 lower, u64 upper,
		      u32 *out, u64 *visited);

#endif /* TPLAN_INTERVAL_INDEX_H */
