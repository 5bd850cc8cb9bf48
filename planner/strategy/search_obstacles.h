/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * search_obstacles.h - what strategy search needs for tables with pinned
 * tensors or gaps (search_obstacles.c): the pins as obstacles, each tensor's
 * presence per section.
 */
#ifndef TPLAN_SEARCH_OBSTACLES_H
#define TPLAN_SEARCH_OBSTACLES_H

#include "core/internal.h"

/* A stretch of sections [first, end) in which bytes [0, top) are taken. */
struct tplan_sfx_seg {
	u32 first;
	u32 end;
	u64 top;
};

/* A pinned tensor's bytes [lo, hi) present in sections [first, end). */
struct tplan_sfx_rect {
	u32 first;
	u32 end;
	u64 lo;
	u64 hi;
};

/**
 * struct tplan_sfx - the pins and gaps of one search
 * @t: the tensors
 * @n: how many
 * @gaps: their gaps (NULL: none)
 * @floor: the search's floors, one per section
 * @slack: the search's slack, one per section
 * @first: the search's first section of each tensor
 * @end: the search's end section of each tensor
 * @placed: the search's placed flags
 * @seg_start: n + 1 entries: tensor i's stretches are
 *             @seg[@seg_start[i]..@seg_start[i + 1])
 * @seg: the stretches of the tensors to place, in section order
 * @rect: the pinned tensors' present pieces, by @lo
 * @rects: entries in @rect
 * @seg_cap: entries @seg has room for
 * @work: units spent that the search has not charged yet
 * @has_gaps: some tensor has gaps: every other round is blind to them
 * @blind: this round sees every tensor whole through its lifetime
 * @done: the tree of each way of seeing (0: by presence, 1: blind) was
 *        searched to its end
 */
struct tplan_sfx {
	struct tplan_tensor *t;
	u32 n;
	const struct tplan_gap *gaps;
	u64 *floor;
	s64 *slack;
	u32 *first;
	u32 *end;
	u8 *placed;
	u32 *seg_start;
	struct tplan_sfx_seg *seg;
	struct tplan_sfx_rect *rect;
	u32 rects;
	u64 seg_cap;
	u64 work;
	bool has_gaps;
	bool blind;
	bool done[2];
};

bool tplan_sfx_needed(const struct tplan_tensor *t, u32 n);
int tplan_sfx_alloc(struct tplan_sfx *fx, struct tplan_tensor *t, u32 n,
		    const struct tplan_gap *gaps);
void tplan_sfx_free(struct tplan_sfx *fx);
u64 tplan_sfx_extra_cuts(const struct tplan_sfx *fx);
u32 tplan_sfx_add_cuts(const struct tplan_sfx *fx, u64 *cut, u32 k);
bool tplan_sfx_pins_fit(const struct tplan_sfx *fx, u64 capacity);
bool tplan_sfx_round(struct tplan_sfx *fx, u32 round);
int tplan_sfx_tree_done(struct tplan_sfx *fx);
void tplan_sfx_init(struct tplan_sfx *fx, const u64 *cut, u32 sections,
		    bool mirror, u64 capacity, u32 *unplaced);
bool tplan_sfx_collides(struct tplan_sfx *fx, u32 i, u64 h);
u64 tplan_sfx_cap(struct tplan_sfx *fx, u32 lo, u32 hi, u64 h, u64 to);
u64 tplan_sfx_first_top(const struct tplan_sfx *fx, u32 i);
void tplan_sfx_absorb(struct tplan_sfx *fx, u32 lo, u32 hi);
void tplan_sfx_set_placed(struct tplan_sfx *fx, u32 i, bool on);
void tplan_sfx_fill(struct tplan_sfx *fx, const u32 *cand, u32 count, u32 lo,
		    u32 hi, u64 h, u64 top, u64 *fill);

#endif /* TPLAN_SEARCH_OBSTACLES_H */
