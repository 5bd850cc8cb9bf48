#!/bin/sh
# SPDX-License-Identifier: MIT
#
# dkms-tree.sh DEST [VERSION] - copy the files DKMS needs to build tplan.ko
# (dkms.conf, Kbuild and the module's sources in driver/, planner/, uapi/;
# nothing from tests/ or userspace/) into DEST, normally
# $DESTDIR/usr/src/tplan-<version>.  With VERSION (the Makefile passes its
# VERSION), fail unless dkms.conf's PACKAGE_VERSION is the same.
# dkms-tree.sh --list prints the files, one a line, relative to the top.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

files() {
	echo dkms.conf
	echo Kbuild
	find driver planner uapi -type f \( -name '*.c' -o -name '*.h' -o -name '*.mk' \) ! -name '*.mod.c' | LC_ALL=C sort
}

if [ "${1:-}" = --list ]; then
	files
	exit 0
fi
if [ $# -lt 1 ] || [ $# -gt 2 ] || [ -z "$1" ]; then
	echo "usage: $0 DEST [VERSION] | --list" >&2
	exit 2
fi
dest=$1

conf_version=$(sed -n 's/^PACKAGE_VERSION="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' dkms.conf)
if [ $# -eq 2 ] && [ "$2" != "$conf_version" ]; then
	echo "$0: dkms.conf has PACKAGE_VERSION=$conf_version, expected $2" >&2
	exit 1
fi

files | while read -r f; do
	mkdir -p "$dest/$(dirname "$f")"
	cp "$f" "$dest/$f"
	chmod 0644 "$dest/$f"
done
