// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * placement.c - place tensors in a given order, each at the lowest aligned
 * offset that is free during its whole lifetime (greedy-size places by
 * size, strip by its own orders).
 *
 * Only tensors that overlap the new one in time can collide with it; the
 * interval index finds them, so placing one tensor costs in proportion to its
 * time-overlapping neighbours, not to the whole table.
 *
 * Pinned tensors stay where they are and are in place before any other;
 * then each hinted tensor, in the order, takes its hint if that collides
 * with nothing placed (and ends by the limit); then the rest.  A tensor
 * with gaps collides with a neighbour only where both are present at one
 * step in overlapping bytes (gaps.h).
 */
#include "core/gaps.h"
#include "placement.h"

/* Pairs of tensors overlapping in time, per tensor, above which to merge. */
#define PLACER_MERGED_PAIRS	16
/*
 * Work units per tensor and halving of a pass's set-up (its order's sort,
 * the timeline and lists behind it): without it a unit of greedy-size or
 * strip cost 30-60 ns on network tables of 10^5 tensors (docs/PLANNER.md,
 * "Work units").
 */
#define PLACER_PASS_WORK	4
/* Up to this many blocks a lowest fit does without sorting them. */
#define LOWEST_FIT_FEW		16
/*
 * Placements gathered at a time (run_queue()): 96 KiB, in the cache while
 * they are placed, where a queue of the whole pass was 24 bytes a tensor
 * of fresh memory.
 */
#define PLACER_QUEUE		4096u

static int cmp_block(const void *a, const void *b, const void *priv)
{
	const struct tplan_block *x = a, *y = b;
	int c = tplan_cmp_u64(x->lo, y->lo);

	return c ? c : tplan_cmp_u64(x->hi, y->hi);
}

/*
 * Sorted by lo (a lowest fit does not depend on the order of blocks that
 * share one).  A few dozen blocks, next to a long-lived tensor: an inline
 * Shell sort (Ciura's gaps) beats a call per comparison there; thousands
 * go to tplan_sort().
 */
static void sort_blocks(struct tplan_block *b, u32 count)
{
	static const u32 gaps[] = { 301, 132, 57, 23, 10, 4, 1 };
	struct tplan_block v;
	u32 g, h, i, j;

	if (count > 2048) {
		tplan_sort(b, count, sizeof(*b), cmp_block, NULL);
		return;
	}
	for (g = 0; g < ARRAY_SIZE(gaps); g++) {
		h = gaps[g];
		for (i = h; i < count; i++) {
			v = b[i];
			for (j = i; j >= h && b[j - h].lo > v.lo; j -= h)
				b[j] = b[j - h];
			b[j] = v;
		}
	}
}

/*
 * The lowest multiple of @align in none of a few blocks, as they come:
 * move the candidate past each block it is in until a whole round finds
 * none.  Each block moves it at most once (it only rises), so at most
 * @count rounds, and a handful of blocks seldom needs more than two:
 * cheaper than sorting them.
 */
static u64 lowest_fit_few(const struct tplan_block *b, u32 count, u64 align)
{
	u64 candidate = 0;
	u32 i = 0, clear = 0;

	while (clear < count) {
		if (b[i].lo <= candidate && candidate < b[i].hi) {
			candidate = tplan_align_up(b[i].hi, align);
			/* past 2^64: the room of pins and hints rules it out */
			if (candidate < b[i].hi)
				return candidate;
			clear = 0;
		}
		clear++;
		i = i + 1 < count ? i + 1 : 0;
	}
	return candidate;
}

/*
 * The lowest multiple of @align in no block (they may overlap each other;
 * they are sorted here when many).
 */
static u64 lowest_fit(struct tplan_block *blocks, u32 count, u64 align)
{
	u64 candidate = 0;
	u32 i;

	if (count <= LOWEST_FIT_FEW)
		return lowest_fit_few(blocks, count, align);
	sort_blocks(blocks, count);
	for (i = 0; i < count; i++) {
		if (tplan_align_up(candidate, align) < blocks[i].lo)
			break;
		if (blocks[i].hi > candidate)
			candidate = blocks[i].hi;
	}
	return tplan_align_up(candidate, align);
}

/*
 * Add the offsets at which @x would share a byte with @y (at its offset)
 * while bytes [xs->from, xs->to) of x and [ys->from, ys->to) of y are
 * present: x's byte a meets y's byte b when offset + a == y->offset + b.
 */
static void add_block(struct tplan_placer *p, u32 *count,
		      const struct tplan_seg *xs, const struct tplan_seg *ys,
		      u64 y_offset)
{
	u64 lo = y_offset + ys->from + 1, hi = y_offset + ys->to;

	if (xs->from >= xs->to || ys->from >= ys->to)
		return;
	lo = lo > xs->to ? lo - xs->to : 0;
	if (hi <= xs->from)
		return;
	hi -= xs->from;
	if (lo >= hi)
		return;
	p->blocks[*count].lo = lo;
	p->blocks[(*count)++].hi = hi;
}

/*
 * The blocks @y leaves @x, stretch against stretch of presence; returns
 * the stretches walked.  That walk, not the blocks it adds, is what a
 * tensor with many gaps costs each neighbour, so it is charged as work.
 */
static u64 add_blocks_gapped(struct tplan_placer *p, u32 *count,
			     const struct tplan_tensor *x,
			     const struct tplan_tensor *y)
{
	struct tplan_seg_iter ix, iy;
	struct tplan_seg xs, ys;
	u64 walked = 0;
	bool more;

	tplan_seg_begin(&ix, x, p->gaps);
	tplan_seg_begin(&iy, y, p->gaps);
	more = tplan_seg_next(&ix, &xs) && tplan_seg_next(&iy, &ys);
	while (more) {
		walked++;
		if (max(xs.lower, ys.lower) < min(xs.upper, ys.upper))
			add_block(p, count, &xs, &ys, y->offset);
		if (xs.upper <= ys.upper)
			more = tplan_seg_next(&ix, &xs);
		else
			more = tplan_seg_next(&iy, &ys);
	}
	return walked;
}

/*
 * Without gaps: a placed neighbour y forbids @x the offsets in
 * (y - x->size, y + y->size), read from the spans.  An unplaced one (a
 * span of no bytes) is written too and not counted: about half the
 * neighbours are unplaced, in no order a branch could predict (the blocks
 * have room for every neighbour).
 */
static u32 collect_spans(struct tplan_placer *s, u64 size, const u32 *nb,
			 u32 found)
{
	u32 i, count = 0;

	for (i = 0; i < found; i++) {
		const struct tplan_block *y = &s->span[nb[i]];

		s->blocks[count].lo = y->lo + 1 > size ? y->lo + 1 - size : 0;
		s->blocks[count].hi = y->hi;
		count += y->hi != 0;
	}
	return count;
}

/*
 * The offsets every placed neighbour of @x forbids it; returns
 * their number.  Without gaps a neighbour forbids one range.  With gaps it
 * may forbid one per pair of stretches; when the array would overflow, the
 * neighbour's whole range stands for them (more than it forbids: still
 * valid).  @walked grows by the stretches walked.
 */
static u32 collect_blocks(struct tplan_placer *s, const struct tplan_tensor *x,
			  const u32 *nb, u32 found, u64 *walked)
{
	u32 i, count = 0;

	if (s->block_cap == s->n)
		return collect_spans(s, x->size, nb, found);
	for (i = 0; i < found; i++) {
		const struct tplan_tensor *y = &s->t[nb[i]];

		if (!s->placed[nb[i]] || !y->size)
			continue;
		/* a pair gives at most one block fewer than its stretches */
		if ((x->gap_count || y->gap_count) &&
		    count + tplan_seg_count(x) + tplan_seg_count(y) - 1 +
		    (found - i - 1) <= s->block_cap) {
			*walked += add_blocks_gapped(s, &count, x, y);
			continue;
		}
		/* both whole: x may not start in (y - x->size, y + y->size) */
		s->blocks[count].lo = y->offset + 1 > x->size ?
				      y->offset + 1 - x->size : 0;
		s->blocks[count++].hi = y->offset + y->size;
	}
	return count;
}

/* The blocks around @x: from its neighbour list or the index, charged. */
static int blocks_of(struct tplan_placer *s, const struct tplan_tensor *x,
		     u32 *count, struct tplan_work *w)
{
	u64 visited = 0, walked = 0;
	const u32 *nb = s->neighbours;
	u32 found, idx = x - s->t;

	if (s->mode == TPLAN_PLACER_LISTS) {
		nb = &s->lists.list[s->lists.start[idx]];
		found = s->lists.start[idx + 1] - s->lists.start[idx];
		visited = found;
	} else {
		found = tplan_index_query(&s->ix, x->lower, x->upper,
					  s->neighbours, &visited);
	}
	*count = collect_blocks(s, x, nb, found, &walked);
	return tplan_work_charge(w, 1 + visited + walked + *count);
}

/* Where @x would go: as low as it fits among the placed tensors. */
static int find_lowest(struct tplan_placer *s, const struct tplan_tensor *x,
		       u32 idx, u64 *offset, struct tplan_work *w)
{
	u64 units;
	u32 count;
	int ret;

	if (s->mode == TPLAN_PLACER_MERGED) {
		units = tplan_occ_collect(&s->occ, idx);
		units += tplan_occ_lowest(&s->occ, 0, x->size, tplan_alignment(x),
					  offset);
		return tplan_work_charge(w, units);
	}
	ret = blocks_of(s, x, &count, w);
	*offset = lowest_fit(s->blocks, count, tplan_alignment(x));
	return ret;
}

/* @idx is placed at @offset: later tensors must avoid it. */
static int commit(struct tplan_placer *s, u32 idx, u64 offset,
		  struct tplan_work *w)
{
	struct tplan_tensor *x = &s->t[idx];
	u64 units = 1;
	int ret;

	x->offset = offset;
	s->placed[idx] = 1;
	if (x->size) {
		s->span[idx].lo = offset;
		s->span[idx].hi = offset + x->size;
	}
	if (s->mode != TPLAN_PLACER_MERGED || !x->size)
		return tplan_work_charge(w, units);
	ret = tplan_occ_add(&s->occ, idx, offset, offset + x->size, &units);
	return ret ? ret : tplan_work_charge(w, units);
}

static int place_one(struct tplan_placer *s, u32 idx, struct tplan_work *w)
{
	struct tplan_tensor *x = &s->t[idx];
	u64 offset = 0;	/* a tensor of no bytes collides with nothing */
	int ret = 0;

	if (x->size)
		ret = find_lowest(s, x, idx, &offset, w);
	return ret ? ret : commit(s, idx, offset, w);
}

/* Whether [@h, @h + @x->size) collides with nothing placed. */
static int hint_is_free(struct tplan_placer *s, const struct tplan_tensor *x,
			u32 idx, u64 h, bool *is_free, struct tplan_work *w)
{
	u32 count, i;
	int ret;

	if (s->mode == TPLAN_PLACER_MERGED) {
		ret = tplan_work_charge(w, tplan_occ_collect(&s->occ, idx) +
					   s->occ.query_count);
		*is_free = tplan_occ_is_free(&s->occ, h, x->size);
		return ret;
	}
	ret = blocks_of(s, x, &count, w);
	*is_free = true;
	for (i = 0; i < count; i++)
		if (s->blocks[i].lo <= h && h < s->blocks[i].hi)
			*is_free = false;
	return ret;
}

/* Place @x at its hint if it is aligned, within the limit and free. */
static int place_hint(struct tplan_placer *s, u32 idx, struct tplan_work *w)
{
	struct tplan_tensor *x = &s->t[idx];
	u64 h = x->hint;
	bool is_free;
	int ret;

	/* nor one too close to 2^64 to place every other tensor above */
	if ((h & (tplan_alignment(x) - 1)) ||
	    !tplan_ends_below_room(x, h, s->room) ||
	    (s->limit && (h > s->limit || x->size > s->limit - h)))
		return tplan_work_charge(w, 1);
	if (!x->size)
		return tplan_work_charge(w, 1);
	ret = hint_is_free(s, x, idx, h, &is_free, w);
	if (ret || !is_free)
		return ret;
	return commit(s, idx, h, w);
}

/* Pinned tensors first, where they are; then the hints that fit. */
static int place_constrained(struct tplan_placer *p, const u32 *order,
			     struct tplan_work *w)
{
	u32 i;
	int ret = 0;

	for (i = 0; i < p->n && !ret; i++) {
		if (p->t[i].flags & TPLAN_TENSOR_PINNED)
			ret = commit(p, i, p->t[i].offset, w);
	}
	for (i = 0; i < p->n && !ret; i++) {
		const struct tplan_tensor *x = &p->t[order[i]];

		if ((x->flags & TPLAN_TENSOR_HINT) && !p->placed[order[i]])
			ret = place_hint(p, order[i], w);
	}
	return ret;
}

/**
 * tplan_placer_free() - free what tplan_placer_init() allocated
 * @p: the placer
 */
void tplan_placer_free(struct tplan_placer *p)
{
	tplan_index_free(&p->ix);
	tplan_occ_free(&p->occ);
	tplan_neighbours_free(&p->lists);
	tplan_free(p->queue);
	p->queue = NULL;
	tplan_free(p->neighbours);
	tplan_free(p->blocks);
	tplan_free(p->placed);
	tplan_free(p->span);
}

/* Neighbour lists, and the queue a pass through them fills. */
static int use_lists(struct tplan_placer *p, const struct tplan_timeline *tl)
{
	p->mode = TPLAN_PLACER_LISTS;
	p->queue = tplan_alloc_array(min(p->n, PLACER_QUEUE), sizeof(*p->queue));
	if (!p->queue)
		return -ENOMEM;
	return tplan_neighbours_build(&p->lists, tl);
}

/**
 * tplan_placer_use() - how the placer finds a tensor's lowest fit
 * @p: the placer, with nothing placed
 * @mode: %TPLAN_PLACER_INDEX (the only one for a table with gaps),
 *        %TPLAN_PLACER_LISTS or %TPLAN_PLACER_MERGED
 *
 * Builds what @mode needs and frees what the others did.  Every mode gives
 * the same offsets; tplan_placer_init() picks the fastest.
 *
 * Return: 0, -ENOMEM, -E2BIG, or -EINVAL for a mode gaps do not allow.
 */
int tplan_placer_use(struct tplan_placer *p, enum tplan_placer_mode mode)
{
	struct tplan_timeline tl;
	int ret = 0;

	if (p->block_cap > p->n && mode != TPLAN_PLACER_INDEX)
		return -EINVAL;
	tplan_index_free(&p->ix);
	tplan_occ_free(&p->occ);
	tplan_neighbours_free(&p->lists);
	tplan_free(p->queue);
	p->queue = NULL;
	p->mode = mode;
	if (mode == TPLAN_PLACER_INDEX)
		return tplan_index_build(&p->ix, p->t, p->n);
	if (mode == TPLAN_PLACER_MERGED)
		return tplan_occ_init(&p->occ, p->t, p->n);
	ret = tplan_timeline_init(&tl, p->t, p->n);
	if (!ret) {
		ret = use_lists(p, &tl);
		tplan_timeline_free(&tl);
	}
	return ret;
}

/**
 * tplan_placer_lists_suffice() - whether a placer would use neighbour lists
 * @tl: the timeline of a table without gaps
 *
 * Return: true when few enough pairs of tensors meet in time that a
 * placement through lists costs less than through the merged occupancy.
 */
bool tplan_placer_lists_suffice(const struct tplan_timeline *tl)
{
	return tl->pairs <= (u64)tl->n * PLACER_MERGED_PAIRS;
}

/*
 * Neighbour lists or merged occupancy?  A lowest fit through the lists
 * costs the tensors alive at once (each list also costs 8 bytes a pair);
 * through the occupancy about 4 log2(sections) sets, each a cache miss or
 * more, and so does recording a placed tensor.  Measured (docs/PLANNER.md):
 * network tables, 5.5 pairs per tensor, are faster with lists; MiniMalloc's
 * A, 30 per tensor, and the training graphs, hundreds, merged.
 */
static int choose_mode(struct tplan_placer *p,
		       const struct tplan_timeline *given)
{
	struct tplan_timeline own = { 0 };
	const struct tplan_timeline *tl = given;
	int ret = 0;

	if (p->block_cap > p->n)
		return tplan_placer_use(p, TPLAN_PLACER_INDEX);
	if (!tl) {
		ret = tplan_timeline_init(&own, p->t, p->n);
		tl = &own;
	}
	if (ret)
		return ret;
	if (tl->pairs > (u64)p->n * PLACER_MERGED_PAIRS)
		ret = tplan_placer_use(p, TPLAN_PLACER_MERGED);
	else
		ret = use_lists(p, tl);
	tplan_timeline_free(&own);
	return ret;
}

/**
 * tplan_placer_init() - get ready to place a table, in any order, any times
 * @p: the placer
 * @t: the tensors, already checked (they must outlive the placer)
 * @n: how many
 * @gaps: their gaps (NULL when none has any)
 * @limit: the capacity hints must respect; 0 means none
 * @tl: the tensors' timeline, or NULL: built here if needed
 *
 * Return: 0, -ENOMEM, or -E2BIG when the gaps need too many blocks.
 */
int tplan_placer_init(struct tplan_placer *p, struct tplan_tensor *t, u32 n,
		      const struct tplan_gap *gaps, u64 limit,
		      const struct tplan_timeline *tl)
{
	u64 cap = n, extra = 0;
	u32 i;
	int ret;

	memset(p, 0, sizeof(*p));
	p->t = t;
	p->n = n;
	p->gaps = gaps;
	p->limit = limit;
	for (i = 0; i < n; i++) {
		/* room for every neighbour's stretches, twice */
		extra += 2 * (tplan_seg_count(&t[i]) - 1);
		p->constrained |= !!(t[i].flags &
			       (TPLAN_TENSOR_PINNED | TPLAN_TENSOR_HINT));
	}
	/* only hints are held to it */
	if (p->constrained)
		p->room = tplan_stack_room(t, n);
	if (extra)
		cap += n + extra;
	if (cap > 0xffffffffull)
		return -E2BIG;
	p->block_cap = cap;
	p->neighbours = tplan_alloc_array(n, sizeof(*p->neighbours));
	p->blocks = tplan_alloc_array(cap, sizeof(*p->blocks));
	p->placed = tplan_alloc_array(n, sizeof(*p->placed));
	p->span = tplan_alloc_array(n, sizeof(*p->span));
	if (!p->neighbours || !p->blocks || !p->placed || !p->span) {
		tplan_placer_free(p);
		return -ENOMEM;
	}
	tplan_zero(p->placed, n);
	tplan_zero(p->span, (size_t)n * sizeof(*p->span));
	ret = choose_mode(p, tl);
	if (ret)
		tplan_placer_free(p);
	return ret;
}

/**
 * tplan_placer_keep() - count a tensor as placed where it is
 * @p: the placer
 * @idx: the tensor, at its offset (which the placer does not check)
 * @w: the work meter
 *
 * Return: 0, -ENOMEM, or the work meter's -ETIMEDOUT / -EINTR.
 */
int tplan_placer_keep(struct tplan_placer *p, u32 idx, struct tplan_work *w)
{
	return commit(p, idx, p->t[idx].offset, w);
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
	struct tplan_tensor *x = &p->t[idx];
	u64 offset = 0;
	int ret = 0;

	if (x->size)
		ret = find_lowest(p, x, idx, &offset, w);
	if (ret)
		return ret;
	if (x->size && (offset > limit || x->size > limit - offset)) {
		x->offset = offset;
		return 0;
	}
	ret = commit(p, idx, offset, w);
	return ret ? ret : 1;
}

/*
 * Through the lists a pass places in three sweeps, the first two a chunk
 * of %PLACER_QUEUE placements at a time.  On a large table a placement
 * read in one go is a chain of cache misses (the tensor, its list's
 * bounds, the list, the neighbours' spans), so the first sweep gathers
 * what each placement reads of its tensor into the queue, in the pass's
 * order: reads that do not wait on each other, which the CPU overlaps.
 * The second places, reading the queue in order, the lists and the spans
 * (asked for a few placements ahead); the third writes the offsets, in
 * the table's order (docs/BENCHMARKS.md, "10^6 tensors").
 */
static void gather_queue(struct tplan_placer *p, const u32 *order, u32 len)
{
	const u32 ahead = 16;	/* 8 and 32 measured the same, within noise */
	const u32 *start = p->lists.start;
	u32 i;

	for (i = 0; i < len; i++) {
		const struct tplan_tensor *x = &p->t[order[i]];

		/* more misses in flight than the loop's own loads keep */
		if (i + ahead < len) {
			tplan_prefetch(&p->t[order[i + ahead]]);
			tplan_prefetch(&start[order[i + ahead]]);
		}

		p->queue[i].size = x->size;
		p->queue[i].align = tplan_alignment(x);
		p->queue[i].from = start[order[i]];
		p->queue[i].to = start[order[i] + 1];
	}
}

/*
 * The list @ahead placements on, and the spans of its neighbours half as
 * far, within the @len gathered: each has arrived when it is read.
 * Inlined: a function that only prefetches has no effect a compiler must
 * keep, so GCC drops calls to it.
 */
static __always_inline void prefetch_queued(const struct tplan_placer *p,
					    const u32 *order, u32 i, u32 len)
{
	const u32 ahead = 8, half = ahead / 2;
	const struct tplan_queued *q = p->queue;
	u32 k, end;

	if (i + ahead < len)
		tplan_prefetch(&p->lists.list[q[i + ahead].from]);
	if (i + half < len) {
		tplan_prefetch(&p->span[order[i + half]]);
		end = min(q[i + half].to, q[i + half].from + 16);
		for (k = q[i + half].from; k < end; k++)
			tplan_prefetch(&p->span[p->lists.list[k]]);
	}
}

/* place_one() from the queue: the same offset, charges and spans. */
static int place_queued(struct tplan_placer *p, u32 idx,
			const struct tplan_queued *q, struct tplan_work *w)
{
	u32 found = q->to - q->from, count;
	u64 offset;
	int ret;

	if (q->size) {
		count = collect_spans(p, q->size, &p->lists.list[q->from],
				      found);
		ret = tplan_work_charge(w, 1 + found + count);
		if (ret)
			return ret;
		offset = lowest_fit(p->blocks, count, q->align);
		p->span[idx].lo = offset;
		p->span[idx].hi = offset + q->size;
	} else {
		p->t[idx].offset = 0;
	}
	p->placed[idx] = 1;
	return tplan_work_charge(w, 1);
}

/* The placements order[0, @len) through the queue. */
static int place_chunk(struct tplan_placer *p, const u32 *order, u32 len,
		       struct tplan_work *w)
{
	u32 i;
	int ret = 0;

	gather_queue(p, order, len);
	for (i = 0; i < len && !ret; i++) {
		prefetch_queued(p, order, i, len);
		/* only pins and hints are placed before their turn */
		if (!p->constrained || !p->placed[order[i]])
			ret = place_queued(p, order[i], &p->queue[i], w);
	}
	return ret;
}

static int run_queue(struct tplan_placer *p, const u32 *order,
		     struct tplan_work *w)
{
	u32 i;
	int ret = 0;

	for (i = 0; i < p->n && !ret; i += PLACER_QUEUE)
		ret = place_chunk(p, order + i, min(p->n - i, PLACER_QUEUE), w);
	/* every tensor of bytes placed so far, stopped or not */
	for (i = 0; i < p->n; i++) {
		if (p->span[i].hi)
			p->t[i].offset = p->span[i].lo;
	}
	return ret;
}

/* A pass looks at its pace this often: at every sixteenth of the table. */
#define PLACER_PACE_CHECKS	16

/*
 * Whether a pass that began with @left units of the budget to go, and has
 * spent @spent of them on @done of @n tensors, would at that pace need more
 * than @left; asked only with w->stop_on_pace (greedy-size after a sweep
 * fit, whose plan stands: a pass the budget would cut off anyway is better
 * stopped now).  Greedy-size's tensors cost more as the memory fills, so
 * its first part's pace is the rest's at best.
 */
static bool pass_outruns_budget(const struct tplan_work *w, u64 left,
				u64 spent, u32 done, u32 n)
{
	return w->stop_on_pace && w->budget && done && spent / done > left / n;
}

/**
 * tplan_placer_run() - place every tensor, in @order
 * @p: the placer
 * @order: a permutation of the tensor indices
 * @w: the work meter
 *
 * Pinned tensors keep their offsets; hinted ones take their hints where
 * those fit, before the others are placed.  Through the merged occupancy,
 * with w->stop_on_pace, a pass whose pace says the budget cannot see it
 * through stops early (pass_outruns_budget()).
 *
 * Return: 0, or the work meter's -ETIMEDOUT / -EINTR.
 */
int tplan_placer_run(struct tplan_placer *p, const u32 *order,
		     struct tplan_work *w)
{
	u64 start = w->spent, left = w->budget - min(w->spent, w->budget);
	u32 i, every = max(p->n / PLACER_PACE_CHECKS, 1u);
	int ret = 0;

	/* the pass's order, sorted for it: about n log2(n) comparisons */
	ret = tplan_work_charge_ahead(w, PLACER_PASS_WORK * (u64)p->n *
					 tplan_bits(p->n));
	if (ret)
		return ret;
	tplan_zero(p->placed, p->n);
	tplan_zero(p->span, (size_t)p->n * sizeof(*p->span));
	if (p->mode == TPLAN_PLACER_MERGED)
		ret = tplan_work_charge(w, tplan_occ_reset(&p->occ));
	if (p->constrained && !ret)
		ret = place_constrained(p, order, w);
	if (ret)
		return ret;
	if (p->mode == TPLAN_PLACER_LISTS)
		return run_queue(p, order, w);
	for (i = 0; i < p->n && !ret; i++) {
		if (!(i % every) &&
		    pass_outruns_budget(w, left, w->spent - start, i, p->n))
			return -ETIMEDOUT;
		if (!p->placed[order[i]])
			ret = place_one(p, order[i], w);
	}
	return ret;
}
