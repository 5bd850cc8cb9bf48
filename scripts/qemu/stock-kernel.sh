#!/bin/bash
# stock-kernel.sh - print the release of Debian's stock 6.12 amd64 kernel
# (the newest linux-image-6.12.*-amd64 in /boot), installing the
# linux-image-6.12-amd64 package first when none is there.  The module for
# it is built against the matching headers (tests/kmod/kmod_distro_check.sh).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
newest() { ls /boot/vmlinuz-6.12.*-amd64 2>/dev/null | sort -V | tail -n 1; }
if [ -z "$(newest)" ]; then
	"$here/../install-deps.sh" linux-image-6.12-amd64 >&2
fi
img=$(newest)
[ -n "$img" ] || { echo "stock-kernel.sh: no /boot/vmlinuz-6.12.*-amd64" >&2; exit 1; }
[ -r "$img" ] || { echo "stock-kernel.sh: $img is not readable" >&2; exit 1; }
echo "${img#/boot/vmlinuz-}"
