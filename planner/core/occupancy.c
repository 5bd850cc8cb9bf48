// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * occupancy.c - the lowest free offset over a lifetime, without visiting
 * every tensor alive then.
 *
 * Time is cut into sections at every lifetime end; a segment tree over the
 * sections (the bottom-up kind: leaves at sections..2 sections - 1, node
 * v's parent v / 2) keeps, per node, two sets of merged byte ranges: cover,
 * the tensors the node is a canonical part of, and below, those of its
 * whole subtree.  The bytes taken during a span are the union of below of
 * its canonical nodes and cover of their ancestors: some 2 log2(sections)
 * sets, each already merged, so that a stack of tensors alive at once is
 * one range, not one per tensor.  A leaf has nothing below it: its cover
 * stands for both.
 *
 * The lowest fit walks the sets in turn, each lifting the candidate offset
 * past its ranges that collide, until every set agrees; a walk that needs
 * more than TPLAN_OCC_PROBE_CAP probes gives up and answers the top of the
 * sets instead (still free); a set of TPLAN_OCC_SET_CAP ranges takes a new
 * one only after closing its smallest hole.  Both only ever make a fit
 * higher than the lowest, never wrong; no bench table comes near either.
 * Sets are sorted arrays in one pool, in chunks
 * of 4 << k ranges; a chunk outgrown goes back to a free list of its class.
 * Nothing recurses; the pool grows by doubling.
 */
#include "occupancy.h"

#define NONE		(~(u32)0)
/* Canonical nodes, and ancestors, of a span: two per level at most. */
#define OCC_SPAN_NODES	64
#define OCC_QUERY_MAX	(2 * OCC_SPAN_NODES)

static int cmp_u64(const void *a, const void *b, const void *priv)
{
	return tplan_cmp_u64(*(const u64 *)a, *(const u64 *)b);
}

/* The index of the first entry of @e[0, count) not below @v. */
static u32 lower_index(const u64 *e, u32 count, u64 v)
{
	u32 lo = 0, hi = count;

	while (lo < hi) {
		u32 m = lo + (hi - lo) / 2;

		if (e[m] < v)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

/* Every tensor's sections, from the sorted distinct lifetime ends. */
static int compute_spans(struct tplan_occupancy *o,
			 const struct tplan_tensor *t, u32 n)
{
	u64 *ends = tplan_alloc_array(2 * (size_t)n, sizeof(*ends));
	u32 i, count = 0;

	if (!ends)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		ends[2 * i] = t[i].lower;
		ends[2 * i + 1] = t[i].upper;
	}
	tplan_sort(ends, 2 * (size_t)n, sizeof(*ends), cmp_u64, NULL);
	for (i = 0; i < 2 * n; i++)
		if (!count || ends[count - 1] != ends[i])
			ends[count++] = ends[i];
	o->sections = count ? count - 1 : 0;
	for (i = 0; i < n; i++) {
		o->span[i].first = lower_index(ends, count, t[i].lower);
		o->span[i].end = lower_index(ends, count, t[i].upper);
	}
	tplan_free(ends);
	return 0;
}

/**
 * tplan_occ_free() - free what tplan_occ_init() allocated
 * @o: the occupancy
 */
void tplan_occ_free(struct tplan_occupancy *o)
{
	tplan_free(o->span);
	tplan_free(o->cover);
	tplan_free(o->below);
	tplan_free(o->stamp);
	tplan_free(o->pool);
	tplan_free(o->query);
	tplan_free(o->canon);
	tplan_free(o->free_head);
	memset(o, 0, sizeof(*o));
}

/**
 * tplan_occ_init() - an empty occupancy for a table's lifetimes
 * @o: the occupancy
 * @t: the tensors (only their lifetimes are read, now)
 * @n: how many
 *
 * Memory: 8 bytes per tensor, 40 per section (at most 2n - 1), and the
 * pool: 16 bytes per range, 16 per tensor to start with (about what the
 * bench's large tables use), doubled when full.
 *
 * Return: 0, -ENOMEM, or -E2BIG when the pool would need 2^32 ranges.
 */
int tplan_occ_init(struct tplan_occupancy *o, const struct tplan_tensor *t,
		   u32 n)
{
	size_t nodes;
	int ret;

	memset(o, 0, sizeof(*o));
	if ((u64)n * 16 + 64 > NONE)
		return -E2BIG;
	o->span = tplan_alloc_array(n, sizeof(*o->span));
	o->query = tplan_alloc_array(OCC_QUERY_MAX, sizeof(*o->query));
	o->canon = tplan_alloc_array(OCC_SPAN_NODES, sizeof(*o->canon));
	o->free_head = tplan_alloc_array(TPLAN_OCC_CLASSES,
					 sizeof(*o->free_head));
	if (!o->span || !o->query || !o->canon || !o->free_head)
		goto nomem;
	ret = compute_spans(o, t, n);
	if (ret)
		goto fail;
	nodes = 2 * (size_t)o->sections;
	o->cover = tplan_alloc_array(nodes, sizeof(*o->cover));
	o->below = tplan_alloc_array(nodes, sizeof(*o->below));
	o->stamp = tplan_alloc_array(nodes, sizeof(*o->stamp));
	o->pool_cap = n * 16 + 64;
	o->pool = tplan_alloc_array(o->pool_cap, sizeof(*o->pool));
	if (!o->cover || !o->below || !o->stamp || !o->pool)
		goto nomem;
	tplan_zero(o->stamp, nodes * sizeof(*o->stamp));
	tplan_occ_reset(o);
	return 0;
nomem:
	ret = -ENOMEM;
fail:
	tplan_occ_free(o);
	return ret;
}

/**
 * tplan_occ_reset() - forget every range added
 * @o: the occupancy
 *
 * Return: the work done, one unit per node.
 */
u64 tplan_occ_reset(struct tplan_occupancy *o)
{
	size_t nodes = 2 * (size_t)o->sections;
	u32 k;

	tplan_zero(o->cover, nodes * sizeof(*o->cover));
	tplan_zero(o->below, nodes * sizeof(*o->below));
	o->pool_used = 0;
	for (k = 0; k < TPLAN_OCC_CLASSES; k++)
		o->free_head[k] = NONE;
	return 1 + nodes;
}

/* The canonical nodes of @idx's span into o->canon; returns how many. */
static u32 canonical_nodes(struct tplan_occupancy *o, u32 idx)
{
	u32 l = o->span[idx].first + o->sections;
	u32 r = o->span[idx].end + o->sections;
	u32 count = 0;

	for (; l < r; l >>= 1, r >>= 1) {
		if (l & 1)
			o->canon[count++] = l++;
		if (r & 1)
			o->canon[count++] = --r;
	}
	return count;
}

/* The next walk's number; stamps are cleared when it wraps. */
static void next_walk(struct tplan_occupancy *o)
{
	if (++o->walk)
		return;
	tplan_zero(o->stamp, 2 * (size_t)o->sections * sizeof(*o->stamp));
	o->walk = 1;
}

static void query_add(struct tplan_occupancy *o, const struct tplan_occ_set *s)
{
	if (s->len)
		o->query[o->query_count++] = s;
}

/**
 * tplan_occ_collect() - gather the sets that hold what is taken during a
 * tensor's lifetime, for tplan_occ_lowest() and tplan_occ_is_free()
 * @o: the occupancy
 * @idx: the tensor
 *
 * Return: the work done, one unit per node visited.
 */
u64 tplan_occ_collect(struct tplan_occupancy *o, u32 idx)
{
	u32 count = canonical_nodes(o, idx), k, v;
	u64 work = 1;

	next_walk(o);
	o->query_count = 0;
	for (k = 0; k < count; k++) {
		v = o->canon[k];
		o->stamp[v] = o->walk;
		query_add(o, v < o->sections ? &o->below[v] : &o->cover[v]);
	}
	for (k = 0; k < count; k++) {
		for (v = o->canon[k] >> 1; v && o->stamp[v] != o->walk;
		     v >>= 1) {
			o->stamp[v] = o->walk;
			query_add(o, &o->cover[v]);
			work++;
		}
	}
	return work + count;
}

/* The index of @s's first range that ends above @y. */
static u32 first_above(const struct tplan_occupancy *o,
		       const struct tplan_occ_set *s, u64 y)
{
	const struct tplan_occ_range *r = &o->pool[s->start];
	u32 lo = 0, hi = s->len;

	while (lo < hi) {
		u32 m = lo + (hi - lo) / 2;

		if (r[m].hi > y)
			hi = m;
		else
			lo = m + 1;
	}
	return lo;
}

/* The top of the collected sets: free from there up. */
static u64 collected_top(const struct tplan_occupancy *o)
{
	u64 top = 0;
	u32 k;

	for (k = 0; k < o->query_count; k++) {
		const struct tplan_occ_set *s = o->query[k];

		top = max(top, o->pool[s->start + s->len - 1].hi);
	}
	return top;
}

/**
 * tplan_occ_lowest() - the lowest free offset in the collected sets
 * @o: the occupancy, after tplan_occ_collect()
 * @from: the offset to start from
 * @size: bytes needed, at least 1
 * @align: the offset's alignment, a power of two
 * @offset: set to the lowest multiple of @align, not below @from, where
 *          @size bytes are free; or, past TPLAN_OCC_PROBE_CAP probes, to
 *          the top of the sets (aligned)
 *
 * Return: the work done: a unit per probe and per halving of a set's
 * binary search (what dominates on sets of thousands of ranges).
 */
u64 tplan_occ_lowest(const struct tplan_occupancy *o, u64 from, u64 size,
		     u64 align, u64 *offset)
{
	u64 y = tplan_align_up(from, align), probes = 0, halvings = 0;
	u32 agree = 0, k = 0;

	while (agree < o->query_count) {
		const struct tplan_occ_set *s = o->query[k];
		const struct tplan_occ_range *r = &o->pool[s->start];
		u32 i = first_above(o, s, y);
		bool moved = false;

		halvings += tplan_bits(s->len);
		for (probes++; i < s->len && r[i].lo < y + size; i++) {
			y = tplan_align_up(r[i].hi, align);
			moved = true;
			probes++;
		}
		agree = moved ? 1 : agree + 1;
		k = k + 1 < o->query_count ? k + 1 : 0;
		if (probes > TPLAN_OCC_PROBE_CAP) {
			y = max(y, tplan_align_up(collected_top(o), align));
			break;
		}
	}
	*offset = y;
	return 1 + probes + halvings;
}

/**
 * tplan_occ_is_free() - whether bytes [@offset, @offset + @size) are free
 * in the collected sets
 * @o: the occupancy, after tplan_occ_collect()
 * @offset: the first byte
 * @size: how many, at least 1
 *
 * Return: true when none is taken.
 */
bool tplan_occ_is_free(const struct tplan_occupancy *o, u64 offset, u64 size)
{
	u32 k;

	for (k = 0; k < o->query_count; k++) {
		const struct tplan_occ_set *s = o->query[k];
		u32 i = first_above(o, s, offset);

		if (i < s->len && o->pool[s->start + i].lo < offset + size)
			return false;
	}
	return true;
}

/* The size class of a chunk for @len ranges: 4 << class entries. */
static u32 chunk_class(u32 len)
{
	u32 k = 0;

	while ((4u << k) < len)
		k++;
	return k;
}

/* Make room for @need more entries at the pool's end. */
static int pool_reserve(struct tplan_occupancy *o, u32 need)
{
	struct tplan_occ_range *pool;
	u64 cap = o->pool_cap;

	if ((u64)o->pool_used + need <= cap)
		return 0;
	while (cap < (u64)o->pool_used + need)
		cap *= 2;
	if (cap > NONE)
		return -E2BIG;
	pool = tplan_alloc_array(cap, sizeof(*pool));
	if (!pool)
		return -ENOMEM;
	tplan_copy(pool, o->pool, (size_t)o->pool_used * sizeof(*pool));
	tplan_free(o->pool);
	o->pool = pool;
	o->pool_cap = cap;
	return 0;
}

/* A chunk of class @k: a freed one, or a new one from the pool's end. */
static int chunk_get(struct tplan_occupancy *o, u32 k, u32 *start)
{
	int ret;

	if (o->free_head[k] != NONE) {
		*start = o->free_head[k];
		o->free_head[k] = o->pool[*start].lo;
		return 0;
	}
	ret = pool_reserve(o, 4u << k);
	if (ret)
		return ret;
	*start = o->pool_used;
	o->pool_used += 4u << k;
	return 0;
}

static void chunk_put(struct tplan_occupancy *o, u32 k, u32 start)
{
	o->pool[start].lo = o->free_head[k];
	o->free_head[k] = start;
}

/*
 * Room for one more range in @s: a set's chunk holds 4 << chunk_class(len)
 * ranges (a merge that shrank the set leaves a larger chunk: it is handed
 * back as the smaller class, its tail unused until the next reset).
 */
static int set_grow(struct tplan_occupancy *o, struct tplan_occ_set *s)
{
	u32 k = chunk_class(s->len), start;
	int ret;

	if (s->len && s->len < (4u << k))
		return 0;
	ret = chunk_get(o, s->len ? k + 1 : 0, &start);
	if (ret)
		return ret;
	if (s->len) {
		memcpy(&o->pool[start], &o->pool[s->start],
		       (size_t)s->len * sizeof(*o->pool));
		chunk_put(o, k, s->start);
	}
	s->start = start;
	return 0;
}

/*
 * @s is full (TPLAN_OCC_SET_CAP ranges): its smallest hole, the lowest of
 * those, counts as taken from now on, so that a hostile table cannot make
 * every insertion move an ever longer set.  Still free where it says so.
 */
static void close_smallest_hole(struct tplan_occupancy *o,
				struct tplan_occ_set *s, u64 *work)
{
	struct tplan_occ_range *r = &o->pool[s->start];
	u32 k, best = 0;

	for (k = 1; k + 1 < s->len; k++)
		if (r[k + 1].lo - r[k].hi < r[best + 1].lo - r[best].hi)
			best = k;
	r[best].hi = r[best + 1].hi;
	memmove(&r[best + 1], &r[best + 2],
		(size_t)(s->len - best - 2) * sizeof(*r));
	s->len--;
	*work += s->len / 8;
}

/*
 * Add [lo, hi) to @s, merged with the ranges it meets or touches; returns
 * the work done (the binary search's halvings, ranges merged, ranges
 * moved in units of 8), or an errno.
 */
static int set_add(struct tplan_occupancy *o, struct tplan_occ_set *s, u64 lo,
		   u64 hi, u64 *work)
{
	struct tplan_occ_range *r;
	u32 i, j;
	int ret;

again:
	/* the first range that ends at or above lo */
	i = s->len && lo ? first_above(o, s, lo - 1) : 0;
	*work += tplan_bits(s->len);
	r = &o->pool[s->start];
	for (j = i; j < s->len && r[j].lo <= hi; j++) {
		lo = min(lo, r[j].lo);
		hi = max(hi, r[j].hi);
	}
	if (j > i) {
		/* merged into r[i]: the ranges after the merged ones move up */
		r[i].lo = lo;
		r[i].hi = hi;
		*work += j - i;
		if (j == i + 1)
			return 0;
		*work += (s->len - j) / 8;
		memmove(&r[i + 1], &r[j], (size_t)(s->len - j) * sizeof(*r));
		s->len -= j - i - 1;
		return 0;
	}
	if (s->len >= TPLAN_OCC_SET_CAP) {
		/* the hole closed may be the one [lo, hi) is in: look again */
		close_smallest_hole(o, s, work);
		goto again;
	}
	*work += 1 + (s->len - i) / 8;
	ret = set_grow(o, s);
	if (ret)
		return ret;
	r = &o->pool[s->start];
	memmove(&r[i + 1], &r[i], (size_t)(s->len - i) * sizeof(*r));
	r[i].lo = lo;
	r[i].hi = hi;
	s->len++;
	return 0;
}

/**
 * tplan_occ_add() - take bytes [@lo, @hi) during a tensor's lifetime
 * @o: the occupancy
 * @idx: the tensor
 * @lo: its offset
 * @hi: its end, above @lo
 * @work: grows by the work done
 *
 * Return: 0, -ENOMEM, or -E2BIG when the pool would need 2^32 ranges.
 */
int tplan_occ_add(struct tplan_occupancy *o, u32 idx, u64 lo, u64 hi,
		  u64 *work)
{
	u32 count = canonical_nodes(o, idx), k, v;
	int ret = 0;

	next_walk(o);
	for (k = 0; k < count && !ret; k++) {
		v = o->canon[k];
		o->stamp[v] = o->walk;
		ret = set_add(o, &o->cover[v], lo, hi, work);
		if (!ret && v < o->sections)
			ret = set_add(o, &o->below[v], lo, hi, work);
	}
	for (k = 0; k < count && !ret; k++) {
		for (v = o->canon[k] >> 1; v && o->stamp[v] != o->walk && !ret;
		     v >>= 1) {
			o->stamp[v] = o->walk;
			ret = set_add(o, &o->below[v], lo, hi, work);
		}
	}
	return ret;
}
