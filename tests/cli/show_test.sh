#!/bin/bash
# show_test.sh TPLANCTL DATA_DIR - "tplanctl show" and "plan --svg": the
# SVG is well-formed XML with one rectangle (and its tooltip) per tensor with
# bytes, a real browser (Debian's chromium, headless) renders it to a PNG
# that is not blank and draws nothing past its canvas (tests/cli/
# png_facts.py reads the screenshots), the text view is exactly as expected
# on a hand-made plan, large tables are aggregated, and bad input is exit
# code 2.
# Last line: "N passed, N failed".
set -u
SUITE=show
. "$(dirname "$0")/../common/suite.sh"
ctl=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
data=$2
here=$(cd "$(dirname "$0")" && pwd)
real=$data/real
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Debian's python3, with xml.etree and zlib (another python3 may come first
# on PATH).
py=/usr/bin/python3



# svg_facts FILE: parses FILE as XML and prints, one a line, "rects N" (the
# rectangles with a <title>), "aggregated N" (groups of aggregated cells),
# "text T" for each text element, and for each live-bytes curve "curve TOP
# LINE T": the top of its path, the height of the bound line drawn over it
# and its title.
svg_facts() {
	"$py" - "$1" <<'EOF'
import sys
import xml.etree.ElementTree as ET
ns = '{http://www.w3.org/2000/svg}'
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == ns + 'svg', root.tag
print('rects', sum(1 for r in root.iter(ns + 'rect')
                   if r.find(ns + 'title') is not None))
print('aggregated', sum(1 for g in root.iter(ns + 'g')
                        if g.get('class') == 'agg'))
for g in root.iter(ns + 'g'):
    if g.get('class') == 'busy':
        print('busy', g.find(ns + 'title').text)
for r in root.iter(ns + 'rect'):
    t = r.find(ns + 'title')
    if t is not None:
        print('title', t.text)
for t in root.iter(ns + 'text'):
    print('text', t.text)
for l in root.iter(ns + 'line'):
    t = l.find(ns + 'title')
    if l.get('class') == 'move' and t is not None:
        print('move', t.text)
# text estimated to run past the canvas (6.5 px a character at 12px, 7 in
# bold; the 9px labels on rectangles are placed by their own rule)
width = float(root.get('width'))
def texts(e, labels):
    for c in e:
        if c.tag == ns + 'text' and not labels:
            yield c
        elif c.tag == ns + 'g':
            yield from texts(c, labels or c.get('class') == 'n')
over = 0
for t in texts(root, False):
    if t.get('textLength') or not t.text:
        continue
    w = len(t.text) * (7.0 if 'h' in (t.get('class') or '').split() else 6.5)
    x = float(t.get('x'))
    end = t.get('text-anchor') == 'end'
    if (end and x - w < 0) or (not end and x + w > width):
        over += 1
        print('overflow_text', t.text)
print('overflow', over)
curve = None
for e in root:
    if e.tag == ns + 'path' and e.get('class') == 'live':
        words = e.get('d').replace('M', 'M ').replace('V', 'V ').split()
        ys = [float(words[i + 2 if w == 'M' else i + 1])
              for i, w in enumerate(words) if w in ('M', 'V')]
        curve = (min(ys), e.find(ns + 'title').text)
    elif curve and e.tag == ns + 'line' and e.get('class') == 'bound':
        print('curve %.1f %.1f %s' % (curve[0], float(e.get('y1')), curve[1]))
        curve = None
EOF
}

# check_svg NAME FILE RECTS: FILE is XML with RECTS rectangles with a title.
check_svg() {
	local name=$1 file=$2 want=$3 got
	if ! svg_facts "$file" >"$tmp/facts" 2>&1; then
		bad "$name" "not XML: $(tail -n 2 "$tmp/facts" | head -c 400)"
		return 1
	fi
	got=$(awk '$1 == "rects" { print $2 }' "$tmp/facts")
	if [ "$got" != "$want" ]; then
		bad "$name" "$got rectangles with a title, expected $want"
		return 1
	fi
	ok "$name"
}

# has_fact NAME REGEX: a line of the last check_svg's facts matches.
has_fact() {
	if grep -qE -- "$2" "$tmp/facts"; then ok "$1"
	else bad "$1" "no /$2/ in the SVG"; fi
}

# Tensors with bytes in a table: its rows with a non-zero size.
with_bytes() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "size") c = i; next }
		$c > 0 { n++ } END { print n + 0 }' "$1"
}

# A hand-made plan: names, an empty tensor, the peak reached by "bias".
cat >"$tmp/small.csv" <<'EOF'
id,lower,upper,size,offset
in,0,2,32,0
conv,1,3,64,32
relu,2,4,32,0
empty,2,3,0,0
out,3,5,16,32
bias,0,5,8,96
EOF

cat >"$tmp/small.txt" <<'EOF'
small.csv: 6 tensors, peak 104 bytes, lower bound 104 bytes
[peak]: reaches the peak; [busy]: alive when the most bytes are live
busiest step 1 (104 bytes live): conv, in, bias
a column is 4 bytes, a line 1 step; '.' is free
step |0                      104|
   0 |00000000................11|
   1 |00000000222222222222222211|
   2 |33333333222222222222222211|
   3 |333333334444............11|
   4 |........4444............11|
  0  in: 32 bytes, steps [0, 2), offset 0 [busy]
  1  bias: 8 bytes, steps [0, 5), offset 96 [peak]
  2  conv: 64 bytes, steps [1, 3), offset 32 [busy]
  3  relu: 32 bytes, steps [2, 4), offset 0 [busy]
  4  out: 16 bytes, steps [3, 5), offset 32
EOF

(cd "$tmp" && "$ctl" show small.csv --ascii --width 40) >"$tmp/got.txt" 2>&1
if cmp -s "$tmp/got.txt" "$tmp/small.txt"; then ok ascii_exact
else bad ascii_exact "$(diff "$tmp/small.txt" "$tmp/got.txt" | head -c 600)"; fi

# Without -o the text view is the default, 80 columns wide at most.
(cd "$tmp" && "$ctl" show small.csv) >"$tmp/got.txt" 2>&1
if [ "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$tmp/got.txt")" -le 80 ] &&
   grep -q '^   2 |3333' "$tmp/got.txt"; then ok ascii_default_80_columns
else bad ascii_default_80_columns "$(head -c 400 "$tmp/got.txt")"; fi

expect svg_small 0 '' "$ctl" show "$tmp/small.csv" -o "$tmp/small.svg"
if check_svg svg_small_one_rect_per_tensor "$tmp/small.svg" 5; then
	has_fact svg_tooltip '^title in: 32 bytes, steps \[0, 2\), offset 0$'
	has_fact svg_tooltip_all '^title bias: 8 bytes, steps \[0, 5\), offset 96$'
	has_fact svg_peak_line '^text peak 104 bytes$'
	# the ids are the names on rectangles wide enough for them
	has_fact svg_id_on_wide '^text conv$'
	has_fact svg_bound_line '^text live-bytes bound 104 bytes$'
	if grep -q '^title empty' "$tmp/facts"; then bad svg_no_empty_tensor "the empty tensor is drawn"
	else ok svg_no_empty_tensor; fi
fi
expect svg_stdout 0 '^<svg xmlns' "$ctl" show "$tmp/small.csv" -o -
# What verify refuses is not drawn: relu moved onto conv's bytes at step 2.
sed 's/^relu,2,4,32,0$/relu,2,4,32,32/' "$tmp/small.csv" >"$tmp/overlap.csv"
expect refuses_invalid_plan 1 '^tplanctl show: .*overlap.csv: invalid plan: time-overlapping tensors share addresses: tensor id (conv|relu) ' \
	"$ctl" show "$tmp/overlap.csv" -o "$tmp/overlap.svg"
expect refuses_invalid_plan_ascii 1 'invalid plan' "$ctl" show "$tmp/overlap.csv"
expect svg_and_ascii 0 '^   2 \|3333' "$ctl" show "$tmp/small.csv" -o "$tmp/both.svg" --ascii

# Names are escaped.
printf 'id,lower,upper,size,offset\na<b&c>,0,1,8,0\n' >"$tmp/names.csv"
expect svg_names 0 '' "$ctl" show "$tmp/names.csv" -o "$tmp/names.svg"
check_svg svg_names_escaped "$tmp/names.svg" 1 && has_fact svg_names_kept '^title a<b&c>: 8 bytes'

# Labels: the node column (as tplan-import writes it, %XX-escaped) on the
# rectangles wide and tall enough for it, in tooltips and the legend; the
# busiest step named with its tensors in the text view and the SVG.
cat >"$tmp/nodes.csv" <<'EOF'
id,lower,upper,size,node,offset
big,0,100,1000,Conv2d%2C3x3,0
thin,0,100,1,Thin,1000
short,99,100,500,Relu,1001
EOF
expect labels_svg 0 '' "$ctl" show "$tmp/nodes.csv" -o "$tmp/nodes.svg"
if check_svg labels_svg_rects "$tmp/nodes.svg" 3; then
	has_fact labels_on_wide '^text Conv2d,3x3$'
	# and its id under it, the rectangle being tall enough for both
	has_fact labels_id_under_label '^text big$'
	if grep -qE '^text (Thin|Relu)$' "$tmp/facts"; then
		bad labels_not_on_small "a label on a rectangle too small for it"
	else ok labels_not_on_small; fi
	has_fact labels_tooltip '^title big \(Conv2d,3x3\): 1000 bytes'
	has_fact labels_busy_in_title '^text 3 tensors; busiest step 99 \(1501 bytes live\): big, short, thin$'
fi
expect labels_ascii_busy 0 '^busiest step 99 \(1501 bytes live\): big, short, thin$' \
	"$ctl" show "$tmp/nodes.csv"
expect labels_ascii_legend 0 '^  [0-9]  big \(Conv2d,3x3\): 1000 bytes' \
	"$ctl" show "$tmp/nodes.csv"
# A names file (the bench's *.names.tsv) names numeric ids.
printf 'id,lower,upper,size,offset\n1,0,3,64,0\n2,1,3,8,64\n' >"$tmp/num.csv"
printf 'id\tnode\top\n1\tconv1\tcall_module\n2\tfc\tcall_module\n' >"$tmp/num.tsv"
expect names_file 0 '^busiest step 1 \(72 bytes live\): conv1, fc$' \
	"$ctl" show "$tmp/num.csv" --names "$tmp/num.tsv"
expect names_file_legend 0 '^  0  1 \(conv1\): 64 bytes' \
	"$ctl" show "$tmp/num.csv" --names "$tmp/num.tsv"
expect names_file_missing 2 "^tplanctl show: $tmp/none.tsv: No such file" \
	"$ctl" show "$tmp/num.csv" --names "$tmp/none.tsv"
expect names_file_no_header 2 "no header naming an 'id' and a 'node' or 'name' column" \
	"$ctl" show "$tmp/num.csv" --names "$tmp/num.csv"

# plan --svg draws the plan it made: a real network, one rectangle each.
expect plan_svg 0 '^peak +9633792 bytes' \
	"$ctl" plan "$real/resnet50_b1.csv" -o "$tmp/r50.csv" --svg "$tmp/r50.svg"
r50_bound=$(awk '$1 == "lower" && $2 == "bound" { print $3 }' "$tmp/out")
if check_svg plan_svg_rects "$tmp/r50.svg" "$(with_bytes "$real/resnet50_b1.csv")"; then
	# the live-bytes curve peaks at the lower bound plan prints, on its line
	has_fact curve_top_is_bound "^curve ([0-9.]+) \\1 live bytes per step: at most ${r50_bound:-none} bytes \\(9.2 MiB\\), first at step 14$"
	has_fact svg_numeric_id_on_wide '^text 36$'
fi
"$ctl" show "$tmp/r50.csv" -o "$tmp/r50-show.svg" >/dev/null 2>&1
# The same picture but for the title, which names the file drawn.
if cmp -s <(grep -v '^<text class="h" x="80" y="20">' "$tmp/r50.svg") \
	<(grep -v '^<text class="h" x="80" y="20">' "$tmp/r50-show.svg"); then
	ok plan_svg_same_as_show
else bad plan_svg_same_as_show "plan --svg and show draw different pictures"; fi

# screenshot FILE PNG WIDTH HEIGHT: Debian's chromium, headless, draws FILE
# (an SVG or an HTML page) in a WIDTH x HEIGHT window into PNG.
screenshot() {
	HOME=$tmp timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--hide-scrollbars --screenshot="$2" --window-size="$3,$4" \
		"file://$1" >"$tmp/chromium.log" 2>&1
}

# renders_inside NAME SVG: in a real browser, nothing of SVG is drawn past
# its canvas: inlined in a page of pure green that lets an SVG's content
# overflow, in a window 300 pixels wider and 100 taller, every pixel
# beyond the canvas stays green.
renders_inside() {
	local name=$1 svg=$2 png=$tmp/$1.png w h
	if ! command -v chromium >/dev/null; then
		bad "$name" "chromium is not installed (make check-deps installs it)"
		return
	fi
	w=$(sed -n 's/^<svg [^>]* width="\([0-9]*\)".*/\1/p' "$svg")
	h=$(sed -n 's/^<svg [^>]* height="\([0-9]*\)".*/\1/p' "$svg")
	{
		echo '<!DOCTYPE html><html><head><style>'
		echo 'body{margin:0;background:#00ff00}svg{overflow:visible;display:block}'
		echo '</style></head><body>'
		grep -v '^<?xml' "$svg"
		echo '</body></html>'
	} >"$tmp/$name.html"
	screenshot "$tmp/$name.html" "$png" $((w + 300)) $((h + 100))
	if ! [ -s "$png" ]; then
		bad "$name" "no PNG: $(tail -n 3 "$tmp/chromium.log" | head -c 400)"
	elif "$py" "$here/png_facts.py" outside "$png" "$w" "$h" >"$tmp/png" 2>&1; then
		ok "$name ($(cat "$tmp/png"))"
	else
		bad "$name" "$(head -c 400 "$tmp/png")"
	fi
}

# renders_labels NAME SVG: in a real browser, SVG's labels show: its
# screenshot differs from one of the same picture with the labels hidden.
renders_labels() {
	local name=$1 svg=$2 w h
	if ! command -v chromium >/dev/null; then
		bad "$name" "chromium is not installed (make check-deps installs it)"
		return
	fi
	w=$(sed -n 's/^<svg [^>]* width="\([0-9]*\)".*/\1/p' "$svg")
	h=$(sed -n 's/^<svg [^>]* height="\([0-9]*\)".*/\1/p' "$svg")
	for hide in no yes; do
		{
			echo '<!DOCTYPE html><html><head><style>body{margin:0}'
			[ $hide = yes ] && echo 'g.n{display:none}'
			echo '</style></head><body>'
			grep -v '^<?xml' "$svg"
			echo '</body></html>'
		} >"$tmp/$name-$hide.html"
		screenshot "$tmp/$name-$hide.html" "$tmp/$name-$hide.png" "$w" "$h"
	done
	if ! [ -s "$tmp/$name-no.png" ] || ! [ -s "$tmp/$name-yes.png" ]; then
		bad "$name" "no PNG: $(tail -n 3 "$tmp/chromium.log" | head -c 400)"
	elif "$py" "$here/png_facts.py" differ "$tmp/$name-no.png" \
		"$tmp/$name-yes.png" >"$tmp/png" 2>&1; then
		ok "$name ($(cat "$tmp/png"))"
	else
		bad "$name" "labels not drawn: $(head -c 400 "$tmp/png")"
	fi
}

# renders NAME SVG: a real browser renders SVG (its whole height) to a PNG
# with the tensors' colours in it.  With SHOW_PNG_DIR set, the PNG is kept
# there as NAME.png, to be looked at.
renders() {
	local name=$1 svg=$2 png=$tmp/$1.png height
	if ! command -v chromium >/dev/null; then
		bad "$name" "chromium is not installed (make check-deps installs it)"
		return
	fi
	height=$(sed -n 's/^<svg [^>]* height="\([0-9]*\)".*/\1/p' "$svg")
	screenshot "$svg" "$png" 1060 "${height:-420}"
	if [ -n "${SHOW_PNG_DIR:-}" ] && [ -s "$png" ]; then
		mkdir -p "$SHOW_PNG_DIR" && cp "$png" "$SHOW_PNG_DIR/"
	fi
	if ! [ -s "$png" ]; then
		bad "$name" "no PNG: $(tail -n 3 "$tmp/chromium.log" | head -c 400)"
	elif "$py" "$here/png_facts.py" colours "$png" >"$tmp/png" 2>&1
	then
		ok "$name ($(cat "$tmp/png"))"
	else
		bad "$name" "blank or colourless PNG: $(head -c 400 "$tmp/png")"
	fi
}
renders browser_renders "$tmp/r50.svg"

# Tiers: one panel each.
expect plan_tiers_svg 0 '^tier 1' "$ctl" plan "$real/resnet50_b1.csv" \
	--tiers 2M,0 -o "$tmp/tiered.csv" --svg "$tmp/tiered.svg"
if check_svg tiers_rects "$tmp/tiered.svg" "$(with_bytes "$real/resnet50_b1.csv")"; then
	has_fact tiers_panel_0 '^text tier 0: [0-9]+ tensors; busiest step [0-9]+ '
	has_fact tiers_panel_1 '^text tier 1: [0-9]+ tensors; busiest step [0-9]+ '
fi
expect tiers_ascii 0 '^tier 1: [0-9]+ tensors, peak' "$ctl" show "$tmp/tiered.csv"
renders browser_renders_tiers "$tmp/tiered.svg"
svg_facts "$tmp/tiered.svg" >"$tmp/facts" 2>&1
if [ "$(grep -cE '^curve ([0-9.]+) \1 ' "$tmp/facts")" = 2 ]; then ok tiers_curves_top_at_bounds
else bad tiers_curves_top_at_bounds "$(grep '^curve' "$tmp/facts")"; fi

# A tier column is checked as verify --tiers would, each tier an arena of
# its own when no tiers= is recorded: tensors overlapping in one tier are
# refused, the same bytes in two tiers are not an overlap.
cat >"$tmp/tier_overlap.csv" <<'EOF'
id,lower,upper,size,tier,offset
a,0,2,16,0,0
b,1,3,16,0,8
c,0,3,16,1,0
d,1,2,8,1,16
EOF
expect refuses_tier_overlap 1 '^tplanctl show: .*tier_overlap.csv: invalid plan: time-overlapping tensors share addresses: tensor id a .* and tensor id b ' \
	"$ctl" show "$tmp/tier_overlap.csv"
sed 's/^b,1,3,16,0,8$/b,1,3,16,0,16/' "$tmp/tier_overlap.csv" >"$tmp/tier_apart.csv"
expect tiers_apart_drawn 0 '^tier 1: 2 tensors, peak 24 bytes' "$ctl" show "$tmp/tier_apart.csv"
{ echo '# tplan: tiers=16,0'; cat "$tmp/tier_apart.csv"; } >"$tmp/tier_room.csv"
expect refuses_tier_over_recorded_room 1 '^tplanctl show: .*tier_room.csv: invalid plan: ' \
	"$ctl" show "$tmp/tier_room.csv"

# A tiered plan packed loosely by hand: each tier's live-bytes bound is its
# own (the most bytes live in it at one step), under its peak; the title
# tells the tiers' sums from the bound of one arena.
cat >"$tmp/loose.csv" <<'EOF'
id,lower,upper,size,tier,offset
a,0,2,10,0,0
b,1,3,10,0,20
c,0,1,5,1,0
d,2,3,7,1,5
EOF
expect loose_ascii_total 0 "^loose.csv: 4 tensors, peak 42 bytes \(the tiers' peaks summed\), lower bound 20 bytes \(one arena\), 27 bytes \(the tiers' live-bytes bounds summed\)$" \
	sh -c 'cd "$1" && "$2" show loose.csv' sh "$tmp" "$ctl"
expect loose_ascii_tier_0 0 '^tier 0: 2 tensors, peak 30 bytes, live-bytes bound 20 bytes$' "$ctl" show "$tmp/loose.csv"
expect loose_ascii_tier_1 0 '^tier 1: 2 tensors, peak 12 bytes, live-bytes bound 7 bytes$' "$ctl" show "$tmp/loose.csv"
expect loose_svg 0 '' "$ctl" show "$tmp/loose.csv" -o "$tmp/loose.svg"
if check_svg loose_svg_rects "$tmp/loose.svg" 4; then
	has_fact loose_svg_bounds "^text live-bytes bound 27 bytes \(the tiers' bounds summed\); lower bound 20 bytes \(all tiers as one arena\)$"
	has_fact loose_tier_0_bound '^text live-bytes bound 20 bytes$'
	has_fact loose_tier_0_peak '^text peak 30 bytes$'
	has_fact loose_tier_1_bound '^text live-bytes bound 7 bytes$'
	has_fact loose_tier_1_peak '^text peak 12 bytes$'
	has_fact loose_tier_0_curve '^curve ([0-9.]+) \1 live bytes per step: at most 20 bytes, first at step 1$'
	has_fact loose_tier_1_curve '^curve ([0-9.]+) \1 live bytes per step: at most 7 bytes, first at step 2$'
fi

# A long plan (6000 points on its curve, more than the plot's pixels): the
# curve drawn per pixel column still peaks at plan's lower bound.
awk 'BEGIN { print "id,lower,upper,size"
	for (i = 0; i < 3000; i++) print i "," 2 * i "," 2 * i + 1 + 2 * (i % 5) "," 8 * (1 + i % 13) }' \
	>"$tmp/long.csv"
expect long_plan 0 '^lower bound' "$ctl" plan "$tmp/long.csv" -o "$tmp/long-plan.csv" --svg "$tmp/long.svg"
long_bound=$(awk '$1 == "lower" && $2 == "bound" { print $3 }' "$tmp/out")
if check_svg long_svg "$tmp/long.svg" 3000; then
	has_fact long_curve_top_is_bound "^curve ([0-9.]+) \\1 live bytes per step: at most ${long_bound:-none} bytes, "
fi

# Serial models: each its own stretch of the timeline.
r18=$real/resnet18_b1.csv
sq=$real/squeezenet1_1_b1.csv
"$ctl" plan "$r18" "$sq" --serial -o "$tmp/serial.csv" >/dev/null 2>&1
expect serial_ascii 0 '^models one after another: model 0 from step 0, model 1 from step [1-9]' \
	"$ctl" show "$tmp/serial.csv" --serial
expect serial_svg 0 '' "$ctl" show "$tmp/serial.csv" --serial -o "$tmp/serial.svg"
if check_svg serial_rects "$tmp/serial.svg" $(( $(with_bytes "$r18") + $(with_bytes "$sq") )); then
	has_fact serial_model_0 '^text model 0$'
	has_fact serial_model_1 '^text model 1$'
fi
expect serial_plan_svg 0 '^models +2, serial' \
	"$ctl" plan "$r18" "$sq" --serial --svg "$tmp/serial2.svg"
check_svg serial_plan_svg_rects "$tmp/serial2.svg" $(( $(with_bytes "$r18") + $(with_bytes "$sq") ))

# A large plan (20000 tensors in 64 rows of 4 KiB): aggregated, at most
# 4000 rectangles of their own, still XML.
awk 'BEGIN { print "id,lower,upper,size,offset"
	for (i = 0; i < 20000; i++) print i "," int(i / 64) "," int(i / 64) + 1 ",4096," (i % 64) * 4096 }' \
	>"$tmp/large.csv"
expect large_verifies 0 'valid plan: 20000 tensors' "$ctl" verify "$tmp/large.csv"
expect large_svg 0 '' "$ctl" show "$tmp/large.csv" -o "$tmp/large.svg"
if check_svg large_rects_capped "$tmp/large.svg" 4000; then
	has_fact large_aggregated '^aggregated 1$'
fi
expect large_ascii 0 '^  \*  [0-9]+ more tensors' "$ctl" show "$tmp/large.csv"

# A spill plan: a tensor's pieces share its symbol, the moves are drawn.
printf 'id,lower,upper,size\n0,0,4,100\n1,1,3,100\n2,2,5,50\n' >"$tmp/spill.csv"
expect spill_plan 0 '^moved +200 bytes' "$ctl" plan "$tmp/spill.csv" \
	--capacity 150 --spill -o "$tmp/pieces.csv"
cat >"$tmp/pieces.txt" <<'EOF'
pieces.csv: 3 tensors, 4 pieces, moved 200 bytes, peak 150 bytes
[peak]: reaches the peak; [busy]: alive when the most bytes are live
busiest step 2 (150 bytes live): 1, 2
a column is 9 bytes, a line 1 step; '.' is free
step |0             150|
   0 |000000000000.....|
   1 |111111111111.....|
   2 |11111111111222222|
   3 |00000000000222222|
   4 |...........222222|
  0  0: 100 bytes, steps [0, 1), offset 0, piece 0
  0  0: 100 bytes, steps [3, 4), offset 0, piece 1, back in from host offset 0 [busy]
  1  1: 100 bytes, steps [1, 3), offset 0, piece 0 [busy]
  2  2: 50 bytes, steps [2, 5), offset 100, piece 0 [peak]
EOF
(cd "$tmp" && "$ctl" show pieces.csv --ascii --width 24) >"$tmp/got.txt" 2>&1
if cmp -s "$tmp/got.txt" "$tmp/pieces.txt"; then ok spill_ascii_exact
else bad spill_ascii_exact "$(diff "$tmp/pieces.txt" "$tmp/got.txt" | head -c 600)"; fi
expect spill_svg 0 '' "$ctl" show "$tmp/pieces.csv" -o "$tmp/pieces.svg"
if check_svg spill_svg_rects "$tmp/pieces.svg" 4; then
	has_fact spill_svg_move '^move 0: out at step 1, back in at step 3 \(host offset 0\), 200 bytes moved$'
	has_fact spill_svg_title '^text .*pieces.csv: 3 tensors, 4 pieces, moved 200 bytes'
fi
# A spill plan's pieces are checked as a plan of their own before drawing:
# tensor 2 moved onto tensor 1's bytes is refused, as verify would.
sed 's/^2,2,5,50,100,0,$/2,2,5,50,0,0,/' "$tmp/pieces.csv" >"$tmp/clash.csv"
expect spill_pieces_collide 1 'invalid plan: time-overlapping tensors share addresses: tensor id 1 .* and tensor id 2 ' \
	"$ctl" show "$tmp/clash.csv" --ascii
expect spill_pieces_collide_no_svg 1 '' \
	"$ctl" show "$tmp/clash.csv" -o "$tmp/clash.svg"
if [ -e "$tmp/clash.svg" ]; then bad spill_pieces_collide_svg_absent "written"
else ok spill_pieces_collide_svg_absent; fi

# Gaps: a tensor is drawn where its bytes are present (b uses a's bytes
# during a's gap; c keeps only its first 20 bytes during its window), one
# legend line per tensor.
cat >"$tmp/gaps.csv" <<'EOF'
id,lower,upper,size,gaps,offset
a,0,10,100,3-6,0
b,3,6,100,,0
c,0,10,50,2-8@0:20,100
EOF
cat >"$tmp/gaps.txt" <<'EOF'
gaps.csv: 3 tensors, peak 150 bytes, lower bound 150 bytes
[peak]: reaches the peak; [busy]: alive when the most bytes are live
busiest step 0 (150 bytes live): a, c
a column is 9 bytes, a line 1 step; '.' is free
step |0             150|
   0 |00000000000111111|
   1 |00000000000111111|
   2 |00000000000111...|
   3 |22222222222111...|
   4 |22222222222111...|
   5 |22222222222111...|
   6 |00000000000111...|
   7 |00000000000111...|
   8 |00000000000111111|
   9 |00000000000111111|
  0  a: 100 bytes, steps [0, 10), offset 0, 1 gap [busy]
  1  c: 50 bytes, steps [0, 10), offset 100, 1 gap [peak]
  2  b: 100 bytes, steps [3, 6), offset 0
EOF
(cd "$tmp" && "$ctl" show gaps.csv --ascii --width 24) >"$tmp/got.txt" 2>&1
if cmp -s "$tmp/got.txt" "$tmp/gaps.txt"; then ok gaps_ascii_exact
else bad gaps_ascii_exact "$(diff "$tmp/gaps.txt" "$tmp/got.txt" | head -c 600)"; fi
expect gaps_svg 0 '' "$ctl" show "$tmp/gaps.csv" -o "$tmp/gaps.svg"
check_svg gaps_svg_rects "$tmp/gaps.svg" 6 &&
	has_fact gaps_svg_title '^title c: 50 bytes, steps \[0, 10\), offset 100, 1 gap$'

# Extreme tables: steps, offsets and sizes up to 2^64 - 1 (a tplanctl with
# UBSan stops at any overflow), the sizes of a table adding up to 2^64 - 1
# at most.  Each shows its total line, its picture as text and as XML.
M=18446744073709551615		# 2^64 - 1
M1=18446744073709551614
H=9223372036854775808		# 2^63
H1=9223372036854775807
extreme() {
	local name=$1 total=$2 args
	shift 2
	args=("$@")
	expect "extreme_${name}_ascii" 0 "$total" "$ctl" show "$tmp/x-$name.csv" "${args[@]}"
	if "$ctl" show "$tmp/x-$name.csv" "${args[@]}" -o "$tmp/x-$name.svg" >"$tmp/out" 2>&1 &&
	   svg_facts "$tmp/x-$name.svg" >"$tmp/facts" 2>&1; then
		ok "extreme_${name}_svg"
	else
		bad "extreme_${name}_svg" "$(head -c 400 "$tmp/out" "$tmp/facts")"
	fi
}
printf 'id,lower,upper,size,offset\na,0,%s,8,0\nb,%s,%s,%s,8\n' \
	$M $M1 $M 18446744073709551600 >"$tmp/x-upper.csv"
extreme upper '/x-upper.csv: 2 tensors, peak 18446744073709551608 bytes, lower bound 18446744073709551608 bytes$'
printf 'id,lower,upper,size,offset\na,5,6,1,%s\nb,5,6,%s,0\n' $M1 $M1 >"$tmp/x-offset.csv"
extreme offset "/x-offset.csv: 2 tensors, peak $M bytes, lower bound $M bytes$"
printf 'id,lower,upper,size,offset\na,0,3,%s,0\nb,1,2,%s,%s\n' $H $H1 $H >"$tmp/x-half.csv"
extreme half "/x-half.csv: 2 tensors, peak $M bytes, lower bound $M bytes$"
# the last column's bytes reach 2^64: it goes to q, which covers most of it
printf 'id,lower,upper,size,offset\np,0,1,10,17644711722678701562\nq,0,1,802032351030850043,17644711722678701572\n' \
	>"$tmp/x-cell.csv"
expect extreme_last_column 0 '^  0  q: 802032351030850043 bytes' "$ctl" show "$tmp/x-cell.csv" --width 30
printf 'id,lower,upper,size,offset\na,%s,%s,16,0\n' $M1 $M >"$tmp/x-onestep.csv"
extreme onestep '/x-onestep.csv: 1 tensors, peak 16 bytes'
expect extreme_onestep_line 0 "^$M1 \|0+\|$" "$ctl" show "$tmp/x-onestep.csv" --width 40
printf 'id,lower,upper,size,offset\na,0,%s,0,0\nb,3,4,0,%s\n' $M $M >"$tmp/x-empty.csv"
extreme empty '/x-empty.csv: 2 tensors, peak 0 bytes'
expect extreme_empty_said 0 '^\(no tensor with bytes\)$' "$ctl" show "$tmp/x-empty.csv"
# two tiers whose peaks sum past 2^64: the sum printed whole
printf 'id,lower,upper,size,tier,offset\na,0,%s,1,0,%s\nb,0,%s,1,1,%s\n' \
	$M $M1 $M $M1 >"$tmp/x-tiers.csv"
extreme tiers '/x-tiers.csv: 2 tensors, peak 36893488147419103230 bytes \(the tiers'"'"' peaks summed\), lower bound 2 bytes \(one arena\), 2 bytes \(the tiers'"'"' live-bytes bounds summed\)$'
has_fact extreme_tiers_svg_total '^text .*peak 36893488147419103230 bytes \(32.0 EiB\) \(the tiers'"'"' peaks summed\)'
# a spill plan whose pieces move more than 2^64 bytes in all
S=6148914691236517205		# (2^64 - 1) / 3
printf 'id,lower,upper,size,offset,piece,host_offset\n0,0,1,%s,0,0,\n0,2,3,%s,0,1,0\n0,%s,%s,%s,0,2,0\n' \
	$S $S $M1 $M $S >"$tmp/x-moved.csv"
extreme moved '/x-moved.csv: 1 tensors, 3 pieces, moved 24595658764946068820 bytes, peak'
has_fact extreme_moved_svg '^move 0: out at step 1, back in at step 2 \(host offset 0\), 12297829382473034410 bytes moved$'
# gaps and serial models far up the timeline
printf 'id,lower,upper,size,gaps,offset\na,0,%s,%s,5-%s,0\nb,5,%s,%s,,0\n' \
	$M $H $M1 $M1 $H1 >"$tmp/x-gaps.csv"
extreme gaps "/x-gaps.csv: 2 tensors, peak $H bytes, lower bound $H bytes$"
printf 'id,lower,upper,size,model,offset\na,%s,9223372036854775818,8,0,0\nb,0,9223372036854775788,8,1,0\n' \
	$H >"$tmp/x-serial.csv"
extreme serial '^models one after another: model 0 from step 0, model 1 from step 10$' --serial

# Text that is not UTF-8 (a node column's %XX escapes undone, the file's
# name) is written as U+FFFD, markup and control characters escaped: XML
# parsers read every SVG tplanctl writes.
cat >"$tmp/utf.csv" <<'EOF'
id,lower,upper,size,node,offset
1,0,100,64,bad%FF%FE<&>",0
2,0,100,64,cut%E2%82,64
3,0,100,64,ok %E2%82%AC %F0%9F%99%82%01,128
4,0,100,64,%ED%A0%80%EF%BF%BF,192
EOF
u=$(printf 'utf\xc3\x28.csv')
cp "$tmp/utf.csv" "$tmp/$u"
expect utf8_svg 0 '' "$ctl" show "$tmp/$u" -o "$tmp/utf.svg"
if check_svg utf8_svg_is_xml "$tmp/utf.svg" 4; then
	r=$'\xef\xbf\xbd'
	has_fact utf8_replaced "^text bad$r$r<&>\"\$"
	has_fact utf8_cut_replaced "^text cut$r$r\$"
	has_fact utf8_kept '^text ok '$'\xe2\x82\xac \xf0\x9f\x99\x82''$'
	has_fact utf8_no_surrogate_no_ffff "^text $r$r$r$r$r$r\$"
	has_fact utf8_file_name "^text .*/utf$r\\(\\.csv: 4 tensors"
fi

# --steps A:B: only those steps, in both views; a range with none of the
# plan's steps, or A not below B, is refused.
expect steps_ascii_first 0 '^   2 \|' "$ctl" show "$tmp/r50.csv" --steps 2:6
out=$("$ctl" show "$tmp/r50.csv" --steps 2:6 2>&1)
if grep -q '^   6 |' <<<"$out" || grep -q '^   1 |' <<<"$out"; then
	bad steps_ascii_range "a step outside 2:6 drawn"
else
	ok steps_ascii_range
fi
expect steps_svg 0 '' "$ctl" show "$tmp/r50.csv" --steps 10:40 -o "$tmp/zoom.svg"
zoomed=$(grep -c '<rect' "$tmp/zoom.svg")
"$ctl" show "$tmp/r50.csv" -o "$tmp/whole.svg" >/dev/null 2>&1
whole=$(grep -c '<rect' "$tmp/whole.svg")
if [ "$zoomed" -gt 2 ] && [ "$zoomed" -lt "$whole" ]; then ok steps_svg_fewer
else bad steps_svg_fewer "$zoomed rectangles of $whole"; fi
# a rectangle for each tensor with bytes alive at one of the steps 10-39
meets=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["size"] > 0 && $c["lower"] < 40 && $c["upper"] > 10 { n++ }
	END { print n + 0 }' "$tmp/r50.csv")
if check_svg steps_svg_is_xml "$tmp/zoom.svg" "$meets"; then
	has_fact steps_svg_axis '^text 10$'
	# the busiest step (14) is drawn; outside the range it is not
	has_fact steps_busy_marked '^busy busiest step 14: 9633792 bytes \(9.2 MiB\) live$'
fi
"$ctl" show "$tmp/r50.csv" --steps 20:40 -o "$tmp/zoom2.svg" >/dev/null 2>&1
svg_facts "$tmp/zoom2.svg" >"$tmp/facts" 2>&1
if grep -q '^busy ' "$tmp/facts"; then bad steps_busy_outside "marked"
else ok steps_busy_outside; fi
expect steps_busy_outside_named 0 '^busiest step 14 \(9633792 bytes live\), outside the steps drawn$' \
	"$ctl" show "$tmp/r50.csv" --steps 20:40
expect steps_open_end 0 '^ *170 \|' "$ctl" show "$tmp/r50.csv" --steps 170:
expect steps_outside 2 "steps 400: holds none of the plan's steps \(0 to " \
	"$ctl" show "$tmp/r50.csv" --steps 400:
expect steps_backwards 2 "invalid steps \(A:B, A below B\) '5:3'" \
	"$ctl" show "$tmp/r50.csv" --steps 5:3

# Nothing runs past the canvas's right edge: the legend wraps (a spill
# plan's picture has its longest legend), a long title is squeezed.
long=$tmp/a-plan-file-with-a-name-long-enough-to-pass-the-right-edge-of-the-picture-on-its-own.csv
cp "$tmp/pieces.csv" "$long"
expect edge_svg 0 '' "$ctl" show "$long" -o "$tmp/edge.svg"
if check_svg edge_svg_is_xml "$tmp/edge.svg" 4; then
	has_fact edge_nothing_outside '^overflow 0$'
fi
for f in r50 large; do
	svg_facts "$tmp/$f.svg" >"$tmp/facts" 2>&1
	has_fact "edge_nothing_outside_$f" '^overflow 0$'
done
renders_inside browser_nothing_outside "$tmp/edge.svg"
renders_labels browser_labels_drawn "$tmp/zoom.svg"
renders_inside browser_nothing_outside_large "$tmp/large.svg"

# --width N: the picture's plot is 12 pixels a column (80: 960 of 1060),
# the narrowest (24) with nothing outside either.
for w in 24 200; do
	expect "width_${w}_svg" 0 '' "$ctl" show "$tmp/r50.csv" --width $w -o "$tmp/w$w.svg"
	want=$((80 + 12 * w + 20))
	if grep -q "^<svg [^>]* width=\"$want\" " "$tmp/w$w.svg"; then
		ok "width_${w}_honoured"
	else
		bad "width_${w}_honoured" "$(grep -m 1 '^<svg ' "$tmp/w$w.svg")"
	fi
	svg_facts "$tmp/w$w.svg" >"$tmp/facts" 2>&1
	has_fact "width_${w}_nothing_outside" '^overflow 0$'
done

# Above the bound: a plan whose peak (27) is above its bound (20) marks the
# tensor at the peak and the one whose top is above the bound under it.
cat >"$tmp/above.csv" <<'EOF'
id,lower,upper,size,offset
A,0,2,10,0
B,1,3,10,10
C,2,4,5,20
D,3,4,2,25
EOF
expect above_ascii 0 '^  2  C: 5 bytes, steps \[2, 4\), offset 20 \[above\]$' \
	"$ctl" show "$tmp/above.csv"
expect above_ascii_key 0 '^\[above\]: above the live-bytes bound' "$ctl" show "$tmp/above.csv"
expect above_ascii_peak 0 '^  3  D: 2 bytes, .* \[peak\]$' "$ctl" show "$tmp/above.csv"
expect above_svg 0 '' "$ctl" show "$tmp/above.csv" -o "$tmp/above.svg"
if grep -q '<rect class="a0" [^>]*><title>C' "$tmp/above.svg"; then ok above_svg_marked
else bad above_svg_marked "$(grep -m 2 '<title>C' "$tmp/above.svg")"; fi
if check_svg above_svg_is_xml "$tmp/above.svg" 4; then
	has_fact above_svg_key '^text above the live-bytes bound$'
fi
if "$ctl" show "$tmp/r50.csv" | grep -q '^\[above\]'; then
	bad above_none_at_bound "a plan at its bound has tensors above it"
else ok above_none_at_bound; fi

# Quoted fields (RFC 4180): a quoted id and node column keep their commas
# and quotes; the node column after a quoted field is still found.
cat >"$tmp/quoted.csv" <<'EOF'
id,lower,upper,size,node,offset
"a,b",0,100,1000,"conv, ""1""",0
c,0,100,1000,Relu,1000
EOF
expect quoted_svg 0 '' "$ctl" show "$tmp/quoted.csv" -o "$tmp/quoted.svg"
if check_svg quoted_svg_is_xml "$tmp/quoted.svg" 2; then
	has_fact quoted_node_label '^text conv, "1"$'
	has_fact quoted_id_title '^title a,b \(conv, "1"\): 1000 bytes'
	has_fact quoted_next_label '^text Relu$'
fi

# Errors: exit code 2 and a reason.
expect no_offset_column 2 'no offset column: not a plan' "$ctl" show "$real/resnet50_b1.csv"
expect missing_file 2 'No such file' "$ctl" show "$tmp/none.csv"
printf 'id,lower,upper,size,offset\n1,2,1,8,0\n' >"$tmp/bad.csv"
expect bad_table 2 'bad.csv:2:' "$ctl" show "$tmp/bad.csv"
printf 'id,lower,upper,size,tier,offset\n1,0,1,8,7,0\n' >"$tmp/tier7.csv"
expect tier_beyond_4 2 'tier 7, beyond the 4 tiers' "$ctl" show "$tmp/tier7.csv"
printf 'id,lower,upper,size,offset\n1,0,1,8,18446744073709551615\n' >"$tmp/top.csv"
# what verify says of it: show refuses what verify refuses
expect offset_overflow 1 'invalid plan: tensor ends beyond the capacity: tensor id 1 ' \
	"$ctl" show "$tmp/top.csv"
expect bad_width 2 "invalid width \(24 to 1000\) '10'" "$ctl" show "$tmp/small.csv" --width 10
expect no_file 2 '^usage: tplanctl show' "$ctl" show
expect unwritable 2 'No such file' "$ctl" show "$tmp/small.csv" -o "$tmp/no/dir.svg"
expect plan_svg_unwritable 2 'No such file' "$ctl" plan "$tmp/small.csv" --svg "$tmp/no/dir.svg"
expect svg_not_for_verify 2 "unknown option '--svg'" "$ctl" verify "$tmp/small.csv" --svg x

suite_end
