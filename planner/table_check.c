// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * table_check.c - the rules every table obeys before it is planned.
 */
#include "internal.h"

static int cmp_by_id(const void *a, const void *b, const void *priv)
{
	const struct tplan_tensor *t = priv;
	u32 ia = *(const u32 *)a, ib = *(const u32 *)b;
	int c = tplan_cmp_u64(t[ia].id, t[ib].id);

	return c ? c : tplan_cmp_u64(ia, ib);
}

static int found(struct tplan_finding *f, u32 defect, u32 index, u32 other)
{
	if (f) {
		f->defect = defect;
		f->index = index;
		f->other = other;
	}
	return defect == TPLAN_DEFECT_TOO_LARGE ? -EOVERFLOW : -EINVAL;
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
		if (t[order[i]].id == t[order[i - 1]].id) {
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
 * unique ids, and sizes (plus alignment slack) that add up below 2^64.
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
