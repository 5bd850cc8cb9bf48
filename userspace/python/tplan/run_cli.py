# SPDX-License-Identifier: MIT
"""tplan-run: a torch model run with every tensor at its planned offset."""
import argparse
import errno
import sys

from .errors import Error
from .importer.cli import _alignment, _build_module, _dims, _inputs
from .importer.rows import TableError

DESCRIPTION = """\
Import a torch module (as tplan-import torch does), plan it and run it with
every tensor at its planned offset in one byte arena (tplan.run, the
reference executor: docs/IMPORTERS.md, "Running a model in its plan"),
freed bytes overwritten with garbage; --check compares every value with a
plain run of the same graph.  Prints the plan's figures and what the check
found."""

EPILOG = """\
exit codes: 0 the model ran (and every value checked was right), 1 a value
differed from the plain run, the plan could not be carried out, or it does
not fit (as tplanctl), 2 a model or option that cannot be used (the message
says why)."""


def parser():
    p = argparse.ArgumentParser(
        prog="tplan-run", description=DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("module", metavar="MODULE:CALLABLE",
                   help="e.g. torchvision.models:resnet18")
    p.add_argument("--input", type=_dims, action="append", required=True,
                   metavar="DIMS[:DTYPE]",
                   help="one per forward() argument, e.g. 1,3,224,224")
    p.add_argument("--max-input", type=_dims, action="append",
                   metavar="DIMS[:DTYPE]",
                   help="plan for inputs this large (one per --input, "
                   "each no smaller), then run --input in that plan")
    p.add_argument("--training", action="store_true",
                   help="one training step: forward, loss, backward")
    p.add_argument("--loss", choices=("cross_entropy", "sum"),
                   default="cross_entropy", help="with --training")
    p.add_argument("--aliases", action="store_true",
                   help="views and in-place results share their owner's "
                   "bytes (tplanctl plan --aliases)")
    p.add_argument("--alignment", type=_alignment, default=1, metavar="N",
                   help="every tensor's least alignment (default: its "
                   "element size)")
    p.add_argument("--spill", metavar="SIZE|PCT%",
                   help="a spill plan within SIZE device bytes, or PCT "
                   "percent of the lower bound")
    p.add_argument("--strategy", default="auto",
                   help="the planner's strategy (with --spill: the spill "
                   "strategy, default 'default')")
    p.add_argument("--device", nargs="?", const="", metavar="PATH",
                   help="plan through the device (default: the first tplan accel device) and "
                   "run in the region it maps; with --spill on a device "
                   "that runs jobs (tplan_edu), the spill copies are its "
                   "DMA engine's jobs")
    p.add_argument("--no-jobs", action="store_true",
                   help="with --spill and --device: the CPU copies, even "
                   "on a device that runs jobs")
    p.add_argument("--check", action="store_true",
                   help="compare every value with a plain run")
    return p


def _spill(text):
    """--spill: bytes, or a fraction of the bound for "PCT%"."""
    if text is None:
        return None
    if text.endswith("%"):
        try:
            pct = float(text[:-1])
        except ValueError:
            pct = 0
        if not 0 < pct < 100:
            raise TableError("--spill %s: a percentage above 0 and below 100"
                             % text)
        return pct / 100
    from .table import parse_size
    return parse_size(text, "--spill")


def _report(args, report, eager_diff):
    rows = [("model", args.module), ("steps", report.steps),
            ("peak", "%d bytes" % report.peak),
            ("lower bound", "%d bytes" % report.lower_bound)]
    if args.spill is not None:
        rows += [("moved", "%d bytes" % report.moved),
                 ("host peak", "%d bytes" % report.host_peak)]
    if report.jobs:
        rows.append(("device jobs", "%d, %d bytes, %.1f s" % (
            report.jobs, report.job_bytes, report.job_seconds)))
    if report.checked:
        w = report.first_wrong
        rows.append(("check", "every value equal to a plain run" if w is None
                     else "tensor %s %s at step %d (node %s) differs by %g"
                     % (w.row, w.when, w.step, w.node, w.max_diff)))
    if eager_diff is not None:
        rows.append(("eager", "outputs differ by at most %g" % eager_diff))
    for name, value in rows:
        print("%-12s %s" % (name, value))


def _eager_difference(module, inputs, out):
    """The largest difference between the run's first output and eager's
    (inference only: a training step's outputs are gradients)."""
    from .importer.torch_import import _torch
    torch = _torch()
    with torch.no_grad():
        want = module(*inputs)
    if isinstance(want, (tuple, list)):
        want = want[0]
    return float((out[0] - want).abs().max()) if out else None


def main(argv=None):
    args = parser().parse_args(argv)
    from . import executor
    try:
        from .importer.torch_import import _torch
        torch = _torch()
        torch.manual_seed(0)
        module = _build_module(args.module)
        module = module.train() if args.training else module.eval()
        inputs = _inputs(torch, args.input)
        largest = None
        if args.max_input is not None:
            if len(args.max_input) != len(args.input):
                raise TableError("--max-input: one per --input (%d, not %d)"
                                 % (len(args.input), len(args.max_input)))
            largest = _inputs(torch, args.max_input)
        device = None
        if args.device is not None:
            from .device import Device
            device = Device(args.device or None)
        out, report = executor.run(
            module, inputs, training=args.training, aliases=args.aliases,
            alignment=args.alignment, spill=_spill(args.spill),
            strategy=args.strategy, device=device, check=args.check,
            loss=args.loss, jobs=False if args.no_jobs else None,
            max_inputs=largest)
        eager = None if args.training else \
            _eager_difference(module, inputs, out)
        _report(args, report, eager)
        return 1 if report.first_wrong else 0
    except TableError as e:
        print("tplan-run: %s" % e, file=sys.stderr)
        return 2
    except executor.ExecutionError as e:
        print("tplan-run: %s" % e.strerror, file=sys.stderr)
        return 1
    except Error as e:      # a plan that cannot be made with these options
        print("tplan-run: %s" % e, file=sys.stderr)
        return 1 if e.errno == errno.ENOSPC else 2
