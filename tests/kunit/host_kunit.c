// SPDX-License-Identifier: GPL-2.0
/*
 * host_kunit.c - a second host of tplan's in-kernel API: a made-up
 * accelerator driver with two pools of its own, one device SRAM the CPU
 * cannot reach (zeroed by the "device") and one DMA buffer, that plans
 * tables and holds regions through the exported API alone.  It includes
 * nothing of the driver but tplan_arena.h, and the planner's public types.
 *
 * Each test makes its own arena; a KUnit cleanup action puts what a
 * failed test left held, then destroys the arena and frees the pools.
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/dma-fence.h>
#include <linux/dma-mapping.h>
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/irqflags.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <drm/drm_mm.h>

#include "tplan_arena.h"
#include "tplan_types.h"

#define SRAM_SIZE	(16 * PAGE_SIZE)
#define DRAM_SIZE	(64 * PAGE_SIZE)
/* Where the made-up device sees its SRAM. */
#define SRAM_DEV_ADDR	0xf0000000ULL

/**
 * struct npu - the made-up accelerator
 * @pdev: its device, for the DMA buffer
 * @sram: stands in for SRAM only the device reaches: the test reads it,
 *        the arena never does
 * @dram: the DMA buffer, the kernel's view
 * @dram_dma: the DMA buffer, the device's view
 * @zeroed: bytes the "device" was asked to zero in its SRAM
 * @arena: the arena over both
 * @mapped: per SRAM page, mapped in the "device's MMU" (map/unmap hooks)
 * @map_error: what the next map hook returns (0: it maps)
 * @map_misuse: a hook mapped a page twice, unmapped one not mapped, or
 *              got a range that is not whole pages
 */
struct npu {
	struct platform_device *pdev;
	u8 *sram;
	void *dram;
	dma_addr_t dram_dma;
	u64 zeroed;
	struct tplan_arena *arena;
	bool mapped[SRAM_SIZE / PAGE_SIZE];
	int map_error;
	bool map_misuse;
};

/* The device zeroes its SRAM on request (a DMA fill, on real hardware). */
static void sram_zero(void *priv, u64 start, u64 size)
{
	struct npu *npu = priv;

	memset(npu->sram + start, 0, size);
	npu->zeroed += size;
}

/* The device's MMU maps SRAM pages for its jobs. */
static int sram_map(void *priv, u64 start, u64 size)
{
	struct npu *npu = priv;
	u64 i;

	if (npu->map_error)
		return npu->map_error;
	if (!PAGE_ALIGNED(start) || !PAGE_ALIGNED(size) ||
	    start + size > SRAM_SIZE)
		npu->map_misuse = true;
	for (i = start / PAGE_SIZE; i < (start + size) / PAGE_SIZE &&
	     i < SRAM_SIZE / PAGE_SIZE; i++) {
		npu->map_misuse |= npu->mapped[i];
		npu->mapped[i] = true;
	}
	return 0;
}

static void sram_unmap(void *priv, u64 start, u64 size)
{
	struct npu *npu = priv;
	u64 i;

	for (i = start / PAGE_SIZE; i < (start + size) / PAGE_SIZE &&
	     i < SRAM_SIZE / PAGE_SIZE; i++) {
		npu->map_misuse |= !npu->mapped[i];
		npu->mapped[i] = false;
	}
}

static u64 sram_mapped(const struct npu *npu)
{
	u64 i, bytes = 0;

	for (i = 0; i < SRAM_SIZE / PAGE_SIZE; i++)
		bytes += npu->mapped[i] ? PAGE_SIZE : 0;
	return bytes;
}

static const struct tplan_pool_ops sram_ops = {
	.zero = sram_zero, .map = sram_map, .unmap = sram_unmap,
};

static const struct tplan_limits limits = {
	.max_tensors = 64, .max_plans = 8, .max_submits = 1,
	.default_budget = 1000000, .max_budget = 1000000,
	.max_submit_bytes = 1 << 20, .max_file_keys = 16,
	.max_device_keys = 16, .max_device_plans = 16,
};

static void npu_free(void *data)
{
	struct npu *npu = data;

	/* busy: a test left something held; leak the pools, never free */
	if (WARN_ON(tplan_arena_destroy(npu->arena)))
		return;
	if (npu->dram)
		dma_free_coherent(&npu->pdev->dev, DRAM_SIZE, npu->dram,
				  npu->dram_dma);
	platform_device_unregister(npu->pdev);
	kfree(npu->sram);
	kfree(npu);
}

static void npu_pools(struct npu *npu, struct tplan_pool_desc *d)
{
	d[0] = (struct tplan_pool_desc) {
		.size = SRAM_SIZE, .tier = 0, .dev_addr = SRAM_DEV_ADDR,
		.ops = &sram_ops, .priv = npu,
	};
	d[1] = (struct tplan_pool_desc) {
		.size = DRAM_SIZE, .tier = 1, .cpu_addr = npu->dram,
		.dev_addr = npu->dram_dma,
	};
}

static struct npu *npu_new(struct kunit *test)
{
	struct tplan_pool_desc d[2];
	struct npu *npu = kzalloc(sizeof(*npu), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, npu);
	npu->sram = kmalloc(SRAM_SIZE, GFP_KERNEL);
	npu->pdev = platform_device_register_simple("tplan_host_kunit",
						    PLATFORM_DEVID_AUTO,
						    NULL, 0);
	if (IS_ERR(npu->pdev) || !npu->sram) {
		if (!IS_ERR(npu->pdev))
			platform_device_unregister(npu->pdev);
		kfree(npu->sram);
		kfree(npu);
		KUNIT_FAIL_AND_ABORT(test, "no device or SRAM stand-in");
	}
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, npu_free, npu),
			0);
	/* what the device had in it before: the arena must clear it */
	memset(npu->sram, 0xa5, SRAM_SIZE);
	KUNIT_ASSERT_EQ(test, dma_coerce_mask_and_coherent(&npu->pdev->dev,
							   DMA_BIT_MASK(64)),
			0);
	npu->dram = dma_alloc_coherent(&npu->pdev->dev, DRAM_SIZE,
				       &npu->dram_dma, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, npu->dram);
	memset(npu->dram, 0x5a, DRAM_SIZE);
	npu_pools(npu, d);
	npu->arena = tplan_arena_create(d, 2, &limits);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, npu->arena);
	return npu;
}

/* A plan the test gives back even when it fails half-way. */
static void plan_put_action(void *plan)
{
	tplan_arena_plan_put(plan);
}

static void hold_put_action(void *hold)
{
	tplan_hold_put(hold);
}

/* A chain: tensor i lives in steps [i, i + 2), each @size bytes. */
static struct tplan_tensor *chain(struct kunit *test, u32 n, u64 size)
{
	struct tplan_tensor *t = kunit_kcalloc(test, n, sizeof(*t), GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	for (i = 0; i < n; i++) {
		t[i].id = i;
		t[i].lower = i;
		t[i].upper = i + 2;
		t[i].size = size;
		t[i].alignment = 64;
	}
	return t;
}

static struct tplan_arena_plan *submit_ok(struct kunit *test,
					  struct npu *npu,
					  struct tplan_tensor *t, u32 n,
					  const struct tplan_options *opts,
					  struct tplan_result *res)
{
	struct tplan_arena_plan *plan = NULL;

	KUNIT_ASSERT_EQ(test, tplan_arena_submit(npu->arena, t, n, opts, res,
						 &plan), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, plan_put_action,
							plan), 0);
	return plan;
}

/* Two tensors alive at one step never share a byte. */
static void expect_no_overlap(struct kunit *test,
			      const struct tplan_tensor *t, u32 n)
{
	u32 i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			bool live = t[i].lower < t[j].upper &&
				    t[j].lower < t[i].upper;
			bool apart = t[i].offset + t[i].size <= t[j].offset ||
				     t[j].offset + t[j].size <= t[i].offset;

			KUNIT_EXPECT_TRUE(test, !live || apart ||
					  t[i].tier != t[j].tier);
		}
}

static bool all_zero(const u8 *p, u64 size)
{
	return !size || (!p[0] && !memcmp(p, p + 1, size - 1));
}

static void host_pools_are_checked(struct kunit *test)
{
	struct npu *npu = npu_new(test);
	struct tplan_pool_desc d[2];
	struct tplan_limits bad = limits;
	static const struct tplan_pool_ops mmap_only = {
		.mmap = (void *)1,
	};

	npu_pools(npu, d);
	d[0].size = PAGE_SIZE + 1;
	KUNIT_EXPECT_EQ(test, PTR_ERR(tplan_arena_create(d, 2, &limits)),
			-EINVAL);
	npu_pools(npu, d);
	d[0].tier = 2;
	KUNIT_EXPECT_EQ(test, PTR_ERR(tplan_arena_create(d, 2, &limits)),
			-EINVAL);
	/* mappable, but neither the CPU nor the device can zero it */
	npu_pools(npu, d);
	d[0].ops = &mmap_only;
	KUNIT_EXPECT_EQ(test, PTR_ERR(tplan_arena_create(d, 2, &limits)),
			-EINVAL);
	npu_pools(npu, d);
	KUNIT_EXPECT_EQ(test, PTR_ERR(tplan_arena_create(d, 0, &limits)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(tplan_arena_create(d, 5, &limits)),
			-EINVAL);
	bad.default_budget = bad.max_budget + 1;
	KUNIT_EXPECT_EQ(test, PTR_ERR(tplan_arena_create(d, 2, &bad)),
			-EINVAL);
	bad = limits;
	bad.max_tensors = 0;
	KUNIT_EXPECT_EQ(test, PTR_ERR(tplan_arena_create(d, 2, &bad)),
			-EINVAL);
	bad = limits;
	bad.max_device_plans = 0;
	KUNIT_EXPECT_EQ(test, PTR_ERR(tplan_arena_create(d, 2, &bad)),
			-EINVAL);
}

/* A small table fits the SRAM: its region there, zeroed by the device. */
static void host_plan_in_sram(struct kunit *test)
{
	struct npu *npu = npu_new(test);
	struct tplan_tensor *t = chain(test, 6, 4096);
	struct tplan_options opts = { .strategy = TPLAN_STRATEGY_AUTO };
	struct tplan_arena_plan *plan;
	struct tplan_region_info info;
	struct tplan_result res;
	u32 i;

	plan = submit_ok(test, npu, t, 6, &opts, &res);
	KUNIT_EXPECT_EQ(test, res.peak, res.lower_bound);
	KUNIT_EXPECT_EQ(test, res.peak, 8192ULL);
	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_EQ(test, t[i].tier, 0U);
	expect_no_overlap(test, t, 6);
	KUNIT_ASSERT_EQ(test, tplan_arena_plan_region(plan, 0, &info), 0);
	KUNIT_EXPECT_EQ(test, info.pool, 0U);
	KUNIT_EXPECT_EQ(test, info.size, 8192ULL);
	KUNIT_EXPECT_EQ(test, info.dev_addr, SRAM_DEV_ADDR + info.offset);
	KUNIT_EXPECT_NULL(test, info.cpu_addr);
	KUNIT_EXPECT_GE(test, npu->zeroed, info.size);
	KUNIT_EXPECT_TRUE(test, all_zero(npu->sram + info.offset, info.size));
	KUNIT_EXPECT_EQ(test, tplan_arena_plan_region(plan, 1, &info),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, tplan_arena_plan_region(plan, 4, &info),
			-ENOENT);
}

/* Too large for the SRAM: the DMA pool takes it, zeroed by the CPU. */
static void host_plan_falls_to_dram(struct kunit *test)
{
	struct npu *npu = npu_new(test);
	struct tplan_tensor *t = chain(test, 8, 9 * PAGE_SIZE);
	struct tplan_options opts = { .strategy = TPLAN_STRATEGY_AUTO };
	struct tplan_arena_plan *plan;
	struct tplan_region_info info;
	struct tplan_result res;

	/* two of 9 pages at once: 18 pages, more than the SRAM's 16 */
	plan = submit_ok(test, npu, t, 8, &opts, &res);
	KUNIT_EXPECT_EQ(test, res.peak, 18 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, t[0].tier, 1U);
	expect_no_overlap(test, t, 8);
	KUNIT_EXPECT_EQ(test, tplan_arena_plan_region(plan, 0, &info),
			-ENOENT);
	KUNIT_ASSERT_EQ(test, tplan_arena_plan_region(plan, 1, &info), 0);
	KUNIT_EXPECT_EQ(test, info.dev_addr, (u64)npu->dram_dma + info.offset);
	KUNIT_EXPECT_PTR_EQ(test, info.cpu_addr, npu->dram + info.offset);
	KUNIT_EXPECT_TRUE(test, all_zero(info.cpu_addr, info.size));
}

/* Tiered: the pools are the tiers; each gets its part of the plan. */
static void host_plan_tiered(struct kunit *test)
{
	struct npu *npu = npu_new(test);
	struct tplan_tensor *t = chain(test, 8, 9 * PAGE_SIZE);
	struct tplan_options opts = {
		.strategy = TPLAN_STRATEGY_AUTO, .tier_count = 2,
	};
	struct tplan_arena_plan *plan;
	struct tplan_region_info info;
	struct tplan_result res;
	u32 i, in_sram = 0;

	t[3].priority = 10;
	t[4].priority = 10;
	plan = submit_ok(test, npu, t, 8, &opts, &res);
	for (i = 0; i < 8; i++)
		in_sram += t[i].tier == 0;
	KUNIT_EXPECT_GT(test, in_sram, 0U);
	KUNIT_EXPECT_LT(test, in_sram, 8U);
	KUNIT_EXPECT_EQ(test, t[3].tier, 0U);
	expect_no_overlap(test, t, 8);
	KUNIT_ASSERT_EQ(test, tplan_arena_plan_region(plan, 0, &info), 0);
	KUNIT_EXPECT_EQ(test, info.size, res.tier_peak[0]);
	KUNIT_ASSERT_EQ(test, tplan_arena_plan_region(plan, 1, &info), 0);
	KUNIT_EXPECT_EQ(test, info.size, PAGE_ALIGN(res.tier_peak[1]));
	/* a tier capacity the host gives is honoured: 2 pages of SRAM */
	kunit_release_action(test, plan_put_action, plan);
	opts.tier_capacity[0] = 2 * PAGE_SIZE;
	submit_ok(test, npu, t, 8, &opts, &res);
	KUNIT_EXPECT_EQ(test, res.tier_peak[0], 0ULL);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, t[i].tier, 1U);
	opts.tier_count = 3;
	KUNIT_EXPECT_EQ(test, tplan_arena_submit(npu->arena, t, 8, &opts, &res,
						 &plan), -EINVAL);
}

static void host_submit_errors(struct kunit *test)
{
	struct npu *npu = npu_new(test);
	struct tplan_tensor *t = chain(test, 65, 4096);
	struct tplan_options opts = { .strategy = TPLAN_STRATEGY_AUTO };
	struct tplan_arena_plan *plan = NULL;
	struct tplan_result res;

	KUNIT_EXPECT_EQ(test, tplan_arena_submit(npu->arena, t, 0, &opts, &res,
						 &plan), -EINVAL);
	KUNIT_EXPECT_EQ(test, tplan_arena_submit(npu->arena, t, 65, &opts,
						 &res, &plan), -E2BIG);
	t[1].upper = 0;
	KUNIT_EXPECT_EQ(test, tplan_arena_submit(npu->arena, t, 4, &opts, &res,
						 &plan), -EINVAL);
	t[1].upper = 3;
	/* 2 x 40 pages alive at once: more than either pool */
	t[0].size = 40 * PAGE_SIZE;
	t[1].size = 40 * PAGE_SIZE;
	KUNIT_EXPECT_EQ(test, tplan_arena_submit(npu->arena, t, 2, &opts, &res,
						 &plan), -ENOSPC);
	KUNIT_EXPECT_EQ(test, res.peak, 80 * PAGE_SIZE);
	KUNIT_EXPECT_NULL(test, plan);
}

/* Regions held directly: first fit, and freed neighbours merge again. */
static void host_holds_coalesce(struct kunit *test)
{
	struct npu *npu = npu_new(test);
	struct tplan_hold *a, *b, *c, *all;
	struct tplan_region_info ia, ib;

	a = tplan_hold_alloc(npu->arena, 1, 8 * PAGE_SIZE, PAGE_SIZE);
	b = tplan_hold_alloc(npu->arena, 1, 8 * PAGE_SIZE, PAGE_SIZE);
	c = tplan_hold_alloc(npu->arena, 1, 8 * PAGE_SIZE, PAGE_SIZE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a) || IS_ERR(b) || IS_ERR(c));
	tplan_hold_info(a, &ia);
	tplan_hold_info(b, &ib);
	KUNIT_EXPECT_EQ(test, ia.offset + ia.size, ib.offset);
	KUNIT_EXPECT_EQ(test, ib.dev_addr, (u64)npu->dram_dma + ib.offset);
	tplan_hold_put(b);
	tplan_hold_put(a);
	tplan_hold_put(c);
	all = tplan_hold_alloc(npu->arena, 1, DRAM_SIZE, PAGE_SIZE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(all));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, hold_put_action,
							all), 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR(tplan_hold_alloc(npu->arena, 1,
						       PAGE_SIZE, PAGE_SIZE)),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, PTR_ERR(tplan_hold_alloc(npu->arena, 2,
						       PAGE_SIZE, PAGE_SIZE)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(tplan_hold_alloc(npu->arena, 0, 0,
						       PAGE_SIZE)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(tplan_hold_alloc(npu->arena, 0,
						       PAGE_SIZE, 3)), -EINVAL);
	/* the SRAM is still free: the fastest allowed pool with room */
	b = tplan_hold_alloc_first(npu->arena, PAGE_SIZE, PAGE_SIZE, 3);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	tplan_hold_info(b, &ib);
	KUNIT_EXPECT_EQ(test, ib.pool, 0U);
	tplan_hold_put(b);
}

/* A plan given back returns its region: the pool is whole again. */
static void host_plan_put_returns_memory(struct kunit *test)
{
	struct npu *npu = npu_new(test);
	struct tplan_tensor *t = chain(test, 6, 4096);
	struct tplan_options opts = { .strategy = TPLAN_STRATEGY_AUTO };
	struct tplan_arena_plan *plan = NULL;
	struct tplan_result res;
	struct tplan_hold *all;
	u64 zeroed;

	KUNIT_ASSERT_EQ(test, tplan_arena_submit(npu->arena, t, 6, &opts, &res,
						 &plan), 0);
	memset(npu->sram, 0xa5, SRAM_SIZE);
	zeroed = npu->zeroed;
	tplan_arena_plan_put(plan);
	/* zeroed on the way back: free memory keeps nothing of its user */
	KUNIT_EXPECT_EQ(test, npu->zeroed - zeroed, 8192ULL);
	all = tplan_hold_alloc(npu->arena, 0, SRAM_SIZE, PAGE_SIZE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(all));
	KUNIT_EXPECT_TRUE(test, all_zero(npu->sram, SRAM_SIZE));
	tplan_hold_put(all);
}

/*
 * Every plan alive counts against max_device_plans (16 here), whoever
 * holds it: the 17th is -ENFILE, and a plan put makes room again.
 */
static void host_device_plan_cap(struct kunit *test)
{
	struct npu *npu = npu_new(test);
	struct tplan_tensor *t = chain(test, 1, 64);
	struct tplan_options opts = { .strategy = TPLAN_STRATEGY_AUTO };
	struct tplan_arena_plan *plan = NULL, *first;
	struct tplan_result res;
	u32 i;

	first = submit_ok(test, npu, t, 1, &opts, &res);
	for (i = 1; i < limits.max_device_plans; i++)
		submit_ok(test, npu, t, 1, &opts, &res);
	KUNIT_EXPECT_EQ(test, tplan_arena_submit(npu->arena, t, 1, &opts, &res,
						 &plan), -ENFILE);
	KUNIT_EXPECT_NULL(test, plan);
	kunit_release_action(test, plan_put_action, first);
	plan = submit_ok(test, npu, t, 1, &opts, &res);
	KUNIT_EXPECT_NOT_NULL(test, plan);
}

/*
 * A long-lived tensor used at its ends, beside a short one at every step
 * between: within a capacity below the bound, it waits in host memory.
 */
static void host_spill_plan(struct kunit *test)
{
	struct npu *npu = npu_new(test);
	struct tplan_tensor *t = chain(test, 9, 8 * PAGE_SIZE);
	struct tplan_spill_options opts = { .capacity = 8 * PAGE_SIZE };
	struct tplan_arena_plan *plan = NULL;
	struct tplan_spill_result res;
	struct tplan_region_info info;
	struct tplan_piece *p;
	u32 i, of_t0 = 0;

	p = kunit_kcalloc(test, 16, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	t[0].upper = 10;
	t[0].size = 4 * PAGE_SIZE;
	for (i = 1; i < 9; i++)
		t[i].upper = i + 1;
	KUNIT_EXPECT_EQ(test, tplan_arena_submit_spill(npu->arena, t, 9, NULL,
						       &opts, p, 2, &res,
						       &plan), -ENOBUFS);
	KUNIT_EXPECT_EQ(test, res.pieces, 10U);
	/* no array asks the count, as SUBMIT_SPILL does */
	KUNIT_EXPECT_EQ(test, tplan_arena_submit_spill(npu->arena, t, 9, NULL,
						       &opts, NULL, 0, &res,
						       &plan), -ENOBUFS);
	KUNIT_EXPECT_EQ(test, res.pieces, 10U);
	KUNIT_EXPECT_EQ(test, tplan_arena_submit_spill(npu->arena, t, 9, NULL,
						       &opts, NULL, 2, &res,
						       &plan), -EINVAL);
	KUNIT_EXPECT_GE(test, tplan_spill_max_pieces(t, 9, NULL), 10U);
	KUNIT_ASSERT_EQ(test, tplan_arena_submit_spill(npu->arena, t, 9, NULL,
						       &opts, p, 16, &res,
						       &plan), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, plan_put_action,
							plan), 0);
	KUNIT_EXPECT_LE(test, res.peak, opts.capacity);
	KUNIT_EXPECT_EQ(test, res.moved, 2 * 4 * PAGE_SIZE);
	for (i = 0; i < res.pieces; i++)
		of_t0 += p[i].tensor == 0;
	KUNIT_EXPECT_EQ(test, of_t0, 2U);
	/* the fastest pool with room holds it: the SRAM */
	KUNIT_ASSERT_EQ(test, tplan_arena_plan_region(plan, 0, &info), 0);
	KUNIT_EXPECT_EQ(test, info.size, PAGE_ALIGN(res.peak));
	opts.capacity = 4 * PAGE_SIZE;
	KUNIT_EXPECT_EQ(test, tplan_arena_submit_spill(npu->arena, t, 9, NULL,
						       &opts, p, 16, &res,
						       &plan), -ENOSPC);
}

static void client_destroy_action(void *client)
{
	tplan_client_destroy(client);
}

/* A group plan: one share_key tensor (42, 2 pages) and scratch tensors. */
static struct tplan_tensor *group_table(struct kunit *test, u64 scratch)
{
	struct tplan_tensor *t = chain(test, 3, PAGE_SIZE);

	t[0].upper = 4;
	t[0].size = 2 * PAGE_SIZE;
	t[0].share_key = 42;
	t[2].size = scratch;
	return t;
}

/*
 * A client's serial group: two plans share one scratch region and store
 * their share_key tensor once; the memory goes with the last of them.
 */
static void host_client_groups(struct kunit *test)
{
	struct npu *npu = npu_new(test);
	struct tplan_tensor *a = group_table(test, PAGE_SIZE);
	struct tplan_tensor *b = group_table(test, 3 * PAGE_SIZE);
	struct tplan_options opts = { .strategy = TPLAN_STRATEGY_AUTO };
	struct tplan_region_info ka, kb, sa, sb;
	struct tplan_client *client;
	struct tplan_result res;
	u64 ida, idb;

	client = tplan_client_create(npu->arena);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, client);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							client_destroy_action,
							client), 0);
	KUNIT_ASSERT_EQ(test, tplan_client_submit(client, 7, a, 3, &opts, &res,
						  &ida), 0);
	KUNIT_ASSERT_EQ(test, tplan_client_submit(client, 7, b, 3, &opts, &res,
						  &idb), 0);
	KUNIT_EXPECT_NE(test, ida, idb);
	/* the kept tensor: one region, at one place, for both plans */
	KUNIT_EXPECT_GE(test, a[0].tier, 4U);
	KUNIT_ASSERT_EQ(test, tplan_client_plan_region(client, ida, a[0].tier,
						       &ka), 0);
	KUNIT_ASSERT_EQ(test, tplan_client_plan_region(client, idb, b[0].tier,
						       &kb), 0);
	KUNIT_EXPECT_EQ(test, ka.dev_addr + a[0].offset,
			kb.dev_addr + b[0].offset);
	/* the scratch: one region, grown for the larger plan */
	KUNIT_ASSERT_EQ(test, tplan_client_plan_region(client, ida, a[1].tier,
						       &sa), 0);
	KUNIT_ASSERT_EQ(test, tplan_client_plan_region(client, idb, b[1].tier,
						       &sb), 0);
	KUNIT_EXPECT_EQ(test, sa.dev_addr, sb.dev_addr);
	KUNIT_EXPECT_GE(test, sb.size, 4 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, tplan_client_release(client, ida), 0);
	KUNIT_EXPECT_EQ(test, tplan_client_plan_region(client, ida, a[1].tier,
						       &sa), -ENOENT);
	KUNIT_EXPECT_EQ(test, tplan_client_release(client, ida), -ENOENT);
	/* b still holds the kept and the scratch region */
	KUNIT_ASSERT_EQ(test, tplan_client_plan_region(client, idb, b[0].tier,
						       &kb), 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR(tplan_hold_alloc(npu->arena, 0,
						       SRAM_SIZE, PAGE_SIZE)),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, tplan_client_release(client, idb), 0);
	opts.tier_count = 2;
	KUNIT_EXPECT_EQ(test, tplan_client_submit(client, 7, a, 3, &opts, &res,
						  &ida), -EINVAL);
}

/*
 * A counted reference on a client's plan: its kept region is reachable by
 * slot through tplan_arena_plan_region(), and the plan and its regions
 * outlive the client's release until the reference is dropped.
 */
static void host_client_plan_get(struct kunit *test)
{
	struct npu *npu = npu_new(test);
	struct tplan_tensor *a = group_table(test, PAGE_SIZE);
	struct tplan_options opts = { .strategy = TPLAN_STRATEGY_AUTO };
	struct tplan_region_info k, k2, s;
	struct tplan_arena_plan *plan = NULL;
	struct tplan_client *client;
	struct tplan_result res;
	struct tplan_hold *all;
	u64 id;

	client = tplan_client_create(npu->arena);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, client);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							client_destroy_action,
							client), 0);
	KUNIT_ASSERT_EQ(test, tplan_client_submit(client, 7, a, 3, &opts, &res,
						  &id), 0);
	KUNIT_EXPECT_EQ(test, tplan_client_plan_get(client, id + 1, &plan),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, tplan_client_plan_get(client, 1ULL << 40, &plan),
			-ENOENT);
	KUNIT_EXPECT_NULL(test, plan);
	KUNIT_ASSERT_EQ(test, tplan_client_plan_get(client, id, &plan), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, plan_put_action,
							plan), 0);
	/* slots mean one thing: a kept region's slot works on the plan too */
	KUNIT_ASSERT_GE(test, a[0].tier, 4U);
	KUNIT_ASSERT_EQ(test, tplan_client_plan_region(client, id, a[0].tier,
						       &k), 0);
	KUNIT_ASSERT_EQ(test, tplan_arena_plan_region(plan, a[0].tier, &k2),
			0);
	KUNIT_EXPECT_EQ(test, k.dev_addr, k2.dev_addr);
	KUNIT_EXPECT_EQ(test, k.size, k2.size);
	KUNIT_ASSERT_EQ(test, tplan_arena_plan_region(plan, a[1].tier, &s), 0);
	KUNIT_EXPECT_EQ(test, tplan_arena_plan_region(plan, 16, &s), -ENOENT);
	/* the client gives it back; the reference still holds the SRAM */
	KUNIT_EXPECT_EQ(test, tplan_client_release(client, id), 0);
	KUNIT_EXPECT_EQ(test, tplan_client_plan_get(client, id, &plan),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, PTR_ERR(tplan_hold_alloc(npu->arena, 0,
						       SRAM_SIZE, PAGE_SIZE)),
			-ENOSPC);
	KUNIT_ASSERT_EQ(test, tplan_arena_plan_region(plan, a[0].tier, &k2),
			0);
	KUNIT_EXPECT_EQ(test, k.dev_addr, k2.dev_addr);
	kunit_release_action(test, plan_put_action, plan);
	all = tplan_hold_alloc(npu->arena, 0, SRAM_SIZE, PAGE_SIZE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(all));
	tplan_hold_put(all);
}

/**
 * struct job - a made-up device job: a fence its "interrupt" signals
 * @fence: the job's fence
 * @lock: the fence's lock
 * @timer: the "interrupt": a hard hrtimer, run with interrupts off
 * @irqs_off: the timer found interrupts disabled when it signaled
 */
struct job {
	struct dma_fence fence;
	spinlock_t lock;	/* the fence's */
	struct hrtimer timer;
	bool irqs_off;
};

static const char *job_name(struct dma_fence *fence)
{
	return "tplan_host_kunit";
}

static const struct dma_fence_ops job_ops = {
	.get_driver_name = job_name,
	.get_timeline_name = job_name,
};

static enum hrtimer_restart job_irq(struct hrtimer *timer)
{
	struct job *job = container_of(timer, struct job, timer);

	job->irqs_off = irqs_disabled();
	dma_fence_signal(&job->fence);
	return HRTIMER_NORESTART;
}

static void job_free(void *data)
{
	struct job *job = data;

	hrtimer_cancel(&job->timer);
	dma_fence_signal(&job->fence);
	dma_fence_put(&job->fence);
}

static struct job *job_new(struct kunit *test)
{
	struct job *job = kzalloc(sizeof(*job), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, job);
	spin_lock_init(&job->lock);
	dma_fence_init(&job->fence, &job_ops, &job->lock,
		       dma_fence_context_alloc(1), 1);
	hrtimer_init(&job->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	job->timer.function = job_irq;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, job_free, job),
			0);
	return job;
}

/* The job's interrupt, in 20 ms; wait for the fence and the put after it. */
static void job_done(struct kunit *test, struct npu *npu, struct job *job)
{
	hrtimer_start(&job->timer, ms_to_ktime(20), HRTIMER_MODE_REL_HARD);
	KUNIT_ASSERT_GT(test, dma_fence_wait_timeout(&job->fence, false, HZ),
			0L);
	tplan_arena_flush(npu->arena);
	KUNIT_EXPECT_TRUE(test, job->irqs_off);
}

/*
 * A plan put after a job's fence: its region stays the job's, unzeroed and
 * given to no one, until the fence signals from an interrupt; then its
 * bytes are zeroed and the pool is whole again.
 */
static void host_plan_put_after_fence(struct kunit *test)
{
	struct npu *npu = npu_new(test);
	struct tplan_tensor *t = chain(test, 4, 9 * PAGE_SIZE);
	struct tplan_options opts = { .strategy = TPLAN_STRATEGY_AUTO };
	struct tplan_arena_plan *plan = NULL;
	struct tplan_region_info info;
	struct job *job = job_new(test);
	struct tplan_result res;
	struct tplan_hold *all;

	/* 18 pages: the DMA pool, which the CPU reaches */
	KUNIT_ASSERT_EQ(test, tplan_arena_submit(npu->arena, t, 4, &opts, &res,
						 &plan), 0);
	KUNIT_ASSERT_EQ(test, tplan_arena_plan_region(plan, 1, &info), 0);
	memset(info.cpu_addr, 0x3c, info.size);
	tplan_arena_plan_put_after(plan, &job->fence);
	tplan_arena_flush(npu->arena);
	/* the job still runs: its bytes are intact and no one gets them */
	KUNIT_EXPECT_EQ(test, ((u8 *)info.cpu_addr)[info.size - 1], 0x3c);
	KUNIT_EXPECT_EQ(test, PTR_ERR(tplan_hold_alloc(npu->arena, 1,
						       DRAM_SIZE, PAGE_SIZE)),
			-ENOSPC);
	job_done(test, npu, job);
	KUNIT_EXPECT_TRUE(test, all_zero(info.cpu_addr, info.size));
	all = tplan_hold_alloc(npu->arena, 1, DRAM_SIZE, PAGE_SIZE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(all));
	tplan_hold_put(all);
}

/* A fence that has signaled: the put is made at once. */
static void host_put_after_signaled(struct kunit *test)
{
	struct npu *npu = npu_new(test);
	struct tplan_tensor *t = chain(test, 6, 4096);
	struct tplan_options opts = { .strategy = TPLAN_STRATEGY_AUTO };
	struct tplan_arena_plan *plan = NULL;
	struct job *job = job_new(test);
	struct tplan_result res;
	struct tplan_hold *hold;

	KUNIT_ASSERT_EQ(test, tplan_arena_submit(npu->arena, t, 6, &opts, &res,
						 &plan), 0);
	dma_fence_signal(&job->fence);
	tplan_arena_plan_put_after(plan, &job->fence);
	hold = tplan_hold_alloc(npu->arena, 0, SRAM_SIZE, PAGE_SIZE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(hold));
	tplan_hold_put_after(hold, &job->fence);
	hold = tplan_hold_alloc(npu->arena, 0, SRAM_SIZE, PAGE_SIZE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(hold));
	tplan_hold_put(hold);
	tplan_arena_plan_put_after(NULL, &job->fence);
	tplan_hold_put_after(NULL, &job->fence);
}

/* A hold put after a fence: another fence signaling does not free it. */
static void host_hold_put_after_fence(struct kunit *test)
{
	struct npu *npu = npu_new(test);
	struct job *a = job_new(test), *b = job_new(test);
	struct tplan_region_info info;
	struct tplan_hold *hold, *all;

	hold = tplan_hold_alloc(npu->arena, 0, SRAM_SIZE, PAGE_SIZE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(hold));
	tplan_hold_info(hold, &info);
	memset(npu->sram, 0x77, SRAM_SIZE);
	tplan_hold_put_after(hold, &a->fence);
	dma_fence_signal(&b->fence);
	tplan_arena_flush(npu->arena);
	KUNIT_EXPECT_EQ(test, npu->sram[SRAM_SIZE - 1], 0x77);
	KUNIT_EXPECT_EQ(test, PTR_ERR(tplan_hold_alloc(npu->arena, 0,
						       PAGE_SIZE, PAGE_SIZE)),
			-ENOSPC);
	job_done(test, npu, a);
	KUNIT_EXPECT_TRUE(test, all_zero(npu->sram, SRAM_SIZE));
	all = tplan_hold_alloc(npu->arena, 0, SRAM_SIZE, PAGE_SIZE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(all));
	tplan_hold_put(all);
}

/* The put after a fence holds the fence: its caller may drop its own. */
static void host_put_after_holds_the_fence(struct kunit *test)
{
	struct npu *npu = npu_new(test);
	struct job *job = kzalloc(sizeof(*job), GFP_KERNEL);
	struct tplan_hold *hold;

	KUNIT_ASSERT_NOT_NULL(test, job);
	spin_lock_init(&job->lock);
	dma_fence_init(&job->fence, &job_ops, &job->lock,
		       dma_fence_context_alloc(1), 1);
	hold = tplan_hold_alloc(npu->arena, 0, SRAM_SIZE, PAGE_SIZE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(hold));
	tplan_hold_put_after(hold, &job->fence);
	dma_fence_put(&job->fence);
	KUNIT_EXPECT_EQ(test, kref_read(&job->fence.refcount), 1U);
	dma_fence_signal(&job->fence);
	tplan_arena_flush(npu->arena);
	/* the put ran, and dropped the last reference on the fence */
	hold = tplan_hold_alloc(npu->arena, 0, SRAM_SIZE, PAGE_SIZE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(hold));
	tplan_hold_put(hold);
}

static void kfree_action(void *p)
{
	kfree(p);
}

/**
 * struct irq_puts - last puts a made-up interrupt handler makes
 * @timer: the handler: a hard hrtimer, run with interrupts off
 * @done: completed by the handler
 * @plan: put there
 * @hold: put there
 * @irqs_off: the handler found interrupts disabled
 */
struct irq_puts {
	struct hrtimer timer;
	struct completion done;
	struct tplan_arena_plan *plan;
	struct tplan_hold *hold;
	bool irqs_off;
};

static enum hrtimer_restart irq_puts_fn(struct hrtimer *timer)
{
	struct irq_puts *p = container_of(timer, struct irq_puts, timer);

	p->irqs_off = irqs_disabled();
	tplan_arena_plan_put_async(p->plan);
	tplan_hold_put_async(p->hold);
	complete(&p->done);
	return HRTIMER_NORESTART;
}

static void irq_puts_cancel(void *data)
{
	struct irq_puts *p = data;

	hrtimer_cancel(&p->timer);
}

/*
 * The last references on a plan and a hold, dropped in an interrupt
 * handler: the arena frees them from its workqueue, and after a flush
 * their bytes are zeroed and the pools are whole again.
 */
static void host_put_async_in_interrupt(struct kunit *test)
{
	struct npu *npu = npu_new(test);
	struct tplan_tensor *t = chain(test, 4, 9 * PAGE_SIZE);
	struct tplan_options opts = { .strategy = TPLAN_STRATEGY_AUTO };
	struct irq_puts *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	struct tplan_region_info info;
	struct tplan_result res;
	struct tplan_hold *all;

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, tplan_arena_submit(npu->arena, t, 4, &opts, &res,
						 &p->plan), 0);
	KUNIT_ASSERT_EQ(test, tplan_arena_plan_region(p->plan, 1, &info), 0);
	memset(info.cpu_addr, 0x5a, info.size);
	p->hold = tplan_hold_alloc(npu->arena, 0, SRAM_SIZE, PAGE_SIZE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(p->hold));
	init_completion(&p->done);
	hrtimer_init(&p->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	p->timer.function = irq_puts_fn;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, irq_puts_cancel,
							p), 0);
	hrtimer_start(&p->timer, ms_to_ktime(5), HRTIMER_MODE_REL_HARD);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&p->done, HZ), 0UL);
	tplan_arena_flush(npu->arena);
	KUNIT_EXPECT_TRUE(test, p->irqs_off);
	KUNIT_EXPECT_TRUE(test, all_zero(info.cpu_addr, info.size));
	KUNIT_EXPECT_EQ(test, sram_mapped(npu), 0ULL);
	all = tplan_hold_alloc(npu->arena, 1, DRAM_SIZE, PAGE_SIZE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(all));
	tplan_hold_put(all);
	all = tplan_hold_alloc(npu->arena, 0, SRAM_SIZE, PAGE_SIZE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(all));
	tplan_hold_put(all);
}

/*
 * Destroying an arena with anything alive in it (a hold, a plan, a
 * client, a plan referenced past its client, a put waiting for a fence)
 * refuses and changes nothing; once all is given back, it succeeds.
 */
static void host_destroy_with_holders(struct kunit *test)
{
	struct tplan_pool_desc d = { .size = 8 * PAGE_SIZE };
	struct tplan_tensor *t = chain(test, 2, PAGE_SIZE);
	struct tplan_options opts = { .strategy = TPLAN_STRATEGY_AUTO };
	struct tplan_arena_plan *plan = NULL;
	struct tplan_client *client;
	struct job *job = job_new(test);
	struct tplan_hold *h, *h2;
	struct tplan_arena *arena;
	struct tplan_result res;
	u64 id;

	d.cpu_addr = kzalloc(d.size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d.cpu_addr);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kfree_action,
							d.cpu_addr), 0);
	KUNIT_EXPECT_EQ(test, tplan_arena_destroy(NULL), 0);
	arena = tplan_arena_create(&d, 1, &limits);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, arena);
	h = tplan_hold_alloc(arena, 0, PAGE_SIZE, PAGE_SIZE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(h));
	KUNIT_EXPECT_EQ(test, tplan_arena_destroy(arena), -EBUSY);
	/* refused, and still whole */
	h2 = tplan_hold_alloc(arena, 0, 7 * PAGE_SIZE, PAGE_SIZE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(h2));
	tplan_hold_put(h2);
	tplan_hold_put(h);

	KUNIT_ASSERT_EQ(test, tplan_arena_submit(arena, t, 2, &opts, &res,
						 &plan), 0);
	KUNIT_EXPECT_EQ(test, tplan_arena_destroy(arena), -EBUSY);
	tplan_arena_plan_put(plan);

	client = tplan_client_create(arena);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, client);
	KUNIT_EXPECT_EQ(test, tplan_arena_destroy(arena), -EBUSY);
	KUNIT_ASSERT_EQ(test, tplan_client_submit(client, 0, t, 2, &opts, &res,
						  &id), 0);
	KUNIT_ASSERT_EQ(test, tplan_client_plan_get(client, id, &plan), 0);
	tplan_client_destroy(client);
	/* no client, but a plan referenced past it */
	KUNIT_EXPECT_EQ(test, tplan_arena_destroy(arena), -EBUSY);

	/* then only a put waiting for a fence */
	tplan_arena_plan_put_after(plan, &job->fence);
	KUNIT_EXPECT_EQ(test, tplan_arena_destroy(arena), -EBUSY);
	dma_fence_signal(&job->fence);
	/* the signaled fence's put is made by destroy itself */
	KUNIT_EXPECT_EQ(test, tplan_arena_destroy(arena), 0);
}

/*
 * A driver that manages its memory with a drm_mm: the pure planning call
 * gives offsets inside its buffer of size X, checked by the planner's own
 * validator; a buffer smaller than the lower bound is -ENOSPC, and a bad
 * table is -EINVAL with the offsets untouched.
 */
static void host_plan_offsets_drm_mm(struct kunit *test)
{
	struct tplan_tensor *t = chain(test, 12, 3 * PAGE_SIZE + 100);
	struct tplan_options opts = { .strategy = TPLAN_STRATEGY_AUTO };
	struct tplan_result res;
	struct {
		struct drm_mm mm;
		struct drm_mm_node other, heap;
	} *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	struct drm_mm_node *heap;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, d);
	heap = &d->heap;
	t[5].size = 7 * PAGE_SIZE;
	t[6].alignment = 4096;
	drm_mm_init(&d->mm, 0, 1ULL << 24);
	KUNIT_ASSERT_EQ(test, drm_mm_insert_node(&d->mm, &d->other,
						 5 * PAGE_SIZE), 0);
	/* how much the table needs, with no buffer yet */
	KUNIT_ASSERT_EQ(test, tplan_plan_offsets(t, 12, &opts, &res), 0);
	KUNIT_ASSERT_EQ(test, drm_mm_insert_node(&d->mm, heap, res.peak), 0);
	opts.capacity = heap->size;
	KUNIT_ASSERT_EQ(test, tplan_plan_offsets(t, 12, &opts, &res), 0);
	KUNIT_EXPECT_LE(test, res.peak, heap->size);
	expect_no_overlap(test, t, 12);
	for (i = 0; i < 12; i++)
		KUNIT_EXPECT_LE(test, t[i].offset + t[i].size, heap->size);
	/* X below the lower bound: no plan fits */
	opts.capacity = res.lower_bound - 1;
	KUNIT_EXPECT_EQ(test, tplan_plan_offsets(t, 12, &opts, &res), -ENOSPC);
	KUNIT_EXPECT_GT(test, res.peak, opts.capacity);
	opts.capacity = heap->size;
	KUNIT_EXPECT_EQ(test, tplan_plan_offsets(t, 0, &opts, &res), -EINVAL);
	t[2].offset = 12345;
	t[3].upper = t[3].lower;
	KUNIT_EXPECT_EQ(test, tplan_plan_offsets(t, 12, &opts, &res), -EINVAL);
	KUNIT_EXPECT_EQ(test, t[2].offset, 12345ULL);
	drm_mm_remove_node(heap);
	drm_mm_remove_node(&d->other);
	drm_mm_takedown(&d->mm);
}

/*
 * 200 tensors of random sizes and alignments (up to 4 KiB) alive at once
 * in random spans: the alignments keep the lower bound out of reach, and
 * the default budget spends 1.6 s in userspace trying (0.7-1.7 s in UML).
 */
#define HARD_TENSORS	200
/* ten times the default budget: about 16 s of search, were it not cut */
#define HARD_BUDGET	400000000ULL
/* a cut is seen within one work check; this is the slack allowed for it */
#define HARD_SLACK_NS	(400 * NSEC_PER_MSEC)

static struct tplan_tensor *hard_table(struct kunit *test)
{
	struct tplan_tensor *t = chain(test, HARD_TENSORS, 1);
	u64 x = 1;
	u32 i;

	for (i = 0; i < HARD_TENSORS; i++) {
		u64 r[5], k;

		for (k = 0; k < 5; k++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			r[k] = x >> 33;
		}
		t[i].lower = r[0] % 60;
		t[i].upper = t[i].lower + 1 + r[1] % 30;
		t[i].size = 1 + r[2] % 65536;
		t[i].alignment = 1ULL << (r[3] % 13);
	}
	return t;
}

/* The best plan found, valid, short of the bound: the search gave up. */
static void expect_best_plan(struct kunit *test, struct tplan_tensor *t,
			     const struct tplan_result *res)
{
	KUNIT_EXPECT_EQ(test, res->search, (u32)TPLAN_SEARCH_GAVE_UP);
	KUNIT_EXPECT_GT(test, res->peak, res->lower_bound);
	expect_no_overlap(test, t, HARD_TENSORS);
}

/* A time limit bounds a call whose bound cannot be reached. */
static void host_time_limit_bounds_a_call(struct kunit *test)
{
	struct tplan_tensor *t = hard_table(test);
	struct tplan_options opts = {
		.budget = HARD_BUDGET, .time_limit_ns = 100 * NSEC_PER_MSEC,
	};
	struct tplan_result res;
	u64 start = ktime_get_ns();

	KUNIT_ASSERT_EQ(test, tplan_plan_offsets(t, HARD_TENSORS, &opts, &res),
			0);
	KUNIT_EXPECT_LT(test, ktime_get_ns() - start,
			opts.time_limit_ns + HARD_SLACK_NS);
	expect_best_plan(test, t, &res);
}

static bool cancel_after(void *arg)
{
	u32 *asked = arg;

	return ++*asked > 20;
}

/* A cancellation ends a call at once, with the best plan found. */
static void host_cancel_cuts_a_call_short(struct kunit *test)
{
	struct tplan_tensor *t = hard_table(test);
	struct tplan_options opts = { .budget = HARD_BUDGET };
	struct tplan_cancel cancel;
	struct tplan_result res;
	u32 asked = 0;
	u64 start = ktime_get_ns();
	int ret;

	tplan_cancel_begin(&cancel, cancel_after, &asked);
	ret = tplan_plan_offsets(t, HARD_TENSORS, &opts, &res);
	tplan_cancel_end(&cancel);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, asked, 21U);
	KUNIT_EXPECT_LT(test, ktime_get_ns() - start, HARD_SLACK_NS);
	expect_best_plan(test, t, &res);
	/* ended: the next call does not ask it */
	asked = 0;
	opts.budget = 800000;
	KUNIT_EXPECT_EQ(test, tplan_plan_offsets(t, HARD_TENSORS, &opts, &res),
			0);
	KUNIT_EXPECT_EQ(test, asked, 0U);
}

/**
 * struct planner_thread - a kthread planning, which kthread_stop() ends
 * @t: its table
 * @res: what the planner reported
 * @ret: what the call returned
 * @started: set when it starts planning
 */
struct planner_thread {
	struct tplan_tensor *t;
	struct tplan_result res;
	int ret;
	struct completion started;
};

static int planner_thread_fn(void *data)
{
	struct planner_thread *p = data;
	struct tplan_options opts = { .budget = HARD_BUDGET };

	complete(&p->started);
	p->ret = tplan_plan_offsets(p->t, HARD_TENSORS, &opts, &p->res);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/* A kthread's planning ends when it is told to stop: it has no signals. */
static void host_kthread_stop_cuts_a_call_short(struct kunit *test)
{
	struct planner_thread *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	struct task_struct *task;
	u64 start;

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->t = hard_table(test);
	p->ret = 1;
	init_completion(&p->started);
	task = kthread_run(planner_thread_fn, p, "tplan_kunit_plan");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	wait_for_completion(&p->started);
	msleep(50);
	start = ktime_get_ns();
	kthread_stop(task);
	KUNIT_EXPECT_LT(test, ktime_get_ns() - start, HARD_SLACK_NS);
	KUNIT_ASSERT_EQ(test, p->ret, 0);
	expect_best_plan(test, p->t, &p->res);
}

/*
 * The map hooks: a region is mapped when handed out, grown bytes when a
 * group's scratch grows, all of it unmapped when it comes back; a failing
 * map fails the allocation, the submit or the join, and leaves the pool
 * as it was.
 */
static void host_map_hooks(struct kunit *test)
{
	struct npu *npu = npu_new(test);
	struct tplan_tensor *t = chain(test, 6, 4096);
	struct tplan_tensor *a = group_table(test, PAGE_SIZE);
	struct tplan_tensor *b = group_table(test, 3 * PAGE_SIZE);
	struct tplan_options opts = { .strategy = TPLAN_STRATEGY_AUTO };
	struct tplan_region_info info, ka, sb;
	struct tplan_arena_plan *plan = NULL;
	struct tplan_client *client;
	struct tplan_result res;
	struct tplan_hold *hold;
	u64 ida, idb, idc;

	hold = tplan_hold_alloc(npu->arena, 0, 2 * PAGE_SIZE, PAGE_SIZE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(hold));
	tplan_hold_info(hold, &info);
	KUNIT_EXPECT_EQ(test, sram_mapped(npu), 2 * PAGE_SIZE);
	KUNIT_EXPECT_TRUE(test, npu->mapped[info.offset / PAGE_SIZE + 1]);
	tplan_hold_put(hold);
	KUNIT_EXPECT_EQ(test, sram_mapped(npu), 0ULL);

	npu->map_error = -EIO;
	KUNIT_EXPECT_EQ(test, PTR_ERR(tplan_hold_alloc(npu->arena, 0,
						       PAGE_SIZE, PAGE_SIZE)),
			-EIO);
	KUNIT_EXPECT_EQ(test, tplan_arena_submit(npu->arena, t, 6, &opts, &res,
						 &plan), -EIO);
	KUNIT_EXPECT_NULL(test, plan);
	npu->map_error = 0;
	/* nothing was kept: the whole SRAM is there, and all of it maps */
	hold = tplan_hold_alloc(npu->arena, 0, SRAM_SIZE, PAGE_SIZE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(hold));
	KUNIT_EXPECT_EQ(test, sram_mapped(npu), SRAM_SIZE);
	tplan_hold_put(hold);

	client = tplan_client_create(npu->arena);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, client);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							client_destroy_action,
							client), 0);
	KUNIT_ASSERT_EQ(test, tplan_client_submit(client, 7, a, 3, &opts, &res,
						  &ida), 0);
	KUNIT_ASSERT_EQ(test, tplan_client_submit(client, 7, b, 3, &opts, &res,
						  &idb), 0);
	KUNIT_ASSERT_EQ(test, tplan_client_plan_region(client, ida, a[0].tier,
						       &ka), 0);
	KUNIT_ASSERT_EQ(test, tplan_client_plan_region(client, idb, b[1].tier,
						       &sb), 0);
	/* the kept region and the grown scratch, each mapped once */
	KUNIT_EXPECT_EQ(test, sram_mapped(npu), ka.size + sb.size);
	/* a join that must grow the scratch fails to map: it fails */
	b = group_table(test, 6 * PAGE_SIZE);
	npu->map_error = -EIO;
	KUNIT_EXPECT_EQ(test, tplan_client_submit(client, 7, b, 3, &opts, &res,
						  &idc), -EIO);
	npu->map_error = 0;
	KUNIT_EXPECT_EQ(test, sram_mapped(npu), ka.size + sb.size);
	KUNIT_EXPECT_EQ(test, tplan_client_release(client, ida), 0);
	KUNIT_EXPECT_EQ(test, tplan_client_release(client, idb), 0);
	KUNIT_EXPECT_EQ(test, sram_mapped(npu), 0ULL);
	KUNIT_EXPECT_FALSE(test, npu->map_misuse);
}

static struct kunit_case host_cases[] = {
	KUNIT_CASE(host_pools_are_checked),
	KUNIT_CASE(host_plan_in_sram),
	KUNIT_CASE(host_plan_falls_to_dram),
	KUNIT_CASE(host_plan_tiered),
	KUNIT_CASE(host_submit_errors),
	KUNIT_CASE(host_holds_coalesce),
	KUNIT_CASE(host_plan_put_returns_memory),
	KUNIT_CASE(host_device_plan_cap),
	KUNIT_CASE(host_spill_plan),
	KUNIT_CASE(host_client_groups),
	KUNIT_CASE(host_client_plan_get),
	KUNIT_CASE(host_plan_put_after_fence),
	KUNIT_CASE(host_put_after_signaled),
	KUNIT_CASE(host_hold_put_after_fence),
	KUNIT_CASE(host_put_after_holds_the_fence),
	KUNIT_CASE(host_put_async_in_interrupt),
	KUNIT_CASE(host_destroy_with_holders),
	KUNIT_CASE(host_plan_offsets_drm_mm),
	KUNIT_CASE(host_time_limit_bounds_a_call),
	KUNIT_CASE(host_cancel_cuts_a_call_short),
	KUNIT_CASE(host_kthread_stop_cuts_a_call_short),
	KUNIT_CASE(host_map_hooks),
	{}
};

static struct kunit_suite host_suite = {
	.name = "tplan_host",
	.test_cases = host_cases,
};

kunit_test_suite(host_suite);

MODULE_DESCRIPTION("KUnit: a second accelerator driver hosting a tplan arena");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(TPLAN);
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
