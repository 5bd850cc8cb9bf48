#!/bin/bash
# check-slice.sh BUILD_DIR - the bounded slice of the fuzzer and of the
# stress run that "make check" runs, each in a fresh boot of the KASAN
# kernel (tests/fuzz/run-fuzz.sh; "make fuzz" and "make fuzz-stress" run
# the long ones).  Seeds are printed, so a failure repeats with
# FUZZ_SEED=... make fuzz.  Last line: "N passed, N failed".
# Environment: CHECK_FUZZ_ITERS (default 20000), CHECK_STRESS_CYCLES (100),
# CHECK_MAX_LATENCY_MS (500: the latency oracle's bound, see ioctl_fuzz.c).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$1
pass=0
fail=0

slice() { # NAME FUZZER ARGS...
	name=$1
	shift
	if "$here/run-fuzz.sh" "$build" kasan "$@"; then
		echo "ok   fuzz.$name"
		pass=$((pass + 1))
	else
		echo "FAIL fuzz.$name"
		fail=$((fail + 1))
	fi
}

latency=${CHECK_MAX_LATENCY_MS:-500}
slice ioctl --iters "${CHECK_FUZZ_ITERS:-20000}" --procs 4 --max-latency-ms "$latency"
slice stress --stress --procs 8 --cycles "${CHECK_STRESS_CYCLES:-100}" \
	--max-latency-ms "$latency"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
