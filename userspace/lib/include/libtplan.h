/* SPDX-License-Identifier: MIT */
/*
 * libtplan.h - libtplan, the userspace side of tplan: arrays of tensors
 * planned, bounded and checked in this process, tensor lifetime tables
 * (MiniMalloc-compatible CSV files, see README.md) on top of them, and
 * the accel device.  Installed as <tplan/libtplan.h>, beside <tplan/tplan_types.h>.
 *
 * Every function that can fail returns 0 or a negative errno (errno may
 * change on the way, but the result is the return value);
 * tplan_table_free() and tplan_device_close() return nothing; the lookups
 * that cannot fail (tplan_strategy_name(), tplan_spill_strategy_name(),
 * tplan_search_name(), tplan_defect_name(), tplan_table_count_models(),
 * tplan_tensors_max_pieces()) return their value.  There is no global
 * state.  Each function is documented where it is defined.
 *
 * Plain C and C++: it includes only <stdio.h>, <linux/types.h>,
 * <linux/tplan.h> (the device's ABI), <linux/tplan_edu.h> (the jobs of a
 * device that runs them: struct tplan_edu_copy) and tplan_types.h (the
 * planner's types), and defines no macro but TPLAN_* ones.
 */
#ifndef LIBTPLAN_H
#define LIBTPLAN_H

#include <stdio.h>

#include <linux/tplan.h>
#include <linux/tplan_edu.h>
#include <linux/types.h>

#include "tplan_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Optional columns present in a table's source, so that a save keeps them. */
#define TPLAN_COLUMN_ALIGNMENT	(1u << 0)
#define TPLAN_COLUMN_ALIAS_OF	(1u << 1)
#define TPLAN_COLUMN_OFFSET	(1u << 2)
#define TPLAN_COLUMN_ALIAS_OFFSET (1u << 3)
#define TPLAN_COLUMN_MODEL	(1u << 4)
#define TPLAN_COLUMN_PRIORITY	(1u << 5)
#define TPLAN_COLUMN_TIERS	(1u << 6)
#define TPLAN_COLUMN_SHARE_KEY	(1u << 7)
#define TPLAN_COLUMN_TIER	(1u << 8)	/* written when a plan has tiers */
#define TPLAN_COLUMN_USES	(1u << 9)	/* the steps each tensor is used at */
#define TPLAN_COLUMN_PIECE	(1u << 10)	/* a spill plan's rows are pieces */
#define TPLAN_COLUMN_HOST_OFFSET (1u << 11)	/* and their copies' host offsets */
#define TPLAN_COLUMN_HINT	(1u << 12)	/* MiniMalloc's preferred offsets */
#define TPLAN_COLUMN_GAPS	(1u << 13)	/* MiniMalloc's gaps and windows */

/* Longest line accepted in a table file, in bytes, line end excluded. */
#define TPLAN_MAX_LINE		4096
/* Most rows accepted in one table file. */
#define TPLAN_MAX_TENSORS	(1u << 24)

/* What a plan records of how it was made (struct tplan_record.flags). */
#define TPLAN_RECORD_ALIASES	(1u << 0)	/* alias_of honoured */
#define TPLAN_RECORD_SERIAL	(1u << 1)	/* the models take turns */
#define TPLAN_RECORD_CONCURRENT	(1u << 2)	/* the models run at once */
#define TPLAN_RECORD_TIERS	(1u << 3)	/* planned across tiers */

/**
 * struct tplan_record - how a plan was made, beyond its rows: what checking
 * or drawing it needs (a plan file's "# tplan:" line, see tplanctl(1))
 * @flags: %TPLAN_RECORD_* bits; 0: nothing to record
 * @tier_count: with %TPLAN_RECORD_TIERS, the tiers (2 to %TPLAN_MAX_TIERS)
 * @tier_capacity: their capacities, fastest first (0: unlimited)
 */
struct tplan_record {
	__u32 flags;
	__u32 tier_count;
	__u64 tier_capacity[TPLAN_MAX_TIERS];
};

/**
 * struct tplan_table - a tensor lifetime table in memory
 * @tensors: the rows, in file order
 * @names: ids as written in the file, when not all numeric; else NULL
 * @count: number of rows
 * @columns: %TPLAN_COLUMN_* bits: optional columns the source had
 * @use_step: with a uses column, every row's uses, one row after another
 *            (NULL without one)
 * @use_start: with a uses column, @count + 1 entries: row i's uses are
 *             @use_step[@use_start[i]] up to @use_step[@use_start[i + 1]]
 *             (none: lower and upper - 1); NULL without one
 * @piece: a spill plan's piece column, one per row (NULL without one)
 * @host_offset: a spill plan's host_offset column, one per row (NULL
 *               without one)
 * @gaps: the gaps of every row, one row after another: row i's are its
 *        tensor's gap_count entries from gap_first (NULL: no row has any)
 * @gap_count: entries in @gaps
 * @extra_header: the columns the library does not know, their names as
 *                in the header, joined by commas (NULL: none)
 * @extra: with @extra_header, each row's fields of those columns, joined
 *         by commas, so that a write keeps them (NULL: none)
 * @record: how the offsets were made, as the file's "# tplan:" line says
 *          (all zero: nothing recorded); set by tplan_table_plan(),
 *          written back by tplan_table_write()
 *
 * Tables come from tplan_table_read(), tplan_table_load() or
 * tplan_table_merge() and go back with tplan_table_free().  To plan or check
 * an array of its own, a caller may also point a table of its own at it
 * (names NULL, columns 0); such a table is not given to tplan_table_free().
 */
struct tplan_table {
	struct tplan_tensor *tensors;
	char **names;
	__u32 count;
	__u32 columns;
	__u64 *use_step;
	__u32 *use_start;
	__u32 *piece;
	__u64 *host_offset;
	struct tplan_gap *gaps;
	__u32 gap_count;
	char *extra_header;
	char **extra;
	struct tplan_record record;
};

/**
 * struct tplan_error - a human-readable reason for a failure
 * @msg: "FILE:LINE:COL: reason", or "FILE: reason" without a position;
 *       from tplan_table_check() and tplan_table_plan_err(), the reason
 *       alone ("row 3 (id 7): alignment is not a power of two")
 */
struct tplan_error {
	char msg[512];
};

/**
 * struct tplan_columns - a table as columns, for tplan_table_from_columns()
 * @count: rows, at most %TPLAN_MAX_TENSORS
 * @flags: 0 (reserved)
 * @id: @count numeric ids, or NULL: 0 to @count - 1 (with @names, unused)
 * @names: @count names (non-empty UTF-8 without line ends), or NULL: the
 *         ids are numbers
 * @lower: @count first steps
 * @upper: @count steps after the last (exclusive)
 * @size: @count sizes in bytes
 * @alignment: @count alignments (0 means 1), or NULL: 1 each
 */
struct tplan_columns {
	__u32 count;
	__u32 flags;
	const __u64 *id;
	const char *const *names;
	const __u64 *lower;
	const __u64 *upper;
	const __u64 *size;
	const __u64 *alignment;
};

/**
 * struct tplan_spill_params - how tplan_device_submit_spill() submits a table
 *                             (and tplan_table_plan_spill() or
 *                             tplan_tensors_plan_spill() plans it)
 * @flags: %TPLAN_SUBMIT_DRY_RUN: plan only, reserve nothing (to the device;
 *         zero in this process)
 * @strategy: an &enum tplan_spill_strategy value: who is moved out
 * @capacity: device bytes the pieces may use; non-zero
 * @budget: work units the planner may spend; 0 means the default (not
 *          unlimited)
 * @reserved: zero (-EINVAL otherwise): room for later fields
 */
struct tplan_spill_params {
	__u32 flags;
	__u32 strategy;
	__u64 capacity;
	__u64 budget;
	__u64 reserved[4];
};

/*
 * Arrays of tensors: plan, check, bound and validate in this process
 * (userspace/lib/libtplan.c), the API a runtime builds on.  The planner
 * the kernel module runs; an alignment must be a power of two.
 */
int tplan_tensors_plan(struct tplan_tensor *tensors, __u32 count,
		       const struct tplan_options *opts,
		       struct tplan_result *res);
int tplan_tensors_check(const struct tplan_tensor *tensors, __u32 count,
			const struct tplan_options *opts,
			struct tplan_finding *finding);
int tplan_tensors_check_gaps(const struct tplan_tensor *tensors, __u32 count,
			     const struct tplan_gap *gaps, __u32 gap_count,
			     struct tplan_finding *finding);
int tplan_tensors_lower_bound(const struct tplan_tensor *tensors, __u32 count,
			      const struct tplan_options *opts, __u64 *bound);
int tplan_tensors_validate(const struct tplan_tensor *tensors, __u32 count,
			   const struct tplan_options *opts,
			   struct tplan_finding *finding);
/* Spill plans: pieces moved out to host memory between uses. */
int tplan_tensors_plan_spill(const struct tplan_tensor *tensors, __u32 count,
			     const struct tplan_uses *uses,
			     const struct tplan_spill_params *params,
			     struct tplan_piece *pieces, __u32 piece_cap,
			     struct tplan_spill_result *res);
int tplan_tensors_check_spill(const struct tplan_tensor *tensors, __u32 count,
			      const struct tplan_uses *uses,
			      struct tplan_finding *finding);
__u32 tplan_tensors_max_pieces(const struct tplan_tensor *tensors, __u32 count,
			       const struct tplan_uses *uses);
int tplan_tensors_validate_spill(const struct tplan_tensor *tensors,
				 __u32 count, const struct tplan_uses *uses,
				 const struct tplan_piece *pieces,
				 __u32 piece_count, __u64 capacity,
				 struct tplan_finding *finding);
/* The names of &enum tplan_spill_strategy values (planner/spill/spill.c). */
const char *tplan_spill_strategy_name(__u32 strategy);
int tplan_spill_strategy_from_name(const char *name, __u32 *strategy);

/*
 * Tables: read, write, merge, make of columns and free
 * (userspace/lib/table_csv_*.c, table_models.c, table_columns.c)
 */
int tplan_table_read(FILE *in, const char *name, struct tplan_table **table,
		     struct tplan_error *err);
int tplan_table_load(const char *path, struct tplan_table **table,
		     struct tplan_error *err);
int tplan_table_write(const struct tplan_table *table, FILE *out);
int tplan_table_save(const struct tplan_table *table, const char *path,
		     struct tplan_error *err);
void tplan_table_free(struct tplan_table *table);
int tplan_table_from_columns(const struct tplan_columns *columns,
			     struct tplan_table **table,
			     struct tplan_error *err);
int tplan_table_merge(struct tplan_table *const *tables, __u32 count,
		      const char *const *names, struct tplan_table **merged,
		      struct tplan_error *err);
__u32 tplan_table_count_models(const struct tplan_table *table);

/* The library's version, "MAJOR.MINOR.PATCH" (userspace/lib/libtplan.c) */
const char *tplan_version(void);

/* Tables: plan and check in this process (userspace/lib/libtplan.c) */
int tplan_table_plan(struct tplan_table *table,
		     const struct tplan_options *opts, struct tplan_result *res);
int tplan_table_plan_err(struct tplan_table *table,
			 const struct tplan_options *opts,
			 struct tplan_result *res, struct tplan_error *err);
int tplan_table_check(const struct tplan_table *table,
		      const struct tplan_options *opts, struct tplan_error *err);
void tplan_table_record(struct tplan_table *table,
			const struct tplan_options *opts);
int tplan_table_validate(const struct tplan_table *table, __u64 capacity,
			 struct tplan_finding *finding);
/* Plans one model's table for tplan_table_plan_apart(); 0 or -errno. */
typedef int (*tplan_plan_model_fn)(void *ctx, struct tplan_table *part,
				   const struct tplan_options *opts,
				   struct tplan_result *res);
int tplan_table_plan_apart(const struct tplan_table *table,
			   const struct tplan_options *opts,
			   tplan_plan_model_fn plan, void *ctx, __u64 *apart);

/*
 * The device (userspace/lib/device.c): a DRM accel device that speaks
 * tplan's ABI (/dev/accel/accelN, found by its driver's name: tplan's own,
 * "tplan", or a host driver's such as "tplan_edu"; tplan_device_find(),
 * tplan_device_find_at()) plans a table in the kernel and reserves a region
 * of its DMA arena in each pool the plan uses, which can then be mapped.
 */

/* An open tplan device; opaque. */
struct tplan_device;

/**
 * struct tplan_submit_params - how tplan_device_submit() submits a table
 * @flags: %TPLAN_SUBMIT_DRY_RUN: plan only, reserve nothing;
 *         %TPLAN_SUBMIT_TIERED: the device's pools are the tiers
 * @group: the handle's serial group the plan joins, 0 for none
 * @tensor_mmap: NULL, or room for one mmap offset per tensor: the region
 *               holding it (a group's kept tensors are not in the plan's
 *               regions)
 * @reserved: zero (-EINVAL otherwise): room for later fields
 *
 * A NULL pointer instead of the struct means all zero.
 */
struct tplan_submit_params {
	__u32 flags;
	__u32 group;
	__u64 *tensor_mmap;
	__u64 reserved[4];
};

/**
 * struct tplan_submission - where the device put a submitted plan
 * @plan_id: the plan's handle for tplan_device_release(); 0 on a dry run
 * @shared_bytes: bytes of share_key tensors the plan stored anew in its
 *                serial group
 * @pool: the first pool in which the plan holds a region (the only one,
 *        unless the plan is tiered)
 * @regions: the plan's part of each pool: region_size 0 when it holds none;
 *           tplan_device_map() maps one
 *
 * All zero after a dry run, which reserves nothing.
 */
struct tplan_submission {
	__u64 plan_id;
	__u64 shared_bytes;
	__u32 pool;
	struct tplan_plan_region regions[TPLAN_MAX_POOLS];
};

/* A spill plan made in this process, as the device would make it. */
int tplan_table_plan_spill(const struct tplan_table *table,
			   const struct tplan_spill_params *params,
			   struct tplan_piece *pieces, __u32 piece_cap,
			   struct tplan_spill_result *res);

int tplan_device_find(char *path, size_t size);
int tplan_device_find_at(unsigned int index, char *path, size_t size,
			 char *driver, size_t driver_size);
int tplan_device_open(const char *path, struct tplan_device **dev);
const char *tplan_device_path(const struct tplan_device *dev);
const char *tplan_device_driver(const struct tplan_device *dev);
void tplan_device_close(struct tplan_device *dev);
int tplan_device_get_info(struct tplan_device *dev, struct tplan_info *info);
int tplan_device_submit(struct tplan_device *dev, struct tplan_table *table,
			const struct tplan_options *opts,
			const struct tplan_submit_params *params,
			struct tplan_result *res, struct tplan_submission *sub);
int tplan_device_submit_spill(struct tplan_device *dev,
			      const struct tplan_table *table,
			      const struct tplan_spill_params *params,
			      struct tplan_piece *pieces, __u32 piece_cap,
			      struct tplan_spill_result *res,
			      struct tplan_submission *sub);
int tplan_device_release(struct tplan_device *dev, __u64 plan_id);
int tplan_device_export(struct tplan_device *dev, __u64 plan_id, __u32 slot,
			__u32 flags, int *fd);
int tplan_device_export_at(struct tplan_device *dev, __u64 plan_id,
			   __u64 mmap_offset, __u32 flags, int *fd);
int tplan_device_map(struct tplan_device *dev,
		     const struct tplan_submission *sub, __u32 pool,
		     void **addr);
int tplan_device_unmap(const struct tplan_submission *sub, __u32 pool,
		       void *addr);

/*
 * Jobs (userspace/lib/device.c): on a device that runs them (tplan_edu,
 * uapi/linux/tplan_edu.h), ordered copies between the regions of the
 * handle's plans and the caller's memory, carried out by the device's DMA
 * engine; each job ends in a fence (a sync_file) tplan_fence_wait() waits
 * on.
 */
int tplan_device_job(struct tplan_device *dev,
		     const struct tplan_edu_copy *copies, __u32 count,
		     __u32 timeout_ms, int *fence_fd);
int tplan_fence_wait(int fence_fd, int timeout_ms);

#ifdef __cplusplus
}
#endif

#endif /* LIBTPLAN_H */
