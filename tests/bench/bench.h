/* SPDX-License-Identifier: MIT */
/*
 * bench.h - what the bench's files share.
 */
#ifndef TPLAN_BENCH_H
#define TPLAN_BENCH_H

#include <stdbool.h>

#include "libtplan.h"

int bench_in_child(int (*fn)(void *arg), void *arg);
int bench_for_each_table(const char *dir, bool need_any,
			 int (*fn)(const char *name, struct tplan_table *t,
				   __u64 arg),
			 __u64 arg);
int bench_spill(const char *real, const char *training);
int bench_constrained(const char *challenging);
int bench_large(const char *dir);
int bench_random(const char *challenging);
int bench_units(const char *challenging, const char *large);

#endif /* TPLAN_BENCH_H */
