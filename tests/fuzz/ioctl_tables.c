// SPDX-License-Identifier: MIT
/*
 * ioctl_tables.c - descriptor tables: the buffers, a random valid table, the
 * three-tensor base a mutation starts from, strides and strategies.
 */
#include "ioctl_fuzz.h"

uint8_t *table;		/* TABLE_BYTES, then a PROT_NONE page */
uint8_t *argbuf;	/* ARG_BYTES, then a PROT_NONE page */

struct tplan_tensor_desc *desc(uint8_t *base, uint32_t stride, uint32_t i)
{
	return (struct tplan_tensor_desc *)(base + (size_t)i * stride);
}

uint64_t key_size(uint64_t key)
{
	return (key * 2654435761u) % 5 * 2048 + (key % 3) * 8;
}

uint64_t key_align(uint64_t key)
{
	return 1ULL << (key % 4 * 3);	/* 1, 8, 64, 512 */
}

/* A random valid table of 1..max_n tensors; returns the count. */
uint32_t gen_valid(uint8_t *base, uint32_t stride, const struct gen *o)
{
	uint32_t n = 1 + (uint32_t)rnd(o->max_n), i;
	uint32_t pools = dev_info.pool_count;

	memset(base, 0, (size_t)n * stride);
	for (i = 0; i < n; i++) {
		struct tplan_tensor_desc *d = desc(base, stride, i);
		unsigned int r = (unsigned int)rnd(100);

		d->id = i * 5 + 3;
		d->lower = rnd(16);
		d->upper = d->lower + 1 + rnd(8);
		if (r < 8)
			d->size = 0;
		else if (r < 60)
			d->size = 1 + rnd(4096);
		else if (r < 90)
			d->size = 1 + rnd(o->max_size / 4);
		else
			d->size = 1 + rnd(o->max_size);
		d->alignment = 1ULL << rnd(chance(90) ? 8 : 13);
		d->priority = (uint32_t)rnd(10);
		if (o->serial)
			d->model = (uint32_t)rnd(3);
		else if (chance(20))
			d->model = (uint32_t)rnd(2);
		if (o->kind == TIERED && chance(30))
			d->tiers = (uint32_t)(1 + rnd((1u << pools) - 1));
		else if (o->kind == PLAIN && chance(10))
			d->tiers = chance(50) ? 1 : 1 | (uint32_t)(rnd(1u << pools) & ((1u << pools) - 1));
		if (o->keys && chance(25)) {
			d->share_key = 1 + rnd(8);
			d->size = key_size(d->share_key);
			d->alignment = key_align(d->share_key);
			d->tiers = 0;
		}
		if (o->aliases && i && !d->share_key && chance(25)) {
			uint32_t j = (uint32_t)rnd(i);
			struct tplan_tensor_desc *own = desc(base, stride, j);

			if (!own->share_key && !(own->flags & TPLAN_TENSOR_HAS_ALIAS) &&
			    own->model == d->model) {
				d->flags = TPLAN_TENSOR_HAS_ALIAS;
				d->alias_of = own->id;
				d->size = rnd(own->size + 1);
				d->alignment = 1;
				d->alias_offset = rnd(own->size - d->size + 1);
				d->tiers = own->tiers;
			}
		}
		if (o->garbage_out) {
			d->offset = rnd64();
			d->pool = (uint32_t)rnd64();
			d->mmap_offset = rnd64();
		}
	}
	return n;
}

uint32_t pick_strategy(__u64 *budget, uint32_t n)
{
	uint32_t s = (uint32_t)rnd(5);

	if (s <= TPLAN_STRATEGY_ID_GREEDY_SIZE)
		*budget = chance(80) ? 0 : 100000 + rnd(1000000);
	else if (n <= 6 && chance(10))
		*budget = 0;
	else
		*budget = 1000 + rnd(60000);
	return s;
}
uint32_t random_stride(void)
{
	if (chance(70))
		return TPLAN_TENSOR_DESC_SIZE_VER1;
	if (chance(70))
		return TPLAN_TENSOR_DESC_SIZE_VER1 + 8 * (uint32_t)rnd(16);
	return TPLAN_TENSOR_DESC_SIZE_VER1 +
	       8 * (uint32_t)rnd((TPLAN_TENSOR_DESC_MAX_STRIDE - TPLAN_TENSOR_DESC_SIZE_VER1) / 8 + 1);
}

/* The base of a mutated table: three tensors, plain and valid. */
uint32_t base_table(uint8_t *base, uint32_t stride)
{
	static const struct tplan_tensor_desc good[3] = {
		{ .id = 1, .lower = 0, .upper = 2, .size = 4096, .alignment = 1 },
		{ .id = 2, .lower = 1, .upper = 3, .size = 1000, .alignment = 64 },
		{ .id = 3, .lower = 2, .upper = 4, .size = 4096, .alignment = 1 },
	};
	uint32_t i;

	memset(base, 0, 3 * (size_t)stride);
	for (i = 0; i < 3; i++)
		memcpy(desc(base, stride, i), &good[i], sizeof(good[i]));
	return 3;
}
