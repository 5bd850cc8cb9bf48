/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * planner.h - the tplan offset planner, shared by the kernel module and
 * libtplan.
 *
 * A table is an array of tensors, each alive during [lower, upper) and
 * needing size bytes at an offset that is a multiple of its alignment.  The
 * planner writes an offset into every tensor so that no two tensors alive at
 * the same step share a byte, and reports the peak (highest offset + size).
 */
#ifndef TPLAN_PLANNER_H
#define TPLAN_PLANNER_H

#include "compat.h"
#include "port.h"
#include "tplan_types.h"

/**
 * struct tplan_alias_map - alias groups folded into one tensor each
 * @root: tensor -> index of its group's owner (itself for an owner)
 * @rel: tensor -> its place in bytes inside the owner
 * @slot: owner -> index of its group in @folded
 * @folded: one tensor per group: the owner, alive over the whole group
 * @count: entries in @folded
 */
struct tplan_alias_map {
	u32 *root;
	u64 *rel;
	u32 *slot;
	struct tplan_tensor *folded;
	u32 count;
};

int tplan_check_table(const struct tplan_tensor *t, u32 n,
		      struct tplan_finding *finding);
int tplan_check_input(const struct tplan_tensor *t, u32 n,
		      const struct tplan_options *opts,
		      struct tplan_finding *finding);
int tplan_check_options(const struct tplan_options *opts);
int tplan_check_gaps(const struct tplan_tensor *t, u32 n,
		     const struct tplan_gap *gaps, u32 gap_count,
		     struct tplan_finding *f);
int tplan_plan_bound(const struct tplan_tensor *t, u32 n,
		     const struct tplan_options *opts, u64 *bound);
int tplan_lower_bound(const struct tplan_tensor *t, u32 n, u64 *bound);
u64 tplan_peak(const struct tplan_tensor *t, u32 n);
u64 tplan_naive_total(const struct tplan_tensor *t, u32 n);
int tplan_plan(struct tplan_tensor *t, u32 n, const struct tplan_options *opts,
	       struct tplan_result *res);
int tplan_validate(const struct tplan_tensor *t, u32 n, u64 capacity,
		   struct tplan_finding *finding);
int tplan_validate_gaps(const struct tplan_tensor *t, u32 n,
			const struct tplan_gap *gaps, u32 gap_count,
			u64 capacity, struct tplan_finding *finding);
int tplan_fold_aliases(const struct tplan_tensor *t, u32 n,
		       struct tplan_alias_map *m, struct tplan_finding *f);
void tplan_unfold_aliases(struct tplan_tensor *t, u32 n,
			  const struct tplan_alias_map *m);
void tplan_alias_map_free(struct tplan_alias_map *m);
int tplan_validate_aliases(const struct tplan_tensor *t, u32 n, u64 capacity,
			   struct tplan_finding *finding);
int tplan_validate_plan(const struct tplan_tensor *t, u32 n,
			const struct tplan_options *opts,
			struct tplan_finding *finding);

/* struct tplan_spill_options: tplan_types.h, the kernel API's too */
const char *tplan_spill_strategy_name(u32 strategy);
int tplan_spill_strategy_from_name(const char *name, u32 *strategy);
int tplan_check_uses(const struct tplan_tensor *t, u32 n,
		     const struct tplan_uses *u, struct tplan_finding *finding);
int tplan_check_spill_input(const struct tplan_tensor *t, u32 n,
			    const struct tplan_uses *u,
			    struct tplan_finding *finding);
int tplan_spill_plan(const struct tplan_tensor *t, u32 n,
		     const struct tplan_uses *u,
		     const struct tplan_spill_options *opts,
		     struct tplan_piece *out, u32 out_cap,
		     struct tplan_spill_result *res);
u32 tplan_spill_max_pieces(const struct tplan_tensor *t, u32 n,
			   const struct tplan_uses *u);
int tplan_validate_spill(const struct tplan_tensor *t, u32 n,
			 const struct tplan_uses *u,
			 const struct tplan_piece *p, u32 np, u64 capacity,
			 struct tplan_finding *finding);

#endif /* TPLAN_PLANNER_H */
