// SPDX-License-Identifier: MIT
/*
 * race_e2e.c - the calls that share state, hammered at once by one worker
 * per online CPU (at least two): even workers are threads of this process
 * sharing its descriptors, odd ones forked processes holding the same open
 * files, inherited or (every fourth worker) passed over a unix socket.
 * Each pair runs for --seconds (default 3), in rounds where one call's
 * outcome must be exact (a plan released once, a handle closed once) or
 * free-running where it cannot be:
 *
 *   submit_release    SUBMIT of a plan while the others RELEASE the id it
 *                     is about to get; then all RELEASE each of 32 plans
 *                     at once: one RELEASE of each wins
 *   release_export    EXPORT of a plan's region while its owner RELEASEs it
 *   export_close      EXPORT while the file's last descriptors are closed
 *   gem_close_mmap    mmap() of a region while its handle is closed (twice)
 *   prime_close       PRIME handle-to-fd and fd-to-handle (in this file and
 *                     in other processes' files) while the handle and the
 *                     dma-buf's descriptor are closed
 *   group_join_leave  joins and leaves of one serial group id in two files
 *   group_grow        joins of a new group at once, each growing its scratch
 *                     region while the others' SUBMITs return
 *   mmap_release      mmap(), touching and munmap() of a region while it is
 *                     released, new plans made beside it
 *   dmabuf_module_ref dma-bufs outliving their files, the module's count
 *
 * The oracles are the e2e tests': every call returns 0 or an errno
 * docs/DRIVER.md gives for it; a call that must succeed once succeeds once;
 * a call that began after its target was gone fails; a fresh region reads
 * zero, a mapped one its owner's bytes and what this worker wrote (never a
 * byte of another plan or file); after each round and each pair the device
 * is idle (no plan, every pool one free region: debugfs when mounted).
 *
 * --hold-dmabuf SECONDS instead holds dma-bufs with no file of the device
 * open, touching them and trying delete_module(2) (rmmod's call) on every
 * CPU, closing all but one at random times: every unload is refused, the
 * module's count is one per dma-buf.  tests/e2e/race_rmmod.sh runs it,
 * tries rmmod beside it, and unloads the module after it.
 *
 * Prints "ok"/"FAIL" per pair, "N passed, N failed" last.  Runs inside UML
 * (tests/e2e/e2e.sh, one CPU) and in QEMU on several
 * (tests/e2e/race-guest.sh).
 */
#include <glob.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "drm_uapi.h"
#include "e2e_util.h"

#define PAGE		4096u
#define MAX_WORKERS	64
/* plans every worker releases in one submit_release round (max_plans 64) */
#define STORM		32
#define MAX_WHY		4
#define NSTAT		6
/* a barrier nobody reaches for this long means a worker died or hung */
#define BARRIER_TIMEOUT_NS	(120 * 1000000000ull)
#define E(err)		(1ull << (err))
#define RW_CLOEXEC	(TPLAN_EXPORT_RDWR | TPLAN_EXPORT_CLOEXEC)

/*
 * What a round's leader sets up for the others, and what they report back.
 * Lives in shared memory with the rest of struct race.
 */
struct round {
	uint64_t id;		/* the plan */
	uint64_t offset;	/* its region's mmap offset */
	uint64_t size;		/* its region's bytes */
	uint32_t pool;
	uint32_t handle;	/* its region's GEM handle */
	int fd;			/* a per-round descriptor in the parent */
	ino_t ino;		/* the round's dma-buf */
	unsigned char fill;	/* what the leader wrote into the region */
	unsigned int leader;
	atomic_int posted;	/* the leader's call returned */
	atomic_int closing;	/* the leader is about to close or release */
	atomic_int closed;	/* ... and that call returned */
	atomic_uint wins;	/* calls that may succeed once, and did */
	uint64_t ids[STORM];	/* submit_release: the round's plans */
	atomic_uint won[STORM];	/* ... and the RELEASEs of each that won */
	atomic_uint imported[MAX_WORKERS];	/* handles fd-to-handle gave */
};

/* Everything the workers share, threads and processes alike. */
struct race {
	unsigned int nworkers;
	uint64_t deadline;
	int files[2];		/* the pair's shared open files */
	int null_fd;		/* dup2()ed over a descriptor to close it */
	long module_base;	/* the module's count with only those open */
	uint64_t seed;
	const struct pair *pair;
	/* the barrier */
	atomic_uint bar_count;
	atomic_uint bar_gen;
	atomic_int broken;
	/* round control: set by worker 0 alone, read after a barrier */
	atomic_int stop;
	int go;
	unsigned long rounds;
	uint64_t last_id;
	struct round round;
	/* outcome */
	atomic_uint nfail;
	char why[MAX_WHY][256];
	atomic_ulong stat[NSTAT];
};

/* One worker: a thread or a process. */
struct worker {
	struct race *r;
	unsigned int k;
	bool process;
	int sock;		/* process workers: their end of a socketpair */
	int files[2];		/* its descriptors of r->files */
	int own;		/* process workers: an open file of their own */
	uint64_t rnd;
};

struct pair {
	const char *name;
	void (*work)(struct worker *w);
	const char *stats[NSTAT];
	bool two_files;		/* files[1] is a second open of the device */
	bool own_file;		/* process workers open a file of their own */
	bool doubled;		/* two workers per CPU */
	void (*forked)(struct race *r);	/* the parent, once all are forked */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned int rnd(struct worker *w, unsigned int n)
{
	return (unsigned int)(splitmix(&w->rnd) % n);
}

/*
 * A busy wait of random length on a random scale, from nothing to a
 * millisecond or so: the calls meet at varying points of each other, and
 * some rounds hit a window of any width.
 */
static void dawdle(struct worker *w, unsigned int max_scale)
{
	volatile unsigned int i;
	unsigned int n = rnd(w, 1u << rnd(w, max_scale + 1));

	for (i = 0; i < n; i++)
		;
}

/*
 * Waiting without spinning: under TCG the vCPUs share a few host cores,
 * and a waiter that spins takes them from the worker doing the calls.
 * The words are in shared memory, so the futexes are not private.
 */
static void futex_wait(void *word, int val)
{
	struct timespec ts = { .tv_sec = 1 };

	syscall(SYS_futex, word, FUTEX_WAIT, val, &ts, NULL, 0);
}

static void futex_wake(void *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

static void set_flag(atomic_int *flag)
{
	atomic_store(flag, 1);
	futex_wake(flag);
}

static void wait_flag(atomic_int *flag)
{
	while (!atomic_load(flag))
		futex_wait(flag, 0);
}

/*
 * Records a failure (the first MAX_WHY are kept for the report) and asks
 * the workers to stop at the end of the round.
 */
static void fail(struct worker *w, const char *fmt, ...)
{
	struct race *r = w->r;
	unsigned int i = atomic_fetch_add(&r->nfail, 1);
	int n = 0;
	va_list ap;

	if (i < MAX_WHY) {
		if (w->k != ~0u)
			n = snprintf(r->why[i], sizeof(r->why[i]),
				     "worker %u (%s): ", w->k,
				     w->process ? "process" : "thread");
		va_start(ap, fmt);
		vsnprintf(r->why[i] + n, sizeof(r->why[i]) - n, fmt, ap);
		va_end(ap);
	}
	atomic_store(&r->stop, 1);
}

/* A call's result: 0, or -1 with an errno in @allowed; else a failure. */
static bool expect(struct worker *w, const char *call, int ret,
		   uint64_t allowed)
{
	int err = errno;

	if (!ret)
		return true;
	if (ret == -1 && err < 64 && (allowed & E(err)))
		return false;
	fail(w, "%s returned %d, errno %d (%s)", call, ret, err,
	     strerror(err));
	errno = err;
	return false;
}

static void count(struct worker *w, unsigned int stat)
{
	atomic_fetch_add(&w->r->stat[stat], 1);
}

/*
 * Every worker waits here until all have arrived: a short spin, then a
 * futex.  A barrier that takes longer than BARRIER_TIMEOUT_NS is broken
 * for good (a worker died or hangs).
 */
static void barrier(struct worker *w)
{
	struct race *r = w->r;
	unsigned int gen = atomic_load(&r->bar_gen);
	uint64_t start = 0;
	unsigned int spins = 0;

	if (atomic_fetch_add(&r->bar_count, 1) + 1 == r->nworkers) {
		atomic_store(&r->bar_count, 0);
		atomic_fetch_add(&r->bar_gen, 1);
		futex_wake(&r->bar_gen);
		return;
	}
	while (atomic_load(&r->bar_gen) == gen && !atomic_load(&r->broken)) {
		if (++spins < 200)	/* the last ones are usually close */
			continue;
		futex_wait(&r->bar_gen, (int)gen);
		if (!start)
			start = now_ns();
		else if (now_ns() - start > BARRIER_TIMEOUT_NS) {
			fail(w, "stuck at a barrier for 120 s");
			atomic_store(&r->broken, 1);
		}
	}
}

/* ---- small calls ------------------------------------------------------- */

static int export_slot(int fd, uint64_t id, uint32_t slot, uint64_t offset,
		       struct tplan_export *e)
{
	memset(e, 0, sizeof(*e));
	e->plan_id = id;
	e->slot = offset ? 0 : slot;
	e->mmap_offset = offset;
	e->flags = RW_CLOEXEC;
	return ioctl(fd, TPLAN_IOC_EXPORT, e);
}

static int gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close gc = { .handle = handle };

	return ioctl(fd, DRM_IOCTL_GEM_CLOSE, &gc);
}

static int handle_to_fd(int fd, uint32_t handle, int *out)
{
	struct drm_prime_handle h = { .handle = handle, .flags = RW_CLOEXEC };
	int ret = ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &h);

	*out = h.fd;
	return ret;
}

static int fd_to_handle(int fd, int dbfd, uint32_t *handle)
{
	struct drm_prime_handle h = { .fd = dbfd };
	int ret = ioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h);

	*handle = h.handle;
	return ret;
}

static unsigned char *map_rw(int fd, uint64_t offset, uint64_t size)
{
	return mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    (off_t)offset);
}

static ino_t inode_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? 0 : st.st_ino;
}

/* Passes @fd over a unix socket (SCM_RIGHTS); 0 or -1. */
static int send_fd(int sock, int fd)
{
	char byte = 'f', buf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = buf, .msg_controllen = sizeof(buf),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

/* The descriptor the other end passed, or -1. */
static int recv_fd(int sock)
{
	char byte, buf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = buf, .msg_controllen = sizeof(buf),
	};
	struct cmsghdr *c;
	int fd = -1;

	if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != 1)
		return -1;
	c = CMSG_FIRSTHDR(&msg);
	if (c && c->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

/* ---- bytes ------------------------------------------------------------- */

/*
 * The last bytes of a region are the workers' own: worker k writes
 * marker(k) at size - 1 - k and reads it back.  Every other byte must be
 * what the region's owner wrote.
 */
static unsigned char marker(unsigned int k)
{
	return (unsigned char)(0x80 | k);
}

/*
 * Checks a mapped region the round's leader filled with @fill (others'
 * markers aside), writes this worker's marker and reads it back.
 */
static void check_filled(struct worker *w, const char *what,
			 volatile unsigned char *p, uint64_t size,
			 unsigned char fill)
{
	uint64_t i, mark = size - 1 - w->k;

	for (i = 0; i < size; i++) {
		unsigned char c = p[i];

		if (c == fill)
			continue;
		if (i >= size - w->r->nworkers && c == marker(size - 1 - i))
			continue;
		fail(w, "%s: byte %llu of %llu is %#x, not the owner's %#x",
		     what, (unsigned long long)i, (unsigned long long)size, c,
		     fill);
		return;
	}
	if (w->k >= w->r->nworkers)	/* the parent has no marker */
		return;
	p[mark] = marker(w->k);
	if (p[mark] != marker(w->k))
		fail(w, "%s: byte %llu written %#x reads back %#x", what,
		     (unsigned long long)mark, marker(w->k), p[mark]);
}

/* Every byte of a region handed out new must be zero. */
static bool check_fresh(struct worker *w, const char *what,
			const unsigned char *p, uint64_t size)
{
	uint64_t i;

	for (i = 0; i < size; i++)
		if (p[i]) {
			fail(w, "%s: fresh region's byte %llu is %#x", what,
			     (unsigned long long)i, p[i]);
			return false;
		}
	return true;
}

/* Every byte of a region is @a or @b (several writers of one tag). */
static bool check_either(struct worker *w, const char *what,
			 const unsigned char *p, uint64_t size,
			 unsigned char a, unsigned char b)
{
	uint64_t i;

	for (i = 0; i < size; i++)
		if (p[i] != a && p[i] != b) {
			fail(w, "%s: byte %llu is %#x, neither %#x nor %#x",
			     what, (unsigned long long)i, p[i], a, b);
			return false;
		}
	return true;
}

/* Maps a dma-buf and checks the owner's bytes (and this worker's marker). */
static void check_dmabuf(struct worker *w, const char *what, int dbfd,
			 uint64_t size, unsigned char fill)
{
	unsigned char *p = map_rw(dbfd, 0, size);

	if (p == MAP_FAILED) {
		fail(w, "%s: mmap of the dma-buf: %s", what, strerror(errno));
		return;
	}
	check_filled(w, what, p, size, fill);
	munmap(p, size);
}

/* ---- the device -------------------------------------------------------- */

/*
 * The device holds nothing: GET_INFO's pools are each one free region and
 * the file @fd holds no plan.
 */
static void check_idle(struct worker *w, int fd, const char *when)
{
	struct tplan_info info;
	unsigned int i;

	if (get_info(fd, &info)) {
		fail(w, "GET_INFO %s: %s", when, strerror(errno));
		return;
	}
	if (info.plans_held)
		fail(w, "%s: the file still holds %u plans", when,
		     info.plans_held);
	for (i = 0; i < info.pool_count; i++)
		if (info.pools[i].used || info.pools[i].free_regions != 1)
			fail(w, "%s: pool %u has %llu bytes used, %u free regions",
			     when, i, (unsigned long long)info.pools[i].used,
			     info.pools[i].free_regions);
}

/*
 * debugfs's view, as tests/e2e/e2e.sh's idle() reads it: no plan alive
 * (released ones a mapping keeps included), no key stored, no region
 * used, every pool one free region.  NULL when idle or not readable.
 */
static const char *debugfs_busy(char *line, size_t len)
{
	glob_t g;
	FILE *f = NULL;
	const char *busy = NULL;

	if (!glob("/sys/kernel/debug/accel/*/state", 0, NULL, &g)) {
		f = fopen(g.gl_pathv[0], "r");
		globfree(&g);
	}
	while (f && !busy && fgets(line, len, f)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "alive:", 6) &&
		    !strstr(line, "plans 0 of"))
			busy = line;
		else if (!strncmp(line, "alive:", 6) && !strstr(line, "keys 0 of"))
			busy = line;
		else if (!strncmp(line, "plan ", 5))
			busy = line;
		else if (strlen(line) > 5 && !strcmp(line + strlen(line) - 5, ": used"))
			busy = line;
		else if (!strncmp(line, "pool ", 5) && !strstr(line, "free_regions 1"))
			busy = line;
	}
	if (f)
		fclose(f);
	return busy;
}

/*
 * The round's leader makes a plan of 1 to 3 pages on @fd: its fresh
 * region must read zero; it is filled with the round's byte and unmapped.
 */
static bool lead_plan(struct worker *w, int fd)
{
	struct round *st = &w->r->round;
	struct tplan_submit req;
	const struct tplan_plan_region *reg;
	unsigned char *p;

	if (!expect(w, "SUBMIT", submit_size(fd, PAGE * (1 + rnd(w, 3)), &req), 0))
		return false;
	reg = region_of(&req);
	st->id = req.plan_id;
	st->offset = reg->mmap_offset;
	st->size = reg->region_size;
	st->pool = pool_of(&req);
	st->handle = reg->handle;
	p = map_rw(fd, st->offset, st->size);
	if (p == MAP_FAILED) {
		fail(w, "mmap of a new plan: %s", strerror(errno));
		return false;
	}
	if (check_fresh(w, "new plan", p, st->size))
		memset(p, st->fill, st->size);
	munmap(p, st->size);
	return true;
}

/* ---- rounds ------------------------------------------------------------ */

struct round_ops {
	bool fixed_leader;	/* worker 0 (a thread) leads every round */
	void (*prepare)(struct worker *w);	/* the leader, alone */
	void (*race)(struct worker *w, bool lead);	/* everyone at once */
	void (*check)(struct worker *w);	/* the leader, alone */
};

/*
 * Rounds until the pair's time is up or something failed: the leader
 * prepares, everyone races from one barrier, the leader checks.  Worker 0
 * alone decides whether another round starts, so every worker passes the
 * same barriers.
 */
static void rounds(struct worker *w, const struct round_ops *ops)
{
	struct race *r = w->r;
	unsigned long n;

	for (n = 0;; n++) {
		bool lead = w->k == (ops->fixed_leader ? 0 : n % r->nworkers);

		if (w->k == 0)
			r->go = !atomic_load(&r->stop) && now_ns() < r->deadline;
		barrier(w);
		if (!r->go || atomic_load(&r->broken))
			break;
		if (lead) {
			struct round *st = &r->round;
			unsigned int i;

			st->id = st->offset = st->size = 0;
			st->pool = st->handle = 0;
			st->fd = -1;
			st->leader = w->k;
			st->fill = (unsigned char)(0x10 + (n * 13 + w->k) % 0x30);
			atomic_store(&st->posted, 0);
			atomic_store(&st->closing, 0);
			atomic_store(&st->closed, 0);
			atomic_store(&st->wins, 0);
			for (i = 0; i < MAX_WORKERS; i++)
				atomic_store(&st->imported[i], 0);
			for (i = 0; i < STORM; i++) {
				st->ids[i] = 0;
				atomic_store(&st->won[i], 0);
			}
			ops->prepare(w);
		}
		barrier(w);
		ops->race(w, lead);
		barrier(w);
		if (lead) {
			ops->check(w);
			r->rounds++;
		}
	}
}

static void no_prepare(struct worker *w)
{
}

/* ---- SUBMIT / RELEASE ---------------------------------------------------- */

enum { SR_LEADER, SR_OTHER, SR_EARLY, SR_ENOENT };

/* RELEASE of the round's plan @i that may lose: a win is counted. */
static void release_racing(struct worker *w, unsigned int i, uint64_t id,
			   unsigned int stat)
{
	if (expect(w, "RELEASE", release(w->files[0], id), E(ENOENT))) {
		atomic_fetch_add(&w->r->round.won[i], 1);
		count(w, stat);
	} else {
		count(w, SR_ENOENT);
	}
}

/* The leader's plans but the last, made before the others start. */
static void submit_release_prepare(struct worker *w)
{
	struct race *r = w->r;
	struct round *st = &r->round;
	struct tplan_submit req;
	unsigned int i;

	for (i = 0; i < STORM - 1; i++) {
		if (!expect(w, "SUBMIT", submit_size(w->files[0], PAGE, &req), 0))
			break;
		st->ids[i] = req.plan_id;
		r->last_id = req.plan_id;
	}
}

/*
 * The leader submits the round's last plan; every other worker releases
 * the id it is about to get (ids count up by one per submit of the file)
 * until the submit returns: a reserved id is not a plan yet (ENOENT), a
 * published one may be released before its SUBMIT returns.  Then, from
 * one barrier, every worker releases every plan of the round, in the same
 * order, so that they meet on each.  Exactly one RELEASE of each plan
 * wins, the others are ENOENT.
 */
static void submit_release_race(struct worker *w, bool lead)
{
	struct race *r = w->r;
	struct round *st = &r->round;
	struct tplan_submit req;
	uint64_t next = r->last_id + 1;
	unsigned int i;

	if (lead) {
		dawdle(w, 12);
		if (expect(w, "SUBMIT", submit_size(w->files[0], PAGE, &req), 0))
			st->ids[STORM - 1] = req.plan_id;
		set_flag(&st->posted);
	} else {
		while (!atomic_load(&st->posted))
			release_racing(w, STORM - 1, next, SR_EARLY);
	}
	barrier(w);
	for (i = 0; i < STORM; i++)
		release_racing(w, i, st->ids[i], lead ? SR_LEADER : SR_OTHER);
}

static void submit_release_check(struct worker *w)
{
	struct race *r = w->r;
	struct round *st = &r->round;
	uint64_t id = st->ids[STORM - 1];
	unsigned int i, won;

	if (id && id != r->last_id + 1)
		fail(w, "SUBMIT gave plan id %llu after %llu",
		     (unsigned long long)id, (unsigned long long)r->last_id);
	for (i = 0; i < STORM; i++) {
		won = atomic_load(&st->won[i]);
		if (st->ids[i] && won != 1)
			fail(w, "plan %llu released %u times",
			     (unsigned long long)st->ids[i], won);
	}
	r->last_id = id ? id : r->last_id + 1;
	check_idle(w, w->files[0], "after a round");
}

static void submit_release(struct worker *w)
{
	static const struct round_ops ops = {
		.prepare = submit_release_prepare, .race = submit_release_race,
		.check = submit_release_check,
	};

	rounds(w, &ops);
}

/* ---- RELEASE / EXPORT ---------------------------------------------------- */

enum { RE_EXPORTED, RE_ENOENT, RE_BY_OFFSET };

static void lead_plan_prepare(struct worker *w)
{
	lead_plan(w, w->files[0]);
}

/*
 * The leader releases its plan while the others export its region (by
 * pool or by mmap offset) until they are refused.  A dma-buf they get
 * holds the region: it maps the owner's bytes even after RELEASE.  An
 * EXPORT begun after the RELEASE returned must be ENOENT.
 */
static void release_export_race(struct worker *w, bool lead)
{
	struct round *st = &w->r->round;
	struct tplan_export e;
	unsigned int i;

	if (lead) {
		dawdle(w, 16);
		expect(w, "RELEASE", release(w->files[0], st->id), 0);
		set_flag(&st->closed);
		return;
	}
	for (i = 0; i < 4; i++) {
		int after = atomic_load(&st->closed);
		bool by_offset = rnd(w, 2);

		if (!expect(w, "EXPORT",
			    export_slot(w->files[0], st->id, st->pool,
					by_offset ? st->offset : 0, &e),
			    E(ENOENT))) {
			count(w, RE_ENOENT);
			break;
		}
		count(w, by_offset ? RE_BY_OFFSET : RE_EXPORTED);
		if (after)
			fail(w, "EXPORT of plan %llu succeeded after its RELEASE returned",
			     (unsigned long long)st->id);
		if (e.size != st->size)
			fail(w, "EXPORT: a dma-buf of %llu bytes, the region has %llu",
			     (unsigned long long)e.size,
			     (unsigned long long)st->size);
		else
			check_dmabuf(w, "exported region", e.fd, e.size, st->fill);
		close(e.fd);
	}
}

static void idle_check(struct worker *w)
{
	check_idle(w, w->files[0], "after a round");
}

static void release_export(struct worker *w)
{
	static const struct round_ops ops = {
		.prepare = lead_plan_prepare, .race = release_export_race,
		.check = idle_check,
	};

	rounds(w, &ops);
}

/* ---- EXPORT / close ------------------------------------------------------ */

enum { EC_EXPORTED, EC_CLOSED, EC_PROCESS_EXPORTED };

/*
 * A new file each round, with one plan, passed to every process worker
 * over its socket; the threads use the leader's descriptor.
 */
static int *proc_socks;	/* the parent's ends, by worker */

static void export_close_prepare(struct worker *w)
{
	struct race *r = w->r;
	struct round *st = &r->round;
	unsigned int k;

	st->fd = open_dev();
	lead_plan(w, st->fd);
	/* sent even without a plan: the processes wait for it */
	for (k = 1; k < r->nworkers; k += 2)
		if (send_fd(proc_socks[k], st->fd))
			fail(w, "sending the file to worker %u: %s", k,
			     strerror(errno));
}

/*
 * The threads export the round's region until their descriptor is gone
 * (the leader dup2()s /dev/null over it, so that its number is never
 * reused under them: ENOTTY then); each process exports through its own
 * descriptor of the file and closes it after a few.  When the last
 * descriptor goes, the file and its plan are released; the dma-bufs made
 * must still map the owner's bytes.
 */
static void export_close_race(struct worker *w, bool lead)
{
	struct race *r = w->r;
	struct round *st = &r->round;
	unsigned int i, last = rnd(w, 5);
	struct tplan_export e;
	int fd = st->fd;

	if (lead) {
		dawdle(w, 16);
		if (dup2(r->null_fd, st->fd) < 0)
			fail(w, "dup2: %s", strerror(errno));
		return;
	}
	if (w->process) {
		fd = recv_fd(w->sock);
		if (fd < 0) {
			fail(w, "receiving the round's file: %s",
			     strerror(errno));
			return;
		}
	}
	for (i = 0; i < 6 && !(w->process && i == last); i++) {
		if (!expect(w, "EXPORT", export_slot(fd, st->id, st->pool, 0, &e),
			    w->process ? 0 : E(ENOTTY))) {
			count(w, EC_CLOSED);
			break;
		}
		count(w, w->process ? EC_PROCESS_EXPORTED : EC_EXPORTED);
		check_dmabuf(w, "region of a closing file", e.fd, st->size,
			     st->fill);
		close(e.fd);
	}
	if (w->process)
		close(fd);
}

static void export_close_check(struct worker *w)
{
	struct race *r = w->r;
	long refs;

	if (close(r->round.fd))
		fail(w, "close: %s", strerror(errno));
	check_idle(w, w->files[0], "after the round's file went");
	refs = module_refs();
	if (r->module_base >= 0 && refs != r->module_base)
		fail(w, "module count %ld after the round, %ld before", refs,
		     r->module_base);
}

static void export_close(struct worker *w)
{
	static const struct round_ops ops = {
		.fixed_leader = true, .prepare = export_close_prepare,
		.race = export_close_race, .check = export_close_check,
	};

	rounds(w, &ops);
}

/* ---- GEM_CLOSE / mmap ------------------------------------------------------ */

enum { GM_MAPPED, GM_EACCES, GM_EINVAL };

/*
 * Two workers close the region's handle (one wins, the other gets EINVAL)
 * while the others map the region at its offset: a mapping made shows the
 * owner's bytes and keeps the object; one begun after a close returned is
 * refused, EACCES while a mapping keeps the object, EINVAL once it is
 * gone.  RELEASE still gives the plan back afterwards.
 */
static void gem_close_mmap_race(struct worker *w, bool lead)
{
	struct race *r = w->r;
	struct round *st = &r->round;
	unsigned int second = r->nworkers > 2 ? (st->leader + 1) % r->nworkers :
						st->leader;
	unsigned char *maps[4];
	unsigned int i, n = 0;

	if (lead || w->k == second) {
		dawdle(w, 14);
		if (expect(w, "GEM_CLOSE", gem_close(w->files[0], st->handle),
			   E(EINVAL))) {
			atomic_fetch_add(&st->wins, 1);
			set_flag(&st->closed);
		}
		return;
	}
	for (i = 0; i < 4; i++) {
		int after = atomic_load(&st->closed);
		unsigned char *p = map_rw(w->files[0], st->offset, st->size);

		if (p == MAP_FAILED) {
			int err = errno;

			expect(w, "mmap", -1, E(EACCES) | E(EINVAL));
			count(w, err == EACCES ? GM_EACCES : GM_EINVAL);
			break;
		}
		count(w, GM_MAPPED);
		if (after)
			fail(w, "mmap through a closed handle succeeded");
		check_filled(w, "region mapped while its handle closes", p,
			     st->size, st->fill);
		maps[n++] = p;
	}
	while (n)
		munmap(maps[--n], st->size);
}

static void gem_close_mmap_check(struct worker *w)
{
	struct round *st = &w->r->round;
	unsigned int wins = atomic_load(&st->wins);

	if (wins != 1)
		fail(w, "GEM_CLOSE of handle %u succeeded %u times", st->handle,
		     wins);
	expect(w, "RELEASE after GEM_CLOSE", release(w->files[0], st->id), 0);
	check_idle(w, w->files[0], "after a round");
}

static void gem_close_mmap(struct worker *w)
{
	static const struct round_ops ops = {
		.prepare = lead_plan_prepare, .race = gem_close_mmap_race,
		.check = gem_close_mmap_check,
	};

	rounds(w, &ops);
}

/* ---- PRIME / close ------------------------------------------------------- */

enum { PC_TO_FD, PC_TO_HANDLE, PC_REFUSED, PC_NEW_HANDLE, PC_PROCESS };

/*
 * The leader's region exported with PRIME_HANDLE_TO_FD; the dma-buf's
 * descriptor goes to every process worker over its socket.
 */
static void prime_close_prepare(struct worker *w)
{
	struct race *r = w->r;
	struct round *st = &r->round;
	unsigned int k;
	int fd = -1;

	if (lead_plan(w, w->files[0]) &&
	    expect(w, "PRIME_HANDLE_TO_FD", handle_to_fd(w->files[0], st->handle,
							 &fd), 0)) {
		st->fd = fd;
		st->ino = inode_of(fd);
	}
	for (k = 1; k < r->nworkers; k += 2)
		if (send_fd(proc_socks[k], st->fd >= 0 ? st->fd : r->null_fd))
			fail(w, "sending the dma-buf to worker %u: %s", k,
			     strerror(errno));
}

/* The leader closes the region's handle: whoever sees closing unset ... */
static void prime_close_handle(struct worker *w)
{
	struct round *st = &w->r->round;

	atomic_store(&st->closing, 1);
	expect(w, "GEM_CLOSE", gem_close(w->files[0], st->handle), 0);
	set_flag(&st->closed);
}

/*
 * ... knows the handle was open throughout their call: handle-to-fd must
 * give the region's dma-buf, and fd-to-handle in this file the region's
 * own handle.  Once the handle is closed, an import makes a new one (the
 * leader closes those at the end of the round).
 */
static void prime_thread(struct worker *w)
{
	struct round *st = &w->r->round;
	uint32_t h;
	unsigned char *p;
	int ret, fd;

	if (rnd(w, 2)) {
		ret = handle_to_fd(w->files[0], st->handle, &fd);
		if (ret && !atomic_load(&st->closing))
			fail(w, "PRIME_HANDLE_TO_FD of an open handle: %s",
			     strerror(errno));
		if (!expect(w, "PRIME_HANDLE_TO_FD", ret, E(ENOENT))) {
			count(w, PC_REFUSED);
			return;
		}
		count(w, PC_TO_FD);
		if (inode_of(fd) != st->ino)
			fail(w, "PRIME_HANDLE_TO_FD gave another dma-buf");
		check_dmabuf(w, "dma-buf of a closing handle", fd, st->size,
			     st->fill);
		close(fd);
		return;
	}
	/* a descriptor the leader dup2()s /dev/null over: EINVAL then */
	ret = fd_to_handle(w->files[0], st->fd, &h);
	if (!expect(w, "PRIME_FD_TO_HANDLE", ret, E(EINVAL))) {
		count(w, PC_REFUSED);
		return;
	}
	count(w, PC_TO_HANDLE);
	if (h != st->handle && !atomic_load(&st->closing))
		fail(w, "PRIME_FD_TO_HANDLE in the exporting file gave handle %u, not the region's %u",
		     h, st->handle);
	if (h != st->handle) {
		count(w, PC_NEW_HANDLE);
		atomic_store(&st->imported[w->k], h);
	}
	p = map_rw(w->files[0], st->offset, st->size);
	if (p == MAP_FAILED) {
		expect(w, "mmap of an imported region", -1, E(EACCES) | E(EINVAL));
		return;
	}
	check_filled(w, "region imported while its handle closes", p,
		     st->size, st->fill);
	munmap(p, st->size);
}

/*
 * A process imports the dma-buf into its own file, maps the region
 * through it and exports it again: none of which the owner's closing
 * handle and descriptor may disturb.
 */
static void prime_process(struct worker *w)
{
	struct round *st = &w->r->round;
	int dbfd = recv_fd(w->sock), again;
	unsigned char *p;
	uint32_t h;

	if (dbfd < 0) {
		fail(w, "receiving the dma-buf: %s", strerror(errno));
		return;
	}
	if (!expect(w, "PRIME_FD_TO_HANDLE in another file",
		    fd_to_handle(w->own, dbfd, &h), 0))
		goto out;
	count(w, PC_PROCESS);
	p = map_rw(w->own, st->offset, st->size);
	if (p == MAP_FAILED) {
		fail(w, "mmap of a region imported read-write: %s",
		     strerror(errno));
	} else {
		check_filled(w, "region imported by another process", p,
			     st->size, st->fill);
		munmap(p, st->size);
	}
	if (expect(w, "PRIME_HANDLE_TO_FD of an import",
		   handle_to_fd(w->own, h, &again), 0)) {
		if (inode_of(again) != inode_of(dbfd))
			fail(w, "an import exported again is another dma-buf");
		close(again);
	}
	expect(w, "GEM_CLOSE of an import", gem_close(w->own, h), 0);
out:
	close(dbfd);
}

static void prime_close_race(struct worker *w, bool lead)
{
	struct race *r = w->r;
	struct round *st = &r->round;
	unsigned int i;

	if (lead) {
		bool handle_first = rnd(w, 2);

		dawdle(w, 16);
		if (handle_first)
			prime_close_handle(w);
		dawdle(w, 14);
		if (dup2(r->null_fd, st->fd) < 0)
			fail(w, "dup2: %s", strerror(errno));
		if (!handle_first)
			prime_close_handle(w);
		return;
	}
	if (w->process) {
		prime_process(w);
		return;
	}
	for (i = 0; i < 4 && st->fd >= 0; i++)
		prime_thread(w);
}

static void prime_close_check(struct worker *w)
{
	struct race *r = w->r;
	struct round *st = &r->round;
	unsigned int k;

	if (st->fd >= 0)
		close(st->fd);
	expect(w, "RELEASE after GEM_CLOSE", release(w->files[0], st->id), 0);
	/* handles imports made after the close; RELEASE closed some */
	for (k = 0; k < r->nworkers; k++)
		if (atomic_load(&st->imported[k]))
			expect(w, "GEM_CLOSE of an import",
			       gem_close(w->files[0], st->imported[k]), E(EINVAL));
	check_idle(w, w->files[0], "after a round");
}

static void prime_close(struct worker *w)
{
	static const struct round_ops ops = {
		.fixed_leader = true, .prepare = prime_close_prepare,
		.race = prime_close_race, .check = prime_close_check,
	};

	rounds(w, &ops);
}

/* ---- serial groups ------------------------------------------------------- */

enum { GJ_STORED, GJ_REUSED, GJ_ENOSPC, GJ_LEFT };

#define GROUP	7	/* the same group id in both files */

/* What a file's workers write: its own bytes, never seen by the other. */
static unsigned char kept_tag(unsigned int file, unsigned int key)
{
	return (unsigned char)(0xa0 + file * 0x10 + key);
}

static unsigned char scratch_tag(unsigned int file)
{
	return (unsigned char)(0xe0 + file);
}

/*
 * Maps @size bytes at @offset: zero or @tag throughout (a sibling of this
 * file may have written it), then this worker's @tag, read back.
 */
static void touch_tagged(struct worker *w, const char *what, int fd,
			 uint64_t offset, uint64_t size, unsigned char tag)
{
	unsigned char *p = map_rw(fd, offset, size);

	if (p == MAP_FAILED) {
		fail(w, "mmap of %s (%llu bytes, as SUBMIT reported): %s", what,
		     (unsigned long long)size, strerror(errno));
		return;
	}
	if (check_either(w, what, p, size, 0, tag)) {
		memset(p, tag, size);
		check_either(w, what, p, size, tag, tag);
	}
	munmap(p, size);
}

/*
 * The plan's object of the group's scratch region has the size SUBMIT
 * reported (docs/DRIVER.md): its dma-buf says so.  A later join may grow
 * the region, never this plan's object.
 */
static void check_scratch_size(struct worker *w, int fd,
			       const struct tplan_submit *req, uint32_t pool)
{
	struct tplan_export e;

	if (!expect(w, "EXPORT of a group plan's scratch",
		    export_slot(fd, req->plan_id, pool, 0, &e), 0))
		return;
	if (e.size != req->regions[pool].region_size)
		fail(w, "SUBMIT reported a scratch region of %llu bytes, its object has %llu",
		     (unsigned long long)req->regions[pool].region_size,
		     (unsigned long long)e.size);
	close(e.fd);
}

/*
 * A plan joins the file's group: one kept tensor (one of two keys) and
 * scratch of one to four pages (the region grows in place when it can).
 * A key is stored anew or reused, never anything else; its bytes and the
 * scratch region's are this file's.
 */
static bool group_join(struct worker *w, int fd, unsigned int file,
		       uint64_t *id)
{
	unsigned int key = rnd(w, 2);
	struct tplan_tensor_desc t[2] = {
		{ .id = 1, .upper = 1, .size = PAGE, .alignment = 1,
		  .share_key = 100 + key },
		{ .id = 2, .upper = 1, .size = PAGE * (1 + rnd(w, 4)),
		  .alignment = 1 },
	};
	struct tplan_submit req;

	if (!expect(w, "SUBMIT into a group", group_submit(fd, GROUP, t, 2, &req),
		    E(ENOSPC) | E(EMFILE))) {
		count(w, GJ_ENOSPC);
		return false;
	}
	*id = req.plan_id;
	if (req.shared_bytes != 0 && req.shared_bytes != PAGE)
		fail(w, "a join stored %llu bytes of one 4096-byte key",
		     (unsigned long long)req.shared_bytes);
	count(w, req.shared_bytes ? GJ_STORED : GJ_REUSED);
	check_scratch_size(w, fd, &req, t[1].pool);
	touch_tagged(w, "a kept tensor", fd, t[0].mmap_offset, PAGE,
		     kept_tag(file, key));
	touch_tagged(w, "the group's scratch region", fd, t[1].mmap_offset,
		     req.regions[t[1].pool].region_size, scratch_tag(file));
	return true;
}

/*
 * Joins and leaves of group GROUP in two files at once: workers of one
 * file race each other on its group (members, keys, scratch growth), the
 * two files race on the device (pools, key counts).
 */
static void group_join_leave(struct worker *w)
{
	struct race *r = w->r;
	unsigned int file = (r->nworkers >= 4 ? w->k >> 1 : w->k) & 1;
	int fd = w->files[file];
	uint64_t held[2];
	unsigned int n = 0, i;

	while (!atomic_load(&r->stop) && now_ns() < r->deadline) {
		if (n < 2 && (!n || rnd(w, 2))) {
			if (group_join(w, fd, file, &held[n]))
				n++;
			continue;
		}
		i = rnd(w, n);
		expect(w, "RELEASE of a group plan", release(fd, held[i]), 0);
		held[i] = held[--n];
		count(w, GJ_LEFT);
	}
	while (n)
		expect(w, "RELEASE of a group plan", release(fd, held[--n]), 0);
}

enum { GG_JOINED, GG_ON_LARGER };

/*
 * Maps all @size bytes of a scratch region, as SUBMIT reported them; the
 * last page, the newest grown, must be zero or this file's and is written
 * (the whole region costs too much time under TCG, and group_join_leave
 * checks every byte).
 */
static void touch_tail(struct worker *w, int fd, uint64_t offset,
		       uint64_t size)
{
	unsigned char *p = map_rw(fd, offset, size);

	if (p == MAP_FAILED) {
		fail(w, "mmap of a growing scratch region (%llu bytes, as SUBMIT reported): %s",
		     (unsigned long long)size, strerror(errno));
		return;
	}
	if (check_either(w, "a grown scratch region", p + size - PAGE, PAGE, 0,
			 scratch_tag(0)))
		memset(p + size - PAGE, scratch_tag(0), PAGE);
	munmap(p, size);
}

/* Joins a worker makes in one group_grow round, each larger than the last. */
#define GROW_JOINS	3

/*
 * Every worker joins the round's new group of the shared file at once,
 * GROW_JOINS times, its scratch larger each time, without kept tensors
 * (nothing blocks the region's growth): most joins grow the region while
 * other members' SUBMITs are returning.  Each plan's object must have the
 * size its SUBMIT reported and map it all, the grown bytes must be fresh
 * or this file's.  Two workers per CPU: under voluntary preemption a
 * thread that lets the file's lock go loses its CPU to the joiner it woke
 * only when they share one, and that is when a SUBMIT used to report the
 * size of a region another join had grown meanwhile (QEMU, 4 vCPUs: 3 of
 * 3 runs of 3 s caught it, 1 of 3 with a worker per CPU).
 */
static void group_grow_race(struct worker *w, bool lead)
{
	struct race *r = w->r;
	uint32_t group = 1000 + r->rounds % 1000;
	uint64_t ids[GROW_JOINS] = { 0 }, pages, size;
	struct tplan_tensor_desc t;
	struct tplan_submit req;
	unsigned int j;

	for (j = 0; j < GROW_JOINS; j++) {
		pages = 1 + (w->k + r->rounds) % 8 + j * 8;	/* pool 0 holds it */
		t = (struct tplan_tensor_desc){
			.id = 1, .upper = 1, .size = pages * PAGE, .alignment = 1,
		};
		dawdle(w, 8);
		if (!expect(w, "SUBMIT into a new group",
			    group_submit(w->files[0], group, &t, 1, &req), 0))
			break;
		ids[j] = req.plan_id;
		count(w, GG_JOINED);
		size = req.regions[t.pool].region_size;
		if (size > pages * PAGE)
			count(w, GG_ON_LARGER);
		check_scratch_size(w, w->files[0], &req, t.pool);
		if (j == GROW_JOINS - 1)	/* the joins close together */
			touch_tail(w, w->files[0], t.mmap_offset, size);
	}
	/*
	 * Nobody leaves before everyone has joined: a group whose last member
	 * left is forgotten at once but frees its region only after its plans
	 * go, so a join meanwhile makes a second group and region, whose growth
	 * the first one's may block (-ENOSPC, as documented).  group_join_leave
	 * races joins with leaves.
	 */
	barrier(w);
	for (j = 0; j < GROW_JOINS && ids[j]; j++)
		expect(w, "RELEASE of a group plan",
		       release(w->files[0], ids[j]), 0);
}

static void group_grow(struct worker *w)
{
	static const struct round_ops ops = {
		.prepare = no_prepare, .race = group_grow_race,
		.check = idle_check,
	};

	rounds(w, &ops);
}

/* ---- mmap / RELEASE ------------------------------------------------------ */

enum { MR_MAPPED, MR_REFUSED, MR_KEPT, MR_OWN_PLAN };

/*
 * Another plan beside the released one: fresh bytes, and its own.  It is
 * made in the second file: the released region's fake offset, once its
 * object is gone, may be handed to the new object (as in any GEM driver),
 * and a mapping of that offset through the file holding the new object
 * would rightly map the new bytes.
 */
static void own_plan(struct worker *w)
{
	unsigned char tag = (unsigned char)(0x40 | w->k), *p;
	struct tplan_submit req;
	uint64_t size;

	if (!expect(w, "SUBMIT", submit_size(w->files[1], PAGE * (1 + rnd(w, 2)),
					     &req), 0))
		return;
	count(w, MR_OWN_PLAN);
	size = region_of(&req)->region_size;
	p = map_rw(w->files[1], region_of(&req)->mmap_offset, size);
	if (p == MAP_FAILED) {
		fail(w, "mmap of a new plan: %s", strerror(errno));
	} else {
		if (check_fresh(w, "a plan made beside a released one", p, size)) {
			memset(p, tag, size);
			check_either(w, "a plan made beside a released one", p,
				     size, tag, tag);
		}
		munmap(p, size);
	}
	expect(w, "RELEASE", release(w->files[1], req.plan_id), 0);
}

/*
 * The leader releases its plan while the others map its region, touch it
 * and make plans of their own.  A mapping made keeps the region, its
 * bytes the owner's and this worker's, past the RELEASE; a mapping begun
 * after the RELEASE returned is refused; new plans never get those bytes.
 */
static void mmap_release_race(struct worker *w, bool lead)
{
	struct round *st = &w->r->round;
	unsigned char *kept = NULL, *p;
	unsigned int i;

	if (lead) {
		dawdle(w, 16);
		expect(w, "RELEASE", release(w->files[0], st->id), 0);
		set_flag(&st->closed);
		return;
	}
	for (i = 0; i < 3; i++) {
		int after = atomic_load(&st->closed);

		p = map_rw(w->files[0], st->offset, st->size);
		if (p == MAP_FAILED) {
			expect(w, "mmap", -1, E(EACCES) | E(EINVAL));
			count(w, MR_REFUSED);
			break;
		}
		count(w, MR_MAPPED);
		if (after)
			fail(w, "mmap of a released plan's region succeeded");
		check_filled(w, "region mapped while released", p, st->size,
			     st->fill);
		if (kept)
			munmap(p, st->size);
		else
			kept = p;
	}
	if (rnd(w, 2))
		own_plan(w);
	if (!kept)
		return;
	wait_flag(&st->closed);
	count(w, MR_KEPT);
	check_filled(w, "region kept by a mapping after RELEASE", kept,
		     st->size, st->fill);
	munmap(kept, st->size);
}

static void mmap_release(struct worker *w)
{
	static const struct round_ops ops = {
		.prepare = lead_plan_prepare, .race = mmap_release_race,
		.check = idle_check,
	};

	rounds(w, &ops);
}

/* ---- dma-bufs and the module --------------------------------------------- */

enum { DM_HELD, DM_FILE_FIRST };

/*
 * Every worker opens a file, exports a new plan's region and closes the
 * file (before or after mapping the dma-buf): the dma-buf alone then
 * holds a reference on the module, and the region, fresh, its bytes.
 */
static void dmabuf_module_ref_race(struct worker *w, bool lead)
{
	struct race *r = w->r;
	unsigned char tag = (unsigned char)(0x40 | w->k), *p;
	bool file_first = rnd(w, 2);
	struct tplan_submit req;
	struct tplan_export e;
	int fd = open_dev();
	long refs;

	if (!expect(w, "SUBMIT", submit_size(fd, PAGE, &req), 0) ||
	    !expect(w, "EXPORT", export_slot(fd, req.plan_id, pool_of(&req),
					     0, &e), 0)) {
		close(fd);
		return;
	}
	if (file_first) {
		close(fd);
		count(w, DM_FILE_FIRST);
	}
	p = map_rw(e.fd, 0, e.size);
	if (p == MAP_FAILED) {
		fail(w, "mmap of a dma-buf: %s", strerror(errno));
	} else {
		if (check_fresh(w, "a new plan's dma-buf", p, e.size)) {
			memset(p, tag, e.size);
			check_either(w, "a new plan's dma-buf", p, e.size, tag,
				     tag);
		}
		munmap(p, e.size);
	}
	if (!file_first)
		close(fd);
	refs = module_refs();
	if (r->module_base >= 0 && refs < r->module_base + 1)
		fail(w, "module count %ld with a dma-buf held, %ld without",
		     refs, r->module_base);
	count(w, DM_HELD);
	close(e.fd);
}

static void module_ref_check(struct worker *w)
{
	struct race *r = w->r;
	long refs = module_refs();

	if (r->module_base >= 0 && refs != r->module_base)
		fail(w, "module count %ld after the round, %ld before", refs,
		     r->module_base);
	check_idle(w, w->files[0], "after a round");
}

static void dmabuf_module_ref(struct worker *w)
{
	static const struct round_ops ops = {
		.prepare = no_prepare, .race = dmabuf_module_ref_race,
		.check = module_ref_check,
	};

	rounds(w, &ops);
}

/* ---- --hold-dmabuf --------------------------------------------------------- */

/* The dma-bufs held, one per worker, with no file of the device open. */
static struct held {
	int fd;
	uint64_t size;
	unsigned char fill;
} held[MAX_WORKERS];

enum { HD_TOUCHED, HD_CLOSED, HD_REFUSED };

/*
 * The kernel's half of rmmod: delete_module(2), which must be refused
 * (EWOULDBLOCK) while a dma-buf of the device is alive, for it holds the
 * module.  (kmod's rmmod refuses by itself while /sys/module/tplan/refcnt
 * is not 0, without asking the kernel.)  A success here unloads the module
 * under live dma-bufs: the kernel will most likely crash when they go.
 */
static void try_unload(struct worker *w)
{
	if (!syscall(SYS_delete_module, "tplan", O_NONBLOCK))
		fail(w, "delete_module(tplan) succeeded with dma-bufs held");
	else if (errno != EWOULDBLOCK)
		fail(w, "delete_module(tplan): %s, not EWOULDBLOCK",
		     strerror(errno));
	else
		count(w, HD_REFUSED);
}

/*
 * A worker maps its dma-buf over and over (the owner's bytes, its marker
 * read back) and tries to unload the module, until its time is up; all
 * but worker 0 then close theirs, at random times.  Worker 0's stays
 * open past the others, so every unload tried meets a dma-buf.
 */
static void hold_dmabuf(struct worker *w)
{
	struct race *r = w->r;
	uint64_t now = now_ns(), until = r->deadline;
	struct held *h = &held[w->k];
	unsigned int k;
	unsigned char *p;

	if (w->process)		/* only its own; the parent closed it */
		for (k = 0; k < r->nworkers; k++)
			if (k != w->k)
				close(held[k].fd);
	if (w->k && until > now)
		until = now + splitmix(&w->rnd) % (until - now);
	while (now_ns() < until && !atomic_load(&r->stop)) {
		p = map_rw(h->fd, 0, h->size);
		if (p == MAP_FAILED) {
			fail(w, "mmap of a held dma-buf: %s", strerror(errno));
			break;
		}
		check_filled(w, "a held dma-buf", p, h->size, h->fill);
		munmap(p, h->size);
		count(w, HD_TOUCHED);
		try_unload(w);
		usleep(1000);	/* leave the CPUs to the script's rmmod too */
	}
	if (w->k) {
		close(h->fd);
		count(w, HD_CLOSED);
	}
}

/* The parent keeps no copy of the dma-bufs the process workers hold. */
static void hold_forked(struct race *r)
{
	unsigned int k;

	for (k = 1; k < r->nworkers; k += 2)
		close(held[k].fd);
}

/* ---- workers --------------------------------------------------------------- */

static void *thread_main(void *arg)
{
	struct worker *w = arg;

	w->r->pair->work(w);
	return NULL;
}

/*
 * A forked worker: every fourth gets the shared files over its socket
 * instead of keeping the inherited descriptors.
 */
static void __attribute__((noreturn)) process_main(struct worker *w)
{
	const struct pair *pair = w->r->pair;
	unsigned int i;

	for (i = 0; w->k % 4 == 3 && i < 2; i++) {
		if (w->files[i] < 0)
			continue;
		close(w->files[i]);
		w->files[i] = recv_fd(w->sock);
		if (w->files[i] < 0)
			fail(w, "receiving the shared file: %s", strerror(errno));
	}
	if (pair->own_file)
		w->own = open_dev();
	pair->work(w);
	_exit(0);
}

/* The parent's view of a worker that died. */
static void parent_fail(struct race *r, const char *fmt, ...)
{
	unsigned int i = atomic_fetch_add(&r->nfail, 1);
	va_list ap;

	if (i < MAX_WHY) {
		va_start(ap, fmt);
		vsnprintf(r->why[i], sizeof(r->why[i]), fmt, ap);
		va_end(ap);
	}
	atomic_store(&r->stop, 1);
}

/*
 * Runs the pair's work on r->nworkers workers: odd ones forked first (the
 * parent has no threads yet), even ones as threads of this process.  A
 * process that dies breaks the barriers, so that nobody waits for it.
 */
static void run_workers(struct race *r)
{
	static struct worker w[MAX_WORKERS];
	static int socks[MAX_WORKERS];
	pthread_t tid[MAX_WORKERS];
	pid_t pid[MAX_WORKERS];
	unsigned int k, i;
	int s[2], status;

	proc_socks = socks;
	for (k = 0; k < r->nworkers; k++) {
		uint64_t seed = r->seed ^ ((uint64_t)k << 48);

		w[k] = (struct worker){
			.r = r, .k = k, .process = k & 1, .sock = -1, .own = -1,
			.files = { r->files[0], r->files[1] },
			.rnd = splitmix(&seed),
		};
		socks[k] = -1;
	}
	fflush(NULL);
	for (k = 1; k < r->nworkers; k += 2) {
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, s)) {
			perror("socketpair");
			exit(2);
		}
		pid[k] = fork();
		if (pid[k] < 0) {
			perror("fork");
			exit(2);
		}
		if (!pid[k]) {
			for (i = 1; i < k; i += 2)
				close(socks[i]);
			close(s[0]);
			w[k].sock = s[1];
			process_main(&w[k]);
		}
		close(s[1]);
		socks[k] = s[0];
		for (i = 0; k % 4 == 3 && i < 2; i++)
			if (r->files[i] >= 0 && send_fd(s[0], r->files[i]))
				parent_fail(r, "sending a file: %s", strerror(errno));
	}
	if (r->pair->forked)
		r->pair->forked(r);
	for (k = 0; k < r->nworkers; k += 2)
		if (pthread_create(&tid[k], NULL, thread_main, &w[k])) {
			perror("pthread_create");
			exit(2);
		}
	for (k = 1; k < r->nworkers; k += 2) {
		if (waitpid(pid[k], &status, 0) != pid[k] ||
		    !WIFEXITED(status) || WEXITSTATUS(status)) {
			parent_fail(r, "worker %u (process) died: status %#x", k,
				    status);
			atomic_store(&r->broken, 1);
		}
		close(socks[k]);
	}
	for (k = 0; k < r->nworkers; k += 2)
		pthread_join(tid[k], NULL);
}

/* ---- the pairs ------------------------------------------------------------- */

static const struct pair pairs[] = {
	{ .name = "submit_release", .work = submit_release,
	  .stats = { "leader's release won", "another's won",
		     "a release before SUBMIT returned won", "refused" } },
	{ .name = "release_export", .work = release_export,
	  .stats = { "exported by pool", "refused", "exported by offset" } },
	{ .name = "export_close", .work = export_close,
	  .stats = { "exported by a thread", "refused once closed",
		     "exported by a process" } },
	{ .name = "gem_close_mmap", .work = gem_close_mmap,
	  .stats = { "mapped", "EACCES", "EINVAL" } },
	{ .name = "prime_close", .work = prime_close, .own_file = true,
	  .stats = { "handle to fd", "fd to handle", "refused",
		     "new handle after the close", "imported by a process" } },
	{ .name = "group_join_leave", .work = group_join_leave,
	  .two_files = true,
	  .stats = { "key stored", "key reused", "ENOSPC", "left" } },
	{ .name = "group_grow", .work = group_grow, .doubled = true,
	  .stats = { "joined", "on a region grown past its own" } },
	{ .name = "mmap_release", .work = mmap_release, .two_files = true,
	  .stats = { "mapped", "refused", "kept across RELEASE",
		     "plans beside" } },
	{ .name = "dmabuf_module_ref", .work = dmabuf_module_ref,
	  .stats = { "dma-bufs held alone", "file closed before the mapping" } },
};

static const struct pair hold_pair = {
	.name = "hold_dmabuf", .work = hold_dmabuf, .forked = hold_forked,
	.stats = { "touched", "closed", "unload refused" },
};

static struct race *shared;
static unsigned int nworkers, seconds = 3;
static uint64_t base_seed;

/* Opens what the pair's workers share and runs them for its time. */
static void start_pair(struct race *r, const struct pair *pair, uint64_t seed,
		       unsigned int secs)
{
	memset(r, 0, sizeof(*r));
	r->pair = pair;
	r->nworkers = nworkers;
	if (pair->doubled && nworkers * 2 <= MAX_WORKERS)
		r->nworkers = nworkers * 2;
	r->seed = seed;
	r->files[0] = open_dev();
	r->files[1] = pair->two_files ? open_dev() : -1;
	r->null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	r->module_base = module_refs();
	r->deadline = now_ns() + (uint64_t)secs * 1000000000ull;
	run_workers(r);
}

/* The pair's line: its counts when it passed, what failed when not. */
static void report_pair(struct race *r, const struct pair *pair, uint64_t ns)
{
	unsigned int i, n = atomic_load(&r->nfail);
	char line[512];
	int len = 0;

	for (i = 0; i < NSTAT && pair->stats[i]; i++)
		len += snprintf(line + len, sizeof(line) - len, "%s%s %lu",
				i ? ", " : "", pair->stats[i],
				atomic_load(&r->stat[i]));
	if (!n) {
		printf("ok   race.%s (%u workers, %lu rounds, %.1f s: %s)\n",
		       pair->name, r->nworkers, r->rounds, ns / 1e9, line);
		passed++;
		return;
	}
	printf("FAIL race.%s: %s\n", pair->name, r->why[0]);
	for (i = 1; i < n && i < MAX_WHY; i++)
		printf("     %s\n", r->why[i]);
	printf("     %u failures; %lu rounds; %s\n", n, r->rounds, line);
	failed++;
}

/*
 * One pair: its workers, then the device must be idle: the shared files
 * hold no plan, every pool is one free region, debugfs lists no plan
 * alive and no key.
 */
static void run_pair(const struct pair *pair, unsigned int index)
{
	struct race *r = shared;
	struct worker me = { .r = r, .k = ~0u };
	uint64_t start = now_ns();
	const char *busy;
	char line[256];
	unsigned int i;

	current = pair->name;
	start_pair(r, pair, base_seed ^ ((uint64_t)index << 32), seconds);
	for (i = 0; i < 2; i++)
		if (r->files[i] >= 0)
			check_idle(&me, r->files[i], "after the workers");
	busy = debugfs_busy(line, sizeof(line));
	if (busy)
		fail(&me, "debugfs after the workers: %s", busy);
	for (i = 0; i < 2; i++)
		if (r->files[i] >= 0)
			close(r->files[i]);
	close(r->null_fd);
	report_pair(r, pair, now_ns() - start);
}

/*
 * --hold-dmabuf: one plan per worker exported and the file closed; the
 * workers touch their dma-bufs for @secs, all but one closing theirs at a
 * random time.  "holding" is printed once no file of the device is open,
 * "releasing" just before the last dma-buf is closed.
 */
static int hold_mode(unsigned int secs, uint64_t seed)
{
	struct race *r = shared;
	struct worker me = { .r = r, .k = ~0u };
	struct tplan_submit req;
	struct tplan_export e;
	unsigned int k;
	unsigned char *p;
	int fd = open_dev();
	long refs;

	memset(r, 0, sizeof(*r));
	r->nworkers = nworkers;
	for (k = 0; k < nworkers; k++) {
		held[k].fill = (unsigned char)(0x10 + k);
		if (!expect(&me, "SUBMIT", submit_size(fd, 2 * PAGE, &req), 0) ||
		    !expect(&me, "EXPORT", export_slot(fd, req.plan_id,
						      pool_of(&req), 0, &e), 0))
			break;
		held[k].fd = e.fd;
		held[k].size = e.size;
		p = map_rw(e.fd, 0, e.size);
		if (p == MAP_FAILED) {
			fail(&me, "mmap of a dma-buf: %s", strerror(errno));
			break;
		}
		memset(p, held[k].fill, e.size);
		munmap(p, e.size);
	}
	close(fd);
	if (atomic_load(&r->nfail)) {
		report_pair(r, &hold_pair, 0);
		return 1;
	}
	printf("race_e2e: holding %u dma-bufs, no file of the device open (module count %ld)\n",
	       nworkers, module_refs());
	r->pair = &hold_pair;
	r->seed = seed;
	r->files[0] = r->files[1] = -1;
	r->deadline = now_ns() + (uint64_t)secs * 1000000000ull;
	run_workers(r);
	p = map_rw(held[0].fd, 0, held[0].size);
	if (p == MAP_FAILED)
		fail(&me, "mmap of the last dma-buf: %s", strerror(errno));
	else
		check_filled(&me, "the last dma-buf", p, held[0].size,
			     held[0].fill);
	if (p != MAP_FAILED)
		munmap(p, held[0].size);
	/* each dma-buf holds the module once: one left, one reference */
	refs = module_refs();
	if (refs != 1)
		fail(&me, "module count %ld with one dma-buf left", refs);
	try_unload(&me);
	printf("race_e2e: releasing the last dma-buf\n");
	close(held[0].fd);
	refs = module_refs();
	if (refs != 0)
		fail(&me, "module count %ld with no dma-buf left", refs);
	report_pair(r, &hold_pair, (uint64_t)secs * 1000000000ull);
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: race_e2e [--seconds N] [--seed N] [--workers N] [--only NAME]\n"
		"                [--hold-dmabuf SECONDS] [DEVICE]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *only = NULL;
	unsigned int hold = 0, i, run = 0;
	uint64_t seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	nworkers = cpus < 2 ? 2 : cpus > MAX_WORKERS ? MAX_WORKERS : (unsigned int)cpus;
	for (i = 1; i < (unsigned int)argc; i++) {
		const char *a = argv[i], *v = i + 1 < (unsigned int)argc ? argv[i + 1] : NULL;

		if (a[0] != '-') {
			device = a;
			continue;
		}
		if (!v)
			usage();
		if (!strcmp(a, "--seconds"))
			seconds = (unsigned int)strtoul(v, NULL, 0);
		else if (!strcmp(a, "--seed"))
			seed = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--workers"))
			nworkers = (unsigned int)strtoul(v, NULL, 0);
		else if (!strcmp(a, "--only"))
			only = v;
		else if (!strcmp(a, "--hold-dmabuf"))
			hold = (unsigned int)strtoul(v, NULL, 0);
		else
			usage();
		i++;
	}
	if (nworkers < 2 || nworkers > MAX_WORKERS)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	printf("race_e2e: seed %llu, %u workers (threads %u, processes %u) on %ld CPUs, %u s per pair\n",
	       (unsigned long long)seed, nworkers, (nworkers + 1) / 2,
	       nworkers / 2, cpus, hold ? hold : seconds);
	if (hold)
		return hold_mode(hold, seed);
	base_seed = seed;
	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		if (only && !strstr(only, pairs[i].name))
			continue;
		run_pair(&pairs[i], i);
		run++;
	}
	if (!run)
		usage();
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
