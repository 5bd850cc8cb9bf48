/* SPDX-License-Identifier: GPL-2.0 */
/*
 * file.h - an open file of the accel device: open and close (its client),
 * RELEASE, and giving back a plan whose results were lost (file.c).
 */
#ifndef TPLAN_FILE_H
#define TPLAN_FILE_H

#include <linux/types.h>

struct drm_device;
struct drm_file;

int tplan_release_ioctl(struct drm_file *file, void *data);
void tplan_file_undo_plan(struct drm_file *file, u64 id);

#endif /* TPLAN_FILE_H */
