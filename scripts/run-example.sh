#!/bin/bash
# run-example.sh BUILD_DIR TPLANCTL TABLE - "make run": build what is
# missing, boot UML, load tplan.ko, show the device, submit TABLE through
# the accel device (once in one pool, once across the pools as tiers), show the
# arena, and power off.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$(mkdir -p "$1" && cd "$1" && pwd)
ctl=$(realpath "$2")
table=$(realpath "$3")

dirs=$("$here/uml/build-modules.sh" "$build")
kdir=$(echo "$dirs" | tail -n 2 | head -n 1)
src=$(echo "$dirs" | tail -n 1)

guest=$build/run-example-guest.sh
cat >"$guest" <<GUEST
#!/bin/sh
set -e
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
"$here/uml/boot.sh" "$kdir" "$guest" | sed -n '/TPLAN-UML-START/,/TPLAN-UML-EXIT/p' |
	grep -v -E '^\[ *[0-9]+\.[0-9]+\]|^TPLAN-UML-(START|EXIT)'
