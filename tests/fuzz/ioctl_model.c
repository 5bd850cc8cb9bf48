// SPDX-License-Identifier: MIT
/*
 * ioctl_model.c - the model of what a worker holds: files, plans, groups,
 * mappings and what their bytes hold (trackers); the checks and writes of
 * mapped bytes.
 */
#include "ioctl_fuzz.h"

struct file files[MAX_FILES];
struct mapping maps[MAX_MAPS];
int nmaps;
struct tplan_info dev_info;
uint32_t group_ids[MAX_GROUPS] = { 1, 2, 3, 0xffffffffu };

struct tracker *tracker_new(void)
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

struct tracker *tracker_get(struct tracker *t)
{
	if (t)
		t->refs++;
	return t;
}

void tracker_put(struct tracker *t)
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

void segv_handler(int sig)
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
bool check_bytes(struct mapping *m, uint64_t from, uint64_t to,
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

void write_bytes(struct mapping *m, uint64_t from, uint64_t to)
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

struct file *file_of_fd_index(int *fd)
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

struct file *file_open(void)
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
void plan_forget(struct file *f, int idx)
{
	struct plan *p = &f->plans[idx];
	int s;

	f->gone_off[f->ngone % 8] = 0;
	for (s = 0; s < SLOTS; s++) {
		tracker_put(p->s[s].tr);
		if (p->s[s].len)
			f->gone_off[f->ngone % 8] = p->s[s].off;
	}
	if (p->g && !--p->g->nplans)
		group_end(p->g);
	f->gone[f->ngone++ % 8] = p->id;
	f->plans[idx] = f->plans[--f->nplans];
}

void file_forget(struct file *f)
{
	while (f->nplans)
		plan_forget(f, 0);
	f->open = false;
}

void map_forget(int idx)
{
	tracker_put(maps[idx].tr);
	maps[idx] = maps[--nmaps];
}
