#!/bin/bash
# dkms_build.sh BUILD_DIR - build tplan.ko with DKMS, as a user's machine
# would after `make dkms-install`, against Debian's linux-headers-6.12-amd64,
# without touching the system: the source, DKMS and install trees, the
# signing key DKMS makes and its temporary files all live in one temporary
# directory, removed at the end.  Nothing is installed or loaded.
#   kmod.dkms_version  dkms.conf's PACKAGE_NAME/PACKAGE_VERSION are tplan and
#                      the Makefile's VERSION
#   kmod.dkms_build    `dkms build` succeeds and leaves a tplan.ko
#   kmod.dkms_modinfo  its modinfo: name, version (the Makefile's VERSION),
#                      license GPL, vermagic of the target kernel
#   kmod.modprobe_conf driver/tplan.conf documents exactly the module's
#                      parameters
#   kmod.dkms_no_trace no tplan files appeared in /var/lib/dkms, /usr/src or
#                      /lib/modules
# BUILD_DIR keeps the DKMS output (dkms-build.log).  Last line: "N passed,
# N failed".
set -u
build=$1
cd "$(dirname "$0")/../.." || exit 1
pass=0
fail=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
ko() { echo "FAIL $*"; fail=$((fail + 1)); }
finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}

# Anything of ours in the system's DKMS, source and module trees.
system_state() {
	ls -la /var/lib/dkms 2>/dev/null
	ls -d /usr/src/tplan* 2>/dev/null
	find /lib/modules /var/lib/dkms -name 'tplan*' 2>/dev/null
}
before=$(system_state)

version=$(sed -n 's/^VERSION[[:space:]]*:=[[:space:]]*//p' Makefile)
conf_name=$(sed -n 's/^PACKAGE_NAME="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' dkms.conf)
conf_version=$(sed -n 's/^PACKAGE_VERSION="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' dkms.conf)
if [ -n "$version" ] && [ "$conf_name" = tplan ] && [ "$conf_version" = "$version" ]; then
	ok "kmod.dkms_version (dkms.conf: tplan $conf_version, Makefile: $version)"
else
	ko "kmod.dkms_version (dkms.conf: '$conf_name' '$conf_version', Makefile VERSION: '$version')"
fi

# shellcheck disable=SC2012
kdir=$(ls -d /usr/src/linux-headers-6.12.*-amd64 2>/dev/null | sort -V | tail -n 1)
if ! command -v dkms >/dev/null || [ -z "$kdir" ]; then
	ko "kmod.dkms_build (needs dkms and linux-headers-6.12-amd64: make check-deps)"
	finish
fi
kver=${kdir#/usr/src/linux-headers-}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tplan-dkms.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/source" "$tmp/dkms" "$tmp/install/$kver" "$tmp/tmp" "$build"
log=$build/dkms-build.log
if ! scripts/dkms-tree.sh "$tmp/source/tplan-$conf_version" "$version" >"$log" 2>&1; then
	cat "$log"
	ko "kmod.dkms_build (scripts/dkms-tree.sh)"
	finish
fi
# DKMS signs what it builds when the kernel has sign-file, with a key it
# makes on first use (/var/lib/dkms/mok.key unless told otherwise).
if TMPDIR=$tmp/tmp mok_signing_key=$tmp/mok.key mok_certificate=$tmp/mok.pub \
	dkms build -m tplan -v "$conf_version" -k "$kver" -j 2 \
	--sourcetree "$tmp/source" --dkmstree "$tmp/dkms" \
	--installtree "$tmp/install" --kernelsourcedir "$kdir" >>"$log" 2>&1; then
	kofile=$(find "$tmp/dkms/tplan/$conf_version/$kver" -name 'tplan.ko*' -path '*/module/*' | head -n 1)
else
	kofile=
	find "$tmp/dkms" -name make.log -exec tail -n 30 {} \; >>"$log" 2>/dev/null
fi
if [ -n "$kofile" ]; then
	ok "kmod.dkms_build (dkms build for $kver: ${kofile#"$tmp/dkms/"})"
	mod_name=$(modinfo -F name "$kofile")
	mod_version=$(modinfo -F version "$kofile")
	mod_license=$(modinfo -F license "$kofile")
	mod_vermagic=$(modinfo -F vermagic "$kofile")
	if [ "$mod_name" = tplan ] && [ "$mod_version" = "$version" ] &&
	   [ "$mod_license" = GPL ] && [ "${mod_vermagic%% *}" = "$kver" ]; then
		ok "kmod.dkms_modinfo (tplan $mod_version, $mod_license, $kver)"
	else
		ko "kmod.dkms_modinfo (name '$mod_name', version '$mod_version', license '$mod_license', vermagic '$mod_vermagic'; want tplan $version GPL $kver)"
	fi
	params=$(modinfo -F parm "$kofile" | sed 's/:.*//' | sort -u | xargs)
	conf=$(sed -n 's/^#\{0,1\}options tplan //p' driver/tplan.conf |
		tr ' ' '\n' | sed -n 's/=.*//p' | sort -u | xargs)
	if [ -n "$params" ] && [ "$params" = "$conf" ]; then
		ok "kmod.modprobe_conf (driver/tplan.conf: $params)"
	else
		ko "kmod.modprobe_conf (module: $params; driver/tplan.conf: $conf)"
	fi
else
	tail -n 40 "$log"
	ko "kmod.dkms_build (dkms build for $kver; see $log)"
fi

rm -rf "$tmp"
trap - EXIT
if [ "$(system_state)" = "$before" ]; then
	ok "kmod.dkms_no_trace (nothing in /var/lib/dkms, /usr/src, /lib/modules)"
else
	diff <(echo "$before") <(system_state)
	ko "kmod.dkms_no_trace (the system's trees changed)"
fi
finish
