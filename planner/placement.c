// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * placement.c - place tensors in a given order, each at the lowest aligned
 * offset that is free during its whole lifetime (greedy-size places by
 * size, strip by its own orders).
 *
 * Only tensors that overlap the new one in time can collide with it; the
 * interval index finds them, so placing one tensor costs in proportion to its
 * time-overlapping neighbours, not to the whole table.
 */
#include "placement.h"

static int cmp_block(const void *a, const void *b, const void *priv)
{
	const struct tplan_block *x = a, *y = b;
	int c = tplan_cmp_u64(x->start, y->start);

	return c ? c : tplan_cmp_u64(x->end, y->end);
}

/*
 * The lowest offset, a multiple of @align, where @size bytes fit between
 * the blocks (sorted by start; they may overlap each other in address).
 */
static u64 lowest_fit(const struct tplan_block *blocks, u32 count, u64 size,
		      u64 align)
{
	u64 candidate = 0;
	u32 i;

	for (i = 0; i < count; i++) {
		if (tplan_align_up(candidate, align) + size <= blocks[i].start)
			break;
		if (blocks[i].end > candidate)
			candidate = blocks[i].end;
	}
	return tplan_align_up(candidate, align);
}

static int place_one(struct tplan_placer *s, u32 idx, struct tplan_work *w)
{
	struct tplan_tensor *x = &s->t[idx];
	u64 visited = 0;
	u32 found, count = 0, i;

	if (!x->size) {
		x->offset = 0;	/* takes no space, collides with nothing */
		s->placed[idx] = 1;
		return tplan_work_charge(w, 1);
	}
	found = tplan_index_query(&s->ix, x->lower, x->upper, s->neighbours,
				  &visited);
	for (i = 0; i < found; i++) {
		const struct tplan_tensor *y = &s->t[s->neighbours[i]];

		if (!s->placed[s->neighbours[i]] || !y->size)
			continue;
		s->blocks[count].start = y->offset;
		s->blocks[count++].end = y->offset + y->size;
	}
	tplan_sort(s->blocks, count, sizeof(*s->blocks), cmp_block, NULL);
	x->offset = lowest_fit(s->blocks, count, x->size, x->alignment);
	s->placed[idx] = 1;
	return tplan_work_charge(w, 1 + visited + count);
}

/**
 * tplan_placer_free() - free what tplan_placer_init() allocated
 * @p: the placer
 */
void tplan_placer_free(struct tplan_placer *p)
{
	tplan_index_free(&p->ix);
	tplan_free(p->neighbours);
	tplan_free(p->blocks);
	tplan_free(p->placed);
}

/**
 * tplan_placer_init() - get ready to place a table, in any order, any times
 * @p: the placer
 * @t: the tensors, already checked (they must outlive the placer)
 * @n: how many
 *
 * Return: 0 or -ENOMEM.
 */
int tplan_placer_init(struct tplan_placer *p, struct tplan_tensor *t, u32 n)
{
	int ret;

	memset(p, 0, sizeof(*p));
	p->t = t;
	p->n = n;
	p->neighbours = tplan_alloc_array(n, sizeof(*p->neighbours));
	p->blocks = tplan_alloc_array(n, sizeof(*p->blocks));
	p->placed = tplan_alloc_array(n, sizeof(*p->placed));
	if (!p->neighbours || !p->blocks || !p->placed) {
		tplan_placer_free(p);
		return -ENOMEM;
	}
	memset(p->placed, 0, n);
	ret = tplan_index_build(&p->ix, t, n);
	if (ret)
		tplan_placer_free(p);
	return ret;
}

/**
 * tplan_placer_try() - place one more tensor, as low as it fits, if it
 * then ends by @limit
 * @p: the placer; the tensors placed so far stay where they are
 * @idx: the tensor
 * @limit: the tensor must end at or below this
 * @w: the work meter
 *
 * Return: 1 when placed, 0 when it would end beyond @limit (it stays
 * unplaced), or the work meter's -ETIMEDOUT / -EINTR.
 */
int tplan_placer_try(struct tplan_placer *p, u32 idx, u64 limit,
		     struct tplan_work *w)
{
	const struct tplan_tensor *x = &p->t[idx];
	int ret = place_one(p, idx, w);

	if (ret)
		return ret;
	if (x->size && (x->offset > limit || x->size > limit - x->offset)) {
		p->placed[idx] = 0;
		return 0;
	}
	return 1;
}

/**
 * tplan_placer_run() - place every tensor, in @order
 * @p: the placer
 * @order: a permutation of the tensor indices
 * @w: the work meter
 *
 * Return: 0, or the work meter's -ETIMEDOUT / -EINTR.
 */
int tplan_placer_run(struct tplan_placer *p, const u32 *order,
		     struct tplan_work *w)
{
	u32 i;
	int ret = 0;

	memset(p->placed, 0, p->n);
	for (i = 0; i < p->n && !ret; i++)
		ret = place_one(p, order[i], w);
	return ret;
}
