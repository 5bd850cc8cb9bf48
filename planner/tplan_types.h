/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * tplan_types.h - what the planner shares with whoever calls it: a table's
 * row, the options, the result, the findings of a check, their flags and the
 * names of their values.
 *
 * Included by planner.h (kernel module and libtplan) and by libtplan's
 * public header, so it is plain C and C++ on both sides: <linux/types.h>
 * types, no other header, no macro but TPLAN_* ones.
 */
#ifndef TPLAN_TYPES_H
#define TPLAN_TYPES_H

#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The tensor carries an alias_of value (read from the table, honoured later). */
#define TPLAN_TENSOR_ALIAS	0x1u
/* The offset is an input: the tensor stays there (MiniMalloc's fixed offset). */
#define TPLAN_TENSOR_PINNED	0x2u
/* The hint is a preferred offset, taken when it fits (docs/PLANNER.md). */
#define TPLAN_TENSOR_HINT	0x4u
#define TPLAN_TENSOR_KNOWN_FLAGS \
	(TPLAN_TENSOR_ALIAS | TPLAN_TENSOR_PINNED | TPLAN_TENSOR_HINT)

/* Most memory tiers a plan may span (tier 0 is the fastest). */
#define TPLAN_MAX_TIERS		4
/* A tensor's priority when the table does not give one. */
#define TPLAN_DEFAULT_PRIORITY	1

/**
 * struct tplan_tensor - one row of a tensor lifetime table
 * @id: caller's identifier, unique within the table
 * @lower: first step at which the tensor is alive
 * @upper: first step at which it is dead again (exclusive, > @lower)
 * @size: bytes; 0 is legal and takes no space
 * @alignment: the offset must be a multiple of this power of two (0 is read as 1)
 * @alias_of: id of the tensor whose memory this one reuses, when
 *            %TPLAN_TENSOR_ALIAS is set in @flags (honoured with
 *            %TPLAN_PLAN_ALIASES)
 * @offset: output, the planned offset; an input too with
 *          %TPLAN_TENSOR_PINNED (the plan keeps it)
 * @flags: %TPLAN_TENSOR_* bits
 * @pad: must be zero
 * @alias_offset: where this tensor sits inside its owner's bytes (a concat
 *                input, a split output); 0 for a reshape or in-place op
 * @priority: benefit per byte of being in a fast tier: the planner fills
 *            tier 0 with the highest first (%TPLAN_DEFAULT_PRIORITY when a
 *            table does not say)
 * @tiers: bit k set: the tensor may live in tier k; 0 means any tier
 * @tier: output, the tier the tensor was placed in
 * @model: the model the tensor belongs to; ids and alias_of are per model
 * @share_key: non-zero: a persistent tensor, kept for the whole run;
 *             tensors with the same key are stored once
 * @hint: with %TPLAN_TENSOR_HINT, the offset the caller would like
 * @gap_first: index of the tensor's first gap in the table's gap array
 *             (&struct tplan_options.gaps); 0 without gaps
 * @gap_count: number of its gaps, one after another from @gap_first, in
 *             time order
 */
struct tplan_tensor {
	__u64 id;
	__u64 lower;
	__u64 upper;
	__u64 size;
	__u64 alignment;
	__u64 alias_of;
	__u64 offset;
	__u32 flags;
	__u32 pad;
	__u64 alias_offset;
	__u32 priority;
	__u32 tiers;
	__u32 tier;
	__u32 model;
	__u64 share_key;
	__u64 hint;
	__u32 gap_first;
	__u32 gap_count;
};

/* A gap with a window: bytes [from, to) of the tensor stay present. */
#define TPLAN_GAP_WINDOW	0x1u
#define TPLAN_GAP_KNOWN_FLAGS	TPLAN_GAP_WINDOW

/**
 * struct tplan_gap - a stretch of a tensor's lifetime when it is absent
 * (MiniMalloc's gaps: "lower-upper", "lower-upper@from:to")
 * @lower: first step of the gap, inside the tensor's lifetime
 * @upper: first step after it (> @lower, <= the tensor's upper)
 * @from: with %TPLAN_GAP_WINDOW, the first byte still present
 * @to: with %TPLAN_GAP_WINDOW, the first byte after those (@from <= @to
 *      <= size); without it, @from and @to are 0 and nothing is present
 * @flags: %TPLAN_GAP_* bits
 * @pad: must be zero
 *
 * During a gap other tensors may use the tensor's absent bytes.  A
 * tensor's gaps come in time order and do not overlap (they may touch).
 */
struct tplan_gap {
	__u64 lower;
	__u64 upper;
	__u64 from;
	__u64 to;
	__u32 flags;
	__u32 pad;
};

/**
 * enum tplan_strategy - how offsets are chosen
 * @TPLAN_STRATEGY_AUTO: greedy-size, peak first, strip, search, then a
 *                       bisection on the capacity, within the budget (the
 *                       default: 0, what a zeroed &struct tplan_options asks)
 * @TPLAN_STRATEGY_NAIVE: no reuse; every tensor gets its own bytes
 * @TPLAN_STRATEGY_GREEDY_SIZE: largest first, each at the lowest offset that
 *                              fits among the time-overlapping ones
 * @TPLAN_STRATEGY_STRIP: strip packing: several orders, then peak
 *                        suppression (never worse than greedy-size)
 * @TPLAN_STRATEGY_SEARCH: greedy-size, then a depth-first search for a plan
 *                         within the capacity (default: the lower bound)
 * @TPLAN_STRATEGY_COUNT: number of strategies
 *
 * These are not the device's numbers (uapi/linux/tplan.h's
 * TPLAN_STRATEGY_ID_*, where 0 is naive): the driver and libtplan map one
 * to the other.
 */
enum tplan_strategy {
	TPLAN_STRATEGY_AUTO,
	TPLAN_STRATEGY_NAIVE,
	TPLAN_STRATEGY_GREEDY_SIZE,
	TPLAN_STRATEGY_STRIP,
	TPLAN_STRATEGY_SEARCH,
	TPLAN_STRATEGY_COUNT
};

/*
 * Work units strip, search and auto may spend when the caller's budget is 0
 * (about a second where a table spends all of it: docs/PLANNER.md, "Work
 * units"); naive and greedy-size are unlimited then.
 */
#define TPLAN_DEFAULT_BUDGET	160000000ull

/**
 * enum tplan_search_status - how a search for a capacity ended
 * @TPLAN_SEARCH_NOT_RUN: no search ran
 * @TPLAN_SEARCH_FIT: the plan fits the capacity searched for
 * @TPLAN_SEARCH_IMPOSSIBLE: proven: no plan fits that capacity
 * @TPLAN_SEARCH_GAVE_UP: the budget ran out (or alignments made the search
 *                        incomplete); the plan is the best one found
 */
enum tplan_search_status {
	TPLAN_SEARCH_NOT_RUN,
	TPLAN_SEARCH_FIT,
	TPLAN_SEARCH_IMPOSSIBLE,
	TPLAN_SEARCH_GAVE_UP,
};

/**
 * struct tplan_options - what the caller asks of the planner
 * @strategy: an &enum tplan_strategy value; 0 is %TPLAN_STRATEGY_AUTO
 * @version: 0, the layout described here (libtplan rejects others with
 *           -EINVAL; a later layout that outgrows @reserved gets a number)
 * @capacity: bytes available; 0 means unlimited
 * @budget: work units the planner may spend; 0 means unlimited for naive
 *          and greedy-size, %TPLAN_DEFAULT_BUDGET for the others
 * @time_limit_ns: an optional wall-clock cap on top of the budget; 0 means
 *                 none.  It stops the improvement of a first plan, never
 *                 the first plan itself; unlike the budget it makes the
 *                 plan depend on the machine's speed.
 * @small_below: tensors of 1 to @small_below - 1 bytes are never reused:
 *               they get their own bytes above all the others, so that
 *               small blocks do not fragment the shared space; 0 means off
 * @flags: %TPLAN_PLAN_* bits
 * @tier_count: 0 or 1: one tier of @capacity bytes; 2 to %TPLAN_MAX_TIERS:
 *              the plan spans that many tiers of @tier_capacity bytes
 * @tier_capacity: with @tier_count >= 2, the bytes of each tier; every tier
 *                 but the last needs one (0 for the last means unlimited)
 * @gaps: the gaps the tensors' @gap_first and @gap_count index (NULL when
 *        no tensor has one)
 * @gap_count: entries in @gaps
 * @pad: zero
 * @reserved: zero: room for later options, whose zero will mean what the
 *            planner does today (libtplan rejects non-zero with -EINVAL)
 *
 * A zeroed struct is valid: auto, unlimited capacity, default budget.
 */
struct tplan_options {
	__u32 strategy;
	__u32 version;
	__u64 capacity;
	__u64 budget;
	__u64 time_limit_ns;
	__u64 small_below;
	__u32 flags;
	__u32 tier_count;
	__u64 tier_capacity[TPLAN_MAX_TIERS];
	const struct tplan_gap *gaps;
	__u32 gap_count;
	__u32 pad;
	__u64 reserved[4];
};

/* Honour alias_of / alias_offset: each alias group shares its owner's bytes. */
#define TPLAN_PLAN_ALIASES	0x1u
/* The table's models run one after another (else at the same time). */
#define TPLAN_PLAN_SERIAL	0x2u
/*
 * @budget is a default the caller did not choose (the device's): like a
 * budget of 0, it does not cut off the strategy's first plan, only the work
 * after it (the kernel's time for a first plan is bounded by the placer's
 * O(n log n) probes per tensor cap, docs/PLANNER.md).
 */
#define TPLAN_PLAN_DEFAULT_BUDGET	0x4u
#define TPLAN_PLAN_KNOWN_FLAGS	(TPLAN_PLAN_ALIASES | TPLAN_PLAN_SERIAL | \
				 TPLAN_PLAN_DEFAULT_BUDGET)

/**
 * struct tplan_result - what the planner reports besides the offsets
 * @peak: highest offset + size over all tensors; with tiers, the sum of
 *        @tier_peak
 * @lower_bound: the largest sum of sizes alive at one step
 * @naive_total: bytes needed without any reuse (aligned back to back)
 * @work: work units spent (deterministic)
 * @time_ns: wall-clock time spent
 * @strategy: the strategy that produced the plan
 * @search: an &enum tplan_search_status
 * @tier_peak: bytes needed in each tier
 * @tier_weight: priority-weighted bytes (size x priority, summed; saturates
 *               at 2^64 - 1) placed in each tier
 * @reserved: written as zero: room for later results
 */
struct tplan_result {
	__u64 peak;
	__u64 lower_bound;
	__u64 naive_total;
	__u64 work;
	__u64 time_ns;
	__u32 strategy;
	__u32 search;
	__u64 tier_peak[TPLAN_MAX_TIERS];
	__u64 tier_weight[TPLAN_MAX_TIERS];
	__u64 reserved[4];
};

/**
 * enum tplan_defect - what is wrong with a table or a plan
 * @TPLAN_DEFECT_NONE: nothing
 * @TPLAN_DEFECT_LIFETIME: upper <= lower
 * @TPLAN_DEFECT_ALIGNMENT: alignment is not a power of two
 * @TPLAN_DEFECT_FLAGS: unknown flag bits or a non-zero pad
 * @TPLAN_DEFECT_DUPLICATE_ID: two tensors share an id
 * @TPLAN_DEFECT_TOO_LARGE: the sizes add up past 2^64 - 1
 * @TPLAN_DEFECT_MISALIGNED: an offset is not a multiple of the alignment
 * @TPLAN_DEFECT_CAPACITY: offset + size is beyond the capacity
 * @TPLAN_DEFECT_OVERLAP: two time-overlapping tensors share an address
 * @TPLAN_DEFECT_ALIAS_UNKNOWN: alias_of names no tensor of the table
 * @TPLAN_DEFECT_ALIAS_CYCLE: tensors alias each other in a cycle
 * @TPLAN_DEFECT_ALIAS_OUTSIDE: an alias does not lie inside its owner
 * @TPLAN_DEFECT_ALIAS_MISALIGNED: an alias's place breaks its alignment
 * @TPLAN_DEFECT_ALIAS_MISPLACED: an alias is not at its owner's offset plus
 *                                its alias_offset
 * @TPLAN_DEFECT_TIER_UNKNOWN: tiers allows no tier the plan has
 * @TPLAN_DEFECT_TIER_CONFLICT: tensors that must share bytes (an alias
 *                              group, a share_key) have no tier in common
 * @TPLAN_DEFECT_TIER_WRONG: a tensor sits in a tier it may not use
 * @TPLAN_DEFECT_SHARE_SIZE: tensors with the same share_key differ in size
 * @TPLAN_DEFECT_SHARE_ALIAS: a shared tensor is an alias or aliased
 * @TPLAN_DEFECT_SHARE_MISPLACED: tensors with the same share_key are not at
 *                                the same place
 * @TPLAN_DEFECT_USES: a tensor's uses are not strictly increasing steps
 *                     inside its lifetime
 * @TPLAN_DEFECT_PIECE_UNKNOWN: a piece names no tensor, or a tensor has no
 *                              piece
 * @TPLAN_DEFECT_PIECE_ORDER: a tensor's pieces are not numbered 0, 1, ... in
 *                            time order, or touch or overlap in time
 * @TPLAN_DEFECT_PIECE_OUTSIDE: a piece is empty or leaves its lifetime
 * @TPLAN_DEFECT_PIECE_START: a tensor's first piece does not start at lower
 * @TPLAN_DEFECT_USE_OUT: a use lies in no piece of its tensor
 * @TPLAN_DEFECT_HOST_OVERLAP: two evicted copies share host staging bytes
 *                             while both are out
 * @TPLAN_DEFECT_SPILL_MODELS: a spill plan's tensors are of several models
 *                             (their steps are not one timeline)
 * @TPLAN_DEFECT_SPILL_SHARED: a spill plan's tensor has a share_key (kept
 *                             for the whole run, which a spill plan has not)
 * @TPLAN_DEFECT_SPILL_CONSTRAINED: a spill plan's tensor is pinned,
 *                                  hinted or has gaps (a spill plan moves
 *                                  every tensor)
 * @TPLAN_DEFECT_GAP_UNKNOWN: a tensor's gaps lie outside the gap array
 * @TPLAN_DEFECT_GAP_OUTSIDE: a gap is empty or leaves the lifetime
 * @TPLAN_DEFECT_GAP_ORDER: a tensor's gaps overlap or are not in time order
 * @TPLAN_DEFECT_GAP_WINDOW: a window is reversed or beyond the size, or a
 *                           gap has unknown flags, padding or a window
 *                           without %TPLAN_GAP_WINDOW
 * @TPLAN_DEFECT_PIN_OVERLAP: two pinned tensors share addresses while both
 *                            are present
 * @TPLAN_DEFECT_PIN_MISALIGNED: a pinned offset breaks the alignment
 * @TPLAN_DEFECT_PIN_CAPACITY: a pinned tensor ends beyond the capacity
 * @TPLAN_DEFECT_PIN_ALIAS: the pins of one alias group disagree, or put
 *                          its owner below offset 0
 * @TPLAN_DEFECT_GAP_ALIAS: a tensor of an alias group has gaps
 * @TPLAN_DEFECT_CONSTRAINED_MODELS: pins, gaps or hints in a table of
 *                                   several models or with share_key
 *                                   tensors
 * @TPLAN_DEFECT_PIN_TIERS: pins with two or more tiers
 */
enum tplan_defect {
	TPLAN_DEFECT_NONE,
	TPLAN_DEFECT_LIFETIME,
	TPLAN_DEFECT_ALIGNMENT,
	TPLAN_DEFECT_FLAGS,
	TPLAN_DEFECT_DUPLICATE_ID,
	TPLAN_DEFECT_TOO_LARGE,
	TPLAN_DEFECT_MISALIGNED,
	TPLAN_DEFECT_CAPACITY,
	TPLAN_DEFECT_OVERLAP,
	TPLAN_DEFECT_ALIAS_UNKNOWN,
	TPLAN_DEFECT_ALIAS_CYCLE,
	TPLAN_DEFECT_ALIAS_OUTSIDE,
	TPLAN_DEFECT_ALIAS_MISALIGNED,
	TPLAN_DEFECT_ALIAS_MISPLACED,
	TPLAN_DEFECT_TIER_UNKNOWN,
	TPLAN_DEFECT_TIER_CONFLICT,
	TPLAN_DEFECT_TIER_WRONG,
	TPLAN_DEFECT_SHARE_SIZE,
	TPLAN_DEFECT_SHARE_ALIAS,
	TPLAN_DEFECT_SHARE_MISPLACED,
	TPLAN_DEFECT_USES,
	TPLAN_DEFECT_PIECE_UNKNOWN,
	TPLAN_DEFECT_PIECE_ORDER,
	TPLAN_DEFECT_PIECE_OUTSIDE,
	TPLAN_DEFECT_PIECE_START,
	TPLAN_DEFECT_USE_OUT,
	TPLAN_DEFECT_HOST_OVERLAP,
	TPLAN_DEFECT_SPILL_MODELS,
	TPLAN_DEFECT_SPILL_SHARED,
	TPLAN_DEFECT_SPILL_CONSTRAINED,
	TPLAN_DEFECT_GAP_UNKNOWN,
	TPLAN_DEFECT_GAP_OUTSIDE,
	TPLAN_DEFECT_GAP_ORDER,
	TPLAN_DEFECT_GAP_WINDOW,
	TPLAN_DEFECT_PIN_OVERLAP,
	TPLAN_DEFECT_PIN_MISALIGNED,
	TPLAN_DEFECT_PIN_CAPACITY,
	TPLAN_DEFECT_PIN_ALIAS,
	TPLAN_DEFECT_GAP_ALIAS,
	TPLAN_DEFECT_CONSTRAINED_MODELS,
	TPLAN_DEFECT_PIN_TIERS,
};

/**
 * struct tplan_finding - the first defect found, if any
 * @defect: an &enum tplan_defect value
 * @index: index of the offending tensor
 * @other: index of the second tensor (duplicate id, overlap), else @index
 */
struct tplan_finding {
	__u32 defect;
	__u32 index;
	__u32 other;
};

/**
 * struct tplan_uses - the steps at which each tensor is used
 * @step: every use, the tensors one after another, each tensor's strictly
 *        increasing and inside its lifetime
 * @start: n + 1 entries: tensor i's uses are @step[@start[i]] up to
 *         @step[@start[i + 1]] (excluded); @start[0] is 0
 *
 * A NULL &struct tplan_uses, or a tensor without uses, means lower and
 * upper - 1.  The tensor is in memory at each use and at lower; between
 * two uses it may be out.
 */
struct tplan_uses {
	const __u64 *step;
	const __u32 *start;
};

/**
 * enum tplan_spill_strategy - how a spill plan chooses whom to move out
 * @TPLAN_SPILL_DEFAULT: bytes-moved cost per byte of excess covered, then
 *                       pruning; never more moved than furthest
 * @TPLAN_SPILL_FURTHEST: furthest next use first (Belady-style)
 * @TPLAN_SPILL_GA: the design document's segments and genetic algorithm
 * @TPLAN_SPILL_COUNT: number of spill strategies
 */
enum tplan_spill_strategy {
	TPLAN_SPILL_DEFAULT,
	TPLAN_SPILL_FURTHEST,
	TPLAN_SPILL_GA,
	TPLAN_SPILL_COUNT
};

/**
 * struct tplan_piece - a stretch of time a tensor spends in device memory
 * @tensor: the tensor's index in the table
 * @piece: 0, 1, ... per tensor, in time order
 * @lower: first step of the piece
 * @upper: first step after it
 * @offset: where it is in device memory
 * @host_offset: for @piece > 0, where the copy moved out before this piece
 *               waits in the host staging area (its bytes are its own
 *               through step @lower: at a boundary every copy goes out
 *               before any comes in); 0 for piece 0
 */
struct tplan_piece {
	__u32 tensor;
	__u32 piece;
	__u64 lower;
	__u64 upper;
	__u64 offset;
	__u64 host_offset;
};

/**
 * struct tplan_spill_options - what a spill plan is asked to do
 * @strategy: an &enum tplan_spill_strategy value
 * @capacity: device bytes available (required, non-zero)
 * @budget: work units; 0 means %TPLAN_DEFAULT_BUDGET (in the kernel's
 *          API, the arena's default budget)
 */
struct tplan_spill_options {
	__u32 strategy;
	__u64 capacity;
	__u64 budget;
};

/**
 * struct tplan_spill_result - what a spill plan reports
 * @moved: bytes copied out and back in (2 x size per gap between pieces)
 * @moved_bound: a lower bound on @moved for any plan
 * @host_peak: bytes of the host staging area
 * @peak: highest offset + size over the pieces
 * @live_peak: the largest sum of sizes needed at one step with nothing out
 * @work: work units spent
 * @pieces: pieces written, or needed when the caller's array is too small
 *          (the planner's and libtplan's -E2BIG, the kernel API's and the
 *          ioctl's -ENOBUFS)
 * @strategy: the &enum tplan_spill_strategy whose evictions were kept
 * @fail_step: with -ENOSPC, the step that cannot fit
 * @fail_bytes: with -ENOSPC, the bytes that step needs
 */
struct tplan_spill_result {
	__u64 moved;
	__u64 moved_bound;
	__u64 host_peak;
	__u64 peak;
	__u64 live_peak;
	__u64 work;
	__u32 pieces;
	__u32 strategy;
	__u64 fail_step;
	__u64 fail_bytes;
};

/* The names of the values above (kernel-doc at their definitions). */
const char *tplan_strategy_name(__u32 strategy);
int tplan_strategy_from_name(const char *name, __u32 *strategy);
const char *tplan_defect_name(__u32 defect);
const char *tplan_search_name(__u32 search);

/**
 * struct tplan_seg - a stretch of a tensor's lifetime and the bytes present
 * in it: between its gaps all its bytes, during a gap only its window
 * @lower: first step
 * @upper: first step after it
 * @from: first byte present (relative to the tensor's offset)
 * @to: first byte after those; @from == @to: nothing present
 */
struct tplan_seg {
	__u64 lower;
	__u64 upper;
	__u64 from;
	__u64 to;
};

/**
 * struct tplan_seg_iter - walks the stretches of one tensor whose gaps
 * tplan_check_gaps() passed (the planner, and programs that draw plans)
 * @x: the tensor
 * @gaps: the gap array its gap_first and gap_count index
 * @k: gaps of @x walked
 * @at: the step the next stretch starts at
 */
struct tplan_seg_iter {
	const struct tplan_tensor *x;
	const struct tplan_gap *gaps;
	__u32 k;
	__u64 at;
};

static inline void tplan_seg_begin(struct tplan_seg_iter *it,
				   const struct tplan_tensor *x,
				   const struct tplan_gap *gaps)
{
	it->x = x;
	it->gaps = gaps;
	it->k = 0;
	it->at = x->lower;
}

/* The next stretch, in time order into @s; 0 after the last. */
static inline int tplan_seg_next(struct tplan_seg_iter *it,
				 struct tplan_seg *s)
{
	const struct tplan_tensor *x = it->x;
	/* no arithmetic on the array of a tensor without gaps: it may be NULL */
	const struct tplan_gap *g = x->gap_count ? it->gaps + x->gap_first :
						   it->gaps;

	if (it->at >= x->upper)
		return 0;
	if (it->k < x->gap_count && g[it->k].lower == it->at) {
		s->lower = g[it->k].lower;
		s->upper = g[it->k].upper;
		s->from = g[it->k].from;
		s->to = g[it->k].to;
		it->k++;
	} else {
		s->lower = it->at;
		s->upper = it->k < x->gap_count ? g[it->k].lower : x->upper;
		s->from = 0;
		s->to = x->size;
	}
	it->at = s->upper;
	return 1;
}

#ifdef __cplusplus
}
#endif

#endif /* TPLAN_TYPES_H */
