#!/bin/bash
# planner-fuzz.sh BUILD_DIR SECONDS DATA_DIR - run the libFuzzer harness
# of the CSV reader and the planner (BUILD_DIR/planner_fuzz, from
# tests/fuzz/planner_fuzz.c) for SECONDS, starting from the small bench
# tables and the seeds in tests/fuzz/seeds (pins, gaps, hints, uses).  New
# inputs go to BUILD_DIR/planner-corpus, kept between runs; a crash leaves
# its input in BUILD_DIR (crash-*), which reproduces with
# BUILD_DIR/planner_fuzz FILE.  Last line: "N passed, N failed".
set -u
build=$1
seconds=$2
data=$3
corpus=$build/planner-corpus
mkdir -p "$corpus"
cp "$data"/minimalloc/examples/*.csv "$(dirname "$0")"/seeds/*.csv \
   "$data"/real/squeezenet1_1_b1.csv "$corpus"/ 2>/dev/null
log=$build/planner-fuzz.log
if "$build/planner_fuzz" -max_total_time="$seconds" -max_len=8192 \
	-artifact_prefix="$build/" "$corpus" >"$log" 2>&1; then
	echo "ok   fuzz.planner ($(grep -o 'Done [0-9]* runs' "$log" | tail -n 1) in ${seconds} s)"
	echo "1 passed, 0 failed"
else
	tail -n 40 "$log"
	echo "FAIL fuzz.planner (the input is in $build/crash-*)"
	echo "0 passed, 1 failed"
	exit 1
fi
