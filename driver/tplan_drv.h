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
 * Each object has its file and its header.  Each file calls only files
 * before it in this list, so the calls run one way:
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
 * - ioctl.c: the ioctl dispatch of an accel device (tplan's table and its
 *   host's), what every call shares, and GET_INFO;
 * - debugfs.c: an arena's state, for people;
 * - dma_pools.c (dma_pools.h): an accel device's pools, DMA buffers;
 * - accel.c (tplan_accel.h): an accel device: its DMA buffers, arena and
 *   DRM registration, for any host driver;
 * - tplan_module.c: tplan's own device, its parameters: one such host;
 * - edu/: tplan_edu, the driver of QEMU's edu PCI device, another host,
 *   using only the exported headers (tplan_accel.h, tplan_arena.h).
 */
#ifndef TPLAN_DRV_H
#define TPLAN_DRV_H

#endif /* TPLAN_DRV_H */
