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
# - installs missing Debian build dependencies with apt-get (only when missing);
# - extracts /usr/src/linux-source-6.12.tar.xz into $TPLAN_CACHE and applies
#   scripts/uml/patches/*.patch (once per package version + patch set);
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
jobs=${JOBS:-$(nproc)}
srcpkg=linux-source-6.12
tarball=/usr/src/$srcpkg.tar.xz
log() { printf 'build-kernel: %s\n' "$*"; }
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

# --- 1. build dependencies -------------------------------------------------------
deps=(build-essential flex bison bc libelf-dev libssl-dev python3 xz-utils patch kmod "$srcpkg")
missing=()
for p in "${deps[@]}"; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	[ "${TPLAN_NO_APT:-0}" = 1 ] && die "missing packages: ${missing[*]} (TPLAN_NO_APT=1)"
	sudo=
	if [ "$(id -u)" != 0 ]; then
		command -v sudo >/dev/null || die "missing packages: ${missing[*]}; not root and no sudo"
		sudo="sudo -n"
	fi
	export DEBIAN_FRONTEND=noninteractive
	log "installing: ${missing[*]}"
	if ! $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null; then
		log "apt-get install failed; running apt-get update once and retrying"
		$sudo apt-get update -q </dev/null
		$sudo apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
	fi
fi
[ -r "$tarball" ] || die "$tarball not found"

# --- 2. source tree (extracted + patched once per package version and patch set) ----
srcver=$(dpkg-query -W -f='${Version}' "$srcpkg")
safever=${srcver//[^A-Za-z0-9.+-]/_}	# 6.12.117-1~deb12u1 -> 6.12.117-1_deb12u1
patches=()
for p in "$here"/patches/*.patch; do [ -e "$p" ] && patches+=("$p"); done
phash=$(cat /dev/null "${patches[@]}" | sha256sum | cut -c1-8)
srcroot=$cache/src-$safever-p$phash
src=$srcroot/$srcpkg
if [ ! -e "$srcroot/.extracted" ]; then
	log "extracting $tarball ($srcver) into $srcroot"
	rm -rf "$srcroot" "$srcroot.tmp"
	mkdir -p "$srcroot.tmp"
	tar -C "$srcroot.tmp" -xf "$tarball"
	for p in "${patches[@]}"; do
		log "applying $(basename "$p")"
		patch -d "$srcroot.tmp/$srcpkg" -p1 --forward --batch <"$p" || die "patch $p failed"
	done
	mv "$srcroot.tmp" "$srcroot"
	touch "$srcroot/.extracted"
fi
[ -f "$src/Makefile" ] || die "no kernel Makefile in $src"

# --- 3. configure + build ------------------------------------------------------------
if [ -z "$flavour" ]; then
	# Default flavour: keep this exact hash input (existing cache dirs stay valid).
	hash=$( { printf '%s\n' "$srcver"; cat "$frag" "${patches[@]}"; } | sha256sum | cut -c1-12)
	kdir=$cache/uml-$safever-$hash
else
	hash=$( { printf '%s\n%s\n' "$srcver" "$flavour"; cat "${frags[@]}" "${patches[@]}"; } |
		sha256sum | cut -c1-12)
	kdir=$cache/uml-$flavour-$safever-$hash
fi
stamp=$kdir/.tplan-built
if [ -e "$stamp" ] && [ -x "$kdir/linux" ]; then
	log "up to date: $kdir"
	echo "$kdir" >&3
	exit 0
fi

mk() { make -C "$src" O="$kdir" ARCH=um "$@"; }
mkdir -p "$kdir"
t0=$(date +%s)
if [ ! -e "$kdir/.tplan-configured" ]; then
	log "configuring $kdir"
	mk -s defconfig
	(cd "$src" && ARCH=um scripts/kconfig/merge_config.sh -m -O "$kdir" "$kdir/.config" "${frags[@]}")
	mk -s olddefconfig
	# Fail on fragment options that kconfig did not keep (dependencies unmet etc.).
	# A later fragment overrides an earlier one, so only each symbol's last setting counts.
	bad=0
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) want=$line ;;
		"# CONFIG_"*" is not set") want=$line ;;
		*) continue ;;
		esac
		sym=${want#\# }; sym=${sym%%[= ]*}
		got=$(grep -E "^(# )?$sym[= ]" "$kdir/.config" || true)
		if [ "$got" != "$want" ] && ! { [ -z "$got" ] && [ "${want#\#}" != "$want" ]; }; then
			log "warning: wanted '$want', got '${got:-<absent>}'"
			bad=1
		fi
	done < <(cat "${frags[@]}" | tac | awk '
		/^CONFIG_[A-Za-z0-9_]*=/ { s = $0; sub(/=.*/, "", s) }
		/^# CONFIG_[A-Za-z0-9_]* is not set/ { s = $2 }
		s != "" { if (!(s in seen)) { seen[s] = 1; print } s = ""; next }
		' | tac)
	# A test kernel without an option a fragment asks for would test
	# something else: stop, and configure afresh next time.
	[ $bad = 0 ] || die "some fragment options were not applied (see above)"
	touch "$kdir/.tplan-configured"
fi

log "building in $kdir with -j$jobs"
mk -j"$jobs" </dev/null
mk -j"$jobs" modules_prepare </dev/null
[ -x "$kdir/linux" ] || die "build finished but $kdir/linux is missing"
touch "$stamp"
log "built in $(( $(date +%s) - t0 ))s: $kdir"
echo "$kdir" >&3
