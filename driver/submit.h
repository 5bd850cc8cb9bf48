/* SPDX-License-Identifier: GPL-2.0 */
/*
 * submit.h - TPLAN_IOC_SUBMIT: plan a table and reserve its memory
 * (submit.c).
 */
#ifndef TPLAN_SUBMIT_H
#define TPLAN_SUBMIT_H

struct drm_file;

int tplan_submit_check(struct drm_file *file, const void *data);
int tplan_submit_ioctl(struct drm_file *file, void *data);
void tplan_submit_undo(struct drm_file *file, const void *data);

#endif /* TPLAN_SUBMIT_H */
