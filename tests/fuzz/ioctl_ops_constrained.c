// SPDX-License-Identifier: MIT
/*
 * ioctl_ops_constrained.c - ops: SUBMIT with pins, hints and gaps (descriptor
 * version 2), valid or broken in one way (break_constrained()).
 */
#include "ioctl_fuzz.h"

#define FIX_MAX_N	8
#define FIX_MAX_GAPS	(TPLAN_MAX_GAPS_PER_TENSOR * FIX_MAX_N)
#define GAP_BYTES	(16 * PAGE)	/* FIX_MAX_GAPS x a stride of 128 fits */

static uint8_t *gapbuf;		/* GAP_BYTES, then a PROT_NONE page */

/* A constrained table as generated: what the oracle needs to know of it. */
struct constrained {
	uint32_t n;
	uint32_t stride;
	uint32_t ngaps;		/* gaps in the array */
	uint32_t gap_stride;
	uint8_t *gaps;		/* where the array starts */
	uint64_t pin[FIX_MAX_N];	/* the offsets given, before the call */
	uint64_t next_pin;	/* the first byte above every pin */
};

static struct tplan_gap_desc *gap_at(const struct constrained *x, uint32_t k)
{
	return (struct tplan_gap_desc *)(x->gaps + (size_t)k * x->gap_stride);
}

static uint8_t *gapbuf_get(void)
{
	if (!gapbuf) {
		gapbuf = mmap(NULL, GAP_BYTES + PAGE, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (gapbuf == MAP_FAILED) {
			gapbuf = NULL;
			return NULL;
		}
		mprotect(gapbuf + GAP_BYTES, PAGE, PROT_NONE);
	}
	return gapbuf;
}

/*
 * Gaps for tensor @i: up to @most, in time order, not overlapping, inside
 * its lifetime; a window, sometimes, inside its size.
 */
static void gen_gaps(struct constrained *x, uint32_t i, uint32_t most)
{
	struct tplan_tensor_desc *d = desc(table, x->stride, i);
	uint64_t s = d->lower;
	uint32_t k = 0;

	d->gap_first = x->ngaps;
	while (k < most) {
		uint64_t lo = s + rnd(3), hi = lo + 1 + rnd(3);
		struct tplan_gap_desc *g;

		if (hi > d->upper)
			break;
		g = gap_at(x, x->ngaps++);
		g->lower = lo;
		g->upper = hi;
		if (chance(40)) {
			g->flags = TPLAN_GAP_HAS_WINDOW;
			g->from = rnd(d->size + 1);
			g->to = g->from + rnd(d->size - g->from + 1);
		}
		s = hi;
		k++;
	}
	d->gap_count = k;
}

/* Pin tensor @i above every pin so far: pins never share bytes. */
static void pin_above(struct constrained *x, uint32_t i)
{
	struct tplan_tensor_desc *d = desc(table, x->stride, i);
	uint64_t a = d->alignment;

	d->flags |= TPLAN_TENSOR_FIXED_OFFSET;
	d->offset = (x->next_pin + a - 1) / a * a;
	x->next_pin = d->offset + d->size + rnd(256);
}

/*
 * A valid table of one model with pins, hints and gaps: lifetimes long
 * enough for a few gaps, pins stacked apart, gaps named by their tensors
 * (sometimes by two tensors, sometimes past 16 for one tensor while the
 * table names at most 16 per tensor), sometimes gaps no tensor names.
 */
static void gen_constrained(struct constrained *x)
{
	uint32_t model = (uint32_t)rnd(3), i, named = 0;
	uint32_t limit = TPLAN_MAX_GAPS_PER_TENSOR * x->n;

	memset(table, 0, (size_t)x->n * x->stride);
	memset(x->gaps, 0, (size_t)FIX_MAX_GAPS * x->gap_stride);
	x->ngaps = 0;
	x->next_pin = rnd(4096);
	for (i = 0; i < x->n; i++) {
		struct tplan_tensor_desc *d = desc(table, x->stride, i);

		d->id = i * 7 + 1;
		d->model = model;
		d->lower = rnd(8);
		d->upper = d->lower + 1 + rnd(chance(10) ? 80 : 24);
		d->size = chance(8) ? 0 : 1 + rnd(chance(80) ? 8192 : 65536);
		d->alignment = 1ULL << rnd(9);
		d->priority = (uint32_t)rnd(10);
		if (chance(30))
			d->hint = chance(70) ? rnd(65536) : rnd64();
		if (chance(30))
			d->flags |= TPLAN_TENSOR_HAS_HINT;
	}
	for (i = 0; i < x->n; i++) {
		struct tplan_tensor_desc *d = desc(table, x->stride, i);
		uint32_t most = chance(10) ? 24 : 4, j;

		if (!chance(40))
			continue;
		if (i && chance(20)) {	/* name an earlier tensor's gaps */
			const struct tplan_tensor_desc *e;

			j = (uint32_t)rnd(i);
			e = desc(table, x->stride, j);
			if (!e->gap_count || named + e->gap_count > limit)
				continue;
			d->lower = e->lower;
			d->upper = e->upper;
			d->size = e->size;
			d->gap_first = e->gap_first;
			d->gap_count = e->gap_count;
			named += d->gap_count;
			continue;
		}
		most = most < limit - named ? most : limit - named;
		if (x->ngaps + most > limit)
			most = limit - x->ngaps;
		if (most > 4)
			d->upper = d->lower + 8 * most;
		gen_gaps(x, i, most);
		named += d->gap_count;
	}
	if (x->ngaps < limit && chance(10))	/* gaps nobody names */
		x->ngaps += (uint32_t)rnd(limit - x->ngaps + 1);
	for (i = 0; i < x->n; i++)
		if (chance(35))
			pin_above(x, i);
	if (chance(30)) {	/* one hint, above every pin: it must be taken */
		struct tplan_tensor_desc *d;

		for (i = 0; i < x->n; i++)
			desc(table, x->stride, i)->flags &= ~TPLAN_TENSOR_HAS_HINT;
		d = desc(table, x->stride, (uint32_t)rnd(x->n));
		d->flags |= TPLAN_TENSOR_HAS_HINT;
		d->hint = (x->next_pin + rnd(4096) + d->alignment - 1) /
			  d->alignment * d->alignment;
	}
}

/* The first pinned tensor with bytes, from @from on, or n. */
static uint32_t pinned_with_bytes(const struct constrained *x, uint32_t from)
{
	for (; from < x->n; from++) {
		const struct tplan_tensor_desc *d = desc(table, x->stride, from);

		if ((d->flags & TPLAN_TENSOR_FIXED_OFFSET) && d->size &&
		    !d->gap_count)
			return from;
	}
	return x->n;
}

/* The gaps the tensors name, all together. */
static uint32_t named_gaps(const struct constrained *x)
{
	uint32_t i, named = 0;

	for (i = 0; i < x->n; i++)
		named += desc(table, x->stride, i)->gap_count;
	return named;
}

/*
 * Pin tensor @j onto pinned tensor @i's bytes while both are alive: a
 * conflict, unless @gap gives @i a gap over the steps they share.  Returns
 * false if the table has no two such tensors.
 */
static bool pin_onto(struct constrained *x, bool gap)
{
	uint32_t i = pinned_with_bytes(x, 0), j;
	struct tplan_tensor_desc *a, *b;
	struct tplan_gap_desc *g;

	if (i == x->n)
		return false;
	j = (i + 1 + (uint32_t)rnd(x->n - 1)) % x->n;
	if (j == i)
		return false;
	a = desc(table, x->stride, i);
	b = desc(table, x->stride, j);
	if (b->gap_count) {	/* its gaps might hide the conflict */
		b->gap_count = 0;
		b->gap_first = 0;
	}
	b->flags |= TPLAN_TENSOR_FIXED_OFFSET;
	b->alignment = 1;
	b->offset = a->offset + rnd(a->size);
	b->size = 1 + rnd(a->offset + a->size - b->offset);
	b->lower = a->lower + rnd(a->upper - a->lower);
	b->upper = b->lower + 1 + rnd(4);
	if (!gap)
		return true;
	if (named_gaps(x) >= TPLAN_MAX_GAPS_PER_TENSOR * x->n ||
	    x->ngaps >= TPLAN_MAX_GAPS_PER_TENSOR * x->n)
		return false;
	g = gap_at(x, x->ngaps);
	memset(g, 0, x->gap_stride);
	g->lower = b->lower;
	g->upper = b->upper < a->upper ? b->upper : a->upper;
	a->gap_first = x->ngaps++;
	a->gap_count = 1;
	return true;
}

/* The first tensor with at least @k gaps, or n. */
static uint32_t with_gaps(const struct constrained *x, uint32_t k)
{
	uint32_t i;

	for (i = 0; i < x->n; i++)
		if (desc(table, x->stride, i)->gap_count >= k)
			return i;
	return x->n;
}

/* Make sure some tensor is pinned, hinted or has gaps. */
static void make_constrained(struct constrained *x)
{
	struct tplan_tensor_desc *d = desc(table, x->stride, 0);

	if (chance(50))
		d->flags |= TPLAN_TENSOR_HAS_HINT;
	else if (!(d->flags & TPLAN_TENSOR_FIXED_OFFSET))
		pin_above(x, 0);
}

/* Make sure some tensor is pinned. */
static void make_pinned(struct constrained *x)
{
	uint32_t i;

	for (i = 0; i < x->n; i++)
		if (desc(table, x->stride, i)->flags & TPLAN_TENSOR_FIXED_OFFSET)
			return;
	pin_above(x, (uint32_t)rnd(x->n));
}

/* A pinned or hinted tensor got the place the rules promise. */
static void check_constrained_places(const struct constrained *x, const struct tplan_submit *req,
			       uint32_t hinted)
{
	uint32_t i;

	for (i = 0; i < x->n; i++) {
		const struct tplan_tensor_desc *d = desc(table, x->stride, i);

		if (!(d->flags & TPLAN_TENSOR_FIXED_OFFSET))
			continue;
		__atomic_add_fetch(&sh->pins_checked, 1, __ATOMIC_RELAXED);
		if (d->offset != x->pin[i])
			fail("SUBMIT (constrained): tensor %u pinned at %llu came back at %llu",
			     i, (unsigned long long)x->pin[i],
			     (unsigned long long)d->offset);
	}
	if (hinted < x->n)
		__atomic_add_fetch(&sh->hints_checked, 1, __ATOMIC_RELAXED);
	if (hinted < x->n && desc(table, x->stride, hinted)->offset !=
	    desc(table, x->stride, hinted)->hint)
		fail("SUBMIT (constrained): tensor %u's free hint %llu not taken (offset %llu, size %llu, strategy %u, flags %#x, group %u)",
		     hinted,
		     (unsigned long long)desc(table, x->stride, hinted)->hint,
		     (unsigned long long)desc(table, x->stride, hinted)->offset,
		     (unsigned long long)desc(table, x->stride, hinted)->size,
		     req->strategy, req->flags, req->group);
}

/*
 * The one hinted tensor, if its hint must be taken: with bytes (one
 * without holds none and stays at 0), aligned, not pinned, and its bytes
 * free of every pin at every step; else n.
 */
static uint32_t free_hint(const struct constrained *x)
{
	uint32_t i, h = x->n, count = 0;
	const struct tplan_tensor_desc *d;

	for (i = 0; i < x->n; i++) {
		d = desc(table, x->stride, i);
		if (d->flags & TPLAN_TENSOR_HAS_HINT) {
			h = i;
			count++;
		}
	}
	if (count != 1)
		return x->n;
	d = desc(table, x->stride, h);
	if ((d->flags & TPLAN_TENSOR_FIXED_OFFSET) || !d->size || d->hint % d->alignment ||
	    d->hint > (1ULL << 40))
		return x->n;
	for (i = 0; i < x->n; i++) {
		const struct tplan_tensor_desc *p = desc(table, x->stride, i);

		if ((p->flags & TPLAN_TENSOR_FIXED_OFFSET) && p->size &&
		    p->offset < d->hint + d->size && d->hint < p->offset + p->size)
			return x->n;
	}
	return h;
}

/* A valid constrained table: what planning may run into. */
#define PLANNED		(-2)

/*
 * Break the generated table in one way; returns the errno expected, or
 * PLANNED when it stays valid, or 0 to skip the call.
 */
static int break_constrained(struct constrained *x, struct tplan_submit *req,
		       unsigned int how)
{
	struct tplan_tensor_desc *d = desc(table, x->stride, (uint32_t)rnd(x->n));
	uint32_t i, k;
	struct tplan_gap_desc *g;

	switch (how) {
	case 0:	/* two pins on one another's bytes while both are present */
		return pin_onto(x, false) ? EINVAL : 0;
	case 1:	/* the same, but one has a gap over the steps they share */
		if (!pin_onto(x, true))
			return 0;
		req->gaps = (uint64_t)(uintptr_t)x->gaps;
		req->gap_count = x->ngaps;
		req->gap_stride = x->gap_stride;
		return PLANNED;
	case 2:
		make_pinned(x);
		for (i = 0; !(desc(table, x->stride, i)->flags &
			      TPLAN_TENSOR_FIXED_OFFSET); i++)
			;
		d = desc(table, x->stride, i);
		d->alignment = 2ULL << rnd(8);
		d->offset |= 1;
		return EINVAL;
	case 3:	/* a pin whose end is past 2^64 */
		make_pinned(x);
		for (i = 0; !(desc(table, x->stride, i)->flags &
			      TPLAN_TENSOR_FIXED_OFFSET); i++)
			;
		d = desc(table, x->stride, i);
		d->alignment = 1;
		d->size = PAGE + 1 + rnd(PAGE);
		d->offset = UINT64_MAX - rnd(PAGE);
		return EINVAL;
	case 4:	/* a pin beyond every pool: no room */
		make_pinned(x);
		for (i = 0; !(desc(table, x->stride, i)->flags &
			      TPLAN_TENSOR_FIXED_OFFSET); i++)
			;
		d = desc(table, x->stride, i);
		d->alignment = 1;
		d->size = 1 + rnd(PAGE);
		d->gap_count = 0;	/* its windows may be past the new size */
		d->offset = chance(50) ? 64ULL << 20 : 1ULL << (32 + rnd(28));
		req->flags &= ~TPLAN_SUBMIT_DRY_RUN;
		return ENOSPC;
	case 5:
		make_pinned(x);
		if (dev_info.pool_count < 2 || req->group)
			return 0;
		req->flags |= TPLAN_SUBMIT_TIERED;
		return EINVAL;
	case 6:	/* search takes pins and gaps too, and leaves hints be */
		make_constrained(x);
		req->strategy = TPLAN_STRATEGY_ID_SEARCH;
		req->budget = 1000 + rnd(60000);
		return PLANNED;
	case 7:
		make_constrained(x);
		if (x->n < 2)
			return 0;
		desc(table, x->stride, 1 + (uint32_t)rnd(x->n - 1))->model ^= 1 + (uint32_t)rnd(7);
		return EINVAL;
	case 8:
		make_constrained(x);
		d->share_key = 1 + rnd(8);
		return EINVAL;
	case 9:	/* gaps past the end of the array */
		d->gap_count = 1 + (uint32_t)rnd(4);
		d->gap_first = x->ngaps + 1 - d->gap_count + (uint32_t)rnd(1000);
		if (chance(20))
			d->gap_first = UINT32_MAX - (uint32_t)rnd(3);
		return EINVAL;
	case 10: /* every gap named by every tensor: more than 16 per tensor */
		if (x->n < 2)
			return 0;
		x->ngaps = TPLAN_MAX_GAPS_PER_TENSOR + 1 +
			   (uint32_t)rnd(TPLAN_MAX_GAPS_PER_TENSOR * (x->n - 1));
		for (i = 0; i < x->n; i++) {
			d = desc(table, x->stride, i);
			d->gap_first = 0;
			d->gap_count = x->ngaps;
		}
		req->gaps = (uint64_t)(uintptr_t)x->gaps;
		req->gap_count = x->ngaps;
		req->gap_stride = x->gap_stride;
		return E2BIG;
	case 11: /* more gaps in the array than 16 per tensor */
		req->gap_count = TPLAN_MAX_GAPS_PER_TENSOR * x->n + 1 +
				 (uint32_t)(chance(50) ? rnd(100) : rnd(UINT32_MAX - FIX_MAX_GAPS));
		return E2BIG;
	case 12: /* two gaps overlapping, or out of order */
		i = with_gaps(x, 2);
		if (i == x->n)
			return 0;
		d = desc(table, x->stride, i);
		k = d->gap_first + (uint32_t)rnd(d->gap_count - 1);
		g = gap_at(x, k + 1);
		if (chance(50)) {
			g->lower = gap_at(x, k)->upper - 1 - rnd(gap_at(x, k)->upper -
						     gap_at(x, k)->lower);
		} else {	/* swapped */
			struct tplan_gap_desc tmp = *gap_at(x, k);

			*gap_at(x, k) = *g;
			*g = tmp;
		}
		return EINVAL;
	case 13: /* a gap outside the lifetime */
		i = with_gaps(x, 1);
		if (i == x->n)
			return 0;
		d = desc(table, x->stride, i);
		k = d->gap_first + d->gap_count - 1;
		if (chance(50) || !d->lower)
			gap_at(x, k)->upper = d->upper + 1 + rnd(3);
		else
			gap_at(x, d->gap_first)->lower = d->lower - 1 - rnd(d->lower);
		return EINVAL;
	case 14: /* an empty gap */
		i = with_gaps(x, 1);
		if (i == x->n)
			return 0;
		d = desc(table, x->stride, i);
		g = gap_at(x, d->gap_first + (uint32_t)rnd(d->gap_count));
		g->upper = g->lower - rnd(2);
		return EINVAL;
	case 15: /* a window reversed, beyond the size, or without its flag */
		i = with_gaps(x, 1);
		if (i == x->n)
			return 0;
		d = desc(table, x->stride, i);
		g = gap_at(x, d->gap_first + (uint32_t)rnd(d->gap_count));
		k = (uint32_t)rnd(3);
		g->flags = k < 2 ? TPLAN_GAP_HAS_WINDOW : 0;
		if (k == 0) {
			g->to = rnd(d->size + 1);
			g->from = g->to + 1 + rnd(100);
		} else {
			g->from = k == 1 ? rnd(d->size + 1) : rnd(d->size + 1) * chance(50);
			g->to = d->size + 1 + rnd(1000);
		}
		return EINVAL;
	case 16: /* unknown gap flags or padding, named or not */
		if (!x->ngaps)
			return 0;
		g = gap_at(x, (uint32_t)rnd(x->ngaps));
		if (chance(50))
			g->flags |= 1u << (1 + rnd(31));
		else
			g->pad = 1 + (uint32_t)rnd(UINT32_MAX);
		return EINVAL;
	case 17: /* a bad gap stride */
		if (!x->ngaps)
			return 0;
		k = (uint32_t)rnd(3);
		req->gap_stride = k == 0 ? (uint32_t)rnd(TPLAN_GAP_DESC_SIZE_VER1) :
				  k == 1 ? TPLAN_GAP_DESC_SIZE_VER1 + 1 + (uint32_t)rnd(7) +
					   8 * (uint32_t)rnd(8) :
				  TPLAN_TENSOR_DESC_MAX_STRIDE + 8 + 8 * (uint32_t)rnd(1000);
		return EINVAL;
	case 18: /* a byte past the gap descriptor this kernel knows */
		if (!x->ngaps || x->gap_stride == TPLAN_GAP_DESC_SIZE_VER1)
			return 0;
		g = gap_at(x, (uint32_t)rnd(x->ngaps));
		((uint8_t *)g)[TPLAN_GAP_DESC_SIZE_VER1 +
			       rnd(x->gap_stride - TPLAN_GAP_DESC_SIZE_VER1)] =
			1 + (uint8_t)rnd(255);
		return E2BIG;
	case 19: /* gaps that cannot be read */
		if (!x->ngaps)
			return 0;
		switch (rnd(3)) {
		case 0: req->gaps = 0; break;
		case 1: req->gaps = 0xffff800000000000ULL + rnd(1ULL << 40); break;
		default:	/* running into the guard page */
			req->gaps = (uint64_t)(uintptr_t)(gapbuf + GAP_BYTES -
				(size_t)(x->ngaps - 1) * x->gap_stride -
				8 * rnd(TPLAN_GAP_DESC_SIZE_VER1 / 8));
			memset(gapbuf + GAP_BYTES - (size_t)(x->ngaps - 1) * x->gap_stride,
			       0, (size_t)(x->ngaps - 1) * x->gap_stride);
			break;
		}
		return EFAULT;
	case 20: /* a gap pointer or stride without gaps */
		for (i = 0; i < x->n; i++)
			desc(table, x->stride, i)->gap_count = 0;
		req->gap_count = 0;
		if (chance(50))
			req->gaps = (uint64_t)(uintptr_t)x->gaps;
		else
			req->gap_stride = TPLAN_GAP_DESC_SIZE_VER1;
		return EINVAL;
	case 21: /* gap_first anywhere with gap_count 0: nothing named */
		d->gap_count = 0;
		d->gap_first = (uint32_t)rnd64();
		return PLANNED;
	case 22: /* a table with gaps that no tensor names */
		for (i = 0; i < x->n; i++) {
			d = desc(table, x->stride, i);
			d->gap_count = 0;
			d->flags = 0;
		}
		req->strategy = TPLAN_STRATEGY_ID_SEARCH;
		req->budget = 1000 + rnd(60000);
		return PLANNED;
	default:
		return PLANNED;
	}
}

/* Whether any tensor of the table is pinned. */
static bool any_pinned(const struct constrained *x)
{
	uint32_t i;

	for (i = 0; i < x->n; i++)
		if (desc(table, x->stride, i)->flags & TPLAN_TENSOR_FIXED_OFFSET)
			return true;
	return false;
}

/*
 * A table of one model with pins, hints and gaps, valid or broken in one
 * way (break_constrained()); a plan's pinned tensors must be where they were
 * pinned, and a free hint taken.
 */
void op_submit_constrained(void)
{
	struct constrained x;
	struct tplan_submit req;
	unsigned int how = (unsigned int)rnd(30);
	uint32_t i, hinted;
	struct plan *p;
	struct file *f;
	char what[64];
	int fd, expect, r;

	f = file_of_fd_index(&fd);
	if (!f || !gapbuf_get())
		return;
	x.n = 1 + (uint32_t)rnd(FIX_MAX_N);
	x.stride = TPLAN_TENSOR_DESC_SIZE_VER2 + 8 * (uint32_t)(chance(80) ? 0 : rnd(8));
	if (chance(3))
		x.stride = TPLAN_TENSOR_DESC_MAX_STRIDE;
	x.gap_stride = TPLAN_GAP_DESC_SIZE_VER1 + 8 * (uint32_t)(chance(70) ? 0 : 1 + rnd(8));
	x.gaps = gapbuf;
	gen_constrained(&x);
	init_submit(&req, table, x.n, x.stride);
	req.strategy = (uint32_t)rnd(5);
	/* search and auto may spend their whole budget: keep it small */
	if (req.strategy >= TPLAN_STRATEGY_ID_SEARCH ||
	    (req.strategy == TPLAN_STRATEGY_ID_STRIP && chance(30)))
		req.budget = 1000 + rnd(60000);
	if (x.ngaps) {
		req.gaps = (uint64_t)(uintptr_t)x.gaps;
		req.gap_count = x.ngaps;
		req.gap_stride = x.gap_stride;
	}
	if (chance(15))
		req.flags |= TPLAN_SUBMIT_DRY_RUN;
	if (chance(20))
		req.flags |= TPLAN_SUBMIT_SERIAL;
	if (chance(10))
		req.small_below = rnd(8192);
	if (chance(15) && !forked)
		req.group = group_ids[rnd(MAX_GROUPS)];
	expect = break_constrained(&x, &req, how);
	if (!expect)
		return;
	if (!req.group && !any_pinned(&x) && chance(15))
		req.flags |= TPLAN_SUBMIT_TIERED;
	for (i = 0; i < x.n; i++)
		x.pin[i] = desc(table, x.stride, i)->offset;
	/* search (and auto through it) may leave a hint for a lower peak */
	hinted = req.flags & TPLAN_SUBMIT_TIERED ||
		 req.strategy >= TPLAN_STRATEGY_ID_SEARCH ? x.n : free_hint(&x);
	snprintf(what, sizeof(what), "SUBMIT (constrained %u)", how);
	/* planning may also run out of room, or find the file or device full */
	r = submit_table(f, fd, &req, table, x.stride,
			 expect == PLANNED || expect == ENOSPC ? ANY : expect,
			 what, &p);
	if ((expect == PLANNED || expect == ENOSPC) &&
	    r != (expect == PLANNED ? 0 : ENOSPC) && r != ENOSPC &&
	    r != EMFILE && r != ENFILE && r != EINTR && r != ENOMEM)
		fail("%s: expected %s, got %s", what,
		     expect == PLANNED ? "a plan" : "ENOSPC", ename(r));
	if (!r)
		check_constrained_places(&x, &req, hinted);
}
