/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * gaps.h - a tensor's lifetime as stretches of presence: between its gaps
 * all its bytes are there, during a gap only its window (maybe none).
 */
#ifndef TPLAN_GAPS_H
#define TPLAN_GAPS_H

#include "internal.h"

/**
 * struct tplan_seg - a stretch of a lifetime and the bytes present in it
 * @lower: first step
 * @upper: first step after it
 * @from: first byte present (relative to the tensor's offset)
 * @to: first byte after those; @from == @to: nothing present
 */
struct tplan_seg {
	u64 lower;
	u64 upper;
	u64 from;
	u64 to;
};

/* Walks the stretches of one tensor whose gaps tplan_check_gaps() passed. */
struct tplan_seg_iter {
	const struct tplan_tensor *x;
	const struct tplan_gap *g;
	u32 k;
	u64 at;
};

static inline void tplan_seg_begin(struct tplan_seg_iter *it,
				   const struct tplan_tensor *x,
				   const struct tplan_gap *gaps)
{
	it->x = x;
	it->g = x->gap_count ? gaps + x->gap_first : NULL;
	it->k = 0;
	it->at = x->lower;
}

/* The next stretch, in time order; false after the last. */
static inline bool tplan_seg_next(struct tplan_seg_iter *it,
				  struct tplan_seg *s)
{
	const struct tplan_tensor *x = it->x;

	if (it->at >= x->upper)
		return false;
	if (it->k < x->gap_count && it->g[it->k].lower == it->at) {
		const struct tplan_gap *g = &it->g[it->k++];

		s->lower = g->lower;
		s->upper = g->upper;
		s->from = g->from;
		s->to = g->to;
	} else {
		s->lower = it->at;
		s->upper = it->k < x->gap_count ? it->g[it->k].lower : x->upper;
		s->from = 0;
		s->to = x->size;
	}
	it->at = s->upper;
	return true;
}

/* Stretches of a tensor: each gap adds at most two. */
static inline u64 tplan_seg_count(const struct tplan_tensor *x)
{
	return 1 + 2 * (u64)x->gap_count;
}

/* Whether the planner must keep anything of the tensor as it is. */
static inline bool tplan_is_constrained(const struct tplan_tensor *x)
{
	return x->gap_count ||
	       (x->flags & (TPLAN_TENSOR_PINNED | TPLAN_TENSOR_HINT));
}

/* tplan_check_gaps() is in planner.h: libtplan checks gaps with it. */
int tplan_gap_pieces(const struct tplan_tensor *t, u32 n,
		     const struct tplan_gap *gaps, struct tplan_tensor **pieces,
		     u32 **of, u32 *count);
int tplan_lower_bound_gaps(const struct tplan_tensor *t, u32 n,
			   const struct tplan_gap *gaps, u64 *bound);

#endif /* TPLAN_GAPS_H */
