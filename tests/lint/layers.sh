#!/bin/bash
# layers.sh BUILD_DIR [KERNEL_OBJ_DIR] - dependencies run one way
# (tests/lint/layers.py): compiles the planner's and userspace's C files
# into BUILD_DIR/layers, and reads the kernel side's objects from
# KERNEL_OBJ_DIR (default BUILD_DIR/kmod-sparse, the lint suite's module
# build).  Last line: "N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(mkdir -p "$1" && cd "$1" && pwd)
kobj=${2:-$build/kmod-sparse}
out=$build/layers
rm -rf "$out"
cd "$top"
for f in $(find planner userspace -name '*.c' | sort); do
	mkdir -p "$out/$(dirname "$f")"
	if ! ${CC:-gcc} -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -Iplanner \
		-Iuserspace/lib/include -Iuapi -DTPLAN_VERSION='"0"' \
		-c "$f" -o "$out/${f%.c}.o"; then
		echo "FAIL layers.compile: $f"
		echo "0 passed, 1 failed"
		exit 1
	fi
done
[ -d "$kobj/driver" ] || { echo "FAIL layers.kernel_objects: no $kobj/driver"; echo "0 passed, 1 failed"; exit 1; }
exec /usr/bin/python3 "$here/layers.py" "$out" "$kobj"
