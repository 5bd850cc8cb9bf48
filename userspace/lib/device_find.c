// SPDX-License-Identifier: MIT
/*
 * device_find.c - which /dev/accel/accelN speak tplan's ABI: the accel
 * devices whose driver (/sys/class/accel/accelN/device/driver) is one of
 * those that do ("tplan", the module's own device, then "tplan_edu", the
 * driver of QEMU's edu device), tplan's own first, each driver's by N.
 * $TPLAN_DEVICE overrides the search for the one device a caller uses.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libtplan.h"
#include "device_find.h"
#include "linux/tplan_edu.h"

#define ACCEL_CLASS	"/sys/class/accel"

/*
 * The drivers whose accel devices speak tplan's ABI (uapi/linux/tplan.h),
 * in the order their devices are listed: tplan's own device first, so that
 * "the first device" stays tplan's when a host driver's node is there too.
 * A driver is added here when it speaks the whole ABI: GET_INFO, SUBMIT,
 * RELEASE, SUBMIT_SPILL and EXPORT at tplan's ioctl numbers.  Listing by
 * name, not by probing, keeps tplan's ioctls away from other drivers'
 * devices, whose driver-specific numbers mean something else.
 */
static const char *const abi_drivers[] = {
	TPLAN_DRIVER_NAME,
	TPLAN_EDU_DRIVER_NAME,
};

#define N_DRIVERS	(sizeof(abi_drivers) / sizeof(abi_drivers[0]))

/*
 * The rank in abi_drivers[] of the driver of accel device @name (accelN)
 * under @class, with its name in @driver; N_DRIVERS when it speaks another
 * ABI or has no driver.
 */
static unsigned int driver_rank(const char *class, const char *name,
				char *driver, size_t size)
{
	char link[PATH_MAX], target[PATH_MAX];
	const char *base;
	unsigned int k;
	ssize_t len;

	snprintf(link, sizeof(link), "%s/%s/device/driver", class, name);
	len = readlink(link, target, sizeof(target) - 1);
	if (len < 0)
		return N_DRIVERS;
	target[len] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	for (k = 0; k < N_DRIVERS; k++)
		if (!strcmp(base, abi_drivers[k]))
			break;
	if (k < N_DRIVERS && driver && size)
		snprintf(driver, size, "%s", abi_drivers[k]);
	return k;
}

/* accelN in the order of N, so that the first device is found first. */
static int by_index(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}

static int is_accel(const struct dirent *d)
{
	return !strncmp(d->d_name, "accel", 5);
}

/* Writes "/dev/accel/@name" to @path; 0 or -ENAMETOOLONG. */
static int node_path(const char *name, char *path, size_t size)
{
	int len = snprintf(path, size, "/dev/accel/%s", name);

	return len < 0 || (size_t)len >= size ? -ENAMETOOLONG : 0;
}

/**
 * tplan_device_find_in() - tplan_device_find_at() on a sysfs class
 * directory of the caller's (the unit tests' fake /sys/class/accel)
 * @class: the directory holding the accelN entries
 * @index: as for tplan_device_find_at()
 * @path: as for tplan_device_find_at()
 * @size: as for tplan_device_find_at()
 * @driver: as for tplan_device_find_at()
 * @driver_size: as for tplan_device_find_at()
 *
 * Return: as tplan_device_find_at().
 */
int tplan_device_find_in(const char *class, unsigned int index, char *path,
			 size_t size, char *driver, size_t driver_size)
{
	struct dirent **names;
	unsigned int k, seen = 0;
	int n, i, ret = -ENOENT;

	n = scandir(class, &names, is_accel, by_index);
	if (n < 0)
		return errno == ENOMEM ? -ENOMEM : -ENOENT;
	/* one pass per driver, in the list's order; each by N */
	for (k = 0; k < N_DRIVERS && ret == -ENOENT; k++) {
		for (i = 0; i < n && ret == -ENOENT; i++) {
			char name[64];

			if (driver_rank(class, names[i]->d_name, name,
					sizeof(name)) != k || seen++ != index)
				continue;
			ret = node_path(names[i]->d_name, path, size);
			if (!ret && driver && driver_size &&
			    (size_t)snprintf(driver, driver_size, "%s", name) >=
			    driver_size)
				ret = -ENAMETOOLONG;
		}
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ret;
}

/**
 * tplan_device_find_at() - one of the accel devices that speak tplan's ABI
 * @index: 0 for the first, 1 for the next...
 * @path: out: "/dev/accel/accelN"
 * @size: bytes at @path
 * @driver: out: its driver's name ("tplan", "tplan_edu"); may be NULL
 * @driver_size: bytes at @driver
 *
 * The devices are those whose driver (/sys/class/accel/accelN/device/
 * driver) is known to speak the ABI of <linux/tplan.h>: "tplan" and
 * "tplan_edu".  tplan's own come first, then the others by driver, each
 * driver's by N.  $TPLAN_DEVICE is not looked at: this lists what is there.
 *
 * Return: 0; -ENOENT when there are @index devices or fewer (no such
 * device); -ENAMETOOLONG when @size or @driver_size is too small; -ENOMEM.
 */
int tplan_device_find_at(unsigned int index, char *path, size_t size,
			 char *driver, size_t driver_size)
{
	return tplan_device_find_in(ACCEL_CLASS, index, path, size, driver,
				    driver_size);
}

/**
 * tplan_device_find() - the path of the device to use by default
 * @path: out: "/dev/accel/accelN", or $TPLAN_DEVICE
 * @size: bytes at @path
 *
 * $TPLAN_DEVICE, when set and not empty, is the answer as it is (a node
 * path; it is not checked).  Else the first accel device that speaks
 * tplan's ABI, tplan's own first (tplan_device_find_at() with index 0).
 *
 * Return: 0; -ENOENT when no accel device speaks tplan's ABI (no module
 * loaded); -ENAMETOOLONG when @size is too small; -ENOMEM.
 */
int tplan_device_find(char *path, size_t size)
{
	const char *env = getenv("TPLAN_DEVICE");

	if (env && *env) {
		int len = snprintf(path, size, "%s", env);

		return len < 0 || (size_t)len >= size ? -ENAMETOOLONG : 0;
	}
	return tplan_device_find_at(0, path, size, NULL, 0);
}
