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
        self.assertEqual(t.to_csv().splitlines()[1], "a,0,10,8,-1,2-5 6-9@0:4,0")
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

    def test_names_quoted(self):
        # names with commas, quotes and edge blanks: quoted, as CSV has it
        names = ["a,b", 'say "hi"', " c "]
        t = tplan.table([(n, 0, 2, 8, None, None if n == "a,b" else "a,b")
                         for n in names])
        self.assertEqual(t.ids(), names)
        self.assertEqual(tplan.read_csv(t.to_csv()).ids(), names)

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
            tplan.table([("a\nb", 0, 2, 8)])
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


class Index:
    """An integer as a library type would be: only __index__."""

    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value


try:
    import numpy
except ImportError:  # python3-numpy (make check installs it)
    numpy = None


class TestIntegers(Tmp):
    """Whatever operator.index() takes is an integer; bool and float are
    not."""

    def check_integers(self, i):
        t = tplan.table([(i(0), i(0), i(2), i(32)), ("x", i(1), i(3), i(16),
                                                      i(16))])
        self.assertEqual(t.rows()[1]["alignment"], 16)
        t = tplan.table([(i(0), i(0), i(2), i(32))])
        r = t.plan(strategy=i(1), capacity=i(64), budget=i(10 ** 6),
                   time_limit=i(1000), small_below=i(8))
        self.assertEqual((r.strategy, r.peak), (tplan.STRATEGIES[1], 32))
        r = t.plan(tiers=[i(16), i(0)])
        self.assertEqual(r.tier_peaks, [0, 32])
        t = tplan.table([{"id": i(1), "lower": i(0), "upper": i(10),
                          "size": i(8), "gaps": [(i(0), i(4))],
                          "tiers": [i(0), i(1)]}])
        self.assertEqual(t.rows()[0]["tiers"], "01")

    def test_index(self):
        self.check_integers(Index)

    @unittest.skipIf(numpy is None, "python3-numpy is not installed")
    def test_numpy(self):
        self.check_integers(numpy.int64)
        self.check_integers(numpy.uint32)
        r = tplan.table([(0, 0, 2, numpy.int64(32))]).plan()
        self.assertEqual(r.peak, 32)

    def test_bool_float_rejected(self):
        bad = [(True, "a bool"), (32.0, "not float")]
        if numpy is not None:
            bad += [(numpy.bool_(True), "a bool"),
                    (numpy.float64(32), "not float64"),
                    (numpy.float32(32), "not float32")]
        for value, why in bad:
            with self.subTest(value=value):
                with self.assertRaises(tplan.Error) as cm:
                    tplan.table([(0, 0, 2, value)])
                self.assertEqual(cm.exception.errno, errno.EINVAL)
                self.assertIn("row 0: invalid size %r: an integer, " % value,
                              str(cm.exception))
                self.assertIn(why, str(cm.exception))
                with self.assertRaises(tplan.Error) as cm:
                    tplan.plan([(0, 0, 2, 8)], capacity=value)
                self.assertIn("invalid capacity", str(cm.exception))
                self.assertIn(why, str(cm.exception))
        for row in ([(0.5, 0, 2, 8)], [(0, 0, 2, 8, None, None, 1.0)],
                    [{"id": 0, "lower": 0, "upper": 4, "size": 8,
                      "gaps": [(0, 1.5)]}]):
            with self.subTest(row=row):
                with self.assertRaises(tplan.Error) as cm:
                    tplan.table(row)
                self.assertIn("row 0: invalid", str(cm.exception))
        for kw in ({"strategy": 1.0}, {"strategy": True},
                   {"time_limit": True}, {"tiers": [16.0, 0]}):
            with self.subTest(kw=kw):
                with self.assertRaises(tplan.Error) as cm:
                    tplan.plan([(0, 0, 2, 8)], **kw)
                self.assertEqual(cm.exception.errno, errno.EINVAL)

    def test_table_of_rows(self):
        t = tplan.Table([(0, 0, 2, 100), (1, 1, 3, 200)])
        self.assertEqual((len(t), t.name), (2, "<rows>"))
        self.assertEqual(t.plan().peak, 300)
        t = tplan.Table([("a", 0, 2, 100)], name="mine")
        with self.assertRaises(tplan.Error) as cm:
            t.plan(capacity=10)
        self.assertIn("mine: does not fit in 10 bytes", str(cm.exception))
        with self.assertRaises(tplan.Error) as cm:
            tplan.Table([(1, 0, 2)])
        self.assertIn("row 0: 3 values", str(cm.exception))

    def test_version(self):
        with open(os.path.join(ROOT, "Makefile")) as f:
            version = re.search(r"^VERSION\s*:=\s*(\S+)", f.read(),
                                re.M).group(1)
        self.assertEqual(tplan.__version__, version)
        self.assertIn("__version__", tplan.__all__)


class TestColumns(Tmp):
    """Table.from_columns(): the table from_rows() makes of the same
    values, checked the same way."""

    def test_same_as_rows(self):
        lower, upper, size = [0, 1, 2, 5], [2, 3, 9, 6], [32, 16, 8, 4]
        rows = tplan.table(list(zip(range(4), lower, upper, size)))
        cols = tplan.Table.from_columns(lower, upper, size)
        self.assertEqual(cols.to_csv(), rows.to_csv())
        named = tplan.Table.from_columns(lower, upper, size,
                                         ids=["a", "b", 7, "d"],
                                         alignment=[1, 16, 0, 4])
        self.assertEqual(named.ids(), ["a", "b", "7", "d"])
        self.assertEqual(named.rows()[1]["alignment"], 16)
        r = cols.plan()
        self.assertEqual(list(r.offset_array), list(r.offsets.values()))
        self.assertEqual(list(r.tier_array), [0, 0, 0, 0])

    @unittest.skipIf(numpy is None, "python3-numpy is not installed")
    def test_numpy_columns(self):
        lower = numpy.arange(1000, dtype=numpy.int64)
        t = tplan.Table.from_columns(lower, lower + 3,
                                     numpy.full(1000, 64, numpy.uint32))
        r = t.plan()
        self.assertEqual((len(t), r.peak), (1000, 192))
        offsets = numpy.frombuffer(r.offset_array, dtype=numpy.uint64)
        self.assertEqual(list(offsets), list(r.offsets.values()))

    def test_bad_columns(self):
        cases = [
            (([0], [1, 2], [4]), {}, "upper has 2 entries, lower 1"),
            (([0], [1], [0.5]), {}, "invalid size 0.5"),
            (([0], [1], [True]), {}, "not a bool"),
            (([0], [1], [4]), {"ids": ["a\nb"]}, "row 1: not a name"),
            (([0], [1], [-4]), {}, "invalid size -4"),
            (([0, 1], [1, 1], [4, 4]), {}, "row 2 (id 1): "),
            (([0, 1], [1, 2], [4, 4]), {"ids": ["a", "a"]},
             "row 2: duplicate id 'a' (first in row 1)"),
        ]
        if numpy is not None:
            cases.append((([0], [1], numpy.array([True])), {}, "not a bool"))
            cases.append((([0], [1], numpy.array([-4])), {},
                          "invalid size -4"))
        for args, kw, msg in cases:
            with self.assertRaises(tplan.Error) as cm:
                tplan.Table.from_columns(*args, **kw)
            self.assertEqual(cm.exception.errno, errno.EINVAL)
            self.assertIn(msg, str(cm.exception))


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
        from tplan.importer import Row, Rows as Imported
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


class TestRecord(Tmp):
    """A plan records how it was made (its "# tplan:" line): read by load,
    set by plan(), written by save(), as tplanctl does."""

    SQUEEZENET = os.path.join(REAL, "squeezenet1_1_b1.csv")

    def test_plain_table_records_nothing(self):
        t = tplan.load(RESNET50)
        self.assertEqual(t.record, {"aliases": False, "mode": None,
                                    "tiers": None})
        t.plan()
        self.assertFalse(t.to_csv().startswith("#"))

    def test_load_tplanctl_plan(self):
        text = self.offline_plan(self.SQUEEZENET, "--aliases")
        self.assertTrue(text.startswith("# tplan: aliases\n"), text[:80])
        t = tplan.load(self.path("ctl.csv"))
        self.assertEqual(t.record["aliases"], True)
        self.assertEqual(t.to_csv(), text)

    def test_plan_sets_record(self):
        t = tplan.load(self.SQUEEZENET)
        t.plan(aliases=True)
        self.assertEqual(t.to_csv(),
                         self.offline_plan(self.SQUEEZENET, "--aliases"))
        t = tplan.table([{"id": "a", "lower": 0, "upper": 4, "size": 600},
                         {"id": "b", "lower": 0, "upper": 4, "size": 600}])
        t.plan(tiers=["1K", 0])
        self.assertEqual(t.record["tiers"], [1024, 0])
        self.assertTrue(t.to_csv().startswith("# tplan: tiers=1024,0\n"))
        back = tplan.read_csv(t.to_csv())
        self.assertEqual(back.record["tiers"], [1024, 0])

    def test_models_mode(self):
        a = tplan.table([(0, 0, 2, 8)])
        b = tplan.table([(0, 0, 2, 8)])
        m = tplan.merge([a, b])
        m.plan(serial=True)
        self.assertEqual(m.record["mode"], "serial")
        m.plan()
        self.assertEqual(m.record["mode"], "concurrent")

    def test_bad_record_line(self):
        with self.assertRaises(tplan.Error) as cm:
            tplan.read_csv("# tplan: frob\nid,lower,upper,size\n0,0,2,8\n")
        self.assertIn("<text>:1:10: '# tplan:' line: unknown word 'frob'",
                      str(cm.exception))

    def test_id_not_utf8(self):
        with self.assertRaises(tplan.Error) as cm:
            tplan.read_csv(b"id,lower,upper,size\na\xffb,0,2,8\n")
        self.assertIn("<text>:2:2: column 'id': not valid UTF-8",
                      str(cm.exception))


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


class TestShow(Tmp):
    """Result.show() and plan(..., svg=PATH): tplanctl show's picture."""

    ns = "{http://www.w3.org/2000/svg}"

    def facts(self, svg_text):
        """The SVG parsed: (rectangles with a title, texts, curve titles)."""
        import xml.etree.ElementTree as ET
        root = ET.fromstring(svg_text.encode())
        ns = self.ns
        rects = [r for r in root.iter(ns + "rect")
                 if r.find(ns + "title") is not None]
        texts = [t.text for t in root.iter(ns + "text")]
        curves = [p.find(ns + "title").text for p in root.iter(ns + "path")
                  if p.get("class") == "live"]
        return rects, texts, curves

    def test_show_returns_svg(self):
        t = tplan.table([("in", 0, 2, 1024), ("mid", 1, 3, 4096),
                         ("out", 2, 4, 1024)])
        r = t.plan()
        svg = r.show()
        self.assertTrue(svg.startswith("<?xml"), svg[:80])
        rects, texts, curves = self.facts(svg)
        self.assertEqual(len(rects), 3)
        self.assertIn("mid", texts)         # its name on its rectangle
        self.assertIn("live-bytes bound %d bytes (%.1f KiB)" %
                      (r.lower_bound, r.lower_bound / 1024), texts)
        self.assertEqual(curves, ["live bytes per step: at most %d bytes "
                                  "(%.1f KiB), first at step 1" %
                                  (r.lower_bound, r.lower_bound / 1024)])

    def test_plan_svg_path_as_tplanctl(self):
        path = self.path("r50.svg")
        r = tplan.plan(RESNET50, svg=path)
        self.assertEqual(r.peak, RESNET50_BOUND)
        with open(path) as f:
            mine = f.read()
        self.assertIn("resnet50_b1.csv: 176 tensors, peak 9633792 bytes",
                      mine)
        rc, text = tplanctl("plan", RESNET50, "-o", self.path("ctl.csv"),
                            "--svg", self.path("ctl.svg"))
        self.assertEqual(rc, 0, text)
        with open(self.path("ctl.svg")) as f:
            theirs = f.read()
        title = re.compile(r'^<text class="h" x="80" y="20">.*$', re.M)
        self.assertEqual(title.sub("", mine), title.sub("", theirs))
        # Table.plan(svg=) and Result.show(path) write the same
        t = tplan.load(RESNET50)
        t.plan(svg=self.path("t.svg"))
        svg = t.plan().show(self.path("u.svg"))
        with open(self.path("t.svg")) as f, open(self.path("u.svg")) as g:
            self.assertEqual(f.read(), g.read())
        # show(path) returns the SVG it wrote, as show() does
        with open(self.path("u.svg")) as g:
            self.assertEqual(svg, g.read())
        self.assertTrue(svg.startswith("<?xml"))

    def test_tiers_serial_names(self):
        r = tplan.plan(RESNET50, tiers=["2M", 0])
        rects, texts, curves = self.facts(r.show())
        self.assertEqual(len(curves), 2)
        self.assertTrue(any(x.startswith("tier 1: ") for x in texts), texts)
        self.assertTrue(any(x.startswith("live-bytes bound %d bytes" %
                                         r.tier_peaks[0]) for x in texts))
        two = [os.path.join(REAL, "resnet18_b1.csv"),
               os.path.join(REAL, "squeezenet1_1_b1.csv")]
        _, texts, _ = self.facts(tplan.plan(two, serial=True).show())
        self.assertIn("model 1", texts)
        names = self.path("names.tsv")
        with open(names, "w") as f:
            f.write("id\tnode\n0\tconv\u00e9\n")
        r = tplan.table([(0, 0, 4, 4096), (1, 1, 2, 64)]).plan()
        _, texts, _ = self.facts(r.show(names=names))
        self.assertIn("conv\u00e9", texts)
        self.assertIn("1", texts, "the id where no name is given")

    def test_planned_again(self):
        t = tplan.table([("in", 0, 2, 1024), ("mid", 1, 3, 4096),
                         ("out", 2, 4, 1024)])
        naive = t.plan(strategy="naive")
        auto = t.plan()
        self.assertNotEqual(naive.offsets, auto.offsets)
        with self.assertRaises(tplan.Error) as e:
            naive.show()
        self.assertEqual(e.exception.errno, errno.EINVAL)
        self.assertIn("planned again since this result", str(e.exception))
        auto.show()

    def test_tplanctl_found_or_said(self):
        from unittest import mock
        from tplan import show
        with mock.patch.dict(os.environ):
            os.environ.pop("TPLAN_TPLANCTL", None)
            # beside the libtplan.so the binding loaded (the build tree's)
            self.assertEqual(os.path.realpath(show.find_tplanctl()),
                             os.path.realpath(CTL))
            os.environ["TPLAN_TPLANCTL"] = self.path("none")
            t = tplan.table([(0, 0, 1, 8)])
            with self.assertRaises(tplan.Error) as e:
                t.plan(svg=self.path("x.svg"))
            self.assertEqual(e.exception.errno, errno.ENOENT)
            self.assertIn("TPLAN_TPLANCTL=%s: no such executable" %
                          self.path("none"), str(e.exception))
            os.environ.pop("TPLAN_TPLANCTL")
            os.environ["PATH"] = self.tmp
            lib = _lib.lib()
            was = lib.tplan_path
            lib.tplan_path = "/nonexistent/libtplan.so.0"
            try:
                with self.assertRaises(tplan.Error) as e:
                    t.plan().show()
            finally:
                lib.tplan_path = was
            self.assertIn("tplanctl not found", str(e.exception))
            self.assertIn("/nonexistent/tplanctl", str(e.exception))
            self.assertIn("set TPLAN_TPLANCTL", str(e.exception))
            os.environ["TPLAN_TPLANCTL"] = CTL
            self.assertTrue(t.plan().show().startswith("<?xml"))


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

    def test_devices_listed(self):
        # only devices whose driver speaks tplan's ABI, tplan's own first
        # (on the host usually none; the QEMU guest sees both)
        found = tplan.devices()
        self.assertIsInstance(found, list)
        drivers = [d.driver for d in found]
        self.assertTrue(set(drivers) <= {"tplan", "tplan_edu"}, drivers)
        self.assertEqual(drivers, sorted(drivers, key=lambda d: d != "tplan"))
        for d in found:
            self.assertTrue(d.path.startswith("/dev/accel/accel"), d)

    def test_env_device_overrides(self):
        # TPLAN_DEVICE names the device Device() opens, whatever is listed
        old = os.environ.get("TPLAN_DEVICE")
        os.environ["TPLAN_DEVICE"] = "/dev/null"
        try:
            with tplan.Device() as dev:
                self.assertEqual(dev.path, "/dev/null")
                self.assertEqual(dev.driver, "")   # not a DRM device
                with self.assertRaises(tplan.Error) as cm:
                    dev.info()
                self.assertEqual(cm.exception.errno, errno.ENOTTY)
            os.environ["TPLAN_DEVICE"] = self.path("nothing")
            with self.assertRaises(tplan.Error) as cm:
                tplan.Device()
            self.assertEqual(cm.exception.errno, errno.ENOENT)
            self.assertIn(self.path("nothing"), str(cm.exception))
        finally:
            if old is None:
                del os.environ["TPLAN_DEVICE"]
            else:
                os.environ["TPLAN_DEVICE"] = old


class TestJobs(Tmp):
    """Jobs and fences without a device that runs them."""

    def test_no_jobs(self):
        with tplan.Device("/dev/null") as dev:
            self.assertFalse(dev.has_jobs)
            buf = ctypes.create_string_buffer(8)
            addr = ctypes.addressof(buf)
            with self.assertRaises(tplan.Error) as cm:
                dev.job([(tplan.Place.user(addr), tplan.Place.user(addr + 4),
                          4)])
            self.assertEqual(cm.exception.errno, errno.ENOTTY)
            self.assertIn("runs no jobs", str(cm.exception))

    def test_place(self):
        class Held:
            plan_id, pool = 5, 1
        self.assertEqual(tplan.Place.region(Held, 64),
                         tplan.Place(_lib.TPLAN_EDU_PLACE_REGION, 1, 5, 64))
        self.assertEqual(tplan.Place.region(Held, 0, slot=0).slot, 0)
        self.assertEqual(tplan.Place.user(4096),
                         tplan.Place(_lib.TPLAN_EDU_PLACE_USER, 0, 0, 4096))

    def test_fence_on_other_files(self):
        """A pipe is no sync_file: ETIME while it is not readable, then
        the ioctl's ENOTTY; closed, EBADF; close() closes the descriptor
        and lets go of what it keeps."""
        r, w = os.pipe()
        keep = [bytearray(1)]
        fence = tplan.Fence(r, keep=keep)
        self.assertEqual(fence.fileno(), r)
        with self.assertRaises(tplan.Error) as cm:
            fence.wait(10)
        self.assertEqual(cm.exception.errno, errno.ETIME)
        os.write(w, b"x")
        with self.assertRaises(tplan.Error) as cm:
            fence.wait()
        self.assertEqual(cm.exception.errno, errno.ENOTTY)
        with fence:
            pass
        self.assertEqual(fence.fd, -1)
        self.assertEqual(fence._keep, ())
        with self.assertRaises(OSError):
            os.fstat(r)
        with self.assertRaises(tplan.Error) as cm:
            fence.wait()
        self.assertEqual(cm.exception.errno, errno.EBADF)
        os.close(w)


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
        return out

    def test_layout_matches_c(self):
        src = self.path("layout.c")
        exe = self.path("layout")
        with open(src, "w") as f:
            f.write(self.c_program())
        p = subprocess.run(
            ["gcc", "-std=gnu11", "-Wall", "-Werror",
             "-I" + os.path.join(ROOT, "userspace", "lib", "include"),
             "-I" + os.path.join(ROOT, "planner"),
             "-I" + os.path.join(ROOT, "uapi"), "-o", exe, src],
            capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        got = subprocess.run([exe], capture_output=True, text=True,
                             check=True).stdout.splitlines()
        self.assertEqual(self.python_view(), got)

    def test_names_are_the_librarys(self):
        # the binding's copies of the name tables, name by name
        lib = _lib.lib()
        for names, c_name in ((_lib.STRATEGIES, lib.tplan_strategy_name),
                              (_lib.SEARCH_STATUSES, lib.tplan_search_name),
                              (_lib.SPILL_STRATEGIES,
                               lib.tplan_spill_strategy_name)):
            for value, name in enumerate(names):
                self.assertEqual(c_name(value).decode(), name)

    def test_struct_sizes_known(self):
        # what the ABI promises in uapi/linux/tplan.h, as a second anchor
        self.assertEqual(ctypes.sizeof(_lib.tplan_info), 312)

    def test_every_exported_function_declared(self):
        with open(os.path.join(ROOT, "userspace", "lib", "libtplan.map")) as f:
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
