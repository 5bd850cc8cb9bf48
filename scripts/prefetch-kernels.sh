#!/bin/bash
# prefetch-kernels.sh BUILD_DIR - start building the test kernels that are
# not cached yet (UML default, UML KASAN, the QEMU debug kernel, in the
# order make check's suites need them) in the background, at the lowest
# priority, and return at once.  make check calls it first, so that on a
# fresh machine the builds use the core its host-side suites leave idle; a
# suite that needs a kernel still being built waits for it (each
# build-kernel.sh holds a lock on its build directory).  Log:
# BUILD_DIR/kernels-prefetch.log; the builds' process group, while they run,
# in BUILD_DIR/kernels-prefetch.pgid (scripts/quiet-builds.sh stops them
# while a suite measures latency).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$(mkdir -p "$1" && cd "$1" && pwd)
log=$build/kernels-prefetch.log

setsid nice -n 19 bash -c 'echo $$ >"$1"
	"$0/uml/build-kernel.sh" && "$0/uml/build-kernel.sh" kasan &&
		"$0/qemu/build-kernel.sh"
	rm -f "$1"' "$here" "$build/kernels-prefetch.pgid" </dev/null >"$log" 2>&1 &
echo "prefetch-kernels: building the test kernels not cached yet in the background (log: $log)"
