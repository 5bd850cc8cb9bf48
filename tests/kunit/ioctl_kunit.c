// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl_kunit.c - the /dev/tplan ioctl handlers, driven through a real open
 * file with real user memory (kunit_vm_mmap): every rejected input returns
 * its documented errno and changes nothing.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_vma_manager.h>

#include "linux/tplan.h"
#include "kunit_node.h"

#define MEM_LEN		(64 * PAGE_SIZE)
#define TENSORS_AT	PAGE_SIZE	/* tensor array offset in user memory */
#define GAPS_AT		(32 * PAGE_SIZE)	/* gap array offset */
#define N_GOOD		3

/* Per test; the requests live here, too large for the kernel stack. */
struct ioctl_ctx {
	struct file *file;
	u8 __user *mem;
	struct tplan_info info;		/* as before the test's calls */
	struct tplan_submit req;
	struct tplan_tensor_desc t[N_GOOD];
};

/* Three tensors: two live together, the third reuses the first's bytes. */
static const struct tplan_tensor_desc good[N_GOOD] = {
	{ .id = 1, .lower = 0, .upper = 2, .size = 4096, .alignment = 1 },
	{ .id = 2, .lower = 1, .upper = 3, .size = 1000, .alignment = 64 },
	{ .id = 3, .lower = 2, .upper = 4, .size = 4096, .alignment = 1 },
};

/* The pool holding an untiered plan's region (0 when it has none). */
static u32 pool_of(const struct tplan_submit *r)
{
	u32 k;

	for (k = 0; k < TPLAN_MAX_POOLS; k++)
		if (r->regions[k].region_size)
			return k;
	return 0;
}

/* An untiered plan's region. */
static const struct tplan_plan_region *region_of(const struct tplan_submit *r)
{
	return &r->regions[pool_of(r)];
}

static long call(struct ioctl_ctx *c, unsigned int cmd, const void *arg,
		 size_t size)
{
	if (size && copy_to_user(c->mem, arg, size))
		return -EFAULT;
	return c->file->f_op->unlocked_ioctl(c->file, cmd,
					     (unsigned long)c->mem);
}

static void get_info(struct kunit *test, struct ioctl_ctx *c,
		     struct tplan_info *info)
{
	KUNIT_ASSERT_EQ(test, call(c, TPLAN_IOC_GET_INFO, NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(info, c->mem, sizeof(*info)), 0);
}

static void put_tensors(struct kunit *test, struct ioctl_ctx *c,
			const struct tplan_tensor_desc *t, u32 n, u32 stride)
{
	u32 i;

	KUNIT_ASSERT_EQ(test, clear_user(c->mem + TENSORS_AT, n * stride), 0);
	for (i = 0; i < n; i++)
		KUNIT_ASSERT_EQ(test, copy_to_user(c->mem + TENSORS_AT + i * stride,
						   &t[i], sizeof(t[i])), 0);
}

static void good_submit(struct ioctl_ctx *c, struct tplan_submit *req)
{
	memset(req, 0, sizeof(*req));
	req->strategy = TPLAN_STRATEGY_ID_GREEDY_SIZE;
	req->tensors = (u64)(uintptr_t)(c->mem + TENSORS_AT);
	req->count = N_GOOD;
	req->stride = sizeof(struct tplan_tensor_desc);
}

static int ioctl_test_init(struct kunit *test)
{
	struct ioctl_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->file = filp_open(TPLAN_KUNIT_NODE, O_RDWR, 0);
	if (IS_ERR(c->file)) {
		kunit_skip(test, TPLAN_KUNIT_NODE ": %ld (is tplan.ko loaded?)",
			   PTR_ERR(c->file));
		return 0;
	}
	c->mem = (u8 __user *)kunit_vm_mmap(test, NULL, 0, MEM_LEN,
					    PROT_READ | PROT_WRITE,
					    MAP_ANONYMOUS | MAP_PRIVATE, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR_VALUE((unsigned long)c->mem));
	test->priv = c;
	get_info(test, c, &c->info);
	return 0;
}

static void ioctl_test_exit(struct kunit *test)
{
	struct ioctl_ctx *c = test->priv;

	if (c && !IS_ERR_OR_NULL(c->file))
		filp_close(c->file, NULL);
}

/* Nothing the test did may have left a plan or a used byte behind. */
static void expect_unchanged(struct kunit *test, struct ioctl_ctx *c)
{
	struct tplan_info *now = kunit_kzalloc(test, sizeof(*now), GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, now);
	get_info(test, c, now);
	KUNIT_EXPECT_EQ(test, now->plans_held, c->info.plans_held);
	for (i = 0; i < now->pool_count; i++)
		KUNIT_EXPECT_EQ(test, now->pools[i].used, c->info.pools[i].used);
}

static void info_describes_the_device(struct kunit *test)
{
	struct ioctl_ctx *c = test->priv;

	KUNIT_EXPECT_EQ(test, c->info.abi_version, TPLAN_ABI_VERSION);
	KUNIT_EXPECT_GE(test, c->info.pool_count, 1);
	KUNIT_EXPECT_LE(test, c->info.pool_count, TPLAN_MAX_POOLS);
	KUNIT_EXPECT_EQ(test, c->info.region_align, PAGE_SIZE);
	KUNIT_EXPECT_GE(test, c->info.max_tensors, 1);
	KUNIT_EXPECT_EQ(test, c->info.plans_held, 0);
	KUNIT_EXPECT_EQ(test, c->info.pools[0].free_regions, 1);
}

static void submit_map_release(struct kunit *test)
{
	struct ioctl_ctx *c = test->priv;
	struct tplan_tensor_desc *out = c->t;
	struct tplan_info *info = kunit_kzalloc(test, sizeof(*info), GFP_KERNEL);
	struct tplan_release rel = { 0 };
	struct tplan_submit *req = &c->req;
	unsigned long addr, mapped;

	KUNIT_ASSERT_NOT_NULL(test, info);
	put_tensors(test, c, good, N_GOOD, sizeof(good[0]));
	good_submit(c, req);
	KUNIT_ASSERT_EQ(test, call(c, TPLAN_IOC_SUBMIT, req, sizeof(*req)), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(req, c->mem, sizeof(*req)), 0);
	KUNIT_EXPECT_GT(test, req->plan_id, 0);
	KUNIT_EXPECT_EQ(test, req->lower_bound, 5096);
	KUNIT_EXPECT_EQ(test, req->peak, 5096);
	KUNIT_EXPECT_EQ(test, region_of(req)->region_size, 2 * PAGE_SIZE);
	/* the region is a GEM object: a fake offset and a handle */
	KUNIT_EXPECT_GE(test, region_of(req)->mmap_offset >> PAGE_SHIFT,
			DRM_FILE_PAGE_OFFSET_START);
	KUNIT_EXPECT_EQ(test, region_of(req)->mmap_offset % PAGE_SIZE, 0);
	KUNIT_EXPECT_NE(test, region_of(req)->handle, 0);
	KUNIT_EXPECT_EQ(test, req->regions[pool_of(req)].peak, 5096);
	KUNIT_EXPECT_EQ(test, req->regions[pool_of(req)].region_size,
			2 * PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, copy_from_user(out, c->mem + TENSORS_AT,
					     sizeof(good)), 0);
	KUNIT_EXPECT_EQ(test, out[0].offset, 0);
	KUNIT_EXPECT_EQ(test, out[1].offset, 4096);
	KUNIT_EXPECT_EQ(test, out[2].offset, 0);
	get_info(test, c, info);
	KUNIT_EXPECT_EQ(test, info->plans_held, 1);
	KUNIT_EXPECT_EQ(test, info->pools[pool_of(req)].used, region_of(req)->region_size);

	/* Its own plan maps; a longer mapping or another offset does not. */
	mapped = kunit_vm_mmap(test, c->file, 0, region_of(req)->region_size,
			       PROT_READ | PROT_WRITE, MAP_SHARED,
			       region_of(req)->mmap_offset);
	KUNIT_ASSERT_FALSE(test, IS_ERR_VALUE(mapped));
	addr = kunit_vm_mmap(test, c->file, 0, region_of(req)->region_size + PAGE_SIZE,
			     PROT_READ, MAP_SHARED, region_of(req)->mmap_offset);
	KUNIT_EXPECT_EQ(test, (long)addr, -EINVAL);
	addr = kunit_vm_mmap(test, c->file, 0, PAGE_SIZE, PROT_READ,
			     MAP_SHARED, region_of(req)->mmap_offset + PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, (long)addr, -EINVAL);

	rel.plan_id = req->plan_id;
	KUNIT_EXPECT_EQ(test, call(c, TPLAN_IOC_RELEASE, &rel, sizeof(rel)), 0);
	KUNIT_EXPECT_EQ(test, call(c, TPLAN_IOC_RELEASE, &rel, sizeof(rel)),
			-ENOENT);
	get_info(test, c, info);
	KUNIT_EXPECT_EQ(test, info->plans_held, 0);

	/*
	 * The mapping holds the region until it goes: unmap it here, or the
	 * next test would see it freed whenever KUnit tears this one's mm down.
	 */
	KUNIT_EXPECT_EQ(test, vm_munmap(mapped, region_of(req)->region_size), 0);
	expect_unchanged(test, c);
}

static void dry_run_reserves_nothing(struct kunit *test)
{
	struct ioctl_ctx *c = test->priv;
	struct tplan_submit *req = &c->req;

	put_tensors(test, c, good, N_GOOD, sizeof(good[0]));
	good_submit(c, req);
	req->flags = TPLAN_SUBMIT_DRY_RUN;
	KUNIT_ASSERT_EQ(test, call(c, TPLAN_IOC_SUBMIT, req, sizeof(*req)), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(req, c->mem, sizeof(*req)), 0);
	KUNIT_EXPECT_EQ(test, req->plan_id, 0);
	KUNIT_EXPECT_EQ(test, req->peak, 5096);
	expect_unchanged(test, c);
}

/* One rejected SUBMIT: how to spoil a good request, and the errno. */
struct bad_submit {
	const char *name;
	void (*spoil)(struct ioctl_ctx *c, struct tplan_submit *req,
		      struct tplan_tensor_desc *t);
	int err;
};

static void unknown_flag(struct ioctl_ctx *c, struct tplan_submit *r,
			 struct tplan_tensor_desc *t)
{
	r->flags = 1U << 7;
}

static void nonzero_reserved(struct ioctl_ctx *c, struct tplan_submit *r,
			     struct tplan_tensor_desc *t)
{
	r->reserved[1] = 1;
}

static void first_reserved(struct ioctl_ctx *c, struct tplan_submit *r,
			   struct tplan_tensor_desc *t)
{
	r->reserved[0] = 1;
}

static void unknown_strategy(struct ioctl_ctx *c, struct tplan_submit *r,
			     struct tplan_tensor_desc *t)
{
	r->strategy = 99;
}

static void zero_count(struct ioctl_ctx *c, struct tplan_submit *r,
		       struct tplan_tensor_desc *t)
{
	r->count = 0;
}

static void count_over_limit(struct ioctl_ctx *c, struct tplan_submit *r,
			     struct tplan_tensor_desc *t)
{
	r->count = c->info.max_tensors + 1;
}

static void stride_too_small(struct ioctl_ctx *c, struct tplan_submit *r,
			     struct tplan_tensor_desc *t)
{
	r->stride = TPLAN_TENSOR_DESC_SIZE_VER1 - 8;
}

static void stride_too_large(struct ioctl_ctx *c, struct tplan_submit *r,
			     struct tplan_tensor_desc *t)
{
	r->stride = TPLAN_TENSOR_DESC_MAX_STRIDE + 8;
}

static void null_tensors(struct ioctl_ctx *c, struct tplan_submit *r,
			 struct tplan_tensor_desc *t)
{
	r->tensors = 0;
}

static void kernel_pointer(struct ioctl_ctx *c, struct tplan_submit *r,
			   struct tplan_tensor_desc *t)
{
	r->tensors = (u64)(uintptr_t)t;
}

static void tensor_flag(struct ioctl_ctx *c, struct tplan_submit *r,
			struct tplan_tensor_desc *t)
{
	t[1].flags = 1U << 3;
}

static void empty_lifetime(struct ioctl_ctx *c, struct tplan_submit *r,
			   struct tplan_tensor_desc *t)
{
	t[2].upper = t[2].lower;
}

static void bad_alignment(struct ioctl_ctx *c, struct tplan_submit *r,
			  struct tplan_tensor_desc *t)
{
	t[0].alignment = 3;
}

static void duplicate_id(struct ioctl_ctx *c, struct tplan_submit *r,
			 struct tplan_tensor_desc *t)
{
	t[2].id = t[0].id;
}

static void sizes_overflow(struct ioctl_ctx *c, struct tplan_submit *r,
			   struct tplan_tensor_desc *t)
{
	t[0].size = 1ULL << 63;
	t[1].size = 1ULL << 63;
}

static void tiny_budget(struct ioctl_ctx *c, struct tplan_submit *r,
			struct tplan_tensor_desc *t)
{
	r->budget = 1;
}

static void too_big_to_fit(struct ioctl_ctx *c, struct tplan_submit *r,
			   struct tplan_tensor_desc *t)
{
	t[0].size = 1ULL << 40;
}

static void stride_unaligned(struct ioctl_ctx *c, struct tplan_submit *r,
			     struct tplan_tensor_desc *t)
{
	r->stride = TPLAN_TENSOR_DESC_SIZE_VER1 + 4;
}

static void tiered_group(struct ioctl_ctx *c, struct tplan_submit *r,
			 struct tplan_tensor_desc *t)
{
	r->flags = TPLAN_SUBMIT_TIERED;
	r->group = 1;
}

static void tensor_pad(struct ioctl_ctx *c, struct tplan_submit *r,
		       struct tplan_tensor_desc *t)
{
	t[1].pad = 1;
}

static void tier_beyond_any(struct ioctl_ctx *c, struct tplan_submit *r,
			    struct tplan_tensor_desc *t)
{
	t[1].tiers = 1U << TPLAN_MAX_POOLS;
}

static void tier_the_device_lacks(struct ioctl_ctx *c, struct tplan_submit *r,
				  struct tplan_tensor_desc *t)
{
	r->flags = TPLAN_SUBMIT_TIERED;
	t[1].tiers = 1U << c->info.pool_count;
}

static void share_key_sizes_differ(struct ioctl_ctx *c, struct tplan_submit *r,
				   struct tplan_tensor_desc *t)
{
	t[0].share_key = 5;
	t[1].share_key = 5;
}

static void alias_of_shared(struct ioctl_ctx *c, struct tplan_submit *r,
			    struct tplan_tensor_desc *t)
{
	r->flags = TPLAN_SUBMIT_ALIASES;
	t[0].share_key = 5;
	t[2].flags = TPLAN_TENSOR_HAS_ALIAS;
	t[2].alias_of = t[0].id;
}

static const struct bad_submit bad_submits[] = {
	{ "unknown submit flag", unknown_flag, -EINVAL },
	{ "non-zero reserved", nonzero_reserved, -EINVAL },
	{ "non-zero first reserved", first_reserved, -EINVAL },
	{ "unknown strategy", unknown_strategy, -EINVAL },
	{ "count 0", zero_count, -EINVAL },
	{ "count over max_tensors", count_over_limit, -E2BIG },
	{ "stride below the descriptor size", stride_too_small, -EINVAL },
	{ "stride above the largest", stride_too_large, -EINVAL },
	{ "NULL tensor pointer", null_tensors, -EFAULT },
	{ "kernel tensor pointer", kernel_pointer, -EFAULT },
	{ "unknown tensor flag", tensor_flag, -EINVAL },
	{ "upper <= lower", empty_lifetime, -EINVAL },
	{ "alignment not a power of two", bad_alignment, -EINVAL },
	{ "duplicate id", duplicate_id, -EINVAL },
	{ "sizes overflow 64 bits", sizes_overflow, -EOVERFLOW },
	{ "work budget exhausted", tiny_budget, -ETIMEDOUT },
	{ "does not fit any pool", too_big_to_fit, -ENOSPC },
	{ "stride not a multiple of 8", stride_unaligned, -EINVAL },
	{ "tiered plan in a group", tiered_group, -EINVAL },
	{ "non-zero tensor pad", tensor_pad, -EINVAL },
	{ "tier beyond TPLAN_MAX_POOLS", tier_beyond_any, -EINVAL },
	{ "tier the device lacks", tier_the_device_lacks, -EINVAL },
	{ "share_key with two sizes", share_key_sizes_differ, -EINVAL },
	{ "alias of a share_key tensor", alias_of_shared, -EINVAL },
};

static void bad_submit_desc(const struct bad_submit *b, char *desc)
{
	strscpy(desc, b->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bad_submit, bad_submits, bad_submit_desc);

static void submit_rejects(struct kunit *test)
{
	const struct bad_submit *b = test->param_value;
	struct ioctl_ctx *c = test->priv;
	struct tplan_tensor_desc *t = c->t;
	struct tplan_submit *req = &c->req;

	memcpy(t, good, sizeof(good));
	good_submit(c, req);
	b->spoil(c, req, t);
	put_tensors(test, c, t, N_GOOD, sizeof(t[0]));
	KUNIT_EXPECT_EQ(test, call(c, TPLAN_IOC_SUBMIT, req, sizeof(*req)),
			b->err);
	if (b->err == -ENOSPC) {
		/* The caller learns what it would need. */
		KUNIT_ASSERT_EQ(test, copy_from_user(req, c->mem, sizeof(*req)), 0);
		KUNIT_EXPECT_EQ(test, req->peak, (1ULL << 40) + 1000);
	}
	expect_unchanged(test, c);
}

static void stride_tail_must_be_zero(struct kunit *test)
{
	struct ioctl_ctx *c = test->priv;
	u32 stride = sizeof(good[0]) + 8;
	struct tplan_submit *req = &c->req;
	u64 one = 1;

	put_tensors(test, c, good, N_GOOD, stride);
	good_submit(c, req);
	req->flags = TPLAN_SUBMIT_DRY_RUN;
	req->stride = stride;
	KUNIT_EXPECT_EQ(test, call(c, TPLAN_IOC_SUBMIT, req, sizeof(*req)), 0);
	KUNIT_ASSERT_EQ(test, copy_to_user(c->mem + TENSORS_AT + stride +
					   sizeof(good[0]), &one, sizeof(one)),
			0);
	KUNIT_EXPECT_EQ(test, call(c, TPLAN_IOC_SUBMIT, req, sizeof(*req)),
			-E2BIG);
}

/*
 * Tensors may name the same gaps, but all of them together at most
 * TPLAN_MAX_GAPS_PER_TENSOR per tensor of the table: the planner's work
 * follows what they name, not the array's length.
 */
static void gap_references_are_bounded(struct kunit *test)
{
	const u32 n_gaps = 2 * TPLAN_MAX_GAPS_PER_TENSOR;
	struct ioctl_ctx *c = test->priv;
	struct tplan_submit *req = &c->req;
	struct tplan_tensor_desc *t = c->t;
	struct tplan_gap_desc g = { 0 };
	u32 k;

	for (k = 0; k < 2; k++)
		t[k] = (struct tplan_tensor_desc){ .id = k, .lower = 0,
			.upper = 2 * n_gaps + 2, .size = 64, .alignment = 1,
			.gap_count = n_gaps / 2 };
	for (k = 0; k < n_gaps; k++) {
		g.lower = 2 * k + 1;
		g.upper = 2 * k + 2;
		KUNIT_ASSERT_EQ(test, copy_to_user(c->mem + GAPS_AT + k * sizeof(g),
						   &g, sizeof(g)), 0);
	}
	good_submit(c, req);
	req->flags = TPLAN_SUBMIT_DRY_RUN;
	req->count = 2;
	req->gaps = (u64)(uintptr_t)(c->mem + GAPS_AT);
	req->gap_count = n_gaps;
	req->gap_stride = sizeof(g);
	/* both name the first half: 32 references, two tensors' worth */
	put_tensors(test, c, t, 2, sizeof(t[0]));
	KUNIT_EXPECT_EQ(test, call(c, TPLAN_IOC_SUBMIT, req, sizeof(*req)), 0);
	/* both name all of them: 64 */
	t[0].gap_count = n_gaps;
	t[1].gap_count = n_gaps;
	put_tensors(test, c, t, 2, sizeof(t[0]));
	KUNIT_EXPECT_EQ(test, call(c, TPLAN_IOC_SUBMIT, req, sizeof(*req)),
			-E2BIG);
	/* one names gaps beyond the array: as the planner says */
	t[1].gap_first = 1;
	put_tensors(test, c, t, 2, sizeof(t[0]));
	KUNIT_EXPECT_EQ(test, call(c, TPLAN_IOC_SUBMIT, req, sizeof(*req)),
			-EINVAL);
	expect_unchanged(test, c);
}

static void ioctl_numbers_are_checked(struct kunit *test)
{
	struct ioctl_ctx *c = test->priv;
	unsigned int nr = _IOC_NR(TPLAN_IOC_SUBMIT);
	unsigned int small = _IOC(_IOC_READ | _IOC_WRITE, TPLAN_IOC_MAGIC, nr,
				  sizeof(struct tplan_submit) - 8);
	unsigned int large = _IOC(_IOC_READ | _IOC_WRITE, TPLAN_IOC_MAGIC, nr,
				  sizeof(struct tplan_submit) + 8);
	unsigned int wrong_dir = _IOC(_IOC_WRITE, TPLAN_IOC_MAGIC, nr,
				      sizeof(struct tplan_submit));
	struct tplan_submit *req = &c->req;
	u64 tail = 1;

	put_tensors(test, c, good, N_GOOD, sizeof(good[0]));
	good_submit(c, req);
	req->flags = TPLAN_SUBMIT_DRY_RUN;
	KUNIT_EXPECT_EQ(test, call(c, small, req, sizeof(*req)), -ENOTTY);
	KUNIT_EXPECT_EQ(test, call(c, wrong_dir, req, sizeof(*req)), -ENOTTY);
	KUNIT_EXPECT_EQ(test, call(c, _IO(TPLAN_IOC_MAGIC, 0x7f), NULL, 0),
			-ENOTTY);
	KUNIT_EXPECT_EQ(test, call(c, _IOR('x', 0x00, struct tplan_info), NULL,
				   0), -ENOTTY);
	/* the DRM core's numbers that assume a primary node (GET_UNIQUE) */
	KUNIT_EXPECT_EQ(test, call(c, _IOWR(TPLAN_IOC_MAGIC, 0x01,
					    struct tplan_release), req,
				   sizeof(*req)), -ENOTTY);
	/* A newer caller's larger struct: fine while its tail is zero. */
	KUNIT_ASSERT_EQ(test, clear_user(c->mem + sizeof(*req), 8), 0);
	KUNIT_EXPECT_EQ(test, call(c, large, req, sizeof(*req)), 0);
	KUNIT_ASSERT_EQ(test, copy_to_user(c->mem + sizeof(*req), &tail, 8), 0);
	KUNIT_EXPECT_EQ(test, call(c, large, req, sizeof(*req)), -E2BIG);
	expect_unchanged(test, c);
}

static void release_rejects(struct kunit *test)
{
	struct ioctl_ctx *c = test->priv;
	struct tplan_release rel = { .plan_id = 1 };

	rel.flags = 1;
	KUNIT_EXPECT_EQ(test, call(c, TPLAN_IOC_RELEASE, &rel, sizeof(rel)),
			-EINVAL);
	rel.flags = 0;
	rel.pad = 1;
	KUNIT_EXPECT_EQ(test, call(c, TPLAN_IOC_RELEASE, &rel, sizeof(rel)),
			-EINVAL);
	rel.pad = 0;
	rel.reserved[1] = 1;
	KUNIT_EXPECT_EQ(test, call(c, TPLAN_IOC_RELEASE, &rel, sizeof(rel)),
			-EINVAL);
	rel.reserved[1] = 0;
	KUNIT_EXPECT_EQ(test, call(c, TPLAN_IOC_RELEASE, &rel, sizeof(rel)),
			-ENOENT);
	rel.plan_id = 0;
	KUNIT_EXPECT_EQ(test, call(c, TPLAN_IOC_RELEASE, &rel, sizeof(rel)),
			-ENOENT);
	rel.plan_id = ~0ULL;
	KUNIT_EXPECT_EQ(test, call(c, TPLAN_IOC_RELEASE, &rel, sizeof(rel)),
			-ENOENT);
	expect_unchanged(test, c);
}

static void plans_per_file_are_limited(struct kunit *test)
{
	struct ioctl_ctx *c = test->priv;
	struct tplan_tensor_desc one = { .id = 1, .upper = 1, .size = 1,
					 .alignment = 1 };
	struct tplan_release rel = { 0 };
	struct tplan_submit *req = &c->req;
	u64 *ids;
	u32 i;

	ids = kunit_kcalloc(test, c->info.max_plans, sizeof(*ids), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ids);
	put_tensors(test, c, &one, 1, sizeof(one));
	for (i = 0; i < c->info.max_plans; i++) {
		good_submit(c, req);
		req->count = 1;
		KUNIT_ASSERT_EQ(test, call(c, TPLAN_IOC_SUBMIT, req,
					   sizeof(*req)), 0);
		KUNIT_ASSERT_EQ(test, copy_from_user(req, c->mem, sizeof(*req)),
				0);
		ids[i] = req->plan_id;
	}
	good_submit(c, req);
	req->count = 1;
	KUNIT_EXPECT_EQ(test, call(c, TPLAN_IOC_SUBMIT, req, sizeof(*req)),
			-EMFILE);
	/* Release explicitly: a kthread's close() completes asynchronously. */
	for (i = 0; i < c->info.max_plans; i++) {
		rel.plan_id = ids[i];
		KUNIT_EXPECT_EQ(test, call(c, TPLAN_IOC_RELEASE, &rel,
					   sizeof(rel)), 0);
	}
	expect_unchanged(test, c);
}

/*
 * Submit @n tensors from @t; the request, and the first N_GOOD tensors as
 * the kernel wrote them back, come back in @c.
 */
static int submit_table(struct kunit *test, struct ioctl_ctx *c,
			const struct tplan_tensor_desc *t, u32 n, u32 flags,
			u32 group)
{
	int ret;

	put_tensors(test, c, t, n, sizeof(t[0]));
	good_submit(c, &c->req);
	c->req.count = n;
	c->req.flags = flags;
	c->req.group = group;
	ret = call(c, TPLAN_IOC_SUBMIT, &c->req, sizeof(c->req));
	KUNIT_ASSERT_EQ(test, copy_from_user(&c->req, c->mem, sizeof(c->req)), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(c->t, c->mem + TENSORS_AT,
					     min(n, N_GOOD) * sizeof(t[0])), 0);
	return ret;
}

static void release_plan(struct kunit *test, struct ioctl_ctx *c, u64 id)
{
	struct tplan_release rel = { .plan_id = id };

	KUNIT_EXPECT_EQ(test, call(c, TPLAN_IOC_RELEASE, &rel, sizeof(rel)), 0);
}

/* Two pools as tiers: the keener tensor gets pool 0; each pool a region. */
static void tiered_submit_fills_pool_0_by_priority(struct kunit *test)
{
	struct ioctl_ctx *c = test->priv;
	u64 fast = c->info.pools[0].size;
	const struct tplan_tensor_desc t[N_GOOD] = {
		{ .id = 1, .upper = 4, .size = fast, .alignment = 1,
		  .priority = 1 },
		{ .id = 2, .upper = 4, .size = fast, .alignment = 1,
		  .priority = 9 },
		{ .id = 3, .upper = 4, .size = 100, .alignment = 1,
		  .priority = 5, .tiers = 2 },
	};
	struct tplan_submit *req = &c->req;

	if (c->info.pool_count < 2)
		kunit_skip(test, "needs two pools");
	KUNIT_ASSERT_EQ(test, submit_table(test, c, t, N_GOOD,
					   TPLAN_SUBMIT_TIERED, 0), 0);
	KUNIT_EXPECT_EQ(test, c->t[0].pool, 1);
	KUNIT_EXPECT_EQ(test, c->t[1].pool, 0);
	KUNIT_EXPECT_EQ(test, c->t[2].pool, 1);	/* only pool 1 allowed */
	KUNIT_EXPECT_EQ(test, req->regions[0].peak, fast);
	KUNIT_EXPECT_EQ(test, req->regions[0].weight, fast * 9);
	KUNIT_EXPECT_EQ(test, req->regions[1].peak, fast + 100);
	KUNIT_EXPECT_EQ(test, req->peak, 2 * fast + 100);
	KUNIT_EXPECT_EQ(test, c->t[1].mmap_offset, req->regions[0].mmap_offset);
	KUNIT_EXPECT_EQ(test, c->t[0].mmap_offset, req->regions[1].mmap_offset);
	KUNIT_EXPECT_NE(test, req->regions[0].mmap_offset,
			req->regions[1].mmap_offset);
	KUNIT_EXPECT_EQ(test, pool_of(req), 0);
	release_plan(test, c, req->plan_id);
	expect_unchanged(test, c);
}

/*
 * Two plans in one serial group: one scratch region, grown to the larger;
 * the share_key tensor stored once, its bytes the same through both.
 */
static const struct tplan_tensor_desc group_small[2] = {
	{ .id = 1, .upper = 4, .size = 8192, .alignment = 1, .share_key = 42 },
	{ .id = 2, .upper = 4, .size = 4096, .alignment = 1 },
};

static const struct tplan_tensor_desc group_big[3] = {
	{ .id = 7, .upper = 4, .size = 8192, .alignment = 1, .share_key = 42 },
	{ .id = 8, .upper = 4, .size = 4096, .alignment = 1 },
	{ .id = 9, .upper = 4, .size = 8192, .alignment = 1 },
};

static void group_shares_scratch_and_keys(struct kunit *test)
{
	struct ioctl_ctx *c = test->priv;
	struct tplan_submit *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	struct tplan_tensor_desc kept_a, kept_b;
	unsigned long ua, ub;
	u32 magic = 0x5eed, seen = 0;

	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_EQ(test, submit_table(test, c, group_small, 2, 0, 7), 0);
	*a = c->req;
	kept_a = c->t[0];
	KUNIT_EXPECT_EQ(test, a->shared_bytes, 8192);
	KUNIT_EXPECT_EQ(test, a->peak, 4096);
	KUNIT_EXPECT_NE(test, kept_a.mmap_offset, region_of(a)->mmap_offset);
	KUNIT_ASSERT_EQ(test, submit_table(test, c, group_big, 3, 0, 7), 0);
	kept_b = c->t[0];
	KUNIT_EXPECT_EQ(test, c->req.shared_bytes, 0);
	KUNIT_EXPECT_EQ(test, c->req.peak, 12288);
	/* one scratch region, where it was, now the larger plan's size */
	KUNIT_EXPECT_EQ(test, pool_of(&c->req), pool_of(a));
	KUNIT_EXPECT_EQ(test, region_of(&c->req)->region_offset, region_of(a)->region_offset);
	KUNIT_EXPECT_EQ(test, region_of(&c->req)->region_size, 12288);
	KUNIT_EXPECT_EQ(test, kept_b.offset, kept_a.offset);
	/* the kept tensor: written through one plan, read through the other */
	ua = kunit_vm_mmap(test, c->file, 0, PAGE_SIZE * 2, PROT_READ | PROT_WRITE,
			   MAP_SHARED, kept_a.mmap_offset);
	ub = kunit_vm_mmap(test, c->file, 0, PAGE_SIZE * 2, PROT_READ,
			   MAP_SHARED, kept_b.mmap_offset);
	KUNIT_ASSERT_FALSE(test, IS_ERR_VALUE(ua));
	KUNIT_ASSERT_FALSE(test, IS_ERR_VALUE(ub));
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)ua + kept_a.offset,
					   &magic, sizeof(magic)), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(&seen, (void __user *)ub +
					     kept_b.offset, sizeof(seen)), 0);
	KUNIT_EXPECT_EQ(test, seen, magic);
	release_plan(test, c, a->plan_id);
	release_plan(test, c, c->req.plan_id);
	vm_munmap(ua, PAGE_SIZE * 2);
	vm_munmap(ub, PAGE_SIZE * 2);
	expect_unchanged(test, c);
}

/* A key the group holds with another size: -EINVAL, nothing changed. */
static void group_rejects_a_key_of_another_size(struct kunit *test)
{
	struct ioctl_ctx *c = test->priv;
	struct tplan_tensor_desc t[1] = {
		{ .id = 1, .upper = 4, .size = 8192, .alignment = 1,
		  .share_key = 42 },
	};
	struct tplan_info *before = kunit_kzalloc(test, sizeof(*before),
						  GFP_KERNEL);
	struct tplan_info *after = kunit_kzalloc(test, sizeof(*after),
						 GFP_KERNEL);
	u32 i;
	u64 id;

	KUNIT_ASSERT_NOT_NULL(test, before);
	KUNIT_ASSERT_NOT_NULL(test, after);
	KUNIT_ASSERT_EQ(test, submit_table(test, c, t, 1, 0, 3), 0);
	id = c->req.plan_id;
	get_info(test, c, before);
	t[0].size = 4096;
	KUNIT_EXPECT_EQ(test, submit_table(test, c, t, 1, 0, 3), -EINVAL);
	get_info(test, c, after);
	KUNIT_EXPECT_EQ(test, after->plans_held, before->plans_held);
	for (i = 0; i < after->pool_count; i++)
		KUNIT_EXPECT_EQ(test, after->pools[i].used, before->pools[i].used);
	release_plan(test, c, id);
	expect_unchanged(test, c);
}

/*
 * The group's scratch region only grows in place: with the bytes after it
 * held by another plan, a larger member is -ENOSPC and nothing changes.
 */
static void group_scratch_grows_only_in_place(struct kunit *test)
{
	struct ioctl_ctx *c = test->priv;
	const struct tplan_tensor_desc one_page = {
		.id = 1, .upper = 1, .size = PAGE_SIZE, .alignment = 1,
	};
	const struct tplan_tensor_desc two_pages = {
		.id = 1, .upper = 1, .size = 2 * PAGE_SIZE, .alignment = 1,
	};
	struct tplan_info *before = kunit_kzalloc(test, sizeof(*before),
						  GFP_KERNEL);
	u64 member, blocker;

	KUNIT_ASSERT_NOT_NULL(test, before);
	KUNIT_ASSERT_EQ(test, submit_table(test, c, &one_page, 1, 0, 9), 0);
	member = c->req.plan_id;
	KUNIT_ASSERT_EQ(test, submit_table(test, c, &one_page, 1, 0, 0), 0);
	blocker = c->req.plan_id;
	KUNIT_ASSERT_EQ(test, region_of(&c->req)->region_offset, PAGE_SIZE);
	get_info(test, c, before);
	KUNIT_EXPECT_EQ(test, submit_table(test, c, &two_pages, 1, 0, 9),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, c->req.peak, 2 * PAGE_SIZE);
	get_info(test, c, &c->info);
	KUNIT_EXPECT_EQ(test, c->info.plans_held, before->plans_held);
	KUNIT_EXPECT_EQ(test, c->info.pools[0].used, before->pools[0].used);
	/* with the bytes after it free again, it grows */
	release_plan(test, c, blocker);
	KUNIT_EXPECT_EQ(test, submit_table(test, c, &two_pages, 1, 0, 9), 0);
	KUNIT_EXPECT_EQ(test, region_of(&c->req)->region_offset, 0);
	KUNIT_EXPECT_EQ(test, region_of(&c->req)->region_size, 2 * PAGE_SIZE);
	release_plan(test, c, c->req.plan_id);
	release_plan(test, c, member);
}

/* Kept regions of 13 earlier plans: one more than a plan has slots for. */
static void group_plan_uses_at_most_12_kept_regions(struct kunit *test)
{
	struct ioctl_ctx *c = test->priv;
	struct tplan_tensor_desc *keys = kunit_kcalloc(test, 13, sizeof(*keys),
						       GFP_KERNEL);
	u64 *ids = kunit_kcalloc(test, 13, sizeof(*ids), GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, keys);
	KUNIT_ASSERT_NOT_NULL(test, ids);
	for (i = 0; i < 13; i++) {
		keys[i] = (struct tplan_tensor_desc){
			.id = i, .upper = 1, .size = 64, .alignment = 1,
			.share_key = i + 1,
		};
		KUNIT_ASSERT_EQ(test, submit_table(test, c, &keys[i], 1, 0, 4), 0);
		ids[i] = c->req.plan_id;
	}
	KUNIT_EXPECT_EQ(test, submit_table(test, c, keys, 13, 0, 4), -E2BIG);
	KUNIT_EXPECT_EQ(test, submit_table(test, c, keys, 12, 0, 4), 0);
	KUNIT_EXPECT_EQ(test, c->req.shared_bytes, 0);
	release_plan(test, c, c->req.plan_id);
	for (i = 0; i < 13; i++)
		release_plan(test, c, ids[i]);
	expect_unchanged(test, c);
}

static struct kunit_case ioctl_cases[] = {
	KUNIT_CASE(info_describes_the_device),
	KUNIT_CASE(submit_map_release),
	KUNIT_CASE(dry_run_reserves_nothing),
	KUNIT_CASE_PARAM(submit_rejects, bad_submit_gen_params),
	KUNIT_CASE(stride_tail_must_be_zero),
	KUNIT_CASE(gap_references_are_bounded),
	KUNIT_CASE(ioctl_numbers_are_checked),
	KUNIT_CASE(release_rejects),
	KUNIT_CASE(plans_per_file_are_limited),
	KUNIT_CASE(tiered_submit_fills_pool_0_by_priority),
	KUNIT_CASE(group_shares_scratch_and_keys),
	KUNIT_CASE(group_rejects_a_key_of_another_size),
	KUNIT_CASE(group_scratch_grows_only_in_place),
	KUNIT_CASE(group_plan_uses_at_most_12_kept_regions),
	{}
};

static struct kunit_suite ioctl_suite = {
	.name = "tplan_ioctl",
	.init = ioctl_test_init,
	.exit = ioctl_test_exit,
	.test_cases = ioctl_cases,
};

kunit_test_suite(ioctl_suite);

MODULE_DESCRIPTION("KUnit tests of the /dev/tplan ioctl handlers");
MODULE_LICENSE("GPL");
