// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * key_sort.c - sorting tensor indices by a 64-bit key in linear time.
 *
 * The planner's large sorts (the timeline, greedy-size's order) order up to
 * millions of keys; a comparison sort spends most of a large plan's time
 * there.  A least-significant-digit radix sort needs one pass per 11-bit
 * digit in which the keys differ (two for steps below 2^22), each a read
 * and a scattered write of the keys.  It is stable, so a sort by several
 * fields is one sort per field, the least significant first.
 */
#include "key_sort.h"

#define DIGIT_BITS	11
#define DIGITS		BIT(DIGIT_BITS)

/* Below this many keys a comparison sort is as fast and needs no memory. */
#define KEY_SORT_SMALL	1024

/* By value, then by position before the sort: a stable comparison sort. */
static int cmp_value_then_position(const void *a, const void *b,
				   const void *priv)
{
	const struct tplan_key *x = a, *y = b;
	int c = tplan_cmp_u64(x->value, y->value);

	return c ? c : tplan_cmp_u64(x->pad, y->pad);
}

static void comparison_sort(struct tplan_key *key, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		key[i].pad = i;
	tplan_sort(key, n, sizeof(*key), cmp_value_then_position, NULL);
	for (i = 0; i < n; i++)
		key[i].pad = 0;
}

/* One stable pass: @src into @dst by the digit at @shift. */
static void scatter(const struct tplan_key *src, struct tplan_key *dst,
		    u32 n, u32 shift, u32 *count)
{
	u32 i, d, at = 0;

	memset(count, 0, DIGITS * sizeof(*count));
	for (i = 0; i < n; i++)
		count[(src[i].value >> shift) & (DIGITS - 1)]++;
	for (d = 0; d < DIGITS; d++) {
		u32 c = count[d];

		count[d] = at;
		at += c;
	}
	for (i = 0; i < n; i++)
		dst[count[(src[i].value >> shift) & (DIGITS - 1)]++] = src[i];
}

/* The bits in which some key differs from the first; 0 if sorted already. */
static u64 varying_bits(const struct tplan_key *key, u32 n)
{
	u64 varying = 0;
	bool sorted = true;
	u32 i;

	for (i = 1; i < n; i++) {
		varying |= key[i].value ^ key[0].value;
		sorted &= key[i].value >= key[i - 1].value;
	}
	return sorted ? 0 : varying;
}

/**
 * tplan_key_sort() - sort keys by value, keeping the order of equal values
 * @key: the keys
 * @n: how many
 *
 * O(n) per 11-bit digit that varies, with n more keys of memory; where that
 * memory is not to be had, a comparison sort gives the same order.  Never
 * fails.
 */
void tplan_key_sort(struct tplan_key *key, u32 n)
{
	struct tplan_key *tmp, *src = key, *dst;
	u64 varying = varying_bits(key, n);
	u32 *count, shift;

	if (!varying)
		return;
	if (n < KEY_SORT_SMALL) {
		comparison_sort(key, n);
		return;
	}
	tmp = tplan_alloc_array(n, sizeof(*tmp));
	count = tplan_alloc_array(DIGITS, sizeof(*count));
	if (!tmp || !count) {
		tplan_free(tmp);
		tplan_free(count);
		comparison_sort(key, n);
		return;
	}
	dst = tmp;
	for (shift = 0; shift < 64 && varying >> shift; shift += DIGIT_BITS) {
		if (!((varying >> shift) & (DIGITS - 1)))
			continue;
		scatter(src, dst, n, shift, count);
		dst = src;
		src = src == key ? tmp : key;
	}
	if (src != key)
		memcpy(key, src, (size_t)n * sizeof(*key));
	tplan_free(tmp);
	tplan_free(count);
}
