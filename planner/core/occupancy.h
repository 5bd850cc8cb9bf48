/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * occupancy.h - the bytes placed tensors take during a span of steps, kept
 * as merged ranges, so that the lowest free offset over a lifetime is found
 * without visiting every tensor alive then.
 */
#ifndef TPLAN_OCCUPANCY_H
#define TPLAN_OCCUPANCY_H

#include "internal.h"

/*
 * A lowest-fit search that needs more probes than this gives up and puts
 * the tensor on top of everything placed during its lifetime.  No table of
 * the bench needs a tenth of it (docs/PLANNER.md, "Cost of greedy-size");
 * it bounds what a hostile table can make one placement cost.
 */
#define TPLAN_OCC_PROBE_CAP	16384

/*
 * The most ranges a set keeps: one more first closes its smallest hole
 * (counted as taken).  The bench's large tables keep at most a few hundred;
 * it bounds what one placement may move to O(TPLAN_OCC_SET_CAP), so that a
 * first plan costs O(n log n) whatever the table.
 */
#define TPLAN_OCC_SET_CAP	4096

/* Chunk size classes: 4 << k ranges for k below this. */
#define TPLAN_OCC_CLASSES	32

/* Bytes [lo, hi) taken. */
struct tplan_occ_range {
	u64 lo;
	u64 hi;
};

/* Ranges pool[start, start + len): sorted, disjoint, not touching. */
struct tplan_occ_set {
	u32 start;
	u32 len;
};

/* A tensor's sections: [first, end). */
struct tplan_occ_span {
	u32 first;
	u32 end;
};

/**
 * struct tplan_occupancy - a segment tree over the table's time sections
 * @sections: time sections, the spans between consecutive lifetime ends;
 *            the tree's leaves are nodes @sections to 2 * @sections - 1
 * @span: each tensor's sections
 * @cover: per node, the bytes of the tensors whose span the node is a
 *         part of (its canonical decomposition)
 * @below: per node, the bytes of the tensors held in @cover of the node or
 *         of a node below it (not kept for a leaf: its @cover is that)
 * @stamp: per node, the walk that last visited it
 * @walk: the current walk's number
 * @pool: the ranges of all sets
 * @pool_cap: entries in @pool
 * @pool_used: entries handed out from its end
 * @free_head: per size class (4 << k entries), freed chunks;
 *             %TPLAN_OCC_CLASSES heads
 * @query: the sets the last tplan_occ_collect() gathered
 * @query_count: how many
 * @canon: the canonical nodes of a span, scratch
 *
 * A span is covered by at most 2 log2(sections) canonical nodes and has at
 * most as many ancestors; each placed tensor adds its range to those nodes'
 * sets, where it merges with its neighbours in address.  The bytes taken
 * at some step of a span are then the union of the @below sets of its
 * canonical nodes and the @cover sets of their ancestors.
 */
struct tplan_occupancy {
	u32 sections;
	struct tplan_occ_span *span;
	struct tplan_occ_set *cover;
	struct tplan_occ_set *below;
	u32 *stamp;
	u32 walk;
	struct tplan_occ_range *pool;
	u32 pool_cap;
	u32 pool_used;
	u32 *free_head;
	const struct tplan_occ_set **query;
	u32 query_count;
	u32 *canon;
};

int tplan_occ_init(struct tplan_occupancy *o, const struct tplan_tensor *t,
		   u32 n);
void tplan_occ_free(struct tplan_occupancy *o);
u64 tplan_occ_reset(struct tplan_occupancy *o);
u64 tplan_occ_collect(struct tplan_occupancy *o, u32 idx);
u64 tplan_occ_lowest(const struct tplan_occupancy *o, u64 from, u64 size,
		     u64 align, u64 *offset);
bool tplan_occ_is_free(const struct tplan_occupancy *o, u64 offset, u64 size);
int tplan_occ_add(struct tplan_occupancy *o, u32 idx, u64 lo, u64 hi,
		  u64 *work);

#endif /* TPLAN_OCCUPANCY_H */
