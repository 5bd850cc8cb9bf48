# SPDX-License-Identifier: MIT
"""Host tests of the Python binding (userspace/python/tplan), run by
tests/python/python_test.sh with Debian's /usr/bin/python3.

Environment: TPLAN_BUILD (the build directory: tplanctl, libtplan.so) and
TPLAN_DATA (the bench tables, tests/data), both set by python_test.sh.
"""
import ctypes
import errno
import io
import os
import re
import subprocess
import tempfile
import unittest

import tplan
from tplan import _lib

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("TPLAN_BUILD", os.path.join(ROOT, "build"))
DATA = os.environ.get("TPLAN_DATA", os.path.join(ROOT, "tests", "data"))
REAL = os.path.join(DATA, "real")
RESNET50 = os.path.join(REAL, "resnet50_b1.csv")
RESNET50_BOUND = 9633792
CTL = os.path.join(BUILD, "tplanctl")


def tplanctl(*args):
    """Runs build/tplanctl; returns (exit code, stdout + stderr)."""
    p = subprocess.run([CTL] + [str(a) for a in args], capture_output=True,
                       text=True)
    return p.returncode, p.stdout + p.stderr


class Tmp(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp, name)

    def offline_plan(self, *args):
        """tplanctl plan ARGS -o FILE: the plan file's text."""
        out = self.path("ctl.csv")
        rc, text = tplanctl("plan", *args, "-o", out)
        self.assertEqual(rc, 0, text)
        with open(out) as f:
            return f.read()


class TestRows(Tmp):
    def test_tuples(self):
        t = tplan.table([(0, 0, 2, 100), (1, 1, 3, 200), (2, 2, 4, 100)])
        self.assertEqual(len(t), 3)
        self.assertEqual(t.ids(), [0, 1, 2])
        r = t.plan()
        self.assertEqual((r.peak, r.lower_bound), (300, 300))
        self.assertEqual(set(r.offsets), {0, 1, 2})
        self.assertEqual(t.rows()[1]["offset"], r.offsets[1])
        t.validate()

    def test_names(self):
        t = tplan.table([("in", 0, 2, 1024), ("mid", 1, 3, 4096),
                         ("out", 2, 4, 1024)])
        r = t.plan(strategy="greedy-size")
        self.assertEqual(sorted(r.offsets), ["in", "mid", "out"])
        self.assertEqual(r.peak, 5120)
        self.assertEqual(t.to_csv().splitlines()[0],
                         "id,lower,upper,size,offset")

    def test_pins_hints_gaps(self):
        # MiniMalloc's columns: b lives in a's gap, c in its window's spare
        # bytes; d is pinned, e hinted
        t = tplan.table([
            {"id": "a", "lower": 0, "upper": 10, "size": 8,
             "gaps": [(2, 5), (6, 9, 0, 4)]},
            {"id": "b", "lower": 2, "upper": 5, "size": 8},
            {"id": "c", "lower": 6, "upper": 9, "size": 4},
            {"id": "d", "lower": 0, "upper": 10, "size": 8, "offset": 8},
            {"id": "e", "lower": 0, "upper": 10, "size": 8, "hint": 32},
        ])
        r = t.plan(strategy="greedy-size")
        self.assertEqual(r.offsets["b"], 0)
        self.assertEqual(r.offsets["c"], 4)
        self.assertEqual(r.offsets["d"], 8)
        self.assertEqual(r.offsets["e"], 32)
        t.validate()
        self.assertEqual(t.to_csv().splitlines()[1], "a,0,10,8,,2-5 6-9@0:4,0")
        with self.assertRaises(tplan.Error) as cm:
            tplan.table([{"id": 1, "lower": 0, "upper": 4, "size": 8,
                          "gaps": "1-2-3"}])
        self.assertIn("malformed gap '1-2-3'", str(cm.exception))

    def test_dicts_optional_columns(self):
        rows = [
            {"id": 1, "lower": 0, "upper": 4, "size": 64, "alignment": 64,
             "priority": 5, "tiers": [0, 1]},
            {"id": 2, "lower": 1, "upper": 3, "size": 32, "alias_of": 1,
             "alias_offset": 32},
            {"id": 3, "lower": 0, "upper": 4, "size": 16, "share_key": 9,
             "tiers": "1"},
        ]
        t = tplan.table(rows)
        self.assertEqual(
            t.to_csv().splitlines()[0],
            "id,lower,upper,size,alignment,alias_of,alias_offset,priority,"
            "tiers,share_key,offset")
        got = {r["id"]: r for r in t.rows()}
        self.assertEqual(got[1]["tiers"], "01")
        self.assertEqual(got[2]["alias_of"], 1)
        self.assertEqual(got[2]["alias_offset"], 32)
        self.assertEqual(got[3]["share_key"], 9)
        self.assertEqual(got[1]["priority"], 5)
        self.assertEqual(got[3]["priority"], 1)
        r = t.plan(aliases=True, tiers=[1024, 0])
        self.assertEqual(r.offsets[2], r.offsets[1] + 32)
        self.assertEqual(r.tiers[3], 1)
        self.assertEqual(len(r.tier_peaks), 2)
        # a tuple gives the same columns by position
        t2 = tplan.table([(1, 0, 4, 64, 64, None, None, None, 5, "01"),
                          (2, 1, 3, 32, None, 1, 32),
                          (3, 0, 4, 16, None, None, None, None, None, "1", 9)])
        self.assertEqual(t2.rows(), tplan.table(rows).rows())

    def test_models_column(self):
        t = tplan.table([{"id": 0, "lower": 0, "upper": 2, "size": 8,
                          "model": m} for m in (0, 1)])
        self.assertEqual(t.models, 2)
        r = t.plan(serial=True)
        self.assertEqual(set(r.offsets), {(0, 0), (1, 0)})
        self.assertEqual(r.peak, 8)
        self.assertEqual(r.apart, 16)
        self.assertEqual(r.saved, 8)
        self.assertEqual(t.plan(concurrent=True).peak, 16)

    def test_row_errors(self):
        with self.assertRaises(tplan.Error) as cm:
            tplan.table([(1, 0, 2, 8), (2, 5, 3, 8)])
        self.assertEqual(cm.exception.errno, errno.EINVAL)
        self.assertIn("row 1: lifetime is empty", str(cm.exception))
        with self.assertRaises(tplan.Error) as cm:
            tplan.table([(1, 0, 2, 8), (1, 1, 3, 8)])
        self.assertIn("row 1: duplicate id 1 (first in row 0)",
                      str(cm.exception))
        with self.assertRaises(tplan.Error) as cm:
            tplan.table([("a,b", 0, 2, 8)])
        self.assertEqual(cm.exception.errno, errno.EINVAL)
        with self.assertRaises(tplan.Error) as cm:
            tplan.table([{"id": 1, "lower": 0, "upper": 2, "size": 8,
                          "colour": 3}])
        self.assertIn("unknown column 'colour'", str(cm.exception))
        with self.assertRaises(tplan.Error) as cm:
            tplan.table([(1, 0, 2)])
        self.assertIn("row 0: 3 values", str(cm.exception))
        with self.assertRaises(tplan.Error) as cm:
            tplan.table([(1, 0, 2, -8)])
        self.assertIn("row 0:", str(cm.exception))


class TestCsv(Tmp):
    def test_load_save_round_trip(self):
        t = tplan.load(RESNET50)
        self.assertEqual(len(t), 176)
        t.save(self.path("copy.csv"))
        again = tplan.load(self.path("copy.csv"))
        self.assertEqual(again.rows(), t.rows())
        buf = io.StringIO()
        t.write(buf)
        self.assertEqual(tplan.read_csv(buf.getvalue()).rows(), t.rows())
        with open(self.path("copy.csv")) as f:
            self.assertEqual(f.read(), buf.getvalue())

    def test_bad_line_names_line(self):
        p = self.path("bad.csv")
        with open(p, "w") as f:
            f.write("id,lower,upper,size\n1,0,2,8\n2,0,2,x8\n")
        with self.assertRaises(tplan.Error) as cm:
            tplan.load(p)
        e = cm.exception
        self.assertIsInstance(e, OSError)
        self.assertEqual(e.errno, errno.EINVAL)
        self.assertEqual(e.strerror,
                         p + ":3:7: column 'size': not a number: 'x8'")
        self.assertIn(p + ":3:", str(e))

    def test_read_csv_text(self):
        with self.assertRaises(tplan.Error) as cm:
            tplan.read_csv("id,lower,upper,size\n1,0,2,8\n2,5,3,8\n", "t.csv")
        self.assertTrue(cm.exception.strerror.startswith("t.csv:3:"))

    def test_missing_file(self):
        with self.assertRaises(tplan.Error) as cm:
            tplan.load(self.path("none.csv"))
        self.assertEqual(cm.exception.errno, errno.ENOENT)
        self.assertIn("none.csv", str(cm.exception))

    def test_save_error(self):
        t = tplan.table([(1, 0, 2, 8)])
        with self.assertRaises(tplan.Error) as cm:
            t.save(self.path("no/such/dir.csv"))
        self.assertEqual(cm.exception.errno, errno.ENOENT)


class TestPlan(Tmp):
    def test_each_strategy_as_tplanctl(self):
        for s in tplan.STRATEGIES:
            with self.subTest(strategy=s):
                t = tplan.load(RESNET50)
                r = t.plan(strategy=s)
                self.assertEqual(r.strategy, s)
                self.assertEqual(r.lower_bound, RESNET50_BOUND)
                self.assertGreaterEqual(r.peak, r.lower_bound)
                self.assertGreater(r.naive_total, 0)
                t.validate()
                t.save(self.path("py.csv"))
                with open(self.path("py.csv")) as f:
                    mine = f.read()
                self.assertEqual(mine, self.offline_plan(RESNET50,
                                                         "--strategy", s))
                off = {int(row.split(",")[0]): int(row.split(",")[-1])
                       for row in mine.splitlines()[1:]}
                self.assertEqual(off, r.offsets)

    def test_auto_reaches_lower_bound(self):
        r = tplan.plan(RESNET50)
        self.assertEqual(r.peak, RESNET50_BOUND)
        self.assertEqual(r.lower_bound, RESNET50_BOUND)
        self.assertEqual(r.search, "fit")
        self.assertEqual(r.ratio, 1.0)
        self.assertGreater(r.work, 0)
        rc, text = tplanctl("plan", RESNET50, "--json")
        self.assertIn('"work":%d,' % r.work, text)

    def test_options_as_tplanctl(self):
        sq = os.path.join(REAL, "squeezenet1_1_b1.csv")
        shuffle = os.path.join(REAL, "shufflenet_v2_x1_0_b1.csv")
        r18 = os.path.join(REAL, "resnet18_b1.csv")
        cases = [
            ((RESNET50,), {"small_below": "64K"}, ("--small-below", "64K")),
            ((RESNET50,), {"capacity": RESNET50_BOUND},
             ("--capacity", RESNET50_BOUND)),
            ((sq,), {"aliases": True, "budget": "2M"},
             ("--aliases", "--budget", "2M")),
            ((shuffle,), {"tiers": ["256K", 4 << 20]}, ("--tiers", "256K,4M")),
            ((RESNET50,), {"strategy": "search", "budget": 1000000,
                           "time_limit": 200},
             ("--strategy", "search", "--budget", "1000000",
              "--time-limit", "200")),
            ((r18, sq), {"serial": True, "budget": "2M"},
             ("--serial", "--budget", "2M")),
            ((r18, sq), {"concurrent": True, "aliases": True},
             ("--concurrent", "--aliases")),
        ]
        for files, kw, args in cases:
            with self.subTest(kw=kw):
                r = tplan.plan(list(files) if len(files) > 1 else files[0],
                               **kw)
                r.table.save(self.path("py.csv"))
                with open(self.path("py.csv")) as f:
                    self.assertEqual(f.read(),
                                     self.offline_plan(*files, *args))
        r = tplan.plan(RESNET50, small_below="64K")
        self.assertEqual(r.peak, 9654176)
        r = tplan.plan(sq, aliases=True)
        self.assertEqual(r.lower_bound, 3928576)
        r = tplan.plan([r18, sq], serial=True)
        rc, text = tplanctl("plan", r18, sq, "--serial")
        self.assertIn("apart        %d bytes" % r.apart, text)
        self.assertEqual(r.models, 2)

    def test_importer_table_plans_directly(self):
        """tplan.plan() takes an importer's table (what from_torch() and
        from_onnx() return) as tplan-import would write it."""
        from tplan.importer import Row, Table as Imported
        t = Imported()
        t.append(Row("a", 0, 2, 16))
        t.append(Row("b", 1, 3, 16, alias_of="a"))
        t.append(Row("c", 0, 3, 8, uses=(0, 2)))
        r = tplan.plan(t, aliases=True)
        self.assertEqual((r.peak, r.lower_bound), (24, 24))
        self.assertEqual(sorted(r.offsets), ["a", "b", "c"])
        self.assertEqual(tplan.plan(t).peak, 40)
        self.assertEqual(tplan.plan([t, t]).models, 2)

    def test_capacity_too_small(self):
        with self.assertRaises(tplan.Error) as cm:
            tplan.plan(RESNET50, capacity=RESNET50_BOUND - 1)
        e = cm.exception
        self.assertEqual(e.errno, errno.ENOSPC)
        self.assertIn("does not fit in 9633791 bytes: peak 9633792", str(e))
        self.assertEqual(e.result["peak"], RESNET50_BOUND)

    def test_budget_exhausted(self):
        with self.assertRaises(tplan.Error) as cm:
            tplan.plan(RESNET50, strategy="greedy-size", budget=10)
        self.assertEqual(cm.exception.errno, errno.ETIMEDOUT)
        self.assertIn("work budget of 10 units exhausted", str(cm.exception))

    def test_bad_options(self):
        for kw in ({"strategy": "best"}, {"capacity": "1T"},
                   {"tiers": [1024]}, {"tiers": [1024, 0], "capacity": 5},
                   {"serial": True, "concurrent": True},
                   {"time_limit": -1}):
            with self.subTest(kw=kw):
                with self.assertRaises(tplan.Error) as cm:
                    tplan.plan(RESNET50, **kw)
                self.assertEqual(cm.exception.errno, errno.EINVAL)

    def test_invalid_table_names_defect(self):
        t = tplan.table([(1, 0, 2, 8), (2, 1, 3, 8, None, 7)])
        with self.assertRaises(tplan.Error) as cm:
            t.plan(aliases=True)
        e = cm.exception
        self.assertEqual(e.errno, errno.EINVAL)
        self.assertEqual(e.defect, "alias_of names no tensor")
        self.assertEqual(e.tensors, (2,))
        rc, text = tplanctl("plan", "--aliases", self.write_csv(
            "id,lower,upper,size,alias_of\n1,0,2,8,\n2,1,3,8,7\n"))
        self.assertIn("%s: tensor id 2" % e.defect, text)
        t = tplan.table([{"id": 1, "lower": 0, "upper": 2, "size": 8,
                          "tiers": "3"}])
        with self.assertRaises(tplan.Error) as cm:
            t.plan()
        self.assertEqual(cm.exception.tensors, (1,))

    def write_csv(self, text):
        p = self.path("t.csv")
        with open(p, "w") as f:
            f.write(text)
        return p

    def test_validate_names_both_tensors(self):
        t = tplan.table([{"id": "a", "lower": 0, "upper": 2, "size": 8,
                          "offset": 0},
                         {"id": "b", "lower": 1, "upper": 3, "size": 8,
                          "offset": 4}])
        with self.assertRaises(tplan.Error) as cm:
            t.validate()
        e = cm.exception
        self.assertEqual(e.errno, errno.EINVAL)
        self.assertEqual(set(e.tensors), {"a", "b"})
        self.assertEqual(e.defect, tplan.defect_name(8))
        self.assertIn("invalid plan: " + e.defect, str(e))
        # the offsets given are pins, as in MiniMalloc: they conflict
        with self.assertRaises(tplan.Error) as cm:
            t.plan()
        self.assertEqual(set(cm.exception.tensors), {"a", "b"})
        self.assertEqual(cm.exception.defect,
                         tplan.defect_name(tplan._lib.TPLAN_DEFECT_PIN_OVERLAP))
        t = tplan.table([{"id": "a", "lower": 0, "upper": 2, "size": 8},
                         {"id": "b", "lower": 1, "upper": 3, "size": 8,
                          "offset": -1}])
        t.plan()
        t.validate()
        with self.assertRaises(tplan.Error) as cm:
            t.validate(capacity=15)
        self.assertEqual(cm.exception.defect, tplan.defect_name(7))

    def test_closed_table(self):
        t = tplan.table([(1, 0, 2, 8)])
        t.close()
        with self.assertRaises(tplan.Error) as cm:
            t.plan()
        self.assertEqual(cm.exception.errno, errno.EBADF)


class TestSpill(Tmp):
    TABLE = os.path.join(ROOT, "tests", "bench", "training",
                         "mobilenet_v2_b1.csv")

    def test_pieces_as_tplanctl(self):
        """plan_spill() gives tplanctl plan --spill's pieces, row for row,
        for each spill strategy."""
        for strategy in tplan.SPILL_STRATEGIES:
            with self.subTest(strategy=strategy):
                r = tplan.plan_spill(self.TABLE, 20000000, strategy)
                text = self.offline_plan(self.TABLE, "--spill",
                                         "--capacity", 20000000,
                                         "--spill-strategy", strategy)
                lines = text.splitlines()
                col = {c: k for k, c in enumerate(lines[0].split(","))}
                want = []
                for line in lines[1:]:
                    f = line.split(",")
                    want.append((f[col["id"]], int(f[col["piece"]]),
                                 int(f[col["lower"]]), int(f[col["upper"]]),
                                 int(f[col["offset"]]),
                                 int(f[col["host_offset"]] or 0)))
                got = [(p.id, p.piece, p.lower, p.upper, p.offset,
                        p.host_offset) for p in r.pieces]
                self.assertEqual(got, want)
                self.assertLessEqual(r.peak, 20000000)
                self.assertGreater(r.moved, 0)

    def test_errors(self):
        with self.assertRaises(tplan.Error) as cm:
            tplan.plan_spill(self.TABLE, 1000)
        self.assertEqual(cm.exception.errno, errno.ENOSPC)
        self.assertIn("does not fit in 1000 bytes: step", str(cm.exception))
        for kw in ({"capacity": 0}, {"capacity": 10 ** 8, "strategy": "x"}):
            with self.subTest(kw=kw):
                with self.assertRaises(tplan.Error) as cm:
                    tplan.plan_spill(self.TABLE, **kw)
                self.assertEqual(cm.exception.errno, errno.EINVAL)


class TestDevice(Tmp):
    def test_missing_device(self):
        with self.assertRaises(tplan.Error) as cm:
            tplan.Device(self.path("tplan"))
        self.assertEqual(cm.exception.errno, errno.ENOENT)
        self.assertIn("is the tplan module loaded?", str(cm.exception))

    def test_not_a_tplan_device(self):
        with tplan.Device("/dev/null") as dev:
            with self.assertRaises(tplan.Error) as cm:
                dev.info()
            self.assertEqual(cm.exception.errno, errno.ENOTTY)
            with self.assertRaises(tplan.Error) as cm:
                dev.submit(tplan.table([(1, 0, 2, 8)]))
            self.assertEqual(cm.exception.errno, errno.ENOTTY)
        with self.assertRaises(tplan.Error) as cm:
            dev.info()
        self.assertEqual(cm.exception.errno, errno.EBADF)


class TestLayout(Tmp):
    """Every struct, field and constant the binding declares, against the C
    headers: sizes, offsets and alignments printed by a C program."""

    def c_program(self):
        lines = ["#include <stddef.h>", "#include <stdio.h>",
                 '#include "libtplan.h"', "int main(void)", "{"]
        for cls in _lib.STRUCTS:
            s = "struct " + cls.__name__
            lines.append('printf("%s %%zu %%zu\\n", sizeof(%s), _Alignof(%s));'
                         % (cls.__name__, s, s))
            for name, _ in cls._fields_:
                lines.append('printf("%s.%s %%zu %%zu\\n", offsetof(%s, %s), '
                             'sizeof(((%s *)0)->%s));'
                             % (cls.__name__, name, s, name, s, name))
        for name in _lib.CONSTANTS:
            lines.append('printf("%s %%llu\\n", (unsigned long long)%s);'
                         % (name, name))
        lines.append('printf("TPLAN_DEVICE_PATH %s\\n", TPLAN_DEVICE_PATH);')
        lines += ["return 0;", "}"]
        return "\n".join(lines) + "\n"

    def python_view(self):
        out = []
        for cls in _lib.STRUCTS:
            out.append("%s %d %d" % (cls.__name__, ctypes.sizeof(cls),
                                     ctypes.alignment(cls)))
            for name, _ in cls._fields_:
                f = getattr(cls, name)
                out.append("%s.%s %d %d" % (cls.__name__, name, f.offset,
                                            f.size))
        for name, value in _lib.CONSTANTS.items():
            out.append("%s %d" % (name, value))
        out.append("TPLAN_DEVICE_PATH " + _lib.TPLAN_DEVICE_PATH)
        return out

    def test_layout_matches_c(self):
        src = self.path("layout.c")
        exe = self.path("layout")
        with open(src, "w") as f:
            f.write(self.c_program())
        p = subprocess.run(
            ["gcc", "-std=gnu11", "-Wall", "-Werror",
             "-I" + os.path.join(ROOT, "userspace", "include"),
             "-I" + os.path.join(ROOT, "planner"),
             "-I" + os.path.join(ROOT, "uapi"), "-o", exe, src],
            capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        got = subprocess.run([exe], capture_output=True, text=True,
                             check=True).stdout.splitlines()
        self.assertEqual(self.python_view(), got)

    def test_struct_sizes_known(self):
        # what the ABI promises in uapi/linux/tplan.h, as a second anchor
        self.assertEqual(ctypes.sizeof(_lib.tplan_info), 312)

    def test_every_exported_function_declared(self):
        with open(os.path.join(ROOT, "userspace", "libtplan.map")) as f:
            text = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S)
        exported = set(re.findall(r"^\s*(tplan_\w+);", text, re.M))
        self.assertEqual(exported, set(_lib.PROTOTYPES))

    def test_library_found_in_build(self):
        lib = _lib.lib()
        self.assertTrue(os.path.exists(lib.tplan_path), lib.tplan_path)
        rc, text = tplanctl("--version")
        self.assertIn(tplan.version(), text)


if __name__ == "__main__":
    unittest.main()
