#!/bin/bash
# Build (or reuse) the UML kernel used to test tplan.
#
#   KDIR=$(scripts/uml/build-kernel.sh [FLAVOUR])
#   make -C "$KDIR" ARCH=um M=$PWD/driver
#
# FLAVOUR (optional, e.g. "kasan") merges scripts/uml/uml-FLAVOUR.config on top of
# uml.config and builds in $TPLAN_CACHE/uml-FLAVOUR-<srcver>-<hash> (hash over both
# fragments). Without FLAVOUR nothing changes: uml-<srcver>-<hash> as before.
#
# - gets the patched source tree from scripts/kernel-source.sh (installs missing
#   Debian build dependencies; extracts /usr/src/linux-source-6.12.tar.xz into
#   $TPLAN_CACHE and applies scripts/uml/patches/*.patch once per version + patch set);
# - builds an ARCH=um kernel (defconfig + scripts/uml/uml.config) in
#   $TPLAN_CACHE/uml-<srcver>-<hash>, where <hash> covers uml.config, the patches and
#   the source version, so it is rebuilt only when one of them changes;
# - runs modules_prepare so out-of-tree modules can be built with M=.
# All progress goes to stderr; the last (only) stdout line is the build directory.
# Environment: TPLAN_CACHE (default ~/.cache/tplan), JOBS (default nproc),
#              TPLAN_NO_APT=1 to never call apt-get.
set -euo pipefail
exec 3>&1 1>&2

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
frag=$here/uml.config
flavour=${1:-}
cache=${TPLAN_CACHE:-$HOME/.cache/tplan}
die() { printf 'build-kernel: error: %s\n' "$*"; exit 1; }

[ -r "$frag" ] || die "missing $frag"
frags=("$frag")
if [ -n "$flavour" ]; then
	case $flavour in
	*[!a-z0-9_]*) die "bad flavour '$flavour' (use [a-z0-9_])" ;;
	esac
	[ -r "$here/uml-$flavour.config" ] || die "unknown flavour '$flavour': no $here/uml-$flavour.config"
	frags+=("$here/uml-$flavour.config")
fi
mkdir -p "$cache"

# --- 1. build dependencies + patched source tree (shared with the QEMU kernel) ----
# shellcheck source=scripts/kernel-source.sh
. "$here/../kernel-source.sh"
kernel_source
src=$KSRC
srcver=$KSRC_VERSION
safever=$KSRC_SAFEVER
patches=("${KSRC_PATCHES[@]}")

# --- 2. configure + build ------------------------------------------------------------
if [ -z "$flavour" ]; then
	# Default flavour: keep this exact hash input (existing cache dirs stay valid).
	hash=$( { printf '%s\n' "$srcver"; cat "$frag" "${patches[@]}"; } | sha256sum | cut -c1-12)
	kdir=$cache/uml-$safever-$hash
else
	hash=$( { printf '%s\n%s\n' "$srcver" "$flavour"; cat "${frags[@]}" "${patches[@]}"; } |
		sha256sum | cut -c1-12)
	kdir=$cache/uml-$flavour-$safever-$hash
fi
# shellcheck source=scripts/kernel-build.sh
. "$here/../kernel-build.sh"
kernel_build "$src" "$kdir" um defconfig linux "${frags[@]}"
