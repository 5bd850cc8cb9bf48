/* SPDX-License-Identifier: MIT */
/*
 * tplanctl_show.h - a plan laid out for drawing ("tplanctl show", "plan
 * --svg"): one rectangle per tensor (per stretch of presence with gaps),
 * time across, address up, one panel per tier, the names written on them;
 * and the two writers that draw it, as SVG and as text.
 */
#ifndef TPLANCTL_SHOW_H
#define TPLANCTL_SHOW_H

#include <stdio.h>

#include "tplanctl.h"

/* How a rectangle is coloured: what it has to do with the panel's peak. */
enum tplanctl_show_mark {
	TPLANCTL_SHOW_OTHER,
	TPLANCTL_SHOW_BUSY,	/* alive at a step with the most bytes live */
	TPLANCTL_SHOW_ABOVE,	/* its top is above the live-bytes bound */
	TPLANCTL_SHOW_PEAK,	/* its top is the panel's peak */
};

/*
 * Sums of u64 byte counts (the tiers' peaks, the bytes a spill plan moves)
 * may pass 2^64: they are kept whole and printed by tplanctl_show_u128().
 */
typedef unsigned __int128 tplanctl_u128;

#define TPLANCTL_U128_DIGITS	40	/* room for one in decimal, and a NUL */

/* No such item. */
#define TPLANCTL_SHOW_NONE	0xffffffffu

/**
 * struct tplanctl_show_item - one rectangle
 * @index: the tensor's row in the table
 * @mark: a &enum tplanctl_show_mark value
 * @prev: in a spill plan, the item of the same tensor's piece before this
 *        one (the tensor was moved out in between), else %TPLANCTL_SHOW_NONE
 * @first: the item of the tensor's first drawn piece (itself if none before)
 * @x0: first step, on the drawn timeline
 * @x1: first step after it (exclusive)
 * @y0: its offset
 * @y1: offset + size (exclusive)
 */
struct tplanctl_show_item {
	u32 index;
	u32 mark;
	u32 prev;
	u32 first;
	u64 x0;
	u64 x1;
	u64 y0;
	u64 y1;
};

/**
 * struct tplanctl_show_panel - the rectangles of one tier
 * @tier: the tier
 * @first: its items are view->items[@first, @first + @count)
 * @count: how many
 * @peak: the highest offset + size
 * @bound: the live-bytes bound of the tier's tensors (as "plan" computes
 *         it): the most bytes live at one step in the tier
 * @has_bound: @bound is known (the planner's checks accepted the tier);
 *             else tplanctl_show_bound() is @busy_bytes
 * @busy_at: the first step (on the drawn timeline) with the most bytes live
 * @busy_bytes: the bytes live then (0: the panel has no tensor with bytes):
 *              the tier's own live-bytes bound, the top of @live
 * @live: the bytes live per step, a step function: from step @live[i][0]
 *        (on the drawn timeline, increasing) @live[i][1] bytes are live,
 *        until the next point; the last point's bytes are 0 (NULL: none)
 * @live_count: how many points
 * @above: items marked %TPLANCTL_SHOW_ABOVE (the peak is above the bound)
 */
struct tplanctl_show_panel {
	u32 tier;
	u32 first;
	u32 count;
	u64 peak;
	u64 bound;
	bool has_bound;
	u64 busy_at;
	u64 busy_bytes;
	u64 (*live)[2];
	u32 live_count;
	u32 above;
};

/**
 * struct tplanctl_show_stretch - one serial model's part of the timeline
 * @model: the model
 * @start: its first step on the drawn timeline
 * @end: the step after its last
 */
struct tplanctl_show_stretch {
	u32 model;
	u64 start;
	u64 end;
};

/**
 * struct tplanctl_show_view - a plan ready to draw
 * @table: the plan
 * @source: its name, for titles
 * @items: one per tensor with bytes (one per share_key; a tensor with
 *         gaps has one per stretch with bytes present), by tier then row
 * @count: how many
 * @panels: one per tier, up to the last tier used
 * @panel_count: how many (1 untiered)
 * @tiered: the plan has tiers: panels are titled with theirs
 * @t0: the drawn timeline's first step
 * @t1: the step after its last (> @t0)
 * @stretches: serial models, one after another on the timeline, or NULL
 * @stretch_count: how many (0 unless serial with two models or more)
 * @peak: the panels' peaks summed (kept whole: it may pass 2^64)
 * @bound: the table's lower bound, as "plan" reports it (of all tiers as
 *         one arena)
 * @has_bound: @bound is known
 * @tier_bounds: the panels' live-bytes bounds summed (tiered: the least
 *               the tiers' peaks may sum to, the tiers being as they are)
 * @tensors: distinct tensors (a spill plan's rows are their pieces)
 * @moved: a spill plan's bytes moved out and back in (2 x size per piece
 *         after a tensor's first), else 0; kept whole
 * @defect: why tplanctl_show_build() refused the gaps (-EINVAL)
 * @aliases: planned with aliases: alias rows add no live bytes
 * @labels: the name to write on each table row (NULL where none), or NULL:
 *          tplanctl_show_labels()
 */
struct tplanctl_show_view {
	const struct tplan_table *table;
	const char *source;
	struct tplanctl_show_item *items;
	u32 count;
	struct tplanctl_show_panel panels[TPLAN_MAX_TIERS];
	u32 panel_count;
	bool tiered;
	u64 t0;
	u64 t1;
	struct tplanctl_show_stretch *stretches;
	u32 stretch_count;
	tplanctl_u128 peak;
	u64 bound;
	bool has_bound;
	tplanctl_u128 tier_bounds;
	u32 tensors;
	tplanctl_u128 moved;
	u32 defect;
	bool aliases;
	char **labels;
};

int tplanctl_show_build(struct tplanctl_show_view *v,
			const struct tplan_table *table, const char *source,
			const struct tplan_options *opts, u32 *bad_row);
void tplanctl_show_free(struct tplanctl_show_view *v);
u64 tplanctl_show_bound(const struct tplanctl_show_panel *p);
bool tplanctl_show_any_above(const struct tplanctl_show_view *v);
const char *tplanctl_show_u128(char buf[TPLANCTL_U128_DIGITS],
			       tplanctl_u128 x);
int tplanctl_show_link_pieces(struct tplanctl_show_view *v);
int tplanctl_show_zoom(struct tplanctl_show_view *v, u64 from, u64 to);
int tplanctl_show_svg(const struct tplanctl_show_view *v, u32 columns,
		      FILE *out);
int tplanctl_show_ascii(const struct tplanctl_show_view *v, u32 width,
			FILE *out);
void tplanctl_show_tensor_text(const struct tplanctl_show_view *v,
			       const struct tplanctl_show_item *it,
			       char *buf, size_t len);
int tplanctl_show_busy_text(const struct tplanctl_show_view *v,
			    const struct tplanctl_show_panel *p, char *buf,
			    size_t len);
int tplanctl_show_labels(struct tplanctl_show_view *v, const char *names_path);
void tplanctl_show_free_labels(struct tplanctl_show_view *v);
const char *tplanctl_show_label(const struct tplanctl_show_view *v, u32 index);
int tplanctl_show_write_svg(const char *cmd, const struct tplan_table *table,
			    const char *source, const struct tplanctl_args *a,
			    const char *path);

#endif /* TPLANCTL_SHOW_H */
