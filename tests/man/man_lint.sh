#!/bin/bash
# man_lint.sh DIR [TPLANCTL] - lint every man page in DIR (files named
# NAME.SECTION, in man(7) roff).  Each page must format without a single
# warning under groff (-ww: every warning), mandoc -T lint and man -l, and
# its .TH must name the page and its section.  A link page (one ".so
# manS/TARGET.S" line, the usual way for the other names of a family) must
# name a page of DIR, not another link, whose NAME lists the link's name,
# and format through it.  Every function libtplan exports
# (userspace/lib/libtplan.map) must have a section 3 page in DIR, its own or a
# link, whose SYNOPSIS shows the function's prototype as the public headers
# declare it, and every tplan_* section 3 page must be such a function, so
# that the pages cannot fall behind the API.  With TPLANCTL, tplanctl.1 must
# also show every command of `TPLANCTL --help` in its SYNOPSIS with every
# option that command's usage lists, and every option of the help in an
# OPTIONS entry, so that the page cannot fall behind the tool.
# Last line: "N passed, N failed".
set -u
SUITE=man
. "$(dirname "$0")/../common/suite.sh"
dir=${1:?usage: man_lint.sh DIR [TPLANCTL]}
ctl=${2:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
map=$root/userspace/lib/libtplan.map
headers="$root/userspace/lib/include/libtplan.h $root/planner/tplan_types.h"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT


# The first lines of a file, on one line, for a FAIL message.
excerpt() { head -n 5 "$1" | tr '\n' ' ' | head -c 400; }

# lint PAGE: formats cleanly everywhere; prints the reason and fails if not.
lint() {
	local page=$1 base name sect th th_name th_sect
	base=$(basename "$page")
	name=${base%.*}
	sect=${base##*.}
	th=$(grep -m 1 '^\.TH ' "$page")
	if [ -z "$th" ]; then
		echo "no .TH line"
		return 1
	fi
	# .TH NAME SECTION DATE SOURCE MANUAL; NAME in capitals, as man-pages(7) has it.
	read -r _ th_name th_sect _ <<<"$th"
	if [ "$th_name" != "$(echo "$name" | tr '[:lower:]' '[:upper:]')" ] ||
	   [ "$th_sect" != "$sect" ]; then
		echo "'$th' does not name $name($sect)"
		return 1
	fi
	if grep -qE '^\.(Dd|Dt|Nm|Sh) ' "$page"; then
		echo "mdoc macros in a man(7) page"
		return 1
	fi
	if ! groff -man -ww -z -Tutf8 "$page" >"$tmp/out" 2>&1 ||
	   [ -s "$tmp/out" ]; then
		echo "groff -man -ww: $(excerpt "$tmp/out")"
		return 1
	fi
	mandoc -T lint -W warning "$page" >"$tmp/out" 2>&1
	if [ -s "$tmp/out" ]; then
		echo "mandoc -T lint: $(excerpt "$tmp/out")"
		return 1
	fi
	if ! MANWIDTH=80 MANPAGER=cat PAGER=cat man --warnings -l "$page" \
		>"$tmp/man" 2>"$tmp/out" || [ -s "$tmp/out" ]; then
		echo "man -l: $(excerpt "$tmp/out")"
		return 1
	fi
	if ! grep -q '^NAME' "$tmp/man" || ! grep -q '^SYNOPSIS' "$tmp/man"; then
		echo "man -l shows no NAME or no SYNOPSIS section"
		return 1
	fi
	return 0
}

# The roff source as plain text: no font escapes, \- as -, one macro's
# arguments as the text they show.
plain() {
	sed -E -e 's/\\f(\[[^]]*\]|\(..|.)//g' -e 's/\\-/-/g' \
		-e 's/\\[&|^%]//g' -e 's/\\ / /g' -e 's/\\\(mu/x/g' \
		-e 's/^\.[A-Za-z]+ ?//' -e 's/"//g' "$1"
}

# has TEXT OPTION: whether OPTION appears in TEXT as a whole word.
has() {
	grep -qE -- "(^|[^A-Za-z0-9-])$2([^A-Za-z0-9-]|\$)" <<<"$1"
}

# The options (-o, --json) named in standard input, one a line.
options() {
	grep -oE -- '(^|[^A-Za-z0-9-])(--[a-z][a-z-]*|-[a-z])' |
		grep -oE -- '--?[a-z][a-z-]*' | sort -u
}

# help_covered PAGE TPLANCTL: the page covers every command and option of
# the tool's --help; prints what is missing and fails if anything is.
help_covered() {
	local page=$1 tool=$2 missing="" cmd opt block tags
	if ! "$tool" --help >"$tmp/help" 2>&1; then
		echo "'$tool --help' failed: $(excerpt "$tmp/help")"
		return 1
	fi
	# Each command's usage: its line under "commands:" and the option
	# lines that continue it (its description is indented further and
	# does not start with an option).
	awk '
		/^commands:/ { on = 1; next }
		on && /^[^ ]/ { on = 0 }
		on && /^  [a-z]/ { cmd = $1; print cmd "\t" $0; next }
		on && cmd != "" && /^ +[[-]/ { print cmd "\t" $0; next }
		on && /^ +[a-z]/ { cmd = "" }
	' "$tmp/help" >"$tmp/usage"
	if [ ! -s "$tmp/usage" ]; then
		echo "no commands found in '$tool --help'"
		return 1
	fi
	# The SYNOPSIS, and each "tplanctl CMD" form in it.
	awk '/^\.SH/ { on = ($0 ~ /SYNOPSIS/); next } on' "$page" >"$tmp/synopsis.roff"
	plain "$tmp/synopsis.roff" >"$tmp/synopsis"
	# The tags of the .TP entries: the line after each .TP.
	tags=$(awk 'tp { print; tp = 0 } /^\.TP/ { tp = 1 }' "$page" |
		plain /dev/stdin)
	for cmd in $(cut -f 1 "$tmp/usage" | uniq); do
		block=$(awk -v c="$cmd" '
			/^tplanctl( |$)/ { on = ($2 == c) }
			on' "$tmp/synopsis")
		if [ -z "$block" ]; then
			missing="$missing; command '$cmd' not in SYNOPSIS"
			continue
		fi
		awk -F '\t' -v c="$cmd" '$1 == c { print $2 }' "$tmp/usage" |
			options >"$tmp/opts"
		while read -r opt; do
			has "$block" "$opt" ||
				missing="$missing; '$cmd $opt' not in SYNOPSIS"
		done <"$tmp/opts"
	done
	# Every option the help names anywhere, notes included.
	options <"$tmp/help" >"$tmp/opts"
	while read -r opt; do
		has "$tags" "$opt" || missing="$missing; '$opt' has no OPTIONS entry"
	done <"$tmp/opts"
	if [ -n "$missing" ]; then
		echo "${missing#; }"
		return 1
	fi
	return 0
}

# is_link PAGE: whether PAGE is a link page: a .so request and no .TH.
is_link() {
	grep -q '^\.so ' "$1" && ! grep -q '^\.TH ' "$1"
}

# The lines of a page that are not comments or blank.
content() {
	grep -v -e '^\.\\"' -e '^[[:space:]]*$' "$1"
}

# The names a page's NAME section lists (the text before \-), one a line.
names_of() {
	awk '/^\.SH/ { on = ($2 == "NAME"); next } on { print; exit }' "$1" |
		sed -e 's/[[:space:]]*\\-.*//' -e 's/\\f.//g' | tr ',' '\n' |
		sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//'
}

# lint_link PAGE: one ".so manS/TARGET.S" naming a real page of DIR that
# lists PAGE's name, formatting cleanly through it; prints the reason and
# fails if not.
lint_link() {
	local page=$1 base name sect line target tbase
	base=$(basename "$page")
	name=${base%.*}
	sect=${base##*.}
	line=$(content "$page")
	if [ "$(wc -l <<<"$line")" -ne 1 ]; then
		echo "a link page holds one .so line and comments only"
		return 1
	fi
	if ! [[ $line =~ ^\.so\ man$sect/([^/[:space:]]+\.$sect)$ ]]; then
		echo "'$line' is not '.so man$sect/PAGE.$sect'"
		return 1
	fi
	tbase=${BASH_REMATCH[1]}
	target=$dir/$tbase
	if [ ! -f "$target" ]; then
		echo "links to $tbase, which is not in $dir"
		return 1
	fi
	if is_link "$target"; then
		echo "links to $tbase, itself a link"
		return 1
	fi
	if ! names_of "$target" | grep -qx -- "$name"; then
		echo "the NAME of $tbase does not list $name"
		return 1
	fi
	# .so paths are relative to the top of a man tree: make one.
	mkdir -p "$tmp/tree"
	ln -sfn "$(cd "$dir" && pwd)" "$tmp/tree/man$sect"
	if ! (cd "$tmp/tree" && groff -man -ww -z -Tutf8 "man$sect/$base") \
		>"$tmp/out" 2>&1 || [ -s "$tmp/out" ]; then
		echo "groff -man -ww: $(excerpt "$tmp/out")"
		return 1
	fi
	return 0
}

# The functions libtplan.so exports, from the global: part of its version
# script, one a line.
exported() {
	sed -e 's:/\*.*\*/::' "$map" |
		awk '/global:/ { on = 1; next } /local:/ { on = 0 } on' |
		grep -oE '^[[:space:]]*[A-Za-z_][A-Za-z0-9_]*;' | tr -d ' \t;' | sort
}

# prototype FN: FN's declaration in the public headers, on one line.
prototype() {
	# shellcheck disable=SC2086
	perl -0777 -ne '
		s{/\*.*?\*/}{}gs; s/^#.*$//mg;
		for (split /;/) {
			s/^.*[{}]//s; s/\s+/ /g; s/^ //;
			print "$_;\n" if /\b\Q'"$1"'\E\s*\(/;
		}' $headers
}

# api_covered FN: DIR has FN.3, its own page or a link, whose SYNOPSIS shows
# FN's prototype; prints the reason and fails if not.
api_covered() {
	local fn=$1 page=$dir/$1.3 proto shown
	if [ ! -f "$page" ]; then
		echo "no page $fn.3 in $dir (its own, or a .so link to its family's)"
		return 1
	fi
	if is_link "$page"; then
		page=$dir/$(content "$page" | sed -E 's:^\.so man3/::')
		[ -f "$page" ] || { echo "$fn.3 links to no page"; return 1; }
	fi
	proto=$(prototype "$fn")
	if [ -z "$proto" ] || [ "$(wc -l <<<"$proto")" -ne 1 ]; then
		echo "no single declaration of $fn in $headers"
		return 1
	fi
	shown=$(groff -man -Tascii -P-cbou -rLL=200n "$page" 2>/dev/null |
		awk '/^SYNOPSIS/ { on = 1; next } /^[A-Z]/ { on = 0 } on')
	# Compared without blanks: the page may break and indent the lines.
	if ! grep -qF -- "$(tr -d ' \t\n' <<<"$proto")" \
		<<<"$(tr -d ' \t\n' <<<"$shown")"; then
		echo "the SYNOPSIS of $(basename "$page") does not show '$proto'"
		return 1
	fi
	return 0
}

for tool in groff mandoc man; do
	if ! command -v "$tool" >/dev/null; then
		bad tools "$tool is not installed (make check-deps installs it)"
	fi
done
if [ "$fail" -ne 0 ]; then
	echo "$pass passed, $fail failed"
	exit 1
fi

pages=$(find "$dir" -maxdepth 1 -type f -name '*.[1-9]' 2>/dev/null | sort)
[ -n "$pages" ] || bad pages "no man pages (NAME.SECTION) in $dir"
for page in $pages; do
	base=$(basename "$page")
	if is_link "$page"; then
		if why=$(lint_link "$page"); then ok "$base"; else bad "$base" "$why"; fi
	elif why=$(lint "$page"); then
		ok "$base"
	else
		bad "$base" "$why"
	fi
done

if [ -d "$dir" ]; then
	if [ ! -f "$map" ]; then
		bad api "no version script $map"
	else
		for fn in $(exported); do
			if why=$(api_covered "$fn"); then
				ok "api.$fn"
			else
				bad "api.$fn" "$why"
			fi
		done
		for page in $(find "$dir" -maxdepth 1 -type f -name 'tplan_*.3' | sort); do
			fn=$(basename "$page" .3)
			exported | grep -qx "$fn" ||
				bad "$fn.3" "libtplan exports no $fn ($map)"
		done
	fi
fi

if [ -n "$ctl" ]; then
	if [ ! -f "$dir/tplanctl.1" ]; then
		bad tplanctl.1.help "no tplanctl.1 in $dir"
	elif [ ! -x "$ctl" ]; then
		bad tplanctl.1.help "$ctl is not an executable"
	elif why=$(help_covered "$dir/tplanctl.1" "$ctl"); then
		ok tplanctl.1.help
	else
		bad tplanctl.1.help "$why"
	fi
fi

suite_end
