/* SPDX-License-Identifier: GPL-2.0 */
/*
 * submit_spill.h - TPLAN_IOC_SUBMIT_SPILL: plan a table as pieces within a
 * capacity and reserve what they need (submit_spill.c).
 */
#ifndef TPLAN_SUBMIT_SPILL_H
#define TPLAN_SUBMIT_SPILL_H

struct drm_file;

int tplan_spill_check(struct drm_file *file, const void *data);
int tplan_spill_ioctl(struct drm_file *file, void *data);
void tplan_spill_undo(struct drm_file *file, const void *data);

#endif /* TPLAN_SUBMIT_SPILL_H */
