// SPDX-License-Identifier: MIT
/*
 * ioctl_latency.c - the latency oracle: a real-time process sleeping 1 ms at
 * a time, and its verdict.
 */
#include "ioctl_fuzz.h"

uint64_t max_latency_ms;	/* 0: report the latency only */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Keeps @late as the worst nap beside @op if it is. */
static void note_op_late(const char *op, uint64_t late)
{
	struct op_late *e = sh->op_late;
	int i;

	for (i = 0; i < MAX_OP_LATE && e[i].op && e[i].op != op; i++)
		;
	if (i == MAX_OP_LATE)
		return;
	e[i].op = op;
	e[i].naps++;
	if (late > e[i].late_ns)
		e[i].late_ns = late;
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
		for (int k = 0; k < MAX_PROCS; k++)
			if (doing[k] && doing[k] == sh->doing[k])
				note_op_late(doing[k], late);
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

pid_t start_sleeper(void)
{
	pid_t pid = fork();

	if (!pid)
		sleeper();
	return pid;
}

static int by_lateness(const void *a, const void *b)
{
	const struct op_late *x = a, *y = b;

	return (x->late_ns < y->late_ns) - (x->late_ns > y->late_ns);
}

/*
 * The worst wake-up beside each op (every nap it ran over from start to
 * end), worst first: which calls keep a CPU from the sleeper.
 */
static void print_op_latency(void)
{
	struct op_late e[MAX_OP_LATE];
	int n = 0;

	memcpy(e, sh->op_late, sizeof(e));
	while (n < MAX_OP_LATE && e[n].op)
		n++;
	qsort(e, (size_t)n, sizeof(e[0]), by_lateness);
	out("ioctl_fuzz: worst wake-up beside each op (ms, naps):");
	for (int i = 0; i < n; i++)
		out(" %s %.1f (%" PRIu64 ")", e[i].op, (double)e[i].late_ns / 1e6,
		    e[i].naps);
	out("\n");
}

/* The oracle's verdict, printed; false when the bound was passed. */
bool latency_ok(void)
{
	double ms = (double)sh->max_late_ns / 1e6;
	bool ok = !max_latency_ms || sh->max_late_ns <= max_latency_ms * 1000000;

	char what[512];
	size_t used = 0;
	int k;

	print_op_latency();
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
