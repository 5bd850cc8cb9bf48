/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * port.h - the hooks each host of the planner must supply.
 */

/**
 * DOC: Port
 *
 * The planner is plain C compiled into two hosts: the kernel module and
 * libtplan.  compat.h gives it the types and macros of each; this header
 * declares the functions it calls that a host implements, and nothing else
 * of a host is called from planner/.  Each host defines every hook below,
 * out of line:
 *
 * - the kernel module in driver/meter.c: memory from kvmalloc() charged to
 *   the caller's memory cgroup and metered per submit, ktime_get_ns(),
 *   cond_resched() and signal_pending(), a heapsort that yields;
 * - libtplan (and every program linking the planner's sources) in
 *   userspace/lib/port.c: malloc(), clock_gettime(), never stops, qsort_r().
 *
 * Planner code calls them through the inline names below
 * (tplan_alloc_array(), tplan_free(), tplan_sort(), tplan_now_ns(),
 * tplan_should_stop()), which the driver's own code uses too.
 *
 * Cost: one call per allocation, sort, clock reading or stop check.  The
 * clock and the stop check are read once per %TPLAN_WORK_CHECK_INTERVAL
 * units of work or %TPLAN_WORK_CHECK_CHARGES charges (internal.h), or
 * every few hundred to few thousand steps of a loop over caller-sized data
 * (a validator's sweep, the pieces of a table with gaps, a radix sort's
 * pass), never per element of an inner loop.
 */
#ifndef TPLAN_PORT_H
#define TPLAN_PORT_H

#include "compat.h"

/* Comparators take a context, as the kernel's sort_r() does. */
typedef int (*tplan_cmp_fn)(const void *a, const void *b, const void *priv);

/**
 * tplan_port_alloc() - memory for the planner
 * @n: elements
 * @size: bytes per element
 *
 * Return: room for @n elements (a pointer even for none), or NULL when
 * @n * @size overflows or the memory cannot be had (in the kernel, also
 * when the running submit's meter would pass its limit).
 */
void *tplan_port_alloc(size_t n, size_t size);

/**
 * tplan_port_free() - give back what tplan_port_alloc() gave
 * @p: the memory, or NULL
 */
void tplan_port_free(void *p);

/**
 * tplan_port_sort() - sort an array
 * @base: the array
 * @n: elements
 * @size: bytes per element
 * @cmp: a total order (neither host's sort is stable)
 * @priv: passed to @cmp
 */
void tplan_port_sort(void *base, size_t n, size_t size, tplan_cmp_fn cmp,
		     const void *priv);

/**
 * tplan_port_now_ns() - a monotonic clock
 *
 * Return: nanoseconds since some fixed point.
 */
u64 tplan_port_now_ns(void);

/**
 * tplan_port_cut_short() - the caller wants the planning to end now
 *
 * Asked at every check of the work meter, after tplan_port_should_stop()
 * (once per %TPLAN_WORK_CHECK_INTERVAL units or %TPLAN_WORK_CHECK_CHARGES
 * charges).  The work then ends as when its time limit passes: the
 * strategy returns the best plan it has, or -ETIMEDOUT before its first.
 * In the kernel: the calling task's cancellation (tplan_cancel_begin())
 * says so, or the task is a kthread told to stop; in userspace, never.
 *
 * Return: true when planning must end now, with what it has.
 */
bool tplan_port_cut_short(void);

/**
 * tplan_port_should_stop() - a preemption point
 *
 * In the kernel it yields the CPU if needed and says whether the calling
 * task has a signal to take: planning stops and the ioctl is restarted
 * (planning is deterministic), so SIGSTOP, the freezer and a handled
 * SIGTERM are not kept waiting.  In userspace it is always false.
 *
 * Return: true when planning must stop (with -EINTR).
 */
bool tplan_port_should_stop(void);

static inline void *tplan_alloc_array(size_t n, size_t size)
{
	return tplan_port_alloc(n, size);
}

static inline void tplan_free(void *p)
{
	tplan_port_free(p);
}

static inline void tplan_sort(void *base, size_t n, size_t size,
			      tplan_cmp_fn cmp, const void *priv)
{
	tplan_port_sort(base, n, size, cmp, priv);
}

static inline u64 tplan_now_ns(void)
{
	return tplan_port_now_ns();
}

static inline bool tplan_should_stop(void)
{
	return tplan_port_should_stop();
}

/**
 * tplan_yield() - a preemption point where planning cannot stop
 *
 * For loops that cannot fail (a sort): yields the CPU if needed, as
 * tplan_should_stop() does, and leaves a pending signal to the caller's
 * next tplan_should_stop().
 */
static inline void tplan_yield(void)
{
	(void)tplan_port_should_stop();
}

/* Steps of a plain loop over caller-sized data between preemption points. */
#define TPLAN_LOOP_YIELD	4096

/**
 * tplan_yield_every() - tplan_yield() every %TPLAN_LOOP_YIELD steps
 * @i: the step of a loop over caller-sized data that cannot stop
 *
 * A table of a million tensors (or pieces) makes even a plain fill or copy
 * loop hold the CPU for tens of milliseconds in the kernel.
 */
static inline void tplan_yield_every(u64 i)
{
	if (i && !(i % TPLAN_LOOP_YIELD))
		tplan_yield();
}

/* Bytes a plain fill or copy of caller-sized data covers between yields. */
#define TPLAN_BYTES_YIELD	((size_t)256 << 10)

/**
 * tplan_zero() - memset(@p, 0, @bytes), yielding between stretches
 * @p: the memory
 * @bytes: how much
 *
 * Tens of megabytes of planner arrays take milliseconds to fill in a debug
 * kernel (UML touches each page afresh): one stretch is
 * %TPLAN_BYTES_YIELD bytes.
 */
static inline void tplan_zero(void *p, size_t bytes)
{
	u8 *at = p;
	size_t k;

	for (; bytes; at += k, bytes -= k) {
		k = min(bytes, TPLAN_BYTES_YIELD);
		if (at != (u8 *)p)
			tplan_yield();
		memset(at, 0, k);
	}
}

/**
 * tplan_copy() - memcpy(@dst, @src, @bytes), yielding between stretches
 * @dst: where to
 * @src: where from, not overlapping @dst
 * @bytes: how much
 */
static inline void tplan_copy(void *dst, const void *src, size_t bytes)
{
	u8 *to = dst;
	const u8 *from = src;
	size_t k;

	for (; bytes; to += k, from += k, bytes -= k) {
		k = min(bytes, TPLAN_BYTES_YIELD);
		if (to != (u8 *)dst)
			tplan_yield();
		memcpy(to, from, k);
	}
}

#endif /* TPLAN_PORT_H */
