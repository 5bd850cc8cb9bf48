#!/bin/sh
# race-guest.sh TPLAN_KO RACE_E2E [ARGS...] - the race suite in a QEMU guest
# with several CPUs, run from the top of the tree:
#
#   bash tests/kmod/kmod_distro_check.sh build && make build/race_e2e
#   scripts/qemu/boot.sh stock tests/e2e/race-guest.sh \
#           build/kmod-qemu-stock/tplan.ko build/race_e2e [--seconds N]
#
# Loads the module, runs race_e2e ARGS, then tests/e2e/race_rmmod.sh
# (rmmod refused while dma-bufs are held, working after), which unloads
# the module.  boot.sh's exit status is 126 on any kernel splat.
# Last line: "N passed, N failed".
ko=$1
race=$2
shift 2
here=$(dirname "$0")

[ -d /sys/module/drm ] || modprobe drm || { echo "race-guest: modprobe drm failed"; exit 1; }
insmod "$ko" || { echo "race-guest: insmod $ko failed"; exit 1; }
"$race" "$@" >/tmp/race.out 2>&1
rc=$?
cat /tmp/race.out
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' /tmp/race.out | tail -n 1)
"$here/race_rmmod.sh" "$race" 3 >/tmp/race_rmmod.out 2>&1 || rc=1
grep -v -E '^[0-9]+ passed' /tmp/race_rmmod.out
l2=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' /tmp/race_rmmod.out | tail -n 1)
if [ -z "$line" ] || [ -z "$l2" ]; then
	echo "race-guest: no summary line"
	exit 1
fi
f1=${line#*passed, }
f2=${l2#*passed, }
echo "$((${line%% passed*} + ${l2%% passed*})) passed, $((${f1%% failed*} + ${f2%% failed*})) failed"
[ -d /sys/module/tplan ] && { rmmod tplan || rc=1; }
exit $rc
