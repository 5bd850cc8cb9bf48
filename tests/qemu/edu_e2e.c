// SPDX-License-Identifier: MIT
/*
 * edu_e2e.c - end-to-end tests of tplan_edu, the driver of QEMU's edu PCI
 * device (uapi/linux/tplan_edu.h), run inside a QEMU guest whose edu device
 * sits behind VT-d (tests/qemu/edu-guest.sh): plans made on the edu node
 * with tplan's SUBMIT, their regions mapped and filled with patterns, then
 * jobs (TPLAN_EDU_IOC_JOB) whose copies the DMA engine carries out between
 * regions and the process's own memory.  After every job each byte of every
 * buffer involved is compared with a shadow copy to which the job's copies
 * were applied in order, so that a byte written outside a copy's range is
 * found as surely as one missing inside it.  Also: the fence (a sync_file,
 * polled, its status read with SYNC_IOC_FILE_INFO), jobs in submission
 * order, a plan released and unmapped while its job runs, a file closed with
 * a job in flight, a deadline too short, a file opened read-only (-EACCES
 * for a region destination), a full queue (-EAGAIN past
 * TPLAN_EDU_MAX_QUEUED jobs) and every errno the header lists with nothing
 * queued after it.
 *
 *   edu_e2e [/dev/accel/accelN]
 *
 * Without an argument the node is the accel device whose driver
 * (/sys/class/accel/accelN/device/driver) is tplan_edu.  Each 4 KiB transfer
 * of the edu device takes 100 ms and a copy needs two per 4 KiB (memory to
 * the device's buffer and back), so the tests move a few KiB each: the whole
 * run keeps the device busy for about 20 s.  Prints "ok"/"FAIL" per test and
 * "N passed, N failed" last.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/sync_file.h>

#include "linux/tplan.h"
#include "linux/tplan_edu.h"
#include "drm_uapi.h"

#define PAGE		4096ul
/* How long a test waits for a fence: longer than any job's deadline. */
#define FENCE_WAIT_MS	(2 * TPLAN_EDU_DEFAULT_TIMEOUT_MS)

static const char *device;
static char found_device[PATH_MAX];
static unsigned int passed, failed;
static const char *current;

#define EXPECT(cond)							\
	do {								\
		if (!(cond)) {						\
			printf("    %s: line %d: %s (errno %d %s)\n",	\
			       current, __LINE__, #cond, errno,		\
			       strerror(errno));			\
			ok = 0;						\
		}							\
	} while (0)

static void report(const char *name, int ok)
{
	printf("%s edu.%s\n", ok ? "ok  " : "FAIL", name);
	if (ok)
		passed++;
	else
		failed++;
}

/* ---- the device ---------------------------------------------------------- */

/* The DRM driver name of an open node, in @name; 0 or -errno. */
static int drm_name(int fd, char *name, size_t size)
{
	struct drm_version v;

	memset(v.name = name, 0, size);
	v.name_len = size - 1;
	v.date_len = v.desc_len = 0;
	v.date = v.desc = NULL;
	return ioctl(fd, DRM_IOCTL_VERSION, &v) ? -errno : 0;
}

static int by_index(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}

static int is_accel(const struct dirent *d)
{
	return !strncmp(d->d_name, "accel", 5);
}

/* The first accel node whose driver is tplan_edu, in found_device; 0 or -1. */
static int find_edu(void)
{
	struct dirent **names;
	int n, i, ret = -1;

	n = scandir("/sys/class/accel", &names, is_accel, by_index);
	for (i = 0; i < n; i++) {
		char link[PATH_MAX], target[PATH_MAX];
		const char *base;
		ssize_t len;

		snprintf(link, sizeof(link),
			 "/sys/class/accel/%s/device/driver", names[i]->d_name);
		len = readlink(link, target, sizeof(target) - 1);
		if (ret && len > 0) {
			target[len] = '\0';
			base = strrchr(target, '/');
			if (!strcmp(base ? base + 1 : target,
				    TPLAN_EDU_DRIVER_NAME)) {
				snprintf(found_device, sizeof(found_device),
					 "/dev/accel/%s", names[i]->d_name);
				ret = 0;
			}
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return ret;
}

static int open_edu(void)
{
	int fd = open(device, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		perror(device);
		exit(2);
	}
	return fd;
}

static int get_info(int fd, struct tplan_info *info)
{
	memset(info, 0, sizeof(*info));
	return ioctl(fd, TPLAN_IOC_GET_INFO, info);
}

/* Bytes held in every pool of the device together, or -1. */
static long long used_bytes(int fd)
{
	struct tplan_info info;
	long long used = 0;
	unsigned int i;

	if (get_info(fd, &info))
		return -1;
	for (i = 0; i < info.pool_count && i < TPLAN_MAX_POOLS; i++)
		used += info.pools[i].used;
	return used;
}

/* Waits up to @ms for the device to hold @want bytes; the last reading. */
static long long wait_used(int fd, long long want, int ms)
{
	long long used = used_bytes(fd);

	for (; used != want && ms > 0; ms -= 10) {
		usleep(10000);
		used = used_bytes(fd);
	}
	return used;
}

/* ---- plans: a region of the edu device, mapped ------------------------- */

struct plan {
	int fd;			/* the file that holds it */
	uint64_t id;
	uint32_t slot;		/* the pool holding its region */
	uint64_t size;		/* region_size */
	uint8_t *map;		/* the region, read-write */
	uint8_t *shadow;	/* what the region must hold */
};

/*
 * Plans one tensor of @bytes on @fd (in pool @pool with TIERED, or where the
 * device puts it when @pool < 0) and maps its region; 0 or -errno.
 */
static int plan_make(int fd, uint64_t bytes, int pool, struct plan *p)
{
	struct tplan_tensor_desc t = {
		.id = 1, .lower = 0, .upper = 1, .size = bytes, .alignment = 1,
	};
	struct tplan_submit req;
	unsigned int k;

	memset(p, 0, sizeof(*p));
	memset(&req, 0, sizeof(req));
	req.strategy = TPLAN_STRATEGY_ID_GREEDY_SIZE;
	req.tensors = (uintptr_t)&t;
	req.count = 1;
	req.stride = sizeof(t);
	if (pool >= 0) {
		req.flags = TPLAN_SUBMIT_TIERED;
		t.tiers = 1u << pool;
	}
	if (ioctl(fd, TPLAN_IOC_SUBMIT, &req))
		return -errno;
	p->fd = fd;
	p->id = req.plan_id;
	for (k = 0; k < TPLAN_MAX_POOLS; k++)
		if (req.regions[k].region_size)
			break;
	if (k == TPLAN_MAX_POOLS || t.pool != k)
		return -EPROTO;
	p->slot = k;
	p->size = req.regions[k].region_size;
	p->map = mmap(NULL, p->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		      (off_t)req.regions[k].mmap_offset);
	if (p->map == MAP_FAILED) {
		p->map = NULL;
		return -errno;
	}
	p->shadow = malloc(p->size);
	return p->shadow ? 0 : -ENOMEM;
}

static int plan_release(struct plan *p)
{
	struct tplan_release rel = { .plan_id = p->id };
	int ret = 0;

	if (p->map)
		munmap(p->map, p->size);
	p->map = NULL;
	free(p->shadow);
	p->shadow = NULL;
	if (p->id && ioctl(p->fd, TPLAN_IOC_RELEASE, &rel))
		ret = -errno;
	p->id = 0;
	return ret;
}

/* ---- patterns and checks ------------------------------------------------ */

/* Byte @i of pattern @seed: no period a copy's offset could hide behind. */
static uint8_t pat(unsigned int seed, uint64_t i)
{
	uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull ^ (uint64_t)seed << 40;

	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ull;
	return (uint8_t)(x >> 56);
}

static void fill(uint8_t *buf, uint8_t *shadow, uint64_t size,
		 unsigned int seed)
{
	uint64_t i;

	for (i = 0; i < size; i++)
		buf[i] = pat(seed, i);
	if (shadow)
		memcpy(shadow, buf, size);
}

static void plan_fill(struct plan *p, unsigned int seed)
{
	fill(p->map, p->shadow, p->size, seed);
}

/* Compares every byte of @buf with @want; 1 when equal, else says where. */
static int same(const char *what, const uint8_t *buf, const uint8_t *want,
		uint64_t size)
{
	uint64_t i, first = 0, last = 0, n = 0;

	for (i = 0; i < size; i++) {
		if (buf[i] == want[i])
			continue;
		if (!n++)
			first = i;
		last = i;
	}
	if (!n)
		return 1;
	printf("    %s: %s: %llu of %llu bytes differ, first at %llu (%#x, "
	       "want %#x), last at %llu\n", current, what,
	       (unsigned long long)n, (unsigned long long)size,
	       (unsigned long long)first, buf[first], want[first],
	       (unsigned long long)last);
	return 0;
}

static int plan_same(const struct plan *p, const char *what)
{
	return same(what, p->map, p->shadow, p->size);
}

/* User memory with its shadow: @size bytes from @base, pages around it. */
struct ubuf {
	uint8_t *area;		/* mmap'd: a guard page, the pages, a guard */
	uint64_t area_size;
	uint8_t *base;		/* the first byte handed out */
	uint64_t size;
	uint8_t *shadow;
};

/*
 * @size bytes starting @misalign bytes into a fresh anonymous mapping, with
 * inaccessible pages before and after it; 0 or -errno.
 */
static int ubuf_make(struct ubuf *u, uint64_t size, uint64_t misalign,
		     unsigned int seed)
{
	uint64_t pages = (misalign + size + PAGE - 1) / PAGE;

	memset(u, 0, sizeof(*u));
	u->area_size = (pages + 2) * PAGE;
	u->area = mmap(NULL, u->area_size, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (u->area == MAP_FAILED)
		return -errno;
	if (mprotect(u->area + PAGE, pages * PAGE, PROT_READ | PROT_WRITE))
		return -errno;
	u->base = u->area + PAGE + misalign;
	u->size = size;
	u->shadow = malloc(size);
	if (!u->shadow)
		return -ENOMEM;
	fill(u->base, u->shadow, size, seed);
	return 0;
}

static void ubuf_free(struct ubuf *u)
{
	if (u->area && u->area != MAP_FAILED)
		munmap(u->area, u->area_size);
	free(u->shadow);
	memset(u, 0, sizeof(*u));
}

static int ubuf_same(const struct ubuf *u, const char *what)
{
	return same(what, u->base, u->shadow, u->size);
}

/* ---- copies and jobs ---------------------------------------------------- */

static struct tplan_edu_place at_region(const struct plan *p, uint64_t off)
{
	struct tplan_edu_place pl = {
		.kind = TPLAN_EDU_PLACE_REGION, .slot = p->slot,
		.plan_id = p->id, .offset = off,
	};

	return pl;
}

static struct tplan_edu_place at_user(const void *addr)
{
	struct tplan_edu_place pl = {
		.kind = TPLAN_EDU_PLACE_USER, .offset = (uintptr_t)addr,
	};

	return pl;
}

static struct tplan_edu_copy copy_of(struct tplan_edu_place src,
				     struct tplan_edu_place dst, uint64_t size)
{
	struct tplan_edu_copy c = { .src = src, .dst = dst, .size = size };

	return c;
}

/*
 * Where a place's shadow bytes are: the shadow of the plan whose id it names
 * among @plans, or of the user buffer it falls in among @ubufs.
 */
static uint8_t *shadow_of(const struct tplan_edu_place *pl, uint64_t size,
			  struct plan **plans, struct ubuf **ubufs)
{
	unsigned int i;

	if (pl->kind == TPLAN_EDU_PLACE_REGION) {
		for (i = 0; plans && plans[i]; i++)
			if (plans[i]->id == pl->plan_id &&
			    plans[i]->slot == pl->slot &&
			    pl->offset + size <= plans[i]->size)
				return plans[i]->shadow + pl->offset;
		return NULL;
	}
	for (i = 0; ubufs && ubufs[i]; i++) {
		uintptr_t a = (uintptr_t)pl->offset;
		uintptr_t b = (uintptr_t)ubufs[i]->base;

		if (a >= b && a + size <= b + ubufs[i]->size)
			return ubufs[i]->shadow + (a - b);
	}
	return NULL;
}

/* Applies @n copies, in order, to the shadows; 0, or -1 for a stray place. */
static int shadow_apply(const struct tplan_edu_copy *c, unsigned int n,
			struct plan **plans, struct ubuf **ubufs)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint8_t *s = shadow_of(&c[i].src, c[i].size, plans, ubufs);
		uint8_t *d = shadow_of(&c[i].dst, c[i].size, plans, ubufs);

		if (!s || !d)
			return -1;
		memmove(d, s, c[i].size);
	}
	return 0;
}

/* Submits a job; 0 with its fence in *fence, or -errno (*fence untouched). */
static int job_submit(int fd, const struct tplan_edu_copy *c, unsigned int n,
		      uint32_t timeout_ms, int *fence)
{
	struct tplan_edu_job job = {
		.copies = (uintptr_t)c, .count = n, .timeout_ms = timeout_ms,
		.fence_fd = -1,
	};

	if (ioctl(fd, TPLAN_EDU_IOC_JOB, &job))
		return -errno;
	*fence = job.fence_fd;
	return 0;
}

/* The fence's status (SYNC_IOC_FILE_INFO): 1, 0 (active), <0; or -1000. */
static int fence_status(int fence)
{
	struct sync_file_info info;

	memset(&info, 0, sizeof(info));
	if (ioctl(fence, SYNC_IOC_FILE_INFO, &info))
		return -1000;
	return info.status;
}

/*
 * Polls the fence for up to @ms and returns its status: 1 when the job
 * copied everything, -ETIMEDOUT/-EIO when the device failed, 0 when it was
 * still running at the end of the wait, -1000 when poll or the ioctl failed.
 */
static int fence_wait(int fence, int ms)
{
	struct pollfd pfd = { .fd = fence, .events = POLLIN };
	int r;

	do
		r = poll(&pfd, 1, ms);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -1000;
	if (r == 0)
		return fence_status(fence) == 0 ? 0 : -1000;
	return fence_status(fence);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ll + ts.tv_nsec / 1000000;
}

/*
 * Runs a job to its end, applies it to the shadows and compares every byte
 * of every buffer in @plans and @ubufs; 1 when all is as it must be.
 */
static int run_job(int fd, const struct tplan_edu_copy *c, unsigned int n,
		   struct plan **plans, struct ubuf **ubufs)
{
	int fence = -1, st, ok = 1, ret;
	unsigned int i;
	char what[64];

	ret = job_submit(fd, c, n, 0, &fence);
	if (ret) {
		printf("    %s: JOB: %s\n", current, strerror(-ret));
		return 0;
	}
	st = fence_wait(fence, FENCE_WAIT_MS);
	if (st != 1) {
		printf("    %s: fence status %d, want 1\n", current, st);
		ok = 0;
	}
	close(fence);
	if (shadow_apply(c, n, plans, ubufs)) {
		printf("    %s: a copy outside the buffers checked\n", current);
		return 0;
	}
	for (i = 0; plans && plans[i]; i++) {
		snprintf(what, sizeof(what), "plan %u (id %llu)", i,
			 (unsigned long long)plans[i]->id);
		ok &= plan_same(plans[i], what);
	}
	for (i = 0; ubufs && ubufs[i]; i++) {
		snprintf(what, sizeof(what), "user buffer %u", i);
		ok &= ubuf_same(ubufs[i], what);
	}
	return ok;
}

/* ---- the tests ----------------------------------------------------------- */

static struct tplan_info info;

static void test_node(int fd)
{
	char name[64];
	int ok = 1;

	current = "node";
	EXPECT(drm_name(fd, name, sizeof(name)) == 0);
	if (strcmp(name, TPLAN_EDU_DRIVER_NAME)) {
		printf("    node: DRM_IOCTL_VERSION says \"%s\", want \"%s\"\n",
		       name, TPLAN_EDU_DRIVER_NAME);
		ok = 0;
	}
	EXPECT(get_info(fd, &info) == 0);
	EXPECT(info.abi_version == TPLAN_ABI_VERSION);
	EXPECT(info.pool_count >= 1 && info.pool_count <= TPLAN_MAX_POOLS);
	EXPECT(info.pools[0].size >= 64 * 1024);
	EXPECT(info.region_align == PAGE);
	EXPECT(used_bytes(fd) == 0);
	printf("    node: %s, %u pool(s), pool 0 %llu bytes\n", device,
	       info.pool_count, (unsigned long long)info.pools[0].size);
	report("node", ok);
}

/* Plans two tables, maps their regions, writes and reads patterns back. */
static void test_plan_map(int fd, struct plan *a, struct plan *b)
{
	int ok = 1;

	current = "plan_map";
	EXPECT(plan_make(fd, 3 * PAGE + 100, -1, a) == 0);
	EXPECT(plan_make(fd, 2 * PAGE, -1, b) == 0);
	if (ok) {
		EXPECT(a->size == 4 * PAGE && b->size == 2 * PAGE);
		plan_fill(a, 1);
		plan_fill(b, 2);
		ok &= plan_same(a, "plan a");
		ok &= plan_same(b, "plan b");
		EXPECT(used_bytes(fd) == (long long)(a->size + b->size));
	}
	report("plan_map", ok);
	if (!ok) {
		printf("cannot go on without plans\n%u passed, %u failed\n",
		       passed, failed);
		exit(1);
	}
}

static void test_region_to_region(int fd, struct plan *a, struct plan *b)
{
	struct plan *plans[] = { a, b, NULL };
	struct tplan_edu_copy c;
	int ok;

	/* from plan a to plan b, unaligned on both sides */
	current = "copy_region_to_region";
	c = copy_of(at_region(a, 100), at_region(b, 1001), 3000);
	ok = run_job(fd, &c, 1, plans, NULL);
	report("copy_region_to_region", ok);

	/* within plan a: from its first page to its third, then adjacent */
	current = "copy_within_plan";
	c = copy_of(at_region(a, 5), at_region(a, 2 * PAGE + 17), 2000);
	ok = run_job(fd, &c, 1, plans, NULL);
	c = copy_of(at_region(a, 0), at_region(a, 300), 300);	/* touching */
	ok &= run_job(fd, &c, 1, plans, NULL);
	report("copy_within_plan", ok);

	/* the last bytes of a region, both ways */
	current = "copy_region_ends";
	c = copy_of(at_region(a, a->size - 10), at_region(b, b->size - 10), 10);
	ok = run_job(fd, &c, 1, plans, NULL);
	c = copy_of(at_region(b, 0), at_region(a, a->size - 1), 1);
	ok &= run_job(fd, &c, 1, plans, NULL);
	report("copy_region_ends", ok);
}

static void test_user(int fd, struct plan *a, struct plan *b)
{
	struct plan *plans[] = { a, b, NULL };
	struct ubuf u, v;
	struct ubuf *ubufs[] = { &u, &v, NULL };
	struct tplan_edu_copy c;
	int ok = 1;

	current = "copy_user_to_region";
	EXPECT(ubuf_make(&u, 3 * PAGE, 123, 11) == 0);
	EXPECT(ubuf_make(&v, 3 * PAGE, 0, 12) == 0);
	if (ok) {
		c = copy_of(at_user(u.base + 10), at_region(a, 700), 2500);
		ok = run_job(fd, &c, 1, plans, ubufs);
	}
	report("copy_user_to_region", ok);

	current = "copy_region_to_user";
	if (ok) {
		c = copy_of(at_region(b, 33), at_user(v.base + PAGE - 7), 3000);
		ok = run_job(fd, &c, 1, plans, ubufs);
	}
	report("copy_region_to_user", ok);

	/* a read-only source is fine: the device only reads it */
	current = "copy_readonly_source";
	if (ok) {
		EXPECT(mprotect(u.area + PAGE, 4 * PAGE, PROT_READ) == 0);
		c = copy_of(at_user(u.base + PAGE), at_region(b, 0), 1500);
		ok = run_job(fd, &c, 1, plans, ubufs);
		EXPECT(mprotect(u.area + PAGE, 4 * PAGE,
				PROT_READ | PROT_WRITE) == 0);
	}
	report("copy_readonly_source", ok);
	ubuf_free(&u);
	ubuf_free(&v);
}

/*
 * One job, in order: user -> a, a -> b (reads what the first wrote), b ->
 * user (another place), region -> region inside b, user -> user.
 */
static void test_multi_copy(int fd, struct plan *a, struct plan *b)
{
	struct plan *plans[] = { a, b, NULL };
	struct ubuf u, v;
	struct ubuf *ubufs[] = { &u, &v, NULL };
	struct tplan_edu_copy c[5];
	int ok = 1;

	current = "multi_copy_job";
	EXPECT(ubuf_make(&u, 2 * PAGE, 1, 21) == 0);
	EXPECT(ubuf_make(&v, 2 * PAGE, 2, 22) == 0);
	if (ok) {
		c[0] = copy_of(at_user(u.base + 3), at_region(a, 4000), 1000);
		c[1] = copy_of(at_region(a, 4100), at_region(b, 50), 800);
		c[2] = copy_of(at_region(b, 0), at_user(v.base + 10), 1200);
		c[3] = copy_of(at_region(b, 100), at_region(b, PAGE + 5), 700);
		c[4] = copy_of(at_user(v.base + 10), at_user(u.base + PAGE), 900);
		ok = run_job(fd, c, 5, plans, ubufs);
	}
	report("multi_copy_job", ok);
	ubuf_free(&u);
	ubuf_free(&v);
}

/*
 * The engine moves 4 KiB at a time: sizes 1, 4095, 4096, 4097 and 8193,
 * at offsets that are and are not page-aligned, region to region, user to
 * region and region to user.
 */
static void test_chunks(int fd, struct plan *a, struct plan *b)
{
	static const uint64_t sizes[] = { 1, 4095, 4096, 4097 };
	struct plan big;
	struct plan *plans[] = { a, b, &big, NULL };
	struct ubuf u;
	struct ubuf *ubufs[] = { &u, NULL };
	struct tplan_edu_copy c[4];
	unsigned int i;
	char name[64];
	int ok = 1;

	current = "chunks";
	EXPECT(plan_make(fd, 5 * PAGE, -1, &big) == 0);
	EXPECT(ubuf_make(&u, 4 * PAGE, PAGE - 1, 31) == 0);
	if (!ok) {
		report("chunks", 0);
		return;
	}
	plan_fill(&big, 3);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t n = sizes[i];

		snprintf(name, sizeof(name), "chunk_%llu_region_to_region",
			 (unsigned long long)n);
		current = name;
		/* a page-aligned source, an odd destination */
		c[0] = copy_of(at_region(a, 0), at_region(&big, PAGE + 1), n);
		ok = run_job(fd, c, 1, plans, ubufs);
		/* an odd source crossing a page, a page-aligned destination */
		c[0] = copy_of(at_region(&big, 2 * PAGE - 1), at_region(b, 0), n);
		ok &= run_job(fd, c, 1, plans, ubufs);
		report(name, ok);

		snprintf(name, sizeof(name), "chunk_%llu_user", (unsigned long long)n);
		current = name;
		/* user memory starting one byte before a page boundary */
		c[0] = copy_of(at_user(u.base), at_region(&big, 3 * PAGE - 3), n);
		c[1] = copy_of(at_region(a, 7), at_user(u.base + PAGE + 1), n);
		ok = run_job(fd, c, 2, plans, ubufs);
		report(name, ok);
	}
	current = "chunk_8193_unaligned";
	c[0] = copy_of(at_region(a, 1), at_region(&big, PAGE + 3), 2 * PAGE + 1);
	ok = run_job(fd, c, 1, plans, ubufs);
	report("chunk_8193_unaligned", ok);
	plan_release(&big);
	ubuf_free(&u);
}

static void test_fence(int fd, struct plan *a)
{
	struct plan *plans[] = { a, NULL };
	struct tplan_edu_copy c;
	struct sync_file_info si;
	int fence = -1, ok = 1, st;
	long long t0;

	current = "fence";
	c = copy_of(at_region(a, 0), at_region(a, 2 * PAGE), 2 * PAGE);
	t0 = now_ms();
	EXPECT(job_submit(fd, &c, 1, 0, &fence) == 0);
	if (ok) {
		EXPECT(fence >= 0);
		EXPECT(fcntl(fence, F_GETFD) & FD_CLOEXEC);
		/* 2 x 4 KiB: four transfers of 100 ms; not over yet */
		EXPECT(fence_status(fence) == 0);
		st = fence_wait(fence, FENCE_WAIT_MS);
		EXPECT(st == 1);
		EXPECT(now_ms() - t0 >= 300);
		memset(&si, 0, sizeof(si));
		EXPECT(ioctl(fence, SYNC_IOC_FILE_INFO, &si) == 0);
		EXPECT(si.status == 1 && si.num_fences == 1);
		/* still signalled, and poll() says so at once */
		EXPECT(fence_wait(fence, 0) == 1);
		close(fence);
		shadow_apply(&c, 1, plans, NULL);
		ok &= plan_same(a, "plan a");
	}
	report("fence", ok);
}

/*
 * Jobs run in the order they were submitted: job 2 reads what job 1 wrote,
 * job 3 overwrites what job 2 read, and only job 3's fence is waited for.
 */
static void test_order(int fd, struct plan *a)
{
	struct ubuf u, v;
	struct tplan_edu_copy c1, c2, c3;
	int f1 = -1, f2 = -1, f3 = -1, ok = 1;

	current = "jobs_in_order";
	EXPECT(ubuf_make(&u, 2 * PAGE, 5, 41) == 0);
	EXPECT(ubuf_make(&v, 2 * PAGE, 9, 42) == 0);
	if (ok) {
		c1 = copy_of(at_user(u.base), at_region(a, 100), 5000);
		c2 = copy_of(at_region(a, 100), at_user(v.base), 5000);
		c3 = copy_of(at_user(v.base + 6000), at_region(a, 100), 100);
		EXPECT(job_submit(fd, &c1, 1, 0, &f1) == 0);
		EXPECT(job_submit(fd, &c2, 1, 0, &f2) == 0);
		EXPECT(job_submit(fd, &c3, 1, 0, &f3) == 0);
	}
	if (ok) {
		EXPECT(fence_wait(f2, FENCE_WAIT_MS) == 1);
		/* job 1 is over before job 2 ends */
		EXPECT(fence_status(f1) == 1);
		EXPECT(fence_wait(f3, FENCE_WAIT_MS) == 1);
		/* v holds u's bytes, not a's old ones nor job 3's */
		EXPECT(!memcmp(v.base, u.base, 5000));
		if (memcmp(v.base, u.base, 5000))
			same("user buffer v", v.base, u.base, 5000);
		/* a holds u's bytes, then job 3's 100 */
		EXPECT(!memcmp(a->map + 100, v.base + 6000, 100));
		EXPECT(!memcmp(a->map + 200, u.base + 100, 4900));
		memcpy(a->shadow + 100, v.base + 6000, 100);
		memcpy(a->shadow + 200, u.base + 100, 4900);
		ok &= plan_same(a, "plan a");
	}
	if (f1 >= 0)
		close(f1);
	if (f2 >= 0)
		close(f2);
	if (f3 >= 0)
		close(f3);
	ubuf_free(&u);
	ubuf_free(&v);
	report("jobs_in_order", ok);
}

/*
 * A plan released and unmapped right after its job was submitted: the job
 * still reads (and writes) its region, which stays reserved until the fence
 * signals and returns to its pool after.
 */
static void test_release_in_flight(int fd)
{
	struct plan p, q;
	struct ubuf u, w;
	struct ubuf *ubufs[] = { &u, NULL };
	struct tplan_edu_copy c[2];
	long long before, held;
	int fence = -1, ok = 1;
	uint8_t *keep = NULL;

	current = "release_in_flight";
	before = used_bytes(fd);
	EXPECT(plan_make(fd, 4 * PAGE, -1, &p) == 0);
	EXPECT(plan_make(fd, PAGE, -1, &q) == 0);
	EXPECT(ubuf_make(&u, 4 * PAGE, 0, 51) == 0);
	EXPECT(ubuf_make(&w, PAGE, 0, 52) == 0);
	if (!ok) {
		report("release_in_flight", 0);
		return;
	}
	plan_fill(&p, 53);
	plan_fill(&q, 54);
	keep = malloc(p.size);
	memcpy(keep, p.map, p.size);
	/* the whole region of p to u (8 transfers), then w into q */
	c[0] = copy_of(at_region(&p, 0), at_user(u.base), 4 * PAGE);
	c[1] = copy_of(at_user(w.base), at_region(&q, 0), PAGE);
	EXPECT(job_submit(fd, c, 2, 0, &fence) == 0);
	held = p.size + q.size;
	EXPECT(plan_release(&p) == 0);
	EXPECT(plan_release(&q) == 0);
	if (ok) {
		/* released, unmapped, yet still reserved while the job runs */
		EXPECT(fence_status(fence) == 0);
		EXPECT(used_bytes(fd) == before + held);
		EXPECT(fence_wait(fence, FENCE_WAIT_MS) == 1);
		memcpy(u.shadow, keep, 4 * PAGE);
		ok &= ubuf_same(&u, "user buffer (the released region's bytes)");
		/* and given back once the fence has signalled */
		EXPECT(wait_used(fd, before, 2000) == before);
	}
	if (fence >= 0)
		close(fence);
	(void)ubufs;
	free(keep);
	ubuf_free(&u);
	ubuf_free(&w);
	report("release_in_flight", ok);
}

/* A deadline shorter than one transfer: -ETIMEDOUT; the next job works. */
static void test_timeout(int fd, struct plan *a, struct plan *b)
{
	struct plan *plans[] = { a, b, NULL };
	struct ubuf u;
	struct tplan_edu_copy c;
	int fence = -1, ok = 1, st;

	current = "timeout";
	EXPECT(ubuf_make(&u, 3 * PAGE, 0, 61) == 0);
	if (ok) {
		c = copy_of(at_region(a, 0), at_user(u.base), 3 * PAGE);
		EXPECT(job_submit(fd, &c, 1, 1, &fence) == 0);
	}
	if (ok) {
		st = fence_wait(fence, FENCE_WAIT_MS);
		if (st != -ETIMEDOUT) {
			printf("    timeout: fence status %d, want %d "
			       "(-ETIMEDOUT)\n", st, -ETIMEDOUT);
			ok = 0;
		}
		close(fence);
	}
	report("timeout", ok);

	/* the device recovers: a job after it copies every byte */
	current = "after_timeout";
	c = copy_of(at_region(b, 0), at_region(a, 10), 600);
	ok = run_job(fd, &c, 1, plans, NULL);
	/* what the timed-out job wrote is unknown: take a's bytes as they are */
	ubuf_free(&u);
	report("after_timeout", ok);
}

/* Closing the file while its job runs: the fence still signals, status 1. */
static void test_close_in_flight(void)
{
	struct plan p;
	struct ubuf u;
	struct tplan_edu_copy c;
	int fd2 = open_edu(), fence = -1, ok = 1;
	uint8_t *keep;

	current = "close_in_flight";
	EXPECT(plan_make(fd2, 3 * PAGE, -1, &p) == 0);
	EXPECT(ubuf_make(&u, 3 * PAGE, 0, 71) == 0);
	if (!ok) {
		close(fd2);
		report("close_in_flight", 0);
		return;
	}
	plan_fill(&p, 72);
	keep = malloc(p.size);
	memcpy(keep, p.map, p.size);
	c = copy_of(at_region(&p, 0), at_user(u.base), 3 * PAGE);
	EXPECT(job_submit(fd2, &c, 1, 0, &fence) == 0);
	munmap(p.map, p.size);
	p.map = NULL;
	close(fd2);
	if (ok) {
		EXPECT(fence_wait(fence, FENCE_WAIT_MS) == 1);
		memcpy(u.shadow, keep, 3 * PAGE);
		ok &= ubuf_same(&u, "user buffer");
		close(fence);
	}
	free(keep);
	free(p.shadow);
	ubuf_free(&u);
	report("close_in_flight", ok);
}

/* ---- errors -------------------------------------------------------------- */

struct bad_case {
	const char *name;
	int err;
};

/*
 * A job (@n copies at user address @copies) that the ioctl must refuse with
 * @err, returning no fence; a job it accepts is waited for and fails.
 */
static int bad_job(int fd, const char *name, int err,
		   struct tplan_edu_copy *c, unsigned int n, uint32_t timeout,
		   uint32_t flags, uint64_t reserved, uint64_t copies)
{
	struct tplan_edu_job job = {
		.copies = copies, .count = n,
		.flags = flags, .timeout_ms = timeout, .fence_fd = -1,
		.reserved = reserved,
	};
	int r = ioctl(fd, TPLAN_EDU_IOC_JOB, &job), e = errno;
	char full[80];

	snprintf(full, sizeof(full), "error_%s", name);
	if (r == 0) {
		printf("    %s: accepted (fence %d), want %s\n", full,
		       job.fence_fd, strerror(err));
		if (job.fence_fd >= 0) {
			fence_wait(job.fence_fd, FENCE_WAIT_MS);
			close(job.fence_fd);
		}
		report(full, 0);
		return 0;
	}
	if (e != err) {
		printf("    %s: %s, want %s\n", full, strerror(e), strerror(err));
		report(full, 0);
		return 0;
	}
	report(full, 1);
	return 1;
}

static int count_fds(void)
{
	struct dirent **names;
	int n = scandir("/proc/self/fd", &names, NULL, NULL), i;

	for (i = 0; i < n; i++)
		free(names[i]);
	if (n >= 0)
		free(names);
	return n;
}

static void test_errors(int fd, struct plan *a, struct plan *b)
{
	struct plan *plans[] = { a, b, NULL };
	struct tplan_edu_copy good[2], c[TPLAN_EDU_MAX_COPIES + 1];
	struct plan gone;
	struct tplan_edu_place other = { .kind = TPLAN_EDU_PLACE_REGION };
	unsigned char vec;
	int k;
	struct ubuf u, big;
	const uint64_t far = TPLAN_EDU_MAX_JOB_BYTES + PAGE;
	struct ubuf *ubufs[] = { &u, NULL };
	uint8_t *hole, *ro;
	int fd2 = open_edu(), fds, ok = 1, fence;
	unsigned int i, absent = (b->slot + 1) % TPLAN_MAX_POOLS;
	/* the marker area: a's last page, which only the first copy writes */
	const uint64_t mark = a->size - PAGE;

	current = "errors";
	EXPECT(ubuf_make(&u, 2 * PAGE, 0, 81) == 0);
	/* two user ranges of a job's most bytes and a page, apart */
	EXPECT(ubuf_make(&big, 2 * far, 0, 82) == 0);
	/*
	 * Another file's plan: plan ids are per file, so the other file makes
	 * a dozen, and its last id is one this file never had.
	 */
	for (k = 0; k < 12; k++) {
		struct tplan_tensor_desc t = {
			.id = 1, .lower = 0, .upper = 1, .size = 1,
			.alignment = 1,
		};
		struct tplan_submit req;

		memset(&req, 0, sizeof(req));
		req.strategy = TPLAN_STRATEGY_ID_GREEDY_SIZE;
		req.tensors = (uintptr_t)&t;
		req.count = 1;
		req.stride = sizeof(t);
		EXPECT(ioctl(fd2, TPLAN_IOC_SUBMIT, &req) == 0);
		other.plan_id = req.plan_id;
		other.slot = t.pool;
	}
	EXPECT(other.plan_id >= 12);
	EXPECT(plan_make(fd, PAGE, -1, &gone) == 0);
	EXPECT(plan_release(&gone) == 0);		/* a released plan */
	/* the read-only page first, so that it cannot land in the hole */
	ro = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	EXPECT(ro != MAP_FAILED);
	hole = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	EXPECT(hole != MAP_FAILED);
	EXPECT(munmap(hole + PAGE, PAGE) == 0);		/* hole + PAGE: unmapped */
	report("errors_setup", ok);
	if (!ok)
		return;
	fds = count_fds();
	/* nothing may be mapped in the hole until the end of these cases */
#define HOLE_EMPTY() \
	(mincore(hole + PAGE, PAGE, &vec) == -1 && errno == ENOMEM)
	current = "errors_hole";
	EXPECT(HOLE_EMPTY());

	/*
	 * Every copy case: a good first copy, which would write the marker
	 * area (a's last page, which nothing else writes), and a spoilt second
	 * one, in a job with the default deadline.  Nothing may be queued: at
	 * the end a good job is run and the marker area must be unchanged.
	 */
	good[0] = copy_of(at_user(u.base), at_region(a, mark), PAGE);
#define BAD(nm, err, spoil)						\
	do {								\
		c[0] = good[0];						\
		c[1] = copy_of(at_region(b, 0), at_user(u.base + PAGE), 100); \
		spoil;							\
		bad_job(fd, nm, err, c, 2, 0, 0, 0, (uintptr_t)c);	\
	} while (0)

	BAD("src_kind_0", EINVAL, c[1].src.kind = 0);
	BAD("dst_kind_3", EINVAL, c[1].dst.kind = 3);
	BAD("region_slot_huge", EINVAL, c[1].src.slot = 0xffffffffu);
	BAD("user_slot", EINVAL, c[1].dst.slot = 1);
	BAD("user_plan_id", EINVAL, c[1].dst.plan_id = b->id);
	BAD("size_0", EINVAL, c[1].size = 0);
	BAD("overlap_region", EINVAL,
	    c[1] = copy_of(at_region(b, 0), at_region(b, 99), 100));
	BAD("overlap_region_same", EINVAL,
	    c[1] = copy_of(at_region(b, 40), at_region(b, 40), 10));
	BAD("overlap_user", EINVAL,
	    c[1] = copy_of(at_user(u.base + PAGE), at_user(u.base + PAGE + 50), 100));
	BAD("no_plan", ENOENT, c[1].src.plan_id = 999999);
	BAD("plan_id_0", ENOENT, c[1].src.plan_id = 0);
	BAD("released_plan", ENOENT, c[1].src.plan_id = gone.id);
	BAD("other_files_plan", ENOENT, c[1].src = other);
	BAD("no_region_in_slot", ENOENT, c[1].src.slot = absent);
	/* slots past the pools are a group's kept regions: none in b */
	BAD("kept_slot_without_region", ENOENT, c[1].src.slot = TPLAN_MAX_POOLS);
	BAD("past_region_end", ERANGE, c[1].src.offset = b->size - 99);
	BAD("offset_past_end", ERANGE, c[1].src.offset = b->size);
	BAD("region_offset_wraps", ERANGE,
	    c[1].src.offset = UINT64_MAX - 50);
	BAD("user_range_wraps", ERANGE,
	    c[1].dst = at_user((void *)(uintptr_t)(UINT64_MAX - 50)));
	BAD("user_unmapped_src", EFAULT,
	    c[1] = copy_of(at_user(hole + PAGE - 10), at_region(b, 0), 20));
	BAD("user_unmapped_dst", EFAULT, c[1].dst = at_user(hole + PAGE));
	BAD("user_kernel_address", EFAULT,
	    c[1].dst = at_user((void *)(uintptr_t)0xffff888000000000ull));
	BAD("user_readonly_dst", EFAULT, c[1].dst = at_user(ro));
	/*
	 * Too many bytes: one copy of a job's most bytes and one more; then
	 * two copies that add up to one byte more.  A deadline of 1 ms, so
	 * that a job accepted by mistake is over at once.
	 */
	c[0] = good[0];
	c[1] = copy_of(at_user(big.base), at_user(big.base + far),
		       TPLAN_EDU_MAX_JOB_BYTES + 1);
	bad_job(fd, "copy_bytes_over_max", E2BIG, c, 2, 1, 0, 0, (uintptr_t)c);
	c[0] = copy_of(at_user(big.base), at_user(big.base + far),
		       TPLAN_EDU_MAX_JOB_BYTES / 2);
	c[1] = copy_of(at_user(big.base + far), at_user(big.base),
		       TPLAN_EDU_MAX_JOB_BYTES / 2 + 1);
	bad_job(fd, "job_bytes_over_max", E2BIG, c, 2, 1, 0, 0, (uintptr_t)c);

	/* the job's own fields */
	c[0] = good[0];
	bad_job(fd, "flags", EINVAL, c, 1, 0, 1, 0, (uintptr_t)c);
	bad_job(fd, "flags_high", EINVAL, c, 1, 0, 1u << 31, 0, (uintptr_t)c);
	bad_job(fd, "reserved", EINVAL, c, 1, 0, 0, 1, (uintptr_t)c);
	bad_job(fd, "timeout_over_max", EINVAL, c, 1,
		TPLAN_EDU_MAX_TIMEOUT_MS + 1, 0, 0, (uintptr_t)c);
	bad_job(fd, "timeout_huge", EINVAL, c, 1, 0xffffffffu, 0, 0,
		(uintptr_t)c);
	bad_job(fd, "count_0", EINVAL, c, 0, 0, 0, 0, (uintptr_t)c);
	for (i = 0; i <= TPLAN_EDU_MAX_COPIES; i++)
		c[i] = good[0];
	bad_job(fd, "count_over_max", E2BIG, c, TPLAN_EDU_MAX_COPIES + 1, 1,
		0, 0, (uintptr_t)c);
	bad_job(fd, "copies_unmapped", EFAULT, c, 1, 0, 0, 0,
		(uintptr_t)(hole + PAGE));
	/* the first copy readable and good, the second in the hole */
	memcpy(hole + PAGE - sizeof(c[0]), &good[0], sizeof(c[0]));
	bad_job(fd, "copies_straddle_hole", EFAULT, c, 2, 0, 0, 0,
		(uintptr_t)(hole + PAGE - sizeof(c[0])));
	bad_job(fd, "copies_null", EFAULT, c, 1, 0, 0, 0, 0);
	current = "errors_hole";
	EXPECT(HOLE_EMPTY());
	report("errors_hole_stayed_empty", ok);
#undef HOLE_EMPTY

	/*
	 * Nothing queued, no fence left open: a good job after them all ends
	 * (jobs run in order) with the marker area as it was.
	 */
	current = "errors_nothing_queued";
	ok = 1;
	EXPECT(count_fds() == fds);
	good[0] = copy_of(at_region(b, 0), at_user(u.base + PAGE), 100);
	ok &= run_job(fd, good, 1, plans, ubufs);
	close(fd2);				/* and with it the other plans */
	EXPECT(wait_used(fd, (long long)(a->size + b->size), 2000) ==
	       (long long)(a->size + b->size));
	report("errors_nothing_queued", ok);

	/* the largest job is accepted (and cut short: deadline 1 ms) */
	current = "job_at_max";
	ok = 1;
	c[0] = copy_of(at_user(big.base), at_user(big.base + far),
		       TPLAN_EDU_MAX_JOB_BYTES / 2);
	c[1] = copy_of(at_user(big.base + far), at_user(big.base),
		       TPLAN_EDU_MAX_JOB_BYTES / 2);
	EXPECT(job_submit(fd, c, 2, 1, &fence) == 0);
	if (ok) {
		EXPECT(fence_wait(fence, FENCE_WAIT_MS) == -ETIMEDOUT);
		close(fence);
	}
	report("job_at_max", ok);

	munmap(hole, PAGE);
	munmap(ro, PAGE);
	(void)vec;
	ubuf_free(&u);
	ubuf_free(&big);
#undef BAD
}

/*
 * A file opened read-only reads its regions but never writes them: a job
 * with a region destination is -EACCES; one reading a region works.
 */
static void test_readonly_file(void)
{
	struct tplan_tensor_desc t = {
		.id = 1, .lower = 0, .upper = 1, .size = 3000, .alignment = 1,
	};
	struct tplan_submit req;
	struct plan p = { 0 };
	struct ubuf u;
	struct tplan_edu_copy c[2];
	const struct tplan_plan_region *r;
	int ro = open(device, O_RDONLY | O_CLOEXEC), fence = -1, ok = 1;
	uint8_t *view;

	current = "readonly_file";
	EXPECT(ro >= 0);
	EXPECT(ubuf_make(&u, PAGE, 0, 101) == 0);
	memset(&req, 0, sizeof(req));
	req.strategy = TPLAN_STRATEGY_ID_GREEDY_SIZE;
	req.tensors = (uintptr_t)&t;
	req.count = 1;
	req.stride = sizeof(t);
	EXPECT(ioctl(ro, TPLAN_IOC_SUBMIT, &req) == 0);
	if (!ok) {
		report("error_readonly_file_region_dst", 0);
		if (ro >= 0)
			close(ro);
		ubuf_free(&u);
		return;
	}
	p.fd = ro;
	p.id = req.plan_id;
	p.slot = t.pool;
	r = &req.regions[t.pool];
	p.size = r->region_size;
	c[0] = copy_of(at_user(u.base), at_region(&p, 0), 100);
	bad_job(ro, "readonly_file_region_dst", EACCES, c, 1, 0, 0, 0,
		(uintptr_t)c);
	/* a good copy first does not help */
	c[1] = c[0];
	c[0] = copy_of(at_region(&p, 0), at_user(u.base + 200), 100);
	bad_job(ro, "readonly_file_second_copy", EACCES, c, 2, 0, 0, 0,
		(uintptr_t)c);

	/* reading the region into user memory is fine */
	current = "readonly_file_reads";
	c[0] = copy_of(at_region(&p, 0), at_user(u.base + 1), 3000);
	EXPECT(job_submit(ro, c, 1, 0, &fence) == 0);
	if (ok) {
		EXPECT(fence_wait(fence, FENCE_WAIT_MS) == 1);
		close(fence);
		view = mmap(NULL, p.size, PROT_READ, MAP_SHARED, ro,
			    (off_t)r->mmap_offset);
		EXPECT(view != MAP_FAILED);
		if (view != MAP_FAILED) {
			memcpy(u.shadow + 1, view, 3000);
			ok &= ubuf_same(&u, "user buffer");
			munmap(view, p.size);
		}
	}
	report("readonly_file_reads", ok);
	plan_release(&p);
	close(ro);
	ubuf_free(&u);
}

/*
 * Jobs queued together whose user destinations share a page (different
 * bytes of it), and one job whose two copies write one page: a runtime
 * does this all the time, and the bytes must land; on the debug kernel
 * DMA-API debugging must not see overlapping mappings either.
 */
static void test_same_user_page(int fd)
{
	struct tplan_edu_copy c[2], d, e;
	struct ubuf u, v;
	struct ubuf *ubufs[] = { &u, &v, NULL };
	int f1 = -1, f2 = -1, ok = 1;

	current = "same_user_page";
	EXPECT(ubuf_make(&u, PAGE, 0, 121) == 0);
	EXPECT(ubuf_make(&v, PAGE, 0, 122) == 0);
	if (!ok) {
		report("same_user_page", 0);
		return;
	}
	d = copy_of(at_user(u.base), at_user(v.base + 100), 10);
	e = copy_of(at_user(u.base + 20), at_user(v.base + 200), 10);
	EXPECT(job_submit(fd, &d, 1, 0, &f1) == 0);
	EXPECT(job_submit(fd, &e, 1, 0, &f2) == 0);
	if (ok) {
		EXPECT(fence_wait(f1, FENCE_WAIT_MS) == 1);
		EXPECT(fence_wait(f2, FENCE_WAIT_MS) == 1);
		shadow_apply(&d, 1, NULL, ubufs);
		shadow_apply(&e, 1, NULL, ubufs);
		ok &= ubuf_same(&v, "user buffer v (two jobs)");
	}
	if (f1 >= 0)
		close(f1);
	if (f2 >= 0)
		close(f2);
	c[0] = copy_of(at_user(u.base + 40), at_user(v.base + 300), 10);
	c[1] = copy_of(at_user(u.base + 60), at_user(v.base + 400), 10);
	ok &= run_job(fd, c, 2, NULL, ubufs);
	ubuf_free(&u);
	ubuf_free(&v);
	report("same_user_page", ok);
}

/*
 * At most TPLAN_EDU_MAX_QUEUED jobs wait on the device, from every file
 * together: past them -EAGAIN, with no fence; every job queued still runs,
 * in order, and once they are over jobs are taken again.  Each job writes
 * a page of its own (test_same_user_page() shares one).
 */
static void test_queue_full(int fd)
{
	enum { N = TPLAN_EDU_MAX_QUEUED + 2, LONG = 16 };
	struct tplan_edu_copy c;
	struct ubuf u, v;
	int fences[N], fd2 = open_edu(), ok = 1, i, n = 0, ret = 0, st;

	current = "queue_full";
	EXPECT(ubuf_make(&u, (LONG + N) * PAGE, 0, 111) == 0);
	EXPECT(ubuf_make(&v, (LONG + N) * PAGE, 0, 112) == 0);
	if (!ok) {
		close(fd2);
		report("queue_full", 0);
		return;
	}
	/*
	 * A first job of 16 pages (3.2 s, more if the driver moves less than
	 * 4 KiB a transfer: the longest deadline) keeps the rest queued
	 * behind it even on the debug kernel, where a submit is slow.
	 */
	c = copy_of(at_user(u.base), at_user(v.base), LONG * PAGE);
	ret = job_submit(fd, &c, 1, TPLAN_EDU_MAX_TIMEOUT_MS, &fences[n]);
	if (!ret)
		n++;
	/* then one byte a job, every other one from a second file */
	while (!ret && n < N) {
		c = copy_of(at_user(u.base + (LONG + n) * PAGE),
			    at_user(v.base + (LONG + n) * PAGE), 1);
		ret = job_submit(n % 2 ? fd2 : fd, &c, 1, 0, &fences[n]);
		if (!ret)
			n++;
	}
	printf("    queue_full: %d jobs taken, then %s\n", n,
	       ret ? strerror(-ret) : "none refused");
	if (ret != -EAGAIN || n < TPLAN_EDU_MAX_QUEUED ||
	    n > TPLAN_EDU_MAX_QUEUED + 1) {
		printf("    queue_full: %d jobs taken, then %s; want %d (or one "
		       "more, the running one), then EAGAIN\n", n,
		       ret ? strerror(-ret) : "no error", TPLAN_EDU_MAX_QUEUED);
		ok = 0;
	}
	for (i = 0; i < n; i++) {
		st = fence_wait(fences[i], FENCE_WAIT_MS);
		if (st != 1) {
			printf("    queue_full: job %d: fence status %d\n", i, st);
			ok = 0;
		}
		close(fences[i]);
	}
	memcpy(v.shadow, u.base, LONG * PAGE);
	for (i = 1; i < n; i++)
		v.shadow[(LONG + i) * PAGE] = u.base[(LONG + i) * PAGE];
	ok &= ubuf_same(&v, "user buffer v");
	/* taken again once the queue is empty */
	c = copy_of(at_user(u.base + 100), at_user(v.base + 100), 1);
	ret = job_submit(fd2, &c, 1, 0, &fences[0]);
	EXPECT(ret == 0);
	if (!ret) {
		EXPECT(fence_wait(fences[0], FENCE_WAIT_MS) == 1);
		close(fences[0]);
		EXPECT(v.base[100] == u.base[100]);
	}

	close(fd2);
	ubuf_free(&u);
	ubuf_free(&v);
	report("queue_full", ok);
}

/* A second pool, when the device has one: copies between pools. */
static void test_pools(int fd, struct plan *a)
{
	struct plan p;
	struct plan *plans[] = { a, &p, NULL };
	struct tplan_edu_copy c[2];
	int ok = 1;

	if (info.pool_count < 2)
		return;
	current = "copy_between_pools";
	EXPECT(plan_make(fd, PAGE, (int)info.pool_count - 1, &p) == 0);
	if (ok) {
		EXPECT(p.slot == info.pool_count - 1);
		plan_fill(&p, 91);
		c[0] = copy_of(at_region(a, 1), at_region(&p, 2), 1000);
		c[1] = copy_of(at_region(&p, 2000), at_region(a, 3), 1000);
		ok = run_job(fd, c, 2, plans, NULL);
		plan_release(&p);
	}
	report("copy_between_pools", ok);
}

int main(int argc, char **argv)
{
	struct plan a, b;
	int fd, ok = 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1) {
		device = argv[1];
	} else if (!find_edu()) {
		device = found_device;
	} else {
		fprintf(stderr, "no accel device of driver %s in "
			"/sys/class/accel\n", TPLAN_EDU_DRIVER_NAME);
		return 2;
	}
	fd = open_edu();
	test_node(fd);
	test_plan_map(fd, &a, &b);
	test_region_to_region(fd, &a, &b);
	test_user(fd, &a, &b);
	test_multi_copy(fd, &a, &b);
	test_chunks(fd, &a, &b);
	test_pools(fd, &a);
	test_fence(fd, &a);
	test_order(fd, &a);
	test_release_in_flight(fd);
	test_errors(fd, &a, &b);
	test_readonly_file();
	test_same_user_page(fd);
	test_queue_full(fd);
	test_timeout(fd, &a, &b);
	test_close_in_flight();

	current = "idle_at_end";
	EXPECT(plan_release(&a) == 0);
	EXPECT(plan_release(&b) == 0);
	close(fd);
	fd = open_edu();
	EXPECT(wait_used(fd, 0, 3000) == 0);
	close(fd);
	report("idle_at_end", ok);
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
