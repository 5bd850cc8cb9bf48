// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * search_valleys.c - which valley the search opens next.
 *
 * A valley is a run of sections of equal floor h below the capacity whose
 * walls (the floors on either side; the ends of time are infinitely high)
 * are higher.  The search opens the narrowest one, or in some rounds the
 * lowest, the leftmost among equals.  A scan of every section finds it in
 * O(sections); on tables of 10^5 tensors and more that scan was nearly all
 * of a search step.
 *
 * Here a segment tree over the sections keeps, for each range, the lengths
 * of its first and last runs and the best valley lying wholly inside it.
 * Two neighbouring ranges combine in O(1): the last run of the left one and
 * the first of the right one either join or become whole runs with both
 * walls known.  A change of the floors of [lo, hi) marks the leaves it
 * touches; before the best valley is read at the root, the leaves marked
 * since last time (one span: a search step changes floors around one
 * valley, undoing a choice and making the next) and their ancestors are
 * summed up again: O(span + log sections).  Walks are
 * loops: the planner runs in the kernel.
 */
#include "search_valleys.h"

#define NONE		(~(u32)0)
#define WALL_MAX	TPLAN_U64_MAX

/* A section's floor; the sections past the last one are walls. */
static u64 floor_at(const struct tplan_valleys *v, u32 j)
{
	return j < v->sections ? v->floor[j] : WALL_MAX;
}

/* Whether valley [lo, hi) comes before the valley [blo, bhi). */
static bool better(const struct tplan_valleys *v, u32 lo, u32 hi, u32 blo,
		   u32 bhi)
{
	u64 key, bkey;

	if (blo == NONE)
		return true;
	key = v->lowest_first ? floor_at(v, lo) : hi - lo;
	bkey = v->lowest_first ? floor_at(v, blo) : bhi - blo;
	return key < bkey || (key == bkey && lo < blo);
}

/* Take run [lo, hi), between walls @lw and @rw, as @x's best if it is. */
static void consider(const struct tplan_valleys *v,
		     struct tplan_valley_node *x, u32 lo, u32 hi, u64 lw,
		     u64 rw)
{
	u64 h = floor_at(v, lo);

	if (h < v->capacity && lw > h && rw > h &&
	    better(v, lo, hi, x->best_lo, x->best_hi)) {
		x->best_lo = lo;
		x->best_hi = hi;
	}
}

/* Keep the better of @x's best and @y's. */
static void take_best(const struct tplan_valleys *v,
		      struct tplan_valley_node *x,
		      const struct tplan_valley_node *y)
{
	if (y->best_lo != NONE &&
	    better(v, y->best_lo, y->best_hi, x->best_lo, x->best_hi)) {
		x->best_lo = y->best_lo;
		x->best_hi = y->best_hi;
	}
}

/*
 * Work is counted in sections read, the search's scan unit; summing up a
 * node costs about as many instructions as reading six sections, a leaf
 * reads each of its sections about twice (measured with cachegrind on the
 * MiniMalloc files).
 */
#define LEAF_WORK	(2 * TPLAN_VALLEY_BLOCK)
#define NODE_WORK	6

/* Leaf @k: a scan of its sections.  Returns the work. */
static u64 sum_up_leaf(struct tplan_valleys *v, u32 k)
{
	struct tplan_valley_node *x = &v->node[k];
	u32 start = (k - v->leaves) * TPLAN_VALLEY_BLOCK;
	u32 end = start + TPLAN_VALLEY_BLOCK, lo, hi;

	x->best_lo = NONE;
	x->best_hi = NONE;
	for (hi = start + 1; hi < end && floor_at(v, hi) == floor_at(v, start);
	     hi++)
		;
	x->llen = hi - start;
	x->rlen = x->llen;
	for (lo = hi; lo < end; lo = hi) {
		for (hi = lo + 1;
		     hi < end && floor_at(v, hi) == floor_at(v, lo); hi++)
			;
		x->rlen = hi - lo;
		if (hi < end)	/* wholly inside: both walls are known */
			consider(v, x, lo, hi, floor_at(v, lo - 1),
				 floor_at(v, hi));
	}
	return LEAF_WORK;
}

/* Node @k of width @w (sections, each child w / 2) from its children. */
static void sum_up(struct tplan_valleys *v, u32 k, u32 w)
{
	const struct tplan_valley_node *a = &v->node[2 * k];
	const struct tplan_valley_node *b = &v->node[2 * k + 1];
	struct tplan_valley_node *x = &v->node[k];
	u32 half = w / 2, start = (k - (v->leaves * TPLAN_VALLEY_BLOCK / w)) * w;
	u32 mid = start + half, alo = mid - a->rlen, bhi = mid + b->llen;
	bool a_whole = a->llen == half, b_whole = b->llen == half;
	bool join = floor_at(v, mid - 1) == floor_at(v, mid);

	*x = *a;
	take_best(v, x, b);
	if (join && !a_whole && !b_whole)
		consider(v, x, alo, bhi, floor_at(v, alo - 1), floor_at(v, bhi));
	if (!join && !a_whole)
		consider(v, x, alo, mid, floor_at(v, alo - 1), floor_at(v, mid));
	if (!join && !b_whole)
		consider(v, x, mid, bhi, floor_at(v, mid - 1), floor_at(v, bhi));
	x->llen = a_whole && join ? half + b->llen : a->llen;
	x->rlen = b_whole && join ? half + a->rlen : b->rlen;
}

/*
 * Leaves [first, last] changed: their ancestors again, level by level.
 * Returns the work.
 */
static u64 sum_up_from(struct tplan_valleys *v, u32 first, u32 last)
{
	u64 work = 0;
	u32 w = 2 * TPLAN_VALLEY_BLOCK, k;

	for (k = first; k <= last; k++)
		work += sum_up_leaf(v, k);
	for (first /= 2, last /= 2; first; first /= 2, last /= 2, w *= 2) {
		for (k = first; k <= last; k++)
			sum_up(v, k, w);
		work += (u64)(last - first + 1) * NODE_WORK;
	}
	return work;
}

/**
 * tplan_valleys_alloc() - room for a search over @sections sections
 * @v: the tree
 * @sections: how many sections
 *
 * Memory: 16 bytes per node, fewer than sections / 2 + 4 nodes: at most
 * 8 bytes per section.
 *
 * Return: 0 or -ENOMEM.
 */
int tplan_valleys_alloc(struct tplan_valleys *v, u32 sections)
{
	u32 blocks = sections / TPLAN_VALLEY_BLOCK + 1;

	memset(v, 0, sizeof(*v));
	v->leaves = 1;
	while (v->leaves < blocks)
		v->leaves *= 2;
	v->sections = sections;
	v->node = tplan_alloc_array(2 * (size_t)v->leaves, sizeof(*v->node));
	return v->node ? 0 : -ENOMEM;
}

void tplan_valleys_free(struct tplan_valleys *v)
{
	tplan_free(v->node);
	v->node = NULL;
}

/**
 * tplan_valleys_reset() - sum up every section's floor
 * @v: the tree, allocated
 * @floor: the floors (one per section; read again by every later call)
 * @capacity: valleys are below it
 * @lowest_first: pick the lowest valley, else the narrowest
 *
 * Return: the work done, in sections read.
 */
u64 tplan_valleys_reset(struct tplan_valleys *v, const u64 *floor,
			u64 capacity, bool lowest_first)
{
	v->floor = floor;
	v->capacity = capacity;
	v->lowest_first = lowest_first;
	v->dirty_lo = NONE;
	return sum_up_from(v, v->leaves, 2 * v->leaves - 1);
}

/**
 * tplan_valleys_changed() - the floors of sections [lo, hi) have changed
 * @v: the tree
 * @lo: first section changed
 * @hi: one past the last
 *
 * O(1): the tree is summed up again when the best valley is asked for.
 */
void tplan_valleys_changed(struct tplan_valleys *v, u32 lo, u32 hi)
{
	u32 first = v->leaves + lo / TPLAN_VALLEY_BLOCK;
	u32 last = v->leaves + (hi - 1) / TPLAN_VALLEY_BLOCK;

	if (lo >= hi)
		return;
	if (v->dirty_lo == NONE) {
		v->dirty_lo = first;
		v->dirty_hi = last;
	}
	if (first < v->dirty_lo)
		v->dirty_lo = first;
	if (last > v->dirty_hi)
		v->dirty_hi = last;
}

/**
 * tplan_valleys_best() - the valley to open
 * @v: the tree, told of every change of floors
 * @lo: set to its first section
 * @hi: set to one past its last
 * @work: incremented by the work done, in sections read
 *
 * The same valley a scan of the sections from left to right would take:
 * the narrowest (or with lowest_first the lowest), the leftmost of those.
 * O(1) once the changes since last time are summed up.
 *
 * Return: false when there is none (every section is full).
 */
bool tplan_valleys_best(struct tplan_valleys *v, u32 *lo, u32 *hi,
			u64 *work)
{
	struct tplan_valley_node root;
	u32 width = v->leaves * TPLAN_VALLEY_BLOCK;

	if (v->dirty_lo != NONE)
		*work += sum_up_from(v, v->dirty_lo, v->dirty_hi);
	v->dirty_lo = NONE;
	root = v->node[1];

	/* the first and last runs have the ends of time as one wall */
	consider(v, &root, 0, root.llen, WALL_MAX, floor_at(v, root.llen));
	if (root.llen < width)
		consider(v, &root, width - root.rlen, width,
			 floor_at(v, width - root.rlen - 1), WALL_MAX);
	if (root.best_lo == NONE)
		return false;
	*lo = root.best_lo;
	*hi = root.best_hi;
	return true;
}
