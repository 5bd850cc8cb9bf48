#!/bin/bash
# kmod_distro_check.sh BUILD_DIR - compile the module with W=1 against
# Debian's linux-headers-amd64 (a real distro kernel), in a copy of the
# sources under BUILD_DIR so that builds for other kernels never share
# objects.  Any compiler warning fails, and so does any exported symbol:
# the module's test-only exports exist only in kernels with KUnit, which
# Debian's is not.  Last line: "N passed, N failed".
set -u
build=$1
kdir=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1)
if [ -z "$kdir" ]; then
	echo "FAIL kmod.distro_build: no /usr/src/linux-headers-*-amd64"
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
	if [ -s "$src/Module.symvers" ]; then
		cat "$src/Module.symvers"
		echo "FAIL kmod.no_exports (a distro kernel without KUnit)"
		echo "1 passed, 1 failed"
		exit 1
	fi
	echo "ok   kmod.no_exports (a distro kernel without KUnit)"
	echo "2 passed, 0 failed"
else
	tail -n 30 "$log"
	echo "FAIL kmod.distro_build ($(basename "$kdir"))"
	echo "0 passed, 1 failed"
	exit 1
fi
