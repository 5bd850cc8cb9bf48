#!/bin/sh
# stallprobe.sh start MODDIR | check NAME BOUND_MS - the stall probe
# (stallprobe.c) beside a test, inside a UML guest.
#
#   start MODDIR     loads MODDIR/tests/stallprobe/tplan_stallprobe.ko
#                    (built for UML kernels only: elsewhere, does nothing)
#   check NAME MS    unloads it and prints "ok   stallprobe.NAME" when no
#                    stretch held a woken task waiting for more than MS ms
#                    of kernel time, else "FAIL ..." with the stretches it
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
	verdict="most kernel time a woken task waited for: $kernel ms (bound $3; the longest wait, host calls too: $all ms)"
	if [ "$kernel" -le "$3" ]; then
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
	echo "usage: $0 start MODDIR | check NAME BOUND_MS" >&2
	exit 2
	;;
esac
