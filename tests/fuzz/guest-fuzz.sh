#!/bin/sh
# guest-fuzz.sh TPLAN_KO FUZZER OUT [FUZZER ARGS...] - runs inside a test
# kernel (tests/fuzz/run-fuzz.sh boots it through scripts/uml/boot.sh or
# scripts/qemu/boot.sh): loads
# tplan.ko, gives its accel node to group 65534 as udev's 60-tplan.rules would,
# runs the fuzzer (which checks that a non-member gets EACCES, then fuzzes
# as uid/gid 65534), unloads the module and, when the kernel has kmemleak,
# scans for leaks.  Everything the fuzzer prints goes to the console and to
# OUT (a file on the host, through hostfs); OUT's last line is the
# fuzzer's "N calls, N processes, N reports", its reports counting kernel
# reports during rmmod and kmemleak's unreferenced objects too.  With
# --stall-kernel-ms N among the arguments (taken out before the fuzzer sees
# them), the stall probe (tests/stallprobe/, UML only) runs beside the
# fuzzer and fails the run when kernel code kept a woken task waiting for
# more than N ms of kernel time; --stall-wait-ms M also bounds the whole
# wait, UML's calls to the host included (the host not running UML is
# not counted: that is what the wall clock adds).
ko=$1
fuzz=$2
out=$3
shift 3
# UML appends its own console= parameter to init's arguments: drop it.
# --stall-kernel-ms N, --stall-wait-ms M (ours, not the fuzzer's): the
# stall probe beside it.
args=
stall=
wait=
next=
for a in "$@"; do
	case $next in
	stall) stall=$a; next=; continue ;;
	wait) wait=$a; next=; continue ;;
	esac
	case $a in
	console=*) ;;
	--stall-kernel-ms) next="stall" ;;
	--stall-wait-ms) next="wait" ;;
	*) args="$args $a" ;;
	esac
done
probe=$(dirname "$0")/../stallprobe/stallprobe.sh
leak=/sys/kernel/debug/kmemleak
kmemleak=$(dirname "$0")/../../scripts/uml/kmemleak.sh
patterns='BUG:|WARNING:|KASAN:|UBSAN:|Oops|general protection|possible circular locking|possible recursive locking|unreferenced object|INFO: task'
rc=0

: >"$out" || { echo "guest-fuzz: cannot write $out"; exit 2; }
say() { echo "$*"; echo "$*" >>"$out"; }

# forget what boot left behind: only leaks from here on count
[ -w "$leak" ] && "$kmemleak" clear

# tplan.ko needs drm: built into the UML and debug kernels, a module in
# Debian's.
[ -d /sys/module/drm ] || modprobe drm
if ! insmod "$ko"; then
	say "guest-fuzz: insmod $ko failed"
	exit 1
fi
# tplan's accel node: the accel device whose driver is tplan
node=
for d in /sys/class/accel/accel*; do
	[ "$(basename "$(readlink "$d/device/driver")")" = tplan ] &&
		node=/dev/accel/$(basename "$d") && break
done
# udev's job on a real system (driver/60-tplan.rules gives it to render)
if ! { [ -n "$node" ] && chgrp 65534 "$node" && chmod 0660 "$node"; }; then
	say "guest-fuzz: no tplan accel node, or chgrp failed"
	rc=1
fi
say "guest-fuzz: $(ls -l "$node")"

if [ -n "$stall" ] && ! "$probe" start "$(dirname "$ko")"; then
	say "guest-fuzz: FAIL the stall probe did not load"
	rc=1
fi
# shellcheck disable=SC2086 # boot.sh allows no whitespace in arguments
{ "$fuzz" --check-perms $args; echo $? >"$out.rc"; } 2>&1 | tee "$out.raw"
frc=$(cat "$out.rc" 2>/dev/null || echo 125)
summary=$(tail -n 1 "$out.raw")
sed '$d' "$out.raw" >>"$out"
rm -f "$out.raw" "$out.rc"
[ "$frc" = 0 ] || rc=1
if ! echo "$summary" | grep -q -E '^[0-9]+ calls, [0-9]+ processes, [0-9]+ reports$'; then
	echo "$summary" >>"$out"
	say "guest-fuzz: the fuzzer (exit $frc) printed no summary line"
	summary="0 calls, 0 processes, 1 reports"
	rc=1
fi

if [ -n "$stall" ]; then
	"$probe" check fuzz "$stall" ${wait:+"$wait"} >"$out.probe" 2>&1 || rc=1
	grep -v -E '^[0-9]+ passed' "$out.probe" | while IFS= read -r l; do say "$l"; done
	rm -f "$out.probe"
fi

# Kernel reports from here on (rmmod, kmemleak) add to the fuzzer's.
n0=$(dmesg | wc -l)
extra=0
if rmmod tplan; then
	if [ -e "$node" ] || grep -q '^tplan ' /proc/modules; then
		say "guest-fuzz: FAIL tplan still loaded after rmmod"
		rc=1
	else
		say "guest-fuzz: rmmod tplan: ok"
	fi
else
	say "guest-fuzz: FAIL rmmod tplan failed"
	rc=1
fi

if [ -w "$leak" ]; then
	"$kmemleak" check >"$out.leak" 2>&1
	leaks=$(grep -c '^unreferenced object' "$out.leak")
	say "guest-fuzz: kmemleak: $leaks unreferenced objects"
	if [ "$leaks" -gt 0 ]; then
		head -n 200 "$out.leak" | tee -a "$out"
		extra=$((extra + leaks))
	fi
	rm -f "$out.leak"
else
	say "guest-fuzz: no kmemleak in this kernel"
fi

late=$(dmesg | tail -n +$((n0 + 1)) | grep -E "$patterns" | grep -v -c 'kmemleak')
if [ "$late" -gt 0 ]; then
	dmesg | tail -n +$((n0 + 1)) | grep -E "$patterns" | grep -v kmemleak |
		head -n 50 | sed 's/^/kernel report: /' | tee -a "$out"
	extra=$((extra + late))
fi

calls=${summary%% calls,*}
procs=${summary#*calls, }
procs=${procs%% processes,*}
reports=${summary#*processes, }
reports=${reports%% reports}
reports=$((reports + extra))
[ "$reports" -gt 0 ] && rc=1
say "$calls calls, $procs processes, $reports reports"
exit $rc
