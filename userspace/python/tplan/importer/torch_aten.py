# SPDX-License-Identifier: MIT
"""nn.Module -> the lifetime table of one inference run, traced at the aten
level: the way in for modules torch.fx cannot trace symbolically.

from_torch_aten(module, example_inputs) runs the module once on the example
inputs under make_fx (torch.fx.experimental.proxy_tensor) and
torch.no_grad(), the parameters and buffers passed in
(torch.nn.utils.stateless.functional_call).  Every aten op eager PyTorch
runs is a node, so Python control flow (a branch on a tensor's shape or
value, a loop over layers) is followed the way the example inputs take it:
the table is specialised to them, as every table is to its shapes.

The rows are built as a training step's (torch_training.py): step 0 holds
the graph inputs, step k the k-th aten op, the last step the output node;
a view or an in-place result aliases the row owning its storage;
parameters and buffers are weights.  Rows are named after the fx nodes
(aten op names: addmm, relu_1, ...); the inputs are "input", "input_1",
..., and the module's output tensors, in the order
torch.utils._pytree flattens them, "output", "output_1", ...
"""
from .rows import TableError
from .torch_import import _torch
from .torch_training import _Builder, _Probe, _value_names
from .traced import Traced


def _infer_function(torch, module, pnames, bnames):
    """f(params, buffers, inputs) -> the module's output tensors, flat."""
    import torch.utils._pytree as pytree
    from torch.nn.utils.stateless import functional_call

    def infer(params, buffers, inputs):
        state = dict(zip(pnames, params))
        state.update(zip(bnames, buffers))
        out = functional_call(module, state, tuple(inputs))
        return [o for o in pytree.tree_flatten(out)[0]
                if isinstance(o, torch.Tensor)]
    return infer


class _Specialising:
    """While tracing, an op whose result is data (a tensor's value as a
    Python number: `if y.sum() > 0`, .item()) runs on the example's real
    tensors, as eager would, instead of failing (torch 1.13's make_fx
    refuses it even in its "real" mode): the trace follows the branch the
    example inputs take, and the number is a constant in the graph."""

    def __init__(self, torch):
        from torch.fx.experimental import proxy_tensor
        self.torch = torch
        self.module = proxy_tensor
        self.original = getattr(proxy_tensor, "proxy_call", None)

    def call(self, mode, func, args, kwargs):
        if self.torch.Tag.data_dependent_output in func.tags:
            return func(*args, **kwargs)
        return self.original(mode, func, args, kwargs)

    def __enter__(self):
        if self.original is not None:
            self.module.proxy_call = self.call
        return self

    def __exit__(self, *exc):
        if self.original is not None:
            self.module.proxy_call = self.original


def trace_inference(module, example_inputs):
    """The aten graph of one inference run and what it was traced with:
    (graph module, parameter names, buffer names, flat inputs)."""
    torch = _torch()
    from torch.fx.experimental.proxy_tensor import make_fx
    if not isinstance(module, torch.nn.Module):
        raise TableError("from_torch_aten needs an nn.Module, not %s"
                         % type(module).__name__)
    pnames = [n for n, _ in module.named_parameters()]
    params = [p.detach() for _, p in module.named_parameters()]
    bnames = [n for n, _ in module.named_buffers()]
    buffers = [b.detach() for _, b in module.named_buffers()]
    inputs = list(example_inputs)
    infer = _infer_function(torch, module, pnames, bnames)
    try:
        with torch.no_grad(), _Specialising(torch):
            gm = make_fx(infer)(params, buffers, inputs)
    except Exception as e:
        raise TableError("running %s on the example inputs failed: %s"
                         % (type(module).__name__, e))
    if not [n for n in gm.graph.nodes if n.op == "output"][0].args[0]:
        raise TableError("%s returns no tensor" % type(module).__name__)
    return gm, pnames, bnames, params + buffers + inputs


def from_torch_aten(module, example_inputs, weights=False, alignment=1,
                    uses=False, return_graph=False):
    """The lifetime table (Rows) of one inference run of an nn.Module,
    traced at the aten level.

    Arguments as torch_import.from_torch(), whose tables it can stand in
    for: module (in eval() for inference), example_inputs (a tensor or a
    tuple of tensors), weights, alignment, uses (each row's producer and
    reader steps), return_graph (also the traced.Traced that
    tplan.executor runs).
    """
    torch = _torch()
    if isinstance(example_inputs, torch.Tensor):
        example_inputs = (example_inputs,)
    example_inputs = tuple(example_inputs)
    if alignment < 1 or alignment & (alignment - 1):
        raise TableError("alignment %d is not a power of two" % alignment)
    gm, pnames, bnames, flat = trace_inference(module, example_inputs)
    probe = _Probe(torch, gm)
    facts = probe.run(flat)
    names = _value_names(gm, pnames, bnames, len(example_inputs), extra=())
    b = _Builder(gm, facts, names, len(pnames) + len(bnames),
                 alignment).build()
    outputs = ["output" if k == 0 else "output_%d" % k
               for k in range(len(b.outputs))]
    table = b.table(outputs, weights)
    if not uses:
        table = table.without_uses()
    if not return_graph:
        return table
    return table, Traced(gm, flat, b.step_of, b.slots(probe.tuples), True)
