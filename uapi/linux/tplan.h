/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note OR MIT */
/*
 * tplan.h - the ioctl ABI of tplan's accel device (/dev/accel/accelN).
 *
 * An inference runtime submits a tensor lifetime table; the kernel plans an
 * offset for every tensor, reserves a region of the DMA arena of the plan's
 * peak size and returns where it is.  Each region is a GEM object of the
 * device: the caller's file gets a handle for it and maps it with mmap()
 * at its GEM offset; DRM PRIME shares it as a dma-buf.  See
 * docs/DRIVER.md.
 *
 * Rules of this ABI: fixed-width types only; user pointers are __u64; every
 * pad and reserved field must be zero; unknown flags are rejected with
 * -EINVAL.  Structures grow at the end only: the kernel reads the size the
 * caller compiled against from the ioctl number, zero-fills what an older
 * caller does not know, and rejects (-E2BIG) non-zero bytes it does not know
 * from a newer caller.  The *_SIZE_VER1 constants are the sizes of ABI
 * version 1, the smallest a caller may pass; they never change.
 */
#ifndef _UAPI_LINUX_TPLAN_H
#define _UAPI_LINUX_TPLAN_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define TPLAN_ABI_VERSION	1

/* Most pools (memory tiers) a device has. */
#define TPLAN_MAX_POOLS		4

/* struct tplan_tensor_desc.flags */
#define TPLAN_TENSOR_HAS_ALIAS	0x1
/* offset is an input too: the tensor stays there (MiniMalloc's offset). */
#define TPLAN_TENSOR_FIXED_OFFSET	0x2
/* hint holds an offset the caller would like (taken when it fits). */
#define TPLAN_TENSOR_HAS_HINT	0x4

/**
 * struct tplan_tensor_desc - one row of a tensor lifetime table
 * @id: caller's identifier, unique within the table
 * @lower: first step at which the tensor is alive
 * @upper: first step at which it is dead again (exclusive, > @lower)
 * @size: bytes; 0 is legal and takes no space
 * @alignment: the offset must be a multiple of this power of two (0 is read as 1)
 * @alias_of: id of the tensor (of the same model) whose memory this one
 *            reuses, valid with %TPLAN_TENSOR_HAS_ALIAS; honoured with
 *            %TPLAN_SUBMIT_ALIASES
 * @offset: out: offset of the tensor inside the region holding it (the one
 *          @mmap_offset maps)
 * @flags: %TPLAN_TENSOR_* bits; unknown bits are rejected
 * @pool: out: index of the pool holding the tensor
 * @alias_offset: with %TPLAN_TENSOR_HAS_ALIAS, where the tensor sits inside
 *                its owner's bytes (a concat input, a split output); else 0
 * @priority: benefit per byte of being in a fast pool; a
 *            %TPLAN_SUBMIT_TIERED plan fills pool 0 with the highest first
 * @tiers: bit k set: the tensor may live in pool k; 0 means any pool
 * @model: the model the tensor belongs to; ids are unique per model
 * @pad: zero
 * @share_key: non-zero: a persistent tensor (weights), kept for the whole
 *             run; tensors with one key are stored once, within the table
 *             and across the plans of a serial group
 * @mmap_offset: out: the offset to pass to mmap() to map the region holding
 *               the tensor (0 for a tensor of size 0 that holds no bytes)
 * @hint: with %TPLAN_TENSOR_HAS_HINT, the offset the caller would like
 * @gap_first: index of the tensor's first gap in &struct tplan_submit.gaps
 * @gap_count: number of its gaps, in time order from @gap_first; 0: none
 *
 * With %TPLAN_TENSOR_FIXED_OFFSET, @offset is read: the plan keeps the
 * tensor there (pins must not overlap each other while present, and fit
 * the region's limits), and writes the same value back.
 *
 * An array of these is passed by pointer, count and stride: a caller built
 * against a later, larger version of this struct passes its own stride.
 */
struct tplan_tensor_desc {
	__u64 id;
	__u64 lower;
	__u64 upper;
	__u64 size;
	__u64 alignment;
	__u64 alias_of;
	__u64 offset;
	__u32 flags;
	__u32 pool;
	__u64 alias_offset;
	__u32 priority;
	__u32 tiers;
	__u32 model;
	__u32 pad;
	__u64 share_key;
	__u64 mmap_offset;
	__u64 hint;
	__u32 gap_first;
	__u32 gap_count;
};

/*
 * The size of struct tplan_tensor_desc in ABI version 1: the least stride.
 * A stride is a multiple of 8 and at most TPLAN_TENSOR_DESC_MAX_STRIDE.
 * Version 2 added hint, gap_first and gap_count.
 */
#define TPLAN_TENSOR_DESC_SIZE_VER1	104
#define TPLAN_TENSOR_DESC_SIZE_VER2	120
#define TPLAN_TENSOR_DESC_MAX_STRIDE	4096

/* struct tplan_gap_desc.flags: from and to give the bytes still present. */
#define TPLAN_GAP_HAS_WINDOW	0x1

/**
 * struct tplan_gap_desc - a stretch of a tensor's lifetime when it is
 * absent, or only partly present (MiniMalloc's gaps)
 * @lower: first step of the gap, inside the tensor's lifetime
 * @upper: first step after it (> @lower, at most the tensor's upper)
 * @from: with %TPLAN_GAP_HAS_WINDOW, the first byte still present; else 0
 * @to: with %TPLAN_GAP_HAS_WINDOW, the first byte after those (@from <= @to
 *      <= size); else 0
 * @flags: %TPLAN_GAP_HAS_WINDOW or 0; unknown bits are rejected
 * @pad: zero
 *
 * A tensor's gaps come in time order and do not overlap.  Passed by
 * pointer, count and stride, like the tensor descriptors.
 */
struct tplan_gap_desc {
	__u64 lower;
	__u64 upper;
	__u64 from;
	__u64 to;
	__u32 flags;
	__u32 pad;
};

#define TPLAN_GAP_DESC_SIZE_VER1	40
/*
 * Most gaps one submit may pass, per tensor of its table; also the most
 * its tensors may name, all together.
 */
#define TPLAN_MAX_GAPS_PER_TENSOR	16

/**
 * struct tplan_pool_info - one pool (memory tier) of the arena
 * @size: bytes in the pool
 * @used: bytes held by plans (including regions released but still mapped)
 * @free: bytes free
 * @largest_free: the largest free region, in bytes
 * @free_regions: number of free regions (1 when nothing is held)
 * @tier: 0 for the fastest tier, counting up
 * @reserved: zero
 */
struct tplan_pool_info {
	__u64 size;
	__u64 used;
	__u64 free;
	__u64 largest_free;
	__u32 free_regions;
	__u32 tier;
	__u64 reserved[2];
};

/**
 * struct tplan_info - TPLAN_IOC_GET_INFO: what the device offers
 * @abi_version: out: %TPLAN_ABI_VERSION
 * @pool_count: out: pools in @pools
 * @max_tensors: out: most tensors in one table
 * @max_plans: out: most plans one open file may hold
 * @region_align: out: regions start and end on multiples of this (the page
 *                size), so that a mapping exposes no one else's bytes
 * @default_budget: out: work units a submit with budget 0 may spend
 * @max_budget: out: the most work units one submit may spend; a larger
 *              budget is clamped to it
 * @max_submit_bytes: out: the most kernel memory the planner may use for
 *                    one submit; a table that needs more gets -E2BIG
 * @plans_held: out: plans this open file holds
 * @max_submits: out: submits the device plans at once; more wait
 * @max_device_plans: out: most plans alive in the device at once, over
 *                    every open file (released ones that a mapping,
 *                    dma-buf or import keeps included); more: -ENFILE.
 *                    (0: a module of 0.2.0 or older, which does not
 *                    report it)
 * @pad: zero
 * @max_file_keys: out: most share_key entries the serial groups of one
 *                 open file may store (0: not reported, as above)
 * @max_device_keys: out: most share_key entries all files may store
 *                   (0: not reported, as above)
 * @reserved: zero
 * @pools: out: the pools, fastest first
 */
struct tplan_info {
	__u32 abi_version;
	__u32 pool_count;
	__u32 max_tensors;
	__u32 max_plans;
	__u64 region_align;
	__u64 default_budget;
	__u64 max_budget;
	__u64 max_submit_bytes;
	__u32 plans_held;
	__u32 max_submits;
	__u32 max_device_plans;
	__u32 pad;
	__u64 max_file_keys;
	__u64 max_device_keys;
	__u64 reserved[1];
	struct tplan_pool_info pools[TPLAN_MAX_POOLS];
};

#define TPLAN_INFO_SIZE_VER1		312

/* struct tplan_submit.flags: plan only; reserve nothing, return no id. */
#define TPLAN_SUBMIT_DRY_RUN	0x1
/* ... and honour alias_of / alias_offset: alias groups share their bytes. */
#define TPLAN_SUBMIT_ALIASES	0x2
/* ... span the pools as tiers, filling the fast ones by priority. */
#define TPLAN_SUBMIT_TIERED	0x4
/* ... the table's models run one after another (else at the same time). */
#define TPLAN_SUBMIT_SERIAL	0x8
#define TPLAN_SUBMIT_FLAGS	(TPLAN_SUBMIT_DRY_RUN | TPLAN_SUBMIT_ALIASES | \
				 TPLAN_SUBMIT_TIERED | TPLAN_SUBMIT_SERIAL)

/**
 * struct tplan_plan_region - a plan's part of one pool
 * @peak: bytes the plan needs in the pool (0: it holds no region there)
 * @weight: priority-weighted bytes (size x priority) placed in the pool
 * @region_offset: where the region starts inside the pool
 * @region_size: bytes of the region (for a serial group, the group's
 *               scratch region, which may be larger than @peak)
 * @mmap_offset: the offset to pass to mmap() to map the region: its GEM
 *               object's fake offset (0: none)
 * @handle: the region's GEM handle in the caller's file (0: none), for
 *          DRM_IOCTL_PRIME_HANDLE_TO_FD; RELEASE closes it
 * @pad: zero
 */
struct tplan_plan_region {
	__u64 peak;
	__u64 weight;
	__u64 region_offset;
	__u64 region_size;
	__u64 mmap_offset;
	__u32 handle;
	__u32 pad;
};

/* struct tplan_submit.strategy; the names tplanctl uses are in brackets. */
#define TPLAN_STRATEGY_ID_NAIVE		0	/* naive */
#define TPLAN_STRATEGY_ID_GREEDY_SIZE	1	/* greedy-size */
#define TPLAN_STRATEGY_ID_STRIP		2	/* strip */
#define TPLAN_STRATEGY_ID_SEARCH	3	/* search */
#define TPLAN_STRATEGY_ID_AUTO		4	/* auto */

/**
 * struct tplan_submit - TPLAN_IOC_SUBMIT: plan a table and reserve memory
 * @flags: %TPLAN_SUBMIT_* bits
 * @strategy: a TPLAN_STRATEGY_ID_* value
 * @tensors: user pointer to @count tensor descriptors, @stride bytes apart;
 *           offset, pool and mmap_offset of each are written back on success
 * @count: number of tensors, 1 to the device's max_tensors
 * @stride: bytes between descriptors: a multiple of 8 from
 *          %TPLAN_TENSOR_DESC_SIZE_VER1 to %TPLAN_TENSOR_DESC_MAX_STRIDE;
 *          bytes past those the kernel knows must be zero
 * @budget: work units the planner may spend; 0 means the device default,
 *          more than the device's max_budget means max_budget.  strip,
 *          search and auto return the best plan found when it runs out;
 *          naive and greedy-size fail with -ETIMEDOUT
 * @time_limit_ns: an optional wall-clock cap on improving the first plan,
 *                 on top of @budget; 0 means none.  It never stops the
 *                 first plan (plans then depend on the machine's speed)
 * @small_below: tensors of 1 to @small_below - 1 bytes are never reused:
 *               they get their own bytes above all the others; 0 means off
 * @group: non-zero: the plan joins this serial group of the open file.  The
 *         plans of a group run one at a time and share one scratch region
 *         sized to the largest; their share_key tensors are stored once.
 *         Not with %TPLAN_SUBMIT_TIERED (-EINVAL)
 * @search: out: how a search for the lower bound ended: 0 none ran, 1 the
 *          plan reaches it, 2 proven unreachable, 3 gave up (budget)
 * @plan_id: out: the plan's handle for TPLAN_IOC_RELEASE (0 on a dry run)
 * @lower_bound: out: the largest sum of sizes alive at one step
 * @peak: out: bytes the plan needs (over all pools); also set when -ENOSPC
 *        is returned
 * @work: out: work units spent
 * @shared_bytes: out: bytes of share_key tensors this plan stored anew (0
 *                when the group held all of them already)
 * @regions: out: the plan's part of each pool (region_size 0: none)
 * @gaps: user pointer to @gap_count gap descriptors, @gap_stride bytes
 *        apart, that the tensors' gap_first and gap_count index; 0 when
 *        @gap_count is 0
 * @gap_count: number of gaps, at most %TPLAN_MAX_GAPS_PER_TENSOR x @count;
 *             the tensors' gap_count add up to at most as many (tensors
 *             may name the same gaps)
 * @gap_stride: bytes between gap descriptors: a multiple of 8 from
 *              %TPLAN_GAP_DESC_SIZE_VER1 to %TPLAN_TENSOR_DESC_MAX_STRIDE
 *              (0 when @gap_count is 0)
 * @reserved: zero
 *
 * Pinned offsets, gaps and hints need a table of one model without
 * share_key tensors; pins also need a plan without %TPLAN_SUBMIT_TIERED
 * (-EINVAL otherwise).
 */
struct tplan_submit {
	__u32 flags;
	__u32 strategy;
	__u64 tensors;
	__u32 count;
	__u32 stride;
	__u64 budget;
	__u64 time_limit_ns;
	__u64 small_below;
	__u32 group;
	__u32 search;
	__u64 plan_id;
	__u64 lower_bound;
	__u64 peak;
	__u64 work;
	__u64 shared_bytes;
	struct tplan_plan_region regions[TPLAN_MAX_POOLS];
	__u64 gaps;
	__u32 gap_count;
	__u32 gap_stride;
	__u64 reserved[2];
};

#define TPLAN_SUBMIT_SIZE_VER1		320

/**
 * struct tplan_release - TPLAN_IOC_RELEASE: give a plan back
 * @plan_id: a plan_id from TPLAN_IOC_SUBMIT on this open file
 * @flags: zero (no flags defined)
 * @pad: zero
 * @reserved: zero
 *
 * The plan's GEM handles in this file are closed (a handle the caller
 * closed itself stays closed).  A region returns to its pool at once, or
 * when its last mapping, dma-buf and import are gone.
 */
struct tplan_release {
	__u64 plan_id;
	__u32 flags;
	__u32 pad;
	__u64 reserved[2];
};

#define TPLAN_RELEASE_SIZE_VER1		32

/* struct tplan_export.flags: the dma-buf file's, as DRM_CLOEXEC, DRM_RDWR */
#define TPLAN_EXPORT_CLOEXEC	0x00080000	/* O_CLOEXEC */
#define TPLAN_EXPORT_RDWR	0x00000002	/* O_RDWR */
#define TPLAN_EXPORT_FLAGS	(TPLAN_EXPORT_CLOEXEC | TPLAN_EXPORT_RDWR)

/**
 * struct tplan_export - TPLAN_IOC_EXPORT: one region of a plan as a dma-buf
 * @plan_id: a plan_id from TPLAN_IOC_SUBMIT or TPLAN_IOC_SUBMIT_SPILL on
 *           this open file
 * @slot: which of its regions: the index into its regions[] (the pool);
 *        0 with @mmap_offset
 * @flags: %TPLAN_EXPORT_CLOEXEC, %TPLAN_EXPORT_RDWR (else read-only)
 * @fd: out: the dma-buf's file descriptor
 * @pad: zero
 * @size: out: bytes of the dma-buf (the region's, whole pages)
 * @mmap_offset: 0, or the mmap offset of the plan's region to export, in
 *               place of @slot: a tensor's mmap_offset names the kept
 *               region of a share_key tensor too, which has no regions[]
 *               entry
 * @reserved: zero
 *
 * The same as DRM_IOCTL_PRIME_HANDLE_TO_FD on the region's handle, found
 * by plan and pool (or offset).  The dma-buf is the region's GEM object
 * (DRM PRIME): another process may mmap() it or import it
 * (DRM_IOCTL_PRIME_FD_TO_HANDLE), another device attach to it.  The region
 * stays reserved while the dma-buf, an import or a mapping of it lives,
 * even after RELEASE or close().
 */
struct tplan_export {
	__u64 plan_id;
	__u32 slot;
	__u32 flags;
	__s32 fd;
	__u32 pad;
	__u64 size;
	__u64 mmap_offset;
	__u64 reserved[3];
};

#define TPLAN_EXPORT_SIZE_VER1		64

/* struct tplan_submit_spill.flags: only TPLAN_SUBMIT_DRY_RUN. */
#define TPLAN_SUBMIT_SPILL_FLAGS	TPLAN_SUBMIT_DRY_RUN

/*
 * struct tplan_submit_spill.strategy; the names tplanctl uses are in
 * brackets.  Later kernels may know more; an unknown one is -EINVAL.
 */
#define TPLAN_SPILL_ID_DEFAULT		0	/* default */
#define TPLAN_SPILL_ID_FURTHEST		1	/* furthest */
#define TPLAN_SPILL_ID_GA		2	/* ga */

/**
 * struct tplan_piece_desc - one piece of a spill plan: a stretch of time a
 * tensor spends in device memory
 * @tensor: index of the tensor in the submitted array (not its id)
 * @piece: 0, 1, ... per tensor, in time order
 * @lower: first step of the piece
 * @upper: first step after it
 * @offset: where the piece is inside the plan's region
 * @host_offset: for @piece > 0, where the copy moved out before this piece
 *               waits in the host staging area; 0 for piece 0
 *
 * Written by the kernel into an array given by pointer, count and stride:
 * a caller built against a later, larger version of this struct passes its
 * own stride and finds the bytes this kernel does not know zeroed.
 */
struct tplan_piece_desc {
	__u32 tensor;
	__u32 piece;
	__u64 lower;
	__u64 upper;
	__u64 offset;
	__u64 host_offset;
};

/*
 * The size of struct tplan_piece_desc in ABI version 1: the least stride.
 * A stride is a multiple of 8 and at most TPLAN_PIECE_DESC_MAX_STRIDE.
 */
#define TPLAN_PIECE_DESC_SIZE_VER1	40
#define TPLAN_PIECE_DESC_MAX_STRIDE	4096

/**
 * struct tplan_submit_spill - TPLAN_IOC_SUBMIT_SPILL: plan a table that
 * may not fit its capacity, moving tensors out to host memory between two
 * of their uses, and reserve what the pieces need
 * @flags: %TPLAN_SUBMIT_SPILL_FLAGS bits (%TPLAN_SUBMIT_DRY_RUN: plan
 *         only, reserve nothing, return no id)
 * @strategy: a TPLAN_SPILL_ID_* value: who is moved out
 * @tensors: user pointer to @count tensor descriptors, @stride bytes apart,
 *           as for TPLAN_IOC_SUBMIT; only read (the places are pieces).
 *           alias_of and tiers are not looked at: one memory.  One
 *           timeline, every tensor moved: the tensors are of one model,
 *           without share_key, pins, hints or gaps (-EINVAL)
 * @count: number of tensors, 1 to the device's max_tensors
 * @stride: bytes between tensor descriptors, as for TPLAN_IOC_SUBMIT
 * @uses: user pointer to @use_count steps: every tensor's uses, one tensor
 *        after another, each tensor's strictly increasing and inside its
 *        lifetime [lower, upper); 0 when @use_count is 0
 * @use_start: user pointer to @count + 1 entries: tensor i's uses are
 *             @uses[@use_start[i]] up to @uses[@use_start[i + 1]]
 *             (excluded); @use_start[0] is 0, @use_start[@count] is
 *             @use_count, the entries never decrease.  A tensor without
 *             uses is used at lower and upper - 1.  0: no tensor has uses
 *             (then @uses and @use_count are 0)
 * @use_count: entries in @uses, at most 2^31 - 1
 * @piece_stride: bytes between piece descriptors: a multiple of 8 from
 *                %TPLAN_PIECE_DESC_SIZE_VER1 to %TPLAN_PIECE_DESC_MAX_STRIDE
 * @pieces: user pointer to @piece_cap piece descriptors, written on
 *          success, tensor after tensor, in time order; 0 when @piece_cap
 *          is 0 (to learn how many are needed)
 * @piece_cap: room in @pieces; one per use plus one per tensor is always
 *             enough
 * @piece_count: out: pieces written; with -ENOBUFS, pieces needed
 * @capacity: device bytes the pieces may use, non-zero
 * @budget: work units the planner may spend, as for TPLAN_IOC_SUBMIT
 *          (0: the device default, clamped to max_budget); running out is
 *          -ETIMEDOUT
 * @plan_id: out: the plan's handle for TPLAN_IOC_RELEASE (0 on a dry run)
 * @moved: out: bytes copied out and back in (2 x size per gap between two
 *         pieces of a tensor)
 * @moved_bound: out: a lower bound on @moved for any plan
 * @host_peak: out: bytes of the host staging area the moved copies wait in
 * @peak: out: bytes the pieces need (the plan reserves this many)
 * @live_peak: out: the largest sum of sizes needed at one step with
 *             nothing moved out
 * @work: out: work units spent
 * @fail_step: out, with -ENOSPC: the step whose used tensors alone exceed
 *             @capacity; 2^64 - 1 when every step fits by bytes but the
 *             pieces do not fit by addresses
 * @fail_bytes: out, with -ENOSPC: the bytes that step uses (or the lowest
 *              peak the pieces reached)
 * @kept: out: the TPLAN_SPILL_ID_* strategy whose evictions were kept
 * @pad: zero
 * @regions: out: the plan's region, in the first pool with room (the
 *           others all zero); mapped with mmap() as for TPLAN_IOC_SUBMIT
 * @reserved: zero
 *
 * The device never copies a byte itself: the runtime (or the device's DMA
 * engine) moves the tensors as the pieces say.
 */
struct tplan_submit_spill {
	__u32 flags;
	__u32 strategy;
	__u64 tensors;
	__u32 count;
	__u32 stride;
	__u64 uses;
	__u64 use_start;
	__u32 use_count;
	__u32 piece_stride;
	__u64 pieces;
	__u32 piece_cap;
	__u32 piece_count;
	__u64 capacity;
	__u64 budget;
	__u64 plan_id;
	__u64 moved;
	__u64 moved_bound;
	__u64 host_peak;
	__u64 peak;
	__u64 live_peak;
	__u64 work;
	__u64 fail_step;
	__u64 fail_bytes;
	__u32 kept;
	__u32 pad;
	struct tplan_plan_region regions[TPLAN_MAX_POOLS];
	__u64 reserved[4];
};

#define TPLAN_SUBMIT_SPILL_SIZE_VER1	384

/*
 * The device is a DRM accel device (/dev/accel/accelN, driver "tplan"):
 * these are its driver-specific DRM ioctls, DRM_IOWR(DRM_COMMAND_BASE + n)
 * as <drm/drm.h> spells them, written out here so that this header needs
 * no DRM headers (Debian's linux-libc-dev has none).  The DRM core's own
 * ioctls (DRM_IOCTL_VERSION, ...) work on the same file.
 */
#define TPLAN_IOC_MAGIC		'd'
#define TPLAN_IOC_BASE		0x40

#define TPLAN_IOC_GET_INFO	_IOR(TPLAN_IOC_MAGIC, TPLAN_IOC_BASE + 0x00, \
				     struct tplan_info)
#define TPLAN_IOC_SUBMIT	_IOWR(TPLAN_IOC_MAGIC, TPLAN_IOC_BASE + 0x01, \
				      struct tplan_submit)
#define TPLAN_IOC_RELEASE	_IOW(TPLAN_IOC_MAGIC, TPLAN_IOC_BASE + 0x02, \
				     struct tplan_release)
#define TPLAN_IOC_SUBMIT_SPILL	_IOWR(TPLAN_IOC_MAGIC, TPLAN_IOC_BASE + 0x03, \
				      struct tplan_submit_spill)
#define TPLAN_IOC_EXPORT	_IOWR(TPLAN_IOC_MAGIC, TPLAN_IOC_BASE + 0x04, \
				      struct tplan_export)

/*
 * Numbers TPLAN_IOC_BASE + 0x00 to 0x1f are tplan's on every device that
 * speaks this ABI; a driver hosting tplan (tplan_edu.h) numbers its own
 * ioctls from here.
 */
#define TPLAN_IOC_HOST_BASE	(TPLAN_IOC_BASE + 0x20)

/* The DRM driver name (DRM_IOCTL_VERSION, /sys/class/accel/accelN/device/driver). */
#define TPLAN_DRIVER_NAME	"tplan"

#endif /* _UAPI_LINUX_TPLAN_H */
