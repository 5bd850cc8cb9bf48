// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * gaps.c - MiniMalloc's gaps: stretches of a lifetime when a tensor is
 * absent ("lower-upper") or only partly present ("lower-upper@from:to",
 * bytes [from, to) present).  Their rules, and the table of present
 * stretches that the lower bound and the validator measure.
 */
#include "gaps.h"
#include "key_sort.h"

/* One gap of tensor @x, after @prev (NULL for the first). */
static u32 gap_defect(const struct tplan_tensor *x, const struct tplan_gap *g,
		      const struct tplan_gap *prev)
{
	if ((g->flags & ~TPLAN_GAP_KNOWN_FLAGS) || g->pad)
		return TPLAN_DEFECT_GAP_WINDOW;
	if (g->lower >= g->upper || g->lower < x->lower || g->upper > x->upper)
		return TPLAN_DEFECT_GAP_OUTSIDE;
	if (prev && g->lower < prev->upper)
		return TPLAN_DEFECT_GAP_ORDER;
	if (!(g->flags & TPLAN_GAP_WINDOW))
		return g->from || g->to ? TPLAN_DEFECT_GAP_WINDOW :
					  TPLAN_DEFECT_NONE;
	if (g->from > g->to || g->to > x->size)
		return TPLAN_DEFECT_GAP_WINDOW;
	return TPLAN_DEFECT_NONE;
}

/**
 * tplan_check_gaps() - check every tensor's gaps
 * @t: the tensors, accepted by tplan_check_table()
 * @n: how many
 * @gaps: the gap array their gap_first and gap_count index (may be NULL)
 * @gap_count: entries in @gaps
 * @f: the first defect found (may be NULL): the tensor, twice
 *
 * Each tensor's gaps must lie in @gaps, be non-empty, inside its lifetime,
 * in time order without overlapping, and a window must lie inside its size.
 *
 * Return: 0 or -EINVAL.
 */
int tplan_check_gaps(const struct tplan_tensor *t, u32 n,
		     const struct tplan_gap *gaps, u32 gap_count,
		     struct tplan_finding *f)
{
	u32 i, k, kind;

	for (i = 0; i < n; i++) {
		const struct tplan_tensor *x = &t[i];

		if (!x->gap_count)
			continue;
		if (!gaps || x->gap_first > gap_count ||
		    x->gap_count > gap_count - x->gap_first)
			return tplan_defect(f, TPLAN_DEFECT_GAP_UNKNOWN, i, i);
		for (k = 0; k < x->gap_count; k++) {
			const struct tplan_gap *g = &gaps[x->gap_first + k];

			kind = gap_defect(x, g, k ? g - 1 : NULL);
			if (kind != TPLAN_DEFECT_NONE)
				return tplan_defect(f, kind, i, i);
		}
	}
	return 0;
}

/* Tensors between two preemption points of a walk over the pieces. */
#define TPLAN_PIECES_CHECK	64

/*
 * Stretches with bytes present, over the whole table, into @count; -EINTR
 * for a pending signal (a table of many tensors with gaps is a long walk).
 */
static int count_pieces(const struct tplan_tensor *t, u32 n,
			const struct tplan_gap *gaps, u64 *count)
{
	struct tplan_seg_iter it;
	struct tplan_seg s;
	u32 i;

	*count = 0;
	for (i = 0; i < n; i++) {
		if (!(i % TPLAN_PIECES_CHECK) && i && tplan_should_stop())
			return -EINTR;
		tplan_seg_begin(&it, &t[i], gaps);
		while (tplan_seg_next(&it, &s))
			*count += s.from < s.to;
	}
	return 0;
}

/**
 * tplan_gap_pieces() - the table as stretches of presence
 * @t: the tensors, their gaps accepted by tplan_check_gaps()
 * @n: how many
 * @gaps: their gaps
 * @pieces: out: one per stretch with bytes present (free with
 *          tplan_free())
 * @of: out: the tensor each piece comes from (free with tplan_free())
 * @count: out: how many pieces
 *
 * Two pieces collide exactly when their tensors are present at one step
 * in overlapping bytes, so the tools of gap-less tables (the lower bound,
 * the overlap sweep) measure a table with gaps through its pieces.
 *
 * Return: 0, -ENOMEM, -E2BIG past 2^32 - 1 pieces, or -EINTR for a pending
 * signal (kernel; the walk yields every %TPLAN_PIECES_CHECK tensors).
 */
int tplan_gap_pieces(const struct tplan_tensor *t, u32 n,
		     const struct tplan_gap *gaps, struct tplan_stretch **pieces,
		     u32 **of, u32 *count)
{
	struct tplan_seg_iter it;
	struct tplan_seg s;
	u32 i, k = 0;
	u64 total;
	int ret;

	*pieces = NULL;
	*of = NULL;
	*count = 0;
	ret = count_pieces(t, n, gaps, &total);
	if (ret)
		return ret;
	if (total > 0xffffffffull)
		return -E2BIG;
	*pieces = tplan_alloc_array(total, sizeof(**pieces));
	*of = tplan_alloc_array(total, sizeof(**of));
	if (!*pieces || !*of) {
		tplan_free(*pieces);
		tplan_free(*of);
		*pieces = NULL;
		*of = NULL;
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		if (!(i % TPLAN_PIECES_CHECK) && i && tplan_should_stop()) {
			tplan_free(*pieces);
			tplan_free(*of);
			*pieces = NULL;
			*of = NULL;
			return -EINTR;
		}
		tplan_seg_begin(&it, &t[i], gaps);
		while (tplan_seg_next(&it, &s)) {
			if (s.from >= s.to)
				continue;
			(*pieces)[k] = (struct tplan_stretch){ s.lower, s.upper,
				t[i].offset + s.from, s.to - s.from };
			(*of)[k++] = i;
		}
	}
	*count = k;
	return 0;
}

/*
 * The largest sum of bytes present at one step: the births in time order,
 * each after the deaths by its step (tplan_timeline_busiest(), on pieces).
 */
static int pieces_bound(const struct tplan_stretch *p, u32 count, u64 *bound)
{
	struct tplan_key *born = tplan_alloc_array(max(count, 1U), sizeof(*born));
	struct tplan_key *dead = tplan_alloc_array(max(count, 1U), sizeof(*dead));
	u64 live = 0;
	u32 i, j = 0;

	*bound = 0;
	if (!born || !dead) {
		tplan_free(born);
		tplan_free(dead);
		return -ENOMEM;
	}
	for (i = 0; i < count; i++) {
		tplan_yield_every(i);
		born[i] = (struct tplan_key){ p[i].lower, i, 0 };
		dead[i] = (struct tplan_key){ p[i].upper, i, 0 };
	}
	tplan_key_sort(born, count);
	tplan_key_sort(dead, count);
	for (i = 0; i < count; i++) {
		tplan_yield_every((u64)i + j);
		while (j < count && dead[j].value <= born[i].value)
			live -= p[dead[j++].idx].size;
		live += p[born[i].idx].size;
		*bound = max(*bound, live);
	}
	tplan_free(born);
	tplan_free(dead);
	return 0;
}

/**
 * tplan_lower_bound_gaps() - the lower bound of a table with gaps
 * @t: the tensors, their gaps accepted by tplan_check_gaps()
 * @n: how many
 * @gaps: their gaps (NULL: none)
 * @bound: the largest sum of bytes present at one step, or the largest
 *         size if that is more (a tensor needs its whole size somewhere)
 *
 * Without gaps, tplan_lower_bound().
 *
 * Return: 0, -ENOMEM, -E2BIG or -EINTR (as tplan_gap_pieces()).
 */
int tplan_lower_bound_gaps(const struct tplan_tensor *t, u32 n,
			   const struct tplan_gap *gaps, u64 *bound)
{
	struct tplan_stretch *pieces;
	u32 *of, count, i;
	int ret;

	for (i = 0; i < n && !t[i].gap_count; i++)
		;
	if (i == n)
		return tplan_lower_bound(t, n, bound);
	ret = tplan_gap_pieces(t, n, gaps, &pieces, &of, &count);
	if (ret)
		return ret;
	tplan_free(of);
	ret = pieces_bound(pieces, count, bound);
	for (i = 0; i < n && !ret; i++)
		*bound = max(*bound, t[i].size);
	tplan_free(pieces);
	return ret;
}
