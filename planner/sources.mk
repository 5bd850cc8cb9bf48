# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# sources.mk - the planner's C files, relative to planner/: the one list
# both the Makefile (libtplan, tplanctl, the tests) and Kbuild (tplan.ko)
# build.  tests/lint/layers.py fails on a file missing here.
#
#   planner.c  the entry points and the pipeline of stages
#   core/      types every layer shares: the work meter (internal.h), sorts,
#              interval index, occupancy, neighbours, gaps, measuring
#   check/     the input rules and the validators
#   stage/     the pipeline's stages: aliases, models, tiers, small apart
#   strategy/  the strategies and the placers and searches they use
#   spill/     spill plans (pieces, evictions, ga, improvement)
TPLAN_PLANNER_SRC := planner.c \
	core/gaps.c core/interval_index.c core/key_sort.c core/measure.c \
	core/neighbours.c core/occupancy.c \
	check/pins.c check/table_check.c check/validate.c \
	check/validate_plan.c check/validate_spill.c \
	stage/alias.c stage/models.c stage/small_apart.c stage/tiers.c \
	strategy/placement.c strategy/search_obstacles.c strategy/search_valleys.c \
	strategy/strategy.c strategy/strategy_auto.c strategy/strategy_greedy.c \
	strategy/strategy_naive.c strategy/strategy_peak.c \
	strategy/strategy_search.c strategy/strategy_strip.c \
	strategy/strategy_first.c strategy/strategy_sweep.c \
	spill/spill.c spill/spill_choice.c spill/spill_evict.c spill/spill_ga.c \
	spill/spill_improve.c
