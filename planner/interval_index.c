// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * interval_index.c - a static interval tree, so that finding the tensors
 * alive during a span costs O((k + 1) log n) for k answers instead of O(n).
 *
 * The tensors are sorted by lower; position m of the middle of a range
 * [lo, hi) is that range's root, [lo, m) and [m + 1, hi) its subtrees.  Each
 * root remembers the largest upper below it, which prunes whole subtrees
 * that die before the span starts.  Walks use an explicit stack: the planner
 * runs in the kernel and must not recurse.
 */
#include "interval_index.h"

static u32 mid(struct tplan_index_range r)
{
	return r.lo + (r.hi - r.lo) / 2;
}

static void push(struct tplan_interval_index *ix, u32 *top, u32 lo, u32 hi)
{
	if (lo < hi) {
		ix->stack[*top].lo = lo;
		ix->stack[(*top)++].hi = hi;
	}
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
		bool fold = r.lo > r.hi;
		u32 m;

		if (fold) {
			u32 lo = r.hi;

			r.hi = r.lo;
			r.lo = lo;
		}
		m = mid(r);
		if (!fold) {
			ix->stack[top].lo = r.hi;
			ix->stack[top++].hi = r.lo;
			push(ix, &top, r.lo, m);
			push(ix, &top, m + 1, r.hi);
			continue;
		}
		ix->max_upper[m] = ix->t[ix->by_lower[m]].upper;
		if (r.lo < m) {
			struct tplan_index_range left = { r.lo, m };
			u64 u = ix->max_upper[mid(left)];

			if (u > ix->max_upper[m])
				ix->max_upper[m] = u;
		}
		if (m + 1 < r.hi) {
			struct tplan_index_range right = { m + 1, r.hi };
			u64 u = ix->max_upper[mid(right)];

			if (u > ix->max_upper[m])
				ix->max_upper[m] = u;
		}
	}
}

/**
 * tplan_index_build() - index the lifetimes of a table
 * @ix: the index to fill
 * @t: the tensors (must outlive the index)
 * @n: how many
 *
 * Return: 0 or -ENOMEM.
 */
int tplan_index_build(struct tplan_interval_index *ix,
		      const struct tplan_tensor *t, u32 n)
{
	u32 i;

	ix->t = t;
	ix->n = n;
	ix->by_lower = tplan_alloc_array(n, sizeof(*ix->by_lower));
	ix->max_upper = tplan_alloc_array(n, sizeof(*ix->max_upper));
	ix->stack = tplan_alloc_array(TPLAN_INDEX_STACK, sizeof(*ix->stack));
	if (!ix->by_lower || !ix->max_upper || !ix->stack) {
		tplan_index_free(ix);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		ix->by_lower[i] = i;
	tplan_sort(ix->by_lower, n, sizeof(*ix->by_lower), tplan_cmp_by_lower, t);
	compute_max_upper(ix);
	return 0;
}

void tplan_index_free(struct tplan_interval_index *ix)
{
	tplan_free(ix->by_lower);
	tplan_free(ix->max_upper);
	tplan_free(ix->stack);
	ix->by_lower = NULL;
	ix->max_upper = NULL;
	ix->stack = NULL;
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

	push(ix, &top, 0, ix->n);
	while (top) {
		struct tplan_index_range r = ix->stack[--top];
		u32 m = mid(r);
		const struct tplan_tensor *x = &ix->t[ix->by_lower[m]];

		(*visited)++;
		if (ix->max_upper[m] <= lower)
			continue;	/* everything below dies too early */
		push(ix, &top, r.lo, m);
		if (x->lower >= upper)
			continue;	/* it and all to its right start too late */
		if (x->upper > lower)
			out[count++] = ix->by_lower[m];
		push(ix, &top, m + 1, r.hi);
	}
	return count;
}
