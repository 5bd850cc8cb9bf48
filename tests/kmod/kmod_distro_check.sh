#!/bin/bash
# kmod_distro_check.sh BUILD_DIR - compile the module with W=1 against
# Debian's linux-headers-6.12-amd64 (a real distro kernel), in a copy of the
# sources under BUILD_DIR so that builds for other kernels never share
# objects.  Any compiler warning fails, and so does any export outside the
# TPLAN namespace: the module's test-only exports exist only in kernels
# with KUnit, which Debian's is not.  Last line: "N passed, N failed".
set -u
build=$1
kdir=$(ls -d /usr/src/linux-headers-6.12.*-amd64 2>/dev/null | sort -V | tail -n 1)
if [ -z "$kdir" ]; then
	echo "FAIL kmod.distro_build: no /usr/src/linux-headers-6.12.*-amd64"
	echo "0 passed, 1 failed"
	exit 1
fi
src=$build/kmod-distro
rm -rf "$src"
mkdir -p "$src"
cp -r Kbuild driver planner "$src"/
[ -d uapi ] && cp -r uapi "$src"/
log=$build/kmod-distro.log
if make -C "$kdir" M="$(cd "$src" && pwd)" W=1 modules >"$log" 2>&1 &&
   ! grep -E 'warning:|error:' "$log"; then
	echo "ok   kmod.distro_build ($(basename "$kdir"), W=1, no warnings)"
	# The in-kernel API (driver/tplan_arena.h) is exported in the TPLAN
	# namespace, GPL only; the test-only exports exist only with KUnit.
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
else
	tail -n 30 "$log"
	echo "FAIL kmod.distro_build ($(basename "$kdir"))"
	echo "0 passed, 1 failed"
	exit 1
fi
