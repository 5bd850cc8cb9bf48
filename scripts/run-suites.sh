#!/bin/bash
# run-suites.sh "LABEL: COMMAND"... - run test suites one after another and
# add up their results.  Every suite prints "N passed, N failed" as its last
# summary line; a suite that exits non-zero or prints no such line counts as
# one failure.  Each suite's line says how long it took (where the time of a
# cold `make check` goes).  The last line printed here is the total, in the
# same form.
set -u
total_pass=0
total_fail=0
for spec in "$@"; do
	label=${spec%%:*}
	cmd=${spec#*: }
	echo "=== $label: $cmd"
	log=$(mktemp)
	start=$SECONDS
	bash -c "$cmd" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	rm -f "$log"
	took="$((SECONDS - start)) s"
	if [ -z "$line" ]; then
		echo "=== $label: no summary line (exit $rc): counted as 1 failure ($took)"
		total_fail=$((total_fail + 1))
		continue
	fi
	pass=${line%% passed*}
	fail=${line#*passed, }
	fail=${fail%% failed*}
	if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
		echo "=== $label: exit $rc with no failed test: counted as 1 failure"
		fail=1
	fi
	echo "=== $label: $pass passed, $fail failed ($took)"
	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + fail))
done
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
