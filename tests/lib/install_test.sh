#!/bin/bash
# install_test.sh BUILD_DIR DATA_DIR - "make install" as a packager runs
# it: into a temporary DESTDIR, the public headers in include/tplan/, then
# README's example and a C++ program (#include <tplan/libtplan.h>) built
# against the installed files with nothing but
# "pkg-config --cflags --libs tplan" (shared, and --static), run; the one
# version agrees everywhere (tplan.__version__, dkms.conf and the man
# pages too); the licences go with
# the docs; "make uninstall" leaves no file behind.  The udev rule's place
# for PREFIX=/usr/local, PREFIX=/usr and UDEVRULESDIR.  The Python package
# installed with pip, offline (--no-build-isolation --no-index, Debian's
# python3-pip and python3-setuptools), into a --target directory.
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
check dkms_version "$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)" "$version"
check man_versions "$(sed -n 's/^\.TH [^ ]* [0-9] [^ ]* "tplan \([^"]*\)".*/\1/p' docs/man/*.[134] |
	sort -u)" "$version"
check headers "$(cd "$root$prefix/include" 2>&1 && find . -type f | sort | tr '\n' ' ')" \
	"./linux/tplan.h ./linux/tplan_edu.h ./tplan/libtplan.h ./tplan/tplan_types.h "
check soname "$(readelf -d "$root$prefix/lib/libtplan.so" |
	sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')" "libtplan.so.${version%%.*}"
# tplan-import runs from anywhere on its package installed beside it.
check tplan_import "$(cd / && PYTHONDONTWRITEBYTECODE=1 \
	"$root$prefix/bin/tplan-import" --help 2>&1 |
	head -n 1)" "usage: tplan-import [-h] {onnx,torch} ..."
check tplan_run "$(cd / && PYTHONDONTWRITEBYTECODE=1 \
	"$root$prefix/bin/tplan-run" --help 2>&1 | head -n 1)" \
	"usage: tplan-run [-h] --input DIMS[:DTYPE] [--max-input DIMS[:DTYPE]]"
check tplan_importer_package "$(ls "$root$prefix/lib/python3/dist-packages/tplan/importer" 2>&1 | tr '\n' ' ')" \
	"__init__.py __main__.py cli.py graph.py onnx_fold.py onnx_import.py rows.py torch_aten.py torch_import.py torch_training.py traced.py "

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

check python_version "$(cd "$tmp" && PYTHONDONTWRITEBYTECODE=1 \
	PYTHONPATH="$root$prefix/lib/python3/dist-packages" /usr/bin/python3 -c \
	'import tplan; print(tplan.__version__)' 2>&1)" "$version"
doc=$root$prefix/share/doc/tplan
check licences "$(cd "$doc" 2>/dev/null && find LICENSE* -type f 2>/dev/null | sort | tr '\n' ' ')" \
	"LICENSE LICENSES/GPL-2.0 LICENSES/Linux-syscall-note LICENSES/MIT "
check licence_text "$(cmp LICENSES/MIT "$doc/LICENSES/MIT" 2>&1)" ""
# udev reads /etc and /usr/lib, never /usr/local/lib.
check udev_rule_usr_local "$(cd "$root" && find . -name 60-tplan.rules)" \
	./etc/udev/rules.d/60-tplan.rules

make -s uninstall DESTDIR="$root" BUILD="$build" >"$tmp/log" 2>&1
check nothing_left "$(find "$root" -not -type d | head -n 5)" ""

# PREFIX=/usr, as a Debian package: the rule where packages put theirs.
usr=$tmp/usr
if make -s install DESTDIR="$usr" PREFIX=/usr BUILD="$build" >"$tmp/log" 2>&1; then
	check udev_rule_usr "$(cd "$usr" && find . -name 60-tplan.rules)" \
		./usr/lib/udev/rules.d/60-tplan.rules
else
	bad udev_rule_usr "make install PREFIX=/usr: $(tail -n 5 "$tmp/log")"
fi
check pc_prefix_usr "$(sed -n 's/^prefix=//p' "$usr/usr/lib/pkgconfig/tplan.pc" 2>&1)" /usr
make -s uninstall DESTDIR="$usr" PREFIX=/usr BUILD="$build" >"$tmp/log" 2>&1
check nothing_left_usr "$(find "$usr" -not -type d | head -n 5)" ""
# Installing for this system runs ldconfig (as root), a DESTDIR install not.
check ldconfig_for_this_system "$(make -s -n install BUILD="$build" 2>/dev/null |
	grep -c ldconfig)" 1
check no_ldconfig_in_destdir "$(make -s -n install DESTDIR=/D BUILD="$build" 2>/dev/null |
	grep -c ldconfig)" 0
check udevrulesdir "$(make -s -n install DESTDIR=/D PREFIX=/usr \
	UDEVRULESDIR=/lib/udev/rules.d BUILD="$build" 2>&1 |
	grep -o '[^ ]*60-tplan.rules [^ ]*')" "driver/60-tplan.rules /D/lib/udev/rules.d/"

# pip, offline: no index, no build isolation, no proxy that answers.  From
# a copy, so that the build leaves nothing in the tree.
cp -rL userspace/python "$tmp/pysrc"
rm -rf "$tmp/pysrc/build" "$tmp/pysrc"/*.egg-info
if env http_proxy=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9 \
	PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 PYTHONDONTWRITEBYTECODE=1 \
	/usr/bin/python3 -m pip install --no-build-isolation --no-index \
	--no-cache-dir --target "$tmp/pip" "$tmp/pysrc" >"$tmp/log" 2>&1; then
	ok pip_install
else
	bad pip_install "$(tail -n 5 "$tmp/log")"
fi
check pip_importer_package "$(cd "$tmp/pip/tplan/importer" 2>&1 && echo *.py)" \
	"$(cd userspace/python/tplan/importer && echo *.py)"
check pip_metadata "$(sed -n -e 's/^Version: //p' -e 's/^License: //p' \
	"$tmp/pip/tplan-$version.dist-info/METADATA" 2>&1 | tr '\n' ' ')" "$version MIT "
check pip_licence "$(cmp LICENSES/MIT "$tmp/pip/tplan-$version.dist-info/LICENSE" 2>&1)" ""
check pip_plan "$(cd "$tmp" && env -u LD_LIBRARY_PATH PYTHONPATH="$tmp/pip" \
	TPLAN_LIBRARY="$build/libtplan.so.0" PYTHONDONTWRITEBYTECODE=1 \
	/usr/bin/python3 -c 'import sys, tplan
r = tplan.plan(sys.argv[1])
print(tplan.__version__, tplan.__file__.startswith(sys.argv[2]), r.peak)' \
	"$abs_table" "$tmp/pip/" 2>&1)" "$version True 9633792"
check pip_tplan_import "$(cd / && PYTHONPATH="$tmp/pip" PYTHONDONTWRITEBYTECODE=1 \
	"$tmp/pip/bin/tplan-import" --help 2>&1 | head -n 1)" \
	"usage: tplan-import [-h] {onnx,torch} ..."
check pip_tplan_run "$(cd / && PYTHONPATH="$tmp/pip" PYTHONDONTWRITEBYTECODE=1 \
	"$tmp/pip/bin/tplan-run" --help 2>&1 | head -n 1)" \
	"usage: tplan-run [-h] --input DIMS[:DTYPE] [--max-input DIMS[:DTYPE]]"
suite_end
