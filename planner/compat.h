/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * compat.h - the types and macros the shared planner takes from its host.
 *
 * The planner is plain C compiled both into the kernel module and into
 * libtplan.  This header is the only place that knows which one it is:
 * fixed-width types, min/max, overflow checks, BIT(), prefetch and the
 * KUnit export macro.  The functions a host supplies (memory, sorting,
 * time, the preemption point) are port.h's hooks.  Planner code must not
 * include any other kernel or libc header.
 */
#ifndef TPLAN_COMPAT_H
#define TPLAN_COMPAT_H

#ifdef __KERNEL__

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/prefetch.h>
#include <linux/string.h>
#include <linux/types.h>

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
/* Part of the in-kernel API (tplan_arena.h), for any host driver. */
#define EXPORT_SYMBOL_FOR_TPLAN_API(sym)	EXPORT_SYMBOL_NS_GPL(sym, TPLAN)

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
/* The kernel's API, in userspace: nothing to export either. */
#define EXPORT_SYMBOL_FOR_TPLAN_API(sym)	static_assert(1, #sym)
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

static inline void tplan_prefetch(const void *addr)
{
	__builtin_prefetch(addr);
}

#endif /* __KERNEL__ */

#endif /* TPLAN_COMPAT_H */
