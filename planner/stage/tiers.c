// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * tiers.c - the stage that spreads a plan over memory tiers: tier 0 is
 * small and fast, the next ones larger and slower.
 *
 * Tier by tier, the tensors that may still go there are ranked: first those
 * that may use no later tier, then by priority (benefit per byte of being
 * fast), then the larger first.  In that order each is placed as low as it
 * fits and kept in the tier if it ends within the tier's room, so the tier
 * fills with the most valued bytes first.  The tensors kept are then planned
 * again by the caller's strategy, whose plan replaces the first one when it
 * fits the room too (it is usually lower), and the room it freed goes to the
 * tensors turned away, in the same order.  "Planned again" and "the last
 * tier" are the next stage's work, one tier at a time.  The last tier takes the rest.
 * Choosing the best set is a knapsack problem; this is a greedy answer.
 */
#include "strategy/placement.h"

#define UNPLACED	(~(u32)0)

/*
 * One tier's candidates: copies of the tensors that may still go there, in
 * @part, with @map back to the table.  @kept is @part's chosen subset.
 */
struct tier_pass {
	struct tplan_tensor *part;
	struct tplan_tensor *kept;
	u32 *map;
	u32 *order;
	u32 count;
	u32 tier;
	u32 tier_count;
	const struct tplan_stage *next;
};

/* Hand @n tensors to the next stage, with @room bytes of one tier. */
static int place_in(struct tier_pass *p, struct tplan_tensor *t, u32 n,
		    u64 room, struct tplan_run *run)
{
	struct tplan_tiers one = { .count = 1, .room = { room } };

	return tplan_next_stage(p->next, t, n, &one, run);
}

/* The tensor may use no tier after this one: it must stay here if it can. */
static bool last_chance(const struct tier_pass *p, const struct tplan_tensor *x)
{
	return !(tplan_allowed_tiers(x, p->tier_count) >> (p->tier + 1));
}

static int cmp_rank(const void *a, const void *b, const void *priv)
{
	const struct tier_pass *p = priv;
	u32 ia = *(const u32 *)a, ib = *(const u32 *)b;
	const struct tplan_tensor *x = &p->part[ia], *y = &p->part[ib];
	int c = (int)last_chance(p, y) - (int)last_chance(p, x);

	if (!c)
		c = tplan_cmp_u64(y->priority, x->priority);
	if (!c)
		c = tplan_cmp_u64(y->size, x->size);
	return c ? c : tplan_cmp_u64(ia, ib);
}

/* Copy the tensors still unplaced that may live in @p->tier. */
static void gather(struct tier_pass *p, const struct tplan_tensor *t, u32 n)
{
	u32 i;

	p->count = 0;
	for (i = 0; i < n; i++) {
		if (t[i].tier != UNPLACED ||
		    !(tplan_allowed_tiers(&t[i], p->tier_count) & BIT(p->tier)))
			continue;
		p->map[p->count] = i;
		p->part[p->count++] = t[i];
	}
}

/*
 * Rank the candidates and keep, in that order, each that fits under @room
 * beside the ones kept before it.  Marks the others UNPLACED in @p->part.
 */
static int choose(struct tier_pass *p, u64 room, struct tplan_run *run)
{
	struct tplan_placer placer;
	u32 i;
	int ret;

	for (i = 0; i < p->count; i++)
		p->order[i] = i;
	tplan_sort(p->order, p->count, sizeof(*p->order), cmp_rank, p);
	ret = tplan_placer_init(&placer, p->part, p->count,
				run->opts->gaps, 0, NULL);
	if (ret)
		return ret;
	for (i = 0; i < p->count && ret >= 0; i++)
		ret = tplan_placer_try(&placer, p->order[i], room, &run->work);
	for (i = 0; i < p->count && ret >= 0; i++)
		if (!placer.placed[i])
			p->part[i].tier = UNPLACED;
		else
			p->part[i].tier = p->tier;
	tplan_placer_free(&placer);
	return ret < 0 ? ret : 0;
}

/*
 * Plan the kept tensors with the strategy; keep its plan if it fits.
 * Returns 1 when it did, 0 when the first plan stays, or an error.
 */
static int replan(struct tier_pass *p, u64 room, struct tplan_run *run)
{
	u32 i, m = 0;
	int ret;

	for (i = 0; i < p->count; i++)
		if (p->part[i].tier != UNPLACED)
			p->kept[m++] = p->part[i];
	ret = place_in(p, p->kept, m, room, run);
	if (ret || tplan_peak(p->kept, m) > room)
		return ret;
	for (i = 0, m = 0; i < p->count; i++)
		if (p->part[i].tier != UNPLACED)
			p->part[i].offset = p->kept[m++].offset;
	return 1;
}

/*
 * The strategy's plan is usually lower than the first one: offer the room
 * it freed to the tensors turned away, in rank order, each as low as it fits
 * among those kept.
 */
static int refill(struct tier_pass *p, u64 room, struct tplan_run *run)
{
	struct tplan_placer placer;
	u32 i, x;
	int ret;

	ret = tplan_placer_init(&placer, p->part, p->count,
				run->opts->gaps, 0, NULL);
	if (ret)
		return ret;
	for (i = 0; i < p->count && !ret; i++)
		if (p->part[i].tier != UNPLACED)
			ret = tplan_placer_keep(&placer, i, &run->work);
	for (i = 0; i < p->count && ret >= 0; i++) {
		x = p->order[i];
		if (p->part[x].tier != UNPLACED)
			continue;
		ret = tplan_placer_try(&placer, x, room, &run->work);
		if (ret > 0)
			p->part[x].tier = p->tier;
	}
	tplan_placer_free(&placer);
	return ret < 0 ? ret : 0;
}

static int place_tier(struct tier_pass *p, struct tplan_tensor *t, u32 n,
		      u64 room, struct tplan_run *run)
{
	u32 i;
	int ret;

	gather(p, t, n);
	if (p->tier == p->tier_count - 1) {
		ret = place_in(p, p->part, p->count, room, run);
		for (i = 0; i < p->count; i++)
			p->part[i].tier = p->tier;
	} else {
		ret = choose(p, room, run);
		if (!ret)
			ret = replan(p, room, run);
		if (ret > 0)
			ret = refill(p, room, run);
	}
	for (i = 0; i < p->count && !ret; i++) {
		if (p->part[i].tier == UNPLACED)
			continue;
		t[p->map[i]].tier = p->tier;
		t[p->map[i]].offset = p->part[i].offset;
	}
	return ret;
}

/* Several tiers: fill them one after another; -ENOSPC if one is left out. */
static int place_tiers(struct tplan_tensor *t, u32 n,
		       const struct tplan_tiers *tiers,
		       const struct tplan_stage *next, struct tplan_run *run)
{
	struct tier_pass p = { .tier_count = tiers->count, .next = next };
	u32 i;
	int ret = -ENOMEM;

	p.part = tplan_alloc_array(n, sizeof(*p.part));
	p.kept = tplan_alloc_array(n, sizeof(*p.kept));
	p.map = tplan_alloc_array(n, sizeof(*p.map));
	p.order = tplan_alloc_array(n, sizeof(*p.order));
	if (p.part && p.kept && p.map && p.order) {
		for (i = 0; i < n; i++)
			t[i].tier = UNPLACED;
		ret = 0;
		for (p.tier = 0; p.tier < tiers->count && !ret; p.tier++)
			ret = place_tier(&p, t, n, tiers->room[p.tier], run);
		for (i = 0; i < n && !ret; i++)
			if (t[i].tier == UNPLACED)
				ret = -ENOSPC;
	}
	tplan_free(p.part);
	tplan_free(p.kept);
	tplan_free(p.map);
	tplan_free(p.order);
	return ret;
}

/* Add @x's size x priority to its tier's weight, saturating. */
static void tally_one(const struct tplan_tensor *x, struct tplan_run *run)
{
	u64 *sum = &run->tier_weight[x->tier], w;

	if (check_mul_overflow(x->size, (u64)x->priority, &w) ||
	    check_add_overflow(*sum, w, sum))
		*sum = TPLAN_U64_MAX;
}

static void tally(const struct tplan_tensor *t, u32 n, struct tplan_run *run)
{
	u32 i;

	for (i = 0; i < n; i++)
		tally_one(&t[i], run);
}

/* One tier: each tensor's tier set and, if @weigh, tallied, in one pass. */
static void one_tier(struct tplan_tensor *t, u32 n, bool weigh,
		     struct tplan_run *run)
{
	u32 i;

	for (i = 0; i < n; i++) {
		t[i].tier = 0;
		if (weigh)
			tally_one(&t[i], run);
	}
}

/**
 * tplan_tiers_stage() - give every tensor a tier and an offset in it
 * @t: the tensors, with allowed tiers checked; tier and offset are written
 * @n: how many
 * @tiers: the tiers and their room; all but the last are limited
 * @next: the stage that places the tensors of one tier
 * @run: the work meter; the tiers' weights are added to it
 *
 * One tier: everything goes to the next stage.  Memory with several: two
 * copies of the table plus the placer's, about 260 bytes per tensor, on
 * top of the next stage's.
 *
 * Return: 0; -ENOSPC when a tensor fits in none of its tiers (its tier is
 * then ~0); -ENOMEM, or the next stage's error.
 */
int tplan_tiers_stage(struct tplan_tensor *t, u32 n,
		      const struct tplan_tiers *tiers,
		      const struct tplan_stage *next, struct tplan_run *run)
{
	int ret;

	if (tiers->count == 1) {
		ret = tplan_next_stage(next, t, n, tiers, run);
		one_tier(t, n, !ret, run);
		return ret;
	}
	ret = place_tiers(t, n, tiers, next, run);
	if (!ret)
		tally(t, n, run);
	return ret;
}
