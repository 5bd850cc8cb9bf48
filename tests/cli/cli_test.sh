#!/bin/bash
# cli_test.sh TPLANCTL DATA_DIR - end-to-end tests of tplanctl's offline
# commands on real tables.  Last line: "N passed, N failed".
set -u
SUITE=cli
. "$(dirname "$0")/../common/suite.sh"
ctl=$1
data=$2
real=$data/real
challenging=$data/minimalloc/challenging
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT


field() { awk -v k="$1" '$1 == k { print $3; exit }' "$tmp/out"; }

# A real network planned to its lower bound: resnet50.
expect plan_resnet50 0 '^peak' "$ctl" plan "$real/resnet50_b1.csv" -o "$tmp/plan.csv"
lb=$(awk '$1 == "lower" { print $3 }' "$tmp/out")
peak=$(awk '$1 == "peak" { print $2 }' "$tmp/out")
if [ -n "$lb" ] && [ "$lb" = "$peak" ]; then ok peak_equals_lower_bound
else bad peak_equals_lower_bound "lower bound '$lb', peak '$peak'"; fi

expect verify_own_plan 0 'valid plan: 176 tensors' "$ctl" verify "$tmp/plan.csv"

# Tensors 0 [0,2) and 1 [1,3) live together: give 1 the offset of 0.
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "offset") c = i }
	NR == 2 { off = $c } NR == 3 { $c = off } { print }' \
	"$tmp/plan.csv" >"$tmp/broken.csv"
expect verify_names_overlap 1 'share addresses: tensor id 0 .* and tensor id 1 ' \
	"$ctl" verify "$tmp/broken.csv"
expect verify_capacity 1 'beyond the capacity' \
	"$ctl" verify --capacity 1000 "$tmp/plan.csv"
expect verify_needs_offsets 2 'no offset column' "$ctl" verify "$real/resnet50_b1.csv"

# A table with alias_of entries planned without --aliases: a note names the
# flag (the entries are ignored); with it, or for a plan recording it, none.
"$ctl" plan "$real/resnet50_b1.csv" -o /dev/null >/dev/null 2>"$tmp/stderr"
if grep -q "^tplanctl plan: note: .*resnet50_b1.csv: alias_of is ignored without --aliases" "$tmp/stderr"
then ok plan_notes_ignored_aliases
else bad plan_notes_ignored_aliases "stderr: $(head -c 300 "$tmp/stderr")"; fi
"$ctl" plan "$real/resnet50_b1.csv" --aliases -o "$tmp/aliased.csv" >/dev/null 2>"$tmp/stderr"
"$ctl" verify "$tmp/aliased.csv" >/dev/null 2>>"$tmp/stderr"
[ ! -s "$tmp/stderr" ] && ok no_note_with_aliases ||
	bad no_note_with_aliases "stderr: $(head -c 300 "$tmp/stderr")"

expect plan_json 0 '^\{"table":".*","tensors":176,"strategy":"auto",.*"lower_bound":9633792,"peak":9633792,' \
	"$ctl" plan "$real/resnet50_b1.csv" --json
expect plan_greedy 0 'strategy +greedy-size' "$ctl" plan "$real/resnet50_b1.csv" --strategy greedy-size
expect plan_strip 0 'strategy +strip' "$ctl" plan "$real/regnet_y_400mf_b1.csv" --strategy strip
expect search_fits_capacity 0 'search +fit' "$ctl" plan "$challenging/B.1048576.csv" \
	--strategy search --capacity 1048576 --budget 1G
expect search_proves_impossible 1 'does not fit in 1000000 bytes.*search: proven that no plan fits' \
	"$ctl" plan "$challenging/B.1048576.csv" --strategy search --capacity 1000000
expect search_gives_up 1 'does not fit in 990000 bytes.*search: gave up, work budget exhausted' \
	"$ctl" plan "$challenging/D.1048576.csv" --strategy search --capacity 990000 --budget 400000
# With the default budget search fits the hard MiniMalloc problems too.
expect search_fits_hard_default_budget 0 'search +fit' "$ctl" plan \
	"$challenging/I.1048576.csv" --strategy search --capacity 1048576
printf 'id,lower,upper,size\n0,0,2,3\n1,1,3,3\n2,2,4,3\n3,0,4,1\n' >"$tmp/nobound.csv"
expect minimize_optimal 0 'minimize +optimal: proven' "$ctl" plan "$tmp/nobound.csv" \
	--minimize --strategy search
expect minimize_json 0 '"minimize":"optimal","optimum_at_least":' "$ctl" plan \
	"$tmp/nobound.csv" --minimize --json
expect minimize_best_found 0 'minimize +best found within the budget: the optimum is 986112 to' \
	"$ctl" plan "$challenging/D.1048576.csv" --minimize --strategy search --budget 800000
# --time-limit is the run's: it ends near it, with the best plan found
start=$(date +%s)
expect minimize_time_limit_is_the_runs 0 'minimize +best found within the budget' \
	"$ctl" plan "$challenging/D.1048576.csv" --minimize --time-limit 1000 \
	-o "$tmp/d_min.csv"
if [ $(($(date +%s) - start)) -le 10 ]; then
	ok minimize_time_limit_ends_the_run
else
	bad minimize_time_limit_ends_the_run "took $(($(date +%s) - start)) s for a 1 s limit"
fi
expect minimize_time_limit_plan_valid 0 'valid plan: 213 tensors' \
	"$ctl" verify "$tmp/d_min.csv"
expect minimize_needs_search 2 '--minimize needs --strategy search or auto' "$ctl" plan \
	"$tmp/nobound.csv" --minimize --strategy greedy-size
expect minimize_no_capacity 2 '--minimize finds the capacity' "$ctl" plan \
	"$tmp/nobound.csv" --minimize --capacity 10
expect auto_reaches_convnext_bound 0 'peak/bound +1.0000' "$ctl" plan "$real/convnext_tiny_b1.csv"
expect plan_time_limit 0 'strategy +search' "$ctl" plan "$challenging/A.1048576.csv" \
	--strategy search --budget 100G --time-limit 200
expect bad_time_limit 2 "invalid time limit '1s'" "$ctl" plan "$real/resnet50_b1.csv" --time-limit 1s
expect plan_small_below 0 'peak +9654176 bytes' "$ctl" plan "$real/resnet50_b1.csv" --small-below 64K
expect bad_small_below 2 "invalid small-below 'x'" "$ctl" plan "$real/resnet50_b1.csv" --small-below x
# Aliases honoured: squeezenet's in-place ops share their owners' bytes.
expect plan_aliases 0 'lower bound +3928576 bytes' "$ctl" plan "$real/squeezenet1_1_b1.csv" \
	--aliases -o "$tmp/aliased.csv"
expect verify_aliases 0 'valid plan: 67 tensors, peak 3928576, lower bound 3928576' \
	"$ctl" verify "$tmp/aliased.csv" --aliases
# The plan records how it was made ("# tplan: aliases"): verify, show and
# plan need no --aliases; without the line the aliases share addresses.
check plan_records_aliases "$(head -n 1 "$tmp/aliased.csv")" '# tplan: aliases'
expect verify_aliases_recorded 0 'valid plan: 67 tensors, peak 3928576, lower bound 3928576' \
	"$ctl" verify "$tmp/aliased.csv"
grep -v '^#' "$tmp/aliased.csv" >"$tmp/aliased_plain.csv"
expect verify_aliases_needed 1 'share addresses' "$ctl" verify "$tmp/aliased_plain.csv"
expect show_aliases_recorded 0 '67 tensors, peak 3928576' "$ctl" show "$tmp/aliased.csv"
expect replan_aliases_recorded 0 '^peak +3928576' \
	"$ctl" plan "$tmp/aliased.csv" --strategy naive -o "$tmp/aliased2.csv"
if cmp -s "$tmp/aliased.csv" "$tmp/aliased2.csv"; then ok replan_aliases_same_file
else bad replan_aliases_same_file "$(diff "$tmp/aliased.csv" "$tmp/aliased2.csv" | head -3)"; fi
expect aliases_pipe_verify 0 '^-: valid plan: 67 tensors' \
	sh -c '"$1" plan "$2" --aliases -o - 2>/dev/null | "$1" verify -' _ "$ctl" "$real/squeezenet1_1_b1.csv"
# a plan that needs no option has no such line: MiniMalloc reads it
check plain_plan_no_record "$(head -n 1 "$tmp/plan.csv")" 'id,lower,upper,size,alias_of,offset'
"$ctl" plan "$real/squeezenet1_1_b1.csv" --aliases --capacity 4M -o "$tmp/cap.csv" >/dev/null 2>&1
check capacity_not_recorded "$(head -n 1 "$tmp/cap.csv")" '# tplan: aliases'
printf 'id,lower,upper,size,alias_of\n1,0,2,8,\n2,1,3,8,7\n' >"$tmp/badalias.csv"
expect plan_bad_alias 2 'alias_of names no tensor: tensor id 2 \(EINVAL\)' \
	"$ctl" plan "$tmp/badalias.csv" --aliases
expect plan_naive 0 'strategy +naive' "$ctl" plan "$real/resnet50_b1.csv" --strategy naive
expect plan_capacity_fits 0 'capacity +9633792' \
	"$ctl" plan "$real/resnet50_b1.csv" --capacity 9633792
expect plan_capacity_too_small 1 'does not fit in 9633791 bytes: peak 9633792' \
	"$ctl" plan "$real/resnet50_b1.csv" --capacity 9633791
expect plan_budget_exhausted 1 'budget of 10 units exhausted' \
	"$ctl" plan "$real/resnet50_b1.csv" --budget 10
expect plan_capacity_suffix 0 'capacity +1073741824' \
	"$ctl" plan "$real/resnet50_b1.csv" --capacity 1G --strategy naive
# MiniMalloc's own example, string ids (b1, b2, ...) and all: it fits in 12.
expect plan_minimalloc_example 0 'peak +12 bytes' \
	"$ctl" plan "$data/minimalloc/examples/input.12.csv" --capacity 12

# Named ids (MiniMalloc's example) are kept and named in verify's messages.
"$ctl" plan "$data/minimalloc/examples/input.12.csv" -o "$tmp/named.csv" >/dev/null 2>&1
sed 's/^b3,0,9,4,[0-9]*$/b3,0,9,4,8/' "$tmp/named.csv" >"$tmp/named-broken.csv"
expect verify_named_overlap 1 'tensor id b3 .* and tensor id b5 ' \
	"$ctl" verify "$tmp/named-broken.csv"

expect help 0 '^usage: tplanctl' "$ctl" --help
expect version 0 '^tplanctl [0-9]' "$ctl" --version
expect no_command 2 'usage' "$ctl"
expect unknown_command 2 "unknown command 'frob'" "$ctl" frob
expect unknown_strategy 2 "invalid strategy 'best' \\(one of: .*greedy-size.*\\)" "$ctl" plan "$real/resnet50_b1.csv" --strategy best
expect bad_capacity 2 "invalid capacity '12x'" "$ctl" plan "$real/resnet50_b1.csv" --capacity 12x
expect missing_file 2 'No such file' "$ctl" plan "$tmp/nope.csv"
expect two_files_one_missing 2 'a.csv: No such file' "$ctl" plan a.csv b.csv

# The device commands, against no device (the driver runs only under UML).
expect help_lists_device_commands 0 '^  submit FILE\.\.\. \[--device' "$ctl" --help
expect info_no_device 2 '^tplanctl info: /nonexistent: No such file or directory .*module loaded' \
	"$ctl" info --device /nonexistent
expect info_no_device_json 2 '^\{"error":"tplanctl info: /nonexistent: No such file or directory \(ENOENT; is the tplan module loaded\?\)","errno":"ENOENT","exit":2\}$' \
	"$ctl" info --device /nonexistent --json
expect info_not_tplan_device 2 '^tplanctl info: /dev/null: .*not a tplan device' \
	"$ctl" info --device /dev/null
# TPLAN_DEVICE stands for --device (info then shows that device only);
# --device wins over it; empty is unset.
expect info_env_device 2 '^tplanctl info: /dev/null: .*not a tplan device' \
	env TPLAN_DEVICE=/dev/null "$ctl" info
expect info_env_device_missing 2 '^tplanctl info: /nonexistent/accel9: No such file or directory' \
	env TPLAN_DEVICE=/nonexistent/accel9 "$ctl" info
expect info_device_over_env 2 '^tplanctl info: /nonexistent: No such file' \
	env TPLAN_DEVICE=/dev/null "$ctl" info --device /nonexistent
expect submit_env_device 2 '^tplanctl submit: /nonexistent/accel9: No such file or directory' \
	env TPLAN_DEVICE=/nonexistent/accel9 "$ctl" submit "$real/resnet50_b1.csv"
expect help_says_env_device 0 'TPLAN_DEVICE' "$ctl" --help
expect info_extra_argument 2 '^usage: tplanctl info' "$ctl" info extra
expect info_unknown_option 2 "unknown option '--strategy'" "$ctl" info --strategy naive
expect submit_no_device 2 '^tplanctl submit: /nonexistent: No such file or directory .*module loaded' \
	"$ctl" submit "$real/resnet50_b1.csv" --device /nonexistent
expect submit_dry_run_no_device 2 '^\{"error":"tplanctl submit: /nonexistent: No such file.*"errno":"ENOENT"' \
	"$ctl" submit "$real/resnet50_b1.csv" --device /nonexistent --dry-run --json
expect submit_not_tplan_device 2 '^tplanctl submit: /dev/null: not a tplan device' \
	"$ctl" submit "$real/resnet50_b1.csv" --device /dev/null
expect submit_no_file 2 '^usage: tplanctl submit' "$ctl" submit
expect submit_no_file 2 '^usage: tplanctl submit' "$ctl" submit
expect submit_hold_dry_run 2 '\-\-hold needs a reserved plan' \
	"$ctl" submit "$real/resnet50_b1.csv" --hold --dry-run
expect submit_unknown_strategy 2 "invalid strategy 'best'" \
	"$ctl" submit "$real/resnet50_b1.csv" --strategy best
expect submit_bad_budget 2 "invalid budget '1Q'" \
	"$ctl" submit "$real/resnet50_b1.csv" --budget 1Q
expect submit_missing_value 2 "option '--device' needs a value" \
	"$ctl" submit "$real/resnet50_b1.csv" --device
expect submit_missing_file 2 'nope.csv: No such file' \
	"$ctl" submit "$tmp/nope.csv" --device /nonexistent
expect plan_rejects_device_option 2 "unknown option '--hold'" \
	"$ctl" plan "$real/resnet50_b1.csv" --hold

printf 'id,lower,upper,size\n1,0,2,8\n2,5,3,8\n' >"$tmp/bad.csv"
expect bad_row_positioned 2 "bad.csv:3:[0-9]+: .*upper" "$ctl" plan "$tmp/bad.csv"
: >"$tmp/empty.csv"
expect empty_file 2 'empty' "$ctl" plan "$tmp/empty.csv"
expect output_unwritable 2 'tplanctl plan: ' \
	"$ctl" plan "$real/resnet50_b1.csv" -o "$tmp/no/such/dir/out.csv"

# Several models: serial needs the larger peak, concurrent the sum; the
# written plan has a model column and verifies in its mode only.
r18=$real/resnet18_b1.csv
sq=$real/squeezenet1_1_b1.csv
expect models_serial 0 '^saved +6308352 bytes \(49\.6%\)' \
	"$ctl" plan "$r18" "$sq" --serial -o "$tmp/serial.csv"
cp "$tmp/out" "$tmp/summary"
expect models_serial_peak 0 '^peak +6422528 bytes' cat "$tmp/summary"
expect models_serial_verifies 0 'valid plan: 137 tensors, peak 6422528' \
	"$ctl" verify "$tmp/serial.csv" --serial
check models_serial_recorded "$(head -n 1 "$tmp/serial.csv")" '# tplan: serial'
expect models_serial_recorded_verifies 0 'valid plan: 137 tensors, peak 6422528' \
	"$ctl" verify "$tmp/serial.csv"
# a flag given wins over the record
expect models_serial_is_not_concurrent 1 'time-overlapping tensors share' \
	"$ctl" verify "$tmp/serial.csv" --concurrent
expect models_concurrent 0 '^apart +12730880 bytes' \
	"$ctl" plan "$r18" "$sq" --concurrent -o "$tmp/conc.csv"
cp "$tmp/out" "$tmp/summary"
expect models_concurrent_peak 0 '^peak +12730880 bytes' cat "$tmp/summary"
expect models_concurrent_verifies 0 'valid plan' \
	"$ctl" verify "$tmp/conc.csv" --concurrent
check models_concurrent_recorded "$(head -n 1 "$tmp/conc.csv")" '# tplan: concurrent'
expect models_column_written 0 '^id,lower,upper,size,alias_of,model,offset$' \
	sed -n 2p "$tmp/serial.csv"
expect models_json 0 '"models":2,"mode":"serial","apart":12730880' \
	"$ctl" plan "$r18" "$sq" --serial --json
expect models_exclusive 2 'exclude each other' \
	"$ctl" plan "$r18" "$sq" --serial --concurrent
expect models_file_with_model_column 2 'has a model column' \
	"$ctl" plan "$tmp/serial.csv" "$sq"
expect models_at_most_16 2 'more than 16 files' "$ctl" plan $(for _ in $(seq 17); do echo "$sq"; done)
# Each file's uses come through the merge (a file without: none per row).
printf 'id,lower,upper,size\n0,0,2,10\n' >"$tmp/nouses.csv"
printf 'id,lower,upper,size,uses\n0,0,4,100,0 2 3\n1,1,3,100,\n' >"$tmp/uses.csv"
expect models_keep_uses 0 '^0,0,4,100,1,0 2 3,' \
	"$ctl" plan "$tmp/nouses.csv" "$tmp/uses.csv" -o -
expect models_keep_uses_empty 0 '^0,0,2,10,0,,0$' \
	"$ctl" plan "$tmp/nouses.csv" "$tmp/uses.csv" -o -
printf 'id,lower,upper,size,share_key\nw,0,4,100,7\n' >"$tmp/wa.csv"
printf 'id,lower,upper,size,share_key\nw,0,4,200,7\n' >"$tmp/wb.csv"
expect share_key_sizes_differ 2 'one share_key differ in size: tensor id w of model 1' \
	"$ctl" plan "$tmp/wa.csv" "$tmp/wb.csv"

# Tiers: the keenest tensors go to the fast tier.
printf 'id,lower,upper,size,priority,tiers\na,0,4,600,1,\nb,0,4,600,9,\nc,0,4,400,5,\nd,0,4,10,9,1\n' \
	>"$tmp/prio.csv"
expect tiers_summary 0 '^tier 0 +peak 1000 bytes of 1024, 91\.5% of priority-weighted bytes' \
	"$ctl" plan "$tmp/prio.csv" --tiers 1K,0 -o "$tmp/tiered.csv"
expect tiers_column 0 '^b,0,4,600,9,,0,0$' cat "$tmp/tiered.csv"
expect tiers_verify 0 'tier 0 peak 1000, tier 1 peak 610' \
	"$ctl" verify "$tmp/tiered.csv" --tiers 1K,0
expect tiers_verify_smaller 1 'tensor ends beyond the capacity' \
	"$ctl" verify "$tmp/tiered.csv" --tiers 900,0
check tiers_recorded "$(head -n 1 "$tmp/tiered.csv")" '# tplan: tiers=1024,0'
expect tiers_verify_recorded 0 'tier 0 peak 1000, tier 1 peak 610' \
	"$ctl" verify "$tmp/tiered.csv"
expect tiers_recorded_not_capacity 2 'records tiers=1024,0\): --capacity does not apply' \
	"$ctl" verify "$tmp/tiered.csv" --capacity 5000
expect tiers_show_recorded 0 '^tier 1: ' "$ctl" show "$tmp/tiered.csv"
expect tiers_full 1 'does not fit in its tiers: tier 0 peak 0 of 100, tier 1 peak 1610 of 1000' \
	"$ctl" plan "$tmp/prio.csv" --tiers 100,1000
expect tiers_bad_list 2 "invalid tiers .*'1K'" "$ctl" plan "$tmp/prio.csv" --tiers 1K
expect tiers_with_capacity 2 'drop --capacity' \
	"$ctl" plan "$tmp/prio.csv" --tiers 1K,0 --capacity 5
printf 'id,lower,upper,size,tiers\nd,0,4,10,3\n' >"$tmp/t3.csv"
expect tiers_unknown 2 'tiers allows no tier the plan has: tensor id d' \
	"$ctl" plan "$tmp/t3.csv" --tiers 1K,0

# Every bench table plans, and the written plan verifies.
for f in "$real"/*.csv "$challenging"/*.csv; do
	name=$(basename "$f" .csv)
	if "$ctl" plan "$f" -o "$tmp/p.csv" >/dev/null 2>"$tmp/err" &&
	   "$ctl" verify "$tmp/p.csv" >/dev/null 2>>"$tmp/err"; then
		ok "plan_verify_$name"
	else
		bad "plan_verify_$name" "$(head -c 400 "$tmp/err")"
	fi
done

# A table too large for the default work budget (greedy-size alone spends
# more than 160M units on it) still gets auto's first plan, greedy-size's;
# an explicit budget is a hard limit.  10^6 tensors, two born per step.
awk 'BEGIN { srand(42); print "id,lower,upper,size"
	for (i = 0; i < 1000000; i++) { s = int(i / 2)
		printf "%d,%d,%d,%d\n", i, s, s + 1 + int(rand() * 4),
			1024 * (1 + int(rand() * 64)) } }' >"$tmp/big.csv"
expect auto_keeps_greedy_plan_past_default_budget 0 'search +fit' \
	"$ctl" plan "$tmp/big.csv"
expect explicit_budget_is_a_limit 1 'work budget of 1048576 units exhausted' \
	"$ctl" plan "$tmp/big.csv" --budget 1M
# a time limit stops the improvement, never the first plan
expect time_limit_keeps_first_plan 0 'peak/bound' \
	"$ctl" plan "$tmp/big.csv" --time-limit 1

# MiniMalloc's whole format: pinned offsets, gaps with windows, hints, and
# columns tplan does not know, kept through a plan.
for g in '1-2-3' 'A-B' '1-' '-2' '1-2@' '1-2@3' '1-2@3:4:5' '1-2@a:4' '1-2@3:4@5'; do
	printf 'id,lower,upper,size,gaps\n0,0,10,8,0-1 %s\n' "$g" >"$tmp/gap.csv"
	expect "gap_malformed_$g" 2 "gap.csv:2:14: column 'gaps': malformed gap '" \
		"$ctl" plan "$tmp/gap.csv"
done
# as in MiniMalloc, a gap may reach past the lifetime: it is cut to it
printf 'id,lower,upper,size,gaps\n0,0,10,8,4-12 14-16\n' >"$tmp/gap.csv"
expect gap_outside_lifetime 0 '^peak' "$ctl" plan "$tmp/gap.csv" -o "$tmp/gap_plan.csv"
check gap_outside_lifetime_cut "$(sed -n 2p "$tmp/gap_plan.csv")" '0,0,10,8,4-10,0'
# b lives inside a's gap, c inside its window's spare bytes: all in 8 bytes
printf 'id,lower,upper,size,gaps,note\na,0,10,8,2-5 6-9@0:4,x y\nb,2,5,8,,\nc,6,9,4,,z\n' \
	>"$tmp/gaps.csv"
expect plan_gaps_share 0 'peak +8 bytes' "$ctl" plan "$tmp/gaps.csv" -o "$tmp/gaps_plan.csv"
check gaps_columns_kept "$(head -1 "$tmp/gaps_plan.csv")" 'id,lower,upper,size,gaps,note,offset'
check gaps_rows_kept "$(sed -n 2p "$tmp/gaps_plan.csv")" 'a,0,10,8,2-5 6-9@0:4,x y,0'
expect verify_gaps 0 'valid plan: 3 tensors, peak 8, lower bound 8' "$ctl" verify "$tmp/gaps_plan.csv"
sed 's/^c,6,9,4,,z,4$/c,6,9,4,,z,3/' "$tmp/gaps_plan.csv" >"$tmp/gaps_bad.csv"
expect verify_gaps_window 1 'share addresses: tensor id a .* and tensor id c ' \
	"$ctl" verify "$tmp/gaps_bad.csv"
expect search_gaps 0 'peak +8 bytes' \
	"$ctl" plan "$tmp/gaps.csv" --strategy search -o "$tmp/gaps_search.csv"
expect verify_search_gaps 0 'valid plan: 3 tensors, peak 8' "$ctl" verify "$tmp/gaps_search.csv"
# search reaches the bound through gaps where greedy-size cannot
printf 'id,lower,upper,size,gaps\n0,2,5,3,3-4\n1,0,8,3,6-7\n2,0,7,4,1-5\n3,2,5,2,\n' \
	>"$tmp/gaps2.csv"
expect greedy_above_bound_gaps 0 'peak +9 bytes' "$ctl" plan "$tmp/gaps2.csv" --strategy greedy-size
expect search_bound_gaps 0 'search +fit' \
	"$ctl" plan "$tmp/gaps2.csv" --strategy search -o "$tmp/gaps2_search.csv"
expect verify_search_bound_gaps 0 'valid plan: 4 tensors, peak 8, lower bound 8' \
	"$ctl" verify "$tmp/gaps2_search.csv"
# A plan given back to plan keeps its offsets, as in MiniMalloc.
"$ctl" plan "$challenging/C.1048576.csv" --strategy greedy-size -o "$tmp/c1.csv" >/dev/null
expect replan_keeps_offsets 0 '^peak' "$ctl" plan "$tmp/c1.csv" -o "$tmp/c2.csv"
if cmp -s "$tmp/c1.csv" "$tmp/c2.csv"; then ok replan_same_file
else bad replan_same_file "$(diff "$tmp/c1.csv" "$tmp/c2.csv" | head -3)"; fi
# MiniMalloc's flag spellings: --input=F --output=O --capacity=N.
expect minimalloc_flags 0 '^peak' "$ctl" plan --input="$challenging/C.1048576.csv" \
	--output="$tmp/c3.csv" --capacity=2097152 --strategy greedy-size
if cmp -s "$tmp/c1.csv" "$tmp/c3.csv"; then ok minimalloc_flags_same_plan
else bad minimalloc_flags_same_plan "$(diff "$tmp/c1.csv" "$tmp/c3.csv" | head -3)"; fi
expect input_and_file 2 'no file argument after it' \
	"$ctl" plan --input="$challenging/C.1048576.csv" "$challenging/C.1048576.csv"
# Some pinned, the rest planned around them; empty and -1 mean not pinned.
printf 'id,lower,upper,size,offset,hint\n0,0,4,8,16,\n1,0,4,8,,\n2,2,6,8,-1,40\n' >"$tmp/pins.csv"
for s in naive greedy-size strip search auto; do
	expect "pins_$s" 0 '^peak' "$ctl" plan "$tmp/pins.csv" --strategy "$s" -o "$tmp/pins_plan.csv"
	check "pins_kept_$s" "$(sed -n 2p "$tmp/pins_plan.csv")" '0,0,4,8,-1,16' # no hint: -1, as MiniMalloc writes it
	case $s in
	search|auto) # the hint is a preference: left for the bound (24)
		check "hint_left_$s" "$(sed -n 4p "$tmp/pins_plan.csv")" '2,2,6,8,40,8' ;;
	*)	check "hint_taken_$s" "$(sed -n 4p "$tmp/pins_plan.csv")" '2,2,6,8,40,40' ;;
	esac
	expect "pins_valid_$s" 0 'valid plan' "$ctl" verify "$tmp/pins_plan.csv"
done
# a hint whose tensor would end past 2^64 - 1 is not taken (it wrapped)
printf 'id,lower,upper,size,hint\n0,0,2,16,18446744073709551610\n1,0,2,16,\n2,1,3,16,\n' \
	>"$tmp/hint_wraps.csv"
for s in greedy-size strip auto; do
	"$ctl" plan "$tmp/hint_wraps.csv" --strategy $s -o "$tmp/hint_wraps_plan.csv" >/dev/null
	expect "hint_past_2_64_not_taken_$s" 0 'valid plan: 3 tensors, peak 48' \
		"$ctl" verify "$tmp/hint_wraps_plan.csv"
done
# nor one that leaves too little room below 2^64 to place the others above
# it: taking both hints left the 2^63-byte tensor no offset below 2^64
# (the lowest fit wrapped past it: an invalid plan, or no end)
printf 'id,lower,upper,size,alignment,hint\n1,0,9,9223372036854775808,2,\n%s\n%s\n' \
	'2,0,9,1,1,9223372036854775806' '3,0,9,1,1,18446744073709551614' \
	>"$tmp/hint_no_room.csv"
for s in naive greedy-size strip search auto; do
	timeout 60 "$ctl" plan "$tmp/hint_no_room.csv" --strategy $s \
		-o "$tmp/hint_no_room_plan.csv" >/dev/null
	expect "hint_without_room_not_taken_$s" 0 'valid plan: 3 tensors' \
		"$ctl" verify "$tmp/hint_no_room_plan.csv"
done
# a plan whose peak is 2^64 - 1 (the largest table there is) is still a
# plan: strip kept none below that "no plan yet" mark and wrote offsets it
# never set
printf 'id,lower,upper,size\n1,0,9,9223372036854775808\n2,0,9,9223372036854775807\n' \
	>"$tmp/peak_max.csv"
for s in naive greedy-size strip search auto; do
	"$ctl" plan "$tmp/peak_max.csv" --strategy $s -o "$tmp/peak_max_plan.csv" \
		>/dev/null
	expect "peak_2_64_minus_1_$s" 0 'valid plan: 2 tensors, peak 18446744073709551615' \
		"$ctl" verify "$tmp/peak_max_plan.csv"
done
printf 'id,lower,upper,size,offset\n3,0,4,8,0\n7,2,6,8,4\n' >"$tmp/pins_bad.csv"
expect pins_conflict 2 'pinned tensors share addresses while both are present: tensor id 3 and tensor id 7' \
	"$ctl" plan "$tmp/pins_bad.csv"
printf 'id,lower,upper,size,offset\n3,0,4,8,0\n7,2,6,8,8\n' >"$tmp/pins_cap.csv"
expect pins_beyond_capacity 2 'pinned tensor ends beyond the capacity: tensor id 7' \
	"$ctl" plan "$tmp/pins_cap.csv" --capacity 12
expect pins_with_search 0 'peak +16 bytes' \
	"$ctl" plan "$tmp/pins_cap.csv" --strategy search --capacity 16
# no plan ends below a pin: --minimize starts there (the bound is 16)
printf 'id,lower,upper,size,offset\n0,0,4,8,16\n1,0,4,8,\n' >"$tmp/pins_top.csv"
expect minimize_above_pins 0 'minimize +optimal' \
	"$ctl" plan "$tmp/pins_top.csv" --minimize --strategy search -o "$tmp/pins_top_plan.csv"
expect minimize_above_pins_valid 0 'valid plan: 2 tensors, peak 24' \
	"$ctl" verify "$tmp/pins_top_plan.csv"
expect pins_with_tiers 2 'pins cannot be combined with tiers' \
	"$ctl" plan "$tmp/pins_cap.csv" --tiers 16,16
expect spill_refuses_pins 2 'a spill plan moves every tensor: it takes no pin, gap or hint' "$ctl" plan "$tmp/pins_cap.csv" --capacity 16 --spill

# The "# tplan:" line: comments before the header are skipped; the line's
# words are checked, with file:line:column.
printf '# made by hand\n# tplan: aliases\nid,lower,upper,size,alias_of,offset\n0,0,4,8,,0\n1,1,3,8,0,0\n' \
	>"$tmp/rec.csv"
expect record_read 0 'valid plan: 2 tensors, peak 8' "$ctl" verify "$tmp/rec.csv"
printf '# tplan: aliases frob\nid,lower,upper,size,offset\n0,0,4,8,0\n' >"$tmp/rec_bad.csv"
expect record_unknown_word 2 "rec_bad.csv:1:18: '# tplan:' line: unknown word 'frob'" \
	"$ctl" verify "$tmp/rec_bad.csv"
printf '# tplan: serial concurrent\nid,lower,upper,size,offset\n0,0,4,8,0\n' >"$tmp/rec_bad.csv"
expect record_serial_concurrent 2 "rec_bad.csv:1:17: .*serial and concurrent exclude each other" \
	"$ctl" verify "$tmp/rec_bad.csv"
for t in 'tiers=1' 'tiers=1,' 'tiers=1,x' 'tiers=1,2,3,4,5'; do
	printf '# tplan: %s\nid,lower,upper,size,offset\n0,0,4,8,0\n' "$t" >"$tmp/rec_bad.csv"
	expect "record_bad_$t" 2 "rec_bad.csv:1:10: '# tplan:' line: malformed '$t'" \
		"$ctl" verify "$tmp/rec_bad.csv"
done
printf '# tplan: aliases\n# tplan: serial\nid,lower,upper,size,offset\n0,0,4,8,0\n' >"$tmp/rec_bad.csv"
expect record_twice 2 "rec_bad.csv:2:1: a second '# tplan:' line \(the first on line 1\)" \
	"$ctl" verify "$tmp/rec_bad.csv"

# Data on standard output when - is asked for: the summary goes to stderr.
"$ctl" plan "$real/resnet50_b1.csv" -o - >"$tmp/stdout" 2>"$tmp/stderr"
check stdout_plan_only "$(head -n 1 "$tmp/stdout")" 'id,lower,upper,size,alias_of,offset'
check stdout_plan_rows "$(wc -l <"$tmp/stdout")" 177
expect stdout_summary_on_stderr 0 '^peak +9633792 bytes' cat "$tmp/stderr"
expect stdout_pipe_verify 0 '^-: valid plan: 176 tensors, peak 9633792' \
	sh -c '"$1" plan "$2" -o - | "$1" verify -' _ "$ctl" "$real/resnet50_b1.csv"
"$ctl" plan "$real/resnet50_b1.csv" -o - --json >"$tmp/stdout" 2>"$tmp/stderr"
check stdout_json_plan_only "$(head -n 1 "$tmp/stdout")" 'id,lower,upper,size,alias_of,offset'
expect stdout_json_summary_on_stderr 0 '^\{"table":.*"peak":9633792' cat "$tmp/stderr"
"$ctl" plan "$real/resnet50_b1.csv" --svg - >"$tmp/stdout" 2>"$tmp/stderr"
expect stdout_svg_is_svg 0 '^svg$' /usr/bin/python3 -c '
import sys, xml.etree.ElementTree as ET
print(ET.parse(sys.argv[1]).getroot().tag.split("}")[-1])' "$tmp/stdout"
expect stdout_svg_summary_on_stderr 0 '^peak +9633792 bytes' cat "$tmp/stderr"
expect stdout_svg_and_plan 2 '\-o - and --svg - both write standard output' \
	"$ctl" plan "$real/resnet50_b1.csv" -o - --svg -
"$ctl" plan "$tmp/nobound.csv" --minimize -o - >"$tmp/stdout" 2>"$tmp/stderr"
check stdout_minimize_plan_only "$(head -n 1 "$tmp/stdout")" 'id,lower,upper,size,offset'
expect stdout_minimize_summary_on_stderr 0 '^minimize ' cat "$tmp/stderr"
printf 'id,lower,upper,size,uses\na,0,6,100,0 5\nb,1,4,100,\n' >"$tmp/spill.csv"
"$ctl" plan "$tmp/spill.csv" --capacity 100 --spill -o - >"$tmp/stdout" 2>"$tmp/stderr"
check stdout_spill_plan_only "$(head -n 1 "$tmp/stdout")" 'id,lower,upper,size,offset,piece,host_offset'
expect stdout_spill_summary_on_stderr 0 '^pieces ' cat "$tmp/stderr"
expect stdout_spill_pipe_verify 0 'valid spill plan' sh -c \
	'"$1" plan "$2" --capacity 100 --spill -o - | "$1" verify - --spill --table "$2" --capacity 100' \
	_ "$ctl" "$tmp/spill.csv"

# Ids (and alias_of) must be UTF-8: they go into SVG and JSON.
printf 'id,lower,upper,size\nok,0,2,8\nab\377c,0,2,8\n' >"$tmp/utf8.csv"
expect id_not_utf8 2 "utf8.csv:3:3: column 'id': not valid UTF-8 \(byte 0xff at byte 3 of the value\)" \
	"$ctl" plan "$tmp/utf8.csv"
printf 'id,lower,upper,size\n\300\257,0,2,8\n' >"$tmp/utf8.csv"
expect id_overlong_utf8 2 "utf8.csv:2:1: column 'id': not valid UTF-8" "$ctl" plan "$tmp/utf8.csv"
printf 'id,lower,upper,size\n\355\240\200,0,2,8\n' >"$tmp/utf8.csv"
expect id_surrogate_utf8 2 "utf8.csv:2:1: column 'id': not valid UTF-8" "$ctl" plan "$tmp/utf8.csv"
printf 'id,lower,upper,size,alias_of\na,0,2,8,\nb,0,2,8,a\342\202\n' >"$tmp/utf8.csv"
expect alias_of_not_utf8 2 "utf8.csv:3:10: column 'alias_of': not valid UTF-8" \
	"$ctl" plan "$tmp/utf8.csv"
printf 'id,lower,upper,size\n\303\251t\303\251,0,2,8\n\360\237\230\200,1,3,8\n' >"$tmp/utf8.csv"
expect id_utf8_accepted 0 '^peak +16 bytes' "$ctl" plan "$tmp/utf8.csv"
printf 'id\tnode\n0\tconv\n1\tre\377lu\n' >"$tmp/names.tsv"
expect names_not_utf8 2 "^tplanctl show: .*names.tsv:3: not valid UTF-8 \(byte 0xff\)$" \
	"$ctl" show "$tmp/plan.csv" --names "$tmp/names.tsv"

# Each command's --help: its usage on stdout, exit 0; every option it
# names is one it takes, and every option it takes is named.
for c in plan verify submit show info; do
	"$ctl" $c --help >"$tmp/stdout" 2>"$tmp/stderr"
	rc=$?
	if [ $rc -eq 0 ] && grep -q "^usage: tplanctl $c " "$tmp/stdout" && [ ! -s "$tmp/stderr" ]; then
		ok "help_$c"
	else
		bad "help_$c" "exit $rc: $(head -c 300 "$tmp/stdout" "$tmp/stderr")"
	fi
	expect "help_short_$c" 0 "^usage: tplanctl $c " "$ctl" $c -h
	usage=$(grep -o -- '--[a-z][a-z-]*' "$tmp/stdout" | sort -u)
	miss=
	for o in $("$ctl" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		"$ctl" $c "$o" >"$tmp/out" 2>&1
		if grep -q "unknown option" "$tmp/out"; then
			taken=no
		else
			taken=yes
		fi
		named=no
		grep -qx -- "$o" <<<"$usage" && named=yes
		[ "$o" = --help ] && named=yes
		# --input=FILE stands for the file argument the usage shows
		[ "$o" = --input ] && grep -q -E 'FILE|\.csv' "$tmp/stdout" && named=yes
		[ $taken = $named ] || miss="$miss $o(takes $taken, usage $named)"
	done
	if [ -z "$miss" ]; then ok "usage_matches_parser_$c"
	else bad "usage_matches_parser_$c" "$miss"; fi
done
expect help_describes_options 0 '^  -s, --strategy S +auto \(default\), search' "$ctl" plan --help
expect help_describes_long_only 0 '^      --device PATH +the accel node' "$ctl" submit --help
lines=$("$ctl" 2>&1 | wc -l)
if [ "$lines" -le 12 ]; then ok no_command_is_brief
else bad no_command_is_brief "$lines lines"; fi
expect help_lists_minimize 0 '^  plan FILE --minimize' "$ctl" --help
expect help_lists_command_help 0 '^  COMMAND --help' "$ctl" --help
expect help_in_json_mode 0 '^usage: tplanctl plan ' "$ctl" plan --json --help

# --json: an error is one JSON object on stdout, nothing on stderr; the
# exit status is the command's.
json_err() { # NAME EXIT PATTERN COMMAND...: stdout matches, stderr empty
	local name=$1 code=$2 pattern=$3 rc
	shift 3
	"$@" >"$tmp/stdout" 2>"$tmp/stderr"
	rc=$?
	if [ $rc -ne "$code" ] || [ -s "$tmp/stderr" ] || [ "$(wc -l <"$tmp/stdout")" -ne 1 ] ||
	   ! grep -qE -- "$pattern" "$tmp/stdout"; then
		bad "$name" "exit $rc: $(head -c 300 "$tmp/stdout") / $(head -c 300 "$tmp/stderr")"
	else
		ok "$name"
	fi
}
json_err json_info_no_device 2 '^\{"error":"tplanctl info: /nonexistent: .*","errno":"ENOENT","exit":2\}$' \
	"$ctl" info --device /nonexistent --json
json_err json_missing_file 2 '^\{"error":"tplanctl plan: .*nope.csv: No such file or directory","errno":"ENOENT","exit":2\}$' \
	"$ctl" plan "$tmp/nope.csv" --json
json_err json_does_not_fit 1 '^\{"error":"tplanctl plan: .*does not fit in 9633791 bytes.*","errno":"ENOSPC","exit":1\}$' \
	"$ctl" plan "$real/resnet50_b1.csv" --capacity 9633791 --json
json_err json_bad_option_before 2 '^\{"error":"tplanctl plan: invalid strategy .best. \(one of: [a-z -]*\)","errno":"EINVAL","exit":2\}$' \
	"$ctl" plan "$real/resnet50_b1.csv" --strategy best --json
json_err json_usage 2 '^\{"error":"tplanctl plan: unknown option .--frob.\\nusage: tplanctl plan .*","errno":"EINVAL","exit":2\}$' \
	"$ctl" plan "$real/resnet50_b1.csv" --frob -j
json_err json_bad_row 2 '^\{"error":"tplanctl plan: .*bad.csv:3:[0-9]+: .*upper.*","errno":"EINVAL","exit":2\}$' \
	"$ctl" plan "$tmp/bad.csv" --json
json_err json_ok_one_object 0 '^\{"table":.*"peak":9633792' \
	"$ctl" plan "$real/resnet50_b1.csv" --json
# verify --json (README promises --json errors for every command)
"$ctl" plan "$real/resnet50_b1.csv" -o "$tmp/verify.csv" >/dev/null 2>&1
json_err json_verify_valid 0 '^\{"file":".*verify.csv","valid":true,"tensors":[0-9]+,"peak":9633792,"lower_bound":9633792\}$' \
	"$ctl" verify "$tmp/verify.csv" --json
awk -F, '/^[^#]/ && !h { h = 1; print; next } h { $NF = 0 } { print }' OFS=, \
	"$tmp/verify.csv" >"$tmp/verify-bad.csv"
json_err json_verify_invalid 1 '^\{"error":"tplanctl verify: .*verify-bad.csv: invalid plan: .*","errno":null,"exit":1\}$' \
	"$ctl" verify "$tmp/verify-bad.csv" --json

# A progress line on stderr once a second, with --progress off a terminal;
# nothing without it.  10,000 random lifetimes, about 1500 alive at once,
# spend a budget of 600M units in a few seconds (auto: its first plan is
# sweep fit's in milliseconds, then it improves on it).
awk 'BEGIN { srand(35); print "id,lower,upper,size"
	for (i = 0; i < 10000; i++) { l = int(rand() * 700)
		printf "%d,%d,%d,%d\n", i, l, l + 1 + int(rand() * 199), 1 + int(rand() * 1048576) } }' \
	>"$tmp/random.csv"
"$ctl" plan "$tmp/random.csv" --progress --budget 600000000 -o /dev/null \
	>"$tmp/out" 2>"$tmp/stderr"
if grep -q -E '^tplanctl plan: (reading|planning|writing) .*random.csv, [0-9]+ s$' "$tmp/stderr" &&
	grep -q '^peak' "$tmp/out"
then ok progress_line
else bad progress_line "stderr: $(head -c 300 "$tmp/stderr")"; fi
"$ctl" plan "$tmp/random.csv" -o /dev/null >/dev/null 2>"$tmp/stderr"
[ ! -s "$tmp/stderr" ] && ok no_progress_off_a_terminal ||
	bad no_progress_off_a_terminal "stderr: $(head -c 300 "$tmp/stderr")"

suite_end
