#!/bin/bash
# run-fuzz.sh BUILD_DIR FLAVOUR [FUZZER ARGS...] - the ioctl fuzzer (or,
# with --stress, the stress run) against tplan.ko inside a test kernel.
#
# FLAVOUR: "default" (or "") the plain UML test kernel, "kasan" the UML debug
# one (scripts/uml/build-modules.sh builds tplan.ko for them); "qemu-stock"
# Debian's own SMP kernel and "qemu-debug" the debug SMP kernel (lockdep,
# KCSAN...) in QEMU with 4 vCPUs (scripts/qemu/build-module.sh).  Boots it
# with tests/fuzz/guest-fuzz.sh, which loads the module, runs
# BUILD_DIR/ioctl_fuzz with ARGS, unloads the module and scans for leaks.
# Prints the fuzzer's output, kernel reports from the console, and ends
# with the fuzzer's "N calls, N processes, N reports".  Exit status: 0 only
# if the fuzzer found nothing, rmmod worked, and the kernel log is clean.
#
# Environment: FUZZER (default BUILD_DIR/ioctl_fuzz), TPLAN_UML_MEM (default
# 1G: max_submits plans of up to max_submit_bytes each), TPLAN_UML_TIMEOUT or
# TPLAN_QEMU_TIMEOUT (default from the number of calls or cycles),
# TPLAN_UML_ARGS or TPLAN_QEMU_ARGS (kernel parameters).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
if [ $# -lt 2 ]; then
	echo "usage: $0 BUILD_DIR FLAVOUR [FUZZER ARGS...]" >&2
	exit 2
fi
build=$(mkdir -p "$1" && cd "$1" && pwd)
flavour=$2
shift 2
[ "$flavour" = default ] && flavour=
fuzz=$(realpath "${FUZZER:-$build/ioctl_fuzz}")
[ -x "$fuzz" ] || { echo "run-fuzz: $fuzz not built (make $build/ioctl_fuzz)" >&2; exit 2; }

die() {
	echo "run-fuzz: $*"
	exit 1
}

case $flavour in
qemu-stock | qemu-debug)
	dirs=$("$top/scripts/qemu/build-module.sh" "$build" "${flavour#qemu-}") ||
		die "building the module failed (see above)"
	;;
*)
	dirs=$("$top/scripts/uml/build-modules.sh" "$build" ${flavour:+"$flavour"}) ||
		die "building the modules failed (see above)"
	;;
esac
kdir=$(echo "$dirs" | tail -n 2 | head -n 1)
moddir=$(echo "$dirs" | tail -n 1)
[ -e "$moddir/tplan.ko" ] || die "no $moddir/tplan.ko"

# A generous timeout: 20 calls/s or 20 cycles/s would be very slow.
iters=20000 cycles=10000 procs=8 stress=0
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
	case ${args[i]} in
	--iters) iters=${args[i + 1]:-$iters} ;;
	--cycles) cycles=${args[i + 1]:-$cycles} ;;
	--procs) procs=${args[i + 1]:-$procs} ;;
	--stress) stress=1 ;;
	esac
done
if [ $stress = 1 ]; then
	timeout_s=$((300 + cycles * procs / 20))
else
	timeout_s=$((300 + iters / 20))
fi
uml_args=${TPLAN_UML_ARGS:-}
# KASAN reports every bug, not only the first (a known parameter there only:
# the kernel hands unknown ones to init).
[ "$flavour" = kasan ] && uml_args="$uml_args kasan_multi_shot"
# The debug kernel reports a CPU held in the kernel for 10 s (2 x the
# threshold) without scheduling: a loop a caller sizes that never yields.
[ "$flavour" = kasan ] && uml_args="$uml_args watchdog_thresh=5"

tag=fuzz${flavour:+-$flavour}
out=$build/$tag.out
log=$build/$tag-console.log
rm -f "$out"
echo "run-fuzz: kernel $kdir, module $moddir/tplan.ko, console log $log"
case $flavour in
qemu-*)
	TPLAN_QEMU_ARGS=${TPLAN_QEMU_ARGS:-} TPLAN_QEMU_TIMEOUT=${TPLAN_QEMU_TIMEOUT:-$timeout_s} \
		TPLAN_QEMU_LOG=$log "$top/scripts/qemu/boot.sh" "${flavour#qemu-}" \
		"$here/guest-fuzz.sh" "$moddir/tplan.ko" "$fuzz" "$out" "$@" >/dev/null
	;;
*)
	TPLAN_UML_ARGS=$uml_args TPLAN_UML_MEM=${TPLAN_UML_MEM:-1G} \
		TPLAN_UML_TIMEOUT=${TPLAN_UML_TIMEOUT:-$timeout_s} TPLAN_UML_LOG=$log \
		"$top/scripts/uml/boot.sh" "$kdir" "$here/guest-fuzz.sh" "$moddir/tplan.ko" \
		"$fuzz" "$out" "$@" >/dev/null
	;;
esac
boot_rc=$?

# Kernel reports as the console saw them (also those the fuzzer missed).
splats=$(grep -a -E '^\[ *[0-9]+\.[0-9]+\] +(BUG:|WARNING:|Oops|Kernel panic|general protection|UBSAN:|KASAN:|kernel BUG|unreferenced object|INFO: (possible|task|rcu)|watchdog: BUG:|rcu: INFO:|.*possible (circular|recursive) locking)' "$log")
if [ -n "$splats" ]; then
	echo "run-fuzz: kernel reports on the console (first 50; all in $log):"
	echo "$splats" | head -n 50
fi

summary=
if [ -s "$out" ]; then
	summary=$(tail -n 1 "$out")
	sed '$d' "$out"
fi
if ! echo "$summary" | grep -q -E '^[0-9]+ calls, [0-9]+ processes, [0-9]+ reports$'; then
	grep -a -E 'Kernel panic|TPLAN-UML-EXIT' "$log" | tail -n 5
	[ -n "$summary" ] && echo "$summary"
	echo "run-fuzz: no summary from the fuzzer (boot.sh exit $boot_rc: 124 timeout, 125 no end marker, 126 kernel splat)"
	exit 1
fi
rc=0
if [ "$boot_rc" -ne 0 ]; then
	echo "run-fuzz: boot.sh exited $boot_rc (1 the fuzzer or rmmod failed, 124 timeout, 125 no end marker, 126 kernel splat)"
	rc=1
fi
echo "$summary"
exit $rc
