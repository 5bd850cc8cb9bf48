// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * spill.c - plans for tables that do not fit their capacity: a tensor may
 * be moved out to host memory between two of its uses and brought back
 * before the next one, so that it lives in device memory as pieces.
 *
 * The eviction choosers (spill_evict.c) decide by bytes which gaps between
 * uses are spent out; the pieces left are then placed by greedy-size (and,
 * if that does not fit, the search) as a table of their own.  When the
 * addresses do not fit although the bytes do (fragmentation), the bytes
 * allowed at each step are lowered and the choice is made again.  The
 * evicted copies are a table too (each alive while out), planned by
 * greedy-size into the host staging area.
 */
#include "core/key_sort.h"
#include "spill.h"

/*
 * The search tries to fit pieces only below this many, for this long per
 * piece, within the least and the most (in work units: four times what
 * they were before a search step was charged 4, so the same steps).
 */
#define SPILL_SEARCH_MAX_PIECES	4096
#define SPILL_SEARCH_PER_PIECE	8192ull
#define SPILL_SEARCH_LEAST	524288ull	/* 2^19 */
#define SPILL_SEARCH_MOST	8388608ull	/* 2^23 */
/* ... and only when greedy-size's peak is within 1/16 of the capacity */
#define SPILL_SEARCH_NEAR_SHIFT	4

static bool has_uses(const struct tplan_uses *u, u32 i)
{
	return u && u->start[i + 1] > u->start[i];
}

/* Effective uses: lower, then the uses after it (default: upper - 1). */
static u32 eff_count(const struct tplan_tensor *t, const struct tplan_uses *u,
		     u32 i)
{
	u32 c;

	if (!has_uses(u, i))
		return t[i].upper - 1 > t[i].lower ? 2 : 1;
	c = u->start[i + 1] - u->start[i];
	return u->step[u->start[i]] == t[i].lower ? c : c + 1;
}

static u64 eff_use(const struct tplan_tensor *t, const struct tplan_uses *u,
		   u32 i, u32 k)
{
	const u64 *s;

	if (!k)
		return t[i].lower;
	if (!has_uses(u, i))
		return t[i].upper - 1;
	s = &u->step[u->start[i]];
	return s[0] == t[i].lower ? s[k] : s[k - 1];
}

/**
 * tplan_spill_max_pieces() - room for the pieces of any spill plan
 * @t: the tensors, accepted by tplan_check_table()
 * @n: how many
 * @u: their uses, accepted by tplan_check_uses(), or NULL
 *
 * Every piece holds a use (lower counts as one), so a plan has at most one
 * piece per use.  Part of the kernel's API (namespace TPLAN).
 *
 * Context: in the kernel, any context; does not sleep.
 * Return: that count, saturated at 2^32 - 1.
 */
u32 tplan_spill_max_pieces(const struct tplan_tensor *t, u32 n,
			   const struct tplan_uses *u)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < n; i++)
		sum += eff_count(t, u, i);
	return sum > 0xffffffffull ? 0xffffffffu : (u32)sum;
}
EXPORT_SYMBOL_FOR_TPLAN_API(tplan_spill_max_pieces);

static const char *const spill_names[] = {
	[TPLAN_SPILL_DEFAULT] = "default",
	[TPLAN_SPILL_FURTHEST] = "furthest",
	[TPLAN_SPILL_GA] = "ga",
};

/**
 * tplan_spill_strategy_name() - the name of a spill strategy
 * @strategy: an &enum tplan_spill_strategy value
 *
 * Return: "default", "furthest", "ga", or "unknown".
 */
const char *tplan_spill_strategy_name(u32 strategy)
{
	return strategy < TPLAN_SPILL_COUNT ? spill_names[strategy] : "unknown";
}

/**
 * tplan_spill_strategy_from_name() - look a spill strategy up by name
 * @name: "default", "furthest" or "ga"
 * @strategy: where to store its &enum tplan_spill_strategy value
 *
 * Return: 0, or -EINVAL for an unknown name.
 */
int tplan_spill_strategy_from_name(const char *name, u32 *strategy)
{
	u32 i;

	for (i = 0; i < TPLAN_SPILL_COUNT; i++) {
		if (!strcmp(name, spill_names[i])) {
			*strategy = i;
			return 0;
		}
	}
	return -EINVAL;
}

static int cmp_gap_from(const void *a, const void *b, const void *priv)
{
	const struct tplan_spill_gap *g = priv;
	u32 ia = *(const u32 *)a, ib = *(const u32 *)b;
	int c = tplan_cmp_u64(g[ia].from, g[ib].from);

	return c ? c : tplan_cmp_u64(ia, ib);
}

/* The point of step @v, which is one. */
static u32 point_of(const struct tplan_spill *s, u64 v)
{
	u32 lo = 0, hi = s->npt - 1;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (s->pt[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void spill_free(struct tplan_spill *s)
{
	tplan_free(s->pt);
	tplan_free(s->base);
	tplan_free(s->need);
	tplan_free(s->used);
	tplan_free(s->gap);
	tplan_free(s->gap_start);
	tplan_free(s->first_pt);
	tplan_free(s->end_pt);
	tplan_free(s->by_from);
	tplan_free(s->active);
	tplan_free(s->keep);
	tplan_free(s->spare);
	tplan_free(s->ga_out);
}

static int spill_alloc(struct tplan_spill *s, u64 uses)
{
	u32 n = s->n;

	s->pt = tplan_alloc_array(2 * uses, sizeof(*s->pt));
	s->gap = tplan_alloc_array(uses, sizeof(*s->gap));
	s->by_from = tplan_alloc_array(uses, sizeof(*s->by_from));
	s->active = tplan_alloc_array(uses, sizeof(*s->active));
	s->keep = tplan_alloc_array(uses, sizeof(*s->keep));
	s->spare = tplan_alloc_array(uses, sizeof(*s->spare));
	s->ga_out = tplan_alloc_array(uses, sizeof(*s->ga_out));
	s->gap_start = tplan_alloc_array((size_t)n + 1, sizeof(u32));
	s->first_pt = tplan_alloc_array(n, sizeof(u32));
	s->end_pt = tplan_alloc_array(n, sizeof(u32));
	if (!s->pt || !s->gap || !s->by_from || !s->active || !s->keep ||
	    !s->spare || !s->ga_out || !s->gap_start || !s->first_pt ||
	    !s->end_pt)
		return -ENOMEM;
	return 0;
}

/* The points, each tensor's gaps, and the bytes needed and used. */
static int spill_setup(struct tplan_spill *s, const struct tplan_uses *u)
{
	const struct tplan_tensor *t = s->t;
	u64 uses = 0;
	u32 i, k, m = 0;
	int ret;

	for (i = 0; i < s->n; i++)
		uses += eff_count(t, u, i);
	if (uses > 0x7fffffffull)
		return -E2BIG;
	ret = spill_alloc(s, uses);
	if (ret)
		return ret;
	for (i = 0; i < s->n; i++) {
		for (k = 0; k < eff_count(t, u, i); k++) {
			s->pt[m++] = eff_use(t, u, i, k);
			s->pt[m++] = eff_use(t, u, i, k) + 1;
		}
	}
	ret = tplan_work_charge(s->w, m);
	if (ret)
		return ret;
	/* linear: 2^21 points would hold the CPU for a comparison sort */
	ret = tplan_u64_sort(s->pt, m);
	if (ret)
		return ret;
	for (i = 0, k = 0; i < m; i++)
		if (!k || s->pt[i] != s->pt[k - 1])
			s->pt[k++] = s->pt[i];
	s->npt = k;
	s->base = tplan_alloc_array(k, sizeof(u64));
	s->need = tplan_alloc_array(k, sizeof(u64));
	s->used = tplan_alloc_array(k, sizeof(u64));
	if (!s->base || !s->need || !s->used)
		return -ENOMEM;
	memset(s->need, 0, k * sizeof(u64));
	memset(s->used, 0, k * sizeof(u64));
	s->ngap = 0;
	for (i = 0; i < s->n; i++) {
		u32 c = eff_count(t, u, i);
		u64 z = t[i].size;

		s->gap_start[i] = s->ngap;
		s->first_pt[i] = point_of(s, t[i].lower);
		s->end_pt[i] = point_of(s, eff_use(t, u, i, c - 1) + 1);
		s->need[s->first_pt[i]] += z;	/* differences, mod 2^64 */
		s->need[s->end_pt[i]] -= z;
		for (k = 0; k < c; k++) {
			u64 e = eff_use(t, u, i, k);
			struct tplan_spill_gap *g = &s->gap[s->ngap];

			s->used[point_of(s, e)] += z;
			if (k + 1 == c || e + 1 == eff_use(t, u, i, k + 1))
				continue;
			g->tensor = i;
			g->from = point_of(s, e + 1);
			g->to = point_of(s, eff_use(t, u, i, k + 1));
			g->out = 0;
			s->by_from[s->ngap] = s->ngap;
			s->ngap++;
		}
		ret = tplan_work_charge(s->w, c);
		if (ret)
			return ret;
	}
	s->gap_start[s->n] = s->ngap;
	for (i = 0; i < s->npt; i++)
		s->base[i] = (i ? s->base[i - 1] : 0) + s->need[i];
	tplan_sort(s->by_from, s->ngap, sizeof(*s->by_from), cmp_gap_from,
		   s->gap);
	return 0;
}

/* The pieces the gaps marked out leave, as a table; returns how many. */
static u32 make_pieces(const struct tplan_spill *s, struct tplan_tensor *pc)
{
	u32 i, k, np = 0;

	for (i = 0; i < s->n; i++) {
		u64 start = s->pt[s->first_pt[i]];

		for (k = s->gap_start[i]; k <= s->gap_start[i + 1]; k++) {
			struct tplan_tensor *x;

			if (k < s->gap_start[i + 1] && !s->gap[k].out)
				continue;
			x = &pc[np];
			memset(x, 0, sizeof(*x));
			x->id = np++;
			x->size = s->t[i].size;
			x->alignment = tplan_alignment(&s->t[i]);
			x->priority = TPLAN_DEFAULT_PRIORITY;
			x->lower = start;
			if (k == s->gap_start[i + 1]) {
				x->upper = s->pt[s->end_pt[i]];
			} else {
				x->upper = s->pt[s->gap[k].from];
				start = s->pt[s->gap[k].to];
			}
		}
	}
	return np;
}

/*
 * Greedy-size, then the search for small tables (halving its work at each
 * of the repair's @tries).  Return: 0 when the pieces fit @capacity
 * (*peak their peak), 1 when not, or a negative errno.
 */
static int place_pieces(struct tplan_spill *s, struct tplan_tensor *pc,
			u32 np, u64 capacity, u32 tries, u64 *peak)
{
	struct tplan_goal goal = { .capacity = capacity };
	struct tplan_work sub;
	u64 units = min(max(np * SPILL_SEARCH_PER_PIECE, SPILL_SEARCH_LEAST),
			SPILL_SEARCH_MOST) >> min(tries, 16u);
	u32 search = TPLAN_SEARCH_NOT_RUN;
	int ret;

	ret = tplan_place_greedy_size(pc, np, &goal, s->w, &search);
	if (ret)
		return ret;
	*peak = tplan_peak(pc, np);
	if (*peak <= capacity)
		return 0;
	/* the search for near misses only: the repair handles the rest */
	if (np > SPILL_SEARCH_MAX_PIECES ||
	    *peak - capacity > capacity >> SPILL_SEARCH_NEAR_SHIFT)
		return 1;
	if (s->w->budget)
		units = min(units, s->w->budget > s->w->spent ?
			    s->w->budget - s->w->spent : 0);
	if (!units)
		return -ETIMEDOUT;
	tplan_work_init(&sub, units, 0, false);
	ret = tplan_search_fit(pc, np, capacity, NULL, &sub);
	s->w->spent += sub.spent;
	if (ret == -EINTR || ret == -ENOMEM)
		return ret;
	if (ret != TPLAN_SEARCH_FIT)
		return 1;
	*peak = tplan_peak(pc, np);
	return 0;
}

/**
 * struct spill_best - the plan kept so far
 * @out: each gap's out flag
 * @offset: each piece's offset, in make_pieces() order
 * @moved: bytes it moves; %TPLAN_U64_MAX while there is none (no plan
 *         moves that many: moves are even, and tplan_check_spill_input()
 *         keeps them below 2^64)
 * @peak: its peak
 * @strategy: the chooser that made it
 * @fail_bytes: the lowest peak seen when nothing fits
 */
struct spill_best {
	u32 *out;
	u64 *offset;
	u64 moved;
	u64 peak;
	u32 strategy;
	u64 fail_bytes;
};

/* What each chooser's plan is reported as. */
static u32 strategy_of(u32 chooser)
{
	if (chooser == SPILL_CHOOSE_FURTHEST)
		return TPLAN_SPILL_FURTHEST;
	return chooser == SPILL_CHOOSE_GA ? TPLAN_SPILL_GA : TPLAN_SPILL_DEFAULT;
}

/*
 * One chooser: evict for the capacity, place; while the addresses do not
 * fit, lower the bytes allowed at each point (by an eighth of the
 * overshoot, doubling) down to what the used tensors need.  Keeps the
 * plan if it moves less (ties go to the chooser that ran first).  A choice
 * already moving no less than the plan kept is not placed: lowering the
 * room would move more still.
 */
static int spill_run(struct tplan_spill *s, u32 chooser, u64 capacity,
		     u64 floor, struct tplan_tensor *pc, struct spill_best *b)
{
	u64 room = capacity, step = 0, peak = 0, moved;
	u32 np, i, fail, tries = 0;
	int ret;

	s->ga_ready = false;	/* ga evolves once per run, not per try */
	for (;;) {
		ret = tplan_spill_evict(s, chooser, room, &fail);
		if (ret)
			return ret;
		moved = tplan_spill_moved(s);
		if (moved >= b->moved)
			return 0;
		np = make_pieces(s, pc);
		ret = place_pieces(s, pc, np, capacity, tries++, &peak);
		if (ret < 0)
			return ret;
		if (!ret)
			break;
		b->fail_bytes = min(b->fail_bytes, peak);
		if (room == floor)
			return -ENOSPC;
		step = step ? step * 2 : max((peak - capacity) / 8, 1ull);
		room = room - floor > step ? room - step : floor;
	}
	if (moved >= b->moved)
		return 0;
	b->moved = moved;
	b->peak = peak;
	b->strategy = strategy_of(chooser);
	for (i = 0; i < s->ngap; i++)
		b->out[i] = s->gap[i].out;
	for (i = 0; i < np; i++)
		b->offset[i] = pc[i].offset;
	return 0;
}

/*
 * The default runs furthest first and ga second (so it never moves more
 * than either: ga gets three quarters of the work left, as much as it
 * takes alone on the bench tables; each later chooser half of it), then
 * its own choosers; each plan placed and repaired.
 */
static const u8 default_choosers[] = {
	SPILL_CHOOSE_FURTHEST, SPILL_CHOOSE_GA, SPILL_CHOOSE_EXCHANGE,
	SPILL_CHOOSE_COST, SPILL_CHOOSE_FURTHEST_PRUNE,
};

/*
 * The strategy's choosers in turn.  Return: 0 with a plan kept in @b;
 * otherwise -ETIMEDOUT if one ran out of work, else -ENOSPC, or -EINTR /
 * -ENOMEM at once.
 */
static int spill_choose(struct tplan_spill *s, u32 strategy, u64 capacity,
			u64 floor, struct tplan_tensor *pc,
			struct spill_best *b)
{
	struct tplan_work sub, *outer = s->w;
	u32 i, count = 1, chooser;
	int ret = 0;

	for (i = 0; i < count && tplan_work_left(outer); i++) {
		if (strategy == TPLAN_SPILL_DEFAULT) {
			count = ARRAY_SIZE(default_choosers);
			chooser = default_choosers[i];
		} else {
			chooser = strategy == TPLAN_SPILL_GA ?
				  SPILL_CHOOSE_GA : SPILL_CHOOSE_FURTHEST;
		}
		/* after a plan, part of the work left: the host copies need some */
		if (i && outer->budget) {
			u64 left = outer->budget - min(outer->budget,
						       outer->spent);

			tplan_work_init(&sub, chooser == SPILL_CHOOSE_GA ?
					left - left / 4 : left / 2, 0, false);
			if (!sub.budget)
				break;
			s->w = &sub;
		}
		ret = spill_run(s, chooser, capacity, floor, pc, b);
		if (s->w != outer) {
			s->w = outer;
			outer->spent += sub.spent;
		}
		if (ret == -EINTR || ret == -ENOMEM)
			return ret;
	}
	if (b->moved != TPLAN_U64_MAX)
		return 0;
	return ret == -ETIMEDOUT ? ret : -ENOSPC;
}

/*
 * The evicted copies, planned by greedy-size.  A copy is written at the
 * boundary its gap starts at and read back at the one it ends at; at a
 * boundary every copy out goes before every copy in (docs/PLANNER.md), so
 * a copy holds its host bytes through the step it comes back at: a copy
 * going out there may not take them.
 */
static int plan_host(struct tplan_spill *s, struct tplan_tensor *hc,
		     u64 *host_peak)
{
	struct tplan_goal goal = { .capacity = 0 };
	u32 i, m = 0, search;
	int ret;

	for (i = 0; i < s->ngap; i++) {
		const struct tplan_spill_gap *g = &s->gap[i];
		struct tplan_tensor *x = &hc[m];

		if (!g->out)
			continue;
		memset(x, 0, sizeof(*x));
		x->id = m++;
		x->size = s->t[g->tensor].size;
		x->alignment = tplan_alignment(&s->t[g->tensor]);
		x->priority = TPLAN_DEFAULT_PRIORITY;
		x->lower = s->pt[g->from];
		x->upper = s->pt[g->to] + 1;
	}
	ret = tplan_place_greedy_size(hc, m, &goal, s->w, &search);
	*host_peak = ret ? 0 : tplan_peak(hc, m);
	return ret;
}

/* The kept plan as pieces, tensor after tensor, in time order. */
static void write_pieces(struct tplan_spill *s, const struct spill_best *b,
			 const struct tplan_tensor *hc, struct tplan_piece *out)
{
	u32 i, k, np = 0, h = 0;

	for (i = 0; i < s->n; i++) {
		u64 start = s->pt[s->first_pt[i]], host = 0;
		u32 piece = 0;

		for (k = s->gap_start[i]; k <= s->gap_start[i + 1]; k++) {
			struct tplan_piece *x;

			if (k < s->gap_start[i + 1] && !s->gap[k].out)
				continue;
			x = &out[np];
			x->tensor = i;
			x->piece = piece++;
			x->lower = start;
			x->offset = b->offset[np++];
			x->host_offset = host;
			if (k == s->gap_start[i + 1]) {
				x->upper = s->pt[s->end_pt[i]];
			} else {
				x->upper = s->pt[s->gap[k].from];
				start = s->pt[s->gap[k].to];
				host = hc[h++].offset;
			}
		}
	}
}

/* Checks, set up, the bound, and the used bytes no plan can avoid. */
static int spill_begin(struct tplan_spill *s, const struct tplan_uses *u,
		       u64 capacity, struct tplan_spill_result *res,
		       u64 *floor)
{
	u32 p;
	int ret;

	ret = tplan_check_spill_input(s->t, s->n, u, NULL);
	if (!ret)
		ret = spill_setup(s, u);
	if (ret)
		return ret;
	*floor = 0;
	for (p = 0; p < s->npt; p++) {
		res->live_peak = max(res->live_peak, s->base[p]);
		if (s->used[p] > *floor) {
			*floor = s->used[p];
			res->fail_step = s->pt[p];
		}
	}
	if (*floor > capacity) {
		res->fail_bytes = *floor;
		return -ENOSPC;
	}
	res->fail_step = 0;
	return tplan_spill_bound(s, capacity, &res->moved_bound);
}

static int spill_finish(struct tplan_spill *s, struct spill_best *b,
			struct tplan_piece *out, u32 out_cap,
			struct tplan_spill_result *res)
{
	struct tplan_tensor *hc;
	u32 i, np = s->n;
	int ret;

	for (i = 0; i < s->ngap; i++) {
		s->gap[i].out = b->out[i];
		np += b->out[i];
	}
	res->pieces = np;
	res->moved = b->moved;
	res->peak = b->peak;
	res->strategy = b->strategy;
	if (np > out_cap)
		return -E2BIG;
	hc = tplan_alloc_array(np - s->n + 1, sizeof(*hc));
	if (!hc)
		return -ENOMEM;
	ret = plan_host(s, hc, &res->host_peak);
	if (!ret)
		write_pieces(s, b, hc, out);
	tplan_free(hc);
	return ret;
}

/**
 * tplan_spill_plan() - plan a table that may not fit, moving tensors out
 * @t: the tensors (aliases, tiers, models and share_key are not looked at:
 *     one timeline, one memory)
 * @n: how many
 * @u: their uses, or NULL: lower and upper - 1 for every tensor
 * @opts: strategy, capacity (non-zero), budget
 * @out: room for the pieces, tensor after tensor, in time order
 * @out_cap: entries in @out; tplan_spill_max_pieces() is always enough
 * @res: what the plan moves and needs; on -ENOSPC the step and its bytes
 *       (@res->fail_step %TPLAN_U64_MAX: no step alone is too full, the
 *       pieces do not fit by addresses; @res->fail_bytes their lowest peak)
 *
 * The default runs furthest-next-use, then ga, then its own choosers, and
 * keeps the plan that moves fewest bytes, so it never moves more than
 * furthest (nor than ga while the budget lasts).
 * Memory: about 48 bytes per use plus 96 per piece (placing the pieces as
 * a table, greedy-size's 69 on top; the search's 320 for at most 4096
 * pieces); ga adds about 16 per use and 220 per tensor.
 *
 * Return: 0; -EINVAL (bad table, uses or options, or a tensor pinned,
 * hinted or with gaps: a spill plan moves every tensor); -ENOSPC; -E2BIG (more
 * pieces than @out_cap, @res->pieces says how many; or too many uses);
 * -ETIMEDOUT; -EINTR; -ENOMEM.
 */
int tplan_spill_plan(const struct tplan_tensor *t, u32 n,
		     const struct tplan_uses *u,
		     const struct tplan_spill_options *opts,
		     struct tplan_piece *out, u32 out_cap,
		     struct tplan_spill_result *res)
{
	struct tplan_spill s = { .t = t, .n = n };
	struct spill_best b = { .moved = TPLAN_U64_MAX,
				.fail_bytes = TPLAN_U64_MAX };
	struct tplan_tensor *pc = NULL;
	struct tplan_work w;
	u64 floor = 0;
	int ret;

	memset(res, 0, sizeof(*res));
	if (!opts->capacity || opts->strategy >= TPLAN_SPILL_COUNT ||
	    (n && !t) || (n && !out))
		return -EINVAL;
	tplan_work_init(&w, opts->budget ? opts->budget : TPLAN_DEFAULT_BUDGET,
			0, false);
	s.w = &w;
	ret = spill_begin(&s, u, opts->capacity, res, &floor);
	if (!ret) {
		pc = tplan_alloc_array((size_t)n + s.ngap, sizeof(*pc));
		b.out = tplan_alloc_array((size_t)s.ngap + 1, sizeof(u32));
		b.offset = tplan_alloc_array((size_t)n + s.ngap, sizeof(u64));
		if (!pc || !b.out || !b.offset)
			ret = -ENOMEM;
	}
	if (!ret) {
		ret = spill_choose(&s, opts->strategy, opts->capacity, floor,
				   pc, &b);
		if (ret == -ENOSPC) {
			res->fail_step = TPLAN_U64_MAX;
			res->fail_bytes = b.fail_bytes;
		}
	}
	if (!ret)
		ret = spill_finish(&s, &b, out, out_cap, res);
	res->work = w.spent;
	tplan_free(pc);
	tplan_free(b.out);
	tplan_free(b.offset);
	spill_free(&s);
	return ret;
}
EXPORT_SYMBOL_FOR_TPLAN_TESTS(tplan_spill_plan);
