/* SPDX-License-Identifier: GPL-2.0 */
/*
 * file.h - an open file of the accel device: open and close (its client),
 * mmap, and the mmap offsets that name its plans' regions (file.c).
 */
#ifndef TPLAN_FILE_H
#define TPLAN_FILE_H

#include <linux/types.h>

struct drm_device;
struct drm_file;
struct file;
struct vm_area_struct;

struct tplan_arena;
struct tplan_hold;

u64 tplan_mmap_offset(u64 plan_id, u32 slot);
int tplan_check_vma(struct vm_area_struct *vma);
int tplan_map_hold(struct tplan_arena *arena, struct vm_area_struct *vma,
		   const struct tplan_hold *hold, unsigned long pgoff);

/* the DRM driver's open and postclose (tplan_module.c names them) */
int tplan_drm_open(struct drm_device *drm, struct drm_file *file);
void tplan_drm_postclose(struct drm_device *drm, struct drm_file *file);
/* the file operation ioctl.c's tplan_fops names */
int tplan_file_mmap(struct file *file, struct vm_area_struct *vma);

#endif /* TPLAN_FILE_H */
