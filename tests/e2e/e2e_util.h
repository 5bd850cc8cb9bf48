/* SPDX-License-Identifier: MIT */
/*
 * e2e_util.h - what the raw-ioctl end-to-end tests share: expectations,
 * the per-test report and small calls on /dev/tplan.  Each test program
 * includes it once.
 */
#ifndef TPLAN_E2E_UTIL_H
#define TPLAN_E2E_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "linux/tplan.h"
#include "libtplan.h"

/* the accel node (tplan_device_find()), or the first argument */
static const char *device;
static char found_device[256];
static unsigned int passed, failed;
static const char *current;

/* Checks one condition of the current test; @ok must be in scope. */
#define EXPECT(cond)							\
	do {								\
		if (!(cond)) {						\
			printf("    %s: line %d: %s (errno %d %s)\n",	\
			       current, __LINE__, #cond, errno,		\
			       strerror(errno));			\
			ok = 0;						\
		}							\
	} while (0)

static inline int open_dev(void)
{
	int fd;

	if (!device && !tplan_device_find(found_device, sizeof(found_device)))
		device = found_device;
	if (!device) {
		fprintf(stderr, "no tplan device in /sys/class/accel\n");
		exit(2);
	}
	fd = open(device, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		perror(device);
		exit(2);
	}
	return fd;
}

static inline void report(const char *name, int ok)
{
	printf("%s e2e.%s\n", ok ? "ok  " : "FAIL", name);
	if (ok)
		passed++;
	else
		failed++;
}

static inline void init_submit(struct tplan_submit *req, struct tplan_tensor_desc *t,
			unsigned int n)
{
	memset(req, 0, sizeof(*req));
	req->strategy = TPLAN_STRATEGY_ID_GREEDY_SIZE;
	req->tensors = (uint64_t)(uintptr_t)t;
	req->count = n;
	req->stride = sizeof(*t);
}

/* Submits one tensor of @size bytes; returns the ioctl result. */
static inline int submit_size(int fd, uint64_t size, struct tplan_submit *req)
{
	struct tplan_tensor_desc t = {
		.id = 7, .lower = 0, .upper = 1, .size = size, .alignment = 1,
	};

	init_submit(req, &t, 1);
	return ioctl(fd, TPLAN_IOC_SUBMIT, req);
}

/* The pool holding an untiered plan's region (0 when it has none). */
static inline unsigned int pool_of(const struct tplan_submit *r)
{
	unsigned int k;

	for (k = 0; k < TPLAN_MAX_POOLS; k++)
		if (r->regions[k].region_size)
			return k;
	return 0;
}

/* An untiered plan's region. */
static inline const struct tplan_plan_region *
region_of(const struct tplan_submit *r)
{
	return &r->regions[pool_of(r)];
}

static inline int release(int fd, uint64_t id)
{
	struct tplan_release rel = { .plan_id = id };

	return ioctl(fd, TPLAN_IOC_RELEASE, &rel);
}

static inline int get_info(int fd, struct tplan_info *info)
{
	return ioctl(fd, TPLAN_IOC_GET_INFO, info);
}

/* True when the device holds nothing: every pool is one free region. */
static inline int device_idle(int fd)
{
	struct tplan_info info;
	unsigned int i;

	if (get_info(fd, &info))
		return 0;
	for (i = 0; i < info.pool_count; i++)
		if (info.pools[i].used || info.pools[i].free_regions != 1)
			return 0;
	return 1;
}

/* Submits @n descriptors into serial group @group; the ioctl's result. */
static inline int group_submit(int fd, uint32_t group,
			       struct tplan_tensor_desc *t, unsigned int n,
			       struct tplan_submit *req)
{
	init_submit(req, t, n);
	req->group = group;
	return ioctl(fd, TPLAN_IOC_SUBMIT, req);
}

/*
 * Submits @n new 1-byte kept tensors, keys @first.., into @group: the
 * ioctl's result.
 */
static inline int new_keys_plan(int fd, uint32_t group, uint64_t first,
				struct tplan_tensor_desc *t, unsigned int n,
				struct tplan_submit *req)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		t[i] = (struct tplan_tensor_desc){ .id = i, .upper = 1,
			.size = 1, .alignment = 1, .share_key = first + i };
	return group_submit(fd, group, t, n, req);
}

/*
 * The module's reference count (/sys/module/tplan/refcnt), -1 unknown: an
 * open file or an exported dma-buf holds one; rmmod is refused until it is 0.
 */
static inline long module_refs(void)
{
	FILE *f = fopen("/sys/module/tplan/refcnt", "r");
	long n = -1;

	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

/*
 * VmallocUsed + Slab in kB: the kernel memory a group's keys and a
 * submit's tables take (slab objects, and vmalloc past a few pages).
 */
static inline long kernel_kb(void)
{
	char line[128];
	long kb, sum = 0;
	int found = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmallocUsed: %ld kB", &kb) == 1 ||
		    sscanf(line, "Slab: %ld kB", &kb) == 1) {
			sum += kb;
			found++;
		}
	if (f)
		fclose(f);
	return found == 2 ? sum : -1;
}

/* Bytes held in all pools now. */
static inline uint64_t used_bytes(int fd)
{
	struct tplan_info info;
	uint64_t used = 0;
	unsigned int i;

	if (get_info(fd, &info))
		return ~0ull;
	for (i = 0; i < info.pool_count; i++)
		used += info.pools[i].used;
	return used;
}

#endif /* TPLAN_E2E_UTIL_H */
