#!/bin/bash
# initramfs.sh KVER|none - build (or reuse) the QEMU rig's initramfs and print
# its path: a static busybox, scripts/qemu/initramfs-init.sh as /init and,
# for KVER, the modules that mount the host's root over virtio-9p taken from
# /lib/modules/KVER (decompressed: busybox's insmod reads plain .ko files),
# in dependency order.  "none": no modules (a kernel with 9p built in).
# Cached as $TPLAN_CACHE/qemu-initramfs-KVER-<hash>.cpio.gz.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
kver=$1
cache=${TPLAN_CACHE:-$HOME/.cache/tplan}
busybox=/bin/busybox
# The order insmod needs: each after the modules it depends on.
modules="netfs 9pnet 9pnet_virtio 9p"

file "$(readlink -f "$busybox")" | grep -q 'statically linked' ||
	{ echo "initramfs.sh: $busybox is not static (apt-get install busybox-static)" >&2; exit 1; }
hash=$(cat "$here/initramfs-init.sh" "$0" "$busybox" | sha256sum | cut -c1-12)
out=$cache/qemu-initramfs-$kver-$hash.cpio.gz
if [ -s "$out" ]; then
	echo "$out"
	exit 0
fi
mkdir -p "$cache"
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bin" "$root/modules"
cp "$busybox" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
cp "$here/initramfs-init.sh" "$root/init"
chmod 755 "$root/init"
if [ "$kver" != none ]; then
	for m in $modules; do
		path=$(modinfo -k "$kver" -n "$m") ||
			{ echo "initramfs.sh: no module $m for $kver" >&2; exit 1; }
		case $path in
		*.xz) xz -dc "$path" >"$root/modules/$m.ko" ;;
		*.zst) zstd -dcq "$path" >"$root/modules/$m.ko" ;;
		*) cp "$path" "$root/modules/$m.ko" ;;
		esac
		echo "$m.ko" >>"$root/modules/order"
	done
fi
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$out.tmp"
mv "$out.tmp" "$out"
echo "$out"
