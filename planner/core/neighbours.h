/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * neighbours.h - every tensor's time-overlapping neighbours, as lists.
 */
#ifndef TPLAN_NEIGHBOURS_H
#define TPLAN_NEIGHBOURS_H

#include "internal.h"

/**
 * struct tplan_neighbours - who is alive at some step with whom
 * @start: n + 1 entries: tensor i's neighbours are @list[start[i],
 *         start[i + 1])
 * @list: the neighbours' indices, two per overlapping pair
 */
struct tplan_neighbours {
	u32 *start;
	u32 *list;
};

int tplan_neighbours_build(struct tplan_neighbours *nb,
			   const struct tplan_timeline *tl);
void tplan_neighbours_free(struct tplan_neighbours *nb);

#endif /* TPLAN_NEIGHBOURS_H */
