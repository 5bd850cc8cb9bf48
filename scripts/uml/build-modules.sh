#!/bin/bash
# build-modules.sh BUILD_DIR [FLAVOUR] - build tplan.ko and the KUnit test
# modules against the cached UML kernel, W=1, in BUILD_DIR/kmod-uml (a copy of
# the sources, so objects for this kernel never mix with other builds).  Any
# compiler warning fails.  Prints the kernel dir and the module dir on the
# last two stdout lines.  FLAVOUR (e.g. "kasan") uses the kernel from
# build-kernel.sh FLAVOUR and the copy BUILD_DIR/kmod-uml-FLAVOUR (there,
# -Wframe-larger-than warnings are not fatal).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(mkdir -p "$1" && cd "$1" && pwd)
flavour=${2:-}

kdir=$("$here/build-kernel.sh" ${flavour:+"$flavour"} | tail -n 1)
src=$build/kmod-uml${flavour:+-$flavour}
if "$here/../module-stamp.sh" "$src" "$kdir" Kbuild driver planner uapi \
	tests/kunit tests/common tests/stallprobe; then
	echo "$kdir"	# built from these very sources for this kernel
	echo "$src"
	exit 0
fi
rm -rf "$src"
mkdir -p "$src/tests"
cp -r "$top/Kbuild" "$top/driver" "$top/planner" "$top/uapi" "$src/"
cp -r "$top/tests/kunit" "$top/tests/common" "$top/tests/stallprobe" "$src/tests/"
log=$src.log
# Sanitizer flavours (KASAN stack redzones) enlarge stack frames, so there the
# -Wframe-larger-than= limit from Kbuild is not enforced; the default flavour does.
ignore='^$'
[ -n "$flavour" ] && ignore='\[-Wframe-larger-than=\]'
if ! make -C "$kdir" ARCH=um M="$src" W=1 modules >"$log" 2>&1 ||
   grep -E 'warning:|error:' "$log" | grep -v -E -e "$ignore" >&2; then
	tail -n 30 "$log" >&2
	echo "build-modules: building the modules for UML failed" >&2
	exit 1
fi
mv "$src.stamp.new" "$src.stamp"
echo "$kdir"
echo "$src"
