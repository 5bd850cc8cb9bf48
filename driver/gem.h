/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gem.h - TPLAN_IOC_EXPORT: a plan's region as a GEM object exported as a
 * dma-buf (gem.c).
 */
#ifndef TPLAN_GEM_H
#define TPLAN_GEM_H

struct drm_file;

int tplan_export_ioctl(struct drm_file *file, void *data);

#endif /* TPLAN_GEM_H */
