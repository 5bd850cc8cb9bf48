#!/bin/sh
# guest-kasan.sh TPLAN_KO DMABUF_E2E - runs inside the KASAN UML kernel
# (tests/uml/kasan-tests.sh boots it): the dma-buf end-to-end tests (what
# mappings, dma-bufs and imports may do and keep) and root's failed unbind,
# under KASAN, UBSAN, lockdep and kmemleak; rmmod, then a leak scan.  The
# test kernel's splat check (scripts/uml/boot.sh) fails the boot on any
# kernel report.  Prints "ok"/"FAIL" lines and "N passed, N failed".
ko=$1
dmabuf_e2e=$2
kmemleak=$(dirname "$0")/../../scripts/uml/kmemleak.sh
pass=0
fail=0
ok() { echo "ok   kasan.$1"; pass=$((pass + 1)); }
bad() { echo "FAIL kasan.$1: $2"; fail=$((fail + 1)); }

"$kmemleak" clear
insmod "$ko" || { echo "guest-kasan: insmod $ko failed"; echo "0 passed, 1 failed"; exit 1; }
"$dmabuf_e2e" >/tmp/kasan-e2e.out 2>&1
sed -n '/^[0-9]* passed, [0-9]* failed$/!p' /tmp/kasan-e2e.out
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' /tmp/kasan-e2e.out | tail -n 1)
if [ -n "$line" ]; then
	pass=$((pass + ${line%% passed*}))
	f=${line#*passed, }
	fail=$((fail + ${f%% failed*}))
else
	bad dmabuf_e2e "no summary line"
fi
if { echo tplan >/sys/bus/platform/drivers/tplan/unbind; } 2>/dev/null; then
	bad root_cannot_unbind_the_device "the unbind was taken"
else
	ok root_cannot_unbind_the_device
fi
if rmmod tplan; then ok rmmod; else bad rmmod "rmmod tplan failed"; fi
if "$kmemleak" check >/tmp/kasan-leak.out 2>&1; then
	ok kmemleak_clean
else
	bad kmemleak_clean "$(head -n 40 /tmp/kasan-leak.out)"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
