# SPDX-License-Identifier: MIT
"""tplan-import torch --training: one training step's table (forward and
backward traced by make_fx), on modules built here (random weights).

Run by tests/python/importer_test.sh, which sets TPLAN_BUILD (tplanctl's
directory).
"""
import os
import re
import subprocess
import tempfile
import unittest

from importer_common import (HERE, TOP, TPLANCTL, IMPORT, as_tuples, core,
                             run)

import torch  # noqa: E402
from torch import nn  # noqa: E402

from tplan.importer import from_torch, from_torch_training  # noqa: E402


class Tiny(nn.Module):
    """Two bias-free linear layers around an in-place ReLU; input 2x4,
    loss "sum".  The aten graph make_fx records (torch 1.13), one step each
    after step 0 (the inputs: fc1.weight, fc2.weight, x, and the target,
    which has no bytes with this loss):
      forward   1 t(fc1.weight)  2 mm(x, t)  3 relu_(mm)  4 detach(relu_)
                5 t_1 = t(fc2.weight)  6 mm_1 = mm(relu_, t_1)
                7 sum_1 = sum(mm_1): the loss
      backward  8 ones_like(sum_1)  9 expand(ones_like, [2, 3])
                10 t_2 = t(expand)  11 mm_2 = mm(t_2, relu_)  12 t_3 = t(mm_2)
                13 t_4 = t(t_1)  14 mm_3 = mm(expand, t_4)  15 t_5 = t(t_3)
                16 detach_1 = detach(detach)
                17 threshold_backward(mm_3, detach_1, 0)
                18 t_6 = t(threshold_backward)  19 mm_4 = mm(t_6, x)
                20 t_7 = t(mm_4)  21 t_8 = t(t_7)
      22 output (sum_1, t_8, t_5): the loss and the two gradients
    Every t, detach, expand and relu_ shares its input's storage; a t() of
    a weight is the weight (no row); the ReLU's result, saved for
    threshold_backward, keeps mm's bytes alive until step 17."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8, bias=False)
        self.relu = nn.ReLU(inplace=True)
        self.fc2 = nn.Linear(8, 3, bias=False)

    def forward(self, x):
        return self.fc2(self.relu(self.fc1(x)))


# (id, lower, upper, size, alias_of, alias_offset, uses); float32
TINY_ROWS = [
    ("input", 0, 20, 32, None, 0, (0, 2, 19)),       # read by mm and mm_4
    ("mm", 2, 4, 64, None, 0, (2, 3)),               # 2x8
    ("relu_", 3, 12, 64, "mm", 0, (3, 4, 6, 11)),
    ("detach", 4, 17, 64, "mm", 0, (4, 16)),
    ("mm_1", 6, 8, 24, None, 0, (6, 7)),             # 2x3
    ("loss", 7, 23, 4, None, 0, (7, 8, 22)),         # sum_1, an output
    ("ones_like", 8, 10, 4, None, 0, (8, 9)),
    ("expand", 9, 15, 4, "ones_like", 0, (9, 10, 14)),   # strides 0
    ("t_2", 10, 12, 4, "ones_like", 0, (10, 11)),
    ("mm_2", 11, 13, 96, None, 0, (11, 12)),         # 3x8
    ("t_3", 12, 16, 96, "mm_2", 0, (12, 15)),
    ("mm_3", 14, 18, 64, None, 0, (14, 17)),
    ("fc2.weight.grad", 15, 23, 96, "mm_2", 0, (15, 22)),    # t_5
    ("detach_1", 16, 18, 64, "mm", 0, (16, 17)),
    ("threshold_backward", 17, 19, 64, None, 0, (17, 18)),
    ("t_6", 18, 20, 64, "threshold_backward", 0, (18, 19)),
    ("mm_4", 19, 21, 128, None, 0, (19, 20)),        # 8x4
    ("t_7", 20, 22, 128, "mm_4", 0, (20, 21)),
    ("fc1.weight.grad", 21, 23, 128, "mm_4", 0, (21, 22)),   # t_8
]

# --weights: read at the steps of the t() of them and of what reads that
TINY_WEIGHTS = [
    ("fc1.weight", 0, 23, 128, 1, (1, 2)),
    ("fc2.weight", 0, 23, 96, 2, (5, 6, 13, 14)),
]

# folded: each group over the union of its members
TINY_FOLDED = [
    ("input", 0, 20, 32, (0, 2, 19)),
    ("mm", 2, 18, 64, (2, 3, 4, 6, 11, 16, 17)),
    ("mm_1", 6, 8, 24, (6, 7)),
    ("loss", 7, 23, 4, (7, 8, 22)),
    ("ones_like", 8, 15, 4, (8, 9, 10, 11, 14)),
    ("mm_2", 11, 23, 96, (11, 12, 15, 22)),
    ("mm_3", 14, 18, 64, (14, 17)),
    ("threshold_backward", 17, 20, 64, (17, 18, 19)),
    ("mm_4", 19, 23, 128, (19, 20, 21, 22)),
]

# steps 17 and 19: input 32 + loss 4 + mm_2 96 + threshold_backward 64,
# with mm 64 + mm_3 64 (17) or mm_4 128 (19)
TINY_BOUND = 324


class Net(nn.Module):
    """A bit of everything: batch-norm (its running statistics updated in
    place), an in-place ReLU, a split, a cat, dropout, a flatten, and two
    heads (two cross_entropy terms, as googlenet's auxiliary heads)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.relu = nn.ReLU(inplace=True)
        self.conv_a = nn.Conv2d(4, 4, 3, padding=1)
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(8 * 4 * 4, 5)
        self.aux = nn.Linear(8 * 4 * 4, 5)

    def forward(self, x):
        y = self.relu(self.bn(self.conv(x)))
        a, b = torch.split(y, 4, dim=1)
        z = torch.cat([self.conv_a(a), b.permute(0, 1, 3, 2)], dim=1)
        f = torch.flatten(nn.functional.max_pool2d(z, 2), 1)
        return self.fc(self.drop(f)), self.aux(f)


class Frozen(nn.Module):
    """A frozen layer and a tensor held outside the parameters:
    0 inputs, 1 t(fc1.weight), 2 mm, 3 t_1 = t(fc2.weight), 4 mm_1,
    5 mul(mm_1, scale), 6 sum_1, 7 ones_like, 8 expand, 9 mul_1(expand,
    scale), 10 t_2, 11 mm_2 = mm(t_2, mm), 12 t_3, 13 t_4, 14 output."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8, bias=False)
        self.fc1.weight.requires_grad_(False)
        self.fc2 = nn.Linear(8, 3, bias=False)
        self.scale = torch.full((3,), 2.0)

    def forward(self, x):
        return self.fc2(self.fc1(x)) * self.scale


class Conv(nn.Conv2d):
    """A module whose output is no [N, classes]."""

    def __init__(self):
        super().__init__(3, 2, 3)


def summary(out, key):
    m = re.search(r"^%s +(\d+)" % key, out, re.M)
    return int(m.group(1)) if m else None


class TorchTraining(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def plan(self, table, *opts):
        """Plans and verifies a table; (lower bound, peak)."""
        csv, plan = self.path("t.csv"), self.path("plan.csv")
        table.write(csv)
        p = run(TPLANCTL, "plan", csv, "-o", plan, *opts)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        v = run(TPLANCTL, "verify", plan, *opts)
        self.assertEqual(v.returncode, 0, v.stdout + v.stderr)
        return summary(p.stdout, "lower bound"), summary(p.stdout, "peak")

    def check_rows(self, table):
        """Uses strictly increasing inside each lifetime, the first one at
        lower; aliases inside their owner; no weight aliased."""
        by_id = {r.id: r for r in table}
        for r in table:
            self.assertIsNotNone(r.uses, r.id)
            self.assertEqual(list(r.uses), sorted(set(r.uses)), r.id)
            if not r.share_key:
                self.assertEqual(r.uses[0], r.lower, r.id)
            self.assertTrue(r.lower <= r.uses[0] and r.uses[-1] < r.upper,
                            r.id)
            if r.alias_of is not None:
                owner = by_id[r.alias_of]
                self.assertIsNone(owner.alias_of, r.id)
                self.assertFalse(owner.share_key, r.id)
                self.assertLessEqual(r.alias_offset + r.size, owner.size,
                                     r.id)

    def test_tiny_rows_by_hand(self):
        table = from_torch_training(Tiny(), torch.randn(2, 4), loss="sum",
                                    weights=True)
        rows = [r for r in table if not r.share_key]
        self.assertEqual([t + (r.uses,) for t, r in
                          zip(as_tuples(rows), rows)], TINY_ROWS)
        self.assertEqual([(r.id, r.lower, r.upper, r.size, r.share_key,
                           r.uses) for r in table if r.share_key],
                         TINY_WEIGHTS)
        self.check_rows(table)

    def test_tiny_folded_by_hand(self):
        table = from_torch_training(Tiny(), torch.randn(2, 4), loss="sum")
        folded = table.folded()
        self.assertEqual([(r.id, r.lower, r.upper, r.size, r.uses)
                          for r in folded], TINY_FOLDED)
        self.assertEqual(folded.columns(),
                         ["id", "lower", "upper", "size", "alignment", "uses",
                          "node", "dtype", "shape"])
        self.check_rows(folded)
        self.assertEqual(table.lower_bound(), TINY_BOUND)
        self.assertEqual(folded.lower_bound(), TINY_BOUND)
        self.assertEqual(self.plan(table, "--aliases"),
                         (TINY_BOUND, TINY_BOUND))
        self.assertEqual(self.plan(folded), (TINY_BOUND, TINY_BOUND))

    def test_net(self):
        """Cross entropy on two heads: a target of N labels; batch-norm's
        buffers and the t() of the linear weights are no rows; a gradient
        for every parameter; plans verify with and without folding, and
        the bounds agree with the table's."""
        net = Net()
        table = from_torch_training(net, torch.randn(2, 3, 8, 8))
        self.check_rows(table)
        ids = [r.id for r in table]
        self.assertEqual(ids[:2], ["input", "target"])
        self.assertEqual(table[1].size, 2 * 8)            # 2 int64 labels
        grads = [n + ".grad" for n, _ in net.named_parameters()]
        self.assertEqual(sorted(i for i in ids if i.endswith(".grad")),
                         sorted(grads))
        steps = max(r.upper for r in table)
        for r in table:
            if r.id in grads or r.id == "loss":
                self.assertEqual(r.upper, steps, r.id)
                self.assertEqual(r.uses[-1], steps - 1, r.id)
        weights = [n for n, _ in list(net.named_parameters()) +
                   list(net.named_buffers())]
        self.assertFalse(set(ids) & set(weights))
        bound = table.lower_bound()
        self.assertEqual(self.plan(table, "--aliases")[0], bound)
        folded = table.folded()
        self.check_rows(folded)
        self.assertEqual(folded.lower_bound(), bound)
        self.assertEqual(self.plan(folded)[0], bound)
        # the split's pieces (getitem_3, getitem_4) and the permute of the
        # second alias the batch-norm result (getitem), which the ReLU
        # overwrote, at their first bytes (the second at channel 4: 4 x 64
        # floats); batch 2: channels are not outermost, so a piece, strides
        # (512, 64, 8, 1), spans 1 + 512 + 3 x 64 + 7 x 8 + 7 = 768 floats
        pieces = [(r.id, r.alias_of, r.alias_offset, r.size) for r in table
                  if r.id in ("getitem_3", "getitem_4", "permute")]
        self.assertEqual(pieces, [("getitem_3", "getitem", 0, 3072),
                                  ("getitem_4", "getitem", 1024, 3072),
                                  ("permute", "getitem", 1024, 3072)])

    def test_alignment(self):
        """--alignment 2048: the split's second piece, 1024 bytes in, gets
        bytes of its own (the permute of it aliases it); plans verify."""
        table = from_torch_training(Net(), torch.randn(2, 3, 8, 8),
                                    alignment=2048)
        self.check_rows(table)
        self.assertEqual({r.alignment for r in table}, {2048})
        self.assertFalse([r.id for r in table if r.alias_offset % 2048])
        rows = {r.id: (r.alias_of, r.size) for r in table}
        self.assertEqual(rows["getitem_4"], (None, 3072))
        self.assertEqual(rows["permute"], ("getitem_4", 3072))
        self.plan(table, "--aliases")
        self.plan(table.folded())

    def test_weights(self):
        """--weights: every parameter and buffer, a share_key each, in the
        module's order; the plan keeps them apart."""
        net = Net()
        table = from_torch_training(net, torch.randn(2, 3, 8, 8),
                                    weights=True)
        names = [n for n, _ in net.named_parameters()] + \
            [n for n, _ in net.named_buffers()]
        w = [r for r in table if r.share_key]
        self.assertEqual([r.id for r in w], names)
        self.assertEqual([r.share_key for r in w],
                         list(range(1, len(names) + 1)))
        sizes = dict((n, p.numel() * p.element_size()) for n, p in
                     list(net.named_parameters()) + list(net.named_buffers()))
        self.assertEqual([r.size for r in w], [sizes[n] for n in names])
        self.check_rows(table)
        bound = table.lower_bound()
        self.assertEqual(bound, from_torch_training(
            net, torch.randn(2, 3, 8, 8)).lower_bound() + sum(sizes.values()))
        self.assertEqual(self.plan(table, "--aliases")[0], bound)

    def test_frozen_and_constants(self):
        """No gradient (and no backward through fc1's weight) for a frozen
        parameter; a tensor attribute is a weight read at two steps, once
        per get_attr make_fx records."""
        table = from_torch_training(Frozen(), torch.randn(2, 4), loss="sum",
                                    weights=True)
        self.check_rows(table)
        self.assertEqual([r.id for r in table if r.id.endswith(".grad")],
                         ["fc2.weight.grad"])
        self.assertEqual([(r.id, r.size, r.share_key, r.uses)
                          for r in table if r.share_key], [
            ("fc1.weight", 128, 1, (1, 2)), ("fc2.weight", 96, 2, (3, 4)),
            ("_tensor_constant0", 12, 3, (5, 9))])
        self.assertEqual(self.plan(table, "--aliases")[0],
                         table.lower_bound())

    def test_spill_reads_uses(self):
        """plan --spill takes the folded table's uses: at 75 % of the bound
        its plan verifies against the table."""
        folded = from_torch_training(Net(), torch.randn(2, 3, 8, 8)).folded()
        csv, out = self.path("f.csv"), self.path("spill.csv")
        folded.write(csv)
        cap = str(folded.lower_bound() * 3 // 4)
        p = run(TPLANCTL, "plan", csv, "--capacity", cap, "--spill",
                "-o", out)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        v = run(TPLANCTL, "verify", out, "--spill", "--table", csv,
                "--capacity", cap)
        self.assertEqual(v.returncode, 0, v.stdout + v.stderr)

    def test_inference_uses(self):
        """--uses without --training: producer and readers; a graph output
        is also used at its last step."""
        table = from_torch(Tiny().eval(), torch.randn(2, 4), uses=True)
        # fx nodes: 0 x, 1 fc1, 2 relu (in place), 3 fc2, 4 output
        self.assertEqual([(r.id, r.lower, r.upper, r.uses) for r in table], [
            ("x", 0, 2, (0, 1)), ("fc1", 1, 3, (1, 2)),
            ("relu", 2, 4, (2, 3)), ("fc2", 3, 5, (3, 4))])
        self.assertIsNone(from_torch(Tiny().eval(),
                                     torch.randn(2, 4))[0].uses)

    def test_command(self):
        """tplan-import torch --training [--fold-aliases] [--loss]."""
        env = dict(os.environ, PYTHONPATH=HERE)

        def cli(*args):
            return subprocess.run(
                [IMPORT, "torch", "test_torch_training:" + args[0]] +
                list(args[1:]), stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, universal_newlines=True, env=env)
        p = cli("Tiny", "--input", "2,4", "--training", "--loss", "sum")
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = core(p.stdout).splitlines()
        self.assertEqual(lines[0], "id,lower,upper,size,alias_of,"
                         "alias_offset,uses")
        self.assertEqual(lines[3], "relu_,3,12,64,mm,0,3 4 6 11")
        p = cli("Tiny", "--input", "2,4", "--training", "--loss", "sum",
                "--fold-aliases")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(core(p.stdout).splitlines()[1:], [
            "%s,%d,%d,%d,%s" % (i, lo, up, s, " ".join(map(str, u)))
            for i, lo, up, s, u in TINY_FOLDED])
        bad = cli("Conv", "--input", "1,3,8,8", "--training")
        self.assertEqual(bad.returncode, 2, bad.stderr)
        self.assertIn("use --loss sum", bad.stderr)
        p = cli("Conv", "--input", "1,3,8,8", "--training", "--loss", "sum")
        self.assertEqual(p.returncode, 0, p.stderr)
        p = cli("Net", "--input", "2,3,8,8", "--training")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("\ntarget,0,", p.stdout)

    def test_bench_table_reproduced(self):
        """tests/bench/training/mobilenet_v2_b1.csv is what its README's
        command writes today, byte for byte."""
        table = os.path.join(TOP, "tests", "bench", "training",
                             "mobilenet_v2_b1.csv")
        out = self.path("m.csv")
        p = run(IMPORT, "torch", "torchvision.models:mobilenet_v2",
                "--input", "1,3,224,224", "--training", "--fold-aliases",
                "-o", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(table) as a, open(out) as b:
            self.assertTrue(a.read() == b.read(), "tables differ")


if __name__ == "__main__":
    unittest.main()
