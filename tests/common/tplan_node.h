/* SPDX-License-Identifier: MIT */
/*
 * tplan_node.h - for test programs that speak raw ioctls (no libtplan):
 * the node of tplan's accel device, found as libtplan finds it (the
 * /sys/class/accel/accelN whose device's driver is "tplan").
 */
#ifndef TPLAN_NODE_H
#define TPLAN_NODE_H

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "linux/tplan.h"

/* "/dev/accel/accelN" of the first tplan device, or NULL when none. */
static inline const char *tplan_node(void)
{
	static char node[16 + sizeof(((struct dirent *)0)->d_name)];
	char link[PATH_MAX], target[PATH_MAX];
	const char *found = NULL;
	struct dirent *e;
	DIR *d = opendir("/sys/class/accel");
	ssize_t len;

	while (d && !found && (e = readdir(d))) {
		if (strncmp(e->d_name, "accel", 5))
			continue;
		snprintf(link, sizeof(link),
			 "/sys/class/accel/%s/device/driver", e->d_name);
		len = readlink(link, target, sizeof(target) - 1);
		if (len < 0)
			continue;
		target[len] = '\0';
		if (strcmp(strrchr(target, '/') ? strrchr(target, '/') + 1 :
			   target, TPLAN_DRIVER_NAME))
			continue;
		snprintf(node, sizeof(node), "/dev/accel/%s", e->d_name);
		found = node;
	}
	if (d)
		closedir(d);
	return found;
}

#endif /* TPLAN_NODE_H */
