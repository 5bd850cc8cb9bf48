#!/bin/bash
# kernel-tests.sh BUILD_DIR DATA_DIR TPLANCTL IOCTL_E2E - the kernel side
# of "make check": builds the UML kernel (cached), builds tplan.ko and the
# KUnit test modules against it (W=1, any warning fails), boots UML, runs
# tests/uml/guest-tests.sh there, parses the KTAP with kunit.py and counts
# the end-to-end results.  Last line: "N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rig=$(cd "$here/../../scripts/uml" && pwd)
build=$(mkdir -p "$1" && cd "$1" && pwd)
data=$(cd "$2" && pwd)
ctl=$(realpath "$3")
ioctl_e2e=$(realpath "$4")
suites="tplan_planner tplan_region tplan_ioctl tplan_spill"

die() {
	echo "FAIL uml.$1"
	echo "0 passed, 1 failed"
	exit 1
}

dirs=$("$rig/build-modules.sh" "$build") || die "module_build (see above)"
kdir=$(echo "$dirs" | tail -n 2 | head -n 1)
src=$(echo "$dirs" | tail -n 1)
echo "ok   uml.module_build (tplan.ko and $(ls "$src"/tests/kunit/*.ko | wc -l) KUnit modules, W=1)"

log=$build/uml-console.log
# The guest runs for about 40 s here; leave room for a slower machine.
# The e2e stall tests measure wake-ups: no kernel build beside them.
TPLAN_UML_TIMEOUT=${TPLAN_UML_TIMEOUT:-600} TPLAN_UML_LOG=$log \
	"$rig/../quiet-builds.sh" "$build" "$rig/boot.sh" "$kdir" "$here/guest-tests.sh" "$src" \
	"$ctl" "$ioctl_e2e" "$data" >/dev/null
boot_rc=$?
grep -a -v -E '^\[ *[0-9]+\.[0-9]+\] (Checking|Adding|[A-Z][a-z]+ (is|to|that))' "$log" |
	sed -n '/TPLAN-UML-START/,/TPLAN-UML-EXIT/p'

pass=0
fail=0
kunit_out=$("$rig/kunit-parse.sh" "$kdir" "$log" 2>&1)
kunit_rc=$?
echo "$kunit_out" | grep -E 'Testing complete|FAILED|ERROR|CRASHED' | sed 's/^/kunit.py: /'
while read -r ran passed; do
	pass=$((pass + passed))
	fail=$((fail + ran - passed))
done < <(echo "$kunit_out" | sed -n -E 's/.*Ran ([0-9]+) tests?: passed: ([0-9]+).*/\1 \2/p')
if [ "$kunit_rc" -ne 0 ]; then
	echo "FAIL uml.kunit_parse (kunit.py reported a failure, crash or no tests)"
	fail=$((fail + 1))
fi
for s in $suites; do
	if ! grep -a -q -E "^\[ *[0-9.]+\] (not )?ok [0-9]+ $s\$" "$log"; then
		echo "FAIL uml.suite_$s: missing from the KTAP output"
		fail=$((fail + 1))
	fi
done

line=$(sed -n '/^=== e2e/,$p' "$log" | grep -a -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
if [ -n "$line" ]; then
	pass=$((pass + ${line%% passed*}))
	f=${line#*passed, }
	fail=$((fail + ${f%% failed*}))
else
	echo "FAIL uml.e2e: no summary line"
	fail=$((fail + 1))
fi
if [ "$boot_rc" -ne 0 ]; then
	echo "FAIL uml.boot: boot.sh exited $boot_rc (124 timeout, 125 no end marker, 126 kernel splat)"
	fail=$((fail + 1))
fi
echo "$((pass + 1)) passed, $fail failed"
[ "$fail" -eq 0 ]
