#!/bin/bash
# lint.sh BUILD_DIR - the kernel-side style and static checks of "make
# check": scripts/checkpatch.pl --strict on every kernel-side file (driver/
# with driver/edu/, planner/, uapi/, tests/kunit/, tests/stallprobe/ and the
# generators in tests/common/), scripts/kernel-doc -Wall on the kernel-doc
# comments, sparse (C=2) on a build of all modules for the UML kernel, and
# tests/lint/layers.sh on that build and the userspace sources
# (dependencies one way).
# Last line: "N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(mkdir -p "$1" && cd "$1" && pwd)
pass=0
fail=0

kdir=$("$top/scripts/uml/build-kernel.sh" | tail -n 1) || { echo "0 passed, 1 failed"; exit 1; }
scripts=$(readlink -f "$kdir/source")/scripts
checkpatch=$scripts/checkpatch.pl

cd "$top"
files=$(ls driver/*.[ch] driver/edu/*.[ch] planner/*.[ch] planner/*/*.[ch] uapi/linux/*.h tests/kunit/*.c \
	tests/stallprobe/*.c \
	tests/common/gen_core.c tests/common/gen.h \
	tests/common/planner_cases.c tests/common/planner_cases.h \
	tests/common/constrained_cases.c)
# checkpatch exits 1 on any finding; what counts is what it prints.
out=$(perl "$checkpatch" --no-tree --strict --terse -f $files 2>&1 |
      grep -E 'ERROR|WARNING|CHECK|No such file')
if [ -n "$out" ]; then
	echo "$out"
	echo "FAIL lint.checkpatch_strict"
	fail=$((fail + 1))
else
	echo "ok   lint.checkpatch_strict ($(echo $files | wc -w) files)"
	pass=$((pass + 1))
fi

if out=$(perl "$scripts/kernel-doc" -none -Wall $files 2>&1) && [ -z "$out" ]; then
	echo "ok   lint.kernel_doc"
	pass=$((pass + 1))
else
	echo "$out"
	echo "FAIL lint.kernel_doc"
	fail=$((fail + 1))
fi

src=$build/kmod-sparse
rm -rf "$src"
mkdir -p "$src/tests"
cp -r Kbuild driver planner uapi "$src/"
cp -r tests/kunit tests/common "$src/tests/"
log=$build/kmod-sparse.log
if make -C "$kdir" ARCH=um M="$src" C=2 W=1 modules >"$log" 2>&1 &&
   ! grep -E 'warning:|error:' "$log"; then
	echo "ok   lint.sparse (C=2, W=1)"
	pass=$((pass + 1))
else
	tail -n 20 "$log"
	echo "FAIL lint.sparse"
	fail=$((fail + 1))
fi

# Dependencies one way, on the objects of that build and the userspace ones.
"$here/layers.sh" "$build" "$src" >"$build/layers.log" 2>&1
cat "$build/layers.log" | grep -v -E '^[0-9]+ passed, [0-9]+ failed'
line=$(tail -n 1 "$build/layers.log")
case $line in
*" passed, "*" failed")
	pass=$((pass + ${line%% passed*}))
	f=${line#*passed, }
	fail=$((fail + ${f%% failed*})) ;;
*)	echo "FAIL layers: no summary"; fail=$((fail + 1)) ;;
esac
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
