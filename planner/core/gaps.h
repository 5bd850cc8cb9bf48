/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * gaps.h - a tensor's lifetime as stretches of presence: between its gaps
 * all its bytes are there, during a gap only its window (maybe none).
 */
#ifndef TPLAN_GAPS_H
#define TPLAN_GAPS_H

#include "internal.h"

/* struct tplan_seg and its walk, tplan_seg_begin()/_next(): tplan_types.h */

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

/**
 * struct tplan_stretch - a stretch of a tensor's presence
 * @lower: its first step
 * @upper: the step after its last
 * @offset: the first byte present then
 * @size: the bytes present then (more than 0)
 *
 * 32 bytes, where a table row is 112: a table of many gaps makes many
 * pieces, and the kernel maps and unmaps each page of them.
 */
struct tplan_stretch {
	u64 lower;
	u64 upper;
	u64 offset;
	u64 size;
};

/* tplan_check_gaps() is in planner.h: libtplan checks gaps with it. */
int tplan_gap_pieces(const struct tplan_tensor *t, u32 n,
		     const struct tplan_gap *gaps, struct tplan_stretch **pieces,
		     u32 **of, u32 *count);
int tplan_lower_bound_gaps(const struct tplan_tensor *t, u32 n,
			   const struct tplan_gap *gaps, u64 *bound);

#endif /* TPLAN_GAPS_H */
