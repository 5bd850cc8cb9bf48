/* SPDX-License-Identifier: MIT */
/*
 * tplanctl.h - pieces shared by tplanctl's commands.  The tool is built
 * against libtplan's public header alone (the Makefile gives it no
 * -Iplanner) and calls only what libtplan.so exports.
 */
#ifndef TPLANCTL_H
#define TPLANCTL_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libtplan.h"

/* The tool's short names for the header's types. */
typedef __u64 u64;
typedef __u32 u32;
typedef __u8 u8;
typedef __s64 s64;

#define min(a, b) ({ __auto_type min_a_ = (a); __auto_type min_b_ = (b); \
		     min_a_ < min_b_ ? min_a_ : min_b_; })
#define max(a, b) ({ __auto_type max_a_ = (a); __auto_type max_b_ = (b); \
		     max_a_ > max_b_ ? max_a_ : max_b_; })
#define check_add_overflow(a, b, d) __builtin_add_overflow(a, b, d)
#define check_mul_overflow(a, b, d) __builtin_mul_overflow(a, b, d)

/* Most files one command takes. */
#define TPLANCTL_MAX_FILES	16

/* Columns of "show"'s text view: the default, and --width's limits. */
#define TPLANCTL_TEXT_WIDTH	80
#define TPLANCTL_MIN_WIDTH	24
#define TPLANCTL_MAX_WIDTH	1000

enum tplanctl_exit {
	TPLANCTL_EXIT_OK = 0,
	TPLANCTL_EXIT_INFEASIBLE = 1,
	TPLANCTL_EXIT_USAGE = 2,
};

/* Options tplanctl_parse_args() takes, and whether a file argument follows. */
#define TPLANCTL_ARG_STRATEGY	(1u << 0)	/* --strategy S */
#define TPLANCTL_ARG_CAPACITY	(1u << 1)	/* --capacity N */
#define TPLANCTL_ARG_BUDGET	(1u << 2)	/* --budget N */
#define TPLANCTL_ARG_OUTPUT	(1u << 3)	/* -o, --output OUT.csv */
#define TPLANCTL_ARG_JSON	(1u << 4)	/* --json */
#define TPLANCTL_ARG_DEVICE	(1u << 5)	/* --device PATH */
#define TPLANCTL_ARG_DRY_RUN	(1u << 6)	/* --dry-run */
#define TPLANCTL_ARG_HOLD	(1u << 7)	/* --hold */
#define TPLANCTL_ARG_FILE	(1u << 8)	/* one FILE argument */
#define TPLANCTL_ARG_TIME_LIMIT	(1u << 9)	/* --time-limit MS */
#define TPLANCTL_ARG_SMALL	(1u << 10)	/* --small-below N */
#define TPLANCTL_ARG_ALIASES	(1u << 11)	/* --aliases */
#define TPLANCTL_ARG_FILES	(1u << 12)	/* one FILE argument or more */
#define TPLANCTL_ARG_TIERS	(1u << 13)	/* --tiers N,N,... */
#define TPLANCTL_ARG_MODELS	(1u << 14)	/* --serial, --concurrent */
#define TPLANCTL_ARG_TIERED	(1u << 15)	/* --tiered */
#define TPLANCTL_ARG_GROUP	(1u << 16)	/* --group ID */
#define TPLANCTL_ARG_ASCII	(1u << 17)	/* --ascii */
#define TPLANCTL_ARG_WIDTH	(1u << 18)	/* --width N */
#define TPLANCTL_ARG_SVG	(1u << 19)	/* --svg FILE */
#define TPLANCTL_ARG_SPILL	(1u << 20)	/* --spill */
#define TPLANCTL_ARG_TABLE	(1u << 21)	/* --table IN.csv */
#define TPLANCTL_ARG_MINIMIZE	(1u << 22)	/* --minimize */
#define TPLANCTL_ARG_NAMES	(1u << 23)	/* --names FILE */
#define TPLANCTL_ARG_HELP	(1u << 24)	/* --help, -h: every command's */
#define TPLANCTL_ARG_SPILL_STRATEGY (1u << 25)	/* --spill-strategy S */
#define TPLANCTL_ARG_STEPS	(1u << 26)	/* --steps A:B */
#define TPLANCTL_ARG_PROGRESS	(1u << 27)	/* --progress */
#define TPLANCTL_ARGS_PLAN	(TPLANCTL_ARG_STRATEGY | TPLANCTL_ARG_CAPACITY | \
				 TPLANCTL_ARG_BUDGET | TPLANCTL_ARG_OUTPUT | \
				 TPLANCTL_ARG_JSON | TPLANCTL_ARG_FILES | \
				 TPLANCTL_ARG_TIME_LIMIT | TPLANCTL_ARG_SMALL | \
				 TPLANCTL_ARG_ALIASES | TPLANCTL_ARG_MODELS)

/**
 * struct tplanctl_args - parsed options of plan, submit, verify and info
 * @input: the file argument (several joined by '+'), for messages; or NULL
 * @inputs: the file arguments
 * @input_count: how many
 * @output: -o's file ("-" is standard output), or NULL
 * @device: --device's path, or NULL for the default
 * @opts: strategy (default auto), capacity, tiers, budget, flags
 * @json: --json
 * @dry_run: --dry-run
 * @hold: --hold
 * @tiered: --tiered: the device's pools are the tiers
 * @group: --group: the serial group each file's plan joins (0: none)
 * @svg: --svg's file, or NULL
 * @ascii: --ascii
 * @width: --width: columns of the text view (default 80)
 * @spill: --spill: plan pieces, moving tensors out between uses
 * @spill_strategy: --spill-strategy (an &enum tplan_spill_strategy)
 * @spill_strategy_set: --spill-strategy was given
 * @table: --table's file (the table a spill plan is for), or NULL
 * @names: --names' file (the names "show" writes on tensors), or NULL
 * @concurrent: --concurrent was given (--serial: %TPLAN_PLAN_SERIAL)
 * @minimize: --minimize: look for the smallest capacity that fits
 * @proven_above: with @minimize, after planning: no plan fits below this
 *                many bytes (proven); the optimum when it is the peak
 * @label: room for @input when there are several files
 * @input_option: --input's file (MiniMalloc's spelling), instead of a file
 *                argument; or NULL
 */
struct tplanctl_args {
	const char *input;
	char *const *inputs;
	u32 input_count;
	const char *output;
	const char *device;
	struct tplan_options opts;
	bool json;
	bool dry_run;
	bool hold;
	bool tiered;
	u32 group;
	const char *svg;
	bool ascii;
	u32 width;
	bool spill;
	u32 spill_strategy;
	bool spill_strategy_set;
	const char *table;
	const char *names;
	u64 steps_from;		/* --steps: the first step drawn (0) */
	u64 steps_to;		/* the step after the last (UINT64_MAX) */
	bool concurrent;
	bool minimize;
	bool progress;
	u64 proven_above;
	char label[256];
	char *input_option;
};

/**
 * struct tplanctl_summary - what "plan" and "submit" report
 * @source: the table's file name
 * @count: tensors in the table
 * @res: the planner's result
 * @opts: the options planned with (capacity, tiers, flags)
 * @models: models in the table
 * @apart: with several models, what planning each alone needs
 * @sub: where the device put the plan, or NULL (offline, dry run)
 * @minimize: the capacity was minimized (--minimize)
 * @proven_above: then: no plan below this many bytes (proven)
 */
struct tplanctl_summary {
	const char *source;
	u32 count;
	const struct tplan_result *res;
	const struct tplan_options *opts;
	u32 models;
	u64 apart;
	const struct tplan_submission *sub;
	bool minimize;
	bool progress;
	u64 proven_above;
};

/* --help printed a command's usage: main() exits 0 (tplanctl_report.c). */
extern bool tplanctl_help_shown;

int tplanctl_parse_size(const char *text, u64 *value);
void tplanctl_json_errors(void);
void tplanctl_note_errno(int err);
void tplanctl_flush_errors(void);
int tplanctl_finish(int ret);
bool tplanctl_stdout_data(const struct tplanctl_args *a);
int tplanctl_apply_record(const char *cmd, struct tplanctl_args *a,
			  const struct tplan_table *table, bool tiers);
void tplanctl_note_ignored_aliases(const char *cmd,
				   const struct tplanctl_args *a,
				   const struct tplan_table *table);
int tplanctl_check_plan(const char *cmd, const char *path,
			const struct tplanctl_args *a,
			const struct tplan_table *table, u64 *bound);
int tplanctl_check_pieces(const char *cmd, const char *path,
			  const struct tplan_table *table);
void tplanctl_fprint_json_string(FILE *out, const char *text);
size_t tplanctl_utf8_bad(const char *s, size_t len);
int tplanctl_parse_args(const char *cmd, int argc, char **argv,
			unsigned int accept, const char *usage,
			struct tplanctl_args *a);
void tplanctl_print_summary(FILE *out, const struct tplanctl_summary *s,
			    bool json);
int tplanctl_load(const char *cmd, const struct tplanctl_args *a,
		  struct tplan_table **table);
int tplanctl_report_plan(const char *cmd, const struct tplanctl_args *a,
			 struct tplan_table *table,
			 const struct tplan_result *res,
			 const struct tplan_submission *sub,
			 tplan_plan_model_fn plan_one, void *ctx);
void tplanctl_print_json_string(const char *text);
void tplanctl_print_tensor_id(const struct tplan_table *table, u32 i);
const char *tplanctl_errno_name(int err);
int tplanctl_report_failure(const char *cmd, const struct tplanctl_args *a,
			    const struct tplan_table *table,
			    const struct tplan_result *res, int err);
int tplanctl_open_device(const char *cmd, const char *path,
			 struct tplan_device **dev);

const struct tplan_uses *tplanctl_table_uses(const struct tplan_table *table,
					     struct tplan_uses *u);
int tplanctl_spill_report(const char *cmd, const struct tplanctl_args *a,
			  const struct tplan_table *table,
			  const struct tplan_spill_result *r,
			  const struct tplan_piece *p, u64 time_ns,
			  const struct tplan_submission *sub);
int tplanctl_spill_failure(const char *cmd, const struct tplanctl_args *a,
			   const struct tplan_table *table,
			   const struct tplan_spill_result *r, int err);
int tplanctl_submit_hold(struct tplan_device *dev,
			 const struct tplan_submission *sub);
int tplanctl_submit_spill(const struct tplanctl_args *a);
int tplanctl_plan_spill(const struct tplanctl_args *a);
const char *tplanctl_spill_misuse(const struct tplanctl_args *a,
				  const char *one_file);
int tplanctl_minimize(struct tplanctl_args *a, struct tplan_table *table,
		      struct tplan_result *res);
int tplanctl_verify_spill(const struct tplanctl_args *a);
int tplanctl_plan(int argc, char **argv);
int tplanctl_verify(int argc, char **argv);
int tplanctl_info(int argc, char **argv);
int tplanctl_submit(int argc, char **argv);
int tplanctl_show(int argc, char **argv);

/* tplanctl_progress.c */
void tplanctl_progress_start(const char *cmd, const char *file, bool forced);
void tplanctl_progress_stage(const char *stage);
void tplanctl_progress_stop(void);

#endif /* TPLANCTL_H */
