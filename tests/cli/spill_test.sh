#!/bin/bash
# spill_test.sh TPLANCTL DATA_DIR - end-to-end tests of "tplanctl plan
# --spill" and "tplanctl verify --spill": hand-made tables with known moved
# bytes, broken plans, bad input, and every real table at 90 % of its lower
# bound (planned and verified, or refused naming the step).
# Last line: "N passed, N failed".
set -u
SUITE=spill
. "$(dirname "$0")/../common/suite.sh"
ctl=$1
data=$2
real=$data/real
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A long tensor must go out while a short one lives: 2 x 100 bytes moved.
printf 'id,lower,upper,size,uses\na,0,10,100,0 3 9\nb,4,7,100,\nc,2,5,7,2 4\n' \
	>"$tmp/t.csv"
expect plan_moves 0 '^moved +200 bytes' \
	"$ctl" plan "$tmp/t.csv" --capacity 150 --spill -o "$tmp/o.csv"
cp "$tmp/out" "$tmp/summary"
expect plan_bound 0 '^moved bound +200 bytes' cat "$tmp/summary"
expect plan_host_peak 0 '^host peak +100 bytes' cat "$tmp/summary"
expect output_header 0 '^id,lower,upper,size,offset,piece,host_offset$' \
	head -n 1 "$tmp/o.csv"
expect output_pieces 0 '^a,9,10,100,[0-9]+,1,0$' cat "$tmp/o.csv"
expect verify_own 0 'valid spill plan: 3 tensors, 4 pieces, .*moved 200, host peak 100; any plan moves at least 114$' \
	"$ctl" verify "$tmp/o.csv" --spill --table "$tmp/t.csv" --capacity 150
expect verify_own_json 0 '^\{"file":".*o.csv","valid":true,"tensors":3,"pieces":4,"peak":[0-9]+,"moved":200,"host_peak":100,"least_moved":114\}$' \
	"$ctl" verify "$tmp/o.csv" --spill --table "$tmp/t.csv" --capacity 150 --json
expect verify_capacity 1 'beyond the capacity' \
	"$ctl" verify "$tmp/o.csv" --spill --table "$tmp/t.csv" --capacity 100
# a's second piece moved to 4: the use at 3 is then in no piece
sed 's/^a,9,10,/a,4,10,/' "$tmp/o.csv" >"$tmp/broken.csv"
expect verify_broken 1 'invalid spill plan: ' \
	"$ctl" verify "$tmp/broken.csv" --spill --table "$tmp/t.csv" --capacity 150
sed 's/^b,/z,/' "$tmp/o.csv" >"$tmp/unknown.csv"
expect verify_unknown_id 1 'id z piece 0: no such tensor in the table' \
	"$ctl" verify "$tmp/unknown.csv" --spill --table "$tmp/t.csv" --capacity 150
expect verify_not_spill 2 'not a spill plan' \
	"$ctl" verify "$tmp/t.csv" --spill --table "$tmp/t.csv" --capacity 150
expect verify_needs_table 2 '--spill takes --table' \
	"$ctl" verify "$tmp/o.csv" --spill --capacity 150
expect json 0 '"moved":200,"moved_bound":200,"host_peak":100' \
	"$ctl" plan "$tmp/t.csv" --capacity 150 --spill --json
expect fits_without_moving 0 '^moved +0 bytes' \
	"$ctl" plan "$tmp/t.csv" --capacity 1K --spill

# Four moves of 2^62 bytes once wrapped to "moved 0": each size counts
# twice per gap between uses and once more, and that adds up below 2^64.
printf 'id,lower,upper,size,uses\na,0,10,%s,0 3 6 9\nb,1,3,%s,\nc,4,6,%s,\n' \
	4611686018427387904 4611686018427387905 4611686018427387905 \
	>"$tmp/wrap.csv"
expect moves_past_2_64 2 'counted twice per gap between uses .* past 2\^64 - 1 \(EOVERFLOW\)' \
	"$ctl" plan "$tmp/wrap.csv" --capacity 9223372036854775808 --spill
sed 's/^a,0,10,4611686018427387904,/a,0,10,1152921504606846976,/' \
	"$tmp/wrap.csv" >"$tmp/edge.csv"
expect moves_near_2_64 0 '^moved +4611686018427387904 bytes' \
	"$ctl" plan "$tmp/edge.csv" --capacity 5764607523034234880 --spill \
	-o "$tmp/edge_o.csv"
expect moves_near_2_64_verified 0 'valid spill plan: 3 tensors, 5 pieces' \
	"$ctl" verify "$tmp/edge_o.csv" --spill --table "$tmp/edge.csv" \
	--capacity 5764607523034234880

# Before step 5, A goes out and B comes back: all copies out go first, so
# A's copy may not take the host bytes B's copy waits in.
printf 'id,lower,upper,size,uses\nB,0,10,100,0 5 9\nA,1,10,100,1 9\n' \
	>"$tmp/h.csv"
printf '%s\n' 'id,lower,upper,size,offset,piece,host_offset' \
	'B,0,1,100,0,0,0' 'B,5,10,100,0,1,0' 'A,1,5,100,0,0,0' \
	'A,9,10,100,100,1,0' >"$tmp/handed.csv"
expect verify_host_handed_over 1 'evicted copies share host staging bytes' \
	"$ctl" verify "$tmp/handed.csv" --spill --table "$tmp/h.csv" --capacity 200
sed 's/^A,9,10,100,100,1,0$/A,9,10,100,100,1,100/' "$tmp/handed.csv" \
	>"$tmp/apart.csv"
expect verify_host_apart 0 'valid spill plan: 2 tensors, 4 pieces' \
	"$ctl" verify "$tmp/apart.csv" --spill --table "$tmp/h.csv" --capacity 200

# Furthest-next-use moves the big tensor for a 10-byte excess.
printf 'id,lower,upper,size\nx,0,20,100\ny,0,15,10\nz,5,6,10\n' >"$tmp/b.csv"
expect furthest_moves_big 0 '^moved +200 bytes' \
	"$ctl" plan "$tmp/b.csv" --capacity 110 --spill --spill-strategy furthest
expect default_moves_small 0 '^moved +20 bytes' \
	"$ctl" plan "$tmp/b.csv" --capacity 110 --spill
expect ga_plans 0 '^evictions +segments and genetic algorithm' \
	"$ctl" plan "$tmp/b.csv" --capacity 110 --spill --spill-strategy ga \
	-o "$tmp/ga.csv"
expect ga_verified 0 'valid spill plan' \
	"$ctl" verify "$tmp/ga.csv" --spill --table "$tmp/b.csv" --capacity 110

# What cannot work is named.
printf 'id,lower,upper,size\n1,0,2,100\n2,1,3,100\n' >"$tmp/full.csv"
expect used_exceeds 1 'does not fit in 150 bytes: step 1 uses 200 bytes' \
	"$ctl" plan "$tmp/full.csv" --capacity 150 --spill
printf 'id,lower,upper,size,uses\n1,0,10,100,0 5 4\n' >"$tmp/bad.csv"
expect uses_unsorted 2 'bad.csv:2:16: column .uses.: step 4 does not come after step 5' \
	"$ctl" plan "$tmp/bad.csv" --capacity 150 --spill
printf 'id,lower,upper,size,uses\n1,0,10,100,0 10\n' >"$tmp/bad.csv"
expect uses_outside 2 'bad.csv:2:14: column .uses.: step 10 is outside the lifetime \[0, 10\)' \
	"$ctl" plan "$tmp/bad.csv" --capacity 150 --spill
expect needs_capacity 2 '--spill needs --capacity' "$ctl" plan "$tmp/t.csv" --spill
expect strategy_needs_spill 2 '--spill-strategy needs --spill' \
	"$ctl" plan "$tmp/t.csv" --spill-strategy furthest
expect bad_strategy 2 "invalid spill strategy 'gaa' \\(one of: default furthest ga\\)" \
	"$ctl" plan "$tmp/t.csv" --capacity 150 --spill --spill-strategy gaa
expect no_tiers 2 '--spill takes none of' \
	"$ctl" plan "$tmp/t.csv" --spill --capacity 150 --aliases
# one timeline, one memory: one model, no share_key
printf 'id,lower,upper,size,model\n0,0,4,100,0\n1,1,3,100,1\n' >"$tmp/models.csv"
expect one_model 2 'tensor id 1 of model 1: a spill plan takes the tensors of one model' \
	"$ctl" plan "$tmp/models.csv" --spill --capacity 150
printf 'id,lower,upper,size,share_key\nw,0,4,100,1\nx,1,3,100,0\n' >"$tmp/shared.csv"
expect no_share_key 2 'tensor id w: a spill plan takes no share_key tensor' \
	"$ctl" plan "$tmp/shared.csv" --spill --capacity 150
# submit --spill: the same arguments; the device is another suite's (uml)
expect submit_needs_capacity 2 '--spill needs --capacity' \
	"$ctl" submit "$tmp/t.csv" --spill
expect submit_no_group 2 '--spill takes none of' \
	"$ctl" submit "$tmp/t.csv" --spill --capacity 150 --group 3
expect submit_no_tiered 2 '--spill takes none of' \
	"$ctl" submit "$tmp/t.csv" --spill --capacity 150 --tiered
expect submit_one_file 2 '--spill submits one file' \
	"$ctl" submit "$tmp/t.csv" "$tmp/b.csv" --spill --capacity 150
expect submit_not_a_device 2 '/dev/null: not a tplan device' \
	"$ctl" submit "$tmp/t.csv" --spill --capacity 150 --device /dev/null
# the uses column survives a plain plan
expect uses_kept 0 '^a,0,10,100,0 3 9,0$' "$ctl" plan "$tmp/t.csv" -o -

# Every real table at 90 % of its lower bound: a verified plan where the
# default moves no more than furthest and ga, or the busiest step named.
for f in "$real"/*.csv; do
	name=$(basename "$f" .csv)
	lb=$("$ctl" plan "$f" --strategy naive | awk '$1 == "lower" { print $3 }')
	cap=$((lb * 9 / 10))
	if "$ctl" plan "$f" --capacity "$cap" --spill -o "$tmp/p.csv" \
		>"$tmp/d" 2>"$tmp/err"; then
		"$ctl" plan "$f" --capacity "$cap" --spill \
			--spill-strategy furthest >"$tmp/fu" 2>>"$tmp/err"
		"$ctl" plan "$f" --capacity "$cap" --spill \
			--spill-strategy ga >"$tmp/ga" 2>>"$tmp/err"
		d=$(awk '$1 == "moved" && $2 != "bound" { print $2 }' "$tmp/d")
		fu=$(awk '$1 == "moved" && $2 != "bound" { print $2 }' "$tmp/fu")
		ga=$(awk '$1 == "moved" && $2 != "bound" { print $2 }' "$tmp/ga")
		if "$ctl" verify "$tmp/p.csv" --spill --table "$f" \
			--capacity "$cap" >/dev/null 2>>"$tmp/err" &&
		   [ -n "$d" ] && [ -n "$fu" ] && [ -n "$ga" ] &&
		   [ "$d" -le "$fu" ] && [ "$d" -le "$ga" ]; then
			ok "real_$name"
		else
			bad "real_$name" "moved $d, furthest $fu, ga $ga: $(head -c 400 "$tmp/err")"
		fi
	elif grep -qE 'step [0-9]+ uses [0-9]+ bytes' "$tmp/err"; then
		ok "real_$name"
	else
		bad "real_$name" "$(head -c 400 "$tmp/err")"
	fi
done

suite_end
