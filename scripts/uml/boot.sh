#!/bin/bash
# Boot the UML kernel with the host's / as root (hostfs) and run one script in it.
#
#   scripts/uml/boot.sh KDIR SCRIPT [ARGS...]
#
# SCRIPT runs as a child of scripts/uml/init.sh (PID 1), which mounts proc, sysfs,
# debugfs (/sys/kernel/debug) and devtmpfs (/dev), runs SCRIPT in the caller's working
# directory, prints "TPLAN-UML-EXIT <rc>" and powers off. Paths must be absolute or
# relative to the current directory; ARGS must not contain whitespace.
# Console output (kernel log + script output, CRs stripped) goes to stdout.
#
# Exit status (scripts/console-verdict.sh): SCRIPT's exit status when the end marker was seen;
#   124 on timeout, 125 if the end marker never appeared,
#   126 if the kernel log shows a BUG/WARNING/Oops/panic/KASAN/UBSAN/lockdep splat,
#       a soft lockup, a hung task or an RCU stall
#       (set TPLAN_UML_ALLOW_SPLAT=1 to ignore splats).
# Environment: TPLAN_UML_TIMEOUT (s, default 120), TPLAN_UML_MEM (default 256M),
#   TPLAN_UML_ARGS (extra kernel parameters), TPLAN_UML_LOG (keep the log there).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ $# -lt 2 ]; then
	echo "usage: $0 KDIR SCRIPT [ARGS...]" >&2
	exit 2
fi
kdir=$1; script=$2; shift 2
linux=$kdir/linux
[ -x "$linux" ] || { echo "boot.sh: $linux not found (run build-kernel.sh)" >&2; exit 2; }
[ -e "$script" ] || { echo "boot.sh: $script not found" >&2; exit 2; }
script=$(realpath "$script")
for a in "$script" "$PWD" "$@"; do
	case $a in *[[:space:]]*) echo "boot.sh: whitespace in '$a' is not supported" >&2; exit 2 ;; esac
done

timeout_s=${TPLAN_UML_TIMEOUT:-120}
log=${TPLAN_UML_LOG:-}
tmplog=
if [ -z "$log" ]; then
	tmplog=$(mktemp /tmp/tplan-uml.XXXXXX.log)
	log=$tmplog
fi
cleanup() { [ -n "$tmplog" ] && rm -f "$tmplog"; }
trap cleanup EXIT

# UML keeps guest memory in a file under TMPDIR; /dev/shm is the fast choice.
[ -d /dev/shm ] && [ -w /dev/shm ] && export TMPDIR=/dev/shm

# shellcheck disable=SC2086
timeout -k 5 "$timeout_s" "$linux" mem="${TPLAN_UML_MEM:-256M}" \
	root=/dev/root rootfstype=hostfs rootflags=/ rw \
	con=null con0=fd:0,fd:1 ssl=null \
	panic=-1 ${TPLAN_UML_ARGS:-} \
	tplan_cwd="$PWD" init="$here/init.sh" -- "$script" "$@" \
	</dev/null 2>&1 | tr -d '\r' | tee "$log"
krc=${PIPESTATUS[0]}

"$here/../console-verdict.sh" "$log" "$krc" "$timeout_s"
