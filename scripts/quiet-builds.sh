#!/bin/bash
# quiet-builds.sh BUILD_DIR CMD [ARG...] - run CMD with make check's
# background kernel builds (scripts/prefetch-kernels.sh, whose process group
# BUILD_DIR/kernels-prefetch.pgid names) stopped, and let them go on when it
# ends.  For the suites whose oracles measure latency inside a guest (the
# e2e stall tests in UML and on the stock kernel in QEMU, the fuzzer's
# latency slice): on a fresh two-core machine a kernel build beside them,
# even at nice 19, adds 100 ms and more to a guest's wake-ups.  CMD must not build a kernel itself.  Exits with CMD's
# status.
set -u
build=$1
shift
pgid=$(cat "$build/kernels-prefetch.pgid" 2>/dev/null || true)
if [ -n "$pgid" ] && kill -0 -- "-$pgid" 2>/dev/null; then
	# Not while the builds hold the kernel source's lock (kernel-source.sh):
	# CMD may check the cached kernel, which takes it too.
	cache=${TPLAN_CACHE:-$HOME/.cache/tplan}
	mkdir -p "$cache"
	exec {lockfd}>"$cache/.source.lock"
	flock "$lockfd"
	kill -STOP -- "-$pgid"
	exec {lockfd}>&-
	trap 'kill -CONT -- "-$pgid" 2>/dev/null' EXIT
	echo "quiet-builds: background kernel builds paused while $(basename "$1") runs" >&2
fi
"$@"
