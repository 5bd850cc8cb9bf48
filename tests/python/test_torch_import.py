# SPDX-License-Identifier: MIT
"""The torch.fx importer on modules built here (random weights, no downloads).

Run by tests/python/importer_test.sh, which sets TPLAN_BUILD (tplanctl's
directory) and TPLAN_DATA (for tests/data/real).
"""
import os
import re
import subprocess
import tempfile
import unittest

from importer_common import HERE, DATA, TPLANCTL, IMPORT, as_tuples, core, run

import torch  # noqa: E402
from torch import nn  # noqa: E402

from tplan.importer import from_torch  # noqa: E402



class Small(nn.Module):
    """fx nodes (= steps): 0 x, 1 conv1, 2 relu (in place), 3 conv2,
    4 conv3, 5 cat (dim 1, batch 1: outermost), 6 flatten (a view), 7 fc
    (Python evaluates the returned tuple left to right), 8 permute (own
    bytes), 9 contiguous (a view of permute), 10 output."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, 3, padding=1)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(4, 4, 3, padding=1)
        self.conv3 = nn.Conv2d(4, 2, 1)
        self.fc = nn.Linear(6 * 8 * 8, 10)

    def forward(self, x):
        y = self.relu(self.conv1(x))
        z = torch.cat([self.conv2(y), self.conv3(y)], dim=1)
        f = torch.flatten(z, 1)
        return self.fc(f), f.permute(1, 0).contiguous()


SMALL_ROWS = [
    ("x", 0, 2, 768, None, 0),
    ("conv1", 1, 3, 1024, None, 0),
    ("relu", 2, 5, 1024, "conv1", 0),       # ReLU(inplace=True)
    ("conv2", 3, 6, 1024, "cat", 0),        # first piece of cat
    ("conv3", 4, 6, 512, "cat", 1024),
    ("cat", 5, 7, 1536, None, 0),
    ("flatten", 6, 9, 1536, "cat", 0),      # read by fc and permute
    ("fc", 7, 11, 40, None, 0),             # graph output: to step 11
    ("permute", 8, 10, 1536, None, 0),
    ("contiguous", 9, 11, 1536, "permute", 0),
]


class Pieces(nn.Module):
    """chunk along dim 0 and getitem: 0 x, 1 mul, 2 chunk, 3 getitem,
    4 add, 5 getitem_1, 6 sum_1, 7 output."""

    def forward(self, x):
        c = torch.chunk(x * 2, 2, dim=0)
        return c[0] + 1, c[1].sum()


PIECES_ROWS = [
    ("x", 0, 2, 64, None, 0),
    ("mul", 1, 3, 64, None, 0),
    ("getitem", 2, 5, 32, "mul", 0),        # made by chunk (step 2)
    ("getitem_1", 2, 7, 32, "mul", 32),
    ("add", 4, 8, 32, None, 0),
    ("sum_1", 6, 8, 4, None, 0),
]


class Unpacked(nn.Module):
    """Tuple unpacking of a traced value (torch 1.13's tracer misreads it
    on Python 3.11): 0 x, 1 mul, 2 chunk, 3 getitem, 4 getitem_1, 5 add,
    6 output."""

    def forward(self, x):
        a, b = torch.chunk(x * 2, 2, dim=0)
        return a + b


class Attention(nn.Module):
    """nn.MultiheadAttention without weights returns (output, None)."""

    def __init__(self, unpack):
        super().__init__()
        self.attn = nn.MultiheadAttention(8, 2, batch_first=True)
        self.unpack = unpack

    def forward(self, x):
        if not self.unpack:
            return self.attn(x, x, x, need_weights=False)
        y, w = self.attn(x, x, x, need_weights=False)
        return y * 2


def summary(out, key):
    m = re.search(r"^%s +(\d+)" % key, out, re.M)
    return int(m.group(1)) if m else None


class TorchImport(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def plan(self, csv, *opts):
        plan = os.path.join(self.dir, "plan.csv")
        p = run(TPLANCTL, "plan", csv, "-o", plan, *opts)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        v = run(TPLANCTL, "verify", plan, *opts)
        self.assertEqual(v.returncode, 0, v.stdout + v.stderr)
        return summary(p.stdout, "lower bound"), summary(p.stdout, "peak")

    def test_small_rows_by_hand(self):
        table = from_torch(Small().eval(), (torch.randn(1, 3, 8, 8),))
        self.assertEqual(as_tuples(table), SMALL_ROWS)
        csv = os.path.join(self.dir, "small.csv")
        table.write(csv)
        self.assertEqual(self.plan(csv, "--aliases"), (3112, 3112))

    def test_pieces(self):
        table = from_torch(Pieces(), torch.randn(4, 4))
        self.assertEqual(as_tuples(table), PIECES_ROWS)
        csv = os.path.join(self.dir, "pieces.csv")
        table.write(csv)
        self.plan(csv, "--aliases")

    def test_tuple_unpacking(self):
        table = from_torch(Unpacked(), torch.randn(4, 4))
        self.assertEqual(as_tuples(table), [
            ("x", 0, 2, 64, None, 0),
            ("mul", 1, 3, 64, None, 0),
            ("getitem", 2, 6, 32, "mul", 0),
            ("getitem_1", 2, 6, 32, "mul", 32),
            ("add", 5, 7, 32, None, 0),
        ])

    def test_tuple_with_none(self):
        """A tuple output with None in it still gets rows for its tensors,
        returned as it is (attn.0) or picked (getitem)."""
        x = torch.randn(1, 4, 8)
        self.assertEqual(as_tuples(from_torch(Attention(False).eval(), x)), [
            ("x", 0, 2, 128, None, 0),
            ("attn.0", 1, 3, 128, None, 0),
        ])
        self.assertEqual(as_tuples(from_torch(Attention(True).eval(), x)), [
            ("x", 0, 2, 128, None, 0),
            ("getitem", 1, 5, 128, None, 0),
            ("mul", 4, 6, 128, None, 0),
        ])

    def test_weights(self):
        """Parameters as share_key rows over every step, a key each."""
        table = from_torch(Small().eval(), torch.randn(1, 3, 8, 8),
                           weights=True)
        w = [(r.id, r.lower, r.upper, r.size, r.share_key)
             for r in table if r.share_key]
        self.assertEqual([x[0] for x in w], [
            "conv1.weight", "conv1.bias", "conv2.weight", "conv2.bias",
            "conv3.weight", "conv3.bias", "fc.weight", "fc.bias"])
        self.assertEqual(w[0], ("conv1.weight", 0, 11, 4 * 3 * 9 * 4, 1))
        self.assertEqual([x[4] for x in w], list(range(1, 9)))
        csv = os.path.join(self.dir, "w.csv")
        table.write(csv)
        params = sum(p.numel() * 4 for p in Small().parameters())
        self.assertEqual(self.plan(csv, "--aliases")[0], 3112 + params)

    def test_command(self):
        """tplan-import torch MODULE:CALLABLE --input, module of this file."""
        p = subprocess.run(
            [IMPORT, "torch", "test_torch_import:Small", "--input",
             "1,3,8,8"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            universal_newlines=True, env=dict(os.environ, PYTHONPATH=HERE))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(core(p.stdout).splitlines()[1:],
                         ["%s,%d,%d,%d,%s,%s" % (i, lo, up, s, a or "",
                                                 "" if a is None else o)
                          for i, lo, up, s, a, o in SMALL_ROWS])
        bad = run(IMPORT, "torch", "torchvision.models:resnet18",
                  "--input", "1,3,7")
        self.assertEqual(bad.returncode, 2, bad.stderr)
        # one line naming the layer and the shapes, no torch traceback
        self.assertEqual(len(bad.stderr.splitlines()), 1, bad.stderr)
        self.assertIn("on the example inputs failed at conv1 "
                      "(call_module conv1, inputs 1x3x7): ", bad.stderr)
        bad = run(IMPORT, "torch", "no_such_module:x", "--input", "1")
        self.assertEqual(bad.returncode, 2, bad.stderr)
        self.assertIn("cannot import 'no_such_module'", bad.stderr)

    def test_module_in_current_directory(self):
        """MODULE imports from the current directory, as under python -m
        (no PYTHONPATH)."""
        with open(os.path.join(self.dir, "mymodels.py"), "w") as f:
            f.write("import torch\n\n\ndef build():\n"
                    "    return torch.nn.Linear(4, 2)\n")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        p = subprocess.run([IMPORT, "torch", "mymodels:build", "--input",
                            "3,4"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True,
                           cwd=self.dir, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("\nlinear,", p.stdout)

    def test_runtime_columns(self):
        """node, dtype and shape on every row, kept by tplanctl in the plan
        file; each row aligned to at least its element size (int64
        indices: 8), or to --alignment when larger."""
        class Pool(nn.Module):
            def __init__(self):
                super().__init__()
                self.pool = nn.MaxPool2d(2, return_indices=True)

            def forward(self, x):
                h = x.half()
                y, i = self.pool(x)
                return h, y, i
        table = from_torch(Pool(), (torch.randn(1, 1, 4, 6),))
        got = [(r.id, r.alignment, r.node, r.dtype, r.shape) for r in table]
        self.assertEqual(got, [
            ("x", 4, "input", "float32", "1x1x4x6"),
            ("half", 2, "half", "float16", "1x1x4x6"),
            ("getitem", 4, "MaxPool2d", "float32", "1x1x2x3"),
            ("getitem_1", 8, "MaxPool2d", "int64", "1x1x2x3")])
        self.assertEqual({r.alignment for r in from_torch(
            Pool(), (torch.randn(1, 1, 4, 6),), alignment=64)}, {64})
        csv = os.path.join(self.dir, "pool.csv")
        table.write(csv)
        plan = os.path.join(self.dir, "plan.csv")
        p = run(TPLANCTL, "plan", csv, "-o", plan)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(plan) as f:
            head, *rows = f.read().splitlines()
        col = {c: k for k, c in enumerate(head.split(","))}
        last = rows[3].split(",")
        self.assertEqual([last[col[c]] for c in ("node", "dtype", "shape")],
                         ["MaxPool2d", "int64", "1x1x2x3"])
        self.assertEqual(int(last[col["offset"]]) % 8, 0)

    def test_resnet18_matches_bench(self):
        """torchvision's resnet18 (random weights): the table of
        tests/data/real/resnet18_b1.csv, row for row, so the same bound;
        auto reaches it with and without aliases."""
        import torchvision
        model = torchvision.models.resnet18(weights=None).eval()
        table = from_torch(model, (torch.randn(1, 3, 224, 224),))
        csv = os.path.join(self.dir, "resnet18.csv")
        table.write(csv)
        bench = os.path.join(DATA, "real", "resnet18_b1.csv")
        names = os.path.join(DATA, "real", "resnet18_b1.names.tsv")
        with open(names) as f:
            node = {ln.split("\t")[0]: ln.split("\t")[1]
                    for ln in f.read().splitlines()[1:]}
        with open(bench) as f:
            rows = [ln.split(",") for ln in f.read().splitlines()[1:]]
        want = [(node[i], int(lo), int(up), int(s),
                 node[a] if a else None) for i, lo, up, s, a in rows]
        got = [(r.id, r.lower, r.upper, r.size, r.alias_of) for r in table]
        self.assertEqual(got, want)
        for opts in (("--aliases",), ()):
            ours = self.plan(csv, *opts)
            self.assertEqual(ours[0], ours[1],
                             "auto %s: bound, peak" % (opts,))
            p = run(TPLANCTL, "plan", bench, *opts)
            self.assertEqual(ours[0], summary(p.stdout, "lower bound"))

    def test_onnx_export_of_transformer_encoder(self):
        """nn.TransformerEncoder exported by torch.onnx.export: its
        attention slices are sized from Shape -> Gather -> Div arithmetic
        that shape inference leaves unknown, so the ONNX importer folds it.
        Both importers' tables of the one model have the same lower bound
        with aliases, but for the ONNX graph's few scalars (16 bytes)."""
        from tplan.importer import from_onnx
        layer = nn.TransformerEncoderLayer(64, 4, 128)
        model = nn.TransformerEncoder(layer, 2,
                                      enable_nested_tensor=False).eval()
        x = torch.randn(10, 2, 64)
        path = os.path.join(self.dir, "encoder.onnx")
        torch.onnx.export(model, (x,), path, opset_version=13)
        bounds = []
        for name, table in (("onnx", from_onnx(path)),
                            ("torch", from_torch(model, (x,)))):
            csv = os.path.join(self.dir, name + ".csv")
            table.write(csv)
            bounds.append(self.plan(csv, "--aliases")[0])
        self.assertLessEqual(abs(bounds[0] - bounds[1]), 64, bounds)


if __name__ == "__main__":
    unittest.main()
