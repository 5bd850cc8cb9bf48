// SPDX-License-Identifier: GPL-2.0
/*
 * tplan_module.c - the tplan kernel module.
 *
 * For now it carries the shared planner only, so that every build proves
 * the planner compiles under the kernel's rules; /dev/tplan comes next.
 */
#include <linux/module.h>

MODULE_DESCRIPTION("tplan: tensor lifetime planner for ML accelerators");
MODULE_LICENSE("GPL");
