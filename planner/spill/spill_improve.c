// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * spill_improve.c - the default's last step: exchanges.  A sweep decides
 * point by point, so the last gap it moves out at a point often covers far
 * more than the excess left there.  Each gap out, largest first, is brought
 * back in; the points it then overfills are covered again by smaller gaps
 * (the cost chooser: most excess covered per byte).  If they move fewer
 * bytes than it, the exchange stands; otherwise it is undone.  Every gap
 * gets one try; the work has its own cap, and running out ends the pass
 * with the exchanges made so far.
 */
#include "spill.h"

/* Exchanges spend at most this, and a quarter of what the plan has left. */
#define IMPROVE_UNITS	(4ull << 20)

static int cmp_gap_size_desc(const void *a, const void *b, const void *priv)
{
	const struct tplan_spill *s = priv;
	u32 ia = *(const u32 *)a, ib = *(const u32 *)b;
	int c = tplan_cmp_u64(s->t[s->gap[ib].tensor].size,
			      s->t[s->gap[ia].tensor].size);

	return c ? c : tplan_cmp_u64(ia, ib);
}

/*
 * Gaps in, of some bytes, under @limit bytes, overlapping @g, into
 * @s->active; returns how many.
 */
static u32 candidates(struct tplan_spill *s, const struct tplan_spill_gap *g,
		      u64 limit)
{
	u32 i, k = 0;

	for (i = 0; i < s->ngap; i++) {
		const struct tplan_spill_gap *h = &s->gap[i];
		u64 z = s->t[h->tensor].size;

		if (!h->out && h != g && z && z < limit && h->from < g->to &&
		    h->to > g->from)
			s->active[k++] = i;
	}
	return k;
}

/* Those of the @nc candidates still in, covering @p, under @limit: first. */
static u32 covering(struct tplan_spill *s, u32 nc, u32 p, u64 limit)
{
	u32 i, k = 0;

	for (i = 0; i < nc; i++) {
		const struct tplan_spill_gap *h = &s->gap[s->active[i]];

		if (!h->out && h->from <= p && p < h->to &&
		    s->t[h->tensor].size < limit) {
			u32 x = s->active[i];

			s->active[i] = s->active[k];
			s->active[k++] = x;
		}
	}
	return k;
}

/*
 * One exchange for @g (out): 1 if it stands, 0 if undone, or an error
 * (the exchange undone).  @s->keep lists the gaps it moves out.
 */
static int exchange(struct tplan_spill *s, struct tplan_spill_gap *g,
		    u64 room)
{
	u64 z = s->t[g->tensor].size, spent = 0;
	u32 nc, nk = 0, p, na, pick, i;
	int ret = 0;

	tplan_spill_set_out(s, g, false);
	nc = candidates(s, g, z);
	ret = tplan_work_charge(s->w, s->ngap + g->to - g->from);
	for (p = g->from; p < g->to && !ret; p++) {
		while (s->need[p] > room && !ret) {
			na = covering(s, nc, p, z - spent);
			ret = tplan_work_charge(s->w, nc + 1);
			if (!ret && !na)
				ret = 1;	/* no smaller cover */
			if (!ret)
				ret = tplan_spill_pick_cost(s, na, p, room,
							    &pick);
			if (ret)
				break;
			s->keep[nk++] = s->active[pick];
			tplan_spill_set_out(s, &s->gap[s->active[pick]], true);
			spent += s->t[s->gap[s->active[pick]].tensor].size;
		}
	}
	if (!ret)
		return 1;
	for (i = 0; i < nk; i++)
		tplan_spill_set_out(s, &s->gap[s->keep[i]], false);
	tplan_spill_set_out(s, g, true);
	return ret == 1 ? 0 : ret;
}

/**
 * tplan_spill_improve() - exchange gaps out for smaller ones
 * @s: a choice that fits @room at every point
 * @room: bytes allowed at a point
 *
 * The choice still fits @room afterwards and moves no more bytes.
 *
 * Return: 0, or -EINTR.
 */
int tplan_spill_improve(struct tplan_spill *s, u64 room)
{
	struct tplan_work sub, *outer = s->w;
	u64 units = IMPROVE_UNITS;
	u32 i, k = 0, made = 0;
	int ret = 0;

	if (outer->budget)
		units = min(units, outer->budget > outer->spent ?
			    (outer->budget - outer->spent) / 4 : 0);
	if (!units)
		return 0;
	tplan_work_init(&sub, units, 0, false);
	s->w = &sub;
	for (i = 0; i < s->ngap; i++)
		if (s->gap[i].out)
			s->spare[k++] = i;
	tplan_sort(s->spare, k, sizeof(u32), cmp_gap_size_desc, s);
	for (i = 0; i < k && ret >= 0; i++) {
		if (s->gap[s->spare[i]].out)
			ret = exchange(s, &s->gap[s->spare[i]], room);
		made += ret > 0;
	}
	if (made && ret >= 0)
		ret = tplan_spill_prune(s, room);
	s->w = outer;
	outer->spent += sub.spent;
	return ret == -EINTR || ret == -ENOMEM ? ret : 0;
}
