// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * neighbours.c - every tensor's time-overlapping neighbours, as lists.
 *
 * Where few tensors are alive at once, a placement reads its neighbours
 * from one list, next to each other, instead of walking the interval index
 * (a cache miss per node on a large table).  Built by sweeping the births
 * in time order over the tensors alive then: O(n log n + pairs), twice (a
 * count, then the lists).  Memory: 4 bytes per tensor and 8 per pair; the
 * placer builds them only when pairs are few (placement.c).
 */
#include "neighbours.h"

/*
 * Sweep the births; each newborn meets every tensor still alive.  The
 * alive set drops, as it is walked, those dead by the newborn's lower.
 * Counts into @nb->start[i + 1] when @fill is false; appends to the lists
 * (@at[i]: the next free slot of i's) when true.
 */
static void sweep(struct tplan_neighbours *nb, const struct tplan_timeline *tl,
		  u32 *alive, u32 *at, bool fill)
{
	const struct tplan_tensor *t = tl->t;
	u32 i, k, count = 0;

	for (i = 0; i < tl->n; i++) {
		u32 b = tl->born[i], kept = 0;

		for (k = 0; k < count; k++) {
			u32 a = alive[k];

			if (t[a].upper <= t[b].lower)
				continue;
			alive[kept++] = a;
			if (fill) {
				nb->list[at[a]++] = b;
				nb->list[at[b]++] = a;
			} else {
				nb->start[a + 1]++;
				nb->start[b + 1]++;
			}
		}
		count = kept;
		alive[count++] = b;
	}
}

/**
 * tplan_neighbours_free() - free what tplan_neighbours_build() allocated
 * @nb: the lists
 */
void tplan_neighbours_free(struct tplan_neighbours *nb)
{
	tplan_free(nb->start);
	tplan_free(nb->list);
	nb->start = NULL;
	nb->list = NULL;
}

/**
 * tplan_neighbours_build() - the lists of a table
 * @nb: the lists
 * @tl: the table's timeline
 * @pairs: its overlapping pairs, tplan_timeline_pairs()
 *
 * Return: 0, -ENOMEM, or -E2BIG when 2 @pairs do not fit in a u32.
 */
int tplan_neighbours_build(struct tplan_neighbours *nb,
			   const struct tplan_timeline *tl, u64 pairs)
{
	u32 n = tl->n, *alive, *at, i;

	nb->start = NULL;
	nb->list = NULL;
	if (pairs > 0x7fffffffull)
		return -E2BIG;
	nb->start = tplan_alloc_array((size_t)n + 1, sizeof(*nb->start));
	nb->list = tplan_alloc_array(2 * pairs + 1, sizeof(*nb->list));
	alive = tplan_alloc_array(n + 1, sizeof(*alive));
	at = tplan_alloc_array(n + 1, sizeof(*at));
	if (!nb->start || !nb->list || !alive || !at) {
		tplan_free(alive);
		tplan_free(at);
		tplan_neighbours_free(nb);
		return -ENOMEM;
	}
	memset(nb->start, 0, ((size_t)n + 1) * sizeof(*nb->start));
	sweep(nb, tl, alive, at, false);
	for (i = 0; i < n; i++) {
		nb->start[i + 1] += nb->start[i];
		at[i] = nb->start[i];
	}
	sweep(nb, tl, alive, at, true);
	tplan_free(alive);
	tplan_free(at);
	return 0;
}
