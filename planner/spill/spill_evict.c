// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * spill_evict.c - whom a spill plan moves out: a sweep over the points
 * that, wherever more bytes are needed than the room, marks gaps out until
 * the point fits.  Two choosers: the furthest next use first (the classic
 * eviction heuristic), and the default's cost per byte of excess covered,
 * followed by a pass that brings back what turned out not to be needed.
 * tplan_spill_evict() runs the chooser asked for: the sweep, ga's
 * assignment (spill_ga.c) or the exchanges (spill_improve.c); the moves
 * they all make on a choice are below them, in spill_choice.c.
 */
#include "spill.h"

/* Keep the active gaps that still cover @p and are in. */
static u32 compact(struct tplan_spill *s, u32 na, u32 p)
{
	u32 i, k = 0;

	for (i = 0; i < na; i++) {
		const struct tplan_spill_gap *g = &s->gap[s->active[i]];

		if (g->to > p && !g->out && s->t[g->tensor].size)
			s->active[k++] = s->active[i];
	}
	return k;
}

/* The furthest next use; then the larger; then table order. */
static u32 pick_furthest(struct tplan_spill *s, u32 na)
{
	u32 i, best = 0;

	for (i = 1; i < na; i++) {
		const struct tplan_spill_gap *a = &s->gap[s->active[i]];
		const struct tplan_spill_gap *b = &s->gap[s->active[best]];
		int c = tplan_cmp_u64(b->to, a->to);

		if (!c)
			c = tplan_cmp_u64(s->t[b->tensor].size,
					  s->t[a->tensor].size);
		if (c < 0 || (!c && s->active[i] < s->active[best]))
			best = i;
	}
	return best;
}

/*
 * The sweep: wherever a point needs more than @room, mark gaps covering it
 * out (by cost with %SPILL_CHOOSE_COST, else furthest) until it fits.  Gaps already out stay out.
 */
static int sweep(struct tplan_spill *s, u32 chooser, u64 room,
		 u32 *fail_point)
{
	u32 p, j = 0, na = 0, pick;
	int ret;

	for (p = 0; p < s->npt; p++) {
		while (j < s->ngap && s->gap[s->by_from[j]].from == p)
			s->active[na++] = s->by_from[j++];
		ret = tplan_work_charge(s->w, 1);
		if (ret)
			return ret;
		if (s->need[p] <= room)
			continue;
		ret = tplan_work_charge(s->w, na);
		if (ret)
			return ret;
		na = compact(s, na, p);
		while (s->need[p] > room) {
			struct tplan_spill_gap *g;

			if (!na) {
				*fail_point = p;
				return -ENOSPC;
			}
			if (chooser == SPILL_CHOOSE_COST) {
				ret = tplan_spill_pick_cost(s, na, p, room, &pick);
				if (ret)
					return ret;
			} else {
				pick = pick_furthest(s, na);
			}
			g = &s->gap[s->active[pick]];
			ret = tplan_work_charge(s->w, na + g->to - g->from);
			if (ret)
				return ret;
			tplan_spill_set_out(s, g, true);
			s->active[pick] = s->active[--na];
		}
	}
	return 0;
}

static void reset(struct tplan_spill *s)
{
	u32 p;

	for (p = 0; p < s->ngap; p++)
		s->gap[p].out = 0;
	for (p = 0; p < s->npt; p++)
		s->need[p] = s->base[p];
}

/*
 * The cost chooser and furthest-next-use, each followed by the pass
 * bringing back what fits; the one moving less (ties to the cost chooser)
 * is kept and improved by exchanges (spill_improve.c).
 */
static int evict_exchange(struct tplan_spill *s, u64 room, u32 *fail_point)
{
	u64 moved;
	u32 i;
	int ret;

	ret = sweep(s, SPILL_CHOOSE_COST, room, fail_point);
	if (!ret)
		ret = tplan_spill_prune(s, room);
	if (ret)
		return ret;
	moved = tplan_spill_moved(s);
	for (i = 0; i < s->ngap; i++)
		s->keep[i] = s->gap[i].out;
	reset(s);
	ret = sweep(s, SPILL_CHOOSE_FURTHEST, room, fail_point);
	if (!ret)
		ret = tplan_spill_prune(s, room);
	if (ret)
		return ret;
	if (moved <= tplan_spill_moved(s)) {
		reset(s);
		for (i = 0; i < s->ngap; i++)
			if (s->keep[i])
				tplan_spill_set_out(s, &s->gap[i], true);
	}
	return tplan_spill_improve(s, room);
}

/*
 * ga's assignment: evolved for the first room of a run; a repair's lower
 * room reuses it (the sweep after it covers the difference).
 */
static int evict_ga(struct tplan_spill *s, u64 room)
{
	u32 i;
	int ret;

	if (s->ga_ready) {
		for (i = 0; i < s->ngap; i++)
			if (s->ga_out[i])
				tplan_spill_set_out(s, &s->gap[i], true);
		return 0;
	}
	ret = tplan_spill_ga(s, room);
	if (ret)
		return ret;
	for (i = 0; i < s->ngap; i++)
		s->ga_out[i] = s->gap[i].out;
	s->ga_ready = true;
	return 0;
}

/**
 * tplan_spill_evict() - mark gaps out until every point needs at most @room
 * @s: the plan in the making; every gap is brought back in first
 * @chooser: an &enum tplan_spill_chooser value
 * @room: bytes that may be needed at any point
 * @fail_point: with -ENOSPC, a point whose used tensors alone exceed @room
 *
 * Return: 0, -ENOSPC, -ENOMEM, or the work meter's -ETIMEDOUT / -EINTR.
 */
int tplan_spill_evict(struct tplan_spill *s, u32 chooser, u64 room,
		      u32 *fail_point)
{
	int ret;

	reset(s);
	switch (chooser) {
	case SPILL_CHOOSE_EXCHANGE:
		return evict_exchange(s, room, fail_point);
	case SPILL_CHOOSE_GA:
		ret = evict_ga(s, room);
		if (!ret)
			ret = sweep(s, SPILL_CHOOSE_FURTHEST, room, fail_point);
		return ret ? ret : tplan_spill_prune(s, room);
	case SPILL_CHOOSE_FURTHEST:
		return sweep(s, chooser, room, fail_point);
	default:
		ret = sweep(s, chooser, room, fail_point);
		return ret ? ret : tplan_spill_prune(s, room);
	}
}

/**
 * tplan_spill_bound() - a lower bound on the bytes any spill plan moves
 * @s: the plan in the making (its @base)
 * @capacity: the device's bytes
 * @bound: the result
 *
 * At a point needing e bytes more than @capacity, tensors in their gaps
 * there are out, at least e bytes of them and at least the smallest such
 * tensor; each byte out goes out once and comes back once.
 *
 * Return: 0, or the work meter's -ETIMEDOUT / -EINTR.
 */
int tplan_spill_bound(struct tplan_spill *s, u64 capacity, u64 *bound)
{
	u32 p, i, j = 0, na = 0;
	u64 best = 0;
	int ret;

	for (p = 0; p < s->ngap; p++)
		s->gap[p].out = 0;
	for (p = 0; p < s->npt; p++) {
		u64 excess, least = TPLAN_U64_MAX;

		while (j < s->ngap && s->gap[s->by_from[j]].from == p)
			s->active[na++] = s->by_from[j++];
		if (s->base[p] <= capacity)
			continue;
		excess = s->base[p] - capacity;
		ret = tplan_work_charge(s->w, na + 1);
		if (ret)
			return ret;
		na = compact(s, na, p);
		for (i = 0; i < na; i++)
			least = min(least, s->t[s->gap[s->active[i]].tensor].size);
		if (na)
			excess = max(excess, least);
		best = max(best, excess);
	}
	*bound = best > TPLAN_U64_MAX / 2 ? TPLAN_U64_MAX : 2 * best;
	return 0;
}
