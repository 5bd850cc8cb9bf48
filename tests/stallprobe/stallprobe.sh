#!/bin/sh
# stallprobe.sh start MODDIR | check NAME KERNEL_MS [WAIT_MS] - the stall
# probe (stallprobe.c) beside a test, inside a UML guest.
#
#   start MODDIR     loads MODDIR/tests/stallprobe/tplan_stallprobe.ko
#                    (built for UML kernels only: elsewhere, does nothing)
#   check NAME KERNEL_MS [WAIT_MS]
#                    unloads it and prints "ok   stallprobe.NAME" when no
#                    stretch held a woken task waiting for more than
#                    KERNEL_MS ms of kernel time (nor, with WAIT_MS, for
#                    more than WAIT_MS ms of kernel and host-call time
#                    together), else "FAIL ..." with the stretches it
#                    logged; then "N passed, N failed".  Without the probe
#                    loaded (a kernel other than UML) it prints
#                    "0 passed, 0 failed" and succeeds.
param=/sys/module/tplan_stallprobe/parameters
case $1 in
start)
	ko=$2/tests/stallprobe/tplan_stallprobe.ko
	[ -e "$ko" ] || exit 0
	# where tplan.ko's text lies, if loaded: the probe names its callers
	text=0 size=0
	if [ -r /sys/module/tplan/sections/.text ]; then
		text=$(cat /sys/module/tplan/sections/.text)
		size=$(cat /sys/module/tplan/coresize)
	fi
	insmod "$ko" tplan_text="$text" tplan_size="$size" || { echo "stallprobe: insmod $ko failed"; exit 1; }
	;;
check)
	if [ ! -d "$param" ]; then
		echo "0 passed, 0 failed"
		exit 0
	fi
	kernel=$(cat "$param/longest_kernel_ms")
	all=$(cat "$param/longest_ms")
	logged=$(dmesg | grep 'stallprobe: .* held the CPU')
	rmmod tplan_stallprobe
	wait=${4:-}
	verdict="most kernel time a woken task waited for: $kernel ms (bound $3; the longest wait, host calls too: $all ms${wait:+, bound $wait})"
	if [ "$kernel" -le "$3" ] && { [ -z "$wait" ] || [ "$all" -le "$wait" ]; }; then
		echo "ok   stallprobe.$2: $verdict"
		echo "1 passed, 0 failed"
	else
		echo "FAIL stallprobe.$2: $verdict"
		echo "$logged" | tail -n 20
		echo "0 passed, 1 failed"
		exit 1
	fi
	;;
*)
	echo "usage: $0 start MODDIR | check NAME KERNEL_MS [WAIT_MS]" >&2
	exit 2
	;;
esac
