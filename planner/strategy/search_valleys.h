/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * search_valleys.h - the valley the search opens next, kept up to date as
 * floors change, instead of found by a scan of every section.
 */
#ifndef TPLAN_SEARCH_VALLEYS_H
#define TPLAN_SEARCH_VALLEYS_H

#include "core/internal.h"

/* Sections per leaf of the tree: a leaf is summed up by a scan of them. */
#define TPLAN_VALLEY_BLOCK	8

/**
 * struct tplan_valley_node - what a range of sections looks like from out
 * of it
 * @llen: sections in its first run (a run: neighbours of equal floor)
 * @rlen: sections in its last run
 * @best_lo: first section of the best valley wholly inside (its walls
 *           inside too), or ~0 when there is none
 * @best_hi: one past its last section
 *
 * Every value a node stands for is read from the floors of its own range,
 * so a change of floors only touches the nodes above it.
 */
struct tplan_valley_node {
	u32 llen;
	u32 rlen;
	u32 best_lo;
	u32 best_hi;
};

/**
 * struct tplan_valleys - a segment tree of the search's runs of sections
 * @floor: the floors, owned by the search
 * @sections: how many
 * @capacity: a valley's floor is below this
 * @lowest_first: best is lowest (then leftmost), else narrowest (then
 *                leftmost)
 * @dirty_lo: first leaf whose sections changed since the tree was last
 *            summed up (~0: none)
 * @dirty_hi: last such leaf
 * @leaves: leaves of the tree, a power of two (TPLAN_VALLEY_BLOCK sections
 *          each; those past @sections count as walls of infinite height)
 * @node: the tree, root at 1, children of k at 2k and 2k + 1
 */
struct tplan_valleys {
	const u64 *floor;
	u32 sections;
	u64 capacity;
	bool lowest_first;
	u32 dirty_lo;
	u32 dirty_hi;
	u32 leaves;
	struct tplan_valley_node *node;
};

int tplan_valleys_alloc(struct tplan_valleys *v, u32 sections);
void tplan_valleys_free(struct tplan_valleys *v);
u64 tplan_valleys_reset(struct tplan_valleys *v, const u64 *floor,
			u64 capacity, bool lowest_first);
void tplan_valleys_changed(struct tplan_valleys *v, u32 lo, u32 hi);
bool tplan_valleys_best(struct tplan_valleys *v, u32 *lo, u32 *hi,
			u64 *work);

#endif /* TPLAN_SEARCH_VALLEYS_H */
