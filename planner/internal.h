/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * internal.h - helpers shared by the planner's own files; not an API.
 */
#ifndef TPLAN_INTERNAL_H
#define TPLAN_INTERNAL_H

#include "planner.h"

#define TPLAN_U64_MAX	(~(u64)0)

/* How many work units pass between two preemption / fatal-signal checks. */
#define TPLAN_WORK_CHECK_INTERVAL	4096

/**
 * struct tplan_work - the planner's deterministic work meter
 * @spent: units spent so far
 * @budget: units allowed; 0 means unlimited
 * @next_check: @spent value at which to yield and look for fatal signals
 * @deadline: tplan_now_ns() value at which to stop; 0 means none
 * @expired: the deadline has passed: nothing more may be spent
 */
struct tplan_work {
	u64 spent;
	u64 budget;
	u64 next_check;
	u64 deadline;
	bool expired;
};

static inline void tplan_work_init(struct tplan_work *w, u64 budget,
				   u64 time_limit_ns)
{
	w->spent = 0;
	w->budget = budget;
	w->next_check = TPLAN_WORK_CHECK_INTERVAL;
	w->deadline = time_limit_ns ? tplan_now_ns() + time_limit_ns : 0;
	w->expired = false;
}

/* True while work may still be spent. */
static inline bool tplan_work_left(const struct tplan_work *w)
{
	return !w->expired && (!w->budget || w->spent < w->budget);
}

/*
 * Spend @units of work.  Returns -ETIMEDOUT once the budget (or the
 * deadline) is gone and -EINTR when the task must stop; the caller gives up
 * and returns it.
 */
static inline int tplan_work_charge(struct tplan_work *w, u64 units)
{
	w->spent += units;
	if (w->expired || (w->budget && w->spent > w->budget))
		return -ETIMEDOUT;
	if (w->spent >= w->next_check) {
		w->next_check = w->spent + TPLAN_WORK_CHECK_INTERVAL;
		if (tplan_should_stop())
			return -EINTR;
		if (w->deadline && tplan_now_ns() >= w->deadline) {
			w->expired = true;
			return -ETIMEDOUT;
		}
	}
	return 0;
}

/**
 * struct tplan_run - what one planner call knows and reports internally
 * @work: the work meter
 * @lower_bound: of the table
 * @capacity: the caller's capacity, 0 if none
 * @search: out: an &enum tplan_search_status, if a search ran
 */
struct tplan_run {
	struct tplan_work work;
	u64 lower_bound;
	u64 capacity;
	u32 search;
};

static inline bool tplan_is_pow2(u64 v)
{
	return v && !(v & (v - 1));
}

/* Callers guarantee no overflow (tplan_check_table bounds every sum). */
static inline u64 tplan_align_up(u64 v, u64 align)
{
	return (v + align - 1) & ~(align - 1);
}

static inline int tplan_cmp_u64(u64 a, u64 b)
{
	return a < b ? -1 : a > b;
}

int tplan_cmp_by_lower(const void *a, const void *b, const void *priv);
int tplan_cmp_by_upper(const void *a, const void *b, const void *priv);
typedef int (*tplan_place_fn)(struct tplan_tensor *t, u32 n,
			      struct tplan_run *run);

int tplan_place_small_apart(struct tplan_tensor *t, u32 n, u64 below,
			    tplan_place_fn place, struct tplan_run *run);
int tplan_place_naive(struct tplan_tensor *t, u32 n, struct tplan_run *run);
int tplan_place_greedy_size(struct tplan_tensor *t, u32 n,
			    struct tplan_run *run);
int tplan_place_strip(struct tplan_tensor *t, u32 n, struct tplan_run *run);
int tplan_place_search(struct tplan_tensor *t, u32 n, struct tplan_run *run);
int tplan_place_auto(struct tplan_tensor *t, u32 n, struct tplan_run *run);
int tplan_search_fit(struct tplan_tensor *t, u32 n, u64 capacity,
		     struct tplan_work *w);

#endif /* TPLAN_INTERNAL_H */
