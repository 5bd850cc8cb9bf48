// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * table_check.c - the rules every table obeys before it is planned.
 */
#include "internal.h"

static int cmp_by_id(const void *a, const void *b, const void *priv)
{
	const struct tplan_tensor *t = priv;
	u32 ia = *(const u32 *)a, ib = *(const u32 *)b;
	int c = tplan_cmp_key(&t[ia], &t[ib]);

	return c ? c : tplan_cmp_u64(ia, ib);
}

static int found(struct tplan_finding *f, u32 defect, u32 index, u32 other)
{
	int ret = tplan_defect(f, defect, index, other);

	return defect == TPLAN_DEFECT_TOO_LARGE ? -EOVERFLOW : ret;
}

/*
 * Bounding the sum of size + alignment - 1 bounds every offset any strategy
 * computes (none places a tensor above all the others stacked), so no later
 * sum can overflow.
 */
static int check_rows(const struct tplan_tensor *t, u32 n,
		      struct tplan_finding *f)
{
	u64 total = 0;
	u32 i;

	for (i = 0; i < n; i++) {
		if (t[i].upper <= t[i].lower)
			return found(f, TPLAN_DEFECT_LIFETIME, i, i);
		if (!tplan_is_pow2(t[i].alignment))
			return found(f, TPLAN_DEFECT_ALIGNMENT, i, i);
		if ((t[i].flags & ~TPLAN_TENSOR_KNOWN_FLAGS) || t[i].pad)
			return found(f, TPLAN_DEFECT_FLAGS, i, i);
		if (t[i].tiers >> TPLAN_MAX_TIERS)
			return found(f, TPLAN_DEFECT_TIER_UNKNOWN, i, i);
		if (check_add_overflow(total, t[i].size, &total) ||
		    check_add_overflow(total, t[i].alignment - 1, &total))
			return found(f, TPLAN_DEFECT_TOO_LARGE, i, i);
	}
	return 0;
}

static int check_unique_ids(const struct tplan_tensor *t, u32 n,
			    struct tplan_finding *f)
{
	u32 *order, i;
	int ret = 0;

	order = tplan_alloc_array(n, sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		order[i] = i;
	tplan_sort(order, n, sizeof(*order), cmp_by_id, t);
	for (i = 1; i < n; i++) {
		if (!tplan_cmp_key(&t[order[i]], &t[order[i - 1]])) {
			/* order[i - 1] < order[i]: report the later row */
			ret = found(f, TPLAN_DEFECT_DUPLICATE_ID, order[i],
				    order[i - 1]);
			break;
		}
	}
	tplan_free(order);
	return ret;
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
	int ret;

	if (finding)
		found(finding, TPLAN_DEFECT_NONE, 0, 0);
	ret = check_rows(t, n, finding);
	if (ret)
		return ret;
	return check_unique_ids(t, n, finding);
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_check_table);

/*
 * tplan_check_input() but the alias groups: for the callers that fold them
 * next anyway (folding checks them).
 */
int tplan_check_unfolded(const struct tplan_tensor *t, u32 n,
			 const struct tplan_options *opts,
			 struct tplan_finding *finding)
{
	u32 tier_count = max(opts->tier_count, 1U);
	int ret = tplan_check_table(t, n, finding);

	if (!ret)
		ret = tplan_check_tiers(t, n, tier_count, finding);
	if (!ret)
		ret = tplan_check_shares(t, n, tier_count, finding);
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
 * and alias groups when @opts honour them (tplan_fold_aliases()).
 *
 * Return: 0, -EINVAL or -EOVERFLOW with @finding filled, or -ENOMEM.
 */
int tplan_check_input(const struct tplan_tensor *t, u32 n,
		      const struct tplan_options *opts,
		      struct tplan_finding *finding)
{
	struct tplan_alias_map m;
	int ret = tplan_check_unfolded(t, n, opts, finding);

	if (!ret && (opts->flags & TPLAN_PLAN_ALIASES)) {
		ret = tplan_fold_aliases(t, n, &m, finding);
		if (!ret)
			tplan_alias_map_free(&m);
	}
	return ret;
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_check_input);
