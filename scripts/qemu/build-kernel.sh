#!/bin/bash
# Build (or reuse) the x86_64 debug kernel tplan is tested with under QEMU.
#
#   KDIR=$(scripts/qemu/build-kernel.sh [FLAVOUR])      # FLAVOUR: debug (default)
#   qemu-system-x86_64 ... -kernel "$KDIR/arch/x86/boot/bzImage"
#   make -C "$KDIR" ARCH=x86_64 M=$PWD modules
#
# Why: the UML kernels cannot run KCSAN, and have no real SMP, IOMMU or
# interrupts; this kernel runs in qemu-system-x86_64 (TCG is enough) with
# -smp 4 and -device intel-iommu, with KCSAN, lockdep and other debug checks.
#
# - the source tree is the one the UML kernels use: scripts/kernel-source.sh
#   (Debian's linux-source-6.12 + scripts/uml/patches, extracted once);
# - config: make allnoconfig + kernel/configs/kvm_guest.config +
#   scripts/qemu/qemu-FLAVOUR.config, then olddefconfig; fails when kconfig
#   did not keep an option of the fragments (scripts/kconfig-check.sh);
# - builds in $TPLAN_CACHE/qemu-FLAVOUR-<srcver>-<hash>, where <hash> covers the
#   source version, the fragment, the patches and the base config recipe, so it
#   is rebuilt only when one of them changes; output arch/x86/boot/bzImage;
# - runs modules_prepare so out-of-tree modules can be built with M=.
# All progress goes to stderr; the last (only) stdout line is the build directory.
# Environment: TPLAN_CACHE (default ~/.cache/tplan), JOBS (default nproc),
#              TPLAN_NO_APT=1 to never call apt-get.
set -euo pipefail
exec 3>&1 1>&2

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
flavour=${1:-debug}
cache=${TPLAN_CACHE:-$HOME/.cache/tplan}
# The base the fragments are merged onto; part of the hash.
recipe="allnoconfig kernel/configs/kvm_guest.config"
die() { printf 'build-kernel: error: %s\n' "$*"; exit 1; }

case $flavour in
*[!a-z0-9_]*) die "bad flavour '$flavour' (use [a-z0-9_])" ;;
esac
frag=$here/qemu-$flavour.config
[ -r "$frag" ] || die "unknown flavour '$flavour': no $frag"

# --- 1. build dependencies + patched source tree (shared with the UML kernels) -----
# shellcheck source=scripts/kernel-source.sh
. "$here/../kernel-source.sh"
kernel_source
src=$KSRC
frags=("$src/kernel/configs/kvm_guest.config" "$frag")

# --- 2. configure + build ------------------------------------------------------------
hash=$( { printf '%s\n%s\n%s\n' "$KSRC_VERSION" "$flavour" "$recipe"
	  cat "$frag" "${KSRC_PATCHES[@]}"; } | sha256sum | cut -c1-12)
kdir=$cache/qemu-$flavour-$KSRC_SAFEVER-$hash
# shellcheck source=scripts/kernel-build.sh
. "$here/../kernel-build.sh"
kernel_build "$src" "$kdir" x86_64 allnoconfig arch/x86/boot/bzImage "${frags[@]}"
