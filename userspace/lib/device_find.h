/* SPDX-License-Identifier: MIT */
/*
 * device_find.h - libtplan's device search on a class directory of the
 * caller's, for the unit tests (a fake /sys/class/accel); not exported.
 */
#ifndef TPLAN_DEVICE_FIND_H
#define TPLAN_DEVICE_FIND_H

#include <stddef.h>

int tplan_device_find_in(const char *class, unsigned int index, char *path,
			 size_t size, char *driver, size_t driver_size);

#endif /* TPLAN_DEVICE_FIND_H */
