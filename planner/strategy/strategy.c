// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * strategy.c - the registry of strategies, and the pipeline's last stage,
 * which runs the one the caller chose on the tensors the stages before it
 * handed down.
 */
#include "core/gaps.h"

/**
 * struct tplan_strategy_desc - a strategy in the registry
 * @name: what tplanctl and the table formats call it
 * @place: the strategy
 * @searches: it may take any time: a budget of 0 means the default one
 * @own_first_plan: it makes its own first plan, which a default budget
 *                  would not stop: sweep fit's comes first where that plan
 *                  can be costly (tplan_place_behind_sweep())
 */
struct tplan_strategy_desc {
	const char *name;
	tplan_place_fn place;
	bool searches;
	bool own_first_plan;
};

static const struct tplan_strategy_desc strategies[TPLAN_STRATEGY_COUNT] = {
	[TPLAN_STRATEGY_NAIVE] = { "naive", tplan_place_naive, false, false },
	[TPLAN_STRATEGY_GREEDY_SIZE] = { "greedy-size", tplan_place_greedy_size,
					 false, true },
	[TPLAN_STRATEGY_STRIP] = { "strip", tplan_place_strip, true, true },
	[TPLAN_STRATEGY_SEARCH] = { "search", tplan_place_search, true, false },
	[TPLAN_STRATEGY_AUTO] = { "auto", tplan_place_auto, true, false },
};

/**
 * tplan_strategy_name() - the name of a strategy
 * @strategy: an &enum tplan_strategy value
 *
 * Return: its name, or "unknown".
 */
const char *tplan_strategy_name(u32 strategy)
{
	return strategy < TPLAN_STRATEGY_COUNT ? strategies[strategy].name :
						 "unknown";
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_strategy_name);

/**
 * tplan_strategy_from_name() - look a strategy up by name
 * @name: e.g. "greedy-size"
 * @strategy: where to store its &enum tplan_strategy value
 *
 * Return: 0, or -EINVAL for an unknown name.
 */
int tplan_strategy_from_name(const char *name, u32 *strategy)
{
	u32 i;

	for (i = 0; i < TPLAN_STRATEGY_COUNT; i++) {
		if (!strcmp(name, strategies[i].name)) {
			*strategy = i;
			return 0;
		}
	}
	return -EINVAL;
}

/**
 * tplan_search_name() - describe how a search ended
 * @search: an &enum tplan_search_status value
 *
 * Return: "not run", "fit", "impossible", "gave up" or "unknown".
 */
const char *tplan_search_name(u32 search)
{
	static const char *const names[] = {
		[TPLAN_SEARCH_NOT_RUN] = "not run",
		[TPLAN_SEARCH_FIT] = "fit",
		[TPLAN_SEARCH_IMPOSSIBLE] = "impossible",
		[TPLAN_SEARCH_GAVE_UP] = "gave up",
	};

	return search < ARRAY_SIZE(names) ? names[search] : "unknown";
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_search_name);

/*
 * The work budget of a call: the caller's, else the default for the
 * strategies that search, else unlimited.  @opts->strategy is valid.
 */
u64 tplan_strategy_budget(const struct tplan_options *opts)
{
	if (opts->budget)
		return opts->budget;
	return strategies[opts->strategy].searches ? TPLAN_DEFAULT_BUDGET : 0;
}

/*
 * The last stage: the chosen strategy places @t, aiming at its own lower
 * bound within the one tier @tiers describes.  @next is not used.
 */
int tplan_strategy_stage(struct tplan_tensor *t, u32 n,
			 const struct tplan_tiers *tiers,
			 const struct tplan_stage *next, struct tplan_run *run)
{
	struct tplan_goal goal = {
		.capacity = tiers->room[0] == TPLAN_U64_MAX ? 0 : tiers->room[0],
		.gaps = run->opts->gaps,
	};
	const struct tplan_strategy_desc *s;
	int ret = 0;

	if (t == run->unit && n == run->unit_n) {
		goal.lower_bound = run->unit_bound;
		goal.timeline = run->unit_timeline;
	} else {
		ret = tplan_lower_bound_gaps(t, n, goal.gaps, &goal.lower_bound);
	}
	if (ret)
		return ret;
	s = &strategies[run->opts->strategy];
	if (s->own_first_plan)
		return tplan_place_behind_sweep(s->place, t, n, &goal,
						&run->work, &run->search);
	return s->place(t, n, &goal, &run->work, &run->search);
}
