// SPDX-License-Identifier: MIT
/*
 * port.c - libtplan's side of the planner's port (planner/port.h): libc's
 * memory, sort and clock, and a planner that is never stopped (a caller
 * bounds it with its work budget and time limit).  Every program that
 * links the planner's sources links this file too; the kernel module's
 * side is driver/meter.c.
 */
#include <stdlib.h>
#include <time.h>

#include "port.h"

void *tplan_port_alloc(size_t n, size_t size)
{
	size_t bytes;

	if (check_mul_overflow(n, size, &bytes))
		return NULL;
	return malloc(bytes ? bytes : 1);
}

void tplan_port_free(void *p)
{
	free(p);
}

struct sort_ctx {
	tplan_cmp_fn cmp;
	const void *priv;
};

static int sort_adapter(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *ctx = arg;

	return ctx->cmp(a, b, ctx->priv);
}

/*
 * Neither qsort_r() nor the kernel's sort_r() is stable; every planner
 * comparator is a total order, so both give the same result.
 */
void tplan_port_sort(void *base, size_t n, size_t size, tplan_cmp_fn cmp,
		     const void *priv)
{
	struct sort_ctx ctx = { cmp, priv };

	qsort_r(base, n, size, sort_adapter, &ctx);
}

u64 tplan_port_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

bool tplan_port_should_stop(void)
{
	return false;
}

bool tplan_port_cut_short(void)
{
	return false;
}
