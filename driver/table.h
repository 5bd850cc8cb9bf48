/* SPDX-License-Identifier: GPL-2.0 */
/*
 * table.h - a submitted tensor table: checked, copied in and planned
 * (table.c), and its gaps (table_gaps.c).
 */
#ifndef TPLAN_TABLE_H
#define TPLAN_TABLE_H

#include <linux/types.h>

struct tplan_arena;
struct tplan_gap;
struct tplan_limits;
struct tplan_options;
struct tplan_piece;
struct tplan_spill_options;
struct tplan_spill_result;
struct tplan_result;
struct tplan_submit;
struct tplan_tensor;
struct tplan_uses;

/* How often a copy of a table, in or out, yields and looks for signals. */
#define TPLAN_COPY_CHECK_INTERVAL	1024

/* table.c */
int tplan_table_check_array(const struct tplan_limits *limits, u64 tensors,
			    u32 count, u32 stride);
int tplan_table_copy_in(u64 tensors, u32 count, u32 stride,
			struct tplan_tensor *t);
void tplan_table_tiers(struct tplan_arena *arena, struct tplan_options *opts);
void tplan_table_budget(struct tplan_arena *arena, u64 budget,
			struct tplan_options *opts);
int tplan_table_plan_in_turn(struct tplan_arena *arena, bool grouped,
			     struct tplan_tensor *t, u32 n,
			     const struct tplan_options *opts,
			     struct tplan_result *res);
u64 tplan_table_spill_budget(struct tplan_arena *arena, u64 budget);
int tplan_table_spill_in_turn(struct tplan_arena *arena,
			      const struct tplan_tensor *t, u32 n,
			      const struct tplan_uses *u,
			      const struct tplan_spill_options *opts,
			      struct tplan_piece *p, u32 cap,
			      struct tplan_spill_result *res);
int tplan_table_host_options(struct tplan_arena *arena, u32 n,
			     const struct tplan_options *opts,
			     struct tplan_options *use);
void tplan_table_options(struct tplan_arena *arena, const struct tplan_submit *req,
			 struct tplan_options *opts);
int tplan_table_plan_request(struct tplan_arena *arena, const struct tplan_submit *req,
			     const struct tplan_options *opts,
		     struct tplan_tensor **tensors, struct tplan_result *res);

/* table_gaps.c */
int tplan_gaps_check(const struct tplan_submit *req);
int tplan_gaps_copy_in(const struct tplan_submit *req,
		       const struct tplan_tensor *t, struct tplan_gap **gaps);

#endif /* TPLAN_TABLE_H */
