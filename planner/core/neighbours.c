// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * neighbours.c - every tensor's time-overlapping neighbours, as lists.
 *
 * Where few tensors are alive at once, a placement reads its neighbours
 * from one list, next to each other, instead of walking the interval index
 * (a cache miss per node on a large table).  Built by sweeping the births
 * in time order over the tensors alive then: O(n log n + pairs), twice (a
 * count, then the lists).  Memory: 4 bytes per tensor and 8 per pair (16
 * more per tensor while building); the
 * placer builds them only when pairs are few (placement.c).
 */
#include "neighbours.h"

/*
 * A tensor alive during the sweep, with its upper and @slot: its pairs so
 * far when counting, its next free slot in the list when filling.  The
 * walk touches only these, next to each other.
 */
struct alive {
	u64 upper;
	u32 idx;
	u32 slot;
};

/*
 * Sweep the births; each newborn meets every tensor still alive.  The
 * alive set drops, as it is walked, those dead by the newborn's lower.
 * Counts into @nb->start[i + 1] when @fill is false (as i drops out, or at
 * the end); fills the lists when true.
 */
static void sweep(struct tplan_neighbours *nb, const struct tplan_timeline *tl,
		  struct alive *alive, bool fill)
{
	const struct tplan_tensor *t = tl->t;
	u32 i, k, count = 0;

	for (i = 0; i < tl->n; i++) {
		u32 b = tl->born[i], kept = 0;
		u32 mine = fill ? nb->start[b] : 0;
		u64 lower = t[b].lower;

		for (k = 0; k < count; k++) {
			if (alive[k].upper <= lower) {
				if (!fill)
					nb->start[alive[k].idx + 1] = alive[k].slot;
				continue;
			}
			if (fill) {
				nb->list[alive[k].slot] = b;
				nb->list[mine] = alive[k].idx;
			}
			alive[k].slot++;
			mine++;
			alive[kept++] = alive[k];
		}
		count = kept;
		alive[count].upper = t[b].upper;
		alive[count].idx = b;
		alive[count++].slot = mine;
	}
	for (k = 0; k < count && !fill; k++)
		nb->start[alive[k].idx + 1] = alive[k].slot;
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
	struct alive *alive;
	u32 n = tl->n, i;

	nb->start = NULL;
	nb->list = NULL;
	if (pairs > 0x7fffffffull)
		return -E2BIG;
	nb->start = tplan_alloc_array((size_t)n + 1, sizeof(*nb->start));
	nb->list = tplan_alloc_array(2 * pairs + 1, sizeof(*nb->list));
	alive = tplan_alloc_array(n + 1, sizeof(*alive));
	if (!nb->start || !nb->list || !alive) {
		tplan_free(alive);
		tplan_neighbours_free(nb);
		return -ENOMEM;
	}
	nb->start[0] = 0;
	sweep(nb, tl, alive, false);
	for (i = 0; i < n; i++)
		nb->start[i + 1] += nb->start[i];
	sweep(nb, tl, alive, true);
	tplan_free(alive);
	return 0;
}
