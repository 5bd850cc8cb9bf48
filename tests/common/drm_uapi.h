/* SPDX-License-Identifier: MIT */
/*
 * drm_uapi.h - for test programs: the few structs and numbers of the DRM
 * core's uapi (<drm/drm.h>) they use, as the kernel defines them; Debian's
 * linux-libc-dev has no DRM headers.
 */
#ifndef TPLAN_DRM_UAPI_H
#define TPLAN_DRM_UAPI_H

#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>

struct drm_version {
	int version_major;
	int version_minor;
	int version_patchlevel;
	size_t name_len;
	char *name;
	size_t date_len;
	char *date;
	size_t desc_len;
	char *desc;
};

struct drm_gem_close {
	uint32_t handle;
	uint32_t pad;
};

struct drm_prime_handle {
	uint32_t handle;
	uint32_t flags;
	int32_t fd;
};

#define DRM_IOCTL_VERSION	_IOWR('d', 0x00, struct drm_version)
#define DRM_IOCTL_GET_UNIQUE	_IOWR('d', 0x01, struct drm_version)
#define DRM_IOCTL_GEM_CLOSE	_IOW('d', 0x09, struct drm_gem_close)
#define DRM_IOCTL_PRIME_HANDLE_TO_FD	_IOWR('d', 0x2d, struct drm_prime_handle)
#define DRM_IOCTL_PRIME_FD_TO_HANDLE	_IOWR('d', 0x2e, struct drm_prime_handle)

#endif /* TPLAN_DRM_UAPI_H */
