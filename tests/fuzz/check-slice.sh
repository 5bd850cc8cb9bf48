#!/bin/bash
# check-slice.sh BUILD_DIR - the bounded slices of the fuzzer and of the
# stress run that "make check" runs, each in a fresh boot
# (tests/fuzz/run-fuzz.sh; "make fuzz" and "make fuzz-stress" run the long
# ones): the fuzzer and the stress run in the KASAN kernel, for its
# reports, and the fuzzer again in the default kernel, for the latency
# oracle's tight bound (KASAN's own slowness is not what it measures).
# Seeds are printed, so a failure repeats with FUZZ_SEED=... make fuzz.
# Last line: "N passed, N failed".
# The default-kernel slice's latency oracle is the stall probe
# (tests/stallprobe/): no woken task may wait more than 10 ms of kernel
# time, nor 20 ms with UML's calls to the host, beside any call.  The
# probe does not count the host not running UML, which the wall clock
# does: a CI host's other jobs put the fuzzer's 1 ms sleeper 63-86 ms late
# where the probe saw 9 ms (2026-11-28), so the wall clock has only a
# backstop, 150 ms, the run retried when it alone failed.
# Environment: CHECK_FUZZ_ITERS (default 10000), CHECK_STRESS_CYCLES (100),
# CHECK_MAX_LATENCY_MS (500: the KASAN slices' wall-clock bound, see
# ioctl_fuzz.c), CHECK_STALL_KERNEL_MS (10) and CHECK_STALL_WAIT_MS (20):
# the probe's bounds, CHECK_LATENCY_MS (150: the default-kernel slice's
# wall-clock backstop), CHECK_LATENCY_TRIES (3: runs of that slice, same
# seed, when only its wall clock failed).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$1
pass=0
fail=0

result() { # NAME OK
	if [ "$2" = 1 ]; then
		echo "ok   fuzz.$1"
		pass=$((pass + 1))
	else
		echo "FAIL fuzz.$1"
		fail=$((fail + 1))
	fi
}

slice() { # NAME FLAVOUR FUZZER ARGS...
	name=$1
	shift
	if "$here/run-fuzz.sh" "$build" "$@"; then
		result "$name" 1
	else
		result "$name" 0
	fi
}

latency=${CHECK_MAX_LATENCY_MS:-500}
iters=${CHECK_FUZZ_ITERS:-10000}
slice ioctl kasan --iters "$iters" --procs 4 --max-latency-ms "$latency"
slice stress kasan --stress --procs 8 --cycles "${CHECK_STRESS_CYCLES:-100}" \
	--max-latency-ms "$latency"

# The latency slice: retried only when the wall clock was its one failure.
seed=${CHECK_LATENCY_SEED:-$(( $(date +%s) % 100000 ))}
tries=${CHECK_LATENCY_TRIES:-3}
ok=0
for ((try = 1; try <= tries; try++)); do
	out=$("$here/../../scripts/quiet-builds.sh" "$build" \
		"$here/run-fuzz.sh" "$build" default --iters "$iters" --procs 4 \
		--seed "$seed" --max-latency-ms "${CHECK_LATENCY_MS:-150}" \
		--stall-kernel-ms "${CHECK_STALL_KERNEL_MS:-10}" \
		--stall-wait-ms "${CHECK_STALL_WAIT_MS:-20}" 2>&1)
	rc=$?
	echo "$out"
	if [ $rc = 0 ]; then
		ok=1
		break
	fi
	# anything else wrong (a FAIL line, a kernel report, no summary) is final
	others=$(echo "$out" | grep -E 'FAIL|run-fuzz: (kernel reports|no summary)' |
		grep -v 'longest wake-up latency .* (over the bound)')
	if [ -n "$others" ] || ! echo "$out" | grep -q -E '^[0-9]+ calls, [0-9]+ processes, 0 reports$'; then
		break
	fi
	echo "check-slice: latency over the bound (try $try of $tries, seed $seed)"
done
result latency_default "$ok"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
