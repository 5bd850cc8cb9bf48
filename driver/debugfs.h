/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debugfs.h - /sys/kernel/debug/tplan/state (debugfs.c).
 */
#ifndef TPLAN_DEBUGFS_H
#define TPLAN_DEBUGFS_H

struct tplan_dev;

void tplan_debugfs_init(struct tplan_dev *tdev);
void tplan_debugfs_exit(struct tplan_dev *tdev);

#endif /* TPLAN_DEBUGFS_H */
