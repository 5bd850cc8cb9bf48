// SPDX-License-Identifier: MIT
/*
 * ioctl_stress.c - --stress: cycles of submit / map every region / check /
 * write a pattern and read it back / release.
 */
#include "ioctl_fuzz.h"

static void stress_map_all(int fd, struct plan *p)
{
	int s, m;

	for (s = 0; s < SLOTS; s++) {
		if (!p->s[s].len)
			continue;
		m = map_slot(fd, &p->s[s], p->s[s].len, PROT_READ | PROT_WRITE);
		if (m < 0)
			continue;
		write_bytes(&maps[m], 0, maps[m].len);
		check_bytes(&maps[m], 0, maps[m].len, "pattern read back");
		count_call();
		munmap(maps[m].addr, maps[m].len);
		map_forget(m);
	}
}

void stress_cycle(struct file *f, uint32_t *group)
{
	struct gen o = { .max_n = 10, .max_size = 48 * 1024 };
	struct sgroup *g = group_by_id(f, *group);
	struct tplan_submit req;
	uint32_t n, stride = TPLAN_TENSOR_DESC_SIZE_VER1;
	unsigned int kind = (unsigned int)rnd(4);
	int fd = f->fds[0], r, i;
	struct plan *p;

	o.kind = kind < 2 ? PLAIN : kind == 2 ? TIERED : GROUP;
	o.keys = o.kind == GROUP || chance(20);
	o.serial = o.kind == GROUP && chance(30);
	n = gen_valid(table, stride, &o);
	init_submit(&req, table, n, stride);
	req.strategy = (uint32_t)rnd(5);
	req.budget = req.strategy <= TPLAN_STRATEGY_ID_GREEDY_SIZE ? 0 : 20000;
	if (o.serial)
		req.flags |= TPLAN_SUBMIT_SERIAL;
	if (o.kind == TIERED)
		req.flags |= TPLAN_SUBMIT_TIERED;
	if (o.kind == GROUP)
		req.group = *group;
	count_call();
	r = ioctl(fd, TPLAN_IOC_SUBMIT, &req) ? errno : 0;
	__atomic_add_fetch(&sh->results[RES_SUBMIT][r < 136 ? r : 135], 1, __ATOMIC_RELAXED);
	if (r == ENOSPC)
		__atomic_add_fetch(&sh->enospc, 1, __ATOMIC_RELAXED);
	else if (r)
		fail("stress SUBMIT (%s, %u tensors): %s",
		     o.kind == GROUP ? "group" : o.kind == TIERED ? "tiered" : "plain",
		     n, ename(r));
	if (!r && check_write_back(&req, table, stride, false, o.kind == GROUP)) {
		__atomic_add_fetch(&sh->ok_submits, 1, __ATOMIC_RELAXED);
		p = record_plan(f, o.kind == GROUP ? g : NULL, &req, table, stride);
		if (p) {
			uint64_t id = p->id;

			stress_map_all(fd, p);
			i = find_plan(f, id);
			if (o.kind != GROUP && i >= 0)
				release_plan(f, i);
		}
	}
	/* groups: keep up to three plans, then let the group go */
	if (g->nplans && (g->nplans >= 3 || chance(25))) {
		for (i = f->nplans - 1; i >= 0; i--)
			if (f->plans[i].g == g && (chance(50) || g->nplans >= 3))
				release_plan(f, i);
	}
	if (g->nplans && chance(10)) {
		for (i = f->nplans - 1; i >= 0; i--)
			if (f->plans[i].g == g)
				release_plan(f, i);
	}
	if (!g->nplans && chance(30))
		*group = *group % 3 + 1;
	__atomic_add_fetch(&sh->cycles, 1, __ATOMIC_RELAXED);
}
