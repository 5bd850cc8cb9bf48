#!/bin/bash
# run.sh GGML_SRC BUILD_DIR TABLE.csv... - tplan's plans side by side with
# ggml's graph allocator (ggml_gallocr) on the same lifetimes
# (ggml_replay.c says how a table is replayed).  GGML_SRC is a checkout of
# github.com/ggml-org/ggml (MIT), kept outside the repository; it is built
# once into BUILD_DIR/ggml (CPU backend, static), then ggml_replay against
# it and BUILD_DIR/libtplan.a.  Needs cmake and a C++ compiler.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
if [ $# -lt 3 ]; then
	echo "usage: $0 GGML_SRC BUILD_DIR TABLE.csv..." >&2
	exit 2
fi
src=$(cd "$1" && pwd)
build=$(mkdir -p "$2" && cd "$2" && pwd)
shift 2
out=$build/ggml
if [ ! -e "$out/src/libggml-base.a" ]; then
	cmake -S "$src" -B "$out" -DCMAKE_BUILD_TYPE=Release \
		-DBUILD_SHARED_LIBS=OFF -DGGML_NATIVE=OFF \
		-DGGML_BUILD_TESTS=OFF -DGGML_BUILD_EXAMPLES=OFF >/dev/null
	cmake --build "$out" -j "$(nproc)" >/dev/null
fi
make -C "$top" -s "$build/libtplan.a" BUILD="$build"
libs=$(find "$out/src" -name 'libggml*.a' | sort -r)
# shellcheck disable=SC2086
g++ -O2 -x c -std=gnu11 -D_GNU_SOURCE "$here/ggml_replay.c" -x none \
	-I"$src/include" -I"$top/userspace/lib/include" -I"$top/uapi" \
	-I"$top/planner" -o "$build/ggml_replay" "$build/libtplan.a" \
	-Wl,--start-group $libs -Wl,--end-group -lgomp -lpthread -lm
"$build/ggml_replay" "$@"
