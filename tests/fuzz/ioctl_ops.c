// SPDX-License-Identifier: MIT
/*
 * ioctl_ops.c - the op catalogue: each op with its weight, the rare costly
 * ones, and run_ops(), which draws them.
 */
#include "ioctl_fuzz.h"

struct op {
	void (*fn)(void);
	unsigned int weight;
	const char *name;	/* for the latency oracle's report */
};

#define OP(fn, weight)	{ fn, weight, #fn }

static const struct op ops[] = {
	OP(op_get_info, 6),
	OP(op_submit_valid, 22),
	OP(op_submit_bad, 26),
	OP(op_submit_struct, 5),
	OP(op_submit_spill, 6),
	OP(op_submit_constrained, 10),
	OP(op_release, 12),
	OP(op_release_bad, 4),
	OP(op_bad_number, 1),
	OP(op_core_number, 1),
	OP(op_export, 3),
	OP(op_mmap, 12),
	OP(op_munmap, 7),
	OP(op_mremap, 3),
	OP(op_mprotect, 3),
	OP(op_touch, 10),
	OP(op_close, 1),
	OP(op_dup, 1),
	OP(op_reopen, 1),
	OP(op_signal, 2),
	OP(op_stop_sibling, 1),
	OP(op_fork, 1),
};

/* Costly operations, each run about once in so many steps. */
static const struct rare_op {
	unsigned int one_in;
	struct op op;
} rare_ops[] = {
	{ 20000, OP(op_submit_big, 0) },
	{ 3000, OP(op_emfile, 0) },
	{ 4000, OP(op_keep_limit, 0) },
	{ 300, OP(op_race_grow, 0) },
};

/* Runs @o, saying so where the latency oracle looks. */
static void run_op(const struct op *o)
{
	sh->doing[me] = o->name;
	o->fn();
	sh->doing[me] = NULL;
}

/* Runs one rare operation if its turn came; true if one ran. */
static bool run_rare_op(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(rare_ops) / sizeof(rare_ops[0]); i++) {
		if (!rnd(rare_ops[i].one_in)) {
			run_op(&rare_ops[i].op);
			return true;
		}
	}
	return false;
}

void run_ops(unsigned int count)
{
	unsigned int total = 0, i, k;
	int held;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		total += ops[i].weight;
	for (k = 0; k < count; k++) {
		unsigned int r;
		bool any = false;

		for (i = 0; i < MAX_FILES; i++)
			any |= files[i].open;
		if (!any) {
			file_open();
			continue;
		}
		if (run_rare_op())
			continue;
		held = 0;
		for (i = 0; i < MAX_FILES; i++)
			held += files[i].open ? files[i].nplans : 0;
		if (held > 12 && chance(30)) {
			op_release();
			continue;
		}
		if (nmaps > 12 && chance(30)) {
			op_munmap();
			continue;
		}
		r = (unsigned int)rnd(total);
		for (i = 0; r >= ops[i].weight; i++)
			r -= ops[i].weight;
		run_op(&ops[i]);
	}
}
