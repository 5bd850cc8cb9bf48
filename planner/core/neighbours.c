// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * neighbours.c - every tensor's time-overlapping neighbours, as lists.
 *
 * Where few tensors are alive at once, a placement reads its neighbours
 * from one list, next to each other, instead of walking the interval index
 * (a cache miss per node on a large table).  Built by sweeping the births
 * in time order over the tensors alive then: O(n log n + pairs), after
 * counting each list's length in O(n).  Memory: 4 bytes per tensor and 8
 * per pair (16 more per tensor while building); the placer builds them
 * only when pairs are few (placement.c).
 */
#include "neighbours.h"

/*
 * A tensor alive during the sweep, with its upper and @slot, its next free
 * slot in the list.  The walk touches only these, next to each other.
 */
struct alive {
	u64 upper;
	u32 idx;
	u32 slot;
};

/*
 * How many neighbours each tensor has, into @nb->start[i + 1], without
 * walking the pairs: those alive at its birth, plus the births before its
 * death.  A birth stores the first part minus its own birth's rank; the
 * death adds the births so far (u32 arithmetic wraps to the right count).
 */
static void count(struct tplan_neighbours *nb, const struct tplan_timeline *tl)
{
	const struct tplan_tensor *t = tl->t;
	u32 i, j = 0, live = 0;

	for (i = 0; i < tl->n; i++) {
		u32 b = tl->born[i];

		tplan_yield_every((u64)i + j);
		while (j < tl->n && t[tl->dead[j]].upper <= t[b].lower) {
			nb->start[tl->dead[j++] + 1] += i;
			live--;
		}
		nb->start[b + 1] = live - i - 1;
		live++;
	}
	for (; j < tl->n; j++)
		nb->start[tl->dead[j] + 1] += tl->n;
}

/*
 * Sweep the births; each newborn meets every tensor still alive, and each
 * of the two goes into the other's list.  The alive set drops, as it is
 * walked, those dead by the newborn's lower.  Each entry is read once and
 * written back whole: a store to its slot and a load of the whole entry
 * right after it cannot be forwarded, and stalled every pair.
 */
static void fill(struct tplan_neighbours *nb, const struct tplan_timeline *tl,
		 struct alive *alive)
{
	const struct tplan_tensor *t = tl->t;
	u32 i, k, count = 0;

	for (i = 0; i < tl->n; i++) {
		u32 b = tl->born[i], kept = 0, mine = nb->start[b];
		u64 lower = t[b].lower;

		tplan_yield_every(i);
		for (k = 0; k < count; k++) {
			struct alive a = alive[k];

			if (a.upper <= lower)
				continue;
			nb->list[a.slot++] = b;
			nb->list[mine++] = a.idx;
			alive[kept++] = a;
		}
		count = kept;
		alive[count].upper = t[b].upper;
		alive[count].idx = b;
		alive[count++].slot = mine;
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
 *
 * Return: 0, -ENOMEM, or -E2BIG when twice its pairs do not fit in a u32.
 */
int tplan_neighbours_build(struct tplan_neighbours *nb,
			   const struct tplan_timeline *tl)
{
	u64 pairs = tl->pairs;
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
	count(nb, tl);
	for (i = 0; i < n; i++)
		nb->start[i + 1] += nb->start[i];
	fill(nb, tl, alive);
	tplan_free(alive);
	return 0;
}
