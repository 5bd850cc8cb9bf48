// SPDX-License-Identifier: MIT
/*
 * ioctl_harness.c - the counters shared by every process, each process's
 * place (me, forked, my_calls), output, failures, the errno oracle
 * (check_errno()) and the random numbers' state.
 */
#include "ioctl_fuzz.h"

struct shared *sh;
int me = -1;		/* worker index; -1 in the parent */
bool forked;		/* in a short-lived child of a worker */
uint64_t my_calls;
static unsigned int printed;

void out(const char *fmt, ...)
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

void fail(const char *fmt, ...)
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

void count_call(void)
{
	my_calls++;
	__atomic_add_fetch(&sh->calls, 1, __ATOMIC_RELAXED);
}

const char *ename(int e)
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
	case ENFILE: return "ENFILE";
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
	case ENFILE: case ENOMEM: case ENOENT: case ENXIO: case EPERM:
	case EACCES: case ENOBUFS:
		return true;
	}
	return false;
}

/*
 * @got against @expect: ANY takes every documented errno; else the
 * expected one, or what the environment may always cause (a signal,
 * memory).  Returns true when @got was acceptable.
 */
bool check_errno(const char *what, int got, int expect)
{
	int kind = !strncmp(what, "SUBMIT (constrained", 19) ? RES_CONSTRAINED :
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
	/* the device's plans are shared: max_device_plans, as its pools */
	if (kind != RES_IOCTL && kind != RES_MM && got == ENFILE &&
	    (expect == 0 || expect == ENOSPC || expect == EMFILE))
		return true;
	fail("%s: expected %s, got %s", what, ename(expect), ename(got));
	return false;
}

/* the random numbers' state (splitmix64: rnd64() in ioctl_fuzz.h) */
uint64_t rng;
