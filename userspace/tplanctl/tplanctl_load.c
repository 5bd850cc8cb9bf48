// SPDX-License-Identifier: MIT
/*
 * tplanctl_load.c - the table a command works on: one file, or one model
 * per file merged into one table.
 */
#include <stdio.h>

#include "tplanctl.h"

/* One table of one model per file. */
static int load_models(const struct tplanctl_args *a, struct tplan_table **table,
		       struct tplan_error *err)
{
	struct tplan_table *parts[TPLANCTL_MAX_FILES] = { NULL };
	u32 k;
	int ret = 0;

	if (a->input_count > TPLANCTL_MAX_FILES) {
		snprintf(err->msg, sizeof(err->msg), "more than %u files",
			 TPLANCTL_MAX_FILES);
		return -E2BIG;
	}
	for (k = 0; k < a->input_count && !ret; k++)
		ret = tplan_table_load(a->inputs[k], &parts[k], err);
	if (!ret)
		ret = tplan_table_merge(parts, a->input_count,
					(const char *const *)a->inputs, table,
					err);
	for (k = 0; k < a->input_count; k++)
		tplan_table_free(parts[k]);
	return ret;
}

/**
 * tplanctl_note_ignored_aliases() - say that alias_of entries are ignored
 * @cmd: the command, for the message
 * @a: its options
 * @table: the table it plans
 *
 * A table with alias_of entries planned without --aliases (and not a plan
 * that records them) gets a note naming the flag, rather than every tensor
 * silently getting bytes of its own.  Not with --json, whose standard
 * error stays empty on success.
 */
void tplanctl_note_ignored_aliases(const char *cmd,
				   const struct tplanctl_args *a,
				   const struct tplan_table *table)
{
	u32 i;

	if (a->json || (a->opts.flags & TPLAN_PLAN_ALIASES) ||
	    (table->record.flags & TPLAN_RECORD_ALIASES))
		return;
	for (i = 0; i < table->count; i++) {
		if (!(table->tensors[i].flags & TPLAN_TENSOR_ALIAS))
			continue;
		fprintf(stderr, "tplanctl %s: note: %s: alias_of is ignored without --aliases (each tensor has bytes of its own)\n",
			cmd, a->input_count == 1 ? a->inputs[0] : "the tables");
		return;
	}
}

/**
 * tplanctl_load() - load the command's table: one file, or one model each
 * @cmd: the command, for messages
 * @a: the parsed options (@a->inputs)
 * @table: the table, on success
 *
 * Return: %TPLANCTL_EXIT_OK, or %TPLANCTL_EXIT_USAGE after a message.
 */
int tplanctl_load(const char *cmd, const struct tplanctl_args *a,
		  struct tplan_table **table)
{
	struct tplan_error err;
	int ret;

	if (a->input_count == 1)
		ret = tplan_table_load(a->inputs[0], table, &err);
	else
		ret = load_models(a, table, &err);
	if (ret) {
		tplanctl_note_errno(ret);
		fprintf(stderr, "tplanctl %s: %s\n", cmd, err.msg);
		return TPLANCTL_EXIT_USAGE;
	}
	return TPLANCTL_EXIT_OK;
}
