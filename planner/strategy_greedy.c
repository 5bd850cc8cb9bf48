// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * strategy_greedy.c - greedy by size: the largest tensors first, each at the
 * lowest aligned offset that is free during its whole lifetime.
 *
 * Only tensors that overlap the new one in time can collide with it; the
 * interval index finds them, so placing one tensor costs in proportion to its
 * time-overlapping neighbours, not to the whole table.
 */
#include "interval_index.h"

/* A byte range [start, end) already taken by a placed tensor. */
struct tplan_block {
	u64 start;
	u64 end;
};

struct greedy_state {
	struct tplan_tensor *t;
	u32 n;
	struct tplan_interval_index ix;
	u32 *order;		/* placement order */
	u32 *neighbours;	/* answers of one index query */
	struct tplan_block *blocks;	/* the placed neighbours' byte ranges */
	u8 *placed;
};

/*
 * Largest first; among equals the earliest born, then table order.  (Of the
 * tie-breaks tried, this one reaches the lower bound on the most real
 * tables: docs/BENCHMARKS.md.)
 */
static int cmp_greedy_order(const void *a, const void *b, const void *priv)
{
	const struct tplan_tensor *t = priv;
	u32 ia = *(const u32 *)a, ib = *(const u32 *)b;
	int c = tplan_cmp_u64(t[ib].size, t[ia].size);

	if (!c)
		c = tplan_cmp_u64(t[ia].lower, t[ib].lower);
	return c ? c : tplan_cmp_u64(ia, ib);
}

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

static int place_one(struct greedy_state *s, u32 idx, struct tplan_work *w)
{
	struct tplan_tensor *x = &s->t[idx];
	u64 visited = 0;
	u32 found, count = 0, i;

	if (!x->size) {
		x->offset = 0;	/* takes no space, collides with nothing */
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

static void greedy_free(struct greedy_state *s)
{
	tplan_index_free(&s->ix);
	tplan_free(s->order);
	tplan_free(s->neighbours);
	tplan_free(s->blocks);
	tplan_free(s->placed);
}

static int greedy_alloc(struct greedy_state *s, struct tplan_tensor *t, u32 n)
{
	int ret;

	memset(s, 0, sizeof(*s));
	s->t = t;
	s->n = n;
	s->order = tplan_alloc_array(n, sizeof(*s->order));
	s->neighbours = tplan_alloc_array(n, sizeof(*s->neighbours));
	s->blocks = tplan_alloc_array(n, sizeof(*s->blocks));
	s->placed = tplan_alloc_array(n, sizeof(*s->placed));
	if (!s->order || !s->neighbours || !s->blocks || !s->placed) {
		greedy_free(s);
		return -ENOMEM;
	}
	ret = tplan_index_build(&s->ix, t, n);
	if (ret)
		greedy_free(s);
	return ret;
}

/**
 * tplan_place_greedy_size() - greedy-by-size placement
 * @t: the tensors, already checked; offsets are written
 * @n: how many
 * @w: the work meter
 *
 * Memory: 25 bytes per tensor (order 4, query answers 4, blocks 16, placed
 * flag 1) plus the interval index's 12.
 *
 * Return: 0, -ENOMEM, or the work meter's -ETIMEDOUT / -EINTR.
 */
int tplan_place_greedy_size(struct tplan_tensor *t, u32 n,
			    struct tplan_work *w)
{
	struct greedy_state s;
	u32 i;
	int ret;

	ret = greedy_alloc(&s, t, n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		s.order[i] = i;
		s.placed[i] = 0;
	}
	tplan_sort(s.order, n, sizeof(*s.order), cmp_greedy_order, t);
	for (i = 0; i < n && !ret; i++)
		ret = place_one(&s, s.order[i], w);
	greedy_free(&s);
	return ret;
}
