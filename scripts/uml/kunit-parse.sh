#!/bin/bash
# Parse the KUnit (KTAP) results in a UML console log with the kernel tree's kunit.py.
#
#   scripts/uml/kunit-parse.sh KDIR LOG [JSON_DIR]
#
# Why not just `kunit.py parse LOG`: kunit.py reads only the FIRST top-level KTAP
# document in a log. The console log of a UML boot holds one empty document printed
# at boot by the built-in KUnit executor ("KTAP version 1" / "1..0", which kunit.py
# reports as "0 tests run!", exit 1) plus one document per insmod'ed test module.
# This script splits the log into top-level documents, drops the empty boot-time one
# and runs `kunit.py parse` on each. Note kunit.py chdir()s to the source tree, so it
# is always given absolute paths.
# Exit status: 0 if there was at least one document and every one passed, else 1.
set -uo pipefail
if [ $# -lt 2 ]; then
	echo "usage: $0 KDIR LOG [JSON_DIR]" >&2
	exit 2
fi
kdir=$1; log=$2; jsondir=${3:-}
src=$(readlink -f "$kdir/source" 2>/dev/null || echo "$kdir")
kunit=$src/tools/testing/kunit/kunit.py
[ -f "$kunit" ] || { echo "kunit-parse: $kunit not found" >&2; exit 2; }
[ -r "$log" ] || { echo "kunit-parse: cannot read $log" >&2; exit 2; }

tmp=$(mktemp -d /tmp/tplan-ktap.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
python3 - "$log" "$tmp" <<'PY' || exit 2
import re, sys
log, out = sys.argv[1], sys.argv[2]
pre = re.compile(r'^(\[ *[0-9]+\.[0-9]+\] ?)?')
docs, cur = [], None
for raw in open(log, errors='backslashreplace'):
    line = raw.rstrip('\r\n')
    body = line[pre.match(line).end():]
    if body == 'KTAP version 1' or body.startswith('TAP version '):
        cur = [line]
        docs.append(cur)
    elif cur is not None:
        cur.append(line)
n = 0
for d in docs:
    bodies = [x[pre.match(x).end():] for x in d[:3]]
    if '1..0' in bodies:
        continue  # empty run of the built-in executor at boot
    n += 1
    with open('%s/doc%03d.log' % (out, n), 'w') as f:
        f.write('\n'.join(d) + '\n')

PY
shopt -s nullglob
files=("$tmp"/doc*.log)
if [ ${#files[@]} -eq 0 ]; then
	echo "kunit-parse: no KTAP output with tests in $log" >&2
	exit 1
fi
rc=0
for f in "${files[@]}"; do
	args=()
	[ -n "$jsondir" ] && mkdir -p "$jsondir" && args=(--json="$(realpath "$jsondir")/$(basename "$f" .log).json")
	python3 "$kunit" parse "${args[@]}" "$f" || rc=1
done
exit $rc
