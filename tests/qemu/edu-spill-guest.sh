#!/bin/sh
# edu-spill-guest.sh TPLAN_KO EDU_KO - a spilled training step whose spill
# copies are jobs of QEMU's edu device, inside a QEMU guest, run from the
# top of the tree (the host's build/libtplan.so.0 and /usr/bin/python3 with
# torch, over 9p):
#
#   scripts/qemu/build-module.sh build stock && make
#   scripts/qemu/boot.sh stock tests/qemu/edu-spill-guest.sh \
#           build/kmod-qemu-stock/tplan.ko build/kmod-qemu-stock/tplan_edu.ko
#
# (TPLAN_QEMU_TIMEOUT=1200 or so: torch under TCG is slow.)  Loads drm,
# tplan.ko and tplan_edu.ko, finds tplan_edu's accel node, runs
# tests/qemu/edu_spill_e2e.py on it, unloads both modules.  The kernel log
# written meanwhile must hold no WARNING, BUG, Oops, DMAR fault, DMA-API
# report, lockdep or KCSAN report; with DMA-API debugging (the debug
# kernel) its error count must stay 0.  boot.sh's exit status is 126 on
# any kernel splat besides.  Prints "=== edu_spill" first and "N passed,
# N failed" last.
tplan_ko=$1
edu_ko=$2
here=$(dirname "$0")
pass=0
fail=0
rc=0

ok() { echo "ok   edu_spill.guest_$1"; pass=$((pass + 1)); }
bad() { echo "FAIL edu_spill.guest_$1: $2"; fail=$((fail + 1)); rc=1; }

echo "=== edu_spill ($(nproc) CPUs, $(uname -r))"
dmesg_mark=$(dmesg | wc -l)
reports='WARNING:|BUG:|Oops|DMAR:.*[Ff]ault|DMA-API|KCSAN|circular locking|lock held|UBSAN|KFENCE|kmemleak|INFO: task|RCU stall|soft lockup|segfault'

dbg=/sys/kernel/debug
[ -d "$dbg/dma-api" ] || mount -t debugfs none "$dbg" 2>/dev/null
dma_api=
if [ -f "$dbg/dma-api/error_count" ]; then
	dma_api=$dbg/dma-api
	echo 1 >"$dma_api/all_errors"
	dma_errors=$(cat "$dma_api/error_count")
	echo "DMA-API debugging on: $dma_errors error(s) before"
fi

[ -d /sys/module/drm ] || modprobe drm || bad load "modprobe drm failed"
if ! insmod "$tplan_ko"; then
	bad load "insmod $tplan_ko failed"
elif ! insmod "$edu_ko"; then
	bad load "insmod $edu_ko failed"
else
	ok load
fi

# tplan_edu's node: /sys/class/accel/accelN whose device's driver is it.
node=
for a in /sys/class/accel/accel*; do
	[ -e "$a/device/driver" ] || continue
	[ "$(basename "$(readlink "$a/device/driver")")" = tplan_edu ] &&
		node=/dev/accel/$(basename "$a")
done
if [ -n "$node" ] && [ -c "$node" ]; then
	ok "accel_node ($node)"
	start=$(date +%s)
	/usr/bin/python3 "$here/edu_spill_e2e.py" "$node" >/tmp/edu_spill.out 2>&1
	py_rc=$?
	cat /tmp/edu_spill.out
	echo "    edu_spill_e2e.py: $(($(date +%s) - start)) s"
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' /tmp/edu_spill.out | tail -n 1)
	if [ -z "$line" ]; then
		bad edu_spill_e2e "no summary line (exit $py_rc)"
	else
		pass=$((pass + ${line%% passed*}))
		f=${line#*passed, }
		fail=$((fail + ${f%% failed*}))
		[ "$py_rc" -eq 0 ] || rc=1
	fi
else
	bad accel_node "no accel device of driver tplan_edu"
fi

if [ -d /sys/module/tplan_edu ] && ! rmmod tplan_edu; then
	bad unload "rmmod tplan_edu failed"
elif [ -d /sys/module/tplan ] && ! rmmod tplan; then
	bad unload "rmmod tplan failed"
else
	ok unload
fi
if [ -n "$dma_api" ]; then
	now=$(cat "$dma_api/error_count")
	if [ "$now" = "$dma_errors" ]; then
		ok "dma_api_errors ($now)"
	else
		bad dma_api_errors "DMA-API debugging counted $((now - dma_errors)) new error(s)"
	fi
fi
if dmesg | tail -n +"$((dmesg_mark + 1))" | grep -E "$reports" >/tmp/edu_spill.reports; then
	bad kernel_log "the kernel log has reports: $(head -n 5 /tmp/edu_spill.reports)"
else
	ok kernel_log
fi

echo "$pass passed, $fail failed"
exit $rc
