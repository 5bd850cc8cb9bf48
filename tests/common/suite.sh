# suite.sh - what the shell test suites share: their result lines and the
# summary scripts/run-suites.sh adds up.  Source it with SUITE set (the
# prefix of each result, e.g. "cli") and, for expect(), tmp set to a scratch
# directory; end the script with suite_end.
# shellcheck shell=bash
pass=0
fail=0

ok() { echo "ok   $SUITE.$1"; pass=$((pass + 1)); }
bad() { echo "FAIL $SUITE.$1: $2"; fail=$((fail + 1)); }

# check NAME GOT WANT: the two strings are equal
check() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		bad "$1" "got '$2', want '$3'"
	fi
}

# expect NAME EXIT_CODE PATTERN COMMAND...: the exit code, and a line of
# output matching PATTERN (an empty PATTERN: the exit code only)
expect() {
	local name=$1 code=$2 pattern=$3 rc
	shift 3
	"$@" >"$tmp/out" 2>&1
	rc=$?
	if [ "$rc" -ne "$code" ]; then
		bad "$name" "exit $rc, expected $code: $(head -c 400 "$tmp/out")"
	elif [ -n "$pattern" ] && ! grep -qE -- "$pattern" "$tmp/out"; then
		bad "$name" "no /$pattern/ in: $(head -c 400 "$tmp/out")"
	else
		ok "$name"
	fi
}

# The last line, "N passed, N failed"; the exit status says whether all passed.
suite_end() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
