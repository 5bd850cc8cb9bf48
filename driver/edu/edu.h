/* SPDX-License-Identifier: GPL-2.0 */
/*
 * edu.h - tplan_edu: the driver of QEMU's edu PCI device, an accel device
 * planned by tplan (its own DMA buffers, through the device's IOMMU) whose
 * DMA engine runs jobs of copies.
 */

/**
 * DOC: tplan_edu
 *
 * QEMU's "edu" device (docs/specs/edu.rst in QEMU) has one DMA engine:
 * it copies up to 4 KiB between host memory and a buffer of its own
 * (%EDU_BUF at %EDU_BUF_ADDR in its address space), 100 ms of guest time
 * after it is started, and raises an interrupt when done.  It reaches host
 * memory with 28-bit addresses.  tplan_edu is written as any accelerator
 * driver on tplan would be, with only the exported headers:
 *
 * - edu_drv.c: the PCI driver: DMA mask, the accel device (tplan_accel.h:
 *   DMA buffers for this device, the arena, tplan's ioctls) and the
 *   device's interrupt;
 * - edu_hw.c (edu_hw.h): the DMA engine: one transfer at a time, waited
 *   for with a deadline;
 * - edu_fence.c (edu_fence.h): the fences of jobs, one timeline per device;
 * - edu_job.c (edu_job.h): TPLAN_EDU_IOC_JOB: copies between regions of
 *   the caller's plans and its own pinned memory, run one job after
 *   another on an ordered workqueue.
 *
 * A region-to-region copy goes through the device's buffer: a transfer in
 * and a transfer out per 4 KiB.
 */
#ifndef TPLAN_EDU_H
#define TPLAN_EDU_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "linux/tplan_edu.h"
#include "tplan_accel.h"

struct pci_dev;
struct workqueue_struct;

/**
 * struct tplan_edu - one edu device
 * @accel: its accel device (tplan's ioctls, DMA buffers, arena)
 * @pdev: the PCI device
 * @regs: BAR 0
 * @dma_done: completed by the interrupt that ends a transfer
 * @wedged: a transfer never ended: the engine may still write, so no job
 *          runs and no region a job used is given back
 * @jobs: runs the jobs, one at a time, in the order they were queued
 * @queue_lock: gives a job its fence's place on the timeline and queues
 *              it, so that fences signal in the order of their numbers
 * @queued: jobs queued and not over, bounded by %TPLAN_EDU_MAX_QUEUED
 * @fence_lock: the lock of every fence of the device
 * @fence_context: the device's fence timeline
 * @fence_seqno: the last number given on it (under @queue_lock)
 */
struct tplan_edu {
	struct tplan_accel accel;
	struct pci_dev *pdev;
	void __iomem *regs;
	struct completion dma_done;
	bool wedged;
	struct workqueue_struct *jobs;
	struct mutex queue_lock;	/* see @queue_lock above */
	atomic_t queued;
	spinlock_t fence_lock;		/* see @fence_lock above */
	u64 fence_context;
	u64 fence_seqno;
};

static inline struct tplan_edu *to_edu(struct drm_device *drm)
{
	return container_of(drm, struct tplan_edu, accel.drm);
}

#endif /* TPLAN_EDU_H */
