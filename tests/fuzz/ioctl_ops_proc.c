// SPDX-License-Identifier: MIT
/*
 * ioctl_ops_proc.c - ops: files and processes: close, dup, reopen, a
 * one-shot SIGALRM, SIGSTOP / SIGCONT of a sibling, fork.
 */
#include "ioctl_fuzz.h"

void disarm_timer(void)
{
	struct itimerval it = { { 0, 0 }, { 0, 0 } };

	setitimer(ITIMER_REAL, &it, NULL);
}

void op_close(void)
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

void op_dup(void)
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

void alarm_handler(int sig)
{
	(void)sig;
}

void op_signal(void)
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

void op_stop_sibling(void)
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

void op_reopen(void)
{
	file_open();
}

void op_fork(void)
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
