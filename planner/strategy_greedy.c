// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * strategy_greedy.c - greedy by size: the largest tensors first, each at the
 * lowest aligned offset that is free during its whole lifetime.
 */
#include "placement.h"

/*
 * Largest first; among equals the earliest born, then table order.  (Of the
 * tie-breaks tried, this one reaches the lower bound on the most real
 * tables: docs/BENCHMARKS.md.)
 */
static int cmp_greedy_order(const void *a, const void *b, const void *priv)
{
	const struct tplan_tensor *t = priv;
	u32 ia = *(const u32 *)a, ib = *(const u32 *)b;
	int c = tplan_cmp_u64(t[ib].size, t[ia].size);

	if (!c)
		c = tplan_cmp_u64(t[ia].lower, t[ib].lower);
	return c ? c : tplan_cmp_u64(ia, ib);
}

/**
 * tplan_place_greedy_size() - greedy-by-size placement
 * @t: the tensors, already checked; offsets are written
 * @n: how many
 * @goal: the gaps, and the capacity hints must respect
 * @w: the work meter
 * @search: unused
 *
 * Memory: the order (4 bytes per tensor) and the placer's 37.
 *
 * Return: 0, -ENOMEM, or the work meter's -ETIMEDOUT / -EINTR.
 */
int tplan_place_greedy_size(struct tplan_tensor *t, u32 n,
			    const struct tplan_goal *goal,
			    struct tplan_work *w, u32 *search)
{
	struct tplan_placer p;
	u32 *order, i;
	int ret;

	order = tplan_alloc_array(n, sizeof(*order));
	if (!order)
		return -ENOMEM;
	ret = tplan_placer_init(&p, t, n, goal->gaps, goal->capacity);
	if (!ret) {
		for (i = 0; i < n; i++)
			order[i] = i;
		tplan_sort(order, n, sizeof(*order), cmp_greedy_order, t);
		ret = tplan_placer_run(&p, order, w);
		tplan_placer_free(&p);
	}
	tplan_free(order);
	return ret;
}
