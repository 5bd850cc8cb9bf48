/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tplan_drv.h - the tplan driver's objects and how they relate.
 */

/**
 * DOC: Driver objects
 *
 * The module is two things: an arena any accelerator driver can host
 * (tplan_arena.h, exported in the TPLAN namespace) and the accel device, one
 * such host.  A &tplan_arena plans into the pools its host describes: one
 * &tplan_pool per tier, each managed by a region allocator.  A &tplan_hold
 * is one region, reference counted by the plans that use it.  Every open
 * file is a &tplan_client holding its plans and its serial groups; a
 * &tplan_arena_plan holds a region per pool it uses, and in a &tplan_group
 * the group's scratch region and the kept regions of its share_key
 * tensors.  A plan is reference counted too: its file holds one reference
 * until RELEASE or close(), every mapping one more.  A region returns to
 * its pool only with the last reference to it, so no one ever sees memory
 * another owns.
 *
 * Each object has its file and its header (tplan_drv.h is the accel device's:
 * struct tplan_dev).  Each file calls only files before it in this list,
 * so the calls run one way:
 *
 * - region.c (region.h): the region allocator of one pool;
 * - pools.c (pools.h): the arena's pools, their free room and zeroing;
 * - arena.c (arena.h, tplan_arena.h): the arena, made from a host's pools;
 * - hold.c (hold.h): holds, the reference-counted regions plans keep;
 * - meter.c (meter.h): the planner's memory, metered per submit;
 * - table_gaps.c, table.c (table.h): a submitted table and its gaps,
 *   checked, copied in and taken through the planner;
 * - group.c (group.h): serial groups;
 * - plan.c (plan.h): plans, a pure object: its regions, group and
 *   references, knowing no ioctl;
 * - arena_submit.c: the API's plans, a host's tables in kernel memory;
 * - client.c (client.h): clients, the arena's callers: their plan table,
 *   their groups; client_api.c: the API's clients;
 * - file.c (file.h): open files of the accel device: open and close (a client
 *   each), RELEASE;
 * - gem.c (gem.h): a plan's regions as GEM objects: handles, mmap, EXPORT;
 * - submit.c (submit.h): SUBMIT; submit_spill.c (submit_spill.h):
 *   SUBMIT_SPILL;
 * - ioctl.c (ioctl.h): the file operations of the accel device, the ioctl
 *   table, what every call shares, and GET_INFO;
 * - debugfs.c: an arena's state, for people;
 * - dma_pools.c (dma_pools.h): the accel device's pools, DMA buffers;
 * - tplan_module.c: the device, its parameters and the accel device.
 */
#ifndef TPLAN_DRV_H
#define TPLAN_DRV_H

#include <linux/device.h>
#include <linux/types.h>

#include <drm/drm_device.h>

#include "linux/tplan.h"

struct tplan_arena;

/**
 * struct tplan_dma_pool - one pool of the accel device: a pinned DMA buffer
 * @dev: the device it is allocated for
 * @cpu_addr: the kernel's view
 * @dma_addr: the device's view
 * @size: bytes
 */
struct tplan_dma_pool {
	struct device *dev;
	void *cpu_addr;
	dma_addr_t dma_addr;
	u64 size;
};

/**
 * struct tplan_dev - tplan's accel device (/dev/accel/accelN): an arena host
 * @drm: the DRM device (DRIVER_COMPUTE_ACCEL)
 * @arena: the arena planning into @pools
 * @pools: the DMA buffers, fastest first
 * @pool_count: entries used in @pools
 */
struct tplan_dev {
	struct drm_device drm;
	struct tplan_arena *arena;
	struct tplan_dma_pool pools[TPLAN_MAX_POOLS];
	u32 pool_count;
};

#endif /* TPLAN_DRV_H */
