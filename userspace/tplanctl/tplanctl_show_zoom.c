// SPDX-License-Identifier: MIT
/*
 * tplanctl_show_zoom.c - "show --steps A:B": a laid-out plan cut down to a
 * range of steps, so that tensors that are slivers on the whole timeline
 * (a peak at steps 0-3 of 370) are drawn wide enough to see and name.
 */
#include <stdlib.h>

#include "tplanctl_show.h"

/* The live-bytes curve of @p from @from to @to; -ENOMEM. */
static int clip_live(struct tplanctl_show_panel *p, u64 from, u64 to)
{
	u64 (*live)[2], at = 0;
	u32 i = 0, n = 0;

	if (!p->live)
		return 0;
	live = malloc(((size_t)p->live_count + 2) * sizeof(*live));
	if (!live)
		return -ENOMEM;
	for (; i < p->live_count && p->live[i][0] <= from; i++)
		at = p->live[i][1];
	live[n][0] = from;
	live[n++][1] = at;
	for (; i < p->live_count && p->live[i][0] < to; i++) {
		live[n][0] = p->live[i][0];
		live[n++][1] = p->live[i][1];
	}
	/* the curve ends at the range's end, as it ends at the plan's */
	live[n][0] = to;
	live[n++][1] = 0;
	free(p->live);
	p->live = live;
	p->live_count = n;
	return 0;
}

/* The serial models' stretches that meet the range, cut to it. */
static void clip_stretches(struct tplanctl_show_view *v, u64 from, u64 to)
{
	u32 i, n = 0;

	for (i = 0; i < v->stretch_count; i++) {
		struct tplanctl_show_stretch s = v->stretches[i];

		if (s.end <= from || s.start >= to)
			continue;
		s.start = max(s.start, from);
		s.end = min(s.end, to);
		v->stretches[n++] = s;
	}
	v->stretch_count = n;
}

/* A kept item's links to other pieces, by their new indexes. */
static void remap_links(struct tplanctl_show_view *v, const u32 *map)
{
	u32 i;

	for (i = 0; i < v->count; i++) {
		struct tplanctl_show_item *it = &v->items[i];

		it->prev = it->prev == TPLANCTL_SHOW_NONE ? it->prev :
			   map[it->prev];
		it->first = map[it->first] == TPLANCTL_SHOW_NONE ? i :
			    map[it->first];
	}
}

/**
 * tplanctl_show_zoom() - keep steps [@from, @to) of a laid-out plan
 * @v: from tplanctl_show_build()
 * @from: the first step to draw, on the drawn timeline
 * @to: the step after the last (%UINT64_MAX: to the end)
 *
 * Items wholly outside are dropped, the others cut to the range, and the
 * live-bytes curves and the models' stretches with them.  The peaks, the
 * bounds and the busiest steps stay those of the whole plan.
 *
 * Return: 0, -ERANGE when the range holds none of the plan's steps (@v is
 * unchanged), -ENOMEM.
 */
int tplanctl_show_zoom(struct tplanctl_show_view *v, u64 from, u64 to)
{
	u32 *map, i, k, n = 0;
	int ret = 0;

	from = max(from, v->t0);
	to = min(to, v->t1);
	if (from >= to)
		return -ERANGE;
	map = malloc(((size_t)v->count + 1) * sizeof(*map));
	if (!map)
		return -ENOMEM;
	for (i = 0; i < v->count; i++)
		map[i] = TPLANCTL_SHOW_NONE;
	for (k = 0; k < v->panel_count; k++) {
		struct tplanctl_show_panel *p = &v->panels[k];
		u32 first = n;

		for (i = p->first; i < p->first + p->count; i++) {
			struct tplanctl_show_item it = v->items[i];

			if (it.x1 <= from || it.x0 >= to)
				continue;
			it.x0 = max(it.x0, from);
			it.x1 = min(it.x1, to);
			map[i] = n;
			v->items[n++] = it;
		}
		p->first = first;
		p->count = n - first;
		if (!ret)
			ret = clip_live(p, from, to);
	}
	v->count = n;
	remap_links(v, map);
	free(map);
	clip_stretches(v, from, to);
	v->t0 = from;
	v->t1 = to;
	return ret;
}
