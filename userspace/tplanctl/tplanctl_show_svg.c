// SPDX-License-Identifier: MIT
/*
 * tplanctl_show_svg.c - a plan as an SVG picture: time across, address up
 * (0 at the bottom), one panel per tier, each tensor a rectangle with its
 * tooltip and, where it is wide enough, its name; the live-bytes bound and
 * the peak as lines; under the packing, the bytes live at each step as a
 * curve on the same scale, whose top is the live-bytes bound.
 *
 * Text from the table (ids, names, labels, the file's name) is escaped for
 * XML, and bytes that are not UTF-8 are written as U+FFFD, so that any XML
 * parser reads what this writes.
 *
 * A large table stays small and quick to draw: up to SVG_MAX_RECTS tensors
 * each get their rectangle; beyond, the largest ones (at least a pixel
 * each way) up to that many do, and the others are painted into a bitmap of
 * the plot, one cell per pixel, written as runs of filled cells (merged
 * across columns) in grey, under one tooltip.
 */
#include <stdlib.h>
#include <string.h>

#include "tplanctl_show.h"

#define SVG_COLUMN	12	/* plot pixels per text-view column (--width) */
#define SVG_PLOT_H	300	/* each panel's plot height */
#define SVG_LEFT	80	/* room for the address labels */
#define SVG_RIGHT	20
#define SVG_HEAD	30	/* the title line */
#define SVG_HEAD_TIERS	48	/* and a tiered plan's bounds under it */
#define SVG_PANEL_TOP	24	/* a panel's title, above its plot */
#define SVG_CURVE_GAP	8	/* between the plot and the live-bytes curve */
#define SVG_CURVE_H	80	/* the curve's height */
#define SVG_PANEL_BOTTOM 36	/* the step labels, below it */
#define SVG_LEGEND	28
#define SVG_LEGEND_ROW	18	/* each row of the legend after the first */
#define SVG_TITLE_CHAR	7.0	/* a bold title's width per character */
#define SVG_PANEL	(SVG_PANEL_TOP + SVG_PLOT_H + SVG_CURVE_GAP + \
			 SVG_CURVE_H + SVG_PANEL_BOTTOM)
#define SVG_CURVE_EXACT	4	/* points drawn one by one, per pixel */
#define SVG_MAX_RECTS	4000
#define SVG_BUSY_TEXT	120	/* the busiest step's line, cut to fit */

static const char svg_style[] =
	"text{font:12px sans-serif;fill:#222}"
	"text.h{font-weight:bold}"
	"text.l{paint-order:stroke;stroke:#fff;stroke-width:3px}"
	"g.r{stroke:#fff;stroke-width:.4}"
	".c0{fill:#4e79a7}.c1{fill:#76a1c9}.c2{fill:#5b9a96}.c3{fill:#8cb9cf}"
	".b0{fill:#f28e2b}.b1{fill:#f6b352}"
	".a0{fill:#b5338a}.a1{fill:#d463a8}"
	".p0{fill:#d62728}.p1{fill:#a61d1f}"
	".agg{fill:#8a8a8a}"
	".frame{fill:none;stroke:#888}"
	".grid{stroke:#e6e6e6}"
	"line.peak{stroke:#d62728;stroke-width:1.5}text.peak{fill:#b01f20}"
	"line.bound{stroke:#2ca02c;stroke-width:1.5;stroke-dasharray:6 4}"
	"text.bound{fill:#1d7a1d}"
	"line.model{stroke:#555;stroke-dasharray:3 3}"
	"path.live{fill:#cfe6cf;stroke:#2a8a2a;stroke-width:1}"
	"text.live{fill:#1d6a1d;font-size:11px}"
	"line.move{stroke:#6a3d9a;stroke-width:1.2;stroke-dasharray:2 2}"
	"g.busy line,line.busy{stroke:#e07b12;stroke-width:1.2;stroke-dasharray:1 3}"
	"g.busy path{fill:#e07b12}"
	"g.n text{font-size:9px;fill:#fff;pointer-events:none}";

/* A label's width at g.n's 9px, per character, and the room around it. */
#define SVG_LABEL_CHAR	5.5
#define SVG_LABEL_PAD	4
#define SVG_LABEL_H	10

/* Where a panel's plot is. */
struct svg_panel {
	const struct tplanctl_show_view *v;
	const struct tplanctl_show_panel *p;
	double top;	/* the plot's top edge */
	double ymax;	/* the bytes at the top edge */
	int plot_w;	/* the plot's width, pixels */
};

static long floor_l(double x)
{
	long i = (long)x;

	return (double)i > x ? i - 1 : i;
}

static long ceil_l(double x)
{
	long i = (long)x;

	return (double)i < x ? i + 1 : i;
}

static double at_least_1(double x)
{
	return x < 1 ? 1 : x;
}

static double svg_x(const struct svg_panel *g, u64 step)
{
	const struct tplanctl_show_view *v = g->v;

	return SVG_LEFT + (double)(step - v->t0) * g->plot_w /
		(double)(v->t1 - v->t0);
}

static double svg_y(const struct svg_panel *g, u64 bytes)
{
	return g->top + SVG_PLOT_H - (double)bytes * SVG_PLOT_H / g->ymax;
}

/*
 * The length of the UTF-8 sequence at @s of a character XML 1.0 allows
 * (U+FFFE and U+FFFF it does not), or 0.
 */
static u32 utf8_char(const unsigned char *s)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	u32 n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;		/* overlong */
	else if (c == 0xed)
		hi = 0x9f;		/* UTF-16 surrogates */
	else if (c == 0xf0)
		lo = 0x90;		/* overlong */
	else if (c == 0xf4)
		hi = 0x8f;		/* beyond U+10FFFF */
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	if (c == 0xef && s[1] == 0xbf && s[2] >= 0xbe)
		return 0;		/* U+FFFE, U+FFFF */
	return n;
}

/* The characters of @text (UTF-8, U+FFFD for each bad byte). */
static size_t utf8_chars(const char *text)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t n = 0;
	u32 len;

	for (; *s; n++) {
		len = utf8_char(s);
		s += len ? len : 1;
	}
	return n;
}

/*
 * @text as XML character data or attribute text: markup escaped, control
 * characters XML does not allow dropped, bytes that are not UTF-8 (or a
 * character XML does not allow) written as U+FFFD, one per byte.
 */
static void svg_escape(FILE *out, const char *text)
{
	const unsigned char *s = (const unsigned char *)text;
	u32 len;

	while (*s) {
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		default:
			if (*s < 0x20 && *s != '\t')
				break;
			len = utf8_char(s);
			if (!len) {
				fputs("\xef\xbf\xbd", out);	/* U+FFFD */
				break;
			}
			fwrite(s, 1, len, out);
			s += len;
			continue;
		}
		s++;
	}
}

/* "9633792 bytes (9.2 MiB)", or "512 bytes" (a sum may pass 2^64) */
static void svg_bytes(char *buf, size_t len, tplanctl_u128 bytes)
{
	static const char *const units[] = {
		"KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB"
	};
	char num[TPLANCTL_U128_DIGITS];
	double value = (double)bytes;
	int u = -1;

	while (u < 6 && value >= 1024) {
		value /= 1024;
		u++;
	}
	tplanctl_show_u128(num, bytes);
	if (u < 0)
		snprintf(buf, len, "%s bytes", num);
	else
		snprintf(buf, len, "%s bytes (%.1f %s)", num, value, units[u]);
}

/*
 * The smallest 1, 2 or 5 times a power of ten at least @x (>= 1), or the
 * largest of those below 2^64.
 */
static u64 nice_step(double x)
{
	u64 p = 1;

	while (p <= UINT64_MAX / 10 && (double)p * 10 <= x)
		p *= 10;
	if ((double)p >= x || p > UINT64_MAX / 2)
		return p;
	if ((double)p * 2 >= x || p > UINT64_MAX / 5)
		return p * 2;
	if ((double)p * 5 >= x || p > UINT64_MAX / 10)
		return p * 5;
	return p * 10;
}

/*
 * The busiest step, when drawn: a dotted line across the packing and the
 * curve, and a triangle on the step axis under it.
 */
static void svg_busy_step(FILE *out, const struct svg_panel *g)
{
	const struct tplanctl_show_panel *p = g->p;
	double bottom = g->top + SVG_PLOT_H + SVG_CURVE_GAP + SVG_CURVE_H;
	double x;
	char text[64];

	if (!p->busy_bytes || p->busy_at < g->v->t0 || p->busy_at >= g->v->t1)
		return;
	x = svg_x(g, p->busy_at);
	svg_bytes(text, sizeof(text), p->busy_bytes);
	fprintf(out, "<g class=\"busy\"><title>busiest step %llu: %s live</title>"
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		"<path d=\"M%.1f %.1f l-5 8 h10 Z\"/></g>\n",
		p->busy_at, text, x, g->top, x, bottom, x, bottom);
}

/* Steps along the bottom: a tick and its number every few steps. */
static void svg_step_axis(FILE *out, const struct svg_panel *g)
{
	const struct tplanctl_show_view *v = g->v;
	u64 step = nice_step((double)(v->t1 - v->t0) / 10), s;
	double bottom = g->top + SVG_PLOT_H + SVG_CURVE_GAP + SVG_CURVE_H;

	/* the first multiple of step from t0 on (t0 + step may wrap) */
	s = v->t0 / step * step;
	for (s += s < v->t0 && s <= UINT64_MAX - step ? step : 0;
	     s >= v->t0 && s <= v->t1; s += step) {
		double x = svg_x(g, s);

		fprintf(out, "<line class=\"frame\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%llu</text>\n",
			x, bottom, x, bottom + 4, x, bottom + 16, s);
		if (s > UINT64_MAX - step)
			break;
	}
	fprintf(out, "<text x=\"%d\" y=\"%.1f\">step</text>\n", SVG_LEFT,
		bottom + 31);
}

/* Addresses up the left: gridlines every 1, 2 or 5 KiB, MiB... */
static void svg_byte_axis(FILE *out, const struct svg_panel *g)
{
	static const char *const names[] = {
		"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"
	};
	double target = g->ymax / 6;
	u64 unit = 1, step, a;
	int u = 0;

	/* step < 1024 units: it fits in 64 bits */
	while (u < 6 && (double)unit * 1024 <= target) {
		unit *= 1024;
		u++;
	}
	step = nice_step(target / (double)unit) * unit;
	for (a = 0; (double)a <= g->ymax; a += step) {
		double y = svg_y(g, a);

		fprintf(out, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%llu %s</text>\n",
			SVG_LEFT, y, SVG_LEFT + g->plot_w, y, SVG_LEFT - 6,
			y + 4, a / unit, names[u]);
		if (a > UINT64_MAX - step)
			break;
	}
}

/* The pixel box of an item: x, y (top), width, height. */
static void item_box(const struct svg_panel *g,
		     const struct tplanctl_show_item *it, double box[4])
{
	box[0] = svg_x(g, it->x0);
	box[1] = svg_y(g, it->y1);
	box[2] = svg_x(g, it->x1) - box[0];
	box[3] = svg_y(g, it->y0) - box[1];
}

struct by_area {
	u32 mark;
	u32 item;
	double area;
};

/* The peak's tensors first, then the busiest step's, then by area. */
static int cmp_area(const void *a, const void *b)
{
	const struct by_area *x = a, *y = b;

	if (x->mark != y->mark)
		return x->mark > y->mark ? -1 : 1;
	if (x->area != y->area)
		return x->area > y->area ? -1 : 1;
	return x->item < y->item ? -1 : x->item > y->item;
}

/*
 * solo[i]: panel item i gets its own rectangle.  Every item does when the
 * table is small; else, up to the panel's share of SVG_MAX_RECTS, those
 * reaching the peak, then those alive at the busiest step, then the largest
 * of those at least a pixel each way.  *@rest: how many do not.
 */
static int choose_solo(const struct svg_panel *g, u8 *solo, u32 *rest)
{
	const struct tplanctl_show_panel *p = g->p;
	u32 budget, n = 0, i;
	struct by_area *c;
	double box[4];

	*rest = 0;
	if (g->v->count <= SVG_MAX_RECTS) {
		memset(solo, 1, p->count);
		return 0;
	}
	c = malloc(((size_t)p->count + 1) * sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (i = 0; i < p->count; i++) {
		const struct tplanctl_show_item *it = &g->v->items[p->first + i];

		item_box(g, it, box);
		if ((box[2] >= 1 && box[3] >= 1) || it->mark != TPLANCTL_SHOW_OTHER)
			c[n++] = (struct by_area){ it->mark, i, box[2] * box[3] };
	}
	budget = (u32)((u64)SVG_MAX_RECTS * p->count / g->v->count);
	if (n > budget) {
		qsort(c, n, sizeof(*c), cmp_area);
		n = budget;
	}
	memset(solo, 0, p->count);
	for (i = 0; i < n; i++)
		solo[c[i].item] = 1;
	*rest = p->count - n;
	free(c);
	return 0;
}

static const char *item_class(const struct tplanctl_show_item *it, u32 k)
{
	static const char *const normal[] = { "c0", "c1", "c2", "c3" };

	if (it->mark == TPLANCTL_SHOW_PEAK)
		return k & 1 ? "p1" : "p0";
	if (it->mark == TPLANCTL_SHOW_ABOVE)
		return k & 1 ? "a1" : "a0";
	if (it->mark == TPLANCTL_SHOW_BUSY)
		return k & 1 ? "b1" : "b0";
	return normal[k % 4];
}

static void svg_items(FILE *out, const struct svg_panel *g, const u8 *solo)
{
	const struct tplanctl_show_panel *p = g->p;
	char text[TPLAN_MAX_LINE + 128];
	double box[4];
	u32 i;

	fputs("<g class=\"r\">\n", out);
	for (i = 0; i < p->count; i++) {
		const struct tplanctl_show_item *it = &g->v->items[p->first + i];

		if (!solo[i])
			continue;
		item_box(g, it, box);
		tplanctl_show_tensor_text(g->v, it, text, sizeof(text));
		/* a tensor's pieces share their first piece's colour */
		fprintf(out, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>",
			item_class(it, it->first - p->first), box[0], box[1],
			at_least_1(box[2]), at_least_1(box[3]));
		svg_escape(out, text);
		fputs("</title></rect>\n", out);
	}
	fputs("</g>\n", out);
}

/* Whether @text fits on one line of a rectangle @width pixels wide. */
static bool label_fits(const char *text, double width)
{
	return width >= SVG_LABEL_CHAR * (double)utf8_chars(text) +
			SVG_LABEL_PAD;
}

/* @text on a rectangle at @x, its middle at @y. */
static void svg_label(FILE *out, const char *text, double x, double y)
{
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">", x, y + 3);
	svg_escape(out, text);
	fputs("</text>\n", out);
}

/*
 * Each drawn tensor's name, on its rectangle where it fits: its label (a
 * names file's, the node column's) and, under it where there is room, its
 * id; else its id.
 */
static void svg_labels(FILE *out, const struct svg_panel *g, const u8 *solo)
{
	const struct tplanctl_show_panel *p = g->p;
	const struct tplan_table *table = g->v->table;
	const char *label, *id;
	char num[24];
	double box[4];
	u32 i;

	fputs("<g class=\"n\">\n", out);
	for (i = 0; i < p->count; i++) {
		const struct tplanctl_show_item *it = &g->v->items[p->first + i];

		if (!solo[i])
			continue;
		snprintf(num, sizeof(num), "%llu",
			 table->tensors[it->index].id);
		id = table->names ? table->names[it->index] : num;
		label = tplanctl_show_label(g->v, it->index);
		item_box(g, it, box);
		if (box[3] < SVG_LABEL_H)
			continue;
		if (label && box[3] >= 2 * SVG_LABEL_H + 2 &&
		    label_fits(label, box[2]) && label_fits(id, box[2])) {
			svg_label(out, label, box[0] + 2,
				  box[1] + box[3] / 2 - SVG_LABEL_H / 2);
			svg_label(out, id, box[0] + 2,
				  box[1] + box[3] / 2 + SVG_LABEL_H / 2);
		} else if (label_fits(label ? label : id, box[2])) {
			svg_label(out, label ? label : id, box[0] + 2,
				  box[1] + box[3] / 2);
		}
	}
	fputs("</g>\n", out);
}

/*
 * A spill plan's moves: a dotted line from the end of each piece to the
 * start of the same tensor's next, both drawn on their own.
 */
static void svg_moves(FILE *out, const struct svg_panel *g, const u8 *solo)
{
	const struct tplanctl_show_panel *p = g->p;
	const struct tplan_table *table = g->v->table;
	char num[TPLANCTL_U128_DIGITS];
	double a[4], b[4];
	u32 i;

	for (i = 0; i < p->count; i++) {
		const struct tplanctl_show_item *it = &g->v->items[p->first + i];
		const struct tplanctl_show_item *was;
		const struct tplan_tensor *t = &table->tensors[it->index];

		if (it->prev == TPLANCTL_SHOW_NONE || !solo[i] ||
		    !solo[it->prev - p->first])
			continue;
		was = &g->v->items[it->prev];
		item_box(g, was, a);
		item_box(g, it, b);
		fprintf(out, "<line class=\"move\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"><title>",
			a[0] + a[2], a[1] + a[3] / 2, b[0], b[1] + b[3] / 2);
		if (table->names)
			svg_escape(out, table->names[it->index]);
		else
			fprintf(out, "%llu", t->id);
		fprintf(out, ": out at step %llu, back in at step %llu (host offset %llu), %s bytes moved</title></line>\n",
			table->tensors[was->index].upper, t->lower,
			table->host_offset ? table->host_offset[it->index] : 0,
			tplanctl_show_u128(num, 2 * (tplanctl_u128)t->size));
	}
}

/* A filled rectangle of bitmap cells: columns [x0, x1), rows [y0, y1). */
struct cell_run {
	u32 x0;
	u32 y0;
	u32 y1;
};

static void svg_run(FILE *out, const struct svg_panel *g,
		    const struct cell_run *r, u32 x1)
{
	fprintf(out, "<rect x=\"%u\" y=\"%.0f\" width=\"%u\" height=\"%u\"/>\n",
		SVG_LEFT + r->x0, g->top + r->y0, x1 - r->x0, r->y1 - r->y0);
}

/* The cells of one column, as runs of filled cells from the top. */
static u32 column_runs(const u8 *col, struct cell_run *runs, u32 x)
{
	u32 y = 0, n = 0;

	while (y < SVG_PLOT_H) {
		u32 y0;

		for (; y < SVG_PLOT_H && !col[y]; y++)
			;
		if (y == SVG_PLOT_H)
			break;
		for (y0 = y; y < SVG_PLOT_H && col[y]; y++)
			;
		runs[n++] = (struct cell_run){ x, y0, y };
	}
	return n;
}

/*
 * The bitmap as rectangles: each column's runs, a run the same as one of
 * the column before widening that one's rectangle.
 */
static int svg_bitmap(FILE *out, const struct svg_panel *g, const u8 *bitmap)
{
	struct cell_run *open, *cur, *next, *tmp;
	u32 x, no = 0, nc, nn, i, j;
	size_t room = SVG_PLOT_H / 2 + 1;

	open = malloc(room * sizeof(*open));
	cur = malloc(room * sizeof(*cur));
	next = malloc(2 * room * sizeof(*next));
	if (!open || !cur || !next) {
		free(open);
		free(cur);
		free(next);
		return -ENOMEM;
	}
	for (x = 0; x <= (u32)g->plot_w; x++) {
		static const u8 empty[SVG_PLOT_H];

		nc = column_runs(x < (u32)g->plot_w ? bitmap + (size_t)x * SVG_PLOT_H :
				 empty, cur, x);
		for (i = 0, j = 0, nn = 0; i < no || j < nc;) {
			if (i < no && j < nc && open[i].y0 == cur[j].y0 &&
			    open[i].y1 == cur[j].y1) {
				next[nn++] = open[i++];
				j++;
			} else if (j == nc || (i < no && open[i].y0 <= cur[j].y0)) {
				svg_run(out, g, &open[i++], x);
			} else {
				next[nn++] = cur[j++];
			}
		}
		/* nn <= room: the runs of one column never touch. */
		tmp = open;
		open = next;
		next = tmp;
		no = nn;
	}
	free(open);
	free(cur);
	free(next);
	return 0;
}

/* Paints the items without their own rectangle into a bitmap and draws it. */
static int svg_aggregate(FILE *out, const struct svg_panel *g, const u8 *solo,
			 u32 rest)
{
	const struct tplanctl_show_panel *p = g->p;
	double box[4];
	u8 *bitmap;
	u32 i;
	int ret;

	bitmap = calloc((size_t)g->plot_w * SVG_PLOT_H, 1);
	if (!bitmap)
		return -ENOMEM;
	for (i = 0; i < p->count; i++) {
		long x0, x1, y0, y1, x, y;

		if (solo[i])
			continue;
		item_box(g, &g->v->items[p->first + i], box);
		x0 = floor_l(box[0] - SVG_LEFT);
		x1 = max(x0 + 1, ceil_l(box[0] + box[2] - SVG_LEFT));
		y0 = floor_l(box[1] - g->top);
		y1 = max(y0 + 1, ceil_l(box[1] + box[3] - g->top));
		x0 = max(x0, 0L);
		y0 = max(y0, 0L);
		x1 = min(x1, (long)g->plot_w);
		y1 = min(y1, (long)SVG_PLOT_H);
		for (x = x0; x < x1; x++)
			for (y = y0; y < y1; y++)
				bitmap[x * SVG_PLOT_H + y] = 1;
	}
	fprintf(out, "<g class=\"agg\"><title>%u tensors under a pixel or beyond %u rectangles, drawn as the pixels they cover</title>\n",
		rest, SVG_MAX_RECTS);
	ret = svg_bitmap(out, g, bitmap);
	fputs("</g>\n", out);
	free(bitmap);
	return ret;
}

/*
 * The panel's live-bytes bound (dashed, labelled on the left: no packing of
 * its tensors is lower) and its peak (right: the top of this packing).
 */
static void svg_lines(FILE *out, const struct svg_panel *g)
{
	u64 bound = tplanctl_show_bound(g->p);
	char text[64];
	double y;

	y = svg_y(g, bound);
	svg_bytes(text, sizeof(text), bound);
	fprintf(out, "<line class=\"bound\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
		"<text class=\"bound l\" x=\"%d\" y=\"%.1f\">live-bytes bound %s</text>\n",
		SVG_LEFT, y, SVG_LEFT + g->plot_w, y, SVG_LEFT + 4, y - 4, text);
	y = svg_y(g, g->p->peak);
	svg_bytes(text, sizeof(text), g->p->peak);
	fprintf(out, "<line class=\"peak\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
		"<text class=\"peak l\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">peak %s</text>\n",
		SVG_LEFT, y, SVG_LEFT + g->plot_w, y, SVG_LEFT + g->plot_w - 4,
		y - 4, text);
}

/* A height on the live-bytes curve, on the packing's scale. */
static double curve_y(const struct svg_panel *g, u64 bytes)
{
	return g->top + SVG_PLOT_H + SVG_CURVE_GAP + SVG_CURVE_H -
		(double)bytes * SVG_CURVE_H / g->ymax;
}

/*
 * The live-bytes curve as a path, each point of it (few of them), or the
 * most bytes live during each pixel column's steps.
 */
static int svg_curve_path(FILE *out, const struct svg_panel *g)
{
	const struct tplanctl_show_panel *p = g->p;
	u64 *most, prev = 0;
	u32 i;
	long c;

	if (p->live_count <= (u32)SVG_CURVE_EXACT * g->plot_w) {
		for (i = 0; i < p->live_count; i++)
			fprintf(out, " H%.1f V%.1f", svg_x(g, p->live[i][0]),
				curve_y(g, p->live[i][1]));
		return 0;
	}
	most = calloc(g->plot_w, sizeof(*most));
	if (!most)
		return -ENOMEM;
	for (i = 0; i < p->live_count; i++) {
		double x1 = i + 1 < p->live_count ?
			    svg_x(g, p->live[i + 1][0]) : SVG_LEFT + g->plot_w;
		long c0 = floor_l(svg_x(g, p->live[i][0]) - SVG_LEFT);
		long c1 = max(c0 + 1, ceil_l(x1 - SVG_LEFT));

		for (c = max(c0, 0L); c < min(c1, (long)g->plot_w); c++)
			most[c] = max(most[c], p->live[i][1]);
	}
	for (c = 0; c < g->plot_w; c++) {
		if (most[c] == prev)
			continue;
		fprintf(out, " H%ld V%.1f", SVG_LEFT + c, curve_y(g, most[c]));
		prev = most[c];
	}
	free(most);
	return 0;
}

/*
 * Under the packing, on its scale: the bytes live at each step (the sum of
 * the sizes of the tensors alive then), its top the live-bytes bound.
 */
static int svg_curve(FILE *out, const struct svg_panel *g)
{
	const struct tplanctl_show_panel *p = g->p;
	double top = g->top + SVG_PLOT_H + SVG_CURVE_GAP;
	double base = top + SVG_CURVE_H, y, caption;
	char text[64];
	int ret;

	fprintf(out, "<rect class=\"frame\" x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%d\"/>\n",
		SVG_LEFT, top, g->plot_w, SVG_CURVE_H);
	fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">live</text>"
		"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">bytes</text>\n",
		SVG_LEFT - 6, top + SVG_CURVE_H / 2.0 - 2, SVG_LEFT - 6,
		top + SVG_CURVE_H / 2.0 + 12);
	if (!p->live_count)
		return 0;
	fprintf(out, "<path class=\"live\" d=\"M%d %.1f", SVG_LEFT, base);
	ret = svg_curve_path(out, g);
	svg_bytes(text, sizeof(text), p->busy_bytes);
	fprintf(out, " H%d V%.1f Z\"><title>live bytes per step: at most %s, first at step %llu</title></path>\n",
		SVG_LEFT + g->plot_w, base, text, p->busy_at);
	/* under the step axis, right of its "step": not over the curve */
	caption = 6.0 * (double)(strlen("bytes live at each step, at most ") +
				 strlen(text));
	fprintf(out, "<text class=\"live\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\"",
		SVG_LEFT + g->plot_w, base + 31);
	if (caption > g->plot_w - 40)
		fprintf(out, " textLength=\"%d\" lengthAdjust=\"spacingAndGlyphs\"",
			g->plot_w - 40);
	fprintf(out, ">bytes live at each step, at most %s</text>\n", text);
	/* the bound where the curve peaks, and the peak above it */
	y = curve_y(g, tplanctl_show_bound(p));
	fprintf(out, "<line class=\"bound\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n",
		SVG_LEFT, y, SVG_LEFT + g->plot_w, y);
	y = curve_y(g, p->peak);
	fprintf(out, "<line class=\"peak\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n",
		SVG_LEFT, y, SVG_LEFT + g->plot_w, y);
	return ret;
}

/* Serial models: a dashed line where each begins, its name above. */
static void svg_stretches(FILE *out, const struct svg_panel *g)
{
	u32 i;

	for (i = 0; i < g->v->stretch_count; i++) {
		const struct tplanctl_show_stretch *s = &g->v->stretches[i];
		double x = svg_x(g, s->start);

		if (i)
			fprintf(out, "<line class=\"model\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
				x, g->top, x, g->top + SVG_PLOT_H);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">model %u</text>\n",
			x + 4, g->top - 8, s->model);
	}
}

static int svg_draw_panel(FILE *out, const struct svg_panel *g, bool *aggregated)
{
	const struct tplanctl_show_panel *p = g->p;
	char busy[SVG_BUSY_TEXT];
	u32 rest = 0;
	int ret, fit;
	u8 *solo;

	/* cut to what fits left of the plot's right edge, after "N tensors; " */
	fit = (int)((SVG_LEFT + g->plot_w) / SVG_TITLE_CHAR) - 24;
	fit = max(16, min(fit, (int)sizeof(busy)));
	ret = tplanctl_show_busy_text(g->v, p, busy, (size_t)fit);
	if (ret)
		return ret;
	/* On the right: serial models are named on the left, above the plot. */
	fprintf(out, "<text class=\"h\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">",
		SVG_LEFT + g->plot_w, g->top - 8);
	if (g->v->tiered)
		fprintf(out, "tier %u: ", p->tier);
	fprintf(out, "%u tensors", p->count);
	if (*busy) {
		fputs("; ", out);
		svg_escape(out, busy);
	}
	fputs("</text>\n", out);
	svg_byte_axis(out, g);
	svg_step_axis(out, g);
	solo = malloc((size_t)p->count + 1);
	if (!solo)
		return -ENOMEM;
	ret = choose_solo(g, solo, &rest);
	if (!ret && rest) {
		*aggregated = true;
		ret = svg_aggregate(out, g, solo, rest);
	}
	if (!ret) {
		svg_items(out, g, solo);
		svg_labels(out, g, solo);
		svg_moves(out, g, solo);
		svg_busy_step(out, g);
	}
	free(solo);
	fprintf(out, "<rect class=\"frame\" x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%d\"/>\n",
		SVG_LEFT, g->top, g->plot_w, SVG_PLOT_H);
	svg_stretches(out, g);
	if (!ret)
		ret = svg_curve(out, g);
	if (p->count)
		svg_lines(out, g);
	else
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">no tensor with bytes</text>\n",
			SVG_LEFT + g->plot_w / 2.0, g->top + SVG_PLOT_H / 2.0);
	return ret;
}

/* The legend's keys that only some pictures need. */
#define LEGEND_AGGREGATED	(1u << 0)
#define LEGEND_MOVES		(1u << 1)
#define LEGEND_ABOVE		(1u << 2)

/* One key of the legend: a coloured box or a line, and what it means. */
struct legend_key {
	const char *box;	/* the box's class, or NULL */
	const char *line;	/* else the line's class */
	const char *text;
	unsigned int only;	/* drawn only in pictures with this LEGEND_*, or 0 */
};

static const struct legend_key legend_keys[] = {
	{ "p0", NULL, "reaches the peak", 0 },
	{ "a0", NULL, "above the live-bytes bound", LEGEND_ABOVE },
	{ "b0", NULL, "alive when the most bytes are live", 0 },
	{ "c0", NULL, "other tensors", 0 },
	{ "agg", NULL, "aggregated (under a pixel)", LEGEND_AGGREGATED },
	{ NULL, "peak", "peak", 0 },
	{ NULL, "bound", "live-bytes bound: the most bytes live at a step", 0 },
	{ NULL, "busy", "busiest step", 0 },
	{ NULL, "move", "moved out and back in", LEGEND_MOVES },
};

/*
 * The legend from @y down, wrapped to the picture's width (the keys of
 * &legend_keys that need a LEGEND_* only when @keys has it); with @out
 * NULL only measured.  Returns its rows.
 */
static u32 svg_legend(FILE *out, double y, unsigned int keys, int width)
{
	double x = SVG_LEFT, w;
	u32 i, rows = 1;

	for (i = 0; i < sizeof(legend_keys) / sizeof(legend_keys[0]); i++) {
		const struct legend_key *k = &legend_keys[i];

		if (k->only && !(keys & k->only))
			continue;
		w = 28 + 6.5 * (double)strlen(k->text);
		if (x > SVG_LEFT && x + w > width - SVG_RIGHT) {
			x = SVG_LEFT;
			y += SVG_LEGEND_ROW;
			rows++;
		}
		if (out && k->box)
			fprintf(out, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\"/>",
				k->box, x, y);
		else if (out)
			fprintf(out, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
				k->line, x, y + 6, x + 12, y + 6);
		/* a key wider than a whole row (a narrow picture) is squeezed */
		if (out && x + w > width - SVG_RIGHT)
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" textLength=\"%.1f\" lengthAdjust=\"spacingAndGlyphs\">%s</text>\n",
				x + 16, y + 10, width - SVG_RIGHT - x - 16,
				k->text);
		else if (out)
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n",
				x + 16, y + 10, k->text);
		x += w;
	}
	return rows;
}

static void svg_head(FILE *out, const struct tplanctl_show_view *v,
		     double height, int width)
{
	char peak[64], bound[64], tiers[64], num[TPLANCTL_U128_DIGITS];
	char rest[256];
	int n;

	svg_bytes(peak, sizeof(peak), v->peak);
	svg_bytes(bound, sizeof(bound), v->bound);
	svg_bytes(tiers, sizeof(tiers), v->tier_bounds);
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\">\n"
		"<style>%s</style>\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
		width, height, width, height, svg_style);
	n = snprintf(rest, sizeof(rest), ": %u tensors, ", v->tensors);
	if (v->table->piece)
		n += snprintf(rest + n, sizeof(rest) - n,
			      "%u pieces, moved %s bytes, ", v->table->count,
			      tplanctl_show_u128(num, v->moved));
	n += snprintf(rest + n, sizeof(rest) - n, "peak %s%s", peak,
		      v->tiered ? " (the tiers' peaks summed)" : "");
	if (v->has_bound && !v->tiered)
		snprintf(rest + n, sizeof(rest) - n, ", lower bound %s", bound);
	fprintf(out, "<text class=\"h\" x=\"%d\" y=\"20\"", SVG_LEFT);
	/* a title wider than the picture (a long path) is squeezed to fit */
	if (SVG_TITLE_CHAR * (double)(utf8_chars(v->source) + strlen(rest)) >
	    width - SVG_LEFT - SVG_RIGHT)
		fprintf(out, " textLength=\"%d\" lengthAdjust=\"spacingAndGlyphs\"",
			width - SVG_LEFT - SVG_RIGHT);
	fputc('>', out);
	svg_escape(out, v->source);
	fprintf(out, "%s</text>\n", rest);
	if (!v->tiered)
		return;
	fprintf(out, "<text x=\"%d\" y=\"38\">live-bytes bound %s (the tiers' bounds summed)",
		SVG_LEFT, tiers);
	if (v->has_bound)
		fprintf(out, "; lower bound %s (all tiers as one arena)",
			bound);
	fputs("</text>\n", out);
}

/**
 * tplanctl_show_svg() - draw a plan as an SVG picture
 * @v: the plan, laid out
 * @columns: the text view's width (--width): the plot is %SVG_COLUMN
 *           pixels a column (80: 960)
 * @out: where to write it
 *
 * Return: 0, -ENOMEM, or -EIO when writing failed.
 */
int tplanctl_show_svg(const struct tplanctl_show_view *v, u32 columns,
		      FILE *out)
{
	double head = v->tiered ? SVG_HEAD_TIERS : SVG_HEAD;
	double plots = head + (double)v->panel_count * SVG_PANEL, height;
	int plot_w = (int)columns * SVG_COLUMN;
	int width = SVG_LEFT + plot_w + SVG_RIGHT;
	bool aggregated = false;
	unsigned int keys;
	int ret = 0;
	u32 k;

	keys = (v->moved ? LEGEND_MOVES : 0) |
	       (tplanctl_show_any_above(v) ? LEGEND_ABOVE : 0);
	/* room for the legend's rows, as if some tensors may be aggregated */
	height = plots + SVG_LEGEND + SVG_LEGEND_ROW *
		 (svg_legend(NULL, 0, keys | (v->count > SVG_MAX_RECTS ?
					     LEGEND_AGGREGATED : 0),
			     width) - 1);
	svg_head(out, v, height, width);
	for (k = 0; k < v->panel_count && !ret; k++) {
		const struct tplanctl_show_panel *p = &v->panels[k];
		struct svg_panel g = {
			.v = v,
			.p = p,
			.top = head + (double)k * SVG_PANEL + SVG_PANEL_TOP,
			.ymax = (double)max(p->peak, p->has_bound ? p->bound : 0) *
				1.08,
			.plot_w = plot_w,
		};

		if (g.ymax < 1)
			g.ymax = 1;
		ret = svg_draw_panel(out, &g, &aggregated);
	}
	svg_legend(out, plots + 6, keys | (aggregated ? LEGEND_AGGREGATED : 0),
		   width);
	fputs("</svg>\n", out);
	if (!ret && (fflush(out) || ferror(out)))
		ret = -EIO;
	return ret;
}
