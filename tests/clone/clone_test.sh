#!/bin/bash
# clone_test.sh - the repository as a new user gets it: cloned into an empty
# directory, with no ../shared beside it.  Runs README's quick start there,
# command by command, and compares each command's output with the one README
# shows (a "time" line excepted: it is measured); checks that no make target
# names ../shared; then builds the clone and runs the suites that read the
# repository's tables (cli, golden, lib) on its own data, with nothing beside
# it.  (The others read no file, or the same ones: make check ran them.)
#
# The clone is of the last commit: changes not committed yet are not in it
# (the script says so).  Last line: "N passed, N failed".
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
SUITE=clone
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=../common/suite.sh
. "$top/tests/common/suite.sh"

[ -z "$(git -C "$top" status --porcelain --untracked-files=no)" ] ||
	echo "clone_test: note: the working tree has uncommitted changes; the clone has the last commit"
mkdir "$tmp/empty"
if git clone -q "$top" "$tmp/empty/tplan"; then
	ok cloned
else
	bad cloned "git clone $top failed"
	suite_end
	exit 1
fi
clone=$tmp/empty/tplan
[ ! -e "$tmp/empty/shared" ] && ok no_shared_beside ||
	bad no_shared_beside "$tmp/empty/shared exists"

# README's quick start: the indented lines between its "## Quick start"
# heading and the next heading; "$ COMMAND" lines, each followed by the
# output README shows for it.
awk '/^## /{on = ($0 == "## Quick start")} on && /^    /' "$top/README.md" |
	sed 's/^    //' >"$tmp/quickstart"
grep -q '^\$ make$' "$tmp/quickstart" && ok quickstart_found ||
	bad quickstart_found "no '\$ make' in README's quick start"

# run_step N COMMAND WANT_FILE: run COMMAND in the clone, compare its output
run_step() {
	local n=$1 cmd=$2 want=$3 rc
	(cd "$clone" && bash -c "$cmd") >"$tmp/got.$n" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ]; then
		bad "quickstart_$n" "'$cmd': exit $rc: $(tail -c 600 "$tmp/got.$n")"
		return
	fi
	if [ ! -s "$want" ]; then	# README shows no output: the status is enough
		ok "quickstart_$n"
		return
	fi
	if diff <(grep -v '^time ' "$want") <(grep -v '^time ' "$tmp/got.$n") \
		>"$tmp/diff"; then
		ok "quickstart_$n"
	else
		bad "quickstart_$n" "'$cmd' prints other than README shows: $(head -c 800 "$tmp/diff")"
	fi
}

n=0
cmd=
: >"$tmp/want"
while IFS= read -r line; do
	if [ "${line#\$ }" != "$line" ]; then
		[ -n "$cmd" ] && run_step "$n" "$cmd" "$tmp/want"
		n=$((n + 1))
		cmd=${line#\$ }
		: >"$tmp/want"
	else
		printf '%s\n' "$line" >>"$tmp/want"
	fi
done <"$tmp/quickstart"
[ -n "$cmd" ] && run_step "$n" "$cmd" "$tmp/want"
# What the quick start writes (under build/) is ignored: git
# status stays clean.
untracked=$(git -C "$clone" status --porcelain)
[ -z "$untracked" ] && ok quickstart_leaves_status_clean ||
	bad quickstart_leaves_status_clean "$(echo "$untracked" | head -c 300)"

# No target reads ../shared: what make run, check and bench would run.
make -n -C "$clone" run check bench >"$tmp/plan" 2>&1
if grep -n '\.\./shared' "$tmp/plan" >"$tmp/hits"; then
	bad no_target_reads_shared "$(head -c 600 "$tmp/hits")"
else
	ok no_target_reads_shared
fi

# The offline suites, in the clone, on its own tests/data.
if make -C "$clone" -j2 build/tplanctl build/libtplan.a build/libtplan.so \
	>"$tmp/build.log" 2>&1; then
	ok build
	(cd "$clone" && scripts/run-suites.sh \
		"cli: tests/cli/cli_test.sh build/tplanctl tests/data" \
		"golden: tests/cli/golden_plans.sh build/tplanctl tests/data" \
		"lib: tests/lib/lib_test.sh build tests/data") \
		>"$tmp/suites.log" 2>&1
	total=$(tail -n 1 "$tmp/suites.log")
	case $total in
	*" passed, 0 failed") ok "offline_suites ($total)" ;;
	*) bad offline_suites "$(grep -E '^(FAIL|===.*[1-9][0-9]* failed)' "$tmp/suites.log" | head -c 1200)" ;;
	esac
else
	bad build "$(tail -c 800 "$tmp/build.log")"
fi
# make clean leaves the clone as it came: nothing ignored is left.
make -C "$clone" clean >/dev/null 2>&1
left=$(git -C "$clone" status --porcelain --ignored)
[ -z "$left" ] && ok clean_leaves_nothing ||
	bad clean_leaves_nothing "$(echo "$left" | head -c 300)"
suite_end
