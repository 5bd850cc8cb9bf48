/* SPDX-License-Identifier: MIT */
/*
 * ioctl_fuzz.h - what the files of the ioctl fuzzer share (private to
 * tests/fuzz/ioctl_*.c; see ioctl_fuzz.c for what the fuzzer does).
 *
 *   ioctl_fuzz.c         options and main(): fork, watch, report
 *   ioctl_harness.c      shared counters, output, failures, the errno oracle
 *   ioctl_model.c        the model: files, plans, groups, mappings, bytes
 *   ioctl_tables.c       descriptor tables: random valid ones, the base
 *   ioctl_calls.c        ioctl wrappers, write-back checks, plans recorded
 *   ioctl_ops.c          the op catalogue and run_ops()
 *   ioctl_ops_submit.c   GET_INFO, SUBMIT (valid, max_tensors, mutated, struct)
 *   ioctl_ops_constrained.c    SUBMIT with pins, hints and gaps
 *   ioctl_ops_spill.c    SUBMIT_SPILL
 *   ioctl_ops_release.c  RELEASE, unknown ioctl numbers
 *   ioctl_ops_mm.c       mmap, munmap, mremap, mprotect, touching bytes
 *   ioctl_ops_group.c    groups and limits (EMFILE, scratch races, E2BIG)
 *   ioctl_ops_proc.c     close, dup, reopen, signals, fork
 *   ioctl_stress.c       --stress cycles
 *   ioctl_worker.c       a worker's set-up and loop
 *   ioctl_parent.c       kernel reports, permissions, leftovers, hangs
 *   ioctl_latency.c      the latency oracle
 *
 * A seed replays a run: every random choice comes from rnd64() below, in
 * the order the ops make them.
 */
#ifndef IOCTL_FUZZ_H
#define IOCTL_FUZZ_H

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
#include "drm_uapi.h"
#include "libtplan.h"

#define PAGE		4096UL
#define MAX_PROCS	64
#define MAX_OP_LATE	64	/* op names the latency oracle tells apart */
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

/* counters in memory shared by the parent, the workers and the sleeper */
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
	uint64_t results[4][136];	/* SUBMIT, other ioctls, mm calls, constrained SUBMITs: by errno */
	pid_t pids[MAX_PROCS];
	int race_done[MAX_PROCS];
	uint64_t max_late_ns;	/* the sleeper's latest wake-up */
	uint64_t wakeups;
	const char *doing[MAX_PROCS];	/* each worker's op now, or NULL */
	const char *late_doing[MAX_PROCS];	/* ... over the latest nap */
	struct op_late {		/* the worst nap each op ran over */
		const char *op;		/* its name (the same pointer in every process) */
		uint64_t late_ns;
		uint64_t naps;
	} op_late[MAX_OP_LATE];
};

enum { RES_SUBMIT, RES_IOCTL, RES_MM, RES_CONSTRAINED };

/* ------------------------------------------------------------------ */
/* options (ioctl_fuzz.c) */

extern const char *device;
extern uint64_t seed;
extern uint64_t cycles;
extern int procs;
extern bool stress;
extern uid_t run_uid;
extern gid_t run_gid;

/* ------------------------------------------------------------------ */
/* harness: shared counters, output, the errno oracle (ioctl_harness.c) */

extern struct shared *sh;
extern int me;			/* worker index; -1 in the parent */
extern bool forked;		/* in a short-lived child of a worker */
extern uint64_t my_calls;

void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void count_call(void);
const char *ename(int e);
bool check_errno(const char *what, int got, int expect);

/* random numbers (splitmix64); rng is seeded per worker in worker() */

extern uint64_t rng;

static inline uint64_t rnd64(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t rnd(uint64_t n)
{
	return n ? rnd64() % n : 0;
}

static inline bool chance(unsigned int pct)
{
	return rnd(100) < pct;
}

/* ------------------------------------------------------------------ */
/* the model: files, plans, groups, mappings and what their bytes hold */
/* (ioctl_model.c) */

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

/*
 * A plan's region: slots below KEEP_SLOT are its pools', the others its
 * kept regions in the order the model met them (the kernel knows them by
 * mmap offset).
 */
struct slot {
	uint64_t off;		/* mmap offset: the GEM object's */
	uint64_t len;		/* bytes we may map (exact for slots < 4) */
	uint32_t handle;	/* GEM handle (pools' slots only) */
	bool closed;		/* GEM_CLOSEd by us: no mmap, no EXPORT */
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
	uint64_t gone_off[8];	/* an mmap offset of each, or 0 */
	unsigned int ngone;
};

struct mapping {
	uint8_t *addr;
	uint64_t len;
	uint64_t base;		/* region offset of addr */
	int prot;
	struct tracker *tr;
};

extern struct file files[MAX_FILES];
extern struct mapping maps[MAX_MAPS];
extern int nmaps;
extern struct tplan_info dev_info;
extern uint32_t group_ids[MAX_GROUPS];

struct tracker *tracker_new(void);
struct tracker *tracker_get(struct tracker *t);
void tracker_put(struct tracker *t);
void segv_handler(int sig);
bool check_bytes(struct mapping *m, uint64_t from, uint64_t to,
		 const char *why);
void write_bytes(struct mapping *m, uint64_t from, uint64_t to);
struct file *file_of_fd_index(int *fd);
struct file *file_open(void);
void plan_forget(struct file *f, int idx);
void file_forget(struct file *f);
void map_forget(int idx);

/* ------------------------------------------------------------------ */
/* tables (ioctl_tables.c) */

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

extern uint8_t *table;		/* TABLE_BYTES, then a PROT_NONE page */
extern uint8_t *argbuf;		/* ARG_BYTES, then a PROT_NONE page */

struct tplan_tensor_desc *desc(uint8_t *base, uint32_t stride, uint32_t i);
uint64_t key_size(uint64_t key);
uint64_t key_align(uint64_t key);
uint32_t gen_valid(uint8_t *base, uint32_t stride, const struct gen *o);
uint32_t pick_strategy(__u64 *budget, uint32_t n);
uint32_t random_stride(void);
uint32_t base_table(uint8_t *base, uint32_t stride);

/* ------------------------------------------------------------------ */
/* calls the ops share (ioctl_calls.c) */

int do_ioctl(int fd, unsigned long cmd, void *arg);
unsigned long ioc(unsigned int dir, unsigned int nr, size_t size);
int get_info(int fd, struct tplan_info *info);
void check_info(const struct tplan_info *in);
uint64_t page_up(uint64_t x);
bool check_write_back(const struct tplan_submit *req, const uint8_t *base,
		      uint32_t stride, bool dry, bool grouped);
struct plan *record_plan(struct file *f, struct sgroup *g,
			 const struct tplan_submit *req,
			 const uint8_t *base, uint32_t stride);
struct sgroup *group_by_id(struct file *f, uint32_t id);
int find_plan(struct file *f, uint64_t id);
int map_slot(int fd, const struct slot *s, uint64_t len, int prot);
int release_plan(struct file *f, int idx);
int submit_table(struct file *f, int fd, struct tplan_submit *req,
		 uint8_t *base, uint32_t stride, int expect,
		 const char *what, struct plan **held);
void init_submit(struct tplan_submit *req, uint8_t *base, uint32_t n,
		 uint32_t stride);

/* ------------------------------------------------------------------ */
/* ops (ioctl_ops_*.c), run by run_ops() (ioctl_ops.c) */

void run_ops(unsigned int count);

/* ioctl_ops_submit.c */
void op_get_info(void);
void op_submit_valid(void);
void op_submit_big(void);
void op_submit_bad(void);
void op_submit_struct(void);

/* ioctl_ops_constrained.c */
void op_submit_constrained(void);

/* ioctl_ops_spill.c */
void op_submit_spill(void);

/* ioctl_ops_release.c */
void op_release(void);
void release_child_made(void);
void op_release_bad(void);
void op_bad_number(void);
void op_core_number(void);
void op_export(void);

/* ioctl_ops_mm.c */
void op_mmap(void);
void op_munmap(void);
void op_mremap(void);
void op_mprotect(void);
void op_touch(void);

/* ioctl_ops_group.c */
void op_emfile(void);
void op_race_grow(void);
void op_keep_limit(void);

/* ioctl_ops_proc.c */
void disarm_timer(void);
void alarm_handler(int sig);
void op_close(void);
void op_dup(void);
void op_signal(void);
void op_stop_sibling(void);
void op_reopen(void);
void op_fork(void);

/* ------------------------------------------------------------------ */
/* stress, workers, the parent, the latency oracle */

/* ioctl_stress.c */
void stress_cycle(struct file *f, uint32_t *group);

/* ioctl_worker.c */
void worker(int k, uint64_t quota);

/* ioctl_parent.c */
extern uint64_t reports;

void kmsg_open(void);
void kmsg_poll(void);
bool check_perms(void);
bool device_idle(void);
void dump_workers(void);

/* ioctl_latency.c */
extern uint64_t max_latency_ms;	/* 0: report the latency only */

pid_t start_sleeper(void);
bool latency_ok(void);

#endif /* IOCTL_FUZZ_H */
