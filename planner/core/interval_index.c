// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * interval_index.c - a static interval tree, so that finding the tensors
 * alive during a span costs O((k + 1) log n) for k answers instead of O(n).
 *
 * The tensors are sorted by lower; position m of the middle of a range
 * [lo, hi) is that range's root, [lo, m) and [m + 1, hi) its subtrees.  Each
 * root remembers the largest upper in each of its subtrees, which prunes
 * whole subtrees that die before the span starts.  Walks use an explicit
 * stack: the planner runs in the kernel and must not recurse.
 *
 * On large tables a walk costs its cache misses, not its instructions: a
 * node holds all a walk reads (so the scattered tensors are never read),
 * and a subtree is pruned from its parent's node, without loading its own.
 */
#include "interval_index.h"

static u32 mid(u32 lo, u32 hi)
{
	return lo + (hi - lo) / 2;
}

static void push(struct tplan_interval_index *ix, u32 *top, u32 lo, u32 hi)
{
	if (lo < hi) {
		ix->stack[*top].lo = lo;
		ix->stack[(*top)++].hi = hi;
	}
}

/* The largest upper in the subtree of range [lo, hi); 0 when empty. */
static u64 subtree_max(const struct tplan_interval_index *ix, u32 lo, u32 hi)
{
	const struct tplan_index_node *x;
	u64 sub;

	if (lo >= hi)
		return 0;
	x = &ix->node[mid(lo, hi)];
	sub = max(x->left_max, x->right_max);
	return max(x->upper, sub);
}

/*
 * Post-order walk: a range is pushed once to expand it (hi as is) and once
 * more to fold its children in (marked by lo > hi, swapped back on pop).
 */
static void compute_max_upper(struct tplan_interval_index *ix)
{
	u32 top = 0;

	push(ix, &top, 0, ix->n);
	while (top) {
		struct tplan_index_range r = ix->stack[--top];
		u32 m;

		if (r.lo < r.hi) {
			ix->stack[top].lo = r.hi;
			ix->stack[top++].hi = r.lo;
			m = mid(r.lo, r.hi);
			push(ix, &top, r.lo, m);
			push(ix, &top, m + 1, r.hi);
			continue;
		}
		m = mid(r.hi, r.lo);
		ix->node[m].left_max = subtree_max(ix, r.hi, m);
		ix->node[m].right_max = subtree_max(ix, m + 1, r.lo);
	}
	ix->root_max = subtree_max(ix, 0, ix->n);
}

/* By lower, then by index: the order tplan_cmp_by_lower() gives. */
static int cmp_node(const void *a, const void *b, const void *priv)
{
	const struct tplan_index_node *x = a, *y = b;
	int c = tplan_cmp_u64(x->lower, y->lower);

	return c ? c : tplan_cmp_u64(x->idx, y->idx);
}

/**
 * tplan_index_build() - index the lifetimes of a table
 * @ix: the index to fill
 * @t: the tensors; their lifetimes are copied, and may not change while
 *     the index is used
 * @n: how many
 *
 * Return: 0 or -ENOMEM.
 */
int tplan_index_build(struct tplan_interval_index *ix,
		      const struct tplan_tensor *t, u32 n)
{
	u32 i;

	ix->n = n;
	ix->root_max = 0;
	ix->node = tplan_alloc_array(n, sizeof(*ix->node));
	ix->stack = tplan_alloc_array(TPLAN_INDEX_STACK, sizeof(*ix->stack));
	if (!ix->node || !ix->stack) {
		tplan_index_free(ix);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		ix->node[i].lower = t[i].lower;
		ix->node[i].upper = t[i].upper;
		ix->node[i].idx = i;
		ix->node[i].pad = 0;
	}
	tplan_sort(ix->node, n, sizeof(*ix->node), cmp_node, NULL);
	compute_max_upper(ix);
	return 0;
}

void tplan_index_free(struct tplan_interval_index *ix)
{
	tplan_free(ix->node);
	tplan_free(ix->stack);
	ix->node = NULL;
	ix->stack = NULL;
}

/*
 * Push subtree [lo, hi) unless all of it dies by @lower; a pruned subtree
 * counts as visited, as if its root had been looked at.
 */
static void push_alive(struct tplan_interval_index *ix, u32 *top, u32 lo,
		       u32 hi, u64 max_upper, u64 lower, u64 *visited)
{
	if (lo >= hi)
		return;
	if (max_upper > lower)
		push(ix, top, lo, hi);
	else
		(*visited)++;
}

/**
 * tplan_index_query() - tensors alive at some step of [lower, upper)
 * @ix: the index
 * @lower: first step of the span
 * @upper: first step after the span
 * @out: room for the answers (up to n tensor indices)
 * @visited: incremented by the number of tree nodes looked at (work)
 *
 * Return: the number of indices written to @out.
 */
u32 tplan_index_query(struct tplan_interval_index *ix, u64 lower, u64 upper,
		      u32 *out, u64 *visited)
{
	u32 top = 0, count = 0;

	push_alive(ix, &top, 0, ix->n, ix->root_max, lower, visited);
	while (top) {
		struct tplan_index_range r = ix->stack[--top];
		u32 m = mid(r.lo, r.hi);
		const struct tplan_index_node *x = &ix->node[m];

		(*visited)++;
		push_alive(ix, &top, r.lo, m, x->left_max, lower, visited);
		if (x->lower >= upper)
			continue;	/* it and all to its right start too late */
		if (x->upper > lower)
			out[count++] = x->idx;
		push_alive(ix, &top, m + 1, r.hi, x->right_max, lower, visited);
	}
	return count;
}
