# SPDX-License-Identifier: MIT
"""nn.Module -> the lifetime table of one training step (forward + backward).

from_torch_training(module, example_inputs) puts the module in train mode
and traces, with torch.fx.experimental.proxy_tensor.make_fx, a function
that runs the module on the inputs (torch.nn.utils.stateless
.functional_call, the parameters and buffers passed in), computes the loss
and torch.autograd.grad of the loss with respect to every parameter that
requires a gradient.  The result is an aten-level graph: the forward ops,
then the backward ops autograd runs, reading the tensors it saved.  That
graph is then run once more on the same inputs (an fx Interpreter), which
shows for every op's result whether it owns new bytes or shares an input's
storage (a view, an in-place op), at which byte offset and over how many
bytes.

Steps: step 0 holds every graph input (the inputs, the target, the
parameters and buffers); step k >= 1 is the k-th aten op node; the last
step is the output node.  getitem nodes pick a piece of a tuple result and
are not steps (the piece is the op's).

A tensor the module holds outside its parameters and buffers is a
get_attr node (make_fx names it _tensor_constantK): a weight too, no step.

Rows: one per tensor with bytes that is not a weight: graph inputs
("input", "input_1", ..., and "target"), every op's results (the fx node
name, or the getitem's name for a piece of a tuple), the gradients (named
PARAMETER.grad, graph outputs, alive to the end as the optimizer step
reads them) and the loss ("loss").  Parameters and buffers are weights
(share_key rows with weights=True), and a result sharing a weight's
storage (t() of a weight, an in-place update of a running statistic) is
that weight.  A result of no bytes has no row.

A result sharing an input's storage aliases the row owning that storage
(alias_of, alias_offset = its first byte's distance from the owner's
first byte, size = the bytes from its first to its last element: an
expand() covers its input's bytes only).  Torch allocates nothing for it,
so tplanctl plan --aliases plans the group as one block; Rows.folded()
makes each group one row.

uses: the steps at which a tensor is written (its producer) or read; a
graph output is also read at the last step; an alias row's uses are its
own (the folded row has the union of the group's).
"""
import operator

from .rows import Row, Rows, TableError
from .torch_import import _torch
from .traced import Traced

LOSSES = ("cross_entropy", "sum")


def _outputs_and_target(torch, module, inputs, loss):
    """The module's output tensors (a dry run) and the loss's target."""
    import torch.utils._pytree as pytree
    try:
        with torch.no_grad():
            out = module(*inputs)
    except Exception as e:
        raise TableError("running %s on the example inputs failed: %s"
                         % (type(module).__name__, e))
    outs = [o for o in pytree.tree_flatten(out)[0]
            if isinstance(o, torch.Tensor)]
    if not outs:
        raise TableError("%s returns no tensor: nothing to take the loss of"
                         % type(module).__name__)
    if loss == "sum":
        return None
    for o in outs:
        if o.dim() != 2 or not o.is_floating_point() or \
                o.shape[0] != outs[0].shape[0]:
            raise TableError("--loss cross_entropy needs outputs of shape "
                             "[N, classes] (got %s): use --loss sum"
                             % "x".join(str(d) for d in o.shape))
    classes = min(int(o.shape[1]) for o in outs)
    return torch.randint(classes, (int(outs[0].shape[0]),))


def _step_function(torch, module, names, loss, graded):
    """f(params, buffers, inputs, target) -> [loss, gradients...]; the
    names of the parameters that get a gradient go to the list graded."""
    import torch.utils._pytree as pytree
    from torch.nn.utils.stateless import functional_call
    pnames, bnames = names

    def step(params, buffers, inputs, target):
        state = dict(zip(pnames, params))
        state.update(zip(bnames, buffers))
        out = functional_call(module, state, tuple(inputs))
        outs = [o for o in pytree.tree_flatten(out)[0]
                if isinstance(o, torch.Tensor)]
        total = None
        for o in outs:
            if loss == "sum":
                term = o.sum()
            else:
                term = torch.nn.functional.cross_entropy(o, target)
            total = term if total is None else total + term
        wanted = [(n, p) for n, p in zip(pnames, params) if p.requires_grad]
        grads = torch.autograd.grad(total, [p for _, p in wanted],
                                    allow_unused=True)
        graded[:] = [n for (n, _), g in zip(wanted, grads) if g is not None]
        return [total] + [g for g in grads if g is not None]
    return step


def trace_training(module, example_inputs, loss="cross_entropy"):
    """The aten graph of one training step and what it was traced with:
    (graph module, parameter names, buffer names, flat inputs, the names of
    the parameters with a gradient, in the graph's output order)."""
    torch = _torch()
    from torch.fx.experimental.proxy_tensor import make_fx
    if not isinstance(module, torch.nn.Module):
        raise TableError("from_torch_training needs an nn.Module, not %s"
                         % type(module).__name__)
    if loss not in LOSSES:
        raise TableError("unknown loss '%s' (%s)" % (loss, ", ".join(LOSSES)))
    module.train()
    inputs = tuple(example_inputs)
    target = _outputs_and_target(torch, module, inputs, loss)
    named = list(module.named_parameters())
    if not any(p.requires_grad for _, p in named):
        raise TableError("%s has no parameter that requires a gradient"
                         % type(module).__name__)
    pnames = [n for n, _ in named]
    params = [p.detach().clone().requires_grad_(p.requires_grad)
              for _, p in named]
    bnames = [n for n, _ in module.named_buffers()]
    buffers = [b.detach().clone() for _, b in module.named_buffers()]
    graded = []
    step = _step_function(torch, module, (pnames, bnames), loss, graded)
    if target is None:
        target = torch.zeros(0)
    try:
        gm = make_fx(step)(params, buffers, list(inputs), target)
    except Exception as e:
        raise TableError("make_fx cannot trace a training step of %s: %s"
                         % (type(module).__name__, e))
    flat = params + buffers + list(inputs) + [target]
    return gm, pnames, bnames, flat, graded


class _Probe:
    """Runs the graph and records, per node, its tensors' storage facts."""

    def __init__(self, torch, gm):
        self.torch = torch
        self.gm = gm
        self.facts = {}     # node -> list of (tensor facts or None)
        self.tuples = set() # nodes returning a tuple or list

    def fact(self, t):
        if not isinstance(t, self.torch.Tensor) or t.numel() == 0:
            return None
        elem = t.element_size()
        span = 1
        for d, s in zip(t.shape, t.stride()):
            span += (int(d) - 1) * abs(int(s))
        return {"storage": t.storage().data_ptr(), "ptr": t.data_ptr(),
                "span": span * elem, "alloc": t.storage().nbytes(),
                "elem": elem, "dtype": str(t.dtype).replace("torch.", ""),
                "shape": "x".join(str(int(d)) for d in t.shape) or
                "scalar"}

    def run(self, flat):
        torch = self.torch
        probe = self

        class Interp(torch.fx.Interpreter):
            def run_node(self, n):
                result = super().run_node(n)
                if isinstance(result, (tuple, list)):
                    probe.tuples.add(n)
                    probe.facts[n] = [probe.fact(r) for r in result]
                else:
                    probe.facts[n] = [probe.fact(result)]
                return result
        try:
            # make_fx flattens the arguments: one placeholder per tensor
            Interp(self.gm).run(*flat)
        except Exception as e:
            raise TableError("running the traced graph failed: %s"
                             % e)
        return self.facts


def _value_names(gm, pnames, bnames, ninputs, extra=("target",)):
    """fx node -> the name of its value (weights: the parameter names);
    extra: the placeholders after the inputs."""
    places = [n for n in gm.graph.nodes if n.op == "placeholder"]
    names = list(pnames) + list(bnames)
    names += ["input" if k == 0 else "input_%d" % k for k in range(ninputs)]
    names.extend(extra)
    if len(places) != len(names):
        raise TableError("the traced step has %d inputs, expected %d"
                         % (len(places), len(names)))
    return dict(zip(places, names))


class _Builder:
    """The rows of a traced training step (see the module description)."""

    def __init__(self, gm, facts, names, nweights, alignment):
        self.gm = gm
        self.facts = facts
        self.nodes = list(gm.graph.nodes)
        self.value = {}         # (node, k) -> value name
        self.owner = {}         # value -> (owner value, offset) or None
        self.weight_of = {}     # value -> weight name it is part of
        self.size = {}
        self.lower = {}
        self.uses = {}
        self.order = []         # row values in table order
        self.weights = []       # weight names in order
        self.weight_size = {}
        self.weight_uses = {}
        self.base = {}          # owner value -> (storage, first byte ptr)
        self.names = names
        self.nweights = nweights
        self.alignment = alignment
        self.steps = 0
        self.step_of = {}       # fx node -> its step
        self.facts_of_row = {}  # value -> (alignment, node, dtype, shape)

    def _piece(self, node):
        """An fx node read as an argument -> (producer node, k)."""
        if node.op == "call_function" and node.target is operator.getitem \
                and isinstance(node.args[1], int) and \
                node.args[0].op != "placeholder":
            return node.args[0], node.args[1]
        return node, 0

    def _reads(self, node):
        torch = _torch()
        out = []
        torch.fx.node.map_arg((node.args, node.kwargs), out.append)
        return [self._piece(n) for n in out]

    def _use(self, value, step):
        if value in self.weight_of:
            w = self.weight_of[value]
            self.weight_uses.setdefault(w, []).append(step)
        elif value in self.uses:
            self.uses[value].append(step)

    def _describe(self, value, fact):
        node = value[0]
        op = "input" if node.op == "placeholder" else str(node.target)
        if op.endswith(".default"):
            op = op[:-len(".default")]
        self.facts_of_row[value] = (max(self.alignment, fact["elem"]), op,
                                    fact["dtype"], fact["shape"])

    def _new_row(self, value, fact, step):
        self._describe(value, fact)
        self.size[value] = fact["alloc"] - (fact["ptr"] - fact["storage"])
        self.owner[value] = None
        self.base[value] = (fact["storage"], fact["ptr"])
        self.lower[value] = step
        self.uses[value] = [step]
        self.order.append(value)

    def _root(self, value):
        while self.owner.get(value) is not None:
            value = self.owner[value][0]
        return value

    def _place(self, value, fact, step, candidates):
        """Makes value a row, an alias of a candidate's storage, or part of
        a weight."""
        for c in candidates:
            cf = self.fact_of.get(c)
            if cf is None or cf["storage"] != fact["storage"]:
                continue
            if c in self.weight_of:
                self.weight_of[value] = self.weight_of[c]
                return
            root = self._root(c)
            offset = fact["ptr"] - self.base[root][1]
            if offset < 0 or offset + fact["span"] > self.size[root] or \
                    offset % max(self.alignment, fact["elem"]):
                break       # not inside its owner's bytes, or misaligned
                            # there: bytes of its own, as a copy would
            self._describe(value, fact)
            self.owner[value] = (root, offset)
            self.size[value] = fact["span"]
            self.lower[value] = step
            self.uses[value] = [step]
            self.order.append(value)
            return
        self._new_row(value, fact, step)

    def _inputs(self):
        """Step 0: weights first (as traced), then the graph inputs."""
        places = [n for n in self.nodes if n.op == "placeholder"]
        for index, node in enumerate(places):
            value = (node, 0)
            fact = self.facts[node][0]
            self.fact_of[value] = fact
            name = self.names[node]
            if index < self.nweights:
                self.weights.append(name)
                self.weight_of[value] = name
                self.weight_size[name] = fact["alloc"] if fact else 0
                self.weight_uses[name] = []
            elif fact is not None:
                self.value[value] = name
                self._place(value, fact, 0, [])

    def _constant(self, node):
        """A get_attr node (a tensor the module holds outside its
        parameters and buffers): a weight, no step."""
        value = (node, 0)
        fact = self.facts[node][0]
        self.fact_of[value] = fact
        self.weight_of[value] = node.target
        if node.target not in self.weight_uses:     # read once more
            self.weights.append(node.target)
            self.weight_size[node.target] = fact["alloc"] if fact else 0
            self.weight_uses[node.target] = []

    def build(self):
        self.fact_of = {}
        self._inputs()
        step = 0
        for node in self.nodes:
            if node.op == "placeholder":
                self.step_of[node] = 0
                continue
            if node.op == "get_attr":
                self._constant(node)
                continue
            if self._piece(node) != (node, 0):
                # a getitem names a piece; the producer's step wrote it
                self.value[self._piece(node)] = node.name
                continue
            step += 1
            self.step_of[node] = step
            reads = self._reads(node)
            if node.op == "output":
                self.steps = step + 1
                self.outputs = reads
                for v in reads:
                    self._use(v, step)
                continue
            for v in dict.fromkeys(reads):
                self._use(v, step)
            inputs = list(dict.fromkeys(reads))
            for k, fact in enumerate(self.facts[node]):
                value = (node, k)
                self.fact_of[value] = fact
                if fact is None:
                    continue
                self.value.setdefault(value, node.name if len(
                    self.facts[node]) == 1 else "%s.%d" % (node.name, k))
                self._place(value, fact, step, inputs)
                inputs.append(value)
        return self

    def table(self, out_names, weights):
        outs = self.outputs
        # the graph's outputs take out_names, in order; the output node
        # (the last step) has read them already
        rename = {}
        for name, v in zip(out_names, outs):
            if v in self.uses and v not in rename:
                rename[v] = name
        names = {}
        for v in self.order:
            names[v] = rename.get(v, self.value[v])
        self.row_names = names
        table = Rows()
        for v in self.order:
            up = max(self.uses[v]) + 1
            if v in outs:
                up = self.steps
            uses = tuple(sorted(set(self.uses[v])))
            owner = self.owner[v]
            align, node, dtype, shape = self.facts_of_row[v]
            table.append(Row(names[v], self.lower[v],
                             max(up, self.lower[v] + 1), self.size[v],
                             align, names[owner[0]] if owner else None,
                             owner[1] if owner else 0, uses=uses, node=node,
                             dtype=dtype, shape=shape))
        if weights:
            for key, w in enumerate(self.weights, 1):
                uses = tuple(sorted(set(self.weight_uses[w])))
                table.append(Row(w, 0, self.steps, self.weight_size[w],
                                 self.alignment, share_key=key,
                                 uses=uses or None))
        return table

    def slots(self, tuples):
        """traced.Traced's slots: (node, k) -> row id, k None for a node
        returning one tensor; a getitem picking a piece names its row."""
        out = {}
        for (node, k), name in self.row_names.items():
            out[(node, k if node in tuples else None)] = name
        for node in self.nodes:
            piece = self._piece(node)
            if piece != (node, 0) and piece in self.row_names:
                out[(node, None)] = self.row_names[piece]
        return out


def from_torch_training(module, example_inputs, loss="cross_entropy",
                        weights=False, alignment=1, return_graph=False):
    """The lifetime table (Rows, with uses) of one training step.

    module: an nn.Module (put in train mode); example_inputs: a tensor or a
    tuple of tensors, one per forward() argument.  loss: "cross_entropy"
    (every output [N, classes], against random labels: the graph input
    "target"; outputs summed) or "sum" (the sum of every output element).
    weights: emit parameters and buffers as share_key rows.  alignment:
    every row's (a view at an offset it does not divide gets bytes of its
    own).  return_graph: return (table, traced.Traced), the graph the
    table describes (its inputs: the parameters, buffers, inputs and
    target it was traced with), which tplan.executor runs.
    """
    torch = _torch()
    if isinstance(example_inputs, torch.Tensor):
        example_inputs = (example_inputs,)
    example_inputs = tuple(example_inputs)
    gm, pnames, bnames, flat, graded = trace_training(module, example_inputs,
                                                      loss)
    probe = _Probe(torch, gm)
    facts = probe.run(flat)
    names = _value_names(gm, pnames, bnames, len(example_inputs))
    if alignment < 1 or alignment & (alignment - 1):
        raise TableError("alignment %d is not a power of two" % alignment)
    b = _Builder(gm, facts, names, len(pnames) + len(bnames),
                 alignment).build()
    table = b.table(["loss"] + [p + ".grad" for p in graded], weights)
    if not return_graph:
        return table
    return table, Traced(gm, flat, b.step_of, b.slots(probe.tuples), True)
