// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * validate.c - checks a plan without trusting any placement code.
 *
 * A sweep over time keeps the live tensors ordered by offset.  As long as no
 * overlap has been seen, the live ranges are disjoint, so a newborn tensor
 * collides with some live one exactly when it collides with its neighbour
 * just below or just above it in offset order.  The live set is a count tree
 * over the tensors' offset ranks, which answers "next live rank below / above"
 * in O(log n) without recursion.  O(n log n) in all; the three orders the
 * sweep needs are radix sorts (linear), and the sweep yields every
 * %TPLAN_SWEEP_CHECK steps, stopping with -EINTR for a pending signal.
 */
#include "core/gaps.h"
#include "core/key_sort.h"

#define NO_RANK	(~(u32)0)
/*
 * Sweep steps between two looks for a signal (and a yield, in the kernel):
 * a step is a few tree walks, so this is well under a millisecond.
 */
#define TPLAN_SWEEP_CHECK	1024

struct live_set {
	u32 leaves;	/* a power of two >= n */
	u32 *count;	/* count[1] is the root; leaf r is count[leaves + r] */
};

static void live_update(struct live_set *s, u32 rank, int delta)
{
	u32 i;

	for (i = s->leaves + rank; i; i >>= 1)
		s->count[i] += delta;
}

static u32 live_descend(const struct live_set *s, u32 i, bool rightmost)
{
	while (i < s->leaves) {
		u32 prefer = 2 * i + rightmost;

		i = s->count[prefer] ? prefer : 2 * i + !rightmost;
	}
	return i - s->leaves;
}

/* The nearest live rank below (@above false) or above (@above true). */
static u32 live_neighbour(const struct live_set *s, u32 rank, bool above)
{
	u32 i;

	for (i = s->leaves + rank; i > 1; i >>= 1) {
		bool is_right = i & 1;

		if (above && !is_right && s->count[i + 1])
			return live_descend(s, i + 1, false);
		if (!above && is_right && s->count[i - 1])
			return live_descend(s, i - 1, true);
	}
	return NO_RANK;
}

/* What the sweep orders tensors by (ties by index). */
enum sweep_order { BY_LOWER, BY_UPPER, BY_OFFSET };

/*
 * What the sweep walks: a table's tensors (@t) or the pieces of a table
 * with gaps (@p), one of the two.
 */
struct sweep {
	const struct tplan_tensor *t;
	const struct tplan_stretch *p;
	u32 n;
	u32 *born;	/* indices by lower */
	u32 *dead;	/* indices by upper */
	u32 *by_offset;	/* rank -> index */
	u32 *rank;	/* index -> rank */
	struct live_set live;
};

/* Entry @i of the sweep, as a piece: a tensor is one whole. */
static struct tplan_stretch piece_at(const struct sweep *s, u32 i)
{
	const struct tplan_tensor *x;

	if (s->p)
		return s->p[i];
	x = &s->t[i];
	return (struct tplan_stretch){ x->lower, x->upper, x->offset, x->size };
}

static u64 order_value(const struct sweep *s, u32 i, enum sweep_order by)
{
	struct tplan_stretch x = piece_at(s, i);

	return by == BY_LOWER ? x.lower : by == BY_UPPER ? x.upper : x.offset;
}

/*
 * @out: the indices of @t ordered @by, ties by index.  A radix sort
 * (key_sort.c): linear passes, so a table of many pieces (pins with gaps)
 * is not a long comparison sort the caller sized.
 */
static void sort_indices(u32 *out, const struct sweep *s, enum sweep_order by,
			 struct tplan_key *key)
{
	u32 i, n = s->n;

	for (i = 0; i < n; i++) {
		tplan_yield_every(i);
		key[i] = (struct tplan_key){ order_value(s, i, by), i, 0 };
	}
	tplan_key_sort(key, n);
	for (i = 0; i < n; i++) {
		tplan_yield_every(i);
		out[i] = key[i].idx;
	}
}

static bool collides(struct tplan_stretch a, struct tplan_stretch b)
{
	return a.offset < b.offset + b.size && b.offset < a.offset + a.size;
}

/* Returns the index colliding with entry @x, or NO_RANK. */
static u32 insert_live(struct sweep *s, u32 x)
{
	u32 r = s->rank[x], nb;
	int side;

	for (side = 0; side < 2; side++) {
		nb = live_neighbour(&s->live, r, side);
		if (nb != NO_RANK &&
		    collides(piece_at(s, x), piece_at(s, s->by_offset[nb])))
			return s->by_offset[nb];
	}
	live_update(&s->live, r, 1);
	return NO_RANK;
}

static int find_overlap(struct sweep *s, struct tplan_finding *f)
{
	u32 i, j = 0, hit;

	for (i = 0; i < s->n; i++) {
		u32 x = s->born[i];
		struct tplan_stretch born = piece_at(s, x), dead;

		/* a sweep of many pieces yields, and stops for a signal */
		if (!(i % TPLAN_SWEEP_CHECK) && i && tplan_should_stop())
			return -EINTR;
		for (; j < s->n; j++) {
			dead = piece_at(s, s->dead[j]);
			if (dead.upper > born.lower)
				break;
			if (dead.size)
				live_update(&s->live, s->rank[s->dead[j]], -1);
		}
		if (!born.size)
			continue;	/* takes no space, collides with nothing */
		hit = insert_live(s, x);
		if (hit != NO_RANK) {
			f->defect = TPLAN_DEFECT_OVERLAP;
			f->index = hit < x ? hit : x;
			f->other = hit < x ? x : hit;
			return -EINVAL;
		}
	}
	return 0;
}

static void sweep_free(struct sweep *s)
{
	tplan_free(s->born);
	tplan_free(s->dead);
	tplan_free(s->by_offset);
	tplan_free(s->rank);
	tplan_free(s->live.count);
}

static int sweep_init(struct sweep *s, const struct tplan_tensor *t,
		      const struct tplan_stretch *p, u32 n)
{
	struct tplan_key *key;
	u32 i;

	memset(s, 0, sizeof(*s));
	s->t = t;
	s->p = p;
	s->n = n;
	s->live.leaves = 1;
	while (s->live.leaves < n)
		s->live.leaves <<= 1;
	s->born = tplan_alloc_array(n, sizeof(u32));
	s->dead = tplan_alloc_array(n, sizeof(u32));
	s->by_offset = tplan_alloc_array(n, sizeof(u32));
	s->rank = tplan_alloc_array(n, sizeof(u32));
	s->live.count = tplan_alloc_array(2 * (size_t)s->live.leaves, sizeof(u32));
	if (!s->born || !s->dead || !s->by_offset || !s->rank || !s->live.count) {
		sweep_free(s);
		return -ENOMEM;
	}
	tplan_zero(s->live.count, 2 * (size_t)s->live.leaves * sizeof(u32));
	key = tplan_alloc_array(max(n, 1U), sizeof(*key));
	if (!key) {
		sweep_free(s);
		return -ENOMEM;
	}
	sort_indices(s->born, s, BY_LOWER, key);
	sort_indices(s->dead, s, BY_UPPER, key);
	sort_indices(s->by_offset, s, BY_OFFSET, key);
	tplan_free(key);
	for (i = 0; i < n; i++) {
		tplan_yield_every(i);
		s->rank[s->by_offset[i]] = i;
	}
	return 0;
}

static int check_bounds(const struct tplan_tensor *t, u32 n, u64 capacity,
			struct tplan_finding *f)
{
	u32 i;
	u64 end;

	for (i = 0; i < n; i++) {
		f->index = i;
		f->other = i;
		if (t[i].offset & (tplan_alignment(&t[i]) - 1)) {
			f->defect = TPLAN_DEFECT_MISALIGNED;
			return -EINVAL;
		}
		if (check_add_overflow(t[i].offset, t[i].size, &end) ||
		    (capacity && end > capacity)) {
			f->defect = TPLAN_DEFECT_CAPACITY;
			return -EINVAL;
		}
	}
	f->defect = TPLAN_DEFECT_NONE;
	f->index = 0;
	f->other = 0;
	return 0;
}

/* Overlap among the stretches of presence, named by their tensors. */
static int find_overlap_gapped(const struct tplan_tensor *t, u32 n,
			       const struct tplan_gap *gaps,
			       struct tplan_finding *f)
{
	struct tplan_stretch *pieces;
	struct sweep s;
	u32 *of, count, a, b;
	int ret;

	ret = tplan_gap_pieces(t, n, gaps, &pieces, &of, &count);
	if (ret)
		return ret;
	ret = sweep_init(&s, NULL, pieces, count);
	if (!ret) {
		ret = find_overlap(&s, f);
		sweep_free(&s);
	}
	if (ret == -EINVAL) {
		a = of[f->index];
		b = of[f->other];
		f->index = min(a, b);
		f->other = max(a, b);
	}
	tplan_free(pieces);
	tplan_free(of);
	return ret;
}

/**
 * tplan_validate_gaps() - check a plan whose tensors may have gaps
 * @t: the planned tensors
 * @n: how many
 * @gaps: the gaps their gap_first and gap_count index (NULL: none)
 * @gap_count: entries in @gaps
 * @capacity: bytes available; 0 means unlimited
 * @finding: the first defect found (defect NONE if none)
 *
 * As tplan_validate(), and the gaps must pass tplan_check_gaps().  Two
 * tensors overlap when, at some step, both are present in bytes that
 * overlap: during a gap a tensor has only its window's bytes (maybe none).
 * Every tensor must still end within @capacity.
 *
 * Return: 0 for a valid plan, -EINVAL or -EOVERFLOW with @finding filled,
 * -ENOMEM, -E2BIG; in the kernel -EINTR when a signal is pending (a long
 * sweep, the pins of a submit with many gaps, stops for it).
 */
int tplan_validate_gaps(const struct tplan_tensor *t, u32 n,
			const struct tplan_gap *gaps, u32 gap_count,
			u64 capacity, struct tplan_finding *finding)
{
	struct sweep s;
	u32 i;
	int ret;

	ret = tplan_check_table(t, n, finding);
	if (!ret)
		ret = tplan_check_gaps(t, n, gaps, gap_count, finding);
	if (!ret)
		ret = check_bounds(t, n, capacity, finding);
	if (ret)
		return ret;
	for (i = 0; i < n && !t[i].gap_count; i++)
		;
	if (i < n)
		return find_overlap_gapped(t, n, gaps, finding);
	ret = sweep_init(&s, t, NULL, n);
	if (ret)
		return ret;
	ret = find_overlap(&s, finding);
	sweep_free(&s);
	return ret;
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_validate_gaps);

/**
 * tplan_validate() - check a plan
 * @t: the planned tensors
 * @n: how many
 * @capacity: bytes available; 0 means unlimited
 * @finding: the first defect found (defect NONE if none)
 *
 * Checks the table rules (tplan_check_table()), alignment of every offset,
 * that every tensor ends within @capacity, and that no two tensors alive at
 * the same step share an address.  Zero-size tensors collide with nothing.
 * 32 bytes of memory per tensor, O(n log n).
 *
 * Return: 0 for a valid plan, -EINVAL or -EOVERFLOW with @finding filled,
 * -ENOMEM, -EINTR (as tplan_validate_gaps()).  A tensor with gaps is an
 * error (GAP_UNKNOWN):
 * tplan_validate_gaps() checks those.
 */
int tplan_validate(const struct tplan_tensor *t, u32 n, u64 capacity,
		   struct tplan_finding *finding)
{
	return tplan_validate_gaps(t, n, NULL, 0, capacity, finding);
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_validate);
