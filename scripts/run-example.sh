#!/bin/bash
# run-example.sh BUILD_DIR TPLANCTL TABLE [uml|qemu] - "make run" (uml, the
# default) and "make run-qemu": build what is missing, boot the kernel, load
# tplan.ko, show the device, submit TABLE through the accel device (once in
# one pool, once across the pools as tiers), show the arena, and power off.
# uml: User Mode Linux (scripts/uml), one CPU, booted in a second.
# qemu: Debian's own SMP kernel in QEMU (scripts/qemu), 4 vCPUs and VT-d,
# the module built against its headers, as a user's machine runs it.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$(mkdir -p "$1" && cd "$1" && pwd)
ctl=$(realpath "$2")
table=$(realpath "$3")
kernel=${4:-uml}

case $kernel in
uml) dirs=$("$here/uml/build-modules.sh" "$build") ;;
qemu) dirs=$("$here/qemu/build-module.sh" "$build" stock) ;;
*) echo "run-example.sh: unknown kernel '$kernel' (uml or qemu)" >&2; exit 2 ;;
esac
kdir=$(echo "$dirs" | tail -n 2 | head -n 1)
src=$(echo "$dirs" | tail -n 1)

guest=$build/run-example-guest.sh
cat >"$guest" <<GUEST
#!/bin/sh
set -e
echo "kernel \$(uname -r), \$(nproc) CPUs"; echo
[ -d /sys/module/drm ] || modprobe drm
insmod $src/tplan.ko
echo '$ tplanctl info'
$ctl info
echo
echo '$ tplanctl submit $(basename "$table") --aliases'
$ctl submit $table --aliases -o $build/example-plan.csv
echo
echo '$ tplanctl submit $(basename "$table") --aliases --tiered   (the pools as tiers)'
$ctl submit $table --aliases --tiered | grep -E '^(peak|tier|plan id)'
echo
echo '$ cat /sys/kernel/debug/accel/tplan/state   (after the plan was released)'
cat /sys/kernel/debug/accel/tplan/state
rmmod tplan
GUEST
chmod +x "$guest"
if [ "$kernel" = qemu ]; then
	boot=("$here/qemu/boot.sh" stock)
else
	boot=("$here/uml/boot.sh" "$kdir")
fi
"${boot[@]}" "$guest" | sed -n '/TPLAN-UML-START/,/TPLAN-UML-EXIT/p' |
	grep -v -E '^\[ *[0-9]+\.[0-9]+\]|^TPLAN-UML-(START|EXIT)'
