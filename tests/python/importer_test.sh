#!/bin/bash
# importer_test.sh BUILD DATA_DIR - the importers (tplan-import, tplan.importer)
# on models built by the tests: test_onnx_import.py, test_torch_import.py and
# test_torch_training.py, run with Debian's /usr/bin/python3 (python3-onnx,
# python3-torch, python3-torchvision) against BUILD/tplanctl.  One line per
# test, "ok importer.NAME" or "FAIL importer.NAME: reason"; last line "N
# passed, N failed".
set -u
build=$(cd "$1" && pwd)
data=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
python=${TPLAN_PYTHON:-/usr/bin/python3}

TPLAN_BUILD=$build TPLAN_DATA=$data PYTHONDONTWRITEBYTECODE=1 \
exec "$python" - "$here" test_onnx_import test_torch_import test_torch_training test_executor <<'PY'
import sys
import unittest

here, names = sys.argv[1], sys.argv[2:]
sys.path.insert(0, here)


class Result(unittest.TestResult):
    passed = 0

    def name(self, test):
        module = type(test).__module__.replace("test_", "").replace(
            "_import", "")
        method = getattr(test, "_testMethodName", str(test))
        return "importer.%s.%s" % (module, method.replace("test_", "", 1))

    def addSuccess(self, test):
        self.passed += 1
        print("ok   %s" % self.name(test), flush=True)

    def report(self, test, err):
        text = self._exc_info_to_string(err, test).strip().splitlines()
        print("FAIL %s: %s" % (self.name(test), text[-1]))
        for line in text:
            print("     | %s" % line)
        sys.stdout.flush()

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.report(test, err)

    def addError(self, test, err):
        super().addError(test, err)
        self.report(test, err)


result = Result()
failed_imports = 0
for name in names:
    try:
        suite = unittest.defaultTestLoader.loadTestsFromName(name)
    except Exception as e:
        print("FAIL importer.%s: cannot load: %s" % (name, e))
        failed_imports += 1
        continue
    suite.run(result)
failed = len(result.failures) + len(result.errors) + failed_imports
print("%d passed, %d failed" % (result.passed, failed))
sys.exit(1 if failed else 0)
PY
