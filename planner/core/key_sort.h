/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * key_sort.h - sorting tensor indices by a 64-bit key in linear time.
 */
#ifndef TPLAN_KEY_SORT_H
#define TPLAN_KEY_SORT_H

#include "internal.h"

/**
 * struct tplan_key - a tensor index and the value it is sorted by
 * @value: the key
 * @idx: the tensor's index
 * @pad: zero
 */
struct tplan_key {
	u64 value;
	u32 idx;
	u32 pad;
};

void tplan_key_sort(struct tplan_key *key, u32 n);
int tplan_u64_sort(u64 *v, u32 n);
void tplan_u64_heapsort(u64 *v, u32 n);
int tplan_packed_sort(u64 *v, u32 n);
int tplan_packed_order(u64 *word, u32 n, u32 *out);

#endif
