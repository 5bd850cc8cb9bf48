// SPDX-License-Identifier: MIT
/*
 * ioctl_ops_submit.c - ops: GET_INFO and SUBMIT: valid random tables,
 * max_tensors tables, one thing wrong, SUBMIT's own struct.
 */
#include "ioctl_fuzz.h"

/* GET_INFO, sometimes with another struct size, direction or pointer. */
void op_get_info(void)
{
	struct file *f;
	int fd, r, expect = 0;
	size_t size = TPLAN_INFO_SIZE_VER1;
	unsigned int dir = _IOC_READ;
	uint8_t *arg = argbuf;
	unsigned int how = (unsigned int)rnd(10);

	f = file_of_fd_index(&fd);
	if (!f)
		return;
	memset(argbuf, 0xa5, ARG_BYTES);
	switch (how) {
	case 0:	/* larger: the tail comes back zeroed */
		size = TPLAN_INFO_SIZE_VER1 + 1 + rnd(16383 - TPLAN_INFO_SIZE_VER1);
		break;
	case 1:
		size = rnd(TPLAN_INFO_SIZE_VER1);
		expect = ENOTTY;
		break;
	case 2:
		dir = chance(50) ? _IOC_WRITE : _IOC_READ | _IOC_WRITE;
		expect = ENOTTY;
		break;
	case 3:
		arg = chance(50) ? NULL : (uint8_t *)0xffff800000000000ULL;
		expect = EFAULT;
		break;
	case 4:	/* straddles the guard page */
		arg = argbuf + ARG_BYTES - 1 - rnd(TPLAN_INFO_SIZE_VER1 - 1);
		expect = EFAULT;
		break;
	case 5:	/* read-only */
		mprotect(argbuf, ARG_BYTES, PROT_READ);
		expect = EFAULT;
		break;
	}
	r = do_ioctl(fd, ioc(dir, _IOC_NR(TPLAN_IOC_GET_INFO), size), arg);
	if (how == 5)
		mprotect(argbuf, ARG_BYTES, PROT_READ | PROT_WRITE);
	if (!check_errno("GET_INFO", r, expect) || r)
		return;
	check_info((struct tplan_info *)arg);
	for (size_t i = TPLAN_INFO_SIZE_VER1; i < size; i++) {
		if (arg[i]) {
			fail("GET_INFO of %zu bytes: byte %zu of the tail not cleared",
			     size, i);
			break;
		}
	}
}

/* A valid table, random options. */
void op_submit_valid(void)
{
	struct tplan_submit req;
	struct gen o = { .max_n = chance(90) ? 12 : MAX_VALID_N,
			 .max_size = chance(90) ? 64 * 1024 : 1024 * 1024 };
	uint32_t stride = random_stride(), n;
	struct plan *p;
	struct file *f;
	int fd, r;

	f = file_of_fd_index(&fd);
	if (!f)
		return;
	o.kind = (enum kind)rnd(3);
	if (forked && o.kind == GROUP)
		o.kind = PLAIN;
	o.aliases = chance(20);
	o.serial = chance(25);
	o.keys = chance(30);
	o.garbage_out = chance(20);
	if (TABLE_BYTES / stride < o.max_n)
		o.max_n = (uint32_t)(TABLE_BYTES / stride);
	n = gen_valid(table, stride, &o);
	init_submit(&req, table, n, stride);
	req.strategy = pick_strategy(&req.budget, n);
	if (o.aliases)
		req.flags |= TPLAN_SUBMIT_ALIASES;
	if (o.serial)
		req.flags |= TPLAN_SUBMIT_SERIAL;
	if (o.kind == TIERED)
		req.flags |= TPLAN_SUBMIT_TIERED;
	if (chance(15))
		req.flags |= TPLAN_SUBMIT_DRY_RUN;
	if (o.kind == GROUP)
		req.group = group_ids[rnd(MAX_GROUPS)];
	if (chance(10))
		req.time_limit_ns = chance(50) ? 1 + rnd(1000000) : UINT64_MAX - rnd(1000);
	if (chance(15))
		req.small_below = rnd(8192);
	r = submit_table(f, fd, &req, table, stride, ANY, "SUBMIT (valid table)", &p);
	if (!r && p && chance(40)) {
		int s = (int)rnd(SLOTS);

		if (p->s[s].len)
			map_slot(fd, &p->s[s], p->s[s].len, PROT_READ | PROT_WRITE);
	}
}

static uint8_t *big_table;	/* max_tensors x 104, then a PROT_NONE page */
static size_t big_bytes;

static uint8_t *big_table_get(void)
{
	if (!big_table) {
		big_bytes = page_up((size_t)dev_info.max_tensors * TPLAN_TENSOR_DESC_SIZE_VER1);
		big_table = mmap(NULL, big_bytes + PAGE, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (big_table == MAP_FAILED) {
			big_table = NULL;
			return NULL;
		}
		mprotect(big_table + big_bytes, PAGE, PROT_NONE);
	}
	return big_table;
}

/* max_tensors descriptors: cheap but whole, or broken at the end. */
void op_submit_big(void)
{
	struct tplan_submit req;
	uint32_t n = dev_info.max_tensors, i, stride = TPLAN_TENSOR_DESC_SIZE_VER1;
	uint8_t *base = big_table_get();
	unsigned int how = (unsigned int)rnd(3);
	struct file *f;
	int fd, expect = ANY;

	f = file_of_fd_index(&fd);
	if (!f || !base)
		return;
	disarm_timer();	/* a long call restarted on every tick never ends */
	memset(base, 0, (size_t)n * stride);
	for (i = 0; i < n; i++) {
		struct tplan_tensor_desc *d = desc(base, stride, i);

		d->id = i;
		d->lower = i % 7;
		d->upper = d->lower + 1;
		d->alignment = 1;
	}
	init_submit(&req, base, n, stride);
	req.strategy = TPLAN_STRATEGY_ID_NAIVE;
	req.flags = TPLAN_SUBMIT_DRY_RUN;
	if (how == 1) {
		desc(base, stride, n - 1)->upper = 0;
		expect = EINVAL;
	} else if (how == 2) {
		req.tensors = (uint64_t)(uintptr_t)(base + big_bytes -
						    (size_t)(n - 1) * stride);
		expect = EFAULT;
	}
	submit_table(f, fd, &req, base, stride, expect, "SUBMIT (max_tensors table)", NULL);
}

/* A submit with one thing wrong (or one odd but legal thing). */
void op_submit_bad(void)
{
	struct tplan_submit req;
	uint32_t stride = chance(80) ? TPLAN_TENSOR_DESC_SIZE_VER1 : random_stride();
	uint32_t n = base_table(table, stride);
	struct tplan_tensor_desc *t0 = desc(table, stride, 0);
	struct tplan_tensor_desc *t1 = desc(table, stride, 1);
	struct tplan_tensor_desc *t2 = desc(table, stride, 2);
	uint8_t *tensors = table;
	unsigned int how = (unsigned int)rnd(40);
	int expect = EINVAL, fd;
	char what[64];
	struct file *f;

	f = file_of_fd_index(&fd);
	if (!f)
		return;
	init_submit(&req, table, n, stride);
	switch (how) {
	case 0: req.flags = 1u << (4 + rnd(28)); break;
	case 1: req.reserved[rnd(sizeof(req.reserved) / sizeof(req.reserved[0]))] =
		1 + rnd64() % UINT64_MAX; break;
	case 2: req.flags = TPLAN_SUBMIT_TIERED; req.group = 1 + (uint32_t)rnd(5); break;
	case 3: req.strategy = 5 + (uint32_t)rnd(100); break;
	case 4: req.count = 0; break;
	case 5:
		req.count = dev_info.max_tensors + 1 + (uint32_t)(chance(50) ? 0 : rnd(UINT32_MAX - dev_info.max_tensors - 1));
		expect = E2BIG;
		break;
	case 6: req.stride = (uint32_t)rnd(TPLAN_TENSOR_DESC_SIZE_VER1); break;
	case 7: req.stride = TPLAN_TENSOR_DESC_SIZE_VER1 + 1 + (uint32_t)rnd(7) + 8 * (uint32_t)rnd(10); break;
	case 8: req.stride = TPLAN_TENSOR_DESC_MAX_STRIDE + 1 + (uint32_t)rnd(1u << 20); break;
	case 9:
		expect = EFAULT;
		tensors = NULL;
		switch (rnd(4)) {
		case 0: req.tensors = 0; break;
		case 1: req.tensors = 0xffff800000000000ULL + rnd(1ULL << 40); break;
		case 2: req.tensors = (uint64_t)(uintptr_t)(argbuf + ARG_BYTES); break;
		default: req.tensors = 4096 * (1 + rnd(15)); break;
		}
		break;
	case 10: /* the table runs into the guard page */
		tensors = table + TABLE_BYTES - (size_t)stride * (n - 1) - 8 * rnd(stride / 8);
		memmove(tensors, table, (size_t)stride * (n - 1));
		memset(tensors + (size_t)stride * (n - 1), 0,
		       (size_t)(table + TABLE_BYTES - tensors) - (size_t)stride * (n - 1));
		req.tensors = (uint64_t)(uintptr_t)tensors;
		expect = EFAULT;
		break;
	case 11:	/* a byte beyond every field this kernel knows */
		if (stride <= TPLAN_TENSOR_DESC_SIZE_VER2)
			req.stride = stride = TPLAN_TENSOR_DESC_SIZE_VER2 + 8;
		table[(size_t)stride * rnd(n) + TPLAN_TENSOR_DESC_SIZE_VER2 +
		      rnd(stride - TPLAN_TENSOR_DESC_SIZE_VER2)] = 1 + (uint8_t)rnd(255);
		expect = E2BIG;
		break;
	case 12: t1->flags = 1u << (3 + rnd(29)); break;	/* bits 0-2 are known */
	case 13: t1->pad = 1 + (uint32_t)rnd(UINT32_MAX); break;
	case 14: t2->upper = t2->lower - rnd(2); break;
	case 15: t2->lower = UINT64_MAX - rnd(3); t2->upper = t2->lower - rnd(2); break;
	case 16: t0->alignment = 3 + 2 * rnd(1000); break;	/* 0 reads as 1 */
	case 17: t2->id = t0->id; break;
	case 18: t2->id = t0->id; t2->model = 1; expect = ANY; break;
	case 19: t1->tiers = 1u << (TPLAN_MAX_POOLS + rnd(28)); break;
	case 20:
		req.flags = TPLAN_SUBMIT_TIERED;
		t1->tiers = 1u << (dev_info.pool_count + rnd(TPLAN_MAX_POOLS - dev_info.pool_count + 1));
		break;
	case 21: t1->tiers = 2; break;
	case 22: t0->share_key = t1->share_key = 1 + rnd(8); break;
	case 23:
		req.flags = TPLAN_SUBMIT_ALIASES;
		t1->flags = TPLAN_TENSOR_HAS_ALIAS;
		t1->alias_of = 99 + rnd(1000);
		break;
	case 24:
		req.flags = TPLAN_SUBMIT_ALIASES;
		t1->flags = TPLAN_TENSOR_HAS_ALIAS;
		t1->alias_of = t0->id;
		t1->alias_offset = t0->size - t1->size + 1 + rnd(1ULL << 40);
		break;
	case 25: /* a cycle */
		req.flags = TPLAN_SUBMIT_ALIASES;
		t1->flags = t2->flags = TPLAN_TENSOR_HAS_ALIAS;
		t1->alias_of = t2->id;
		t2->alias_of = t1->id;
		t1->size = t2->size = 1000;
		break;
	case 26:
		req.flags = TPLAN_SUBMIT_ALIASES;
		t0->share_key = 5;
		t2->flags = TPLAN_TENSOR_HAS_ALIAS;
		t2->alias_of = t0->id;
		break;
	case 27: /* an alias without TPLAN_SUBMIT_ALIASES is only a tensor */
		t1->flags = TPLAN_TENSOR_HAS_ALIAS;
		t1->alias_of = 12345;
		expect = ANY;
		break;
	case 28:
		t0->size = t1->size = 1ULL << 63;
		expect = EOVERFLOW;
		break;
	case 29: /* the largest sum that does not overflow: too big to fit */
		t0->size = UINT64_MAX - PAGE * rnd(3) - rnd(PAGE);
		t0->alignment = t1->alignment = 1;
		t1->size = t2->size = 0;
		expect = ENOSPC;
		if (chance(50)) {
			t1->size = 1 + rnd(2 * PAGE);
			expect = ANY;
		}
		break;
	case 30:
		t0->size = UINT64_MAX - rnd(1ULL << 12);
		t0->alignment = 1ULL << (13 + rnd(50));
		expect = EOVERFLOW;
		break;
	case 31:
		t0->size = t1->size = t2->size = 0;
		expect = ANY;
		break;
	case 32:
		req.budget = 1;
		req.strategy = TPLAN_STRATEGY_ID_GREEDY_SIZE;
		expect = ETIMEDOUT;
		break;
	case 33:
		req.budget = 1 + rnd(100);
		req.strategy = 2 + (uint32_t)rnd(3);
		req.time_limit_ns = rnd(2) ? 1 : UINT64_MAX;
		expect = ANY;
		break;
	case 34:
		t0->alignment = 1ULL << (12 + rnd(52));
		expect = ANY;
		break;
	case 35: /* a key's sizes differ against a live group */
		req.group = group_ids[rnd(3)];
		t0->share_key = 1 + rnd(8);
		t0->size = key_size(t0->share_key) + 1 + rnd(100);
		t0->alignment = key_align(t0->share_key);
		expect = ANY;
		break;
	case 36:
		req.flags = TPLAN_SUBMIT_TIERED | TPLAN_SUBMIT_ALIASES;
		t0->tiers = 1;
		t2->tiers = 2;
		t2->flags = TPLAN_TENSOR_HAS_ALIAS;
		t2->alias_of = t0->id;
		if (dev_info.pool_count < 2)
			expect = ANY;
		break;
	case 37:
		req.flags = TPLAN_SUBMIT_TIERED;
		t0->share_key = t2->share_key = 5;
		t0->tiers = 1;
		t2->tiers = 2;
		if (dev_info.pool_count < 2)
			expect = ANY;
		break;
	case 38:
		req.small_below = rnd64();
		expect = ANY;
		break;
	default:
		req.flags = (uint32_t)rnd(16);
		if ((req.flags & TPLAN_SUBMIT_TIERED) == 0 && chance(50))
			req.group = group_ids[rnd(MAX_GROUPS)];
		expect = ANY;
		break;
	}
	if (forked && req.group)
		return;
	snprintf(what, sizeof(what), "SUBMIT (mutation %u)", how);
	submit_table(f, fd, &req, tensors, stride, expect, what, NULL);
}

/* SUBMIT's own struct: sizes, tails, direction, pointer, read-only. */
void op_submit_struct(void)
{
	struct tplan_submit req;
	uint32_t stride = TPLAN_TENSOR_DESC_SIZE_VER1, n;
	unsigned int how = (unsigned int)rnd(8), dir = _IOC_READ | _IOC_WRITE;
	size_t size = TPLAN_SUBMIT_SIZE_VER1;
	uint8_t *arg = argbuf;
	int expect = ANY, fd, r;
	struct file *f;
	struct gen o = { .kind = PLAIN, .max_n = 6, .max_size = 16384 };

	f = file_of_fd_index(&fd);
	if (!f)
		return;
	n = gen_valid(table, stride, &o);
	init_submit(&req, table, n, stride);
	if (chance(30) && !forked)
		req.group = group_ids[rnd(3)];
	memset(argbuf, 0, ARG_BYTES);
	switch (how) {
	case 0:	/* larger, zero tail: fine */
		size = TPLAN_SUBMIT_SIZE_VER1 + 1 + rnd(16383 - TPLAN_SUBMIT_SIZE_VER1);
		break;
	case 1:
		size = TPLAN_SUBMIT_SIZE_VER1 + 1 + rnd(16383 - TPLAN_SUBMIT_SIZE_VER1);
		argbuf[TPLAN_SUBMIT_SIZE_VER1 + rnd(size - TPLAN_SUBMIT_SIZE_VER1)] = 1 + (uint8_t)rnd(255);
		expect = E2BIG;
		break;
	case 2:
		size = rnd(TPLAN_SUBMIT_SIZE_VER1);
		expect = ENOTTY;
		break;
	case 3:
		dir = (unsigned int)rnd(3);	/* none, write, read */
		expect = ENOTTY;
		break;
	case 4:
		arg = chance(50) ? NULL : (uint8_t *)0xffff800000000000ULL;
		expect = EFAULT;
		break;
	case 5:	/* readable only in part */
		arg = argbuf + ARG_BYTES - 8 - 8 * rnd(TPLAN_SUBMIT_SIZE_VER1 / 8 - 1);
		expect = EFAULT;
		break;
	case 6:	/* read-only: the plan cannot be returned, so it is given back */
		expect = EFAULT;
		break;
	case 7:	/* the table is read-only: the offsets cannot be written back */
		expect = EFAULT;
		break;
	}
	if (how == 5) {
		size_t room = ARG_BYTES - (size_t)(arg - argbuf);

		memcpy(arg, &req, room);
	} else if (arg == argbuf) {
		memcpy(arg, &req, sizeof(req));
	}
	if (how == 6)
		mprotect(argbuf, ARG_BYTES, PROT_READ);
	if (how == 7)
		mprotect(table, TABLE_BYTES, PROT_READ);
	r = do_ioctl(fd, ioc(dir, _IOC_NR(TPLAN_IOC_SUBMIT), size), arg);
	if (how == 6)
		mprotect(argbuf, ARG_BYTES, PROT_READ | PROT_WRITE);
	if (how == 7)
		mprotect(table, TABLE_BYTES, PROT_READ | PROT_WRITE);
	/* resources may run out first, before anything is copied out */
	if ((how == 6 || how == 7) && (r == ENOSPC || r == EMFILE || r == E2BIG))
		expect = ANY;
	if ((how == 6 || how == 7) && req.group && r == EINVAL)
		expect = ANY;	/* a tensor's pools against the group's region */
	check_errno("SUBMIT (struct)", r, expect);
	if (r == EFAULT && req.group && group_by_id(f, req.group))
		group_by_id(f, req.group)->unsure = true;
	if (r || arg != argbuf)
		return;
	memcpy(&req, argbuf, sizeof(req));
	for (size_t i = TPLAN_SUBMIT_SIZE_VER1; i < size; i++) {
		if (argbuf[i]) {
			fail("SUBMIT of %zu bytes: byte %zu of the tail not cleared", size, i);
			break;
		}
	}
	if (!check_write_back(&req, table, stride, false, req.group != 0))
		return;
	/*
	 * A forked child records its plan too (child_made): it gives it back
	 * before it exits, else the plan would stay in the file it shares
	 * with its parent, unknown to the parent's model, and its mmap offset
	 * could be one the parent gave up (a probe of that offset then maps).
	 */
	record_plan(f, req.group ? group_by_id(f, req.group) : NULL, &req,
		    table, stride);
}
