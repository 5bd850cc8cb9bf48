#!/bin/bash
# lib_test.sh BUILD_DIR DATA_DIR - libtplan as an outside user sees it:
# the public header, <tplan/libtplan.h> in BUILD_DIR/include as make
# install lays it out, compiles on its own as C and as C++ and defines
# nothing but TPLAN_* names; libtplan.so exports exactly the functions that
# userspace/lib/libtplan.map lists, each with its node's version
# (LIBTPLAN_0.1, LIBTPLAN_0.2...), declared in the public headers and
# documented; tplanctl builds against the public headers alone and links
# against libtplan.so (it calls nothing the library does not export);
# README's example builds as README says, with the static and with the
# shared library, and runs; a C++ program plans through the .so.
# Last line: "N passed, N failed".
set -u
SUITE=lib
. "$(dirname "$0")/../common/suite.sh"
build=$1
data=$2
inc="-I$build/include"
public="userspace/lib/include/libtplan.h planner/tplan_types.h"
map=userspace/lib/libtplan.map
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
printf '#include <tplan/libtplan.h>\n%s\n' "$leaks" >"$tmp/c.c"
# shellcheck disable=SC2086
check header_c "$(compiles gcc -std=c11 -pedantic -Wall -Wextra -Werror \
	$inc -c "$tmp/c.c")" ok
printf '#include <tplan/libtplan.h>\n#include <vector>\n#include <algorithm>\n%s
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
gcc -dM -E $inc -x c - </dev/null -include tplan/libtplan.h | sort >"$tmp/all"
check header_macros "$(comm -13 "$tmp/system" "$tmp/all" |
	awk '{print $2}' | grep -Ev '^_*(LIB|UAPI_LINUX_)?TPLAN_' | tr '\n' ' ')" ""

# The exports: exactly the version script's list, each function with the
# version of its node (NAME@@LIBTPLAN_0.2), declared and documented.
api=$(sed -n '/global:/,/local:/p' "$map" | grep -Eo '^[[:space:]]*tplan_[a-z_]+;' |
	tr -d ' \t;' | sort)
versioned=$(awk '/^[A-Z][A-Z0-9_.]* *\{/ { node = $1 }
	/^[[:space:]]*tplan_[a-z_]+;/ { gsub(/[ \t;]/, ""); print $0 "@@" node }' \
	"$map" | sort)
check exports "$(nm -D --defined-only "$build/libtplan.so" | awk '$2 != "A" {print $3}' |
	sort | tr '\n' ' ')" "$(echo "$versioned" | tr '\n' ' ')"
check version_nodes "$(nm -D --defined-only "$build/libtplan.so" |
	awk '$2 == "A" {print $3}' | sort | tr '\n' ' ')" \
	"$(grep -Eo '^[A-Z][A-Z0-9_.]* *\{' "$map" | tr -d ' {' | sort | tr '\n' ' ')"
check new_api_version "$(objdump -T "$build/libtplan.so" |
	awk '$NF == "tplan_tensors_plan" {print $(NF-1)}')" LIBTPLAN_0.2
undeclared=""
undocumented=""
for f in $api; do
	# shellcheck disable=SC2086
	grep -Eq "[ *]$f\(" $public || undeclared="$undeclared $f"
	grep -rq --include='*.c' "^ \* $f() - " userspace planner ||
		undocumented="$undocumented $f"
done
check declared "$undeclared" ""
check documented "$undocumented" ""

# tplanctl against the public headers alone (no -Iplanner), linked against
# libtplan.so: a call to anything the library does not export fails here.
ctl_src=$(echo userspace/tplanctl/*.c)
# shellcheck disable=SC2086
if gcc -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -I"$build/include/tplan" \
	$inc -Wall -Wextra -Wno-unused-parameter -o "$tmp/tplanctl" $ctl_src \
	-L"$build" -ltplan 2>"$tmp/err"; then
	check tool_on_exports "$(LD_LIBRARY_PATH="$build" "$tmp/tplanctl" --version 2>&1)" \
		"tplanctl $(sed -n 's/^VERSION[[:space:]]*:= *//p' Makefile)"
else
	check tool_on_exports "$(head -c 600 "$tmp/err")" ok
fi

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
