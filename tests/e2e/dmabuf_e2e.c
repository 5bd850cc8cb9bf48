// SPDX-License-Identifier: MIT
/*
 * dmabuf_e2e.c - inside UML with tplan.ko loaded: the device as a DRM accel
 * device, a plan's regions as GEM objects (handles, PRIME_HANDLE_TO_FD,
 * GEM_CLOSE), and a region shared as a dma-buf (TPLAN_IOC_EXPORT): a
 * second process imports it (DRM_IOCTL_PRIME_FD_TO_HANDLE on its own open
 * of the device) and maps it, the owner releases the plan and closes, and
 * the region stays reserved until the second process lets go; then the
 * device is idle.  Prints "ok"/"FAIL" per test and "N passed, N failed".
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "drm_uapi.h"
#include "e2e_util.h"

#define SIZE	(3 * 4096)

static void test_accel_node(int fd)
{
	char name[32] = "";
	struct drm_version v = { .name_len = sizeof(name) - 1, .name = name };
	int ok = 1, major = -1, minor = -1;

	current = "accel_node_is_tplan";
	EXPECT(!strncmp(device, "/dev/accel/accel", 16));
	EXPECT(ioctl(fd, DRM_IOCTL_VERSION, &v) == 0 &&
	       !strcmp(name, TPLAN_DRIVER_NAME));
	/* the DRM driver's version is the Makefile's VERSION, major.minor */
	EXPECT(sscanf(TPLAN_VERSION, "%d.%d", &major, &minor) == 2 &&
	       v.version_major == major && v.version_minor == minor);
	/* 6.12's GET_UNIQUE dereferences an accel file's missing master */
	EXPECT(ioctl(fd, DRM_IOCTL_GET_UNIQUE, &v) == -1 && errno == ENOTTY);
	report(current, ok);
}

static int export(int fd, uint64_t plan, uint32_t slot, uint32_t flags,
		  struct tplan_export *e)
{
	memset(e, 0, sizeof(*e));
	e->plan_id = plan;
	e->slot = slot;
	e->flags = flags;
	return ioctl(fd, TPLAN_IOC_EXPORT, e);
}

static void test_export_rejects(int fd)
{
	struct tplan_submit req;
	struct tplan_export e;
	uint32_t pool;
	int ok = 1;

	current = "export_rejects";
	EXPECT(submit_size(fd, SIZE, &req) == 0);
	pool = pool_of(&req);
	EXPECT(export(fd, req.plan_id + 1, pool, 0, &e) == -1 &&
	       errno == ENOENT);
	EXPECT(export(fd, req.plan_id, (pool + 1) % TPLAN_MAX_POOLS, 0, &e) ==
	       -1 && errno == ENOENT);
	EXPECT(export(fd, req.plan_id, 16, 0, &e) == -1 && errno == EINVAL);
	EXPECT(export(fd, req.plan_id, pool, 0x1, &e) == -1 &&
	       errno == EINVAL);
	memset(&e, 0, sizeof(e));
	e.plan_id = req.plan_id;
	e.slot = pool;
	e.reserved[2] = 1;
	EXPECT(ioctl(fd, TPLAN_IOC_EXPORT, &e) == -1 && errno == EINVAL);
	e.reserved[2] = 0;
	e.pad = 1;
	EXPECT(ioctl(fd, TPLAN_IOC_EXPORT, &e) == -1 && errno == EINVAL);
	EXPECT(release(fd, req.plan_id) == 0);
	EXPECT(export(fd, req.plan_id, pool, 0, &e) == -1 && errno == ENOENT);
	EXPECT(device_idle(fd));
	report(current, ok);
}

/* The inode of a descriptor's file: one dma-buf, one inode. */
static ino_t inode_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? 0 : st.st_ino;
}

/*
 * A region's handle exports as PRIME does it: PRIME_HANDLE_TO_FD and
 * EXPORT (by pool or by mmap offset) give the same dma-buf, showing the
 * bytes written through the device.  Once the caller closes the handle,
 * the file can neither map nor export the region; RELEASE still gives the
 * plan back.
 */
static void test_region_handles(int fd)
{
	struct tplan_submit req;
	struct drm_prime_handle h = { 0 };
	struct drm_gem_close gc = { 0 };
	struct tplan_export e, by_off, none;
	unsigned char *p, *q;
	uint64_t off;
	int ok = 1;

	current = "region_handles";
	EXPECT(submit_size(fd, SIZE, &req) == 0);
	off = region_of(&req)->mmap_offset;
	h.handle = region_of(&req)->handle;
	EXPECT(h.handle != 0);
	h.flags = TPLAN_EXPORT_RDWR;
	EXPECT(ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &h) == 0 && h.fd >= 0);
	EXPECT(export(fd, req.plan_id, pool_of(&req), 0, &e) == 0);
	memset(&by_off, 0, sizeof(by_off));
	by_off.plan_id = req.plan_id;
	by_off.mmap_offset = off;
	EXPECT(ioctl(fd, TPLAN_IOC_EXPORT, &by_off) == 0);
	EXPECT(inode_of(h.fd) && inode_of(h.fd) == inode_of(e.fd) &&
	       inode_of(e.fd) == inode_of(by_off.fd));
	p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off);
	q = mmap(NULL, SIZE, PROT_READ, MAP_SHARED, h.fd, 0);
	EXPECT(p != MAP_FAILED && q != MAP_FAILED);
	if (p != MAP_FAILED && q != MAP_FAILED) {
		p[SIZE - 1] = 0x5a;
		EXPECT(q[SIZE - 1] == 0x5a);
	}
	if (p != MAP_FAILED)
		munmap(p, SIZE);
	if (q != MAP_FAILED)
		munmap(q, SIZE);
	by_off.mmap_offset = off + 4096;	/* no region starts there */
	EXPECT(ioctl(fd, TPLAN_IOC_EXPORT, &by_off) == -1 && errno == ENOENT);
	by_off.mmap_offset = off;
	by_off.slot = 1;
	EXPECT(ioctl(fd, TPLAN_IOC_EXPORT, &by_off) == -1 && errno == EINVAL);
	gc.handle = h.handle;
	EXPECT(ioctl(fd, DRM_IOCTL_GEM_CLOSE, &gc) == 0);
	EXPECT(mmap(NULL, SIZE, PROT_READ, MAP_SHARED, fd, off) == MAP_FAILED &&
	       errno == EACCES);
	EXPECT(export(fd, req.plan_id, pool_of(&req), 0, &none) == -1 &&
	       errno == ENOENT);
	EXPECT(release(fd, req.plan_id) == 0);
	EXPECT(!device_idle(fd));	/* the dma-buf holds the region */
	close(h.fd);
	close(e.fd);
	close(by_off.fd);
	EXPECT(device_idle(fd));
	report(current, ok);
}

/* References on the module: an exported dma-buf holds one (rmmod waits). */
static long module_refs(void)
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

static void test_dmabuf_mmap_rules(int fd)
{
	struct tplan_submit req;
	struct tplan_export e;
	unsigned char *p;
	long refs;
	int ok = 1;

	current = "dmabuf_mmap_rules";
	refs = module_refs();
	EXPECT(refs > 0);
	EXPECT(submit_size(fd, SIZE, &req) == 0);
	EXPECT(export(fd, req.plan_id, pool_of(&req),
		      TPLAN_EXPORT_RDWR | TPLAN_EXPORT_CLOEXEC, &e) == 0);
	EXPECT(module_refs() == refs + 1);
	EXPECT(e.size == SIZE && e.fd >= 0);
	EXPECT(mmap(NULL, SIZE, PROT_READ, MAP_PRIVATE, e.fd, 0) ==
	       MAP_FAILED && errno == EINVAL);
	EXPECT(mmap(NULL, SIZE, PROT_READ | PROT_EXEC, MAP_SHARED, e.fd, 0) ==
	       MAP_FAILED && errno == EPERM);
	EXPECT(mmap(NULL, SIZE + 4096, PROT_READ, MAP_SHARED, e.fd, 0) ==
	       MAP_FAILED);
	EXPECT(release(fd, req.plan_id) == 0);
	EXPECT(!device_idle(fd));	/* the dma-buf holds the region */
	close(e.fd);
	EXPECT(device_idle(fd));
	EXPECT(module_refs() == refs);
	/* a read-only dma-buf maps shared for reading only */
	EXPECT(submit_size(fd, SIZE, &req) == 0);
	EXPECT(export(fd, req.plan_id, pool_of(&req), 0, &e) == 0);
	p = mmap(NULL, SIZE, PROT_READ, MAP_SHARED, e.fd, 0);
	EXPECT(p != MAP_FAILED && p[SIZE - 1] == 0);
	if (p != MAP_FAILED)
		munmap(p, SIZE);
	EXPECT(mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, e.fd, 0) ==
	       MAP_FAILED && errno == EACCES);
	close(e.fd);
	EXPECT(release(fd, req.plan_id) == 0);
	EXPECT(device_idle(fd));
	report(current, ok);
}

/* The second process: import, map, check, write, wait, let go. */
static int importer(int dbfd, int to_parent, int from_parent)
{
	struct drm_prime_handle h = { .fd = dbfd };
	struct drm_gem_close gc = { 0 };
	unsigned char *p, go = 0;
	int fd2 = open(device, O_RDWR | O_CLOEXEC), bad = 0;

	if (fd2 < 0 || ioctl(fd2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h) ||
	    !h.handle)
		return 10;
	p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, dbfd, 0);
	if (p == MAP_FAILED)
		return 11;
	bad |= p[0] != 0xab || p[4095] != 0xab || p[4096] != 0;
	memset(p + 4096, 0xcd, 4096);
	if (write(to_parent, "m", 1) != 1 || read(from_parent, &go, 1) != 1)
		return 12;
	/* the owner released the plan and closed its dma-buf: still ours */
	bad |= p[0] != 0xab || p[4096] != 0xcd;
	munmap(p, SIZE);
	gc.handle = h.handle;
	bad |= ioctl(fd2, DRM_IOCTL_GEM_CLOSE, &gc) != 0;
	close(dbfd);
	close(fd2);
	return bad ? 13 : 0;
}

static void test_dmabuf_outlives_release(int fd)
{
	int up[2], down[2], status = -1, ok = 1;
	struct tplan_submit req;
	struct tplan_export e;
	unsigned char *p, c = 0;
	pid_t pid;

	current = "dmabuf_imported_by_another_process_outlives_release";
	EXPECT(pipe(up) == 0 && pipe(down) == 0);
	EXPECT(submit_size(fd, SIZE, &req) == 0);
	p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 region_of(&req)->mmap_offset);
	EXPECT(p != MAP_FAILED);
	if (p == MAP_FAILED)
		goto out;
	memset(p, 0xab, 4096);
	EXPECT(export(fd, req.plan_id, pool_of(&req), TPLAN_EXPORT_RDWR,
		      &e) == 0);
	pid = fork();
	if (pid == 0)
		_exit(importer(e.fd, up[1], down[0]));
	EXPECT(read(up[0], &c, 1) == 1 && c == 'm');
	EXPECT(p[4096] == 0xcd);	/* the importer's write, seen here */
	munmap(p, SIZE);
	EXPECT(release(fd, req.plan_id) == 0);
	close(e.fd);
	EXPECT(used_bytes(fd) == SIZE);	/* held by the other process */
	EXPECT(write(down[1], "g", 1) == 1);
	EXPECT(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0);
	EXPECT(device_idle(fd));
out:
	report(current, ok);
}

int main(int argc, char **argv)
{
	int fd;

	if (argc > 1)
		device = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	fd = open_dev();
	test_accel_node(fd);
	test_export_rejects(fd);
	test_region_handles(fd);
	test_dmabuf_mmap_rules(fd);
	test_dmabuf_outlives_release(fd);
	close(fd);
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
