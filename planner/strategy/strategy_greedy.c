// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * strategy_greedy.c - greedy by size: the largest tensors first, each at the
 * lowest aligned offset that is free during its whole lifetime.
 */
#include "core/key_sort.h"
#include "placement.h"

/*
 * Largest first; among equals the earliest born, then table order.  (Of the
 * tie-breaks tried, this one reaches the lower bound on the most real
 * tables: docs/BENCHMARKS.md.)  Two stable sorts, the minor key first.
 * 32 bytes per tensor meanwhile (the keys and the sort's copy).
 */
static int order_by_keys(const struct tplan_tensor *t, u32 n, u32 *order)
{
	struct tplan_key *key = tplan_alloc_array(n, sizeof(*key));
	u32 i;

	if (!key)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		key[i].value = t[i].lower;
		key[i].idx = i;
		key[i].pad = 0;
	}
	tplan_key_sort(key, n);
	for (i = 0; i < n; i++)
		key[i].value = TPLAN_U64_MAX - t[key[i].idx].size;
	tplan_key_sort(key, n);
	for (i = 0; i < n; i++)
		order[i] = key[i].idx;
	tplan_free(key);
	return 0;
}

/*
 * The same order from the timeline's births, by size alone, where every
 * size is below 2^32: 8-byte words (tplan_packed_order()), 16 bytes per
 * tensor meanwhile.  -ERANGE where a size is not.
 */
static int order_by_births(const struct tplan_tensor *t, u32 n,
			   const struct tplan_timeline *tl, u32 *order)
{
	u64 *word = tplan_alloc_array(n ? n : 1, sizeof(*word));
	u32 i;
	int ret = 0;

	if (!word)
		return -ENOMEM;
	for (i = 0; i < n && !ret; i++) {
		u64 size = t[tl->born[i]].size;

		tplan_yield_every(i);
		word[i] = (0xffffffffull - size) << 32 | tl->born[i];
		if (size >> 32)
			ret = -ERANGE;
	}
	if (!ret)
		ret = tplan_packed_order(word, n, order);
	tplan_free(word);
	return ret;
}

static int greedy_order(const struct tplan_tensor *t, u32 n,
			const struct tplan_timeline *tl, u32 *order)
{
	int ret = tl ? order_by_births(t, n, tl, order) : -ERANGE;

	return ret == -ERANGE ? order_by_keys(t, n, order) : ret;
}

/**
 * tplan_place_greedy_size() - greedy-by-size placement
 * @t: the tensors, already checked; offsets are written
 * @n: how many
 * @goal: the gaps, and the capacity hints must respect
 * @w: the work meter
 * @search: unused
 *
 * Memory: the order (4 bytes per tensor) and the placer's; the order's sort
 * words (8 or 16 bytes, and as many for the sort's copy) are freed before
 * the placer is allocated.
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
	ret = greedy_order(t, n, goal->timeline, order);
	if (!ret)
		ret = tplan_placer_init(&p, t, n, goal->gaps, goal->capacity,
					goal->timeline);
	if (!ret) {
		ret = tplan_placer_run(&p, order, w);
		tplan_placer_free(&p);
	}
	tplan_free(order);
	return ret;
}
