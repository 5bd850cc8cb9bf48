// SPDX-License-Identifier: MIT
/*
 * ioctl_ops_mm.c - ops: mmap, munmap, mremap and mprotect of the plans'
 * regions, and touching mapped bytes.
 */
#include "ioctl_fuzz.h"

static struct plan *random_plan(struct file **fp, int *fd)
{
	struct file *f = file_of_fd_index(fd);

	*fp = f;
	if (!f || !f->nplans)
		return NULL;
	return &f->plans[rnd(f->nplans)];
}

static int random_slot(const struct plan *p)
{
	int s, k = (int)rnd(SLOTS);

	for (s = 0; s < SLOTS; s++)
		if (p->s[(s + k) % SLOTS].len)
			return (s + k) % SLOTS;
	return -1;
}

/* Is @off the mmap offset of a region @f holds a handle of? */
static bool live_offset(const struct file *f, uint64_t off)
{
	int i, k;

	for (i = 0; i < f->nplans; i++)
		for (k = 0; k < SLOTS; k++)
			if (f->plans[i].s[k].len && !f->plans[i].s[k].closed &&
			    f->plans[i].s[k].off == off)
				return true;
	return false;
}

/*
 * mmap at the offset of an object the file gave up (a released plan's
 * region, a handle it closed): refused, EINVAL when the object is gone,
 * EACCES while a mapping or dma-buf still holds it; or, if the DRM core
 * gave the offset to a new object of this file since, that one maps.
 */
static void probe_given_up(const struct file *f, int fd, uint64_t off)
{
	void *addr;

	count_call();
	addr = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, (off_t)off);
	if (addr != MAP_FAILED) {
		if (!live_offset(f, off))
			fail("mmap of given-up offset %#" PRIx64 " succeeded", off);
		munmap(addr, PAGE);
		return;
	}
	if (errno != EACCES)
		check_errno("mmap of a given-up offset", errno, EINVAL);
}

void op_mmap(void)
{
	struct file *f;
	int fd, s, prot = PROT_READ | PROT_WRITE, flags = MAP_SHARED;
	int expect = 0;
	struct plan *p = random_plan(&f, &fd);
	uint64_t off, len;
	unsigned int how = (unsigned int)rnd(12);
	void *addr;

	if (!p) {
		if (f && f->ngone && f->gone_off[rnd(f->ngone < 8 ? f->ngone : 8)])
			probe_given_up(f, fd, f->gone_off[rnd(f->ngone < 8 ? f->ngone : 8)]);
		return;
	}
	s = random_slot(p);
	if (s < 0)
		return;
	if (p->s[s].closed) {
		probe_given_up(f, fd, p->s[s].off);
		return;
	}
	off = p->s[s].off;
	len = p->s[s].len;	/* a grown scratch region: this plan's part */
	switch (how) {
	case 0: flags = MAP_PRIVATE; expect = EINVAL; break;
	case 1: prot |= PROT_EXEC; expect = EPERM; break;
	case 2: flags = MAP_PRIVATE; prot = PROT_READ | PROT_EXEC; expect = EINVAL; break;
	case 3:
		if (s >= KEEP_SLOT || (p->g && p->g->unsure))
			return;	/* a kept region's size is not known exactly */
		len += PAGE * (1 + rnd(4));
		expect = EINVAL;
		break;
	case 4: /* where no GEM object starts: below 4 GiB, or inside one */
		off = chance(50) || len == PAGE ? PAGE * rnd(1ULL << 20) : off + PAGE;
		len = PAGE;
		expect = EINVAL;
		break;
	case 5: off += 1 + rnd(PAGE - 1); expect = EINVAL; break;
	case 6: len = 0; expect = EINVAL; break;
	case 7: prot = PROT_READ; len = PAGE * (1 + rnd(len / PAGE)); break;
	case 8: { /* through another open file: not its plan (or another of its) */
		struct file *g = &files[rnd(MAX_FILES)];

		if (!g->open || g == f)
			return;
		fd = g->fds[0];
		count_call();
		addr = mmap(NULL, len, prot, flags, fd, (off_t)off);
		if (addr == MAP_FAILED)
			check_errno("mmap through another file", errno, ANY);
		else
			munmap(addr, len);
		return;
	}
	default:
		break;
	}
	if (expect) {
		count_call();
		addr = mmap(NULL, len, prot, flags, fd, (off_t)off);
		if (addr != MAP_FAILED) {
			fail("mmap (case %u, slot %d, len %" PRIu64 ", prot %#x, flags %#x) succeeded, expected %s",
			     how, s, len, prot, flags, ename(expect));
			munmap(addr, len);
			return;
		}
		check_errno("mmap (bad)", errno, expect);
		return;
	}
	map_slot(fd, &p->s[s], len, prot);
}

void op_munmap(void)
{
	int i;
	struct mapping *m;
	uint64_t k;

	if (!nmaps)
		return;
	i = (int)rnd(nmaps);
	m = &maps[i];
	count_call();
	if (m->len > PAGE && chance(30)) {	/* the tail */
		k = PAGE * (1 + rnd(m->len / PAGE - 1));
		if (munmap(m->addr + m->len - k, k))
			fail("munmap of a tail: %s", strerror(errno));
		m->len -= k;
		return;
	}
	if (m->len > PAGE && chance(30)) {	/* the head */
		k = PAGE * (1 + rnd(m->len / PAGE - 1));
		if (munmap(m->addr, k))
			fail("munmap of a head: %s", strerror(errno));
		m->addr += k;
		m->len -= k;
		m->base += k;
		return;
	}
	if (munmap(m->addr, m->len))
		fail("munmap: %s", strerror(errno));
	map_forget(i);
}

void op_mremap(void)
{
	struct mapping *m;
	void *addr;
	uint64_t len;
	unsigned int how = (unsigned int)rnd(4);

	if (!nmaps)
		return;
	m = &maps[rnd(nmaps)];
	count_call();
	switch (how) {
	case 0: /* growth fails, in place or moved */
		len = m->len + PAGE * (1 + rnd(4));
		addr = mremap(m->addr, m->len, len, chance(50) ? MREMAP_MAYMOVE : 0);
		if (addr != MAP_FAILED) {
			fail("mremap grew a mapping from %" PRIu64 " to %" PRIu64 " bytes",
			     m->len, len);
			m->addr = addr;
			munmap(m->addr + m->len, len - m->len);
		}
		return;
	case 1: /* shrink */
		if (m->len <= PAGE)
			return;
		len = m->len - PAGE * (1 + rnd(m->len / PAGE - 1));
		addr = mremap(m->addr, m->len, len, 0);
		if (addr == MAP_FAILED) {
			fail("mremap shrink: %s", strerror(errno));
			return;
		}
		m->len = len;
		return;
	case 2: { /* move elsewhere */
		void *to = mmap(NULL, m->len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (to == MAP_FAILED)
			return;
		addr = mremap(m->addr, m->len, m->len, MREMAP_MAYMOVE | MREMAP_FIXED, to);
		if (addr == MAP_FAILED) {
			check_errno("mremap move", errno, ANY);
			munmap(to, m->len);
			return;
		}
		m->addr = addr;
		check_bytes(m, 0, m->len, "moved mapping");
		return;
	}
	default: /* a second mapping of the same pages (old_len 0) */
		addr = mremap(m->addr, 0, m->len, MREMAP_MAYMOVE);
		if (addr == MAP_FAILED) {
			check_errno("mremap duplicate", errno, ANY);
			return;
		}
		if (nmaps == MAX_MAPS) {
			munmap(addr, m->len);
			return;
		}
		maps[nmaps] = *m;
		maps[nmaps].addr = addr;
		tracker_get(m->tr);
		nmaps++;
		check_bytes(&maps[nmaps - 1], 0, m->len, "duplicated mapping");
		return;
	}
}

void op_mprotect(void)
{
	static const int prots[] = { PROT_READ, PROT_NONE, PROT_READ | PROT_WRITE,
				     PROT_READ | PROT_EXEC, PROT_EXEC,
				     PROT_READ | PROT_WRITE | PROT_EXEC };
	struct mapping *m;
	int prot;

	if (!nmaps)
		return;
	m = &maps[rnd(nmaps)];
	prot = prots[rnd(6)];
	count_call();
	if (mprotect(m->addr, m->len, prot)) {
		if (prot & PROT_EXEC)
			check_errno("mprotect PROT_EXEC", errno, EACCES);
		else
			fail("mprotect %#x: %s", prot, strerror(errno));
		return;
	}
	if (prot & PROT_EXEC)
		fail("mprotect made a mapping of the arena executable");
	m->prot = prot;
}

void op_touch(void)
{
	struct mapping *m;
	uint64_t a, b;

	if (!nmaps)
		return;
	m = &maps[rnd(nmaps)];
	count_call();
	a = rnd(m->len);
	b = a + 1 + rnd(chance(80) ? 64 : m->len - a);
	if (b > m->len)
		b = m->len;
	if (chance(50))
		check_bytes(m, a, b, "touch");
	else if (chance(20))
		check_bytes(m, 0, m->len, "scan");
	else
		write_bytes(m, a, b);
}
