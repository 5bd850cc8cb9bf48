// SPDX-License-Identifier: MIT
/*
 * tplanctl_spill.c - "tplanctl plan --spill" and "tplanctl verify --spill":
 * plans whose tensors may be moved out to host memory between two uses,
 * written and checked one row per piece; the summary and the file "submit
 * --spill" shares.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tplanctl.h"

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

/**
 * tplanctl_spill_misuse() - what is wrong with --spill and its options
 * @a: the parsed arguments
 * @one_file: the command's words for "only one file"

 *
 * The rules plan and submit share; each command then refuses its own
 * options that do not go with --spill.
 *
 * Return: the reason, or NULL (also without --spill).
 */
const char *tplanctl_spill_misuse(const struct tplanctl_args *a,
				  const char *one_file)
{
	if (!a->spill)
		return a->spill_strategy_set ? "--spill-strategy needs --spill" :
					       NULL;
	if (a->input_count != 1)
		return one_file;
	return a->opts.capacity ? NULL : "--spill needs --capacity";
}

/**
 * tplanctl_table_uses() - a table's uses for the planner
 * @table: the table
 * @u: room for them
 *
 * Return: @u, or NULL when the table has no uses column (every tensor's
 * default).
 */
const struct tplan_uses *tplanctl_table_uses(const struct tplan_table *table,
					     struct tplan_uses *u)
{
	if (!table->use_start)
		return NULL;
	u->step = table->use_step;
	u->start = table->use_start;
	return u;
}

static int write_id(FILE *out, const struct tplan_table *table, u32 i)
{
	if (table->names)
		return fputs(table->names[i], out) == EOF ? -1 : 0;
	return fprintf(out, "%llu", table->tensors[i].id) < 0 ? -1 : 0;
}

/* The table's other columns a piece keeps (not aliases, not uses). */
#define PIECE_EXTRAS	(TPLAN_COLUMN_ALIGNMENT | TPLAN_COLUMN_MODEL | \
			 TPLAN_COLUMN_PRIORITY | TPLAN_COLUMN_TIERS | \
			 TPLAN_COLUMN_SHARE_KEY)

static int write_extras(FILE *out, u32 columns, const struct tplan_tensor *t)
{
	u32 k;

	if ((columns & TPLAN_COLUMN_ALIGNMENT) &&
	    fprintf(out, ",%llu", t->alignment) < 0)
		return -1;
	if ((columns & TPLAN_COLUMN_MODEL) && fprintf(out, ",%u", t->model) < 0)
		return -1;
	if ((columns & TPLAN_COLUMN_PRIORITY) &&
	    fprintf(out, ",%u", t->priority) < 0)
		return -1;
	if (columns & TPLAN_COLUMN_TIERS) {
		if (fputc(',', out) == EOF)
			return -1;
		for (k = 0; k < TPLAN_MAX_TIERS; k++)
			if ((t->tiers & (1u << k)) &&
			    fputc('0' + (int)k, out) == EOF)
				return -1;
	}
	if ((columns & TPLAN_COLUMN_SHARE_KEY) &&
	    fprintf(out, ",%llu", t->share_key) < 0)
		return -1;
	return fputc('\n', out) == EOF ? -1 : 0;
}

/* One row per piece: id,lower,upper,size,offset,piece,host_offset,... */
static int write_pieces(FILE *out, const struct tplan_table *table,
			const struct tplan_piece *p, u32 np)
{
	u32 columns = table->columns & PIECE_EXTRAS, j;

	if (fputs("id,lower,upper,size,offset,piece,host_offset", out) == EOF ||
	    ((columns & TPLAN_COLUMN_ALIGNMENT) && fputs(",alignment", out) == EOF) ||
	    ((columns & TPLAN_COLUMN_MODEL) && fputs(",model", out) == EOF) ||
	    ((columns & TPLAN_COLUMN_PRIORITY) && fputs(",priority", out) == EOF) ||
	    ((columns & TPLAN_COLUMN_TIERS) && fputs(",tiers", out) == EOF) ||
	    ((columns & TPLAN_COLUMN_SHARE_KEY) && fputs(",share_key", out) == EOF) ||
	    fputc('\n', out) == EOF)
		return -1;
	for (j = 0; j < np; j++) {
		const struct tplan_tensor *t = &table->tensors[p[j].tensor];

		if (write_id(out, table, p[j].tensor) ||
		    fprintf(out, ",%llu,%llu,%llu,%llu,%u,", p[j].lower,
			    p[j].upper, t->size, p[j].offset, p[j].piece) < 0 ||
		    (p[j].piece && fprintf(out, "%llu", p[j].host_offset) < 0) ||
		    write_extras(out, columns, t))
			return -1;
	}
	return fflush(out) || ferror(out) ? -1 : 0;
}

static int save_pieces(const char *cmd, const char *path,
		       const struct tplan_table *table,
		       const struct tplan_piece *p, u32 np)
{
	FILE *out = strcmp(path, "-") ? fopen(path, "w") : stdout;
	int ret;

	if (!out) {
		tplanctl_note_errno(-errno);
		fprintf(stderr, "tplanctl %s: %s: %s\n", cmd, path,
			strerror(errno));
		return -1;
	}
	ret = write_pieces(out, table, p, np);
	if (out != stdout && fclose(out))
		ret = -1;
	if (ret)
		fprintf(stderr, "tplanctl %s: %s: write error\n", cmd, path);
	return ret;
}

/* Whose evictions a plan kept, in words. */
static const char *evictions(u32 strategy)
{
	if (strategy == TPLAN_SPILL_FURTHEST)
		return "furthest next use";
	if (strategy == TPLAN_SPILL_GA)
		return "segments and genetic algorithm";
	return "fewest bytes (cost per byte, exchanges)";
}

static void print_json(FILE *out, const struct tplanctl_args *a, u32 count,
		       const struct tplan_spill_result *r, u64 time_ns,
		       const struct tplan_submission *sub)
{
	fputs("{\"table\":", out);
	tplanctl_fprint_json_string(out, a->input);
	fprintf(out, ",\"tensors\":%" PRIu32 ",\"spill_strategy\":\"%s\","
		"\"evictions\":\"%s\",\"capacity\":%llu,\"live_peak\":%llu,"
		"\"pieces\":%u,\"moved\":%llu,\"moved_bound\":%llu,"
		"\"host_peak\":%llu,\"peak\":%llu,\"work\":%llu,"
		"\"time_ns\":%llu", count,
		tplan_spill_strategy_name(a->spill_strategy),
		tplan_spill_strategy_name(r->strategy), a->opts.capacity,
		r->live_peak, r->pieces, r->moved, r->moved_bound, r->host_peak,
		r->peak, r->work, time_ns);
	if (sub) {
		const struct tplan_plan_region *first = &sub->regions[sub->pool];

		fprintf(out, ",\"plan_id\":%llu,\"pool\":%" PRIu32 ","
			"\"region_offset\":%llu,\"region_size\":%llu,"
			"\"mmap_offset\":%llu", sub->plan_id, sub->pool,
			first->region_offset, first->region_size,
			first->mmap_offset);
	}
	fputs("}\n", out);
}

static void print_summary(FILE *out, const struct tplanctl_args *a, u32 count,
			  const struct tplan_spill_result *r, u64 time_ns,
			  const struct tplan_submission *sub)
{
	if (a->json) {
		print_json(out, a, count, r, time_ns, sub);
		return;
	}
	fprintf(out, "table        %s\n", a->input);
	fprintf(out, "tensors      %" PRIu32 "\n", count);
	fprintf(out, "spill        %s\n", tplan_spill_strategy_name(a->spill_strategy));
	fprintf(out, "evictions    %s\n", evictions(r->strategy));
	fprintf(out, "capacity     %llu bytes\n", a->opts.capacity);
	fprintf(out, "live peak    %llu bytes (all tensors in)\n", r->live_peak);
	fprintf(out, "pieces       %u\n", r->pieces);
	fprintf(out, "moved        %llu bytes\n", r->moved);
	fprintf(out, "moved bound  %llu bytes\n", r->moved_bound);
	fprintf(out, "host peak    %llu bytes\n", r->host_peak);
	fprintf(out, "peak         %llu bytes\n", r->peak);
	fprintf(out, "work         %llu units\n", r->work);
	fprintf(out, "time         %llu.%03llu ms\n", time_ns / 1000000,
		time_ns / 1000 % 1000);
	if (sub) {
		const struct tplan_plan_region *first = &sub->regions[sub->pool];

		fprintf(out, "plan id      %llu\n", sub->plan_id);
		fprintf(out, "pool         %" PRIu32 "\n", sub->pool);
		fprintf(out, "region       %llu bytes at offset %llu\n",
			first->region_size, first->region_offset);
		fprintf(out, "mmap offset  %llu\n", first->mmap_offset);
	}
}

/**
 * tplanctl_spill_report() - print a spill plan's summary, write it with -o
 * @cmd: "plan" or "submit"
 * @a: the command's options
 * @table: the planned table
 * @r: the planner's result
 * @p: the pieces (@r->pieces of them)
 * @time_ns: how long planning took
 * @sub: the device's part, or NULL (offline, dry run)
 *
 * Return: an exit code.
 */
int tplanctl_spill_report(const char *cmd, const struct tplanctl_args *a,
			  const struct tplan_table *table,
			  const struct tplan_spill_result *r,
			  const struct tplan_piece *p, u64 time_ns,
			  const struct tplan_submission *sub)
{
	if (a->output && save_pieces(cmd, a->output, table, p, r->pieces))
		return TPLANCTL_EXIT_USAGE;
	print_summary(tplanctl_stdout_data(a) ? stderr : stdout, a,
		      table->count, r, time_ns, sub);
	return TPLANCTL_EXIT_OK;
}

/**
 * tplanctl_spill_failure() - say why a spill plan failed
 * @cmd: "plan" or "submit"
 * @a: the command's options
 * @table: the table, to name a tensor whose uses are wrong
 * @r: the result: the failing step and its bytes on -ENOSPC
 * @err: the negative errno
 *
 * Return: the exit code: %TPLANCTL_EXIT_INFEASIBLE when the plan does not
 * fit or the budget ran out, else %TPLANCTL_EXIT_USAGE.
 */
int tplanctl_spill_failure(const char *cmd, const struct tplanctl_args *a,
			   const struct tplan_table *table,
			   const struct tplan_spill_result *r, int err)
{
	struct tplan_finding f;
	struct tplan_uses u;

	tplanctl_note_errno(err);
	if (err == -ENOSPC && !r->fail_bytes) {
		/* Only the device says this: its pools are full. */
		fprintf(stderr, "tplanctl %s: %s: does not fit in the device's free memory: peak %llu\n",
			cmd, a->input, r->peak);
		return TPLANCTL_EXIT_INFEASIBLE;
	}
	if (err == -ENOSPC && r->fail_step == UINT64_MAX) {
		fprintf(stderr, "tplanctl %s: %s: does not fit in %llu bytes: every step's used tensors fit, but the pieces need %llu bytes by addresses\n",
			cmd, a->input, a->opts.capacity, r->fail_bytes);
		return TPLANCTL_EXIT_INFEASIBLE;
	}
	if (err == -ENOSPC) {
		fprintf(stderr, "tplanctl %s: %s: does not fit in %llu bytes: step %llu uses %llu bytes\n",
			cmd, a->input, a->opts.capacity, r->fail_step,
			r->fail_bytes);
		return TPLANCTL_EXIT_INFEASIBLE;
	}
	if (err == -EOVERFLOW) {
		fprintf(stderr, "tplanctl %s: %s: the sizes, each counted twice per gap between uses and once more (what a spill plan may place and move), add up past 2^64 - 1 (EOVERFLOW)\n",
			cmd, a->input);
		return TPLANCTL_EXIT_USAGE;
	}
	if (err == -ETIMEDOUT) {
		fprintf(stderr, "tplanctl %s: %s: work budget exhausted (raise it with --budget)\n",
			cmd, a->input);
		return TPLANCTL_EXIT_INFEASIBLE;
	}
	if (err == -EINVAL &&
	    tplan_tensors_check_spill(table->tensors, table->count,
				      tplanctl_table_uses(table, &u), &f) == -EINVAL &&
	    f.defect != TPLAN_DEFECT_NONE) {
		fprintf(stderr, "tplanctl %s: %s: tensor ", cmd, a->input);
		tplanctl_print_tensor_id(table, f.index);
		fprintf(stderr, ": %s\n", tplan_defect_name(f.defect));
		return TPLANCTL_EXIT_USAGE;
	}
	fprintf(stderr, "tplanctl %s: %s: %s (%s)\n", cmd, a->input,
		strerror(-err), tplanctl_errno_name(err));
	return TPLANCTL_EXIT_USAGE;
}

/**
 * tplanctl_plan_spill() - "plan --spill": pieces within the capacity
 * @a: the parsed options (one file, a capacity)
 *
 * Return: an exit code.
 */
int tplanctl_plan_spill(const struct tplanctl_args *a)
{
	struct tplan_spill_params params = {
		.strategy = a->spill_strategy,
		.capacity = a->opts.capacity,
		.budget = a->opts.budget,
	};
	struct tplan_spill_result r;
	struct tplan_table *table;
	struct tplan_piece *p;
	struct tplan_uses u;
	const struct tplan_uses *up;
	u64 start;
	u32 cap;
	int ret;

	ret = tplanctl_load("plan", a, &table);
	if (ret)
		return ret;
	up = tplanctl_table_uses(table, &u);
	cap = tplan_tensors_max_pieces(table->tensors, table->count, up);
	p = calloc(cap ? cap : 1, sizeof(*p));
	if (!p) {
		tplan_table_free(table);
		fprintf(stderr, "tplanctl plan: %s\n", strerror(ENOMEM));
		return TPLANCTL_EXIT_USAGE;
	}
	start = now_ns();
	ret = tplan_tensors_plan_spill(table->tensors, table->count, up, &params,
				       p, cap, &r);
	if (ret)
		ret = tplanctl_spill_failure("plan", a, table, &r, ret);
	else
		ret = tplanctl_spill_report("plan", a, table, &r, p,
					    now_ns() - start, NULL);
	free(p);
	tplan_table_free(table);
	return ret;
}

/* A row's key in its table: model, then its name (or numeric id). */
struct row_key {
	const struct tplan_table *table;
	u32 row;
};

static int cmp_row_key(const void *x, const void *y)
{
	const struct row_key *a = x, *b = y;
	const struct tplan_tensor *ta = &a->table->tensors[a->row];
	const struct tplan_tensor *tb = &b->table->tensors[b->row];

	if (ta->model != tb->model)
		return ta->model < tb->model ? -1 : 1;
	if (a->table->names && b->table->names)
		return strcmp(a->table->names[a->row], b->table->names[b->row]);
	if (a->table->names || b->table->names)
		return a->table->names ? 1 : -1;
	return ta->id < tb->id ? -1 : ta->id > tb->id;
}

static void describe_piece(const struct tplan_table *plan, u32 j)
{
	const struct tplan_tensor *t = &plan->tensors[j];

	tplanctl_print_tensor_id(plan, j);
	fprintf(stderr, " piece %u (steps [%llu, %llu), bytes [%llu, %llu))",
		plan->piece[j], t->lower, t->upper, t->offset,
		t->offset + t->size);
}

static int report_spill_finding(const struct tplanctl_args *a,
				const struct tplan_table *in,
				const struct tplan_table *plan,
				const struct tplan_finding *f)
{
	fprintf(stderr, "tplanctl verify: %s: invalid spill plan: %s: ",
		a->input, tplan_defect_name(f->defect));
	if (f->defect == TPLAN_DEFECT_USE_OUT) {
		fputs("tensor ", stderr);
		tplanctl_print_tensor_id(in, f->index);
	} else {
		describe_piece(plan, f->index);
		if (f->other != f->index) {
			fputs(" and ", stderr);
			describe_piece(plan, f->other);
		}
	}
	fputc('\n', stderr);
	return TPLANCTL_EXIT_INFEASIBLE;
}

/* Each row of @plan as a piece of a tensor of @in, found by id. */
static int match_pieces(const struct tplanctl_args *a,
			const struct tplan_table *in,
			const struct tplan_table *plan, struct tplan_piece *p)
{
	struct row_key *keys, key;
	u32 i;
	int ret = 0;

	keys = calloc(in->count, sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	for (i = 0; i < in->count; i++)
		keys[i] = (struct row_key){ in, i };
	qsort(keys, in->count, sizeof(*keys), cmp_row_key);
	for (i = 0; i < plan->count && !ret; i++) {
		const struct tplan_tensor *t = &plan->tensors[i];
		struct row_key *hit;

		key = (struct row_key){ plan, i };
		hit = bsearch(&key, keys, in->count, sizeof(*keys),
			      cmp_row_key);
		if (!hit || in->tensors[hit->row].size != t->size) {
			fprintf(stderr, "tplanctl verify: %s: ", a->input);
			tplanctl_print_tensor_id(plan, i);
			fprintf(stderr, " piece %u: %s the table %s\n",
				plan->piece[i], hit ? "size differs from" :
				"no such tensor in", a->table);
			ret = -EINVAL;
			break;
		}
		p[i].tensor = hit->row;
		p[i].piece = plan->piece[i];
		p[i].lower = t->lower;
		p[i].upper = t->upper;
		p[i].offset = t->offset;
		p[i].host_offset = plan->host_offset ? plan->host_offset[i] : 0;
	}
	free(keys);
	return ret;
}

struct live_event {
	u64 step;
	s64 bytes;	/* + at lower, - at upper */
};

static int cmp_live_event(const void *x, const void *y)
{
	const struct live_event *a = x, *b = y;

	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	return (a->bytes > 0) - (b->bytes > 0);	/* ends first */
}

/*
 * 2 x the most bytes live at one step beyond @capacity: what any plan
 * moves at least (every byte out comes back), from the table alone.
 */
static int excess_bound(const struct tplan_table *in, u64 capacity, u64 *bound)
{
	struct live_event *ev;
	u64 live = 0, most = 0;
	u32 i;

	ev = malloc(((size_t)in->count * 2 + 1) * sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	for (i = 0; i < in->count; i++) {
		ev[2 * i] = (struct live_event){ in->tensors[i].lower,
						 (s64)in->tensors[i].size };
		ev[2 * i + 1] = (struct live_event){ in->tensors[i].upper,
						     -(s64)in->tensors[i].size };
	}
	qsort(ev, (size_t)in->count * 2, sizeof(*ev), cmp_live_event);
	for (i = 0; i < in->count * 2; i++) {
		live += (u64)ev[i].bytes;
		most = max(most, live);
	}
	free(ev);
	*bound = most > capacity ? 2 * (most - capacity) : 0;
	return 0;
}

static int print_verified(const struct tplanctl_args *a,
			  const struct tplan_table *in,
			  const struct tplan_piece *p, u32 np)
{
	u64 moved = 0, host = 0, peak = 0, bound;
	u32 j;

	if (excess_bound(in, a->opts.capacity, &bound)) {
		fprintf(stderr, "tplanctl verify: %s\n", strerror(ENOMEM));
		return TPLANCTL_EXIT_USAGE;
	}

	for (j = 0; j < np; j++) {
		u64 z = in->tensors[p[j].tensor].size;

		if (z)
			peak = max(peak, p[j].offset + z);
		if (!p[j].piece)
			continue;
		moved += 2 * z;
		if (z)
			host = max(host, p[j].host_offset + z);
	}
	if (a->json) {
		fputs("{\"file\":", stdout);
		tplanctl_print_json_string(a->input);
		printf(",\"valid\":true,\"tensors\":%" PRIu32 ",\"pieces\":%u,"
		       "\"peak\":%llu,\"moved\":%llu,\"host_peak\":%llu,"
		       "\"least_moved\":%llu}\n",
		       in->count, np, peak, moved, host, bound);
		return 0;
	}
	printf("%s: valid spill plan: %" PRIu32 " tensors, %u pieces, peak %llu, moved %llu, host peak %llu; any plan moves at least %llu\n",
	       a->input, in->count, np, peak, moved, host, bound);
	return 0;
}

/**
 * tplanctl_verify_spill() - "verify --spill": check pieces against a table
 * @a: the parsed options (the plan, --table, --capacity)
 *
 * Return: an exit code.
 */
int tplanctl_verify_spill(const struct tplanctl_args *a)
{
	struct tplan_table *in = NULL, *plan = NULL;
	struct tplan_finding f = { TPLAN_DEFECT_NONE, 0, 0 };
	struct tplan_piece *p = NULL;
	struct tplan_error err;
	struct tplan_uses u;
	int ret;

	ret = tplanctl_load("verify", a, &plan);
	if (ret)
		return ret;
	if (tplan_table_load(a->table, &in, &err)) {
		fprintf(stderr, "tplanctl verify: %s\n", err.msg);
		ret = TPLANCTL_EXIT_USAGE;
		goto out;
	}
	if (!(plan->columns & TPLAN_COLUMN_OFFSET) || !plan->piece ||
	    !plan->host_offset) {
		fprintf(stderr, "tplanctl verify: %s: no offset, piece and host_offset columns: not a spill plan\n",
			a->input);
		ret = TPLANCTL_EXIT_USAGE;
		goto out;
	}
	p = calloc(plan->count, sizeof(*p));
	ret = p ? match_pieces(a, in, plan, p) : -ENOMEM;
	if (ret) {
		if (ret == -ENOMEM)
			fprintf(stderr, "tplanctl verify: %s\n", strerror(ENOMEM));
		ret = ret == -EINVAL ? TPLANCTL_EXIT_INFEASIBLE :
				       TPLANCTL_EXIT_USAGE;
		goto out;
	}
	ret = tplan_tensors_validate_spill(in->tensors, in->count,
					   tplanctl_table_uses(in, &u), p,
					   plan->count, a->opts.capacity, &f);
	if (ret == -EINVAL && f.defect != TPLAN_DEFECT_NONE) {
		ret = report_spill_finding(a, in, plan, &f);
	} else if (ret) {
		fprintf(stderr, "tplanctl verify: %s: %s\n", a->input,
			strerror(-ret));
		ret = TPLANCTL_EXIT_USAGE;
	} else {
		ret = print_verified(a, in, p, plan->count);
	}
out:
	free(p);
	tplan_table_free(in);
	tplan_table_free(plan);
	return ret;
}
