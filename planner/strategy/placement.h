/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * placement.h - place tensors one after another, each as low as it fits
 * ("bottom-aligned" placement); the order is the strategy's.
 */
#ifndef TPLAN_PLACEMENT_H
#define TPLAN_PLACEMENT_H

#include "core/interval_index.h"
#include "core/neighbours.h"
#include "core/occupancy.h"

/*
 * Offsets [lo, hi) the tensor being placed may not take: there it would
 * share a byte with a placed tensor at a step where both are present.
 */
struct tplan_block {
	u64 lo;
	u64 hi;
};

/*
 * What placing a tensor through the lists reads of it, gathered in a
 * pass's order: its size, its alignment and its neighbours,
 * lists.list[from, to).
 */
struct tplan_queued {
	u64 size;
	u64 align;
	u32 from;
	u32 to;
};

/**
 * enum tplan_placer_mode - how a lowest fit is found
 * @TPLAN_PLACER_INDEX: the blocks of the neighbours the interval index
 *                      finds (tables with gaps)
 * @TPLAN_PLACER_LISTS: the blocks of the neighbours listed up front (few
 *                      tensors alive at once)
 * @TPLAN_PLACER_MERGED: the merged occupancy (many alive at once)
 */
enum tplan_placer_mode {
	TPLAN_PLACER_INDEX,
	TPLAN_PLACER_LISTS,
	TPLAN_PLACER_MERGED,
};

/**
 * struct tplan_placer - what placing in an order needs, allocated once
 * @t: the tensors
 * @n: how many
 * @ix: their lifetimes, indexed (%TPLAN_PLACER_INDEX)
 * @lists: their neighbours (%TPLAN_PLACER_LISTS)
 * @queue: a chunk of a pass's tensors, in its order (%TPLAN_PLACER_LISTS)
 * @occ: the bytes taken so far, per span of time (%TPLAN_PLACER_MERGED)
 * @neighbours: answers of one index query
 * @blocks: the placed neighbours' byte ranges
 * @placed: whether each tensor is placed yet
 * @span: the bytes of each placed tensor, [offset, offset + size); {0, 0}
 *        for the others and for tensors of no bytes.  Without gaps a lowest
 *        fit reads only these: 16 bytes a neighbour, where the neighbour's
 *        entry of the table spans two cache lines
 * @gaps: the tensors' gaps (NULL: none)
 * @limit: a hint is taken only if the tensor then ends by this; 0: no limit
 * @room: a hint is taken only if the tensor then ends this far below 2^64
 *        (tplan_stack_room())
 * @block_cap: entries in @blocks: one per neighbour, more with gaps
 * @constrained: some tensor is pinned or hinted
 * @mode: how a lowest fit is found
 *
 * 41 bytes per tensor, plus the interval index's 40 and, with gaps, 16 more
 * per tensor and 64 per gap (blocks for the stretches of presence, gaps.h);
 * or the lists' 4 per tensor and 8 per overlapping pair (at most 16 pairs
 * per tensor); or the occupancy's (about 350 per tensor on large training
 * graphs).
 */
struct tplan_placer {
	struct tplan_tensor *t;
	u32 n;
	struct tplan_interval_index ix;
	struct tplan_neighbours lists;
	struct tplan_queued *queue;
	struct tplan_occupancy occ;
	u32 *neighbours;
	struct tplan_block *blocks;
	u8 *placed;
	struct tplan_block *span;
	const struct tplan_gap *gaps;
	u64 limit;
	u64 room;
	u64 block_cap;
	bool constrained;
	enum tplan_placer_mode mode;
};

int tplan_placer_init(struct tplan_placer *p, struct tplan_tensor *t, u32 n,
		      const struct tplan_gap *gaps, u64 limit,
		      const struct tplan_timeline *tl);
void tplan_placer_free(struct tplan_placer *p);
bool tplan_placer_lists_suffice(const struct tplan_timeline *tl);
int tplan_placer_use(struct tplan_placer *p, enum tplan_placer_mode mode);
int tplan_placer_run(struct tplan_placer *p, const u32 *order,
		     struct tplan_work *w);
int tplan_placer_keep(struct tplan_placer *p, u32 idx, struct tplan_work *w);
int tplan_placer_try(struct tplan_placer *p, u32 idx, u64 limit,
		     struct tplan_work *w);

#endif /* TPLAN_PLACEMENT_H */
