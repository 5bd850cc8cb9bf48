// SPDX-License-Identifier: MIT
/*
 * ioctl_e2e.c - end-to-end tests of /dev/tplan from a real process, run
 * inside UML by tests/e2e/e2e.sh: rejected inputs and their errnos, mmap,
 * a region released while mapped, a process exiting without releasing,
 * two processes at once.  Prints "ok"/"FAIL" per test and
 * "N passed, N failed" last.
 */
#include <sys/mman.h>
#include <sys/wait.h>

#include "e2e_util.h"

#define N_GOOD 3

static const struct tplan_tensor_desc good[N_GOOD] = {
	{ .id = 1, .lower = 0, .upper = 2, .size = 4096, .alignment = 1 },
	{ .id = 2, .lower = 1, .upper = 3, .size = 1000, .alignment = 64 },
	{ .id = 3, .lower = 2, .upper = 4, .size = 4096, .alignment = 1 },
};

struct bad_case {
	const char *name;
	int err;
	void (*spoil)(struct tplan_submit *r, struct tplan_tensor_desc *t,
		      const struct tplan_info *info);
};

#define SPOIL(fn, body)							\
	static void fn(struct tplan_submit *r, struct tplan_tensor_desc *t, \
		       const struct tplan_info *info)			\
	{ body; }

SPOIL(unknown_flag, r->flags = 1u << 7)
SPOIL(nonzero_reserved, r->reserved[0] = 1)
SPOIL(last_reserved, r->reserved[1] = 1)
SPOIL(unknown_strategy, r->strategy = 99)
SPOIL(zero_count, r->count = 0)
SPOIL(count_over_limit, r->count = info->max_tensors + 1)
SPOIL(stride_small, r->stride = TPLAN_TENSOR_DESC_SIZE_VER1 - 8)
SPOIL(stride_large, r->stride = 1u << 20)
SPOIL(null_tensors, r->tensors = 0)
SPOIL(wild_pointer, r->tensors = 0xffff800000000000ull)
SPOIL(tensor_flag, t[1].flags = 1u << 3)
SPOIL(empty_lifetime, t[2].upper = t[2].lower)
SPOIL(bad_alignment, t[0].alignment = 3)
SPOIL(duplicate_id, t[2].id = t[0].id)
SPOIL(sizes_overflow, t[0].size = 1ull << 63; t[1].size = 1ull << 63)
SPOIL(tiny_budget, r->budget = 1)
SPOIL(too_big, t[0].size = 1ull << 40)
SPOIL(alias_unknown, r->flags = TPLAN_SUBMIT_ALIASES; t[1].flags = TPLAN_TENSOR_HAS_ALIAS;
      t[1].alias_of = 99)
SPOIL(alias_outside, r->flags = TPLAN_SUBMIT_ALIASES; t[1].flags = TPLAN_TENSOR_HAS_ALIAS;
      t[1].alias_of = 1; t[1].alias_offset = 4000)
SPOIL(stride_unaligned, r->stride = TPLAN_TENSOR_DESC_SIZE_VER1 + 4)
SPOIL(stride_v0, r->stride = 64)
SPOIL(tiered_group, r->flags = TPLAN_SUBMIT_TIERED; r->group = 1)
SPOIL(tensor_pad, t[1].pad = 1)
SPOIL(tier_beyond_any, t[1].tiers = 1u << TPLAN_MAX_POOLS)
SPOIL(tier_not_there, r->flags = TPLAN_SUBMIT_TIERED; t[1].tiers = 1u << info->pool_count)
SPOIL(untiered_slow_only, t[1].tiers = 2)
SPOIL(share_sizes_differ, t[0].share_key = 5; t[1].share_key = 5)
SPOIL(share_aliased, r->flags = TPLAN_SUBMIT_ALIASES; t[0].share_key = 5;
      t[2].flags = TPLAN_TENSOR_HAS_ALIAS; t[2].alias_of = t[0].id)
SPOIL(share_tier_conflict, r->flags = TPLAN_SUBMIT_TIERED; t[0].share_key = 5;
      t[2].share_key = 5; t[0].tiers = 1; t[2].tiers = 2)
SPOIL(alias_tier_conflict, r->flags = TPLAN_SUBMIT_ALIASES | TPLAN_SUBMIT_TIERED;
      t[0].tiers = 1; t[2].tiers = 2; t[2].flags = TPLAN_TENSOR_HAS_ALIAS;
      t[2].alias_of = t[0].id)

/* The gaps a case passes: tensor 0 ([0, 2)) absent at step 1, unless spoilt. */
static struct tplan_gap_desc gap_buf[2];

static void with_gap(struct tplan_submit *r, struct tplan_tensor_desc *t)
{
	memset(gap_buf, 0, sizeof(gap_buf));
	gap_buf[0].lower = 1;
	gap_buf[0].upper = 2;
	r->gaps = (uintptr_t)gap_buf;
	r->gap_count = 1;
	r->gap_stride = sizeof(gap_buf[0]);
	t[0].gap_count = 1;
}

SPOIL(gaps_without_count, r->gaps = (uintptr_t)gap_buf)
SPOIL(gap_stride_without_count, r->gap_stride = sizeof(gap_buf[0]))
SPOIL(gap_stride_small, with_gap(r, t); r->gap_stride = 32)
SPOIL(gap_stride_unaligned, with_gap(r, t); r->gap_stride = 44)
SPOIL(too_many_gaps, with_gap(r, t);
      r->gap_count = TPLAN_MAX_GAPS_PER_TENSOR * N_GOOD + 1)
SPOIL(null_gaps, with_gap(r, t); r->gaps = 0)
SPOIL(gap_flag, with_gap(r, t); gap_buf[0].flags = 2)
SPOIL(gap_pad, with_gap(r, t); gap_buf[0].pad = 1)
SPOIL(gap_outside, with_gap(r, t); gap_buf[0].upper = 9)
SPOIL(gap_window_beyond, with_gap(r, t); gap_buf[0].flags = TPLAN_GAP_HAS_WINDOW;
      gap_buf[0].to = 4097)
SPOIL(gap_index_beyond, with_gap(r, t); t[0].gap_first = 1)
SPOIL(pins_overlap, t[0].flags = TPLAN_TENSOR_FIXED_OFFSET;
      t[1].flags = TPLAN_TENSOR_FIXED_OFFSET; t[1].offset = 64)
SPOIL(pin_misaligned, t[1].flags = TPLAN_TENSOR_FIXED_OFFSET; t[1].offset = 8)
SPOIL(pin_tiered, r->flags = TPLAN_SUBMIT_TIERED; t[1].flags = TPLAN_TENSOR_FIXED_OFFSET)
SPOIL(pin_with_models, t[1].flags = TPLAN_TENSOR_FIXED_OFFSET; t[2].model = 1)

static const struct bad_case bad_cases[] = {
	{ "gaps_pointer_without_count", EINVAL, gaps_without_count },
	{ "gap_stride_without_count", EINVAL, gap_stride_without_count },
	{ "gap_stride_too_small", EINVAL, gap_stride_small },
	{ "gap_stride_not_a_multiple_of_8", EINVAL, gap_stride_unaligned },
	{ "more_gaps_than_allowed", E2BIG, too_many_gaps },
	{ "null_gap_pointer", EFAULT, null_gaps },
	{ "unknown_gap_flag", EINVAL, gap_flag },
	{ "nonzero_gap_pad", EINVAL, gap_pad },
	{ "gap_outside_lifetime", EINVAL, gap_outside },
	{ "gap_window_beyond_size", EINVAL, gap_window_beyond },
	{ "gap_index_beyond_array", EINVAL, gap_index_beyond },
	{ "pinned_tensors_overlap", EINVAL, pins_overlap },
	{ "pin_misaligned", EINVAL, pin_misaligned },
	{ "pin_with_tiers", EINVAL, pin_tiered },
	{ "pin_with_models", EINVAL, pin_with_models },
	{ "unknown_submit_flag", EINVAL, unknown_flag },
	{ "nonzero_reserved", EINVAL, nonzero_reserved },
	{ "nonzero_last_reserved", EINVAL, last_reserved },
	{ "unknown_strategy", EINVAL, unknown_strategy },
	{ "count_zero", EINVAL, zero_count },
	{ "count_over_limit", E2BIG, count_over_limit },
	{ "stride_too_small", EINVAL, stride_small },
	{ "stride_too_large", EINVAL, stride_large },
	{ "null_tensor_pointer", EFAULT, null_tensors },
	{ "wild_tensor_pointer", EFAULT, wild_pointer },
	{ "unknown_tensor_flag", EINVAL, tensor_flag },
	{ "upper_not_above_lower", EINVAL, empty_lifetime },
	{ "alignment_not_power_of_two", EINVAL, bad_alignment },
	{ "duplicate_id", EINVAL, duplicate_id },
	{ "sizes_overflow", EOVERFLOW, sizes_overflow },
	{ "budget_exhausted", ETIMEDOUT, tiny_budget },
	{ "does_not_fit", ENOSPC, too_big },
	{ "alias_of_unknown_id", EINVAL, alias_unknown },
	{ "alias_outside_its_owner", EINVAL, alias_outside },
	{ "stride_not_a_multiple_of_8", EINVAL, stride_unaligned },
	{ "stride_of_64_bytes", EINVAL, stride_v0 },
	{ "tiered_in_a_group", EINVAL, tiered_group },
	{ "nonzero_tensor_pad", EINVAL, tensor_pad },
	{ "tier_beyond_any_pool", EINVAL, tier_beyond_any },
	{ "tier_the_device_lacks", EINVAL, tier_not_there },
	{ "untiered_slow_pool_only", EINVAL, untiered_slow_only },
	{ "share_key_sizes_differ", EINVAL, share_sizes_differ },
	{ "alias_of_a_shared_tensor", EINVAL, share_aliased },
	{ "alias_group_without_common_tier", EINVAL, alias_tier_conflict },
	{ "share_key_without_common_tier", EINVAL, share_tier_conflict },
};

static void test_rejected_inputs(int fd)
{
	struct tplan_info info;
	size_t i;

	get_info(fd, &info);
	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		struct tplan_tensor_desc t[N_GOOD];
		struct tplan_submit req;
		char name[96];
		int ok = 1, ret;

		current = bad_cases[i].name;
		memcpy(t, good, sizeof(t));
		init_submit(&req, t, N_GOOD);
		bad_cases[i].spoil(&req, t, &info);
		ret = ioctl(fd, TPLAN_IOC_SUBMIT, &req);
		EXPECT(ret == -1 && errno == bad_cases[i].err);
		if (bad_cases[i].err == ENOSPC)
			EXPECT(req.peak == (1ull << 40) + 1000);
		EXPECT(device_idle(fd));
		snprintf(name, sizeof(name), "submit_rejects_%s", current);
		report(name, ok);
	}
}

/* A dry run of the good table with a gap, a pin and a hint. */
static void submit_constrained(struct tplan_submit *req,
			       struct tplan_tensor_desc *t, __u32 strategy)
{
	memcpy(t, good, sizeof(good));
	init_submit(req, t, N_GOOD);
	req->flags = TPLAN_SUBMIT_DRY_RUN;
	req->strategy = strategy;
	with_gap(req, t);
	t[2].flags = TPLAN_TENSOR_FIXED_OFFSET;
	t[2].offset = 12288;
	t[0].flags = TPLAN_TENSOR_HAS_HINT;
	t[0].hint = 4096;
}

/*
 * A pin stays, a free hint is taken, and a gap lends its bytes: tensor 1
 * ([1, 3)) fits at 0 while tensor 0 is absent at step 1.  Search plans
 * the same table around the pin too.
 */
static void test_pins_gaps_hints(int fd)
{
	struct tplan_tensor_desc t[N_GOOD];
	struct tplan_submit req;
	int ok = 1;

	current = "pins_gaps_hints";
	submit_constrained(&req, t, TPLAN_STRATEGY_ID_GREEDY_SIZE);
	EXPECT(ioctl(fd, TPLAN_IOC_SUBMIT, &req) == 0);
	EXPECT(t[2].offset == 12288);
	EXPECT(t[0].offset == 4096);
	EXPECT(t[1].offset == 0);
	EXPECT(device_idle(fd));
	submit_constrained(&req, t, TPLAN_STRATEGY_ID_SEARCH);
	EXPECT(ioctl(fd, TPLAN_IOC_SUBMIT, &req) == 0);
	EXPECT(t[2].offset == 12288);
	EXPECT(device_idle(fd));
	report("pins_gaps_hints", ok);
}

/* Alignment 0 is read as 1 by the device too: the same plan as with 1. */
static void test_alignment_zero(int fd)
{
	struct tplan_tensor_desc t[N_GOOD], ones[N_GOOD];
	struct tplan_submit req, req1;
	int ok = 1, i;

	current = "alignment_zero_reads_as_one";
	memcpy(ones, good, sizeof(good));
	init_submit(&req1, ones, N_GOOD);
	req1.flags = TPLAN_SUBMIT_DRY_RUN;
	EXPECT(ioctl(fd, TPLAN_IOC_SUBMIT, &req1) == 0);
	memcpy(t, good, sizeof(good));
	t[0].alignment = t[2].alignment = 0;
	init_submit(&req, t, N_GOOD);
	req.flags = TPLAN_SUBMIT_DRY_RUN;
	EXPECT(ioctl(fd, TPLAN_IOC_SUBMIT, &req) == 0);
	EXPECT(req.peak == req1.peak);
	for (i = 0; i < N_GOOD; i++)
		EXPECT(t[i].offset == ones[i].offset);
	EXPECT(device_idle(fd));
	report(current, ok);
}

static void test_bad_release_and_numbers(int fd)
{
	struct tplan_release rel = { .plan_id = 1, .flags = 1 };
	struct tplan_submit req;
	int ok = 1;

	current = "release_and_ioctl_numbers";
	EXPECT(ioctl(fd, TPLAN_IOC_RELEASE, &rel) == -1 && errno == EINVAL);
	rel.flags = 0;
	rel.reserved[0] = 1;
	EXPECT(ioctl(fd, TPLAN_IOC_RELEASE, &rel) == -1 && errno == EINVAL);
	rel.reserved[0] = 0;
	EXPECT(ioctl(fd, TPLAN_IOC_RELEASE, &rel) == -1 && errno == ENOENT);
	EXPECT(ioctl(fd, _IO(TPLAN_IOC_MAGIC, 0x7f)) == -1 && errno == ENOTTY);
	EXPECT(ioctl(fd, _IOC(_IOC_READ | _IOC_WRITE, TPLAN_IOC_MAGIC,
			      _IOC_NR(TPLAN_IOC_SUBMIT), sizeof(req) - 8),
		     &req) == -1 && errno == ENOTTY);
	EXPECT(ioctl(fd, TPLAN_IOC_SUBMIT, NULL) == -1 && errno == EFAULT);
	EXPECT(device_idle(fd));
	report("release_and_ioctl_numbers", ok);
}

static void test_map_write_read(int fd)
{
	struct tplan_submit req;
	unsigned char *p, *q;
	size_t i;
	int ok = 1, other;

	current = "map_write_read";
	EXPECT(submit_size(fd, 3 * 4096 + 5, &req) == 0);
	EXPECT(region_of(&req)->region_size == 4 * 4096);
	p = mmap(NULL, region_of(&req)->region_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 region_of(&req)->mmap_offset);
	EXPECT(p != MAP_FAILED);
	if (p != MAP_FAILED) {
		for (i = 0; i < region_of(&req)->region_size; i++)
			if (p[i])
				break;
		EXPECT(i == region_of(&req)->region_size);	/* handed over zeroed */
		for (i = 0; i < region_of(&req)->region_size; i++)
			p[i] = (unsigned char)(i * 7 + 1);
		munmap(p, region_of(&req)->region_size);
	}
	q = mmap(NULL, region_of(&req)->region_size, PROT_READ, MAP_SHARED, fd,
		 region_of(&req)->mmap_offset);
	EXPECT(q != MAP_FAILED);
	if (q != MAP_FAILED) {
		for (i = 0; i < region_of(&req)->region_size; i++)
			if (q[i] != (unsigned char)(i * 7 + 1))
				break;
		EXPECT(i == region_of(&req)->region_size);
		munmap(q, region_of(&req)->region_size);
	}
	/*
	 * Too long, not from the region's start, or through a file that holds
	 * no handle of it: refused.
	 */
	EXPECT(mmap(NULL, region_of(&req)->region_size + 4096, PROT_READ, MAP_SHARED, fd,
		    region_of(&req)->mmap_offset) == MAP_FAILED && errno == EINVAL);
	EXPECT(mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd,
		    region_of(&req)->mmap_offset + 4096) == MAP_FAILED &&
	       errno == EINVAL);
	other = open_dev();
	EXPECT(mmap(NULL, 4096, PROT_READ, MAP_SHARED, other,
		    region_of(&req)->mmap_offset) == MAP_FAILED && errno == EACCES);
	close(other);
	EXPECT(release(fd, req.plan_id) == 0);
	/* released and unmapped, the region's GEM object is gone */
	EXPECT(mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, region_of(&req)->mmap_offset) ==
	       MAP_FAILED && errno == EINVAL);
	EXPECT(device_idle(fd));
	report("map_write_read", ok);
}

/*
 * A region released while mapped stays reserved: the next plan gets other
 * bytes; once unmapped, the bytes return and reach the next owner zeroed.
 */
static void test_released_while_mapped(int fd)
{
	struct tplan_submit a, b, c;
	unsigned char *p;
	int ok = 1;

	current = "released_while_mapped";
	EXPECT(submit_size(fd, 8192, &a) == 0);
	p = mmap(NULL, region_of(&a)->region_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 region_of(&a)->mmap_offset);
	EXPECT(p != MAP_FAILED);
	if (p == MAP_FAILED) {
		report(current, 0);
		return;
	}
	memset(p, 0xa5, region_of(&a)->region_size);
	EXPECT(release(fd, a.plan_id) == 0);
	EXPECT(submit_size(fd, 8192, &b) == 0);
	EXPECT(pool_of(&b) != pool_of(&a) || region_of(&b)->region_offset >= region_of(&a)->region_offset + region_of(&a)->region_size ||
	       region_of(&b)->region_offset + region_of(&b)->region_size <= region_of(&a)->region_offset);
	EXPECT(p[0] == 0xa5 && p[region_of(&a)->region_size - 1] == 0xa5);
	munmap(p, region_of(&a)->region_size);
	EXPECT(submit_size(fd, 8192, &c) == 0);
	EXPECT(pool_of(&c) == pool_of(&a) && region_of(&c)->region_offset == region_of(&a)->region_offset);
	p = mmap(NULL, region_of(&c)->region_size, PROT_READ, MAP_SHARED, fd, region_of(&c)->mmap_offset);
	EXPECT(p != MAP_FAILED && p[0] == 0 && p[region_of(&c)->region_size - 1] == 0);
	if (p != MAP_FAILED)
		munmap(p, region_of(&c)->region_size);
	EXPECT(release(fd, b.plan_id) == 0 && release(fd, c.plan_id) == 0);
	EXPECT(device_idle(fd));
	report(current, ok);
}

/* A child submits, maps and exits without releasing anything. */
static void test_exit_without_release(int fd)
{
	int ok = 1, status;
	pid_t pid;

	current = "exit_without_release";
	pid = fork();
	if (pid == 0) {
		int cfd = open_dev();
		struct tplan_submit r;

		if (submit_size(cfd, 5000, &r) || submit_size(cfd, 70000, &r) ||
		    mmap(NULL, region_of(&r)->region_size, PROT_READ, MAP_SHARED, cfd,
			 region_of(&r)->mmap_offset) == MAP_FAILED)
			_exit(1);
		_exit(0);
	}
	EXPECT(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0);
	EXPECT(device_idle(fd));
	report(current, ok);
}

/* Two processes submit, map, write and release at once. */
static void test_two_processes(int fd)
{
	int ok = 1, status, k;
	pid_t pid[2];

	current = "two_processes";
	for (k = 0; k < 2; k++) {
		pid[k] = fork();
		if (pid[k] == 0) {
			int cfd = open_dev(), i;

			for (i = 0; i < 200; i++) {
				struct tplan_submit r;
				unsigned char *p;

				if (submit_size(cfd, 4096 * (1 + (i + k) % 5), &r))
					_exit(1);
				p = mmap(NULL, region_of(&r)->region_size, PROT_READ | PROT_WRITE,
					 MAP_SHARED, cfd, region_of(&r)->mmap_offset);
				if (p == MAP_FAILED || p[0])
					_exit(2);
				memset(p, k + 1, region_of(&r)->region_size);
				munmap(p, region_of(&r)->region_size);
				if (release(cfd, r.plan_id))
					_exit(3);
			}
			_exit(0);
		}
	}
	for (k = 0; k < 2; k++)
		EXPECT(waitpid(pid[k], &status, 0) == pid[k] && WIFEXITED(status) &&
		       WEXITSTATUS(status) == 0);
	EXPECT(device_idle(fd));
	report(current, ok);
}

int main(int argc, char **argv)
{
	int fd;

	if (argc > 1)
		device = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	fd = open_dev();
	test_rejected_inputs(fd);
	test_alignment_zero(fd);
	test_pins_gaps_hints(fd);
	test_bad_release_and_numbers(fd);
	test_map_write_read(fd);
	test_released_while_mapped(fd);
	test_exit_without_release(fd);
	test_two_processes(fd);
	close(fd);
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
