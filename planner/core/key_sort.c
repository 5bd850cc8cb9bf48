// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * key_sort.c - sorting tensor indices by a 64-bit key (or plain 64-bit
 * values) in linear time.
 *
 * The planner's large sorts (the timeline, greedy-size's order) order up to
 * millions of keys; a comparison sort spends most of a large plan's time
 * there.  A least-significant-digit radix sort needs one pass per 11-bit
 * digit in which the keys differ (two for steps below 2^22), each a read
 * and a scattered write of the keys.  It is stable, so a sort by several
 * fields is one sort per field, the least significant first.  Its passes
 * yield every %TPLAN_LOOP_YIELD elements (the kernel runs nothing else on
 * that CPU meanwhile); the comparison sort it falls back on is the port's,
 * which yields in the kernel too.
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

/*
 * Both sorts below order elements whose first 8 bytes are the u64 they are
 * sorted by (struct tplan_key, a plain u64); always inlined, so that each
 * copies its own fixed-size elements.
 */
static __always_inline u64 value_at(const void *base, size_t size, u32 i)
{
	return *(const u64 *)((const u8 *)base + (size_t)i * size);
}

/* One stable pass: @src into @dst by the digit at @shift. */
static __always_inline void scatter(const void *src, void *dst, size_t size,
				    u32 n, u32 shift, u32 *count)
{
	u32 i, d, at = 0;

	memset(count, 0, DIGITS * sizeof(*count));
	for (i = 0; i < n; i++) {
		tplan_yield_every(i);
		count[(value_at(src, size, i) >> shift) & (DIGITS - 1)]++;
	}
	for (d = 0; d < DIGITS; d++) {
		u32 c = count[d];

		count[d] = at;
		at += c;
	}
	for (i = 0; i < n; i++) {
		u32 to = count[(value_at(src, size, i) >> shift) & (DIGITS - 1)]++;

		tplan_yield_every(i);
		memcpy((u8 *)dst + (size_t)to * size,
		       (const u8 *)src + (size_t)i * size, size);
	}
}

/* The bits in which some value differs from the first; 0 if sorted already. */
static __always_inline u64 varying_bits(const void *base, size_t size, u32 n)
{
	u64 varying = 0, first = n ? value_at(base, size, 0) : 0;
	bool sorted = true;
	u32 i;

	for (i = 1; i < n; i++) {
		tplan_yield_every(i);
		varying |= value_at(base, size, i) ^ first;
		sorted &= value_at(base, size, i) >= value_at(base, size, i - 1);
	}
	return sorted ? 0 : varying;
}

/*
 * The passes of an LSD radix sort of @n elements of @size bytes whose
 * values differ in @varying, by their bits from @first up, with room @tmp
 * for as many; the result ends in @base.
 */
static __always_inline void radix_passes_from(void *base, void *tmp,
					      size_t size, u32 n, u64 varying,
					      u32 *count, u32 first)
{
	void *src = base, *dst = tmp;
	u32 shift;

	for (shift = first; shift < 64 && varying >> shift;
	     shift += DIGIT_BITS) {
		if (!((varying >> shift) & (DIGITS - 1)))
			continue;
		scatter(src, dst, size, n, shift, count);
		dst = src;
		src = src == base ? tmp : base;
	}
	if (src != base)
		tplan_copy(base, src, (size_t)n * size);
}

/* The passes from bit 0: the whole value. */
static __always_inline void radix_passes(void *base, void *tmp, size_t size,
					 u32 n, u64 varying, u32 *count)
{
	radix_passes_from(base, tmp, size, n, varying, count, 0);
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
	u64 varying = varying_bits(key, sizeof(*key), n);
	struct tplan_key *tmp;
	u32 *count;

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
	radix_passes(key, tmp, sizeof(*key), n, varying, count);
	tplan_free(tmp);
	tplan_free(count);
}

static int cmp_u64_values(const void *a, const void *b, const void *priv)
{
	return tplan_cmp_u64(*(const u64 *)a, *(const u64 *)b);
}

/**
 * tplan_u64_sort() - sort plain values in linear time
 * @v: the values
 * @n: how many
 *
 * As tplan_key_sort(), for values alone (equal values are alike: no order
 * to keep).  O(n) per 11-bit digit that varies, with n more values of
 * memory; -ENOMEM when that memory is not to be had (a caller-sized
 * comparison sort would stall the kernel instead).
 *
 * Return: 0 or -ENOMEM.
 */
int tplan_u64_sort(u64 *v, u32 n)
{
	u64 varying = varying_bits(v, sizeof(*v), n);
	u32 *count;
	u64 *tmp;

	if (!varying)
		return 0;
	if (n < KEY_SORT_SMALL) {
		tplan_sort(v, n, sizeof(*v), cmp_u64_values, NULL);
		return 0;
	}
	tmp = tplan_alloc_array(n, sizeof(*tmp));
	count = tplan_alloc_array(DIGITS, sizeof(*count));
	if (tmp && count)
		radix_passes(v, tmp, sizeof(*v), n, varying, count);
	tplan_free(tmp);
	tplan_free(count);
	return tmp && count ? 0 : -ENOMEM;
}

/* Few words: an insertion sort by the high half, stable. */
static void insertion_sort_high(u64 *v, u32 n)
{
	u32 i, j;

	for (i = 1; i < n; i++) {
		u64 x = v[i];

		tplan_yield_every(i);
		for (j = i; j > 0 && v[j - 1] >> 32 > x >> 32; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* Move @v[@root] down the max-heap @v[0, @n) to where it belongs. */
static void sift_down(u64 *v, u32 root, u32 n)
{
	u64 x = v[root], child;

	while ((child = 2 * (u64)root + 1) < n) {
		if (child + 1 < n && v[child + 1] > v[child])
			child++;
		if (v[child] <= x)
			break;
		v[root] = v[child];
		root = child;
	}
	v[root] = x;
}

/**
 * tplan_u64_heapsort() - sort values in place, without memory
 * @v: the values
 * @n: how many
 *
 * For sorts inside a loop (a search step's candidates): no memory to
 * fail, no call per comparison as the port's sort makes, and O(n log n)
 * comparisons whatever the input.  Equal values are alike: sort words
 * whose low bits differ to order ties.
 */
void tplan_u64_heapsort(u64 *v, u32 n)
{
	u32 i;
	u64 top;

	for (i = n / 2; i-- > 0;) {
		tplan_yield_every(i);
		sift_down(v, i, n);
	}
	for (i = n; i > 1; i--) {
		tplan_yield_every(i);
		top = v[0];
		v[0] = v[i - 1];
		v[i - 1] = top;
		sift_down(v, 0, i - 1);
	}
}

/**
 * tplan_packed_sort() - sort words by their high 32 bits, keeping the
 * order of equal ones
 * @v: the words: a value below 2^32 above a 32-bit index, the tensor's
 * @n: how many
 *
 * tplan_key_sort() for values below 2^32, in half the memory and half the
 * traffic: the same passes, over 8 bytes a key instead of 16.
 *
 * Return: 0 or -ENOMEM.
 */
int tplan_packed_sort(u64 *v, u32 n)
{
	u64 varying = varying_bits(v, sizeof(*v), n) & ~0xffffffffull;
	u32 *count;
	u64 *tmp;

	if (!varying)
		return 0;
	if (n < KEY_SORT_SMALL) {
		insertion_sort_high(v, n);
		return 0;
	}
	tmp = tplan_alloc_array(n, sizeof(*tmp));
	count = tplan_alloc_array(DIGITS, sizeof(*count));
	if (tmp && count)
		radix_passes_from(v, tmp, sizeof(*v), n, varying, count, 32);
	tplan_free(tmp);
	tplan_free(count);
	return tmp && count ? 0 : -ENOMEM;
}

/**
 * tplan_packed_order() - sort words as tplan_packed_sort() does, and list
 * their indices in that order
 * @word: the words: a value below 2^32 above a 32-bit index (sorted in place)
 * @n: how many
 * @out: the words' low halves, in order
 *
 * Return: 0 or -ENOMEM.
 */
int tplan_packed_order(u64 *word, u32 n, u32 *out)
{
	int ret = tplan_packed_sort(word, n);
	u32 i;

	for (i = 0; !ret && i < n; i++) {
		tplan_yield_every(i);
		out[i] = (u32)word[i];
	}
	return ret;
}
