// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * validate_spill.c - an independent check of a spill plan: it shares no
 * code with spill.c or spill_evict.c, only the input rules
 * (table_check.c) and, for the addresses, the plan validator (validate.c),
 * which knows nothing of placement.
 */
#include "core/internal.h"

/* Pieces by tensor, then piece number, then index. */
static int cmp_piece(const void *a, const void *b, const void *priv)
{
	const struct tplan_piece *p = priv;
	u32 ia = *(const u32 *)a, ib = *(const u32 *)b;
	int c = tplan_cmp_u64(p[ia].tensor, p[ib].tensor);

	if (!c)
		c = tplan_cmp_u64(p[ia].piece, p[ib].piece);
	return c ? c : tplan_cmp_u64(ia, ib);
}

/* Each piece alone: a known tensor, inside its lifetime, in the room. */
static int check_each(const struct tplan_tensor *t, u32 n,
		      const struct tplan_piece *p, u32 np, u64 capacity,
		      struct tplan_finding *f)
{
	u32 j;

	for (j = 0; j < np; j++) {
		const struct tplan_tensor *x;

		if (p[j].tensor >= n)
			return tplan_defect(f, TPLAN_DEFECT_PIECE_UNKNOWN, j, j);
		x = &t[p[j].tensor];
		if (p[j].lower >= p[j].upper || p[j].lower < x->lower ||
		    p[j].upper > x->upper)
			return tplan_defect(f, TPLAN_DEFECT_PIECE_OUTSIDE, j, j);
		if (p[j].offset & (tplan_alignment(x) - 1) ||
		    p[j].host_offset & (tplan_alignment(x) - 1))
			return tplan_defect(f, TPLAN_DEFECT_MISALIGNED, j, j);
		if (x->size && (x->size > capacity ||
				p[j].offset > capacity - x->size))
			return tplan_defect(f, TPLAN_DEFECT_CAPACITY, j, j);
	}
	return 0;
}

/* Does some piece of @ord[@a..@b) hold step @s? */
static bool held(const struct tplan_piece *p, const u32 *ord, u32 a, u32 b,
		 u64 s)
{
	for (; a < b; a++)
		if (p[ord[a]].lower <= s && s < p[ord[a]].upper)
			return true;
	return false;
}

/* Tensor @i's pieces @ord[@a..@b): numbered, in order, holding its uses. */
static int check_tensor(const struct tplan_tensor *t, u32 i,
			const struct tplan_uses *u, const struct tplan_piece *p,
			const u32 *ord, u32 a, u32 b, struct tplan_finding *f)
{
	u32 k;

	if (a == b)
		return tplan_defect(f, TPLAN_DEFECT_USE_OUT, i, i);
	if (p[ord[a]].lower != t[i].lower)
		return tplan_defect(f, TPLAN_DEFECT_PIECE_START, ord[a], ord[a]);
	for (k = a; k < b; k++) {
		if (p[ord[k]].piece != k - a)
			return tplan_defect(f, TPLAN_DEFECT_PIECE_ORDER, ord[k],
					    k > a ? ord[k - 1] : ord[k]);
		if (k > a && p[ord[k - 1]].upper >= p[ord[k]].lower)
			return tplan_defect(f, TPLAN_DEFECT_PIECE_ORDER, ord[k],
					    ord[k - 1]);
	}
	if (!u || u->start[i] == u->start[i + 1])
		return held(p, ord, a, b, t[i].upper - 1) ? 0 :
		       tplan_defect(f, TPLAN_DEFECT_USE_OUT, i, i);
	/* uses and pieces are both in time order: one walk */
	for (k = u->start[i]; k < u->start[i + 1]; k++) {
		while (a < b && p[ord[a]].upper <= u->step[k])
			a++;
		if (a == b || p[ord[a]].lower > u->step[k])
			return tplan_defect(f, TPLAN_DEFECT_USE_OUT, i, i);
	}
	return 0;
}

/*
 * The pieces as a plan (device) or the copies out between them (host,
 * @host): no two alive at once may share a byte.  A copy holds its host
 * bytes from the boundary it goes out at through the step it comes back
 * at: copies out go first at a boundary, so one going out where another
 * comes back may not take its bytes.  (A piece going out and one coming in
 * at one boundary may share device bytes: the first is read before the
 * second is written.)
 */
static int check_bytes(const struct tplan_tensor *t,
		       const struct tplan_piece *p, const u32 *ord, u32 np,
		       u64 capacity, bool host, struct tplan_tensor *x,
		       u32 *back, struct tplan_finding *f)
{
	struct tplan_finding g;
	u32 k, m = 0;
	int ret;

	for (k = 0; k < np; k++) {
		const struct tplan_piece *c = &p[ord[k]];

		if (host && !c->piece)
			continue;
		memset(&x[m], 0, sizeof(x[m]));
		x[m].id = m;
		x[m].size = t[c->tensor].size;
		x[m].alignment = tplan_alignment(&t[c->tensor]);
		x[m].lower = host ? p[ord[k - 1]].upper : c->lower;
		x[m].upper = host ? c->lower + 1 : c->upper;
		x[m].offset = host ? c->host_offset : c->offset;
		back[m++] = ord[k];
	}
	ret = tplan_validate(x, m, capacity, &g);
	if (ret == -EINVAL && g.defect != TPLAN_DEFECT_NONE)
		return tplan_defect(f, host ? TPLAN_DEFECT_HOST_OVERLAP :
				    g.defect, back[g.index], back[g.other]);
	return ret;
}

/**
 * tplan_validate_spill() - check a spill plan
 * @t: the table the plan is for
 * @n: its tensors
 * @u: their uses, or NULL (lower and upper - 1)
 * @p: the pieces
 * @np: how many
 * @capacity: the device's bytes
 * @finding: the first defect (may be NULL): @index and @other are pieces,
 *           except for %TPLAN_DEFECT_USE_OUT (and the input rules), where
 *           they are the tensor
 *
 * Every tensor has pieces numbered 0, 1, ... in time order, with a gap
 * between two; the first starts at lower; each lies in the lifetime; every
 * use is in one; offsets are aligned and within @capacity; pieces alive at
 * one step share no byte, nor do the copies out between pieces in the host
 * staging area (each from the boundary it goes out at through the step it
 * comes back at, so that all copies out may go before all copies in at a
 * boundary).  O(np log np) time, about 140 bytes per piece.
 *
 * Return: 0, -EINVAL with the defect, -ENOMEM.
 */
int tplan_validate_spill(const struct tplan_tensor *t, u32 n,
			 const struct tplan_uses *u,
			 const struct tplan_piece *p, u32 np, u64 capacity,
			 struct tplan_finding *finding)
{
	struct tplan_tensor *x = NULL;
	u32 *ord, *back = NULL, i, a = 0, b;
	int ret;

	ret = tplan_check_spill_input(t, n, u, finding);
	if (!ret)
		ret = check_each(t, n, p, np, capacity, finding);
	if (ret)
		return ret;
	ord = tplan_alloc_array(np, sizeof(*ord));
	if (!ord)
		return -ENOMEM;
	for (i = 0; i < np; i++)
		ord[i] = i;
	tplan_sort(ord, np, sizeof(*ord), cmp_piece, p);
	for (i = 0; i < n && !ret; i++) {
		for (b = a; b < np && p[ord[b]].tensor == i; b++)
			;
		ret = check_tensor(t, i, u, p, ord, a, b, finding);
		a = b;
	}
	if (!ret) {
		x = tplan_alloc_array(np, sizeof(*x));
		back = tplan_alloc_array(np, sizeof(*back));
		ret = x && back ? 0 : -ENOMEM;
	}
	if (!ret)
		ret = check_bytes(t, p, ord, np, capacity, false, x, back,
				  finding);
	if (!ret)
		ret = check_bytes(t, p, ord, np, 0, true, x, back, finding);
	tplan_free(x);
	tplan_free(back);
	tplan_free(ord);
	return ret;
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_validate_spill);
