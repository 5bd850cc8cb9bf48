#!/bin/sh
# install-deps.sh PACKAGE... - install the Debian packages that are missing.
# Used by the Makefile (make deps, run, check, bench and the fuzz targets;
# plain make builds only) so that they work on a fresh Debian 12 machine;
# does nothing (and needs no root) when all are present.
set -eu
missing=""
for pkg in "$@"; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $pkg"
done
[ -z "$missing" ] && exit 0
echo "install-deps: installing:$missing" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2 || true
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >&2
