/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * compat.h - everything the shared planner needs from its environment.
 *
 * The planner is plain C compiled both into the kernel module and into
 * libtplan.  This header is the only place that knows which one it is:
 * fixed-width types, memory, sorting, time and cancellation.  Planner code
 * must not include any other kernel or libc header.
 */
#ifndef TPLAN_COMPAT_H
#define TPLAN_COMPAT_H

#ifdef __KERNEL__

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/prefetch.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/types.h>

/* driver/meter.c: charged to the caller and capped per submit. */
void *tplan_kernel_alloc(size_t n, size_t size);
void tplan_kernel_free(void *p);

static inline void *tplan_alloc_array(size_t n, size_t size)
{
	return tplan_kernel_alloc(n, size);
}

static inline void tplan_free(void *p)
{
	tplan_kernel_free(p);
}

/* Comparators take a context, as the kernel's sort_r() does. */
typedef int (*tplan_cmp_fn)(const void *a, const void *b, const void *priv);

static inline void tplan_sort(void *base, size_t n, size_t size,
			      tplan_cmp_fn cmp, const void *priv)
{
	sort_r(base, n, size, cmp, NULL, priv);
}

static inline u64 tplan_now_ns(void)
{
	return ktime_get_ns();
}

/* A hint that @addr will be read soon; it changes no result. */
static inline void tplan_prefetch(const void *addr)
{
	prefetch(addr);
}

/*
 * Entry points exported to tplan's KUnit test modules only, and only in a
 * kernel with KUnit: they are not part of the module's ABI.  This is what
 * EXPORT_SYMBOL_IF_KUNIT() does from 6.2 on, spelled out for 6.1.
 */
#if IS_ENABLED(CONFIG_KUNIT)
#define EXPORT_SYMBOL_FOR_TPLAN_TESTS(sym) \
	EXPORT_SYMBOL_NS_GPL(sym, EXPORTED_FOR_KUNIT_TESTING)
#else
#define EXPORT_SYMBOL_FOR_TPLAN_TESTS(sym)	static_assert(1, #sym)
#endif

/*
 * A preemption point; true when the calling task has a signal to take:
 * planning stops and the ioctl is restarted (planning is deterministic),
 * so SIGSTOP, the freezer and a handled SIGTERM are not kept waiting.
 */
static inline bool tplan_should_stop(void)
{
	cond_resched();
	return signal_pending(current);
}

#else /* userspace */

#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/types.h>

typedef __u64 u64;
typedef __u32 u32;
typedef __u16 u16;
typedef __u8 u8;
typedef __s64 s64;

#define BIT(nr)			(1UL << (nr))
/* Nothing to export in userspace; the assertion only eats the ';'. */
#define EXPORT_SYMBOL_FOR_TPLAN_TESTS(sym)	static_assert(1, #sym)
#define ARRAY_SIZE(arr)		(sizeof(arr) / sizeof((arr)[0]))

/*
 * Both sides have the same type in planner code, as the kernel's demand.
 * Each has its own names, so that min(max(...), ...) shadows nothing.
 */
#define min(a, b) ({ __auto_type min_a_ = (a); __auto_type min_b_ = (b); \
		     min_a_ < min_b_ ? min_a_ : min_b_; })
#define max(a, b) ({ __auto_type max_a_ = (a); __auto_type max_b_ = (b); \
		     max_a_ > max_b_ ? max_a_ : max_b_; })

#define unlikely(x)		__builtin_expect(!!(x), 0)

#define check_add_overflow(a, b, d) __builtin_add_overflow(a, b, d)
#define check_mul_overflow(a, b, d) __builtin_mul_overflow(a, b, d)

static inline void *tplan_alloc_array(size_t n, size_t size)
{
	size_t bytes;

	if (check_mul_overflow(n, size, &bytes))
		return NULL;
	return malloc(bytes ? bytes : 1);
}

static inline void tplan_free(void *p)
{
	free(p);
}

typedef int (*tplan_cmp_fn)(const void *a, const void *b, const void *priv);

struct tplan_sort_ctx {
	tplan_cmp_fn cmp;
	const void *priv;
};

static inline int tplan_sort_adapter(const void *a, const void *b, void *arg)
{
	const struct tplan_sort_ctx *ctx = arg;

	return ctx->cmp(a, b, ctx->priv);
}

/*
 * Neither qsort_r() nor the kernel's sort_r() is stable; every planner
 * comparator is a total order, so both give the same result.
 */
static inline void tplan_sort(void *base, size_t n, size_t size,
			      tplan_cmp_fn cmp, const void *priv)
{
	struct tplan_sort_ctx ctx = { cmp, priv };

	qsort_r(base, n, size, tplan_sort_adapter, &ctx);
}

static inline void tplan_prefetch(const void *addr)
{
	__builtin_prefetch(addr);
}

static inline u64 tplan_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

static inline bool tplan_should_stop(void)
{
	return false;
}

#endif /* __KERNEL__ */

#endif /* TPLAN_COMPAT_H */
