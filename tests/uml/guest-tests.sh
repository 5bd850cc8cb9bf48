#!/bin/sh
# guest-tests.sh MODDIR TPLANCTL IOCTL_E2E DATA_DIR - runs inside UML
# (tests/uml/kernel-tests.sh boots it): loads tplan.ko, loads every KUnit
# test module (their KTAP goes to the console), runs the end-to-end tests,
# and unloads everything again.
moddir=$1
ctl=$2
ioctl_e2e=$3
data=$4
here=$(dirname "$0")
rc=0

insmod "$moddir/tplan.ko" || { echo "guest: insmod tplan.ko failed"; exit 1; }
for m in "$moddir"/tests/kunit/*.ko; do
	insmod "$m" || { echo "guest: insmod $m failed"; rc=1; }
done
for m in "$moddir"/tests/kunit/*.ko; do
	rmmod "$(basename "$m" .ko)" || rc=1
done

echo "=== e2e"
"$here/../e2e/e2e.sh" "$moddir/tplan.ko" "$ctl" "$ioctl_e2e" "$data" || rc=1

rmmod tplan || { echo "guest: rmmod tplan failed"; rc=1; }
exit $rc
