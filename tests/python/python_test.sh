#!/bin/bash
# python_test.sh BUILD_DIR DATA_DIR - the Python binding (userspace/python)
# on the host, with Debian's /usr/bin/python3 (and python3-numpy, for numpy's
# integers; without it that case is skipped, which counts as a failure): the
# unittest cases of tests/python/test_binding.py, one "ok"/"FAIL" line each, and
# README's Python example (tests/python/readme_example.py, the same text).
# Last line: "N passed, N failed".
set -u
SUITE=python
. "$(dirname "$0")/../common/suite.sh"
build=$(cd "$1" && pwd)
data=$(cd "$2" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
python=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT


export PYTHONPATH=$root/userspace/python
export TPLAN_LIBRARY=$build/libtplan.so.0 TPLAN_BUILD=$build TPLAN_DATA=$data
export PYTHONDONTWRITEBYTECODE=1

# One line per test; the summary is counted here from those lines.
"$python" - "$here" >"$tmp/unit" 2>&1 <<'PY'
import sys
import unittest

class Lines(unittest.TestResult):
    def name(self, test):
        return test.id().split(".", 1)[1]

    def addSuccess(self, test):
        print("ok   python." + self.name(test), flush=True)

    def report(self, test, err):
        text = self._exc_info_to_string(err, test).strip().splitlines()
        print("FAIL python.%s: %s" % (self.name(test), " | ".join(text[-6:])),
              flush=True)

    def addFailure(self, test, err):
        self.report(test, err)

    def addError(self, test, err):
        self.report(test, err)

    def addSubTest(self, test, sub, err):
        if err is not None:
            self.report(sub, err)

    def addSkip(self, test, reason):
        print("FAIL python.%s: skipped: %s" % (self.name(test), reason))

suite = unittest.TestLoader().discover(sys.argv[1], pattern="test_binding.py",
                                       top_level_dir=sys.argv[1])
suite.run(Lines())
PY
rc=$?
cat "$tmp/unit"
pass=$((pass + $(grep -c '^ok ' "$tmp/unit")))
fail=$((fail + $(grep -c '^FAIL ' "$tmp/unit")))
if [ $rc -ne 0 ] || ! grep -q '^ok ' "$tmp/unit"; then
	bad unittest "the runner exited $rc"
fi

# README's example is readme_example.py, line for line (indented by four).
example=$here/readme_example.py
sed -n '/^## Python/,/^## /p' "$root/README.md" |
	sed -n '/^    import tplan$/,/^[^ ]/p' | grep -E '^(    |$)' |
	sed -e 's/^    //' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$tmp/readme.py"
if [ -s "$tmp/readme.py" ] && cmp -s "$tmp/readme.py" "$example"; then
	ok readme_example_is_readme
else
	bad readme_example_is_readme "README's Python example differs from $example: $(diff "$tmp/readme.py" "$example" | head -c 400)"
fi
# ... and runs as README says, next to a table, giving tplanctl's plan.
mkdir "$tmp/run"
cp "$data/real/resnet50_b1.csv" "$tmp/run/"
if (cd "$tmp/run" && "$python" "$example") >"$tmp/out" 2>&1 &&
   [ "$(head -n 1 "$tmp/out")" = "9633792 9633792" ] &&
   "$build/tplanctl" plan "$tmp/run/resnet50_b1.csv" -o "$tmp/ctl.csv" >/dev/null &&
   cmp -s "$tmp/run/plan.csv" "$tmp/ctl.csv"; then
	ok readme_example_runs
else
	bad readme_example_runs "$(head -c 400 "$tmp/out")"
fi

suite_end
