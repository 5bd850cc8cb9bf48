#!/bin/bash
# lib_test.sh BUILD_DIR SHARED_DIR - README's libtplan example, compiled
# as README says and linked once with the static and once with the shared
# library.  Last line: "N passed, N failed".
set -u
build=$1
shared=$2
pass=0
fail=0
flags="-std=gnu11 -D_GNU_SOURCE -Iuserspace -Iplanner -Iuapi -Wall -Wextra -Werror"
want="peak 9633792, bound 9633792"

run() { # NAME OUTPUT-OF-THE-PROGRAM
	if [ "$2" = "$want" ]; then
		echo "ok   lib.$1"
		pass=$((pass + 1))
	else
		echo "FAIL lib.$1: got '$2', want '$want'"
		fail=$((fail + 1))
	fi
}

# shellcheck disable=SC2086
if gcc $flags -o "$build/readme_static" tests/lib/readme_example.c "$build/libtplan.a"; then
	run static "$("$build/readme_static" "$shared/bench/real/resnet50_b1.csv" 2>&1)"
else
	run static "does not compile"
fi
# shellcheck disable=SC2086
if gcc $flags -o "$build/readme_shared" tests/lib/readme_example.c -L"$build" -ltplan; then
	run shared "$(LD_LIBRARY_PATH="$build" "$build/readme_shared" \
		"$shared/bench/real/resnet50_b1.csv" 2>&1)"
else
	run shared "does not compile"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
