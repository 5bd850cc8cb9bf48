// SPDX-License-Identifier: GPL-2.0
/*
 * planner_exports.c - the shared planner's entry points, exported in the
 * TPLAN_INTERNAL namespace for tplan's own KUnit test modules only (the
 * planner itself stays free of kernel headers beyond planner/compat.h).
 */
#include <linux/export.h>

#include "planner.h"

EXPORT_SYMBOL_NS_GPL(tplan_check_table, TPLAN_INTERNAL);
EXPORT_SYMBOL_NS_GPL(tplan_lower_bound, TPLAN_INTERNAL);
EXPORT_SYMBOL_NS_GPL(tplan_plan, TPLAN_INTERNAL);
EXPORT_SYMBOL_NS_GPL(tplan_validate, TPLAN_INTERNAL);
EXPORT_SYMBOL_NS_GPL(tplan_peak, TPLAN_INTERNAL);
EXPORT_SYMBOL_NS_GPL(tplan_strategy_name, TPLAN_INTERNAL);
