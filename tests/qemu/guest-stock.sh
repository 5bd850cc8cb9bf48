#!/bin/sh
# guest-stock.sh TPLAN_KO TPLANCTL IOCTL_E2E DATA_DIR - runs inside QEMU
# (tests/qemu/qemu-tests.sh boots Debian's stock kernel with 4 vCPUs):
# loads drm and tplan.ko, then runs the end-to-end suite (tests/e2e/e2e.sh,
# its raw-ioctl, dma-buf, hardening, spill and Python tests, with quick plan
# comparisons).  The suites that keep every vCPU busy are the fuzzer, the
# stress run and the race suite (qemu-tests.sh): CPU hogs beside this one
# made it ten times slower under TCG on two host cores.
ko=$1
ctl=$2
ioctl_e2e=$3
data=$4

modprobe drm || { echo "guest: modprobe drm failed"; exit 1; }
insmod "$ko" || { echo "guest: insmod $ko failed"; exit 1; }
echo "=== e2e ($(nproc) CPUs)"
E2E_QUICK=1 "$(dirname "$0")/../e2e/e2e.sh" "$ko" "$ctl" "$ioctl_e2e" "$data"
rc=$?
rmmod tplan || { echo "guest: rmmod tplan failed"; rc=1; }
exit $rc
