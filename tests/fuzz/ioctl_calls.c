// SPDX-License-Identifier: MIT
/*
 * ioctl_calls.c - the calls the ops share: ioctl wrappers, GET_INFO's answer
 * and a submit's write-back checked, a plan recorded in the model (its
 * slots, its group's scratch and kept regions), a slot mapped, a plan
 * released, a table submitted.
 */
#include "ioctl_fuzz.h"

int do_ioctl(int fd, unsigned long cmd, void *arg)
{
	int r;

	count_call();
	r = ioctl(fd, cmd, arg);
	if (!r)
		return 0;
	if (r != -1) {
		fail("ioctl %#lx returned %d", cmd, r);
		return EBADF;
	}
	return errno;
}

unsigned long ioc(unsigned int dir, unsigned int nr, size_t size)
{
	return _IOC(dir, TPLAN_IOC_MAGIC, nr, size);
}

int get_info(int fd, struct tplan_info *info)
{
	return do_ioctl(fd, TPLAN_IOC_GET_INFO, info);
}

void check_info(const struct tplan_info *in)
{
	uint32_t k;

	if (in->abi_version != TPLAN_ABI_VERSION || !in->pool_count ||
	    in->pool_count > TPLAN_MAX_POOLS || in->region_align != PAGE ||
	    in->plans_held > in->max_plans) {
		fail("GET_INFO: implausible info: abi %u pools %u align %llu held %u of %u",
		     in->abi_version, in->pool_count,
		     (unsigned long long)in->region_align, in->plans_held,
		     in->max_plans);
		return;
	}
	for (k = 0; k < in->pool_count; k++) {
		const struct tplan_pool_info *p = &in->pools[k];

		if (p->used + p->free != p->size || p->largest_free > p->free ||
		    (p->free && !p->free_regions))
			fail("GET_INFO: pool %u: size %llu used %llu free %llu largest %llu regions %u",
			     k, (unsigned long long)p->size,
			     (unsigned long long)p->used,
			     (unsigned long long)p->free,
			     (unsigned long long)p->largest_free, p->free_regions);
	}
}

/*
 * A GEM object's fake mmap offset: whole pages from 4 GiB up (the DRM
 * core's DRM_FILE_PAGE_OFFSET_START on 64-bit), below 2^40.
 */
static bool gem_offset(uint64_t off)
{
	return !(off % PAGE) && off >= (1ULL << 32) && off < (1ULL << 40);
}

/* The pool whose region of the submit has mmap offset @off, or -1. */
static int region_at(const struct tplan_submit *req, uint64_t off)
{
	int k;

	for (k = 0; k < TPLAN_MAX_POOLS; k++)
		if (req->regions[k].region_size && req->regions[k].mmap_offset == off)
			return k;
	return -1;
}

/* The model's slot of plan @p at mmap offset @off, or NO_FAULT. */
static uint32_t slot_of(const struct plan *p, uint64_t off)
{
	uint32_t k;

	for (k = 0; k < SLOTS; k++)
		if (p->s[k].len && p->s[k].off == off)
			return k;
	return NO_FAULT;
}

uint64_t page_up(uint64_t x)
{
	return (x + PAGE - 1) / PAGE * PAGE;
}

/* The write-back of a successful submit; false if inconsistent. */
bool check_write_back(const struct tplan_submit *req, const uint8_t *base,
		      uint32_t stride, bool dry, bool grouped)
{
	uint32_t i, k;

	if (dry && req->plan_id) {
		fail("dry run returned plan id %llu", (unsigned long long)req->plan_id);
		return false;
	}
	if (!dry && !req->plan_id) {
		fail("submit returned plan id 0");
		return false;
	}
	for (k = 0; k < TPLAN_MAX_POOLS; k++) {
		const struct tplan_plan_region *r = &req->regions[k];

		if (!r->region_size) {
			if (r->mmap_offset || r->handle) {
				fail("submit: region %u: no bytes, mmap %#llx handle %u",
				     k, (unsigned long long)r->mmap_offset, r->handle);
				return false;
			}
			continue;
		}
		if (dry || k >= dev_info.pool_count || r->region_size % PAGE ||
		    r->region_size < r->peak || !gem_offset(r->mmap_offset) ||
		    region_at(req, r->mmap_offset) != (int)k || !r->handle) {
			fail("submit: region %u: size %llu peak %llu mmap %#llx handle %u (plan %llu%s)",
			     k, (unsigned long long)r->region_size,
			     (unsigned long long)r->peak,
			     (unsigned long long)r->mmap_offset, r->handle,
			     (unsigned long long)req->plan_id, dry ? ", dry" : "");
			return false;
		}
	}
	for (i = 0; i < req->count; i++) {
		const struct tplan_tensor_desc *d = desc((uint8_t *)base, stride, i);
		int in;

		if (!d->size)
			continue;
		if (dry) {
			if (d->mmap_offset || d->pool >= dev_info.pool_count) {
				fail("dry run: tensor %u: pool %u mmap %#llx", i,
				     d->pool, (unsigned long long)d->mmap_offset);
				return false;
			}
			continue;
		}
		/* a region's, or a kept region's of a group */
		in = region_at(req, d->mmap_offset);
		if (!gem_offset(d->mmap_offset) ||
		    (d->alignment && d->offset % d->alignment) ||
		    (in >= 0 && (d->pool != (uint32_t)in ||
				 d->offset + d->size > req->regions[in].region_size)) ||
		    (in < 0 && (!grouped || !d->share_key ||
			       d->pool >= dev_info.pool_count))) {
			fail("submit: tensor %u (size %llu align %llu key %llu): offset %llu pool %u mmap %#llx, plan %llu",
			     i, (unsigned long long)d->size,
			     (unsigned long long)d->alignment,
			     (unsigned long long)d->share_key,
			     (unsigned long long)d->offset, d->pool,
			     (unsigned long long)d->mmap_offset,
			     (unsigned long long)req->plan_id);
			return false;
		}
	}
	return true;
}

static struct gkey *find_gkey(struct sgroup *g, uint64_t key)
{
	int i;

	for (i = 0; i < g->nkeys; i++)
		if (g->keys[i].key == key)
			return &g->keys[i];
	return NULL;
}

/* A kept tensor (a share_key with bytes) in the plan's slot @slot. */
static bool kept_in_slot(const struct tplan_tensor_desc *d,
			 const struct plan *p, uint32_t slot)
{
	return d->share_key && d->size && slot_of(p, d->mmap_offset) == slot;
}

/* What we know of a kept slot's bytes, from the keys it holds. */
static struct tracker *kept_tracker(struct sgroup *g, const uint8_t *base,
				    uint32_t stride, uint32_t n,
				    const struct plan *p, uint32_t slot)
{
	struct tracker *tr = NULL;
	bool fresh = true, same = true;
	uint32_t i;

	for (i = 0; i < n; i++) {
		const struct tplan_tensor_desc *d = desc((uint8_t *)base, stride, i);
		struct gkey *k;

		if (!kept_in_slot(d, p, slot))
			continue;
		k = find_gkey(g, d->share_key);
		if (!k)
			continue;
		fresh = false;
		if (tr && tr != k->tr)
			same = false;
		tr = k->tr;
	}
	if (!fresh && same) {
		/* a key we never saw may sit with old ones: not knowable */
		for (i = 0; i < n; i++) {
			const struct tplan_tensor_desc *d = desc((uint8_t *)base, stride, i);

			if (kept_in_slot(d, p, slot) &&
			    !find_gkey(g, d->share_key))
				same = false;
		}
	}
	if (!fresh && same)
		return tracker_get(tr);
	tr = tracker_new();
	tr->lax = !fresh;
	for (i = 0; i < n; i++) {
		const struct tplan_tensor_desc *d = desc((uint8_t *)base, stride, i);
		struct gkey *k;

		if (!kept_in_slot(d, p, slot))
			continue;
		k = find_gkey(g, d->share_key);
		if (k) {
			tracker_put(k->tr);
		} else if (g->nkeys < MAX_KEYS) {
			k = &g->keys[g->nkeys++];
			k->key = d->share_key;
		} else {
			continue;
		}
		k->tr = tracker_get(tr);
	}
	return tr;
}

/* A successful (not dry) submit: the file now holds the plan. */
struct plan *record_plan(struct file *f, struct sgroup *g,
			 const struct tplan_submit *req,
			 const uint8_t *base, uint32_t stride)
{
	struct plan *p;
	uint32_t i, k;

	if (f->nplans == MAX_HELD) {
		fail("model: more than %d plans held", MAX_HELD);
		return NULL;
	}
	p = &f->plans[f->nplans++];
	memset(p, 0, sizeof(*p));
	p->id = req->plan_id;
	p->g = g;
	p->child_made = forked;
	if (g)
		g->nplans++;
	for (k = 0; k < TPLAN_MAX_POOLS; k++) {
		const struct tplan_plan_region *r = &req->regions[k];

		if (!r->region_size)
			continue;
		p->s[k].off = r->mmap_offset;
		p->s[k].len = r->region_size;
		p->s[k].handle = r->handle;
		if (g) {
			if (!g->scratch)
				g->scratch = tracker_new();
			p->s[k].tr = tracker_get(g->scratch);
			if (r->region_size > g->scratch_size)
				g->scratch_size = r->region_size;
		} else {
			p->s[k].tr = tracker_new();
		}
	}
	if (!g)
		return p;
	/* kept regions take the model's slots from KEEP_SLOT on, as met */
	for (i = 0, k = KEEP_SLOT; i < req->count; i++) {
		const struct tplan_tensor_desc *d = desc((uint8_t *)base, stride, i);
		uint32_t s = slot_of(p, d->mmap_offset);

		if (!d->share_key || !d->size || region_at(req, d->mmap_offset) >= 0)
			continue;
		if (s == NO_FAULT) {
			if (k == SLOTS)
				continue;
			s = k++;
			p->s[s].off = d->mmap_offset;
		}
		if (page_up(d->offset + d->size) > p->s[s].len)
			p->s[s].len = page_up(d->offset + d->size);
	}
	for (k = KEEP_SLOT; k < SLOTS; k++)
		if (p->s[k].len)
			p->s[k].tr = kept_tracker(g, base, stride, req->count, p, k);
	return p;
}

struct sgroup *group_by_id(struct file *f, uint32_t id)
{
	int i;

	for (i = 0; i < MAX_GROUPS; i++)
		if (f->groups[i].id == id)
			return &f->groups[i];
	return NULL;
}

int find_plan(struct file *f, uint64_t id)
{
	int i;

	for (i = 0; i < f->nplans; i++)
		if (f->plans[i].id == id)
			return i;
	return -1;
}

/* Map one slot of a plan and check it; returns the mapping index or -1. */
int map_slot(int fd, const struct slot *s, uint64_t len, int prot)
{
	struct mapping *m;
	void *addr;

	if (nmaps == MAX_MAPS || s->closed)
		return -1;
	count_call();
	addr = mmap(NULL, len, prot, MAP_SHARED, fd, (off_t)s->off);
	if (addr == MAP_FAILED) {
		check_errno("mmap of a held plan's region", errno, 0);
		return -1;
	}
	__atomic_add_fetch(&sh->results[RES_MM][0], 1, __ATOMIC_RELAXED);
	m = &maps[nmaps++];
	m->addr = addr;
	m->len = len;
	m->base = 0;
	m->prot = prot;
	m->tr = tracker_get(s->tr);
	check_bytes(m, 0, len, "fresh mapping");
	return nmaps - 1;
}

int release_plan(struct file *f, int idx)
{
	struct tplan_release rel = { .plan_id = f->plans[idx].id };
	int fd = f->fds[rnd(f->nfds)];
	int r = do_ioctl(fd, TPLAN_IOC_RELEASE, &rel);

	check_errno("RELEASE of a held plan", r, 0);
	plan_forget(f, idx);
	return r;
}

/*
 * Submit @n descriptors from @base.  @g: the group joined, if the submit
 * may succeed into one.  Returns the result; records a held plan.
 */
int submit_table(struct file *f, int fd, struct tplan_submit *req,
		 uint8_t *base, uint32_t stride, int expect,
		 const char *what, struct plan **held)
{
	bool dry = req->flags & TPLAN_SUBMIT_DRY_RUN;
	struct sgroup *g = NULL;
	int r;

	if (held)
		*held = NULL;
	if (req->group && !dry)
		g = group_by_id(f, req->group);
	r = do_ioctl(fd, TPLAN_IOC_SUBMIT, req);
	check_errno(what, r, expect);
	if (!r && req->group && !dry && !g) {
		fail("%s: succeeded with flags %#x in group %u", what, req->flags,
		     req->group);
		return EINVAL;
	}
	if (r == EFAULT && g)
		g->unsure = true;
	if (r == ENOSPC)
		__atomic_add_fetch(&sh->enospc, 1, __ATOMIC_RELAXED);
	if (r)
		return r;
	__atomic_add_fetch(&sh->ok_submits, 1, __ATOMIC_RELAXED);
	if (!base) {	/* no table to read back: give the plan up */
		if (!dry) {
			struct tplan_release rel = { .plan_id = req->plan_id };

			do_ioctl(fd, TPLAN_IOC_RELEASE, &rel);
		}
		return r;
	}
	if (!check_write_back(req, base, stride, dry, g != NULL)) {
		if (!dry) {	/* keep the model right anyway */
			struct plan *p = record_plan(f, g, req, base, stride);

			if (p)
				release_plan(f, (int)(p - f->plans));
		}
		return r;
	}
	if (dry)
		return r;
	struct plan *p = record_plan(f, g, req, base, stride);

	if (held)
		*held = p;
	return r;
}

void init_submit(struct tplan_submit *req, uint8_t *base, uint32_t n,
		 uint32_t stride)
{
	memset(req, 0, sizeof(*req));
	req->strategy = TPLAN_STRATEGY_ID_GREEDY_SIZE;
	req->tensors = (uint64_t)(uintptr_t)base;
	req->count = n;
	req->stride = stride;
}
