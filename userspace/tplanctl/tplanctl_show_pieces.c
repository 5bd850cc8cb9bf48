// SPDX-License-Identifier: MIT
/*
 * tplanctl_show_pieces.c - a spill plan's pieces for drawing: each row of a
 * plan with a piece column is one stretch of a tensor in device memory;
 * the rows of one tensor (same model and id) are linked in piece order, so
 * that the writers draw them alike and show the moves between them.
 */
#include <stdlib.h>
#include <string.h>

#include "tplanctl_show.h"

struct piece_row {
	const struct tplan_table *table;
	u32 row;
};

/* Model, then id (or name), then piece. */
static int cmp_piece_row(const void *x, const void *y)
{
	const struct piece_row *a = x, *b = y;
	const struct tplan_table *t = a->table;
	const struct tplan_tensor *ta = &t->tensors[a->row];
	const struct tplan_tensor *tb = &t->tensors[b->row];
	int c;

	if (ta->model != tb->model)
		return ta->model < tb->model ? -1 : 1;
	if (t->names) {
		c = strcmp(t->names[a->row], t->names[b->row]);
		if (c)
			return c;
	} else if (ta->id != tb->id) {
		return ta->id < tb->id ? -1 : 1;
	}
	if (t->piece[a->row] != t->piece[b->row])
		return t->piece[a->row] < t->piece[b->row] ? -1 : 1;
	return a->row < b->row ? -1 : a->row > b->row;
}

static bool same_tensor(const struct tplan_table *t, u32 a, u32 b)
{
	if (t->tensors[a].model != t->tensors[b].model)
		return false;
	if (t->names)
		return !strcmp(t->names[a], t->names[b]);
	return t->tensors[a].id == t->tensors[b].id;
}

/* The moved bytes and tensors of a spill plan, from its rows. */
static void count_moves(struct tplanctl_show_view *v,
			const struct piece_row *rows)
{
	const struct tplan_table *t = v->table;
	u32 i;

	for (i = 0; i < t->count; i++) {
		u32 r = rows[i].row;

		if (!i || !same_tensor(t, r, rows[i - 1].row))
			v->tensors++;
		else
			v->moved += 2 * (tplanctl_u128)t->tensors[r].size;
	}
}

/**
 * tplanctl_show_link_pieces() - link each piece to its tensor's previous one
 * @v: a view whose items are built
 *
 * Sets every item's @prev (the item of the same tensor's piece before it,
 * or %TPLANCTL_SHOW_NONE) and @first (the item of its first drawn piece;
 * itself if none before), and the view's @tensors and @moved.  A plan
 * without a piece column has one piece per row (drawn as several items
 * when it has gaps: they share @first).
 *
 * Return: 0 or -ENOMEM.
 */
int tplanctl_show_link_pieces(struct tplanctl_show_view *v)
{
	const struct tplan_table *t = v->table;
	struct piece_row *rows;
	u32 *item_of, i;

	for (i = 0; i < v->count; i++) {
		bool same_row = i && v->items[i - 1].index == v->items[i].index;

		/* a tensor's stretches between gaps: one tensor, no moves */
		v->items[i].prev = TPLANCTL_SHOW_NONE;
		v->items[i].first = same_row ? v->items[i - 1].first : i;
	}
	v->tensors = t->count;
	if (!t->piece)
		return 0;
	rows = malloc(((size_t)t->count + 1) * sizeof(*rows));
	item_of = malloc(((size_t)t->count + 1) * sizeof(*item_of));
	if (!rows || !item_of) {
		free(rows);
		free(item_of);
		return -ENOMEM;
	}
	for (i = 0; i < t->count; i++) {
		rows[i] = (struct piece_row){ t, i };
		item_of[i] = TPLANCTL_SHOW_NONE;
	}
	for (i = 0; i < v->count; i++)
		item_of[v->items[i].index] = i;
	qsort(rows, t->count, sizeof(*rows), cmp_piece_row);
	v->tensors = 0;
	count_moves(v, rows);
	for (i = 1; i < t->count; i++) {
		u32 a = item_of[rows[i - 1].row], b = item_of[rows[i].row];

		if (a == TPLANCTL_SHOW_NONE || b == TPLANCTL_SHOW_NONE ||
		    !same_tensor(t, rows[i - 1].row, rows[i].row) ||
		    t->tensors[rows[i - 1].row].tier !=
		    t->tensors[rows[i].row].tier)
			continue;
		v->items[b].prev = a;
		v->items[b].first = v->items[a].first;
	}
	free(rows);
	free(item_of);
	return 0;
}
