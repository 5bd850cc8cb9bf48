// SPDX-License-Identifier: MIT
/*
 * ioctl_ops_spill.c - ops: SUBMIT_SPILL on small random tables with random
 * uses, valid or with one thing wrong.
 */
#include "ioctl_fuzz.h"

#define SPILL_MAX_USES	512
#define SPILL_MAX_PIECES 256
#define SPILL_PIECE_STRIDE_MAX (TPLAN_PIECE_DESC_SIZE_VER1 + 8 * 7)

static uint64_t spill_steps[SPILL_MAX_USES];
static uint32_t spill_start[MAX_VALID_N + 1];
static uint8_t spill_pieces[SPILL_MAX_PIECES * SPILL_PIECE_STRIDE_MAX];

/* Random uses for @n tensors of @base: a few steps each, in order. */
static uint32_t gen_uses(uint8_t *base, uint32_t stride, uint32_t n)
{
	uint32_t i, m = 0;
	uint64_t s;

	for (i = 0; i < n; i++) {
		const struct tplan_tensor_desc *d = desc(base, stride, i);

		spill_start[i] = m;
		for (s = d->lower; s < d->upper && m < SPILL_MAX_USES; s++)
			if (chance(40))
				spill_steps[m++] = s;
	}
	spill_start[n] = m;
	return m;
}

/* Whether a successful spill plan's pieces are plausible. */
static bool spill_plausible(const struct tplan_submit_spill *req,
			    const uint8_t *base, uint32_t stride)
{
	uint32_t i;

	if (req->piece_count > req->piece_cap || req->peak > req->capacity ||
	    req->moved < req->moved_bound)
		return false;
	for (i = 0; i < req->piece_count; i++) {
		const struct tplan_piece_desc *p = (const void *)
			(spill_pieces + (size_t)i * req->piece_stride);
		const struct tplan_tensor_desc *d;

		if (p->tensor >= req->count)
			return false;
		d = desc((uint8_t *)base, stride, p->tensor);
		if (p->lower < d->lower || p->upper > d->upper ||
		    p->lower >= p->upper ||
		    (d->size && p->offset + d->size > req->peak))
			return false;
	}
	return true;
}

/* Check a successful spill plan, then give it back. */
static void check_spill(int fd, const struct tplan_submit_spill *req,
			const uint8_t *base, uint32_t stride)
{
	if (!spill_plausible(req, base, stride))
		fail("SUBMIT_SPILL: implausible plan: %u of %u pieces, peak %llu of %llu, moved %llu bound %llu",
		     req->piece_count, req->piece_cap,
		     (unsigned long long)req->peak,
		     (unsigned long long)req->capacity,
		     (unsigned long long)req->moved,
		     (unsigned long long)req->moved_bound);
	if (req->plan_id) {
		struct tplan_release rel = { .plan_id = req->plan_id };

		check_errno("RELEASE of a spill plan",
			    do_ioctl(fd, TPLAN_IOC_RELEASE, &rel), 0);
	}
}

/* The tensor whose uses hold use @k. */
static uint32_t use_owner(uint32_t n, uint32_t k)
{
	uint32_t i = 0;

	while (i + 1 < n && spill_start[i + 1] <= k)
		i++;
	return i;
}

/* A small valid table with uses, sometimes with one thing wrong. */
void op_submit_spill(void)
{
	struct gen o = { .kind = PLAIN, .max_n = 12, .max_size = 64 * 1024 };
	struct tplan_submit_spill req;
	uint32_t stride = TPLAN_TENSOR_DESC_SIZE_VER1, n, m, i;
	unsigned int how = (unsigned int)rnd(18);
	uint64_t total = 0;
	int expect = EINVAL, fd, r;
	char what[64];

	if (!file_of_fd_index(&fd))
		return;
	n = gen_valid(table, stride, &o);
	m = gen_uses(table, stride, n);
	for (i = 0; i < n; i++)
		total += desc(table, stride, i)->size;
	memset(&req, 0, sizeof(req));
	req.flags = chance(50) ? TPLAN_SUBMIT_DRY_RUN : 0;
	req.strategy = (uint32_t)rnd(2);
	req.tensors = (uint64_t)(uintptr_t)table;
	req.count = n;
	req.stride = stride;
	if (chance(80)) {	/* a pointer only with a count */
		req.uses = m ? (uint64_t)(uintptr_t)spill_steps : 0;
		req.use_start = (uint64_t)(uintptr_t)spill_start;
		req.use_count = m;
	}
	req.piece_stride = TPLAN_PIECE_DESC_SIZE_VER1 + 8 * (uint32_t)rnd(8);
	req.pieces = (uint64_t)(uintptr_t)spill_pieces;
	/* often too short: the count needed comes back with ENOBUFS */
	req.piece_cap = (uint32_t)(chance(40) ? rnd(n + 1) : rnd(SPILL_MAX_PIECES + 1));
	if (!req.piece_cap)
		req.pieces = 0;
	req.capacity = 1 + rnd(total + 1);
	req.budget = chance(90) ? 0 : 1 + rnd(100000);
	switch (how) {
	case 0: req.flags |= 1u << (1 + rnd(31)); break;
	case 1: req.reserved[rnd(4)] = 1 + rnd(UINT32_MAX); break;
	case 2: req.pad = 1 + (uint32_t)rnd(UINT32_MAX); break;
	case 3: req.capacity = 0; break;
	case 4: req.strategy = 50 + (uint32_t)rnd(1000); break;
	case 5: req.piece_stride = (uint32_t)rnd(TPLAN_PIECE_DESC_SIZE_VER1); break;
	case 6: req.piece_stride += 1 + (uint32_t)rnd(7); break;
	case 7: if (!req.use_start || !m) return;
		spill_start[0] = 1; break;
	case 8: if (!req.use_start || !m) return;
		spill_steps[m - 1] = desc(table, stride, use_owner(n, m - 1))->upper + rnd(3);
		break;
	case 9: req.use_start = 0; req.use_count = 1 + (uint32_t)rnd(9); break;
	case 10: if (!req.use_start) return;
		req.uses = 0xffff800000000000ULL; req.use_count = 1 + m; spill_start[n] = 1 + m;
		expect = EFAULT; break;
	case 11: req.piece_cap = 1 + (uint32_t)rnd(1000);
		req.pieces = 0xffff800000000000ULL; expect = EFAULT; break;
	case 12: /* a uses pointer without uses */
		memset(spill_start, 0, sizeof(spill_start));
		req.use_start = (uint64_t)(uintptr_t)spill_start;
		req.use_count = 0;
		req.uses = (uint64_t)(uintptr_t)spill_steps;
		break;
	case 13: /* a pieces pointer without room */
		req.piece_cap = 0;
		req.pieces = (uint64_t)(uintptr_t)spill_pieces;
		break;
	default: expect = ANY; break;
	}
	r = do_ioctl(fd, TPLAN_IOC_SUBMIT_SPILL, &req);
	snprintf(what, sizeof(what), "SUBMIT_SPILL (case %u)", how);
	check_errno(what, r, expect);
	if (r == ENOBUFS && req.piece_count <= req.piece_cap)
		fail("SUBMIT_SPILL: ENOBUFS with %u of %u pieces", req.piece_count,
		     req.piece_cap);
	if (!r)
		check_spill(fd, &req, table, stride);
}
