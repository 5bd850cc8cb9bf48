/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tplan_accel.h - tplan's accel device helpers: a DRM accel device whose
 * memory is pinned DMA buffers planned by an arena, speaking tplan's ioctl
 * ABI (uapi/linux/tplan.h), for any accelerator driver (accel.c, ioctl.c,
 * file.c, gem.c; exported in the TPLAN symbol namespace).
 */

/**
 * DOC: accel helpers
 *
 * A driver whose device reads and writes its tensors in host memory gets
 * tplan's whole accel device from these helpers: it embeds a &struct
 * tplan_accel in its device struct, allocates it with devm_drm_dev_alloc()
 * (the &tplan_accel.drm member), fills its &drm_driver with
 * %TPLAN_ACCEL_DRIVER_OPS and its &file_operations with %TPLAN_ACCEL_FOPS,
 * and calls tplan_accel_init() (DMA buffers for its &struct device, with
 * its DMA mask, and the arena over them), tplan_accel_register() and, when
 * the device goes, tplan_accel_fini().  Each open file is then a
 * &struct tplan_client (tplan_accel_client()); its plans' regions are GEM
 * objects, mapped and shared as dma-bufs as on tplan's own device.
 *
 * Its own ioctls are a table of &struct tplan_accel_ioctl from
 * %TPLAN_IOC_HOST_BASE on, dispatched by the same rules as tplan's (the
 * caller's struct copied in, extended or refused by its size, written back
 * after success).  tplan's own device (tplan_module.c) is such a driver,
 * with no ioctls of its own; tplan_edu (driver/edu/) adds DMA jobs.
 *
 * Lifetime: the files, mappings and dma-bufs of the device hold the host's
 * module (its &file_operations' owner), so a host whose device only goes
 * with its module (suppress_bind_attrs) never frees the DMA buffers under
 * a user.
 */
#ifndef TPLAN_ACCEL_API_H
#define TPLAN_ACCEL_API_H

#include <linux/fs.h>
#include <linux/types.h>

#include <drm/drm_accel.h>
#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>

#include "linux/tplan.h"

struct device;
struct dma_buf;
struct tplan_arena;
struct tplan_client;
struct tplan_limits;

/**
 * struct tplan_dma_pool - one pool of an accel device: a pinned DMA buffer
 * @dev: the device it is allocated for
 * @cpu_addr: the kernel's view
 * @dma_addr: the device's view
 * @size: bytes
 */
struct tplan_dma_pool {
	struct device *dev;
	void *cpu_addr;
	dma_addr_t dma_addr;
	u64 size;
};

/**
 * struct tplan_accel_ioctl - one ioctl of an accel device's host
 * @cmd: its number, with this kernel's struct size
 * @min_size: the smallest struct a caller may pass: its ABI version 1's
 * @check: checks the struct copied in and changes nothing; or NULL
 * @func: the handler: acts on the struct in kernel memory and fills in
 *        its results
 * @undo: takes back what @func did when its results cannot be written
 *        back; or NULL
 *
 * Each gets the DRM file (tplan_accel_client() gives its client).
 */
struct tplan_accel_ioctl {
	unsigned int cmd;
	size_t min_size;
	int (*check)(struct drm_file *file, const void *data);
	int (*func)(struct drm_file *file, void *data);
	void (*undo)(struct drm_file *file, const void *data);
};

/**
 * struct tplan_accel - an accel device planned by tplan: an arena host
 * @drm: the DRM device (DRIVER_COMPUTE_ACCEL)
 * @arena: the arena planning into @pools
 * @pools: the DMA buffers, fastest first
 * @pool_count: entries used in @pools
 * @host_ioctls: the host's own ioctls, indexed by number from
 *               %TPLAN_IOC_HOST_BASE; or NULL
 * @host_ioctl_count: entries in @host_ioctls
 */
struct tplan_accel {
	struct drm_device drm;
	struct tplan_arena *arena;
	struct tplan_dma_pool pools[TPLAN_MAX_POOLS];
	u32 pool_count;
	const struct tplan_accel_ioctl *host_ioctls;
	u32 host_ioctl_count;
};

int tplan_accel_parse_sizes(const char *text, u64 *sizes, u32 *count);
int tplan_accel_init(struct tplan_accel *accel, struct device *dma_dev,
		     const u64 *sizes, u32 count,
		     const struct tplan_limits *limits);
int tplan_accel_register(struct tplan_accel *accel);
void tplan_accel_fini(struct tplan_accel *accel);
struct tplan_client *tplan_accel_client(struct drm_file *file);

/* &drm_driver and &file_operations members, in ioctl.c, file.c, gem.c */
int tplan_accel_open(struct drm_device *drm, struct drm_file *file);
void tplan_accel_postclose(struct drm_device *drm, struct drm_file *file);
int tplan_accel_prime_handle_to_fd(struct drm_device *dev,
				   struct drm_file *file, u32 handle,
				   u32 flags, int *fd);
struct drm_gem_object *tplan_accel_prime_import(struct drm_device *dev,
						struct dma_buf *buf);
long tplan_accel_ioctl(struct file *file, unsigned int cmd,
		       unsigned long arg);
#ifdef CONFIG_COMPAT
long tplan_accel_compat_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg);
#else
#define tplan_accel_compat_ioctl	NULL
#endif

/* A host's &drm_driver: these, with its own name and version. */
#define TPLAN_ACCEL_DRIVER_OPS \
	.driver_features = DRIVER_COMPUTE_ACCEL | DRIVER_GEM, \
	.open = tplan_accel_open, \
	.postclose = tplan_accel_postclose, \
	.prime_handle_to_fd = tplan_accel_prime_handle_to_fd, \
	.gem_prime_import = tplan_accel_prime_import

/* A host's &file_operations: DRM_ACCEL_FOPS with tplan's ioctl dispatch. */
#define TPLAN_ACCEL_FOPS \
	.owner = THIS_MODULE, \
	.open = accel_open, \
	.release = drm_release, \
	.unlocked_ioctl = tplan_accel_ioctl, \
	.compat_ioctl = tplan_accel_compat_ioctl, \
	.poll = drm_poll, \
	.read = drm_read, \
	.llseek = noop_llseek, \
	.mmap = drm_gem_mmap, \
	.fop_flags = FOP_UNSIGNED_OFFSET

#endif /* TPLAN_ACCEL_API_H */
