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
 *
 * This file holds the options and main(); the rest of the fuzzer is in
 * tests/fuzz/ioctl_*.c, one concern a file, listed in ioctl_fuzz.h.
 */
#include "ioctl_fuzz.h"

/* options */

const char *device;	/* --device, or tplan_device_find()'s */
static char found_device[256];
uint64_t seed;
static uint64_t iters = 20000;
uint64_t cycles = 10000;
int procs;
bool stress;
static bool check_perms_opt;
uid_t run_uid = 65534;
gid_t run_gid = 65534;
static int gid_given;

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
	if (!device && !tplan_device_find(found_device, sizeof(found_device)))
		device = found_device;
	if (!device) {
		fprintf(stderr, "ioctl_fuzz: no tplan device in /sys/class/accel\n");
		return 2;
	}
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
