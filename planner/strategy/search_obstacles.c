// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * search_obstacles.c - pinned tensors and gaps in strategy search.
 *
 * The search (strategy_search.c) keeps one floor per section: every byte
 * at or above it is free.  Gaps and pins keep that rule true this way:
 *
 * - Sections are also cut at every gap's ends, so each tensor to place is,
 *   in each section, either whole, absent, or present through a window.
 *   Its footprint there is bytes [0, top) above its offset: its size, 0
 *   when absent, the window's end for a window.  Placing it at a floor h
 *   raises each of its sections to h + top; where it is absent the floor
 *   stays h and others may use its bytes.  The bytes of a window below its
 *   start count as taken (the search does not lend them), and the slack
 *   counts footprints, so it stays exact for what the search can build.
 * - A pinned tensor is an obstacle: its present pieces are rectangles
 *   (sections x bytes) that are never moved.  No floor ever lies strictly
 *   inside one: a floor that reaches a rectangle's bottom jumps to its top
 *   (absorb), a tensor is placed only where its footprint misses every
 *   rectangle above the floor (collides), and a raise stops at the lowest
 *   rectangle bottom above the floor (cap).  The pinned bytes count as
 *   taken in the slack from the start, so absorbing one wastes nothing.
 *
 * Every plan the search then builds is valid, but not every plan can be
 * built: a tensor rests at one floor over its whole lifetime, absent
 * sections included, and a window's low bytes are never lent.  So with
 * pins or gaps the search never claims that no plan exists.
 *
 * Lending bytes also lets tensors drop into gaps, so a plan that leaves a
 * gap empty is not settled and often not found; every other round is
 * therefore blind to the gaps (every tensor, pinned ones too, whole from
 * lower to upper: more than present, so still valid).  Each way of seeing
 * has its own tree; the search ends when both are searched through.
 *
 * Hints are not read here: the search takes no preferred offset (its plan
 * replaces greedy's, which honours hints, only when it is lower).
 *
 * Each call adds what it scanned to @work; the search charges it.
 */
#include "core/gaps.h"
#include "search_obstacles.h"

static bool pinned(const struct tplan_tensor *x)
{
	return x->flags & TPLAN_TENSOR_PINNED;
}

/**
 * tplan_sfx_needed() - whether search must see pins or gaps in a table
 * @t: the tensors
 * @n: how many
 *
 * Return: true if some tensor is pinned or has a gap.
 */
bool tplan_sfx_needed(const struct tplan_tensor *t, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (pinned(&t[i]) || t[i].gap_count)
			return true;
	return false;
}

/**
 * tplan_sfx_free() - free what tplan_sfx_alloc() allocated
 * @fx: the pins and gaps
 */
void tplan_sfx_free(struct tplan_sfx *fx)
{
	tplan_free(fx->seg_start);
	tplan_free(fx->seg);
	tplan_free(fx->rect);
}

/**
 * tplan_sfx_alloc() - room for the stretches and rectangles of a table
 * @fx: the pins and gaps, to fill
 * @t: the tensors, checked (pins and gaps included)
 * @n: how many
 * @gaps: their gaps (NULL: none)
 *
 * Memory: 28 bytes per tensor and 48 per gap.  The search binds its arrays
 * (@floor, @slack, ...) afterwards.
 *
 * Return: 0, -ENOMEM, or -E2BIG past 2^32 - 1 stretches.
 */
int tplan_sfx_alloc(struct tplan_sfx *fx, struct tplan_tensor *t, u32 n,
		    const struct tplan_gap *gaps)
{
	u64 cap = 0;
	u32 i;

	memset(fx, 0, sizeof(*fx));
	fx->t = t;
	fx->n = n;
	fx->gaps = gaps;
	for (i = 0; i < n; i++) {
		if (t[i].size)
			cap += tplan_seg_count(&t[i]);
		fx->has_gaps |= t[i].size && t[i].gap_count;
	}
	if (cap > 0xffffffffull)
		return -E2BIG;
	fx->seg_cap = cap;
	fx->seg_start = tplan_alloc_array((size_t)n + 1,
					  sizeof(*fx->seg_start));
	fx->seg = tplan_alloc_array(cap + 1, sizeof(*fx->seg));
	fx->rect = tplan_alloc_array(cap + 1, sizeof(*fx->rect));
	if (!fx->seg_start || !fx->seg || !fx->rect) {
		tplan_sfx_free(fx);
		return -ENOMEM;
	}
	return 0;
}

/**
 * tplan_sfx_extra_cuts() - cuts the gaps add to the sections' ends
 * @fx: the pins and gaps
 *
 * Return: two per gap of a non-empty tensor.
 */
u64 tplan_sfx_extra_cuts(const struct tplan_sfx *fx)
{
	u64 count = 0;
	u32 i;

	for (i = 0; i < fx->n; i++)
		if (fx->t[i].size)
			count += 2 * (u64)fx->t[i].gap_count;
	return count;
}

/**
 * tplan_sfx_add_cuts() - add the gaps' ends to the cuts
 * @fx: the pins and gaps
 * @cut: the cuts, with room for tplan_sfx_extra_cuts() more
 * @k: cuts already there
 *
 * Return: cuts there now (unsorted).
 */
u32 tplan_sfx_add_cuts(const struct tplan_sfx *fx, u64 *cut, u32 k)
{
	u32 i, g;

	for (i = 0; i < fx->n; i++) {
		const struct tplan_tensor *x = &fx->t[i];

		if (!x->size)
			continue;
		for (g = 0; g < x->gap_count; g++) {
			cut[k++] = fx->gaps[x->gap_first + g].lower;
			cut[k++] = fx->gaps[x->gap_first + g].upper;
		}
	}
	return k;
}

/**
 * tplan_sfx_pins_fit() - whether every pinned tensor ends within a capacity
 * @fx: the pins and gaps
 * @capacity: the capacity searched for
 *
 * Return: false when a pin alone ends (or, empty, lies) above @capacity.
 */
bool tplan_sfx_pins_fit(const struct tplan_sfx *fx, u64 capacity)
{
	u32 i;

	for (i = 0; i < fx->n; i++) {
		const struct tplan_tensor *x = &fx->t[i];

		/* an empty one too: the validator wants its offset within */
		if (pinned(x) &&
		    (x->offset > capacity || x->size > capacity - x->offset))
			return false;
	}
	return true;
}

/* The index of @v among the @sections + 1 sorted cuts (present). */
static u32 cut_index(const u64 *cut, u32 sections, u64 v)
{
	u32 lo = 0, hi = sections + 1;

	while (hi - lo > 1) {
		u32 mid = lo + (hi - lo) / 2;

		if (cut[mid] <= v)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static int cmp_rect(const void *a, const void *b, const void *priv)
{
	const struct tplan_sfx_rect *x = a, *y = b;
	int c = tplan_cmp_u64(x->lo, y->lo);

	return c ? c : tplan_cmp_u64(x->first, y->first);
}

/*
 * Tensor @i's stretches in section indices (time order, or backwards when
 * @mirror): as footprints when it is to be placed, as rectangles when
 * pinned.
 */
static void stretches(struct tplan_sfx *fx, u32 i, const u64 *cut,
		      u32 sections, bool mirror, u32 *k)
{
	const struct tplan_tensor *x = &fx->t[i];
	struct tplan_seg_iter it;
	struct tplan_seg sg;
	u32 a, b, start = *k, lo, hi;

	tplan_seg_begin(&it, x, fx->gaps);
	it.k = fx->blind ? x->gap_count : 0;	/* blind: one whole stretch */
	while (tplan_seg_next(&it, &sg)) {
		a = cut_index(cut, sections, sg.lower);
		b = cut_index(cut, sections, sg.upper);
		if (mirror) {
			u32 a0 = a;

			a = sections - b;
			b = sections - a0;
		}
		fx->work++;
		if (pinned(x)) {
			if (sg.from >= sg.to)
				continue;
			fx->rect[fx->rects].first = a;
			fx->rect[fx->rects].end = b;
			fx->rect[fx->rects].lo = x->offset + sg.from;
			fx->rect[fx->rects++].hi = x->offset + sg.to;
			continue;
		}
		fx->seg[*k].first = a;
		fx->seg[*k].end = b;
		fx->seg[(*k)++].top = sg.from < sg.to ? sg.to : 0;
	}
	/* mirrored: the stretches came last first */
	for (lo = start, hi = *k; mirror && hi - lo > 1; lo++, hi--) {
		struct tplan_sfx_seg tmp = fx->seg[lo];

		fx->seg[lo] = fx->seg[hi - 1];
		fx->seg[hi - 1] = tmp;
	}
}

/* The search's floors and slack from scratch, pins absorbed. */
static void init_floors(struct tplan_sfx *fx, u32 sections, u64 capacity)
{
	u32 i, j, k, r;

	for (j = 0; j < sections; j++) {
		fx->floor[j] = capacity;	/* nobody to place lives here */
		fx->slack[j] = 0;
	}
	for (i = 0; i < fx->n; i++) {
		if (fx->placed[i])
			continue;
		for (j = fx->first[i]; j < fx->end[i]; j++)
			fx->floor[j] = 0;
		for (k = fx->seg_start[i]; k < fx->seg_start[i + 1]; k++)
			for (j = fx->seg[k].first; j < fx->seg[k].end; j++)
				fx->slack[j] -= (s64)fx->seg[k].top;
		fx->work += fx->end[i] - fx->first[i];
	}
	for (r = 0; r < fx->rects; r++) {
		const struct tplan_sfx_rect *q = &fx->rect[r];

		for (j = q->first; j < q->end; j++)
			if (fx->floor[j] != capacity)
				fx->slack[j] -= (s64)(q->hi - q->lo);
		fx->work += q->end - q->first;
	}
	for (j = 0; j < sections; j++)
		fx->slack[j] += (s64)(capacity - fx->floor[j]);
	tplan_sfx_absorb(fx, 0, sections);
}

/**
 * tplan_sfx_round() - how round @round sees the gaps
 * @fx: the pins and gaps
 * @round: the search's round
 *
 * Return: false when that way of seeing was searched through already.
 */
bool tplan_sfx_round(struct tplan_sfx *fx, u32 round)
{
	fx->blind = fx->has_gaps && (round & 1);
	return !fx->done[fx->blind];
}

/**
 * tplan_sfx_tree_done() - a round searched its whole tree
 * @fx: the pins and gaps
 *
 * Return: 0 (no plan the search can build) when the other way of seeing
 * was searched through too, else -EAGAIN (the rounds go on).
 */
int tplan_sfx_tree_done(struct tplan_sfx *fx)
{
	fx->done[fx->blind] = true;
	return fx->done[0] && (fx->done[1] || !fx->has_gaps) ? 0 : -EAGAIN;
}

/**
 * tplan_sfx_init() - set a round of the search up with pins and gaps
 * @fx: the pins and gaps, bound to the search's arrays
 * @cut: the sorted, distinct cuts
 * @sections: how many sections they make
 * @mirror: the round runs time backwards
 * @capacity: the capacity searched for (every pin fits in it)
 * @unplaced: the search's count of tensors to place, pins taken out
 *
 * Called after the search set @first and @end of every non-empty tensor
 * and @placed of the empty ones: marks the pinned ones placed and
 * rewrites every floor and slack.
 */
void tplan_sfx_init(struct tplan_sfx *fx, const u64 *cut, u32 sections,
		    bool mirror, u64 capacity, u32 *unplaced)
{
	u32 i, k = 0;

	fx->rects = 0;
	for (i = 0; i < fx->n; i++) {
		fx->seg_start[i] = k;
		if (!fx->t[i].size)
			continue;
		if (pinned(&fx->t[i]) && !fx->placed[i]) {
			fx->placed[i] = 1;
			(*unplaced)--;
		}
		stretches(fx, i, cut, sections, mirror, &k);
	}
	fx->seg_start[fx->n] = k;
	tplan_sort(fx->rect, fx->rects, sizeof(*fx->rect), cmp_rect, NULL);
	fx->work += 2 * (u64)fx->rects;
	init_floors(fx, sections, capacity);
}

/**
 * tplan_sfx_collides() - whether tensor @i at @h would cross a pin
 * @fx: the pins and gaps
 * @i: a tensor to place, whose sections all have floor @h
 * @h: the height
 *
 * Return: true when its footprint meets a rectangle in some section.
 */
bool tplan_sfx_collides(struct tplan_sfx *fx, u32 i, u64 h)
{
	u64 top = h + fx->t[i].size;
	u32 r, k;

	for (r = 0; r < fx->rects && fx->rect[r].lo < top; r++) {
		const struct tplan_sfx_rect *q = &fx->rect[r];

		fx->work++;
		if (q->hi <= h || q->first >= fx->end[i] ||
		    q->end <= fx->first[i])
			continue;
		for (k = fx->seg_start[i]; k < fx->seg_start[i + 1]; k++) {
			const struct tplan_sfx_seg *sg = &fx->seg[k];

			fx->work++;
			if (q->first < sg->end && q->end > sg->first &&
			    q->lo < h + sg->top)
				return true;
		}
	}
	return false;
}

/**
 * tplan_sfx_cap() - how high sections [@lo, @hi) at @h may be raised
 * @fx: the pins and gaps
 * @lo: first section, every one at floor @h
 * @hi: one past the last
 * @h: their floor
 * @to: the height wanted
 *
 * Return: @to, or the lowest rectangle bottom above @h in those sections
 * if that is lower (a raise must not end inside a pin).
 */
u64 tplan_sfx_cap(struct tplan_sfx *fx, u32 lo, u32 hi, u64 h, u64 to)
{
	u32 r;

	for (r = 0; r < fx->rects && fx->rect[r].lo < to; r++) {
		const struct tplan_sfx_rect *q = &fx->rect[r];

		fx->work++;
		if (q->lo > h && q->first < hi && q->end > lo)
			return q->lo;
	}
	return to;
}

/**
 * tplan_sfx_first_top() - tensor @i's footprint in its first section
 * @fx: the pins and gaps
 * @i: a tensor to place
 *
 * Return: the bytes above its offset it takes there.
 */
u64 tplan_sfx_first_top(const struct tplan_sfx *fx, u32 i)
{
	return fx->seg[fx->seg_start[i]].top;
}

/**
 * tplan_sfx_absorb() - lift floors of [@lo, @hi) that reach a pin over it
 * @fx: the pins and gaps
 * @lo: first section
 * @hi: one past the last
 *
 * The rectangles come by bottom, so one pass climbs a stack of them.
 */
void tplan_sfx_absorb(struct tplan_sfx *fx, u32 lo, u32 hi)
{
	u32 r, j;

	for (r = 0; r < fx->rects; r++) {
		const struct tplan_sfx_rect *q = &fx->rect[r];
		u32 a = max(q->first, lo), b = min(q->end, hi);

		fx->work++;
		for (j = a; j < b; j++)
			if (fx->floor[j] == q->lo)
				fx->floor[j] = q->hi;
		fx->work += b > a ? b - a : 0;
	}
}

/**
 * tplan_sfx_set_placed() - the floors of tensor @i placed or taken away
 * @fx: the pins and gaps
 * @i: a tensor to place; its offset is the floor of all its sections
 * @on: placed (each section rises by its footprint, pins absorbed), or
 *      taken away (every section back to its offset)
 */
void tplan_sfx_set_placed(struct tplan_sfx *fx, u32 i, bool on)
{
	u64 h = fx->t[i].offset;
	u32 j, k;

	fx->work += fx->end[i] - fx->first[i];
	if (!on) {
		for (j = fx->first[i]; j < fx->end[i]; j++)
			fx->floor[j] = h;
		return;
	}
	for (k = fx->seg_start[i]; k < fx->seg_start[i + 1]; k++)
		for (j = fx->seg[k].first; j < fx->seg[k].end; j++)
			fx->floor[j] = h + fx->seg[k].top;
	if (fx->rects)
		tplan_sfx_absorb(fx, fx->first[i], fx->end[i]);
}

/* Add tensor @i's footprints to @fill, per section. */
static void fill_tensor(struct tplan_sfx *fx, u32 i, u64 *fill)
{
	u32 j, k;

	for (k = fx->seg_start[i]; k < fx->seg_start[i + 1]; k++)
		for (j = fx->seg[k].first; j < fx->seg[k].end; j++)
			fill[j] += fx->seg[k].top;
	fx->work += fx->end[i] - fx->first[i];
}

/**
 * tplan_sfx_fill() - the bytes that can still fill a valley, per section
 * @fx: the pins and gaps
 * @cand: the tensors starting in the valley (placed ones included)
 * @count: how many
 * @lo: first section of the valley, at floor @h
 * @hi: one past its last
 * @h: its floor
 * @top: the height it is to be filled to
 * @fill: bytes per section, rewritten for [@lo, @hi): the footprints of
 *        the tensors to place that live inside the valley, and the pinned
 *        bytes between @h and @top
 */
void tplan_sfx_fill(struct tplan_sfx *fx, const u32 *cand, u32 count, u32 lo,
		    u32 hi, u64 h, u64 top, u64 *fill)
{
	u32 r, j, k;

	for (j = lo; j < hi; j++)
		fill[j] = 0;
	for (k = 0; k < count; k++)
		if (!fx->placed[cand[k]] && fx->end[cand[k]] <= hi)
			fill_tensor(fx, cand[k], fill);
	fx->work += count + hi - lo;
	for (r = 0; r < fx->rects && fx->rect[r].lo < top; r++) {
		const struct tplan_sfx_rect *q = &fx->rect[r];
		u32 a = max(q->first, lo), b = min(q->end, hi);
		u64 bytes;

		fx->work++;
		if (q->hi <= h)
			continue;
		bytes = min(q->hi, top) - max(q->lo, h);
		for (j = a; j < b; j++)
			fill[j] += bytes;
		fx->work += b > a ? b - a : 0;
	}
}
