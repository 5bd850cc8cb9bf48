// SPDX-License-Identifier: MIT
/*
 * tplanctl_show_view.c - a plan laid out for drawing: each tensor with bytes
 * a rectangle of its steps by its bytes, in the panel of its tier.
 *
 * The timeline is the table's steps.  With --serial and several models it
 * is the planner's: each model gets its own stretch, one after another in
 * model order, from its first step to its last.  A share_key tensor is kept
 * for the whole run and stored once: it is drawn once per key, across the
 * whole timeline.  Each rectangle is marked for colouring: its top is the
 * panel's peak, or it is alive at a step where the panel has the most bytes
 * live (with --aliases, tensors aliasing another are drawn but not counted,
 * their bytes being their owner's).
 */
#include <stdlib.h>
#include <string.h>

#include "tplanctl_show.h"

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/* The stretch of @model (present: stretches cover every scratch model). */
static const struct tplanctl_show_stretch *
find_stretch(const struct tplanctl_show_view *v, u32 model)
{
	return bsearch(&model, v->stretches, v->stretch_count,
		       sizeof(*v->stretches), cmp_u32);
}

/* Steps [*lo, *hi) of the scratch tensors of @model (any model: -1). */
static void step_range(const struct tplan_table *table, s64 model, u64 *lo,
		       u64 *hi)
{
	u32 i;

	*lo = UINT64_MAX;
	*hi = 0;
	for (i = 0; i < table->count; i++) {
		const struct tplan_tensor *t = &table->tensors[i];

		if (t->share_key || (model >= 0 && t->model != (u32)model))
			continue;
		*lo = min(*lo, t->lower);
		*hi = max(*hi, t->upper);
	}
}

/*
 * The timeline: the scratch tensors' steps, or with @serial and several
 * models, each model's stretch after the one before.
 */
static int build_timeline(struct tplanctl_show_view *v, u64 **firsts,
			  bool serial)
{
	const struct tplan_table *table = v->table;
	u32 *models, n = 0, m = 0, i;
	u64 base = 0, hi;

	step_range(table, -1, &v->t0, &v->t1);
	if (v->t0 == UINT64_MAX) {		/* only share_key tensors */
		v->t0 = UINT64_MAX;
		for (i = 0; i < table->count; i++) {
			v->t0 = min(v->t0, table->tensors[i].lower);
			v->t1 = max(v->t1, table->tensors[i].upper);
		}
	}
	if (v->t0 == UINT64_MAX)		/* no tensor at all */
		v->t0 = 0;
	if (!serial)
		goto done;
	models = malloc(((size_t)table->count + 1) * sizeof(*models));
	if (!models)
		return -ENOMEM;
	for (i = 0; i < table->count; i++)
		if (!table->tensors[i].share_key)
			models[n++] = table->tensors[i].model;
	qsort(models, n, sizeof(*models), cmp_u32);
	for (i = 0; i < n; i++)
		if (!m || models[i] != models[m - 1])
			models[m++] = models[i];
	if (m < 2) {
		free(models);
		goto done;
	}
	v->stretches = calloc(m, sizeof(*v->stretches));
	*firsts = calloc(m, sizeof(**firsts));
	if (!v->stretches || !*firsts) {
		free(models);
		return -ENOMEM;
	}
	for (i = 0; i < m; i++) {
		step_range(table, models[i], &(*firsts)[i], &hi);
		v->stretches[i].model = models[i];
		v->stretches[i].start = base;
		if (check_add_overflow(base, hi - (*firsts)[i], &base)) {
			free(models);
			return -EOVERFLOW;
		}
		v->stretches[i].end = base;
	}
	v->stretch_count = m;
	v->t0 = 0;
	v->t1 = base;
	free(models);
done:
	if (v->t1 <= v->t0)
		v->t1 = v->t0 + 1;
	return 0;
}

struct share_row {
	u64 key;
	u32 index;
};

static int cmp_share_row(const void *a, const void *b)
{
	const struct share_row *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return cmp_u32(&x->index, &y->index);
}

/* skip[i]: row i is a share_key tensor whose key an earlier row drew. */
static int mark_share_duplicates(const struct tplan_table *table, u8 *skip)
{
	struct share_row *rows;
	u32 i, n = 0;

	rows = malloc(((size_t)table->count + 1) * sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	for (i = 0; i < table->count; i++)
		if (table->tensors[i].share_key)
			rows[n++] = (struct share_row){
				table->tensors[i].share_key, i
			};
	qsort(rows, n, sizeof(*rows), cmp_share_row);
	for (i = 1; i < n; i++)
		if (rows[i].key == rows[i - 1].key)
			skip[rows[i].index] = 1;
	free(rows);
	return 0;
}

/* Whether tensor @t is drawn by stretches (a share_key one spans the run). */
static bool drawn_by_stretches(const struct tplanctl_show_view *v,
			       const struct tplan_tensor *t)
{
	return t->gap_count && !t->share_key;
}

/* Rectangles of tensor @i: one, or one per stretch with bytes present. */
static u32 drawn_parts(const struct tplanctl_show_view *v, u32 i)
{
	const struct tplan_tensor *t = &v->table->tensors[i];
	struct tplan_seg_iter walk;
	struct tplan_seg seg;
	u32 parts = 0;

	if (!drawn_by_stretches(v, t))
		return 1;
	tplan_seg_begin(&walk, t, v->table->gaps);
	while (tplan_seg_next(&walk, &seg))
		parts += seg.from < seg.to;
	return parts;
}

/* Stretch @seg of tensor @i as item @it; the item after it. */
static struct tplanctl_show_item *
add_part(const struct tplanctl_show_view *v, u32 i, const u64 *firsts,
	 const struct tplan_seg *seg, struct tplanctl_show_item *it)
{
	const struct tplan_tensor *t = &v->table->tensors[i];

	it->index = i;
	it->y0 = t->offset + seg->from;
	it->y1 = t->offset + seg->to;
	if (t->share_key) {
		it->x0 = v->t0;
		it->x1 = v->t1;
	} else if (v->stretch_count) {
		const struct tplanctl_show_stretch *s = find_stretch(v, t->model);
		u64 first = firsts[s - v->stretches];

		it->x0 = seg->lower - first + s->start;
		it->x1 = seg->upper - first + s->start;
	} else {
		it->x0 = seg->lower;
		it->x1 = seg->upper;
	}
	return it + 1;
}

/* Tensor @i's rectangles from @it on; the item after the last. */
static struct tplanctl_show_item *
add_parts(const struct tplanctl_show_view *v, u32 i, const u64 *firsts,
	  struct tplanctl_show_item *it)
{
	const struct tplan_tensor *t = &v->table->tensors[i];
	struct tplan_seg seg = { t->lower, t->upper, 0, t->size };
	struct tplan_seg_iter walk;

	if (!drawn_by_stretches(v, t))
		return add_part(v, i, firsts, &seg, it);
	tplan_seg_begin(&walk, t, v->table->gaps);
	while (tplan_seg_next(&walk, &seg))
		if (seg.from < seg.to)
			it = add_part(v, i, firsts, &seg, it);
	return it;
}

/* The items of every tensor with bytes, by tier then row (a counting sort). */
static int build_items(struct tplanctl_show_view *v, const u8 *skip,
		       const u64 *firsts, u32 *bad_row)
{
	const struct tplan_table *table = v->table;
	u32 per_tier[TPLAN_MAX_TIERS] = { 0 }, at[TPLAN_MAX_TIERS], i, k;
	struct tplanctl_show_item *next;

	for (i = 0; i < table->count; i++) {
		const struct tplan_tensor *t = &table->tensors[i];
		u64 top;

		if (!t->size || skip[i])
			continue;
		*bad_row = i;
		if (t->tier >= TPLAN_MAX_TIERS)
			return -ERANGE;
		if (check_add_overflow(t->offset, t->size, &top))
			return -EOVERFLOW;
		k = drawn_parts(v, i);
		per_tier[t->tier] += k;
		v->count += k;
	}
	v->items = calloc((size_t)v->count + 1, sizeof(*v->items));
	if (!v->items)
		return -ENOMEM;
	for (k = 0, i = 0; k < TPLAN_MAX_TIERS; k++) {
		at[k] = i;
		i += per_tier[k];
		if (per_tier[k])
			v->panel_count = k + 1;
	}
	for (i = 0; i < table->count; i++) {
		const struct tplan_tensor *t = &table->tensors[i];

		if (!t->size || skip[i])
			continue;
		next = add_parts(v, i, firsts, &v->items[at[t->tier]]);
		at[t->tier] = (u32)(next - v->items);
	}
	return 0;
}

/* The lower bound of the rows in @tier (any tier: -1), as "plan" has it. */
static bool tier_bound(const struct tplan_table *table,
		       const struct tplan_options *opts, s64 tier, u64 *bound)
{
	struct tplan_options o = {
		.flags = opts->flags & (TPLAN_PLAN_ALIASES | TPLAN_PLAN_SERIAL),
		.gaps = table->gaps,
		.gap_count = table->gap_count,
	};
	struct tplan_tensor *copy;
	u32 i, n = 0;
	int ret;

	copy = malloc(((size_t)table->count + 1) * sizeof(*copy));
	if (!copy)
		return false;
	for (i = 0; i < table->count; i++) {
		if (tier >= 0 && table->tensors[i].tier != (u32)tier)
			continue;
		copy[n] = table->tensors[i];
		copy[n].tiers = 0;
		copy[n++].tier = 0;
	}
	ret = tplan_tensors_lower_bound(copy, n, &o, bound);
	free(copy);
	return !ret;
}

struct live_event {
	u64 at;
	u64 size;
	u32 end;
};

static int cmp_event(const void *a, const void *b)
{
	const struct live_event *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return (int)y->end - (int)x->end;	/* ends first: [lower, upper) */
}

/*
 * The steps [start, end) at which @p has the most bytes live, merged and in
 * order, into @spans (room for @n pairs), and those bytes into @most;
 * returns how many.  Pass 0 also writes the bytes live from each step where
 * they change into @p->live (room for @n points).
 */
static u32 busiest_spans(struct live_event *ev, u32 n, u64 (*spans)[2],
			 u64 *most, struct tplanctl_show_panel *p)
{
	unsigned __int128 live = 0, best = 0;
	u32 i, pass, count = 0;

	qsort(ev, n, sizeof(*ev), cmp_event);
	for (pass = 0; pass < 2; pass++) {
		live = 0;
		for (i = 0; i < n;) {
			u64 at = ev[i].at;

			for (; i < n && ev[i].at == at; i++) {
				if (ev[i].end)
					live -= ev[i].size;
				else
					live += ev[i].size;
			}
			/* sizes are u64; overlapping tensors may pass 2^64 */
			if (!pass && (!p->live_count ||
				      p->live[p->live_count - 1][1] !=
				      (live > ~0ull ? ~0ull : (u64)live))) {
				p->live[p->live_count][0] = at;
				p->live[p->live_count++][1] =
					live > ~0ull ? ~0ull : (u64)live;
			}
			if (i == n || !live)
				continue;
			if (!pass) {
				best = live > best ? live : best;
			} else if (live == best) {
				if (count && spans[count - 1][1] == at)
					spans[count - 1][1] = ev[i].at;
				else {
					spans[count][0] = at;
					spans[count++][1] = ev[i].at;
				}
			}
		}
	}
	*most = best > ~0ull ? ~0ull : (u64)best;
	return count;
}

/* Whether [x0, x1) meets one of @spans. */
static bool meets(u64 (*spans)[2], u32 count, u64 x0, u64 x1)
{
	u32 lo = 0, hi = count;

	while (lo < hi) {	/* the first span ending after x0 */
		u32 mid = lo + (hi - lo) / 2;

		if (spans[mid][1] <= x0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < count && spans[lo][0] < x1;
}

static int mark_panel(struct tplanctl_show_view *v,
		      struct tplanctl_show_panel *p, bool aliases)
{
	struct live_event *ev;
	u64 (*spans)[2];
	u32 i, n = 0, count;

	ev = malloc(((size_t)p->count * 2 + 1) * sizeof(*ev));
	spans = malloc(((size_t)p->count * 2 + 1) * sizeof(*spans));
	p->live = malloc(((size_t)p->count * 2 + 1) * sizeof(*p->live));
	if (!ev || !spans || !p->live) {
		free(ev);
		free(spans);
		return -ENOMEM;
	}
	for (i = p->first; i < p->first + p->count; i++) {
		const struct tplanctl_show_item *it = &v->items[i];
		u64 size = it->y1 - it->y0;

		if (aliases && (v->table->tensors[it->index].flags &
				TPLAN_TENSOR_ALIAS))
			continue;
		ev[n++] = (struct live_event){ it->x0, size, 0 };
		ev[n++] = (struct live_event){ it->x1, size, 1 };
	}
	count = busiest_spans(ev, n, spans, &p->busy_bytes, p);
	p->busy_at = count ? spans[0][0] : 0;
	for (i = p->first; i < p->first + p->count; i++) {
		struct tplanctl_show_item *it = &v->items[i];

		if (it->y1 == p->peak) {
			it->mark = TPLANCTL_SHOW_PEAK;
		} else if (it->y1 > tplanctl_show_bound(p)) {
			/* what keeps the peak above the bound, with those */
			it->mark = TPLANCTL_SHOW_ABOVE;
			p->above++;
		} else if (meets(spans, count, it->x0, it->x1)) {
			it->mark = TPLANCTL_SHOW_BUSY;
		}
	}
	free(ev);
	free(spans);
	return 0;
}

static int build_panels(struct tplanctl_show_view *v,
			const struct tplan_options *opts)
{
	u32 i, k;
	int ret;

	v->aliases = opts->flags & TPLAN_PLAN_ALIASES;
	/* not max(max(...)): nested, its locals shadow each other */
	v->panel_count = max(v->panel_count, 1u);
	v->panel_count = max(v->panel_count, opts->tier_count);
	v->tiered = v->panel_count > 1 ||
		    (v->table->columns & TPLAN_COLUMN_TIER);
	v->has_bound = tier_bound(v->table, opts, -1, &v->bound);
	for (k = 0, i = 0; k < v->panel_count; k++) {
		struct tplanctl_show_panel *p = &v->panels[k];

		p->tier = k;
		p->first = i;
		while (i < v->count && v->table->tensors[v->items[i].index].tier == k)
			p->peak = max(p->peak, v->items[i++].y1);
		p->count = i - p->first;
		v->peak += p->peak;
		if (v->panel_count == 1) {
			p->bound = v->bound;
			p->has_bound = v->has_bound;
		} else {
			p->has_bound = tier_bound(v->table, opts, k, &p->bound);
		}
		ret = mark_panel(v, p, v->aliases);
		if (ret)
			return ret;
		v->tier_bounds += tplanctl_show_bound(p);
	}
	return 0;
}

/**
 * tplanctl_show_bound() - a panel's live-bytes bound
 * @p: the panel
 *
 * Return: the most bytes its tier's tensors have live at one step, as
 * "plan" computes it (aliases folded), or as the panel's live-bytes curve
 * has it where the planner's checks refuse the tier.
 */
u64 tplanctl_show_bound(const struct tplanctl_show_panel *p)
{
	return p->has_bound ? p->bound : p->busy_bytes;
}

/* Gaps are drawn as stretches: they must be ones the planner accepts. */
static int check_gaps(struct tplanctl_show_view *v, u32 *bad_row)
{
	const struct tplan_table *table = v->table;
	struct tplan_finding f;

	if (!tplan_tensors_check_gaps(table->tensors, table->count, table->gaps,
				      table->gap_count, &f))
		return 0;
	*bad_row = f.index;
	v->defect = f.defect;
	return -EINVAL;
}

/**
 * tplanctl_show_build() - lay a plan out for drawing
 * @v: the view, filled in; tplanctl_show_free() releases it
 * @table: the plan (its offset and tier fields)
 * @source: its name, for titles
 * @opts: %TPLAN_PLAN_SERIAL and %TPLAN_PLAN_ALIASES as planned, and the
 *        tier count (0 or 1: as many tiers as the table uses)
 * @bad_row: on -ERANGE, -EOVERFLOW or -EINVAL, the row at fault
 *
 * A tensor with gaps is drawn as its stretches with bytes present.
 *
 * Return: 0, -ENOMEM, -ERANGE (a tier beyond %TPLAN_MAX_TIERS),
 * -EOVERFLOW (an offset + size, or the serial timeline, beyond 64 bits) or
 * -EINVAL (gaps the planner would refuse: @v->defect says why).
 */
int tplanctl_show_build(struct tplanctl_show_view *v,
			const struct tplan_table *table, const char *source,
			const struct tplan_options *opts, u32 *bad_row)
{
	u64 *firsts = NULL;
	u8 *skip;
	int ret;

	memset(v, 0, sizeof(*v));
	v->table = table;
	v->source = source;
	*bad_row = 0;
	skip = calloc((size_t)table->count + 1, 1);
	if (!skip)
		return -ENOMEM;
	ret = build_timeline(v, &firsts, opts->flags & TPLAN_PLAN_SERIAL);
	if (!ret)
		ret = check_gaps(v, bad_row);
	if (!ret)
		ret = mark_share_duplicates(table, skip);
	if (!ret)
		ret = build_items(v, skip, firsts, bad_row);
	if (!ret)
		ret = build_panels(v, opts);
	if (!ret)
		ret = tplanctl_show_link_pieces(v);
	free(skip);
	free(firsts);
	if (ret)
		tplanctl_show_free(v);
	return ret;
}

/* Whether some item's top is above its panel's bound (not at the peak). */
bool tplanctl_show_any_above(const struct tplanctl_show_view *v)
{
	u32 k;

	for (k = 0; k < v->panel_count; k++)
		if (v->panels[k].above)
			return true;
	return false;
}

/**
 * tplanctl_show_u128() - a sum of byte counts in decimal
 * @buf: room for %TPLANCTL_U128_DIGITS characters
 * @x: the number
 *
 * Return: @buf.
 */
const char *tplanctl_show_u128(char buf[TPLANCTL_U128_DIGITS], tplanctl_u128 x)
{
	char *p = buf + TPLANCTL_U128_DIGITS - 1;

	*p = '\0';
	do {
		*--p = (char)('0' + (unsigned int)(x % 10));
		x /= 10;
	} while (x);
	memmove(buf, p, (size_t)(buf + TPLANCTL_U128_DIGITS - p));
	return buf;
}

void tplanctl_show_free(struct tplanctl_show_view *v)
{
	u32 k;

	for (k = 0; k < TPLAN_MAX_TIERS; k++) {
		free(v->panels[k].live);
		v->panels[k].live = NULL;
	}
	tplanctl_show_free_labels(v);
	free(v->items);
	free(v->stretches);
	v->items = NULL;
	v->stretches = NULL;
}

/**
 * tplanctl_show_tensor_text() - one tensor in words, for a tooltip or a
 * legend: "conv1: 802816 bytes, steps [3, 7), offset 0, model 1"
 * @v: the view
 * @it: the tensor's item
 * @buf: where to write it, cut to fit
 * @len: its room
 *
 * The steps are the table's own (not the drawn timeline's); tier, model
 * and share_key are said when the table has them.
 */
void tplanctl_show_tensor_text(const struct tplanctl_show_view *v,
			       const struct tplanctl_show_item *it,
			       char *buf, size_t len)
{
	const struct tplan_table *table = v->table;
	const struct tplan_tensor *t = &table->tensors[it->index];
	size_t used;

	if (table->names)
		used = (size_t)snprintf(buf, len, "%s", table->names[it->index]);
	else
		used = (size_t)snprintf(buf, len, "%llu", t->id);
	if (used < len && tplanctl_show_label(v, it->index))
		used += (size_t)snprintf(buf + used, len - used, " (%s)",
					 tplanctl_show_label(v, it->index));
	if (used < len)
		used += (size_t)snprintf(buf + used, len - used,
					 ": %llu bytes, steps [%llu, %llu), offset %llu",
					 t->size, t->lower, t->upper, t->offset);
	if (used < len && v->tiered)
		used += (size_t)snprintf(buf + used, len - used, ", tier %u",
					 t->tier);
	if (used < len && (table->columns & TPLAN_COLUMN_MODEL))
		used += (size_t)snprintf(buf + used, len - used, ", model %u",
					 t->model);
	if (used < len && t->share_key)
		used += (size_t)snprintf(buf + used, len - used,
					 ", share_key %llu", t->share_key);
	if (used < len && t->gap_count)
		used += (size_t)snprintf(buf + used, len - used, ", %u gap%s",
					 t->gap_count, t->gap_count > 1 ? "s" : "");
	if (used < len && table->piece && table->piece[it->index])
		snprintf(buf + used, len - used,
			 ", piece %u, back in from host offset %llu",
			 table->piece[it->index],
			 table->host_offset ? table->host_offset[it->index] : 0);
	else if (used < len && table->piece)
		snprintf(buf + used, len - used, ", piece 0");
}

/* Larger first; the table's order among equals. */
static int cmp_bigger(const void *a, const void *b, void *arg)
{
	const struct tplanctl_show_item *items = arg;
	const struct tplanctl_show_item *x = &items[*(const u32 *)a];
	const struct tplanctl_show_item *y = &items[*(const u32 *)b];
	u64 sx = x->y1 - x->y0, sy = y->y1 - y->y0;

	if (sx != sy)
		return sx > sy ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* A tensor's name in a list: its id, or its label if the id is a number. */
static size_t name_text(const struct tplanctl_show_view *v, u32 index,
			char *buf, size_t len)
{
	const char *label = tplanctl_show_label(v, index);

	if (v->table->names)
		return (size_t)snprintf(buf, len, "%s", v->table->names[index]);
	if (label)
		return (size_t)snprintf(buf, len, "%s", label);
	return (size_t)snprintf(buf, len, "%llu", v->table->tensors[index].id);
}

#define BUSY_NAMES	8	/* tensors named in the busiest step's line */

/**
 * tplanctl_show_busy_text() - the busiest step in words: "busiest step 12
 * (104 bytes live): conv, in, bias"
 * @v: the view
 * @p: the panel
 * @buf: where to write it, cut to fit
 * @len: its room
 *
 * Names the first step of @p with the most bytes live and the tensors
 * alive there, largest first (by id; by label for numeric ids that have
 * one), at most %BUSY_NAMES and how many more; only the step when it is
 * outside the steps drawn (show --steps).  Empty for a panel without
 * bytes.
 *
 * Return: 0 or -ENOMEM.
 */
int tplanctl_show_busy_text(const struct tplanctl_show_view *v,
			    const struct tplanctl_show_panel *p, char *buf,
			    size_t len)
{
	u32 i, n = 0, *alive;
	size_t used;

	buf[0] = '\0';
	if (!p->busy_bytes)
		return 0;
	if (p->busy_at < v->t0 || p->busy_at >= v->t1) {	/* --steps */
		snprintf(buf, len, "busiest step %llu (%llu bytes live), outside the steps drawn",
			 p->busy_at, p->busy_bytes);
		return 0;
	}
	alive = malloc(((size_t)p->count + 1) * sizeof(*alive));
	if (!alive)
		return -ENOMEM;
	for (i = p->first; i < p->first + p->count; i++) {
		const struct tplanctl_show_item *it = &v->items[i];

		if (it->x0 <= p->busy_at && p->busy_at < it->x1 &&
		    !(v->aliases && (v->table->tensors[it->index].flags &
				     TPLAN_TENSOR_ALIAS)))
			alive[n++] = i;
	}
	qsort_r(alive, n, sizeof(*alive), cmp_bigger, v->items);
	used = (size_t)snprintf(buf, len, "busiest step %llu (%llu bytes live):",
				p->busy_at, p->busy_bytes);
	for (i = 0; i < n && i < BUSY_NAMES && used < len; i++) {
		used += (size_t)snprintf(buf + used, len - used, "%s", i ? ", " : " ");
		if (used < len)
			used += name_text(v, v->items[alive[i]].index, buf + used,
					  len - used);
	}
	if (n > BUSY_NAMES && used < len)
		snprintf(buf + used, len - used, " and %u more", n - BUSY_NAMES);
	free(alive);
	return 0;
}
