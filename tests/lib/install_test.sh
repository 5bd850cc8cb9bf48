#!/bin/bash
# install_test.sh BUILD_DIR DATA_DIR - "make install" as a packager runs
# it: into a temporary DESTDIR, then README's example and a C++ program
# built against the installed files with nothing but
# "pkg-config --cflags --libs tplan" (shared, and --static), run; the one
# version agrees everywhere; "make uninstall" leaves no file behind.
# Last line: "N passed, N failed".
set -u
SUITE=install
. "$(dirname "$0")/../common/suite.sh"
build=$(realpath "$1")
data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
prefix=/usr/local


# The installed .pc file names $prefix; the sysroot maps it into DESTDIR.
export PKG_CONFIG_PATH=$root$prefix/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root
export PKG_CONFIG_LIBDIR=$PKG_CONFIG_PATH
export LD_LIBRARY_PATH=$root$prefix/lib

if make -s install DESTDIR="$root" BUILD="$build" >"$tmp/log" 2>&1; then
	check make_install ok ok
else
	check make_install "$(tail -n 5 "$tmp/log")" ok
fi
version=$(sed -n 's/^VERSION[[:space:]]*:= *//p' Makefile)
check pkg_config_version "$(pkg-config --modversion tplan 2>&1)" "$version"
check tplanctl_version "$("$root$prefix/bin/tplanctl" --version 2>&1)" \
	"tplanctl $version"
check soname "$(readelf -d "$root$prefix/lib/libtplan.so" |
	sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')" "libtplan.so.${version%%.*}"
# tplan-import runs from anywhere on its package installed beside it.
check tplan_import "$(cd / && PYTHONDONTWRITEBYTECODE=1 \
	"$root$prefix/bin/tplan-import" --help 2>&1 |
	head -n 1)" "usage: tplan-import [-h] {onnx,torch} ..."
check tplan_run "$(cd / && PYTHONDONTWRITEBYTECODE=1 \
	"$root$prefix/bin/tplan-run" --help 2>&1 | head -n 1)" \
	"usage: tplan-run [-h] --input DIMS[:DTYPE] [--training]"
check tplan_importer_package "$(ls "$root$prefix/lib/python3/dist-packages/tplan/importer" 2>&1 | tr '\n' ' ')" \
	"__init__.py __main__.py cli.py graph.py onnx_import.py table.py torch_import.py torch_training.py traced.py "

# build NAME COMPILER SOURCE [--static]: compile with pkg-config's flags only.
build_with() {
	local name=$1 cc=$2 src=$3 flags
	shift 3
	flags=$(pkg-config "$@" --cflags --libs tplan) || return 1
	# shellcheck disable=SC2086
	"$cc" -Wall -Wextra -Werror -o "$tmp/$name" "$src" $flags \
		${1:+-static} 2>"$tmp/$name.err"
}

table=$data/real/resnet50_b1.csv
want="peak 9633792, bound 9633792"
for how in shared static; do
	flag=$([ "$how" = static ] && echo --static)
	if build_with "readme_$how" gcc tests/lib/readme_example.c $flag; then
		check "readme_$how" "$("$tmp/readme_$how" "$table" 2>&1)" "$want"
	else
		check "readme_$how" "does not build: $(head -c 300 "$tmp/readme_$how.err")" "$want"
	fi
	if build_with "cxx_$how" g++ tests/lib/cxx_example.cc $flag; then
		check "cxx_$how" "$("$tmp/cxx_$how" 2>&1)" \
			"peak 300, bound 300, saved 100, auto, valid"
	else
		check "cxx_$how" "does not build: $(head -c 300 "$tmp/cxx_$how.err")" ok
	fi
done
check static_is_static "$(readelf -d "$tmp/readme_static" 2>&1 | grep -c NEEDED)" 0
check man_page "$(MANPATH=$root$prefix/share/man man -w tplan_device_submit 2>&1)" \
	"$root$prefix/share/man/man3/tplan_device_submit.3"
abs_table=$(realpath "$table")
# The Python package, with the library installed next to it (the linker's
# path and TPLAN_LIBRARY aside).
check python "$(cd "$tmp" && env -u LD_LIBRARY_PATH -u TPLAN_LIBRARY \
	PYTHONPATH="$root$prefix/lib/python3/dist-packages" PYTHONDONTWRITEBYTECODE=1 \
	/usr/bin/python3 -c 'import sys, tplan, tplan._lib as l
r = tplan.plan(sys.argv[1])
print(r.peak, r.lower_bound, l.lib().tplan_path.startswith(sys.argv[2]))' \
	"$abs_table" "$root" 2>&1)" "9633792 9633792 True"

make -s uninstall DESTDIR="$root" BUILD="$build" >"$tmp/log" 2>&1
check nothing_left "$(find "$root" -not -type d | head -n 5)" ""
suite_end
