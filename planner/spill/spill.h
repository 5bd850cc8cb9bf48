/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * spill.h - what spill.c (set up, place, report) and the files choosing
 * whom to move out (spill_evict.c, spill_ga.c, spill_improve.c,
 * spill_choice.c) share; not an API.
 *
 * Time is cut into points: every use (lower counts as one) and the step
 * after it.  A tensor is needed from lower to its last use; between two
 * uses more than a step apart it has a gap, during which it may be out.
 */
#ifndef TPLAN_SPILL_H
#define TPLAN_SPILL_H

#include "core/internal.h"

/**
 * struct tplan_spill_gap - a stretch between two uses of one tensor
 * @tensor: the tensor
 * @from: the first point at which it may be out (the step after a use)
 * @to: the point of its next use: it is back in by then
 * @out: it is out during [@from, @to)
 */
struct tplan_spill_gap {
	u32 tensor;
	u32 from;
	u32 to;
	u32 out;
};

/**
 * struct tplan_spill - one spill plan in the making
 * @t: the tensors
 * @n: how many
 * @pt: the points, sorted, distinct
 * @npt: how many
 * @base: bytes needed at each point with nothing out
 * @need: bytes needed at each point with the gaps marked out
 * @used: bytes of the tensors used at each point
 * @gap: every gap, tensor after tensor, in time order
 * @ngap: how many
 * @gap_start: n + 1 entries: tensor i's gaps start at @gap_start[i]
 * @first_pt: each tensor's point of lower
 * @end_pt: each tensor's point after its last use
 * @by_from: gap indices by @from, then index
 * @active: room for one point's candidates
 * @keep: room for a flag per gap (a choice kept aside)
 * @spare: room for a gap index per gap
 * @ga_out: the gaps ga's best assignment moves out, once @ga_ready
 * @ga_ready: ga has evolved for this run of a chooser
 * @w: the work meter
 */
struct tplan_spill {
	const struct tplan_tensor *t;
	u32 n;
	u64 *pt;
	u32 npt;
	u64 *base;
	u64 *need;
	u64 *used;
	struct tplan_spill_gap *gap;
	u32 ngap;
	u32 *gap_start;
	u32 *first_pt;
	u32 *end_pt;
	u32 *by_from;
	u32 *active;
	u32 *keep;
	u32 *spare;
	u32 *ga_out;
	bool ga_ready;
	struct tplan_work *w;
};

/**
 * enum tplan_spill_chooser - how tplan_spill_evict() chooses
 * @SPILL_CHOOSE_FURTHEST: furthest next use first
 * @SPILL_CHOOSE_GA: ga's best assignment, then furthest for what is over
 * @SPILL_CHOOSE_FURTHEST_PRUNE: furthest, then back in what fits anyway
 * @SPILL_CHOOSE_COST: most excess covered per byte, then back in what fits
 * @SPILL_CHOOSE_EXCHANGE: the better of the two above, then exchanges
 */
enum tplan_spill_chooser {
	SPILL_CHOOSE_FURTHEST,
	SPILL_CHOOSE_GA,
	SPILL_CHOOSE_FURTHEST_PRUNE,
	SPILL_CHOOSE_COST,
	SPILL_CHOOSE_EXCHANGE,
};

/*
 * A stack, each file calling only those below it: spill.c, then
 * spill_evict.c (the sweep and the bound), then spill_ga.c and
 * spill_improve.c, then spill_choice.c (the moves on a choice).
 */
int tplan_spill_evict(struct tplan_spill *s, u32 chooser, u64 room,
		      u32 *fail_point);
int tplan_spill_bound(struct tplan_spill *s, u64 capacity, u64 *bound);
int tplan_spill_ga(struct tplan_spill *s, u64 room);
int tplan_spill_improve(struct tplan_spill *s, u64 room);
int tplan_spill_pick_cost(struct tplan_spill *s, u32 na, u32 p, u64 room,
			  u32 *pick);
int tplan_spill_prune(struct tplan_spill *s, u64 room);
u64 tplan_spill_moved(const struct tplan_spill *s);
void tplan_spill_set_out(struct tplan_spill *s, struct tplan_spill_gap *g,
			 bool out);

#endif /* TPLAN_SPILL_H */
