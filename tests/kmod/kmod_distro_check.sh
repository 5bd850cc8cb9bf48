#!/bin/bash
# kmod_distro_check.sh BUILD_DIR - compile the module with W=1 against
# Debian's stock 6.12 amd64 kernel (a real distro kernel; its headers, as
# scripts/qemu/build-module.sh stock builds it for the QEMU rig, in a copy of
# the sources under BUILD_DIR so that builds for other kernels never share
# objects).  Any compiler warning fails, and so does any export outside the
# TPLAN namespace: the module's test-only exports exist only in kernels
# with KUnit, which Debian's is not.  Last line: "N passed, N failed".
set -u
build=$1
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
if ! dirs=$("$top/scripts/qemu/build-module.sh" "$build" stock); then
	echo "FAIL kmod.distro_build (see above)"
	echo "0 passed, 1 failed"
	exit 1
fi
kernel=$(echo "$dirs" | tail -n 2 | head -n 1)
src=$(echo "$dirs" | tail -n 1)
echo "ok   kmod.distro_build ($kernel, W=1, no warnings)"
other=$(awk -F'\t' '$4 != "EXPORT_SYMBOL_GPL" || $5 != "TPLAN"' \
	"$src/Module.symvers")
api=$(wc -l <"$src/Module.symvers")
if [ -n "$other" ] || [ "$api" -eq 0 ]; then
	echo "$other"
	echo "FAIL kmod.exports_tplan_namespace ($api exports; a distro kernel without KUnit)"
	echo "1 passed, 1 failed"
	exit 1
fi
echo "ok   kmod.exports_tplan_namespace ($api GPL exports, all in TPLAN; none for tests)"
echo "2 passed, 0 failed"
