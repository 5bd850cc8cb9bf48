#!/bin/sh
# kmemleak.sh clear|check - kmemleak helper for scripts run inside a UML guest
# booted from the "kasan" flavour (scripts/uml/build-kernel.sh kasan).
#
#   kmemleak.sh clear   # before insmod: scan, then forget every object known so far
#   ... insmod / exercise / rmmod ...
#   kmemleak.sh check   # scan; print the report; exit 1 if leaks were found
#
# kmemleak ignores objects younger than 5 s and reports a new leak only on the
# second scan after it happened (the first scan records object checksums), so
# "check" waits 5 s and scans twice (~0.4-0.6 s per scan at mem=256M).
# Known kernel bug, ignored: KUnit's kunit_vm_mmap() leaks one mm_struct
# (size 1312) per test case that uses it (kunit_attach_mm() uses kthread_use_mm()
# and never drops that reference; fixed upstream after 6.12 with kthread_take_mm()).
# Exit status: 0 no leak, 1 leaks (report on stdout), 2 kmemleak not available.
kml=/sys/kernel/debug/kmemleak
if [ ! -w "$kml" ]; then
	echo "kmemleak.sh: $kml missing (not the kasan flavour, or debugfs not mounted)" >&2
	exit 2
fi
case ${1:-} in
clear)
	echo scan >"$kml" && echo clear >"$kml"
	;;
check)
	sleep 5
	echo scan >"$kml" && echo scan >"$kml" || exit 2
	report=$(awk '
		function flush() {
			if (blk == "") return
			if (blk ~ /kunit_vm_mmap_init/) known++; else { n++; printf "%s", blk }
			blk = ""
		}
		/^unreferenced object/ { flush() }
		{ blk = blk $0 "\n" }
		END { flush(); printf "%d %d\n", n, known }' "$kml")
	counts=$(printf '%s\n' "$report" | tail -n 1)
	leaks=${counts% *}
	known=${counts#* }
	[ "$known" -gt 0 ] && echo "kmemleak.sh: ignored $known known KUnit kunit_vm_mmap() mm_struct leak(s)"
	if [ "$leaks" -gt 0 ]; then
		echo "kmemleak.sh: $leaks leaked object(s):"
		printf '%s\n' "$report" | sed '$d'
		exit 1
	fi
	echo "kmemleak.sh: no leaks"
	;;
*)
	echo "usage: $0 clear|check" >&2
	exit 2
	;;
esac
