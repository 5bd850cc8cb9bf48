#!/bin/sh
# race_rmmod.sh RACE_E2E SECONDS - with tplan.ko loaded and no file of its
# device open: "race_e2e --hold-dmabuf SECONDS" holds dma-bufs of the device
# with no file open, touching them and trying delete_module(2) on every CPU
# while it closes all but one at random times (each try must be refused);
# beside it, rmmod is tried as often as this shell gets the CPU (also
# refused); once the last dma-buf is gone, rmmod works.  Leaves the module
# unloaded.  Last line: "N passed, N failed".
race=$1
secs=${2:-3}
out=$(mktemp)
pass=0
fail=0

ok() { echo "ok   race.$1"; pass=$((pass + 1)); }
bad() { echo "FAIL race.$1: $2"; fail=$((fail + 1)); }

"$race" --hold-dmabuf "$secs" >"$out" 2>&1 &
holder=$!
# The holder says so once no file of the device is open; give up after
# SECONDS + 120 s (TCG and UML are slow) whatever happens.
end=$(($(date +%s) + secs + 120))
until grep -q '^race_e2e: holding' "$out" || grep -q 'passed,' "$out" ||
      [ "$(date +%s)" -gt "$end" ]; do
	sleep 0.1
done
# rmmod until the holder is about to close its last dma-buf: a success
# before it said so is the bug this looks for.
tries=0
early=
while grep -q '^race_e2e: holding' "$out" && ! grep -q '^race_e2e: releasing' "$out" &&
      [ "$(date +%s)" -le "$end" ]; do
	if rmmod tplan 2>/dev/null; then
		grep -q '^race_e2e: releasing' "$out" || early=yes
		break
	fi
	tries=$((tries + 1))
done
wait $holder
rc=$?
grep -v -E '^[0-9]+ passed, [0-9]+ failed$' "$out"
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out" | tail -n 1)
if [ -n "$line" ]; then
	pass=$((pass + ${line%% passed*}))
	f=${line#*passed, }
	fail=$((fail + ${f%% failed*}))
else
	bad hold_dmabuf "no summary line (exit $rc)"
fi
if [ -n "$early" ] && [ $rc -ne 0 ]; then
	# its dma-bufs went with it: that rmmod proves nothing
	bad rmmod_refused_while_dmabuf_held "the holder died (exit $rc) before it released"
elif [ -n "$early" ]; then
	bad rmmod_refused_while_dmabuf_held "rmmod succeeded after $tries refusals, dma-bufs still held"
else
	ok "rmmod_refused_while_dmabuf_held ($tries tries)"
fi
if [ ! -d /sys/module/tplan ] || rmmod tplan; then
	ok rmmod_once_the_dmabufs_are_gone
else
	bad rmmod_once_the_dmabufs_are_gone "rmmod refused: refcnt $(cat /sys/module/tplan/refcnt)"
fi
rm -f "$out"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
