// SPDX-License-Identifier: GPL-2.0
/*
 * spill_kunit.c - the SUBMIT_SPILL handler, driven through a real open file
 * with real user memory (kunit_vm_mmap): a spill plan reserved, mapped and
 * released; a caller's array too short for the pieces; every rejected
 * input returns its documented errno and changes nothing.
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

#define MEM_LEN		(8 * PAGE_SIZE)
#define TENSORS_AT	(1 * PAGE_SIZE)
#define USES_AT		(2 * PAGE_SIZE)
#define START_AT	(3 * PAGE_SIZE)
#define PIECES_AT	(4 * PAGE_SIZE)
#define N_T		3
#define N_USES		5
#define N_PIECES	4

/*
 * a is used at 0, 3 and 9; b lives at 4..6 and c at 2..4: within 150 bytes
 * a goes out between 3 and 9, so 200 bytes move, in 4 pieces.
 */
static const struct tplan_tensor_desc spill_t[N_T] = {
	{ .id = 10, .lower = 0, .upper = 10, .size = 100, .alignment = 1 },
	{ .id = 11, .lower = 4, .upper = 7, .size = 100, .alignment = 1 },
	{ .id = 12, .lower = 2, .upper = 5, .size = 7, .alignment = 1 },
};

static const u64 spill_steps[N_USES] = { 0, 3, 9, 2, 4 };
static const u32 spill_start[N_T + 1] = { 0, 3, 3, 5 };

/* Per test; the request lives here, too large for the kernel stack. */
struct spill_ctx {
	struct file *file;
	u8 __user *mem;
	struct tplan_submit_spill req;
	struct tplan_tensor_desc t[N_T];
	u64 steps[N_USES];
	u32 start[N_T + 1];
	struct tplan_piece_desc p[N_PIECES];
};

/* An ioctl on the test's file, its struct at the start of user memory. */
static long ioctl_mem(struct spill_ctx *c, unsigned int cmd)
{
	return c->file->f_op->unlocked_ioctl(c->file, cmd,
					     (unsigned long)c->mem);
}

static long call(struct spill_ctx *c)
{
	if (copy_to_user(c->mem + TENSORS_AT, c->t, sizeof(c->t)) ||
	    copy_to_user(c->mem + USES_AT, c->steps, sizeof(c->steps)) ||
	    copy_to_user(c->mem + START_AT, c->start, sizeof(c->start)) ||
	    copy_to_user(c->mem, &c->req, sizeof(c->req)))
		return -EFAULT;
	return ioctl_mem(c, TPLAN_IOC_SUBMIT_SPILL);
}

/* The request and the pieces as the call left them. */
static void read_back(struct kunit *test, struct spill_ctx *c)
{
	KUNIT_ASSERT_EQ(test, copy_from_user(&c->req, c->mem, sizeof(c->req)), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(c->p, c->mem + PIECES_AT,
					     sizeof(c->p)), 0);
}

static void good_spill(struct spill_ctx *c)
{
	memcpy(c->t, spill_t, sizeof(c->t));
	memcpy(c->steps, spill_steps, sizeof(c->steps));
	memcpy(c->start, spill_start, sizeof(c->start));
	memset(&c->req, 0, sizeof(c->req));
	c->req.strategy = TPLAN_SPILL_ID_DEFAULT;
	c->req.tensors = (u64)(uintptr_t)(c->mem + TENSORS_AT);
	c->req.count = N_T;
	c->req.stride = sizeof(c->t[0]);
	c->req.uses = (u64)(uintptr_t)(c->mem + USES_AT);
	c->req.use_start = (u64)(uintptr_t)(c->mem + START_AT);
	c->req.use_count = N_USES;
	c->req.pieces = (u64)(uintptr_t)(c->mem + PIECES_AT);
	c->req.piece_cap = N_PIECES;
	c->req.piece_stride = sizeof(c->p[0]);
	c->req.capacity = 150;
}

static int spill_test_init(struct kunit *test)
{
	struct spill_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

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
	return 0;
}

static void spill_test_exit(struct kunit *test)
{
	struct spill_ctx *c = test->priv;

	if (c && !IS_ERR_OR_NULL(c->file))
		filp_close(c->file, NULL);
}

/* Bytes the device's pools hold now. */
static u64 used_bytes(struct kunit *test, struct spill_ctx *c)
{
	struct tplan_info *info = kunit_kzalloc(test, sizeof(*info), GFP_KERNEL);
	u64 used = 0;
	u32 k;

	KUNIT_ASSERT_NOT_NULL(test, info);
	KUNIT_ASSERT_EQ(test, ioctl_mem(c, TPLAN_IOC_GET_INFO), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(info, c->mem, sizeof(*info)), 0);
	for (k = 0; k < info->pool_count; k++)
		used += info->pools[k].used;
	return used;
}

static void spill_plan_map_release(struct kunit *test)
{
	struct spill_ctx *c = test->priv;
	struct tplan_release rel = { 0 };
	u64 before = used_bytes(test, c);
	unsigned long mapped;

	good_spill(c);
	KUNIT_ASSERT_EQ(test, call(c), 0);
	read_back(test, c);
	KUNIT_EXPECT_GT(test, c->req.plan_id, 0);
	KUNIT_EXPECT_EQ(test, c->req.piece_count, N_PIECES);
	KUNIT_EXPECT_EQ(test, c->req.moved, 200);
	KUNIT_EXPECT_EQ(test, c->req.moved_bound, 200);
	KUNIT_EXPECT_EQ(test, c->req.host_peak, 100);
	KUNIT_EXPECT_EQ(test, c->req.live_peak, 207);
	KUNIT_EXPECT_LE(test, c->req.peak, 150);
	KUNIT_EXPECT_EQ(test, c->req.regions[0].region_size, PAGE_SIZE);
	KUNIT_EXPECT_GE(test, c->req.regions[0].mmap_offset >> PAGE_SHIFT,
			DRM_FILE_PAGE_OFFSET_START);
	KUNIT_EXPECT_NE(test, c->req.regions[0].handle, 0);
	KUNIT_EXPECT_EQ(test, used_bytes(test, c), before + PAGE_SIZE);
	/* a's pieces: [0, 4), then back for its last use at 9 */
	KUNIT_EXPECT_EQ(test, c->p[0].tensor, 0);
	KUNIT_EXPECT_EQ(test, c->p[0].upper, 4);
	KUNIT_EXPECT_EQ(test, c->p[1].tensor, 0);
	KUNIT_EXPECT_EQ(test, c->p[1].piece, 1);
	KUNIT_EXPECT_EQ(test, c->p[1].lower, 9);
	KUNIT_EXPECT_EQ(test, c->p[1].host_offset, 0);
	KUNIT_EXPECT_EQ(test, c->p[3].tensor, 2);

	mapped = kunit_vm_mmap(test, c->file, 0, PAGE_SIZE,
			       PROT_READ | PROT_WRITE, MAP_SHARED,
			       c->req.regions[0].mmap_offset);
	KUNIT_ASSERT_FALSE(test, IS_ERR_VALUE(mapped));
	KUNIT_EXPECT_EQ(test, vm_munmap(mapped, PAGE_SIZE), 0);
	rel.plan_id = c->req.plan_id;
	KUNIT_ASSERT_EQ(test, copy_to_user(c->mem, &rel, sizeof(rel)), 0);
	KUNIT_EXPECT_EQ(test, ioctl_mem(c, TPLAN_IOC_RELEASE), 0);
	KUNIT_EXPECT_EQ(test, used_bytes(test, c), before);
}

static void spill_array_too_short(struct kunit *test)
{
	struct spill_ctx *c = test->priv;
	u64 before = used_bytes(test, c);

	good_spill(c);
	c->req.piece_cap = N_PIECES - 1;
	KUNIT_ASSERT_EQ(test, clear_user(c->mem + PIECES_AT, sizeof(c->p)), 0);
	KUNIT_EXPECT_EQ(test, call(c), -ENOBUFS);
	read_back(test, c);
	KUNIT_EXPECT_EQ(test, c->req.piece_count, N_PIECES);
	KUNIT_EXPECT_EQ(test, c->req.plan_id, 0);
	KUNIT_EXPECT_EQ(test, c->p[0].upper, 0);	/* nothing written */
	KUNIT_EXPECT_EQ(test, used_bytes(test, c), before);
}

/* One rejected SUBMIT_SPILL: how to spoil a good request, and the errno. */
struct bad_spill {
	const char *name;
	void (*spoil)(struct spill_ctx *c);
	int err;
};

static void unknown_flag(struct spill_ctx *c)
{
	c->req.flags = 1U << 9;
}

static void nonzero_reserved(struct spill_ctx *c)
{
	c->req.reserved[2] = 1;
}

static void capacity_zero(struct spill_ctx *c)
{
	c->req.capacity = 0;
}

static void unknown_strategy(struct spill_ctx *c)
{
	c->req.strategy = 1000;
}

static void uses_unsorted(struct spill_ctx *c)
{
	c->steps[1] = 9;
	c->steps[2] = 3;
}

static void use_out_of_range(struct spill_ctx *c)
{
	c->steps[4] = 5;	/* c lives in [2, 5) */
}

static void start_past_count(struct spill_ctx *c)
{
	c->start[N_T] = N_USES + 1;
}

static void start_jumps_past_count(struct spill_ctx *c)
{
	c->start[1] = 1000;	/* then down to 3: no step past 5 is read */
}

static void uses_without_count(struct spill_ctx *c)
{
	memset(c->start, 0, sizeof(c->start));	/* no tensor has uses */
	c->req.use_count = 0;	/* but the pointer is still there */
}

static void pieces_without_cap(struct spill_ctx *c)
{
	c->req.piece_cap = 0;
}

static void piece_stride_bad(struct spill_ctx *c)
{
	c->req.piece_stride = TPLAN_PIECE_DESC_SIZE_VER1 + 4;
}

static void kernel_pieces(struct spill_ctx *c)
{
	c->req.pieces = (u64)(uintptr_t)c;
}

static void tiny_budget(struct spill_ctx *c)
{
	c->req.budget = 1;
}

static void too_full(struct spill_ctx *c)
{
	c->req.capacity = 106;	/* step 4 uses 107 bytes */
}

static void two_models(struct spill_ctx *c)
{
	c->t[2].model = 1;	/* a spill plan is one timeline */
}

static void shared_tensor(struct spill_ctx *c)
{
	c->t[1].share_key = 5;
}

static void pinned_tensor(struct spill_ctx *c)
{
	c->t[0].flags = TPLAN_TENSOR_FIXED_OFFSET;	/* every tensor moves */
}

static void tensor_with_gaps(struct spill_ctx *c)
{
	c->t[0].gap_count = 1;	/* and SUBMIT_SPILL has no gap array */
}

static void moves_past_2_64(struct spill_ctx *c)
{
	c->t[0].size = 1ull << 62;	/* two gaps: 5 x 2^62 bytes counted */
}

static const struct bad_spill bad_spills[] = {
	{ "unknown flag", unknown_flag, -EINVAL },
	{ "non-zero reserved", nonzero_reserved, -EINVAL },
	{ "capacity 0", capacity_zero, -EINVAL },
	{ "unknown strategy", unknown_strategy, -EINVAL },
	{ "uses unsorted", uses_unsorted, -EINVAL },
	{ "use outside the lifetime", use_out_of_range, -EINVAL },
	{ "use_start past use_count", start_past_count, -EINVAL },
	{ "use_start up past use_count and down", start_jumps_past_count,
	  -EINVAL },
	{ "piece stride not a multiple of 8", piece_stride_bad, -EINVAL },
	{ "a uses pointer with use_count 0", uses_without_count, -EINVAL },
	{ "a pieces pointer with piece_cap 0", pieces_without_cap, -EINVAL },
	{ "tensors of two models", two_models, -EINVAL },
	{ "a share_key tensor", shared_tensor, -EINVAL },
	{ "a pinned tensor", pinned_tensor, -EINVAL },
	{ "a tensor with gaps", tensor_with_gaps, -EINVAL },
	{ "kernel piece pointer", kernel_pieces, -EFAULT },
	{ "work budget exhausted", tiny_budget, -ETIMEDOUT },
	{ "used tensors exceed the capacity", too_full, -ENOSPC },
	{ "moves could add up past 2^64", moves_past_2_64, -EOVERFLOW },
};

static void bad_spill_desc(const struct bad_spill *b, char *desc)
{
	strscpy(desc, b->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bad_spill, bad_spills, bad_spill_desc);

static void spill_rejects(struct kunit *test)
{
	const struct bad_spill *b = test->param_value;
	struct spill_ctx *c = test->priv;
	u64 before = used_bytes(test, c);

	good_spill(c);
	b->spoil(c);
	KUNIT_ASSERT_EQ(test, clear_user(c->mem + PIECES_AT, sizeof(c->p)), 0);
	KUNIT_EXPECT_EQ(test, call(c), b->err);
	read_back(test, c);
	KUNIT_EXPECT_EQ(test, c->p[0].upper, 0);	/* nothing written */
	if (b->err == -ENOSPC) {
		KUNIT_EXPECT_EQ(test, c->req.fail_step, 4);
		KUNIT_EXPECT_EQ(test, c->req.fail_bytes, 107);
	}
	KUNIT_EXPECT_EQ(test, used_bytes(test, c), before);
}

static struct kunit_case spill_cases[] = {
	KUNIT_CASE(spill_plan_map_release),
	KUNIT_CASE(spill_array_too_short),
	KUNIT_CASE_PARAM(spill_rejects, bad_spill_gen_params),
	{}
};

static struct kunit_suite spill_suite = {
	.name = "tplan_spill",
	.init = spill_test_init,
	.exit = spill_test_exit,
	.test_cases = spill_cases,
};

kunit_test_suite(spill_suite);

MODULE_DESCRIPTION("KUnit tests of the /dev/tplan SUBMIT_SPILL handler");
MODULE_LICENSE("GPL");
