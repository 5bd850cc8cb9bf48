# SPDX-License-Identifier: MIT
"""A plan run many times: tplan.execute()'s check=False run, compiled once.

    runner = tplan.Runner(traced, table, plan)     # as execute() takes them
    out = runner(x)             # the first call runs as execute() does
    out = runner(y)             # later ones replay it

The first call runs the graph as execute(check=False) does and records what
each node did with its values (which rows torch wrote in place, which were
copied, how).  From that it writes the run as one straight-line Python
function: every row's view of the arena and every constant made once, a
node one call of its aten op, writing straight into its row (the op's out=
variant) where the op has one, else followed by the copy of its result
into its row.  Later calls run that function: what an inference runtime
does once its plan is made, without the per-node bookkeeping of the
reference executor (docs/IMPORTERS.md has the figures).  The first call
also runs it once and compares the outputs with its own: where they
differ, it uses copies only.  With garbage=True the dead bytes are
overwritten as execute() does, so the arena's bytes are execute()'s.

A Runner holds its arena, and views of it, until it is dropped.  A plan
with spill pieces, or inputs of other shapes, dtypes or strides than the
first call's, are refused (ExecutionError): execute() runs those.
"""
import operator

from .executor import (GARBAGE, ExecutionError, _arena, _detached, _Executor,
                       _minus, _placement, _placeholder_index, _torch)


class Runner:
    """traced, table, plan, aliases, arena, keep: as tplan.execute() takes
    them (a plan without spill pieces); seed: torch's seed at each run;
    garbage: overwrite dead bytes as execute() does."""

    def __init__(self, traced, table, plan, aliases=False, arena=None,
                 keep=(), seed=0, garbage=False):
        torch = _torch()
        if getattr(plan, "offsets", None) is None:
            raise ExecutionError("a Runner runs a plan of offsets, not a "
                                 "spill plan's pieces: use execute()")
        self.traced, self.seed, self.garbage = traced, seed, garbage
        self.arena = _arena(torch, plan, arena)
        self._ex = _Executor(traced, table, _placement(plan), self.arena,
                             aliases, None, False, False, None, keep)
        self._run = None
        self._shapes = None

    def __call__(self, *inputs):
        """The graph's outputs (copies) for inputs, the module's own inputs
        (the traced ones when none are given)."""
        torch = _torch()
        if inputs:
            self.traced.inputs[-len(inputs):] = list(inputs)
        shapes = [_layout(torch, x) for x in self.traced.inputs]
        with torch.no_grad():
            if self._run is None:
                return self._first(shapes)
            if shapes != self._shapes:
                raise ExecutionError("a Runner replays the inputs' shapes, "
                                     "dtypes and strides of its first call")
            return self._replay()

    def _first(self, shapes):
        torch = _torch()
        out = self._ex.run(self.seed)
        self._shapes = shapes
        self._run = _compile(self._ex, self.garbage, fast=True)
        try:
            same = _equal(torch, self._replay(), out)
        except RuntimeError:        # an out= variant that refused
            same = False
        if not same:
            self._run = _compile(self._ex, self.garbage, fast=False)
        self._ex = None     # what the replay needs, it holds
        return out

    @property
    def source(self):
        """The replay function's text, once compiled (None before)."""
        return self._run.source if self._run is not None else None

    def _replay(self):
        torch = _torch()
        torch.default_generator.manual_seed(self.seed)
        return _detached(torch, self._run(self.traced.inputs))


def _equal(torch, got, want):
    return len(got) == len(want) and all(
        torch.equal(a, b) if isinstance(a, torch.Tensor) else a == b
        for a, b in zip(got, want))


def _layout(torch, x):
    if isinstance(x, torch.Tensor):
        return (x.dtype, tuple(x.shape), tuple(x.stride()))
    return type(x)


class _Source:
    """The replay function's text and the objects its names stand for."""

    def __init__(self):
        self.lines = ["def run(inputs):"]
        self.consts = {}
        self.names = {}

    def const(self, obj, prefix="k"):
        key = id(obj)
        if key not in self.names:
            name = "%s%d" % (prefix, len(self.consts))
            self.consts[name] = obj
            self.names[key] = name
        return self.names[key]

    def line(self, text):
        self.lines.append("    " + text)


def _compile(ex, garbage, fast):
    """The recorded run of ex (an _Executor after run()) as a function of
    the traced inputs; garbage: fill dead bytes; fast: ops write into their
    rows (out= variants), view ops are not run."""
    src = _Source()
    reads = {}          # fx node -> the expression that reads its value
    step = 0
    for lo, hi in _kept_out(ex) if garbage else ():
        src.line("%s.fill_(%d)" % (src.const(ex.arena[lo:hi], "g"),
                                   GARBAGE))
    for i, node in enumerate(ex.traced.gm.graph.nodes):
        target = ex.traced.steps.get(node, step)
        while step < target:
            step += 1
            if garbage:
                _garbage_at(src, ex, step)
        value = "v%d" % i
        if node.op == "output":
            src.line("return " + _render(src, node.args[0], reads))
            break
        if fast and _is_view(node, ex):     # its rows' views stand for it
            reads[node] = _stored(src, ex, node, value)
            continue
        into = _out_rows(ex, node) if fast else None
        if into is not None:
            reads[node] = _call_out(src, node, reads, *into)
            continue
        src.line("%s = %s" % (value, _call(src, ex, node, reads)))
        reads[node] = _stored(src, ex, node, value)
    text = "\n".join(src.lines) + "\n"
    scope = dict(src.consts)
    exec(compile(text, "<tplan.Runner>", "exec"), scope)  # noqa: S102
    scope["run"].source = text
    return scope["run"]


def _kept_out(ex):
    """The arena's ranges execute() fills with garbage before a run."""
    kept = [(ex.place.at(r, 0), ex.place.at(r, 0) + ex.rows.row[r].size)
            for r in ex.keep]
    return _minus(0, ex.arena.numel(), kept)


def _garbage_at(src, ex, step):
    for root in ex.dead_at.get(step, ()):
        if root in ex.keep or not ex.rows.row[root].size:
            continue
        at = ex.place.at(root, step - 1)
        view = ex.arena[at:at + ex.rows.row[root].size]
        src.line("%s.fill_(%d)" % (src.const(view, "g"), GARBAGE))


def _out_rows(ex, node):
    """(node's out= variant, the views of its rows) when its op can write
    there itself: an aten op with an out= variant, each of its results a
    row copied as it was; else None."""
    variant = _out_variant(node)
    if variant is None:
        return None
    outs = variant[1]
    slots = [(node, None)] if len(outs) == 1 else \
        [(node, k) for k in range(len(outs))]
    views = []
    for slot in slots:
        written = ex.writes.get(slot)
        how = written[1] if written else None
        if how is None or how.dense or how.clone or not how.span:
            return None
        views.append(ex.view(written[0]))
    return variant, views


def _out_variant(node):
    """(the out= overload of node's aten op, its out arguments' names)
    when it takes node's arguments as they are (same names and types:
    arange's out= takes no dtype, add.Scalar's other is no Tensor); else
    None."""
    target = node.target
    packet = getattr(target, "overloadpacket", None)
    if node.op != "call_function" or packet is None or \
            "out" not in packet.overloads() or \
            getattr(target, "_overloadname", None) == "out":
        return None
    args = packet.out._schema.arguments
    outs = [a.name for a in args if a.is_out]
    ins = [(a.name, str(a.type), a.kwarg_only) for a in args
           if not a.is_out]
    have = [(a.name, str(a.type), a.kwarg_only)
            for a in target._schema.arguments]
    if have != ins or len(outs) != len(target._schema.returns):
        return None
    return packet.out, outs


def _is_view(node, ex):
    """node only makes views of the arena that its rows' views stand for
    (a view op, or getitem of a list of them): no need to run it."""
    target = node.target
    if node.op != "call_function":
        return False
    if target is not operator.getitem:
        schema = getattr(target, "_schema", None)
        if schema is None or any(
                a.alias_info is not None and a.alias_info.is_write
                for a in schema.arguments) or not all(
                r.alias_info is not None and not r.alias_info.is_write
                for r in schema.returns):
            return False
    result = ex.env.get(node)
    slots = [(node, k) for k in range(len(result))] \
        if isinstance(result, (tuple, list)) else [(node, None)]
    return all(ex.traced.slots.get(slot) in ex.meta and
               ex.writes.get(slot, (None, None))[1] is None
               for slot in slots)


def _call_out(src, node, reads, variant, views):
    """node's op (variant: its out= overload and out arguments) writing
    into views (its rows) itself; the expression that reads its value."""
    variant, outs = variant
    names = [src.const(v, "r") for v in views]
    args = [_render(src, a, reads) for a in node.args]
    args += ["%s=%s" % (k, _render(src, v, reads))
             for k, v in node.kwargs.items()]
    args += ["%s=%s" % (o, n) for o, n in zip(outs, names)]
    src.line("%s(%s)" % (src.const(variant._op, "f"), ", ".join(args)))
    if len(names) == 1:
        return names[0]
    return "(%s)" % "".join(n + ", " for n in names)


def _call(src, ex, node, reads):
    """The expression computing node's value."""
    if node.op == "placeholder":
        return "inputs[%d]" % _placeholder_index(ex.traced, node)
    if node.op == "get_attr":
        obj = ex.traced.gm
        for part in node.target.split("."):
            obj = getattr(obj, part)
        return src.const(obj)
    args = [_render(src, a, reads) for a in node.args]
    args += ["%s=%s" % (k, _render(src, v, reads))
             for k, v in node.kwargs.items()]
    if node.op == "call_function":
        fn = getattr(node.target, "_op", node.target)   # no Python wrapper
        return "%s(%s)" % (src.const(fn, "f"), ", ".join(args))
    if node.op == "call_method":
        return "%s.%s(%s)" % (args[0], node.target, ", ".join(args[1:]))
    if node.op == "call_module":
        module = ex.traced.gm.get_submodule(node.target)
        return "%s(%s)" % (src.const(module, "m"), ", ".join(args))
    raise ExecutionError("unknown fx node kind %s" % node.op)


def _render(src, arg, reads):
    """An argument as an expression: nodes read, containers rebuilt,
    anything else a constant."""
    torch = _torch()
    if isinstance(arg, torch.fx.Node):
        return reads[arg]
    if isinstance(arg, tuple):
        return "(%s)" % "".join(_render(src, a, reads) + ", " for a in arg)
    if isinstance(arg, list):
        return "[%s]" % ", ".join(_render(src, a, reads) for a in arg)
    if isinstance(arg, dict):
        return "{%s}" % ", ".join("%s: %s" % (src.const(k),
                                              _render(src, v, reads))
                                  for k, v in arg.items())
    return src.const(arg)


def _stored(src, ex, node, value):
    """Copies node's value into its rows as store() did; returns the
    expression that reads it (rows as their views)."""
    slots = ex.traced.slots
    result = ex.env.get(node)
    if isinstance(result, (tuple, list)):
        parts = []
        for k in range(len(result)):
            item = "%s[%d]" % (value, k)
            parts.append(_stored_one(src, ex, (node, k), item))
        body = "".join(p + ", " for p in parts)
        text = "(%s)" % body if isinstance(result, tuple) else \
            "[%s]" % body
        name = "w" + value[1:]
        src.line("%s = %s" % (name, text))
        return name
    if (node, None) not in slots:
        return value
    return _stored_one(src, ex, (node, None), value)


def _stored_one(src, ex, slot, item):
    rid = ex.traced.slots.get(slot)
    if rid is None or rid not in ex.meta:
        return item
    written = ex.writes.get(slot)
    if written is not None and written[1] is not None and written[1].span:
        how = written[1]
        dtype = ex.meta[rid][0]
        flat = ex.typed(ex.arena, ex.location(rid), how.span *
                        _element_size(dtype), dtype, rid)[:how.span]
        source = item + (".contiguous()" if how.dense else "") + \
            ".as_strided((%d,), (1,))" % how.span + \
            (".clone()" if how.clone else "")
        src.line("%s.copy_(%s)" % (src.const(flat, "s"), source))
    return src.const(ex.view(rid), "r")


def _element_size(dtype):
    return _torch().empty((), dtype=dtype).element_size()
