/* SPDX-License-Identifier: MIT */
/*
 * tplan.h - libtplan, the userspace side of tplan.
 *
 * Every function returns 0 or a negative errno and keeps no global state.
 * Tables are MiniMalloc-compatible CSV files (see README.md).
 */
#ifndef TPLAN_H
#define TPLAN_H

#include <stdio.h>

#include "planner.h"
#include "linux/tplan.h"

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

/* Longest line accepted in a table file, in bytes, line end excluded. */
#define TPLAN_MAX_LINE		4096
/* Most rows accepted in one table file. */
#define TPLAN_MAX_TENSORS	(1u << 24)

/**
 * struct tplan_table - a tensor lifetime table in memory
 * @tensors: the rows, in file order
 * @names: ids as written in the file, when not all numeric; else NULL
 * @count: number of rows
 * @columns: %TPLAN_COLUMN_* bits: optional columns the source had
 */
struct tplan_table {
	struct tplan_tensor *tensors;
	char **names;
	u32 count;
	u32 columns;
};

/**
 * struct tplan_error - a human-readable reason for a failure
 * @msg: "FILE:LINE:COL: reason", or "FILE: reason" without a position
 */
struct tplan_error {
	char msg[512];
};

int tplan_table_read(FILE *in, const char *name, struct tplan_table **table,
		     struct tplan_error *err);
int tplan_table_load(const char *path, struct tplan_table **table,
		     struct tplan_error *err);
int tplan_table_write(const struct tplan_table *table, FILE *out);
int tplan_table_save(const struct tplan_table *table, const char *path,
		     struct tplan_error *err);
void tplan_table_free(struct tplan_table *table);

int tplan_table_merge(struct tplan_table *const *tables, u32 count,
		      const char *const *names, struct tplan_table **merged,
		      struct tplan_error *err);
u32 tplan_table_models(const struct tplan_table *table);
/* Plans one model's table for tplan_table_plan_apart(); 0 or -errno. */
typedef int (*tplan_plan_model_fn)(void *ctx, struct tplan_table *part,
				   const struct tplan_options *opts,
				   struct tplan_result *res);
int tplan_table_plan_apart(const struct tplan_table *table,
			   const struct tplan_options *opts,
			   tplan_plan_model_fn plan, void *ctx, u64 *apart);

int tplan_table_plan(struct tplan_table *table, const struct tplan_options *opts,
		     struct tplan_result *res);
int tplan_table_validate(const struct tplan_table *table, u64 capacity,
			 struct tplan_finding *finding);

/*
 * The device: /dev/tplan plans a table in the kernel and reserves a region of
 * its DMA arena for it, which can then be mapped.
 */

/* The device's path when tplan_device_open() is given NULL. */
#define TPLAN_DEVICE_PATH	"/dev/tplan"

/* An open /dev/tplan; opaque. */
struct tplan_device;

/**
 * struct tplan_submission - where the device put a submitted plan
 * @plan_id: the plan's handle for tplan_device_release(); 0 on a dry run
 * @region_offset: where the plan's region starts inside its pool
 * @region_size: bytes reserved (the peak rounded up to the region alignment)
 * @mmap_offset: what tplan_device_map() passes to mmap() to map the region
 * @pool: index of the pool holding the region
 * @shared_bytes: bytes of share_key tensors the plan stored anew in its
 *                serial group
 * @regions: the plan's part of each pool (the fields above describe the
 *           first pool it uses)
 *
 * All zero after a dry run, which reserves nothing.
 */
struct tplan_submission {
	u64 plan_id;
	u64 region_offset;
	u64 region_size;
	u64 mmap_offset;
	u32 pool;
	u64 shared_bytes;
	struct tplan_plan_region regions[TPLAN_MAX_POOLS];
};

/**
 * struct tplan_submit_extra - what tplan_device_submit_ex() adds
 * @group: the serial group of the handle to join, 0 for none
 * @tensor_mmap: NULL, or room for one mmap offset per tensor: the region
 *               holding it
 */
struct tplan_submit_extra {
	u32 group;
	u64 *tensor_mmap;
};

int tplan_device_open(const char *path, struct tplan_device **dev);
void tplan_device_close(struct tplan_device *dev);
int tplan_device_info(struct tplan_device *dev, struct tplan_info *info);
int tplan_device_submit(struct tplan_device *dev, struct tplan_table *table,
			const struct tplan_options *opts, u32 flags,
			struct tplan_result *res, struct tplan_submission *sub);
int tplan_device_submit_ex(struct tplan_device *dev, struct tplan_table *table,
			   const struct tplan_options *opts, u32 flags,
			   const struct tplan_submit_extra *extra,
			   struct tplan_result *res, struct tplan_submission *sub);
int tplan_device_release(struct tplan_device *dev, u64 plan_id);
int tplan_device_map(struct tplan_device *dev,
		     const struct tplan_submission *sub, void **addr);
int tplan_device_unmap(void *addr, const struct tplan_submission *sub);

#endif /* TPLAN_H */
