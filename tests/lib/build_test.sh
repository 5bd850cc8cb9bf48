#!/bin/bash
# build_test.sh - the userspace build as a user or a packager runs it, in a
# copy of the sources (Makefile, planner/, userspace/, uapi/, scripts/,
# tests/common/): plain "make" builds and installs nothing, with a PATH that
# has no apt, dpkg or sudo; "make CC=clang" builds (with -Werror); WERROR=0
# drops -Werror; the user's CFLAGS, CPPFLAGS, LDFLAGS and LDLIBS reach every
# compile and link line (make -n); make run, check, bench and the fuzz
# targets install their packages before compiling anything.
# Last line: "N passed, N failed".
set -u
SUITE=build
. "$(dirname "$0")/../common/suite.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$tmp/src
version=$(sed -n 's/^VERSION[[:space:]]*:= *//p' "$root/Makefile")

mkdir -p "$src/tests"
cp -r "$root/Makefile" "$root/planner" "$root/userspace" "$root/uapi" \
	"$root/scripts" "$src/"
cp -r "$root/tests/common" "$src/tests/"

# Every command of /usr/bin and /usr/sbin but the package tools.
mkdir "$tmp/bin"
for f in /usr/bin/* /usr/sbin/*; do
	case ${f##*/} in
	apt | apt-* | aptitude | dpkg | dpkg-* | sudo) continue ;;
	esac
	[ -e "$tmp/bin/${f##*/}" ] || ln -s "$f" "$tmp/bin/${f##*/}"
done
# make, as a user types it: nothing of an outer make or of the environment.
umake() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CC -u CFLAGS -u CPPFLAGS \
		-u LDFLAGS -u LDLIBS -u WERROR -u BUILD PATH="$tmp/bin" \
		make -C "$src" --no-print-directory "$@"
}
# make -n -B in the source tree (into a scratch BUILD): what make would run,
# one command a line.
nmake() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CC -u CFLAGS -u CPPFLAGS \
		-u LDFLAGS -u LDLIBS -u WERROR PATH="$tmp/bin" \
		make -C "$root" --no-print-directory -n -B BUILD="$tmp/n" "$@" 2>&1 |
		sed -e :a -e '/\\$/N; s/\\\n[[:space:]]*/ /; ta'
}

check no_apt_get_on_path "$(PATH=$tmp/bin command -v apt-get dpkg dpkg-query sudo)" ""

# make: the libraries and tplanctl, nothing installed.
if umake -j4 >"$tmp/make.log" 2>&1; then
	ok make_builds
else
	bad make_builds "$(tail -n 5 "$tmp/make.log")"
fi
check make_installs_nothing "$(grep -E 'install-deps|apt-get|dpkg' "$tmp/make.log")" ""
check make_outputs "$(cd "$src/build" && ls libtplan.a libtplan.so tplanctl 2>&1 | tr '\n' ' ')" \
	"libtplan.a libtplan.so tplanctl "
check make_tplanctl_runs "$("$src/build/tplanctl" --version 2>&1)" "tplanctl $version"

# pip install ./userspace/python from the source tree (offline, no index,
# no build isolation): the package carries the libtplan.so.0 and tplanctl
# make built, and plans and draws with them from anywhere, with no
# TPLAN_LIBRARY and nothing installed.
if env PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 PYTHONDONTWRITEBYTECODE=1 \
	http_proxy=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9 \
	PATH="$tmp/bin" /usr/bin/python3 -m pip install --no-build-isolation \
	--no-index --no-cache-dir --target "$tmp/pip" "$src/userspace/python" \
	>"$tmp/pip.log" 2>&1; then
	ok pip_from_tree
else
	bad pip_from_tree "$(tail -n 5 "$tmp/pip.log")"
fi
check pip_bundles "$(cmp "$src/build/libtplan.so.0" "$tmp/pip/tplan/libtplan.so.0" 2>&1 &&
	cmp "$src/build/tplanctl" "$tmp/pip/tplan/tplanctl" 2>&1)" ""
check pip_bundled_plans "$(cd / && env -u TPLAN_LIBRARY -u TPLAN_TPLANCTL \
	-u LD_LIBRARY_PATH PYTHONPATH="$tmp/pip" PYTHONDONTWRITEBYTECODE=1 \
	PATH=/nonexistent /usr/bin/python3 -c 'import tplan, tplan._lib as L
r = tplan.table([(0, 0, 2, 8), (1, 1, 3, 8)]).plan()
print(r.peak, L.lib().tplan_path.endswith("/pip/tplan/libtplan.so.0"),
      r.show().startswith("<?xml"))' 2>&1)" "16 True True"

# make CC=clang: the same, warnings as errors.
if umake -j4 BUILD=build-clang CC=clang >"$tmp/clang.log" 2>&1; then
	ok clang_builds
else
	bad clang_builds "$(grep -m 3 -E 'error|warning' "$tmp/clang.log")"
fi
check clang_outputs "$(cd "$src/build-clang" 2>/dev/null && ls libtplan.a libtplan.so tplanctl 2>&1 | tr '\n' ' ')" \
	"libtplan.a libtplan.so tplanctl "
check clang_compiled "$(readelf -p .comment "$src/build-clang/tplanctl" 2>/dev/null | grep -c clang)" 1

# The command lines (make -n -B) of every userspace program and library.
targets=(all)
for t in san/run_tests san/tplanctl ioctl_e2e spill_e2e hardening_e2e \
	tplan-bench ioctl_fuzz planner_fuzz; do
	targets+=("$tmp/n/$t")
done
# lines NAME MAKE_ARGS...: the compiler's lines of make -n -B (gcc or clang)
lines() {
	local name=$1
	shift
	nmake CC=gcc "$@" "${targets[@]}" >"$tmp/$name.all"
	grep -E '^(gcc|clang) ' "$tmp/$name.all" >"$tmp/$name"
	# ... those that compile C (all but the shared library's link)
	grep -E '\.c( |$)' "$tmp/$name" >"$tmp/$name.c"
}
lines plain
check werror_default "$(grep -vc -- ' -Werror' "$tmp/plain.c")" 0
lines nowerror WERROR=0
check werror_0 "$(grep -c -- '-Werror' "$tmp/nowerror")" 0
check werror_0_still_warns "$(grep -vc -- ' -Wall ' "$tmp/nowerror.c")" 0

lines flags CFLAGS=-DMARK_CFLAGS CPPFLAGS=-DMARK_CPPFLAGS \
	LDFLAGS=-LMARK_LDFLAGS LDLIBS=-lMARK_LDLIBS
n=$(wc -l <"$tmp/flags")
compiles=$(grep -c -- ' -c ' "$tmp/flags")
if [ "$n" -ge 10 ] && [ "$compiles" -ge 10 ]; then
	ok flags_lines
else
	bad flags_lines "$n compiler lines, $compiles compiles: $(head -c 300 "$tmp/flags.all")"
fi
check cflags_everywhere "$(grep -v -- " -DMARK_CFLAGS" "$tmp/flags" | head -n 2)" ""
check cppflags_everywhere "$(grep -v -- " -DMARK_CPPFLAGS" "$tmp/flags.c" | head -n 2)" ""
# a link line: no -c
grep -v -- ' -c ' "$tmp/flags" >"$tmp/links"
links=$(wc -l <"$tmp/links")
if [ "$links" -ge 10 ]; then
	ok links
else
	bad links "$links link lines, want 10 or more"
fi
check ldflags_everywhere "$(grep -v -- ' -LMARK_LDFLAGS ' "$tmp/links" | head -n 2)" ""
check ldlibs_everywhere "$(grep -v -- ' -lMARK_LDLIBS' "$tmp/links" | head -n 2)" ""
# The user's flags come after the project's: CFLAGS=-Wno-shadow works.
check cflags_after_warnings "$(awk '{ w = index($0, " -Wall ")
	c = index($0, " -DMARK_CFLAGS"); if (!w || c < w) print }' "$tmp/flags.c" | head -n 2)" ""
check ar "$(nmake AR=my-ar "$tmp/n/libtplan.a" | grep -c '^my-ar rcs')" 1

# The goals that install packages do it before any compiler runs; make and
# make install do not.
first_line() {
	nmake "$@" | grep -m 1 -E '^(cc|gcc|clang) |install-deps' |
		sed -e 's/ .*//' -e 's|.*/||'
}
for goal in run check bench fuzz fuzz-stress fuzz-planner deps check-deps; do
	check "installs_first_$goal" "$(first_line "$goal")" install-deps.sh
done
check check_installs_check_packages "$(nmake check | grep -m 1 install-deps | grep -c python3-setuptools)" 1
for goal in all install; do
	check "installs_nothing_$goal" "$(nmake DESTDIR="$tmp/root" "$goal" | grep -c install-deps)" 0
done
suite_end
