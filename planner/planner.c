// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * planner.c - the planner's entry point: check the table, send it down the
 * pipeline of stages, measure the plan and report.
 */
#include "core/internal.h"

/*
 * The stages, in order.  Each transforms the table for the next one and
 * maps the next one's plan back: alias groups fold into one block each
 * (alias.c), the models are laid on one timeline or stacked (models.c),
 * the tensors are spread over the tiers (tiers.c), small tensors are set
 * apart (small_apart.c), and the chosen strategy places what is left
 * (strategy.c).
 */
static const struct tplan_stage pipeline[] = {
	{ tplan_aliases_stage },
	{ tplan_models_stage },
	{ tplan_tiers_stage },
	{ tplan_small_apart_stage },
	{ tplan_strategy_stage },
};

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
 * The table goes through the stages of &pipeline.  The lower bound
 * reported is that of what was planned: the folded table, the models'
 * common timeline (serial) or the sum of the models' bounds (concurrent).
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
	struct tplan_facts facts;
	struct tplan_tiers tiers;
	u64 start = tplan_now_ns();
	int ret;

	memset(res, 0, sizeof(*res));
	if (opts->strategy >= TPLAN_STRATEGY_COUNT ||
	    (opts->flags & ~TPLAN_PLAN_KNOWN_FLAGS) ||
	    tplan_tiers_from_options(opts, &tiers))
		return -EINVAL;
	res->strategy = opts->strategy;
	/* the aliases stage checks the alias groups as it folds them */
	ret = tplan_check_unfolded(t, n, opts, &facts, NULL);
	if (!ret)
		ret = tplan_check_pins(t, n, opts, true, &facts, NULL);
	if (ret)
		return ret;
	res->naive_total = facts.naive_total;
	if (!(facts.has & ~TPLAN_HAS_TIERS)) {
		run.plain = t;
		run.plain_n = n;
	}
	tplan_work_init(&run.work, tplan_strategy_budget(opts),
			opts->time_limit_ns,
			!opts->budget ||
			(opts->flags & TPLAN_PLAN_DEFAULT_BUDGET));
	ret = tplan_next_stage(pipeline, t, n, &tiers, &run);
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

/**
 * tplan_plan_bound() - the lower bound tplan_plan() reports for a table
 * @t: the tensors
 * @n: how many
 * @opts: the options (%TPLAN_PLAN_ALIASES, %TPLAN_PLAN_SERIAL count)
 * @bound: the largest sum of sizes alive at one step: of the alias groups
 *         folded, of the models' common timeline when serial, summed over
 *         the models when concurrent
 *
 * Return: 0, or as tplan_check_input().
 */
int tplan_plan_bound(const struct tplan_tensor *t, u32 n,
		     const struct tplan_options *opts, u64 *bound)
{
	bool serial = opts->flags & TPLAN_PLAN_SERIAL;
	struct tplan_alias_map m;
	/* folding below checks the alias groups */
	struct tplan_facts facts;
	int ret = tplan_check_unfolded(t, n, opts, &facts, NULL);

	if (!ret)
		ret = tplan_check_pins(t, n, opts, false, &facts, NULL);
	if (ret)
		return ret;
	if (!(opts->flags & TPLAN_PLAN_ALIASES))
		return tplan_models_bound(t, n, serial, opts->gaps, bound);
	ret = tplan_fold_aliases(t, n, &m, NULL);
	if (!ret) {
		ret = tplan_models_bound(m.folded, m.count, serial, opts->gaps,
					 bound);
		tplan_alias_map_free(&m);
	}
	return ret;
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_plan_bound);
