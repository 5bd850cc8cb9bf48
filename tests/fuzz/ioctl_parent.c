// SPDX-License-Identifier: MIT
/*
 * ioctl_parent.c - the parent's checks: kernel reports in /dev/kmsg, the
 * device node's permissions, leftovers after the workers, where hung workers
 * are.
 */
#include "ioctl_fuzz.h"

static int kmsg = -1;
uint64_t reports;

static const char *const report_patterns[] = {
	"BUG:", "WARNING:", "KASAN:", "UBSAN:", "Oops", "general protection",
	"possible circular locking", "possible recursive locking",
	"unreferenced object", "INFO: task",
};

void kmsg_open(void)
{
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg < 0) {
		out("ioctl_fuzz: warning: /dev/kmsg: %s: kernel reports not counted\n",
		    strerror(errno));
		return;
	}
	lseek(kmsg, 0, SEEK_END);
}

void kmsg_poll(void)
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

bool check_perms(void)
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
bool device_idle(void)
{
	char line[512], last[4096] = "";
	bool ok = false;
	int tries;

	for (tries = 0; tries < 50 && !ok; tries++) {
		FILE *st = fopen("/sys/kernel/debug/accel/tplan/state", "r");
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
void dump_workers(void)
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
