// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * planner.c - the planner's entry point: check the table, measure it, run
 * the chosen strategy and report.
 */
#include "internal.h"

struct tplan_strategy_desc {
	const char *name;
	tplan_place_fn place;
	bool searches;	/* may take any time: budget 0 means the default */
};

static const struct tplan_strategy_desc strategies[TPLAN_STRATEGY_COUNT] = {
	[TPLAN_STRATEGY_NAIVE] = { "naive", tplan_place_naive, false },
	[TPLAN_STRATEGY_GREEDY_SIZE] = { "greedy-size", tplan_place_greedy_size,
					 false },
	[TPLAN_STRATEGY_STRIP] = { "strip", tplan_place_strip, true },
	[TPLAN_STRATEGY_SEARCH] = { "search", tplan_place_search, true },
	[TPLAN_STRATEGY_AUTO] = { "auto", tplan_place_auto, true },
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

static const char *const defect_names[] = {
	[TPLAN_DEFECT_NONE] = "no defect",
	[TPLAN_DEFECT_LIFETIME] = "upper is not greater than lower",
	[TPLAN_DEFECT_ALIGNMENT] = "alignment is not a power of two",
	[TPLAN_DEFECT_FLAGS] = "unknown flags or non-zero padding",
	[TPLAN_DEFECT_DUPLICATE_ID] = "duplicate id",
	[TPLAN_DEFECT_TOO_LARGE] = "sizes add up past 2^64 - 1",
	[TPLAN_DEFECT_MISALIGNED] = "offset is not a multiple of the alignment",
	[TPLAN_DEFECT_CAPACITY] = "tensor ends beyond the capacity",
	[TPLAN_DEFECT_OVERLAP] = "time-overlapping tensors share addresses",
	[TPLAN_DEFECT_ALIAS_UNKNOWN] = "alias_of names no tensor",
	[TPLAN_DEFECT_ALIAS_CYCLE] = "aliases form a cycle",
	[TPLAN_DEFECT_ALIAS_OUTSIDE] = "alias does not lie inside its owner",
	[TPLAN_DEFECT_ALIAS_MISALIGNED] = "alias_offset breaks the alignment",
	[TPLAN_DEFECT_ALIAS_MISPLACED] =
		"alias is not at its owner's offset plus alias_offset",
};

/**
 * tplan_defect_str() - describe a defect
 * @defect: an &enum tplan_defect value
 *
 * Return: a short English phrase.
 */
const char *tplan_defect_str(u32 defect)
{
	if (defect >= ARRAY_SIZE(defect_names))
		return "unknown defect";
	return defect_names[defect];
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

/**
 * tplan_peak() - the highest offset + size in a plan
 * @t: the planned tensors
 * @n: how many
 *
 * Return: the peak; 0 for an empty table or only zero-size tensors.
 */
u64 tplan_peak(const struct tplan_tensor *t, u32 n)
{
	u64 peak = 0;
	u32 i;

	for (i = 0; i < n; i++)
		if (t[i].size && t[i].offset + t[i].size > peak)
			peak = t[i].offset + t[i].size;
	return peak;
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_peak);

/**
 * tplan_naive_total() - bytes needed without any reuse
 * @t: the tensors, already accepted by tplan_check_table()
 * @n: how many
 *
 * The naive strategy's peak (aligned back to back in table order), without
 * writing offsets.
 *
 * Return: the total.
 */
u64 tplan_naive_total(const struct tplan_tensor *t, u32 n)
{
	u64 end = 0;
	u32 i;

	for (i = 0; i < n; i++)
		if (t[i].size)
			end = tplan_align_up(end, t[i].alignment) + t[i].size;
	return end;
}

/* Lower bound, then the strategy (with small tensors apart if asked). */
static int place_table(struct tplan_tensor *t, u32 n,
		       const struct tplan_options *opts, struct tplan_run *run)
{
	int ret = tplan_lower_bound(t, n, &run->lower_bound);

	if (ret)
		return ret;
	if (opts->small_below)
		return tplan_place_small_apart(t, n, opts->small_below,
					       strategies[opts->strategy].place,
					       run);
	return strategies[opts->strategy].place(t, n, run);
}

/* Fold the alias groups, plan the folded table, unfold. */
static int place_aliased(struct tplan_tensor *t, u32 n,
			 const struct tplan_options *opts, struct tplan_run *run)
{
	struct tplan_alias_map m;
	int ret;

	ret = tplan_fold_aliases(t, n, &m, NULL);
	if (ret)
		return ret;
	ret = place_table(m.folded, m.count, opts, run);
	if (!ret)
		tplan_unfold_aliases(t, n, &m);
	tplan_alias_map_free(&m);
	return ret;
}

/**
 * tplan_plan() - give every tensor an offset
 * @t: the tensors; on success (and on -ENOSPC) each offset is written
 * @n: how many
 * @opts: strategy, capacity and work budget
 * @res: peak, lower bound, naive total and statistics
 *
 * Deterministic: the same table and options give the same offsets and the
 * same work count in the kernel and in userspace.
 *
 * With %TPLAN_PLAN_ALIASES each alias group is planned as one block (see
 * alias.c) and the lower bound reported is the folded table's.
 *
 * Return: 0; -EINVAL or -EOVERFLOW for a table tplan_check_table() rejects,
 * bad alias groups, an unknown strategy or unknown flags; -ENOSPC when the
 * peak exceeds the capacity (@res holds the peak needed); -ETIMEDOUT when
 * the budget ran out; -EINTR on a fatal signal; -ENOMEM.
 */
int tplan_plan(struct tplan_tensor *t, u32 n, const struct tplan_options *opts,
	       struct tplan_result *res)
{
	struct tplan_run run = { .capacity = opts->capacity };
	u64 start = tplan_now_ns();
	int ret;

	memset(res, 0, sizeof(*res));
	if (opts->strategy >= TPLAN_STRATEGY_COUNT ||
	    (opts->flags & ~TPLAN_PLAN_KNOWN_FLAGS))
		return -EINVAL;
	res->strategy = opts->strategy;
	ret = tplan_check_table(t, n, NULL);
	if (ret)
		return ret;
	res->naive_total = tplan_naive_total(t, n);
	tplan_work_init(&run.work, opts->budget ? opts->budget :
			strategies[opts->strategy].searches ?
			TPLAN_DEFAULT_BUDGET : 0, opts->time_limit_ns);
	if (opts->flags & TPLAN_PLAN_ALIASES)
		ret = place_aliased(t, n, opts, &run);
	else
		ret = place_table(t, n, opts, &run);
	res->lower_bound = run.lower_bound;
	res->work = run.work.spent;
	res->search = run.search;
	if (!ret) {
		res->peak = tplan_peak(t, n);
		if (opts->capacity && res->peak > opts->capacity)
			ret = -ENOSPC;
	}
	res->time_ns = tplan_now_ns() - start;
	return ret;
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_plan);
