# SPDX-License-Identifier: MIT
"""The ONNX importer on models built here with onnx.helper (no downloads).

Run by tests/python/importer_test.sh, which sets TPLAN_BUILD (tplanctl's
directory); the lifetimes expected below are worked out by hand from the
conventions in docs/IMPORTERS.md.
"""
import os
import subprocess
import sys
import tempfile
import unittest

from importer_common import (core, HERE, TOP, BUILD, TPLANCTL, IMPORT,
                             as_tuples, run)

import onnx  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402
import numpy as np  # noqa: E402

from tplan.importer import TableError, from_onnx  # noqa: E402
from tplan.importer import escape_id, unescape_id  # noqa: E402

F = TensorProto.FLOAT


def weight(name, *shape):
    return numpy_helper.from_array(
        np.random.RandomState(0).randn(*shape).astype(np.float32), name)


def conv_net(batch=1):
    """Conv, Relu, a residual Add, two convs into a Concat, a Reshape.

    step  node                         reads        writes
    0     Conv c1                      X, W1        c1    [b,4,8,8]
    1     Relu                         c1           r1
    2     Conv c2                      r1, W2       c2
    3     Add (residual)               c2, r1       a
    4     Relu                         a            r2
    5     Conv c3                      r2, W3       c3    [b,4,8,8]
    6     Conv c4                      r2, W4       c4    [b,2,8,8]
    7     Concat axis 1                c3, c4       cat   [b,6,8,8]
    8     Reshape                      cat, shape   out   [b,384]
    """
    nodes = [
        helper.make_node("Conv", ["X", "W1"], ["c1"], name="conv1",
                         pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("Conv", ["r1", "W2"], ["c2"], name="conv2",
                         pads=[1, 1, 1, 1]),
        helper.make_node("Add", ["c2", "r1"], ["a"], name="add"),
        helper.make_node("Relu", ["a"], ["r2"], name="relu2"),
        helper.make_node("Conv", ["r2", "W3"], ["c3"], name="conv3"),
        helper.make_node("Conv", ["r2", "W4"], ["c4"], name="conv4"),
        helper.make_node("Concat", ["c3", "c4"], ["cat"], name="concat",
                         axis=1),
        helper.make_node("Reshape", ["cat", "shape"], ["out"],
                         name="reshape"),
    ]
    inits = [weight("W1", 4, 3, 3, 3), weight("W2", 4, 4, 3, 3),
             weight("W3", 4, 4, 1, 1), weight("W4", 2, 4, 1, 1),
             numpy_helper.from_array(np.array([-1, 384], dtype=np.int64),
                                     "shape")]
    graph = helper.make_graph(
        nodes, "convnet",
        [helper.make_tensor_value_info("X", F, [batch, 3, 8, 8])],
        [helper.make_tensor_value_info("out", F, [batch, 384])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("",
                                                                        13)])
    onnx.checker.check_model(model)
    return model


# (id, lower, upper, size, alias_of, alias_offset) at batch 1: 9 nodes
CONV_NET_ROWS = [
    ("X", 0, 1, 3 * 64 * 4, None, 0),
    ("c1", 0, 2, 4 * 64 * 4, None, 0),
    ("r1", 1, 4, 1024, None, 0),            # read by conv2 and the Add
    ("c2", 2, 4, 1024, None, 0),
    ("a", 3, 5, 1024, None, 0),
    ("r2", 4, 7, 1024, None, 0),            # read by conv3 and conv4
    ("c3", 5, 8, 1024, "cat", 0),           # first piece of the concat
    ("c4", 6, 8, 512, "cat", 1024),         # after c3's 1024 bytes
    ("cat", 7, 9, 1536, None, 0),
    ("out", 8, 9, 1536, "cat", 0),          # graph output: to step 9
]


class OnnxImport(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def save(self, model, name="model.onnx"):
        path = os.path.join(self.dir, name)
        onnx.save(model, path)
        return path

    def plan_and_verify(self, csv):
        plan = os.path.join(self.dir, "plan.csv")
        p = run(TPLANCTL, "plan", csv, "--aliases", "-o", plan)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        v = run(TPLANCTL, "verify", "--aliases", plan)
        self.assertEqual(v.returncode, 0, v.stdout + v.stderr)
        self.assertIn("valid plan", v.stdout)
        return p.stdout

    def test_rows_by_hand(self):
        self.assertEqual(as_tuples(from_onnx(conv_net())), CONV_NET_ROWS)

    def test_uses_and_folding(self):
        """--uses: the producer's and readers' steps (out, a graph output,
        at its last step); weights: their readers'.  --fold-aliases: the
        concat's group as one row from c3's step to out's end."""
        path = self.save(conv_net())
        p = run(IMPORT, "onnx", path, "--uses", "--weights")
        self.assertEqual(p.returncode, 0, p.stderr)
        rows = [ln.split(",") for ln in core(p.stdout).splitlines()]
        self.assertEqual(rows[0][-1], "uses")
        self.assertEqual([(r[0], r[-1]) for r in rows[1:]], [
            ("X", "0"), ("c1", "0 1"), ("r1", "1 2 3"), ("c2", "2 3"),
            ("a", "3 4"), ("r2", "4 5 6"), ("c3", "5 7"), ("c4", "6 7"),
            ("cat", "7 8"), ("out", "8"), ("W1", "0"), ("W2", "2"),
            ("W3", "5"), ("W4", "6"), ("shape", "8")])
        p = run(IMPORT, "onnx", path, "--uses", "--fold-aliases")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(core(p.stdout).splitlines(), [
            "id,lower,upper,size,uses", "X,0,1,768,0", "c1,0,2,1024,0 1",
            "r1,1,4,1024,1 2 3", "c2,2,4,1024,2 3", "a,3,5,1024,3 4",
            "r2,4,7,1024,4 5 6", "cat,5,9,1536,5 6 7 8"])
        csv = os.path.join(self.dir, "folded.csv")
        with open(csv, "w") as f:
            f.write(p.stdout)
        plan = os.path.join(self.dir, "plan.csv")
        p = run(TPLANCTL, "plan", csv, "-o", plan)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("lower bound  3072 bytes", p.stdout)   # step 3
        v = run(TPLANCTL, "verify", plan)
        self.assertEqual(v.returncode, 0, v.stdout + v.stderr)

    def test_file_and_batch(self):
        """A path works like a ModelProto; sizes scale with the batch, and
        at batch 2 the concat along axis 1 is no longer along the outermost
        axis: its inputs are copied."""
        rows = as_tuples(from_onnx(self.save(conv_net(batch=2))))
        self.assertEqual(rows, [(i, lo, up, 2 * s,
                                 None if i in ("c3", "c4") else a,
                                 0 if i in ("c3", "c4") else 2 * o)
                                for i, lo, up, s, a, o in CONV_NET_ROWS])

    def test_readme_path(self):
        """README's ONNX file -> table -> plan -> picture commands."""
        model = self.save(conv_net())
        csv = os.path.join(self.dir, "model.csv")
        p = run(IMPORT, "onnx", model, "-o", csv)
        self.assertEqual(p.returncode, 0, p.stderr)
        plan = os.path.join(self.dir, "plan.csv")
        p = run(TPLANCTL, "plan", csv, "--aliases", "-o", plan)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        v = run(TPLANCTL, "verify", "--aliases", plan)
        self.assertEqual(v.returncode, 0, v.stdout + v.stderr)
        self.assertIn("valid plan: 10 tensors", v.stdout)
        svg = os.path.join(self.dir, "plan.svg")
        s = run(TPLANCTL, "show", plan, "-o", svg)
        self.assertEqual(s.returncode, 0, s.stdout + s.stderr)
        with open(svg) as f:
            self.assertIn("<svg", f.read())

    def test_readme_python_path(self):
        """README's Python lines for the same path, as written there."""
        example = os.path.join(HERE, "readme_onnx_example.py")
        with open(example) as f:
            code = f.read()
        with open(os.path.join(TOP, "README.md")) as f:
            readme = f.read()
        self.assertIn("".join("    " + line if line.strip() else line
                              for line in code.splitlines(True)), readme)
        self.save(conv_net())
        env = dict(os.environ,
                   PATH=BUILD + os.pathsep + os.environ.get("PATH", ""),
                   PYTHONPATH=os.path.join(TOP, "userspace", "python"),
                   TPLAN_LIBRARY=os.path.join(BUILD, "libtplan.so"))
        p = subprocess.run([sys.executable, example], cwd=self.dir, env=env,
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual(p.stdout.split(), ["3072", "3072"])
        with open(os.path.join(self.dir, "plan.svg")) as f:
            self.assertIn("<svg", f.read())

    def test_plan_reaches_bound(self):
        """Aliased table: c3, c4 and out inside cat.  The bound is at step
        3, where r1, c2 and a (1024 bytes each) are alive."""
        csv = os.path.join(self.dir, "model.csv")
        from_onnx(conv_net()).write(csv)
        out = self.plan_and_verify(csv)
        self.assertRegex(out, r"lower bound +3072 bytes")
        self.assertRegex(out, r"peak +3072 bytes")

    def test_stdout_default(self):
        p = run(IMPORT, "onnx", self.save(conv_net()))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout, from_onnx(conv_net()).csv())
        self.assertTrue(p.stdout.startswith(
            "id,lower,upper,size,alignment,alias_of,alias_offset,node,dtype,"
            "shape\nX,0,1,768,4,,,input,float32,1x3x8x8\n"))

    def test_unknown_dimension(self):
        """A symbolic batch: exit code 2 naming the tensor; --batch fixes
        it."""
        model = self.save(conv_net(batch="N"))
        p = run(IMPORT, "onnx", model)
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertIn("tensor 'X' (graph input): unknown shape (['N',3,8,8])",
                      p.stderr)
        self.assertEqual(p.stdout, "")
        p = run(IMPORT, "onnx", model, "--batch", "2")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("\nX,0,1,1536,,\n", core(p.stdout))

    def test_unknown_inner_shape(self):
        """A Reshape to a shape known only at run time: named, exit 2."""
        nodes = [helper.make_node("Relu", ["X"], ["r"], name="relu"),
                 helper.make_node("Reshape", ["r", "S"], ["y"], name="rs"),
                 helper.make_node("Relu", ["y"], ["z"], name="relu2")]
        graph = helper.make_graph(
            nodes, "g",
            [helper.make_tensor_value_info("X", F, [2, 6]),
             helper.make_tensor_value_info("S", TensorProto.INT64, [2])],
            [helper.make_tensor_value_info("z", F, None)])
        model = helper.make_model(graph, opset_imports=[
            helper.make_opsetid("", 13)])
        with self.assertRaisesRegex(TableError, r"tensor 'y' \(output of node "
                                    r"'rs' \(Reshape\)\): unknown shape"):
            from_onnx(model)
        p = run(IMPORT, "onnx", self.save(model))
        self.assertEqual(p.returncode, 2)
        self.assertRegex(p.stderr, r"^tplan-import: tensor 'y' .*unknown")

    def test_shape_arithmetic_is_folded(self):
        """A Slice whose end is computed from the input's shape through a
        Div (which onnx 1.12's data propagation does not follow): the
        arithmetic is evaluated, the Slice is sized, and the folded nodes
        keep their steps and scratch rows.

        step  node                          value
        0     s = Shape(X)                  [2, 12]     int64 [2]: 16 bytes
        1     g = Gather(s, one)            12          scalar: 8
        2     h = Div(g, two)               6           scalar: 8
        3     u = Unsqueeze(h, zero)        [6]         a view of h
        4     y = Slice(X, zero, u, one)    X[:, 0:6]   [2, 6] float: 48
        5     z = Relu(y)                                48
        """
        i64 = TensorProto.INT64

        def const(name, value):
            return numpy_helper.from_array(np.array(value, dtype=np.int64),
                                           name)
        nodes = [helper.make_node("Shape", ["X"], ["s"], name="shape"),
                 helper.make_node("Gather", ["s", "one"], ["g"], name="gat"),
                 helper.make_node("Div", ["g", "two"], ["h"], name="div"),
                 helper.make_node("Unsqueeze", ["h", "zero1"], ["u"],
                                  name="unsq"),
                 helper.make_node("Slice", ["X", "zero1", "u", "one1"], ["y"],
                                  name="slice"),
                 helper.make_node("Relu", ["y"], ["z"], name="relu")]
        graph = helper.make_graph(
            nodes, "g", [helper.make_tensor_value_info("X", F, [2, 12])],
            [helper.make_tensor_value_info("z", F, None)],
            [const("one", 1), const("two", 2), const("zero1", [0]),
             const("one1", [1])])
        model = helper.make_model(graph, opset_imports=[
            helper.make_opsetid("", 13)])
        rows = from_onnx(model)
        self.assertEqual(as_tuples(rows), [
            ("X", 0, 5, 96, None, 0),
            ("s", 0, 2, 16, None, 0),
            ("g", 1, 3, 8, None, 0),
            ("h", 2, 4, 8, None, 0),
            ("u", 3, 5, 8, "h", 0),
            ("y", 4, 6, 48, None, 0),
            ("z", 5, 6, 48, None, 0)])
        by_id = {r.id: r for r in rows}
        self.assertEqual(by_id["y"].shape, "2x6")
        self.assertEqual(by_id["h"].dtype, "int64")

    def test_data_dependent_shape_stays_unknown(self):
        """A Slice end read from the data (a graph input's values) is not
        folded: still an error naming the tensor."""
        nodes = [helper.make_node("Slice", ["X", "S", "E"], ["y"],
                                  name="slice")]
        graph = helper.make_graph(
            nodes, "g",
            [helper.make_tensor_value_info("X", F, [8]),
             helper.make_tensor_value_info("E", TensorProto.INT64, [1])],
            [helper.make_tensor_value_info("y", F, None)],
            [numpy_helper.from_array(np.array([0], dtype=np.int64), "S")])
        model = helper.make_model(graph, opset_imports=[
            helper.make_opsetid("", 13)])
        with self.assertRaisesRegex(TableError, r"tensor 'y' \(output of node "
                                    r"'slice' \(Slice\)\): unknown shape"):
            from_onnx(model)

    def test_concat_split_rules(self):
        """Which concat inputs and split outputs alias, and which are copied.

        X [1,2] float (8 bytes) is a graph input.
        step 0  t1 = Relu(X)          read by cat1 alone: inside cat1
        step 1  t2 = Neg(X)           read twice by cat2: copied
        step 2  t3 = Abs(X)           also read by s3: copied
        step 3  s3 = Sigmoid(t3)      read by cat1 alone: inside cat1
        step 4  cat1 = Concat(X, t1, t3, s3)   X is a graph input: copied
        step 5  cat2 = Concat(t2, t2)
        step 6  p, q = Split(cat1, axis 0)  [2,2] each: alias cat1 at 0, 16
        step 7  cat3 = Concat(q, cat2)  q is a split piece: copied;
                                        cat2 inside cat3 at 16
        step 8  w = Concat(X, X, axis 1)  [1,4]: outer dims 1: graph input
                                        copied all the same
        step 9  u = Concat(cat3, cat3, axis 1)  [4,4]: not the outer axis
        """
        V = helper.make_tensor_value_info
        nodes = [
            helper.make_node("Relu", ["X"], ["t1"]),
            helper.make_node("Neg", ["X"], ["t2"]),
            helper.make_node("Abs", ["X"], ["t3"]),
            helper.make_node("Sigmoid", ["t3"], ["s3"]),
            helper.make_node("Concat", ["X", "t1", "t3", "s3"], ["cat1"],
                             axis=0),
            helper.make_node("Concat", ["t2", "t2"], ["cat2"], axis=0),
            helper.make_node("Split", ["cat1"], ["p", "q"], axis=0),
            helper.make_node("Concat", ["q", "cat2"], ["cat3"], axis=0),
            helper.make_node("Concat", ["X", "X"], ["w"], axis=1),
            helper.make_node("Concat", ["cat3", "cat3"], ["u"], axis=1),
        ]
        graph = helper.make_graph(
            nodes, "rules", [V("X", F, [1, 2])],
            [V("p", F, None), V("w", F, None), V("u", F, None)])
        model = helper.make_model(graph, opset_imports=[
            helper.make_opsetid("", 13)])
        rows = {r.id: r for r in from_onnx(model)}
        alias = {k: (r.alias_of, r.alias_offset) for k, r in rows.items()
                 if r.alias_of is not None}
        self.assertEqual(alias, {
            "t1": ("cat1", 8), "s3": ("cat1", 24),
            "p": ("cat1", 0), "q": ("cat1", 16),
            "cat2": ("cat3", 16)})
        self.assertEqual((rows["p"].lower, rows["p"].upper), (6, 10))
        self.assertEqual((rows["cat1"].lower, rows["cat1"].upper), (4, 7))
        csv = os.path.join(self.dir, "rules.csv")
        from_onnx(model).write(csv)
        self.plan_and_verify(csv)

    def test_views_and_weights(self):
        """Views alias their input, not a weight; --weights adds share_key
        rows alive over every step, one key each."""
        nodes = [
            helper.make_node("Flatten", ["X"], ["f"], axis=1),
            helper.make_node("Identity", ["f"], ["i"]),
            helper.make_node("Unsqueeze", ["i", "axes"], ["u"]),
            helper.make_node("Squeeze", ["u", "axes"], ["s"]),
            helper.make_node("Reshape", ["W", "shape"], ["wr"]),
            helper.make_node("Constant", [], ["k"],
                             value=numpy_helper.from_array(
                                 np.ones((1, 4), np.float32), "k")),
            helper.make_node("Add", ["s", "wr"], ["y0"]),
            helper.make_node("Add", ["y0", "k"], ["y"]),
        ]
        graph = helper.make_graph(
            nodes, "views",
            [helper.make_tensor_value_info("X", F, [1, 2, 2])],
            [helper.make_tensor_value_info("y", F, None)],
            [weight("W", 4), numpy_helper.from_array(
                np.array([0], np.int64), "axes"),
             numpy_helper.from_array(np.array([1, 4], np.int64), "shape")])
        model = helper.make_model(graph, opset_imports=[
            helper.make_opsetid("", 13)])
        self.assertEqual(as_tuples(from_onnx(model)), [
            ("X", 0, 1, 16, None, 0),
            ("f", 0, 2, 16, "X", 0),
            ("i", 1, 3, 16, "f", 0),
            ("u", 2, 4, 16, "i", 0),
            ("s", 3, 7, 16, "u", 0),
            ("wr", 4, 7, 16, None, 0),      # a view of a weight: own bytes
            ("y0", 6, 8, 16, None, 0),
            ("y", 7, 8, 16, None, 0),
        ])
        table = from_onnx(model, weights=True)
        extra = [(r.id, r.lower, r.upper, r.size, r.share_key)
                 for r in table if r.share_key]
        self.assertEqual(extra, [("W", 0, 8, 16, 1), ("axes", 0, 8, 8, 2),
                                 ("shape", 0, 8, 16, 3), ("k", 0, 8, 16, 4)])
        csv = os.path.join(self.dir, "w.csv")
        p = run(IMPORT, "onnx", self.save(model), "--weights", "-o", csv)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(csv) as f:
            self.assertEqual(core(f.readline()).strip(),
                             "id,lower,upper,size,alias_of,alias_offset,"
                             "share_key")
        out = self.plan_and_verify(csv)
        # 56 bytes of weights over every step, and at step 6 the X..s
        # group, wr and y0 (16 bytes each)
        self.assertRegex(out, r"lower bound +104 bytes")

    def test_identity_of_a_weight(self):
        """An Identity of an initializer (as torch's exporter writes them)
        is that weight, through chains: no scratch row, and its readers
        read the weight."""
        nodes = [
            helper.make_node("Identity", ["W"], ["W2"]),
            helper.make_node("Identity", ["W2"], ["W3"]),
            helper.make_node("Add", ["X", "W3"], ["y0"]),
            helper.make_node("Identity", ["y0"], ["y"]),
        ]
        graph = helper.make_graph(
            nodes, "identities",
            [helper.make_tensor_value_info("X", F, [4])],
            [helper.make_tensor_value_info("y", F, None)], [weight("W", 4)])
        model = helper.make_model(graph, opset_imports=[
            helper.make_opsetid("", 13)])
        # the Identities of W take steps 0 and 1
        self.assertEqual(as_tuples(from_onnx(model)), [
            ("X", 0, 3, 16, None, 0),
            ("y0", 2, 4, 16, None, 0),
            ("y", 3, 4, 16, "y0", 0),
        ])
        table = from_onnx(model, weights=True, uses=True)
        extra = [(r.id, r.lower, r.upper, r.size, r.share_key, r.uses)
                 for r in table if r.share_key]
        self.assertEqual(extra, [("W", 0, 4, 16, 1, (0, 1, 2))])

    def test_names_escaped(self):
        """Names tplanctl cannot read as written are %XX-escaped."""
        self.assertEqual(escape_id("a,b"), "a%2Cb")
        self.assertEqual(escape_id(" x 1\t"), "%20x 1%09")
        self.assertEqual(escape_id("50%"), "50%25")
        self.assertEqual(escape_id("l\nm"), "l%0Am")
        for name in ("a,b", " x 1\t", "50%", "l\nm", "onnx::Conv_3"):
            self.assertEqual(unescape_id(escape_id(name)), name)
        with self.assertRaises(TableError):
            escape_id("")
        with self.assertRaises(TableError):
            escape_id("x" * 1001)
        nodes = [helper.make_node("Relu", ["in,put"], [" r "]),
                 helper.make_node("Flatten", [" r "], ["out%1"])]
        graph = helper.make_graph(
            nodes, "names", [helper.make_tensor_value_info("in,put", F, [2])],
            [helper.make_tensor_value_info("out%1", F, None)])
        model = helper.make_model(graph, opset_imports=[
            helper.make_opsetid("", 13)])
        text = from_onnx(model).csv()
        self.assertEqual(core(text), "id,lower,upper,size,alias_of,alias_offset\n"
                         "in%2Cput,0,1,8,,\n%20r%20,0,2,8,,\n"
                         "out%251,1,2,8,%20r%20,0\n")
        csv = os.path.join(self.dir, "names.csv")
        with open(csv, "w") as f:
            f.write(text)
        self.plan_and_verify(csv)

    def test_numeric_names(self):
        """All-digit names are read as numbers by tplanctl: "07" and "7"
        would be one id, which is an error, not a silent merge."""
        def model(a, b):
            nodes = [helper.make_node("Relu", [a], [b])]
            graph = helper.make_graph(
                nodes, "num", [helper.make_tensor_value_info(a, F, [2])],
                [helper.make_tensor_value_info(b, F, None)])
            return helper.make_model(graph, opset_imports=[
                helper.make_opsetid("", 13)])
        self.assertEqual(core(from_onnx(model("0", "1")).csv()),
                         "id,lower,upper,size\n0,0,1,8\n1,0,1,8\n")
        with self.assertRaisesRegex(TableError, "'07' and '7' have the same"):
            from_onnx(model("07", "7")).csv()

    def test_topological_order(self):
        """Nodes out of order in the file are stepped in dependency order."""
        nodes = [helper.make_node("Relu", ["a"], ["b"], name="second"),
                 helper.make_node("Relu", ["X"], ["a"], name="first")]
        graph = helper.make_graph(
            nodes, "order", [helper.make_tensor_value_info("X", F, [2])],
            [helper.make_tensor_value_info("b", F, [2])])
        model = helper.make_model(graph, opset_imports=[
            helper.make_opsetid("", 13)])
        self.assertEqual(as_tuples(from_onnx(model)), [
            ("X", 0, 1, 8, None, 0), ("a", 0, 2, 8, None, 0),
            ("b", 1, 2, 8, None, 0)])

    def test_bad_file(self):
        path = os.path.join(self.dir, "junk.onnx")
        with open(path, "wb") as f:
            f.write(b"\xff not a model")
        p = run(IMPORT, "onnx", path)
        self.assertEqual(p.returncode, 2)
        self.assertIn("cannot read the ONNX model", p.stderr)


if __name__ == "__main__":
    unittest.main()
