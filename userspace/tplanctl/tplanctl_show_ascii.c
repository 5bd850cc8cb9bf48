// SPDX-License-Identifier: MIT
/*
 * tplanctl_show_ascii.c - a plan as text for a terminal: per tier, one line
 * per step (or per bucket of steps when there are more than
 * ASCII_MAX_LINES), a row of characters across the addresses from 0 to the
 * peak, '.' where no tensor is, and a legend.
 *
 * A cell shows the tensor that covers most of its bytes during the line's
 * steps (the first in the table on a tie).  Tensors get the symbols 0-9,
 * a-z, A-Z in the order they first appear, reading from the top; those
 * after the 62nd show as '*'.  The pieces of a tensor in a spill plan share
 * its symbol.
 */
#include <stdlib.h>
#include <string.h>

#include "tplanctl_show.h"

#define ASCII_MAX_LINES	64

static const char ascii_symbols[] =
	"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

#define ASCII_SYMBOLS	(sizeof(ascii_symbols) - 1)

/* A panel's grid: @lines x @cols cells, each a step bucket by a byte range. */
struct ascii_grid {
	u64 cell;	/* bytes per column */
	u64 steps;	/* steps per line */
	u32 cols;
	u32 lines;
	u64 *cover;	/* bytes of the cell its tensor covers */
	u32 *who;	/* 1 + the panel item that covers most, 0: free */
};

static u32 digits(u64 x)
{
	u32 n = 1;

	while (x >= 10) {
		x /= 10;
		n++;
	}
	return n;
}

/* Each item claims the cells it covers more of than the one there. */
static void fill_grid(const struct tplanctl_show_view *v,
		      const struct tplanctl_show_panel *p,
		      struct ascii_grid *g)
{
	u32 i;

	for (i = 0; i < p->count; i++) {
		const struct tplanctl_show_item *it = &v->items[p->first + i];
		u64 l0 = (it->x0 - v->t0) / g->steps;
		u64 l1 = (it->x1 - 1 - v->t0) / g->steps;
		u64 c0 = it->y0 / g->cell, c1 = (it->y1 - 1) / g->cell, l, c;

		for (l = l0; l <= l1; l++) {
			for (c = c0; c <= c1; c++) {
				/* c * cell < peak; (c + 1) * cell may wrap */
				u64 lo = max(it->y0, c * g->cell);
				u64 hi = it->y1 - c * g->cell > g->cell ?
					 c * g->cell + g->cell : it->y1;
				size_t at = (size_t)l * g->cols + c;

				if (hi - lo > g->cover[at]) {
					g->cover[at] = hi - lo;
					g->who[at] = i + 1;
				}
			}
		}
	}
}

/* The panel item of the first piece of item @i's tensor. */
static u32 first_piece(const struct tplanctl_show_view *v,
		       const struct tplanctl_show_panel *p, u32 i)
{
	return v->items[p->first + i].first - p->first;
}

/*
 * Symbols in reading order, one per tensor (its first piece's item holds
 * it); @order gets the items that have one.
 */
static u32 assign_symbols(const struct tplanctl_show_view *v,
			  const struct tplanctl_show_panel *p,
			  struct ascii_grid *g, u8 *sym, u32 *order, u32 *more)
{
	size_t at, cells = (size_t)g->lines * g->cols;
	u32 n = 0;

	*more = 0;
	for (at = 0; at < cells; at++) {
		u32 w;

		if (!g->who[at])
			continue;
		w = first_piece(v, p, g->who[at] - 1);
		g->who[at] = w + 1;
		if (sym[w])
			continue;
		if (n < ASCII_SYMBOLS) {
			sym[w] = (u8)ascii_symbols[n];
			order[n++] = w;
		} else {
			sym[w] = '*';
			(*more)++;
		}
	}
	return n;
}

static void print_rows(FILE *out, const struct tplanctl_show_view *v,
		       const struct tplanctl_show_panel *p,
		       const struct ascii_grid *g, const u8 *sym, u32 label)
{
	char peak[24];
	u32 l, c;
	int room;

	/* "step |0            peak|" */
	room = snprintf(peak, sizeof(peak), "%llu", p->peak);
	fprintf(out, "%*s |0", (int)label, "step");
	if ((int)g->cols > room + 1)
		fprintf(out, "%*s", (int)g->cols - 1, peak);
	else
		fprintf(out, "%*s", (int)g->cols - 1, "");
	fputs("|\n", out);
	for (l = 0; l < g->lines; l++) {
		fprintf(out, "%*llu |", (int)label, v->t0 + (u64)l * g->steps);
		for (c = 0; c < g->cols; c++) {
			u32 w = g->who[(size_t)l * g->cols + c];

			fputc(w ? sym[w - 1] : '.', out);
		}
		fputs("|\n", out);
	}
}

static void print_legend(FILE *out, const struct tplanctl_show_view *v,
			 const struct tplanctl_show_panel *p, const u8 *sym,
			 const u32 *order, u32 n, u32 more)
{
	char text[TPLAN_MAX_LINE + 128];
	u32 i, k, shown = 0;

	for (i = 0; i < n; i++) {
		/* the tensor's pieces, in item order (the table's) */
		for (k = order[i]; k < p->count; k++) {
			const struct tplanctl_show_item *it =
				&v->items[p->first + k];
			u32 mark = it->mark;

			if (first_piece(v, p, k) != order[i])
				continue;
			/* stretches between gaps: one line, the highest mark */
			while (k + 1 < p->count && it[1].index == it->index) {
				if (it[1].mark > mark)
					mark = it[1].mark;
				k++;
				shown++;
			}
			tplanctl_show_tensor_text(v, it, text, sizeof(text));
			fprintf(out, "  %c  %s%s\n", sym[order[i]], text,
				mark == TPLANCTL_SHOW_PEAK ? " [peak]" :
				mark == TPLANCTL_SHOW_ABOVE ? " [above]" :
				mark == TPLANCTL_SHOW_BUSY ? " [busy]" : "");
			shown++;
		}
	}
	if (more)
		fprintf(out, "  *  %u more tensors\n", more);
	if (shown + more < p->count)
		fprintf(out, "     %u tensors too small to show\n",
			p->count - shown - more);
}

static int print_panel(FILE *out, const struct tplanctl_show_view *v,
		       const struct tplanctl_show_panel *p, u32 width)
{
	struct ascii_grid g = { 0 };
	u64 span = v->t1 - v->t0, peak = max(p->peak, 1ull);
	char busy[TPLANCTL_MAX_WIDTH + 1];
	u32 label, bar, n, more;
	u32 *order;
	u8 *sym;

	if (v->tiered) {
		fprintf(out, "tier %u: %u tensors, peak %llu bytes, live-bytes bound %llu bytes\n",
			p->tier, p->count, p->peak, tplanctl_show_bound(p));
	}
	if (!p->count) {
		fputs("(no tensor with bytes)\n", out);
		return 0;
	}
	/* ceilings written so that a span near 2^64 does not wrap */
	g.steps = span / ASCII_MAX_LINES + !!(span % ASCII_MAX_LINES);
	g.lines = (u32)(span / g.steps + !!(span % g.steps));
	label = max(4u, digits(v->t0 + (u64)(g.lines - 1) * g.steps));
	bar = width - label - 3;
	g.cell = peak / bar + !!(peak % bar);
	g.cols = (u32)(peak / g.cell + !!(peak % g.cell));
	g.cover = calloc((size_t)g.lines * g.cols, sizeof(*g.cover));
	g.who = calloc((size_t)g.lines * g.cols, sizeof(*g.who));
	sym = calloc((size_t)p->count, 1);
	order = calloc(ASCII_SYMBOLS, sizeof(*order));
	if (!g.cover || !g.who || !sym || !order) {
		free(g.cover);
		free(g.who);
		free(sym);
		free(order);
		return -ENOMEM;
	}
	fill_grid(v, p, &g);
	n = assign_symbols(v, p, &g, sym, order, &more);
	if (!tplanctl_show_busy_text(v, p, busy, sizeof(busy)) && *busy)
		fprintf(out, "%s\n", busy);
	fprintf(out, "a column is %llu byte%s, a line %llu step%s; '.' is free\n",
		g.cell, g.cell == 1 ? "" : "s", g.steps,
		g.steps == 1 ? "" : "s");
	print_rows(out, v, p, &g, sym, label);
	print_legend(out, v, p, sym, order, n, more);
	free(g.cover);
	free(g.who);
	free(sym);
	free(order);
	return 0;
}

/**
 * tplanctl_show_ascii() - draw a plan as text
 * @v: the plan, laid out
 * @width: columns a line may take (at least 24)
 * @out: where to write it
 *
 * Return: 0, -ENOMEM, or -EIO when writing failed.
 */
int tplanctl_show_ascii(const struct tplanctl_show_view *v, u32 width,
			FILE *out)
{
	char num[TPLANCTL_U128_DIGITS];
	u32 k;
	int ret = 0;

	fprintf(out, "%s: %u tensors, ", v->source, v->tensors);
	if (v->table->piece)
		fprintf(out, "%u pieces, moved %s bytes, ", v->table->count,
			tplanctl_show_u128(num, v->moved));
	fprintf(out, "peak %s bytes", tplanctl_show_u128(num, v->peak));
	if (v->tiered)
		fputs(" (the tiers' peaks summed)", out);
	if (v->has_bound)
		fprintf(out, ", lower bound %llu bytes", v->bound);
	if (v->has_bound && v->tiered)
		fputs(" (one arena)", out);
	if (v->tiered)
		fprintf(out, ", %s bytes (the tiers' live-bytes bounds summed)",
			tplanctl_show_u128(num, v->tier_bounds));
	fputc('\n', out);
	if (v->stretch_count) {
		fputs("models one after another:", out);
		for (k = 0; k < v->stretch_count; k++)
			fprintf(out, "%s model %u from step %llu", k ? "," : "",
				v->stretches[k].model, v->stretches[k].start);
		fputc('\n', out);
	}
	fputs("[peak]: reaches the peak; [busy]: alive when the most bytes are live\n",
	      out);
	if (tplanctl_show_any_above(v))
		fputs("[above]: above the live-bytes bound, below the peak\n",
		      out);
	for (k = 0; k < v->panel_count && !ret; k++)
		ret = print_panel(out, v, &v->panels[k], width);
	if (!ret && (fflush(out) || ferror(out)))
		ret = -EIO;
	return ret;
}
