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
#include <stdlib.h>
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

/*
 * A plan of SIZE bytes, its region mapped read-write through @fd and its
 * first @len bytes set to @fill; MAP_FAILED when either fails.
 */
static unsigned char *submit_mapped(int fd, struct tplan_submit *req,
				    unsigned char fill, size_t len)
{
	unsigned char *p;

	if (submit_size(fd, SIZE, req))
		return MAP_FAILED;
	p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 region_of(req)->mmap_offset);
	if (p != MAP_FAILED)
		memset(p, fill, len);
	return p;
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
	p = submit_mapped(fd, &req, 0xab, 4096);
	EXPECT(p != MAP_FAILED);
	if (p == MAP_FAILED)
		goto out;
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

/*
 * A read-only dma-buf stays read-only in the hands of a process that
 * imports it into its own open of the device: it cannot map the region's
 * object at its fake offset (the object a read-write import would give),
 * and exporting its handle again gives a read-only dma-buf, whatever the
 * flags.  (It used to map the offset read-write and write the owner's
 * bytes.)
 */
static int read_only_importer(int dbfd, uint64_t offset)
{
	struct drm_prime_handle h = { .fd = dbfd }, again = { 0 };
	int fd2 = open(device, O_RDWR | O_CLOEXEC), bad = 0;
	unsigned char *p;

	if (fd2 < 0 || ioctl(fd2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h) ||
	    !h.handle)
		return 10;
	bad |= mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd2,
		    offset) != MAP_FAILED;
	bad |= mmap(NULL, SIZE, PROT_READ, MAP_SHARED, fd2, offset) !=
	       MAP_FAILED;
	again.handle = h.handle;
	again.flags = TPLAN_EXPORT_RDWR;
	if (ioctl(fd2, DRM_IOCTL_PRIME_HANDLE_TO_FD, &again) || again.fd < 0)
		return 11;
	bad |= (fcntl(again.fd, F_GETFL) & O_ACCMODE) != O_RDONLY;
	bad |= mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, again.fd,
		    0) != MAP_FAILED;
	p = mmap(NULL, SIZE, PROT_READ, MAP_SHARED, again.fd, 0);
	if (p == MAP_FAILED)
		return 12;
	bad |= p[0] != 0x5a || p[SIZE - 1] != 0x5a;
	munmap(p, SIZE);
	close(again.fd);
	close(fd2);
	return bad ? 13 : 0;
}

static void test_read_only_import_stays_read_only(int fd)
{
	struct tplan_submit req;
	struct tplan_export e;
	int status = -1, ok = 1;
	unsigned char *p;
	pid_t pid;

	current = "read_only_dmabuf_imported_stays_read_only";
	p = submit_mapped(fd, &req, 0x5a, SIZE);
	EXPECT(p != MAP_FAILED);
	if (p == MAP_FAILED)
		goto out;
	EXPECT(export(fd, req.plan_id, pool_of(&req), 0, &e) == 0);
	pid = fork();
	if (pid == 0) {
		close(fd);	/* as a process that was only sent the dma-buf */
		_exit(read_only_importer(e.fd, region_of(&req)->mmap_offset));
	}
	EXPECT(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0);
	EXPECT(p[0] == 0x5a && p[SIZE - 1] == 0x5a);
	munmap(p, SIZE);
	close(e.fd);
	EXPECT(release(fd, req.plan_id) == 0);
	EXPECT(device_idle(fd));
out:
	report(current, ok);
}

/*
 * A file opened read-only may plan and share for reading, never for
 * writing: TPLAN_IOC_EXPORT and PRIME_HANDLE_TO_FD refuse a read-write
 * dma-buf (EACCES), as mmap() refuses a writable mapping.
 */
static void test_read_only_file_shares_read_only(int rw)
{
	struct drm_prime_handle h = { 0 };
	int fd = open(device, O_RDONLY | O_CLOEXEC), ok = 1;
	struct tplan_submit req;
	struct tplan_export e;

	current = "read_only_file_exports_read_only";
	EXPECT(fd >= 0);
	EXPECT(submit_size(fd, SIZE, &req) == 0);
	EXPECT(export(fd, req.plan_id, pool_of(&req), TPLAN_EXPORT_RDWR,
		      &e) == -1 && errno == EACCES);
	h.handle = region_of(&req)->handle;
	h.flags = TPLAN_EXPORT_RDWR;
	EXPECT(ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &h) == -1 &&
	       errno == EACCES);
	EXPECT(mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    region_of(&req)->mmap_offset) == MAP_FAILED &&
	       errno == EACCES);
	EXPECT(export(fd, req.plan_id, pool_of(&req), 0, &e) == 0);
	EXPECT((fcntl(e.fd, F_GETFL) & O_ACCMODE) == O_RDONLY);
	close(e.fd);
	close(fd);
	EXPECT(device_idle(rw));
	report(current, ok);
}

/* ---- what a mapping or a dma-buf keeps, and its bounds -------------------- */

/*
 * A group's keys go with the members that leave them, even while a
 * dma-buf of one of its plans keeps the group: four joins of 65535 keys
 * (16 MiB of keys), one plan exported, the file closed.  The keys used to
 * stay until the dma-buf went, uncharged: files could pile them up past
 * every key cap.
 */
static void test_dmabuf_keeps_no_key_table(int rw)
{
	const unsigned int n = 65535;
	struct tplan_tensor_desc *t = calloc(n, sizeof(*t));
	int fd = open(device, O_RDWR | O_CLOEXEC), ok = 1, i;
	struct tplan_export e = { .fd = -1 };
	struct tplan_submit req;
	long before, grown;

	current = "dmabuf_of_a_group_plan_keeps_no_key_table";
	EXPECT(t && fd >= 0);
	before = kernel_kb();
	for (i = 0; i < 4 && ok; i++)
		EXPECT(new_keys_plan(fd, 1, 1 + (uint64_t)i * n, t, n, &req) ==
		       0);
	e.plan_id = req.plan_id;
	e.mmap_offset = t[0].mmap_offset;
	EXPECT(ok && ioctl(fd, TPLAN_IOC_EXPORT, &e) == 0);
	close(fd);
	grown = kernel_kb() - before;
	printf("     kernel memory %+ld kB with the dma-buf alone left\n", grown);
	EXPECT(grown < 4096);
	if (e.fd >= 0)
		close(e.fd);
	EXPECT(device_idle(rw));
	free(t);
	report(current, ok);
}

/*
 * While a group lives on (a plan holding one key), its keys go as the
 * other plans leave them: pairs of 65535-key plans joined and released
 * over and over, in two groups, leave no keys behind.  The key tables used
 * to stay at their largest while their keys were no longer counted.
 */
static void test_key_table_shrinks(int fd)
{
	const unsigned int n = 65535;
	struct tplan_tensor_desc *t = calloc(n, sizeof(*t));
	struct tplan_submit holder[2], req[2];
	long before, grown;
	int ok = 1, g, i;

	current = "group_key_table_shrinks_as_its_keys_go";
	EXPECT(t != NULL);
	before = kernel_kb();
	for (g = 0; g < 2 && ok; g++) {
		EXPECT(new_keys_plan(fd, 10 + g, 1, t, 1, &holder[g]) == 0);
		for (i = 0; i < 3 && ok; i++) {	/* 5 MiB: vmalloc'ed */
			EXPECT(new_keys_plan(fd, 10 + g, 2, t, n, &req[0]) == 0);
			EXPECT(new_keys_plan(fd, 10 + g, 2 + n, t, n, &req[1]) ==
			       0);
			EXPECT(release(fd, req[0].plan_id) == 0);
			EXPECT(release(fd, req[1].plan_id) == 0);
		}
	}
	grown = kernel_kb() - before;
	printf("     kernel memory %+ld kB with two groups of one key each\n",
	       grown);
	EXPECT(grown < 2048);
	for (g = 0; g < 2; g++)
		EXPECT(release(fd, holder[g].plan_id) == 0);
	EXPECT(device_idle(fd));
	free(t);
	report(current, ok);
}

/*
 * Released plans that mappings keep count against max_device_plans (4096
 * by default) until the mappings go, even when they hold no pool bytes: a
 * group's plans that only reuse one kept tensor.  They used to pile up
 * without bound (30,000 plans, 152 MiB of kernel memory, 4 KiB of pool).
 */
static void test_mapped_plans_are_capped(int fd)
{
	enum { TRIES = 4200, GROUP = 3, KEY = 9 };
	struct tplan_tensor_desc t = { .id = 1, .upper = 1, .size = 4096,
				       .alignment = 1, .share_key = KEY };
	void **maps = calloc(TRIES, sizeof(*maps));
	struct tplan_submit holder, req;
	unsigned int made, i;
	int ok = 1, err = 0;

	current = "released_plans_kept_by_mappings_are_capped";
	EXPECT(maps && group_submit(fd, GROUP, &t, 1, &holder) == 0);
	for (made = 0; ok && made < TRIES; made++) {
		if (group_submit(fd, GROUP, &t, 1, &req)) {
			err = errno;
			break;
		}
		maps[made] = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd,
				  t.mmap_offset);
		EXPECT(maps[made] != MAP_FAILED);
		EXPECT(req.shared_bytes == 0 && release(fd, req.plan_id) == 0);
	}
	printf("     %u released plans kept by their mappings, then %s\n",
	       made, err ? strerror(err) : "no refusal");
	EXPECT(made < 4096 && err == ENFILE);
	for (i = 0; i < made && maps; i++)
		if (maps[i] != MAP_FAILED)
			munmap(maps[i], 4096);
	EXPECT(submit_size(fd, SIZE, &req) == 0 &&
	       release(fd, req.plan_id) == 0);
	EXPECT(release(fd, holder.plan_id) == 0);
	EXPECT(device_idle(fd));
	free(maps);
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
	test_read_only_import_stays_read_only(fd);
	test_read_only_file_shares_read_only(fd);
	test_dmabuf_keeps_no_key_table(fd);
	test_key_table_shrinks(fd);
	test_mapped_plans_are_capped(fd);
	close(fd);
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
