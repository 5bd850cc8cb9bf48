/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tplan_arena.h - tplan's in-kernel API: an arena of tiered memory pools
 * that plans tensor lifetime tables and holds their regions, for any
 * accelerator driver (arena.c; exported in the TPLAN symbol namespace).
 */

/**
 * DOC: overview
 *
 * A host driver (tplan's own device, or any accelerator driver) owns some
 * memory its device can reach: on-chip SRAM, a carveout, an IOVA range, a
 * DMA buffer.  It describes each piece as a pool (&struct tplan_pool_desc:
 * its size, its tier, how the CPU reaches it if at all, the device address
 * of its first byte, how a range of it is mapped to user space) and gets
 * an arena with tplan_arena_create().  The arena plans tables into the
 * pools and hands out regions of them; it never allocates or frees pool
 * memory itself.
 *
 * Ownership: the host allocates the pool memory before
 * tplan_arena_create() and frees it after tplan_arena_destroy() succeeds:
 * that refuses (-EBUSY, changing nothing) while anything the arena handed
 * out (a region, a plan, a client, a put waiting for a fence) is still
 * alive.  The arena owns its bookkeeping, all of
 * it charged to the caller that made it allocate (%GFP_KERNEL_ACCOUNT).
 *
 * Locking: the arena has one mutex, taken inside its calls and never held
 * on return; a host calls it without any lock of its own that the arena's
 * callbacks (&struct tplan_pool_ops) would take.  Every call may sleep
 * (each says its Context; the puts check with might_sleep()), except
 * tplan_arena_plan_get(), tplan_client_plan_get() and the _put_async()
 * calls: no other may be made in atomic context.  Callbacks are made with
 * no arena lock held, from the context of the call that caused them (or
 * the arena's workqueue).
 *
 * Jobs: a plan (tplan_arena_plan_get(), tplan_client_plan_get()) or a
 * hold a device job uses is given back with tplan_arena_plan_put_after()
 * or tplan_hold_put_after() and the job's &struct dma_fence: the bytes
 * stay the job's, unzeroed and given to no one, until the fence signals
 * (its callback may run in interrupt context); the put then runs on the
 * arena's workqueue.  A driver that frees its jobs where it cannot sleep
 * (an interrupt handler, a fence callback) drops its references there with
 * tplan_arena_plan_put_async() or tplan_hold_put_async(): a last one
 * queues the freeing on the same workqueue.  tplan_arena_flush() waits for
 * those puts.
 *
 * Bytes: a region's bytes are zeroed before a new holder sees them and
 * when they return to the pool, through the pool's CPU address or its
 * &tplan_pool_ops.zero; a pool that can be neither is not mappable.
 */
#ifndef TPLAN_ARENA_API_H
#define TPLAN_ARENA_API_H

#include <linux/types.h>

struct dentry;
struct dma_fence;
struct tplan_arena;
struct tplan_arena_plan;
struct tplan_client;
struct tplan_hold;
struct tplan_options;
struct tplan_result;
struct tplan_piece;
struct tplan_spill_options;
struct tplan_spill_result;
struct task_struct;
struct tplan_tensor;
struct tplan_uses;
struct vm_area_struct;

/* Most pools (tiers) one arena has: the ABI's TPLAN_MAX_POOLS. */
#define TPLAN_ARENA_MAX_POOLS	4
/* The largest &tplan_limits.max_tensors (2^24): the planner's indices. */
#define TPLAN_ARENA_MAX_TENSORS	16777216U

/* A host module says MODULE_IMPORT_NS(TPLAN) to use the API. */

/* tplan_plan_offsets()'s cap on the planner's memory: base + per tensor. */
#define TPLAN_OFFSETS_BYTES_BASE	0x100000ULL
#define TPLAN_OFFSETS_BYTES_PER_TENSOR	4096ULL

/* A plan's region slots: 0 to 3 its pools, 4 to 15 a group's kept regions. */
#define TPLAN_ARENA_SLOTS	16
/* The slot of an empty share_key tensor of a group plan: it holds no bytes. */
#define TPLAN_ARENA_NO_SLOT	TPLAN_ARENA_SLOTS

/**
 * struct tplan_limits - what one arena allows its callers, fixed for its life
 * @max_tensors: most tensors in one table
 * @max_plans: most plans one client may hold
 * @max_submits: submits the arena plans at once; more wait their turn
 * @default_budget: work units for a submit that asks for 0
 * @max_budget: the most work units one submit may spend
 * @max_submit_bytes: the most kernel memory one submit may use
 * @max_file_keys: most share_key entries the serial groups of one client
 *                 store together (64 bytes of kernel memory each)
 * @max_device_keys: most share_key entries stored by all clients
 * @max_device_plans: most plans alive in the arena at once: those clients
 *                    hold, and those only their mappings, dma-bufs or
 *                    imports still keep
 */
struct tplan_limits {
	u32 max_tensors;
	u32 max_plans;
	u32 max_submits;
	u64 default_budget;
	u64 max_budget;
	u64 max_submit_bytes;
	u64 max_file_keys;
	u64 max_device_keys;
	u32 max_device_plans;
};

/**
 * struct tplan_pool_ops - how the host reaches a pool's bytes
 * @mmap: map the pool's pages from @vma->vm_pgoff (a page index in the
 *        pool) for the length of @vma; the arena has checked that the
 *        range is one region the caller holds.  NULL: not mappable.
 * @zero: zero @size bytes at @start in a pool the CPU cannot address (a
 *        pool with a CPU address is zeroed with memset()).  May sleep.
 * @map: @size bytes at @start (whole pages, from the pool's start) are
 *       being handed out: a new hold's region, after it is zeroed, or the
 *       bytes a group's growing region gains; map them where the device
 *       needs them (a per-context MMU, an IOMMU domain).  An error fails
 *       the allocation (or the growth): the bytes go back to the pool,
 *       unmapped, and the caller gets the errno.  May sleep.  NULL: none.
 * @unmap: the bytes @map mapped, in one call per hold, come back: called
 *         with the last reference, before they are zeroed and freed.  May
 *         sleep; cannot fail.  NULL: none.
 */
struct tplan_pool_ops {
	int (*mmap)(void *priv, struct vm_area_struct *vma);
	void (*zero)(void *priv, u64 start, u64 size);
	int (*map)(void *priv, u64 start, u64 size);
	void (*unmap)(void *priv, u64 start, u64 size);
};

/**
 * struct tplan_pool_desc - one pool of memory, as its host describes it
 * @size: bytes; a multiple of %PAGE_SIZE
 * @tier: its speed class, 0 the fastest; pools come fastest first
 * @cpu_addr: the kernel's address of its first byte, or NULL when the CPU
 *            cannot reach it (device SRAM)
 * @dev_addr: the device's address of its first byte
 * @ops: how to map and zero it, or NULL
 * @priv: passed to @ops
 */
struct tplan_pool_desc {
	u64 size;
	u32 tier;
	void *cpu_addr;
	u64 dev_addr;
	const struct tplan_pool_ops *ops;
	void *priv;
};

/**
 * struct tplan_region_info - where a region of a pool is
 * @pool: index of its pool
 * @offset: its first byte, from the start of the pool
 * @size: its bytes
 * @dev_addr: the device's address of its first byte
 * @cpu_addr: the kernel's, or NULL for a pool the CPU cannot reach
 */
struct tplan_region_info {
	u32 pool;
	u64 offset;
	u64 size;
	u64 dev_addr;
	void *cpu_addr;
};

struct tplan_arena *tplan_arena_create(const struct tplan_pool_desc *pools,
				       u32 count,
				       const struct tplan_limits *limits);
int tplan_arena_destroy(struct tplan_arena *arena);
void tplan_arena_debugfs(struct tplan_arena *arena, struct dentry *parent);
void tplan_arena_flush(struct tplan_arena *arena);

/**
 * struct tplan_cancel - a task's way to cut its planning short
 * @link: private (the list of cancellations)
 * @task: private (the task that began it)
 * @fn: asked at every check of the planner's work meter; true: end now,
 *      with the best plan found (see tplan_cancel_begin())
 * @arg: passed to @fn
 */
struct tplan_cancel {
	struct list_head link;
	struct task_struct *task;
	bool (*fn)(void *arg);
	void *arg;
};

void tplan_cancel_begin(struct tplan_cancel *c, bool (*fn)(void *arg),
			void *arg);
void tplan_cancel_end(struct tplan_cancel *c);

/* Offsets only, in the caller's own buffer: no arena (arena_submit.c) */
int tplan_plan_offsets(struct tplan_tensor *t, u32 n,
		       const struct tplan_options *opts,
		       struct tplan_result *res);

/* Plans of tables in kernel memory (arena_submit.c) */
int tplan_arena_submit(struct tplan_arena *arena, struct tplan_tensor *t,
		       u32 n, const struct tplan_options *opts,
		       struct tplan_result *res, struct tplan_arena_plan **plan);
int tplan_arena_submit_spill(struct tplan_arena *arena,
			     const struct tplan_tensor *t, u32 n,
			     const struct tplan_uses *u,
			     const struct tplan_spill_options *opts,
			     struct tplan_piece *pieces, u32 cap,
			     struct tplan_spill_result *res,
			     struct tplan_arena_plan **plan);
u32 tplan_spill_max_pieces(const struct tplan_tensor *t, u32 n,
			   const struct tplan_uses *u);
int tplan_arena_plan_region(const struct tplan_arena_plan *plan, u32 slot,
			    struct tplan_region_info *info);
struct tplan_arena_plan *tplan_arena_plan_get(struct tplan_arena_plan *plan);
void tplan_arena_plan_put(struct tplan_arena_plan *plan);
void tplan_arena_plan_put_async(struct tplan_arena_plan *plan);
void tplan_arena_plan_put_after(struct tplan_arena_plan *plan,
				struct dma_fence *fence);

/* Clients: a host's callers, their plans by id and serial groups */
struct tplan_client *tplan_client_create(struct tplan_arena *arena);
void tplan_client_destroy(struct tplan_client *client);
int tplan_client_submit(struct tplan_client *client, u32 group,
			struct tplan_tensor *t, u32 n,
			const struct tplan_options *opts,
			struct tplan_result *res, u64 *plan_id);
int tplan_client_plan_region(struct tplan_client *client, u64 plan_id,
			     u32 slot, struct tplan_region_info *info);
int tplan_client_plan_get(struct tplan_client *client, u64 plan_id,
			  struct tplan_arena_plan **plan);
int tplan_client_release(struct tplan_client *client, u64 plan_id);

/* Regions held directly, outside any plan (hold.c) */
struct tplan_hold *tplan_hold_alloc(struct tplan_arena *arena, u32 pool,
				    u64 size, u64 align);
struct tplan_hold *tplan_hold_alloc_first(struct tplan_arena *arena,
					  u64 size, u64 align, u32 pools);
void tplan_hold_info(const struct tplan_hold *hold,
		     struct tplan_region_info *info);
void tplan_hold_put(struct tplan_hold *hold);
void tplan_hold_put_async(struct tplan_hold *hold);
void tplan_hold_put_after(struct tplan_hold *hold, struct dma_fence *fence);

#endif /* TPLAN_ARENA_API_H */
