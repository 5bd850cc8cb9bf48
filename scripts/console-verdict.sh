#!/bin/bash
# console-verdict.sh LOG KERNEL_RC TIMEOUT_S - the exit status of a test
# kernel's run (scripts/uml/boot.sh, scripts/qemu/boot.sh) from its console log.
#
# Exit status: the script's own status from the end marker
# "TPLAN-UML-EXIT <rc>" that init.sh prints; 124 when KERNEL_RC says the
# kernel was killed by timeout; 125 when the marker never appeared (a
# panic, a hang); 126 when the log shows a kernel splat: BUG/WARNING/Oops/
# panic, KASAN, KCSAN, UBSAN, lockdep, kmemleak, a soft or hard lockup, a
# hung task or an RCU stall.  TPLAN_ALLOW_SPLAT=1 (or the older
# TPLAN_UML_ALLOW_SPLAT=1) ignores splats.  Reasons go to stderr.
set -uo pipefail
log=$1
krc=$2
timeout_s=$3

if [ "$krc" = 124 ] || [ "$krc" = 137 ]; then
	echo "boot: timeout after ${timeout_s}s" >&2
	exit 124
fi
marker=$(grep -a -o -E '^TPLAN-UML-EXIT [0-9]+' "$log" | tail -n 1)
if [ -z "$marker" ]; then
	echo "boot: kernel exited ($krc) without reaching the init end marker" >&2
	exit 125
fi
rc=${marker#TPLAN-UML-EXIT }
allow=${TPLAN_ALLOW_SPLAT:-${TPLAN_UML_ALLOW_SPLAT:-0}}
if [ "$allow" != 1 ] &&
	grep -a -E '^\[ *[0-9]+\.[0-9]+\] +(BUG:|WARNING:|Oops|Kernel panic|general protection|UBSAN:|KASAN:|kernel BUG|unreferenced object|INFO: (possible|task|rcu)|watchdog: (BUG:|Watchdog detected)|rcu: INFO:|======================================================)' "$log" >&2; then
	echo "boot: kernel splat in log (script rc=$rc)" >&2
	exit 126
fi
exit "$rc"
