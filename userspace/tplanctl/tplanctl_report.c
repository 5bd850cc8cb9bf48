// SPDX-License-Identifier: MIT
/*
 * tplanctl_report.c - the plan summary (in text for people and JSON for
 * scripts), the failure messages and exit codes the commands share, and
 * the device calls they share (open, --hold).
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tplanctl.h"

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
static void print_tiers_text(FILE *out, const struct tplanctl_summary *s)
{
	const struct tplan_result *r = s->res;
	u64 total = total_weight(r);
	char share[16];
	u32 k;

	for (k = 0; k < s->opts->tier_count && s->opts->tier_count > 1; k++) {
		format_share(share, sizeof(share), r->tier_weight[k], total);
		fprintf(out, "tier %u       peak %llu bytes", k, r->tier_peak[k]);
		if (s->opts->tier_capacity[k])
			fprintf(out, " of %llu", s->opts->tier_capacity[k]);
		fprintf(out, ", %s%% of priority-weighted bytes\n", share);
	}
}

static void print_models_text(FILE *out, const struct tplanctl_summary *s)
{
	char share[16];

	if (s->models < 2)
		return;
	format_share(share, sizeof(share),
		     s->apart > s->res->peak ? s->apart - s->res->peak : 0,
		     s->apart);
	fprintf(out, "models       %u, %s\n", s->models,
		s->opts->flags & TPLAN_PLAN_SERIAL ? "serial" : "concurrent");
	fprintf(out, "apart        %llu bytes (each model planned alone)\n",
		s->apart);
	if (s->apart >= s->res->peak)
		fprintf(out, "saved        %llu bytes (%s%%)\n",
			s->apart - s->res->peak, share);
	else
		fprintf(out, "saved        none: %llu bytes more than apart\n",
			s->res->peak - s->apart);
}

static void print_text(FILE *out, const struct tplanctl_summary *s,
		       const char *ratio)
{
	const struct tplan_result *r = s->res;

	fprintf(out, "table        %s\n", s->source);
	fprintf(out, "tensors      %" PRIu32 "\n", s->count);
	fprintf(out, "strategy     %s\n", tplan_strategy_name(r->strategy));
	if (s->opts->capacity)
		fprintf(out, "capacity     %llu bytes\n", s->opts->capacity);
	fprintf(out, "naive total  %llu bytes\n", r->naive_total);
	fprintf(out, "lower bound  %llu bytes\n", r->lower_bound);
	fprintf(out, "peak         %llu bytes\n", r->peak);
	fprintf(out, "peak/bound   %s\n", ratio);
	print_tiers_text(out, s);
	print_models_text(out, s);
	if (r->search)
		fprintf(out, "search       %s\n", tplan_search_name(r->search));
	if (s->minimize && s->proven_above == r->peak)
		fprintf(out, "minimize     optimal: proven that nothing smaller fits\n");
	else if (s->minimize)
		fprintf(out, "minimize     best found within the budget: the optimum is %llu to %llu bytes\n",
			s->proven_above, r->peak);
	fprintf(out, "work         %llu units\n", r->work);
	fprintf(out, "time         %llu.%03llu ms\n",
		r->time_ns / 1000000, r->time_ns / 1000 % 1000);
	if (s->sub) {
		const struct tplan_plan_region *first =
			&s->sub->regions[s->sub->pool];

		fprintf(out, "plan id      %llu\n", s->sub->plan_id);
		fprintf(out, "pool         %" PRIu32 "\n", s->sub->pool);
		fprintf(out, "region       %llu bytes at offset %llu\n",
			first->region_size, first->region_offset);
		fprintf(out, "mmap offset  %llu\n", first->mmap_offset);
	}
}

/* A JSON string, quotes included: escapes what JSON requires. */
void tplanctl_fprint_json_string(FILE *out, const char *text)
{
	fputc('"', out);
	for (const char *p = text; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if ((unsigned char)*p < 0x20)
			fprintf(out, "\\u%04x", (unsigned char)*p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

void tplanctl_print_json_string(const char *text)
{
	tplanctl_fprint_json_string(stdout, text);
}

/* Tiers and models, when the plan has them. */
static void print_extras_json(FILE *out, const struct tplanctl_summary *s)
{
	const struct tplan_result *r = s->res;
	u32 k;

	if (s->opts->tier_count > 1) {
		fputs(",\"tiers\":[", out);
		for (k = 0; k < s->opts->tier_count; k++)
			fprintf(out, "%s{\"peak\":%llu,\"capacity\":%llu,"
				"\"weight\":%llu}", k ? "," : "", r->tier_peak[k],
				s->opts->tier_capacity[k], r->tier_weight[k]);
		fputc(']', out);
	}
	if (s->models > 1)
		fprintf(out, ",\"models\":%u,\"mode\":\"%s\",\"apart\":%llu",
			s->models, s->opts->flags & TPLAN_PLAN_SERIAL ?
			"serial" : "concurrent", s->apart);
}

static void print_json(FILE *out, const struct tplanctl_summary *s,
		       const char *ratio)
{
	const struct tplan_result *r = s->res;

	fputs("{\"table\":", out);
	tplanctl_fprint_json_string(out, s->source);
	fprintf(out, ",\"tensors\":%" PRIu32 ",\"strategy\":\"%s\","
		"\"capacity\":%llu,\"naive_total\":%llu,"
		"\"lower_bound\":%llu,\"peak\":%llu,"
		"\"peak_over_bound\":%s,\"work\":%llu,\"time_ns\":%llu",
		s->count, tplan_strategy_name(r->strategy), s->opts->capacity,
		r->naive_total, r->lower_bound, r->peak,
		r->lower_bound || !r->peak ? ratio : "null", r->work,
		r->time_ns);
	if (r->search)
		fprintf(out, ",\"search\":\"%s\"", tplan_search_name(r->search));
	if (s->minimize)
		fprintf(out, ",\"minimize\":\"%s\",\"optimum_at_least\":%llu",
			s->proven_above == r->peak ? "optimal" : "best found",
			s->proven_above);
	print_extras_json(out, s);
	if (s->sub) {
		const struct tplan_plan_region *first =
			&s->sub->regions[s->sub->pool];

		fprintf(out, ",\"plan_id\":%llu,\"pool\":%" PRIu32 ","
			"\"region_offset\":%llu,\"region_size\":%llu,"
			"\"mmap_offset\":%llu", s->sub->plan_id, s->sub->pool,
			first->region_offset, first->region_size,
			first->mmap_offset);
	}
	fputs("}\n", out);
}

void tplanctl_print_summary(FILE *out, const struct tplanctl_summary *s,
			    bool json)
{
	char ratio[32];

	format_ratio(ratio, sizeof(ratio), s->res->peak, s->res->lower_bound);
	if (json)
		print_json(out, s, ratio);
	else
		print_text(out, s, ratio);
}

/*
 * --json's errors: what the command writes to standard error is kept in
 * memory (@mem, stderr meanwhile); if the command fails it becomes one JSON
 * object on standard output, else it goes to standard error at the end.
 */
bool tplanctl_help_shown;

static struct {
	FILE *real;		/* the real standard error, NULL: not --json */
	FILE *mem;
	char *buf;
	size_t len;
	size_t shown;		/* bytes of @buf already on the real stderr */
	const char *errno_name;	/* the last error's, or NULL */
} json_err;

/**
 * tplanctl_json_errors() - with --json: keep error messages for a JSON error
 *
 * Until tplanctl_finish(), stderr writes into memory.
 */
void tplanctl_json_errors(void)
{
	FILE *mem;

	if (json_err.real)
		return;
	mem = open_memstream(&json_err.buf, &json_err.len);
	if (!mem)
		return;	/* the errors stay text */
	json_err.real = stderr;
	json_err.mem = mem;
	stderr = mem;
}

/* The error's errno, for --json's "errno" (the last one noted wins). */
void tplanctl_note_errno(int err)
{
	const char *name = strerrorname_np(err < 0 ? -err : err);

	if (err && name)
		json_err.errno_name = name;
}

/**
 * tplanctl_flush_errors() - with --json, pass on to the real standard error
 * what was written so far (a message that must be seen at once)
 */
void tplanctl_flush_errors(void)
{
	if (!json_err.real || fflush(json_err.mem))
		return;
	fwrite(json_err.buf + json_err.shown, 1, json_err.len - json_err.shown,
	       json_err.real);
	fflush(json_err.real);
	json_err.shown = json_err.len;
}

/**
 * tplanctl_finish() - the exit code of a command, its --json error printed
 * @ret: what the command returned
 *
 * After --help the command exits 0.  With --json a failure prints
 * {"error":"MESSAGE","errno":"ENOENT","exit":2} on standard output (errno
 * null when there is none), MESSAGE being what would have gone to standard
 * error; on success that text goes to standard error.
 *
 * Return: the exit code.
 */
int tplanctl_finish(int ret)
{
	char *text;
	size_t len;

	if (tplanctl_help_shown)
		ret = TPLANCTL_EXIT_OK;
	if (!json_err.real)
		return ret;
	fclose(json_err.mem);
	stderr = json_err.real;
	text = json_err.buf + json_err.shown;
	len = json_err.len - json_err.shown;
	if (ret == TPLANCTL_EXIT_OK) {
		fwrite(text, 1, len, stderr);
	} else {
		while (len && text[len - 1] == '\n')
			len--;
		text[len] = '\0';
		fflush(stdout);
		fputs("{\"error\":", stdout);
		tplanctl_fprint_json_string(stdout, text);
		fputs(",\"errno\":", stdout);
		if (json_err.errno_name)
			tplanctl_fprint_json_string(stdout, json_err.errno_name);
		else
			fputs("null", stdout);
		printf(",\"exit\":%d}\n", ret);
	}
	free(json_err.buf);
	memset(&json_err, 0, sizeof(json_err));
	return ret;
}

/**
 * tplanctl_utf8_bad() - where @s stops being valid UTF-8
 * @s: the text
 * @len: its length in bytes
 *
 * Overlong forms, surrogates and code points beyond U+10FFFF are invalid.
 *
 * Return: the offset of the first byte that does not start a valid
 * character, or @len when all of @s is valid.
 */
size_t tplanctl_utf8_bad(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, n, k;
	u32 cp;

	while (i < len) {
		if (u[i] < 0x80) {
			i++;
			continue;
		}
		n = u[i] >= 0xc2 && u[i] <= 0xdf ? 2 :
		    u[i] >= 0xe0 && u[i] <= 0xef ? 3 :
		    u[i] >= 0xf0 && u[i] <= 0xf4 ? 4 : 0;
		if (!n || len - i < n)
			return i;
		cp = u[i] & (0x7f >> n);
		for (k = 1; k < n; k++) {
			if ((u[i + k] & 0xc0) != 0x80)
				return i;
			cp = cp << 6 | (u[i + k] & 0x3f);
		}
		if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
		    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
			return i;
		i += n;
	}
	return len;
}

/* "ENOENT" for -ENOENT or ENOENT; "?" when glibc does not know it. */
const char *tplanctl_errno_name(int err)
{
	const char *name = strerrorname_np(err < 0 ? -err : err);

	tplanctl_note_errno(err);
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

/* Why planning said -EINVAL: what tplan_tensors_check() finds. */
static void explain_input(const struct tplanctl_args *a,
			  const struct tplan_table *table)
{
	struct tplan_finding f = { TPLAN_DEFECT_NONE, 0, 0 };
	struct tplan_options opts = a->opts;

	opts.gaps = table->gaps;
	opts.gap_count = table->gap_count;
	if (tplan_tensors_check(table->tensors, table->count, &opts, &f) !=
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
	tplanctl_note_errno(err);
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
			fprintf(stderr, "tplanctl %s: %s: planning was cut"
				" short before a first plan\n", cmd, a->input);
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
 * @path: --device's path, or NULL for $TPLAN_DEVICE or the first accel
 *        device that speaks tplan's ABI
 * @dev: the handle, on success
 *
 * Return: %TPLANCTL_EXIT_OK, or %TPLANCTL_EXIT_USAGE after a message.
 */
int tplanctl_open_device(const char *cmd, const char *path,
			 struct tplan_device **dev)
{
	int ret = tplan_device_open(path, dev);
	const char *env = getenv("TPLAN_DEVICE");

	if (!ret)
		return TPLANCTL_EXIT_OK;
	if (!path)	/* what tplan_device_find() looked at */
		path = env && *env ? env : "no tplan device in /sys/class/accel";
	fprintf(stderr, "tplanctl %s: %s: %s (%s%s)\n", cmd, path,
		strerror(-ret), tplanctl_errno_name(ret),
		ret == -ENOENT || ret == -ENODEV || ret == -ENXIO ?
		"; is the tplan module loaded?" : "");
	return TPLANCTL_EXIT_USAGE;
}

/**
 * tplanctl_submit_hold() - --hold: keep the plan until interrupted, then
 * give it back
 * @dev: the device
 * @sub: the plan
 *
 * The signals are blocked before "holding" is printed, so whoever waits for
 * that line may interrupt at once.
 *
 * Return: an exit code.
 */
int tplanctl_submit_hold(struct tplan_device *dev,
			 const struct tplan_submission *sub)
{
	sigset_t set;
	int ret = 0, sig;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		ret = -errno;
	fflush(stdout);
	if (!ret) {
		fprintf(stderr, "tplanctl submit: holding plan %llu; interrupt to"
			" release\n", sub->plan_id);
		tplanctl_flush_errors();	/* --json keeps stderr till the end */
		ret = -sigwait(&set, &sig);
	}
	if (!ret)
		ret = tplan_device_release(dev, sub->plan_id);
	if (ret) {
		fprintf(stderr, "tplanctl submit: plan %llu: %s (%s)\n",
			sub->plan_id, strerror(-ret), tplanctl_errno_name(ret));
		return TPLANCTL_EXIT_USAGE;
	}
	return TPLANCTL_EXIT_OK;
}

/**
 * tplanctl_stdout_data() - whether a command writes data to standard output
 * @a: its options
 *
 * With -o - or --svg - the plan (or picture) alone goes to standard
 * output, and the summary to standard error.
 *
 * Return: true if so.
 */
bool tplanctl_stdout_data(const struct tplanctl_args *a)
{
	return (a->output && !strcmp(a->output, "-")) ||
	       (a->svg && !strcmp(a->svg, "-"));
}

/* The tiers "1024,0" for a message. */
static void format_tiers(char *buf, size_t len, const struct tplan_record *rec)
{
	size_t used = 0;
	u32 k;

	buf[0] = '\0';
	for (k = 0; k < rec->tier_count && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%llu",
					 k ? "," : "", rec->tier_capacity[k]);
}

/**
 * tplanctl_apply_record() - take what a plan file records as options
 * @cmd: the command, for messages
 * @a: its options: what the command line gave wins
 * @table: the plan, with its record (&struct tplan_record)
 * @tiers: whether the command takes the recorded tiers (verify, show)
 *
 * --aliases adds to the record (which can only turn aliases on); --serial
 * or --concurrent replaces the recorded mode; --tiers replaces the recorded
 * tiers, and --capacity on a plan that records tiers is an error.
 *
 * Return: 0, or %TPLANCTL_EXIT_USAGE after a message.
 */
int tplanctl_apply_record(const char *cmd, struct tplanctl_args *a,
			  const struct tplan_table *table, bool tiers)
{
	const struct tplan_record *rec = &table->record;
	char list[TPLAN_MAX_TIERS * 24];
	u32 k;

	if (rec->flags & TPLAN_RECORD_ALIASES)
		a->opts.flags |= TPLAN_PLAN_ALIASES;
	if ((rec->flags & TPLAN_RECORD_SERIAL) && !a->concurrent)
		a->opts.flags |= TPLAN_PLAN_SERIAL;
	if (!tiers || !(rec->flags & TPLAN_RECORD_TIERS) || a->opts.tier_count)
		return 0;
	if (a->opts.capacity) {
		format_tiers(list, sizeof(list), rec);
		tplanctl_note_errno(-EINVAL);
		fprintf(stderr, "tplanctl %s: %s: the plan is across tiers (it records tiers=%s): --capacity does not apply; check other capacities with --tiers\n",
			cmd, a->input, list);
		return TPLANCTL_EXIT_USAGE;
	}
	a->opts.tier_count = rec->tier_count;
	for (k = 0; k < rec->tier_count; k++)
		a->opts.tier_capacity[k] = rec->tier_capacity[k];
	return 0;
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
	/* as tplan_table_plan() does; for submit the tiers are the pools */
	tplan_table_record(table, &a->opts);
	/* the plan first: a summary follows only a plan written */
	ret = a->output ? tplan_table_save(table, a->output, &err) : 0;
	if (ret) {
		tplanctl_note_errno(ret);
		fprintf(stderr, "tplanctl %s: %s\n", cmd, err.msg);
		return TPLANCTL_EXIT_USAGE;
	}
	tplanctl_print_summary(tplanctl_stdout_data(a) ? stderr : stdout, &s,
			       a->json);
	return TPLANCTL_EXIT_OK;
}
