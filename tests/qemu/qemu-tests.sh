#!/bin/bash
# qemu-tests.sh BUILD_DIR DATA_DIR TPLANCTL IOCTL_E2E - the module on real
# SMP x86_64 kernels in QEMU (scripts/qemu/boot.sh, 4 vCPUs, VT-d):
#  - Debian's stock kernel: tplan.ko built against its headers; the
#    end-to-end suite (tests/qemu/guest-stock.sh, every other vCPU busy);
#    the ioctl fuzzer and the stress run, one worker per vCPU, with the
#    latency oracle reporting the worst wake-up beside each op;
#    then tplan_edu on QEMU's edu device behind VT-d (tests/qemu/
#    edu-guest.sh: tplan.ko and tplan_edu.ko loaded, build/edu_e2e's jobs,
#    a training step spilled with its copies as jobs (edu_spill_e2e.py),
#    tplanctl info on both nodes, both unloaded);
#  - the debug kernel (scripts/qemu/build-kernel.sh: lockdep, KCSAN,
#    DMA-API debugging, lockup and hung-task detectors): the race suite,
#    a fuzz slice and edu-guest.sh again (DMA-API debugging's error count
#    must stay 0 and no mapping of the edu device outlive rmmod), which must
#    leave no report in the kernel log.
# Last line: "N passed, N failed".
# Environment: QEMU_FUZZ_ITERS (default 10000), QEMU_STRESS_CYCLES (200),
# QEMU_RACE_SECONDS (2, per pair of calls), QEMU_DEBUG_FUZZ_ITERS (2000:
# KCSAN under TCG runs some 50 calls a second).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(mkdir -p "$1" && cd "$1" && pwd)
data=$(cd "$2" && pwd)
ctl=$(realpath "$3")
ioctl_e2e=$(realpath "$4")
pass=0
fail=0

ok() { echo "ok   qemu.$1"; pass=$((pass + 1)); }
bad() { echo "FAIL qemu.$1: $2"; fail=$((fail + 1)); }

# Adds a guest run's "N passed, N failed" (from LOG, after MARK) to ours.
count() { # NAME LOG MARK BOOT_RC
	line=$(sed -n "/^$3/,\$p" "$2" | grep -a -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
	if [ -z "$line" ]; then
		bad "$1" "no summary line (boot.sh exit $4)"
		return
	fi
	pass=$((pass + ${line%% passed*}))
	f=${line#*passed, }
	fail=$((fail + ${f%% failed*}))
	if [ "$4" -ne 0 ]; then
		bad "$1_boot" "boot.sh exited $4 (124 timeout, 125 no end marker, 126 kernel splat)"
	fi
}

# tplan_edu's suite in one boot of FLAVOUR, with the modules of MODDIR
# (tplan_edu.ko beside tplan.ko once driver/edu/ is built); SPILL "spill"
# adds the spilled training step run by the device's jobs (torch under TCG:
# 6 minutes on the stock kernel, 26 on the debug one, so only there).
edu() { # FLAVOUR MODDIR [SPILL]
	if [ ! -e "$2/tplan_edu.ko" ]; then
		bad "$1_edu" "no tplan_edu.ko in $2"
		return
	fi
	log=$build/qemu-$1-edu-console.log
	TPLAN_QEMU_TIMEOUT=${TPLAN_QEMU_TIMEOUT:-3000} TPLAN_QEMU_LOG=$log \
		"$top/scripts/qemu/boot.sh" "$1" "$here/edu-guest.sh" \
		"$2/tplan.ko" "$2/tplan_edu.ko" "$build/edu_e2e" "$ctl" \
		${3:+"$3"} >/dev/null
	rc=$?
	sed -n '/^=== edu/,/TPLAN-UML-EXIT/p' "$log" |
		grep -a -E '^(ok|FAIL|===|    )|BUG:|WARNING:|DMAR|DMA-API'
	count "$1_edu" "$log" "=== edu" "$rc"
}

fuzz() { # NAME FLAVOUR ARGS...
	name=$1
	shift
	if "$top/tests/fuzz/run-fuzz.sh" "$build" "$@"; then
		ok "$name"
	else
		bad "$name" "see above"
	fi
}

# --- Debian's stock kernel -------------------------------------------------
if dirs=$("$top/scripts/qemu/build-module.sh" "$build" stock); then
	moddir=$(echo "$dirs" | tail -n 1)
	ok "stock_module_build ($(echo "$dirs" | tail -n 2 | head -n 1))"
	log=$build/qemu-stock-console.log
	# its stall tests measure wake-ups: no kernel build beside them
	TPLAN_QEMU_TIMEOUT=${TPLAN_QEMU_TIMEOUT:-3000} TPLAN_QEMU_LOG=$log \
		"$top/scripts/quiet-builds.sh" "$build" \
		"$top/scripts/qemu/boot.sh" stock "$here/guest-stock.sh" \
		"$moddir/tplan.ko" "$ctl" "$ioctl_e2e" "$data" >/dev/null
	rc=$?
	sed -n '/^=== e2e/,/TPLAN-UML-EXIT/p' "$log" | grep -a -v '^\[ *[0-9]'
	count stock_e2e "$log" "=== e2e" "$rc"
	edu stock "$moddir" spill
	fuzz stock_fuzz qemu-stock --iters "${QEMU_FUZZ_ITERS:-10000}" --procs 4
	fuzz stock_stress qemu-stock --stress --procs 4 \
		--cycles "${QEMU_STRESS_CYCLES:-200}"
else
	bad stock_module_build "see above"
fi

# --- the debug kernel -------------------------------------------------------
if dirs=$("$top/scripts/qemu/build-module.sh" "$build" debug); then
	moddir=$(echo "$dirs" | tail -n 1)
	ok debug_module_build
	log=$build/qemu-debug-console.log
	TPLAN_QEMU_TIMEOUT=${TPLAN_QEMU_TIMEOUT:-3000} TPLAN_QEMU_LOG=$log \
		"$top/scripts/qemu/boot.sh" debug "$top/tests/e2e/race-guest.sh" \
		"$moddir/tplan.ko" "$build/race_e2e" \
		--seconds "${QEMU_RACE_SECONDS:-2}" >/dev/null
	rc=$?
	sed -n '/TPLAN-UML-START/,/TPLAN-UML-EXIT/p' "$log" |
		grep -a -E '^(ok|FAIL|race)|BUG:|WARNING:'
	count debug_race "$log" "TPLAN-UML-START" "$rc"
	edu debug "$moddir"
	fuzz debug_fuzz qemu-debug --iters "${QEMU_DEBUG_FUZZ_ITERS:-2000}" --procs 4
else
	bad debug_module_build "see above"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
