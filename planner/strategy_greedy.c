// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * strategy_greedy.c - greedy by size: the largest tensors first, each at the
 * lowest aligned offset that is free during its whole lifetime.
 */
#include "placement.h"

/* What the order compares, next to each other: sorting never reads @t. */
struct greedy_key {
	u64 size;
	u64 lower;
	u32 idx;
	u32 pad;
};

/*
 * Largest first; among equals the earliest born, then table order.  (Of the
 * tie-breaks tried, this one reaches the lower bound on the most real
 * tables: docs/BENCHMARKS.md.)
 */
static int cmp_greedy_order(const void *a, const void *b, const void *priv)
{
	const struct greedy_key *x = a, *y = b;
	int c = tplan_cmp_u64(y->size, x->size);

	if (!c)
		c = tplan_cmp_u64(x->lower, y->lower);
	return c ? c : tplan_cmp_u64(x->idx, y->idx);
}

/* The greedy order of @t into @order; 24 bytes per tensor meanwhile. */
static int greedy_order(const struct tplan_tensor *t, u32 n, u32 *order)
{
	struct greedy_key *key = tplan_alloc_array(n, sizeof(*key));
	u32 i;

	if (!key)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		key[i].size = t[i].size;
		key[i].lower = t[i].lower;
		key[i].idx = i;
		key[i].pad = 0;
	}
	tplan_sort(key, n, sizeof(*key), cmp_greedy_order, NULL);
	for (i = 0; i < n; i++)
		order[i] = key[i].idx;
	tplan_free(key);
	return 0;
}

/**
 * tplan_place_greedy_size() - greedy-by-size placement
 * @t: the tensors, already checked; offsets are written
 * @n: how many
 * @goal: the gaps, and the capacity hints must respect
 * @w: the work meter
 * @search: unused
 *
 * Memory: the order (4 bytes per tensor) and the placer's 65; the order's
 * 24-byte sort keys are freed before the placer is allocated.
 *
 * Return: 0, -ENOMEM, or the work meter's -ETIMEDOUT / -EINTR.
 */
int tplan_place_greedy_size(struct tplan_tensor *t, u32 n,
			    const struct tplan_goal *goal,
			    struct tplan_work *w, u32 *search)
{
	struct tplan_placer p;
	u32 *order;
	int ret;

	order = tplan_alloc_array(n, sizeof(*order));
	if (!order)
		return -ENOMEM;
	ret = greedy_order(t, n, order);
	if (!ret)
		ret = tplan_placer_init(&p, t, n, goal->gaps, goal->capacity);
	if (!ret) {
		ret = tplan_placer_run(&p, order, w);
		tplan_placer_free(&p);
	}
	tplan_free(order);
	return ret;
}
