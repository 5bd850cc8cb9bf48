// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * measure.c - what a table or a plan measures: the lower bound (the largest
 * sum of sizes alive at one step: no plan can have a lower peak, so it is
 * the yardstick of every strategy), a plan's peak, and the bytes needed
 * without any reuse.
 */
#include "internal.h"

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

/*
 * Sweep the births in time order; before each birth, retire every tensor
 * that is dead by then (upper is exclusive, so upper == lower is no overlap).
 */
static u64 sweep(const struct tplan_tensor *t, u32 n, const u32 *born,
		 const u32 *dead)
{
	u64 live = 0, bound = 0;
	u32 i, j = 0;

	for (i = 0; i < n; i++) {
		const struct tplan_tensor *b = &t[born[i]];

		while (j < n && t[dead[j]].upper <= b->lower)
			live -= t[dead[j++]].size;
		live += b->size;
		if (live > bound)
			bound = live;
	}
	return bound;
}

/**
 * tplan_lower_bound() - the largest sum of sizes alive at any one step
 * @t: the tensors, already accepted by tplan_check_table()
 * @n: how many
 * @bound: the result
 *
 * O(n log n) time, 8 bytes of memory per tensor.
 *
 * Return: 0 or -ENOMEM.
 */
int tplan_lower_bound(const struct tplan_tensor *t, u32 n, u64 *bound)
{
	u32 *born, *dead, i;

	*bound = 0;
	born = tplan_alloc_array(n, sizeof(*born));
	dead = tplan_alloc_array(n, sizeof(*dead));
	if (!born || !dead) {
		tplan_free(born);
		tplan_free(dead);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		born[i] = i;
		dead[i] = i;
	}
	tplan_sort(born, n, sizeof(*born), tplan_cmp_by_lower, t);
	tplan_sort(dead, n, sizeof(*dead), tplan_cmp_by_upper, t);
	*bound = sweep(t, n, born, dead);
	tplan_free(born);
	tplan_free(dead);
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

	for (i = 0; i < n; i++)
		if (t[i].size)
			end = tplan_align_up(end, t[i].alignment) + t[i].size;
	return end;
}
