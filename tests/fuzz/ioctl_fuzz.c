// SPDX-License-Identifier: MIT
/*
 * ioctl_fuzz.c - a seeded fuzzer and stress test for /dev/tplan, run inside
 * UML by tests/fuzz/guest-fuzz.sh (as root: it drops privileges itself).
 *
 *   ioctl_fuzz [--seed N] [--iters N] [--procs N] [--stress] [--cycles N]
 *              [--device PATH] [--uid N] [--gid N] [--check-perms]
 *              [--max-latency-ms N]
 *
 * The parent forks --procs workers that drop to --uid/--gid (65534, no
 * supplementary groups), open the device and issue random and mutated
 * GET_INFO / SUBMIT / RELEASE calls interleaved with mmap, munmap, mremap,
 * mprotect, touching mapped bytes, fork, close / dup / reopen and signals
 * (SIGALRM with and without SA_RESTART, SIGSTOP / SIGCONT to a sibling).
 * --iters is the number of calls over all workers.
 *
 * Oracle, per call: 0 or a documented errno (docs/DRIVER.md), and where an
 * input was built to hit one check, that check's errno; a successful
 * submit's write-back is consistent; a mapped byte is 0 or the pattern this
 * process last wrote there (so a fresh region reads all zero, and nobody
 * else's bytes ever show).  Meanwhile the parent reads /dev/kmsg and counts
 * kernel reports; after the workers exit, debugfs must show every pool as
 * one free region and no plan.
 *
 * --stress: --procs (default 8) workers x --cycles (default 10000) cycles of
 * submit (a random valid table: plain, tiered or in a serial group) / mmap
 * every region / check / write a pattern / release, with the same checks.
 *
 * Latency oracle: beside the workers a process sleeps 1 ms at a time and
 * measures how late each wake-up is; UML runs one CPU without preemption,
 * so a kernel loop the callers size that does not yield shows there.  The
 * longest is printed; with --max-latency-ms N a longer one fails the run.
 *
 * Prints the seed first and "N calls, N processes, N reports" last; exits
 * non-zero on any report, failure or leftover.  A failure line names the
 * seed, the worker and its call number.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "linux/tplan.h"

#define PAGE		4096UL
#define MAX_PROCS	64
#define MAX_FILES	3
#define MAX_FDS		4
#define MAX_HELD	72	/* plans per file in the model (device: 64) */
#define MAX_GROUPS	4
#define MAX_KEYS	64
#define MAX_MAPS	48
#define SLOTS		16
#define KEEP_SLOT	4
#define MAX_VALID_N	48	/* tensors of a random valid table */
#define TABLE_BYTES	(256UL * 1024)	/* MAX_VALID_N x a stride of 4096 fits */
#define ARG_BYTES	(32UL * 1024)	/* a struct of up to 16383 bytes */
#define ANY		(-1)	/* any documented errno */
#define NO_FAULT	0xffffffffu

/* ------------------------------------------------------------------ */
/* options, shared counters, output */

static const char *device = "/dev/tplan";
static uint64_t seed;
static uint64_t iters = 20000;
static uint64_t cycles = 10000;
static int procs;
static bool stress;
static bool check_perms_opt;
static uid_t run_uid = 65534;
static gid_t run_gid = 65534;
static int gid_given;

struct shared {
	uint64_t calls;
	uint64_t failures;
	uint64_t cycles;
	uint64_t ok_submits;
	uint64_t enospc;
	uint64_t checked_bytes;
	uint64_t raced_grows;	/* scratch grown while another process mapped it */
	uint64_t keep_limits;	/* E2BIG for a 13th kept region */
	uint64_t pins_checked;	/* pinned tensors found where they were pinned */
	uint64_t hints_checked;	/* free hints found taken */
	uint64_t results[4][136];	/* SUBMIT, other ioctls, mm calls, fixed SUBMITs: by errno */
	pid_t pids[MAX_PROCS];
	int race_done[MAX_PROCS];
	uint64_t max_late_ns;	/* the sleeper's latest wake-up */
	uint64_t wakeups;
	const char *doing[MAX_PROCS];	/* each worker's op now, or NULL */
	const char *late_doing[MAX_PROCS];	/* ... over the latest nap */
};

enum { RES_SUBMIT, RES_IOCTL, RES_MM, RES_FIXED };

static struct shared *sh;
static int me = -1;		/* worker index; -1 in the parent */
static bool forked;		/* in a short-lived child of a worker */
static uint64_t my_calls;
static unsigned int printed;

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
	sigset_t all, old;
	va_list ap;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	__atomic_add_fetch(&sh->failures, 1, __ATOMIC_RELAXED);
	if (++printed > 40)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	out("FAIL seed %" PRIu64 " proc %d call %" PRIu64 "%s: %s\n", seed, me,
	    my_calls, forked ? " (forked child)" : "", msg);
}

static void count_call(void)
{
	my_calls++;
	__atomic_add_fetch(&sh->calls, 1, __ATOMIC_RELAXED);
}

static const char *ename(int e)
{
	static char buf[32];

	switch (e) {
	case 0: return "success";
	case ENOTTY: return "ENOTTY";
	case E2BIG: return "E2BIG";
	case EFAULT: return "EFAULT";
	case EINVAL: return "EINVAL";
	case EOVERFLOW: return "EOVERFLOW";
	case ETIMEDOUT: return "ETIMEDOUT";
	case EINTR: return "EINTR";
	case ENOSPC: return "ENOSPC";
	case EMFILE: return "EMFILE";
	case ENOMEM: return "ENOMEM";
	case ENOENT: return "ENOENT";
	case ENXIO: return "ENXIO";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case EBADF: return "EBADF";
	case EAGAIN: return "EAGAIN";
	case ENOBUFS: return "ENOBUFS";
	}
	snprintf(buf, sizeof(buf), "errno %d", e);
	return buf;
}

/* docs/DRIVER.md's errnos */
static bool documented(int e)
{
	switch (e) {
	case 0: case ENOTTY: case E2BIG: case EFAULT: case EINVAL:
	case EOVERFLOW: case ETIMEDOUT: case EINTR: case ENOSPC: case EMFILE:
	case ENOMEM: case ENOENT: case ENXIO: case EPERM: case EACCES:
	case ENOBUFS:
		return true;
	}
	return false;
}

/*
 * @got against @expect: ANY takes every documented errno; else the
 * expected one, or what the environment may always cause (a signal,
 * memory).  Returns true when @got was acceptable.
 */
static bool check_errno(const char *what, int got, int expect)
{
	int kind = !strncmp(what, "SUBMIT (fixed", 13) ? RES_FIXED :
		   !strncmp(what, "SUBMIT", 6) ? RES_SUBMIT :
		   !strncmp(what, "m", 1) ? RES_MM : RES_IOCTL;

	__atomic_add_fetch(&sh->results[kind][got >= 0 && got < 136 ? got : 135], 1,
			   __ATOMIC_RELAXED);
	if (!documented(got)) {
		fail("%s: undocumented result %s", what, ename(got));
		return false;
	}
	if (expect == ANY || got == expect || got == EINTR || got == ENOMEM)
		return true;
	fail("%s: expected %s, got %s", what, ename(expect), ename(got));
	return false;
}

/* ------------------------------------------------------------------ */
/* random numbers (splitmix64) */

static uint64_t rng;

static uint64_t rnd64(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rnd(uint64_t n)
{
	return n ? rnd64() % n : 0;
}

static bool chance(unsigned int pct)
{
	return rnd(100) < pct;
}

/* ------------------------------------------------------------------ */
/* the model: files, plans, groups, mappings and what their bytes hold */

/*
 * What we know of a region's bytes: each is 0, or, below @written_to, the
 * pattern byte pat(tracker, offset) this process wrote.  @lax: no check
 * (a kept region whose keys we cannot tell apart).
 */
struct tracker {
	int refs;
	uint32_t seed;
	uint64_t written_to;
	bool lax;
};

struct slot {
	uint64_t off;		/* mmap offset */
	uint64_t len;		/* bytes we may map (exact for slots < 4) */
	struct tracker *tr;
};

struct sgroup;

struct plan {
	uint64_t id;
	struct sgroup *g;
	struct slot s[SLOTS];
	bool child_made;	/* by a forked child, which releases it */
};

struct gkey {
	uint64_t key;
	struct tracker *tr;
};

struct sgroup {
	uint32_t id;
	int nplans;
	struct tracker *scratch;
	uint64_t scratch_size;	/* the largest we saw */
	bool unsure;		/* a submit may have grown it unseen */
	struct gkey keys[MAX_KEYS];
	int nkeys;
};

struct file {
	bool open;
	int fds[MAX_FDS];
	int nfds;
	struct plan plans[MAX_HELD];
	int nplans;
	struct sgroup groups[MAX_GROUPS];
	uint64_t gone[8];	/* ids of plans released lately */
	unsigned int ngone;
};

struct mapping {
	uint8_t *addr;
	uint64_t len;
	uint64_t base;		/* region offset of addr */
	int prot;
	struct tracker *tr;
};

static struct file files[MAX_FILES];
static struct mapping maps[MAX_MAPS];
static int nmaps;
static struct tplan_info dev_info;
static uint32_t group_ids[MAX_GROUPS] = { 1, 2, 3, 0xffffffffu };

static struct tracker *tracker_new(void)
{
	struct tracker *t = calloc(1, sizeof(*t));

	if (!t) {
		perror("calloc");
		_exit(3);
	}
	t->refs = 1;
	t->seed = (uint32_t)rnd64();
	return t;
}

static struct tracker *tracker_get(struct tracker *t)
{
	if (t)
		t->refs++;
	return t;
}

static void tracker_put(struct tracker *t)
{
	if (t && !--t->refs)
		free(t);
}

static uint8_t pat(const struct tracker *t, uint64_t off)
{
	uint64_t x = (off + 1) * 0x9e3779b97f4a7c15ULL ^ t->seed;

	return (uint8_t)((x >> 29) % 255 + 1);
}

static sigjmp_buf touch_env;
static volatile sig_atomic_t touching;

static void segv_handler(int sig)
{
	if (touching)
		siglongjmp(touch_env, sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * Check bytes [from, to) of a mapping: 0, or our pattern where we wrote.
 * Returns false (and reports) on the first wrong byte or a fault.
 */
static bool check_bytes(struct mapping *m, uint64_t from, uint64_t to,
			const char *why)
{
	const struct tracker *t = m->tr;
	volatile uint64_t i = from;
	int sig;

	if (t->lax || !(m->prot & PROT_READ))
		return true;
	touching = 1;
	sig = sigsetjmp(touch_env, 1);
	if (sig) {
		touching = 0;
		fail("%s: signal %d reading byte %" PRIu64 " of a mapping of %" PRIu64 " bytes",
		     why, sig, (uint64_t)i, m->len);
		return false;
	}
	while (i < to) {
		uint64_t k = i;

		if (!(k % 8) && k + 8 <= to && !*(uint64_t *)(m->addr + k)) {
			i = k + 8;
			continue;
		}
		uint8_t b = m->addr[k];

		if (b && !(m->base + k < t->written_to &&
			   b == pat(t, m->base + k))) {
			touching = 0;
			fail("%s: byte %" PRIu64 " of a region reads 0x%02x, expected 0%s (written below %" PRIu64 ")",
			     why, m->base + k, b,
			     m->base + k < t->written_to ? " or our pattern" : "",
			     t->written_to);
			return false;
		}
		i = k + 1;
	}
	touching = 0;
	__atomic_add_fetch(&sh->checked_bytes, to - from, __ATOMIC_RELAXED);
	return true;
}

static void write_bytes(struct mapping *m, uint64_t from, uint64_t to)
{
	struct tracker *t = m->tr;
	volatile uint64_t i;
	int sig;

	if (forked || !(m->prot & PROT_WRITE) || from >= to)
		return;
	touching = 1;
	sig = sigsetjmp(touch_env, 1);
	if (sig) {
		touching = 0;
		fail("signal %d writing a mapping of %" PRIu64 " bytes", sig, m->len);
		return;
	}
	for (i = from; i < to; i++)
		m->addr[i] = pat(t, m->base + i);
	touching = 0;
	if (m->base + to > t->written_to)
		t->written_to = m->base + to;
}

static struct file *file_of_fd_index(int *fd)
{
	int open_files[MAX_FILES], n = 0, i;
	struct file *f;

	for (i = 0; i < MAX_FILES; i++)
		if (files[i].open)
			open_files[n++] = i;
	if (!n)
		return NULL;
	f = &files[open_files[rnd(n)]];
	*fd = f->fds[rnd(f->nfds)];
	return f;
}

static int open_device(void)
{
	int fd;

	count_call();
	fd = open(device, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		fail("open %s: %s", device, strerror(errno));
	return fd;
}

static struct file *file_open(void)
{
	int i, fd;

	for (i = 0; i < MAX_FILES; i++) {
		if (files[i].open)
			continue;
		fd = open_device();
		if (fd < 0)
			return NULL;
		memset(&files[i], 0, sizeof(files[i]));
		files[i].open = true;
		files[i].fds[0] = fd;
		files[i].nfds = 1;
		for (int g = 0; g < MAX_GROUPS; g++)
			files[i].groups[g].id = group_ids[g];
		return &files[i];
	}
	return NULL;
}

static void group_end(struct sgroup *g)
{
	int i;

	tracker_put(g->scratch);
	g->scratch = NULL;
	g->scratch_size = 0;
	g->unsure = false;
	for (i = 0; i < g->nkeys; i++)
		tracker_put(g->keys[i].tr);
	g->nkeys = 0;
	g->nplans = 0;
}

/* The plan is gone from the file (released, or the file closed). */
static void plan_forget(struct file *f, int idx)
{
	struct plan *p = &f->plans[idx];
	int s;

	for (s = 0; s < SLOTS; s++)
		tracker_put(p->s[s].tr);
	if (p->g && !--p->g->nplans)
		group_end(p->g);
	f->gone[f->ngone++ % 8] = p->id;
	f->plans[idx] = f->plans[--f->nplans];
}

static void file_forget(struct file *f)
{
	while (f->nplans)
		plan_forget(f, 0);
	f->open = false;
}

static void map_forget(int idx)
{
	tracker_put(maps[idx].tr);
	maps[idx] = maps[--nmaps];
}

/* ------------------------------------------------------------------ */
/* tables */

static uint8_t *table;		/* TABLE_BYTES, then a PROT_NONE page */
static uint8_t *argbuf;		/* ARG_BYTES, then a PROT_NONE page */
static uint8_t *big_table;	/* max_tensors x 104, then a PROT_NONE page */
static size_t big_bytes;

static struct tplan_tensor_desc *desc(uint8_t *base, uint32_t stride, uint32_t i)
{
	return (struct tplan_tensor_desc *)(base + (size_t)i * stride);
}

static uint64_t key_size(uint64_t key)
{
	return (key * 2654435761u) % 5 * 2048 + (key % 3) * 8;
}

static uint64_t key_align(uint64_t key)
{
	return 1ULL << (key % 4 * 3);	/* 1, 8, 64, 512 */
}

enum kind { PLAIN, TIERED, GROUP };

struct gen {
	enum kind kind;
	bool aliases;
	bool serial;
	bool keys;
	bool garbage_out;	/* random bytes in the output fields */
	uint32_t max_n;
	uint64_t max_size;
};

/* A random valid table of 1..max_n tensors; returns the count. */
static uint32_t gen_valid(uint8_t *base, uint32_t stride, const struct gen *o)
{
	uint32_t n = 1 + (uint32_t)rnd(o->max_n), i;
	uint32_t pools = dev_info.pool_count;

	memset(base, 0, (size_t)n * stride);
	for (i = 0; i < n; i++) {
		struct tplan_tensor_desc *d = desc(base, stride, i);
		unsigned int r = (unsigned int)rnd(100);

		d->id = i * 5 + 3;
		d->lower = rnd(16);
		d->upper = d->lower + 1 + rnd(8);
		if (r < 8)
			d->size = 0;
		else if (r < 60)
			d->size = 1 + rnd(4096);
		else if (r < 90)
			d->size = 1 + rnd(o->max_size / 4);
		else
			d->size = 1 + rnd(o->max_size);
		d->alignment = 1ULL << rnd(chance(90) ? 8 : 13);
		d->priority = (uint32_t)rnd(10);
		if (o->serial)
			d->model = (uint32_t)rnd(3);
		else if (chance(20))
			d->model = (uint32_t)rnd(2);
		if (o->kind == TIERED && chance(30))
			d->tiers = (uint32_t)(1 + rnd((1u << pools) - 1));
		else if (o->kind == PLAIN && chance(10))
			d->tiers = chance(50) ? 1 : 1 | (uint32_t)(rnd(1u << pools) & ((1u << pools) - 1));
		if (o->keys && chance(25)) {
			d->share_key = 1 + rnd(8);
			d->size = key_size(d->share_key);
			d->alignment = key_align(d->share_key);
			d->tiers = 0;
		}
		if (o->aliases && i && !d->share_key && chance(25)) {
			uint32_t j = (uint32_t)rnd(i);
			struct tplan_tensor_desc *own = desc(base, stride, j);

			if (!own->share_key && !(own->flags & TPLAN_TENSOR_HAS_ALIAS) &&
			    own->model == d->model) {
				d->flags = TPLAN_TENSOR_HAS_ALIAS;
				d->alias_of = own->id;
				d->size = rnd(own->size + 1);
				d->alignment = 1;
				d->alias_offset = rnd(own->size - d->size + 1);
				d->tiers = own->tiers;
			}
		}
		if (o->garbage_out) {
			d->offset = rnd64();
			d->pool = (uint32_t)rnd64();
			d->mmap_offset = rnd64();
		}
	}
	return n;
}

static uint32_t pick_strategy(__u64 *budget, uint32_t n)
{
	uint32_t s = (uint32_t)rnd(5);

	if (s <= TPLAN_STRATEGY_ID_GREEDY_SIZE)
		*budget = chance(80) ? 0 : 100000 + rnd(1000000);
	else if (n <= 6 && chance(10))
		*budget = 0;
	else
		*budget = 1000 + rnd(60000);
	return s;
}

/* ------------------------------------------------------------------ */
/* calls */

static int do_ioctl(int fd, unsigned long cmd, void *arg)
{
	int r;

	count_call();
	r = ioctl(fd, cmd, arg);
	if (!r)
		return 0;
	if (r != -1) {
		fail("ioctl %#lx returned %d", cmd, r);
		return EBADF;
	}
	return errno;
}

static unsigned long ioc(unsigned int dir, unsigned int nr, size_t size)
{
	return _IOC(dir, TPLAN_IOC_MAGIC, nr, size);
}

static int get_info(int fd, struct tplan_info *info)
{
	return do_ioctl(fd, TPLAN_IOC_GET_INFO, info);
}

static void check_info(const struct tplan_info *in)
{
	uint32_t k;

	if (in->abi_version != TPLAN_ABI_VERSION || !in->pool_count ||
	    in->pool_count > TPLAN_MAX_POOLS || in->region_align != PAGE ||
	    in->plans_held > in->max_plans) {
		fail("GET_INFO: implausible info: abi %u pools %u align %llu held %u of %u",
		     in->abi_version, in->pool_count,
		     (unsigned long long)in->region_align, in->plans_held,
		     in->max_plans);
		return;
	}
	for (k = 0; k < in->pool_count; k++) {
		const struct tplan_pool_info *p = &in->pools[k];

		if (p->used + p->free != p->size || p->largest_free > p->free ||
		    (p->free && !p->free_regions))
			fail("GET_INFO: pool %u: size %llu used %llu free %llu largest %llu regions %u",
			     k, (unsigned long long)p->size,
			     (unsigned long long)p->used,
			     (unsigned long long)p->free,
			     (unsigned long long)p->largest_free, p->free_regions);
	}
}

/* GET_INFO, sometimes with another struct size, direction or pointer. */
static void op_get_info(void)
{
	struct file *f;
	int fd, r, expect = 0;
	size_t size = TPLAN_INFO_SIZE_VER1;
	unsigned int dir = _IOC_READ;
	uint8_t *arg = argbuf;
	unsigned int how = (unsigned int)rnd(10);

	f = file_of_fd_index(&fd);
	if (!f)
		return;
	memset(argbuf, 0xa5, ARG_BYTES);
	switch (how) {
	case 0:	/* larger: the tail comes back zeroed */
		size = TPLAN_INFO_SIZE_VER1 + 1 + rnd(16383 - TPLAN_INFO_SIZE_VER1);
		break;
	case 1:
		size = rnd(TPLAN_INFO_SIZE_VER1);
		expect = ENOTTY;
		break;
	case 2:
		dir = chance(50) ? _IOC_WRITE : _IOC_READ | _IOC_WRITE;
		expect = ENOTTY;
		break;
	case 3:
		arg = chance(50) ? NULL : (uint8_t *)0xffff800000000000ULL;
		expect = EFAULT;
		break;
	case 4:	/* straddles the guard page */
		arg = argbuf + ARG_BYTES - 1 - rnd(TPLAN_INFO_SIZE_VER1 - 1);
		expect = EFAULT;
		break;
	case 5:	/* read-only */
		mprotect(argbuf, ARG_BYTES, PROT_READ);
		expect = EFAULT;
		break;
	}
	r = do_ioctl(fd, ioc(dir, 0, size), arg);
	if (how == 5)
		mprotect(argbuf, ARG_BYTES, PROT_READ | PROT_WRITE);
	if (!check_errno("GET_INFO", r, expect) || r)
		return;
	check_info((struct tplan_info *)arg);
	for (size_t i = TPLAN_INFO_SIZE_VER1; i < size; i++) {
		if (arg[i]) {
			fail("GET_INFO of %zu bytes: byte %zu of the tail not cleared",
			     size, i);
			break;
		}
	}
}

static uint32_t slot_of(uint64_t plan_id, uint64_t mmap_off)
{
	uint64_t pg = mmap_off / PAGE;

	if (mmap_off % PAGE || pg < plan_id * SLOTS || pg >= (plan_id + 1) * SLOTS)
		return NO_FAULT;
	return (uint32_t)(pg - plan_id * SLOTS);
}

static uint64_t page_up(uint64_t x)
{
	return (x + PAGE - 1) / PAGE * PAGE;
}

/* The write-back of a successful submit; false if inconsistent. */
static bool check_write_back(const struct tplan_submit *req, const uint8_t *base,
			     uint32_t stride, bool dry, bool grouped)
{
	uint32_t i, k;

	if (dry && req->plan_id) {
		fail("dry run returned plan id %llu", (unsigned long long)req->plan_id);
		return false;
	}
	if (!dry && !req->plan_id) {
		fail("submit returned plan id 0");
		return false;
	}
	for (k = 0; k < TPLAN_MAX_POOLS; k++) {
		const struct tplan_plan_region *r = &req->regions[k];

		if (!r->region_size)
			continue;
		if (dry || k >= dev_info.pool_count || r->region_size % PAGE ||
		    r->region_size < r->peak ||
		    r->mmap_offset != (req->plan_id * SLOTS + k) * PAGE) {
			fail("submit: region %u: size %llu peak %llu mmap %#llx (plan %llu%s)",
			     k, (unsigned long long)r->region_size,
			     (unsigned long long)r->peak,
			     (unsigned long long)r->mmap_offset,
			     (unsigned long long)req->plan_id, dry ? ", dry" : "");
			return false;
		}
	}
	for (i = 0; i < req->count; i++) {
		const struct tplan_tensor_desc *d = desc((uint8_t *)base, stride, i);
		uint32_t s;

		if (!d->size)
			continue;
		if (dry) {
			if (d->mmap_offset || d->pool >= dev_info.pool_count) {
				fail("dry run: tensor %u: pool %u mmap %#llx", i,
				     d->pool, (unsigned long long)d->mmap_offset);
				return false;
			}
			continue;
		}
		s = slot_of(req->plan_id, d->mmap_offset);
		if (s == NO_FAULT || (d->alignment && d->offset % d->alignment) ||
		    (s < KEEP_SLOT && (d->pool != s ||
				       d->offset + d->size > req->regions[s].region_size)) ||
		    (s >= KEEP_SLOT && (!grouped || !d->share_key ||
					d->pool >= dev_info.pool_count))) {
			fail("submit: tensor %u (size %llu align %llu key %llu): offset %llu pool %u mmap %#llx, plan %llu",
			     i, (unsigned long long)d->size,
			     (unsigned long long)d->alignment,
			     (unsigned long long)d->share_key,
			     (unsigned long long)d->offset, d->pool,
			     (unsigned long long)d->mmap_offset,
			     (unsigned long long)req->plan_id);
			return false;
		}
	}
	return true;
}

static struct gkey *find_gkey(struct sgroup *g, uint64_t key)
{
	int i;

	for (i = 0; i < g->nkeys; i++)
		if (g->keys[i].key == key)
			return &g->keys[i];
	return NULL;
}

/* A kept tensor (a share_key with bytes) in the plan's mmap slot @slot. */
static bool kept_in_slot(const struct tplan_tensor_desc *d, uint64_t plan_id,
			 uint32_t slot)
{
	return d->share_key && d->size &&
	       slot_of(plan_id, d->mmap_offset) == slot;
}

/* What we know of a kept slot's bytes, from the keys it holds. */
static struct tracker *kept_tracker(struct sgroup *g, const uint8_t *base,
				    uint32_t stride, uint32_t n, uint64_t plan_id,
				    uint32_t slot)
{
	struct tracker *tr = NULL;
	bool fresh = true, same = true;
	uint32_t i;

	for (i = 0; i < n; i++) {
		const struct tplan_tensor_desc *d = desc((uint8_t *)base, stride, i);
		struct gkey *k;

		if (!kept_in_slot(d, plan_id, slot))
			continue;
		k = find_gkey(g, d->share_key);
		if (!k)
			continue;
		fresh = false;
		if (tr && tr != k->tr)
			same = false;
		tr = k->tr;
	}
	if (!fresh && same) {
		/* a key we never saw may sit with old ones: not knowable */
		for (i = 0; i < n; i++) {
			const struct tplan_tensor_desc *d = desc((uint8_t *)base, stride, i);

			if (kept_in_slot(d, plan_id, slot) &&
			    !find_gkey(g, d->share_key))
				same = false;
		}
	}
	if (!fresh && same)
		return tracker_get(tr);
	tr = tracker_new();
	tr->lax = !fresh;
	for (i = 0; i < n; i++) {
		const struct tplan_tensor_desc *d = desc((uint8_t *)base, stride, i);
		struct gkey *k;

		if (!kept_in_slot(d, plan_id, slot))
			continue;
		k = find_gkey(g, d->share_key);
		if (k) {
			tracker_put(k->tr);
		} else if (g->nkeys < MAX_KEYS) {
			k = &g->keys[g->nkeys++];
			k->key = d->share_key;
		} else {
			continue;
		}
		k->tr = tracker_get(tr);
	}
	return tr;
}

/* A successful (not dry) submit: the file now holds the plan. */
static struct plan *record_plan(struct file *f, struct sgroup *g,
				const struct tplan_submit *req,
				const uint8_t *base, uint32_t stride)
{
	struct plan *p;
	uint32_t i, k;

	if (f->nplans == MAX_HELD) {
		fail("model: more than %d plans held", MAX_HELD);
		return NULL;
	}
	p = &f->plans[f->nplans++];
	memset(p, 0, sizeof(*p));
	p->id = req->plan_id;
	p->g = g;
	p->child_made = forked;
	if (g)
		g->nplans++;
	for (k = 0; k < TPLAN_MAX_POOLS; k++) {
		const struct tplan_plan_region *r = &req->regions[k];

		if (!r->region_size)
			continue;
		p->s[k].off = r->mmap_offset;
		p->s[k].len = r->region_size;
		if (g) {
			if (!g->scratch)
				g->scratch = tracker_new();
			p->s[k].tr = tracker_get(g->scratch);
			if (r->region_size > g->scratch_size)
				g->scratch_size = r->region_size;
		} else {
			p->s[k].tr = tracker_new();
		}
	}
	if (!g)
		return p;
	for (i = 0; i < req->count; i++) {
		const struct tplan_tensor_desc *d = desc((uint8_t *)base, stride, i);
		uint32_t s = slot_of(p->id, d->mmap_offset);

		if (!d->share_key || !d->size || s == NO_FAULT || s < KEEP_SLOT)
			continue;
		p->s[s].off = d->mmap_offset;
		if (page_up(d->offset + d->size) > p->s[s].len)
			p->s[s].len = page_up(d->offset + d->size);
	}
	for (k = KEEP_SLOT; k < SLOTS; k++)
		if (p->s[k].len)
			p->s[k].tr = kept_tracker(g, base, stride, req->count, p->id, k);
	return p;
}

static struct sgroup *group_by_id(struct file *f, uint32_t id)
{
	int i;

	for (i = 0; i < MAX_GROUPS; i++)
		if (f->groups[i].id == id)
			return &f->groups[i];
	return NULL;
}

static int find_plan(struct file *f, uint64_t id)
{
	int i;

	for (i = 0; i < f->nplans; i++)
		if (f->plans[i].id == id)
			return i;
	return -1;
}

/* Map one slot of a plan and check it; returns the mapping index or -1. */
static int map_slot(int fd, const struct slot *s, uint64_t len, int prot)
{
	struct mapping *m;
	void *addr;

	if (nmaps == MAX_MAPS)
		return -1;
	count_call();
	addr = mmap(NULL, len, prot, MAP_SHARED, fd, (off_t)s->off);
	if (addr == MAP_FAILED) {
		check_errno("mmap of a held plan's region", errno, 0);
		return -1;
	}
	__atomic_add_fetch(&sh->results[RES_MM][0], 1, __ATOMIC_RELAXED);
	m = &maps[nmaps++];
	m->addr = addr;
	m->len = len;
	m->base = 0;
	m->prot = prot;
	m->tr = tracker_get(s->tr);
	check_bytes(m, 0, len, "fresh mapping");
	return nmaps - 1;
}

static int release_plan(struct file *f, int idx)
{
	struct tplan_release rel = { .plan_id = f->plans[idx].id };
	int fd = f->fds[rnd(f->nfds)];
	int r = do_ioctl(fd, TPLAN_IOC_RELEASE, &rel);

	check_errno("RELEASE of a held plan", r, 0);
	plan_forget(f, idx);
	return r;
}

/*
 * Submit @n descriptors from @base.  @g: the group joined, if the submit
 * may succeed into one.  Returns the result; records a held plan.
 */
static int submit_table(struct file *f, int fd, struct tplan_submit *req,
			uint8_t *base, uint32_t stride, int expect,
			const char *what, struct plan **held)
{
	bool dry = req->flags & TPLAN_SUBMIT_DRY_RUN;
	struct sgroup *g = NULL;
	int r;

	if (held)
		*held = NULL;
	if (req->group && !dry)
		g = group_by_id(f, req->group);
	r = do_ioctl(fd, TPLAN_IOC_SUBMIT, req);
	check_errno(what, r, expect);
	if (!r && req->group && !dry && !g) {
		fail("%s: succeeded with flags %#x in group %u", what, req->flags,
		     req->group);
		return EINVAL;
	}
	if (r == EFAULT && g)
		g->unsure = true;
	if (r == ENOSPC)
		__atomic_add_fetch(&sh->enospc, 1, __ATOMIC_RELAXED);
	if (r)
		return r;
	__atomic_add_fetch(&sh->ok_submits, 1, __ATOMIC_RELAXED);
	if (!base) {	/* no table to read back: give the plan up */
		if (!dry) {
			struct tplan_release rel = { .plan_id = req->plan_id };

			do_ioctl(fd, TPLAN_IOC_RELEASE, &rel);
		}
		return r;
	}
	if (!check_write_back(req, base, stride, dry, g != NULL)) {
		if (!dry) {	/* keep the model right anyway */
			struct plan *p = record_plan(f, g, req, base, stride);

			if (p)
				release_plan(f, (int)(p - f->plans));
		}
		return r;
	}
	if (dry)
		return r;
	struct plan *p = record_plan(f, g, req, base, stride);

	if (held)
		*held = p;
	return r;
}

static void init_submit(struct tplan_submit *req, uint8_t *base, uint32_t n,
			uint32_t stride)
{
	memset(req, 0, sizeof(*req));
	req->strategy = TPLAN_STRATEGY_ID_GREEDY_SIZE;
	req->tensors = (uint64_t)(uintptr_t)base;
	req->count = n;
	req->stride = stride;
}

static uint32_t random_stride(void)
{
	if (chance(70))
		return TPLAN_TENSOR_DESC_SIZE_VER1;
	if (chance(70))
		return TPLAN_TENSOR_DESC_SIZE_VER1 + 8 * (uint32_t)rnd(16);
	return TPLAN_TENSOR_DESC_SIZE_VER1 +
	       8 * (uint32_t)rnd((TPLAN_TENSOR_DESC_MAX_STRIDE - TPLAN_TENSOR_DESC_SIZE_VER1) / 8 + 1);
}

/* A valid table, random options. */
static void op_submit_valid(void)
{
	struct tplan_submit req;
	struct gen o = { .max_n = chance(90) ? 12 : MAX_VALID_N,
			 .max_size = chance(90) ? 64 * 1024 : 1024 * 1024 };
	uint32_t stride = random_stride(), n;
	struct plan *p;
	struct file *f;
	int fd, r;

	f = file_of_fd_index(&fd);
	if (!f)
		return;
	o.kind = (enum kind)rnd(3);
	if (forked && o.kind == GROUP)
		o.kind = PLAIN;
	o.aliases = chance(20);
	o.serial = chance(25);
	o.keys = chance(30);
	o.garbage_out = chance(20);
	if (TABLE_BYTES / stride < o.max_n)
		o.max_n = (uint32_t)(TABLE_BYTES / stride);
	n = gen_valid(table, stride, &o);
	init_submit(&req, table, n, stride);
	req.strategy = pick_strategy(&req.budget, n);
	if (o.aliases)
		req.flags |= TPLAN_SUBMIT_ALIASES;
	if (o.serial)
		req.flags |= TPLAN_SUBMIT_SERIAL;
	if (o.kind == TIERED)
		req.flags |= TPLAN_SUBMIT_TIERED;
	if (chance(15))
		req.flags |= TPLAN_SUBMIT_DRY_RUN;
	if (o.kind == GROUP)
		req.group = group_ids[rnd(MAX_GROUPS)];
	if (chance(10))
		req.time_limit_ns = chance(50) ? 1 + rnd(1000000) : UINT64_MAX - rnd(1000);
	if (chance(15))
		req.small_below = rnd(8192);
	r = submit_table(f, fd, &req, table, stride, ANY, "SUBMIT (valid table)", &p);
	if (!r && p && chance(40)) {
		int s = (int)rnd(SLOTS);

		if (p->s[s].len)
			map_slot(fd, &p->s[s], p->s[s].len, PROT_READ | PROT_WRITE);
	}
}

/* The base of a mutated table: three tensors, plain and valid. */
static uint32_t base_table(uint8_t *base, uint32_t stride)
{
	static const struct tplan_tensor_desc good[3] = {
		{ .id = 1, .lower = 0, .upper = 2, .size = 4096, .alignment = 1 },
		{ .id = 2, .lower = 1, .upper = 3, .size = 1000, .alignment = 64 },
		{ .id = 3, .lower = 2, .upper = 4, .size = 4096, .alignment = 1 },
	};
	uint32_t i;

	memset(base, 0, 3 * (size_t)stride);
	for (i = 0; i < 3; i++)
		memcpy(desc(base, stride, i), &good[i], sizeof(good[i]));
	return 3;
}

static uint8_t *big_table_get(void)
{
	if (!big_table) {
		big_bytes = page_up((size_t)dev_info.max_tensors * TPLAN_TENSOR_DESC_SIZE_VER1);
		big_table = mmap(NULL, big_bytes + PAGE, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (big_table == MAP_FAILED) {
			big_table = NULL;
			return NULL;
		}
		mprotect(big_table + big_bytes, PAGE, PROT_NONE);
	}
	return big_table;
}

static void disarm_timer(void)
{
	struct itimerval it = { { 0, 0 }, { 0, 0 } };

	setitimer(ITIMER_REAL, &it, NULL);
}

/* max_tensors descriptors: cheap but whole, or broken at the end. */
static void op_submit_big(void)
{
	struct tplan_submit req;
	uint32_t n = dev_info.max_tensors, i, stride = TPLAN_TENSOR_DESC_SIZE_VER1;
	uint8_t *base = big_table_get();
	unsigned int how = (unsigned int)rnd(3);
	struct file *f;
	int fd, expect = ANY;

	f = file_of_fd_index(&fd);
	if (!f || !base)
		return;
	disarm_timer();	/* a long call restarted on every tick never ends */
	memset(base, 0, (size_t)n * stride);
	for (i = 0; i < n; i++) {
		struct tplan_tensor_desc *d = desc(base, stride, i);

		d->id = i;
		d->lower = i % 7;
		d->upper = d->lower + 1;
		d->alignment = 1;
	}
	init_submit(&req, base, n, stride);
	req.strategy = TPLAN_STRATEGY_ID_NAIVE;
	req.flags = TPLAN_SUBMIT_DRY_RUN;
	if (how == 1) {
		desc(base, stride, n - 1)->upper = 0;
		expect = EINVAL;
	} else if (how == 2) {
		req.tensors = (uint64_t)(uintptr_t)(base + big_bytes -
						    (size_t)(n - 1) * stride);
		expect = EFAULT;
	}
	submit_table(f, fd, &req, base, stride, expect, "SUBMIT (max_tensors table)", NULL);
}

/* A submit with one thing wrong (or one odd but legal thing). */
static void op_submit_bad(void)
{
	struct tplan_submit req;
	uint32_t stride = chance(80) ? TPLAN_TENSOR_DESC_SIZE_VER1 : random_stride();
	uint32_t n = base_table(table, stride);
	struct tplan_tensor_desc *t0 = desc(table, stride, 0);
	struct tplan_tensor_desc *t1 = desc(table, stride, 1);
	struct tplan_tensor_desc *t2 = desc(table, stride, 2);
	uint8_t *tensors = table;
	unsigned int how = (unsigned int)rnd(40);
	int expect = EINVAL, fd;
	char what[64];
	struct file *f;

	f = file_of_fd_index(&fd);
	if (!f)
		return;
	init_submit(&req, table, n, stride);
	switch (how) {
	case 0: req.flags = 1u << (4 + rnd(28)); break;
	case 1: req.reserved[rnd(sizeof(req.reserved) / sizeof(req.reserved[0]))] =
		1 + rnd64() % UINT64_MAX; break;
	case 2: req.flags = TPLAN_SUBMIT_TIERED; req.group = 1 + (uint32_t)rnd(5); break;
	case 3: req.strategy = 5 + (uint32_t)rnd(100); break;
	case 4: req.count = 0; break;
	case 5:
		req.count = dev_info.max_tensors + 1 + (uint32_t)(chance(50) ? 0 : rnd(UINT32_MAX - dev_info.max_tensors - 1));
		expect = E2BIG;
		break;
	case 6: req.stride = (uint32_t)rnd(TPLAN_TENSOR_DESC_SIZE_VER1); break;
	case 7: req.stride = TPLAN_TENSOR_DESC_SIZE_VER1 + 1 + (uint32_t)rnd(7) + 8 * (uint32_t)rnd(10); break;
	case 8: req.stride = TPLAN_TENSOR_DESC_MAX_STRIDE + 1 + (uint32_t)rnd(1u << 20); break;
	case 9:
		expect = EFAULT;
		tensors = NULL;
		switch (rnd(4)) {
		case 0: req.tensors = 0; break;
		case 1: req.tensors = 0xffff800000000000ULL + rnd(1ULL << 40); break;
		case 2: req.tensors = (uint64_t)(uintptr_t)(argbuf + ARG_BYTES); break;
		default: req.tensors = 4096 * (1 + rnd(15)); break;
		}
		break;
	case 10: /* the table runs into the guard page */
		tensors = table + TABLE_BYTES - (size_t)stride * (n - 1) - 8 * rnd(stride / 8);
		memmove(tensors, table, (size_t)stride * (n - 1));
		memset(tensors + (size_t)stride * (n - 1), 0,
		       (size_t)(table + TABLE_BYTES - tensors) - (size_t)stride * (n - 1));
		req.tensors = (uint64_t)(uintptr_t)tensors;
		expect = EFAULT;
		break;
	case 11:	/* a byte beyond every field this kernel knows */
		if (stride <= TPLAN_TENSOR_DESC_SIZE_VER2)
			req.stride = stride = TPLAN_TENSOR_DESC_SIZE_VER2 + 8;
		table[(size_t)stride * rnd(n) + TPLAN_TENSOR_DESC_SIZE_VER2 +
		      rnd(stride - TPLAN_TENSOR_DESC_SIZE_VER2)] = 1 + (uint8_t)rnd(255);
		expect = E2BIG;
		break;
	case 12: t1->flags = 1u << (3 + rnd(29)); break;	/* bits 0-2 are known */
	case 13: t1->pad = 1 + (uint32_t)rnd(UINT32_MAX); break;
	case 14: t2->upper = t2->lower - rnd(2); break;
	case 15: t2->lower = UINT64_MAX - rnd(3); t2->upper = t2->lower - rnd(2); break;
	case 16: t0->alignment = chance(30) ? 0 : 3 + 2 * rnd(1000); break;
	case 17: t2->id = t0->id; break;
	case 18: t2->id = t0->id; t2->model = 1; expect = ANY; break;
	case 19: t1->tiers = 1u << (TPLAN_MAX_POOLS + rnd(28)); break;
	case 20:
		req.flags = TPLAN_SUBMIT_TIERED;
		t1->tiers = 1u << (dev_info.pool_count + rnd(TPLAN_MAX_POOLS - dev_info.pool_count + 1));
		break;
	case 21: t1->tiers = 2; break;
	case 22: t0->share_key = t1->share_key = 1 + rnd(8); break;
	case 23:
		req.flags = TPLAN_SUBMIT_ALIASES;
		t1->flags = TPLAN_TENSOR_HAS_ALIAS;
		t1->alias_of = 99 + rnd(1000);
		break;
	case 24:
		req.flags = TPLAN_SUBMIT_ALIASES;
		t1->flags = TPLAN_TENSOR_HAS_ALIAS;
		t1->alias_of = t0->id;
		t1->alias_offset = t0->size - t1->size + 1 + rnd(1ULL << 40);
		break;
	case 25: /* a cycle */
		req.flags = TPLAN_SUBMIT_ALIASES;
		t1->flags = t2->flags = TPLAN_TENSOR_HAS_ALIAS;
		t1->alias_of = t2->id;
		t2->alias_of = t1->id;
		t1->size = t2->size = 1000;
		break;
	case 26:
		req.flags = TPLAN_SUBMIT_ALIASES;
		t0->share_key = 5;
		t2->flags = TPLAN_TENSOR_HAS_ALIAS;
		t2->alias_of = t0->id;
		break;
	case 27: /* an alias without TPLAN_SUBMIT_ALIASES is only a tensor */
		t1->flags = TPLAN_TENSOR_HAS_ALIAS;
		t1->alias_of = 12345;
		expect = ANY;
		break;
	case 28:
		t0->size = t1->size = 1ULL << 63;
		expect = EOVERFLOW;
		break;
	case 29: /* the largest sum that does not overflow: too big to fit */
		t0->size = UINT64_MAX - PAGE * rnd(3) - rnd(PAGE);
		t0->alignment = t1->alignment = 1;
		t1->size = t2->size = 0;
		expect = ENOSPC;
		if (chance(50)) {
			t1->size = 1 + rnd(2 * PAGE);
			expect = ANY;
		}
		break;
	case 30:
		t0->size = UINT64_MAX - rnd(1ULL << 12);
		t0->alignment = 1ULL << (13 + rnd(50));
		expect = EOVERFLOW;
		break;
	case 31:
		t0->size = t1->size = t2->size = 0;
		expect = ANY;
		break;
	case 32:
		req.budget = 1;
		req.strategy = TPLAN_STRATEGY_ID_GREEDY_SIZE;
		expect = ETIMEDOUT;
		break;
	case 33:
		req.budget = 1 + rnd(100);
		req.strategy = 2 + (uint32_t)rnd(3);
		req.time_limit_ns = rnd(2) ? 1 : UINT64_MAX;
		expect = ANY;
		break;
	case 34:
		t0->alignment = 1ULL << (12 + rnd(52));
		expect = ANY;
		break;
	case 35: /* a key's sizes differ against a live group */
		req.group = group_ids[rnd(3)];
		t0->share_key = 1 + rnd(8);
		t0->size = key_size(t0->share_key) + 1 + rnd(100);
		t0->alignment = key_align(t0->share_key);
		expect = ANY;
		break;
	case 36:
		req.flags = TPLAN_SUBMIT_TIERED | TPLAN_SUBMIT_ALIASES;
		t0->tiers = 1;
		t2->tiers = 2;
		t2->flags = TPLAN_TENSOR_HAS_ALIAS;
		t2->alias_of = t0->id;
		if (dev_info.pool_count < 2)
			expect = ANY;
		break;
	case 37:
		req.flags = TPLAN_SUBMIT_TIERED;
		t0->share_key = t2->share_key = 5;
		t0->tiers = 1;
		t2->tiers = 2;
		if (dev_info.pool_count < 2)
			expect = ANY;
		break;
	case 38:
		req.small_below = rnd64();
		expect = ANY;
		break;
	default:
		req.flags = (uint32_t)rnd(16);
		if ((req.flags & TPLAN_SUBMIT_TIERED) == 0 && chance(50))
			req.group = group_ids[rnd(MAX_GROUPS)];
		expect = ANY;
		break;
	}
	if (forked && req.group)
		return;
	snprintf(what, sizeof(what), "SUBMIT (mutation %u)", how);
	submit_table(f, fd, &req, tensors, stride, expect, what, NULL);
}

/* SUBMIT's own struct: sizes, tails, direction, pointer, read-only. */
static void op_submit_struct(void)
{
	struct tplan_submit req;
	uint32_t stride = TPLAN_TENSOR_DESC_SIZE_VER1, n;
	unsigned int how = (unsigned int)rnd(8), dir = _IOC_READ | _IOC_WRITE;
	size_t size = TPLAN_SUBMIT_SIZE_VER1;
	uint8_t *arg = argbuf;
	int expect = ANY, fd, r;
	struct file *f;
	struct gen o = { .kind = PLAIN, .max_n = 6, .max_size = 16384 };

	f = file_of_fd_index(&fd);
	if (!f)
		return;
	n = gen_valid(table, stride, &o);
	init_submit(&req, table, n, stride);
	if (chance(30) && !forked)
		req.group = group_ids[rnd(3)];
	memset(argbuf, 0, ARG_BYTES);
	switch (how) {
	case 0:	/* larger, zero tail: fine */
		size = TPLAN_SUBMIT_SIZE_VER1 + 1 + rnd(16383 - TPLAN_SUBMIT_SIZE_VER1);
		break;
	case 1:
		size = TPLAN_SUBMIT_SIZE_VER1 + 1 + rnd(16383 - TPLAN_SUBMIT_SIZE_VER1);
		argbuf[TPLAN_SUBMIT_SIZE_VER1 + rnd(size - TPLAN_SUBMIT_SIZE_VER1)] = 1 + (uint8_t)rnd(255);
		expect = E2BIG;
		break;
	case 2:
		size = rnd(TPLAN_SUBMIT_SIZE_VER1);
		expect = ENOTTY;
		break;
	case 3:
		dir = (unsigned int)rnd(3);	/* none, write, read */
		expect = ENOTTY;
		break;
	case 4:
		arg = chance(50) ? NULL : (uint8_t *)0xffff800000000000ULL;
		expect = EFAULT;
		break;
	case 5:	/* readable only in part */
		arg = argbuf + ARG_BYTES - 8 - 8 * rnd(TPLAN_SUBMIT_SIZE_VER1 / 8 - 1);
		expect = EFAULT;
		break;
	case 6:	/* read-only: the plan cannot be returned, so it is given back */
		expect = EFAULT;
		break;
	case 7:	/* the table is read-only: the offsets cannot be written back */
		expect = EFAULT;
		break;
	}
	if (how == 5) {
		size_t room = ARG_BYTES - (size_t)(arg - argbuf);

		memcpy(arg, &req, room);
	} else if (arg == argbuf) {
		memcpy(arg, &req, sizeof(req));
	}
	if (how == 6)
		mprotect(argbuf, ARG_BYTES, PROT_READ);
	if (how == 7)
		mprotect(table, TABLE_BYTES, PROT_READ);
	r = do_ioctl(fd, ioc(dir, 1, size), arg);
	if (how == 6)
		mprotect(argbuf, ARG_BYTES, PROT_READ | PROT_WRITE);
	if (how == 7)
		mprotect(table, TABLE_BYTES, PROT_READ | PROT_WRITE);
	/* resources may run out first, before anything is copied out */
	if ((how == 6 || how == 7) && (r == ENOSPC || r == EMFILE || r == E2BIG))
		expect = ANY;
	if ((how == 6 || how == 7) && req.group && r == EINVAL)
		expect = ANY;	/* a tensor's pools against the group's region */
	check_errno("SUBMIT (struct)", r, expect);
	if (r == EFAULT && req.group && group_by_id(f, req.group))
		group_by_id(f, req.group)->unsure = true;
	if (r || arg != argbuf)
		return;
	memcpy(&req, argbuf, sizeof(req));
	for (size_t i = TPLAN_SUBMIT_SIZE_VER1; i < size; i++) {
		if (argbuf[i]) {
			fail("SUBMIT of %zu bytes: byte %zu of the tail not cleared", size, i);
			break;
		}
	}
	if (!check_write_back(&req, table, stride, false, req.group != 0))
		return;
	if (!forked)
		record_plan(f, req.group ? group_by_id(f, req.group) : NULL, &req,
			    table, stride);
}

/* ------------------------------------------------------------------ */
/* SUBMIT with pins, hints and gaps (descriptor version 2) */

#define FIX_MAX_N	8
#define FIX_MAX_GAPS	(TPLAN_MAX_GAPS_PER_TENSOR * FIX_MAX_N)
#define GAP_BYTES	(16 * PAGE)	/* FIX_MAX_GAPS x a stride of 128 fits */

static uint8_t *gapbuf;		/* GAP_BYTES, then a PROT_NONE page */

/* A fixed table as generated: what the oracle needs to know of it. */
struct fixed {
	uint32_t n;
	uint32_t stride;
	uint32_t ngaps;		/* gaps in the array */
	uint32_t gap_stride;
	uint8_t *gaps;		/* where the array starts */
	uint64_t pin[FIX_MAX_N];	/* the offsets given, before the call */
	uint64_t next_pin;	/* the first byte above every pin */
};

static struct tplan_gap_desc *gap_at(const struct fixed *x, uint32_t k)
{
	return (struct tplan_gap_desc *)(x->gaps + (size_t)k * x->gap_stride);
}

static uint8_t *gapbuf_get(void)
{
	if (!gapbuf) {
		gapbuf = mmap(NULL, GAP_BYTES + PAGE, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (gapbuf == MAP_FAILED) {
			gapbuf = NULL;
			return NULL;
		}
		mprotect(gapbuf + GAP_BYTES, PAGE, PROT_NONE);
	}
	return gapbuf;
}

/*
 * Gaps for tensor @i: up to @most, in time order, not overlapping, inside
 * its lifetime; a window, sometimes, inside its size.
 */
static void gen_gaps(struct fixed *x, uint32_t i, uint32_t most)
{
	struct tplan_tensor_desc *d = desc(table, x->stride, i);
	uint64_t s = d->lower;
	uint32_t k = 0;

	d->gap_first = x->ngaps;
	while (k < most) {
		uint64_t lo = s + rnd(3), hi = lo + 1 + rnd(3);
		struct tplan_gap_desc *g;

		if (hi > d->upper)
			break;
		g = gap_at(x, x->ngaps++);
		g->lower = lo;
		g->upper = hi;
		if (chance(40)) {
			g->flags = TPLAN_GAP_HAS_WINDOW;
			g->from = rnd(d->size + 1);
			g->to = g->from + rnd(d->size - g->from + 1);
		}
		s = hi;
		k++;
	}
	d->gap_count = k;
}

/* Pin tensor @i above every pin so far: pins never share bytes. */
static void pin_above(struct fixed *x, uint32_t i)
{
	struct tplan_tensor_desc *d = desc(table, x->stride, i);
	uint64_t a = d->alignment;

	d->flags |= TPLAN_TENSOR_FIXED_OFFSET;
	d->offset = (x->next_pin + a - 1) / a * a;
	x->next_pin = d->offset + d->size + rnd(256);
}

/*
 * A valid table of one model with pins, hints and gaps: lifetimes long
 * enough for a few gaps, pins stacked apart, gaps named by their tensors
 * (sometimes by two tensors, sometimes past 16 for one tensor while the
 * table names at most 16 per tensor), sometimes gaps no tensor names.
 */
static void gen_fixed(struct fixed *x)
{
	uint32_t model = (uint32_t)rnd(3), i, named = 0;
	uint32_t limit = TPLAN_MAX_GAPS_PER_TENSOR * x->n;

	memset(table, 0, (size_t)x->n * x->stride);
	memset(x->gaps, 0, (size_t)FIX_MAX_GAPS * x->gap_stride);
	x->ngaps = 0;
	x->next_pin = rnd(4096);
	for (i = 0; i < x->n; i++) {
		struct tplan_tensor_desc *d = desc(table, x->stride, i);

		d->id = i * 7 + 1;
		d->model = model;
		d->lower = rnd(8);
		d->upper = d->lower + 1 + rnd(chance(10) ? 80 : 24);
		d->size = chance(8) ? 0 : 1 + rnd(chance(80) ? 8192 : 65536);
		d->alignment = 1ULL << rnd(9);
		d->priority = (uint32_t)rnd(10);
		if (chance(30))
			d->hint = chance(70) ? rnd(65536) : rnd64();
		if (chance(30))
			d->flags |= TPLAN_TENSOR_HAS_HINT;
	}
	for (i = 0; i < x->n; i++) {
		struct tplan_tensor_desc *d = desc(table, x->stride, i);
		uint32_t most = chance(10) ? 24 : 4, j;

		if (!chance(40))
			continue;
		if (i && chance(20)) {	/* name an earlier tensor's gaps */
			const struct tplan_tensor_desc *e;

			j = (uint32_t)rnd(i);
			e = desc(table, x->stride, j);
			if (!e->gap_count || named + e->gap_count > limit)
				continue;
			d->lower = e->lower;
			d->upper = e->upper;
			d->size = e->size;
			d->gap_first = e->gap_first;
			d->gap_count = e->gap_count;
			named += d->gap_count;
			continue;
		}
		most = most < limit - named ? most : limit - named;
		if (x->ngaps + most > limit)
			most = limit - x->ngaps;
		if (most > 4)
			d->upper = d->lower + 8 * most;
		gen_gaps(x, i, most);
		named += d->gap_count;
	}
	if (x->ngaps < limit && chance(10))	/* gaps nobody names */
		x->ngaps += (uint32_t)rnd(limit - x->ngaps + 1);
	for (i = 0; i < x->n; i++)
		if (chance(35))
			pin_above(x, i);
	if (chance(30)) {	/* one hint, above every pin: it must be taken */
		struct tplan_tensor_desc *d;

		for (i = 0; i < x->n; i++)
			desc(table, x->stride, i)->flags &= ~TPLAN_TENSOR_HAS_HINT;
		d = desc(table, x->stride, (uint32_t)rnd(x->n));
		d->flags |= TPLAN_TENSOR_HAS_HINT;
		d->hint = (x->next_pin + rnd(4096) + d->alignment - 1) /
			  d->alignment * d->alignment;
	}
}

/* The first pinned tensor with bytes, from @from on, or n. */
static uint32_t pinned_with_bytes(const struct fixed *x, uint32_t from)
{
	for (; from < x->n; from++) {
		const struct tplan_tensor_desc *d = desc(table, x->stride, from);

		if ((d->flags & TPLAN_TENSOR_FIXED_OFFSET) && d->size &&
		    !d->gap_count)
			return from;
	}
	return x->n;
}

/* The gaps the tensors name, all together. */
static uint32_t named_gaps(const struct fixed *x)
{
	uint32_t i, named = 0;

	for (i = 0; i < x->n; i++)
		named += desc(table, x->stride, i)->gap_count;
	return named;
}

/*
 * Pin tensor @j onto pinned tensor @i's bytes while both are alive: a
 * conflict, unless @gap gives @i a gap over the steps they share.  Returns
 * false if the table has no two such tensors.
 */
static bool pin_onto(struct fixed *x, bool gap)
{
	uint32_t i = pinned_with_bytes(x, 0), j;
	struct tplan_tensor_desc *a, *b;
	struct tplan_gap_desc *g;

	if (i == x->n)
		return false;
	j = (i + 1 + (uint32_t)rnd(x->n - 1)) % x->n;
	if (j == i)
		return false;
	a = desc(table, x->stride, i);
	b = desc(table, x->stride, j);
	if (b->gap_count) {	/* its gaps might hide the conflict */
		b->gap_count = 0;
		b->gap_first = 0;
	}
	b->flags |= TPLAN_TENSOR_FIXED_OFFSET;
	b->alignment = 1;
	b->offset = a->offset + rnd(a->size);
	b->size = 1 + rnd(a->offset + a->size - b->offset);
	b->lower = a->lower + rnd(a->upper - a->lower);
	b->upper = b->lower + 1 + rnd(4);
	if (!gap)
		return true;
	if (named_gaps(x) >= TPLAN_MAX_GAPS_PER_TENSOR * x->n ||
	    x->ngaps >= TPLAN_MAX_GAPS_PER_TENSOR * x->n)
		return false;
	g = gap_at(x, x->ngaps);
	memset(g, 0, x->gap_stride);
	g->lower = b->lower;
	g->upper = b->upper < a->upper ? b->upper : a->upper;
	a->gap_first = x->ngaps++;
	a->gap_count = 1;
	return true;
}

/* The first tensor with at least @k gaps, or n. */
static uint32_t with_gaps(const struct fixed *x, uint32_t k)
{
	uint32_t i;

	for (i = 0; i < x->n; i++)
		if (desc(table, x->stride, i)->gap_count >= k)
			return i;
	return x->n;
}

/* Make sure some tensor is pinned, hinted or has gaps. */
static void make_fixed(struct fixed *x)
{
	struct tplan_tensor_desc *d = desc(table, x->stride, 0);

	if (chance(50))
		d->flags |= TPLAN_TENSOR_HAS_HINT;
	else if (!(d->flags & TPLAN_TENSOR_FIXED_OFFSET))
		pin_above(x, 0);
}

/* Make sure some tensor is pinned. */
static void make_pinned(struct fixed *x)
{
	uint32_t i;

	for (i = 0; i < x->n; i++)
		if (desc(table, x->stride, i)->flags & TPLAN_TENSOR_FIXED_OFFSET)
			return;
	pin_above(x, (uint32_t)rnd(x->n));
}

/* A pinned or hinted tensor got the place the rules promise. */
static void check_fixed_places(const struct fixed *x, const struct tplan_submit *req,
			       uint32_t hinted)
{
	uint32_t i;

	for (i = 0; i < x->n; i++) {
		const struct tplan_tensor_desc *d = desc(table, x->stride, i);

		if (!(d->flags & TPLAN_TENSOR_FIXED_OFFSET))
			continue;
		__atomic_add_fetch(&sh->pins_checked, 1, __ATOMIC_RELAXED);
		if (d->offset != x->pin[i])
			fail("SUBMIT (fixed): tensor %u pinned at %llu came back at %llu",
			     i, (unsigned long long)x->pin[i],
			     (unsigned long long)d->offset);
	}
	if (hinted < x->n)
		__atomic_add_fetch(&sh->hints_checked, 1, __ATOMIC_RELAXED);
	if (hinted < x->n && desc(table, x->stride, hinted)->offset !=
	    desc(table, x->stride, hinted)->hint)
		fail("SUBMIT (fixed): tensor %u's free hint %llu not taken (offset %llu, size %llu, strategy %u, flags %#x, group %u)",
		     hinted,
		     (unsigned long long)desc(table, x->stride, hinted)->hint,
		     (unsigned long long)desc(table, x->stride, hinted)->offset,
		     (unsigned long long)desc(table, x->stride, hinted)->size,
		     req->strategy, req->flags, req->group);
}

/*
 * The one hinted tensor, if its hint must be taken: with bytes (one
 * without holds none and stays at 0), aligned, not pinned, and its bytes
 * free of every pin at every step; else n.
 */
static uint32_t free_hint(const struct fixed *x)
{
	uint32_t i, h = x->n, count = 0;
	const struct tplan_tensor_desc *d;

	for (i = 0; i < x->n; i++) {
		d = desc(table, x->stride, i);
		if (d->flags & TPLAN_TENSOR_HAS_HINT) {
			h = i;
			count++;
		}
	}
	if (count != 1)
		return x->n;
	d = desc(table, x->stride, h);
	if ((d->flags & TPLAN_TENSOR_FIXED_OFFSET) || !d->size || d->hint % d->alignment ||
	    d->hint > (1ULL << 40))
		return x->n;
	for (i = 0; i < x->n; i++) {
		const struct tplan_tensor_desc *p = desc(table, x->stride, i);

		if ((p->flags & TPLAN_TENSOR_FIXED_OFFSET) && p->size &&
		    p->offset < d->hint + d->size && d->hint < p->offset + p->size)
			return x->n;
	}
	return h;
}

/* A valid fixed table: what planning may run into. */
#define PLANNED		(-2)

/*
 * Break the generated table in one way; returns the errno expected, or
 * PLANNED when it stays valid, or 0 to skip the call.
 */
static int break_fixed(struct fixed *x, struct tplan_submit *req,
		       unsigned int how)
{
	struct tplan_tensor_desc *d = desc(table, x->stride, (uint32_t)rnd(x->n));
	uint32_t i, k;
	struct tplan_gap_desc *g;

	switch (how) {
	case 0:	/* two pins on one another's bytes while both are present */
		return pin_onto(x, false) ? EINVAL : 0;
	case 1:	/* the same, but one has a gap over the steps they share */
		if (!pin_onto(x, true))
			return 0;
		req->gaps = (uint64_t)(uintptr_t)x->gaps;
		req->gap_count = x->ngaps;
		req->gap_stride = x->gap_stride;
		return PLANNED;
	case 2:
		make_pinned(x);
		for (i = 0; !(desc(table, x->stride, i)->flags &
			      TPLAN_TENSOR_FIXED_OFFSET); i++)
			;
		d = desc(table, x->stride, i);
		d->alignment = 2ULL << rnd(8);
		d->offset |= 1;
		return EINVAL;
	case 3:	/* a pin whose end is past 2^64 */
		make_pinned(x);
		for (i = 0; !(desc(table, x->stride, i)->flags &
			      TPLAN_TENSOR_FIXED_OFFSET); i++)
			;
		d = desc(table, x->stride, i);
		d->alignment = 1;
		d->size = PAGE + 1 + rnd(PAGE);
		d->offset = UINT64_MAX - rnd(PAGE);
		return EINVAL;
	case 4:	/* a pin beyond every pool: no room */
		make_pinned(x);
		for (i = 0; !(desc(table, x->stride, i)->flags &
			      TPLAN_TENSOR_FIXED_OFFSET); i++)
			;
		d = desc(table, x->stride, i);
		d->alignment = 1;
		d->size = 1 + rnd(PAGE);
		d->gap_count = 0;	/* its windows may be past the new size */
		d->offset = chance(50) ? 64ULL << 20 : 1ULL << (32 + rnd(28));
		req->flags &= ~TPLAN_SUBMIT_DRY_RUN;
		return ENOSPC;
	case 5:
		make_pinned(x);
		if (dev_info.pool_count < 2 || req->group)
			return 0;
		req->flags |= TPLAN_SUBMIT_TIERED;
		return EINVAL;
	case 6:	/* search takes pins and gaps too, and leaves hints be */
		make_fixed(x);
		req->strategy = TPLAN_STRATEGY_ID_SEARCH;
		req->budget = 1000 + rnd(60000);
		return PLANNED;
	case 7:
		make_fixed(x);
		if (x->n < 2)
			return 0;
		desc(table, x->stride, 1 + (uint32_t)rnd(x->n - 1))->model ^= 1 + (uint32_t)rnd(7);
		return EINVAL;
	case 8:
		make_fixed(x);
		d->share_key = 1 + rnd(8);
		return EINVAL;
	case 9:	/* gaps past the end of the array */
		d->gap_count = 1 + (uint32_t)rnd(4);
		d->gap_first = x->ngaps + 1 - d->gap_count + (uint32_t)rnd(1000);
		if (chance(20))
			d->gap_first = UINT32_MAX - (uint32_t)rnd(3);
		return EINVAL;
	case 10: /* every gap named by every tensor: more than 16 per tensor */
		if (x->n < 2)
			return 0;
		x->ngaps = TPLAN_MAX_GAPS_PER_TENSOR + 1 +
			   (uint32_t)rnd(TPLAN_MAX_GAPS_PER_TENSOR * (x->n - 1));
		for (i = 0; i < x->n; i++) {
			d = desc(table, x->stride, i);
			d->gap_first = 0;
			d->gap_count = x->ngaps;
		}
		req->gaps = (uint64_t)(uintptr_t)x->gaps;
		req->gap_count = x->ngaps;
		req->gap_stride = x->gap_stride;
		return E2BIG;
	case 11: /* more gaps in the array than 16 per tensor */
		req->gap_count = TPLAN_MAX_GAPS_PER_TENSOR * x->n + 1 +
				 (uint32_t)(chance(50) ? rnd(100) : rnd(UINT32_MAX - FIX_MAX_GAPS));
		return E2BIG;
	case 12: /* two gaps overlapping, or out of order */
		i = with_gaps(x, 2);
		if (i == x->n)
			return 0;
		d = desc(table, x->stride, i);
		k = d->gap_first + (uint32_t)rnd(d->gap_count - 1);
		g = gap_at(x, k + 1);
		if (chance(50)) {
			g->lower = gap_at(x, k)->upper - 1 - rnd(gap_at(x, k)->upper -
						     gap_at(x, k)->lower);
		} else {	/* swapped */
			struct tplan_gap_desc tmp = *gap_at(x, k);

			*gap_at(x, k) = *g;
			*g = tmp;
		}
		return EINVAL;
	case 13: /* a gap outside the lifetime */
		i = with_gaps(x, 1);
		if (i == x->n)
			return 0;
		d = desc(table, x->stride, i);
		k = d->gap_first + d->gap_count - 1;
		if (chance(50) || !d->lower)
			gap_at(x, k)->upper = d->upper + 1 + rnd(3);
		else
			gap_at(x, d->gap_first)->lower = d->lower - 1 - rnd(d->lower);
		return EINVAL;
	case 14: /* an empty gap */
		i = with_gaps(x, 1);
		if (i == x->n)
			return 0;
		d = desc(table, x->stride, i);
		g = gap_at(x, d->gap_first + (uint32_t)rnd(d->gap_count));
		g->upper = g->lower - rnd(2);
		return EINVAL;
	case 15: /* a window reversed, beyond the size, or without its flag */
		i = with_gaps(x, 1);
		if (i == x->n)
			return 0;
		d = desc(table, x->stride, i);
		g = gap_at(x, d->gap_first + (uint32_t)rnd(d->gap_count));
		k = (uint32_t)rnd(3);
		g->flags = k < 2 ? TPLAN_GAP_HAS_WINDOW : 0;
		if (k == 0) {
			g->to = rnd(d->size + 1);
			g->from = g->to + 1 + rnd(100);
		} else {
			g->from = k == 1 ? rnd(d->size + 1) : rnd(d->size + 1) * chance(50);
			g->to = d->size + 1 + rnd(1000);
		}
		return EINVAL;
	case 16: /* unknown gap flags or padding, named or not */
		if (!x->ngaps)
			return 0;
		g = gap_at(x, (uint32_t)rnd(x->ngaps));
		if (chance(50))
			g->flags |= 1u << (1 + rnd(31));
		else
			g->pad = 1 + (uint32_t)rnd(UINT32_MAX);
		return EINVAL;
	case 17: /* a bad gap stride */
		if (!x->ngaps)
			return 0;
		k = (uint32_t)rnd(3);
		req->gap_stride = k == 0 ? (uint32_t)rnd(TPLAN_GAP_DESC_SIZE_VER1) :
				  k == 1 ? TPLAN_GAP_DESC_SIZE_VER1 + 1 + (uint32_t)rnd(7) +
					   8 * (uint32_t)rnd(8) :
				  TPLAN_TENSOR_DESC_MAX_STRIDE + 8 + 8 * (uint32_t)rnd(1000);
		return EINVAL;
	case 18: /* a byte past the gap descriptor this kernel knows */
		if (!x->ngaps || x->gap_stride == TPLAN_GAP_DESC_SIZE_VER1)
			return 0;
		g = gap_at(x, (uint32_t)rnd(x->ngaps));
		((uint8_t *)g)[TPLAN_GAP_DESC_SIZE_VER1 +
			       rnd(x->gap_stride - TPLAN_GAP_DESC_SIZE_VER1)] =
			1 + (uint8_t)rnd(255);
		return E2BIG;
	case 19: /* gaps that cannot be read */
		if (!x->ngaps)
			return 0;
		switch (rnd(3)) {
		case 0: req->gaps = 0; break;
		case 1: req->gaps = 0xffff800000000000ULL + rnd(1ULL << 40); break;
		default:	/* running into the guard page */
			req->gaps = (uint64_t)(uintptr_t)(gapbuf + GAP_BYTES -
				(size_t)(x->ngaps - 1) * x->gap_stride -
				8 * rnd(TPLAN_GAP_DESC_SIZE_VER1 / 8));
			memset(gapbuf + GAP_BYTES - (size_t)(x->ngaps - 1) * x->gap_stride,
			       0, (size_t)(x->ngaps - 1) * x->gap_stride);
			break;
		}
		return EFAULT;
	case 20: /* a gap pointer or stride without gaps */
		for (i = 0; i < x->n; i++)
			desc(table, x->stride, i)->gap_count = 0;
		req->gap_count = 0;
		if (chance(50))
			req->gaps = (uint64_t)(uintptr_t)x->gaps;
		else
			req->gap_stride = TPLAN_GAP_DESC_SIZE_VER1;
		return EINVAL;
	case 21: /* gap_first anywhere with gap_count 0: nothing named */
		d->gap_count = 0;
		d->gap_first = (uint32_t)rnd64();
		return PLANNED;
	case 22: /* a table with gaps that no tensor names */
		for (i = 0; i < x->n; i++) {
			d = desc(table, x->stride, i);
			d->gap_count = 0;
			d->flags = 0;
		}
		req->strategy = TPLAN_STRATEGY_ID_SEARCH;
		req->budget = 1000 + rnd(60000);
		return PLANNED;
	default:
		return PLANNED;
	}
}

/* Whether any tensor of the table is pinned. */
static bool any_pinned(const struct fixed *x)
{
	uint32_t i;

	for (i = 0; i < x->n; i++)
		if (desc(table, x->stride, i)->flags & TPLAN_TENSOR_FIXED_OFFSET)
			return true;
	return false;
}

/*
 * A table of one model with pins, hints and gaps, valid or broken in one
 * way (break_fixed()); a plan's pinned tensors must be where they were
 * pinned, and a free hint taken.
 */
static void op_submit_fixed(void)
{
	struct fixed x;
	struct tplan_submit req;
	unsigned int how = (unsigned int)rnd(30);
	uint32_t i, hinted;
	struct plan *p;
	struct file *f;
	char what[64];
	int fd, expect, r;

	f = file_of_fd_index(&fd);
	if (!f || !gapbuf_get())
		return;
	x.n = 1 + (uint32_t)rnd(FIX_MAX_N);
	x.stride = TPLAN_TENSOR_DESC_SIZE_VER2 + 8 * (uint32_t)(chance(80) ? 0 : rnd(8));
	if (chance(3))
		x.stride = TPLAN_TENSOR_DESC_MAX_STRIDE;
	x.gap_stride = TPLAN_GAP_DESC_SIZE_VER1 + 8 * (uint32_t)(chance(70) ? 0 : 1 + rnd(8));
	x.gaps = gapbuf;
	gen_fixed(&x);
	init_submit(&req, table, x.n, x.stride);
	req.strategy = (uint32_t)rnd(5);
	/* search and auto may spend their whole budget: keep it small */
	if (req.strategy >= TPLAN_STRATEGY_ID_SEARCH ||
	    (req.strategy == TPLAN_STRATEGY_ID_STRIP && chance(30)))
		req.budget = 1000 + rnd(60000);
	if (x.ngaps) {
		req.gaps = (uint64_t)(uintptr_t)x.gaps;
		req.gap_count = x.ngaps;
		req.gap_stride = x.gap_stride;
	}
	if (chance(15))
		req.flags |= TPLAN_SUBMIT_DRY_RUN;
	if (chance(20))
		req.flags |= TPLAN_SUBMIT_SERIAL;
	if (chance(10))
		req.small_below = rnd(8192);
	if (chance(15) && !forked)
		req.group = group_ids[rnd(MAX_GROUPS)];
	expect = break_fixed(&x, &req, how);
	if (!expect)
		return;
	if (!req.group && !any_pinned(&x) && chance(15))
		req.flags |= TPLAN_SUBMIT_TIERED;
	for (i = 0; i < x.n; i++)
		x.pin[i] = desc(table, x.stride, i)->offset;
	/* search (and auto through it) may leave a hint for a lower peak */
	hinted = req.flags & TPLAN_SUBMIT_TIERED ||
		 req.strategy >= TPLAN_STRATEGY_ID_SEARCH ? x.n : free_hint(&x);
	snprintf(what, sizeof(what), "SUBMIT (fixed %u)", how);
	/* planning may also run out of room, or find the file full */
	r = submit_table(f, fd, &req, table, x.stride,
			 expect == PLANNED || expect == ENOSPC ? ANY : expect,
			 what, &p);
	if ((expect == PLANNED || expect == ENOSPC) &&
	    r != (expect == PLANNED ? 0 : ENOSPC) && r != ENOSPC &&
	    r != EMFILE && r != EINTR && r != ENOMEM)
		fail("%s: expected %s, got %s", what,
		     expect == PLANNED ? "a plan" : "ENOSPC", ename(r));
	if (!r)
		check_fixed_places(&x, &req, hinted);
}

static void op_release(void)
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
static void release_child_made(void)
{
	int i, k;

	for (i = 0; i < MAX_FILES; i++)
		for (k = files[i].open ? files[i].nplans - 1 : -1; k >= 0; k--)
			if (files[i].plans[k].child_made)
				release_plan(&files[i], k);
}

static void op_release_bad(void)
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
	r = do_ioctl(fd, ioc(dir, 2, size), arg);
	check_errno("RELEASE (mutated)", r, expect);
	if (!r) {	/* it released one of ours after all */
		int idx = find_plan(f, rel.plan_id);

		if (idx >= 0)
			plan_forget(f, idx);
	}
}

/* Unknown ioctl numbers of our magic. */
static void op_bad_number(void)
{
	int fd, r;
	struct file *f = file_of_fd_index(&fd);
	/* the numbers after the last known one (SUBMIT_SPILL is 3) */
	unsigned int first = _IOC_NR(TPLAN_IOC_SUBMIT_SPILL) + 1;
	unsigned int nr = first + (unsigned int)rnd(256 - first);

	if (!f)
		return;
	memset(argbuf, 0, ARG_BYTES);
	r = do_ioctl(fd, ioc((unsigned int)rnd(4), nr, rnd(16384)), argbuf);
	check_errno("unknown ioctl", r, ENOTTY);
}

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

static void op_mmap(void)
{
	struct file *f;
	int fd, s, prot = PROT_READ | PROT_WRITE, flags = MAP_SHARED;
	int expect = 0;
	struct plan *p = random_plan(&f, &fd);
	uint64_t off, len;
	unsigned int how = (unsigned int)rnd(12);
	void *addr;

	if (!p) {
		if (!f || !f->ngone)
			return;
		off = (f->gone[rnd(f->ngone < 8 ? f->ngone : 8)] * SLOTS + rnd(SLOTS)) * PAGE;
		count_call();
		addr = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, (off_t)off);
		if (addr != MAP_FAILED) {
			/* ids are not reused (cyclic, 2^20 of them) */
			fail("mmap of released plan offset %#" PRIx64 " succeeded", off);
			munmap(addr, PAGE);
			return;
		}
		check_errno("mmap of a released plan", errno, ENXIO);
		return;
	}
	s = random_slot(p);
	if (s < 0)
		return;
	off = p->s[s].off;
	len = p->s[s].len;
	if (p->g && s < KEEP_SLOT && p->g->scratch_size > len)
		len = p->g->scratch_size;	/* it grew since */
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
	case 4: { /* a slot with no region */
		int k, empty = -1;

		for (k = 0; k < SLOTS; k++)
			if (!p->s[k].len && (empty < 0 || chance(30)))
				empty = k;
		if (empty < 0)
			return;
		off = (p->id * SLOTS + (uint64_t)empty) * PAGE;
		len = PAGE;
		expect = ENXIO;
		break;
	}
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

static void op_munmap(void)
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

static void op_mremap(void)
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

static void op_mprotect(void)
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

static void op_touch(void)
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

static void op_close(void)
{
	int fd, i;
	struct file *f = file_of_fd_index(&fd);

	if (!f)
		return;
	if (forked && f->nfds == 1) {	/* its plans would stay with the parent */
		for (i = f->nplans - 1; i >= 0; i--)
			if (f->plans[i].child_made)
				release_plan(f, i);
	}
	count_call();
	if (close(fd))
		fail("close: %s", strerror(errno));
	for (i = 0; i < f->nfds; i++)
		if (f->fds[i] == fd)
			f->fds[i] = f->fds[--f->nfds];
	if (!f->nfds)
		file_forget(f);
}

static void op_dup(void)
{
	int fd, nfd;
	struct file *f = file_of_fd_index(&fd);

	if (!f || f->nfds == MAX_FDS)
		return;
	count_call();
	nfd = fcntl(fd, F_DUPFD_CLOEXEC, 3 + rnd(100));
	if (nfd < 0) {
		fail("dup: %s", strerror(errno));
		return;
	}
	f->fds[f->nfds++] = nfd;
}

static void alarm_handler(int sig)
{
	(void)sig;
}

static void op_signal(void)
{
	struct sigaction sa;
	struct itimerval it = { { 0, 0 }, { 0, 0 } };

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = alarm_handler;
	sa.sa_flags = chance(50) ? SA_RESTART : 0;
	sigaction(SIGALRM, &sa, NULL);
	it.it_value.tv_usec = 200 + (long)rnd(20000);
	count_call();
	setitimer(ITIMER_REAL, &it, NULL);
}

static void op_stop_sibling(void)
{
	pid_t pid;

	if (procs < 2 || forked)
		return;
	pid = sh->pids[rnd(procs)];
	if (!pid || pid == getpid())
		return;
	count_call();
	if (kill(pid, SIGSTOP))
		return;	/* gone */
	usleep((useconds_t)rnd(3000));
	kill(pid, SIGCONT);
}

/* Fill the file to max_plans with empty plans: then EMFILE. */
static void op_emfile(void)
{
	struct tplan_info info;
	struct tplan_submit req;
	struct tplan_tensor_desc t = { .id = 1, .lower = 0, .upper = 1, .alignment = 1 };
	uint32_t i, room;
	int fd, r, first;
	struct file *f = file_of_fd_index(&fd);

	if (!f || forked || get_info(fd, &info))
		return;
	if (info.plans_held > info.max_plans || (int)(info.max_plans - info.plans_held) +
	    f->nplans > MAX_HELD + 1)
		return;
	room = info.max_plans - info.plans_held;
	first = f->nplans;
	for (i = 0; i <= room; i++) {
		init_submit(&req, (uint8_t *)&t, 1, sizeof(t));
		r = submit_table(f, fd, &req, (uint8_t *)&t, sizeof(t),
				 i < room ? ANY : EMFILE, "SUBMIT (filling max_plans)", NULL);
		if (i < room && r == EMFILE)
			fail("EMFILE after %u of %u plans", i, room);
		if (r)
			break;
	}
	while (f->nplans > first)
		release_plan(f, f->nplans - 1);
}

static void op_reopen(void)
{
	file_open();
}

/* A held plan of a live group of @f with a scratch region; its slot. */
static struct plan *group_scratch_plan(struct file *f, int *slot)
{
	int i, k;

	for (i = 0; i < f->nplans; i++) {
		struct plan *p = &f->plans[i];

		if (!p->g || p->g->unsure || p->child_made)
			continue;
		for (k = 0; k < KEEP_SLOT; k++) {
			if (p->s[k].len) {
				*slot = k;
				return p;
			}
		}
	}
	return NULL;
}

/*
 * A group's scratch grows while another process of the file maps it: the
 * new bytes must read zero at once (they were someone else's before).
 */
static void op_race_grow(void)
{
	struct tplan_tensor_desc t[2];
	struct tplan_submit req;
	struct sgroup *g;
	struct plan *p;
	uint64_t old, grow;
	int fd, slot, m, status;
	struct file *f = file_of_fd_index(&fd);
	pid_t pid;

	if (!f || forked || nmaps == MAX_MAPS)
		return;
	p = group_scratch_plan(f, &slot);
	if (!p)
		return;
	g = p->g;
	old = g->scratch_size;
	/* the old bytes hold our pattern, the new ones must not */
	m = map_slot(fd, &p->s[slot], old, PROT_READ | PROT_WRITE);
	if (m < 0)
		return;
	write_bytes(&maps[m], 0, old);
	count_call();
	munmap(maps[m].addr, maps[m].len);
	map_forget(m);
	grow = PAGE * (1 + rnd(32));
	sh->race_done[me] = 0;
	count_call();
	pid = fork();
	if (pid < 0)
		return;
	if (!pid) {
		struct mapping mm = { .base = 0, .prot = PROT_READ, .tr = p->s[slot].tr };
		int n;

		forked = true;
		disarm_timer();
		for (n = 0; n < 2000 && !__atomic_load_n(&sh->race_done[me], __ATOMIC_ACQUIRE); n++) {
			mm.len = old + PAGE * rnd(grow / PAGE + 2);
			count_call();
			mm.addr = mmap(NULL, mm.len, PROT_READ, MAP_SHARED, fd, (off_t)p->s[slot].off);
			if (mm.addr == MAP_FAILED) {
				if (errno != EINVAL)
					check_errno("mmap of a growing scratch region", errno, 0);
				continue;
			}
			check_bytes(&mm, 0, mm.len, "scratch mapped while it grows");
			munmap(mm.addr, mm.len);
		}
		_exit(0);
	}
	memset(t, 0, sizeof(t));
	t[0].id = 1;
	t[0].lower = 0;
	t[0].upper = 2;
	t[0].size = old + grow - 8 * rnd(8);
	t[0].alignment = 1;
	t[1].id = 2;
	t[1].lower = 1;
	t[1].upper = 3;
	t[1].size = rnd(4096);
	t[1].alignment = 8;
	init_submit(&req, (uint8_t *)t, 2, sizeof(t[0]));
	req.group = g->id;
	if (!submit_table(f, fd, &req, (uint8_t *)t, sizeof(t[0]), ANY,
			  "SUBMIT (growing a group's scratch)", NULL) &&
	    g->scratch_size > old)
		__atomic_add_fetch(&sh->raced_grows, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&sh->race_done[me], 1, __ATOMIC_RELEASE);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fail("mapping child: status %#x", status);
}

/* A plan may use at most 12 kept regions: the 13th is E2BIG. */
static void op_keep_limit(void)
{
	struct tplan_tensor_desc t[13];
	struct tplan_submit req;
	struct sgroup *g;
	int fd, i, r = 0;
	struct file *f = file_of_fd_index(&fd);

	if (!f || forked)
		return;
	g = group_by_id(f, group_ids[2]);
	if (!g || g->nplans || f->nplans + 13 > MAX_HELD)
		return;
	memset(t, 0, sizeof(t));
	for (i = 0; i < 13; i++) {
		t[i].id = (uint64_t)i;
		t[i].lower = 0;
		t[i].upper = 1 + rnd(3);
		t[i].size = 64 + 8 * rnd(8);
		t[i].alignment = 8;
		t[i].share_key = 1000 + (uint64_t)i;
	}
	for (i = 0; i < 13 && !r; i++) {	/* one kept region per plan */
		init_submit(&req, (uint8_t *)&t[i], 1, sizeof(t[0]));
		req.group = g->id;
		r = submit_table(f, fd, &req, (uint8_t *)&t[i], sizeof(t[0]), ANY,
				 "SUBMIT (one new key)", NULL);
	}
	if (!r) {
		init_submit(&req, (uint8_t *)t, 13, sizeof(t[0]));
		req.group = g->id;
		if (submit_table(f, fd, &req, (uint8_t *)t, sizeof(t[0]), E2BIG,
				 "SUBMIT (13 kept regions)", NULL) == E2BIG)
			__atomic_add_fetch(&sh->keep_limits, 1, __ATOMIC_RELAXED);
	}
	for (i = f->nplans - 1; i >= 0; i--)
		if (f->plans[i].g == g)
			release_plan(f, i);
}

static void run_ops(unsigned int count);

static void op_fork(void)
{
	pid_t pid;
	int status;

	if (forked)
		return;
	count_call();
	pid = fork();
	if (pid < 0) {
		fail("fork: %s", strerror(errno));
		return;
	}
	if (!pid) {
		forked = true;
		disarm_timer();
		run_ops(1 + (unsigned int)rnd(6));
		release_child_made();
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fail("forked child: status %#x", status);
}

/* ------------------------------------------------------------------ */
/* SUBMIT_SPILL */

#define SPILL_MAX_USES	512
#define SPILL_MAX_PIECES 256
#define SPILL_PIECE_STRIDE_MAX (TPLAN_PIECE_DESC_SIZE_VER1 + 8 * 7)

static uint64_t spill_steps[SPILL_MAX_USES];
static uint32_t spill_start[MAX_VALID_N + 1];
static uint8_t spill_pieces[SPILL_MAX_PIECES * SPILL_PIECE_STRIDE_MAX];

/* Random uses for @n tensors of @base: a few steps each, in order. */
static uint32_t gen_uses(uint8_t *base, uint32_t stride, uint32_t n)
{
	uint32_t i, m = 0;
	uint64_t s;

	for (i = 0; i < n; i++) {
		const struct tplan_tensor_desc *d = desc(base, stride, i);

		spill_start[i] = m;
		for (s = d->lower; s < d->upper && m < SPILL_MAX_USES; s++)
			if (chance(40))
				spill_steps[m++] = s;
	}
	spill_start[n] = m;
	return m;
}

/* Whether a successful spill plan's pieces are plausible. */
static bool spill_plausible(const struct tplan_submit_spill *req,
			    const uint8_t *base, uint32_t stride)
{
	uint32_t i;

	if (req->piece_count > req->piece_cap || req->peak > req->capacity ||
	    req->moved < req->moved_bound)
		return false;
	for (i = 0; i < req->piece_count; i++) {
		const struct tplan_piece_desc *p = (const void *)
			(spill_pieces + (size_t)i * req->piece_stride);
		const struct tplan_tensor_desc *d;

		if (p->tensor >= req->count)
			return false;
		d = desc((uint8_t *)base, stride, p->tensor);
		if (p->lower < d->lower || p->upper > d->upper ||
		    p->lower >= p->upper ||
		    (d->size && p->offset + d->size > req->peak))
			return false;
	}
	return true;
}

/* Check a successful spill plan, then give it back. */
static void check_spill(int fd, const struct tplan_submit_spill *req,
			const uint8_t *base, uint32_t stride)
{
	if (!spill_plausible(req, base, stride))
		fail("SUBMIT_SPILL: implausible plan: %u of %u pieces, peak %llu of %llu, moved %llu bound %llu",
		     req->piece_count, req->piece_cap,
		     (unsigned long long)req->peak,
		     (unsigned long long)req->capacity,
		     (unsigned long long)req->moved,
		     (unsigned long long)req->moved_bound);
	if (req->plan_id) {
		struct tplan_release rel = { .plan_id = req->plan_id };

		check_errno("RELEASE of a spill plan",
			    do_ioctl(fd, TPLAN_IOC_RELEASE, &rel), 0);
	}
}

/* The tensor whose uses hold use @k. */
static uint32_t use_owner(uint32_t n, uint32_t k)
{
	uint32_t i = 0;

	while (i + 1 < n && spill_start[i + 1] <= k)
		i++;
	return i;
}

/* A small valid table with uses, sometimes with one thing wrong. */
static void op_submit_spill(void)
{
	struct gen o = { .kind = PLAIN, .max_n = 12, .max_size = 64 * 1024 };
	struct tplan_submit_spill req;
	uint32_t stride = TPLAN_TENSOR_DESC_SIZE_VER1, n, m, i;
	unsigned int how = (unsigned int)rnd(18);
	uint64_t total = 0;
	int expect = EINVAL, fd, r;
	char what[64];

	if (!file_of_fd_index(&fd))
		return;
	n = gen_valid(table, stride, &o);
	m = gen_uses(table, stride, n);
	for (i = 0; i < n; i++)
		total += desc(table, stride, i)->size;
	memset(&req, 0, sizeof(req));
	req.flags = chance(50) ? TPLAN_SUBMIT_DRY_RUN : 0;
	req.strategy = (uint32_t)rnd(2);
	req.tensors = (uint64_t)(uintptr_t)table;
	req.count = n;
	req.stride = stride;
	if (chance(80)) {	/* a pointer only with a count */
		req.uses = m ? (uint64_t)(uintptr_t)spill_steps : 0;
		req.use_start = (uint64_t)(uintptr_t)spill_start;
		req.use_count = m;
	}
	req.piece_stride = TPLAN_PIECE_DESC_SIZE_VER1 + 8 * (uint32_t)rnd(8);
	req.pieces = (uint64_t)(uintptr_t)spill_pieces;
	/* often too short: the count needed comes back with ENOBUFS */
	req.piece_cap = (uint32_t)(chance(40) ? rnd(n + 1) : rnd(SPILL_MAX_PIECES + 1));
	if (!req.piece_cap)
		req.pieces = 0;
	req.capacity = 1 + rnd(total + 1);
	req.budget = chance(90) ? 0 : 1 + rnd(100000);
	switch (how) {
	case 0: req.flags |= 1u << (1 + rnd(31)); break;
	case 1: req.reserved[rnd(4)] = 1 + rnd(UINT32_MAX); break;
	case 2: req.pad = 1 + (uint32_t)rnd(UINT32_MAX); break;
	case 3: req.capacity = 0; break;
	case 4: req.strategy = 50 + (uint32_t)rnd(1000); break;
	case 5: req.piece_stride = (uint32_t)rnd(TPLAN_PIECE_DESC_SIZE_VER1); break;
	case 6: req.piece_stride += 1 + (uint32_t)rnd(7); break;
	case 7: if (!req.use_start || !m) return;
		spill_start[0] = 1; break;
	case 8: if (!req.use_start || !m) return;
		spill_steps[m - 1] = desc(table, stride, use_owner(n, m - 1))->upper + rnd(3);
		break;
	case 9: req.use_start = 0; req.use_count = 1 + (uint32_t)rnd(9); break;
	case 10: if (!req.use_start) return;
		req.uses = 0xffff800000000000ULL; req.use_count = 1 + m; spill_start[n] = 1 + m;
		expect = EFAULT; break;
	case 11: req.piece_cap = 1 + (uint32_t)rnd(1000);
		req.pieces = 0xffff800000000000ULL; expect = EFAULT; break;
	case 12: /* a uses pointer without uses */
		memset(spill_start, 0, sizeof(spill_start));
		req.use_start = (uint64_t)(uintptr_t)spill_start;
		req.use_count = 0;
		req.uses = (uint64_t)(uintptr_t)spill_steps;
		break;
	case 13: /* a pieces pointer without room */
		req.piece_cap = 0;
		req.pieces = (uint64_t)(uintptr_t)spill_pieces;
		break;
	default: expect = ANY; break;
	}
	r = do_ioctl(fd, TPLAN_IOC_SUBMIT_SPILL, &req);
	snprintf(what, sizeof(what), "SUBMIT_SPILL (case %u)", how);
	check_errno(what, r, expect);
	if (r == ENOBUFS && req.piece_count <= req.piece_cap)
		fail("SUBMIT_SPILL: ENOBUFS with %u of %u pieces", req.piece_count,
		     req.piece_cap);
	if (!r)
		check_spill(fd, &req, table, stride);
}

struct op {
	void (*fn)(void);
	unsigned int weight;
	const char *name;	/* for the latency oracle's report */
};

#define OP(fn, weight)	{ fn, weight, #fn }

static const struct op ops[] = {
	OP(op_get_info, 6),
	OP(op_submit_valid, 22),
	OP(op_submit_bad, 26),
	OP(op_submit_struct, 5),
	OP(op_submit_spill, 6),
	OP(op_submit_fixed, 10),
	OP(op_release, 12),
	OP(op_release_bad, 4),
	OP(op_bad_number, 1),
	OP(op_mmap, 12),
	OP(op_munmap, 7),
	OP(op_mremap, 3),
	OP(op_mprotect, 3),
	OP(op_touch, 10),
	OP(op_close, 1),
	OP(op_dup, 1),
	OP(op_reopen, 1),
	OP(op_signal, 2),
	OP(op_stop_sibling, 1),
	OP(op_fork, 1),
};

/* Costly operations, each run about once in so many steps. */
static const struct rare_op {
	unsigned int one_in;
	struct op op;
} rare_ops[] = {
	{ 20000, OP(op_submit_big, 0) },
	{ 3000, OP(op_emfile, 0) },
	{ 4000, OP(op_keep_limit, 0) },
	{ 300, OP(op_race_grow, 0) },
};

/* Runs @o, saying so where the latency oracle looks. */
static void run_op(const struct op *o)
{
	sh->doing[me] = o->name;
	o->fn();
	sh->doing[me] = NULL;
}

/* Runs one rare operation if its turn came; true if one ran. */
static bool run_rare_op(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(rare_ops) / sizeof(rare_ops[0]); i++) {
		if (!rnd(rare_ops[i].one_in)) {
			run_op(&rare_ops[i].op);
			return true;
		}
	}
	return false;
}

static void run_ops(unsigned int count)
{
	unsigned int total = 0, i, k;
	int held;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		total += ops[i].weight;
	for (k = 0; k < count; k++) {
		unsigned int r;
		bool any = false;

		for (i = 0; i < MAX_FILES; i++)
			any |= files[i].open;
		if (!any) {
			file_open();
			continue;
		}
		if (run_rare_op())
			continue;
		held = 0;
		for (i = 0; i < MAX_FILES; i++)
			held += files[i].open ? files[i].nplans : 0;
		if (held > 12 && chance(30)) {
			op_release();
			continue;
		}
		if (nmaps > 12 && chance(30)) {
			op_munmap();
			continue;
		}
		r = (unsigned int)rnd(total);
		for (i = 0; r >= ops[i].weight; i++)
			r -= ops[i].weight;
		run_op(&ops[i]);
	}
}

/* ------------------------------------------------------------------ */
/* stress */

static void stress_map_all(int fd, struct plan *p)
{
	int s, m;

	for (s = 0; s < SLOTS; s++) {
		if (!p->s[s].len)
			continue;
		m = map_slot(fd, &p->s[s], p->s[s].len, PROT_READ | PROT_WRITE);
		if (m < 0)
			continue;
		write_bytes(&maps[m], 0, maps[m].len);
		check_bytes(&maps[m], 0, maps[m].len, "pattern read back");
		count_call();
		munmap(maps[m].addr, maps[m].len);
		map_forget(m);
	}
}

static void stress_cycle(struct file *f, uint32_t *group)
{
	struct gen o = { .max_n = 10, .max_size = 48 * 1024 };
	struct sgroup *g = group_by_id(f, *group);
	struct tplan_submit req;
	uint32_t n, stride = TPLAN_TENSOR_DESC_SIZE_VER1;
	unsigned int kind = (unsigned int)rnd(4);
	int fd = f->fds[0], r, i;
	struct plan *p;

	o.kind = kind < 2 ? PLAIN : kind == 2 ? TIERED : GROUP;
	o.keys = o.kind == GROUP || chance(20);
	o.serial = o.kind == GROUP && chance(30);
	n = gen_valid(table, stride, &o);
	init_submit(&req, table, n, stride);
	req.strategy = (uint32_t)rnd(5);
	req.budget = req.strategy <= TPLAN_STRATEGY_ID_GREEDY_SIZE ? 0 : 20000;
	if (o.serial)
		req.flags |= TPLAN_SUBMIT_SERIAL;
	if (o.kind == TIERED)
		req.flags |= TPLAN_SUBMIT_TIERED;
	if (o.kind == GROUP)
		req.group = *group;
	count_call();
	r = ioctl(fd, TPLAN_IOC_SUBMIT, &req) ? errno : 0;
	__atomic_add_fetch(&sh->results[RES_SUBMIT][r < 136 ? r : 135], 1, __ATOMIC_RELAXED);
	if (r == ENOSPC)
		__atomic_add_fetch(&sh->enospc, 1, __ATOMIC_RELAXED);
	else if (r)
		fail("stress SUBMIT (%s, %u tensors): %s",
		     o.kind == GROUP ? "group" : o.kind == TIERED ? "tiered" : "plain",
		     n, ename(r));
	if (!r && check_write_back(&req, table, stride, false, o.kind == GROUP)) {
		__atomic_add_fetch(&sh->ok_submits, 1, __ATOMIC_RELAXED);
		p = record_plan(f, o.kind == GROUP ? g : NULL, &req, table, stride);
		if (p) {
			uint64_t id = p->id;

			stress_map_all(fd, p);
			i = find_plan(f, id);
			if (o.kind != GROUP && i >= 0)
				release_plan(f, i);
		}
	}
	/* groups: keep up to three plans, then let the group go */
	if (g->nplans && (g->nplans >= 3 || chance(25))) {
		for (i = f->nplans - 1; i >= 0; i--)
			if (f->plans[i].g == g && (chance(50) || g->nplans >= 3))
				release_plan(f, i);
	}
	if (g->nplans && chance(10)) {
		for (i = f->nplans - 1; i >= 0; i--)
			if (f->plans[i].g == g)
				release_plan(f, i);
	}
	if (!g->nplans && chance(30))
		*group = *group % 3 + 1;
	__atomic_add_fetch(&sh->cycles, 1, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------ */
/* workers */

static void drop_privileges(void)
{
	if (setgroups(0, NULL) || setgid(run_gid) || setuid(run_uid)) {
		out("ioctl_fuzz: worker %d: cannot drop privileges: %s\n", me,
		    strerror(errno));
		_exit(2);
	}
}

static void *map_with_guard(size_t bytes)
{
	uint8_t *p = mmap(NULL, bytes + PAGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		_exit(3);
	}
	mprotect(p + bytes, PAGE, PROT_NONE);
	return p;
}

static void worker(int k, uint64_t quota)
{
	struct sigaction sa;
	struct file *f;
	int fd;

	me = k;
	rng = seed * 0x100000001b3ULL + (uint64_t)k * 0x9e3779b97f4a7c15ULL + 1;
	drop_privileges();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = segv_handler;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sa.sa_handler = alarm_handler;
	sigaction(SIGALRM, &sa, NULL);
	table = map_with_guard(TABLE_BYTES);
	argbuf = map_with_guard(ARG_BYTES);
	f = file_open();
	if (!f)
		_exit(2);
	fd = f->fds[0];
	if (get_info(fd, &dev_info)) {
		fail("GET_INFO: %s", strerror(errno));
		_exit(2);
	}
	check_info(&dev_info);
	if (stress) {
		uint32_t group = 1;

		sh->doing[me] = "stress_cycle";
		for (uint64_t c = 0; c < cycles; c++)
			stress_cycle(f, &group);
		while (f->nplans)
			release_plan(f, 0);
	} else {
		while (my_calls < quota)
			run_ops(1);
		disarm_timer();
		/* sometimes leave everything for exit() to clean up */
		if (chance(50)) {
			for (int i = 0; i < MAX_FILES; i++)
				while (files[i].open && files[i].nplans)
					release_plan(&files[i], 0);
			while (nmaps) {
				munmap(maps[0].addr, maps[0].len);
				map_forget(0);
			}
		}
	}
	_exit(0);
}

/* ------------------------------------------------------------------ */
/* the parent: kernel log, permissions, leftovers */

static int kmsg = -1;
static uint64_t reports;

static const char *const report_patterns[] = {
	"BUG:", "WARNING:", "KASAN:", "UBSAN:", "Oops", "general protection",
	"possible circular locking", "possible recursive locking",
	"unreferenced object", "INFO: task",
};

static void kmsg_open(void)
{
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg < 0) {
		out("ioctl_fuzz: warning: /dev/kmsg: %s: kernel reports not counted\n",
		    strerror(errno));
		return;
	}
	lseek(kmsg, 0, SEEK_END);
}

static void kmsg_poll(void)
{
	char buf[8192];
	ssize_t r;
	size_t i;

	if (kmsg < 0)
		return;
	for (;;) {
		char *msg, *nl;

		r = read(kmsg, buf, sizeof(buf) - 1);
		if (r < 0 && errno == EPIPE)
			continue;	/* overwritten records */
		if (r <= 0)
			return;
		buf[r] = 0;
		msg = strchr(buf, ';');
		msg = msg ? msg + 1 : buf;
		nl = strchr(msg, '\n');
		if (nl)
			*nl = 0;
		for (i = 0; i < sizeof(report_patterns) / sizeof(report_patterns[0]); i++) {
			if (strstr(msg, report_patterns[i])) {
				reports++;
				if (reports <= 100)
					out("kernel report: %s\n", msg);
				break;
			}
		}
	}
}

static bool check_perms(void)
{
	gid_t other = run_gid ? run_gid - 1 : 1;
	bool ok = true;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		pid_t pid = fork();
		int status;

		if (!pid) {
			int fd;

			if (setgroups(0, NULL) || setgid(pass ? run_gid : other) ||
			    setuid(run_uid))
				_exit(3);
			fd = open(device, O_RDWR);
			if (pass == 0)
				_exit(fd >= 0 ? 1 : errno == EACCES ? 0 : 2);
			_exit(fd >= 0 ? 0 : 4);
		}
		waitpid(pid, &status, 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			out("FAIL permissions: %s: exit %d\n",
			    pass ? "a member (gid in the node's group) cannot open the device"
				 : "a non-member open did not fail with EACCES",
			    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
			ok = false;
		} else {
			out("ok   permissions: %s\n",
			    pass ? "a member of the node's group opens it"
				 : "a non-member gets EACCES");
		}
	}
	return ok;
}

/* Every pool one free region, no plan; false (after printing) if not. */
static bool device_idle(void)
{
	char line[512], last[4096] = "";
	bool ok = false;
	int tries;

	for (tries = 0; tries < 50 && !ok; tries++) {
		FILE *st = fopen("/sys/kernel/debug/tplan/state", "r");
		size_t used = 0;
		int pools = 0;

		if (tries)
			usleep(100000);
		if (!st) {
			struct tplan_info info;
			int fd = open(device, O_RDWR | O_CLOEXEC);
			uint32_t k;

			if (fd < 0 || ioctl(fd, TPLAN_IOC_GET_INFO, &info)) {
				out("ioctl_fuzz: cannot read the device state: %s\n",
				    strerror(errno));
				if (fd >= 0)
					close(fd);
				return false;
			}
			close(fd);
			ok = true;
			for (k = 0; k < info.pool_count; k++)
				if (info.pools[k].used || info.pools[k].free_regions != 1)
					ok = false;
			snprintf(last, sizeof(last), "(GET_INFO; no debugfs)\n");
			continue;
		}
		ok = true;
		last[0] = 0;
		while (fgets(line, sizeof(line), st)) {
			if (used + strlen(line) < sizeof(last)) {
				strcpy(last + used, line);
				used += strlen(line);
			}
			if (!strncmp(line, "plan ", 5))
				ok = false;
			if (!strncmp(line, "pool ", 5)) {
				pools++;
				if (!strstr(line, " used 0 ") || !strstr(line, "free_regions 1\n"))
					ok = false;
			}
		}
		fclose(st);
		if (!pools)
			ok = false;
	}
	if (!ok)
		out("FAIL leftover: the device is not idle after every worker exited:\n%s", last);
	return ok;
}

/* Where each worker is stuck, for a hang report. */
static void dump_workers(void)
{
	char path[64], buf[2048];
	int k, fd;
	ssize_t r;

	for (k = 0; k < procs; k++) {
		const char *what[] = { "wchan", "stack" };

		for (int w = 0; w < 2; w++) {
			snprintf(path, sizeof(path), "/proc/%d/%s", sh->pids[k], what[w]);
			fd = open(path, O_RDONLY);
			if (fd < 0)
				continue;
			r = read(fd, buf, sizeof(buf) - 1);
			close(fd);
			if (r > 0) {
				buf[r] = 0;
				out("worker %d (pid %d) %s: %s%s", k, sh->pids[k], what[w], buf,
				    buf[r - 1] == '\n' ? "" : "\n");
			}
		}
	}
}

static uint64_t max_latency_ms;	/* 0: report the latency only */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The latency oracle's sleeper: 1 ms naps until killed, the lateness kept. */
static void sleeper(void)
{
	const struct timespec nap = { 0, 1000000 };

	const char *doing[MAX_PROCS];
	struct sched_param rt = { .sched_priority = 50 };

	/*
	 * Real-time, so that the busy workers' user time does not delay it:
	 * what is left is the kernel not yielding (UML does not preempt it).
	 */
	if (sched_setscheduler(0, SCHED_FIFO, &rt))
		out("ioctl_fuzz: warning: the latency sleeper is not real-time: %s\n",
		    strerror(errno));
	for (;;) {
		uint64_t t0 = mono_ns(), late;

		memcpy(doing, (const void *)sh->doing, sizeof(doing));
		nanosleep(&nap, NULL);
		late = mono_ns() - t0 - 1000000;
		if (late > sh->max_late_ns) {
			int k;

			sh->max_late_ns = late;
			/* the ops running both when the nap began and after it */
			for (k = 0; k < MAX_PROCS; k++)
				sh->late_doing[k] = doing[k] == sh->doing[k] ?
						    doing[k] : NULL;
		}
		sh->wakeups++;
	}
}

static pid_t start_sleeper(void)
{
	pid_t pid = fork();

	if (!pid)
		sleeper();
	return pid;
}

/* The oracle's verdict, printed; false when the bound was passed. */
static bool latency_ok(void)
{
	double ms = (double)sh->max_late_ns / 1e6;
	bool ok = !max_latency_ms || sh->max_late_ns <= max_latency_ms * 1000000;

	char what[512];
	size_t used = 0;
	int k;

	what[0] = '\0';
	for (k = 0; k < procs; k++)
		if (sh->late_doing[k] && used < sizeof(what))
			used += (size_t)snprintf(what + used, sizeof(what) - used,
						 " %s", sh->late_doing[k]);
	out("%sioctl_fuzz: longest wake-up latency %.1f ms over %" PRIu64 " 1 ms sleeps%s; ops running over that nap:%s\n",
	    ok ? "" : "FAIL ", ms, sh->wakeups,
	    max_latency_ms ? (ok ? " (within the bound)" : " (over the bound)") : "",
	    *what ? what : " none");
	return ok;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: ioctl_fuzz [--seed N] [--iters N] [--procs N] [--stress] [--cycles N]\n"
		"                  [--device PATH] [--uid N] [--gid N] [--check-perms]\n"
		"                  [--max-latency-ms N]\n");
	exit(2);
}

static uint64_t num(const char *s)
{
	char *end;
	uint64_t v = strtoull(s, &end, 0);

	if (*end || !*s)
		usage();
	return v;
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	uint64_t quota, last_progress = 0, last_calls, last_change;
	bool seeded = false, ok = true, hung = false, late;
	pid_t sleeper_pid;
	int i, alive, bad_exits = 0;
	double secs;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--stress")) {
			stress = true;
		} else if (!strcmp(a, "--check-perms")) {
			check_perms_opt = true;
		} else if (i + 1 < argc && !strcmp(a, "--seed")) {
			seed = num(argv[++i]);
			seeded = true;
		} else if (i + 1 < argc && !strcmp(a, "--iters")) {
			iters = num(argv[++i]);
		} else if (i + 1 < argc && !strcmp(a, "--cycles")) {
			cycles = num(argv[++i]);
		} else if (i + 1 < argc && !strcmp(a, "--procs")) {
			procs = (int)num(argv[++i]);
		} else if (i + 1 < argc && !strcmp(a, "--device")) {
			device = argv[++i];
		} else if (i + 1 < argc && !strcmp(a, "--uid")) {
			run_uid = (uid_t)num(argv[++i]);
		} else if (i + 1 < argc && !strcmp(a, "--gid")) {
			run_gid = (gid_t)num(argv[++i]);
			gid_given = 1;
		} else if (i + 1 < argc && !strcmp(a, "--max-latency-ms")) {
			max_latency_ms = num(argv[++i]);
		} else {
			usage();
		}
	}
	if (!gid_given)
		run_gid = (gid_t)run_uid;
	if (!procs)
		procs = stress ? 8 : 4;
	if (procs < 1 || procs > MAX_PROCS)
		usage();
	if (!seeded) {
		clock_gettime(CLOCK_REALTIME, &t0);
		seed = ((uint64_t)t0.tv_sec * 1000003u) ^ (uint64_t)t0.tv_nsec ^ (uint64_t)getpid();
		seed %= 1000000000;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (stress)
		out("ioctl_fuzz: seed %" PRIu64 " (stress: %d processes x %" PRIu64 " cycles, uid %u gid %u, %s)\n",
		    seed, procs, cycles, run_uid, run_gid, device);
	else
		out("ioctl_fuzz: seed %" PRIu64 " (%" PRIu64 " calls, %d processes, uid %u gid %u, %s)\n",
		    seed, iters, procs, run_uid, run_gid, device);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	memset(sh, 0, sizeof(*sh));
	kmsg_open();
	if (check_perms_opt && !check_perms())
		ok = false;
	quota = (iters + (uint64_t)procs - 1) / (uint64_t)procs;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	sleeper_pid = start_sleeper();
	for (i = 0; i < procs; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 2;
		}
		if (!pid)
			worker(i, quota);
		sh->pids[i] = pid;
	}
	last_calls = 0;
	last_change = 0;
	for (alive = procs; alive > 0;) {
		int status;
		pid_t pid = waitpid(-1, &status, WNOHANG);

		if (pid > 0 && pid == sleeper_pid) {
			out("FAIL seed %" PRIu64 ": the latency sleeper died\n", seed);
			__atomic_add_fetch(&sh->failures, 1, __ATOMIC_RELAXED);
			sleeper_pid = -1;
			continue;
		}
		if (pid > 0) {
			alive--;
			if (!WIFEXITED(status) || WEXITSTATUS(status)) {
				int k;

				for (k = 0; k < procs && sh->pids[k] != pid; k++)
					;
				out("FAIL seed %" PRIu64 " proc %d: worker %s %d\n", seed, k,
				    WIFSIGNALED(status) ? "killed by signal" : "exited with",
				    WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
				bad_exits++;
			}
			continue;
		}
		kmsg_poll();
		usleep(20000);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (sh->calls != last_calls) {
			last_calls = sh->calls;
			last_change = (uint64_t)(t1.tv_sec - t0.tv_sec);
		} else if (!hung && (uint64_t)(t1.tv_sec - t0.tv_sec) > last_change + 300) {
			out("FAIL seed %" PRIu64 ": no call finished for 300 s: a hang\n", seed);
			__atomic_add_fetch(&sh->failures, 1, __ATOMIC_RELAXED);
			dump_workers();
			hung = true;
			for (i = 0; i < procs; i++) {
				kill(sh->pids[i], SIGKILL);
				kill(sh->pids[i], SIGCONT);
			}
		}
		if ((uint64_t)(t1.tv_sec - t0.tv_sec) >= last_progress + 30) {
			last_progress = (uint64_t)(t1.tv_sec - t0.tv_sec);
			out("ioctl_fuzz: %" PRIu64 " s: %" PRIu64 " calls, %" PRIu64 " failures, %" PRIu64 " reports\n",
			    last_progress, sh->calls, sh->failures, reports);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (sleeper_pid > 0) {
		kill(sleeper_pid, SIGKILL);
		waitpid(sleeper_pid, NULL, 0);
	}
	late = !latency_ok();
	if (!device_idle())
		ok = false;
	usleep(200000);
	kmsg_poll();
	if (stress)
		out("ioctl_fuzz: %" PRIu64 " cycles, %" PRIu64 " plans, %" PRIu64 " ENOSPC, %" PRIu64 " bytes checked\n",
		    sh->cycles, sh->ok_submits, sh->enospc, sh->checked_bytes);
	else
		out("ioctl_fuzz: %" PRIu64 " plans made, %" PRIu64 " ENOSPC, %" PRIu64 " mapped bytes checked, %" PRIu64 " scratch regions grown while mapped, %" PRIu64 " kept-region limits hit, %" PRIu64 " pinned tensors and %" PRIu64 " free hints found in place\n",
		    sh->ok_submits, sh->enospc, sh->checked_bytes, sh->raced_grows,
		    sh->keep_limits, sh->pins_checked, sh->hints_checked);
	for (i = 0; i < 4; i++) {
		char line[1024];
		size_t used = 0;

		for (int e = 0; e < 136; e++)
			if (sh->results[i][e] && used < sizeof(line) - 64)
				used += (size_t)snprintf(line + used, sizeof(line) - used, " %s %" PRIu64,
							 ename(e), sh->results[i][e]);
		if (used)
			out("ioctl_fuzz: %s:%s\n", i == RES_SUBMIT ? "SUBMIT" :
			    i == RES_IOCTL ? "GET_INFO/RELEASE/other ioctls" :
			    i == RES_MM ? "mmap/mremap/mprotect" :
			    "SUBMIT with pins, hints or gaps",
			    line);
	}
	out("ioctl_fuzz: seed %" PRIu64 ": %" PRIu64 " failures, %d bad exits, %s; %.1f s, %.0f calls/s\n",
	    seed, sh->failures, bad_exits, ok ? "device idle" : "LEFTOVER or permission failure",
	    secs, secs > 0 ? (double)sh->calls / secs : 0.0);
	out("%" PRIu64 " calls, %d processes, %" PRIu64 " reports\n", sh->calls, procs, reports);
	return (reports || sh->failures || bad_exits || !ok || hung || late) ? 1 : 0;
}
