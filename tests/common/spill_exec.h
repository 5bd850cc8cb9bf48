/* SPDX-License-Identifier: MIT */
/*
 * spill_exec.h - carry out a spill plan as a runtime would (tests).
 */
#ifndef TPLAN_SPILL_EXEC_H
#define TPLAN_SPILL_EXEC_H

#include "planner.h"

/**
 * struct spill_exec_fault - the first tensor a plan's execution read wrong
 * @tensor: its index
 * @step: the step (or the boundary before it) where it was read
 * @what: "used while out", "read wrong", "copied out wrong" or "copied in
 *        wrong"
 */
struct spill_exec_fault {
	u32 tensor;
	u64 step;
	const char *what;
};

int spill_execute(const struct tplan_tensor *t, u32 n,
		  const struct tplan_uses *u, const struct tplan_piece *p,
		  u32 np, struct spill_exec_fault *fault);

#endif
