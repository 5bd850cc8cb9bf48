// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * measure.c - what a table or a plan measures: the lower bound (the largest
 * sum of sizes alive at one step: no plan can have a lower peak, so it is
 * the yardstick of every strategy), a plan's peak, and the bytes needed
 * without any reuse.
 */
#include "key_sort.h"

/* Orders tensor indices by lower, then by index; see internal.h. */
int tplan_cmp_by_lower(const void *a, const void *b, const void *priv)
{
	const struct tplan_tensor *t = priv;
	u32 ia = *(const u32 *)a, ib = *(const u32 *)b;
	int c = tplan_cmp_u64(t[ia].lower, t[ib].lower);

	return c ? c : tplan_cmp_u64(ia, ib);
}

/* Orders tensor indices by upper, then by index; see internal.h. */
int tplan_cmp_by_upper(const void *a, const void *b, const void *priv)
{
	const struct tplan_tensor *t = priv;
	u32 ia = *(const u32 *)a, ib = *(const u32 *)b;
	int c = tplan_cmp_u64(t[ia].upper, t[ib].upper);

	return c ? c : tplan_cmp_u64(ia, ib);
}

/**
 * tplan_timeline_free() - free what tplan_timeline_init() allocated
 * @tl: the timeline
 */
void tplan_timeline_free(struct tplan_timeline *tl)
{
	tplan_free(tl->born);
	tplan_free(tl->dead);
	tl->born = NULL;
	tl->dead = NULL;
}

/*
 * @born, @dead: the tensor indices by lower and by upper, then by index,
 * sorted as 8-byte words (tplan_packed_order()) where every step is below
 * 2^32 (one read of the table for both).  Returns -ERANGE where one is
 * not, -ENOMEM.
 */
static int sort_packed(const struct tplan_tensor *t, u32 n, u32 *born,
		       u32 *dead)
{
	u64 *by_lower = tplan_alloc_array(n ? n : 1, sizeof(*by_lower));
	u64 *by_upper = tplan_alloc_array(n ? n : 1, sizeof(*by_upper));
	int ret = by_lower && by_upper ? 0 : -ENOMEM;
	u32 i;

	for (i = 0; i < n && !ret; i++) {
		tplan_yield_every(i);
		/* lower < upper */
		if (t[i].upper >> 32)
			ret = -ERANGE;
		by_lower[i] = t[i].lower << 32 | i;
		by_upper[i] = t[i].upper << 32 | i;
	}
	if (!ret)
		ret = tplan_packed_order(by_lower, n, born);
	if (!ret)
		ret = tplan_packed_order(by_upper, n, dead);
	tplan_free(by_lower);
	tplan_free(by_upper);
	return ret;
}

/* sort_packed()'s order in 16-byte keys, for steps of any size. */
static int sort_keys(const struct tplan_tensor *t, u32 n, bool by_upper,
		     u32 *out)
{
	struct tplan_key *key = tplan_alloc_array(n ? n : 1, sizeof(*key));
	u32 i;

	if (!key)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		tplan_yield_every(i);
		key[i].value = by_upper ? t[i].upper : t[i].lower;
		key[i].idx = i;
		key[i].pad = 0;
	}
	tplan_key_sort(key, n);
	for (i = 0; i < n; i++) {
		tplan_yield_every(i);
		out[i] = key[i].idx;
	}
	tplan_free(key);
	return 0;
}

/* @born, @dead: the tensor indices by lower and by upper, then by index. */
static int sort_by_steps(const struct tplan_tensor *t, u32 n, u32 *born,
			 u32 *dead)
{
	int ret = sort_packed(t, n, born, dead);

	if (ret != -ERANGE)
		return ret;
	ret = sort_keys(t, n, false, born);
	return ret ? ret : sort_keys(t, n, true, dead);
}

/*
 * Counts, at each birth, the tensors alive then, into @tl->pairs, and the
 * most bytes alive at once, into @tl->most (tplan_timeline_busiest() over
 * the whole timeline, in the same sweep).  O(n).
 */
static void count_pairs(struct tplan_timeline *tl)
{
	const struct tplan_tensor *t = tl->t;
	u64 live = 0, bytes = 0;
	u32 i, j = 0;

	tl->pairs = 0;
	tl->most = 0;
	for (i = 0; i < tl->n; i++) {
		const struct tplan_tensor *b = &t[tl->born[i]];

		tplan_yield_every((u64)i + j);
		while (j < tl->n && t[tl->dead[j]].upper <= b->lower) {
			bytes -= t[tl->dead[j]].size;
			live--;
			j++;
			tplan_yield_every((u64)i + j);
		}
		tl->pairs += live++;
		bytes += b->size;
		tl->most = max(tl->most, bytes);
	}
}

/**
 * tplan_timeline_init() - the tensors in birth and in death order, and
 * how many pairs of them meet
 * @tl: the timeline
 * @t: the tensors (they must outlive @tl)
 * @n: how many
 *
 * O(n) time for steps below 2^22 (a pass per 11 bits they span), 8 bytes of
 * memory per tensor (24 while sorting, 40 for steps past 2^32).
 *
 * Return: 0 or -ENOMEM.
 */
int tplan_timeline_init(struct tplan_timeline *tl,
			const struct tplan_tensor *t, u32 n)
{
	int ret = -ENOMEM;

	tl->t = t;
	tl->n = n;
	tl->born = tplan_alloc_array(n, sizeof(*tl->born));
	tl->dead = tplan_alloc_array(n, sizeof(*tl->dead));
	if (tl->born && tl->dead)
		ret = sort_by_steps(t, n, tl->born, tl->dead);
	if (ret) {
		tplan_timeline_free(tl);
		return ret;
	}
	count_pairs(tl);
	return 0;
}

/**
 * tplan_timeline_busiest() - the step of [@from, @to) with the most bytes
 * alive
 * @tl: the timeline
 * @from: the first step
 * @to: the step after the last
 * @step: set to the first such step (@from if no tensor is born in range)
 *
 * Sweeps the births in time order; before each birth, retires every tensor
 * dead by then (upper is exclusive).  Live bytes only grow at a birth, so
 * the busiest step of a range that starts at a birth is a birth.  O(n).
 *
 * Return: the bytes alive at *@step.
 */
u64 tplan_timeline_busiest(const struct tplan_timeline *tl, u64 from, u64 to,
			   u64 *step)
{
	const struct tplan_tensor *t = tl->t;
	u64 live = 0, most = 0;
	u32 i, j = 0;

	*step = from;
	for (i = 0; i < tl->n && t[tl->born[i]].lower < to; i++) {
		const struct tplan_tensor *b = &t[tl->born[i]];

		/* deaths count too: one birth may come after most of them */
		tplan_yield_every((u64)i + j);
		while (j < tl->n && t[tl->dead[j]].upper <= b->lower) {
			live -= t[tl->dead[j++]].size;
			tplan_yield_every((u64)i + j);
		}
		live += b->size;
		if (b->lower >= from && live > most) {
			most = live;
			*step = b->lower;
		}
	}
	return most;
}

/**
 * tplan_lower_bound() - the largest sum of sizes alive at any one step
 * @t: the tensors, already accepted by tplan_check_table()
 * @n: how many
 * @bound: the result
 *
 * The time and memory of tplan_timeline_init().
 *
 * Return: 0 or -ENOMEM.
 */
int tplan_lower_bound(const struct tplan_tensor *t, u32 n, u64 *bound)
{
	struct tplan_timeline tl;

	*bound = 0;
	if (tplan_timeline_init(&tl, t, n))
		return -ENOMEM;
	*bound = tl.most;
	tplan_timeline_free(&tl);
	return 0;
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_lower_bound);

/**
 * tplan_peak() - the highest offset + size in a plan
 * @t: the planned tensors
 * @n: how many
 *
 * Return: the peak; 0 for an empty table or only zero-size tensors.
 */
u64 tplan_peak(const struct tplan_tensor *t, u32 n)
{
	u64 peak = 0;
	u32 i;

	for (i = 0; i < n; i++)
		if (t[i].size && t[i].offset + t[i].size > peak)
			peak = t[i].offset + t[i].size;
	return peak;
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_peak);

/**
 * tplan_pins_top() - where the highest pinned tensor ends
 * @t: the tensors, checked (pins included)
 * @n: how many
 *
 * No plan's peak is lower, so a search aims no lower; nothing placed from
 * here up meets a pinned tensor.
 *
 * Return: the largest offset + size of a pinned tensor, 0 without pins.
 */
u64 tplan_pins_top(const struct tplan_tensor *t, u32 n)
{
	u64 top = 0;
	u32 i;

	for (i = 0; i < n; i++) {
		tplan_yield_every(i);
		if ((t[i].flags & TPLAN_TENSOR_PINNED) && t[i].size)
			top = max(top, t[i].offset + t[i].size);
	}
	return top;
}

/**
 * tplan_stack_room() - the most bytes the tensors take stacked in any
 * order: each one's size plus its alignment - 1
 * @t: the tensors, already accepted by tplan_check_table() (which keeps
 *     this below 2^64)
 * @n: how many
 *
 * A pinned or hinted tensor must end at least this far below 2^64, so that
 * a placement above any of them never passes 2^64 - 1.
 *
 * Return: the room.
 */
u64 tplan_stack_room(const struct tplan_tensor *t, u32 n)
{
	u64 room = 0;
	u32 i;

	for (i = 0; i < n; i++) {
		tplan_yield_every(i);
		room += t[i].size + tplan_alignment(&t[i]) - 1;
	}
	return room;
}

/**
 * tplan_naive_total() - bytes needed without any reuse
 * @t: the tensors, already accepted by tplan_check_table()
 * @n: how many
 *
 * The naive strategy's peak (aligned back to back in table order), without
 * writing offsets.
 *
 * Return: the total.
 */
u64 tplan_naive_total(const struct tplan_tensor *t, u32 n)
{
	u64 end = 0;
	u32 i;

	for (i = 0; i < n; i++) {
		tplan_yield_every(i);
		if (t[i].size)
			end = tplan_align_up(end, tplan_alignment(&t[i])) + t[i].size;
	}
	return end;
}
