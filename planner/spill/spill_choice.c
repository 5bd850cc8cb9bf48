// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * spill_choice.c - the moves every way of choosing whom a spill plan moves
 * out makes on a choice: mark a gap out or back in, pick the gap covering
 * the most excess per byte, bring back what fits anyway, and count the
 * bytes moved.  The choosers (spill_evict.c's sweep, spill_ga.c's
 * evolution, spill_improve.c's exchanges) are above it; it calls none of
 * them.
 */
#include "spill.h"

/* a/b against c/d (b, d > 0) without overflow: a continued fraction. */
static int cmp_frac(u64 a, u64 b, u64 c, u64 d)
{
	int sign = 1;

	for (;;) {
		u64 qa = a / b, qc = c / d, ra, rc;

		if (qa != qc)
			return sign * (qa < qc ? -1 : 1);
		ra = a % b;
		rc = c % d;
		if (!ra || !rc)
			return sign * (ra ? 1 : rc ? -1 : 0);
		/* a/b = q + ra/b: compare b/ra and d/rc, reversed */
		a = b;
		b = ra;
		c = d;
		d = rc;
		sign = -sign;
	}
}

/* The excess at [@p, g->to) that moving @g out would cover. */
static u64 cover(const struct tplan_spill *s, const struct tplan_spill_gap *g,
		 u32 p, u64 room)
{
	u64 z = s->t[g->tensor].size, sum = 0;
	u32 q;

	for (q = p; q < g->to; q++)
		if (s->need[q] > room)
			sum += min(z, s->need[q] - room);
	return sum;
}

/*
 * Among @s->active[0..@na), all covering @p: the most excess covered per
 * byte moved; then the furthest next use, the smaller, table order.
 */
int tplan_spill_pick_cost(struct tplan_spill *s, u32 na, u32 p, u64 room,
			  u32 *pick)
{
	u64 best_cover = 0, best_size = 1;
	u32 i, best = 0;
	int ret;

	for (i = 0; i < na; i++) {
		const struct tplan_spill_gap *g = &s->gap[s->active[i]];
		u64 z = s->t[g->tensor].size, c = cover(s, g, p, room);
		int d;

		ret = tplan_work_charge(s->w, g->to - p + 1);
		if (ret)
			return ret;
		if (i) {
			const struct tplan_spill_gap *b = &s->gap[s->active[best]];

			d = cmp_frac(c, z, best_cover, best_size);
			if (!d)
				d = tplan_cmp_u64(g->to, b->to);
			if (!d)
				d = tplan_cmp_u64(best_size, z);
			if (d <= 0)
				continue;
		}
		best = i;
		best_cover = c;
		best_size = z;
	}
	*pick = best;
	return 0;
}

/* Mark @g out (or back in) and update the bytes needed over it. */
void tplan_spill_set_out(struct tplan_spill *s, struct tplan_spill_gap *g,
			 bool out)
{
	u64 z = s->t[g->tensor].size;
	u32 q;

	g->out = out;
	for (q = g->from; q < g->to; q++) {
		if (out)
			s->need[q] -= z;
		else
			s->need[q] += z;
	}
}

static int cmp_gap_size(const void *a, const void *b, const void *priv)
{
	const struct tplan_spill *s = priv;
	u32 ia = *(const u32 *)a, ib = *(const u32 *)b;
	int c = tplan_cmp_u64(s->t[s->gap[ib].tensor].size,
			      s->t[s->gap[ia].tensor].size);

	return c ? c : tplan_cmp_u64(ia, ib);
}

/* Bring back, largest first, every gap out whose bytes now fit anyway. */
int tplan_spill_prune(struct tplan_spill *s, u64 room)
{
	u32 i, k = 0, q;
	int ret;

	for (i = 0; i < s->ngap; i++)
		if (s->gap[i].out)
			s->active[k++] = i;
	tplan_sort(s->active, k, sizeof(*s->active), cmp_gap_size, s);
	for (i = 0; i < k; i++) {
		struct tplan_spill_gap *g = &s->gap[s->active[i]];
		u64 z = s->t[g->tensor].size;
		bool fits = true;

		ret = tplan_work_charge(s->w, g->to - g->from + 1);
		if (ret)
			return ret;
		for (q = g->from; q < g->to && fits; q++)
			fits = s->need[q] <= room && room - s->need[q] >= z;
		if (fits)
			tplan_spill_set_out(s, g, false);
	}
	return 0;
}

/* Bytes the gaps marked out move. */
u64 tplan_spill_moved(const struct tplan_spill *s)
{
	u64 moved = 0;
	u32 i;

	for (i = 0; i < s->ngap; i++)
		if (s->gap[i].out)
			moved += 2 * s->t[s->gap[i].tensor].size;
	return moved;
}
