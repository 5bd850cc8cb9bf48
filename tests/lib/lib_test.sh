#!/bin/bash
# lib_test.sh BUILD_DIR DATA_DIR - libtplan as an outside user sees it:
# the public header compiles on its own as C and as C++ and defines nothing
# but TPLAN_* names; libtplan.so exports exactly the functions that
# userspace/libtplan.map lists, each declared in the public headers and
# documented; README's example builds as README says, with the static and
# with the shared library, and runs; a C++ program plans through the .so.
# Last line: "N passed, N failed".
set -u
SUITE=lib
. "$(dirname "$0")/../common/suite.sh"
build=$1
data=$2
inc="-Iuserspace/include -Iplanner -Iuapi"
public="userspace/include/libtplan.h planner/tplan_types.h"
map=userspace/libtplan.map
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT


# Compiles STDIN with COMPILER ARGS...; prints "ok" or the diagnostics.
compiles() {
	if "$@" -o /dev/null 2>"$tmp/err"; then echo ok; else cat "$tmp/err"; fi
}

# The header alone, in strict C and in C++.  Leaked names make the
# declarations below clash: u64 or u32 typedefs, min/max/BIT/ARRAY_SIZE
# macros (function-like macros expand "min (1, 2)" and "BIT (0)").
leaks='
typedef char u64, u32, u16, u8, s64;
int min(int a, int b);
int max(int a, int b);
int BIT(int n);
int ARRAY_SIZE(int n);
'
printf '#include "libtplan.h"\n%s\n' "$leaks" >"$tmp/c.c"
# shellcheck disable=SC2086
check header_c "$(compiles gcc -std=c11 -pedantic -Wall -Wextra -Werror \
	$inc -c "$tmp/c.c")" ok
printf '#include "libtplan.h"\n#include <vector>\n#include <algorithm>\n%s
int f(std::vector<int> &v) { return std::min(v[0], std::max(v[1], 1)); }\n' \
	"$leaks" >"$tmp/cxx.cc"
# shellcheck disable=SC2086
check header_cxx "$(compiles g++ -Wall -Wextra -Werror -x c++ $inc \
	-c "$tmp/cxx.cc")" ok

# Every macro the header adds to those of its system headers is TPLAN_'s.
# shellcheck disable=SC2086
gcc -dM -E $inc -x c - </dev/null -include stdio.h -include linux/types.h \
	-include linux/ioctl.h | sort >"$tmp/system"
# shellcheck disable=SC2086
gcc -dM -E $inc -x c - </dev/null -include libtplan.h | sort >"$tmp/all"
check header_macros "$(comm -13 "$tmp/system" "$tmp/all" |
	awk '{print $2}' | grep -Ev '^_*(LIB|UAPI_LINUX_)?TPLAN_' | tr '\n' ' ')" ""

# The exports: exactly the version script's list, declared and documented.
api=$(sed -n '/global:/,/local:/p' "$map" | grep -Eo '^[[:space:]]*tplan_[a-z_]+;' |
	tr -d ' \t;' | sort)
check exports "$(nm -D --defined-only "$build/libtplan.so" | awk '{print $3}' |
	sort | tr '\n' ' ')" "$(echo "$api" | tr '\n' ' ')"
undeclared=""
undocumented=""
for f in $api; do
	# shellcheck disable=SC2086
	grep -Eq "[ *]$f\(" $public || undeclared="$undeclared $f"
	grep -q "^ \* $f() - " userspace/*.c planner/*.c ||
		undocumented="$undocumented $f"
done
check declared "$undeclared" ""
check documented "$undocumented" ""

# README's example, compiled as README says.
want="peak 9633792, bound 9633792"
flags="-std=c11 $inc -Wall -Wextra -Werror"
table="$data/real/resnet50_b1.csv"
# shellcheck disable=SC2086
if gcc $flags -o "$build/readme_static" tests/lib/readme_example.c "$build/libtplan.a"; then
	check static "$("$build/readme_static" "$table" 2>&1)" "$want"
else
	check static "does not compile" "$want"
fi
# shellcheck disable=SC2086
if gcc $flags -o "$build/readme_shared" tests/lib/readme_example.c -L"$build" -ltplan; then
	check shared "$(LD_LIBRARY_PATH="$build" "$build/readme_shared" "$table" 2>&1)" "$want"
else
	check shared "does not compile" "$want"
fi

# C++ against the public header and the shared library.
want="peak 300, bound 300, saved 100, auto, valid"
# shellcheck disable=SC2086
if g++ -Wall -Wextra -Werror $inc -o "$build/cxx_example" tests/lib/cxx_example.cc \
	-L"$build" -ltplan; then
	check cxx "$(LD_LIBRARY_PATH="$build" "$build/cxx_example" 2>&1)" "$want"
else
	check cxx "does not compile" "$want"
fi
suite_end
