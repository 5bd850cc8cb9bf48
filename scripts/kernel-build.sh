#!/bin/bash
# The configure-and-build step the test kernels share (sourced by
# scripts/uml/build-kernel.sh and scripts/qemu/build-kernel.sh, which choose
# the source tree, the build directory and its hash, and the fragments).
#
#   . scripts/kernel-build.sh
#   kernel_build SRC KDIR ARCH BASE ARTEFACT FRAGMENT...
#
# Builds SRC in KDIR for ARCH unless KDIR already holds a finished build
# (its stamp and ARTEFACT, a path inside KDIR): `make BASE` (defconfig,
# allnoconfig...), the fragments merged in order, olddefconfig, a check that
# kconfig kept every option they ask for (scripts/kconfig-check.sh), the
# kernel and modules_prepare, so that out-of-tree modules build with M=.
# One build per directory at a time: make check's background build
# (scripts/prefetch-kernels.sh) and a suite may ask for the same kernel; the
# second waits on the directory's lock and finds it built.  Prints KDIR on
# file descriptor 3, progress on stderr; exits on failure.
# Environment: JOBS (default nproc).

kernel_build() {
	local src=$1 kdir=$2 arch=$3 base=$4 artefact=$2/$5 lockfd t0
	local top
	shift 5
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	local stamp=$kdir/.tplan-built jobs=${JOBS:-$(nproc)}

	if [ -e "$stamp" ] && [ -e "$artefact" ]; then
		echo "build-kernel: up to date: $kdir" >&2
		echo "$kdir" >&3
		return 0
	fi
	mkdir -p "$kdir"
	exec {lockfd}>"$kdir.lock"
	flock "$lockfd"
	if [ -e "$stamp" ] && [ -e "$artefact" ]; then
		echo "build-kernel: built meanwhile: $kdir" >&2
		echo "$kdir" >&3
		return 0
	fi
	t0=$(date +%s)
	if [ ! -e "$kdir/.tplan-configured" ]; then
		echo "build-kernel: configuring $kdir" >&2
		make -C "$src" O="$kdir" ARCH="$arch" -s "$base" >&2
		(cd "$src" && ARCH=$arch scripts/kconfig/merge_config.sh -m -O "$kdir" \
			"$kdir/.config" "$@") >&2
		make -C "$src" O="$kdir" ARCH="$arch" -s olddefconfig >&2
		# A test kernel without an option a fragment asks for (an unmet
		# dependency) would test something else: stop, and configure
		# afresh next time.
		if ! "$top/kconfig-check.sh" "$kdir/.config" "$@" >&2; then
			echo "build-kernel: error: some fragment options were not applied (see above)" >&2
			exit 1
		fi
		touch "$kdir/.tplan-configured"
	fi
	echo "build-kernel: building in $kdir with -j$jobs" >&2
	make -C "$src" O="$kdir" ARCH="$arch" -j"$jobs" </dev/null >&2
	make -C "$src" O="$kdir" ARCH="$arch" -j"$jobs" modules_prepare </dev/null >&2
	if [ ! -e "$artefact" ]; then
		echo "build-kernel: error: build finished but $artefact is missing" >&2
		exit 1
	fi
	touch "$stamp"
	echo "build-kernel: built in $(( $(date +%s) - t0 ))s: $kdir" >&2
	echo "$kdir" >&3
}
