/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ioctl.h - the file operations of the accel device (ioctl.c).
 */
#ifndef TPLAN_IOCTL_H
#define TPLAN_IOCTL_H

#include <linux/fs.h>

extern const struct file_operations tplan_fops;

#endif /* TPLAN_IOCTL_H */
