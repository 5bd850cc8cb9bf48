// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * strategy_sweep.c - a first plan in O(n log n) whatever the lifetimes: the
 * tensors in birth order, each put into a hole of the memory as it is at
 * its birth, as an allocator would at run time.
 */

/**
 * DOC: Sweep fit
 *
 * Greedy-size places a tensor against every tensor it meets in time, so its
 * cost grows with the tensors alive at once when their sizes do not stack
 * into merged ranges (random lifetimes and sizes: thousands of ranges per
 * set).  Sweep fit walks the timeline instead: a death frees its block
 * (merged with free neighbours), a birth takes a hole of the memory as it
 * is then.  A tensor placed at its birth collides with nothing born
 * earlier, and everything born later is placed around it: the plan is
 * valid by construction.
 *
 * The holes are kept as a segregated-fit allocator keeps them: a list per
 * size class (16 classes per power of two), a bitmap of the classes that
 * have holes, and the blocks in address order for merging.  A birth looks
 * at up to %SWEEP_TRIES holes of its size's class, then of each of the next
 * %SWEEP_TRIES classes with holes, and takes the lowest fitting hole of the
 * first class that has one; else the memory above everything.  Each event
 * is O(1) (bitmap scans of %SWEEP_WORDS words); the timeline's sorts
 * make the whole O(n log n), or O(n) for steps below 2^22.
 *
 * Pinned tensors keep their offsets and the memory the sweep hands out
 * starts where the highest of them ends (tplan_pins_top()), so that nothing
 * placed meets one.  A tensor with gaps is placed as if present for all of
 * its lifetime, and a hint is not looked at: the plan is valid, if higher
 * than one that used them, and greedy-size after it does.  Tables with few
 * tensors alive at once are left to greedy-size, which costs about as
 * little there (tplan_sweep_applies()).  Memory:
 * 4 bytes per tensor and 40 per block, at most two blocks per tensor alive
 * at once.  It spends no work units (its cost is the table's, bounded
 * before it starts) but stops for signals.
 */
#include "placement.h"

#define SWEEP_SL_BITS	4
#define SWEEP_SL	BIT(SWEEP_SL_BITS)
/* Sizes below 16 have a class each; above, 16 classes per power of two. */
#define SWEEP_BINS	((64 - SWEEP_SL_BITS + 1) * SWEEP_SL)
#define SWEEP_WORDS	((SWEEP_BINS + 63) / 64)
/* Holes looked at in a class, and classes looked at, before the top. */
#define SWEEP_TRIES	8
/* Events between two checks for a signal. */
#define SWEEP_CHECK	4096
#define SWEEP_NONE	(~0u)

/* A run of bytes, used or free; the blocks tile [0, top). */
struct sweep_block {
	u64 start;
	u64 len;
	u32 prev;		/* address order */
	u32 next;
	u32 fprev;		/* its class's list, when free */
	u32 fnext;
	u32 bin;		/* its class when free, else SWEEP_NONE */
	u32 pad;
};

struct sweep {
	struct sweep_block *b;
	u32 spare;		/* unused blocks, a list through next */
	u32 last;		/* the highest block, always used; or none */
	u64 top;		/* everything from here up is free */
	u32 head[SWEEP_BINS];
	u64 nonempty[SWEEP_WORDS];
	u32 *block_of;		/* tensor -> its block */
};

/* The class of a hole of @len bytes (non-zero): monotonic in @len. */
static u32 bin_of(u64 len)
{
	u32 fl = 63 - __builtin_clzll(len);

	if (fl < SWEEP_SL_BITS)
		return (u32)len;
	return (fl - SWEEP_SL_BITS + 1) * SWEEP_SL +
	       (u32)(len >> (fl - SWEEP_SL_BITS)) - SWEEP_SL;
}

/* The first class from @from up that has a hole, or SWEEP_NONE. */
static u32 next_bin(const struct sweep *s, u32 from)
{
	u32 w = from / 64;
	u64 bits;

	if (from >= SWEEP_BINS)
		return SWEEP_NONE;
	bits = s->nonempty[w] & (~0ull << (from % 64));
	while (!bits) {
		if (++w == SWEEP_WORDS)
			return SWEEP_NONE;
		bits = s->nonempty[w];
	}
	return w * 64 + __builtin_ctzll(bits);
}

static void hole_add(struct sweep *s, u32 i)
{
	struct sweep_block *h = &s->b[i];
	u32 k = bin_of(h->len);

	h->bin = k;
	h->fprev = SWEEP_NONE;
	h->fnext = s->head[k];
	if (h->fnext != SWEEP_NONE)
		s->b[h->fnext].fprev = i;
	s->head[k] = i;
	s->nonempty[k / 64] |= 1ull << (k % 64);
}

static void hole_remove(struct sweep *s, u32 i)
{
	struct sweep_block *h = &s->b[i];
	u32 k = h->bin;

	if (h->fprev != SWEEP_NONE)
		s->b[h->fprev].fnext = h->fnext;
	else
		s->head[k] = h->fnext;
	if (h->fnext != SWEEP_NONE)
		s->b[h->fnext].fprev = h->fprev;
	if (s->head[k] == SWEEP_NONE)
		s->nonempty[k / 64] &= ~(1ull << (k % 64));
	h->bin = SWEEP_NONE;
}

/* A block [start, start + len) linked in after @prev (SWEEP_NONE: first). */
static u32 block_new(struct sweep *s, u32 prev, u64 start, u64 len)
{
	u32 i = s->spare;
	struct sweep_block *x = &s->b[i];

	s->spare = x->next;
	x->start = start;
	x->len = len;
	x->bin = SWEEP_NONE;
	x->prev = prev;
	x->next = prev == SWEEP_NONE ? SWEEP_NONE : s->b[prev].next;
	if (prev != SWEEP_NONE)
		s->b[prev].next = i;
	if (x->next != SWEEP_NONE)
		s->b[x->next].prev = i;
	if (prev == s->last)
		s->last = i;
	return i;
}

static void block_drop(struct sweep *s, u32 i)
{
	struct sweep_block *x = &s->b[i];

	if (x->prev != SWEEP_NONE)
		s->b[x->prev].next = x->next;
	if (x->next != SWEEP_NONE)
		s->b[x->next].prev = x->prev;
	if (s->last == i)
		s->last = x->prev;
	x->next = s->spare;
	s->spare = i;
}

/* Where a tensor of @size and @align starts in hole @h, if it fits there. */
static bool hole_fits(const struct sweep_block *h, u64 size, u64 align,
		      u64 *at)
{
	u64 a = tplan_align_up(h->start, align);

	*at = a;
	return a >= h->start && a - h->start <= h->len &&
	       h->len - (a - h->start) >= size;
}

/* The lowest fitting hole among the first %SWEEP_TRIES of class @k. */
static u32 lowest_fit(const struct sweep *s, u32 k, u64 size, u64 align,
		      u64 *at)
{
	u32 i, tries = 0, best = SWEEP_NONE;
	u64 where;

	for (i = s->head[k]; i != SWEEP_NONE && tries < SWEEP_TRIES;
	     i = s->b[i].fnext, tries++) {
		if (!hole_fits(&s->b[i], size, align, &where))
			continue;
		if (best == SWEEP_NONE || where < *at) {
			best = i;
			*at = where;
		}
	}
	return best;
}

/*
 * A hole for @size bytes at @align, or SWEEP_NONE: in the size's own class
 * (whose holes may be too small), else in the first of the next
 * %SWEEP_TRIES classes with holes that has one (theirs are large enough,
 * but for the alignment).
 */
static u32 find_hole(const struct sweep *s, u64 size, u64 align, u64 *at)
{
	u32 own = bin_of(size), k = next_bin(s, own), classes = 0, best;

	if (k == own) {
		best = lowest_fit(s, k, size, align, at);
		if (best != SWEEP_NONE)
			return best;
		k = next_bin(s, k + 1);
	}
	for (; k != SWEEP_NONE && classes < SWEEP_TRIES;
	     k = next_bin(s, k + 1), classes++) {
		best = lowest_fit(s, k, size, align, at);
		if (best != SWEEP_NONE)
			return best;
	}
	return SWEEP_NONE;
}

/* Take [at, at + size) of hole @i; what is left of it stays free. */
static u32 take_hole(struct sweep *s, u32 i, u64 at, u64 size)
{
	struct sweep_block *h = &s->b[i];
	u64 end = h->start + h->len;
	u32 used;

	hole_remove(s, i);
	if (at > h->start) {
		h->len = at - h->start;
		hole_add(s, i);
		used = block_new(s, i, at, size);
	} else {
		h->len = size;
		used = i;
	}
	if (at + size < end)
		hole_add(s, block_new(s, used, at + size, end - at - size));
	return used;
}

/* Take [at, at + size) above everything, the bytes below @at a hole. */
static int take_top(struct sweep *s, u64 size, u64 align, u32 *used)
{
	u64 at = tplan_align_up(s->top, align), end;

	if (at < s->top || check_add_overflow(at, size, &end))
		return -EOVERFLOW;
	if (at > s->top)
		hole_add(s, block_new(s, s->last, s->top, at - s->top));
	*used = block_new(s, s->last, at, size);
	s->top = end;
	return 0;
}

/* Block @i is free again, merged with free neighbours (or the top). */
static void release(struct sweep *s, u32 i)
{
	struct sweep_block *x = &s->b[i];
	u32 nb = x->prev;

	if (nb != SWEEP_NONE && s->b[nb].bin != SWEEP_NONE) {
		hole_remove(s, nb);
		s->b[nb].len += x->len;
		block_drop(s, i);
		i = nb;
		x = &s->b[i];
	}
	nb = x->next;
	if (nb != SWEEP_NONE && s->b[nb].bin != SWEEP_NONE) {
		hole_remove(s, nb);
		x->len += s->b[nb].len;
		block_drop(s, nb);
	}
	if (x->next == SWEEP_NONE) {
		s->top = x->start;	/* the highest block: back to the top */
		block_drop(s, i);
		return;
	}
	hole_add(s, i);
}

static int place_one(struct sweep *s, struct tplan_tensor *x, u32 idx)
{
	u64 align = tplan_alignment(x), at = 0;
	u32 i;
	int ret = 0;

	/* a pin keeps its offset, below the sweep's memory */
	s->block_of[idx] = SWEEP_NONE;
	if (x->flags & TPLAN_TENSOR_PINNED)
		return 0;
	if (!x->size) {
		x->offset = 0;
		return 0;
	}
	i = find_hole(s, x->size, align, &at);
	if (i != SWEEP_NONE)
		i = take_hole(s, i, at, x->size);
	else
		ret = take_top(s, x->size, align, &i);
	if (ret)
		return ret;
	x->offset = s->b[i].start;
	s->block_of[idx] = i;
	return 0;
}

/* Most tensors alive at one step: each holds a block and may split a hole. */
static u32 most_alive(const struct tplan_timeline *tl)
{
	u32 b, d = 0, alive = 0, most = 0;

	for (b = 0; b < tl->n; b++) {
		u64 step = tl->t[tl->born[b]].lower;

		tplan_yield_every(b);
		while (d < tl->n && tl->t[tl->dead[d]].upper <= step) {
			tplan_yield_every(++d);
			alive--;
		}
		most = max(most, ++alive);
	}
	return most;
}

static int sweep_init(struct sweep *s, const struct tplan_timeline *tl)
{
	u64 blocks = 2 * (u64)most_alive(tl) + 2;
	u32 cap, i;

	if (blocks >= SWEEP_NONE)
		return -E2BIG;	/* block numbers are u32 */
	cap = (u32)blocks;
	s->b = tplan_alloc_array(cap, sizeof(*s->b));
	s->block_of = tplan_alloc_array(tl->n, sizeof(*s->block_of));
	if (!s->b || !s->block_of)
		return -ENOMEM;
	for (i = 0; i < cap; i++) {
		tplan_yield_every(i);
		s->b[i].next = i + 1 < cap ? i + 1 : SWEEP_NONE;
	}
	s->spare = 0;
	s->last = SWEEP_NONE;
	for (i = 0; i < SWEEP_BINS; i++)
		s->head[i] = SWEEP_NONE;
	return 0;
}

/* Deaths up to each birth's step free their blocks; the birth is placed. */
static int sweep_run(struct sweep *s, struct tplan_tensor *t,
		     const struct tplan_timeline *tl)
{
	u32 b, d = 0;
	int ret;

	for (b = 0; b < tl->n; b++) {
		u32 x = tl->born[b];

		if (!(b % SWEEP_CHECK) && tplan_should_stop())
			return -EINTR;
		for (; d < tl->n && t[tl->dead[d]].upper <= t[x].lower; d++) {
			tplan_yield_every(d);	/* many may die at one step */
			if (s->block_of[tl->dead[d]] != SWEEP_NONE)
				release(s, s->block_of[tl->dead[d]]);
		}
		ret = place_one(s, &t[x], x);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * tplan_sweep_applies() - whether sweep fit should give a table its first
 * plan
 * @tl: the table's timeline
 *
 * Return: true when a greedy placement would need the merged occupancy
 * (its costly case: with few tensors alive at once it is about as fast as
 * a sweep), whatever the pins, hints and gaps.
 */
bool tplan_sweep_applies(const struct tplan_timeline *tl)
{
	return !tplan_placer_lists_suffice(tl);
}

/**
 * tplan_place_sweep() - sweep fit: a first plan in O(n log n)
 * @t: the tensors, already checked (pins included); offsets written but
 *     for the pinned tensors'
 * @n: how many
 * @tl: their timeline
 *
 * Return: 0, -ENOMEM, -EINTR, -EOVERFLOW past 2^64 bytes, or -E2BIG for
 * more than 2^31 tensors alive at once.
 */
int tplan_place_sweep(struct tplan_tensor *t, u32 n,
		      const struct tplan_timeline *tl)
{
	struct sweep *s = tplan_alloc_array(1, sizeof(*s));
	int ret = s ? 0 : -ENOMEM;

	if (!ret) {
		memset(s, 0, sizeof(*s));
		ret = sweep_init(s, tl);
	}
	if (!ret) {
		/* pins end below 2^64 - 1 - stack room: no top above overflows */
		s->top = tplan_pins_top(t, n);
		ret = sweep_run(s, t, tl);
	}
	if (s) {
		tplan_free(s->b);
		tplan_free(s->block_of);
	}
	tplan_free(s);
	return ret;
}
