#!/bin/bash
# module-stamp.sh SRC KDIR PATH... - whether the module build in SRC is still
# that of these sources for this kernel.  Its stamp is a hash of what an
# out-of-tree module build for the kernel in KDIR reads: that kernel's
# Module.symvers and every file under PATH... (relative to the repository's
# top).  Exits 0 when SRC/tplan.ko exists and SRC.stamp holds that hash (the
# build can be kept); else exits 1, with SRC.stamp gone and the hash in
# SRC.stamp.new, which the caller renames to SRC.stamp once its build has
# succeeded.  Used by scripts/uml/build-modules.sh and
# scripts/qemu/build-module.sh: make check builds the same modules for the
# same kernel in several suites.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
src=$1
kdir=$2
shift 2
stamp=$({
	echo "$kdir"
	sha256sum "$kdir/Module.symvers"
	(cd "$top" && find "$@" -type f ! -name '*.o' ! -name '*.ko' -print0 |
		sort -z | xargs -0 sha256sum)
} | sha256sum | cut -d' ' -f1)
if [ -e "$src/tplan.ko" ] && [ "$(cat "$src.stamp" 2>/dev/null)" = "$stamp" ]; then
	exit 0
fi
rm -f "$src.stamp"
echo "$stamp" >"$src.stamp.new"
exit 1
