// SPDX-License-Identifier: GPL-2.0
/*
 * region_kunit.c - KUnit cases for the run-time region allocator
 * (driver/region.c): first fit in address order, merging on release.
 *
 * Every pool is destroyed by a KUnit cleanup action.  The action first
 * releases what a failed test left held, so a failure never leaks memory
 * nor trips the WARN in tplan_region_pool_destroy().
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/module.h>

#include "region.h"

static void pool_release(void *data)
{
	struct tplan_region_pool *pool = data;
	struct tplan_region *r;
	bool again = true;

	while (again) {
		again = false;
		list_for_each_entry(r, &pool->regions, link) {
			if (r->used) {
				tplan_region_free(pool, r);
				again = true;
				break;
			}
		}
	}
	tplan_region_pool_destroy(pool);
}

static struct tplan_region_pool *pool_new(struct kunit *test, u64 size,
					  u64 granule)
{
	struct tplan_region_pool *pool;

	pool = kunit_kzalloc(test, sizeof(*pool), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pool);
	KUNIT_ASSERT_EQ(test, tplan_region_pool_init(pool, size, granule), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, pool_release,
							pool), 0);
	return pool;
}

static struct tplan_region *alloc_ok(struct kunit *test,
				     struct tplan_region_pool *pool, u64 size,
				     u64 align)
{
	struct tplan_region *r = tplan_region_alloc(pool, size, align);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r);
	KUNIT_EXPECT_TRUE(test, r->used);
	return r;
}

static void expect_alloc_err(struct kunit *test,
			     struct tplan_region_pool *pool, u64 size,
			     u64 align, long err)
{
	struct tplan_region *r = tplan_region_alloc(pool, size, align);

	KUNIT_EXPECT_TRUE_MSG(test, IS_ERR(r), "size %llu align %llu", size,
			      align);
	if (IS_ERR(r))
		KUNIT_EXPECT_EQ(test, PTR_ERR(r), err);
}

/*
 * Check the pool's summary: @used bytes held, @free_regions free regions,
 * the largest @largest bytes; free bytes are what is not held.
 */
static void expect_stats(struct kunit *test,
			 const struct tplan_region_pool *pool, u64 used,
			 u32 free_regions, u64 largest)
{
	struct tplan_region_stats st;

	tplan_region_stats(pool, &st);
	KUNIT_EXPECT_EQ(test, st.used, used);
	KUNIT_EXPECT_EQ(test, st.free, pool->size - used);
	KUNIT_EXPECT_EQ(test, st.free_regions, free_regions);
	KUNIT_EXPECT_EQ(test, st.largest_free, largest);
	KUNIT_EXPECT_EQ(test, pool->used, used);
}

/* The pool is back to one free region covering all of it. */
static void expect_whole(struct kunit *test,
			 const struct tplan_region_pool *pool)
{
	const struct tplan_region *r;

	expect_stats(test, pool, 0, 1, pool->size);
	KUNIT_ASSERT_FALSE(test, list_empty(&pool->regions));
	r = list_first_entry(&pool->regions, struct tplan_region, link);
	KUNIT_EXPECT_EQ(test, r->start, 0);
	KUNIT_EXPECT_EQ(test, r->size, pool->size);
	KUNIT_EXPECT_FALSE(test, r->used);
	KUNIT_EXPECT_TRUE(test, list_is_singular(&pool->regions));
}

static void region_init_checks_arguments(struct kunit *test)
{
	struct tplan_region_pool *pool;

	pool = kunit_kzalloc(test, sizeof(*pool), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pool);
	KUNIT_EXPECT_EQ(test, tplan_region_pool_init(pool, 0, 64), -EINVAL);
	KUNIT_EXPECT_EQ(test, tplan_region_pool_init(pool, 4096, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, tplan_region_pool_init(pool, 4096, 24), -EINVAL);
	KUNIT_EXPECT_EQ(test, tplan_region_pool_init(pool, 4000, 64), -EINVAL);
	KUNIT_EXPECT_EQ(test, tplan_region_pool_init(pool, 32, 64), -EINVAL);

	pool = pool_new(test, 4096, 64);
	KUNIT_EXPECT_EQ(test, pool->size, 4096);
	KUNIT_EXPECT_EQ(test, pool->granule, 64);
	expect_whole(test, pool);

	pool = pool_new(test, 1, 1);
	expect_whole(test, pool);
}

static void region_free_merges_neighbours(struct kunit *test)
{
	static const u64 sizes[] = { 512, 1024, 512, 1024, 1024 };
	static const u64 starts[] = { 0, 512, 1536, 2048, 3072 };
	struct tplan_region_pool *pool = pool_new(test, 4096, 64);
	struct tplan_region *r[ARRAY_SIZE(sizes)];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		r[i] = alloc_ok(test, pool, sizes[i], 64);
		KUNIT_EXPECT_EQ(test, r[i]->start, starts[i]);
		KUNIT_EXPECT_EQ(test, r[i]->size, sizes[i]);
	}
	expect_stats(test, pool, 4096, 0, 0);

	/* A hole in the middle: one free region between two held ones. */
	tplan_region_free(pool, r[2]);
	expect_stats(test, pool, 3584, 1, 512);
	/* A second hole, not adjacent to the first. */
	tplan_region_free(pool, r[0]);
	expect_stats(test, pool, 3072, 2, 512);
	/* The region between them: all three become one. */
	tplan_region_free(pool, r[1]);
	expect_stats(test, pool, 2048, 1, 2048);
	/* Merging with the free run below only. */
	tplan_region_free(pool, r[3]);
	expect_stats(test, pool, 1024, 1, 3072);
	tplan_region_free(pool, r[4]);
	expect_whole(test, pool);

	/* Free the upper neighbour first, then the lower one. */
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		r[i] = alloc_ok(test, pool, sizes[i], 64);
	tplan_region_free(pool, r[3]);
	expect_stats(test, pool, 3072, 1, 1024);
	tplan_region_free(pool, r[1]);
	expect_stats(test, pool, 2048, 2, 1024);
	tplan_region_free(pool, r[2]);
	expect_stats(test, pool, 1536, 1, 2560);
	tplan_region_free(pool, r[4]);
	tplan_region_free(pool, r[0]);
	expect_whole(test, pool);
}

static void region_exhaustion(struct kunit *test)
{
	struct tplan_region_pool *pool = pool_new(test, 4096, 256);
	struct tplan_region *r[16], *all;
	unsigned int i;

	all = alloc_ok(test, pool, 4096, 1);
	KUNIT_EXPECT_EQ(test, all->start, 0);
	expect_alloc_err(test, pool, 256, 1, -ENOSPC);
	tplan_region_free(pool, all);
	expect_whole(test, pool);

	for (i = 0; i < ARRAY_SIZE(r); i++) {
		r[i] = alloc_ok(test, pool, 256, 256);
		KUNIT_EXPECT_EQ(test, r[i]->start, i * 256);
	}
	expect_alloc_err(test, pool, 1, 1, -ENOSPC);
	expect_stats(test, pool, 4096, 0, 0);

	/* Two separate 256-byte holes do not hold 512 bytes. */
	tplan_region_free(pool, r[5]);
	tplan_region_free(pool, r[9]);
	expect_stats(test, pool, 3584, 2, 256);
	expect_alloc_err(test, pool, 512, 1, -ENOSPC);

	/* First fit: the lower hole is taken again. */
	r[5] = alloc_ok(test, pool, 200, 1);
	KUNIT_EXPECT_EQ(test, r[5]->start, 5 * 256);
	r[9] = alloc_ok(test, pool, 256, 1);
	KUNIT_EXPECT_EQ(test, r[9]->start, 9 * 256);
	expect_alloc_err(test, pool, 256, 1, -ENOSPC);

	for (i = 0; i < ARRAY_SIZE(r); i++)
		tplan_region_free(pool, r[i]);
	expect_whole(test, pool);
}

static void region_alignment(struct kunit *test)
{
	struct tplan_region_pool *pool = pool_new(test, 8192, 64);
	struct tplan_region *a, *b, *c, *d;

	a = alloc_ok(test, pool, 64, 64);
	KUNIT_EXPECT_EQ(test, a->start, 0);
	b = alloc_ok(test, pool, 100, 1024);
	KUNIT_EXPECT_EQ(test, b->start, 1024);
	KUNIT_EXPECT_EQ(test, b->size, 128);
	/* The gap [64, 1024) below b stays free, so does [1152, 8192). */
	expect_stats(test, pool, 192, 2, 8192 - 1152);

	/* An alignment below the granule gives a granule-aligned start. */
	c = alloc_ok(test, pool, 1, 1);
	KUNIT_EXPECT_EQ(test, c->start, 64);
	KUNIT_EXPECT_EQ(test, c->size, 64);
	expect_stats(test, pool, 256, 2, 8192 - 1152);

	/* Too big for the gap: placed above b at the next 4 KiB boundary. */
	d = alloc_ok(test, pool, 1000, 4096);
	KUNIT_EXPECT_EQ(test, d->start, 4096);
	KUNIT_EXPECT_EQ(test, d->size, 1024);
	KUNIT_EXPECT_EQ(test, d->start % 4096, 0);
	expect_stats(test, pool, 1280, 3, 8192 - 5120);

	tplan_region_free(pool, b);
	expect_stats(test, pool, 1152, 2, 4096 - 128);
	tplan_region_free(pool, d);
	expect_stats(test, pool, 128, 1, 8192 - 128);
	tplan_region_free(pool, a);
	expect_stats(test, pool, 64, 2, 8192 - 128);
	tplan_region_free(pool, c);
	expect_whole(test, pool);

	/* An alignment as large as the pool still fits at 0. */
	a = alloc_ok(test, pool, 64, 8192);
	KUNIT_EXPECT_EQ(test, a->start, 0);
	expect_alloc_err(test, pool, 64, 8192, -ENOSPC);
	tplan_region_free(pool, a);
	expect_whole(test, pool);
}

static void region_size_rounded_to_granule(struct kunit *test)
{
	struct tplan_region_pool *pool = pool_new(test, 4096, 256);
	struct tplan_region *a, *b, *c;

	a = alloc_ok(test, pool, 1, 1);
	KUNIT_EXPECT_EQ(test, a->start, 0);
	KUNIT_EXPECT_EQ(test, a->size, 256);
	b = alloc_ok(test, pool, 257, 1);
	KUNIT_EXPECT_EQ(test, b->start, 256);
	KUNIT_EXPECT_EQ(test, b->size, 512);
	c = alloc_ok(test, pool, 256, 1);
	KUNIT_EXPECT_EQ(test, c->start, 768);
	KUNIT_EXPECT_EQ(test, c->size, 256);
	expect_stats(test, pool, 1024, 1, 3072);

	/* A size just under the pool rounds up to all of what is left. */
	tplan_region_free(pool, a);
	tplan_region_free(pool, b);
	tplan_region_free(pool, c);
	a = alloc_ok(test, pool, 4095, 1);
	KUNIT_EXPECT_EQ(test, a->size, 4096);
	expect_stats(test, pool, 4096, 0, 0);
	tplan_region_free(pool, a);
	expect_whole(test, pool);
}

static void region_alloc_checks_arguments(struct kunit *test)
{
	struct tplan_region_pool *pool = pool_new(test, 4096, 64);

	expect_alloc_err(test, pool, 0, 64, -EINVAL);
	expect_alloc_err(test, pool, 64, 0, -EINVAL);
	expect_alloc_err(test, pool, 64, 3, -EINVAL);
	expect_alloc_err(test, pool, 64, 96, -EINVAL);
	expect_alloc_err(test, pool, 4097, 1, -ENOSPC);
	expect_alloc_err(test, pool, 1ull << 40, 1, -ENOSPC);
	expect_alloc_err(test, pool, ~0ull, 1, -ENOSPC);
	/* Nothing was taken by the failures. */
	expect_whole(test, pool);
}

/* A region grows into the free run after it, never over a held one. */
static void region_grow_in_place(struct kunit *test)
{
	struct tplan_region_pool *pool = pool_new(test, 16 * 4096, 4096);
	struct tplan_region *a = alloc_ok(test, pool, 4096, 1);
	struct tplan_region *b = alloc_ok(test, pool, 4096, 1);

	/* a is followed by b: it cannot grow */
	KUNIT_EXPECT_EQ(test, tplan_region_grow(pool, a, 8192), -ENOSPC);
	KUNIT_EXPECT_EQ(test, a->size, 4096);
	/* to its size or less: nothing to do */
	KUNIT_EXPECT_EQ(test, tplan_region_grow(pool, a, 100), 0);
	KUNIT_EXPECT_EQ(test, a->size, 4096);
	/* b grows into the free run, rounded up to the granule */
	KUNIT_EXPECT_EQ(test, tplan_region_grow(pool, b, 3 * 4096 + 1), 0);
	KUNIT_EXPECT_EQ(test, b->start, 4096);
	KUNIT_EXPECT_EQ(test, b->size, 4 * 4096);
	expect_stats(test, pool, 5 * 4096, 1, 11 * 4096);
	/* to the very end: the free run disappears */
	KUNIT_EXPECT_EQ(test, tplan_region_grow(pool, b, 15 * 4096), 0);
	expect_stats(test, pool, 16 * 4096, 0, 0);
	KUNIT_EXPECT_EQ(test, tplan_region_grow(pool, b, 16 * 4096), -ENOSPC);
	tplan_region_free(pool, b);
	tplan_region_free(pool, a);
	expect_whole(test, pool);
}

static struct kunit_case tplan_region_cases[] = {
	KUNIT_CASE(region_init_checks_arguments),
	KUNIT_CASE(region_free_merges_neighbours),
	KUNIT_CASE(region_exhaustion),
	KUNIT_CASE(region_alignment),
	KUNIT_CASE(region_size_rounded_to_granule),
	KUNIT_CASE(region_alloc_checks_arguments),
	KUNIT_CASE(region_grow_in_place),
	{}
};

static struct kunit_suite tplan_region_suite = {
	.name = "tplan_region",
	.test_cases = tplan_region_cases,
};

kunit_test_suite(tplan_region_suite);

MODULE_DESCRIPTION("KUnit tests of the tplan region allocator");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
