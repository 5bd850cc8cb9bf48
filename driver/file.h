/* SPDX-License-Identifier: GPL-2.0 */
/*
 * file.h - an open file of /dev/tplan: open and close (its client), mmap,
 * and the mmap offsets that name its plans' regions (file.c).
 */
#ifndef TPLAN_FILE_H
#define TPLAN_FILE_H

#include <linux/types.h>

struct file;
struct inode;
struct vm_area_struct;

u64 tplan_mmap_offset(u64 plan_id, u32 slot);

/* file.c's file operations: ioctl.c's tplan_fops names them */
int tplan_file_open(struct inode *inode, struct file *file);
int tplan_file_close(struct inode *inode, struct file *file);
int tplan_file_mmap(struct file *file, struct vm_area_struct *vma);

#endif /* TPLAN_FILE_H */
