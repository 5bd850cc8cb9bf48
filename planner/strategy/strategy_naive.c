// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * strategy_naive.c - no reuse at all: every tensor gets its own bytes, back
 * to back in table order.  The baseline every other strategy is measured
 * against.
 *
 * Pinned tensors stay where they are; a hinted tensor takes its hint when
 * those bytes are no other pinned or hinted tensor's at any time (and end
 * within the capacity); the rest go back to back above all of them.
 */
#include "core/internal.h"

/* Whether [@h, @h + size) of @x meets the bytes of a tensor kept before. */
static bool hint_taken(const struct tplan_tensor *t, const u8 *kept, u32 n,
		       const struct tplan_tensor *x, u64 h)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (kept[i] && t[i].size && t[i].offset < h + x->size &&
		    h < t[i].offset + t[i].size)
			return true;
	return false;
}

static bool hint_fits(const struct tplan_tensor *x, u64 capacity, u64 room)
{
	return x->size && !(x->hint & (tplan_alignment(x) - 1)) &&
	       tplan_ends_below_room(x, x->hint, room) &&
	       (!capacity || (x->hint <= capacity &&
			      x->size <= capacity - x->hint));
}

/*
 * Keep the pinned tensors and the hints that fit (quadratic in the pinned
 * and hinted tensors: naive is a baseline); returns the end of all kept.
 */
static int keep_constrained(struct tplan_tensor *t, u32 n, u64 capacity,
			    u8 *kept, u64 *end, struct tplan_work *w)
{
	u64 room = tplan_stack_room(t, n);
	u32 i;
	int ret = 0;

	for (i = 0; i < n; i++)
		kept[i] = !!(t[i].flags & TPLAN_TENSOR_PINNED);
	for (i = 0; i < n && !ret; i++) {
		struct tplan_tensor *x = &t[i];

		if (!kept[i] && (x->flags & TPLAN_TENSOR_HINT) &&
		    hint_fits(x, capacity, room) &&
		    !hint_taken(t, kept, n, x, x->hint)) {
			x->offset = x->hint;
			kept[i] = 1;
		}
		if (kept[i] && x->size)
			*end = max(*end, x->offset + x->size);
		ret = tplan_work_charge(w, 1 + (x->flags & TPLAN_TENSOR_HINT ?
						n : 0));
	}
	return ret;
}

/**
 * tplan_place_naive() - place the tensors back to back
 * @t: the tensors, already checked; offsets are written
 * @n: how many
 * @goal: the capacity hints must respect
 * @w: the work meter
 * @search: unused
 *
 * Return: 0, -ENOMEM, or the work meter's -ETIMEDOUT / -EINTR.
 */
int tplan_place_naive(struct tplan_tensor *t, u32 n,
		      const struct tplan_goal *goal, struct tplan_work *w,
		      u32 *search)
{
	u8 *kept = NULL;
	u64 end = 0;
	u32 i;
	int ret = 0;

	for (i = 0; i < n && !(t[i].flags & (TPLAN_TENSOR_PINNED |
					     TPLAN_TENSOR_HINT)); i++)
		;
	if (i < n) {
		kept = tplan_alloc_array(n, sizeof(*kept));
		if (!kept)
			return -ENOMEM;
		ret = keep_constrained(t, n, goal->capacity, kept, &end, w);
	}
	for (i = 0; i < n && !ret; i++) {
		if (kept && kept[i])
			continue;
		t[i].offset = 0;	/* zero-size tensors take no space */
		if (t[i].size) {
			t[i].offset = tplan_align_up(end, tplan_alignment(&t[i]));
			end = t[i].offset + t[i].size;
		}
		ret = tplan_work_charge(w, 1);
	}
	tplan_free(kept);
	return ret;
}
