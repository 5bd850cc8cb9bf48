// SPDX-License-Identifier: MIT
/*
 * tplanctl_report.c - size parsing, the plan summary (in text for people and
 * JSON for scripts) and the failure messages the commands share.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tplanctl.h"

/*
 * Parses a decimal byte count with an optional K, M or G suffix (powers of
 * 1024).  Returns 0 or -EINVAL (not a number, trailing junk, overflow).
 */
int tplanctl_parse_size(const char *text, u64 *value)
{
	u64 v = 0, mul = 1;
	const char *p = text;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++)
		if (check_mul_overflow(v, 10, &v) ||
		    check_add_overflow(v, (u64)(*p - '0'), &v))
			return -EINVAL;
	switch (*p) {
	case 'K': case 'k':
		mul = 1ull << 10;
		break;
	case 'M': case 'm':
		mul = 1ull << 20;
		break;
	case 'G': case 'g':
		mul = 1ull << 30;
		break;
	case '\0':
		break;
	default:
		return -EINVAL;
	}
	if (*p && p[1])
		return -EINVAL;
	if (check_mul_overflow(v, mul, value))
		return -EINVAL;
	return 0;
}

/* peak / bound with four decimals, in integers: 1.0000 when both are 0. */
static void format_ratio(char *buf, size_t len, u64 peak, u64 bound)
{
	unsigned __int128 scaled;

	if (!bound) {
		snprintf(buf, len, peak ? "inf" : "1.0000");
		return;
	}
	scaled = ((unsigned __int128)peak * 10000 + bound / 2) / bound;
	snprintf(buf, len, "%llu.%04u", (u64)(scaled / 10000),
		 (unsigned int)(scaled % 10000));
}

/* part / whole as a percentage with one decimal, in integers. */
static void format_share(char *buf, size_t len, u64 part, u64 whole)
{
	unsigned __int128 tenths;

	if (!whole) {
		snprintf(buf, len, "0.0");
		return;
	}
	tenths = ((unsigned __int128)part * 1000 + whole / 2) / whole;
	snprintf(buf, len, "%u.%u", (unsigned int)(tenths / 10),
		 (unsigned int)(tenths % 10));
}

static u64 total_weight(const struct tplan_result *r)
{
	u64 sum = 0;
	u32 k;

	for (k = 0; k < TPLAN_MAX_TIERS; k++)
		if (check_add_overflow(sum, r->tier_weight[k], &sum))
			return UINT64_MAX;
	return sum;
}

/* Each tier's peak, capacity and share of the priority-weighted bytes. */
static void print_tiers_text(const struct tplanctl_summary *s)
{
	const struct tplan_result *r = s->res;
	u64 total = total_weight(r);
	char share[16];
	u32 k;

	for (k = 0; k < s->opts->tier_count && s->opts->tier_count > 1; k++) {
		format_share(share, sizeof(share), r->tier_weight[k], total);
		printf("tier %u       peak %llu bytes", k, r->tier_peak[k]);
		if (s->opts->tier_capacity[k])
			printf(" of %llu", s->opts->tier_capacity[k]);
		printf(", %s%% of priority-weighted bytes\n", share);
	}
}

static void print_models_text(const struct tplanctl_summary *s)
{
	char share[16];

	if (s->models < 2)
		return;
	format_share(share, sizeof(share),
		     s->apart > s->res->peak ? s->apart - s->res->peak : 0,
		     s->apart);
	printf("models       %u, %s\n", s->models,
	       s->opts->flags & TPLAN_PLAN_SERIAL ? "serial" : "concurrent");
	printf("apart        %llu bytes (each model planned alone)\n",
	       s->apart);
	if (s->apart >= s->res->peak)
		printf("saved        %llu bytes (%s%%)\n",
		       s->apart - s->res->peak, share);
	else
		printf("saved        none: %llu bytes more than apart\n",
		       s->res->peak - s->apart);
}

static void print_text(const struct tplanctl_summary *s, const char *ratio)
{
	const struct tplan_result *r = s->res;

	printf("table        %s\n", s->source);
	printf("tensors      %" PRIu32 "\n", s->count);
	printf("strategy     %s\n", tplan_strategy_name(r->strategy));
	if (s->opts->capacity)
		printf("capacity     %llu bytes\n", s->opts->capacity);
	printf("naive total  %llu bytes\n", r->naive_total);
	printf("lower bound  %llu bytes\n", r->lower_bound);
	printf("peak         %llu bytes\n", r->peak);
	printf("peak/bound   %s\n", ratio);
	print_tiers_text(s);
	print_models_text(s);
	if (r->search)
		printf("search       %s\n", tplan_search_name(r->search));
	if (s->minimize && s->proven_above == r->peak)
		printf("minimize     optimal: proven that nothing smaller fits\n");
	else if (s->minimize)
		printf("minimize     best found within the budget: the optimum is %llu to %llu bytes\n",
		       s->proven_above, r->peak);
	printf("work         %llu units\n", r->work);
	printf("time         %llu.%03llu ms\n",
	       r->time_ns / 1000000, r->time_ns / 1000 % 1000);
	if (s->sub) {
		const struct tplan_plan_region *first =
			&s->sub->regions[s->sub->pool];

		printf("plan id      %llu\n", s->sub->plan_id);
		printf("pool         %" PRIu32 "\n", s->sub->pool);
		printf("region       %llu bytes at offset %llu\n",
		       first->region_size, first->region_offset);
		printf("mmap offset  %llu\n", first->mmap_offset);
	}
}

/* A JSON string, quotes included: escapes what JSON requires. */
void tplanctl_print_json_string(const char *text)
{
	putchar('"');
	for (const char *p = text; *p; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if ((unsigned char)*p < 0x20)
			printf("\\u%04x", (unsigned char)*p);
		else
			putchar(*p);
	}
	putchar('"');
}

/* Tiers and models, when the plan has them. */
static void print_extras_json(const struct tplanctl_summary *s)
{
	const struct tplan_result *r = s->res;
	u32 k;

	if (s->opts->tier_count > 1) {
		fputs(",\"tiers\":[", stdout);
		for (k = 0; k < s->opts->tier_count; k++)
			printf("%s{\"peak\":%llu,\"capacity\":%llu,"
			       "\"weight\":%llu}", k ? "," : "", r->tier_peak[k],
			       s->opts->tier_capacity[k], r->tier_weight[k]);
		putchar(']');
	}
	if (s->models > 1)
		printf(",\"models\":%u,\"mode\":\"%s\",\"apart\":%llu",
		       s->models, s->opts->flags & TPLAN_PLAN_SERIAL ?
		       "serial" : "concurrent", s->apart);
}

static void print_json(const struct tplanctl_summary *s, const char *ratio)
{
	const struct tplan_result *r = s->res;

	fputs("{\"table\":", stdout);
	tplanctl_print_json_string(s->source);
	printf(",\"tensors\":%" PRIu32 ",\"strategy\":\"%s\","
	       "\"capacity\":%llu,\"naive_total\":%llu,"
	       "\"lower_bound\":%llu,\"peak\":%llu,"
	       "\"peak_over_bound\":%s,\"work\":%llu,\"time_ns\":%llu",
	       s->count, tplan_strategy_name(r->strategy), s->opts->capacity,
	       r->naive_total, r->lower_bound, r->peak,
	       r->lower_bound || !r->peak ? ratio : "null", r->work,
	       r->time_ns);
	if (r->search)
		printf(",\"search\":\"%s\"", tplan_search_name(r->search));
	if (s->minimize)
		printf(",\"minimize\":\"%s\",\"optimum_at_least\":%llu",
		       s->proven_above == r->peak ? "optimal" : "best found",
		       s->proven_above);
	print_extras_json(s);
	if (s->sub) {
		const struct tplan_plan_region *first =
			&s->sub->regions[s->sub->pool];

		printf(",\"plan_id\":%llu,\"pool\":%" PRIu32 ","
		       "\"region_offset\":%llu,\"region_size\":%llu,"
		       "\"mmap_offset\":%llu", s->sub->plan_id, s->sub->pool,
		       first->region_offset, first->region_size,
		       first->mmap_offset);
	}
	puts("}");
}

void tplanctl_print_summary(const struct tplanctl_summary *s, bool json)
{
	char ratio[32];

	format_ratio(ratio, sizeof(ratio), s->res->peak, s->res->lower_bound);
	if (json)
		print_json(s, ratio);
	else
		print_text(s, ratio);
}

/* "ENOENT" for -ENOENT or ENOENT; "?" when glibc does not know it. */
const char *tplanctl_errno_name(int err)
{
	const char *name = strerrorname_np(err < 0 ? -err : err);

	return name ? name : "?";
}

/**
 * tplanctl_print_tensor_id() - name a tensor on stderr: "id 7 of model 1",
 * "id conv3"
 * @table: its table
 * @i: its row
 */
void tplanctl_print_tensor_id(const struct tplan_table *table, u32 i)
{
	const struct tplan_tensor *t = &table->tensors[i];

	if (table->names)
		fprintf(stderr, "id %s", table->names[i]);
	else
		fprintf(stderr, "id %llu", t->id);
	if (table->columns & TPLAN_COLUMN_MODEL)
		fprintf(stderr, " of model %u", t->model);
}

/* Why tplan_plan() said -EINVAL: what tplan_check_input() finds. */
static void explain_input(const struct tplanctl_args *a,
			  const struct tplan_table *table)
{
	struct tplan_finding f = { TPLAN_DEFECT_NONE, 0, 0 };
	struct tplan_options opts = a->opts;

	opts.gaps = table->gaps;
	opts.gap_count = table->gap_count;
	if (tplan_check_input(table->tensors, table->count, &opts, &f) !=
	    -EINVAL || f.defect == TPLAN_DEFECT_NONE || f.index >= table->count ||
	    f.other >= table->count) {
		fputs("invalid options or table", stderr);
		return;
	}
	fprintf(stderr, "%s: tensor ", tplan_defect_name(f.defect));
	tplanctl_print_tensor_id(table, f.index);
	if (f.other != f.index) {
		fputs(" and tensor ", stderr);
		tplanctl_print_tensor_id(table, f.other);
	}
}

static void report_tiers_full(const char *cmd, const struct tplanctl_args *a,
			      const struct tplan_result *res)
{
	u32 k;

	fprintf(stderr, "tplanctl %s: %s: does not fit in its tiers:", cmd,
		a->input);
	for (k = 0; k < a->opts.tier_count; k++)
		fprintf(stderr, "%s tier %u peak %llu of %llu", k ? "," : "", k,
			res->tier_peak[k], a->opts.tier_capacity[k]);
	fputs(" (or a tensor fits in none of the tiers it allows)\n", stderr);
}

/* What a search that did not fit the capacity established. */
static const char *search_verdict(u32 search)
{
	if (search == TPLAN_SEARCH_IMPOSSIBLE)
		return "; search: proven that no plan fits";
	if (search == TPLAN_SEARCH_GAVE_UP)
		return "; search: gave up, work budget exhausted (no proof either way)";
	return "";
}

/**
 * tplanctl_report_failure() - say why planning or submitting failed
 * @cmd: "plan" or "submit"
 * @a: the command's options
 * @table: the table, to name the tensor an -EINVAL is about (may be NULL)
 * @res: the result; its peak is set on -ENOSPC
 * @err: the negative errno
 *
 * Return: the exit code: %TPLANCTL_EXIT_INFEASIBLE when the plan does not
 * fit or the budget ran out, else %TPLANCTL_EXIT_USAGE.
 */
int tplanctl_report_failure(const char *cmd, const struct tplanctl_args *a,
			    const struct tplan_table *table,
			    const struct tplan_result *res, int err)
{
	if (err == -ENOSPC && a->opts.tier_count > 1) {
		report_tiers_full(cmd, a, res);
		return TPLANCTL_EXIT_INFEASIBLE;
	}
	if (err == -ENOSPC && (!a->opts.capacity ||
			       res->peak <= a->opts.capacity)) {
		/* Only the device says this without a capacity: pools full. */
		fprintf(stderr, "tplanctl %s: %s: does not fit in the device's"
			" free memory: peak %llu (lower bound %llu)\n",
			cmd, a->input, res->peak, res->lower_bound);
		return TPLANCTL_EXIT_INFEASIBLE;
	}
	if (err == -ENOSPC) {
		fprintf(stderr, "tplanctl %s: %s: does not fit in %llu"
			" bytes: peak %llu (lower bound %llu)%s\n",
			cmd, a->input, a->opts.capacity, res->peak,
			res->lower_bound, search_verdict(res->search));
		return TPLANCTL_EXIT_INFEASIBLE;
	}
	if (err == -ETIMEDOUT) {
		if (a->opts.budget)
			fprintf(stderr, "tplanctl %s: %s: work budget of %llu"
				" units exhausted\n", cmd, a->input,
				a->opts.budget);
		else if (strcmp(cmd, "submit"))
			fprintf(stderr, "tplanctl %s: %s: time limit reached"
				" before a first plan\n", cmd, a->input);
		else
			fprintf(stderr, "tplanctl %s: %s: the device's default"
				" work budget exhausted (raise it with"
				" --budget)\n", cmd, a->input);
		return TPLANCTL_EXIT_INFEASIBLE;
	}
	if (err == -EINVAL && table) {
		fprintf(stderr, "tplanctl %s: %s: ", cmd, a->input);
		explain_input(a, table);
		fputs(" (EINVAL)\n", stderr);
		return TPLANCTL_EXIT_USAGE;
	}
	fprintf(stderr, "tplanctl %s: %s: %s (%s)\n", cmd, a->input,
		strerror(-err), tplanctl_errno_name(err));
	return TPLANCTL_EXIT_USAGE;
}

/**
 * tplanctl_open_device() - open the device, or say why not
 * @cmd: the command, for the message
 * @path: --device's path, or NULL for %TPLAN_DEVICE_PATH
 * @dev: the handle, on success
 *
 * Return: %TPLANCTL_EXIT_OK, or %TPLANCTL_EXIT_USAGE after a message.
 */
int tplanctl_open_device(const char *cmd, const char *path,
			 struct tplan_device **dev)
{
	int ret = tplan_device_open(path, dev);

	if (!ret)
		return TPLANCTL_EXIT_OK;
	if (!path)
		path = TPLAN_DEVICE_PATH;
	fprintf(stderr, "tplanctl %s: %s: %s (%s%s)\n", cmd, path,
		strerror(-ret), tplanctl_errno_name(ret),
		ret == -ENOENT || ret == -ENODEV || ret == -ENXIO ?
		"; is the tplan module loaded?" : "");
	return TPLANCTL_EXIT_USAGE;
}

/**
 * tplanctl_report_plan() - print a plan's summary and write it with -o
 * @cmd: "plan" or "submit"
 * @a: the command's options
 * @table: the planned table
 * @res: the planner's result
 * @sub: the device's part, or NULL
 * @plan_one: with several models, how to plan one alone (NULL: offline)
 * @ctx: passed to @plan_one
 *
 * With several models the summary also says what planning them one by one
 * would need, and what planning them together saved.
 *
 * Return: an exit code.
 */
int tplanctl_report_plan(const char *cmd, const struct tplanctl_args *a,
			 struct tplan_table *table,
			 const struct tplan_result *res,
			 const struct tplan_submission *sub,
			 tplan_plan_model_fn plan_one, void *ctx)
{
	struct tplanctl_summary s = {
		.source = a->input,
		.count = table->count,
		.res = res,
		.opts = &a->opts,
		.models = tplan_table_count_models(table),
		.sub = sub,
		.minimize = a->minimize,
		.proven_above = a->proven_above,
	};
	struct tplan_error err;
	int ret;

	if (s.models > 1) {
		ret = tplan_table_plan_apart(table, &a->opts, plan_one, ctx,
					     &s.apart);
		if (ret) {
			fprintf(stderr, "tplanctl %s: %s: planning the models apart: %s\n",
				cmd, a->input, strerror(-ret));
			return TPLANCTL_EXIT_USAGE;
		}
	}
	if (a->opts.tier_count > 1)
		table->columns |= TPLAN_COLUMN_TIER;
	tplanctl_print_summary(&s, a->json);
	if (a->output && tplan_table_save(table, a->output, &err)) {
		fprintf(stderr, "tplanctl %s: %s\n", cmd, err.msg);
		return TPLANCTL_EXIT_USAGE;
	}
	return TPLANCTL_EXIT_OK;
}
