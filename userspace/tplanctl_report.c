// SPDX-License-Identifier: MIT
/*
 * tplanctl_report.c - argument parsing helpers and the plan summary, in text
 * for people and JSON for scripts.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>

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
	printf("work         %llu units\n", r->work);
	printf("time         %llu.%03llu ms\n",
	       r->time_ns / 1000000, r->time_ns / 1000 % 1000);
}

static void print_json(const struct tplanctl_summary *s, const char *ratio)
{
	const struct tplan_result *r = s->res;

	/* The source is a path: escape what JSON requires. */
	fputs("{\"table\":\"", stdout);
	for (const char *p = s->source; *p; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if ((unsigned char)*p < 0x20)
			printf("\\u%04x", (unsigned char)*p);
		else
			putchar(*p);
	}
	printf("\",\"tensors\":%" PRIu32 ",\"strategy\":\"%s\","
	       "\"capacity\":%llu,\"naive_total\":%llu,"
	       "\"lower_bound\":%llu,\"peak\":%llu,"
	       "\"peak_over_bound\":%s,\"work\":%llu,\"time_ns\":%llu"
	       "}\n", s->count, tplan_strategy_name(r->strategy), s->capacity,
	       r->naive_total, r->lower_bound, r->peak,
	       r->lower_bound || !r->peak ? ratio : "null", r->work,
	       r->time_ns);
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
