// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl.c - the file operations of the accel device: the ioctl table,
 * what every call shares, and GET_INFO.  The other handlers live beside
 * their objects: SUBMIT in submit.c, RELEASE in file.c, SUBMIT_SPILL in
 * submit_spill.c, EXPORT in gem.c; open and close are file.c's, mmap the
 * DRM core's GEM mmap (gem.c).
 */
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <drm/drm_accel.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>

#include "client.h"
#include "file.h"
#include "gem.h"
#include "tplan_accel.h"
#include "pools.h"
#include "submit.h"
#include "submit_spill.h"
#include "arena.h"

/* ABI version 1's structs end where the uapi header says, forever. */
static_assert(offsetofend(struct tplan_info, pools) == TPLAN_INFO_SIZE_VER1);
static_assert(offsetofend(struct tplan_submit, reserved) ==
	      TPLAN_SUBMIT_SIZE_VER1);
static_assert(offsetofend(struct tplan_release, reserved) ==
	      TPLAN_RELEASE_SIZE_VER1);
static_assert(offsetofend(struct tplan_submit_spill, reserved) ==
	      TPLAN_SUBMIT_SPILL_SIZE_VER1);
static_assert(offsetofend(struct tplan_export, reserved) ==
	      TPLAN_EXPORT_SIZE_VER1);
/* the dma-buf's file flags are the open(2) ones DRM PRIME takes */
static_assert(O_CLOEXEC == TPLAN_EXPORT_CLOEXEC);
static_assert(O_RDWR == TPLAN_EXPORT_RDWR);

/**
 * DOC: ioctl dispatch
 *
 * Each ioctl is one row of tplan_ioctls[], indexed by its number (or of
 * its host's &tplan_accel.host_ioctls, from %TPLAN_IOC_HOST_BASE): the
 * number as this kernel defines it, the smallest struct a caller may pass
 * (ABI version 1's) and the handlers.  tplan_accel_ioctl() does what every call
 * shares, in this order, so that no handler touches the caller's struct
 * (the tensor descriptors a SUBMIT points to are its handler's business):
 *
 * 1. The number must name a row, with its direction bits and at least its
 *    version 1 size, else -ENOTTY.  The caller's struct size is the size
 *    field of the number: structs only grow at the end.
 * 2. A struct the caller passes in (_IOC_WRITE) is copied in with
 *    copy_struct_from_user(): what an older caller does not know reads as
 *    zero; non-zero bytes this kernel does not know are -E2BIG.
 * 3. The row's check, if any, validates it and changes nothing.
 * 4. A struct passed both ways is written back as it was read before the
 *    handler runs, so one that cannot be written is -EFAULT before
 *    anything changed.
 * 5. The handler acts on the kernel's copy and fills in its results.
 * 6. A struct passed out (_IOC_READ) is written back after success,
 *    after -ENOSPC (a submit that did not fit reports the peak it would
 *    need) and after -ENOBUFS (a spill submit reports how many pieces its
 *    caller's array lacks room for), zero-filled beyond this kernel's
 *    size.  If that fails, the
 *    row's undo takes back what the handler did and the call is -EFAULT.
 *
 * Cost: one copy each way; a struct of up to %TPLAN_IOCTL_STACK_BYTES is
 * copied to the stack, a larger one to memory charged to the caller.
 * Locking: none here; the handlers take what they need.
 */

/**
 * get_info_ioctl() - TPLAN_IOC_GET_INFO: the device's limits and pools
 * @file: the DRM file
 * @data: a zeroed &struct tplan_info to fill in
 *
 * Return: 0, or -EINTR when the task is killed while waiting for the
 * file's lock (to count its plans).
 */
static int get_info_ioctl(struct drm_file *file, void *data)
{
	struct tplan_client *client = file->driver_priv;
	struct tplan_arena *arena = client->arena;
	struct tplan_info *info = data;
	u32 i;

	info->abi_version = TPLAN_ABI_VERSION;
	info->pool_count = arena->pool_count;
	info->max_tensors = arena->limits.max_tensors;
	info->max_plans = arena->limits.max_plans;
	info->region_align = PAGE_SIZE;
	info->default_budget = arena->limits.default_budget;
	info->max_budget = arena->limits.max_budget;
	info->max_submit_bytes = arena->limits.max_submit_bytes;
	info->max_submits = arena->limits.max_submits;
	info->max_device_plans = arena->limits.max_device_plans;
	info->max_file_keys = arena->limits.max_file_keys;
	info->max_device_keys = arena->limits.max_device_keys;
	for (i = 0; i < arena->pool_count; i++)
		tplan_pool_info(arena, i, &info->pools[i]);
	return tplan_client_plans_held(client, &info->plans_held);
}

static const struct tplan_accel_ioctl tplan_ioctls[] = {
	[_IOC_NR(TPLAN_IOC_GET_INFO) - TPLAN_IOC_BASE] = {
		.cmd = TPLAN_IOC_GET_INFO,
		.min_size = TPLAN_INFO_SIZE_VER1,
		.func = get_info_ioctl,
	},
	[_IOC_NR(TPLAN_IOC_SUBMIT) - TPLAN_IOC_BASE] = {
		.cmd = TPLAN_IOC_SUBMIT,
		.min_size = TPLAN_SUBMIT_SIZE_VER1,
		.check = tplan_submit_check,
		.func = tplan_submit_ioctl,
		.undo = tplan_submit_undo,
	},
	[_IOC_NR(TPLAN_IOC_RELEASE) - TPLAN_IOC_BASE] = {
		.cmd = TPLAN_IOC_RELEASE,
		.min_size = TPLAN_RELEASE_SIZE_VER1,
		.func = tplan_release_ioctl,
	},
	[_IOC_NR(TPLAN_IOC_SUBMIT_SPILL) - TPLAN_IOC_BASE] = {
		.cmd = TPLAN_IOC_SUBMIT_SPILL,
		.min_size = TPLAN_SUBMIT_SPILL_SIZE_VER1,
		.check = tplan_spill_check,
		.func = tplan_spill_ioctl,
		.undo = tplan_spill_undo,
	},
	[_IOC_NR(TPLAN_IOC_EXPORT) - TPLAN_IOC_BASE] = {
		.cmd = TPLAN_IOC_EXPORT,
		.min_size = TPLAN_EXPORT_SIZE_VER1,
		.func = tplan_export_ioctl,
	},
};

/* The errors after which the results are written back all the same. */
static bool reports_results(int ret)
{
	return !ret || ret == -ENOSPC || ret == -ENOBUFS;
}

/* Structs up to this size are copied to the stack, larger ones to the heap. */
#define TPLAN_IOCTL_STACK_BYTES	64

/* Row @nr of @table if it has @cmd's direction and size, else NULL. */
static const struct tplan_accel_ioctl *
find_row(const struct tplan_accel_ioctl *table, unsigned int count,
	 unsigned int nr, unsigned int cmd)
{
	const struct tplan_accel_ioctl *desc;

	if (!table || nr >= count)
		return NULL;
	desc = &table[array_index_nospec(nr, count)];
	if (!desc->cmd || _IOC_DIR(cmd) != _IOC_DIR(desc->cmd) ||
	    _IOC_SIZE(cmd) < desc->min_size)
		return NULL;
	return desc;
}

/* The row of a number, tplan's or the host's (from TPLAN_IOC_HOST_BASE). */
static const struct tplan_accel_ioctl *find_ioctl(struct drm_file *file,
						  unsigned int cmd)
{
	const struct tplan_accel *accel = container_of(file->minor->dev,
						       struct tplan_accel, drm);
	unsigned int nr = _IOC_NR(cmd);

	if (nr >= TPLAN_IOC_HOST_BASE)
		return find_row(accel->host_ioctls, accel->host_ioctl_count,
				nr - TPLAN_IOC_HOST_BASE, cmd);
	return find_row(tplan_ioctls, ARRAY_SIZE(tplan_ioctls),
			nr - TPLAN_IOC_BASE, cmd);
}

/* Copies a struct out, zero-filling what a newer caller has beyond ours. */
static int copy_struct_out(void __user *dst, size_t usize, const void *src,
			   size_t ksize)
{
	if (copy_to_user(dst, src, min(usize, ksize)))
		return -EFAULT;
	if (usize > ksize && clear_user(dst + ksize, usize - ksize))
		return -EFAULT;
	return 0;
}

/* Steps 2 to 6 of "ioctl dispatch", with @data zeroed, @ksize bytes. */
static int call_ioctl(struct drm_file *file,
		      const struct tplan_accel_ioctl *desc, void __user *uarg,
		      size_t usize, void *data)
{
	unsigned int dir = _IOC_DIR(desc->cmd);
	size_t ksize = _IOC_SIZE(desc->cmd);
	int ret = 0;

	if (dir & _IOC_WRITE)
		ret = copy_struct_from_user(data, ksize, uarg, usize);
	if (!ret && desc->check)
		ret = desc->check(file, data);
	/* writing back what was read changes nothing */
	if (!ret && dir == (_IOC_READ | _IOC_WRITE))
		ret = copy_struct_out(uarg, usize, data, ksize);
	if (!ret)
		ret = desc->func(file, data);
	if ((dir & _IOC_READ) && reports_results(ret) &&
	    copy_struct_out(uarg, usize, data, ksize)) {
		if (desc->undo)
			desc->undo(file, data);
		ret = -EFAULT;
	}
	return ret;
}

/*
 * The DRM core's ioctls an accel client has use for.  The others assume a
 * primary node: in 6.12, GET_UNIQUE on an accel file dereferences its
 * master, which an accel file has not (a NULL pointer, found by the ioctl
 * KUnit suite), and a hostile caller may try every number.
 */
static bool core_ioctl_allowed(unsigned int cmd)
{
	switch (_IOC_NR(cmd)) {
	case _IOC_NR(DRM_IOCTL_VERSION):
	case _IOC_NR(DRM_IOCTL_GET_CAP):
	case _IOC_NR(DRM_IOCTL_GEM_CLOSE):
	case _IOC_NR(DRM_IOCTL_PRIME_HANDLE_TO_FD):
	case _IOC_NR(DRM_IOCTL_PRIME_FD_TO_HANDLE):
		return true;
	default:
		return false;
	}
}

/* A driver-specific DRM ioctl (TPLAN_IOC_*): dispatched here, see above. */
static long tplan_driver_ioctl(struct drm_file *file, unsigned int cmd,
			       unsigned long arg)
{
	u64 stack_data[TPLAN_IOCTL_STACK_BYTES / sizeof(u64)];
	const struct tplan_accel_ioctl *desc = find_ioctl(file, cmd);
	size_t ksize;
	void *data;
	int ret;

	if (!desc)
		return -ENOTTY;
	ksize = _IOC_SIZE(desc->cmd);
	if (ksize <= sizeof(stack_data)) {
		data = memset(stack_data, 0, ksize);
	} else {
		data = kzalloc(ksize, GFP_KERNEL_ACCOUNT);
		if (!data)
			return -ENOMEM;
	}
	ret = call_ioctl(file, desc, (void __user *)arg, _IOC_SIZE(cmd), data);
	if (data != stack_data)
		kfree(data);
	return ret;
}

/**
 * tplan_accel_ioctl() - the ioctl entry point of an accel device
 * @file: the open file (its private_data the &struct drm_file)
 * @cmd: a TPLAN_IOC_* number; its size field may differ from this kernel's
 *       struct size, the struct is then extended or truncated as the ABI says.
 *       Below DRM_COMMAND_BASE, the few DRM core ioctls an accel client
 *       uses (VERSION, GET_CAP, GEM_CLOSE, PRIME) go to drm_ioctl().
 * @arg: user pointer to the command's struct
 *
 * The driver's own ioctls do not go through drm_ioctl(): it ignores bytes
 * a newer caller has beyond the kernel's struct, where this ABI rejects
 * them unless zero (copy_struct_from_user()).
 *
 * Return: 0 or a negative errno (see docs/DRIVER.md for the list).
 */
long tplan_accel_ioctl(struct file *file, unsigned int cmd,
		       unsigned long arg)
{
	if (_IOC_TYPE(cmd) != DRM_IOCTL_BASE)
		return -ENOTTY;
	if (_IOC_NR(cmd) >= DRM_COMMAND_BASE)
		return tplan_driver_ioctl(file->private_data, cmd, arg);
	if (!core_ioctl_allowed(cmd))
		return -ENOTTY;
	return drm_ioctl(file, cmd, arg);
}
EXPORT_SYMBOL_NS_GPL(tplan_accel_ioctl, TPLAN);

#ifdef CONFIG_COMPAT
/**
 * tplan_accel_compat_ioctl() - the same for a 32-bit caller
 * @file: the open file
 * @cmd: as for tplan_accel_ioctl()
 * @arg: the caller's 32-bit pointer
 *
 * The driver's structs are the same for both, the DRM core's are not.
 *
 * Return: as tplan_accel_ioctl().
 */
long tplan_accel_compat_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	if (_IOC_TYPE(cmd) != DRM_IOCTL_BASE)
		return -ENOTTY;
	if (_IOC_NR(cmd) >= DRM_COMMAND_BASE)
		return tplan_driver_ioctl(file->private_data, cmd,
					  (unsigned long)compat_ptr(arg));
	if (!core_ioctl_allowed(cmd))
		return -ENOTTY;
	return drm_compat_ioctl(file, cmd, arg);
}
EXPORT_SYMBOL_NS_GPL(tplan_accel_compat_ioctl, TPLAN);
#endif

static_assert(TPLAN_IOC_MAGIC == DRM_IOCTL_BASE);
static_assert(TPLAN_IOC_BASE == DRM_COMMAND_BASE);
static_assert(TPLAN_IOC_BASE + ARRAY_SIZE(tplan_ioctls) < TPLAN_IOC_HOST_BASE);
