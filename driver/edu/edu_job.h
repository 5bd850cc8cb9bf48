/* SPDX-License-Identifier: GPL-2.0 */
/*
 * edu_job.h - TPLAN_EDU_IOC_JOB (edu_job.c).
 */
#ifndef TPLAN_EDU_JOB_H
#define TPLAN_EDU_JOB_H

struct drm_file;

int edu_job_check(struct drm_file *file, const void *data);
int edu_job_ioctl(struct drm_file *file, void *data);

#endif /* TPLAN_EDU_JOB_H */
