/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note OR MIT */
/*
 * tplan_edu.h - the ioctl ABI of tplan_edu, the driver of QEMU's "edu" PCI
 * device (vendor 0x1234, device 0x11e8): an accel device that plans with
 * tplan's ioctls (tplan.h: GET_INFO, SUBMIT, RELEASE, SUBMIT_SPILL, EXPORT,
 * the same structs and rules) into DMA buffers of its own, and adds jobs:
 * copies its DMA engine carries out.  See docs/DRIVER.md.
 *
 * The rules of tplan.h hold: fixed-width types, reserved fields zero,
 * unknown flags -EINVAL, structs grow at the end only.
 */
#ifndef _UAPI_LINUX_TPLAN_EDU_H
#define _UAPI_LINUX_TPLAN_EDU_H

#include <linux/ioctl.h>
#include <linux/types.h>

#include "tplan.h"

/* The driver name (DRM_IOCTL_VERSION, /sys/class/accel/accelN/device/driver). */
#define TPLAN_EDU_DRIVER_NAME	"tplan_edu"

/* One side of a copy: a region of one of the caller's plans ... */
#define TPLAN_EDU_PLACE_REGION	1
/* ... or the caller's own memory, pinned for the job's life. */
#define TPLAN_EDU_PLACE_USER	2

/**
 * struct tplan_edu_place - where one side of a copy is
 * @kind: %TPLAN_EDU_PLACE_REGION or %TPLAN_EDU_PLACE_USER
 * @slot: REGION: the plan's region (its pool's index, or a kept region's
 *        slot, as &struct tplan_plan_region and a tensor's tier say);
 *        USER: 0
 * @plan_id: REGION: the plan, as SUBMIT returned it; USER: 0
 * @offset: REGION: the first byte, from the region's start; USER: the
 *          address of the first byte in the caller's memory
 */
struct tplan_edu_place {
	__u32 kind;
	__u32 slot;
	__u64 plan_id;
	__u64 offset;
};

/**
 * struct tplan_edu_copy - one copy of a job
 * @src: where the bytes are read
 * @dst: where they are written; it may not overlap @src
 * @size: bytes, at least 1
 */
struct tplan_edu_copy {
	struct tplan_edu_place src;
	struct tplan_edu_place dst;
	__u64 size;
};

/* Most copies in one job. */
#define TPLAN_EDU_MAX_COPIES	256
/*
 * Most bytes one job copies, all copies together.  The edu device moves at
 * most 4 KiB per transfer and finishes a transfer 100 ms after it starts,
 * so a job of this size takes about 52 s.
 */
#define TPLAN_EDU_MAX_JOB_BYTES	0x100000u
/* Most jobs queued on one device at once, from every file together. */
#define TPLAN_EDU_MAX_QUEUED	32
/* The device deadline of a job that asks for 0 ms, and the longest one. */
#define TPLAN_EDU_DEFAULT_TIMEOUT_MS	10000
#define TPLAN_EDU_MAX_TIMEOUT_MS	120000

/**
 * struct tplan_edu_job - TPLAN_EDU_IOC_JOB: run copies on the DMA engine
 * @copies: user pointer to @count &struct tplan_edu_copy, carried out in
 *          order, one job after another in the order they were submitted
 * @count: 1 to %TPLAN_EDU_MAX_COPIES
 * @flags: 0
 * @timeout_ms: the job fails with -ETIMEDOUT if the device has not
 *              finished it this long after it starts; 0 asks for
 *              %TPLAN_EDU_DEFAULT_TIMEOUT_MS, at most
 *              %TPLAN_EDU_MAX_TIMEOUT_MS
 * @fence_fd: out: a sync_file (close-on-exec) that signals when the job is
 *            over; its status (SYNC_IOC_FILE_INFO) is 1 when every byte
 *            was copied, -ETIMEDOUT or -EIO when the device failed
 * @reserved: 0
 *
 * The regions a job names stay reserved until its fence signals, even if
 * their plans are released or the file is closed meanwhile; user memory
 * stays pinned as long.
 *
 * Errors, with nothing queued: -EINVAL (a kind, slot, flag or reserved
 * field this ABI does not know, a zero size, overlapping sides, a timeout
 * over the maximum); -ENOENT (no such plan, or no region in that slot);
 * -ERANGE (bytes past the end of a region, or an address range that
 * wraps); -E2BIG (more copies or bytes than the maximum); -EACCES (a
 * region destination through a file opened read-only); -EFAULT (the copy
 * array or user memory cannot be read, or written for a destination);
 * -EAGAIN (%TPLAN_EDU_MAX_QUEUED jobs already queued on the device);
 * -ENOMEM; -EINTR.
 */
struct tplan_edu_job {
	__u64 copies;
	__u32 count;
	__u32 flags;
	__u32 timeout_ms;
	__s32 fence_fd;
	__u64 reserved;
};

#define TPLAN_EDU_JOB_SIZE_VER1	32

#define TPLAN_EDU_IOC_JOB	_IOWR(TPLAN_IOC_MAGIC, TPLAN_IOC_HOST_BASE + 0x00, \
				      struct tplan_edu_job)

#endif /* _UAPI_LINUX_TPLAN_EDU_H */
