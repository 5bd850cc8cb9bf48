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

static void print_text(const struct tplanctl_summary *s, const char *ratio)
{
	const struct tplan_result *r = s->res;

	printf("table        %s\n", s->source);
	printf("tensors      %" PRIu32 "\n", s->count);
	printf("strategy     %s\n", tplan_strategy_name(r->strategy));
	if (s->capacity)
		printf("capacity     %llu bytes\n", s->capacity);
	printf("naive total  %llu bytes\n", r->naive_total);
	printf("lower bound  %llu bytes\n", r->lower_bound);
	printf("peak         %llu bytes\n", r->peak);
	printf("peak/bound   %s\n", ratio);
	if (r->search)
		printf("search       %s\n", tplan_search_name(r->search));
	printf("work         %llu units\n", r->work);
	printf("time         %llu.%03llu ms\n",
	       r->time_ns / 1000000, r->time_ns / 1000 % 1000);
	if (s->sub) {
		printf("plan id      %llu\n", s->sub->plan_id);
		printf("pool         %" PRIu32 "\n", s->sub->pool);
		printf("region       %llu bytes at offset %llu\n",
		       s->sub->region_size, s->sub->region_offset);
		printf("mmap offset  %llu\n", s->sub->mmap_offset);
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

static void print_json(const struct tplanctl_summary *s, const char *ratio)
{
	const struct tplan_result *r = s->res;

	fputs("{\"table\":", stdout);
	tplanctl_print_json_string(s->source);
	printf(",\"tensors\":%" PRIu32 ",\"strategy\":\"%s\","
	       "\"capacity\":%llu,\"naive_total\":%llu,"
	       "\"lower_bound\":%llu,\"peak\":%llu,"
	       "\"peak_over_bound\":%s,\"work\":%llu,\"time_ns\":%llu",
	       s->count, tplan_strategy_name(r->strategy), s->capacity,
	       r->naive_total, r->lower_bound, r->peak,
	       r->lower_bound || !r->peak ? ratio : "null", r->work,
	       r->time_ns);
	if (r->search)
		printf(",\"search\":\"%s\"", tplan_search_name(r->search));
	if (s->sub)
		printf(",\"plan_id\":%llu,\"pool\":%" PRIu32 ","
		       "\"region_offset\":%llu,\"region_size\":%llu,"
		       "\"mmap_offset\":%llu", s->sub->plan_id, s->sub->pool,
		       s->sub->region_offset, s->sub->region_size,
		       s->sub->mmap_offset);
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
 * tplanctl_report_failure() - say why planning or submitting failed
 * @cmd: "plan" or "submit"
 * @a: the command's options
 * @res: the result; its peak is set on -ENOSPC
 * @err: the negative errno
 *
 * Return: the exit code: %TPLANCTL_EXIT_INFEASIBLE when the plan does not
 * fit or the budget ran out, else %TPLANCTL_EXIT_USAGE.
 */
int tplanctl_report_failure(const char *cmd, const struct tplanctl_args *a,
			    const struct tplan_result *res, int err)
{
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
			" bytes: peak %llu (lower bound %llu)\n",
			cmd, a->input, a->opts.capacity, res->peak,
			res->lower_bound);
		return TPLANCTL_EXIT_INFEASIBLE;
	}
	if (err == -ETIMEDOUT) {
		if (a->opts.budget)
			fprintf(stderr, "tplanctl %s: %s: work budget of %llu"
				" units exhausted\n", cmd, a->input,
				a->opts.budget);
		else
			fprintf(stderr, "tplanctl %s: %s: the device's default"
				" work budget exhausted (raise it with"
				" --budget)\n", cmd, a->input);
		return TPLANCTL_EXIT_INFEASIBLE;
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

/*
 * What "plan" and "submit" do with a plan: print its summary (with the
 * device's part when @sub is set) and write it with -o.  An exit code.
 */
int tplanctl_report_plan(const char *cmd, const struct tplanctl_args *a,
			 const struct tplan_table *table,
			 const struct tplan_result *res,
			 const struct tplan_submission *sub)
{
	struct tplanctl_summary s = {
		.source = a->input,
		.count = table->count,
		.res = res,
		.capacity = a->opts.capacity,
		.sub = sub,
	};
	struct tplan_error err;

	tplanctl_print_summary(&s, a->json);
	if (a->output && tplan_table_save(table, a->output, &err)) {
		fprintf(stderr, "tplanctl %s: %s\n", cmd, err.msg);
		return TPLANCTL_EXIT_USAGE;
	}
	return TPLANCTL_EXIT_OK;
}
