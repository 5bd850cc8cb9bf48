#!/bin/bash
# build-module.sh BUILD_DIR stock|debug - build tplan.ko for a QEMU rig
# kernel (scripts/qemu/boot.sh), W=1, in a copy of the sources
# (BUILD_DIR/kmod-qemu-FLAVOUR) so that objects for other kernels never mix.
# stock: against Debian's linux-headers for the stock kernel boot.sh runs;
# debug: against the debug kernel's build tree (scripts/qemu/build-kernel.sh).
# Any compiler warning fails, except -Wframe-larger-than= on the debug kernel:
# KCSAN's instrumentation enlarges frames (tplan_spill_plan() 680 bytes
# there; the stock build holds the limit).  Prints the kernel (its release or build dir)
# and the module dir on the last two stdout lines, as
# scripts/uml/build-modules.sh does.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(mkdir -p "$1" && cd "$1" && pwd)
flavour=$2

case $flavour in
stock)
	kver=$("$here/stock-kernel.sh")
	kdir=/lib/modules/$kver/build
	[ -e "$kdir/Makefile" ] ||
		"$here/../install-deps.sh" "linux-headers-$kver" >&2
	kernel=$kver
	;;
debug)
	kdir=$("$here/build-kernel.sh" | tail -n 1)
	kernel=$kdir
	;;
*)
	echo "build-module: unknown kernel '$flavour' (stock or debug)" >&2
	exit 2
	;;
esac
src=$build/kmod-qemu-$flavour
if "$here/../module-stamp.sh" "$src" "$kdir" Kbuild driver planner uapi; then
	echo "$kernel"	# built from these very sources for this kernel
	echo "$src"
	exit 0
fi
rm -rf "$src"
mkdir -p "$src"
cp -r "$top/Kbuild" "$top/driver" "$top/planner" "$top/uapi" "$src/"
log=$src.log
# KCSAN (gcc -fsanitize=thread) enlarges stack frames: in the debug kernel
# tplan_spill_plan() needs 680 bytes, over Kbuild's -Wframe-larger-than=512.
# As for the UML kasan flavour, that warning is not fatal there.
ignore='^$'
[ "$flavour" = debug ] && ignore='\[-Wframe-larger-than=\]'
if ! make -C "$kdir" M="$src" W=1 modules >"$log" 2>&1 ||
   grep -E 'warning:|error:' "$log" | grep -v -E -e "$ignore" >&2; then
	tail -n 30 "$log" >&2
	echo "build-module: building tplan.ko for the $flavour kernel failed" >&2
	exit 1
fi
mv "$src.stamp.new" "$src.stamp"
echo "$kernel"
echo "$src"
