// SPDX-License-Identifier: GPL-2.0
/*
 * meter.c - the planner's port in the kernel (planner/port.h): its memory,
 * charged to the caller and capped per submit; its clock, preemption point
 * and sort.
 */

/**
 * DOC: Memory meter
 *
 * Purpose: bound the kernel memory one submit holds.  The shared planner
 * allocates through tplan_alloc_array(), which calls the hook its port
 * declares (planner/port.h), tplan_port_alloc(), defined here with the
 * port's other hooks.  Every byte is charged to the calling task's
 * memory cgroup (GFP_KERNEL_ACCOUNT) and, while a submit runs, counted
 * against the device's max_submit_bytes; an allocation past it fails, and
 * the submit returns -E2BIG instead of -ENOMEM.
 *
 * Cost: a 16-byte header per block (its size, so that a free uncharges
 * it) and a walk of the running meters per allocation and free.  At most
 * max_submits meters exist at once, so the list stays short.
 *
 * Locking: the list of running meters is under a spinlock; a meter's
 * counts are changed only under it.
 *
 * Ownership: a meter lives in the submit's call state, from
 * tplan_meter_start() to tplan_meter_stop().  The planner runs in the
 * submitting task, so the meter is found by task: no pointer is passed
 * through the planner.
 */
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "planner.h"
#include "meter.h"
#include "tplan_arena.h"

/* Every block starts with its size, so that a free can uncharge it. */
#define TPLAN_ALLOC_HEADER	16

static DEFINE_SPINLOCK(meters_lock);
static LIST_HEAD(meters);

/**
 * tplan_meter_start() - count the calling task's planner memory
 * @m: the meter, until tplan_meter_stop()
 * @limit: bytes the task may hold at once
 */
void tplan_meter_start(struct tplan_meter *m, u64 limit)
{
	m->task = current;
	m->used = 0;
	m->limit = limit;
	m->over = false;
	spin_lock(&meters_lock);
	list_add(&m->link, &meters);
	spin_unlock(&meters_lock);
}

/**
 * tplan_meter_stop() - stop counting
 * @m: a started meter
 *
 * Return: true if an allocation was refused because of the limit.
 */
bool tplan_meter_stop(struct tplan_meter *m)
{
	spin_lock(&meters_lock);
	list_del(&m->link);
	spin_unlock(&meters_lock);
	return m->over;
}

/* Add @bytes (may be negative) to the calling task's meter, if any. */
static bool charge(s64 bytes)
{
	struct tplan_meter *m;
	bool ok = true;

	spin_lock(&meters_lock);
	list_for_each_entry(m, &meters, link) {
		if (m->task != current)
			continue;
		if (bytes > 0 && m->used + bytes > m->limit) {
			m->over = true;
			ok = false;
		} else {
			m->used = bytes > 0 ? m->used + bytes :
				  m->used - min_t(u64, m->used, -bytes);
		}
		break;
	}
	spin_unlock(&meters_lock);
	return ok;
}

/**
 * tplan_port_alloc() - the planner's allocator in the kernel
 * @n: elements
 * @size: bytes per element
 *
 * A preemption point too: a search tries many capacities, each with its
 * own arrays, and on a kernel that records a stack trace per slab
 * allocation and free (slub_debug=U, as the test kernels have) a few
 * dozen of them took 20 ms between the work meter's yields.
 *
 * Return: the memory, or NULL when it cannot be had or the submit's meter
 * would exceed its limit.
 */
void *tplan_port_alloc(size_t n, size_t size)
{
	size_t bytes;
	u64 *block;

	cond_resched();
	if (check_mul_overflow(n, size, &bytes) ||
	    check_add_overflow(bytes, (size_t)TPLAN_ALLOC_HEADER, &bytes))
		return NULL;
	if (!charge(bytes))
		return NULL;
	block = kvmalloc(bytes, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!block) {
		charge(-(s64)bytes);
		return NULL;
	}
	block[0] = bytes;
	return (u8 *)block + TPLAN_ALLOC_HEADER;
}

/**
 * tplan_port_free() - free what tplan_port_alloc() gave
 * @p: the memory, or NULL
 */
void tplan_port_free(void *p)
{
	u64 *block;

	if (!p)
		return;
	block = (u64 *)((u8 *)p - TPLAN_ALLOC_HEADER);
	charge(-(s64)block[0]);
	kvfree(block);
}

/*
 * Comparisons between two yields: a sift-down of a million elements takes
 * some 40, each touching two elements a caller chose (cache misses), so
 * counting sift-downs would let a large array hold the CPU far longer.
 */
#define TPLAN_SORT_YIELD	1024

/**
 * struct tplan_heap - an array being heap-sorted
 * @base: the array
 * @size: bytes per element
 * @cmp: a total order
 * @priv: passed to @cmp
 * @cmps: comparisons since the last yield
 */
struct tplan_heap {
	u8 *base;
	size_t size;
	tplan_cmp_fn cmp;
	const void *priv;
	unsigned int cmps;
};

static int heap_cmp(struct tplan_heap *h, size_t a, size_t b)
{
	if (++h->cmps >= TPLAN_SORT_YIELD) {
		h->cmps = 0;
		cond_resched();
	}
	return h->cmp(h->base + a * h->size, h->base + b * h->size, h->priv);
}

static void heap_swap(const struct tplan_heap *h, size_t a, size_t b)
{
	u8 *x = h->base + a * h->size, *y = h->base + b * h->size;
	size_t i;

	if (!(h->size % 8) && IS_ALIGNED((unsigned long)h->base, 8)) {
		for (i = 0; i < h->size; i += 8)
			swap(*(u64 *)(x + i), *(u64 *)(y + i));
	} else if (!(h->size % 4) && IS_ALIGNED((unsigned long)h->base, 4)) {
		for (i = 0; i < h->size; i += 4)
			swap(*(u32 *)(x + i), *(u32 *)(y + i));
	} else {
		for (i = 0; i < h->size; i++)
			swap(x[i], y[i]);
	}
}

/*
 * Move element @a down the max-heap of the first @n elements to its place.
 * Bottom-up: follow the larger child to a leaf (one comparison a level),
 * climb back to where @a belongs, then shift the path above it up by one.
 */
static void heap_sift(struct tplan_heap *h, size_t a, size_t n)
{
	size_t b = a, c, d;

	while ((d = 2 * b + 2) < n)
		b = heap_cmp(h, d - 1, d) >= 0 ? d - 1 : d;
	if (d == n)
		b = d - 1;	/* the last leaf, without a sibling */
	while (b != a && heap_cmp(h, a, b) >= 0)
		b = (b - 1) / 2;
	c = b;
	while (b != a) {
		b = (b - 1) / 2;
		heap_swap(h, b, c);
	}
}

/**
 * tplan_port_sort() - the planner's sort in the kernel: a heapsort that yields
 * @base: the array
 * @n: elements
 * @size: bytes per element
 * @cmp: a total order
 * @priv: passed to @cmp
 *
 * An in-place heapsort, without recursion, as the kernel's sort_r(), but
 * with a preemption point (cond_resched()) every %TPLAN_SORT_YIELD
 * comparisons: a caller sizes the array (up to millions of elements), and
 * UML and kernels without preemption run nothing else meanwhile.  It does
 * not stop for a signal (the caller's next tplan_should_stop() does).
 * Because @cmp is a total order, the result is the one qsort_r() gives in
 * libtplan.
 *
 * Context: process context, may sleep.
 */
void tplan_port_sort(void *base, size_t n, size_t size, tplan_cmp_fn cmp,
		     const void *priv)
{
	struct tplan_heap h = { base, size, cmp, priv, 0 };
	size_t i;

	if (n < 2)
		return;
	for (i = n / 2; i-- > 0;)
		heap_sift(&h, i, n);
	for (i = n - 1; i > 0; i--) {
		heap_swap(&h, 0, i);
		heap_sift(&h, 0, i);
	}
}

/**
 * tplan_port_now_ns() - the planner's clock in the kernel
 *
 * Return: ktime_get_ns(), monotonic.
 */
u64 tplan_port_now_ns(void)
{
	return ktime_get_ns();
}

/**
 * tplan_port_should_stop() - the planner's preemption point in the kernel
 *
 * Yields the CPU if needed.  Planning stops and the ioctl is restarted
 * (planning is deterministic), so SIGSTOP, the freezer and a handled
 * SIGTERM are not kept waiting.
 *
 * kthread_stop() makes a kthread's signal_pending() true too: that is
 * not a signal but a request to end, which tplan_port_cut_short() answers
 * with the best plan found.
 *
 * Return: true when the calling task has a signal to take.
 */
bool tplan_port_should_stop(void)
{
	cond_resched();
	if ((current->flags & PF_KTHREAD) && kthread_should_stop())
		return false;
	return signal_pending(current);
}

static DEFINE_SPINLOCK(cancels_lock);
static LIST_HEAD(cancels);

/**
 * tplan_cancel_begin() - let a task cut its planning short
 * @c: the cancellation, the caller's (on its stack, say) until
 *     tplan_cancel_end()
 * @fn: asked by the planner at every check of its work meter (about every
 *      4096 work units, a few microseconds to a millisecond); true ends
 *      the planning now, as a passed time limit does: the call returns
 *      the best plan it has, or -ETIMEDOUT before its first.  Called in
 *      the task's own context, with no lock held; must be cheap
 * @arg: passed to @fn
 *
 * For a caller that has no signal to stop it (a kthread, a workqueue
 * item): every planning call of the API the calling task makes until
 * tplan_cancel_end() asks @fn.  A kthread needs none to be stopped: its
 * planning ends the same way once kthread_stop() is called on it.
 *
 * Context: process context; does not sleep.
 */
void tplan_cancel_begin(struct tplan_cancel *c, bool (*fn)(void *arg),
			void *arg)
{
	c->task = current;
	c->fn = fn;
	c->arg = arg;
	spin_lock(&cancels_lock);
	list_add(&c->link, &cancels);
	spin_unlock(&cancels_lock);
}
EXPORT_SYMBOL_NS_GPL(tplan_cancel_begin, TPLAN);

/**
 * tplan_cancel_end() - the task's planning is no longer @c's to cut short
 * @c: from tplan_cancel_begin(), by the same task
 *
 * Context: process context; does not sleep.
 */
void tplan_cancel_end(struct tplan_cancel *c)
{
	spin_lock(&cancels_lock);
	list_del(&c->link);
	spin_unlock(&cancels_lock);
}
EXPORT_SYMBOL_NS_GPL(tplan_cancel_end, TPLAN);

/**
 * tplan_port_cut_short() - the planner asks whether to end now, in the
 * kernel
 *
 * The calling task's newest cancellation (tplan_cancel_begin()) is asked;
 * a kthread's planning also ends once it is told to stop.  The entry is
 * the task's own, so it stays while @fn runs outside the lock.
 *
 * Return: true when planning must end now, with what it has.
 */
bool tplan_port_cut_short(void)
{
	struct tplan_cancel *c, *mine = NULL;

	if ((current->flags & PF_KTHREAD) && kthread_should_stop())
		return true;
	spin_lock(&cancels_lock);
	list_for_each_entry(c, &cancels, link) {
		if (c->task == current) {
			mine = c;
			break;
		}
	}
	spin_unlock(&cancels_lock);
	return mine && mine->fn(mine->arg);
}
