/* SPDX-License-Identifier: GPL-2.0 */
/*
 * meter.h - the planner's kernel memory, metered per submit (meter.c).
 */
#ifndef TPLAN_METER_H
#define TPLAN_METER_H

#include <linux/list.h>
#include <linux/types.h>

struct task_struct;

/**
 * struct tplan_meter - kernel memory one submit's planner holds
 * @link: in the list of running meters
 * @task: the submitting task: the planner allocates in its context
 * @used: bytes held now
 * @limit: bytes it may hold (max_submit_bytes)
 * @over: an allocation was refused because of @limit
 */
struct tplan_meter {
	struct list_head link;
	struct task_struct *task;
	u64 used;
	u64 limit;
	bool over;
};

void tplan_meter_start(struct tplan_meter *m, u64 limit);
bool tplan_meter_stop(struct tplan_meter *m);

#endif /* TPLAN_METER_H */
