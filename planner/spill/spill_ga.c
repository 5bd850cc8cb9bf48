// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * spill_ga.c - the design document's way of choosing whom to move out: the
 * largest objects define memory segments (as many as the room holds), every
 * other object is assigned to one segment, and objects of one segment take
 * turns in it.  A genetic algorithm evolves the assignments towards the
 * fewest bytes moved.
 *
 * An object is a tensor, or several small tensors used back to back with
 * no other tensor used in between (they move together).  Its *runs* are
 * the stretches it must be in: its uses, two uses of one tensor joined
 * when no other tensor is used between them.  Within a segment, an object
 * is moved out over a gap (2 x size) when another object of the segment
 * runs during it; two objects running at once in a segment cost a penalty,
 * since the segment cannot hold both.  The best assignment marks those
 * gaps out; the sweep (spill_evict.c) then covers whatever the segments'
 * model left over the room, and the pieces are placed like any other
 * choice.  Deterministic: a fixed seed, integer costs, total orders.
 */
#include "spill.h"

#define GA_POP		24	/* assignments per round */
#define GA_KEEP		8	/* the best, kept into the next round */
#define GA_CHILDREN	12	/* made by crossover from the kept ones */
#define GA_ROUNDS	64
#define GA_STALL	16	/* rounds without a better one: stop */
#define GA_MUT_FIRST	50	/* mutation probability per mille, round 0 */
#define GA_MUT_LAST	600	/* ... growing to this in the last round */
#define GA_CONFLICT	4	/* penalty per byte of two objects at once */
#define GA_SMALL_SHIFT	6	/* small: under room / 64 bytes */
#define GA_UNITS	(8ull << 20)	/* work the evolution may spend */
#define GA_SEED		0x2545f4914f6cdd1dull
#define GA_NONE		0xffffffffu

/**
 * struct ga_run - a stretch during which one tensor must be in
 * @start: its first point
 * @end: the point after it
 * @tensor: the tensor
 * @gap: the gap just before it; %GA_NONE for the tensor's first run
 */
struct ga_run {
	u32 start;
	u32 end;
	u32 tensor;
	u32 gap;
};

/**
 * struct ga_top2 - the two largest values of distinct objects
 * @obj: the objects (%GA_NONE: none yet)
 * @val: their values, @val[0] >= @val[1]
 */
struct ga_top2 {
	u32 obj[2];
	u32 val[2];
};

/**
 * struct ga_seg - what an evaluation knows of one segment so far
 * @stamp: the latest run of each of the two most recent objects
 * @end: the latest end of runs, for the two objects ending last
 */
struct ga_seg {
	struct ga_top2 stamp;
	struct ga_top2 end;
};

/**
 * struct ga - one evolution
 * @s: the plan in the making
 * @room: bytes allowed at a point
 * @run: the runs, by start, then tensor
 * @nrun: how many
 * @obj: tensor -> object (%GA_NONE for a zero-size tensor)
 * @osize: object -> bytes
 * @ofirst: object -> its first point
 * @oend: object -> the point after its last run
 * @nobj: how many objects
 * @by_size: objects, largest first: the first @nseg define the segments
 * @by_first: objects by first point
 * @fixed: object -> its own segment, or %GA_NONE if it is assigned
 * @nseg: segments
 * @pop: %GA_POP assignments of @nobj genes (object -> segment)
 * @next: the next round's
 * @cost: each assignment's bytes moved plus penalties
 * @next_cost: the next round's
 * @rank: assignments by cost
 * @tend: tensor -> end of its last run (scratch: evaluation)
 * @tstamp: tensor -> stamp of its last run (scratch: evaluation)
 * @seg: one per segment (scratch: evaluation)
 * @busy: one per segment (scratch: first assignments)
 * @rng: the generator's state
 * @w: the evolution's own meter
 */
struct ga {
	struct tplan_spill *s;
	u64 room;
	struct ga_run *run;
	u32 nrun;
	u32 *obj;
	u64 *osize;
	u32 *ofirst;
	u32 *oend;
	u32 nobj;
	u32 *by_size;
	u32 *by_first;
	u32 *fixed;
	u32 nseg;
	u32 *pop;
	u32 *next;
	u64 *cost;
	u64 *next_cost;
	u32 *rank;
	u32 *tend;
	u32 *tstamp;
	struct ga_seg *seg;
	u32 *busy;
	u64 rng;
	struct tplan_work w;
};

/* splitmix64; a value in [0, @bound). */
static u32 ga_rand(struct ga *g, u32 bound)
{
	u64 z = (g->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return bound ? (u32)(z >> 32) % bound : 0;
}

static void top2_add(struct ga_top2 *t, u32 obj, u32 val)
{
	if (t->obj[0] == obj) {
		t->val[0] = max(t->val[0], val);
	} else if (t->obj[0] == GA_NONE || val > t->val[0]) {
		t->obj[1] = t->obj[0];
		t->val[1] = t->val[0];
		t->obj[0] = obj;
		t->val[0] = val;
	} else if (t->obj[1] == GA_NONE || val > t->val[1]) {
		t->obj[1] = obj;
		t->val[1] = val;
	}
}

/* The largest value of an object other than @obj; 0 if none. */
static u32 top2_other(const struct ga_top2 *t, u32 obj)
{
	u32 k = t->obj[0] == obj ? 1 : 0;

	return t->obj[k] == GA_NONE ? 0 : t->val[k];
}

static void ga_free(struct ga *g)
{
	tplan_free(g->run);
	tplan_free(g->obj);
	tplan_free(g->osize);
	tplan_free(g->ofirst);
	tplan_free(g->oend);
	tplan_free(g->by_size);
	tplan_free(g->by_first);
	tplan_free(g->fixed);
	tplan_free(g->pop);
	tplan_free(g->next);
	tplan_free(g->cost);
	tplan_free(g->next_cost);
	tplan_free(g->rank);
	tplan_free(g->tend);
	tplan_free(g->tstamp);
	tplan_free(g->seg);
	tplan_free(g->busy);
}

static int ga_alloc(struct ga *g)
{
	const struct tplan_spill *s = g->s;
	size_t runs = (size_t)s->n + s->ngap, n = s->n;

	g->run = tplan_alloc_array(runs, sizeof(*g->run));
	g->obj = tplan_alloc_array(n, sizeof(u32));
	g->osize = tplan_alloc_array(n, sizeof(u64));
	g->ofirst = tplan_alloc_array(n, sizeof(u32));
	g->oend = tplan_alloc_array(n, sizeof(u32));
	g->by_size = tplan_alloc_array(n, sizeof(u32));
	g->by_first = tplan_alloc_array(n, sizeof(u32));
	g->fixed = tplan_alloc_array(n, sizeof(u32));
	g->pop = tplan_alloc_array(GA_POP * n, sizeof(u32));
	g->next = tplan_alloc_array(GA_POP * n, sizeof(u32));
	g->cost = tplan_alloc_array(GA_POP, sizeof(u64));
	g->next_cost = tplan_alloc_array(GA_POP, sizeof(u64));
	g->rank = tplan_alloc_array(GA_POP, sizeof(u32));
	g->tend = tplan_alloc_array(n, sizeof(u32));
	g->tstamp = tplan_alloc_array(n, sizeof(u32));
	g->seg = tplan_alloc_array(n, sizeof(*g->seg));
	/* first the points' prefix counts (make_runs), then the segments */
	g->busy = tplan_alloc_array(max(n, (size_t)s->npt + 1), sizeof(u32));
	if (!g->run || !g->obj || !g->osize || !g->ofirst || !g->oend ||
	    !g->by_size || !g->by_first || !g->fixed || !g->pop || !g->next ||
	    !g->cost || !g->next_cost || !g->rank || !g->tend || !g->tstamp ||
	    !g->seg || !g->busy)
		return -ENOMEM;
	return 0;
}

static int cmp_run(const void *a, const void *b, const void *priv)
{
	const struct ga_run *x = a, *y = b;
	int c = tplan_cmp_u64(x->start, y->start);

	return c ? c : tplan_cmp_u64(x->tensor, y->tensor);
}

/*
 * Every tensor's runs: its uses, joined over a gap in which no other
 * tensor is used (the document merges such adjacent accesses).  @busy
 * counts, per point, the points before it at which something is used.
 */
static int make_runs(struct ga *g, u32 *busy)
{
	struct tplan_spill *s = g->s;
	u32 i, k, p;
	int ret;

	busy[0] = 0;
	for (p = 0; p < s->npt; p++)
		busy[p + 1] = busy[p] + (s->used[p] ? 1 : 0);
	g->nrun = 0;
	for (i = 0; i < s->n; i++) {
		u32 start = s->first_pt[i], before = GA_NONE;

		if (!s->t[i].size)
			continue;
		for (k = s->gap_start[i]; k <= s->gap_start[i + 1]; k++) {
			struct ga_run *r;

			if (k < s->gap_start[i + 1] &&
			    busy[s->gap[k].to] == busy[s->gap[k].from])
				continue;
			r = &g->run[g->nrun++];
			r->start = start;
			r->tensor = i;
			r->gap = before;
			if (k == s->gap_start[i + 1]) {
				r->end = s->end_pt[i];
			} else {
				r->end = s->gap[k].from;
				start = s->gap[k].to;
				before = k;
			}
		}
		g->tend[i] = s->end_pt[i];
	}
	ret = tplan_work_charge(&g->w, g->nrun + s->npt);
	if (ret)
		return ret;
	tplan_sort(g->run, g->nrun, sizeof(*g->run), cmp_run, NULL);
	return 0;
}

static bool ga_small(const struct ga *g, u32 tensor)
{
	return g->s->t[tensor].size < g->room >> GA_SMALL_SHIFT;
}

/* A group that failed (or has one member): its members stand alone. */
static void ungroup(struct ga *g, u32 from, u32 to)
{
	u32 k;

	for (k = from; k < to; k++)
		if (g->run[k].gap == GA_NONE)
			g->obj[g->run[k].tensor] = g->run[k].tensor;
}

/*
 * Small tensors used back to back become one object: a stretch of runs
 * that are all first runs of small tensors (or later runs of those), with
 * no other tensor running within the stretch, however long their runs
 * make it.  The object is named by its first tensor.
 */
static void group_small(struct ga *g)
{
	u32 k, open = GA_NONE, lead = 0, members = 0, span = 0, seen = 0;
	bool failed = false;

	for (k = 0; k < g->s->n; k++)
		g->obj[k] = g->s->t[k].size ? k : GA_NONE;
	for (k = 0; k < g->nrun; k++) {
		const struct ga_run *r = &g->run[k];

		if (open != GA_NONE && r->start >= span) {
			if (failed || members < 2)
				ungroup(g, open, k);
			open = GA_NONE;
		}
		if (open != GA_NONE) {
			if (r->gap == GA_NONE && ga_small(g, r->tensor)) {
				g->obj[r->tensor] = lead;
				members++;
				span = max(span, g->tend[r->tensor]);
			} else if (g->obj[r->tensor] != lead) {
				failed = true;
			}
		} else if (r->gap == GA_NONE && ga_small(g, r->tensor) &&
			   seen <= r->start) {
			open = k;
			lead = r->tensor;
			members = 1;
			failed = false;
			span = g->tend[lead];
		}
		seen = max(seen, r->end);
	}
	if (open != GA_NONE && (failed || members < 2))
		ungroup(g, open, g->nrun);
}

static int cmp_obj_size(const void *a, const void *b, const void *priv)
{
	const struct ga *g = priv;
	u32 x = *(const u32 *)a, y = *(const u32 *)b;
	int c = tplan_cmp_u64(g->osize[y], g->osize[x]);

	if (!c)
		c = tplan_cmp_u64(g->ofirst[x], g->ofirst[y]);
	return c ? c : tplan_cmp_u64(x, y);
}

static int cmp_obj_first(const void *a, const void *b, const void *priv)
{
	const struct ga *g = priv;
	u32 x = *(const u32 *)a, y = *(const u32 *)b;
	int c = tplan_cmp_u64(g->ofirst[x], g->ofirst[y]);

	return c ? c : tplan_cmp_u64(x, y);
}

/*
 * Objects numbered densely, their bytes and extent; the largest define
 * the segments, as many as the room holds (at least one).
 */
static int make_objects(struct ga *g)
{
	struct tplan_spill *s = g->s;
	u64 sum = 0;
	u32 i, o;

	g->nobj = 0;
	for (i = 0; i < s->n; i++) {
		if (g->obj[i] == i) {
			g->osize[g->nobj] = 0;
			g->ofirst[g->nobj] = s->first_pt[i];
			g->oend[g->nobj] = 0;
			g->tstamp[i] = g->nobj++;	/* the lead's number */
		}
	}
	for (i = 0; i < s->n; i++) {
		if (g->obj[i] == GA_NONE)
			continue;
		o = g->tstamp[g->obj[i]];
		g->obj[i] = o;
		g->osize[o] += s->t[i].size;
		g->ofirst[o] = min(g->ofirst[o], s->first_pt[i]);
		g->oend[o] = max(g->oend[o], s->end_pt[i]);
	}
	for (o = 0; o < g->nobj; o++) {
		g->by_size[o] = o;
		g->by_first[o] = o;
		g->fixed[o] = GA_NONE;
	}
	tplan_sort(g->by_size, g->nobj, sizeof(u32), cmp_obj_size, g);
	tplan_sort(g->by_first, g->nobj, sizeof(u32), cmp_obj_first, g);
	for (g->nseg = 0; g->nseg < g->nobj; g->nseg++) {
		sum += g->osize[g->by_size[g->nseg]];
		if (sum > g->room && g->nseg)
			break;
		g->fixed[g->by_size[g->nseg]] = g->nseg;
	}
	return tplan_work_charge(&g->w, 4 * (u64)g->nobj);
}

/*
 * A first assignment: objects by first point, each into the segment that
 * fell free last before it starts (else the one free soonest); with
 * @noise, one in four picks a segment at random instead.
 */
static int first_assignment(struct ga *g, u32 *gene, bool noise)
{
	u32 k, sg, o, best;
	int ret;

	memset(g->busy, 0, g->nseg * sizeof(u32));
	for (k = 0; k < g->nobj; k++) {
		ret = tplan_work_charge(&g->w, g->nseg);
		if (ret)
			return ret;
		o = g->by_first[k];
		if (g->fixed[o] != GA_NONE) {
			best = g->fixed[o];
		} else if (noise && !ga_rand(g, 4)) {
			best = ga_rand(g, g->nseg);
		} else {
			best = 0;
			for (sg = 1; sg < g->nseg; sg++) {
				bool free = g->busy[sg] <= g->ofirst[o];
				bool bfree = g->busy[best] <= g->ofirst[o];

				if (free != bfree ? free : free ?
				    g->busy[sg] > g->busy[best] :
				    g->busy[sg] < g->busy[best])
					best = sg;
			}
		}
		gene[o] = best;
		g->busy[best] = max(g->busy[best], g->oend[o]);
	}
	return 0;
}

/*
 * Bytes an assignment moves, plus penalties; with @decode, the gaps it
 * moves out are marked out in the plan.
 */
static int evaluate(struct ga *g, const u32 *gene, bool decode, u64 *cost)
{
	struct tplan_spill *s = g->s;
	u32 k, stamp = 0;
	u64 sum = 0;

	for (k = 0; k < g->nseg; k++) {
		g->seg[k].stamp.obj[0] = GA_NONE;
		g->seg[k].stamp.obj[1] = GA_NONE;
		g->seg[k].end = g->seg[k].stamp;
	}
	for (k = 0; k < g->nrun; k++) {
		const struct ga_run *r = &g->run[k];
		u32 x = r->tensor, o = g->obj[x];
		struct ga_seg *q = &g->seg[gene[o]];
		u64 z = s->t[x].size;

		if (top2_other(&q->end, o) > r->start)
			sum += GA_CONFLICT * z;
		if (r->gap != GA_NONE &&
		    (top2_other(&q->stamp, o) > g->tstamp[x] ||
		     top2_other(&q->end, o) > g->tend[x])) {
			sum += 2 * z;
			if (decode)
				tplan_spill_set_out(s, &s->gap[r->gap], true);
		}
		top2_add(&q->stamp, o, ++stamp);
		top2_add(&q->end, o, r->end);
		g->tstamp[x] = stamp;
		g->tend[x] = r->end;
	}
	*cost = sum;
	return tplan_work_charge(&g->w, g->nrun + g->nseg);
}

/* Swap some of @b's objects of one segment into @a's copy @c. */
static void crossover(struct ga *g, const u32 *a, const u32 *b, u32 *c)
{
	u32 sg = ga_rand(g, g->nseg), o;

	memcpy(c, a, g->nobj * sizeof(u32));
	for (o = 0; o < g->nobj; o++)
		if (b[o] == sg && g->fixed[o] == GA_NONE && ga_rand(g, 2))
			c[o] = sg;
}

/* Two assigned objects of different segments swap them. */
static void mutate(struct ga *g, u32 *c)
{
	u32 x = ga_rand(g, g->nobj), y, tries;

	for (tries = 0; tries < 8; tries++) {
		y = ga_rand(g, g->nobj);
		if (g->fixed[x] == GA_NONE && g->fixed[y] == GA_NONE &&
		    c[x] != c[y]) {
			u32 t = c[x];

			c[x] = c[y];
			c[y] = t;
			return;
		}
		x = y;
	}
}

static void rank_pop(struct ga *g)
{
	u32 i, j;

	for (i = 0; i < GA_POP; i++) {
		u32 r = i;

		for (j = i; j > 0 && g->cost[g->rank[j - 1]] > g->cost[r]; j--)
			g->rank[j] = g->rank[j - 1];
		g->rank[j] = r;
	}
}

/* One round: keep the best, breed children from them, add new ones. */
static int ga_round(struct ga *g, u32 round)
{
	u32 mut = GA_MUT_FIRST + (GA_MUT_LAST - GA_MUT_FIRST) * round /
		  (GA_ROUNDS - 1);
	u32 i, n = g->nobj, *tmp;
	u64 *cost;
	int ret = 0;

	rank_pop(g);
	for (i = 0; i < GA_KEEP; i++) {
		memcpy(&g->next[i * n], &g->pop[g->rank[i] * n],
		       n * sizeof(u32));
		g->next_cost[i] = g->cost[g->rank[i]];
	}
	for (i = GA_KEEP; i < GA_POP && !ret; i++) {
		u32 *c = &g->next[i * n];

		if (i < GA_KEEP + GA_CHILDREN) {
			u32 a = ga_rand(g, GA_KEEP), b = ga_rand(g, GA_KEEP);

			crossover(g, &g->next[a * n], &g->next[b * n], c);
			if (ga_rand(g, 1000) < mut)
				mutate(g, c);
		} else {
			ret = first_assignment(g, c, true);
		}
		if (!ret)
			ret = evaluate(g, c, false, &g->next_cost[i]);
	}
	tmp = g->pop;
	g->pop = g->next;
	g->next = tmp;
	cost = g->cost;
	g->cost = g->next_cost;
	g->next_cost = cost;
	return ret;
}

static int ga_evolve(struct ga *g, u32 *best)
{
	u64 best_cost;
	u32 i, round, stall = 0;
	int ret;

	for (i = 0; i < GA_POP; i++) {
		ret = first_assignment(g, &g->pop[i * g->nobj], i > 0);
		if (!ret)
			ret = evaluate(g, &g->pop[i * g->nobj], false,
				       &g->cost[i]);
		if (ret)
			return ret;
	}
	rank_pop(g);
	best_cost = g->cost[g->rank[0]];
	for (round = 0; round < GA_ROUNDS && stall < GA_STALL &&
	     best_cost; round++) {
		ret = ga_round(g, round);
		/* out of work: what the kept ones reached stands */
		if (ret == -ETIMEDOUT)
			break;
		if (ret)
			return ret;
		rank_pop(g);
		stall = g->cost[g->rank[0]] < best_cost ? 0 : stall + 1;
		best_cost = min(best_cost, g->cost[g->rank[0]]);
	}
	rank_pop(g);
	*best = g->rank[0];
	return 0;
}

/**
 * tplan_spill_ga() - mark out the gaps the best assignment found moves
 * @s: the plan in the making, every gap in
 * @room: bytes allowed at a point
 *
 * The caller's sweep covers what is still over @room afterwards.  Work:
 * its own meter of up to 2^23 units (and half what @s's has left), so the
 * sweep and the placement still have theirs; running out
 * keeps the best assignment so far, and before the first one is scored,
 * nothing is marked.
 *
 * Return: 0, -ENOMEM, or -EINTR.
 */
int tplan_spill_ga(struct tplan_spill *s, u64 room)
{
	struct ga *g;
	u64 units = GA_UNITS, cost;
	u32 best;
	int ret;

	if (s->w->budget)
		units = min(units, s->w->budget > s->w->spent ?
			    (s->w->budget - s->w->spent) / 2 : 0);
	if (!units || !s->n)
		return 0;
	g = tplan_alloc_array(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	memset(g, 0, sizeof(*g));
	g->s = s;
	g->room = room;
	g->rng = GA_SEED;
	tplan_work_init(&g->w, units, 0, false);
	ret = ga_alloc(g);
	if (!ret)
		ret = make_runs(g, g->busy);
	if (!ret) {
		group_small(g);
		ret = make_objects(g);
	}
	if (!ret)
		ret = ga_evolve(g, &best);
	if (!ret)
		ret = evaluate(g, &g->pop[best * g->nobj], true, &cost);
	s->w->spent += g->w.spent;
	ga_free(g);
	tplan_free(g);
	return ret == -ETIMEDOUT ? 0 : ret;
}
