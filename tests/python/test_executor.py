# SPDX-License-Identifier: MIT
"""Models run in their plans (tplan.executor), and plans broken on purpose
that must fail there.

Run by tests/python/importer_test.sh (Debian's torch and torchvision);
torchvision models with random weights, nothing downloaded.  Every run
checks each value against a plain run of the same graph (check=True) and
the outputs against eager PyTorch.
"""
import copy
import ctypes
import errno
import os
import subprocess
import unittest

from importer_common import HERE, TOP


import torch  # noqa: E402
import torchvision  # noqa: E402

import tplan  # noqa: E402
from tplan import _lib  # noqa: E402
from tplan.executor import ExecutionError, execute  # noqa: E402
from tplan.importer import from_torch, from_torch_training  # noqa: E402

# Inference: split and chunk (shufflenet), concat (googlenet, densenet),
# in-place ReLU (resnet18), multi-head attention (vit) and a plain chain.
INFERENCE = ("resnet18", "googlenet", "shufflenet_v2_x1_0", "densenet121",
             "mobilenet_v2", "vit_b_16")
TRAINING = ("mobilenet_v2", "shufflenet_v2_x1_0")


def model(name):
    torch.manual_seed(0)
    kw = {"aux_logits": False, "init_weights": False} \
        if name == "googlenet" else {}
    return getattr(torchvision.models, name)(weights=None, **kw)


def image(batch=1):
    return torch.randn(batch, 3, 224, 224,
                       generator=torch.Generator().manual_seed(1))


class TinyNet(torch.nn.Module):
    """For tplan-run: a conv, an in-place ReLU, a concat, a view."""

    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.relu = torch.nn.ReLU(inplace=True)
        self.c2 = torch.nn.Conv2d(8, 4, 1)
        self.fc = torch.nn.Linear(12 * 8 * 8, 10)

    def forward(self, x):
        y = self.relu(self.c1(x))
        return self.fc(torch.flatten(torch.cat([y, self.c2(y)], 1), 1))


def tplan_run(*args):
    """tplan-run with args, models from this file."""
    return subprocess.run(
        [os.path.join(TOP, "userspace", "python", "bin", "tplan-run")] +
        list(args), capture_output=True, text=True,
        env=dict(os.environ, PYTHONPATH=HERE))


class Command(unittest.TestCase):
    def run_cli(self, *args):
        return tplan_run("test_executor:TinyNet", "--input", "2,3,8,8", *args)

    def test_runs_and_checks(self):
        p = self.run_cli("--aliases", "--check")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("check        every value equal to a plain run\n",
                      p.stdout)
        self.assertIn("eager        outputs differ by at most 0\n", p.stdout)
        p = self.run_cli("--training", "--spill", "75%", "--check")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout, r"moved +[1-9][0-9]* bytes")

    def test_errors(self):
        # exit codes as tplanctl's: 1 does not fit, 2 cannot be used
        for args, text, code in (
                (("--spill", "100%"), "below 100", 2),
                (("--training", "--spill", "1"), "does not fit", 1),
                (("--strategy", "best"), "invalid strategy", 2)):
            with self.subTest(args=args):
                p = self.run_cli(*args)
                self.assertEqual(p.returncode, code, p.stdout + p.stderr)
                self.assertIn(text, p.stderr)


class Inference(unittest.TestCase):
    def check_model(self, name):
        m = model(name).eval()
        x = image()
        with torch.no_grad():
            eager = m(x)
        for aliases in (False, True):
            with self.subTest(model=name, aliases=aliases):
                out, report = tplan.run(m, (x,), aliases=aliases, check=True)
                self.assertIsNone(report.first_wrong)
                self.assertEqual(report.peak, report.lower_bound)
                diff = float((out[0] - eager).abs().max())
                self.assertLessEqual(diff, 1e-6, "against eager")

    def test_models(self):
        """Each model, with and without aliases, at the lower bound, every
        value equal to a plain run's, the output to eager's."""
        for name in INFERENCE:
            self.check_model(name)

    def test_swin_t(self):
        """swin_t (shifted windows: rolls, window partitions, masks) on a
        64 x 64 image, two windows a side: the output equals eager's."""
        m = model("swin_t").eval()
        x = torch.randn(1, 3, 64, 64,
                        generator=torch.Generator().manual_seed(1))
        with torch.no_grad():
            eager = m(x)
        for aliases in (False, True):
            with self.subTest(aliases=aliases):
                out, report = tplan.run(m, (x,), aliases=aliases, check=True)
                self.assertIsNone(report.first_wrong)
                self.assertEqual(report.peak, report.lower_bound)
                self.assertTrue(torch.equal(out[0], eager), "against eager")

    def test_alignment_64(self):
        """--alignment 64: every offset a multiple of 64, same output."""
        m = model("resnet18").eval()
        x = image()
        table, traced = from_torch(m, (x,), alignment=64, return_graph=True)
        plan = tplan.plan(table, aliases=True)
        self.assertTrue(all(o % 64 == 0 for o in plan.offsets.values()))
        out, report = execute(traced, table, plan, aliases=True, check=True)
        self.assertIsNone(report.first_wrong)
        with torch.no_grad():
            self.assertTrue(torch.equal(out[0], m(x)))


class Branchy(torch.nn.Module):
    """A branch on a tensor's value: torch.fx cannot trace it
    symbolically."""

    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(16, 16)
        self.b = torch.nn.Linear(16, 8)

    def forward(self, x):
        y = torch.relu(self.a(x))
        if y.sum() > 0:
            y = y * 2
        return self.b(y)


class TinyGPT(torch.nn.Module):
    """A GPT-style decoder: token and position embeddings, blocks of
    causal self-attention and an MLP with pre-layer-norm residuals, a final
    layer norm and the output projection tied to the token embedding."""

    def __init__(self, vocab=50, d=32, heads=4, layers=2, context=16):
        super().__init__()
        self.heads = heads
        self.tok = torch.nn.Embedding(vocab, d)
        self.pos = torch.nn.Embedding(context, d)
        self.blocks = torch.nn.ModuleList(
            torch.nn.ModuleDict({
                "ln1": torch.nn.LayerNorm(d),
                "qkv": torch.nn.Linear(d, 3 * d),
                "proj": torch.nn.Linear(d, d),
                "ln2": torch.nn.LayerNorm(d),
                "up": torch.nn.Linear(d, 4 * d),
                "down": torch.nn.Linear(4 * d, d)}) for _ in range(layers))
        self.ln = torch.nn.LayerNorm(d)
        self.head = torch.nn.Linear(d, vocab, bias=False)
        self.head.weight = self.tok.weight

    def attention(self, b, x):
        n, t, d = x.shape
        q, k, v = b["qkv"](x).split(d, dim=2)
        q, k, v = (y.view(n, t, self.heads, d // self.heads).transpose(1, 2)
                   for y in (q, k, v))
        score = q @ k.transpose(-2, -1) / (d // self.heads) ** 0.5
        mask = torch.ones(t, t, dtype=torch.bool).triu(1)
        score = score.masked_fill(mask, float("-inf")).softmax(-1)
        return b["proj"]((score @ v).transpose(1, 2).reshape(n, t, d))

    def forward(self, tokens):
        t = tokens.shape[1]
        x = self.tok(tokens) + self.pos(torch.arange(t))
        for b in self.blocks:
            x = x + self.attention(b, b["ln1"](x))
            x = x + b["down"](torch.nn.functional.gelu(b["up"](b["ln2"](x))))
        return self.head(self.ln(x))


class AtenInference(unittest.TestCase):
    """Modules torch.fx cannot trace symbolically: imported by a traced
    run at the aten level (importer/torch_aten.py), then run in their
    plans."""

    def check(self, m, inputs):
        m = m.eval()
        with torch.no_grad():
            eager = m(*inputs)
        table = from_torch(m, inputs)
        self.assertTrue(any(r.node and r.node.startswith("aten.")
                            for r in table), "not the aten importer")
        for aliases in (False, True):
            with self.subTest(aliases=aliases):
                out, report = tplan.run(m, inputs, aliases=aliases,
                                        check=True)
                self.assertIsNone(report.first_wrong)
                self.assertGreaterEqual(report.peak, report.lower_bound)
                self.assertTrue(torch.equal(out[0], eager), "against eager")

    def test_data_dependent_branch(self):
        torch.manual_seed(0)
        self.check(Branchy(), (torch.randn(4, 16),))

    def test_transformer_encoder(self):
        torch.manual_seed(0)
        layer = torch.nn.TransformerEncoderLayer(64, 4, 128,
                                                 batch_first=True)
        self.check(torch.nn.TransformerEncoder(layer, 2),
                   (torch.randn(2, 10, 64),))

    def test_gpt_decoder(self):
        torch.manual_seed(0)
        self.check(TinyGPT(), (torch.randint(50, (2, 12)),))

    def test_transformer(self):
        torch.manual_seed(0)
        m = torch.nn.Transformer(64, 4, 2, 2, 128, batch_first=True)
        self.check(m, (torch.randn(2, 10, 64), torch.randn(2, 7, 64)))


class CachedGPT(TinyGPT):
    """TinyGPT with a KV cache of fixed capacity: forward(tokens, pos,
    cache) writes each layer's keys and values at positions pos of cache
    [layers, 2, n, heads, capacity, d / heads] in place and attends over
    the whole cache, masked to the positions up to each query's."""

    def __init__(self, vocab=50, d=32, heads=4, layers=2, capacity=32):
        super().__init__(vocab, d, heads, layers, context=capacity)
        self.capacity = capacity

    def new_cache(self, n):
        d = self.tok.weight.shape[1]
        return torch.zeros(len(self.blocks), 2, n, self.heads, self.capacity,
                           d // self.heads)

    def attention(self, b, x, pos, cache):
        n, t, d = x.shape
        q, k, v = b["qkv"](x).split(d, dim=2)
        q, k, v = (y.view(n, t, self.heads, d // self.heads).transpose(1, 2)
                   for y in (q, k, v))
        cache[0].index_copy_(2, pos, k)
        cache[1].index_copy_(2, pos, v)
        score = q @ cache[0].transpose(-2, -1) / (d // self.heads) ** 0.5
        later = torch.arange(self.capacity)[None, :] > pos[:, None]
        score = score.masked_fill(later, float("-inf")).softmax(-1)
        return b["proj"]((score @ cache[1]).transpose(1, 2).reshape(n, t, d))

    def forward(self, tokens, pos, cache):
        x = self.tok(tokens) + self.pos(pos)
        for i, b in enumerate(self.blocks):
            x = x + self.attention(b, b["ln1"](x), pos, cache[i])
            x = x + b["down"](torch.nn.functional.gelu(b["up"](b["ln2"](x))))
        return self.head(self.ln(x))

def eager_decoding(steps):
    """A CachedGPT, a prompt, the logits of its prefill and of steps greedy
    decode steps as eager computes them, and the cache at the end."""
    torch.manual_seed(0)
    m = CachedGPT().eval()
    prompt = torch.randint(50, (1, 6))
    n = prompt.shape[1]
    cache = m.new_cache(1)
    with torch.no_grad():
        want = [m(prompt, torch.arange(n), cache)]
        for i in range(steps):
            token = want[-1][:, -1].argmax(-1, keepdim=True)
            want.append(m(token, torch.tensor([n + i]), cache))
    return m, prompt, want, cache


class Decoding(unittest.TestCase):
    """LLM decoding in plans: a prefill and 16 decode steps of CachedGPT,
    its KV cache pinned between them (tplan.Stateful)."""

    def test_prefill_and_16_steps_equal_eager(self):
        m, prompt, want, cache = eager_decoding(16)
        n = prompt.shape[1]
        session = tplan.Stateful(m, m.new_cache(1))
        out, report = session(prompt, torch.arange(n), check=True)
        self.assertIsNone(report.first_wrong)
        self.assertTrue(torch.equal(out[0], want[0]), "prefill")
        for i in range(16):
            token = out[0][:, -1].argmax(-1, keepdim=True)
            out, report = session(token, torch.tensor([n + i]),
                                  check=i < 2)
            self.assertIsNone(report.first_wrong)
            self.assertTrue(torch.equal(out[0], want[i + 1]),
                            "decode step %d" % i)
        self.assertTrue(torch.equal(session.state, cache), "the cache")
        self.assertEqual(len(session.calls), 2, "a prefill and a step plan")
        for table, _, plan, pinned, _ in session.calls.values():
            self.assertEqual(plan.offsets[pinned], 0)
            self.assertLessEqual(plan.peak, session.arena.numel())
            self.assertEqual(plan.peak, plan.lower_bound)


class Counter(torch.nn.Module):
    """Adds its input's rows to a running total, the state, in place."""

    def forward(self, x, total):
        total.add_(x.sum(0))
        return total * 2


class StateOnce(unittest.TestCase):
    """check=True compares with a plain run of its own: the state is
    updated once per call, by the plan (once it was updated twice)."""

    def test_check_updates_the_state_once(self):
        session = tplan.Stateful(Counter().eval(), torch.zeros(4))
        x = torch.ones(3, 4)
        for calls in (1, 2):
            out, report = session(x, check=True)
            self.assertIsNone(report.first_wrong)
            self.assertTrue(torch.equal(session.state,
                                        torch.full((4,), 3.0 * calls)))
            self.assertTrue(torch.equal(out[0], torch.full((4,), 6.0 * calls)))


class Joined(torch.nn.Module):
    """Two halves joined along the sequence: with aliases the second lies
    in the concat's bytes at an offset that grows with the length."""

    def __init__(self, d=8):
        super().__init__()
        self.a = torch.nn.Linear(d, d)
        self.b = torch.nn.Linear(d, d)

    def forward(self, x):
        y = torch.cat([self.a(x), torch.relu(self.b(x))], dim=1)
        return torch.tanh(y) * 2


class MaxShape(unittest.TestCase):
    """One plan, made at the longest sequence, serves shorter ones
    (tplan.run(max_inputs=...), tplan.fit_plan())."""

    def test_alias_offsets_follow_the_shape(self):
        torch.manual_seed(0)
        m = Joined().eval()
        longest = (torch.randn(1, 16, 8),)
        table = from_torch(m, longest)
        self.assertTrue(any(r.alias_of and r.alias_offset for r in table),
                        "no concat input at an offset")
        for t in (16, 9, 3):
            with self.subTest(length=t):
                x = (torch.randn(1, t, 8),)
                with torch.no_grad():
                    eager = m(*x)
                out, report = tplan.run(m, x, aliases=True, check=True,
                                        max_inputs=longest)
                self.assertIsNone(report.first_wrong)
                self.assertTrue(torch.equal(out[0], eager))

    def test_three_lengths_in_one_plan(self):
        torch.manual_seed(0)
        m = TinyGPT().eval()
        longest = (torch.randint(50, (2, 16)),)
        for aliases in (False, True):
            for t in (16, 9, 3):
                with self.subTest(aliases=aliases, length=t):
                    tokens = (torch.randint(50, (2, t)),)
                    with torch.no_grad():
                        eager = m(*tokens)
                    out, report = tplan.run(m, tokens, aliases=aliases,
                                            check=True, max_inputs=longest)
                    self.assertIsNone(report.first_wrong)
                    self.assertTrue(torch.equal(out[0], eager))
                    full, _ = tplan.run(m, longest, aliases=aliases)
                    self.assertEqual(report.peak, _.peak,
                                     "the longest input's plan")
                    if t < 16:
                        self.assertLess(report.lower_bound, _.lower_bound)

    def test_longer_than_planned_is_refused(self):
        torch.manual_seed(0)
        m = TinyGPT().eval()
        with self.assertRaisesRegex(tplan.ExecutionError,
                                    "bytes here, .* were planned"):
            tplan.run(m, (torch.randint(50, (1, 12)),),
                      max_inputs=(torch.randint(50, (1, 8)),))

    def tplan_run(self, *args):
        return tplan_run("test_executor:TinyGPT", "--input", "2,5:int64",
                         *args)

    def test_command(self):
        p = self.tplan_run("--max-input", "2,16:int64", "--check")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("every value equal to a plain run", p.stdout)
        self.assertIn("eager        outputs differ by at most 0\n", p.stdout)
        p = self.tplan_run("--max-input", "2,16:int64",
                           "--max-input", "2,16:int64")
        self.assertEqual(p.returncode, 2)
        self.assertIn("one per --input", p.stderr)


class Compiled(unittest.TestCase):
    """tplan.Runner: execute()'s check=False run compiled once, then
    replayed: the same outputs and the same bytes."""

    def plans(self, m, inputs):
        table, traced = from_torch(m, inputs, return_graph=True)
        for aliases in (False, True):
            yield aliases, table, traced, tplan.plan(
                table if aliases else table.unaliased(), aliases=aliases)

    def test_gpt_and_resnet18_as_eager(self):
        """Each call's outputs equal eager's, new inputs included; the
        replay writes most results straight into their rows (out=)."""
        torch.manual_seed(0)
        gpt = TinyGPT().eval()
        tokens = [torch.randint(50, (2, 12)) for _ in range(3)]
        cases = [(gpt, tokens), (model("resnet18").eval(),
                                 [image(), image() * 2])]
        for m, xs in cases:
            for aliases, table, traced, plan in self.plans(m, (xs[0],)):
                with self.subTest(model=type(m).__name__, aliases=aliases):
                    runner = tplan.Runner(traced, table, plan, aliases)
                    for x in xs + xs[:1]:
                        with torch.no_grad():
                            want = m(x)
                        self.assertTrue(torch.equal(runner(x)[0], want))
                    if m is gpt:   # aten ops (resnet18's are modules)
                        self.assertIn("out=", runner.source)

    def test_bytes_as_execute(self):
        """With garbage=True the arena holds execute()'s bytes after each
        run, dead bytes included."""
        torch.manual_seed(0)
        gpt = TinyGPT().eval()
        x = torch.randint(50, (1, 9))
        for aliases, table, traced, plan in self.plans(gpt, (x,)):
            with self.subTest(aliases=aliases):
                mine = torch.empty(plan.peak, dtype=torch.uint8)
                theirs = torch.empty(plan.peak, dtype=torch.uint8)
                runner = tplan.Runner(traced, table, plan, aliases,
                                      arena=mine, garbage=True)
                for _ in range(2):
                    mine.fill_(7)
                    runner()
                    execute(traced, table, plan, aliases, arena=theirs)
                    self.assertTrue(torch.equal(mine, theirs))

    def test_refused(self):
        """Inputs of another shape, and spill plans, go to execute()."""
        torch.manual_seed(0)
        gpt = TinyGPT().eval()
        x = torch.randint(50, (1, 9))
        _, table, traced, plan = next(self.plans(gpt, (x,)))
        runner = tplan.Runner(traced, table, plan)
        runner(x)
        with self.assertRaises(ExecutionError):
            runner(torch.randint(50, (1, 8)))
        spilled = tplan.plan_spill(table.folded(), table.lower_bound())
        with self.assertRaises(ExecutionError):
            tplan.Runner(traced, table, spilled)


class Training(unittest.TestCase):
    def test_spill(self):
        """A training step within 75 % and 50 % of its lower bound: copies
        out, then in, at each boundary; every value and every gradient as
        in a plain run of the same graph."""
        for name in TRAINING:
            m = model(name)
            table, traced = from_torch_training(m, (image(),),
                                                return_graph=True)
            bound = table.lower_bound()
            for share in (0.75, 0.5):
                with self.subTest(model=name, share=share):
                    plan = tplan.plan_spill(table.folded(),
                                            int(bound * share))
                    out, report = execute(traced, table, plan, check=True)
                    self.assertIsNone(report.first_wrong)
                    self.assertLessEqual(report.peak, bound * share)
                    self.assertEqual(report.moved, plan.moved)
                    self.assertEqual(len(out), 1 + len(
                        [p for p in m.parameters() if p.requires_grad]))

    def test_run_without_spill(self):
        m = model("shufflenet_v2_x1_0")
        out, report = tplan.run(m, (image(),), training=True, aliases=True,
                                check=True)
        self.assertIsNone(report.first_wrong)
        self.assertEqual((report.moved, report.host_peak), (0, 0))


class Sabotage(unittest.TestCase):
    """Plans broken in one place; the executor must see each."""

    @classmethod
    def setUpClass(cls):
        cls.m = model("googlenet").eval()
        cls.x = image()
        cls.table, cls.traced = from_torch(cls.m, (cls.x,), uses=True,
                                           return_graph=True)

    def fails(self, table, plan, aliases, **kw):
        try:
            out, report = execute(self.traced, table, plan, aliases,
                                  check=True, **kw)
        except ExecutionError:
            return True
        return report.first_wrong is not None

    def test_unbroken_passes(self):
        self.assertFalse(self.fails(self.table, tplan.plan(self.table),
                                    False))

    def test_offset_onto_live_tensor(self):
        """One row moved onto a row alive at the same step, read later."""
        plan = tplan.plan(self.table.unaliased())
        rows = [r for r in self.table if r.size]
        a, b = next((a, b) for a in rows for b in rows
                    if b.lower < a.lower < b.upper - 1)
        plan.offsets[a.id] = plan.offsets[b.id]
        self.assertTrue(self.fails(self.table, plan, False))

    def test_lifetime_shortened(self):
        """One row said to die right after it is made, though read later:
        its bytes are garbage (and reused) before its last reader."""
        table = copy.deepcopy(self.table).unaliased()
        row = max(table, key=lambda r: r.upper - r.lower)
        row.upper = row.lower + 1
        row.uses = (row.lower,)
        self.assertTrue(self.fails(table, tplan.plan(table), False))

    def test_alias_offset_shifted(self):
        """One alias (a concat slot, a view) moved by 64 bytes."""
        plan = tplan.plan(self.table, aliases=True)
        self.assertFalse(self.fails(self.table, plan, True))
        for member in [r for r in self.table if r.alias_of][:4]:
            with self.subTest(row=member.id):
                broken = tplan.plan(self.table, aliases=True)
                broken.offsets[member.id] += 64
                self.assertTrue(self.fails(self.table, broken, True))

    def test_spill_copies_in_before_out(self):
        """A spill plan run with the copies in before the copies out at a
        boundary: a piece coming in takes bytes one going out still holds."""
        m = model("shufflenet_v2_x1_0")
        table, traced = from_torch_training(m, (image(),), return_graph=True)
        plan = tplan.plan_spill(table.folded(), table.lower_bound() // 2)
        out, report = execute(traced, table, plan, check=True,
                              in_first=True)
        self.assertIsNotNone(report.first_wrong)


class SmallNet(torch.nn.Module):
    """python_e2e's conv net, narrower: one training step (batch 4, 6 x 6)
    spilled at 60 % of its bound moves 24192 bytes, 4 pieces out and back
    in (8 copies) at 7 boundaries, one of which brings a piece in where
    another goes out (so that in_first breaks it)."""

    def __init__(self, c=4, hw=6):
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, c, 3, padding=1)
        self.relu = torch.nn.ReLU(inplace=True)
        self.c2 = torch.nn.Conv2d(c, c // 2, 3, padding=1)
        self.c3 = torch.nn.Conv2d(c, c // 2, 1)
        self.fc = torch.nn.Linear(c * hw * hw, 10)

    def forward(self, x):
        y = self.relu(self.c1(x))
        z = torch.cat([self.c2(y), self.c3(y)], dim=1)
        return self.fc(torch.flatten(z, 1))


class FakeJobs:
    """A device that runs jobs, in this process: the held plan (plan_id 7,
    its region in pool 1 a bytearray) and a job() that does each copy with
    memmove at once, recording it; drop_in leaves out the copies in, as a
    device that lost them would."""

    def __init__(self, size, drop_in=False):
        self.arena = bytearray(size)
        self.base = ctypes.addressof((ctypes.c_char * size).from_buffer(
            self.arena))
        self.plan_id, self.pool, self.device = 7, 1, self
        self.path, self.has_jobs = "fake", True
        self.drop_in = drop_in
        self.jobs = []

    def map(self):
        return self.arena

    def address(self, place, n):
        if place.kind == _lib.TPLAN_EDU_PLACE_USER:
            return place.offset
        assert (place.plan_id, place.slot) == (self.plan_id, self.pool)
        assert 0 <= place.offset and place.offset + n <= len(self.arena)
        return self.base + place.offset

    def job(self, copies, timeout_ms=0, keep=()):
        copies = list(copies)
        self.jobs.append((copies, timeout_ms))
        for src, dst, n in copies:
            if self.drop_in and dst.kind == _lib.TPLAN_EDU_PLACE_REGION:
                continue
            ctypes.memmove(self.address(dst, n), self.address(src, n), n)
        return FakeFence()


class FakeFence:
    def wait(self, timeout_ms=-1):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass


class DeviceJobs(unittest.TestCase):
    """execute()'s device mode on a fake device: the spill copies of a
    boundary are one job, outs then ins, between the plan's region and a
    page-aligned host buffer; the outputs are the CPU copies' bit for bit;
    a device that drops the copies in, or copies in first, breaks it."""

    @classmethod
    def setUpClass(cls):
        torch.manual_seed(0)
        cls.m = SmallNet()
        cls.x = torch.randn(4, 3, 6, 6)
        cls.table, cls.traced = from_torch_training(cls.m, (cls.x,),
                                                    return_graph=True)
        cls.plan = tplan.plan_spill(cls.table.folded(),
                                    int(cls.table.lower_bound() * 0.6))
        cls.cpu, cls.cpu_report = execute(cls.traced, cls.table, cls.plan,
                                          check=True)

    def run_jobs(self, **kw):
        fake = FakeJobs(self.plan.peak, kw.pop("drop_in", False))
        out, report = execute(self.traced, self.table, self.plan, check=True,
                              jobs=fake, **kw)
        return fake, out, report

    def test_jobs_as_cpu(self):
        self.assertIsNone(self.cpu_report.first_wrong)
        self.assertGreater(self.cpu_report.moved, 0)
        fake, out, report = self.run_jobs()
        self.assertIsNone(report.first_wrong)
        self.assertTrue(all(torch.equal(a, b) for a, b in zip(out, self.cpu)))
        self.assertEqual(report.moved, self.cpu_report.moved)
        self.assertEqual(report.job_bytes, report.moved)
        self.assertEqual(report.jobs, len(fake.jobs))
        pieces = {}
        for p in self.plan.pieces:
            pieces.setdefault(p.id, []).append(p)
        boundaries = {t for ps in pieces.values()
                      for prev, p in zip(ps, ps[1:])
                      for t in (prev.upper, p.lower)}
        self.assertEqual(report.jobs, len(boundaries))
        copies = [c for job, _ in fake.jobs for c in job]
        self.assertEqual(len(copies), 2 * sum(p.piece > 0
                                              for p in self.plan.pieces))
        for job, timeout in fake.jobs:
            kinds = [dst.kind for _, dst, _ in job]
            self.assertEqual(kinds, sorted(kinds, reverse=True),
                             "copies out (to user memory) first")
            self.assertTrue(0 < timeout <= _lib.TPLAN_EDU_MAX_TIMEOUT_MS)
        user = [p.offset for c in copies for p in c[:2]
                if p.kind == _lib.TPLAN_EDU_PLACE_USER]
        self.assertEqual(min(user) % 4096, 0, "the host buffer starts on a "
                         "page")

    def test_dropped_copies_fail(self):
        _, _, report = self.run_jobs(drop_in=True)
        self.assertIsNotNone(report.first_wrong)

    def test_in_first_fails(self):
        _, _, report = self.run_jobs(in_first=True)
        self.assertIsNotNone(report.first_wrong)

    def test_job_limits(self):
        """More copies or bytes than a job takes: several jobs, in order;
        a copy past 1 MiB in parts of 1 MiB."""
        from tplan.executor import _Jobs
        fake = FakeJobs(3 << 20)
        host = torch.zeros(3 << 20, dtype=torch.uint8)
        jobs = _Jobs(fake, host)
        place = tplan.Place.region(fake, 0)
        copies = [(place, tplan.Place.user(host.data_ptr()), 1)] * 300 + \
            [(tplan.Place.region(fake, 16), tplan.Place.user(
                host.data_ptr() + 16), (2 << 20) + 5)]
        jobs.run(copies)
        self.assertEqual([len(j) for j, _ in fake.jobs], [256, 44, 1, 1, 1])
        self.assertEqual([sum(n for _, _, n in j) for j, _ in fake.jobs],
                         [256, 44, 1 << 20, 1 << 20, 5])
        self.assertEqual([j[0][0].offset for j, _ in fake.jobs[2:]],
                         [16, 16 + (1 << 20), 16 + (2 << 20)])
        self.assertEqual(jobs.jobs, 5)

    def test_run_needs_jobs(self):
        with tplan.Device("/dev/null") as dev:
            with self.assertRaises(tplan.Error) as cm:
                tplan.run(self.m, (self.x,), training=True, spill=0.6,
                          device=dev, jobs=True)
            self.assertEqual(cm.exception.errno, errno.ENOTTY)
        with self.assertRaises(tplan.Error) as cm:
            tplan.run(self.m, (self.x,), jobs=True)
        self.assertEqual(cm.exception.errno, errno.EINVAL)

if __name__ == "__main__":
    unittest.main()
