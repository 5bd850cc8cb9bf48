// SPDX-License-Identifier: MIT
/*
 * spill_exec.c - carry out a spill plan as a runtime would, byte ranges
 * tagged with the tensor whose data they hold, and report the first tensor
 * read wrong.
 *
 * The order is the documented one (docs/PLANNER.md, Spill: Execution): at
 * the boundary before step s every copy out, then every copy in; then step
 * s reads its inputs (the uses at s) and writes its outputs (the tensors
 * born at s).  Bytes a piece leaves, on the device or in the host staging
 * area, hold nothing any more, as if garbage were written there.
 */
#include <stdlib.h>
#include <string.h>

#include "spill_exec.h"

#define NOBODY	(~(u32)0)

/* Byte ranges [lo, hi) and whose data each holds, sorted, disjoint. */
struct owners {
	struct owned {
		u64 lo;
		u64 hi;
		u32 tensor;
	} *r;
	u32 count;
	u32 cap;
};

/* A test tool: without memory it stops the test run. */
static void owners_push(struct owners *o, u64 lo, u64 hi, u32 tensor)
{
	if (lo >= hi)
		return;
	if (o->count == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 64;
		o->r = realloc(o->r, o->cap * sizeof(*o->r));
		if (!o->r)
			abort();
	}
	o->r[o->count].lo = lo;
	o->r[o->count].hi = hi;
	o->r[o->count++].tensor = tensor;
}

static int cmp_owned(const void *a, const void *b)
{
	const struct owned *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* [lo, hi) now holds @tensor's data (NOBODY: nothing). */
static void owners_write(struct owners *o, u64 lo, u64 hi, u32 tensor)
{
	struct owners out = { 0 };
	u32 i;

	for (i = 0; i < o->count; i++) {
		const struct owned *x = &o->r[i];

		if (x->hi <= lo || x->lo >= hi) {
			owners_push(&out, x->lo, x->hi, x->tensor);
			continue;
		}
		owners_push(&out, x->lo, lo, x->tensor);
		owners_push(&out, hi, x->hi, x->tensor);
	}
	if (tensor != NOBODY)
		owners_push(&out, lo, hi, tensor);
	if (out.count)
		qsort(out.r, out.count, sizeof(*out.r), cmp_owned);
	free(o->r);
	*o = out;
}

/* Whether all of [lo, hi) holds @tensor's data. */
static bool owners_hold(const struct owners *o, u64 lo, u64 hi, u32 tensor)
{
	u64 at = lo;
	u32 i;

	for (i = 0; i < o->count && at < hi; i++) {
		const struct owned *x = &o->r[i];

		if (x->hi <= at)
			continue;
		if (x->lo > at || x->tensor != tensor)
			return false;
		at = x->hi;
	}
	return at >= hi;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Every step anything happens at, sorted, without repeats. */
static u64 *steps_of(const struct tplan_piece *p, u32 np,
		     const struct tplan_uses *u, u32 n, u32 *count)
{
	u32 uses = u ? u->start[n] : 0, k, m = 0;
	u64 *s = malloc((2 * (size_t)np + uses + 1) * sizeof(*s));

	if (!s)
		abort();
	for (k = 0; k < np; k++) {
		s[m++] = p[k].lower;
		s[m++] = p[k].upper;
	}
	for (k = 0; k < uses; k++)
		s[m++] = u->step[k];
	qsort(s, m, sizeof(*s), cmp_u64);
	*count = 0;
	for (k = 0; k < m; k++)
		if (!k || s[k] != s[k - 1])
			s[(*count)++] = s[k];
	return s;
}

/* The piece after @k of the same tensor, or NOBODY. */
static u32 next_piece(const struct tplan_piece *p, u32 np, u32 k)
{
	u32 j;

	for (j = 0; j < np; j++)
		if (p[j].tensor == p[k].tensor && p[j].piece == p[k].piece + 1)
			return j;
	return NOBODY;
}

/* The piece of @tensor in device memory at @step, or NOBODY. */
static u32 piece_at(const struct tplan_piece *p, u32 np, u32 tensor, u64 step)
{
	u32 j;

	for (j = 0; j < np; j++)
		if (p[j].tensor == tensor && p[j].lower <= step &&
		    step < p[j].upper)
			return j;
	return NOBODY;
}

struct run {
	const struct tplan_tensor *t;
	u32 n;
	const struct tplan_uses *u;
	const struct tplan_piece *p;
	u32 np;
	struct owners dev;
	struct owners host;
	struct spill_exec_fault *fault;
};

static int fail(struct run *r, u32 tensor, u64 step, const char *what)
{
	r->fault->tensor = tensor;
	r->fault->step = step;
	r->fault->what = what;
	return 1;
}

static int boundary(struct run *r, u64 s)
{
	const struct tplan_piece *p = r->p;
	u32 k, nx;

	for (k = 0; k < r->np; k++) {	/* every copy out */
		u64 size = r->t[p[k].tensor].size;

		nx = p[k].upper == s ? next_piece(p, r->np, k) : NOBODY;
		if (nx == NOBODY || !size)
			continue;
		if (!owners_hold(&r->dev, p[k].offset, p[k].offset + size,
				 p[k].tensor))
			return fail(r, p[k].tensor, s, "copied out wrong");
		owners_write(&r->host, p[nx].host_offset,
			     p[nx].host_offset + size, p[k].tensor);
	}
	for (k = 0; k < r->np; k++)	/* what pieces leave is garbage */
		if (p[k].upper == s)
			owners_write(&r->dev, p[k].offset, p[k].offset +
				     r->t[p[k].tensor].size, NOBODY);
	for (k = 0; k < r->np; k++) {	/* then every copy in */
		u64 size = r->t[p[k].tensor].size;

		if (p[k].lower != s || !p[k].piece || !size)
			continue;
		if (!owners_hold(&r->host, p[k].host_offset,
				 p[k].host_offset + size, p[k].tensor))
			return fail(r, p[k].tensor, s, "copied in wrong");
		owners_write(&r->dev, p[k].offset, p[k].offset + size,
			     p[k].tensor);
		owners_write(&r->host, p[k].host_offset,
			     p[k].host_offset + size, NOBODY);
	}
	return 0;
}

/* Step @s reads its inputs, then writes its outputs. */
static int step(struct run *r, u64 s)
{
	const struct tplan_piece *p = r->p;
	u32 i, k, j;

	for (i = 0; i < r->n; i++) {
		const struct tplan_tensor *x = &r->t[i];
		u32 from = r->u ? r->u->start[i] : 0;
		u32 to = r->u ? r->u->start[i + 1] : 0;
		bool used = from == to && s == x->upper - 1;

		for (k = from; k < to; k++)
			used |= r->u->step[k] == s;
		if (!used || s == x->lower || !x->size)
			continue;
		j = piece_at(p, r->np, i, s);
		if (j == NOBODY)
			return fail(r, i, s, "used while out");
		if (!owners_hold(&r->dev, p[j].offset, p[j].offset + x->size,
				 i))
			return fail(r, i, s, "read wrong");
	}
	for (k = 0; k < r->np; k++)
		if (p[k].lower == s && !p[k].piece)
			owners_write(&r->dev, p[k].offset, p[k].offset +
				     r->t[p[k].tensor].size, p[k].tensor);
	return 0;
}

/**
 * spill_execute() - carry out a spill plan
 * @t: the table
 * @n: its tensors
 * @u: their uses, or NULL (lower and upper - 1)
 * @p: the plan's pieces
 * @np: how many
 * @fault: where the first tensor read wrong is told
 *
 * Return: 0 when every use read its own tensor's data, 1 at the first that
 * did not (@fault says which).
 */
int spill_execute(const struct tplan_tensor *t, u32 n,
		  const struct tplan_uses *u, const struct tplan_piece *p,
		  u32 np, struct spill_exec_fault *fault)
{
	struct run r = { t, n, u, p, np, { 0 }, { 0 }, fault };
	u32 count, k;
	u64 *s = steps_of(p, np, u, n, &count);
	int ret = 0;

	for (k = 0; k < count && !ret; k++) {
		ret = boundary(&r, s[k]);
		if (!ret)
			ret = step(&r, s[k]);
	}
	free(s);
	free(r.dev.r);
	free(r.host.r);
	return ret;
}
