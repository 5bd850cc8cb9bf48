// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * strategy_first.c - the first plan of the strategies that improve one
 * (auto, search): sweep fit's where it applies, then greedy-size's where
 * the budget may let it finish.
 */
#include "placement.h"

/*
 * Whether greedy-size may finish in what is left of the budget after a
 * sweep fit.  Where the sweep applies it places through the merged
 * occupancy: about 4 log2(sections) sets a tensor, a unit each at least
 * (docs/PLANNER.md), so less than 4 n log2(n) units cannot be enough.
 */
static bool greedy_may_finish(u32 n, const struct tplan_work *w)
{
	u64 least = (u64)n * 4 * tplan_bits(n);

	return !w->budget || w->budget - min(w->spent, w->budget) >= least;
}

/**
 * tplan_first_keep() - keep the plan in @t if it is the best so far
 * @t: the tensors, placed
 * @n: how many
 * @f: the best plan so far (its offsets and peak), stashed before @t was
 *     placed (tplan_first_stash())
 * @tie: keep it when as low as the best too
 *
 * A plan kept stays in @t until it is stashed: often no other plan
 * follows, and copying 10^6 offsets twice is a tenth of placing them.
 */
void tplan_first_keep(const struct tplan_tensor *t, u32 n,
		      struct tplan_first *f, bool tie)
{
	u64 peak = tplan_peak(t, n);

	if (!f->has_plan || peak < f->peak || (tie && peak == f->peak)) {
		f->has_plan = true;
		f->peak = peak;
		f->in_t = true;
	}
}

/**
 * tplan_first_stash() - copy the best plan out of @t before @t changes
 * @t: the tensors
 * @n: how many
 * @f: the best plan so far
 */
void tplan_first_stash(const struct tplan_tensor *t, u32 n,
		       struct tplan_first *f)
{
	u32 i;

	if (!f->in_t)
		return;
	for (i = 0; i < n; i++) {
		tplan_yield_every(i);
		f->best[i] = t[i].offset;
	}
	f->in_t = false;
}

/**
 * tplan_first_restore() - give @t the best plan's offsets
 * @t: the tensors
 * @n: how many
 * @f: the best plan so far (there must be one)
 */
void tplan_first_restore(struct tplan_tensor *t, u32 n,
			 const struct tplan_first *f)
{
	u32 i;

	if (f->in_t)
		return;
	for (i = 0; i < n; i++) {
		tplan_yield_every(i);
		t[i].offset = f->best[i];
	}
}

static int first_plans(struct tplan_tensor *t, u32 n,
		       const struct tplan_goal *goal, struct tplan_work *w,
		       u32 *search, struct tplan_first *f)
{
	int ret;

	if (tplan_sweep_applies(goal->timeline)) {
		ret = tplan_place_sweep(t, n, goal->timeline);
		if (ret)
			return ret;
		tplan_work_have_plan(w);
		tplan_first_keep(t, n, f, false);
		if (f->peak <= f->enough)
			return 0;
		if (!greedy_may_finish(n, w)) {
			f->placers_too_costly = true;
			return 0;
		}
	}
	tplan_first_stash(t, n, f);
	w->stop_on_pace = f->has_plan;
	ret = tplan_place_greedy_size(t, n, goal, w, search);
	w->stop_on_pace = false;
	if (ret == -ETIMEDOUT && f->has_plan) {
		/* cut short after the sweep: its plan stands, and no pass fits */
		f->placers_too_costly = true;
		return 0;
	}
	if (ret)
		return ret;
	tplan_work_have_plan(w);
	tplan_first_keep(t, n, f, true);
	return 0;
}

/**
 * tplan_first_plans() - a strategy's first plan
 * @t: the tensors, already checked; their offsets are scratch
 * @n: how many
 * @goal: the goal; its timeline, if any, is used
 * @w: the work meter
 * @search: passed to greedy-size
 * @f: @f->best (n offsets) and @f->enough set by the caller, @f->peak
 *     %TPLAN_U64_MAX; on return the best plan's offsets and peak, and
 *     whether the budget left can place the table again
 *
 * Sweep fit's plan, O(n log n) whatever the table, when it applies
 * (tplan_sweep_applies()); then greedy-size's, often lower but costly where
 * many tensors of unlike sizes are alive at once.  After a sweep fit the
 * budget and the time limit stop greedy-size (the sweep's plan stands), and
 * it does not start when the sweep's peak is @f->enough or the budget left
 * cannot be enough; on a tie greedy-size's plan is kept.
 *
 * Return: 0, -ENOMEM, -EINTR, or greedy-size's -ETIMEDOUT when there was no
 * sweep fit.
 */
int tplan_first_plans(struct tplan_tensor *t, u32 n,
		      const struct tplan_goal *goal, struct tplan_work *w,
		      u32 *search, struct tplan_first *f)
{
	struct tplan_timeline own = { 0 };
	struct tplan_goal timed = *goal;
	int ret = 0;

	if (!timed.timeline) {
		ret = tplan_timeline_init(&own, t, n);
		timed.timeline = &own;
	}
	if (!ret)
		ret = first_plans(t, n, &timed, w, search, f);
	tplan_timeline_free(&own);
	return ret;
}

static int after_sweep(tplan_place_fn place, struct tplan_tensor *t, u32 n,
		       const struct tplan_goal *goal, struct tplan_work *w,
		       u32 *search)
{
	struct tplan_first f = { .peak = TPLAN_U64_MAX };
	int ret;

	f.best = tplan_alloc_array(n, sizeof(*f.best));
	if (!f.best)
		return -ENOMEM;
	ret = tplan_place_sweep(t, n, goal->timeline);
	if (ret)
		goto out;
	tplan_work_have_plan(w);
	tplan_first_keep(t, n, &f, false);
	tplan_first_stash(t, n, &f);
	w->stop_on_pace = true;
	ret = place(t, n, goal, w, search);
	w->stop_on_pace = false;
	if (!ret)
		tplan_first_keep(t, n, &f, true);
	if (ret == -ETIMEDOUT)
		ret = 0;	/* cut short: the sweep's plan stands */
	if (!ret)
		tplan_first_restore(t, n, &f);
out:
	tplan_free(f.best);
	return ret;
}

/**
 * tplan_place_behind_sweep() - run a strategy that makes its own first plan
 * (greedy-size, strip) so that a default budget bounds it
 * @place: the strategy
 * @t: the tensors, already checked; offsets are written
 * @n: how many
 * @goal: as for @place; its timeline, if any, is used
 * @w: the work meter
 * @search: passed to @place
 *
 * A default budget does not stop a first plan (&tplan_work.first_plan_free),
 * and greedy-size's first plan costs what the table makes it cost: 1.96 G
 * units on 65,536 random tensors, more than any device's max_budget.  So
 * under a default budget, where sweep fit applies (tplan_sweep_applies()),
 * its plan comes first, in O(n log n); the budget and the time limit then
 * stop @place, and its plan is kept when it is as low.  A pass whose pace
 * says the budget cannot see it through stops early.  Otherwise (no
 * budget, a caller's budget, which does cut a first plan off, or a table
 * cheap for @place) @place runs alone.
 *
 * Return: as @place, but -ETIMEDOUT only when @place ran alone.
 */
int tplan_place_behind_sweep(tplan_place_fn place, struct tplan_tensor *t,
			     u32 n, const struct tplan_goal *goal,
			     struct tplan_work *w, u32 *search)
{
	struct tplan_timeline own = { 0 };
	struct tplan_goal timed = *goal;
	int ret = 0;

	if (!w->budget || !w->first_plan_free)
		return place(t, n, goal, w, search);
	if (!timed.timeline) {
		ret = tplan_timeline_init(&own, t, n);
		timed.timeline = &own;
	}
	if (!ret && tplan_sweep_applies(timed.timeline))
		ret = after_sweep(place, t, n, &timed, w, search);
	else if (!ret)
		ret = place(t, n, &timed, w, search);
	tplan_timeline_free(&own);
	return ret;
}
