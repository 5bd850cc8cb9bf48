// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * strategy_search.c - fit a capacity: a depth-first search over canonical
 * placements.
 *
 * Time is cut into sections between consecutive lifetime endpoints; every
 * section has a floor, the top of what is placed there.  Any plan can be
 * settled (each tensor dropped as low as it goes, lowest first) without
 * raising its peak, so it is enough to search settled plans, and those are
 * built bottom-up from valleys: runs of sections of equal floor h whose
 * walls (the floors on either side) are higher.  Nothing crosses a wall
 * below it, so in a settled plan either some tensor whose lifetime lies
 * inside the valley sits at h - place the leftmost such one, and nothing
 * sits at h left of it, so that part is raised to its lower wall - or
 * nothing sits at h in the valley, and the whole valley is raised to its
 * lower wall.  This holds for any valley, not just the lowest, so the
 * search takes the narrowest one (fewest choices first: a narrow valley
 * fails fast when it cannot be filled); every other round also runs again
 * opening the lowest valley first (leftmost of those), which suits other
 * tables.  Each settled plan is reached along
 * exactly one path.
 *
 * Pruning:
 * - a section's slack, capacity - floor - (sizes still to place that live
 *   there), never goes negative; placing a tensor keeps every slack as it
 *   is, so only raising (wasting bytes) is checked;
 * - a valley whose walls can only be reached by wasting more than its
 *   slack is given up at once (valley_can_fill());
 * - dominance: a part raised over an empty gap is pruned when a tensor
 *   still to place fits in that gap whole (the plan would not be settled);
 * - identical tensors are placed in table order only.
 *
 * Restarts: short rounds with different candidate orders, and every other
 * pair of rounds with time mirrored (the valleys then open from the other
 * end), growing slowly.  A round that finishes its tree proves that no plan
 * exists.
 *
 * No recursion: the path is an explicit stack sized up front.  With
 * alignments above 1 the search skips unaligned heights, finds only some
 * plans, and never claims that none exists.
 */
#include "core/key_sort.h"
#include "search_obstacles.h"
#include "search_valleys.h"

#define NONE		(~(u32)0)
#define FLOOR_MAX	TPLAN_U64_MAX
/*
 * Up to this many sections a scan finds the valley to open as fast as the
 * valley tree is kept up to date (measured: on MiniMalloc's E, 430
 * sections, the scan took 31 % of the search's time, the tree 44 %).
 */
#define SEARCH_SCAN_SECTIONS	2048
/*
 * A candidate sorted, per halving, in the rounds' measure (sections read):
 * it decides when a walk of every tensor is cheaper than the sort
 * (right_candidates()).  The meter charges COST_SORT instead.
 */
#define SORT_COMPARE_WORK	32
/*
 * A round's set-up is charged SEARCH_UNIT_SCALE units per tensor and
 * section it passes over.
 */
#define SEARCH_UNIT_SCALE	4

/*
 * What the work meter charges a step, in 1/COST_PER_UNIT of a unit for
 * each thing it did (docs/PLANNER.md, "Work units"): weights fitted to
 * the CPU time of search on 15 tables of unlike shapes, so that a unit
 * costs about what one of the placers does.  The rounds keep their own
 * measure (dfs()), so the weights move no restart.  Reading a bucket
 * entry whose tensor is placed is one byte read in order, its branch
 * predicted; following one up reads the tensor's fields, a cache miss on
 * a large table.  The fill no longer walks its candidates' lifetimes
 * (valley_can_fill()), so those cost nothing here.
 */
enum search_cost {
	COST_PER_UNIT = 64,
	COST_STEP = 80,
	COST_FILL_READ = 40,		/* a bucket entry the fill looked at */
	COST_FILL_ADDED = 28,		/* ... that it added */
	COST_FILL_SECTION = 4,		/* a section of the valley it swept */
	COST_GAP_READ = 1,		/* an entry a dominance check passed */
	COST_GAP_FOLLOWED = 36,		/* ... that it followed up */
	COST_RIGHT_READ = 4,		/* an entry read for a right candidate */
	COST_RIGHT_FOLLOWED = 20,	/* ... that it followed up */
	COST_WALK = 4,			/* a tensor of right_by_walk() */
	COST_SORT = 56,			/* a sorted candidate, per halving */
	COST_SECTION_SCAN = 10,		/* a section pick_valley() scanned */
	COST_VALLEY = 8,		/* a unit of the valley tree's upkeep */
	COST_CANDIDATE = 4,		/* a candidate place_next() tried */
	COST_OBSTACLE = 16,		/* a unit of search_obstacles.c's work */
};

/* Capacity and sizes above this would overflow the signed slack. */
#define SEARCH_MAX_BYTES	(TPLAN_U64_MAX >> 2)

enum frame_state { SCANNING, PLACED, RAISED };

/*
 * One decision: the lowest run [lo, hi) at height h; the candidate placed
 * there (its left part [lo, left_hi) raised to raised_to), or the whole run
 * raised to raised_to; cursor is the next candidate to try.
 */
struct frame {
	u32 lo;
	u32 hi;
	u64 h;
	u64 raised_to;
	u32 cursor;
	u32 placed;
	u32 left_hi;
	u8 state;
	bool raise_tried;
};

/*
 * What valley_can_fill() reads of each bucket entry, next to each other:
 * the tensor's size and end section.  Read from the table's rows and the
 * tensor-indexed arrays they missed the cache on every candidate.
 */
struct bucket_slot {
	u64 size;
	u32 end;
	u32 pad;
};

struct search {
	struct tplan_tensor *t;
	u32 n;
	u64 capacity;
	u32 sections;
	u64 *cut;		/* section s is [cut[s], cut[s + 1]) */
	u32 *first;		/* tensor -> first section */
	u32 *end;		/* tensor -> one past its last section */
	u64 *floor;
	s64 *slack;
	u64 *fill;		/* scratch: bytes that can still fill a valley */
	u32 *order;		/* candidates, by key */
	u32 *bucket_start;	/* section j's tensors: bucket[start[j]..start[j+1]) */
	u32 *bucket;		/* tensors by first section, then by key */
	struct bucket_slot *slot;	/* bucket[k]'s size and end */
	u32 *rank;		/* tensor -> its position in order */
	u64 *right;		/* scratch: candidates right of lo, rank:index */
	u64 *key;		/* this round's sort key per tensor */
	u32 *twin;		/* previous identical tensor, or NONE */
	u8 *placed;
	struct tplan_valleys valleys;	/* the valley to open next */
	u64 valley_work;	/* keeping it up to date, since last charged */
	u64 cost;		/* this step's, in enum search_cost */
	u32 unplaced;
	bool key_order_right;	/* this round sorts the right candidates */
	bool aligned;		/* every alignment is 1: the search is complete */
	bool mirror;		/* this round runs time backwards */
	bool lowest_first;	/* this round opens the lowest valley first */
	struct frame *stack;
	u32 depth;
	u32 max_depth;
	struct tplan_sfx *fx;	/* pins and gaps (search_obstacles.c), or NULL */
};

static int cmp_u64(const void *a, const void *b, const void *priv)
{
	return tplan_cmp_u64(*(const u64 *)a, *(const u64 *)b);
}

/* The index of @v in the sorted, distinct cuts (present by construction). */
static u32 find_cut(const struct search *s, u64 v)
{
	u32 lo = 0, hi = s->sections + 1;

	while (hi - lo > 1) {
		u32 mid = lo + (hi - lo) / 2;

		if (s->cut[mid] <= v)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* By key, largest first; identical tensors end up next to each other. */
static int cmp_candidate(const void *a, const void *b, const void *priv)
{
	const struct search *s = priv;
	const struct tplan_tensor *t = s->t;
	u32 ia = *(const u32 *)a, ib = *(const u32 *)b;
	int c = tplan_cmp_u64(s->key[ib], s->key[ia]);

	if (!c)
		c = tplan_cmp_u64(t[ib].size, t[ia].size);
	if (!c)
		c = tplan_cmp_u64(t[ia].lower, t[ib].lower);
	if (!c)
		c = tplan_cmp_u64(t[ib].upper, t[ia].upper);
	return c ? c : tplan_cmp_u64(ia, ib);
}

static u64 mix(u64 z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * Round r orders the candidates by size, lifetime or area (r % 3), from
 * round 3 on with up to 12% of deterministic noise that depends only on
 * the tensor's shape, so identical tensors stay identical.  (The size
 * rounds also try the candidates right of a valley's start in key order
 * rather than by section: see right_candidates().)
 */
static void order_for_round(struct search *s, u32 round)
{
	u32 i;

	for (i = 0; i < s->n; i++) {
		const struct tplan_tensor *x = &s->t[i];
		u64 life = x->upper - x->lower, key;

		if (round % 3 == 0)
			key = x->size;
		else if (round % 3 == 1)
			key = life;
		else if (check_mul_overflow(life, x->size, &key))
			key = TPLAN_U64_MAX;
		if (round >= 3)
			key -= (key >> 8) * (mix(x->size ^ mix(x->lower ^
				mix(x->upper + round))) % 32);
		s->key[i] = key;
		s->order[i] = i;
	}
	tplan_sort(s->order, s->n, sizeof(*s->order), cmp_candidate, s);
}

static bool identical(const struct tplan_tensor *a,
		      const struct tplan_tensor *b)
{
	return a->size == b->size && a->lower == b->lower &&
	       a->upper == b->upper && tplan_alignment(a) == tplan_alignment(b) &&
	       !a->gap_count && !b->gap_count &&
	       !((a->flags | b->flags) & TPLAN_TENSOR_PINNED);
}

/* Sections from the distinct lifetime endpoints of the non-empty tensors. */
static void build_sections(struct search *s)
{
	u32 i, k = 0, m = 0;

	for (i = 0; i < s->n; i++) {
		if (!s->t[i].size)
			continue;
		s->cut[k++] = s->t[i].lower;
		s->cut[k++] = s->t[i].upper;
	}
	if (s->fx)
		k = tplan_sfx_add_cuts(s->fx, s->cut, k);
	tplan_sort(s->cut, k, sizeof(*s->cut), cmp_u64, NULL);
	for (i = 0; i < k; i++)
		if (!m || s->cut[m - 1] != s->cut[i])
			s->cut[m++] = s->cut[i];
	s->sections = m ? m - 1 : 0;
}

/*
 * Each section's floor (0 where a tensor lives, the capacity elsewhere)
 * and slack (the capacity less the sizes living there).  Built from
 * differences at each tensor's first and end section, so the cost is
 * O(tensors + sections) however long the lifetimes: @floor counts the
 * tensors starting less those ending, @slack their sizes, then both are
 * summed along the sections.
 */
static void init_state(struct search *s)
{
	u64 living = 0;
	s64 sizes = 0;
	u32 i, j;

	for (j = 0; j < s->sections; j++) {
		s->floor[j] = 0;
		s->slack[j] = 0;
	}
	s->unplaced = 0;
	s->aligned = true;
	for (i = 0; i < s->n; i++) {
		s->placed[i] = !s->t[i].size;
		if (s->placed[i]) {
			if (!(s->t[i].flags & TPLAN_TENSOR_PINNED))
				s->t[i].offset = 0;
			continue;
		}
		s->unplaced++;
		s->aligned &= tplan_alignment(&s->t[i]) == 1;
		s->first[i] = find_cut(s, s->t[i].lower);
		s->end[i] = find_cut(s, s->t[i].upper);
		if (s->mirror) {	/* section j becomes sections - 1 - j */
			u32 f0 = s->first[i];

			s->first[i] = s->sections - s->end[i];
			s->end[i] = s->sections - f0;
		}
		if (s->first[i] >= s->end[i])
			continue;
		s->floor[s->first[i]]++;
		s->slack[s->first[i]] -= (s64)s->t[i].size;
		if (s->end[i] < s->sections) {
			s->floor[s->end[i]]--;
			s->slack[s->end[i]] += (s64)s->t[i].size;
		}
	}
	for (j = 0; j < s->sections; j++) {
		living += s->floor[j];
		sizes += s->slack[j];
		s->floor[j] = living ? 0 : s->capacity;
		s->slack[j] = sizes + (s64)(s->capacity - s->floor[j]);
	}
	if (s->fx)
		tplan_sfx_init(s->fx, s->cut, s->sections, s->mirror,
			       s->capacity, &s->unplaced);
	if (s->valleys.node)
		s->valley_work += tplan_valleys_reset(&s->valleys, s->floor,
						      s->capacity,
						      s->lowest_first);
}

static void init_twins(struct search *s)
{
	u32 k, prev = NONE;

	for (k = 0; k < s->n; k++) {
		u32 i = s->order[k];

		s->twin[i] = prev != NONE && identical(&s->t[prev], &s->t[i]) ?
			     prev : NONE;
		prev = i;
	}
}

/*
 * Group the tensors to place by first section, in key order within each
 * group, so that a valley finds its candidates without a scan of all.
 */
static void init_buckets(struct search *s)
{
	u32 j, k;

	for (j = 0; j <= s->sections; j++)
		s->bucket_start[j] = 0;
	for (k = 0; k < s->n; k++)
		if (s->t[k].size)
			s->bucket_start[s->first[k] + 1]++;
	for (j = 0; j < s->sections; j++)
		s->bucket_start[j + 1] += s->bucket_start[j];
	for (k = 0; k < s->n; k++) {
		u32 i = s->order[k], at;

		s->rank[i] = k;
		if (!s->t[i].size)
			continue;
		at = s->bucket_start[s->first[i]]++;
		s->bucket[at] = i;
		s->slot[at].size = s->t[i].size;
		s->slot[at].end = s->end[i];
		s->slot[at].pad = 0;
	}
	for (j = s->sections; j > 0; j--)
		s->bucket_start[j] = s->bucket_start[j - 1];
	s->bucket_start[0] = 0;
}

static u64 wall(const struct search *s, u32 lo, u32 hi)
{
	u64 left = lo ? s->floor[lo - 1] : FLOOR_MAX;
	u64 right = hi < s->sections ? s->floor[hi] : FLOOR_MAX;

	return left < right ? left : right;
}

/*
 * Below its lower wall a valley can only be filled by tensors that live
 * inside it: where they cannot fill it, bytes are wasted, and the slack must
 * cover that.  False when it cannot.  Charged the candidates' lifetimes
 * (the rounds count by them), costs the candidates and the valley's width:
 * each adds its size where it starts and takes it off where it ends, and
 * one sweep sums them.
 */
static bool valley_can_fill(struct search *s, const struct frame *f,
			    u64 *scanned)
{
	u64 top = wall(s, f->lo, f->hi), need, lives = 0, sum = 0;
	u32 j, k, added = 0;

	if (top > s->capacity)
		top = s->capacity;
	need = top - f->h;
	/* s->fill has a slot past the last section */
	for (j = f->lo; j <= f->hi; j++)
		s->fill[j] = 0;
	for (j = f->lo; j < f->hi; j++) {
		for (k = s->bucket_start[j]; k < s->bucket_start[j + 1]; k++) {
			const struct bucket_slot *b = &s->slot[k];

			if (b->end > f->hi || s->placed[s->bucket[k]])
				continue;
			s->fill[j] += b->size;
			s->fill[b->end] -= b->size;
			lives += b->end - j;
			added++;
		}
	}
	for (j = f->lo; j < f->hi; j++) {
		sum += s->fill[j];
		s->fill[j] = sum;
	}
	*scanned += lives;
	if (unlikely(s->fx))	/* presence, not sizes; and the pins */
		tplan_sfx_fill(s->fx, s->bucket + s->bucket_start[f->lo],
			       s->bucket_start[f->hi] - s->bucket_start[f->lo],
			       f->lo, f->hi, f->h, top, s->fill);
	*scanned += s->bucket_start[f->hi] - s->bucket_start[f->lo];
	s->cost += COST_FILL_READ *
		   (u64)(s->bucket_start[f->hi] - s->bucket_start[f->lo]) +
		   COST_FILL_ADDED * (u64)added +
		   COST_FILL_SECTION * (u64)(f->hi - f->lo + 1);
	for (j = f->lo; j < f->hi; j++)
		if (s->fill[j] < need && s->slack[j] < (s64)(need - s->fill[j]))
			return false;
	return true;
}

/*
 * The narrowest valley, or with lowest_first the lowest (leftmost of
 * those): a run of equal floor below capacity whose walls are higher.
 * On few sections a scan of them (charged by the caller), as fast as the
 * tree's upkeep there; on more, read from the valley tree.
 */
static bool pick_valley(struct search *s, struct frame *f)
{
	u32 lo = 0, hi;
	u64 best = FLOOR_MAX;

	if (s->valleys.node) {
		if (!tplan_valleys_best(&s->valleys, &f->lo, &f->hi,
					&s->valley_work))
			return false;
		f->h = s->floor[f->lo];
		return true;
	}
	while (lo < s->sections) {
		u64 h = s->floor[lo], score;

		for (hi = lo + 1; hi < s->sections && s->floor[hi] == h; hi++)
			;
		score = s->lowest_first ? h : hi - lo;
		if (h < s->capacity && score < best &&
		    (!lo || s->floor[lo - 1] > h) &&
		    (hi == s->sections || s->floor[hi] > h)) {
			best = score;
			f->lo = lo;
			f->hi = hi;
			f->h = h;
		}
		lo = hi;
	}
	return best != FLOOR_MAX;
}

/*
 * Open a frame on a valley; false when every section is full or the valley
 * cannot be filled without more waste than its slack.
 */
static bool open_frame(struct search *s, struct frame *f, u64 *scanned)
{
	if (!s->valleys.node) {
		*scanned += s->sections;
		s->cost += COST_SECTION_SCAN * (u64)s->sections;
	}
	if (!pick_valley(s, f))
		return false;
	f->cursor = 0;
	f->placed = NONE;
	f->state = SCANNING;
	f->raise_tried = false;
	return valley_can_fill(s, f, scanned);
}

/* The floors of [lo, hi) have changed: tell the valley tree, if any. */
static void floors_changed(struct search *s, u32 lo, u32 hi)
{
	if (s->valleys.node)
		tplan_valleys_changed(&s->valleys, lo, hi);
}

/* Raise [lo, hi) from h to @to (<= capacity) if all have the slack. */
static bool raise(struct search *s, u32 lo, u32 hi, u64 h, u64 to)
{
	u32 j;

	for (j = lo; j < hi; j++)
		if (s->slack[j] < (s64)(to - h))
			return false;
	for (j = lo; j < hi; j++) {
		s->slack[j] -= (s64)(to - h);
		s->floor[j] = to;
	}
	floors_changed(s, lo, hi);
	return true;
}

static void lower(struct search *s, u32 lo, u32 hi, u64 from, u64 h)
{
	u32 j;

	for (j = lo; j < hi; j++) {
		s->slack[j] += (s64)(from - h);
		s->floor[j] = h;
	}
	floors_changed(s, lo, hi);
}

static void set_placed(struct search *s, u32 i, bool on)
{
	const struct tplan_tensor *x = &s->t[i];
	u32 j;

	for (j = s->first[i]; j < s->end[i]; j++)
		s->floor[j] = on ? s->floor[j] + x->size : s->floor[j] - x->size;
	floors_changed(s, s->first[i], s->end[i]);
	s->placed[i] = on;
	if (on)
		s->unplaced--;
	else
		s->unplaced++;
}

/*
 * Dominance: a run [lo, hi) left empty from @h up to @to is only part of a
 * settled plan when no tensor still to place fits in it whole: that tensor
 * would drop into the gap.  True when one does (the branch is pruned).
 */
static bool gap_takes_one(struct search *s, u32 lo, u32 hi, u64 h,
			  u64 to, u64 *scanned)
{
	u32 k, followed = 0;
	bool takes = false;

	*scanned += s->bucket_start[hi] - s->bucket_start[lo];
	for (k = s->bucket_start[lo]; k < s->bucket_start[hi]; k++) {
		u32 i = s->bucket[k];

		if (s->placed[i])
			continue;
		followed++;
		if (s->end[i] <= hi && s->t[i].size <= to - h &&
		    !(h & (tplan_alignment(&s->t[i]) - 1))) {
			takes = true;
			break;
		}
	}
	s->cost += COST_GAP_READ * (u64)(k - s->bucket_start[lo]) +
		   COST_GAP_FOLLOWED * (u64)followed;
	return takes;
}

static bool fits(const struct search *s, const struct frame *f, u32 i)
{
	const struct tplan_tensor *x = &s->t[i];

	return !s->placed[i] && s->first[i] >= f->lo && s->end[i] <= f->hi &&
	       (s->twin[i] == NONE || s->placed[s->twin[i]]) &&
	       x->size <= s->capacity - f->h && !(f->h & (tplan_alignment(x) - 1));
}

/* How often a sort of @count halves it: floor(log2(@count)), 0 for 0. */
static u32 sort_halvings(u32 count)
{
	return tplan_bits(count) - 1;
}

/*
 * Sorting @count candidates: about count x log2(count) comparisons, each
 * worth SORT_COMPARE_WORK sections read.  On few sections every step is
 * charged a scan of all of them (pick_valley()), which covers its sort;
 * there it stays at 2 per candidate, as it always was, so that plans there
 * do not change.
 */
static u64 sort_work(const struct search *s, u32 count)
{
	if (!s->valleys.node)
		return 2 * (u64)count;
	return SORT_COMPARE_WORK * (u64)count * sort_halvings(count);
}

/*
 * The same candidates, in key order, from a walk of every tensor in that
 * order: on large tables cheaper than sorting a wide valley's many.
 */
static u32 right_by_walk(struct search *s, const struct frame *f)
{
	u32 k, count = 0;

	s->cost += COST_WALK * (u64)s->n;
	for (k = 0; k < s->n; k++) {
		u32 i = s->order[k];

		if (!s->placed[i] && s->first[i] > f->lo &&
		    s->first[i] < f->hi && s->end[i] <= f->hi)
			s->right[count++] = i;
	}
	return count;
}

/*
 * Candidates of valley @f that start right of its first section, into
 * s->right, by section (leftmost first) or, in some rounds, in key order;
 * their number.  Recomputed on every visit of the
 * frame (the state is the same each time), so one scratch array serves
 * every depth.
 */
static u32 right_candidates(struct search *s, const struct frame *f,
			    u64 *scanned)
{
	u32 k, count = 0, followed = 0;

	if (f->lo + 1 >= f->hi)
		return 0;
	for (k = s->bucket_start[f->lo + 1]; k < s->bucket_start[f->hi]; k++) {
		u32 i = s->bucket[k];

		if (s->placed[i])
			continue;
		followed++;
		/* ranks are distinct: the words sort as the ranks do */
		if (s->end[i] <= f->hi)
			s->right[count++] = (u64)s->rank[i] << 32 | i;
	}
	*scanned += s->bucket_start[f->hi] - s->bucket_start[f->lo + 1];
	s->cost += COST_RIGHT_READ * (u64)(s->bucket_start[f->hi] -
					   s->bucket_start[f->lo + 1]) +
		   COST_RIGHT_FOLLOWED * (u64)followed;
	if (!s->key_order_right)
		return count;
	if (s->valleys.node && sort_work(s, count) > s->n) {
		*scanned += s->n;
		return right_by_walk(s, f);
	}
	tplan_u64_heapsort(s->right, count);
	*scanned += sort_work(s, count);
	s->cost += COST_SORT * (u64)count * sort_halvings(count);
	return count;
}

/*
 * The candidate at cursor position @c of valley @f, or NONE past the end.
 * Candidates come in three passes: tensors starting where the valley starts
 * and filling its width, those starting there, then those starting further
 * right; each pass in key order.  @nright: right_candidates() of @f.
 */
static u32 candidate_at(const struct search *s, const struct frame *f, u32 c,
			u32 nright)
{
	u32 first = s->bucket_start[f->lo];
	u32 len = s->bucket_start[f->lo + 1] - first;
	u32 i;

	if (c < 2 * len) {
		bool fills_width, first_pass = c < len;

		i = s->bucket[first + c % len];
		fills_width = s->end[i] == f->hi;
		if (fills_width != first_pass)
			return NONE - 1;	/* not in this pass: skip */
		return i;
	}
	c -= 2 * len;
	return c < nright ? (u32)s->right[c] : NONE;
}

/*
 * Place the next candidate of @f at its height and raise the run's part
 * left of it; false when no candidate is left.  @scanned counts the work.
 */
static bool place_next(struct search *s, struct frame *f, u64 *scanned)
{
	u32 i, nright = right_candidates(s, f, scanned);

	for (; (i = candidate_at(s, f, f->cursor, nright)) != NONE; f->cursor++) {
		u64 to;

		(*scanned)++;
		s->cost += COST_CANDIDATE;
		if (i == NONE - 1 || !fits(s, f, i))
			continue;
		if (s->fx && tplan_sfx_collides(s->fx, i, f->h))
			continue;
		to = f->lo ? s->floor[f->lo - 1] : FLOOR_MAX;
		if (to > f->h + s->t[i].size)
			to = f->h + s->t[i].size;
		if (s->fx)
			to = tplan_sfx_cap(s->fx, f->lo, s->first[i], f->h,
					   min(to, f->h +
					       tplan_sfx_first_top(s->fx, i)));
		if (s->first[i] > f->lo &&
		    gap_takes_one(s, f->lo, s->first[i], f->h, to, scanned))
			continue;
		if (!raise(s, f->lo, s->first[i], f->h, to))
			continue;
		s->t[i].offset = f->h;
		set_placed(s, i, true);
		if (unlikely(s->fx)) {	/* floors by presence, over pins */
			tplan_sfx_absorb(s->fx, f->lo, s->first[i]);
			tplan_sfx_set_placed(s->fx, i, true);
		}
		f->placed = i;
		f->left_hi = s->first[i];
		f->raised_to = to;
		f->cursor++;
		return true;
	}
	return false;
}

static void undo(struct search *s, struct frame *f)
{
	if (f->state == PLACED) {
		set_placed(s, f->placed, false);
		if (unlikely(s->fx))
			tplan_sfx_set_placed(s->fx, f->placed, false);
		lower(s, f->lo, f->left_hi, f->raised_to, f->h);
	} else if (f->state == RAISED) {
		lower(s, f->lo, f->hi, f->raised_to, f->h);
	}
	f->state = SCANNING;
}

/* Advance the top frame: a child to push (true), or the frame is spent. */
static bool step(struct search *s, struct frame *f, u64 *scanned)
{
	undo(s, f);
	if (f->raise_tried)
		return false;
	if (place_next(s, f, scanned)) {
		f->state = PLACED;
		return true;
	}
	f->raise_tried = true;
	f->raised_to = wall(s, f->lo, f->hi);
	if (s->fx)
		f->raised_to = tplan_sfx_cap(s->fx, f->lo, f->hi, f->h,
					     f->raised_to);
	if (f->raised_to == FLOOR_MAX)
		return false;	/* the run spans all time: nowhere to go */
	if (f->raised_to > s->capacity)
		f->raised_to = s->capacity;
	if (gap_takes_one(s, f->lo, f->hi, f->h, f->raised_to, scanned))
		return false;
	if (!raise(s, f->lo, f->hi, f->h, f->raised_to))
		return false;
	if (unlikely(s->fx))
		tplan_sfx_absorb(s->fx, f->lo, f->hi);
	f->state = RAISED;
	return true;
}

/*
 * Returns 1 when a plan fits, 0 when none does, -EAGAIN when the round has
 * spent @round_units (its own measure of steps and scans, apart from what
 * the work meter charges, so that calibrating the charges leaves the
 * rounds as they are) after at least @min_steps steps, or the meter's
 * negative errno.
 */
static int dfs(struct search *s, struct tplan_work *w, u64 round_units,
	       u64 min_steps)
{
	u64 scanned, steps = 0, spent = 0;
	int ret;

	if (!s->unplaced)
		return 1;
	s->depth = 0;
	scanned = 0;
	if (!open_frame(s, &s->stack[s->depth++], &scanned))
		return 0;
	while (s->depth) {
		struct frame *f = &s->stack[s->depth - 1];

		scanned = 0;
		s->cost = COST_STEP;
		if (!step(s, f, &scanned))
			s->depth--;
		else if (!s->unplaced)
			return 1;
		else if (s->depth == s->max_depth)
			/* cannot happen without pins: see max_depth */
			return s->fx ? -EAGAIN : -E2BIG;
		else if (open_frame(s, &s->stack[s->depth], &scanned))
			s->depth++;
		if (s->fx) {
			scanned += s->fx->work;
			s->cost += COST_OBSTACLE * s->fx->work;
			s->fx->work = 0;
		}
		/* the valley tree's upkeep, as it was done */
		scanned += s->valley_work;
		s->cost += COST_VALLEY * s->valley_work;
		s->valley_work = 0;
		spent += 1 + scanned / 16;
		ret = tplan_work_charge(w, s->cost / COST_PER_UNIT);
		if (ret)
			return ret;
		if (++steps >= min_steps && spent >= round_units)
			return -EAGAIN;
	}
	return 0;
}

/* Length of round r: doubling every 8 rounds, from 2^17 (dfs()'s units). */
static u64 round_work(u32 round)
{
	u32 shift = 17 + round / 8;

	return 1ull << (shift < 40 ? shift : 40);
}

/*
 * Steps for round r, whatever they cost: 4 per tensor, doubling every 8
 * rounds.  On wide tables (training graphs: a step scans hundreds of
 * candidates) the units alone would end every early round before its first
 * descent reached the bottom, and only the late, long rounds could fit.
 */
static u64 round_steps(const struct search *s, u32 round)
{
	u32 shift = round / 8;

	return (u64)s->n * 4 << (shift < 24 ? shift : 24);
}

/* One round: its orders, its direction, its share of work. */
static int one_round(struct search *s, struct tplan_work *w, u32 round,
		     bool lowest_first)
{
	/* Setting a round up costs about a pass over every tensor. */
	int ret = tplan_work_charge_ahead(w, SEARCH_UNIT_SCALE *
					     (2 * (u64)s->n + s->sections));

	if (ret)
		return ret;
	if (unlikely(s->fx) && !tplan_sfx_round(s->fx, round))
		return -EAGAIN;	/* this round's way of seeing gaps is done */
	s->mirror = (round / 2) & 1;
	s->lowest_first = lowest_first;
	init_state(s);
	order_for_round(s, round);
	init_twins(s);
	init_buckets(s);
	s->key_order_right = round % 3 == 0;
	ret = dfs(s, w, round_work(round), round_steps(s, round));
	if (unlikely(s->fx) && !ret)
		ret = tplan_sfx_tree_done(s->fx);
	return ret;
}

/*
 * Restarts: a depth-first search is only as good as its first choices, and
 * runs either succeed quickly or wander; short rounds with different
 * candidate orders, growing slowly, find far more plans.  Rounds 2-3, 6-7,
 * ... run time backwards: many tables are easy from one end only.  A round
 * that finishes its tree proves that no plan exists.
 */
static int search_rounds(struct search *s, struct tplan_work *w)
{
	u32 round, j;
	int ret = -EAGAIN;

	/* Slack is signed: give up on tables whose bytes do not fit in it. */
	if (s->capacity > SEARCH_MAX_BYTES ||
	    tplan_naive_total(s->t, s->n) > SEARCH_MAX_BYTES)
		return -ERANGE;
	init_state(s);
	for (j = 0; j < s->sections; j++)
		if (s->slack[j] < 0)
			return 0;	/* below the lower bound */

	for (round = 0; ret == -EAGAIN; round++) {
		ret = one_round(s, w, round, false);
		/* every other round also opens the lowest valleys first */
		if (ret == -EAGAIN && round % 2 == 1)
			ret = one_round(s, w, round, true);
	}
	return ret;
}

static void search_free(struct search *s)
{
	tplan_free(s->cut);
	tplan_free(s->first);
	tplan_free(s->end);
	tplan_free(s->floor);
	tplan_free(s->slack);
	tplan_free(s->fill);
	tplan_free(s->order);
	tplan_free(s->bucket_start);
	tplan_free(s->bucket);
	tplan_free(s->slot);
	tplan_free(s->rank);
	tplan_free(s->right);
	tplan_free(s->key);
	tplan_free(s->twin);
	tplan_free(s->placed);
	tplan_free(s->stack);
	tplan_valleys_free(&s->valleys);
}

static int search_alloc(struct search *s, struct tplan_tensor *t, u32 n,
			u64 capacity, struct tplan_sfx *fx)
{
	/* gaps add cuts (and sections); pins add raises that split runs */
	size_t cuts = 2 * (size_t)n + 1 + (fx ? tplan_sfx_extra_cuts(fx) : 0);

	memset(s, 0, sizeof(*s));
	s->t = t;
	s->n = n;
	s->capacity = capacity;
	s->fx = fx;
	/* Depth: n placements plus raises; a raise merges two runs and a
	 * placement adds at most two, so raises stay under 2n + sections.
	 * With pins a raise may stop under one instead: dfs() then ends
	 * the round at max_depth.
	 */
	s->max_depth = 5 * n + 2;
	if (fx && 5 * (u64)n + 2 * (cuts + fx->seg_cap) < 0xfffffff0ull)
		s->max_depth += 2 * (cuts + fx->seg_cap);
	s->cut = tplan_alloc_array(cuts, sizeof(*s->cut));
	s->first = tplan_alloc_array(n, sizeof(*s->first));
	s->end = tplan_alloc_array(n, sizeof(*s->end));
	s->floor = tplan_alloc_array(cuts, sizeof(*s->floor));
	s->slack = tplan_alloc_array(cuts, sizeof(*s->slack));
	s->fill = tplan_alloc_array(cuts, sizeof(*s->fill));
	s->order = tplan_alloc_array(n, sizeof(*s->order));
	s->key = tplan_alloc_array(n, sizeof(*s->key));
	s->bucket_start = tplan_alloc_array(cuts + 1,
					    sizeof(*s->bucket_start));
	s->bucket = tplan_alloc_array(n, sizeof(*s->bucket));
	s->slot = tplan_alloc_array(n, sizeof(*s->slot));
	s->rank = tplan_alloc_array(n, sizeof(*s->rank));
	s->right = tplan_alloc_array(n, sizeof(*s->right));
	s->twin = tplan_alloc_array(n, sizeof(*s->twin));
	s->placed = tplan_alloc_array(n, sizeof(*s->placed));
	s->stack = tplan_alloc_array(s->max_depth, sizeof(*s->stack));
	if (!s->cut || !s->first || !s->end || !s->floor || !s->slack || !s->fill ||
	    !s->order || !s->key || !s->bucket_start || !s->bucket ||
	    !s->slot || !s->rank ||
	    !s->right || !s->twin || !s->placed || !s->stack) {
		search_free(s);
		return -ENOMEM;
	}
	if (fx) {
		fx->floor = s->floor;
		fx->slack = s->slack;
		fx->first = s->first;
		fx->end = s->end;
		fx->placed = s->placed;
	}
	build_sections(s);
	/* pins and gaps change floors in search_obstacles.c: those scan */
	if (!fx && s->sections > SEARCH_SCAN_SECTIONS &&
	    tplan_valleys_alloc(&s->valleys, s->sections)) {
		search_free(s);
		return -ENOMEM;
	}
	return 0;
}

/*
 * The pins and gaps of a table that has some (*fx stays NULL otherwise);
 * TPLAN_SEARCH_GAVE_UP when a pin alone ends above @capacity or the gaps
 * need too many stretches.
 */
static int obstacles_alloc(struct tplan_tensor *t, u32 n,
			   const struct tplan_gap *gaps, u64 capacity,
			   struct tplan_sfx **fx)
{
	int ret;

	*fx = NULL;
	if (!tplan_sfx_needed(t, n))
		return 0;
	*fx = tplan_alloc_array(1, sizeof(**fx));
	if (!*fx)
		return -ENOMEM;
	ret = tplan_sfx_alloc(*fx, t, n, gaps);
	if (ret) {
		tplan_free(*fx);
		*fx = NULL;
		return ret == -E2BIG ? TPLAN_SEARCH_GAVE_UP : ret;
	}
	return tplan_sfx_pins_fit(*fx, capacity) ? 0 : TPLAN_SEARCH_GAVE_UP;
}

static void obstacles_free(struct tplan_sfx *fx)
{
	if (fx)
		tplan_sfx_free(fx);
	tplan_free(fx);
}

/**
 * tplan_search_fit() - look for a plan that fits a capacity
 * @t: the tensors, already checked; offsets are written only on success
 * @n: how many
 * @capacity: the peak to fit under
 * @gaps: the tensors' gaps (NULL when none has any)
 * @w: the work meter
 *
 * Pinned tensors stay where they are (search_obstacles.c); hints are not
 * looked at.
 *
 * Memory: about 210 bytes per tensor (mostly the explicit stack); with
 * pins or gaps 28 more per tensor and about 200 per gap; else at most 16
 * more for the valley tree past 2048 sections.
 *
 * Return: %TPLAN_SEARCH_FIT, %TPLAN_SEARCH_IMPOSSIBLE (only claimed when
 * every alignment is 1 and no tensor is pinned or has gaps),
 * %TPLAN_SEARCH_GAVE_UP (alignment, pins or gaps made the search
 * incomplete, or the capacity or the bytes of the table reach 2^62, past
 * what its signed slack holds), or a negative errno: -ETIMEDOUT / -EINTR from the work
 * meter, -ENOMEM, -E2BIG.
 */
int tplan_search_fit(struct tplan_tensor *t, u32 n, u64 capacity,
		     const struct tplan_gap *gaps, struct tplan_work *w)
{
	struct tplan_sfx *fx = NULL;
	struct search s;
	u64 *saved;
	u32 i;
	int ret;

	saved = tplan_alloc_array(n, sizeof(*saved));
	if (!saved)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		saved[i] = t[i].offset;
	ret = obstacles_alloc(t, n, gaps, capacity, &fx);
	if (!ret)
		ret = search_alloc(&s, t, n, capacity, fx);
	if (!ret) {
		ret = search_rounds(&s, w);
		if (ret == -ERANGE)
			ret = TPLAN_SEARCH_GAVE_UP;
		else if (ret == 0)
			ret = s.aligned && !fx ? TPLAN_SEARCH_IMPOSSIBLE :
						 TPLAN_SEARCH_GAVE_UP;
		else if (ret == 1)
			ret = TPLAN_SEARCH_FIT;
		search_free(&s);
	}
	obstacles_free(fx);
	if (ret != TPLAN_SEARCH_FIT)
		for (i = 0; i < n; i++)
			t[i].offset = saved[i];
	tplan_free(saved);
	return ret;
}

/**
 * tplan_place_search() - greedy-size, then search for the capacity
 * @t: the tensors, already checked; offsets are written
 * @n: how many
 * @goal: the capacity to fit, else the lower bound
 * @w: the work meter
 * @search: set to how the search ended
 *
 * The capacity searched for is the caller's, or else the lower bound (or
 * the top of the pinned tensors, when that is higher).  When
 * the search does not fit it (proven impossible, or the budget ran out),
 * the first plan stays (tplan_first_plans(): sweep fit's or greedy-size's):
 * a plan is always returned once there is one.
 *
 * Return: 0, or -ENOMEM / -EINTR / -ETIMEDOUT (only before a first plan).
 */
int tplan_place_search(struct tplan_tensor *t, u32 n,
		       const struct tplan_goal *goal, struct tplan_work *w,
		       u32 *search)
{
	/* no plan ends below a pinned tensor */
	u64 target = goal->capacity ? goal->capacity :
		     max(goal->lower_bound, tplan_pins_top(t, n));
	struct tplan_first first = { .peak = TPLAN_U64_MAX };
	int ret;

	first.best = tplan_alloc_array(n, sizeof(*first.best));
	if (!first.best)
		return -ENOMEM;
	ret = tplan_first_plans(t, n, goal, w, search, &first);
	if (!ret)
		tplan_first_restore(t, n, &first);
	tplan_free(first.best);
	if (ret)
		return ret;
	if (first.peak <= target) {
		*search = TPLAN_SEARCH_FIT;
		return 0;
	}
	if (first.placers_too_costly || !tplan_work_left(w)) {
		*search = TPLAN_SEARCH_GAVE_UP;
		return 0;
	}
	ret = tplan_search_fit(t, n, target, goal->gaps, w);
	if (ret == -ETIMEDOUT)
		ret = TPLAN_SEARCH_GAVE_UP;
	if (ret < 0)
		return ret;
	*search = ret;
	return 0;
}
