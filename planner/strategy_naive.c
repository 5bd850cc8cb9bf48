// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * strategy_naive.c - no reuse at all: every tensor gets its own bytes, back
 * to back in table order.  The baseline every other strategy is measured
 * against.
 */
#include "internal.h"

/**
 * tplan_place_naive() - place the tensors back to back
 * @t: the tensors, already checked; offsets are written
 * @n: how many
 * @goal: unused: naive never reuses a byte
 * @w: the work meter
 * @search: unused
 *
 * Return: 0, or the work meter's -ETIMEDOUT / -EINTR.
 */
int tplan_place_naive(struct tplan_tensor *t, u32 n,
		      const struct tplan_goal *goal, struct tplan_work *w,
		      u32 *search)
{
	u64 end = 0;
	u32 i;
	int ret = 0;

	for (i = 0; i < n && !ret; i++) {
		t[i].offset = 0;	/* zero-size tensors take no space */
		if (t[i].size) {
			t[i].offset = tplan_align_up(end, t[i].alignment);
			end = t[i].offset + t[i].size;
		}
		ret = tplan_work_charge(w, 1);
	}
	return ret;
}
