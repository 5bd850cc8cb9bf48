// SPDX-License-Identifier: MIT
/*
 * ioctl_worker.c - a worker: drops privileges, sets up its handlers and
 * buffers, opens the device and runs its ops (or stress cycles).
 */
#include "ioctl_fuzz.h"

static void drop_privileges(void)
{
	if (setgroups(0, NULL) || setgid(run_gid) || setuid(run_uid)) {
		out("ioctl_fuzz: worker %d: cannot drop privileges: %s\n", me,
		    strerror(errno));
		_exit(2);
	}
}

static void *map_with_guard(size_t bytes)
{
	uint8_t *p = mmap(NULL, bytes + PAGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		_exit(3);
	}
	mprotect(p + bytes, PAGE, PROT_NONE);
	return p;
}

void worker(int k, uint64_t quota)
{
	struct sigaction sa;
	struct file *f;
	int fd;

	me = k;
	rng = seed * 0x100000001b3ULL + (uint64_t)k * 0x9e3779b97f4a7c15ULL + 1;
	drop_privileges();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = segv_handler;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sa.sa_handler = alarm_handler;
	sigaction(SIGALRM, &sa, NULL);
	table = map_with_guard(TABLE_BYTES);
	argbuf = map_with_guard(ARG_BYTES);
	f = file_open();
	if (!f)
		_exit(2);
	fd = f->fds[0];
	if (get_info(fd, &dev_info)) {
		fail("GET_INFO: %s", strerror(errno));
		_exit(2);
	}
	check_info(&dev_info);
	if (stress) {
		uint32_t group = 1;

		sh->doing[me] = "stress_cycle";
		for (uint64_t c = 0; c < cycles; c++)
			stress_cycle(f, &group);
		while (f->nplans)
			release_plan(f, 0);
	} else {
		while (my_calls < quota)
			run_ops(1);
		disarm_timer();
		/* sometimes leave everything for exit() to clean up */
		if (chance(50)) {
			for (int i = 0; i < MAX_FILES; i++)
				while (files[i].open && files[i].nplans)
					release_plan(&files[i], 0);
			while (nmaps) {
				munmap(maps[0].addr, maps[0].len);
				map_forget(0);
			}
		}
	}
	_exit(0);
}
