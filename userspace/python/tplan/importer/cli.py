# SPDX-License-Identifier: MIT
"""tplan-import: a model's tensor lifetime table, for tplanctl plan."""
import argparse
import importlib
import os
import sys

from .rows import TableError

DESCRIPTION = """\
Write the tensor lifetime table of a model in the CSV that tplanctl reads
(id,lower,upper,size,alignment,alias_of,alias_offset; share_key with
--weights, uses with --uses; node, dtype and shape, which the planner
passes through), to standard output or -o FILE.  Plan it with: tplanctl plan
FILE --aliases.  torch --training: one training step (forward, loss,
backward)."""

CONVENTIONS = """\
conventions (docs/IMPORTERS.md):
  step k        the k-th node in topological order (ONNX: the graph's nodes,
                Constant ones included; torch: every fx node, placeholders
                and the output node included)
  lower         the step of the node producing the tensor (graph inputs: 0)
  upper         one past the step of its last reader (graph outputs: the
                number of nodes; a tensor nobody reads: its step + 1)
  id            the graph's value name (torch: the fx node's name); a ',',
                '%', control character or blank at either end is written
                %XX (hex); an empty name or one over 1000 bytes is an error
  size          elements x element size, from shape inference (ONNX:
                onnx.shape_inference; torch: ShapeProp on the example
                inputs); a tensor whose shape is not fully known is an error
                naming it (exit code 2): give --batch, or static shapes
  weights       initializers, Constant outputs, parameters and buffers: left
                out, or with --weights one row each, alive over every step,
                with a share_key of its own
  alias_of      views share their input's bytes: ONNX Reshape, Flatten,
                Squeeze, Unsqueeze, Identity; torch view, reshape, flatten,
                unflatten, squeeze, unsqueeze, view_as, reshape_as,
                contiguous, detach, dropout, nn.Flatten, nn.Identity, and
                in-place ops (inplace=True, methods ending in _).  Not
                permute, transpose or expand: they reorder or repeat
                elements, so their result has bytes of its own.  A view of a
                weight has bytes of its own.
  alias_offset  Concat/Split (torch cat, split, chunk, unbind) along the
                outermost axis (axis 0, or only 1s before it): split pieces
                alias the input at their offsets; a concat input aliases the
                output at its offset if it is produced by a node, is not a
                graph output, is read by that concat alone and once, and is
                not an alias already; other inputs are copied.  No alias at
                an offset that breaks --alignment.
  uses          the producer's step and each reader's; a graph output's
                last step too
  --training    aten ops traced by make_fx: step 0 the inputs (input,
                target, parameters, buffers), then one step per op; rows
                for activations (alive until their backward use), loss and
                PARAMETER.grad (to the end); parameters and buffers are
                weights; a result sharing an input's storage (a view, an
                in-place op, t, permute, expand) aliases its owner at its
                byte offset; cat copies
exit codes: 0 written, 2 a model that cannot become a table (message names
the tensor), 1 any other error."""


def _dims(text):
    """DIMS[:DTYPE] -> (tuple of ints, dtype name)."""
    dims, _, dtype = text.partition(":")
    try:
        shape = tuple(int(d) for d in dims.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            "'%s': expected dimensions like 1,3,224,224[:float32]" % text)
    if any(d < 0 for d in shape):
        raise argparse.ArgumentTypeError("'%s': negative dimension" % text)
    return shape, dtype or "float32"


def _alignment(text):
    try:
        v = int(text)
    except ValueError:
        v = 0
    if v < 1 or v & (v - 1):
        raise argparse.ArgumentTypeError("'%s': not a power of two" % text)
    return v


def _batch(text):
    try:
        v = int(text)
    except ValueError:
        v = 0
    if v < 1:
        raise argparse.ArgumentTypeError("'%s': not a positive number" % text)
    return v


def parser():
    p = argparse.ArgumentParser(
        prog="tplan-import", description=DESCRIPTION, epilog=CONVENTIONS,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="kind", metavar="{onnx,torch}")
    sub.required = True

    def common(sp):
        sp.add_argument("-o", "--output", metavar="FILE", default="-",
                        help="write the table here (default: standard "
                        "output)")
        sp.add_argument("--weights", action="store_true",
                        help="emit weights as share_key rows")
        sp.add_argument("--alignment", type=_alignment, default=1,
                        metavar="N", help="every tensor's least alignment in "
                        "bytes (a power of two); a tensor's is at least its "
                        "element size, so that it can be viewed as its "
                        "dtype (default 1: the element size)")
        sp.add_argument("--uses", action="store_true",
                        help="emit the uses column: the steps at which each "
                        "tensor is written or read")
        sp.add_argument("--fold-aliases", action="store_true",
                        help="make each alias group one row (the owner's, "
                        "alive over the union of the members' lifetimes)")

    o = sub.add_parser("onnx", help="an ONNX model file",
                       description="The table of an ONNX model file.",
                       epilog=CONVENTIONS,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    o.add_argument("model", metavar="MODEL.onnx")
    o.add_argument("--batch", type=_batch, metavar="N",
                   help="set the inputs' first dimension to N where it is "
                   "symbolic")
    common(o)
    t = sub.add_parser("torch", help="a torch.nn.Module, traced by torch.fx",
                       description="The table of an nn.Module traced by "
                       "torch.fx (at the aten level, as it runs, when "
                       "torch.fx cannot trace it), run once on random "
                       "inputs (eval mode, random weights as the module "
                       "builds them).",
                       epilog=CONVENTIONS,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    t.add_argument("module", metavar="MODULE:CALLABLE",
                   help="e.g. torchvision.models:resnet18, called with no "
                   "arguments to build the module (or an nn.Module object)")
    t.add_argument("--input", type=_dims, action="append", required=True,
                   metavar="DIMS[:DTYPE]",
                   help="one per forward() argument, e.g. 1,3,224,224 or "
                   "1,128:int64 (default dtype float32)")
    t.add_argument("--training", action="store_true",
                   help="one training step: forward, loss and the "
                   "gradients of every parameter (train mode, traced at the "
                   "aten level by make_fx); implies --uses")
    t.add_argument("--loss", choices=("cross_entropy", "sum"),
                   default="cross_entropy",
                   help="with --training: cross_entropy (outputs [N, "
                   "classes], random labels; the default) or sum (of every "
                   "output element)")
    common(t)
    return p


def _build_module(spec):
    modname, sep, attr = spec.partition(":")
    if not sep or not modname or not attr:
        raise TableError("'%s': expected MODULE:CALLABLE, e.g. "
                         "torchvision.models:resnet18" % spec)
    # as under python -m: a module in the current directory imports
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        obj = importlib.import_module(modname)
    except ImportError as e:
        raise TableError("cannot import '%s': %s" % (modname, e))
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise TableError("'%s' has no attribute '%s'" % (modname, attr))
        obj = getattr(obj, part)
    import torch
    if not isinstance(obj, torch.nn.Module):
        obj = obj()
    if not isinstance(obj, torch.nn.Module):
        raise TableError("'%s' gave a %s, not an nn.Module"
                         % (spec, type(obj).__name__))
    return obj


def _inputs(torch, specs):
    """--input's (shape, dtype) pairs as tensors: random floats, zeros."""
    inputs = []
    for shape, dtype in specs:
        dt = getattr(torch, dtype, None)
        if not isinstance(dt, torch.dtype):
            raise TableError("unknown dtype '%s'" % dtype)
        if dt.is_floating_point:
            inputs.append(torch.randn(shape, dtype=dt))
        else:
            inputs.append(torch.zeros(shape, dtype=dt))
    return tuple(inputs)


def _torch_table(args):
    from .torch_import import _torch, from_torch
    torch = _torch()
    torch.manual_seed(0)
    module = _build_module(args.module)
    module = module.train() if args.training else module.eval()
    inputs = _inputs(torch, args.input)
    if args.training:
        from .torch_training import from_torch_training
        return from_torch_training(module, inputs, loss=args.loss,
                                   weights=args.weights,
                                   alignment=args.alignment)
    return from_torch(module, inputs, weights=args.weights,
                      alignment=args.alignment, uses=args.uses)


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        if args.kind == "onnx":
            from .onnx_import import from_onnx
            table = from_onnx(args.model, weights=args.weights,
                              batch=args.batch, alignment=args.alignment,
                              uses=args.uses)
        else:
            table = _torch_table(args)
        if args.fold_aliases:
            table = table.folded()
        table.write(args.output)
    except TableError as e:
        print("tplan-import: %s" % e, file=sys.stderr)
        return e.exit_code
    except OSError as e:
        print("tplan-import: %s" % e, file=sys.stderr)
        return 1
    return 0
