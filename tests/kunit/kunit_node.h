/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kunit_node.h - the node the ioctl KUnit suites open: the UML test kernel
 * has one accel device, tplan's (tests/uml/guest-tests.sh loads it first).
 */
#ifndef TPLAN_KUNIT_NODE_H
#define TPLAN_KUNIT_NODE_H

#define TPLAN_KUNIT_NODE	"/dev/accel/accel0"

#endif /* TPLAN_KUNIT_NODE_H */
