// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * pins.c - the rules of pinned offsets, gaps and hints (MiniMalloc's
 * offset, gaps and hint columns) that hold before any stage runs.
 *
 * Pinned tensors stay where they are and the strategy plans the others
 * around them, so the pins themselves must be a valid plan: aligned,
 * within the capacity, no two present at one step in overlapping bytes.
 * What the pipeline cannot honour is refused, each with its own defect:
 * pins, gaps or hints with several models or share_key tensors (the models
 * stage moves lifetimes and offsets) and pins with tiers (a pin names no
 * tier).
 *
 * These rules come last, so this file also holds tplan_check_input(), all
 * the input rules in order: the table's (table_check.c), the alias groups'
 * (alias.c), then these.  The file is above table_check.c and validate.c
 * (which checks the pins' own plan): neither calls anything here.
 */
#include "core/gaps.h"

/* The first tensor of a table that is pinned, hinted or has gaps. */
static u32 first_constrained(const struct tplan_tensor *t, u32 n)
{
	u32 i;

	for (i = 0; i < n && !tplan_is_constrained(&t[i]); i++)
		;
	return i;
}

/* The first tensor making @t more than one model's plain table, or @n. */
static u32 first_other_model(const struct tplan_tensor *t, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (t[i].share_key || t[i].model != t[0].model)
			return i;
	return n;
}

/* Aligned, within the capacity, and far enough from 2^64 to plan above. */
static int check_pin(const struct tplan_tensor *t, u32 n, u32 i, u64 capacity,
		     u64 total, struct tplan_finding *f)
{
	const struct tplan_tensor *x = &t[i];

	if (x->offset & (tplan_alignment(x) - 1))
		return tplan_defect(f, TPLAN_DEFECT_PIN_MISALIGNED, i, i);
	if (!tplan_ends_below_room(x, x->offset, total) ||
	    (capacity && x->offset + x->size > capacity))
		return tplan_defect(f, TPLAN_DEFECT_PIN_CAPACITY, i, i);
	return 0;
}

/*
 * The pinned tensors of @t, as a plan of their own, must be valid; @of
 * names the tensor of the caller's table each row of @t stands for.
 */
static int check_pins_in(const struct tplan_tensor *t, u32 n, const u32 *of,
			 const struct tplan_options *opts,
			 struct tplan_finding *f)
{
	struct tplan_finding found = { TPLAN_DEFECT_NONE, 0, 0 };
	struct tplan_tensor *pinned;
	u64 total = tplan_stack_room(t, n);
	u32 i, k = 0, *map;
	int ret = 0;

	for (i = 0; i < n && !ret; i++)
		if (t[i].flags & TPLAN_TENSOR_PINNED)
			ret = check_pin(t, n, i, opts->capacity, total, &found);
	if (ret)
		return tplan_defect(f, found.defect, of[found.index],
				    of[found.index]);
	pinned = tplan_alloc_array(n, sizeof(*pinned));
	map = tplan_alloc_array(n, sizeof(*map));
	if (!pinned || !map) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (!(t[i].flags & TPLAN_TENSOR_PINNED))
			continue;
		pinned[k] = t[i];
		pinned[k].flags = 0;
		pinned[k].id = k;
		pinned[k].model = 0;
		map[k++] = of[i];
	}
	ret = tplan_validate_gaps(pinned, k, opts->gaps, opts->gap_count, 0,
				  &found);
	if (ret == -EINVAL && found.defect == TPLAN_DEFECT_OVERLAP)
		ret = tplan_defect(f, TPLAN_DEFECT_PIN_OVERLAP,
				   map[found.index], map[found.other]);
out:
	tplan_free(pinned);
	tplan_free(map);
	return ret;
}

/* The pins, with alias groups folded when the plan honours them. */
static int check_pins(const struct tplan_tensor *t, u32 n,
		      const struct tplan_options *opts,
		      struct tplan_finding *f)
{
	struct tplan_alias_map m;
	u32 *of, i;
	int ret;

	of = tplan_alloc_array(n, sizeof(*of));
	if (!of)
		return -ENOMEM;
	if (!(opts->flags & TPLAN_PLAN_ALIASES)) {
		for (i = 0; i < n; i++)
			of[i] = i;
		ret = check_pins_in(t, n, of, opts, f);
		tplan_free(of);
		return ret;
	}
	ret = tplan_fold_aliases(t, n, &m, f);
	if (!ret) {
		for (i = 0; i < n; i++)
			if (m.root[i] == i)
				of[m.slot[i]] = i;
		ret = check_pins_in(m.folded, m.count, of, opts, f);
		tplan_alias_map_free(&m);
	}
	tplan_free(of);
	return ret;
}

/**
 * tplan_check_pins() - the rules of pins, gaps and hints
 * @t: the tensors, accepted by tplan_check_unfolded()
 * @n: how many
 * @opts: the options (their gaps, capacity, tiers, flags)
 * @planning: the table is to be planned (pins must then form a valid
 *            plan); false for a plan to check,
 *            whose offsets are all the validator looks at
 * @facts: what the table check saw (tplan_check_unfolded()): a table
 *         without pins, hints or gaps is not walked again
 * @f: the first defect found (may be NULL)
 *
 * Return: 0, -EINVAL with @f filled, -EOVERFLOW, -ENOMEM, -E2BIG, or
 * -EINTR for a signal pending while the pins are checked (kernel).
 */
int tplan_check_pins(const struct tplan_tensor *t, u32 n,
		     const struct tplan_options *opts, bool planning,
		     const struct tplan_facts *facts, struct tplan_finding *f)
{
	u32 first, other, i;
	int ret;

	if (!(facts->has & TPLAN_HAS_CONSTRAINED))
		return 0;
	ret = tplan_check_gaps(t, n, opts->gaps, opts->gap_count, f);
	if (ret)
		return ret;
	first = first_constrained(t, n);
	if (first == n)
		return 0;
	if (!planning) {
		for (i = 0; i < n && !t[i].gap_count; i++)
			;
		first = i;
		if (first == n)
			return 0;
	}
	other = first_other_model(t, n);
	if (other < n)
		return tplan_defect(f, TPLAN_DEFECT_CONSTRAINED_MODELS, first, other);
	if (!planning)
		return 0;
	for (i = 0; i < n; i++)
		if ((t[i].flags & TPLAN_TENSOR_PINNED) && opts->tier_count > 1)
			return tplan_defect(f, TPLAN_DEFECT_PIN_TIERS, i, i);
	return check_pins(t, n, opts, f);
}

/*
 * The input rules; @planning: those of a table to plan, else those of a
 * plan to check (tplan_check_pins()).
 */
int tplan_check_input_for(const struct tplan_tensor *t, u32 n,
			  const struct tplan_options *opts, bool planning,
			  struct tplan_finding *finding)
{
	struct tplan_alias_map m;
	struct tplan_facts facts;
	int ret = tplan_check_unfolded(t, n, opts, &facts, finding);

	if (!ret && (opts->flags & TPLAN_PLAN_ALIASES)) {
		ret = tplan_fold_aliases(t, n, &m, finding);
		if (!ret)
			tplan_alias_map_free(&m);
	}
	if (!ret)
		ret = tplan_check_pins(t, n, opts, planning, &facts, finding);
	return ret;
}

/**
 * tplan_check_input() - check everything tplan_plan() checks before planning
 * @t: the tensors
 * @n: how many
 * @opts: the options the table will be planned with
 * @finding: where to say what is wrong (may be NULL)
 *
 * The table rules (tplan_check_table()), each tensor's allowed tiers
 * against the plan's (TIER_UNKNOWN), share_key groups (tplan_check_shares())
 * alias groups when @opts honour them (tplan_fold_aliases()), and the
 * rules of pins, gaps and hints (tplan_check_pins()).
 *
 * Return: 0, -EINVAL or -EOVERFLOW with @finding filled, or -ENOMEM.
 */
int tplan_check_input(const struct tplan_tensor *t, u32 n,
		      const struct tplan_options *opts,
		      struct tplan_finding *finding)
{
	return tplan_check_input_for(t, n, opts, true, finding);
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_check_input);
