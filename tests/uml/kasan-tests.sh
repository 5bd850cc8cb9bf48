#!/bin/bash
# kasan-tests.sh BUILD_DIR DMABUF_E2E - the dma-buf end-to-end tests in the
# KASAN UML kernel (scripts/uml/uml-kasan.config: KASAN, UBSAN, lockdep,
# kmemleak): builds the module for it (cached kernel), boots
# tests/uml/guest-kasan.sh there and counts its results; a kernel report
# (boot.sh exit 126) fails the suite.  Last line: "N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rig=$(cd "$here/../../scripts/uml" && pwd)
build=$(mkdir -p "$1" && cd "$1" && pwd)
dmabuf_e2e=$(realpath "$2")

die() {
	echo "FAIL kasan.$1"
	echo "0 passed, 1 failed"
	exit 1
}

dirs=$("$rig/build-modules.sh" "$build" kasan) || die "module_build (see above)"
kdir=$(echo "$dirs" | tail -n 2 | head -n 1)
src=$(echo "$dirs" | tail -n 1)
log=$build/uml-kasan-console.log
TPLAN_UML_TIMEOUT=${TPLAN_UML_TIMEOUT:-600} TPLAN_UML_LOG=$log \
	TPLAN_UML_ARGS="kasan_multi_shot" "$rig/boot.sh" "$kdir" \
	"$here/guest-kasan.sh" "$src/tplan.ko" "$dmabuf_e2e" >/dev/null
boot_rc=$?
out=$(sed -n '/TPLAN-UML-START/,/TPLAN-UML-EXIT/p' "$log" | grep -a -E '^(ok|FAIL|    |     )')
echo "$out"
line=$(sed -n '/TPLAN-UML-START/,$p' "$log" | grep -a -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
pass=0
fail=0
if [ -n "$line" ]; then
	pass=${line%% passed*}
	f=${line#*passed, }
	fail=${f%% failed*}
else
	echo "FAIL kasan.summary: none in $log"
	fail=1
fi
if [ "$boot_rc" -ne 0 ]; then
	echo "FAIL kasan.boot: boot.sh exited $boot_rc (124 timeout, 125 no end marker, 126 kernel report: see $log)"
	fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
