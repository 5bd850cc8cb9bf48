// SPDX-License-Identifier: MIT
/*
 * device_find.c - which /dev/accel/accelN is tplan's: the accel device
 * whose driver (/sys/class/accel/accelN/device/driver) is "tplan".
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libtplan.h"

#define ACCEL_CLASS	"/sys/class/accel"

/* Whether the accel device @name (accelN) is driven by tplan. */
static int driven_by_tplan(const char *name)
{
	char link[PATH_MAX], target[PATH_MAX];
	const char *base;
	ssize_t len;

	snprintf(link, sizeof(link), ACCEL_CLASS "/%s/device/driver", name);
	len = readlink(link, target, sizeof(target) - 1);
	if (len < 0)
		return 0;
	target[len] = '\0';
	base = strrchr(target, '/');
	return !strcmp(base ? base + 1 : target, TPLAN_DRIVER_NAME);
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

/**
 * tplan_device_find() - the path of the first tplan accel device
 * @path: out: "/dev/accel/accelN"
 * @size: bytes at @path
 *
 * Return: 0; -ENOENT when no accel device is tplan's (the module is not
 * loaded); -ENAMETOOLONG when @size is too small; -ENOMEM.
 */
int tplan_device_find(char *path, size_t size)
{
	struct dirent **names;
	int n, i, ret = -ENOENT;

	n = scandir(ACCEL_CLASS, &names, is_accel, by_index);
	if (n < 0)
		return errno == ENOMEM ? -ENOMEM : -ENOENT;
	for (i = 0; i < n; i++) {
		if (ret == -ENOENT && driven_by_tplan(names[i]->d_name)) {
			int len = snprintf(path, size, "/dev/accel/%s",
					   names[i]->d_name);

			ret = len < 0 || (size_t)len >= size ? -ENAMETOOLONG : 0;
		}
		free(names[i]);
	}
	free(names);
	return ret;
}
