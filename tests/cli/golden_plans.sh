#!/bin/bash
# golden_plans.sh TPLANCTL DATA_DIR [--record] - plan every bench table
# with every strategy and the options that change a plan's shape (aliases,
# small tensors apart, tiers, several models), and compare a hash of each
# plan with the one recorded in golden-plans.sha256 beside this script.
# A changed plan is a failure: a refactoring must not move a single offset.
# --record rewrites the file instead (only when a plan is meant to change).
# Last line: "N passed, N failed".
set -u
ctl=$1
data=$2
record=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
golden=$here/golden-plans.sha256
real=$data/real
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One line per plan: LABEL<TAB>ARGUMENTS (word-split; paths have no spaces).
cases() {
	local f base s
	for f in "$real"/*.csv "$data"/minimalloc/*/*.csv; do
		base=${f#"$data"/}
		for s in naive greedy-size strip search auto; do
			printf '%s\t%s\n' "$base:$s" "$f --strategy $s"
		done
		printf '%s\t%s\n' "$base:small-below" "$f --small-below 64K"
		printf '%s\t%s\n' "$base:tiers" "$f --tiers 1M,4M,0"
	done
	for f in "$real"/*.csv; do
		base=${f#"$data"/}
		printf '%s\t%s\n' "$base:aliases" "$f --aliases"
	done
	printf '%s\t%s\n' "models:serial" \
		"$real/resnet50_b1.csv $real/googlenet_b1.csv $real/mobilenet_v2_b1.csv --serial --aliases"
	printf '%s\t%s\n' "models:concurrent" \
		"$real/resnet50_b1.csv $real/googlenet_b1.csv --concurrent"
	printf '%s\t%s\n' "models:serial-tiers" \
		"$real/densenet121_b1.csv $real/inception_v3_b1.csv --serial --tiers 2M,0"
}

# plan_one LABEL ARGS: prints "HASH  LABEL" (the plan's CSV, or its error).
# The "# tplan:" line that records the options is not hashed: it says how
# the plan was made, not where the tensors went.
plan_one() {
	local out=$tmp/$(printf '%s' "$1" | tr '/:' '__').csv
	# shellcheck disable=SC2086
	if "$ctl" plan $2 -o "$out" >/dev/null 2>&1 || [ -s "$out" ]; then
		printf '%s  %s\n' "$(grep -v '^# tplan:' "$out" | sha256sum | cut -d' ' -f1)" "$1"
	else
		printf '%s  %s\n' "no-plan" "$1"
	fi
}
export -f plan_one
export ctl tmp

cases | tr '\t' '\n' | xargs -d '\n' -n 2 -P "$(nproc)" \
	bash -c 'plan_one "$1" "$2"' _ | sort -k 2 >"$tmp/now"

if [ "$record" = --record ]; then
	cp "$tmp/now" "$golden"
	echo "recorded $(wc -l <"$golden") plans in $golden"
	echo "$(wc -l <"$golden") passed, 0 failed"
	exit 0
fi

pass=0
fail=0
while read -r hash label; do
	want=$(awk -v l="$label" '$2 == l { print $1 }' "$golden")
	if [ "$hash" = "$want" ]; then
		pass=$((pass + 1))
	else
		echo "FAIL golden.$label: plan changed (${want:-not recorded})"
		fail=$((fail + 1))
	fi
done <"$tmp/now"
if [ "$(wc -l <"$golden")" -ne "$(wc -l <"$tmp/now")" ]; then
	echo "FAIL golden: $(wc -l <"$golden") plans recorded, $(wc -l <"$tmp/now") planned"
	fail=$((fail + 1))
fi
echo "ok   golden: $pass plans as recorded"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
