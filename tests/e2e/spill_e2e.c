// SPDX-License-Identifier: MIT
/*
 * spill_e2e.c - end-to-end tests of TPLAN_IOC_SUBMIT_SPILL from a real
 * process, run inside UML by tests/e2e/e2e.sh: a spill plan reserved,
 * mapped and released; a dry run; a caller's array too short for the
 * pieces; a larger piece stride; and every rejected input with its errno,
 * leaving the device as it was.  Prints "ok"/"FAIL" per test and
 * "N passed, N failed" last.
 */
#include <sys/mman.h>

#include "e2e_util.h"

#define N_T	3
#define N_USES	5
#define CAP	16

/*
 * a is used at 0, 3 and 9; b lives at 4..6 and c at 2..4: with 150 bytes
 * a must go out between 3 and 9, so 200 bytes move and there are 4 pieces.
 */
static const struct tplan_tensor_desc spill_t[N_T] = {
	{ .id = 10, .lower = 0, .upper = 10, .size = 100, .alignment = 1 },
	{ .id = 11, .lower = 4, .upper = 7, .size = 100, .alignment = 1 },
	{ .id = 12, .lower = 2, .upper = 5, .size = 7, .alignment = 1 },
};
static const uint64_t spill_steps[N_USES] = { 0, 3, 9, 2, 4 };
static const uint32_t spill_start[N_T + 1] = { 0, 3, 3, 5 };

/* A request's inputs, copied so that a test may spoil them. */
struct spill_in {
	struct tplan_tensor_desc t[N_T];
	uint64_t steps[N_USES];
	uint32_t start[N_T + 1];
	struct tplan_piece_desc p[CAP];
	struct tplan_submit_spill req;
};

static void init_spill(struct spill_in *in)
{
	memcpy(in->t, spill_t, sizeof(in->t));
	memcpy(in->steps, spill_steps, sizeof(in->steps));
	memcpy(in->start, spill_start, sizeof(in->start));
	memset(in->p, 0xee, sizeof(in->p));
	memset(&in->req, 0, sizeof(in->req));
	in->req.strategy = TPLAN_SPILL_ID_DEFAULT;
	in->req.tensors = (uint64_t)(uintptr_t)in->t;
	in->req.count = N_T;
	in->req.stride = sizeof(in->t[0]);
	in->req.uses = (uint64_t)(uintptr_t)in->steps;
	in->req.use_start = (uint64_t)(uintptr_t)in->start;
	in->req.use_count = N_USES;
	in->req.pieces = (uint64_t)(uintptr_t)in->p;
	in->req.piece_cap = CAP;
	in->req.piece_stride = sizeof(in->p[0]);
	in->req.capacity = 150;
}

/* The plan the pieces describe, as the offline planner makes it. */
static int plan_as_expected(const struct spill_in *in)
{
	const struct tplan_submit_spill *r = &in->req;
	uint32_t i;

	if (r->piece_count != 4 || r->moved != 200 || r->moved_bound != 200 ||
	    r->host_peak != 100 || r->live_peak != 207 || r->peak > 150 ||
	    r->kept >= 2)
		return 0;
	for (i = 0; i < 4; i++)
		if (in->p[i].tensor >= N_T || in->p[i].upper <= in->p[i].lower ||
		    in->p[i].offset + spill_t[in->p[i].tensor].size > r->peak)
			return 0;
	/* a's second piece: back at 9, for its last use */
	return in->p[0].tensor == 0 && in->p[1].tensor == 0 &&
	       in->p[1].piece == 1 && in->p[1].lower == 9 &&
	       in->p[1].upper == 10 && in->p[0].lower == 0 && in->p[0].upper == 4;
}

static void test_spill_map_release(int fd)
{
	struct spill_in in;
	const struct tplan_plan_region *r;
	unsigned char *m;
	int ok = 1;

	current = "spill_map_release";
	init_spill(&in);
	EXPECT(ioctl(fd, TPLAN_IOC_SUBMIT_SPILL, &in.req) == 0);
	EXPECT(plan_as_expected(&in));
	EXPECT(in.req.plan_id != 0);
	r = &in.req.regions[0];
	EXPECT(r->region_size == 4096 && r->peak == in.req.peak);
	EXPECT(used_bytes(fd) == 4096);
	/* pieces past the ones written are untouched */
	EXPECT(in.p[4].tensor == 0xeeeeeeee);
	m = mmap(NULL, r->region_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 r->mmap_offset);
	EXPECT(m != MAP_FAILED);
	if (m != MAP_FAILED) {
		EXPECT(m[0] == 0 && m[in.req.peak - 1] == 0);
		m[in.p[0].offset] = 42;
		munmap(m, r->region_size);
	}
	EXPECT(release(fd, in.req.plan_id) == 0);
	EXPECT(release(fd, in.req.plan_id) == -1 && errno == ENOENT);
	EXPECT(device_idle(fd));
	report(current, ok);
}

static void test_spill_dry_run(int fd)
{
	struct spill_in in;
	int ok = 1;

	current = "spill_dry_run_reserves_nothing";
	init_spill(&in);
	in.req.flags = TPLAN_SUBMIT_DRY_RUN;
	EXPECT(ioctl(fd, TPLAN_IOC_SUBMIT_SPILL, &in.req) == 0);
	EXPECT(plan_as_expected(&in));
	EXPECT(in.req.plan_id == 0 && in.req.regions[0].region_size == 0);
	EXPECT(in.req.regions[0].peak == in.req.peak);
	EXPECT(device_idle(fd));
	report(current, ok);
}

/* Too short an array: -ENOBUFS, the count needed, nothing written. */
static void test_spill_too_many_pieces(int fd)
{
	struct spill_in in;
	int ok = 1;

	current = "spill_too_many_pieces_for_the_array";
	init_spill(&in);
	in.req.piece_cap = 3;
	EXPECT(ioctl(fd, TPLAN_IOC_SUBMIT_SPILL, &in.req) == -1 &&
	       errno == ENOBUFS);
	EXPECT(in.req.piece_count == 4 && in.req.plan_id == 0);
	EXPECT(in.p[0].tensor == 0xeeeeeeee);
	init_spill(&in);
	in.req.piece_cap = 0;
	in.req.pieces = 0;
	EXPECT(ioctl(fd, TPLAN_IOC_SUBMIT_SPILL, &in.req) == -1 &&
	       errno == ENOBUFS);
	EXPECT(in.req.piece_count == 4);
	EXPECT(device_idle(fd));
	report(current, ok);
}

/* A caller with a larger piece descriptor finds its tail zeroed. */
static void test_spill_larger_piece_stride(int fd)
{
	uint8_t wide[CAP][56];
	struct spill_in in;
	uint32_t i;
	int ok = 1;

	current = "spill_larger_piece_stride";
	init_spill(&in);
	memset(wide, 0xee, sizeof(wide));
	in.req.pieces = (uint64_t)(uintptr_t)wide;
	in.req.piece_stride = sizeof(wide[0]);
	in.req.flags = TPLAN_SUBMIT_DRY_RUN;
	EXPECT(ioctl(fd, TPLAN_IOC_SUBMIT_SPILL, &in.req) == 0);
	EXPECT(in.req.piece_count == 4);
	for (i = 0; i < 4; i++) {
		memcpy(&in.p[i], wide[i], sizeof(in.p[i]));
		EXPECT(wide[i][40] == 0 && wide[i][55] == 0);
	}
	EXPECT(plan_as_expected(&in));
	EXPECT(wide[4][0] == 0xee);
	report(current, ok);
}

/* Fits by capacity, but no pool of the device has room for the peak. */
static void test_spill_device_full(int fd)
{
	struct spill_in in;
	int ok = 1;

	current = "spill_device_full";
	init_spill(&in);
	in.t[0].size = 1ull << 40;
	in.req.capacity = 1ull << 41;
	EXPECT(ioctl(fd, TPLAN_IOC_SUBMIT_SPILL, &in.req) == -1 &&
	       errno == ENOSPC);
	EXPECT(in.req.fail_bytes == 0 && in.req.peak >= (1ull << 40));
	EXPECT(device_idle(fd));
	report(current, ok);
}

/* A step whose used tensors alone exceed the capacity is named. */
static void test_spill_step_too_full(int fd)
{
	struct spill_in in;
	int ok = 1;

	current = "spill_used_bytes_exceed_capacity";
	init_spill(&in);
	in.req.capacity = 106;
	EXPECT(ioctl(fd, TPLAN_IOC_SUBMIT_SPILL, &in.req) == -1 &&
	       errno == ENOSPC);
	/* at step 4, b (100) and c (7) are used */
	EXPECT(in.req.fail_step == 4 && in.req.fail_bytes == 107);
	EXPECT(device_idle(fd));
	report(current, ok);
}

struct bad_case {
	const char *name;
	int err;
	void (*spoil)(struct spill_in *in);
};

#define SPOIL(fn, body) static void fn(struct spill_in *in) { body; }

SPOIL(unknown_flag, in->req.flags = 1u << 5)
SPOIL(submit_flag, in->req.flags = TPLAN_SUBMIT_TIERED)
SPOIL(reserved, in->req.reserved[3] = 1)
SPOIL(pad, in->req.pad = 1)
SPOIL(capacity_zero, in->req.capacity = 0)
SPOIL(unknown_strategy, in->req.strategy = 99)
SPOIL(count_zero, in->req.count = 0)
SPOIL(stride_small, in->req.stride = TPLAN_TENSOR_DESC_SIZE_VER1 - 8)
SPOIL(stride_unaligned, in->req.stride = TPLAN_TENSOR_DESC_SIZE_VER1 + 4)
SPOIL(piece_stride_small, in->req.piece_stride = TPLAN_PIECE_DESC_SIZE_VER1 - 8)
SPOIL(piece_stride_unaligned, in->req.piece_stride = TPLAN_PIECE_DESC_SIZE_VER1 + 4)
SPOIL(piece_stride_large, in->req.piece_stride = TPLAN_PIECE_DESC_MAX_STRIDE + 8)
SPOIL(use_out_of_range, in->steps[2] = 10)
SPOIL(use_before_lower, in->steps[3] = 1)
SPOIL(uses_unsorted, in->steps[1] = 9; in->steps[2] = 3)
SPOIL(uses_repeated, in->steps[2] = 3)
SPOIL(start_not_zero, in->start[0] = 1)
SPOIL(start_decreasing, in->start[1] = 4; in->start[2] = 2)
SPOIL(start_short_of_count, in->start[N_T] = N_USES - 1)
SPOIL(uses_without_start, in->req.use_start = 0)
SPOIL(too_many_uses, in->req.use_count = 0x80000000u)
SPOIL(uses_unreadable, in->req.uses = 0xffff800000000000ull)
SPOIL(pieces_unwritable, in->req.pieces = 0xffff800000000000ull)
SPOIL(bad_tensor, in->t[1].upper = in->t[1].lower)
SPOIL(tiny_budget, in->req.budget = 1)

static const struct bad_case bad_cases[] = {
	{ "unknown_flag", EINVAL, unknown_flag },
	{ "submit_only_flag", EINVAL, submit_flag },
	{ "nonzero_reserved", EINVAL, reserved },
	{ "nonzero_pad", EINVAL, pad },
	{ "capacity_zero", EINVAL, capacity_zero },
	{ "unknown_strategy", EINVAL, unknown_strategy },
	{ "count_zero", EINVAL, count_zero },
	{ "stride_too_small", EINVAL, stride_small },
	{ "stride_not_a_multiple_of_8", EINVAL, stride_unaligned },
	{ "piece_stride_too_small", EINVAL, piece_stride_small },
	{ "piece_stride_not_a_multiple_of_8", EINVAL, piece_stride_unaligned },
	{ "piece_stride_too_large", EINVAL, piece_stride_large },
	{ "use_out_of_range", EINVAL, use_out_of_range },
	{ "use_before_lower", EINVAL, use_before_lower },
	{ "uses_unsorted", EINVAL, uses_unsorted },
	{ "uses_repeated", EINVAL, uses_repeated },
	{ "use_start_not_zero", EINVAL, start_not_zero },
	{ "use_start_decreasing", EINVAL, start_decreasing },
	{ "use_start_short_of_use_count", EINVAL, start_short_of_count },
	{ "uses_without_use_start", EINVAL, uses_without_start },
	{ "too_many_uses", E2BIG, too_many_uses },
	{ "uses_unreadable", EFAULT, uses_unreadable },
	{ "pieces_unwritable", EFAULT, pieces_unwritable },
	{ "upper_not_above_lower", EINVAL, bad_tensor },
	{ "budget_exhausted", ETIMEDOUT, tiny_budget },
};

static void test_rejected_inputs(int fd)
{
	size_t i;

	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		struct spill_in in;
		char name[96];
		int ok = 1;

		current = bad_cases[i].name;
		init_spill(&in);
		bad_cases[i].spoil(&in);
		EXPECT(ioctl(fd, TPLAN_IOC_SUBMIT_SPILL, &in.req) == -1 &&
		       errno == bad_cases[i].err);
		EXPECT(in.p[0].tensor == 0xeeeeeeee);
		EXPECT(device_idle(fd));
		snprintf(name, sizeof(name), "spill_rejects_%s", current);
		report(name, ok);
	}
}

/* A newer caller's larger struct: a zero tail is fine, a set one -E2BIG. */
static void test_spill_struct_sizes(int fd)
{
	struct {
		struct tplan_submit_spill req;
		uint64_t tail[2];
	} big;
	struct spill_in in;
	unsigned long cmd = _IOC(_IOC_READ | _IOC_WRITE, TPLAN_IOC_MAGIC,
				 _IOC_NR(TPLAN_IOC_SUBMIT_SPILL), sizeof(big));
	int ok = 1;

	current = "spill_struct_sizes";
	init_spill(&in);
	in.req.flags = TPLAN_SUBMIT_DRY_RUN;
	big.req = in.req;
	big.tail[0] = big.tail[1] = 0;
	EXPECT(ioctl(fd, cmd, &big) == 0 && big.req.piece_count == 4);
	big.req = in.req;
	big.tail[1] = 1;
	EXPECT(ioctl(fd, cmd, &big) == -1 && errno == E2BIG);
	EXPECT(ioctl(fd, _IOC(_IOC_READ | _IOC_WRITE, TPLAN_IOC_MAGIC,
			      _IOC_NR(TPLAN_IOC_SUBMIT_SPILL),
			      TPLAN_SUBMIT_SPILL_SIZE_VER1 - 8), &in.req) == -1 &&
	       errno == ENOTTY);
	EXPECT(ioctl(fd, TPLAN_IOC_SUBMIT_SPILL, NULL) == -1 && errno == EFAULT);
	EXPECT(device_idle(fd));
	report(current, ok);
}

/* Closing the file gives its spill plans back, as any plan. */
static void test_spill_close_releases(void)
{
	struct spill_in in;
	int fd = open_dev(), ok = 1, fd2;

	current = "spill_close_releases";
	init_spill(&in);
	EXPECT(ioctl(fd, TPLAN_IOC_SUBMIT_SPILL, &in.req) == 0);
	EXPECT(used_bytes(fd) == 4096);
	close(fd);
	fd2 = open_dev();
	EXPECT(device_idle(fd2));
	close(fd2);
	report(current, ok);
}

int main(int argc, char **argv)
{
	int fd;

	if (argc > 1)
		device = argv[1];
	fd = open_dev();
	test_spill_map_release(fd);
	test_spill_dry_run(fd);
	test_spill_too_many_pieces(fd);
	test_spill_larger_piece_stride(fd);
	test_spill_device_full(fd);
	test_spill_step_too_full(fd);
	test_rejected_inputs(fd);
	test_spill_struct_sizes(fd);
	close(fd);
	test_spill_close_releases();
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
