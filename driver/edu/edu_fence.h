/* SPDX-License-Identifier: GPL-2.0 */
/*
 * edu_fence.h - the fences of an edu device's jobs (edu_fence.c).
 */
#ifndef TPLAN_EDU_FENCE_H
#define TPLAN_EDU_FENCE_H

struct dma_fence;
struct tplan_edu;

struct dma_fence *edu_fence_new(struct tplan_edu *edu);

#endif /* TPLAN_EDU_FENCE_H */
