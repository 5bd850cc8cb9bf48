// SPDX-License-Identifier: MIT
/*
 * ioctl_ops_release.c - ops: RELEASE of held plans and mutated RELEASE
 * structs; unknown ioctl numbers.
 */
#include "ioctl_fuzz.h"

void op_release(void)
{
	int fd, idx;
	struct file *f = file_of_fd_index(&fd);

	if (!f || !f->nplans)
		return;
	idx = (int)rnd(f->nplans);
	if (forked && !f->plans[idx].child_made)
		return;
	release_plan(f, idx);
}

/* A forked child gives back what it made: the file is its parent's too. */
void release_child_made(void)
{
	int i, k;

	for (i = 0; i < MAX_FILES; i++)
		for (k = files[i].open ? files[i].nplans - 1 : -1; k >= 0; k--)
			if (files[i].plans[k].child_made)
				release_plan(&files[i], k);
}

void op_release_bad(void)
{
	struct tplan_release rel = { 0 };
	unsigned int how = (unsigned int)rnd(8), dir = _IOC_WRITE;
	size_t size = TPLAN_RELEASE_SIZE_VER1;
	uint8_t *arg = argbuf;
	int expect = EINVAL, fd, r;
	struct file *f = file_of_fd_index(&fd);

	if (!f)
		return;
	rel.plan_id = (f->nplans && !forked) ? f->plans[rnd(f->nplans)].id : 0;
	switch (how) {
	case 0: rel.flags = 1 + (uint32_t)rnd(UINT32_MAX); break;
	case 1: rel.pad = 1 + (uint32_t)rnd(UINT32_MAX); break;
	case 2: rel.reserved[rnd(2)] = 1 + rnd(UINT64_MAX - 1); break;
	case 3: /* no such plan */
		rel.plan_id = chance(30) ? 0 : chance(50) ? (1ULL << 20) + rnd64() % (UINT64_MAX - (1ULL << 20)) :
			      f->ngone ? f->gone[rnd(f->ngone < 8 ? f->ngone : 8)] : 0;
		if (find_plan(f, rel.plan_id) >= 0 || forked)
			return;
		expect = ENOENT;
		break;
	case 4: size = rnd(TPLAN_RELEASE_SIZE_VER1); expect = ENOTTY; break;
	case 5: dir = _IOC_READ | _IOC_WRITE; expect = ENOTTY; break;
	case 6: arg = NULL; expect = EFAULT; break;
	default:
		size = TPLAN_RELEASE_SIZE_VER1 + 1 + rnd(1000);
		memset(argbuf, 0, ARG_BYTES);
		argbuf[TPLAN_RELEASE_SIZE_VER1 + rnd(size - TPLAN_RELEASE_SIZE_VER1)] = 1;
		expect = E2BIG;
		break;
	}
	if (how != 7 && arg)
		memcpy(argbuf, &rel, sizeof(rel));
	r = do_ioctl(fd, ioc(dir, _IOC_NR(TPLAN_IOC_RELEASE), size), arg);
	check_errno("RELEASE (mutated)", r, expect);
	if (!r) {	/* it released one of ours after all */
		int idx = find_plan(f, rel.plan_id);

		if (idx >= 0)
			plan_forget(f, idx);
	}
}

/* Unknown ioctl numbers of our magic. */
void op_bad_number(void)
{
	int fd, r;
	struct file *f = file_of_fd_index(&fd);
	/* the numbers after the last known one (EXPORT, 0x44) */
	unsigned int first = _IOC_NR(TPLAN_IOC_EXPORT) + 1;
	unsigned int nr = first + (unsigned int)rnd(256 - first);

	if (!f)
		return;
	memset(argbuf, 0, ARG_BYTES);
	r = do_ioctl(fd, ioc((unsigned int)rnd(4), nr, rnd(16384)), argbuf);
	check_errno("unknown ioctl", r, ENOTTY);
}

/*
 * The DRM core's numbers (below DRM_COMMAND_BASE), at random: the few an
 * accel client has use for work, the others are ENOTTY; none may harm
 * the kernel (6.12's GET_UNIQUE on an accel file would).
 */
void op_core_number(void)
{
	int fd, r;
	struct file *f = file_of_fd_index(&fd);
	unsigned int nr = (unsigned int)rnd(TPLAN_IOC_BASE);

	if (!f)
		return;
	/* no random pointers: VERSION would write where they point */
	memset(argbuf, 0, ARG_BYTES);
	*(uint32_t *)argbuf = (uint32_t)rnd64();
	r = do_ioctl(fd, ioc((unsigned int)rnd(4), nr, rnd(512)), argbuf);
	if (r != ENOTTY && r != EINVAL && r != EFAULT && r != ENOENT &&
	    r != EBADF && r != EOPNOTSUPP && r != 0)
		fail("DRM core ioctl %#x: errno %d", nr, r);
}

/*
 * The device imports its own dma-buf: a handle to the same GEM object in
 * this file (DRM PRIME), given up again with GEM_CLOSE.
 */
static void import_and_close(int fd, int dbfd, struct slot *sl)
{
	struct drm_prime_handle h = { .fd = dbfd };
	struct drm_gem_close gc = { 0 };
	int r;

	r = do_ioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h);
	if (!check_errno("PRIME_FD_TO_HANDLE", r, 0) || r)
		return;
	/* the exporting file gets the region's own handle back */
	if (!h.handle || (sl->handle && h.handle != sl->handle))
		fail("PRIME_FD_TO_HANDLE gave handle %u, the region's is %u",
		     h.handle, sl->handle);
	gc.handle = h.handle;
	r = do_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &gc);
	if (check_errno("GEM_CLOSE", r, 0) && !r)
		sl->closed = true;
}

/*
 * Another open file of this process imports the read-only dma-buf: it gets
 * a read-only object of its own, so the region's offset stays EACCES
 * through it, and exporting that handle again, even read-write, gives the
 * read-only dma-buf.  The handle is closed again.
 */
static void import_elsewhere(const struct file *f, int dbfd,
			     const struct slot *sl)
{
	struct drm_prime_handle h = { .fd = dbfd }, again = { 0 };
	struct drm_gem_close gc = { 0 };
	int j, fd2 = -1, r;
	void *m;

	for (j = 0; j < MAX_FILES && fd2 < 0; j++)
		if (files[j].open && &files[j] != f && files[j].nfds)
			fd2 = files[j].fds[0];
	if (fd2 < 0)
		return;
	r = do_ioctl(fd2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h);
	if (!check_errno("PRIME_FD_TO_HANDLE (another file)", r, 0) || r)
		return;
	m = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd2, (off_t)sl->off);
	if (m != MAP_FAILED) {
		fail("a read-only import let another file map offset %#llx",
		     (unsigned long long)sl->off);
		munmap(m, PAGE);
	} else if (errno != EACCES) {
		fail("mmap of an offset another file imported read-only: errno %d, not EACCES",
		     errno);
	}
	again.handle = h.handle;
	again.flags = O_RDWR;	/* DRM_RDWR */
	r = do_ioctl(fd2, DRM_IOCTL_PRIME_HANDLE_TO_FD, &again);
	if (check_errno("PRIME_HANDLE_TO_FD (read-only import)", r, 0) && !r) {
		if ((fcntl(again.fd, F_GETFL) & O_ACCMODE) != O_RDONLY)
			fail("a read-only import exported again is writable");
		close(again.fd);
	}
	gc.handle = h.handle;
	r = do_ioctl(fd2, DRM_IOCTL_GEM_CLOSE, &gc);
	check_errno("GEM_CLOSE (another file's import)", r, 0);
}

/*
 * EXPORT of a held plan's region (or of an empty slot): the dma-buf is
 * mapped read-only, read, unmapped and closed within the op, so that the
 * model's own mappings stay the only writers.  A pool's region is named by
 * its slot or its mmap offset, a kept one by its offset.  A region the
 * model holds exports; an empty slot, a handle we closed or a released
 * plan is ENOENT.  Importing it into the same file gives the region's
 * handle, and closing that handle closes the region's; imported into
 * another file it stays read-only.
 */
void op_export(void)
{
	struct tplan_export e = { 0 };
	int fd, r, expect = 0;
	struct file *f = file_of_fd_index(&fd);
	struct plan *p;
	struct slot *sl;
	uint32_t s;
	volatile uint8_t *m;

	if (!f || !f->nplans || forked)
		return;
	p = &f->plans[rnd(f->nplans)];
	s = (uint32_t)rnd(SLOTS);
	sl = &p->s[s];
	e.plan_id = p->id;
	if (s < KEEP_SLOT && chance(50))
		e.slot = s;
	else if (sl->len)
		e.mmap_offset = sl->off;
	else
		e.mmap_offset = PAGE * (1 + rnd((1ULL << 20) - 1));	/* no object's */
	e.flags = chance(50) ? TPLAN_EXPORT_CLOEXEC : 0;
	if (!sl->len || sl->closed)
		expect = ENOENT;
	r = do_ioctl(fd, TPLAN_IOC_EXPORT, &e);
	if (!check_errno("EXPORT", r, expect) || r)
		return;
	m = mmap(NULL, e.size, PROT_READ, MAP_SHARED, e.fd, 0);
	if (m == MAP_FAILED) {
		fail("mmap of an exported region (%llu bytes): errno %d",
		     (unsigned long long)e.size, errno);
	} else {
		(void)m[rnd(e.size)];
		munmap((void *)m, e.size);
	}
	if (chance(30))
		import_and_close(fd, e.fd, sl);
	else if (chance(30))
		import_elsewhere(f, e.fd, sl);
	close(e.fd);
}
