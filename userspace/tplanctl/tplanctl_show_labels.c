// SPDX-License-Identifier: MIT
/*
 * tplanctl_show_labels.c - the names "show" writes on a plan's tensors:
 * each row's node column (the op that makes it, as tplan-import writes
 * it), or a names file given with --names (a tab-separated file with a
 * header naming an "id" column and a "node" or "name" column, as the
 * bench's *.names.tsv).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tplanctl_show.h"

/*
 * The end of the field at @line: its separator or the line's end.  In a
 * comma-separated line a field in double quotes (RFC 4180, as libtplan
 * writes one) ends after its closing quote.
 */
static const char *field_end(const char *line, char sep)
{
	if (sep == ',' && *line == '"') {
		for (line++; *line; line++)
			if (*line == '"' && *++line != '"')
				break;
		return line + strcspn(line, ",\n");
	}
	return line + strcspn(line, sep == ',' ? ",\n" : "\t\r\n");
}

/* Where field @k of a comma- or tab-separated @line starts, and its length. */
static const char *field(const char *line, char sep, u32 k, size_t *len)
{
	const char *end;

	for (; k; k--) {
		end = field_end(line, sep);
		if (*end != sep)
			return NULL;
		line = end + 1;
	}
	*len = (size_t)(field_end(line, sep) - line);
	return line;
}

/* The index of column @name in @header, or -1. */
static int column(const char *header, char sep, const char *name)
{
	size_t len, want = strlen(name);
	const char *f;
	u32 k;

	for (k = 0; (f = field(header, sep, k, &len)); k++)
		if (len == want && !strncmp(f, name, len))
			return (int)k;
	return -1;
}

static int hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * @len bytes of @s with %XX escapes (tplan-import's) and a field's quotes
 * undone; NULL: no memory.
 */
static char *unescaped(const char *s, size_t len)
{
	char *out = malloc(len + 1), *o = out;
	size_t i;

	if (!out)
		return NULL;
	if (len >= 2 && s[0] == '"' && s[len - 1] == '"') {
		s++;
		len -= 2;
	}
	for (i = 0; i < len; i++) {
		if (s[i] == '"' && i + 1 < len && s[i + 1] == '"')
			i++;		/* "" is one quote */
		if (s[i] == '%' && i + 2 < len && hex(s[i + 1]) >= 0 &&
		    hex(s[i + 2]) >= 0) {
			*o++ = (char)(hex(s[i + 1]) * 16 + hex(s[i + 2]));
			i += 2;
		} else {
			*o++ = s[i];
		}
	}
	*o = '\0';
	return out;
}

/* Each row's field of the table's node column, if it has one. */
static int labels_from_node_column(struct tplanctl_show_view *v)
{
	const struct tplan_table *table = v->table;
	int k = table->extra_header ? column(table->extra_header, ',', "node") :
				      -1;
	const char *f;
	size_t len;
	u32 i;

	if (k < 0 || !table->extra)
		return 0;
	for (i = 0; i < table->count; i++) {
		f = table->extra[i] ? field(table->extra[i], ',', (u32)k, &len) :
				      NULL;
		if (!f || !len)
			continue;
		v->labels[i] = unescaped(f, len);
		if (!v->labels[i])
			return -ENOMEM;
	}
	return 0;
}

struct name_entry {
	char *id;
	char *name;
};

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct name_entry *)a)->id,
		      ((const struct name_entry *)b)->id);
}

static void free_entries(struct name_entry *e, size_t n)
{
	while (n--) {
		free(e[n].id);
		free(e[n].name);
	}
	free(e);
}

/*
 * Names end up in SVG: a line whose id or name is not UTF-8 is an error,
 * said here with the file and line; -EILSEQ.
 */
static int names_not_utf8(const char *path, size_t lineno, const char *f,
			  size_t len)
{
	size_t bad = tplanctl_utf8_bad(f, len);

	if (bad == len)
		return 0;
	fprintf(stderr, "tplanctl show: %s:%zu: not valid UTF-8 (byte 0x%02x)\n",
		path, lineno, (unsigned char)f[bad]);
	return -EILSEQ;
}

/* The id and name fields of each line after the header, into @out. */
static int read_names(FILE *in, const char *path, int idc, int namec,
		      struct name_entry **out, size_t *count)
{
	struct name_entry *e = NULL, *bigger;
	size_t n = 0, room = 0, cap = 0, ilen, nlen, lineno = 1;
	const char *i, *nm;
	char *line = NULL;
	int ret;

	while (getline(&line, &cap, in) > 0) {
		lineno++;
		i = field(line, '\t', (u32)idc, &ilen);
		nm = field(line, '\t', (u32)namec, &nlen);
		if (!i || !nm || !ilen || !nlen)
			continue;
		ret = names_not_utf8(path, lineno, i, ilen);
		if (!ret)
			ret = names_not_utf8(path, lineno, nm, nlen);
		if (ret) {
			free(line);
			free_entries(e, n);
			return ret;
		}
		if (n == room) {
			room = room ? 2 * room : 256;
			bigger = realloc(e, room * sizeof(*e));
			if (!bigger)
				goto nomem;
			e = bigger;
		}
		e[n].id = strndup(i, ilen);
		e[n].name = strndup(nm, nlen);
		n++;
		if (!e[n - 1].id || !e[n - 1].name)
			goto nomem;
	}
	free(line);
	qsort(e, n, sizeof(*e), cmp_entry);
	*out = e;
	*count = n;
	return 0;
nomem:
	free(line);
	free_entries(e, n);
	return -ENOMEM;
}

/* Each row named by the entry of its id (its name, or its number). */
static int label_rows(struct tplanctl_show_view *v,
		      const struct name_entry *e, size_t n)
{
	const struct tplan_table *table = v->table;
	struct name_entry key = { 0 };
	const struct name_entry *hit;
	char num[24];
	u32 i;

	for (i = 0; i < table->count; i++) {
		if (table->names) {
			key.id = table->names[i];
		} else {
			snprintf(num, sizeof(num), "%llu", table->tensors[i].id);
			key.id = num;
		}
		hit = bsearch(&key, e, n, sizeof(*e), cmp_entry);
		if (!hit)
			continue;
		v->labels[i] = strdup(hit->name);
		if (!v->labels[i])
			return -ENOMEM;
	}
	return 0;
}

static int labels_from_file(struct tplanctl_show_view *v, const char *path)
{
	struct name_entry *e;
	char *header = NULL;
	size_t cap = 0, n;
	int idc, namec, ret;
	FILE *in = fopen(path, "r");

	if (!in)
		return -errno;
	if (getline(&header, &cap, in) <= 0) {
		ret = -EINVAL;
		goto out;
	}
	idc = column(header, '\t', "id");
	namec = column(header, '\t', "node");
	if (namec < 0)
		namec = column(header, '\t', "name");
	ret = -EINVAL;
	if (idc < 0 || namec < 0)
		goto out;
	ret = read_names(in, path, idc, namec, &e, &n);
	if (!ret) {
		ret = label_rows(v, e, n);
		free_entries(e, n);
	}
out:
	free(header);
	fclose(in);
	return ret;
}

/**
 * tplanctl_show_labels() - find the names to write on a plan's tensors
 * @v: the view; @v->labels is set (one per table row, NULL where none)
 * @names_path: a names file (--names), or NULL for the table's node column
 *
 * Return: 0; -EINVAL for a names file without a header naming an "id" and
 * a "node" or "name" column; -EILSEQ (said on stderr) for a line that is
 * not UTF-8; -ENOMEM; or the errno of opening it.
 */
int tplanctl_show_labels(struct tplanctl_show_view *v, const char *names_path)
{
	int ret;

	v->labels = calloc((size_t)v->table->count + 1, sizeof(*v->labels));
	if (!v->labels)
		return -ENOMEM;
	ret = names_path ? labels_from_file(v, names_path) :
			   labels_from_node_column(v);
	if (ret)
		tplanctl_show_free_labels(v);
	return ret;
}

/**
 * tplanctl_show_free_labels() - forget the labels tplanctl_show_labels() found
 * @v: the view
 */
void tplanctl_show_free_labels(struct tplanctl_show_view *v)
{
	u32 i;

	if (!v->labels)
		return;
	for (i = 0; i < v->table->count; i++)
		free(v->labels[i]);
	free(v->labels);
	v->labels = NULL;
}

/**
 * tplanctl_show_label() - the name to write on a tensor
 * @v: the view
 * @index: the tensor's row
 *
 * Return: its label, or NULL when it has none.
 */
const char *tplanctl_show_label(const struct tplanctl_show_view *v, u32 index)
{
	return v->labels ? v->labels[index] : NULL;
}
