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
	[TPLAN_DEFECT_TIER_UNKNOWN] = "tiers allows no tier the plan has",
	[TPLAN_DEFECT_TIER_CONFLICT] =
		"tensors sharing bytes have no allowed tier in common",
	[TPLAN_DEFECT_TIER_WRONG] = "tensor is in a tier it may not use",
	[TPLAN_DEFECT_SHARE_SIZE] = "tensors with one share_key differ in size",
	[TPLAN_DEFECT_SHARE_ALIAS] = "a share_key tensor is an alias or aliased",
	[TPLAN_DEFECT_SHARE_MISPLACED] =
		"tensors with one share_key are not at one place",
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

/**
 * tplan_place_part() - place tensors that all go to one tier
 * @t: the tensors; offsets are written
 * @n: how many
 * @room: the bytes they may use (the search aims within it);
 *        %TPLAN_U64_MAX means unlimited
 * @run: the work meter and the options
 *
 * The strategy sees the part's own lower bound, with small tensors kept
 * apart if the options ask for it.
 *
 * Return: 0 or the strategy's error.
 */
int tplan_place_part(struct tplan_tensor *t, u32 n, u64 room,
		     struct tplan_run *run)
{
	const struct tplan_options *o = run->opts;
	u64 bound = run->lower_bound, capacity = run->capacity;
	int ret = tplan_lower_bound(t, n, &run->lower_bound);

	run->capacity = room == TPLAN_U64_MAX ? 0 : room;
	if (!ret && o->small_below)
		ret = tplan_place_small_apart(t, n, o->small_below,
					      strategies[o->strategy].place,
					      run);
	else if (!ret)
		ret = strategies[o->strategy].place(t, n, run);
	run->lower_bound = bound;
	run->capacity = capacity;
	return ret;
}

/* Add each tensor's size x priority to its tier's weight, saturating. */
static void tally(const struct tplan_tensor *t, u32 n, struct tplan_run *run)
{
	u32 i;

	for (i = 0; i < n; i++) {
		u64 *sum = &run->tier_weight[t[i].tier], w;

		if (check_mul_overflow(t[i].size, (u64)t[i].priority, &w) ||
		    check_add_overflow(*sum, w, sum))
			*sum = TPLAN_U64_MAX;
	}
}

/**
 * tplan_place_unit() - place a table (or one model of it) into the tiers
 * @t: the tensors; tier and offset are written
 * @n: how many
 * @tiers: the tiers and their room
 * @run: the work meter and the options; its lower bound grows by @t's
 *
 * Return: 0, -ENOSPC (a tensor fits in none of its tiers), or the
 * strategy's error.
 */
int tplan_place_unit(struct tplan_tensor *t, u32 n,
		     const struct tplan_tiers *tiers, struct tplan_run *run)
{
	u64 bound;
	u32 i;
	int ret = tplan_lower_bound(t, n, &bound);

	if (ret)
		return ret;
	if (tiers->count > 1) {
		ret = tplan_place_tiers(t, n, tiers, run);
	} else {
		ret = tplan_place_part(t, n, tiers->room[0], run);
		for (i = 0; i < n; i++)
			t[i].tier = 0;
	}
	if (!ret)
		tally(t, n, run);
	run->lower_bound += bound;
	return ret;
}

/**
 * tplan_tiers_from_options() - the tiers the options describe
 * @o: the options
 * @tiers: filled in; unlimited room is %TPLAN_U64_MAX
 *
 * One tier takes @o->capacity; several take @o->tier_capacity, where only
 * the last may be unlimited and entries past @o->tier_count must be 0.
 *
 * Return: 0 or -EINVAL.
 */
int tplan_tiers_from_options(const struct tplan_options *o,
			     struct tplan_tiers *tiers)
{
	u32 k;

	tiers->count = max(o->tier_count, 1U);
	if (tiers->count > TPLAN_MAX_TIERS || (tiers->count > 1 && o->capacity))
		return -EINVAL;
	for (k = 0; k < TPLAN_MAX_TIERS; k++) {
		u64 cap = o->tier_capacity[k];

		tiers->room[k] = TPLAN_U64_MAX;
		if (tiers->count == 1 || k >= tiers->count) {
			if (cap)
				return -EINVAL;
			continue;
		}
		if (!cap && k < tiers->count - 1)
			return -EINVAL;
		if (cap)
			tiers->room[k] = cap;
	}
	if (tiers->count == 1 && o->capacity)
		tiers->room[0] = o->capacity;
	return 0;
}

/* Fold the alias groups (if asked), place the models, unfold. */
static int place_table(struct tplan_tensor *t, u32 n,
		       const struct tplan_tiers *tiers, struct tplan_run *run)
{
	struct tplan_alias_map m;
	int ret;

	if (!(run->opts->flags & TPLAN_PLAN_ALIASES))
		return tplan_place_models(t, n, tiers, run);
	ret = tplan_fold_aliases(t, n, &m, NULL);
	if (ret)
		return ret;
	ret = tplan_place_models(m.folded, m.count, tiers, run);
	if (!ret || ret == -ENOSPC)
		tplan_unfold_aliases(t, n, &m);
	tplan_alias_map_free(&m);
	return ret;
}

/* Each tier's peak; -ENOSPC when one exceeds its room. */
static int measure(const struct tplan_tensor *t, u32 n,
		   const struct tplan_tiers *tiers, struct tplan_result *res)
{
	int ret = 0;
	u32 i, k;

	for (i = 0; i < n; i++) {
		k = t[i].tier;
		if (k < tiers->count && t[i].size &&
		    t[i].offset + t[i].size > res->tier_peak[k])
			res->tier_peak[k] = t[i].offset + t[i].size;
	}
	for (k = 0; k < tiers->count; k++) {
		res->peak += res->tier_peak[k];
		if (res->tier_peak[k] > tiers->room[k])
			ret = -ENOSPC;
	}
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
 * Each alias group (with %TPLAN_PLAN_ALIASES) is planned as one block (see
 * alias.c), several models as models.c says, and with two or more tiers the
 * fast tiers are filled by priority (tiers.c).  The lower bound reported is
 * that of what was planned: the folded table, the models' common timeline
 * (serial) or the sum of the models' bounds (concurrent).
 *
 * Return: 0; -EINVAL or -EOVERFLOW for input tplan_check_input() rejects,
 * an unknown strategy, unknown flags or bad tier capacities; -ENOSPC when a
 * tier's peak exceeds its room or a tensor fits in none of its tiers (@res
 * holds the peaks needed); -ETIMEDOUT when the budget ran out; -EINTR when
 * the (kernel) task has a signal pending; -ENOMEM.
 */
int tplan_plan(struct tplan_tensor *t, u32 n, const struct tplan_options *opts,
	       struct tplan_result *res)
{
	struct tplan_run run = { .opts = opts };
	struct tplan_tiers tiers;
	u64 start = tplan_now_ns();
	int ret;

	memset(res, 0, sizeof(*res));
	if (opts->strategy >= TPLAN_STRATEGY_COUNT ||
	    (opts->flags & ~TPLAN_PLAN_KNOWN_FLAGS) ||
	    tplan_tiers_from_options(opts, &tiers))
		return -EINVAL;
	res->strategy = opts->strategy;
	/* place_table() checks the alias groups as it folds them */
	ret = tplan_check_unfolded(t, n, opts, NULL);
	if (ret)
		return ret;
	res->naive_total = tplan_naive_total(t, n);
	tplan_work_init(&run.work, opts->budget ? opts->budget :
			strategies[opts->strategy].searches ?
			TPLAN_DEFAULT_BUDGET : 0, opts->time_limit_ns);
	ret = place_table(t, n, &tiers, &run);
	res->lower_bound = run.lower_bound;
	res->work = run.work.spent;
	res->search = run.search;
	memcpy(res->tier_weight, run.tier_weight, sizeof(res->tier_weight));
	if (!ret || ret == -ENOSPC) {
		int fits = measure(t, n, &tiers, res);

		if (!ret)
			ret = fits;
	}
	res->time_ns = tplan_now_ns() - start;
	return ret;
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_plan);
