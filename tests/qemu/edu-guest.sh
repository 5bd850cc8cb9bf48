#!/bin/sh
# edu-guest.sh TPLAN_KO EDU_KO EDU_E2E [TPLANCTL [spill]] - tplan_edu on QEMU's edu
# device behind VT-d, inside a QEMU guest (tests/qemu/qemu-tests.sh boots it
# on the stock and on the debug kernel), run from the top of the tree:
#
#   scripts/qemu/build-module.sh build stock && make build/edu_e2e
#   scripts/qemu/boot.sh stock tests/qemu/edu-guest.sh \
#           build/kmod-qemu-stock/tplan.ko build/kmod-qemu-stock/tplan_edu.ko \
#           build/edu_e2e build/tplanctl
#
# Loads drm, tplan.ko and tplan_edu.ko, checks that tplan_edu bound the edu
# device (1234:11e8) with an IOMMU DMA domain in front of it and made an accel
# node, runs edu_e2e (tests/qemu/edu_e2e.c), edu_spill_e2e.py (a spilled
# training step whose spill copies are the device's jobs) and, with
# TPLANCTL, "tplanctl info" on both nodes; unloads both modules.  The kernel log written
# meanwhile must hold no WARNING, BUG, Oops, DMAR fault, DMA-API report,
# lockdep or KCSAN report; with DMA-API debugging (the debug kernel) its
# error count must stay 0 and no mapping of the device may outlive rmmod.
# boot.sh's exit status is 126 on any kernel splat besides.
# Prints "=== edu" first and "N passed, N failed" last.
tplan_ko=$1
edu_ko=$2
edu_e2e=$3
ctl=${4:-}
spill=${5:-}
pass=0
fail=0
rc=0

ok() { echo "ok   edu.guest_$1"; pass=$((pass + 1)); }
bad() { echo "FAIL edu.guest_$1: $2"; fail=$((fail + 1)); rc=1; }

echo "=== edu ($(nproc) CPUs, $(uname -r))"

# The kernel log from here on, and what in it is a report.
dmesg_mark=$(dmesg | wc -l)
reports='WARNING:|BUG:|Oops|DMAR:.*[Ff]ault|DMA-API|KCSAN|circular locking|lock held|UBSAN|KFENCE|kmemleak|INFO: task|RCU stall|soft lockup|segfault'
scan_log() { # NAME
	if dmesg | tail -n +"$((dmesg_mark + 1))" | grep -E "$reports" >/tmp/edu-reports; then
		bad "$1" "the kernel log has reports: $(head -n 5 /tmp/edu-reports)"
	else
		ok "$1"
	fi
}

# DMA-API debugging (the debug kernel): every error printed, none allowed.
dbg=/sys/kernel/debug
[ -d "$dbg/dma-api" ] || mount -t debugfs none "$dbg" 2>/dev/null
dma_api=
if [ -f "$dbg/dma-api/error_count" ]; then
	dma_api=$dbg/dma-api
	echo 1 >"$dma_api/all_errors"
	dma_errors=$(cat "$dma_api/error_count")
	echo "DMA-API debugging on: $dma_errors error(s) before"
fi

# The edu device, as the rig adds it (scripts/qemu/boot.sh: -device edu).
edu=
for d in /sys/bus/pci/devices/*; do
	if [ "$(cat "$d/vendor")" = 0x1234 ] && [ "$(cat "$d/device")" = 0x11e8 ]; then
		edu=$d
	fi
done
if [ -z "$edu" ]; then
	bad edu_device "no PCI device 1234:11e8 (boot.sh without -device edu?)"
	echo "$pass passed, $fail failed"
	exit 1
fi
bdf=$(basename "$edu")
ok "edu_device ($bdf)"
group_type=$(cat "$edu/iommu_group/type" 2>/dev/null)
case $group_type in
DMA | DMA-FQ) ok "iommu_domain ($group_type)" ;;
*) bad iommu_domain "the edu device's IOMMU group type is '$group_type', not DMA (is VT-d on?)" ;;
esac

[ -d /sys/module/drm ] || modprobe drm || { bad load "modprobe drm failed"; }
if ! insmod "$tplan_ko"; then
	bad load "insmod $tplan_ko failed"
elif ! insmod "$edu_ko"; then
	bad load "insmod $edu_ko failed"
elif [ ! -e "/sys/bus/pci/drivers/tplan_edu/$bdf" ]; then
	bad load "tplan_edu did not bind $bdf"
else
	ok load
fi

# Its accel node: /sys/class/accel/accelN/device is the edu device.
node=
for a in /sys/class/accel/accel*; do
	[ -e "$a/device/driver" ] || continue
	if [ "$(basename "$(readlink "$a/device/driver")")" = tplan_edu ]; then
		node=/dev/accel/$(basename "$a")
		[ "$(basename "$(readlink -f "$a/device")")" = "$bdf" ] ||
			bad accel_node "$a's device is not $bdf"
	fi
done
if [ -n "$node" ] && [ -c "$node" ]; then
	ok "accel_node ($node)"
else
	bad accel_node "no accel device of driver tplan_edu"
fi

if [ -n "$node" ]; then
	"$edu_e2e" "$node" >/tmp/edu_e2e.out 2>&1
	e2e_rc=$?
	cat /tmp/edu_e2e.out
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' /tmp/edu_e2e.out | tail -n 1)
	if [ -z "$line" ]; then
		bad edu_e2e "no summary line (exit $e2e_rc)"
	else
		pass=$((pass + ${line%% passed*}))
		f=${line#*passed, }
		fail=$((fail + ${f%% failed*}))
		[ "$e2e_rc" -eq 0 ] || rc=1
	fi
fi

# A training step spilled at 60 % of its bound whose spill copies are this
# device's jobs, bit-identical to eager (tests/qemu/edu_spill_e2e.py; torch
# over 9p, about 6 minutes on the stock kernel under TCG, 26 on the debug
# kernel: only when the fifth argument is "spill").
if [ -n "$node" ] && [ "$spill" = spill ]; then
	/usr/bin/python3 "$(dirname "$0")/edu_spill_e2e.py" "$node" >/tmp/edu_spill_e2e.out 2>&1
	spill_rc=$?
	cat /tmp/edu_spill_e2e.out
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' /tmp/edu_spill_e2e.out | tail -n 1)
	if [ -z "$line" ]; then
		bad edu_spill_e2e "no summary line (exit $spill_rc)"
	else
		pass=$((pass + ${line%% passed*}))
		f=${line#*passed, }
		fail=$((fail + ${f%% failed*}))
		[ "$spill_rc" -eq 0 ] || rc=1
	fi
fi

# Both nodes speak tplan's ABI: tplanctl info lists tplan's first, then edu's.
if [ -n "$ctl" ] && [ -n "$node" ]; then
	if "$ctl" info >/tmp/edu-info.out 2>&1 &&
	   grep -q "^driver *tplan_edu$" /tmp/edu-info.out &&
	   grep -q "^driver *tplan$" /tmp/edu-info.out &&
	   [ "$(grep '^driver' /tmp/edu-info.out | head -n 1 | awk '{print $2}')" = tplan ]; then
		ok tplanctl_info_both
	else
		bad tplanctl_info_both "$(cat /tmp/edu-info.out)"
	fi
	if "$ctl" info --device "$node" --json >/tmp/edu-info.json 2>&1 &&
	   grep -q "\"driver\":\"tplan_edu\"" /tmp/edu-info.json; then
		ok tplanctl_info_edu
	else
		bad tplanctl_info_edu "$(cat /tmp/edu-info.json)"
	fi
fi

if [ -d /sys/module/tplan_edu ] && ! rmmod tplan_edu; then
	bad unload "rmmod tplan_edu failed"
elif [ -d /sys/module/tplan ] && ! rmmod tplan; then
	bad unload "rmmod tplan failed"
elif [ -d /sys/module/tplan_edu ] || [ -d /sys/module/tplan ]; then
	bad unload "a module is still loaded"
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
	# every mapping and allocation of the device is gone after rmmod
	if grep -q "$bdf" "$dma_api/dump"; then
		bad dma_api_leaks "mappings of $bdf left: $(grep "$bdf" "$dma_api/dump" | head -n 3)"
	else
		ok dma_api_leaks
	fi
fi
scan_log kernel_log

echo "$pass passed, $fail failed"
exit $rc
