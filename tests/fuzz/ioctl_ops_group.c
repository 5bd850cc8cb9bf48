// SPDX-License-Identifier: MIT
/*
 * ioctl_ops_group.c - ops: groups and limits: max_plans filled to EMFILE, a
 * group's scratch grown while a forked process maps it, 13 kept regions to
 * E2BIG.
 */
#include "ioctl_fuzz.h"

/* Fill the file to max_plans with empty plans: then EMFILE. */
void op_emfile(void)
{
	struct tplan_info info;
	struct tplan_submit req;
	struct tplan_tensor_desc t = { .id = 1, .lower = 0, .upper = 1, .alignment = 1 };
	uint32_t i, room;
	int fd, r, first;
	struct file *f = file_of_fd_index(&fd);

	if (!f || forked || get_info(fd, &info))
		return;
	if (info.plans_held > info.max_plans || (int)(info.max_plans - info.plans_held) +
	    f->nplans > MAX_HELD + 1)
		return;
	room = info.max_plans - info.plans_held;
	first = f->nplans;
	for (i = 0; i <= room; i++) {
		init_submit(&req, (uint8_t *)&t, 1, sizeof(t));
		r = submit_table(f, fd, &req, (uint8_t *)&t, sizeof(t),
				 i < room ? ANY : EMFILE, "SUBMIT (filling max_plans)", NULL);
		if (i < room && r == EMFILE)
			fail("EMFILE after %u of %u plans", i, room);
		if (r)
			break;
	}
	while (f->nplans > first)
		release_plan(f, f->nplans - 1);
}

/* A held plan of a live group of @f with a scratch region; its slot. */
static struct plan *group_scratch_plan(struct file *f, int *slot)
{
	int i, k;

	for (i = 0; i < f->nplans; i++) {
		struct plan *p = &f->plans[i];

		if (!p->g || p->g->unsure || p->child_made)
			continue;
		for (k = 0; k < KEEP_SLOT; k++) {
			if (p->s[k].len && !p->s[k].closed) {
				*slot = k;
				return p;
			}
		}
	}
	return NULL;
}

/*
 * A group's scratch grows while another process of the file maps it
 * through an older plan's GEM object: that object keeps the size it was
 * made with (a longer mapping is EINVAL), and its bytes stay what this
 * file wrote while the region grows behind them.
 */
void op_race_grow(void)
{
	struct tplan_tensor_desc t[2];
	struct tplan_submit req;
	struct sgroup *g;
	struct plan *p;
	uint64_t old, grow;
	int fd, slot, m, status;
	struct file *f = file_of_fd_index(&fd);
	pid_t pid;

	if (!f || forked || nmaps == MAX_MAPS)
		return;
	p = group_scratch_plan(f, &slot);
	if (!p)
		return;
	g = p->g;
	old = p->s[slot].len;	/* this plan's GEM object: its size then */
	/* the old bytes hold our pattern, the new ones must not */
	m = map_slot(fd, &p->s[slot], old, PROT_READ | PROT_WRITE);
	if (m < 0)
		return;
	write_bytes(&maps[m], 0, old);
	count_call();
	munmap(maps[m].addr, maps[m].len);
	map_forget(m);
	grow = PAGE * (1 + rnd(32));
	sh->race_done[me] = 0;
	count_call();
	pid = fork();
	if (pid < 0)
		return;
	if (!pid) {
		struct mapping mm = { .base = 0, .prot = PROT_READ, .tr = p->s[slot].tr };
		int n;

		forked = true;
		disarm_timer();
		for (n = 0; n < 2000 && !__atomic_load_n(&sh->race_done[me], __ATOMIC_ACQUIRE); n++) {
			mm.len = old + PAGE * rnd(grow / PAGE + 2);
			count_call();
			mm.addr = mmap(NULL, mm.len, PROT_READ, MAP_SHARED, fd, (off_t)p->s[slot].off);
			if (mm.addr == MAP_FAILED) {
				if (errno != EINVAL)
					check_errno("mmap of a growing scratch region", errno, 0);
				continue;
			}
			check_bytes(&mm, 0, mm.len, "scratch mapped while it grows");
			munmap(mm.addr, mm.len);
		}
		_exit(0);
	}
	memset(t, 0, sizeof(t));
	t[0].id = 1;
	t[0].lower = 0;
	t[0].upper = 2;
	t[0].size = old + grow - 8 * rnd(8);
	t[0].alignment = 1;
	t[1].id = 2;
	t[1].lower = 1;
	t[1].upper = 3;
	t[1].size = rnd(4096);
	t[1].alignment = 8;
	init_submit(&req, (uint8_t *)t, 2, sizeof(t[0]));
	req.group = g->id;
	if (!submit_table(f, fd, &req, (uint8_t *)t, sizeof(t[0]), ANY,
			  "SUBMIT (growing a group's scratch)", NULL) &&
	    g->scratch_size > old)
		__atomic_add_fetch(&sh->raced_grows, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&sh->race_done[me], 1, __ATOMIC_RELEASE);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fail("mapping child: status %#x", status);
}

/* A plan may use at most 12 kept regions: the 13th is E2BIG. */
void op_keep_limit(void)
{
	struct tplan_tensor_desc t[13];
	struct tplan_submit req;
	struct sgroup *g;
	int fd, i, r = 0;
	struct file *f = file_of_fd_index(&fd);

	if (!f || forked)
		return;
	g = group_by_id(f, group_ids[2]);
	if (!g || g->nplans || f->nplans + 13 > MAX_HELD)
		return;
	memset(t, 0, sizeof(t));
	for (i = 0; i < 13; i++) {
		t[i].id = (uint64_t)i;
		t[i].lower = 0;
		t[i].upper = 1 + rnd(3);
		t[i].size = 64 + 8 * rnd(8);
		t[i].alignment = 8;
		t[i].share_key = 1000 + (uint64_t)i;
	}
	for (i = 0; i < 13 && !r; i++) {	/* one kept region per plan */
		init_submit(&req, (uint8_t *)&t[i], 1, sizeof(t[0]));
		req.group = g->id;
		r = submit_table(f, fd, &req, (uint8_t *)&t[i], sizeof(t[0]), ANY,
				 "SUBMIT (one new key)", NULL);
	}
	if (!r) {
		init_submit(&req, (uint8_t *)t, 13, sizeof(t[0]));
		req.group = g->id;
		if (submit_table(f, fd, &req, (uint8_t *)t, sizeof(t[0]), E2BIG,
				 "SUBMIT (13 kept regions)", NULL) == E2BIG)
			__atomic_add_fetch(&sh->keep_limits, 1, __ATOMIC_RELAXED);
	}
	for (i = f->nplans - 1; i >= 0; i--)
		if (f->plans[i].g == g)
			release_plan(f, i);
}
