/* SPDX-License-Identifier: MIT */
/*
 * csv_text.h - tables to and from in-memory text, for the CSV tests
 * (test_csv.c, test_minimalloc.c): fmemopen and open_memstream, so that
 * they need no files.
 */
#ifndef TPLAN_TEST_CSV_TEXT_H
#define TPLAN_TEST_CSV_TEXT_H

#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "libtplan.h"

/* Reads @len bytes of @buf as the file @name; -999 if no stream. */
static inline int csv_text_read(const char *name, const char *buf, size_t len,
				struct tplan_table **t, struct tplan_error *err)
{
	FILE *in = fmemopen((void *)buf, len, "r");
	int ret;

	*t = NULL;
	if (!in) {
		CHECK(in != NULL);
		return -999;
	}
	ret = tplan_table_read(in, name, t, err);
	fclose(in);
	return ret;
}

/* Writes a table into a malloc'ed string; NULL on failure (checked). */
static inline char *csv_text_write(const struct tplan_table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	int ret;

	if (!out)
		return NULL;
	ret = tplan_table_write(t, out);
	fclose(out);
	CHECK_EQ(ret, 0);
	if (ret) {
		free(buf);
		return NULL;
	}
	return buf;
}

#endif /* TPLAN_TEST_CSV_TEXT_H */
