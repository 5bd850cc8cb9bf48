// SPDX-License-Identifier: MIT
/*
 * ggml_replay.c - a tensor lifetime table replayed through ggml's graph
 * allocator (ggml_gallocr, the allocator inside llama.cpp), side by side
 * with tplan's plan of the same table.  Usage: ggml_replay TABLE.csv...
 * Built and run by tests/bench/ggml/run.sh against a ggml checkout kept
 * outside the repository; prints one line per table.
 *
 * The replay keeps the table's lifetimes exactly.  Step by step, in table
 * order, each tensor born at the step is a graph node of its size (one
 * byte per element, an op ggml never computes in place: no aliasing the
 * table does not already say), then come "sink" nodes of no bytes whose
 * sources are the tensors whose last step it is.  ggml frees a tensor when
 * its last consumer has been allocated, so a tensor holds its bytes from
 * its birth through its last step and no longer, as in tplan's [lower,
 * upper).  Both sides plan with the ggml buffer's alignment (every
 * tensor's alignment raised to it), and ggml also rounds each size up to
 * it; the peak is ggml_gallocr_get_buffer_size() against tplan's peak.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <ggml.h>
#include <ggml-alloc.h>
#include <ggml-backend.h>
#include <ggml-cpu.h>

#include "libtplan.h"

/* What the tensors are sorted by: the table and which end of a lifetime. */
struct order {
	const struct tplan_tensor *t;
	int by_last;
};

/* By first step (or by last), then by row. */
static int by_step(const void *a, const void *b, void *priv)
{
	const struct order *o = priv;
	const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t sx = o->by_last ? o->t[x].upper : o->t[x].lower;
	uint64_t sy = o->by_last ? o->t[y].upper : o->t[y].lower;

	if (sx != sy)
		return sx < sy ? -1 : 1;
	return (x > y) - (x < y);
}

static struct ggml_tensor *node(struct ggml_context *ctx, uint64_t bytes)
{
	struct ggml_tensor *x = ggml_new_tensor_1d(ctx, GGML_TYPE_I8,
						   (int64_t)bytes);

	x->op = GGML_OP_MUL_MAT;	/* never in place */
	return x;
}

/* ggml's buffer for the table's lifetimes; 0 when it cannot be had. */
static size_t ggml_peak(const struct tplan_tensor *t, uint32_t n)
{
	uint32_t *born = malloc(n * sizeof(*born));
	uint32_t *dies = malloc(n * sizeof(*dies));
	struct ggml_tensor **made = calloc(n, sizeof(*made));
	size_t graph_size = 4 * (size_t)n + 16, peak = 0;
	struct ggml_init_params params = {
		.mem_size = ggml_tensor_overhead() * graph_size +
			    ggml_graph_overhead_custom(graph_size, false),
		.no_alloc = true,
	};
	struct ggml_context *ctx = ggml_init(params);
	struct ggml_cgraph *g;
	ggml_gallocr_t galloc;
	uint32_t i = 0, j = 0;

	if (!born || !dies || !made || !ctx)
		goto out;
	for (uint32_t k = 0; k < n; k++)
		born[k] = dies[k] = k;
	qsort_r(born, n, sizeof(*born), by_step, &(struct order){ t, 0 });
	qsort_r(dies, n, sizeof(*dies), by_step, &(struct order){ t, 1 });
	g = ggml_new_graph_custom(ctx, graph_size, false);
	while (i < n || j < n) {
		uint64_t step = i < n ? t[born[i]].lower : t[dies[j]].upper - 1;
		struct ggml_tensor *sink = NULL;
		int src = GGML_MAX_SRC;

		if (j < n && t[dies[j]].upper - 1 < step)
			step = t[dies[j]].upper - 1;
		for (; i < n && t[born[i]].lower == step; i++) {
			made[born[i]] = node(ctx, t[born[i]].size);
			ggml_graph_add_node(g, made[born[i]]);
		}
		for (; j < n && t[dies[j]].upper - 1 == step; j++) {
			if (src == GGML_MAX_SRC) {
				sink = node(ctx, 0);
				ggml_graph_add_node(g, sink);
				src = 0;
			}
			sink->src[src++] = made[dies[j]];
		}
	}
	galloc = ggml_gallocr_new(ggml_backend_cpu_buffer_type());
	if (galloc && ggml_gallocr_reserve(galloc, g))
		peak = ggml_gallocr_get_buffer_size(galloc, 0);
	ggml_gallocr_free(galloc);
out:
	if (ctx)
		ggml_free(ctx);
	free(made);
	free(dies);
	free(born);
	return peak;
}

static int replay(const char *path)
{
	size_t align = ggml_backend_buft_get_alignment(
		ggml_backend_cpu_buffer_type());
	struct tplan_options opts = { .strategy = TPLAN_STRATEGY_AUTO };
	struct tplan_table *table;
	struct tplan_result res;
	struct tplan_error err;
	size_t theirs;

	if (tplan_table_load(path, &table, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	for (uint32_t k = 0; k < table->count; k++) {
		struct tplan_tensor *x = &table->tensors[k];

		x->alias_of = 0;	/* each tensor its own bytes, both sides */
		x->flags &= ~TPLAN_TENSOR_ALIAS;
		if (x->alignment < align)
			x->alignment = align;
	}
	theirs = ggml_peak(table->tensors, table->count);
	if (tplan_table_plan(table, &opts, &res)) {
		fprintf(stderr, "%s: tplan could not plan it\n", path);
		tplan_table_free(table);
		return 1;
	}
	printf("%-40s %7u %12llu %12llu %7.4f %12zu %7.4f\n", path,
	       table->count, res.lower_bound, res.peak,
	       (double)res.peak / res.lower_bound, theirs,
	       (double)theirs / res.lower_bound);
	tplan_table_free(table);
	return theirs ? 0 : 1;
}

int main(int argc, char **argv)
{
	int ret = 0;

	printf("%-40s %7s %12s %12s %7s %12s %7s\n", "table", "tensors",
	       "lower bnd", "tplan", "ratio", "ggml_gallocr", "ratio");
	for (int k = 1; k < argc; k++)
		ret |= replay(argv[k]);
	return ret;
}
