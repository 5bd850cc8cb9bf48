// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * small_apart.c - the stage that keeps small tensors apart: tensors smaller
 * than a threshold are never reused.  The others go to the next stage as a
 * table of their own; the small ones then get fresh bytes above them, back
 * to back in table order, so they never split the shared space into
 * fragments.
 */
#include "core/internal.h"

/* Pinned and hinted tensors stay with the others: they have a place. */
static bool is_small(const struct tplan_tensor *x, u64 below)
{
	return x->size && x->size < below &&
	       !(x->flags & (TPLAN_TENSOR_PINNED | TPLAN_TENSOR_HINT));
}

/* The shared part as a table of its own: @map[k] is its k-th tensor. */
static u32 split_shared(const struct tplan_tensor *t, u32 n, u64 below,
			struct tplan_tensor *shared, u32 *map)
{
	u32 i, k = 0;

	for (i = 0; i < n; i++) {
		if (is_small(&t[i], below))
			continue;
		shared[k] = t[i];
		map[k++] = i;
	}
	return k;
}

/*
 * Small tensors back to back from @end up, in table order.  One pass,
 * counted as work but never cut short by the budget: a plan the strategy
 * made must not be left half done.
 */
static void stack_small(struct tplan_tensor *t, u32 n, u64 below, u64 end,
			struct tplan_work *w)
{
	u32 i;

	for (i = 0; i < n; i++) {
		if (!is_small(&t[i], below))
			continue;
		t[i].offset = tplan_align_up(end, tplan_alignment(&t[i]));
		end = t[i].offset + t[i].size;
		w->spent++;
	}
}

/**
 * tplan_small_apart_stage() - plan with the small tensors kept apart
 * @t: the tensors of one tier, already checked; offsets are written
 * @n: how many
 * @tiers: the one tier they go to
 * @next: the stage that places the others
 * @run: the options (small_below: tensors of 1 to small_below - 1 bytes
 *       are small; 0 means none) and the work meter
 *
 * The next stage gets the others with no capacity: the caller checks the
 * capacity on the whole plan.  Memory: a copy of the shared part, 68 bytes
 * per tensor, on top of the next stage's.
 *
 * Return: 0, -ENOMEM, or the next stage's error.
 */
int tplan_small_apart_stage(struct tplan_tensor *t, u32 n,
			    const struct tplan_tiers *tiers,
			    const struct tplan_stage *next,
			    struct tplan_run *run)
{
	static const struct tplan_tiers unlimited = {
		.count = 1, .room = { TPLAN_U64_MAX },
	};
	u64 below = run->opts->small_below;
	struct tplan_tensor *shared;
	u32 *map, k, count;
	int ret;

	if (!below)
		return tplan_next_stage(next, t, n, tiers, run);
	shared = tplan_alloc_array(n, sizeof(*shared));
	map = tplan_alloc_array(n, sizeof(*map));
	if (!shared || !map) {
		ret = -ENOMEM;
		goto out;
	}
	count = split_shared(t, n, below, shared, map);
	run->search = TPLAN_SEARCH_NOT_RUN;
	ret = tplan_next_stage(next, shared, count, &unlimited, run);
	if (ret)
		goto out;
	for (k = 0; k < count; k++)
		t[map[k]].offset = shared[k].offset;
	stack_small(t, n, below, tplan_peak(shared, count), &run->work);
out:
	tplan_free(shared);
	tplan_free(map);
	return ret;
}
