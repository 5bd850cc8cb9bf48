#!/bin/bash
# module-stamp.sh KDIR PATH... - print a hash of what an out-of-tree module
# build for the kernel in KDIR reads: that kernel's Module.symvers and every
# file under PATH... (relative to the repository's top).  The module build
# scripts (scripts/uml/build-modules.sh, scripts/qemu/build-module.sh) keep it
# beside their build and skip a build whose stamp has not changed: make check
# builds the same modules for the same kernel in several suites.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
kdir=$1
shift
{
	echo "$kdir"
	sha256sum "$kdir/Module.symvers"
	(cd "$top" && find "$@" -type f ! -name '*.o' ! -name '*.ko' -print0 |
		sort -z | xargs -0 sha256sum)
} | sha256sum | cut -d' ' -f1
