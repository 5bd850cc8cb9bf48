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

#include "linux/tplan.h"

#define MEM_LEN		(64 * PAGE_SIZE)
#define TENSORS_AT	PAGE_SIZE	/* tensor array offset in user memory */
#define N_GOOD		3

struct ioctl_ctx {
	struct file *file;
	u8 __user *mem;
	struct tplan_info info;		/* as before the test's calls */
};

/* Three tensors: two live together, the third reuses the first's bytes. */
static const struct tplan_tensor_desc good[N_GOOD] = {
	{ .id = 1, .lower = 0, .upper = 2, .size = 4096, .alignment = 1 },
	{ .id = 2, .lower = 1, .upper = 3, .size = 1000, .alignment = 64 },
	{ .id = 3, .lower = 2, .upper = 4, .size = 4096, .alignment = 1 },
};

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
	c->file = filp_open("/dev/tplan", O_RDWR, 0);
	if (IS_ERR(c->file)) {
		kunit_skip(test, "/dev/tplan: %ld (is tplan.ko loaded?)",
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
	struct tplan_tensor_desc out[N_GOOD];
	struct tplan_info *info = kunit_kzalloc(test, sizeof(*info), GFP_KERNEL);
	struct tplan_release rel = { 0 };
	struct tplan_submit req;
	unsigned long addr;

	KUNIT_ASSERT_NOT_NULL(test, info);
	put_tensors(test, c, good, N_GOOD, sizeof(good[0]));
	good_submit(c, &req);
	KUNIT_ASSERT_EQ(test, call(c, TPLAN_IOC_SUBMIT, &req, sizeof(req)), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(&req, c->mem, sizeof(req)), 0);
	KUNIT_EXPECT_GT(test, req.plan_id, 0);
	KUNIT_EXPECT_EQ(test, req.lower_bound, 5096);
	KUNIT_EXPECT_EQ(test, req.peak, 5096);
	KUNIT_EXPECT_EQ(test, req.region_size, 2 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, req.mmap_offset, req.plan_id << PAGE_SHIFT);
	KUNIT_ASSERT_EQ(test, copy_from_user(out, c->mem + TENSORS_AT,
					     sizeof(out)), 0);
	KUNIT_EXPECT_EQ(test, out[0].offset, 0);
	KUNIT_EXPECT_EQ(test, out[1].offset, 4096);
	KUNIT_EXPECT_EQ(test, out[2].offset, 0);
	get_info(test, c, info);
	KUNIT_EXPECT_EQ(test, info->plans_held, 1);
	KUNIT_EXPECT_EQ(test, info->pools[req.pool].used, req.region_size);

	/* Its own plan maps; a longer mapping or another offset does not. */
	addr = kunit_vm_mmap(test, c->file, 0, req.region_size,
			     PROT_READ | PROT_WRITE, MAP_SHARED, req.mmap_offset);
	KUNIT_EXPECT_FALSE(test, IS_ERR_VALUE(addr));
	addr = kunit_vm_mmap(test, c->file, 0, req.region_size + PAGE_SIZE,
			     PROT_READ, MAP_SHARED, req.mmap_offset);
	KUNIT_EXPECT_EQ(test, (long)addr, -EINVAL);
	addr = kunit_vm_mmap(test, c->file, 0, PAGE_SIZE, PROT_READ,
			     MAP_SHARED, req.mmap_offset + (7 << PAGE_SHIFT));
	KUNIT_EXPECT_EQ(test, (long)addr, -ENXIO);

	rel.plan_id = req.plan_id;
	KUNIT_EXPECT_EQ(test, call(c, TPLAN_IOC_RELEASE, &rel, sizeof(rel)), 0);
	KUNIT_EXPECT_EQ(test, call(c, TPLAN_IOC_RELEASE, &rel, sizeof(rel)),
			-ENOENT);
	get_info(test, c, info);
	KUNIT_EXPECT_EQ(test, info->plans_held, 0);
}

static void dry_run_reserves_nothing(struct kunit *test)
{
	struct ioctl_ctx *c = test->priv;
	struct tplan_submit req;

	put_tensors(test, c, good, N_GOOD, sizeof(good[0]));
	good_submit(c, &req);
	req.flags = TPLAN_SUBMIT_DRY_RUN;
	KUNIT_ASSERT_EQ(test, call(c, TPLAN_IOC_SUBMIT, &req, sizeof(req)), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(&req, c->mem, sizeof(req)), 0);
	KUNIT_EXPECT_EQ(test, req.plan_id, 0);
	KUNIT_EXPECT_EQ(test, req.peak, 5096);
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
	r->stride = PAGE_SIZE + 8;
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

static const struct bad_submit bad_submits[] = {
	{ "unknown submit flag", unknown_flag, -EINVAL },
	{ "non-zero reserved", nonzero_reserved, -EINVAL },
	{ "non-zero first reserved", first_reserved, -EINVAL },
	{ "unknown strategy", unknown_strategy, -EINVAL },
	{ "count 0", zero_count, -EINVAL },
	{ "count over max_tensors", count_over_limit, -E2BIG },
	{ "stride below the descriptor size", stride_too_small, -EINVAL },
	{ "stride above a page", stride_too_large, -EINVAL },
	{ "NULL tensor pointer", null_tensors, -EFAULT },
	{ "kernel tensor pointer", kernel_pointer, -EFAULT },
	{ "unknown tensor flag", tensor_flag, -EINVAL },
	{ "upper <= lower", empty_lifetime, -EINVAL },
	{ "alignment not a power of two", bad_alignment, -EINVAL },
	{ "duplicate id", duplicate_id, -EINVAL },
	{ "sizes overflow 64 bits", sizes_overflow, -EOVERFLOW },
	{ "work budget exhausted", tiny_budget, -ETIMEDOUT },
	{ "does not fit any pool", too_big_to_fit, -ENOSPC },
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
	struct tplan_tensor_desc t[N_GOOD];
	struct tplan_submit req;

	memcpy(t, good, sizeof(t));
	good_submit(c, &req);
	b->spoil(c, &req, t);
	put_tensors(test, c, t, N_GOOD, sizeof(t[0]));
	KUNIT_EXPECT_EQ(test, call(c, TPLAN_IOC_SUBMIT, &req, sizeof(req)),
			b->err);
	if (b->err == -ENOSPC) {
		/* The caller learns what it would need. */
		KUNIT_ASSERT_EQ(test, copy_from_user(&req, c->mem, sizeof(req)), 0);
		KUNIT_EXPECT_EQ(test, req.peak, (1ULL << 40) + 1000);
	}
	expect_unchanged(test, c);
}

static void stride_tail_must_be_zero(struct kunit *test)
{
	struct ioctl_ctx *c = test->priv;
	u32 stride = sizeof(good[0]) + 8;
	struct tplan_submit req;
	u64 one = 1;

	put_tensors(test, c, good, N_GOOD, stride);
	good_submit(c, &req);
	req.flags = TPLAN_SUBMIT_DRY_RUN;
	req.stride = stride;
	KUNIT_EXPECT_EQ(test, call(c, TPLAN_IOC_SUBMIT, &req, sizeof(req)), 0);
	KUNIT_ASSERT_EQ(test, copy_to_user(c->mem + TENSORS_AT + stride +
					   sizeof(good[0]), &one, sizeof(one)),
			0);
	KUNIT_EXPECT_EQ(test, call(c, TPLAN_IOC_SUBMIT, &req, sizeof(req)),
			-E2BIG);
}

static void ioctl_numbers_are_checked(struct kunit *test)
{
	struct ioctl_ctx *c = test->priv;
	unsigned int small = _IOC(_IOC_READ | _IOC_WRITE, TPLAN_IOC_MAGIC, 0x01,
				  sizeof(struct tplan_submit) - 8);
	unsigned int large = _IOC(_IOC_READ | _IOC_WRITE, TPLAN_IOC_MAGIC, 0x01,
				  sizeof(struct tplan_submit) + 8);
	unsigned int wrong_dir = _IOC(_IOC_WRITE, TPLAN_IOC_MAGIC, 0x01,
				      sizeof(struct tplan_submit));
	struct tplan_submit req;
	u64 tail = 1;

	put_tensors(test, c, good, N_GOOD, sizeof(good[0]));
	good_submit(c, &req);
	req.flags = TPLAN_SUBMIT_DRY_RUN;
	KUNIT_EXPECT_EQ(test, call(c, small, &req, sizeof(req)), -ENOTTY);
	KUNIT_EXPECT_EQ(test, call(c, wrong_dir, &req, sizeof(req)), -ENOTTY);
	KUNIT_EXPECT_EQ(test, call(c, _IO(TPLAN_IOC_MAGIC, 0x7f), NULL, 0),
			-ENOTTY);
	KUNIT_EXPECT_EQ(test, call(c, _IOR('x', 0x00, struct tplan_info), NULL,
				   0), -ENOTTY);
	/* A newer caller's larger struct: fine while its tail is zero. */
	KUNIT_ASSERT_EQ(test, clear_user(c->mem + sizeof(req), 8), 0);
	KUNIT_EXPECT_EQ(test, call(c, large, &req, sizeof(req)), 0);
	KUNIT_ASSERT_EQ(test, copy_to_user(c->mem + sizeof(req), &tail, 8), 0);
	KUNIT_EXPECT_EQ(test, call(c, large, &req, sizeof(req)), -E2BIG);
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
	struct tplan_submit req;
	u64 *ids;
	u32 i;

	ids = kunit_kcalloc(test, c->info.max_plans, sizeof(*ids), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ids);
	put_tensors(test, c, &one, 1, sizeof(one));
	for (i = 0; i < c->info.max_plans; i++) {
		good_submit(c, &req);
		req.count = 1;
		KUNIT_ASSERT_EQ(test, call(c, TPLAN_IOC_SUBMIT, &req,
					   sizeof(req)), 0);
		KUNIT_ASSERT_EQ(test, copy_from_user(&req, c->mem, sizeof(req)),
				0);
		ids[i] = req.plan_id;
	}
	good_submit(c, &req);
	req.count = 1;
	KUNIT_EXPECT_EQ(test, call(c, TPLAN_IOC_SUBMIT, &req, sizeof(req)),
			-EMFILE);
	/* Release explicitly: a kthread's close() completes asynchronously. */
	for (i = 0; i < c->info.max_plans; i++) {
		rel.plan_id = ids[i];
		KUNIT_EXPECT_EQ(test, call(c, TPLAN_IOC_RELEASE, &rel,
					   sizeof(rel)), 0);
	}
	expect_unchanged(test, c);
}

static struct kunit_case ioctl_cases[] = {
	KUNIT_CASE(info_describes_the_device),
	KUNIT_CASE(submit_map_release),
	KUNIT_CASE(dry_run_reserves_nothing),
	KUNIT_CASE_PARAM(submit_rejects, bad_submit_gen_params),
	KUNIT_CASE(stride_tail_must_be_zero),
	KUNIT_CASE(ioctl_numbers_are_checked),
	KUNIT_CASE(release_rejects),
	KUNIT_CASE(plans_per_file_are_limited),
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
