// SPDX-License-Identifier: MIT
/*
 * tplanctl_progress.c - a progress line on standard error for long runs:
 * from the first second on, once a second, what the command is doing, on
 * which file, for how long.  On a terminal the line is rewritten in place
 * and cleared at the end; with --progress and standard error elsewhere (a
 * log), it is one line a second.  A 1 s interval timer drives it (SIGALRM,
 * SA_RESTART: reads and writes are not interrupted); the handler only
 * formats and write()s.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "tplanctl.h"

static const char *volatile progress_cmd;
static const char *volatile progress_file;
static const char *volatile progress_stage;
static volatile sig_atomic_t progress_seconds;
static volatile sig_atomic_t progress_shown;
static bool progress_tty;
static bool progress_on;

static size_t put_text(char *buf, size_t at, size_t cap, const char *s)
{
	while (s && *s && at < cap)
		buf[at++] = *s++;
	return at;
}

static size_t put_number(char *buf, size_t at, size_t cap, unsigned long v)
{
	char digits[24];
	int k = 0;

	do {
		digits[k++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (k && at < cap)
		buf[at++] = digits[--k];
	return at;
}

static void on_tick(int sig)
{
	char line[600];
	size_t at = 0, cap = sizeof(line) - 4;
	int saved = errno;
	ssize_t unused;

	(void)sig;
	progress_seconds++;
	if (progress_tty)
		at = put_text(line, at, cap, "\r");
	at = put_text(line, at, cap, "tplanctl ");
	at = put_text(line, at, cap, progress_cmd);
	at = put_text(line, at, cap, ": ");
	at = put_text(line, at, cap, progress_stage);
	at = put_text(line, at, cap, " ");
	at = put_text(line, at, cap, progress_file);
	at = put_text(line, at, cap, ", ");
	at = put_number(line, at, cap, (unsigned long)progress_seconds);
	at = put_text(line, at, cap, " s");
	at = put_text(line, at, sizeof(line), progress_tty ? "\033[K" : "\n");
	unused = write(STDERR_FILENO, line, at);
	(void)unused;
	progress_shown = 1;
	errno = saved;
}

/**
 * tplanctl_progress_start() - show progress from now on, if wanted
 * @cmd: the command ("plan")
 * @file: the file it works on
 * @forced: --progress: also when standard error is not a terminal
 */
void tplanctl_progress_start(const char *cmd, const char *file, bool forced)
{
	struct itimerval every_second = { { 1, 0 }, { 1, 0 } };
	struct sigaction sa;

	progress_tty = isatty(STDERR_FILENO);
	if (progress_on || (!forced && !progress_tty))
		return;
	progress_cmd = cmd;
	progress_file = file;
	progress_stage = "reading";
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_tick;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) ||
	    setitimer(ITIMER_REAL, &every_second, NULL))
		return;
	progress_on = true;
}

/**
 * tplanctl_progress_stage() - what the command does now
 * @stage: "reading", "planning", "writing"...: a string that lives on
 */
void tplanctl_progress_stage(const char *stage)
{
	progress_stage = stage;
}

/**
 * tplanctl_progress_stop() - no more progress; a line left on a terminal
 * is cleared
 */
void tplanctl_progress_stop(void)
{
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	struct sigaction sa;
	ssize_t unused;

	if (!progress_on)
		return;
	setitimer(ITIMER_REAL, &off, NULL);
	/* a tick already pending must not end the process */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	if (progress_tty && progress_shown) {
		unused = write(STDERR_FILENO, "\r\033[K", 4);
		(void)unused;
	}
	progress_on = false;
}
