/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gem.h - a plan's regions as GEM objects: their handles, mmap and
 * TPLAN_IOC_EXPORT (gem.c).
 */
#ifndef TPLAN_GEM_H
#define TPLAN_GEM_H

#include <linux/types.h>

struct drm_file;
struct drm_gem_object;
struct tplan_arena_plan;

int tplan_gem_open_plan(struct drm_file *file, struct tplan_arena_plan *plan,
			u64 scratch);
void tplan_gem_close_plan(struct drm_file *file, struct tplan_arena_plan *plan);
int tplan_export_ioctl(struct drm_file *file, void *data);

#endif /* TPLAN_GEM_H */
