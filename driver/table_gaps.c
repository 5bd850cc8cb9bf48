// SPDX-License-Identifier: GPL-2.0
/*
 * table_gaps.c - a submitted table's gaps: checked, copied in.
 */

/**
 * DOC: Submitted gaps
 *
 * Purpose: MiniMalloc's gaps (stretches of a lifetime when a tensor is
 * absent, or only partly present) come as an array of &struct
 * tplan_gap_desc beside the tensor descriptors, which index it.  It is
 * copied one descriptor at a time, so that a caller's larger stride works.
 *
 * Cost: at most %TPLAN_MAX_GAPS_PER_TENSOR per tensor of the table, 40
 * bytes each, through the memory meter; the copy yields and looks for
 * signals as the table copy does.  The planner checks each tensor's gaps
 * (inside its lifetime, in order, windows inside its size) and walks them
 * again wherever it meets the tensor, so its work follows the gaps the
 * tensors name, not the array's length: tensors may name the same gaps,
 * but all of them together at most %TPLAN_MAX_GAPS_PER_TENSOR per tensor
 * of the table too (else a table of n tensors all naming one array of 16n
 * gaps would cost 16n^2 before any budget applies).
 */
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "linux/tplan.h"

#include "planner.h"
#include "table.h"

static_assert(offsetofend(struct tplan_gap_desc, pad) ==
	      TPLAN_GAP_DESC_SIZE_VER1);
static_assert(offsetofend(struct tplan_tensor_desc, gap_count) ==
	      TPLAN_TENSOR_DESC_SIZE_VER2);
static_assert(sizeof(struct tplan_gap) == sizeof(struct tplan_gap_desc));

/* How often the gap copy yields and looks for signals. */
#define TPLAN_GAP_COPY_CHECK_INTERVAL	1024

/**
 * tplan_gaps_check() - check a SUBMIT request's gap fields
 * @req: the request
 *
 * Return: 0; -EINVAL for a pointer or stride without gaps, or a bad
 * stride; -E2BIG for more than %TPLAN_MAX_GAPS_PER_TENSOR per tensor;
 * -EOVERFLOW or -EFAULT for an array that cannot be in user memory.
 */
int tplan_gaps_check(const struct tplan_submit *req)
{
	size_t bytes;

	if (!req->gap_count)
		return req->gaps || req->gap_stride ? -EINVAL : 0;
	if ((u64)req->gap_count > (u64)req->count * TPLAN_MAX_GAPS_PER_TENSOR)
		return -E2BIG;
	if (req->gap_stride < TPLAN_GAP_DESC_SIZE_VER1 ||
	    req->gap_stride > TPLAN_TENSOR_DESC_MAX_STRIDE ||
	    req->gap_stride % 8)
		return -EINVAL;
	if (check_mul_overflow((size_t)req->gap_count,
			       (size_t)req->gap_stride, &bytes))
		return -EOVERFLOW;
	if (!access_ok(u64_to_user_ptr(req->gaps), bytes))
		return -EFAULT;
	return 0;
}

static int gap_from_desc(struct tplan_gap *g, const struct tplan_gap_desc *d)
{
	if ((d->flags & ~TPLAN_GAP_HAS_WINDOW) || d->pad)
		return -EINVAL;
	memset(g, 0, sizeof(*g));
	g->lower = d->lower;
	g->upper = d->upper;
	g->from = d->from;
	g->to = d->to;
	if (d->flags & TPLAN_GAP_HAS_WINDOW)
		g->flags = TPLAN_GAP_WINDOW;
	return 0;
}

/*
 * The gaps the tensors name: each tensor's inside the array (-EINVAL, as
 * the planner would say), and all of them together at most
 * %TPLAN_MAX_GAPS_PER_TENSOR per tensor (-E2BIG).
 */
static int check_refs(const struct tplan_submit *req,
		      const struct tplan_tensor *t)
{
	u64 named = 0;
	u32 i;

	for (i = 0; i < req->count; i++) {
		if (!(i % TPLAN_GAP_COPY_CHECK_INTERVAL))
			cond_resched();
		if (!t[i].gap_count)
			continue;
		if (t[i].gap_first > req->gap_count ||
		    t[i].gap_count > req->gap_count - t[i].gap_first)
			return -EINVAL;
		named += t[i].gap_count;
	}
	if (named > (u64)req->count * TPLAN_MAX_GAPS_PER_TENSOR)
		return -E2BIG;
	return 0;
}

/**
 * tplan_gaps_copy_in() - copy a request's gaps in
 * @req: a checked request
 * @t: its table, copied in: the gaps its tensors name are checked first
 * @gaps: out: the gaps (NULL when there are none), for tplan_free()
 *
 * Return: 0; -EFAULT; -E2BIG for tensors naming more than
 * %TPLAN_MAX_GAPS_PER_TENSOR gaps per tensor of the table, or non-zero
 * bytes past a descriptor this kernel knows; -EINVAL for a tensor's gaps
 * beyond the array, unknown flags or padding; -EINTR when a signal is
 * pending; -ENOMEM.
 */
int tplan_gaps_copy_in(const struct tplan_submit *req,
		       const struct tplan_tensor *t, struct tplan_gap **gaps)
{
	void __user *base = u64_to_user_ptr(req->gaps);
	struct tplan_gap_desc d;
	struct tplan_gap *g;
	u32 i;
	int ret;

	*gaps = NULL;
	ret = check_refs(req, t);
	if (ret || !req->gap_count)
		return ret;
	g = tplan_alloc_array(req->gap_count, sizeof(*g));
	if (!g)
		return -ENOMEM;
	for (i = 0; i < req->gap_count && !ret; i++) {
		ret = copy_struct_from_user(&d, sizeof(d),
					    base + (size_t)i * req->gap_stride,
					    req->gap_stride);
		if (!ret)
			ret = gap_from_desc(&g[i], &d);
		if (!ret && !(i % TPLAN_GAP_COPY_CHECK_INTERVAL)) {
			cond_resched();
			if (signal_pending(current))
				ret = -EINTR;
		}
	}
	if (ret) {
		tplan_free(g);
		return ret;
	}
	*gaps = g;
	return 0;
}
