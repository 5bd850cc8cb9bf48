#!/bin/bash
# The patched Linux source tree the test kernels are built from (shared by
# scripts/uml/build-kernel.sh and scripts/qemu/build-kernel.sh, so the UML and
# the QEMU kernels are the same kernel version with the same patches).
#
#   src=$(scripts/kernel-source.sh)     # the only stdout line: the source dir
#
#   . scripts/kernel-source.sh          # from a bash script: defines
#   kernel_source                       # KSRC, KSRC_VERSION, KSRC_SAFEVER and
#                                       # KSRC_PATCHES (for build-dir hashes)
#
# - installs missing Debian build dependencies with apt-get (only when missing);
# - extracts /usr/src/linux-source-6.12.tar.xz into
#   $TPLAN_CACHE/src-<ver>-p<patchhash>/ and applies scripts/uml/patches/*.patch
#   (once per package version + patch set). The patches live with the UML rig
#   because they are UML fixes; they apply to the one shared tree.
# Progress goes to stderr.
# Environment: TPLAN_CACHE (default ~/.cache/tplan), TPLAN_NO_APT=1 to never
#              call apt-get.

# kernel_source - make sure the source tree exists; sets
#   KSRC          the source dir ($cache/src-<safever>-p<phash>/linux-source-6.12)
#   KSRC_VERSION  the Debian package version, e.g. 6.12.117-1~deb12u1
#   KSRC_SAFEVER  the same, usable in a file name: 6.12.117-1_deb12u1
#   KSRC_PATCHES  array of the patch files applied, in order
kernel_source() {
	local top cache srcpkg tarball srcroot phash p st sudo lockfd
	local deps missing=()

	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	cache=${TPLAN_CACHE:-$HOME/.cache/tplan}
	srcpkg=linux-source-6.12
	tarball=/usr/src/$srcpkg.tar.xz
	mkdir -p "$cache"
	# One at a time (make check builds kernels in the background while its
	# suites run): two apt-gets fail on dpkg's lock, two extractions clash.
	exec {lockfd}>"$cache/.source.lock"
	flock "$lockfd"

	# --- 1. build dependencies -----------------------------------------------
	deps=(build-essential flex bison bc libelf-dev libssl-dev python3 xz-utils
	      patch kmod "$srcpkg")
	for p in "${deps[@]}"; do
		st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
		[ "$st" = installed ] || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		[ "${TPLAN_NO_APT:-0}" = 1 ] &&
			ks_die "missing packages: ${missing[*]} (TPLAN_NO_APT=1)"
		sudo=
		if [ "$(id -u)" != 0 ]; then
			command -v sudo >/dev/null ||
				ks_die "missing packages: ${missing[*]}; not root and no sudo"
			sudo="sudo -n"
		fi
		ks_log "installing: ${missing[*]}"
		if ! $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		     --no-install-recommends "${missing[@]}" </dev/null; then
			ks_log "apt-get install failed; running apt-get update once and retrying"
			$sudo apt-get update -q </dev/null
			$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
				--no-install-recommends "${missing[@]}" </dev/null
		fi
	fi
	[ -r "$tarball" ] || ks_die "$tarball not found"

	# --- 2. source tree (extracted + patched once per version and patch set) --
	KSRC_VERSION=$(dpkg-query -W -f='${Version}' "$srcpkg")
	# 6.12.117-1~deb12u1 -> 6.12.117-1_deb12u1
	KSRC_SAFEVER=${KSRC_VERSION//[^A-Za-z0-9.+-]/_}
	KSRC_PATCHES=()
	for p in "$top"/scripts/uml/patches/*.patch; do
		[ -e "$p" ] && KSRC_PATCHES+=("$p")
	done
	phash=$(cat /dev/null "${KSRC_PATCHES[@]}" | sha256sum | cut -c1-8)
	srcroot=$cache/src-$KSRC_SAFEVER-p$phash
	KSRC=$srcroot/$srcpkg
	if [ ! -e "$srcroot/.extracted" ]; then
		ks_log "extracting $tarball ($KSRC_VERSION) into $srcroot"
		rm -rf "$srcroot" "$srcroot.tmp"
		mkdir -p "$srcroot.tmp"
		tar -C "$srcroot.tmp" -xf "$tarball"
		for p in "${KSRC_PATCHES[@]}"; do
			ks_log "applying $(basename "$p")"
			patch -d "$srcroot.tmp/$srcpkg" -p1 --forward --batch <"$p" ||
				ks_die "patch $p failed"
		done
		mv "$srcroot.tmp" "$srcroot"
		touch "$srcroot/.extracted"
	fi
	[ -f "$KSRC/Makefile" ] || ks_die "no kernel Makefile in $KSRC"
	exec {lockfd}>&-
}

ks_log() { printf 'kernel-source: %s\n' "$*" >&2; }
ks_die() { printf 'kernel-source: error: %s\n' "$*" >&2; exit 1; }

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -euo pipefail
	kernel_source
	echo "$KSRC"
fi
