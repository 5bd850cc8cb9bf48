// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * table_check.c - the rules every table and its options obey before they
 * are planned, and the names of the defects found.  It is below the
 * checkers (validate.c) and the rules of pins (pins.c, which has
 * tplan_check_input(), every rule in order): it calls neither.
 */
#include "core/gaps.h"
#include "core/key_sort.h"

static int found(struct tplan_finding *f, u32 defect, u32 index, u32 other)
{
	int ret = tplan_defect(f, defect, index, other);

	return defect == TPLAN_DEFECT_TOO_LARGE ? -EOVERFLOW : ret;
}

/* What row @i of @t adds to @facts. */
static void note_row(const struct tplan_tensor *t, u32 i,
		     struct tplan_facts *facts)
{
	const struct tplan_tensor *x = &t[i];

	facts->in_order &= !i || tplan_cmp_key(&t[i - 1], x) < 0;
	if (x->size)
		facts->naive_total = tplan_align_up(facts->naive_total,
						    tplan_alignment(x)) +
				     x->size;
	facts->has |= (x->tiers ? TPLAN_HAS_TIERS : 0) |
		      (x->share_key ? TPLAN_HAS_SHARES : 0) |
		      (tplan_is_constrained(x) ? TPLAN_HAS_CONSTRAINED : 0) |
		      (x->model != t[0].model ? TPLAN_HAS_MODELS : 0);
}

/*
 * Bounding the sum of size + alignment - 1 bounds every offset any strategy
 * computes (none places a tensor above all the others stacked), so no later
 * sum can overflow (the naive total included: it is at most that sum).
 */
static int check_rows(const struct tplan_tensor *t, u32 n,
		      struct tplan_facts *facts, struct tplan_finding *f)
{
	u64 total = 0;
	u32 i;

	*facts = (struct tplan_facts){ .in_order = true };
	for (i = 0; i < n; i++) {
		if (t[i].upper <= t[i].lower)
			return found(f, TPLAN_DEFECT_LIFETIME, i, i);
		if (!tplan_is_pow2(tplan_alignment(&t[i])))
			return found(f, TPLAN_DEFECT_ALIGNMENT, i, i);
		if ((t[i].flags & ~TPLAN_TENSOR_KNOWN_FLAGS) || t[i].pad)
			return found(f, TPLAN_DEFECT_FLAGS, i, i);
		if (t[i].tiers >> TPLAN_MAX_TIERS)
			return found(f, TPLAN_DEFECT_TIER_UNKNOWN, i, i);
		if (check_add_overflow(total, t[i].size, &total) ||
		    check_add_overflow(total, tplan_alignment(&t[i]) - 1, &total))
			return found(f, TPLAN_DEFECT_TOO_LARGE, i, i);
		note_row(t, i, facts);
	}
	return 0;
}

/*
 * Rows in increasing (model, id) order, as importers write them, have no
 * duplicate (check_rows() says whether they are).  Otherwise, sorted by
 * model, then id (two stable sorts), a duplicate is a neighbour.
 */
static int check_unique_ids(const struct tplan_tensor *t, u32 n,
			    struct tplan_finding *f)
{
	struct tplan_key *key;
	int ret = 0;
	u32 i;

	key = tplan_alloc_array(n, sizeof(*key));
	if (!key)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		key[i].value = t[i].id;
		key[i].idx = i;
		key[i].pad = 0;
	}
	tplan_key_sort(key, n);
	for (i = 0; i < n; i++)
		key[i].value = t[key[i].idx].model;
	tplan_key_sort(key, n);
	for (i = 1; i < n; i++) {
		if (!tplan_cmp_key(&t[key[i].idx], &t[key[i - 1].idx])) {
			/* stable: key[i - 1] is the earlier row */
			ret = found(f, TPLAN_DEFECT_DUPLICATE_ID, key[i].idx,
				    key[i - 1].idx);
			break;
		}
	}
	tplan_free(key);
	return ret;
}

/*
 * tplan_check_table(), and what its pass saw of the table into @facts
 * (complete only on success).
 */
int tplan_check_table_facts(const struct tplan_tensor *t, u32 n,
			    struct tplan_facts *facts,
			    struct tplan_finding *finding)
{
	int ret;

	if (finding)
		found(finding, TPLAN_DEFECT_NONE, 0, 0);
	ret = check_rows(t, n, facts, finding);
	if (ret || facts->in_order)
		return ret;
	return check_unique_ids(t, n, finding);
}

/**
 * tplan_check_table() - check that a table can be planned
 * @t: the tensors
 * @n: how many
 * @finding: where to say what is wrong (may be NULL); defect NONE if nothing
 *
 * Rows must have upper > lower, a power-of-two alignment, no unknown flags,
 * no tier beyond %TPLAN_MAX_TIERS, ids unique within their model, and sizes
 * (plus alignment slack) that add up below 2^64.
 *
 * Return: 0, -EINVAL (bad row), -EOVERFLOW (too large) or -ENOMEM.
 */
int tplan_check_table(const struct tplan_tensor *t, u32 n,
		      struct tplan_finding *finding)
{
	struct tplan_facts facts;

	return tplan_check_table_facts(t, n, &facts, finding);
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_check_table);

/* Every tensor must allow a tier among the plan's @count (TIER_UNKNOWN). */
static int check_tiers(const struct tplan_tensor *t, u32 n, u32 count,
		       struct tplan_finding *f)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (!tplan_allowed_tiers(&t[i], count))
			return tplan_defect(f, TPLAN_DEFECT_TIER_UNKNOWN, i, i);
	return 0;
}

/*
 * tplan_check_input() but the alias groups: for the callers that fold them
 * next anyway (folding checks them).  What the table's pass saw goes into
 * @facts; the tiers and shares are only looked at if some row has them.
 */
int tplan_check_unfolded(const struct tplan_tensor *t, u32 n,
			 const struct tplan_options *opts,
			 struct tplan_facts *facts,
			 struct tplan_finding *finding)
{
	u32 tier_count = max(opts->tier_count, 1U);
	int ret = tplan_check_table_facts(t, n, facts, finding);

	if (!ret && (facts->has & TPLAN_HAS_TIERS))
		ret = check_tiers(t, n, tier_count, finding);
	if (!ret && (facts->has & TPLAN_HAS_SHARES))
		ret = tplan_check_shares(t, n, tier_count, finding);
	return ret;
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
	[TPLAN_DEFECT_USES] =
		"uses are not strictly increasing steps inside the lifetime",
	[TPLAN_DEFECT_PIECE_UNKNOWN] = "piece of no tensor, or tensor without pieces",
	[TPLAN_DEFECT_PIECE_ORDER] =
		"pieces not numbered in time order with a gap between them",
	[TPLAN_DEFECT_PIECE_OUTSIDE] = "piece is empty or outside its lifetime",
	[TPLAN_DEFECT_PIECE_START] = "first piece does not start at lower",
	[TPLAN_DEFECT_USE_OUT] = "a use lies in no piece",
	[TPLAN_DEFECT_HOST_OVERLAP] = "evicted copies share host staging bytes",
	[TPLAN_DEFECT_SPILL_MODELS] = "a spill plan takes the tensors of one model",
	[TPLAN_DEFECT_SPILL_SHARED] = "a spill plan takes no share_key tensor",
	[TPLAN_DEFECT_SPILL_CONSTRAINED] =
		"a spill plan moves every tensor: it takes no pin, gap or hint",
	[TPLAN_DEFECT_GAP_UNKNOWN] = "gaps lie outside the gap array",
	[TPLAN_DEFECT_GAP_OUTSIDE] = "gap is empty or outside the lifetime",
	[TPLAN_DEFECT_GAP_ORDER] = "gaps overlap or are not in time order",
	[TPLAN_DEFECT_GAP_WINDOW] =
		"gap window is reversed or beyond the size, or bad gap flags",
	[TPLAN_DEFECT_PIN_OVERLAP] =
		"pinned tensors share addresses while both are present",
	[TPLAN_DEFECT_PIN_MISALIGNED] =
		"pinned offset is not a multiple of the alignment",
	[TPLAN_DEFECT_PIN_CAPACITY] = "pinned tensor ends beyond the capacity",
	[TPLAN_DEFECT_PIN_ALIAS] =
		"pins of one alias group disagree or put its owner below 0",
	[TPLAN_DEFECT_GAP_ALIAS] = "a tensor of an alias group has gaps",
	[TPLAN_DEFECT_CONSTRAINED_MODELS] =
		"pins, gaps and hints need a table of one model without share_key",
	[TPLAN_DEFECT_PIN_TIERS] = "pins cannot be combined with tiers",
};

/**
 * tplan_defect_name() - describe a defect
 * @defect: an &enum tplan_defect value
 *
 * Return: a short English phrase.
 */
const char *tplan_defect_name(u32 defect)
{
	if (defect >= ARRAY_SIZE(defect_names))
		return "unknown defect";
	return defect_names[defect];
}

/**
 * tplan_check_uses() - check the uses of a table's tensors
 * @t: the tensors, already accepted by tplan_check_table()
 * @n: how many
 * @u: the uses, or NULL (every tensor: lower and upper - 1); @u->step
 *     holds at least @u->start[@n] entries
 * @finding: where to say what is wrong (may be NULL); index is the tensor,
 *           other the index of the offending use in @u->step
 *
 * The whole of @u->start is checked before any step is read, so a
 * caller's @u->start (a device's caller's, say) reads no step past
 * @u->start[@n].
 *
 * Return: 0, or -EINVAL when @u->start does not start at 0 or go up, or a
 * tensor's uses are not strictly increasing inside [lower, upper).
 */
int tplan_check_uses(const struct tplan_tensor *t, u32 n,
		     const struct tplan_uses *u, struct tplan_finding *finding)
{
	u32 i, k;

	if (finding)
		tplan_defect(finding, TPLAN_DEFECT_NONE, 0, 0);
	if (!u)
		return 0;
	if (!u->start || (!u->step && n && u->start[n]) || u->start[0])
		return -EINVAL;
	/* all of start first: an entry above start[n] would read past step */
	for (i = 0; i < n; i++)
		if (u->start[i + 1] < u->start[i])
			return -EINVAL;
	for (i = 0; i < n; i++) {
		for (k = u->start[i]; k < u->start[i + 1]; k++) {
			u64 s = u->step[k];

			if (s < t[i].lower || s >= t[i].upper ||
			    (k > u->start[i] && s <= u->step[k - 1]))
				return tplan_defect(finding, TPLAN_DEFECT_USES,
						    i, k);
		}
	}
	return 0;
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_check_uses);

/* Gaps of more than a step between @i's uses (its birth counted as one). */
static u64 spill_gaps(const struct tplan_tensor *t, const struct tplan_uses *u,
		      u32 i)
{
	u64 gaps = 0, last = t[i].lower;
	u32 k;

	if (!u || u->start[i + 1] == u->start[i])
		return t[i].upper - 1 > t[i].lower + 1;
	for (k = u->start[i]; k < u->start[i + 1]; k++) {
		gaps += u->step[k] > last + 1;
		last = u->step[k];
	}
	return gaps;
}

/*
 * A spill plan places a tensor once per piece (one more than its gaps
 * between uses) and moves it out and back once per gap: with each size
 * (and its alignment slack) counted twice per gap and once more, the sum
 * must stay below 2^64, so that the pieces, the copies out and the bytes
 * moved each add up as a table's sizes do, without overflow.  A table
 * without gaps between uses meets it already.
 */
static int check_spill_bytes(const struct tplan_tensor *t, u32 n,
			     const struct tplan_uses *u,
			     struct tplan_finding *f)
{
	u64 total = 0, bytes;
	u32 i;

	for (i = 0; i < n; i++) {
		tplan_yield_every(i);
		if (check_mul_overflow(t[i].size + tplan_alignment(&t[i]) - 1,
				       2 * spill_gaps(t, u, i) + 1, &bytes) ||
		    check_add_overflow(total, bytes, &total))
			return found(f, TPLAN_DEFECT_TOO_LARGE, i, i);
	}
	return 0;
}

/**
 * tplan_check_spill_input() - check a table and its uses for a spill plan
 * @t: the tensors
 * @n: how many
 * @u: their uses, or NULL (every tensor: lower and upper - 1)
 * @finding: where to say what is wrong (may be NULL)
 *
 * A spill plan is one timeline and one memory: the table rules
 * (tplan_check_table()), one model (several models' steps are not one
 * timeline), no share_key (kept for the whole run, a tensor spill plans do
 * not have), no pin, gap or hint (every tensor may move), the uses
 * (tplan_check_uses()), and the sizes, each counted twice per gap between
 * uses and once more, adding up below 2^64 (-EOVERFLOW, defect TOO_LARGE).
 * Alias, tier and priority columns are not looked at, as by tplan_plan()
 * without their options.
 *
 * Return: 0, or what the first failed check returns (-EINVAL with a
 * finding, -EOVERFLOW).
 */
int tplan_check_spill_input(const struct tplan_tensor *t, u32 n,
			    const struct tplan_uses *u,
			    struct tplan_finding *finding)
{
	u32 i;
	int ret;

	ret = tplan_check_table(t, n, finding);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		if (t[i].model != t[0].model)
			return tplan_defect(finding, TPLAN_DEFECT_SPILL_MODELS,
					    i, 0);
		if (t[i].share_key)
			return tplan_defect(finding, TPLAN_DEFECT_SPILL_SHARED,
					    i, i);
		if (t[i].gap_count ||
		    (t[i].flags & (TPLAN_TENSOR_PINNED | TPLAN_TENSOR_HINT)))
			return tplan_defect(finding, TPLAN_DEFECT_SPILL_CONSTRAINED,
					    i, i);
	}
	ret = tplan_check_uses(t, n, u, finding);
	return ret ? ret : check_spill_bytes(t, n, u, finding);
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_check_spill_input);

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

/**
 * tplan_check_options() - check the options alone, as tplan_plan() does
 * @opts: the options
 *
 * The strategy, the flags and the tiers (tplan_tiers_from_options()):
 * what tplan_plan() rejects before it looks at a tensor.  libtplan checks
 * options with it without knowing the planner's &struct tplan_tiers.
 *
 * Return: 0 or -EINVAL.
 */
int tplan_check_options(const struct tplan_options *opts)
{
	struct tplan_tiers tiers;

	if (opts->strategy >= TPLAN_STRATEGY_COUNT ||
	    (opts->flags & ~TPLAN_PLAN_KNOWN_FLAGS))
		return -EINVAL;
	return tplan_tiers_from_options(opts, &tiers);
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_check_options);
