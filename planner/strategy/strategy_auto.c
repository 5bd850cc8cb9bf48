// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * strategy_auto.c - the default: its first plan (tplan_first_plans(): sweep
 * fit's on dense tables, greedy-size's), then peak first, then strip,
 * then a search for the lower bound, then searches for capacities a little
 * above it, each in a share of the work budget; stopping as soon as the
 * peak is the lower bound or the budget is gone.  Between the lower bound
 * and the best peak it looks for the capacity that fits with the least
 * slack.  Tables of more than 4096 tensors skip the search: strip gets what
 * peak first left.
 */
#include "search_obstacles.h"

/*
 * Above this many tensors auto does not search: strip gets the budget.
 * Measured on network tables of 10^4 and 10^5 tensors: search there ends
 * no lower than strip, or worse with strip's share cut (docs/PLANNER.md).
 */
#define TPLAN_AUTO_SEARCH_MAX	4096

struct auto_state {
	struct tplan_tensor *t;
	u32 n;
	const struct tplan_goal *goal;
	struct tplan_work *w;
	u32 *search;
	struct tplan_first kept;	/* the best plan so far, its peak */
	u64 bound;		/* the lower bound, or the pins' top if higher */
};

/* Budget and time left (the deadline, or the caller's cut). */
static bool budget_left(const struct tplan_work *w)
{
	return tplan_work_left(w) && w->spent < w->budget;
}

/*
 * Runs one placing phase (strip, or peak first) in @share of what is left
 * of the budget.  A phase that runs out of its share ends early; that is
 * no error.
 */
static int phase(struct auto_state *a, tplan_place_fn place, u32 share_pct)
{
	struct tplan_work_saved was = tplan_work_share(a->w, share_pct);
	int ret;

	tplan_first_stash(a->t, a->n, &a->kept);
	ret = place(a->t, a->n, a->goal, a->w, a->search);
	tplan_work_unshare(a->w, was);
	if (!ret)
		tplan_first_keep(a->t, a->n, &a->kept, false);
	return ret == -ETIMEDOUT ? 0 : ret;
}

/* Search for @capacity; 1 if a plan fits, 0 if not, or an errno. */
static int phase_search(struct auto_state *a, u64 capacity, u32 share_pct)
{
	struct tplan_work_saved was = tplan_work_share(a->w, share_pct);
	int ret;

	tplan_first_stash(a->t, a->n, &a->kept);
	ret = tplan_search_fit(a->t, a->n, capacity, a->goal->gaps, a->w);
	tplan_work_unshare(a->w, was);
	if (ret == TPLAN_SEARCH_FIT) {
		tplan_first_keep(a->t, a->n, &a->kept, false);
		return 1;
	}
	if (ret == TPLAN_SEARCH_IMPOSSIBLE)
		*a->search = ret;
	return ret == -ETIMEDOUT || ret > 0 ? 0 : ret;
}

/*
 * The capacity that fits with the least slack: walk down a ladder of slacks
 * (1/4 of the lower bound, halving to 1/128) while each fits, then halve
 * the gap between the highest capacity that did not fit and the best peak,
 * while the budget lasts; stop within 1/512 of the lower bound.  Generous
 * capacities are found quickly, so the plan improves early.
 */
static int tighten(struct auto_state *a)
{
	u64 bound = a->bound, lo = bound;
	u64 step = bound / 512 ? bound / 512 : 1;
	u32 k;
	int ret = 0;

	for (k = 2; k <= 7 && budget_left(a->w); k++) {
		u64 cap = bound + (bound >> k);

		if (cap >= a->kept.peak)
			continue;
		ret = phase_search(a, cap, 35);
		if (ret < 0)
			return ret;
		if (!ret) {
			lo = cap;
			break;
		}
		ret = 0;
	}
	/*
	 * A fit above lo may bring a peak below it (the search at lo gave up
	 * without proving it impossible): below lo is then all that is
	 * left, and those capacities are harder still.
	 */
	while (!ret && budget_left(a->w) && a->kept.peak > lo &&
	       a->kept.peak - lo > step) {
		u64 cap = lo + (a->kept.peak - lo) / 2;

		ret = phase_search(a, cap, 30);
		if (ret == 0)
			lo = cap;
		ret = ret < 0 ? ret : 0;
	}
	return ret;
}

/* Pins or gaps: the search can no longer prove a capacity impossible. */
static bool has_pins_or_gaps(const struct auto_state *a)
{
	u32 i;

	for (i = 0; i < a->n; i++)
		if (a->t[i].gap_count || (a->t[i].flags & TPLAN_TENSOR_PINNED))
			return true;
	return false;
}

static int auto_phases(struct auto_state *a)
{
	u64 bound = max(a->goal->lower_bound, tplan_pins_top(a->t, a->n));
	int ret;

	a->bound = bound;
	a->kept.enough = bound;
	ret = tplan_first_plans(a->t, a->n, a->goal, a->w, a->search, &a->kept);
	if (ret)
		return ret;
	if (a->kept.peak <= bound || !budget_left(a->w) ||
	    a->kept.placers_too_costly)
		return 0;
	ret = phase(a, tplan_place_peak_first, 80);
	if (ret || a->kept.peak <= bound || !budget_left(a->w))
		return ret;
	if (a->n > TPLAN_AUTO_SEARCH_MAX) {
		/* Each search step scans the sections: strip does better. */
		return phase(a, tplan_place_strip, 100);
	}
	ret = phase(a, tplan_place_strip, 5);
	if (ret || a->kept.peak <= bound)
		return ret;
	/*
	 * Most of the budget: the lower bound is the plan worth having.  With
	 * pins or gaps an unreachable bound cannot be proven so and would take
	 * all of it: less, and the capacities above it get the rest.
	 */
	ret = phase_search(a, bound, has_pins_or_gaps(a) ? 30 : 70);
	if (ret)
		return ret < 0 ? ret : 0;
	return tighten(a);
}

/**
 * tplan_place_auto() - the default strategy
 * @t: the tensors, already checked; offsets are written
 * @n: how many
 * @goal: the lower bound to reach (the capacity is not used)
 * @w: the work meter, with a budget
 * @search: set to how the searches ended
 *
 * Never worse than greedy-size; deterministic for a given budget.
 * @search says FIT when the lower bound (or the pinned tensors' top, if
 * higher) was reached, IMPOSSIBLE when the search proved it cannot be.
 *
 * Return: 0, -ENOMEM, -EINTR, or -ETIMEDOUT before greedy-size finished.
 */
int tplan_place_auto(struct tplan_tensor *t, u32 n,
		     const struct tplan_goal *goal, struct tplan_work *w,
		     u32 *search)
{
	struct auto_state a = {
		.t = t, .n = n, .goal = goal, .w = w, .search = search,
		.kept = { .peak = TPLAN_U64_MAX },
	};
	int ret;

	a.kept.best = tplan_alloc_array(n, sizeof(*a.kept.best));
	if (!a.kept.best)
		return -ENOMEM;
	ret = auto_phases(&a);
	if (a.kept.has_plan && (!ret || ret == -ETIMEDOUT)) {
		tplan_first_restore(t, n, &a.kept);
		if (a.kept.peak <= a.bound)
			*search = TPLAN_SEARCH_FIT;
		else if (*search != TPLAN_SEARCH_IMPOSSIBLE)
			*search = TPLAN_SEARCH_GAVE_UP;
		ret = 0;
	}
	tplan_free(a.kept.best);
	return ret;
}
