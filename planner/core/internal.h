/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * internal.h - helpers shared by the planner's own files; not an API.
 */
#ifndef TPLAN_INTERNAL_H
#define TPLAN_INTERNAL_H

#include "planner.h"

#define TPLAN_U64_MAX	(~(u64)0)

/*
 * How many work units pass between two preemption / signal checks, at
 * most; and how many charges (units are not all alike in time: a search
 * step's scan is charged a sixteenth, a set-up pass once).
 */
#define TPLAN_WORK_CHECK_INTERVAL	4096
#define TPLAN_WORK_CHECK_CHARGES	256

/**
 * struct tplan_work - the planner's deterministic work meter
 * @spent: units spent so far
 * @budget: units allowed; 0 means unlimited
 * @next_check: @spent value at which to yield and look for signals
 * @charges: charges left before the next check, whatever their units
 * @deadline: tplan_now_ns() value at which to stop improving a plan; 0
 *            means none.  It never stops a first plan (which costs
 *            O(n log n) placements), so a time limit always gives one.
 * @expired: the deadline has passed, or the caller cut the work short:
 *           nothing more may be spent
 * @cut: the caller cut the work short (tplan_port_cut_short()): a phase's
 *       share of the time (tplan_work_share()) does not undo it
 * @have_plan: the strategy has a complete plan (tplan_work_have_plan())
 * @first_plan_free: the budget is the default one, and the strategy has no
 *                   complete plan yet: the budget does not stop it (the
 *                   caller's cut and signals still do), so a table too
 *                   large for the default budget still gets greedy-size's
 *                   plan
 * @stop_on_pace: a pass of the placer that at its pace would outrun the
 *                budget stops early (set after a sweep fit, whose plan then
 *                stands: by tplan_first_plans() for greedy-size and by
 *                tplan_place_behind_sweep())
 */
struct tplan_work {
	u64 spent;
	u64 budget;
	u64 next_check;
	u32 charges;
	u64 deadline;
	bool expired;
	bool cut;
	bool have_plan;
	bool first_plan_free;
	bool stop_on_pace;
};

static inline void tplan_work_init(struct tplan_work *w, u64 budget,
				   u64 time_limit_ns, bool first_plan_free)
{
	w->spent = 0;
	w->budget = budget;
	w->first_plan_free = first_plan_free;
	w->next_check = TPLAN_WORK_CHECK_INTERVAL;
	w->charges = TPLAN_WORK_CHECK_CHARGES;
	w->deadline = 0;
	/* a limit too far away to be reached saturates: it never expires */
	if (time_limit_ns &&
	    check_add_overflow(tplan_now_ns(), time_limit_ns, &w->deadline))
		w->deadline = TPLAN_U64_MAX;
	w->expired = false;
	w->cut = false;
	w->have_plan = false;
	w->stop_on_pace = false;
}

/* True while work may still be spent. */
static inline bool tplan_work_left(const struct tplan_work *w)
{
	return !w->expired && (!w->budget || w->spent < w->budget);
}

/* The strategy has a complete plan: from now on the budget stops it. */
static inline void tplan_work_have_plan(struct tplan_work *w)
{
	w->first_plan_free = false;
	w->have_plan = true;
}

/*
 * Spend @units of work.  Returns -ETIMEDOUT once the budget (or the
 * deadline, or the caller's patience: tplan_port_cut_short()) is gone and
 * -EINTR when the task has a signal to take; the caller gives up and
 * returns it.
 */
static inline int tplan_work_charge(struct tplan_work *w, u64 units)
{
	w->spent += units;
	if (w->expired ||
	    (w->budget && w->spent > w->budget && !w->first_plan_free))
		return -ETIMEDOUT;
	if (w->spent >= w->next_check || !--w->charges) {
		w->next_check = w->spent + TPLAN_WORK_CHECK_INTERVAL;
		w->charges = TPLAN_WORK_CHECK_CHARGES;
		if (tplan_should_stop())
			return -EINTR;
		if (tplan_port_cut_short())
			w->cut = true;
		if (w->cut || (w->deadline && w->have_plan &&
			       tplan_now_ns() >= w->deadline)) {
			w->expired = true;
			return -ETIMEDOUT;
		}
	}
	return 0;
}

/*
 * Charge @units of work about to be done in one piece (a sort, a set-up):
 * when they would take the meter past its budget, the piece is not done
 * and the budget counts as spent (one unit past it, as a charge that ran
 * out leaves it), so that a large piece does not overshoot it; else as
 * tplan_work_charge().
 */
static inline int tplan_work_charge_ahead(struct tplan_work *w, u64 units)
{
	if (w->budget && !w->first_plan_free && w->spent + units > w->budget) {
		w->spent = max(w->spent, w->budget + 1);
		return -ETIMEDOUT;
	}
	return tplan_work_charge(w, units);
}

/**
 * struct tplan_work_saved - what tplan_work_share() changed, to undo it
 * @budget: the budget before
 * @deadline: the deadline before
 */
struct tplan_work_saved {
	u64 budget;
	u64 deadline;
};

/*
 * Give a phase @pct percent of what is left of the budget and of the time
 * limit, so that a first phase that cannot use its budget well does not
 * take all the clock from the ones after it.  Undone by
 * tplan_work_unshare().
 */
static inline struct tplan_work_saved tplan_work_share(struct tplan_work *w,
						       u32 pct)
{
	struct tplan_work_saved was = { w->budget, w->deadline };
	u64 now;

	if (w->budget)
		w->budget = w->spent + (w->budget - min(w->spent, w->budget)) /
				       100 * pct;
	if (w->deadline && w->deadline != TPLAN_U64_MAX) {
		now = tplan_now_ns();
		if (now < w->deadline)
			w->deadline = now + (w->deadline - now) / 100 * pct;
	}
	return was;
}

/*
 * The phase is over: the whole budget and time limit again.  A phase that
 * ran out of its share of the time has not used up the call's: the work
 * may go on, unless the caller cut it short.
 */
static inline void tplan_work_unshare(struct tplan_work *w,
				      struct tplan_work_saved was)
{
	w->budget = was.budget;
	w->deadline = was.deadline;
	if (w->expired && !w->cut &&
	    (!w->deadline || tplan_now_ns() < w->deadline))
		w->expired = false;
}

/**
 * struct tplan_goal - what a strategy is asked to do
 * @lower_bound: the lower bound of the tensors it places: no plan is lower,
 *               so reaching it ends the work early
 * @capacity: bytes they may use, 0 if unlimited; the search aims within it
 * @gaps: the gaps of the tensors (NULL when none has any)
 * @timeline: the tensors' timeline, or NULL: whoever needs one builds it
 */
struct tplan_goal {
	u64 lower_bound;
	u64 capacity;
	const struct tplan_gap *gaps;
	const struct tplan_timeline *timeline;
};

/* A strategy: offsets for @t within @goal; @search says how a search ended. */
typedef int (*tplan_place_fn)(struct tplan_tensor *t, u32 n,
			      const struct tplan_goal *goal,
			      struct tplan_work *w, u32 *search);

/**
 * struct tplan_run - one planner call: its inputs and what it reports
 * @opts: in: the caller's options
 * @work: the work meter, shared by every stage
 * @lower_bound: out: the lower bound of what was planned (a sum over the
 *               units the models stage places)
 * @search: out: an &enum tplan_search_status, from the last search run
 * @tier_weight: out: priority-weighted bytes placed in each tier
 * @unit: the table the models stage is placing (alive until its next stage
 *        returns, so no other table has its address meanwhile), or NULL
 * @unit_n: its tensors
 * @unit_bound: its lower bound, so that the strategy stage, when it gets the
 *              same table (one tier), need not sort it again
 * @unit_timeline: its timeline, for the strategy stage's placers (NULL with
 *                 gaps: the bound is then the pieces')
 * @plain: the caller's table when the table check saw one model and no
 *         share_key, pin, hint or gaps in it (&tplan_facts), else NULL: the
 *         models stage given it (and @plain_n tensors) need not look
 * @plain_n: its tensors
 */
struct tplan_run {
	const struct tplan_options *opts;
	struct tplan_work work;
	u64 lower_bound;
	u32 search;
	u64 tier_weight[TPLAN_MAX_TIERS];
	const struct tplan_tensor *unit;
	u32 unit_n;
	u64 unit_bound;
	const struct tplan_timeline *unit_timeline;
	const struct tplan_tensor *plain;
	u32 plain_n;
};

/**
 * struct tplan_tiers - where a part of a table may go
 * @count: tiers, 1 to %TPLAN_MAX_TIERS
 * @room: bytes free in each; %TPLAN_U64_MAX means unlimited
 */
struct tplan_tiers {
	u32 count;
	u64 room[TPLAN_MAX_TIERS];
};

/**
 * struct tplan_stage - one stage of the planning pipeline (planner.c)
 * @place: places @t in @tiers, handing its parts to @next->place
 *         (tplan_next_stage()); the last stage runs the strategy
 *
 * Each stage changes what the next one sees (aliases folded, models laid
 * out, tiers split, small tensors set apart), so every stage only knows
 * the primitives and the stage after it.
 */
struct tplan_stage {
	int (*place)(struct tplan_tensor *t, u32 n,
		     const struct tplan_tiers *tiers,
		     const struct tplan_stage *next, struct tplan_run *run);
};

/* Hand @t to the stage @next; it finds its own successor at @next + 1. */
static inline int tplan_next_stage(const struct tplan_stage *next,
				   struct tplan_tensor *t, u32 n,
				   const struct tplan_tiers *tiers,
				   struct tplan_run *run)
{
	return next->place(t, n, tiers, next + 1, run);
}

/* The tiers two tensors sharing bytes may both use; 0 means any tier. */
static inline u32 tplan_common_tiers(u32 a, u32 b)
{
	return !a ? b : !b ? a : a & b;
}

/* The tiers among the first @count that a tensor may live in (maybe none). */
static inline u32 tplan_allowed_tiers(const struct tplan_tensor *x, u32 count)
{
	u32 all = (1U << count) - 1;

	return x->tiers ? x->tiers & all : all;
}

/* Say what is wrong (@f may be NULL) and return -EINVAL. */
static inline int tplan_defect(struct tplan_finding *f, u32 kind, u32 index,
			       u32 other)
{
	if (f) {
		f->defect = kind;
		f->index = index;
		f->other = other;
	}
	return -EINVAL;
}

/* A tensor's alignment: 0 is read as 1, in the ABI as in the library. */
static inline u64 tplan_alignment(const struct tplan_tensor *x)
{
	return x->alignment ? x->alignment : 1;
}

static inline bool tplan_is_pow2(u64 v)
{
	return v && !(v & (v - 1));
}

/* Callers guarantee no overflow (tplan_check_table bounds every sum). */
static inline u64 tplan_align_up(u64 v, u64 align)
{
	return (v + align - 1) & ~(align - 1);
}

/* Bits of @v (1 for 0): a binary search's or a sort's log2 in work. */
static inline u32 tplan_bits(u64 v)
{
	return 64 - __builtin_clzll(v | 1);
}

static inline int tplan_cmp_u64(u64 a, u64 b)
{
	return a < b ? -1 : a > b;
}

/* Orders tensors by model, then id: the key alias_of and ids live in. */
static inline int tplan_cmp_key(const struct tplan_tensor *a,
				const struct tplan_tensor *b)
{
	int c = tplan_cmp_u64(a->model, b->model);

	return c ? c : tplan_cmp_u64(a->id, b->id);
}

int tplan_cmp_by_lower(const void *a, const void *b, const void *priv);
int tplan_cmp_by_upper(const void *a, const void *b, const void *priv);

/**
 * struct tplan_timeline - a table's tensors in birth and in death order, and
 * how many pairs of them meet in time
 * @t: the tensors
 * @n: how many
 * @born: their indices by lower
 * @dead: their indices by upper
 * @pairs: how many pairs of them overlap in time
 * @most: the most bytes alive at one step (the lower bound)
 */
struct tplan_timeline {
	const struct tplan_tensor *t;
	u32 n;
	u32 *born;
	u32 *dead;
	u64 pairs;
	u64 most;
};

int tplan_timeline_init(struct tplan_timeline *tl,
			const struct tplan_tensor *t, u32 n);
void tplan_timeline_free(struct tplan_timeline *tl);
u64 tplan_timeline_busiest(const struct tplan_timeline *tl, u64 from, u64 to,
			   u64 *step);
u64 tplan_stack_room(const struct tplan_tensor *t, u32 n);
u64 tplan_pins_top(const struct tplan_tensor *t, u32 n);

/*
 * Whether @x at offset @at ends at least @room below 2^64 - 1, as a pin
 * must (tplan_check_pins()) and a hint must to be taken: every lowest fit
 * above it then stays below 2^64.
 */
static inline bool tplan_ends_below_room(const struct tplan_tensor *x, u64 at,
					 u64 room)
{
	return x->size <= TPLAN_U64_MAX - at &&
	       at + x->size < TPLAN_U64_MAX - room;
}

/*
 * The planner is a stack: each file calls only files below it, never one
 * that calls it, directly or around a loop (tests/lint/layers.sh checks it;
 * docs/PLANNER.md, "Layout").  From the top: the entries planner.c,
 * spill.c, validate_plan.c and validate_spill.c; the input rules, pins.c
 * (tplan_check_input()) on validate.c on table_check.c; the stages; the
 * strategies; the primitives.  spill.c's choosers are a stack of their own
 * (spill.h).  Of its host the planner calls only port.h's hooks.
 *
 * Primitives: key_sort.c, interval_index.c, neighbours.c, occupancy.c,
 * placement.c, measure.c (the timeline; tplan_lower_bound(), tplan_peak(),
 * tplan_naive_total() in planner.h), gaps.c (gaps.h).
 */
/*
 * Strategies (strategy_*.c), each a &tplan_place_fn; strategy.c lists them,
 * but for peak first, one of auto's phases.
 */
int tplan_place_naive(struct tplan_tensor *t, u32 n,
		      const struct tplan_goal *goal, struct tplan_work *w,
		      u32 *search);
int tplan_place_greedy_size(struct tplan_tensor *t, u32 n,
			    const struct tplan_goal *goal,
			    struct tplan_work *w, u32 *search);
int tplan_place_strip(struct tplan_tensor *t, u32 n,
		      const struct tplan_goal *goal, struct tplan_work *w,
		      u32 *search);
int tplan_place_search(struct tplan_tensor *t, u32 n,
		       const struct tplan_goal *goal, struct tplan_work *w,
		       u32 *search);
int tplan_place_peak_first(struct tplan_tensor *t, u32 n,
			   const struct tplan_goal *goal, struct tplan_work *w,
			   u32 *search);
bool tplan_sweep_applies(const struct tplan_timeline *tl);
int tplan_place_sweep(struct tplan_tensor *t, u32 n,
		      const struct tplan_timeline *tl);
/**
 * struct tplan_first - the best plan so far: what tplan_first_plans() is
 * given and finds, and where auto keeps its later plans
 * @best: offsets of the best plan (the caller's array, one per tensor)
 * @peak: its peak; %TPLAN_U64_MAX before any
 * @has_plan: there is a best plan (whose peak may be 2^64 - 1 too)
 * @in_t: it is still the tensors' offsets, not yet copied to @best
 *        (tplan_first_stash() copies it before they change)
 * @enough: a sweep fit's peak at or below which greedy-size is not run
 *          (0: it always runs, budget permitting)
 * @placers_too_costly: greedy-size did not start, or stopped short: the
 *                      budget left cannot place the table again, so no
 *                      placing phase can
 */
struct tplan_first {
	u64 *best;
	u64 peak;
	u64 enough;
	bool has_plan;
	bool in_t;
	bool placers_too_costly;
};

void tplan_first_keep(const struct tplan_tensor *t, u32 n,
		      struct tplan_first *f, bool tie);
void tplan_first_stash(const struct tplan_tensor *t, u32 n,
		       struct tplan_first *f);
void tplan_first_restore(struct tplan_tensor *t, u32 n,
			 const struct tplan_first *f);
int tplan_first_plans(struct tplan_tensor *t, u32 n,
		      const struct tplan_goal *goal, struct tplan_work *w,
		      u32 *search, struct tplan_first *f);
int tplan_place_behind_sweep(tplan_place_fn place, struct tplan_tensor *t,
			     u32 n, const struct tplan_goal *goal,
			     struct tplan_work *w, u32 *search);
int tplan_place_auto(struct tplan_tensor *t, u32 n,
		     const struct tplan_goal *goal, struct tplan_work *w,
		     u32 *search);
int tplan_search_fit(struct tplan_tensor *t, u32 n, u64 capacity,
		     const struct tplan_gap *gaps, struct tplan_work *w);
u64 tplan_strategy_budget(const struct tplan_options *opts);

/* The stages, in pipeline order (planner.c composes them). */
int tplan_aliases_stage(struct tplan_tensor *t, u32 n,
			const struct tplan_tiers *tiers,
			const struct tplan_stage *next, struct tplan_run *run);
int tplan_models_stage(struct tplan_tensor *t, u32 n,
		       const struct tplan_tiers *tiers,
		       const struct tplan_stage *next, struct tplan_run *run);
int tplan_tiers_stage(struct tplan_tensor *t, u32 n,
		      const struct tplan_tiers *tiers,
		      const struct tplan_stage *next, struct tplan_run *run);
int tplan_small_apart_stage(struct tplan_tensor *t, u32 n,
			    const struct tplan_tiers *tiers,
			    const struct tplan_stage *next,
			    struct tplan_run *run);
int tplan_strategy_stage(struct tplan_tensor *t, u32 n,
			 const struct tplan_tiers *tiers,
			 const struct tplan_stage *next, struct tplan_run *run);
int tplan_models_bound(const struct tplan_tensor *t, u32 n, bool serial,
		       const struct tplan_gap *gaps, u64 *bound);

/* Bits of &tplan_facts.has: what some row of the table holds. */
#define TPLAN_HAS_TIERS		BIT(0)	/* a tiers mask */
#define TPLAN_HAS_SHARES	BIT(1)	/* a share_key */
#define TPLAN_HAS_CONSTRAINED	BIT(2)	/* a pin, a hint or gaps */
#define TPLAN_HAS_MODELS	BIT(3)	/* a model other than the first row's */

/**
 * struct tplan_facts - what the table check saw of a table in its one pass,
 * so that later checks and stages skip passes that would find nothing
 * @naive_total: tplan_naive_total() of the table
 * @has: %TPLAN_HAS_* bits
 * @in_order: rows in strictly increasing (model, id) order
 */
struct tplan_facts {
	u64 naive_total;
	u32 has;
	bool in_order;
};

/*
 * The input's rules, checked before any stage runs: table_check.c, but
 * tplan_check_shares() (models.c) and tplan_check_input_for() and
 * tplan_check_pins() (pins.c, above table_check.c and validate.c).
 */
int tplan_tiers_from_options(const struct tplan_options *o,
			     struct tplan_tiers *tiers);
int tplan_check_shares(const struct tplan_tensor *t, u32 n, u32 tier_count,
		       struct tplan_finding *f);
int tplan_check_table_facts(const struct tplan_tensor *t, u32 n,
			    struct tplan_facts *facts,
			    struct tplan_finding *finding);
int tplan_check_unfolded(const struct tplan_tensor *t, u32 n,
			 const struct tplan_options *opts,
			 struct tplan_facts *facts,
			 struct tplan_finding *finding);
int tplan_check_input_for(const struct tplan_tensor *t, u32 n,
			  const struct tplan_options *opts, bool planning,
			  struct tplan_finding *finding);
int tplan_check_pins(const struct tplan_tensor *t, u32 n,
		     const struct tplan_options *opts, bool planning,
		     const struct tplan_facts *facts,
		     struct tplan_finding *finding);

#endif /* TPLAN_INTERNAL_H */
